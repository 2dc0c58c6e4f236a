"""Every game system on the catalog search path (:class:`Library`) and that search path."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .. import libcache
from ..errors import CatalogError, Problem, UnknownSystemError
from ..formats import reader_for
from ..model.plain import is_system_file
from ..paths import bundled_dir, user_catalog_dir
from .checks import _module_problems, _problems_at, check_references, faction_entry_ids
from .files import load_catalog_file
from .index import CatalogIndex, Faction, GameSystem

if TYPE_CHECKING:
    from ..model.catalog import FactionFile


def _extends_of(path: Path) -> tuple[str, str] | None:
    """(system, faction) a catalog file that failed to load says it extends, read from its
    top-level ``system:`` and ``extends:`` lines, or ``None``."""
    import re

    try:
        with path.open("rb") as f:
            head = f.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return None
    found = {
        m.group(1): m.group(2)
        for m in re.finditer(
            r"(?m)^(system|extends):[ \t]*['\"]?([a-z0-9-]+)['\"]?[ \t]*(?:#.*)?$", head
        )
    }
    if "system" in found and "extends" in found:
        return found["system"], found["extends"]
    return None


class Library:
    """Every game system found on the catalog search path."""

    def __init__(self, roots: Sequence[Path] | None = None, use_cache: bool = True) -> None:
        self.roots: list[Path] = list(roots) if roots is not None else default_roots()
        self.use_cache = use_cache
        self._systems: dict[str, GameSystem] = {}
        #: A snapshot's systems not unpacked yet, in the library's order (see :meth:`system`).
        self._packed: dict[str, bytes] = {}
        self._unpacking = threading.Lock()
        self.problems: list[Problem] = []
        self._scanned = False

    @property
    def systems(self) -> dict[str, GameSystem]:
        """Every game system found, by id, in the order found."""
        if self._packed:
            self._unpack(None)
        return self._systems

    @systems.setter
    def systems(self, value: dict[str, GameSystem]) -> None:
        with self._unpacking:
            self._systems, self._packed = value, {}

    def scan(self) -> Library:
        """Load every catalog on the search path (problems are collected, not raised)."""
        if self._scanned:
            return self
        self._scanned = True
        key = libcache.fingerprint(self.roots) if self.use_cache else None
        snapshot = libcache.load(key) if key else None
        if isinstance(snapshot, tuple) and len(snapshot) == 2 and isinstance(snapshot[0], dict):
            # each system is unpacked when first asked for: a command on one roster reads
            # only its own system's catalogs (a fifth of the snapshot, or less)
            self._systems, self._packed = {}, dict(snapshot[0])
            self.problems = snapshot[1]
            return self
        if self._scan() and key:
            self._keep(key)
        return self

    def _keep(self, key: str) -> None:
        """Store the scan's outcome as the snapshot for ``key``."""
        try:
            plain = plain_systems(self._systems)
            packed = {sid: libcache.pack(gs) for sid, gs in plain.items()}
        except Exception:  # (TypeError, a pickling error: a snapshot only saves time)
            return  # something the engine's form (or a reader's kept form) cannot hold
        libcache.store(key, (packed, self.problems))

    def _unpack(self, system_id: str | None) -> None:
        """Unpack one system of the snapshot (``None``: all of them, in the library's order).
        A system that cannot be unpacked (the snapshot damaged inside) means a new scan."""
        with self._unpacking:
            if not self._packed:
                return
            wanted = list(self._packed) if system_id is None else [system_id]
            try:
                for sid in wanted:
                    if sid not in self._systems and sid in self._packed:
                        self._systems[sid] = libcache.unpack(self._packed[sid])
            except Exception:
                self._systems, self._packed, self.problems = {}, {}, []
                key = libcache.fingerprint(self.roots) if self.use_cache else None
                if self._scan() and key:
                    self._keep(key)  # the damaged snapshot replaced
                return
            if system_id is None or len(self._systems) == len(self._packed):
                order = list(self._packed)
                self._systems = {sid: self._systems[sid] for sid in order}
                self._packed = {}

    def _scan(self) -> bool:
        """Scan the search path; whether the outcome may be kept as a snapshot."""
        pending_factions: list[tuple[Path, FactionFile]] = []
        unreadable: list[tuple[str, str, list[Problem]]] = []  # (system, extends, problems)
        foreign: list[GameSystem] = []
        for root in self.roots:
            if not root.is_dir():
                continue
            for folder in [root, *sorted(p for p in root.iterdir() if p.is_dir())]:
                if self._scan_other_format(folder, foreign):
                    continue
                if folder is root:
                    continue
                for path in sorted(folder.glob("*.yaml")):
                    try:
                        loaded = load_catalog_file(path, self.use_cache)
                    except CatalogError as exc:
                        self.problems.extend(exc.problems)
                        target = _extends_of(path)
                        if target is not None:
                            unreadable.append((*target, list(exc.problems)))
                        continue
                    if is_system_file(loaded.model):
                        prev = self.systems.get(loaded.model.id)
                        gs = GameSystem(path, loaded.model)
                        if prev is not None:
                            gs.factions = prev.factions
                        self.systems[loaded.model.id] = gs
                    else:
                        pending_factions.append((path, loaded.model))
        for path, ff in pending_factions:
            if ff.extends:
                continue
            owner = self.systems.get(ff.system)
            if owner is None:
                self.problems.append(
                    Problem(
                        str(path),
                        f"faction {ff.id!r} belongs to system {ff.system!r}, which is not "
                        "installed",
                        1,
                        1,
                        "unknown-system",
                    )
                )
                continue
            owner.factions[ff.id] = Faction(path, ff)
        for path, ff in pending_factions:
            if not ff.extends:
                continue
            owner = self.systems.get(ff.system)
            base = owner.factions.get(ff.extends) if owner is not None else None
            if base is None:
                self.problems.append(
                    Problem(
                        str(path),
                        f"extends faction {ff.extends!r} of system {ff.system!r}, which is not "
                        "installed",
                        1,
                        1,
                        "unknown-faction",
                    )
                )
                continue
            base.extensions.append(Faction(path, ff))
        for system_id, extends, problems in unreadable:
            owner = self.systems.get(system_id)
            base = owner.factions.get(extends) if owner is not None else None
            if base is not None:  # an extension that did not even parse: say so where used
                base.dropped.extend(problems)
        for gs in self.systems.values():
            self._check_system(gs)
        for gs in foreign:  # checked by their reader, which reported its problems
            self.systems[gs.id] = gs
        # Another format's systems are read lazily by their reader (translated on first use,
        # with a cache of its own): the snapshot keeps them as scanned (their ``kept_form``),
        # keyed like the rest on each file's name, size and time (libcache.fingerprint).
        return True

    def _scan_other_format(self, folder: Path, into: list[GameSystem]) -> bool:
        """Read a folder of another format through its registered reader (see formats.py)."""
        found = reader_for(folder)
        if found is None:
            return False
        systems, problems = found[1](folder, self.use_cache)
        into.extend(systems)
        self.problems.extend(problems)
        return True

    def _check_system(self, gs: GameSystem) -> None:
        raw = check_references(gs, None, faction_entry_ids(gs.factions.values()))
        for fid, faction in list(gs.factions.items()):
            everything = check_references(gs, faction)
            bad_ext = {r[0] for r in everything} - {faction.path, gs.path}
            if bad_ext:
                # A broken extension is left out; the faction it extends still works.
                faction.extensions = [e for e in faction.extensions if e.path not in bad_ext]
                left_out = _problems_at([r for r in everything if r[0] in bad_ext])
                faction.dropped.extend(left_out)
                gs.problems.extend(left_out)
            found = [r for r in everything if r[0] == faction.path]
            if not found:
                try:
                    module_found = _module_problems(gs, faction)
                except Exception as exc:  # a broken module must not hide the catalog
                    module_found = [
                        (faction.path, [], f"the rules module failed on this catalog: {exc}")
                    ]
                found = [r for r in module_found if r[0] == faction.path]
                ext_bad = {r[0] for r in module_found} - {faction.path, gs.path}
                if ext_bad:
                    faction.extensions = [e for e in faction.extensions if e.path not in ext_bad]
                    left_out = _problems_at([r for r in module_found if r[0] in ext_bad])
                    faction.dropped.extend(left_out)
                    gs.problems.extend(left_out)
            if found:
                del gs.factions[fid]
                gs.problems.extend(_problems_at(found))
        if not raw:
            try:
                raw = [r for r in _module_problems(gs, None) if r[0] == gs.path]
            except Exception as exc:
                raw = [(gs.path, [], f"the rules module failed on this catalog: {exc}")]
        gs.problems.extend(_problems_at(raw))
        self.problems.extend(gs.problems)

    def system(self, system_id: str) -> GameSystem:
        """The game system with this id (raises :class:`UnknownSystemError`)."""
        self.scan()
        if system_id in self._packed:
            self._unpack(system_id)
        try:
            return self._systems[system_id]
        except KeyError:
            known = ", ".join(sorted(self.systems)) or "none"
            raise UnknownSystemError(
                f"no game system {system_id!r} is installed (installed: {known})"
            ) from None

    def index(self, system_id: str, faction_id: str) -> CatalogIndex:
        """The resolved catalog for a system and faction."""
        return self.system(system_id).index(faction_id)


def plain_systems(systems: dict[str, GameSystem]) -> dict[str, GameSystem]:
    """The same systems with their catalogs in the engine's form (plain objects, see
    :mod:`armybuilder.model.plain`), as a library snapshot keeps them; the given ones are left
    as they are. A system of another format is its :meth:`GameSystem.kept_form`. Raises
    ``TypeError`` for anything that form cannot hold."""
    from ..model.plain import to_plain

    memo: dict[int, object] = {}

    def faction(f: Faction) -> Faction:
        if type(f) is not Faction:
            raise TypeError(f"no plain form for {type(f).__qualname__}")
        return Faction(
            f.path, to_plain(f.model, memo), [faction(e) for e in f.extensions], list(f.dropped)
        )

    out: dict[str, GameSystem] = {}
    for system_id, gs in systems.items():
        if type(gs) is not GameSystem:
            # another format's system: its reader's own form (as scanned, or TypeError)
            out[system_id] = gs.kept_form()
            continue
        out[system_id] = GameSystem(
            gs.path,
            to_plain(gs.model, memo),
            {fid: faction(f) for fid, f in gs.factions.items()},
            list(gs.problems),
        )
    return out


def default_roots(extra: Sequence[Path] = ()) -> list[Path]:
    """The catalog search path (see the module docstring)."""
    roots = [bundled_dir("catalogs"), user_catalog_dir()]
    env = os.environ.get("ARMYBUILDER_CATALOGS", "")
    roots.extend(Path(p) for p in env.split(os.pathsep) if p)
    roots.extend(extra)
    return roots


_DEFAULT: Library | None = None


def default_library() -> Library:
    """The process-wide library on the default search path (scanned on first use)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Library().scan()
    return _DEFAULT
