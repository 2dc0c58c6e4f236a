"""Linting catalog files a user wrote (``armybuilder check-catalog``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import ArmybuilderError, CatalogError, InputError, Problem, UnknownSystemError
from ..formats import catalog_suffixes, reader_for
from ..model.plain import is_faction_file, is_system_file
from .checks import _module_problems, _problems_at, check_references, faction_entry_ids
from .files import LoadedFile, load_catalog_file
from .index import Faction, GameSystem
from .library import Library


def check_paths(paths: Sequence[Path], library: Library | None = None) -> list[Problem]:
    """Lint catalog files or folders a user wrote (``armybuilder check-catalog``).

    A faction file is checked against its system, found beside it or on the search path.
    Data of another format (a folder a registered reader takes, or one of its files: see
    :func:`other_format_files`) is read as the library reads it, every faction of it
    translated, and the problems that reading finds in it are returned with the rest.
    """
    files: list[Path] = []
    problems: list[Problem] = []
    suffixes = set(catalog_suffixes())
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.yaml")))
            for folder, _, _ in other_format_files(p):
                problems.extend(check_other_format(folder))
        elif p.suffix.lower() in suffixes:
            problems.extend(x for x in check_other_format(p.parent) if Path(x.file) == p)
        else:
            files.append(p)
    loaded: list[LoadedFile] = []
    failed: set[Path] = set()
    for path in files:
        try:
            loaded.append(load_catalog_file(path, use_cache=False))
        except CatalogError as exc:
            problems.extend(exc.problems)
            failed.add(path)
    local_systems = {
        lf.model.id: GameSystem(lf.path, lf.model) for lf in loaded if is_system_file(lf.model)
    }
    lib = library or Library()
    for lf in loaded:
        if is_system_file(lf.model):
            gs = local_systems[lf.model.id]
            factions = [
                Faction(f.path, f.model)
                for f in loaded
                if is_faction_file(f.model) and f.model.system == gs.id
            ]
            scope_ids = faction_entry_ids(factions) | _faction_ids_beside(gs, lib, set(files))
            found = check_references(gs, None, scope_ids) or [r for r in _module_problems(gs, None)]
            problems.extend(_problems_at(found))
            continue
        gs_opt = local_systems.get(lf.model.system)
        sibling = lf.path.parent / "system.yaml"
        if gs_opt is None and sibling != lf.path and sibling in failed:
            problems.append(
                Problem(
                    str(lf.path),
                    f"not checked: its game system file {sibling.name} has errors (see above)",
                    None,
                    None,
                    "unknown-system",
                )
            )
            continue
        if gs_opt is None:
            try:
                gs_opt = lib.system(lf.model.system)
            except UnknownSystemError as exc:
                problems.append(Problem(str(lf.path), str(exc), None, None, "unknown-system"))
                continue
        faction = Faction(lf.path, lf.model)
        if lf.model.extends:
            # An extension is checked together with the faction it adds to.
            base_model = next(
                (
                    f.model
                    for f in loaded
                    if is_faction_file(f.model)
                    and f.model.system == lf.model.system
                    and f.model.id == lf.model.extends
                    and not f.model.extends
                ),
                None,
            )
            if base_model is not None:
                base_path = next(f.path for f in loaded if f.model is base_model)
                base = Faction(base_path, base_model)
            else:
                found_base = gs_opt.factions.get(lf.model.extends)
                if found_base is None:
                    problems.append(
                        Problem(
                            str(lf.path),
                            f"extends faction {lf.model.extends!r}, which {gs_opt.name} does "
                            f"not have (factions: {', '.join(sorted(gs_opt.factions)) or 'none'})",
                            None,
                            None,
                            "unknown-faction",
                        )
                    )
                    continue
                base = Faction(found_base.path, found_base.model)
            base.extensions = [faction]
            faction = base
        found = [r for r in check_references(gs_opt, faction) if r[0] == lf.path]
        if not found:
            found = [r for r in _module_problems(gs_opt, faction) if r[0] == lf.path]
        problems.extend(_problems_at(found))
    return _each_once(problems)


def _each_once(problems: Sequence[Problem]) -> list[Problem]:
    """``problems`` with each said once, in order: reading a folder of another format scans
    its YAML files too, whose problems the files' own check finds again (a broken YAML file
    beside a .gst was reported twice and counted twice)."""
    seen: set[tuple[str, int | None, int | None, str]] = set()
    unique: list[Problem] = []
    for x in problems:
        key = (x.file, x.line, x.column, x.message)
        if key not in seen:
            seen.add(key)
            unique.append(x)
    return unique


def other_format_files(root: Path) -> list[tuple[Path, str, list[Path]]]:
    """The folders under ``root`` (itself included) holding catalog data of another format
    that a registered reader takes, each with the format's name and its files of it."""
    out: list[tuple[Path, str, list[Path]]] = []
    folders = [root, *sorted(d for d in root.rglob("*") if d.is_dir())]
    for folder in folders:
        found = reader_for(folder)
        if found is None:
            continue
        suffixes = found[0].suffixes
        files = sorted(f for f in folder.iterdir() if f.suffix.lower() in suffixes)
        out.append((folder, found[0].name, files))
    return out


def check_other_format(folder: Path) -> list[Problem]:
    """The problems reading a folder of another format finds: those of its scan, and those of
    translating each of its factions (a value refused, a link to nothing, each with its file
    and line), as ``armybuilder catalogs SYSTEM FACTION`` reports them; each once."""
    lib = Library([folder], use_cache=False).scan()
    out: list[Problem] = list(lib.problems)
    for gs in lib.systems.values():
        if not gs.factions:
            # No faction reads the system's file in full: read it alone (a game system file
            # cut short was "no problems" when given without a catalogue).
            try:
                gs.read_all()
            except InputError as exc:
                out.extend(exc.problems)
        for fid in list(gs.factions):
            try:
                gs.index(fid)
            except InputError as exc:
                # (each at its own file and line: a game system file that cannot be read
                # was reported under the faction's file, and so not at all when the game
                # system file was checked alone)
                out.extend(exc.problems)
                path = gs.factions[fid].path if fid in gs.factions else gs.path
                if all(Path(x.file) != path for x in exc.problems):
                    # (the faction's own file is then unread: never "no problems")
                    out.append(
                        Problem(str(path), f"not checked: a file it needs cannot be read ({exc})")
                    )
            except ArmybuilderError as exc:
                path = gs.factions[fid].path if fid in gs.factions else gs.path
                out.append(Problem(str(path), str(exc)))
        out.extend(gs.problems)
    return _each_once(out)


def _faction_ids_beside(gs: GameSystem, lib: Library, checked: set[Path]) -> set[str]:
    """Entry ids of the system's factions that were not named on the command line: the
    faction files beside its system file, and the installed factions of the same system. A
    system file's shared entries may count within them (a scope such as `platoon`)."""
    factions: list[Faction] = []
    for path in sorted(gs.path.parent.glob("*.yaml")):
        if path in checked or path == gs.path:
            continue
        try:
            lf = load_catalog_file(path)
        except CatalogError:
            continue
        if is_faction_file(lf.model) and lf.model.system == gs.id:
            factions.append(Faction(lf.path, lf.model))
    installed = lib.scan().systems.get(gs.id)
    if installed is not None:
        factions.extend(installed.factions.values())
    return faction_entry_ids(factions)
