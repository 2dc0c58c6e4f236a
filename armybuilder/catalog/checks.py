"""Consistency checks of catalog files: unknown ids, duplicates, modifiers naming nothing,
and what the system's rules module finds (all with locations)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import Problem
from ..model.plain import (
    MESSAGE_FIELDS,
    is_entry,
    is_group,
    is_link,
    is_plain,
    is_system_file,
    reaches,
    to_pydantic,
)
from ..yamlio import read_text
from .files import _positioned
from .index import TYPE_REFS, CatalogIndex, Faction, GameSystem

if TYPE_CHECKING:
    from ..model.catalog import (
        Constraint,
        CustomCatalog,
        Entry,
        EntryLink,
        FactionFile,
        Group,
        Modifier,
        SystemFile,
    )

# --------------------------------------------------------------------------- consistency


def check_references(
    system: GameSystem,
    faction: Faction | None,
    scope_ids: set[str] | None = None,
    extra: Sequence[tuple[Path, FactionFile | CustomCatalog]] = (),
) -> list[tuple[Path, list[str | int], str]]:
    """Unknown ids and duplicates in a system file (and one faction file), with locations.

    ``scope_ids`` are further entry ids a query scope may name: a system file's shared
    entries may count within an entry that each faction defines (e.g. `platoon`).
    """
    sf = system.model
    found: list[tuple[Path, list[str | int], str]] = []
    files: list[tuple[Path, SystemFile | FactionFile | CustomCatalog]] = [(system.path, sf)]
    if faction is not None:
        files.append((faction.path, faction.model))
        files.extend((e.path, e.model) for e in faction.extensions)
    files.extend(extra)

    cost_ids = {c.id for c in sf.cost_types}
    profile_types = {p.id: {c.id for c in p.characteristics} for p in sf.profile_types}
    categories = {c.id for c in sf.categories}
    rules = {r.id for r in sf.rules}
    shared: set[str] = set()
    entries: dict[str, tuple[Path, list[str | int]]] = {}
    groups: set[str] = set()
    exp_ids = {e.id for e in sf.experience}

    # First pass: collect ids and duplicates.
    for path, model in files:
        if not is_system_file(model):
            categories |= {c.id for c in model.categories}
            rules |= {r.id for r in model.rules}
        shared |= {e.id for e in model.shared_entries}
        for loc, item in iter_entries(model):
            if is_group(item):
                groups.add(item.id)
                continue
            if not is_entry(item):
                continue
            if item.id in entries:
                other_path, _ = entries[item.id]
                found.append(
                    (
                        path,
                        [*loc, "id"],
                        f"duplicate entry id {item.id!r} (also defined in {other_path.name}); "
                        "ids must be unique within a system and its faction — use a `link:` "
                        "to reuse an entry",
                    )
                )
            else:
                entries[item.id] = (path, loc)
    for path, model in files:
        named: list[tuple[str, list[str]]] = [
            ("categories", [c.id for c in model.categories]),
            ("rules", [r.id for r in model.rules]),
        ]
        for kind, ids in named:
            seen: set[str] = set()
            for i, ident in enumerate(ids):
                if ident in seen:
                    found.append((path, [kind, i, "id"], f"duplicate {kind[:-1]} id {ident!r}"))
                seen.add(ident)

    refs = set(entries) | categories | groups

    def ref_ok(ref: str | None) -> bool:
        if ref is None or ref in refs or ref in TYPE_REFS or ref == "*":
            return True
        return ref.startswith("faction:")  # the force's faction (engine.FACTION_REF)

    def check_query(path: Path, loc: list[str | int], q: Any, what: str) -> None:
        if q.field not in ("selections", "forces") and q.field not in cost_ids:
            found.append(
                (
                    path,
                    [*loc, "field"],
                    f"{what} field {q.field!r} is neither `selections` nor "
                    f"a cost type ({', '.join(sorted(cost_ids)) or 'none defined'})",
                )
            )
        if not ref_ok(q.child):
            found.append(
                (
                    path,
                    [*loc, "child"],
                    f"{what} {'reaches' if what == 'modifier' else 'counts'} {q.child!r}, "
                    "which is no entry, "
                    "category or group of this catalog",
                )
            )
        if (
            q.scope not in {"self", "parent", "roster", "force", "ancestor", "top"}
            and not _entry_type_scope(q.scope)
            and q.scope not in entries
            and q.scope not in (scope_ids or ())
        ):
            found.append(
                (
                    path,
                    [*loc, "scope"],
                    f"{what} scope {q.scope!r} is not self, parent, roster, force, ancestor, "
                    "top, type:<unit|model|upgrade> or an entry id",
                )
            )

    def check_conditions(path: Path, loc: list[str | int], conditions: Any, cgroups: Any) -> None:
        for j, c in enumerate(conditions):
            check_query(path, [*loc, "conditions", j], c, "condition")
        for j, g in enumerate(cgroups):
            check_conditions(path, [*loc, "groups", j], g.conditions, g.groups)

    for path, model in files:
        for loc, item in iter_entries(model):
            if is_link(item):
                if item.link not in shared:
                    found.append(
                        (
                            path,
                            [*loc, "link"],
                            f"link to {item.link!r}, which is not a "
                            "shared entry (shared_entries) of this system or faction",
                        )
                    )
                cats, costs, cons, mods = (
                    item.categories or [],
                    item.costs or {},
                    item.constraints,
                    item.modifiers,
                )
                constraint_ids: set[str] = {c.id for c in cons if c.id}
                profs: Sequence[Any] = ()
                if item.link in shared:
                    target = next(
                        (e for _, m in files for e in m.shared_entries if e.id == item.link), None
                    )
                    if target is not None:
                        constraint_ids |= {c.id for c in target.constraints if c.id}
                        profs = target.profiles
            elif is_entry(item):
                cats, costs, cons, mods = (
                    item.categories,
                    item.costs,
                    item.constraints,
                    item.modifiers,
                )
                constraint_ids = {c.id for c in cons if c.id}
                profs = item.profiles
                for j, p in enumerate(item.profiles):
                    if p.type not in profile_types:
                        found.append(
                            (
                                path,
                                [*loc, "profiles", j, "type"],
                                f"unknown profile type {p.type!r}",
                            )
                        )
                        continue
                    for ch in p.characteristics:
                        if ch not in profile_types[p.type]:
                            found.append(
                                (
                                    path,
                                    [*loc, "profiles", j, "characteristics", ch],
                                    f"profile type {p.type!r} has no characteristic {ch!r}",
                                )
                            )
                for j, r in enumerate(item.rules):
                    if r not in rules:
                        found.append((path, [*loc, "rules", j], f"unknown rule {r!r}"))
                if item.primary_category and item.primary_category not in item.categories:
                    found.append(
                        (
                            path,
                            [*loc, "primary_category"],
                            "primary_category must be one of the entry's categories",
                        )
                    )
                for gloc, g in _iter_groups_loc(item.groups, [*loc, "groups"]):
                    for j, gcon in enumerate(g.constraints):
                        problem = _group_constraint_problem(gcon, cost_ids)
                        if problem is not None:
                            found.append((path, [*gloc, "constraints", j, problem[0]], problem[1]))
                    group_cons = {c.id for c in g.constraints if c.id}
                    for j, mod in enumerate(g.modifiers):
                        problem = _group_modifier_problem(mod, group_cons)
                        if problem is not None:
                            found.append((path, [*gloc, "modifiers", j, problem[0]], problem[1]))
                    # (a link is chosen by its target's id, or by its own id where it has one)
                    members = {(c.link if is_link(c) else c.id) for c in g.entries}
                    members.update(c.id for c in g.entries if is_link(c) and c.id)
                    if g.default and g.default not in members:
                        found.append(
                            (
                                path,
                                [*gloc, "default"],
                                f"default {g.default!r} is not one of group {g.id!r}'s entries",
                            )
                        )
                    if g.max is not None and g.min > g.max:
                        found.append((path, [*gloc, "min"], "min is larger than max"))
            else:
                continue
            for j, c in enumerate(cats):
                if c not in categories:
                    found.append((path, [*loc, "categories", j], f"unknown category {c!r}"))
            for c in costs:
                if c not in cost_ids:
                    found.append((path, [*loc, "costs", c], f"unknown cost type {c!r}"))
            for j, con in enumerate(cons):
                check_query(path, [*loc, "constraints", j], con, "constraint")
            for j, mod in enumerate(mods):
                mloc: list[str | int] = [*loc, "modifiers", j]
                _check_modifier_field(
                    path, mloc, mod, cost_ids, constraint_ids, profile_types, found, profs
                )
                check_conditions(path, mloc, mod.conditions, mod.groups)
                if reaches(mod):
                    check_query(path, mloc, _ScopeOnly(mod.scope, child=mod.child), "modifier")
                if mod.profile_type is not None and mod.profile_type not in profile_types:
                    found.append(
                        (
                            path,
                            [*mloc, "profile_type"],
                            f"unknown profile type {mod.profile_type!r}",
                        )
                    )
                if mod.repeat is not None:
                    check_query(path, [*mloc, "repeat"], mod.repeat, "repeat")
                for ri, rep in enumerate(mod.repeats):
                    check_query(path, [*mloc, "repeats", ri], rep, "repeat")

    for i, force in enumerate(sf.forces):
        for j, slot in enumerate(force.slots):
            if slot.category not in categories:
                found.append(
                    (
                        system.path,
                        ["forces", i, "slots", j, "category"],
                        f"unknown category {slot.category!r}",
                    )
                )
        for j, con in enumerate(force.constraints):
            check_query(system.path, ["forces", i, "constraints", j], con, "constraint")
        for j, mod in enumerate(force.modifiers):
            floc: list[str | int] = ["forces", i, "modifiers", j]
            if mod.field != "hidden":
                found.append(
                    (
                        system.path,
                        [*floc, "field"],
                        f"a force's modifier changes `hidden` only, not {mod.field!r}",
                    )
                )
            check_conditions(system.path, floc, mod.conditions, mod.groups)
    if sf.default_experience and sf.default_experience not in exp_ids:
        found.append((system.path, ["default_experience"], "unknown experience level"))
    return found


def faction_entry_ids(factions: Iterable[Faction]) -> set[str]:
    """Every entry id defined in some faction files."""
    ids: set[str] = set()
    for f in factions:
        ids |= {item.id for _, item in iter_entries(f.model) if is_entry(item)}
    return ids


def _check_modifier_field(
    path: Path,
    loc: list[str | int],
    mod: Modifier,
    cost_ids: set[str],
    constraint_ids: set[str],
    profile_types: dict[str, set[str]],
    found: list[tuple[Path, list[str | int], str]],
    profiles: Sequence[Any] = (),
) -> None:
    kind, _, name = mod.field.partition(":")
    ok = (
        (kind in {"name", "hidden", "categories", "primary-category"} and not name)
        or (kind in MESSAGE_FIELDS and not name)
        or (kind == "cost" and name in cost_ids)
        or (kind == "constraint" and (name in constraint_ids or reaches(mod)))
        or (kind == "characteristic" and any(name in chars for chars in profile_types.values()))
        or (
            kind == "profile"
            and name.endswith(":hidden")
            and name.removesuffix(":hidden") in {p.id for p in profiles if p.id}
        )
    )
    if not ok and kind == "description":
        # Nothing shows a selection's own description (the catalog pane prints the entry's
        # text), so a modifier of it would be accepted and silently do nothing.
        found.append(
            (
                path,
                [*loc, "field"],
                "a modifier cannot change an entry's description: armybuilder shows the "
                "catalog's text as written (change the text, or use `name`)",
            )
        )
        return
    if not ok:
        found.append(
            (
                path,
                [*loc, "field"],
                f"modifier field {mod.field!r} names nothing this "
                "entry has (use name, hidden, categories, primary-category, cost:<cost type>, "
                "constraint:<constraint id of this entry>, characteristic:<id>, "
                "profile:<profile id>:hidden, or error, warning, note for a message)",
            )
        )
        return
    problem = _modifier_type_problem(mod, kind, name, profiles)
    if problem is not None:
        found.append((path, [*loc, problem[0]], problem[1]))


@dataclass(frozen=True)
class _ScopeOnly:
    """A modifier's own scope, checked as a query's (it counts nothing)."""

    scope: str
    field: str = "selections"
    child: str | None = None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _entry_type_scope(scope: str) -> bool:
    """``type:unit``, ``type:model|unit``...: the nearest enclosing selection of a type."""
    kinds = scope.removeprefix("type:").split("|") if scope.startswith("type:") else []
    return bool(kinds) and all(k in {"unit", "model", "upgrade"} for k in kinds)


def _group_constraint_problem(con: Constraint, cost_ids: set[str]) -> tuple[str, str] | None:
    """What is wrong with a constraint of a group, as (key, message); None when it is sound.
    A group's constraint bounds a cost of what is chosen in it under the selection that holds
    it (its count is the group's own `min` / `max`)."""
    if con.field not in cost_ids:
        return (
            "field",
            f"a group's constraint bounds a cost of its choices: its field {con.field!r} is "
            f"no cost type ({', '.join(sorted(cost_ids)) or 'none defined'}); a count of "
            "choices is the group's min / max",
        )
    if con.scope != "parent":
        return (
            "scope",
            f"a group's constraint counts under the selection holding the group: its scope "
            f"is `parent`, not {con.scope!r}",
        )
    if con.child is not None:
        return "child", "a group's constraint counts the group's own choices: it names no child"
    if con.percent:
        return "percent", "a group's constraint is an amount, not a percentage"
    return None


def _group_modifier_problem(
    mod: Modifier, constraint_ids: AbstractSet[str] = frozenset()
) -> tuple[str, str] | None:
    """What is wrong with a modifier of a group, as (key, message); None when it is sound. A
    group's modifiers change its `hidden`, its `min` or `max` (how many choices it asks for
    and allows: a number; a negative maximum is no limit), the value of one of its
    constraints (`constraint:<id>`, a number), or add a message."""
    if mod.field in MESSAGE_FIELDS or mod.field == "hidden":
        return _modifier_type_problem(mod, mod.field, "", ())
    con = mod.field.removeprefix("constraint:") if mod.field.startswith("constraint:") else None
    if mod.field in ("min", "max") or (con is not None and con in constraint_ids):
        what = f"a modifier of a group's {mod.field!r}"
        if mod.type not in {"set", "increment", "decrement", "floor", "ceil"}:
            return "type", f"{what} changes a number: use set, increment or decrement"
        if not _is_number(mod.value):
            return "value", f"{what} needs a number as its value, not {mod.value!r}"
        return None
    return (
        "field",
        f"a group's modifier field {mod.field!r} names nothing a group has (use hidden, "
        "min, max, constraint:<id of one of its constraints>, or error, warning, note for a "
        "message)",
    )


def _modifier_type_problem(
    mod: Modifier, kind: str, name: str, profiles: Sequence[Any]
) -> tuple[str, str] | None:
    """What the engine could not do with this modifier (adding to a name, appending to a
    cost, hiding with a number), as (key, message); None when it is sound."""
    what = f"a modifier of {mod.field!r}"
    if kind == "profile":  # (`profile:<id>:hidden`: the same rules as hidden)
        kind = "hidden"
    if kind in MESSAGE_FIELDS:
        if mod.type != "add":
            return "type", f"{what} raises a message: its type is `add` (the message is its value)"
        if not isinstance(mod.value, str) or not mod.value.strip():
            return "value", f"{what} raises a message: write the message as its value, in quotes"
        return None
    if mod.type == "replace":
        if kind in {"hidden", "cost", "constraint", "categories", "primary-category"}:
            return "type", f"{what} cannot replace text: it is not text"
        if not mod.find:
            return "find", f"{what} replaces text: say which with `find:`"
        return None
    if mod.type in {"floor", "ceil"}:
        if kind in {"name", "hidden", "categories", "primary-category"}:
            return "type", f"{what} cannot {mod.type}: it is not a number"
        if not _is_number(mod.value):
            return "value", f"{what} needs a number as its value, not {mod.value!r}"
        return None
    if kind == "name":
        if mod.type in {"increment", "decrement"}:
            return "type", f"{what} cannot {mod.type} text; use set or append"
        if mod.type == "set" and not isinstance(mod.value, str):
            return "value", f"{what} sets text: write the value in quotes"
    elif kind == "hidden":
        if mod.type != "set":
            return "type", f"{what} can only `set` hidden to true or false"
        if not isinstance(mod.value, bool):
            return "value", f"{what} sets hidden to true or false, not {mod.value!r}"
    elif kind in {"cost", "constraint"}:
        if mod.type == "append":
            return "type", f"{what} changes a number: use set, increment or decrement"
        if not _is_number(mod.value):
            return "value", f"{what} needs a number as its value, not {mod.value!r}"
    elif kind == "characteristic" and mod.type in {"increment", "decrement"}:
        if not _is_number(mod.value):
            return "value", f"{what} needs a number as its value, not {mod.value!r}"
        if reaches(mod) or mod.position is not None:
            return None  # other selections' profiles, or a number inside a text
        for p in profiles:
            got = p.characteristics.get(name)
            if got is not None and not _is_number(got):
                return (
                    "type",
                    f"{what} cannot {mod.type} {got!r} (not a number); use set or append",
                )
    return None


def _iter_groups_loc(
    groups: Sequence[Group], loc: list[str | int]
) -> Iterator[tuple[list[str | int], Group]]:
    for i, g in enumerate(groups):
        here = [*loc, i]
        yield here, g
        yield from _iter_groups_loc(g.groups, [*here, "groups"])


def iter_entries(
    model: SystemFile | FactionFile | CustomCatalog,
) -> Iterator[tuple[list[str | int], Entry | EntryLink | Group]]:
    """Every entry, link and group of a file with its location."""

    def walk(
        items: Sequence[Entry | EntryLink], loc: list[str | int]
    ) -> Iterator[tuple[list[str | int], Entry | EntryLink | Group]]:
        for i, item in enumerate(items):
            here = [*loc, i]
            yield here, item
            if is_entry(item):
                yield from walk(item.entries, [*here, "entries"])
                for gloc, g in _iter_groups_loc(item.groups, [*here, "groups"]):
                    yield gloc, g
                    yield from walk(g.entries, [*gloc, "entries"])

    yield from walk(model.shared_entries, ["shared_entries"])
    yield from walk(model.entries, ["entries"])


# --------------------------------------------------------------------------- the library


#: Game systems loaded from a library snapshot (engine's form) -> the same as pydantic models.
_PYDANTIC_FORMS: dict[int, tuple[GameSystem, GameSystem]] = {}


def _pydantic_faction(f: Faction, memo: dict[int, Any]) -> Faction:
    return Faction(
        f.path,
        to_pydantic(f.model, memo),
        [_pydantic_faction(e, memo) for e in f.extensions],
        f.dropped,
    )


def pydantic_form(gs: GameSystem) -> GameSystem:
    """``gs`` with its catalogs as pydantic models (``gs`` itself when they are already): a
    system loaded from the library snapshot holds plain objects, and the rules modules' own
    catalog checks tell entries from links with ``isinstance`` against the pydantic classes.
    Built once per system, without validating again (see
    :func:`armybuilder.model.plain.to_pydantic`)."""
    if not is_plain(gs.model):
        return gs
    found = _PYDANTIC_FORMS.get(id(gs))
    if found is not None and found[0] is gs:
        return found[1]
    memo: dict[int, Any] = {}
    twin = GameSystem(
        gs.path,
        to_pydantic(gs.model, memo),
        {fid: _pydantic_faction(f, memo) for fid, f in gs.factions.items()},
        gs.problems,
    )
    _PYDANTIC_FORMS[id(gs)] = (gs, twin)  # gs kept alive, so that its id stays its own
    return twin


def _module_problems(
    system: GameSystem, faction: Faction | None
) -> list[tuple[Path, list[str | int], str]]:
    from ..plugin import RulesModuleError

    try:
        rules = system.rules
    except RulesModuleError as exc:
        return [(system.path, ["module"], str(exc))]
    if rules is None:
        return []
    if is_plain(system.model) or any(
        is_plain(f.model) for f in ([faction, *faction.extensions] if faction else [])
    ):
        # from the library snapshot: the module's checks read pydantic models
        memo: dict[int, Any] = {}
        system = GameSystem(system.path, to_pydantic(system.model, memo))
        faction = _pydantic_faction(faction, memo) if faction is not None else None
    out: list[tuple[Path, list[str | int], str]] = []
    here = faction.path if faction is not None else system.path
    try:
        idx = CatalogIndex(system, faction) if faction is not None else None
        for path_kind, loc, msg in rules.check_catalog(
            system.model, faction.model if faction else None, idx
        ):
            path = system.path if path_kind == "system" or faction is None else faction.path
            out.append((path, list(loc), msg))
        for ext in faction.extensions if faction is not None else []:
            here = ext.path
            for path_kind, loc, msg in rules.check_catalog(system.model, ext.model, idx):
                out.append((system.path if path_kind == "system" else ext.path, list(loc), msg))
    except RecursionError:
        out.append((here, [], "the rules module failed on this catalog: nested too deeply"))
    except Exception as exc:  # a value the module's checks did not foresee: report it
        out.append((here, [], f"the rules module failed on this catalog: {exc!r}"[:400]))
    return out


def _problems_at(found: list[tuple[Path, list[str | int], str]]) -> list[Problem]:
    by_file: dict[Path, list[tuple[Sequence[str | int], str, str]]] = {}
    for path, loc, msg in found:
        by_file.setdefault(path, []).append((loc, msg, "catalog-reference"))
    problems: list[Problem] = []
    for path, items in by_file.items():
        try:
            text = read_text(path)
        except Exception:
            problems.extend(Problem(str(path), m, None, None, c) for _, m, c in items)
            continue
        problems.extend(_positioned(path, text, cast(Any, items)))
    return problems


#: The old private name (rules modules written before the catalog package used it).
_iter_entries = iter_entries
