"""``python -m armybuilder`` runs the command line."""

from .launch import main

raise SystemExit(main())
