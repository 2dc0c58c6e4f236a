"""armybuilder: an army builder and roster validator for tabletop wargames.

The package is layered: :mod:`armybuilder.model` (pydantic models) is used by
:mod:`armybuilder.catalog` and :mod:`armybuilder.rosters`, which the validation engine in
:mod:`armybuilder.rules` builds on; the command line (:mod:`armybuilder.cli`) sits on top.
No module below the TUI imports Textual and no module below the renderer imports WeasyPrint.
"""

__version__ = "0.1.0"
