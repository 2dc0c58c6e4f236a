"""Find, load, check and cache catalogs.

Catalogs live in folders: ``<root>/<system>/system.yaml`` defines a game system and every other
``<root>/<system>/*.yaml`` file is a faction of it. Roots are searched in this order, later ones
adding factions (or replacing one with the same id):

1. the catalogs bundled with armybuilder;
2. the user's catalog folder (``armybuilder catalogs --paths`` prints it);
3. folders named in the ``ARMYBUILDER_CATALOGS`` environment variable (``os.pathsep``-separated);
4. folders passed explicitly (``--catalogs DIR`` on the command line).

Files are parsed with the safe YAML loader, validated by the pydantic models and checked for
consistency (unknown ids, duplicates). A validated file is cached as JSON keyed by its path, size,
modification time and content, so a second start does not parse unchanged YAML again. Problems
are reported with file, line and column, found by re-reading the file with the round-trip loader
only when something is wrong. The whole scanned library is kept too (:mod:`armybuilder.libcache`),
its catalogs as plain objects (:mod:`armybuilder.model.plain`), so that a start that finds it
neither validates nor imports pydantic.

The rooms of this package, lowest first (each imports only the ones above it):

* :mod:`.files`: one catalog file: parse, validate, cache, problems with line and column;
* :mod:`.index`: :class:`GameSystem`, :class:`Faction` and :class:`CatalogIndex`, the
  resolved catalog of one faction (ids looked up, links merged, children of an entry);
* :mod:`.checks`: consistency checks (unknown ids, duplicates, modifiers naming nothing, the
  rules module's own catalog checks);
* :mod:`.custom`: a roster's own ``custom:`` entries, checked like a catalog file;
* :mod:`.library`: :class:`Library`, every system on the search path, scanned and checked;
* :mod:`.lint`: ``armybuilder check-catalog`` on files a user wrote.
"""

from ..model.messages import clean_loc, describe
from .checks import (
    _iter_entries,
    _module_problems,
    _problems_at,
    check_references,
    faction_entry_ids,
    iter_entries,
)
from .custom import CustomProblem, custom_catalog
from .files import LoadedFile, _clean_loc, _describe, load_catalog_file
from .index import (
    TYPE_REFS,
    CatalogIndex,
    Child,
    Faction,
    GameSystem,
    _merge_link,
    all_constraints,
    merge_link,
    walk_groups,
)
from .library import Library, default_library, default_roots
from .lint import check_paths

__all__ = [
    "TYPE_REFS",
    "CatalogIndex",
    "Child",
    "CustomProblem",
    "Faction",
    "GameSystem",
    "Library",
    "LoadedFile",
    "_clean_loc",
    "_describe",
    "_iter_entries",
    "_merge_link",
    "_module_problems",
    "_problems_at",
    "all_constraints",
    "check_paths",
    "check_references",
    "clean_loc",
    "custom_catalog",
    "default_library",
    "default_roots",
    "describe",
    "faction_entry_ids",
    "iter_entries",
    "load_catalog_file",
    "merge_link",
    "walk_groups",
]
