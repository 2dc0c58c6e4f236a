"""``python -m armybuilder.tui [FILE]``: the TUI without the command line in front."""

from __future__ import annotations

import sys

from .app import run

raise SystemExit(run(sys.argv[1] if len(sys.argv) > 1 else None))
