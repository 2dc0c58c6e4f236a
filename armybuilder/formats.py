"""Readers for catalog and roster files in formats other than ours, found by file suffix.

The core knows no other format by name: a package registers its readers here (see
``armybuilder/interop/__init__.py``), and the catalog library and :meth:`Roster.from_file` ask
this registry. Registration is lazy: the modules named in :data:`PROVIDERS` are imported the
first time a reader is looked up, so a start that never meets such a file never imports them.

- A *catalog reader* takes a folder holding files with one of its suffixes (a folder is one game
  system) and returns the game systems it holds, with their problems.
- A *roster reader* takes a roster file and returns the roster in our YAML format, as text.
- A *roster writer* takes a roster (and the catalog library) and returns the bytes of a file of
  its format: ``armybuilder export --to NAME`` offers each registered writer by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import GameSystem
    from .errors import Problem

#: Modules that register readers when imported (imported on the first look-up).
PROVIDERS: list[str] = ["armybuilder.interop"]

CatalogReader = Callable[[Path, bool], "tuple[list[GameSystem], list[Problem]]"]
RosterReader = Callable[[Path, Any], str]
#: (roster, catalog library, the output file's name) -> the file's bytes; raises
#: ArmybuilderError when the roster cannot be written in that format.
RosterWriter = Callable[[Any, Any, str], bytes]


@dataclass(frozen=True)
class Format:
    """One registered format: what it is called and the suffixes it reads."""

    name: str
    suffixes: tuple[str, ...]


_catalog: dict[str, tuple[Format, CatalogReader]] = {}
_roster: dict[str, tuple[Format, RosterReader]] = {}
_writers: dict[str, tuple[Format, RosterWriter]] = {}
#: Which game systems each writer can write rosters of (by writer name; all, when not given).
_writes_for: dict[str, Callable[[Any], bool]] = {}
_loaded = False


def _load_providers() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in PROVIDERS:
        importlib.import_module(name)


def register(name: str, suffixes: Sequence[str], reader: CatalogReader) -> None:
    """Register a catalog reader for folders holding files with these suffixes."""
    fmt = Format(name, tuple(s.lower() for s in suffixes))
    for s in fmt.suffixes:
        _catalog[s] = (fmt, reader)


def register_roster(name: str, suffixes: Sequence[str], reader: RosterReader) -> None:
    """Register a roster reader for files with these suffixes."""
    fmt = Format(name, tuple(s.lower() for s in suffixes))
    for s in fmt.suffixes:
        _roster[s] = (fmt, reader)


def register_roster_writer(
    name: str, suffix: str, writer: RosterWriter, accepts: Callable[[Any], bool] | None = None
) -> None:
    """Register a roster writer: ``export --to NAME`` writes a ``suffix`` file with it.
    ``accepts``: whether it can write a roster of this game system (the builder offers it
    only for those; ``None``: any)."""
    _writers[name] = (Format(name, (suffix.lower(),)), writer)
    if accepts is not None:
        _writes_for[name] = accepts
    else:
        _writes_for.pop(name, None)


def roster_writers() -> dict[str, tuple[Format, RosterWriter]]:
    """Every registered roster writer, by name."""
    _load_providers()
    return dict(_writers)


def writers_for(system: Any) -> dict[str, tuple[Format, RosterWriter]]:
    """The roster writers that can write a roster of ``system`` (a game system), by suffix
    (``.ros``), in the order they were registered."""
    _load_providers()
    out: dict[str, tuple[Format, RosterWriter]] = {}
    for name, (fmt, writer) in _writers.items():
        accepts = _writes_for.get(name)
        if accepts is None or accepts(system):
            for suffix in fmt.suffixes:
                out.setdefault(suffix, (fmt, writer))
    return out


def reader_for(folder: Path) -> tuple[Format, CatalogReader] | None:
    """The catalog reader for a folder holding files of another format (``None`` if none)."""
    try:
        suffixes = {p.suffix.lower() for p in folder.iterdir() if p.is_file()}
    except OSError:
        return None
    if not suffixes or (".yaml" in suffixes and not suffixes - {".yaml", ".yml", ".md"}):
        return None
    _load_providers()
    for s in sorted(suffixes):
        if s in _catalog:
            return _catalog[s]
    return None


def roster_reader(path: Path) -> tuple[Format, RosterReader] | None:
    """The roster reader for this file's suffix (``None``: our YAML format)."""
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml", ""):
        return None
    _load_providers()
    return _roster.get(suffix)


def catalog_suffixes() -> list[str]:
    """Every registered catalog suffix (for messages)."""
    _load_providers()
    return sorted(_catalog)
