"""Find, load, check and cache catalogs.

Catalogs live in folders: ``<root>/<system>/system.yaml`` defines a game system and every other
``<root>/<system>/*.yaml`` file is a faction of it. Roots are searched in this order, later ones
adding factions (or replacing one with the same id):

1. the catalogs bundled with armybuilder;
2. the user's catalog folder (``armybuilder catalogs --paths`` prints it);
3. folders named in the ``ARMYBUILDER_CATALOGS`` environment variable (``os.pathsep``-separated);
4. folders passed explicitly (``--catalogs DIR`` on the command line).

Files are parsed with the safe YAML loader, validated by the pydantic models and checked for
consistency (unknown ids, duplicates). A validated file is cached as JSON keyed by its path, size
and modification time, so a second start does not parse unchanged YAML again. Problems are
reported with file, line and column, found by re-reading the file with the round-trip loader
only when something is wrong.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import TypeAdapter, ValidationError

from . import __version__
from .errors import CatalogError, Problem, UnknownFactionError, UnknownSystemError
from .model.catalog import (
    CatalogFile,
    Category,
    ConditionGroup,
    Constraint,
    CostType,
    CustomCatalog,
    Entry,
    EntryLink,
    ExperienceLevel,
    FactionFile,
    ForceEntry,
    Group,
    Modifier,
    ProfileType,
    Rule,
    SystemFile,
)
from .model.messages import clean_loc, describe, describe_errors
from .paths import bundled_dir, user_cache_dir, user_catalog_dir
from .yamlio import load_round_trip, load_safe, locate, read_text

if TYPE_CHECKING:
    from .rules.plugin import SystemRules

#: What a query's ``child`` may name besides ids: every selection of one entry type.
TYPE_REFS = frozenset({"type:unit", "type:model", "type:upgrade"})

_ADAPTER: TypeAdapter[SystemFile | FactionFile] = TypeAdapter(CatalogFile)
_CACHE_FORMAT = f"{__version__}-2"


# --------------------------------------------------------------------------- file loading


@dataclass(frozen=True)
class LoadedFile:
    """A catalog file that parsed and validated."""

    path: Path
    model: SystemFile | FactionFile


def _clean_loc(doc: Any, loc: Sequence[str | int]) -> list[str | int]:
    """Drop pydantic's tags from an error location (see :mod:`armybuilder.model.messages`)."""
    return clean_loc(doc, loc)


def _describe(error: Any, loc: Sequence[str | int]) -> str:
    """A plain-words explanation of one pydantic error."""
    return describe(error, loc)


def _positioned(
    path: Path, text: str, items: Sequence[tuple[Sequence[str | int], str, str]]
) -> list[Problem]:
    """Attach line and column to (loc, message, code) items by re-reading with positions."""
    try:
        doc = load_round_trip(text, str(path))
    except CatalogError:
        doc = None
    except Exception:  # positions are a courtesy; never fail while reporting
        doc = None
    problems = []
    for loc, message, code in items:
        line, col = locate(doc, loc) if doc is not None else (None, None)
        problems.append(Problem(str(path), message, line, col, code))
    return problems


def _cache_file(path: Path) -> Path | None:
    if os.environ.get("ARMYBUILDER_NO_CACHE"):
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    key = f"{_CACHE_FORMAT}|{path.resolve()}|{st.st_size}|{st.st_mtime_ns}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return user_cache_dir() / "catalogs" / f"{digest}.json"


def load_catalog_file(path: Path, use_cache: bool = True) -> LoadedFile:
    """Parse and validate one catalog file (raises :class:`CatalogError`)."""
    cache = _cache_file(path) if use_cache else None
    if cache is not None and cache.is_file():
        try:
            model = _ADAPTER.validate_json(cache.read_bytes())
            return LoadedFile(path, model)
        except (ValidationError, OSError, ValueError):
            pass  # stale or corrupt cache: parse again
    try:
        text = read_text(path)
        data = load_safe(text, str(path))
    except CatalogError:
        raise
    except Exception as exc:
        from .errors import InputError

        if isinstance(exc, InputError):
            raise CatalogError(exc.problems) from None
        # Whatever else goes wrong reading one file must not stop the others from loading.
        raise CatalogError.single(
            path, f"cannot be read: {type(exc).__name__}: {exc}", code="catalog-invalid"
        ) from None
    if not isinstance(data, dict):
        raise CatalogError.single(
            path, "a catalog file must be a mapping with `kind: system` or `kind: catalog`", 1, 1
        )
    try:
        model = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        items = [(loc, msg, "catalog-invalid") for loc, msg in describe_errors(exc, data)]
        raise CatalogError(_positioned(path, text, items)) from None
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(_ADAPTER.dump_json(model).decode(), encoding="utf-8")
            os.replace(tmp, cache)
        except OSError:
            pass  # a read-only cache folder only costs speed
    return LoadedFile(path, model)


# --------------------------------------------------------------------------- resolved index


@dataclass(frozen=True)
class Child:
    """A possible child of an entry (or of the roster): the entry, merged with its link."""

    entry: Entry
    group: Group | None = None
    link: EntryLink | None = None


def _merge_link(target: Entry, link: EntryLink) -> Entry:
    update: dict[str, Any] = {}
    if link.name is not None:
        update["name"] = link.name
    if link.hidden is not None:
        update["hidden"] = link.hidden
    if link.costs is not None:
        update["costs"] = {**target.costs, **link.costs}
    if link.categories is not None:
        update["categories"] = list(link.categories)
    if link.constraints:
        update["constraints"] = [*target.constraints, *link.constraints]
    if link.modifiers:
        update["modifiers"] = [*target.modifiers, *link.modifiers]
    return target.model_copy(update=update) if update else target


def walk_groups(groups: Iterable[Group]) -> Iterator[Group]:
    """Groups and their subgroups, depth first (a parent before its subgroups)."""
    for g in groups:
        yield g
        yield from walk_groups(g.groups)


def _scopes(mod: Modifier) -> Iterator[str]:
    """The scopes a modifier's conditions and repeat look at."""

    def group(g: ConditionGroup) -> Iterator[str]:
        for c in g.conditions:
            yield c.scope
        for sub in g.groups:
            yield from group(sub)

    for c in mod.conditions:
        yield c.scope
    for g in mod.groups:
        yield from group(g)
    if mod.repeat is not None:
        yield mod.repeat.scope
    for rep in mod.repeats:
        yield rep.scope


def _by_id(children: Iterable[Child]) -> dict[str, Child]:
    """Children by entry id (the first of that entry), then by the id of the link they come
    through (where no entry has that id)."""
    out: dict[str, Child] = {}
    items = list(children)
    for c in items:
        out.setdefault(c.entry.id, c)
    for c in items:
        if c.link is not None and c.link.id:
            out.setdefault(c.link.id, c)
    return out


class CatalogIndex:
    """A game system together with one faction: everything a roster of that faction can use.

    Ids are looked up here: entries (shared and nested), categories, groups, cost types,
    profile types, rules and experience levels.
    """

    def __init__(
        self,
        system: GameSystem,
        faction: Faction,
        extras: Sequence[CustomCatalog] = (),
        others: Sequence[Faction] = (),
    ) -> None:
        self.system = system
        self.faction = faction
        #: The other factions this index holds too (a roster whose forces draw on several).
        self.also: frozenset[str] = frozenset(f.id for f in others if f.id != faction.id)
        sf = system.model
        parts: list[FactionFile | CustomCatalog] = [
            faction.model,
            *(e.model for e in faction.extensions),
            *(
                p
                for f in others
                if f.id != faction.id
                for p in (f.model, *(e.model for e in f.extensions))
            ),
            *extras,
        ]
        self._parts = parts
        self.cost_types: dict[str, CostType] = {c.id: c for c in sf.cost_types}
        self.profile_types: dict[str, ProfileType] = {p.id: p for p in sf.profile_types}
        self.categories: dict[str, Category] = {
            c.id: c for c in [*sf.categories, *(c for p in parts for c in p.categories)]
        }
        self.rules: dict[str, Rule] = {
            r.id: r for r in [*sf.rules, *(r for p in parts for r in p.rules)]
        }
        self.forces: dict[str, ForceEntry] = {f.id: f for f in sf.forces}
        self.experience: dict[str, ExperienceLevel] = {e.id: e for e in sf.experience}
        self.shared: dict[str, Entry] = {
            e.id: e for e in [*sf.shared_entries, *(e for p in parts for e in p.shared_entries)]
        }
        self.entries: dict[str, Entry] = {}
        self.groups: dict[str, Group] = {}
        for e in self._defined_entries():
            self.entries.setdefault(e.id, e)
            for g in walk_groups(e.groups):
                self.groups.setdefault(g.id, g)
        self._children: dict[int, list[Child]] = {}
        self._child_ids: dict[int, dict[str, Child]] = {}
        self._child_constraints: dict[int, list[tuple[Child, Constraint]]] = {}
        self._closed: dict[int, bool] = {}
        self._scope_ids: frozenset[str] | None = None
        self.roots: list[Child] = [
            self._resolve(c, None) for c in [*sf.entries, *(c for p in parts for c in p.entries)]
        ]
        self._root_ids: dict[str, Child] = _by_id(self.roots)

    def _defined_entries(self) -> Iterator[Entry]:
        sf, parts = self.system.model, self._parts

        def walk(items: Iterable[Entry | EntryLink]) -> Iterator[Entry]:
            for item in items:
                if isinstance(item, Entry):
                    yield item
                    yield from walk(item.entries)
                    for g in walk_groups(item.groups):
                        yield from walk(g.entries)

        yield from walk(
            [
                *sf.shared_entries,
                *(e for p in parts for e in p.shared_entries),
                *sf.entries,
                *(e for p in parts for e in p.entries),
            ]
        )

    def _resolve(self, item: Entry | EntryLink, group: Group | None) -> Child:
        if isinstance(item, EntryLink):
            target = self.shared.get(item.link)
            if target is None:
                raise KeyError(item.link)
            return Child(_merge_link(target, item), group, item)
        return Child(item, group, None)

    def children(self, entry: Entry | None) -> list[Child]:
        """The possible children of ``entry`` (the roster's top level for ``None``)."""
        if entry is None:
            return self.roots
        cached = self._children.get(id(entry))
        if cached is None:
            cached = [self._resolve(c, None) for c in entry.entries]
            for g in walk_groups(entry.groups):
                cached.extend(self._resolve(c, g) for c in g.entries)
            self._children[id(entry)] = cached
        return cached

    def closed(self, entry: Entry | None) -> bool:
        """Whether a selection of ``entry`` can be judged on its own: nothing checked or
        computed in it (constraints, modifier conditions and repeats, in it and under it)
        looks at a selection outside it. Scopes count as inside when they name the selection
        itself or one under it on the way: `self`; `parent`, below the selection; an entry id
        that lies on the path from the selection down to where it is used. An evaluation of an
        edited roster replays the closed subtrees the edit did not touch."""
        if entry is None:
            return False
        found = self._closed.get(id(entry))
        if found is None:
            found = self._closed[id(entry)] = self._find_closed(entry)
        return found

    def _named_scopes(self) -> frozenset[str]:
        """The entry ids that constraints and modifier conditions use as scopes."""
        if self._scope_ids is None:
            ids: set[str] = set()
            for entry in [*self.entries.values(), *self.shared.values()]:
                ids.update(c.scope for c in entry.constraints)
                ids.update(sc for m in entry.modifiers for sc in _scopes(m))
            self._scope_ids = frozenset(ids - {"self", "parent", "roster", "force"})
        return self._scope_ids

    def _find_closed(self, root: Entry) -> bool:
        named = self._named_scopes()
        seen: set[tuple[int, frozenset[str], bool]] = set()
        stack: list[tuple[Entry, frozenset[str], bool]] = [
            (root, frozenset([root.id]) & named, True)
        ]
        while stack:
            entry, path, is_root = stack.pop()
            key = (id(entry), path, is_root)
            if key in seen:
                continue
            seen.add(key)

            def inside(scope: str, at_root: bool) -> bool:
                if scope == "self":
                    return True
                if scope == "parent":
                    return not at_root
                return scope not in ("roster", "force") and scope in path  # noqa: B023

            # Its own modifiers, with its selection as the context.
            if not all(inside(sc, is_root) for m in entry.modifiers for sc in _scopes(m)):
                return False
            for child in self.children(entry):
                for con in child.entry.constraints:
                    # Checked at this selection (`parent` is this one); the child's modifiers
                    # of a constraint's value are read in the same context (below).
                    if con.scope not in ("self", "parent") and not inside(con.scope, is_root):
                        return False
                if not all(
                    inside(sc, is_root)
                    for m in child.entry.modifiers
                    if m.field.startswith("constraint:")
                    for sc in _scopes(m)
                ):
                    return False
                step = path | {child.entry.id} if child.entry.id in named else path
                stack.append((child.entry, step, False))
        return True

    @property
    def subtree_local(self) -> bool:
        """Whether every entry of the catalog is :meth:`closed` where it can be selected at
        the top of a roster (then every part of a roster can be judged on its own)."""
        return all(self.closed(c.entry) for c in self.roots)

    def child_constraints(self, entry: Entry | None) -> list[tuple[Child, Constraint]]:
        """The constraints of ``entry``'s possible children that are checked at ``entry``
        (every scope but `self`), cached."""
        key = id(entry)
        found = self._child_constraints.get(key)
        if found is None:
            found = [
                (c, con)
                for c in self.children(entry)
                for con in c.entry.constraints
                if con.scope != "self"
            ]
            self._child_constraints[key] = found
        return found

    def child(self, entry: Entry | None, entry_id: str) -> Child | None:
        """The child option of ``entry`` with id ``entry_id``, if it is one."""
        if entry is None:
            return self._root_ids.get(entry_id)
        by_id = self._child_ids.get(id(entry))
        if by_id is None:
            by_id = _by_id(self.children(entry))
            self._child_ids[id(entry)] = by_id
        return by_id.get(entry_id)

    def name_of(self, ref: str) -> str:
        """The display name of an entry, category or group id."""
        if ref in self.entries:
            return self.entries[ref].name
        if ref in self.categories:
            return self.categories[ref].name
        if ref in self.groups:
            return self.groups[ref].name
        return ref

    @cached_property
    def category_modifiers(self) -> bool:
        """Whether any entry has a modifier of its categories (they are then worked out per
        selection)."""
        return any(
            m.field in ("categories", "primary-category")
            for e in [*self.entries.values(), *self.shared.values()]
            for m in e.modifiers
        )

    def default_force(self) -> ForceEntry | None:
        """The force a roster uses when it names none."""
        forces = self.system.model.forces
        return forces[0] if forces else None


@dataclass
class Faction:
    """A faction file of a game system."""

    path: Path
    model: FactionFile
    #: Files that add to this faction (``extends: <this id>``), e.g. a player's own units.
    extensions: list[Faction] = field(default_factory=list)
    #: Why extensions of this faction were left out (a broken one is dropped at load time;
    #: whatever uses the faction reports these, so its missing units are never a silent gap).
    dropped: list[Problem] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.model.id

    @property
    def name(self) -> str:
        return self.model.name


@dataclass
class GameSystem:
    """A game system with its factions, as found on the catalog search path."""

    path: Path
    model: SystemFile
    factions: dict[str, Faction] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    _indexes: dict[str, CatalogIndex] = field(default_factory=dict, repr=False)

    @property
    def id(self) -> str:
        return self.model.id

    @property
    def name(self) -> str:
        return self.model.name

    def faction(self, faction_id: str) -> Faction:
        """The faction with this id (raises :class:`UnknownFactionError`)."""
        try:
            return self.factions[faction_id]
        except KeyError:
            known = ", ".join(sorted(self.factions)) or "none"
            raise UnknownFactionError(
                f"{self.name} has no faction {faction_id!r} (installed: {known})"
            ) from None

    def index(self, faction_id: str) -> CatalogIndex:
        """The resolved catalog of one faction (cached)."""
        idx = self._indexes.get(faction_id)
        if idx is None:
            idx = CatalogIndex(self, self.faction(faction_id))
            self._indexes[faction_id] = idx
        return idx

    def index_with(self, faction_id: str, custom: CustomCatalog) -> CatalogIndex:
        """The catalog of a faction plus entries a roster defines for itself (not cached)."""
        return CatalogIndex(self, self.faction(faction_id), [custom])

    def index_of(
        self, faction_ids: Sequence[str], custom: CustomCatalog | None = None
    ) -> CatalogIndex:
        """The catalog of several factions together (for a roster whose forces draw on
        several; cached unless ``custom`` is given). Where two define the same id, one
        definition is kept: the roster's evaluation reports the clash."""
        key = "\0".join(faction_ids)
        idx = self._indexes.get(key) if custom is None else None
        if idx is None:
            first, *rest = [self.faction(f) for f in faction_ids]
            idx = CatalogIndex(self, first, [custom] if custom else [], rest)
            if custom is None:
                self._indexes[key] = idx
        return idx

    @cached_property
    def rules(self) -> SystemRules | None:
        """The system's rules module, if it names one and it can be imported."""
        from .rules.plugin import load_rules

        return load_rules(self.model.module)


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
        if not isinstance(model, SystemFile):
            categories |= {c.id for c in model.categories}
            rules |= {r.id for r in model.rules}
        shared |= {e.id for e in model.shared_entries}
        for loc, item in _iter_entries(model):
            if isinstance(item, Group):
                groups.add(item.id)
                continue
            if not isinstance(item, Entry):
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
        return ref is None or ref in refs or ref in TYPE_REFS or ref == "*"

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
                    f"{what} counts {q.child!r}, which is no entry, "
                    "category or group of this catalog",
                )
            )
        if (
            q.scope not in {"self", "parent", "roster", "force", "ancestor"}
            and q.scope not in entries
            and q.scope not in (scope_ids or ())
        ):
            found.append(
                (
                    path,
                    [*loc, "scope"],
                    f"{what} scope {q.scope!r} is not self, parent, roster, force or an entry id",
                )
            )

    def check_conditions(path: Path, loc: list[str | int], conditions: Any, cgroups: Any) -> None:
        for j, c in enumerate(conditions):
            check_query(path, [*loc, "conditions", j], c, "condition")
        for j, g in enumerate(cgroups):
            check_conditions(path, [*loc, "groups", j], g.conditions, g.groups)

    for path, model in files:
        for loc, item in _iter_entries(model):
            if isinstance(item, EntryLink):
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
            elif isinstance(item, Entry):
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
                    members = {(c.link if isinstance(c, EntryLink) else c.id) for c in g.entries}
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
        ids |= {item.id for _, item in _iter_entries(f.model) if isinstance(item, Entry)}
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
        (kind in {"name", "hidden", "description", "categories", "primary-category"} and not name)
        or (kind == "cost" and name in cost_ids)
        or (kind == "constraint" and name in constraint_ids)
        or (kind == "characteristic" and any(name in chars for chars in profile_types.values()))
    )
    if not ok:
        found.append(
            (
                path,
                [*loc, "field"],
                f"modifier field {mod.field!r} names nothing this "
                "entry has (use name, hidden, categories, primary-category, cost:<cost type>, "
                "constraint:<constraint id of this entry>, characteristic:<id>)",
            )
        )
        return
    problem = _modifier_type_problem(mod, kind, name, profiles)
    if problem is not None:
        found.append((path, [*loc, problem[0]], problem[1]))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _modifier_type_problem(
    mod: Modifier, kind: str, name: str, profiles: Sequence[Any]
) -> tuple[str, str] | None:
    """What the engine could not do with this modifier (adding to a name, appending to a
    cost, hiding with a number), as (key, message); None when it is sound."""
    what = f"a modifier of {mod.field!r}"
    if kind in {"name", "description"}:
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


def _iter_entries(
    model: SystemFile | FactionFile | CustomCatalog,
) -> Iterator[tuple[list[str | int], Entry | EntryLink | Group]]:
    """Every entry, link and group of a file with its location."""

    def walk(
        items: Sequence[Entry | EntryLink], loc: list[str | int]
    ) -> Iterator[tuple[list[str | int], Entry | EntryLink | Group]]:
        for i, item in enumerate(items):
            here = [*loc, i]
            yield here, item
            if isinstance(item, Entry):
                yield from walk(item.entries, [*here, "entries"])
                for gloc, g in _iter_groups_loc(item.groups, [*here, "groups"]):
                    yield gloc, g
                    yield from walk(g.entries, [*gloc, "entries"])

    yield from walk(model.shared_entries, ["shared_entries"])
    yield from walk(model.entries, ["entries"])


# --------------------------------------------------------------------------- the library


def _module_problems(
    system: GameSystem, faction: Faction | None
) -> list[tuple[Path, list[str | int], str]]:
    from .rules.plugin import RulesModuleError

    try:
        rules = system.rules
    except RulesModuleError as exc:
        return [(system.path, ["module"], str(exc))]
    if rules is None:
        return []
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
        self.systems: dict[str, GameSystem] = {}
        self.problems: list[Problem] = []
        self._scanned = False

    def scan(self) -> Library:
        """Load every catalog on the search path (problems are collected, not raised)."""
        if self._scanned:
            return self
        self._scanned = True
        pending_factions: list[tuple[Path, FactionFile]] = []
        unreadable: list[tuple[str, str, list[Problem]]] = []  # (system, extends, problems)
        for root in self.roots:
            if not root.is_dir():
                continue
            for folder in sorted(p for p in root.iterdir() if p.is_dir()):
                for path in sorted(folder.glob("*.yaml")):
                    try:
                        loaded = load_catalog_file(path, self.use_cache)
                    except CatalogError as exc:
                        self.problems.extend(exc.problems)
                        target = _extends_of(path)
                        if target is not None:
                            unreadable.append((*target, list(exc.problems)))
                        continue
                    if isinstance(loaded.model, SystemFile):
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
        return self

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
        try:
            return self.systems[system_id]
        except KeyError:
            known = ", ".join(sorted(self.systems)) or "none"
            raise UnknownSystemError(
                f"no game system {system_id!r} is installed (installed: {known})"
            ) from None

    def index(self, system_id: str, faction_id: str) -> CatalogIndex:
        """The resolved catalog for a system and faction."""
        return self.system(system_id).index(faction_id)


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


def check_paths(paths: Sequence[Path], library: Library | None = None) -> list[Problem]:
    """Lint catalog files or folders a user wrote (``armybuilder check-catalog``).

    A faction file is checked against its system, found beside it or on the search path.
    """
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.yaml")))
        else:
            files.append(p)
    problems: list[Problem] = []
    loaded: list[LoadedFile] = []
    failed: set[Path] = set()
    for path in files:
        try:
            loaded.append(load_catalog_file(path, use_cache=False))
        except CatalogError as exc:
            problems.extend(exc.problems)
            failed.add(path)
    local_systems = {
        lf.model.id: GameSystem(lf.path, lf.model)
        for lf in loaded
        if isinstance(lf.model, SystemFile)
    }
    lib = library or Library()
    for lf in loaded:
        if isinstance(lf.model, SystemFile):
            gs = local_systems[lf.model.id]
            factions = [
                Faction(f.path, f.model)
                for f in loaded
                if isinstance(f.model, FactionFile) and f.model.system == gs.id
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
                    if isinstance(f.model, FactionFile)
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
    return problems


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
        if isinstance(lf.model, FactionFile) and lf.model.system == gs.id:
            factions.append(Faction(lf.path, lf.model))
    installed = lib.scan().systems.get(gs.id)
    if installed is not None:
        factions.extend(installed.factions.values())
    return faction_entry_ids(factions)


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


def all_constraints(entry: Entry) -> list[Constraint]:
    """The constraints declared on an entry."""
    return list(entry.constraints)
