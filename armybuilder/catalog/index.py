"""The resolved catalog of a game system and one faction (:class:`CatalogIndex`), and the
system and faction objects it is built from."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import Problem, UnknownFactionError
from ..model.plain import MESSAGE_FIELDS, is_link, reaches

if TYPE_CHECKING:
    from ..model.catalog import (
        Category,
        Condition,
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
        Repeat,
        Rule,
        SystemFile,
    )
    from ..plugin import SystemRules


TYPE_REFS = frozenset({"type:unit", "type:model", "type:upgrade"})


# --------------------------------------------------------------------------- resolved index


@dataclass(frozen=True)
class Child:
    """A possible child of an entry (or of the roster): the entry, merged with its link."""

    entry: Entry
    group: Group | None = None
    link: EntryLink | None = None

    def path_ref(self) -> str:
        """What a selection made through this option counts as where counting is per link
        (``per_link``): ``path:`` and the id of its link, or of its entry when it comes
        through no link of its own id (as the engine's ``Node.path_ref`` says of a
        selection)."""
        link = self.link
        if link is not None and link.id:
            return f"path:{link.id}"
        return f"path:{self.entry.id}"


def merge_link(target: Entry, link: EntryLink) -> Entry:
    """The entry a link stands for: the target with the link's own name, hidden flag, costs,
    categories, constraints and modifiers applied."""
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
    # With a stack rather than nested generators: the index walks every entry's groups, some
    # 26,000 of them for a large imported catalogue, and each level of generators cost a
    # call per group per level.
    stack = list(groups)
    stack.reverse()
    while stack:
        g = stack.pop()
        yield g
        if g.groups:
            stack.extend(reversed(g.groups))


#: A count of selections above a selection, as :meth:`CatalogIndex.outside_counts` gives it:
#: the arguments of :meth:`Evaluation.query` after its context (scope, child, field, deep,
#: owner, child forces, percent, per link).
OutsideCount: TypeAlias = tuple[str, str | None, str, bool | None, str, bool, bool, bool]

#: Scopes that name no entry above a selection (``ancestor`` is a query's own).
_NOT_AN_ENTRY = frozenset({"self", "parent", "roster", "force", "top", "ancestor"})


def _queries(mod: Modifier) -> Iterator[Condition | Repeat]:
    """The conditions (at any depth of its groups) and repeats of a modifier."""

    def group(g: ConditionGroup) -> Iterator[Condition]:
        yield from g.conditions
        for sub in g.groups:
            yield from group(sub)

    yield from mod.conditions
    for g in mod.groups:
        yield from group(g)
    if mod.repeat is not None:
        yield mod.repeat
    yield from mod.repeats


def _scopes(mod: Modifier) -> Iterator[str]:
    """The scopes a modifier's conditions and repeat look at."""

    def group(g: ConditionGroup) -> Iterator[str]:
        for c in g.conditions:
            yield c.scope
        for sub in g.groups:
            yield from group(sub)

    if reaches(mod):
        yield mod.scope  # where it works from (what it changes lies below)
    for c in mod.conditions:
        yield c.scope
    for g in mod.groups:
        yield from group(g)
    if mod.repeat is not None:
        yield mod.repeat.scope
    for rep in mod.repeats:
        yield rep.scope


def _limits_modified(group: Group) -> bool:
    """Whether a modifier of ``group`` changes how many choices it asks for or allows."""
    return any(m.field in ("min", "max") for m in group.modifiers)


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
        #: The modifier field of each cost type's cost (``cost:<id>``).
        self.cost_fields: dict[str, str] = {c: f"cost:{c}" for c in self.cost_types}
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
        for e, groups in self._defined():
            self.entries.setdefault(e.id, e)
            for g in groups:
                self.groups.setdefault(g.id, g)
        self._children: dict[int, list[Child]] = {}
        self._child_ids: dict[int, dict[str, Child]] = {}
        self._child_constraints: dict[int, list[tuple[Child, Constraint]]] = {}
        self._closed: dict[int, bool] = {}
        self._outside: dict[int, tuple[Entry, tuple[OutsideCount, ...] | None]] = {}
        self._marked: dict[int, list[tuple[Child, Constraint, bool]]] = {}
        self._scope_ids: frozenset[str] | None = None
        self._holders: dict[str, frozenset[int]] = {}
        #: Per owner of modifiers (entry, group, force entry; by ``id()``, with the owner to
        #: tell a reused id apart): its modifiers by field, each marked whether it reads a cost.
        self._mods: dict[int, tuple[object, dict[str, _FieldMods]]] = {}
        #: :meth:`count_refs`, per owner (with it) and field.
        self._count_refs: dict[tuple[int, str], tuple[object, _CountRefs]] = {}
        self._memos: dict[str, dict[Any, Any]] = {}
        #: :meth:`holding`, by the holder's facts and what it holds.
        self._holdings: dict[tuple[Any, ...], Holding] = {}
        self._group_checks: dict[int, tuple[tuple[Group, tuple[int, ...]], ...]] = {}
        self._child_checks: dict[int, tuple[object, ChildChecks]] = {}
        self._added_categories: frozenset[str] | None = None
        self._con_owners: dict[int, str | None] | None = None
        self._static_costs: dict[int, tuple[object, dict[str, float] | None]] = {}
        self._entry_checks: dict[int, tuple[object, EntryChecks]] = {}
        self._quiet: dict[int, tuple[object, bool]] = {}
        self._held_refs: dict[int, tuple[object, frozenset[str]]] = {}
        self._deep_refs: dict[int, tuple[object, frozenset[str]]] = {}
        self._group_maxima: dict[int, tuple[object, dict[int, int] | None]] = {}
        self._facts: dict[int, EntryFacts] = {}
        self._root_facts: dict[str, ChildFacts] | None = None
        self.roots: list[Child] = [
            self._resolve(c, None) for c in [*sf.entries, *(c for p in parts for c in p.entries)]
        ]
        self._root_ids: dict[str, Child] = _by_id(self.roots)

    def _defined_entries(self) -> Iterator[Entry]:
        """Every entry the catalog defines, depth first (an entry, its entries, then its
        groups' entries); an entry object used in several places is walked once, where it
        is first met (what is under it is the same wherever it is)."""
        for e, _ in self._defined():
            yield e

    def _defined(self) -> list[tuple[Entry, list[Group]]]:
        """:meth:`_defined_entries`, each with its groups and subgroups (walked once)."""
        sf, parts = self.system.model, self._parts
        stack: list[Entry | EntryLink] = [
            *sf.shared_entries,
            *(e for p in parts for e in p.shared_entries),
            *sf.entries,
            *(e for p in parts for e in p.entries),
        ]
        stack.reverse()
        # (One loop, without a generator or a call per item, and what was walked already is
        # not pushed again: an index walks every entry, and the 2,300 entries of a large
        # imported catalogue hold some 56,000 children, most of them entries met before.)
        out: list[tuple[Entry, list[Group]]] = []
        seen: set[int] = set()
        pop, push, note = stack.pop, stack.extend, seen.add
        while stack:
            item = pop()
            if id(item) in seen or type(item).__name__ != "Entry":  # (see is_entry)
                continue
            note(id(item))
            entry: Entry = item  # type: ignore[assignment]
            if entry.groups:
                groups = list(walk_groups(entry.groups))
                under: list[Entry | EntryLink] = list(entry.entries)
                for g in groups:
                    under.extend(g.entries)
            else:
                groups = []
                under = entry.entries
            push([c for c in reversed(under) if id(c) not in seen])
            out.append((entry, groups))
        return out

    def _resolve(self, item: Entry | EntryLink, group: Group | None) -> Child:
        if is_link(item):
            target = self.shared.get(item.link)
            if target is None:
                raise KeyError(item.link)
            return Child(merge_link(target, item), group, item)
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

    def selectable_ids(self, entry: Entry | None, *, shown_only: bool = False) -> list[str]:
        """The ids a roster's selection under ``entry`` (the top level for ``None``) may name:
        each possible child's entry id and, where it comes through a link, the link's id (a
        roster converted from BattleScribe names linked entries by their links). In order,
        each once; ``shown_only`` leaves out the children the data hides."""
        ids: dict[str, None] = {}
        for c in self.children(entry):
            if shown_only and c.entry.hidden:
                continue
            ids.setdefault(c.entry.id)
            if c.link is not None and c.link.id:
                ids.setdefault(c.link.id)
        return list(ids)

    def holders(self, category: str) -> frozenset[int]:
        """The entries (by ``id()`` of the entry objects :meth:`children` gives) under whose
        selections a selection in ``category`` can stand, at any depth: worked out once per
        category, so that a search for such selections skips the parts that cannot hold one.
        """
        found = self._holders.get(category)
        if found is not None:
            return found
        # Every entry a roster can select here, and what each can hold.
        under: dict[int, list[Entry]] = {}
        stack = [c.entry for c in self.roots]
        while stack:
            entry = stack.pop()
            if id(entry) in under:
                continue
            kids = [c.entry for c in self.children(entry)]
            under[id(entry)] = kids
            stack.extend(kids)
        holds: set[int] = set()
        changed = True
        while changed:
            changed = False
            for key, kids in under.items():
                if key not in holds and any(
                    category in k.categories or id(k) in holds for k in kids
                ):
                    holds.add(key)
                    changed = True
        found = self._holders[category] = frozenset(holds)
        return found

    def held_refs(self, entry: Entry) -> frozenset[str]:
        """Everything a selection standing under a selection of ``entry``, at any depth, can
        be counted as, as the catalog states it (entry, category, group and link ids, ``type:``
        and ``path:`` references, ``*``): a count of anything else under such a selection need
        not look below it (unless modifiers change categories, or reach from elsewhere, which
        the engine checks). Worked out once per entry (the entry kept beside its ``id()``)."""
        found = self._held_refs.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        refs: set[str] = {"*"}
        seen: set[int] = {id(entry)}
        stack = list(self.children(entry))
        while stack:
            c = stack.pop()
            e = c.entry
            refs.update(e.categories)
            refs.update((e.id, f"type:{e.type}", f"path:{e.id}"))
            if c.link is not None and c.link.id:
                refs.update((c.link.id, f"path:{c.link.id}"))
            if c.group is not None:
                refs.add(c.group.id)
            if id(e) not in seen:
                seen.add(id(e))
                stack.extend(self.children(e))
        held = frozenset(refs)
        self._held_refs[id(entry)] = (entry, held)
        return held

    def deep_refs(self, entry: Entry) -> frozenset[str]:
        """What a selection two or more levels under a selection of ``entry`` can be counted
        as (:meth:`held_refs` of each possible child): a deep count of anything else under
        such a selection is the count of its children alone. Kept as :meth:`held_refs`."""
        found = self._deep_refs.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        refs: set[str] = set()
        for c in self.children(entry):
            if self.children(c.entry):
                refs.update(self.held_refs(c.entry))
        deep = frozenset(refs)
        self._deep_refs[id(entry)] = (entry, deep)
        return deep

    def closed(self, entry: Entry | None) -> bool:
        """Whether a selection of ``entry`` can be judged on its own: nothing checked or
        computed in it (constraints, modifier conditions and repeats of its entries and of
        their groups, in it and under it) looks at a selection outside it. Scopes count as
        inside when they name the selection itself or one under it on the way: `self`;
        `parent`, below the selection; an entry id that lies on the path from the selection
        down to where it is used. An evaluation of an
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
                ids.update(
                    sc for g in walk_groups(entry.groups) for m in g.modifiers for sc in _scopes(m)
                )
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

            # Its own modifiers, with its selection as the context; so are its groups' (their
            # `hidden`, their limits, the messages they add).
            if not all(inside(sc, is_root) for m in entry.modifiers for sc in _scopes(m)):
                return False
            if not all(
                inside(sc, is_root)
                for g in walk_groups(entry.groups)
                for m in g.modifiers
                for sc in _scopes(m)
            ):
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

    def outside_counts(self, entry: Entry | None) -> tuple[OutsideCount, ...] | None:
        """For a selection of ``entry`` that is not :meth:`closed`: the counts of selections
        above it that what is checked and costed in it reads, when those are all it reads
        from outside (each a :meth:`Evaluation.query` of a scope that names an entry above
        it, as its conditions and repeats ask it); ``None`` when it reads anything else
        there (a cost, a force, the roster, a category of the selection above, a constraint
        checked above it), or when a modifier of the catalog reaches across selections or
        changes categories, or reads a cost anywhere in it. The same counts give the same
        checks and costs in it (its names above aside): an edit session replays them when
        the selection is the same object. Worked out once per entry."""
        if entry is None:
            return None
        found = self._outside.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        reads = self._find_outside(entry)
        self._outside[id(entry)] = (entry, reads)
        return reads

    def _find_outside(self, root: Entry) -> tuple[OutsideCount, ...] | None:
        if self.reaching_modifiers or self.category_modifiers:
            return None
        named = self._named_scopes()
        costs = set(self.cost_types)
        reads: dict[OutsideCount, None] = {}
        seen: set[tuple[int, frozenset[str], bool]] = set()
        stack: list[tuple[Entry, frozenset[str], bool]] = [
            (root, frozenset([root.id]) & named, True)
        ]

        def counts(mod: Modifier, owner: str, path: frozenset[str], at_root: bool) -> bool:
            """Add the outside reads of ``mod`` (owned by ``owner``); False if one of them
            is not a plain count of selections under an entry above."""
            if reaches(mod) or modifier_reads(mod, costs):
                return False
            for q in _queries(mod):
                scope = q.scope
                if scope == "self" or (scope == "parent" and not at_root) or scope in path:
                    continue  # inside
                if (
                    scope in _NOT_AN_ENTRY
                    or scope.startswith("type:")
                    or q.field != "selections"
                    or q.percent
                    or q.child_forces
                    or (q.child is not None and q.child.startswith("faction:"))
                    or getattr(q, "type", "") in ("instance-of", "not-instance-of")
                ):
                    return False
                read = (scope, q.child, q.field, q.deep, owner, False, False, q.per_link)
                reads[read] = None
            return True

        while stack:
            entry, path, is_root = stack.pop()
            key = (id(entry), path, is_root)
            if key in seen:
                continue
            seen.add(key)
            if any(g.modifiers for g in walk_groups(entry.groups)):
                return None  # (a group's hidden and messages: not looked into here)
            for m in entry.modifiers:
                if not counts(m, entry.id, path, is_root):
                    return None
            for child in self.children(entry):
                for con in child.entry.constraints:
                    # (checked at this selection: `parent` is this one)
                    if con.scope not in ("self", "parent") and con.scope not in path:
                        return None
                for m in child.entry.modifiers:
                    if m.field.startswith("constraint:") and not counts(
                        m, child.entry.id, path, is_root
                    ):
                        return None
                step = path | {child.entry.id} if child.entry.id in named else path
                stack.append((child.entry, step, False))
        return tuple(reads)

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

    def marked_child_constraints(self, entry: Entry | None) -> list[tuple[Child, Constraint, bool]]:
        """:meth:`child_constraints`, each marked True where it is a maximum counting only the
        child's own selections under ``entry`` (of them or their cost): a selection holding
        none of the child cannot break it. Cached."""
        key = id(entry)
        found = self._marked.get(key)
        if found is None:
            found = self._marked[key] = [
                (
                    child,
                    con,
                    con.type == "max"
                    and con.scope == "parent"
                    and con.child is None
                    and not con.percent
                    and con.field != "forces",
                )
                for child, con in self.child_constraints(entry)
            ]
        return found

    def child_checks(self, entry: Entry | None) -> ChildChecks:
        """:meth:`marked_child_constraints` of ``entry`` sorted for the engine's walk: which
        rows to look at always, which only while a selection of the child is under the one
        checked, and which only the first time (scope `roster` or `force`). Worked out once
        per entry (by ``id()``, with the entry kept to tell a reused id apart)."""
        found = self._child_checks.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        rows = tuple(self.marked_child_constraints(entry))
        held: dict[str, list[int]] = {}
        keyed: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
        plain: tuple[list[int], list[int]] = ([], [])
        for i, (child, con, only_held) in enumerate(rows):
            if only_held:
                held.setdefault(child.entry.id, []).append(i)
                continue
            once = con.scope in ("roster", "force")
            if (
                con.type == "max"
                and con.child is None
                and not con.percent
                and con.field != "forces"
            ):
                # A maximum counting the child's own selections (or their cost), nothing
                # else: with no selection of it anywhere in the roster it counts 0, which no
                # maximum refuses (a negative one is unlimited). (One checked once that
                # another entry shares is left plain: it is checked where first met.)
                if not once or self._sole_owner(con):
                    keyed[once].setdefault(child.entry.id, []).append(i)
                else:
                    plain[once].append(i)
            else:
                plain[once].append(i)
        plan = ChildChecks(
            rows,
            _frozen(held),
            _frozen(keyed[0]),
            _frozen(keyed[1]),
            tuple(plain[0]),
            tuple(plain[1]),
        )
        self._child_checks[id(entry)] = (entry, plan)
        return plan

    def _sole_owner(self, con: Constraint) -> bool:
        """Whether ``con`` is a constraint of entries of one id only (a catalog may share a
        constraint object between entries: then where it is checked first decides)."""
        if self._con_owners is None:
            owners: dict[int, str | None] = {}
            for c in self._all_children():
                for k in c.entry.constraints:
                    had = owners.setdefault(id(k), c.entry.id)
                    if had != c.entry.id:
                        owners[id(k)] = None
            self._con_owners = owners
        return self._con_owners.get(id(con)) is not None

    @property
    def added_categories(self) -> frozenset[str]:
        """Every category a modifier of the catalog may give a selection (its value, for a
        modifier of the field `categories` or `primary-category`): with the categories the
        entries state, all a selection can be counted as."""
        if self._added_categories is None:
            found: set[str] = set()
            for e in [*self.entries.values(), *self.shared.values()]:
                found.update(_category_values(e.modifiers))
            # (links add their own modifiers to the entries they stand for)
            for c in self._all_children():
                found.update(_category_values(c.entry.modifiers))
            self._added_categories = frozenset(found)
        return self._added_categories

    def cost_counts(self, fields: frozenset[str]) -> frozenset[str] | None:
        """What the modifiers of ``fields`` (cost fields: ``cost:pts``) count where they are
        selected: the ``child`` of each condition and repeat that counts selections (the
        modifier's own entry where it names none), so that a selection matching none of them
        changes no other selection's cost in those fields by being added or removed. ``None``
        when any selection may: such a modifier reaches other selections, sums a cost or
        counts a percentage, or one counts a category that a modifier may give a selection
        (:attr:`added_categories`: adding any selection may then change what another is
        counted as, through the conditions of that modifier, wherever the two stand).
        Conditions of ancestry (``instance-of``) and counts of forces change with no
        selection added, and are left out. Worked out once per ``fields``."""
        memo = self.memo("index.cost_counts")
        if fields in memo:
            found: frozenset[str] | None = memo[fields]
            return found
        refs: set[str] = set()
        owners = [*self.entries.values(), *self.shared.values()]
        owners.extend(c.entry for c in self._all_children())
        seen: set[int] = set()
        result: frozenset[str] | None = None
        try:
            for owner in owners:
                if id(owner) in seen:
                    continue
                seen.add(id(owner))
                for m in owner.modifiers:
                    if m.field not in fields:
                        continue
                    if reaches(m):
                        raise LookupError
                    for q in modifier_queries(m):
                        if getattr(q, "type", "") in ("instance-of", "not-instance-of"):
                            continue
                        if q.field == "forces":
                            continue
                        if q.field != "selections" or q.percent:
                            raise LookupError
                        refs.add(q.child or owner.id)
            if not refs.isdisjoint(self.added_categories):
                raise LookupError
            result = frozenset(refs)
        except LookupError:
            result = None
        memo[fields] = result
        return result

    def _all_children(self) -> Iterator[Child]:
        """Every child option of every entry a roster can select (each entry once)."""
        seen: set[int] = set()
        stack = list(self.roots)
        while stack:
            c = stack.pop()
            yield c
            if id(c.entry) in seen:
                continue
            seen.add(id(c.entry))
            stack.extend(self.children(c.entry))

    def group_checks(self, entry: Entry) -> tuple[tuple[Group, tuple[int, ...]], ...]:
        """The groups of ``entry`` a selection can break (those with a maximum, a minimum
        above 0, a modifier of either, or a constraint on a cost of their choices), subgroups
        included in :func:`walk_groups` order, each with the ``id()`` of itself and of every
        group under it (choices in those count toward it). Cached."""
        found = self._group_checks.get(id(entry))
        if found is None:
            found = self._group_checks[id(entry)] = tuple(
                (g, (id(g), *(id(x) for x in walk_groups(g.groups))))
                for g in walk_groups(entry.groups)
                if g.max is not None or g.min > 0 or _limits_modified(g) or g.constraints
            )
        return found

    def group_maxima(self, entry: Entry) -> dict[int, int] | None:
        """Where every group of :meth:`group_checks` of ``entry`` has no subgroup and no
        minimum above 0: their maxima by the group's ``id()`` (a selection of the entry
        breaks one only by holding more than that of the group); else ``None``. Kept per
        entry, the entry beside its ``id()``."""
        found = self._group_maxima.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        checks = self.group_checks(entry)
        maxima: dict[int, int] | None = {}
        for g, ids in checks:
            if len(ids) != 1 or g.min > 0 or g.max is None or _limits_modified(g) or g.constraints:
                maxima = None
                break
            maxima[ids[0]] = g.max  # type: ignore[index]
        self._group_maxima[id(entry)] = (entry, maxima)
        return maxima

    def memo(self, name: str) -> dict[Any, Any]:
        """A cache named ``name`` kept with this index, for what a rules module works out
        from the catalog alone (a weapon's statistics, a kit's values). It goes with the
        index: a catalog reloaded is indexed afresh, so nothing worked out from the entries
        it replaced is read again or kept alive."""
        found = self._memos.get(name)
        if found is None:
            found = self._memos[name] = {}
        return found

    def modifiers_on(
        self, owner: Entry | ForceEntry | Group, field_: str
    ) -> tuple[tuple[tuple[Modifier, bool], ...], str | None]:
        """The modifiers of ``owner`` on ``field_``, in catalog order, each with whether its
        conditions or repeats sum a cost (of this catalog's cost types), and the one scope
        all of them look at (see :func:`shared_scope`); worked out once per owner. Those that
        change other selections (:func:`~armybuilder.model.plain.reaches`) are not among
        them: the engine applies them where they reach."""
        found = self._mods.get(id(owner))
        if found is None or found[0] is not owner:
            costs = set(self.cost_types)
            by_field: dict[str, list[tuple[Modifier, bool]]] = {}
            for m in owner.modifiers:
                if reaches(m):
                    continue
                by_field.setdefault(m.field, []).append((m, modifier_reads(m, costs)))
            found = (
                owner,
                {
                    f: (tuple(ms), shared_scope([m for m, _ in ms], owner.id))
                    for f, ms in by_field.items()
                },
            )
            self._mods[id(owner)] = found
        return found[1].get(field_, ((), None))

    def count_refs(self, owner: Entry | ForceEntry | Group, field_: str) -> _CountRefs:
        """Where what the modifiers of ``owner`` on ``field_`` find depends on counts alone:
        each has conditions only (no condition groups, no repeats), and each condition
        compares a count of selections of one named entry, category or group (not a
        faction, not per link, not a percentage, no child forces) in the modifiers' one
        scope (:meth:`modifiers_on`). Then the references counted, in order, each with
        whether it is counted deep; else ``None``. Worked out once per owner and field."""
        key = (id(owner), field_)
        found = self._count_refs.get(key)
        if found is not None and found[0] is owner:
            return found[1]
        mods, scope = self.modifiers_on(owner, field_)
        refs: list[tuple[str, bool]] | None = [] if mods and scope is not None else None
        for m, reads_cost in mods:
            if refs is None:
                break
            if reads_cost or m.groups or m.repeat is not None or m.repeats:
                refs = None
                break
            for c in m.conditions:
                ref = c.child or owner.id
                if (
                    c.type not in _COUNT_COMPARISONS
                    or c.field != "selections"
                    or c.scope != scope
                    or c.percent
                    or c.per_link
                    or c.child_forces
                    or ":" in ref
                    or ref == "*"
                ):
                    refs = None
                    break
                refs.append((ref, c.deep if c.deep is not None else c.scope != "parent"))
        got = tuple(refs) if refs is not None else None
        self._count_refs[key] = (owner, got)
        return got

    def modified_fields(self, owner: Entry | ForceEntry | Group) -> Container[str]:
        """The fields the modifiers of ``owner`` change where it is selected (those that
        reach other selections left out): any other field of it is as the catalog states it,
        unless a modifier of another selection reaches it. Kept as :meth:`modifiers_on`."""
        found = self._mods.get(id(owner))
        if found is None or found[0] is not owner:
            self.modifiers_on(owner, "")
            found = self._mods[id(owner)]
        return found[1]

    def entry_checks(self, entry: Entry) -> EntryChecks:
        """What the engine checks at every selection of ``entry``, sorted once per entry (by
        ``id()``, the entry kept beside to tell a reused id apart): see
        :class:`EntryChecks`."""
        found = self._entry_checks.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        fields = self.modified_fields(entry)
        groups: list[tuple[Group, tuple[str, ...]]] = []
        for g in _groups_level_by_level(entry.groups):
            if g.modifiers:
                on = self.modified_fields(g)
                severities = tuple(f for f in MESSAGE_FIELDS if f in on)
                if severities:
                    groups.append((g, severities))
        own = tuple(c for c in entry.constraints if c.scope == "self")
        plan = EntryChecks(
            own,
            bool(self.group_checks(entry)),
            tuple(f for f in MESSAGE_FIELDS if f in fields),
            tuple(groups),
            "hidden" in fields,
            tuple(self._own_count(entry, c) for c in own),
            _hideable_groups(
                entry.groups,
                lambda g: g.hidden or bool(g.modifiers and "hidden" in self.modified_fields(g)),
            ),
        )
        self._entry_checks[id(entry)] = (entry, plan)
        return plan

    def _own_count(self, entry: Entry, con: Constraint) -> str | None:
        """For :attr:`EntryChecks.self_counts`: the reference a constraint of scope `self`
        counts among the children of a selection of ``entry`` (a count of selections of a
        named child, not per link, not a percentage, no child forces, no faction; deep only
        where nothing below the children can be of it), else ``None``."""
        ref = con.child
        if (
            ref is None
            or con.field != "selections"
            or con.per_link
            or con.percent
            or con.child_forces
            or ref.startswith("faction:")
        ):
            return None
        deep = con.deep if con.deep is not None else True
        if deep and ref in self.deep_refs(entry):
            return None
        return ref

    def quiet_leaf(self, entry: Entry) -> bool:
        """Whether a selection of ``entry`` with nothing under it has nothing of the entry's to
        check: no constraint of its own or of a possible child, no group limits, no messages,
        not hidden (nor a modifier of `hidden`). What is left to check is the selection's own
        (its count against the entry's maximum, its experience, its state, modifiers of other
        selections that reach it): the engine looks at those. Kept as :meth:`entry_checks`."""
        found = self._quiet.get(id(entry))
        if found is not None and found[0] is entry:
            return found[1]
        plain = self.entry_checks(entry)
        quiet = not (
            self.child_checks(entry).rows
            or plain.self_constraints
            or plain.groups
            or plain.messages
            or plain.message_groups
            or plain.hidden_modified
            or entry.hidden
        )
        self._quiet[id(entry)] = (entry, quiet)
        return quiet

    def static_costs(self, entry: Entry) -> dict[str, float] | None:
        """The cost of one selection of ``entry`` per cost type (its own, not its children's)
        where no modifier of the entry changes a cost, else ``None``; worked out once per
        entry (by ``id()``, the entry kept beside to tell a reused id apart). Do not change
        the dictionary: copy it."""
        found = self._static_costs.get(id(entry))
        if found is None or found[0] is not entry:
            fields = self.modified_fields(entry)
            costs: dict[str, float] | None = {}
            for ct, name in self.cost_fields.items():
                if name in fields:
                    costs = None
                    break
                costs[ct] = float(entry.costs.get(ct, 0.0))  # type: ignore[index]
            found = self._static_costs[id(entry)] = (entry, costs)
        return found[1]

    def facts(self, entry: Entry) -> EntryFacts:
        """What the engine reads of ``entry`` at each of its selections, gathered once per
        entry (by ``id()``, the entry kept beside to tell a reused id apart): see
        :class:`EntryFacts`. The engine keeps it on each node it builds, so that a node's
        checks and costs read it without looking the entry up again."""
        found = self._facts.get(id(entry))
        if found is None or found.entry is not entry:
            found = self._facts[id(entry)] = EntryFacts(self, entry)
        return found

    def holding(self, key: tuple[Any, ...]) -> Holding:
        """The one :class:`Holding` of ``key``: the holder's :class:`EntryFacts`, then per
        selection held, its option with facts (an item of that facts' :meth:`EntryFacts.kids`,
        looked up by ``id()``: the facts in the key hold it), its count and its name.
        Kept while the index is in use (emptied past a few thousand make-ups)."""
        found = self._holdings.get(key)
        if found is None:
            if len(self._holdings) >= _HOLDINGS_MAX:
                self._holdings.clear()
            kids = {id(k): k for k in key[0].kids().values()}
            items = tuple((kids[key[i]], key[i + 1], key[i + 2]) for i in range(1, len(key), 3))
            found = self._holdings[key] = Holding(key[0], items)
        return found

    def child_facts(self, entry: Entry | None) -> dict[str, ChildFacts]:
        """:meth:`child_map` of ``entry`` with each option's :meth:`facts` and
        :func:`counted_as` beside it (the roster's top level for ``None``). Do not change
        the dictionary."""
        if entry is not None:
            return self.facts(entry).kids()
        found = self._root_facts
        if found is None:
            found = self._root_facts = {
                k: (c, self.facts(c.entry), counted_as(c)) for k, c in self._root_ids.items()
            }
        return found

    def cost_scopes(self, entry: Entry) -> tuple[str, ...] | None:
        """Per cost type, the one scope the entry's modifiers of that cost look at (``""``
        for a cost no modifier changes); ``None`` if one has no such scope or its catalog
        cost is not a number (the engine then works each selection's cost out on its own).
        Kept in :meth:`facts`."""
        fields = self.modified_fields(entry)
        out: list[str] = []
        for ct in self.cost_types:
            field_ = self.cost_fields.get(ct) or f"cost:{ct}"
            if field_ not in fields:
                if len(self.cost_types) == 1:
                    return None  # (then the entry's costs are static)
                out.append("")
                continue
            mods, scope = self.modifiers_on(entry, field_)
            if not mods or scope is None or type(entry.costs.get(ct, 0.0)) not in _SCALARS:
                return None
            out.append(scope)
        return tuple(out)

    def child(self, entry: Entry | None, entry_id: str) -> Child | None:
        """The child option of ``entry`` with id ``entry_id``, if it is one."""
        return self.child_map(entry).get(entry_id)

    def recorded_id(self, entry: Entry | None, child: Child) -> str:
        """The id a roster records for a selection of ``child``, an option of ``entry``: the
        entry's id, or the id of the link it comes through where the entry's id names
        another option there (an entry offered plainly and, through a link of its own, in a
        group), so that the selection reads back as the option that was chosen."""
        link = child.link
        if link is not None and link.id and self.child(entry, child.entry.id) is not child:
            return link.id
        return child.entry.id

    def default_child(self, entry: Entry, group: Group) -> Child | None:
        """The option ``group`` (a group of ``entry``) chooses by default: the one of that
        entry in the group itself, else whatever the id names under ``entry``."""
        if not group.default:
            return None
        for c in self.children(entry):
            if c.group is group and c.entry.id == group.default:
                return c
        return self.child(entry, group.default)

    def child_map(self, entry: Entry | None) -> dict[str, Child]:
        """The child options of ``entry`` (the roster's top level for ``None``) by id, as
        :meth:`child` finds them. Do not change the dictionary."""
        if entry is None:
            return self._root_ids
        by_id = self._child_ids.get(id(entry))
        if by_id is None:
            by_id = _by_id(self.children(entry))
            self._child_ids[id(entry)] = by_id
        return by_id

    def name_of(self, ref: str) -> str:
        """The display name of an entry, category, group, link, force entry or cost type id
        (a ``path:`` reference as the entry or link it names; a ``type:`` one as the type);
        the id itself where the catalog defines nothing of that id (:meth:`knows`)."""
        found = self._name(ref)
        return ref if found is None else found

    def knows(self, ref: str) -> bool:
        """Whether :meth:`name_of` finds a name for ``ref`` (the catalog defines it)."""
        return self._name(ref) is not None

    def _name(self, ref: str) -> str | None:
        if ref.startswith("path:"):
            ref = ref[5:]
        elif ref.startswith("type:"):
            return " or ".join(ref[5:].split("|"))
        for table in (self.entries, self.shared, self.categories, self.groups, self.forces):
            found = table.get(ref)
            if found is not None:
                return str(found.name)
        name = self.link_names.get(ref)
        if name is not None:
            return name
        ct = self.cost_types.get(ref)
        return ct.name if ct is not None else None

    @cached_property
    def link_names(self) -> dict[str, str]:
        """The name of each link by the link's id (its own name, else its target's): a
        group's default choice, or a constraint's child, may name a link."""
        sf, parts = self.system.model, self._parts
        out: dict[str, str] = {}
        items: list[Entry | EntryLink] = [*sf.entries, *(e for p in parts for e in p.entries)]
        for e, groups in self._defined():
            items.extend(e.entries)
            for g in groups:
                items.extend(g.entries)
        for item in items:
            if is_link(item) and item.id and item.id not in out:
                target = self.shared.get(item.link)
                name = item.name if item.name is not None else target.name if target else None
                if name is not None:
                    out[item.id] = name
        return out

    @cached_property
    def category_modifiers(self) -> bool:
        """Whether any entry has a modifier of its categories (they are then worked out per
        selection)."""
        return any(
            m.field in ("categories", "primary-category")
            for e in [*self.entries.values(), *self.shared.values()]
            for m in e.modifiers
        )

    @cached_property
    def reaching_modifiers(self) -> bool:
        """Whether any entry has a modifier that changes other selections than its own."""
        sf, parts = self.system.model, self._parts
        items: list[Entry | EntryLink] = [*sf.entries, *(e for p in parts for e in p.entries)]
        for e, groups in self._defined():
            items.append(e)
            items.extend(e.entries)
            for g in groups:
                items.extend(g.entries)
        return any(reaches(m) for item in items for m in item.modifiers)

    def default_force(self) -> ForceEntry | None:
        """The force a roster uses when it names none."""
        forces = self.system.model.forces
        return forces[0] if forces else None


@dataclass(frozen=True)
class ChildChecks:
    """The constraints of an entry's possible children checked at a selection of the entry
    (see :meth:`CatalogIndex.child_checks`).

    ``rows``: in catalog order, each (child, constraint, whether it is a maximum that only a
    selection of the child under the checked one can break). The rest are positions in
    ``rows``: ``held``, those maxima by the child's entry id; ``keyed`` and ``keyed_once``,
    the other maxima counting only the child's own selections (no roster without one can
    break them), by the child's entry id; ``plain`` and ``plain_once``, the rest. The
    ``_once`` ones have scope `roster` or `force`: checked at the first selection that can
    hold the child (per force)."""

    rows: tuple[tuple[Child, Constraint, bool], ...]
    held: dict[str, tuple[int, ...]]
    keyed: dict[str, tuple[int, ...]]
    keyed_once: dict[str, tuple[int, ...]]
    plain: tuple[int, ...]
    plain_once: tuple[int, ...]

    @property
    def once(self) -> bool:
        return bool(self.keyed_once or self.plain_once)


class EntryFacts:
    """What the engine reads of one entry at every selection of it, worked out once per
    entry and catalog index (:meth:`CatalogIndex.facts`): each field is what the index's
    method of that name gives for the entry (``static``: :meth:`~CatalogIndex.static_costs`,
    ``quiet``: :meth:`~CatalogIndex.quiet_leaf`, ``checks``: :meth:`~CatalogIndex.entry_checks`,
    ``child_checks``, ``group_checks``, ``group_maxima``), and :meth:`kids` its options with
    their own facts (:meth:`CatalogIndex.child_facts`). Nothing in it is ever changed."""

    __slots__ = (
        "_index",
        "_kids",
        "checks",
        "child_checks",
        "cost_scopes",
        "entry",
        "group_checks",
        "group_maxima",
        "quiet",
        "scopes_above",
        "static",
    )

    def __init__(self, index: CatalogIndex, entry: Entry) -> None:
        self.entry = entry
        self._index = index
        self.static = index.static_costs(entry)
        self.quiet = index.quiet_leaf(entry)
        self.checks = index.entry_checks(entry)
        self.child_checks = index.child_checks(entry)
        self.group_checks = index.group_checks(entry)
        self.group_maxima = index.group_maxima(entry)
        self.cost_scopes = index.cost_scopes(entry)
        #: Whether each of ``cost_scopes`` is the parent or an entry other than this one (or
        #: names none): selections of the entry under one parent find the same selections
        #: there, so the same costs of their own (the troopers of one squad).
        scopes = self.cost_scopes
        self.scopes_above = scopes is not None and all(
            s in ("", "parent") or (s not in SCOPE_WORDS and ":" not in s and s != entry.id)
            for s in scopes
        )
        self._kids: dict[str, ChildFacts] | None = None

    def kids(self) -> dict[str, ChildFacts]:
        """The entry's options by id (:meth:`CatalogIndex.child_map`), each with its facts
        and what a selection of it counts as (:func:`counted_as`)."""
        found = self._kids
        if found is None:
            index = self._index
            found = self._kids = {
                k: (c, index.facts(c.entry), counted_as(c))
                for k, c in index.child_map(self.entry).items()
            }
        return found


#: An option with what the engine reads of it: the option, its entry's facts, and the
#: references a selection of it counts as (:func:`counted_as`).
ChildFacts: TypeAlias = "tuple[Child, EntryFacts, frozenset[str]]"

#: One thing a :class:`Holding` holds: the option chosen (with its facts), how many, and the
#: name given to the selection (``None``: none).
Held: TypeAlias = "tuple[ChildFacts, int, str | None]"


class Holding:
    """What a selection holds where everything under it is a selection with nothing under
    it, of an option the catalog knows, with no experience, campaign state or problem of
    its own (a trooper's kit): the options chosen, in order, each with its count and the
    name given to it, under a selection of the entry of ``facts``. One object per such
    make-up and catalog index (:meth:`CatalogIndex.holding`), hashed by identity: what
    depends on the make-up alone is worked out once per holding and kept with it or keyed
    by it (its costs added up, whether its checks can find anything, a rules module's kit).
    Nothing in it is ever changed."""

    __slots__ = ("facts", "items", "plain", "quiet", "static")

    def __init__(self, facts: EntryFacts, items: tuple[Held, ...]) -> None:
        self.facts = facts
        self.items = items
        #: No entry held has modifiers (so nothing of them depends on where they stand).
        self.plain = not any(found[0].entry.modifiers for found, _, _ in items)
        #: Every entry held has costs no modifier changes (:attr:`EntryFacts.static`).
        self.static = all(found[1].static is not None for found, _, _ in items)
        #: See :meth:`work_out_quiet` (worked out once, with the holding).
        self.quiet = self.work_out_quiet()

    def work_out_quiet(self) -> bool:
        """Whether checking a selection of this holding can report nothing that comes from
        the entries (what ``_check_node`` of the engine finds there, leaving out what is the
        selection's own: its count against its entry's maximum, its experience and state,
        modifiers of other selections reaching it or what it holds). True where the entry
        has nothing to check at its selections but group maxima (no constraint of its own or
        of a possible child, no message, not hidden nor a modifier of `hidden`, every group
        limit a maximum no modifier changes) and this holding stays within them, and every
        selection held is of an entry with nothing to check (:attr:`EntryFacts.quiet`)
        within its entry's maximum count."""
        facts = self.facts
        entry = facts.entry
        checks = facts.checks
        if (
            facts.child_checks.rows
            or checks.self_constraints
            or checks.messages
            or checks.message_groups
            or checks.hidden_modified
            or entry.hidden
        ):
            return False
        by_group: dict[int, int] = {}
        for found, count, _ in self.items:
            kid, kid_facts = found[0], found[1]
            if not kid_facts.quiet:
                return False
            if kid.entry.max_count is not None and count > kid.entry.max_count:
                return False
            if kid.group is not None:
                if id(kid.group) in checks.hideable:
                    return False  # (a choice in a group that may be hidden)
                by_group[id(kid.group)] = by_group.get(id(kid.group), 0) + count
        if checks.groups:
            maxima = facts.group_maxima
            if maxima is None:
                return False
            for gid, got in by_group.items():
                if got > maxima.get(gid, got):
                    return False
        return True


#: The scopes of constraints, conditions and modifiers that name no entry (any other scope
#: names the entry whose nearest selection, this one or above, it is).
SCOPE_WORDS = frozenset({"self", "parent", "force", "roster", "top"})

#: Most :class:`Holding` objects an index keeps (see :meth:`CatalogIndex.holding`).
_HOLDINGS_MAX = 4096

#: The types of a catalog value that the engine may keep per scope (see ``cost_scopes``).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def counted_as(child: Child) -> frozenset[str]:
    """Everything a selection of ``child`` counts as where selections are counted, its
    categories as its entry states them: its entry, categories, group, link, ``type:``,
    ``path:`` and ``*`` (what the engine's ``_node_refs`` gives such a selection)."""
    entry, link = child.entry, child.link
    refs = {entry.id, *entry.categories, f"type:{entry.type}", "*", child.path_ref()}
    if link is not None and link.id:
        refs.add(link.id)
    if child.group is not None:
        refs.add(child.group.id)
    return frozenset(refs)


@dataclass(frozen=True)
class EntryChecks:
    """What the engine checks at every selection of an entry (see
    :meth:`CatalogIndex.entry_checks`): its constraints of scope `self`; whether any of its
    groups has a minimum or maximum to check; the message fields (``error``, ``warning``,
    ``note``) its own modifiers change; its groups (subgroups included, level by level) with
    the message fields their modifiers change; whether its modifiers change ``hidden``. A
    selection that modifiers of other selections reach is checked on every field anyway."""

    self_constraints: tuple[Constraint, ...]
    groups: bool
    messages: tuple[str, ...]
    message_groups: tuple[tuple[Group, tuple[str, ...]], ...]
    hidden_modified: bool
    #: Per constraint of ``self_constraints``: where it counts the selections of one
    #: reference among the selection's own children (shallow, or deep where nothing below
    #: its children can be of that reference), that reference; else ``None``. Empty: none
    #: is known to (every constraint is then checked the long way).
    self_counts: tuple[str | None, ...] = ()
    #: The groups of the entry a selection may find hidden (hidden in the catalog, or a
    #: modifier of their `hidden`): by the ``id()`` of each group that is one of them or lies
    #: inside one, those groups, the outermost first. A choice kept in such a group where
    #: the group is hidden is an error (a 40k enhancement of a detachment not taken).
    hideable: dict[int, tuple[Group, ...]] = field(default_factory=dict, hash=False)


def _hideable_groups(
    groups: Iterable[Group], can_hide: Callable[[Group], bool]
) -> dict[int, tuple[Group, ...]]:
    """See :attr:`EntryChecks.hideable`."""
    out: dict[int, tuple[Group, ...]] = {}
    stack: list[tuple[Group, tuple[Group, ...]]] = [(g, ()) for g in groups]
    while stack:
        g, above = stack.pop()
        path = (*above, g) if can_hide(g) else above
        if path:
            out[id(g)] = path
        stack.extend((sub, path) for sub in g.groups)
    return out


def _groups_level_by_level(groups: Iterable[Group]) -> Iterator[Group]:
    """Groups, then their subgroups, breadth first (each level before the next)."""
    todo = list(groups)
    while todo:
        g = todo.pop(0)
        yield g
        todo.extend(g.groups)


def _frozen(found: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
    return {k: tuple(v) for k, v in found.items()}


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
    #: A library file: other factions draw entries from it, but no roster or force is built
    #: from it (a new roster does not offer it; one that names it still opens).
    library: bool = False

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

    def __getstate__(self) -> dict[str, Any]:
        # kept in a library snapshot (libcache): the models and problems, not what a process
        # builds from them (indexes, the imported rules module)
        state = {k: v for k, v in self.__dict__.items() if k != "rules"}
        state["_indexes"] = {}
        return state

    def kept_form(self) -> GameSystem:
        """This system as a library snapshot keeps it, for a system of another format (read
        lazily by its own reader, :mod:`armybuilder.formats`): such a reader's subclass
        returns a copy in the state its scan left it (what it read of the folder, nothing
        translated yet). Raises ``TypeError`` where the system cannot be kept (this base
        class: its catalogs are kept in the engine's plain form instead)."""
        raise TypeError(f"no kept form for {type(self).__qualname__}")

    def offered_factions(self, keep: str | None = None) -> list[Faction]:
        """The factions a new roster (or force) can be built from, by name: library files
        left out, except faction ``keep`` (the one a roster already names)."""
        return sorted(
            (f for f in self.factions.values() if not f.library or f.id == keep),
            key=lambda f: f.name,
        )

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

    def read_all(self) -> None:
        """Read the game system's own data in full now, for a system of another format whose
        reader reads it only with a faction (raises :class:`InputError` with the problems of
        a file that cannot be read: ``check-catalog`` of a game system file alone). Nothing
        to do by default: a system file of ours is read whole when it is found."""

    def known_data_problems(self) -> dict[str, int]:
        """Per data file of the system (by path), how many data problems the last load of it
        found, where that is known without loading it (a cache of a previous load, the file
        unchanged since); a file not listed is not known. None by default."""
        return {}

    def starting_selections(self, faction_id: str) -> list[dict[str, Any]]:
        """What a new roster of this faction starts with (roster selections, as in the file):
        entries the catalog requires where it makes the choice plain. None by default."""
        return []

    def limit_types(self) -> list[tuple[CostType, float | None]]:
        """The cost types a new roster is asked a limit for (the New roster dialog; ``new
        --limit``), each with the limit it starts with (``None``: no limit), known without
        reading any faction: by default the system's shown cost types and their
        ``default_limit``, and a hidden one that has a ``default_limit`` (it applies, as
        BattleScribe applies a hidden cost type's ``defaultCostLimit``; a caller asks only
        the shown ones)."""
        return [
            (ct, ct.default_limit)
            for ct in self.model.cost_types
            if not ct.hidden or ct.default_limit is not None
        ]

    @cached_property
    def rules(self) -> SystemRules | None:
        """The system's rules module, if it names one and it can be imported."""
        from ..plugin import load_rules

        return load_rules(self.model.module)


def all_constraints(entry: Entry) -> list[Constraint]:
    """The constraints declared on an entry."""
    return list(entry.constraints)


#: The old private name (rules modules written before the catalog package used it).
_merge_link = merge_link


#: An owner's modifiers on one field (each marked whether it reads a cost) and their one scope.
#: The condition types that compare a count with a value (see :meth:`CatalogIndex.count_refs`).
_COUNT_COMPARISONS = frozenset(
    {"less-than", "greater-than", "equal-to", "not-equal-to", "at-least", "at-most"}
)

_CountRefs: TypeAlias = "tuple[tuple[str, bool], ...] | None"
_FieldMods: TypeAlias = "tuple[tuple[tuple[Modifier, bool], ...], str | None]"


def shared_scope(mods: Sequence[Modifier], owner_id: str) -> str | None:
    """The one scope every condition and repeat of ``mods`` measures, where what they find
    depends on nothing but the selection that scope names (so that modifiers applied at two
    selections with the same scope selection give the same result); ``None`` where there is
    no such scope (a condition on the ancestors, on the force's faction, or a percentage).
    Modifiers without any condition or repeat: `roster`."""
    scopes: set[str] = set()

    def query(q: Condition | Repeat) -> bool:
        ref = q.child or owner_id
        if q.scope == "ancestor" or q.percent or ref.startswith("faction:"):
            return False
        scopes.add(q.scope)
        return True

    def group(g: ConditionGroup) -> bool:
        return all(query(c) for c in g.conditions) and all(group(x) for x in g.groups)

    for m in mods:
        if not (
            all(query(c) for c in m.conditions)
            and all(group(g) for g in m.groups)
            and (m.repeat is None or query(m.repeat))
            and all(query(r) for r in m.repeats)
        ):
            return None
    if not scopes:
        return "roster"
    return scopes.pop() if len(scopes) == 1 else None


def modifier_queries(mod: Modifier) -> Iterator[Condition | Repeat]:
    """The conditions (at any depth of its groups) and repeats of a modifier."""
    yield from mod.conditions
    stack = list(mod.groups)
    while stack:
        g = stack.pop()
        yield from g.conditions
        stack.extend(g.groups)
    if mod.repeat is not None:
        yield mod.repeat
    yield from mod.repeats


def _category_values(mods: Iterable[Modifier]) -> Iterator[str]:
    """What modifiers of an entry's categories may name (every text in their values)."""
    for m in mods:
        if m.field in ("categories", "primary-category"):
            value = m.value
            if isinstance(value, str):
                yield value
            elif isinstance(value, list | tuple):
                yield from (v for v in value if isinstance(v, str))


def modifier_reads(mod: Modifier, fields: set[str]) -> bool:
    """Whether a condition or repeat of ``mod`` (at any depth of its groups) measures one of
    ``fields`` (e.g. the cost types: the modifier reads a cost)."""

    def group(g: ConditionGroup) -> bool:
        return any(c.field in fields for c in g.conditions) or any(group(x) for x in g.groups)

    return (
        any(c.field in fields for c in mod.conditions)
        or any(group(g) for g in mod.groups)
        or (mod.repeat is not None and mod.repeat.field in fields)
        or any(r.field in fields for r in mod.repeats)
    )
