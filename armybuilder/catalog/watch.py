"""Read the catalogs again when their files change (the builder polls :func:`stamp`).

Only the folders a user writes in are watched: every root of the library except the catalogs
bundled with armybuilder (those change only with armybuilder itself). A reload scans a fresh
:class:`Library` on the same roots (unchanged files come from the per-file cache); if the
change brings problems the previous catalogs did not have (a file that does not parse, an id
that refers to nothing), :func:`reload` keeps the previous library and returns the problems,
so a half-written file never takes a working catalog away.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Problem
from ..paths import bundled_dir
from .library import Library

#: What :func:`stamp` returns: (file, size, modification time) of each watched catalog file.
Stamp = frozenset[tuple[str, int, int]]


def watched_roots(library: Library) -> list[Path]:
    """The library's roots a user may write in (all but the bundled catalogs)."""
    bundled = bundled_dir("catalogs").resolve()
    out = []
    for root in library.roots:
        try:
            if root.resolve() == bundled:
                continue
        except OSError:
            continue
        out.append(root)
    return out


def stamp(roots: list[Path]) -> Stamp:
    """The catalog files under ``roots`` (``<root>/<system>/*.yaml``) as they are now."""
    found: set[tuple[str, int, int]] = set()
    for root in roots:
        try:
            folders = [p for p in root.iterdir() if p.is_dir()]
        except OSError:
            continue
        for folder in folders:
            try:
                files = list(folder.glob("*.yaml"))
            except OSError:
                continue
            for path in files:
                try:
                    st = path.stat()
                except OSError:
                    continue
                found.add((str(path), st.st_size, st.st_mtime_ns))
    return frozenset(found)


@dataclass
class Reloaded:
    """The outcome of :func:`reload`."""

    #: The library to use from now on (the previous one when the change brought problems).
    library: Library
    #: Problems the change brought (empty: the new catalogs are in use).
    problems: list[Problem] = field(default_factory=list)
    #: The files added, changed or removed, by name.
    changed: list[str] = field(default_factory=list)

    @property
    def kept_previous(self) -> bool:
        return bool(self.problems)


def changed_files(before: Stamp, after: Stamp) -> list[str]:
    """Names of the files added, changed or removed between two stamps."""
    return sorted({Path(f).name for f, _, _ in before ^ after})


def reload(previous: Library, before: Stamp, after: Stamp) -> Reloaded:
    """Scan the catalogs again (call it off the UI thread)."""
    changed = changed_files(before, after)
    fresh = Library(previous.roots, use_cache=previous.use_cache).scan()
    old = {str(p) for p in previous.problems}
    for gs in previous.systems.values():
        old.update(str(p) for p in gs.problems)
    new = [p for p in fresh.problems if str(p) not in old]
    for gs in fresh.systems.values():
        new.extend(p for p in gs.problems if str(p) not in old and p not in new)
    if new:
        return Reloaded(previous, new, changed)
    return Reloaded(fresh, [], changed)
