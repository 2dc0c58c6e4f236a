"""``python -m armybuilder.schemas`` regenerates the committed schema files."""

from . import write_all

write_all()
