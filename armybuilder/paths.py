"""Where armybuilder finds its bundled data and keeps the user's files.

Bundled catalogs, templates and examples sit at the top of the source tree and are copied into
the wheel under ``armybuilder/_bundled/``; :func:`bundled_dir` finds them in either layout.
User folders follow the platform's conventions (platformdirs) and can be moved with the
``ARMYBUILDER_HOME`` environment variable (handy for tests and portable installs).
``ARMYBUILDER_STATE_DIR`` moves only the session state (recovery journals, the recent files
list): tests and benchmarks point it at a temporary folder, so the rosters they edit never
show up in a player's "Unsaved work to recover" or recent files.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
APP = "armybuilder"


def bundled_dir(name: str) -> Path:
    """The bundled folder ``name`` (``catalogs``, ``templates``, ``examples``)."""
    installed = _PACKAGE / "_bundled" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def _home() -> Path | None:
    home = os.environ.get("ARMYBUILDER_HOME")
    return Path(home) if home else None


def user_data_dir() -> Path:
    """The user's data folder (catalogs, templates, recent files)."""
    home = _home()
    if home:
        return home / "data"
    import platformdirs  # (only here: a command with ARMYBUILDER_HOME set starts faster)

    return Path(platformdirs.user_data_dir(APP))


def user_state_dir() -> Path:
    """Where the session state lives: the recovery journals (``recovery/``) and the recent
    files list (``recent.json``); ``ARMYBUILDER_STATE_DIR`` when set, else the data folder."""
    env = os.environ.get("ARMYBUILDER_STATE_DIR")
    return Path(env) if env else user_data_dir()


def user_cache_dir() -> Path:
    """The cache folder (parsed catalogs)."""
    env = os.environ.get("ARMYBUILDER_CACHE_DIR")
    if env:
        return Path(env)
    home = _home()
    if home:
        return home / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP))


def user_catalog_dir() -> Path:
    """Where a user's own catalogs go: ``<dir>/<system>/<faction>.yaml``."""
    return user_data_dir() / "catalogs"


def schema_path(kind: str) -> Path:
    """The committed JSON Schema file for ``catalog`` or ``roster``."""
    return _PACKAGE / "schemas" / f"{kind}.schema.json"
