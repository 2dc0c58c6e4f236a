"""The generic validation engine.

:func:`evaluate` turns a roster and a catalog into an :class:`Evaluation`: a tree of
:class:`Node` objects (one per selection, each tied to its catalog entry), the issues found
(errors and warnings, each with a stable code, a message, the selection's path and the rule
section), the totals per cost type, and the values a game system computes per node.

The engine knows BattleScribe-like structure only: entries and their children, groups with
min/max, constraints, modifiers with conditions, costs and limits, categories and force slots,
experience levels. Everything arithmetic about a game (attack values, morale, ammunition...)
belongs to the system's rules module (:mod:`armybuilder.plugin`), which runs after the
generic checks on the same tree.
"""

from __future__ import annotations

import math
import operator
import re
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, KeysView, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..catalog import CatalogIndex, GameSystem, custom_catalog
from ..catalog.index import (
    SCOPE_WORDS,
    ChildChecks,
    EntryFacts,
    Holding,
    modifier_queries,
    modifier_reads,
)
from ..model.plain import (  # the engine's form: no pydantic (see model/plain.py)
    MESSAGE_FIELDS,
    Condition,
    ConditionGroup,
    Constraint,
    CustomCatalog,
    Entry,
    EntryLink,
    ExperienceLevel,
    ForceEntry,
    Group,
    Modifier,
    Profile,
    Repeat,
    is_group,
    profile_hidden_field,
    profile_name_field,
    reaches,
)
from ..rosters import ForceData as ForceData
from ..rosters import Loc, Roster, SelectionData
from ..words import COST_DECIMALS, named_amount, number, tidy_cost, unit_after
from .frozen import FrozenList
from .state import StateKey, check_state

if TYPE_CHECKING:
    from pathlib import Path

    from ..plugin import SystemRules

ERROR = "error"
WARNING = "warning"
#: Shown to the player, not a problem: the roster stays legal, even with ``--strict``.
NOTE = "note"


T = TypeVar("T")


def format_loc(loc: Loc) -> str:
    """``("selections", 0, "count")`` -> ``selections[0].count``."""
    out = ""
    for step in loc:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + step
    return out


def fmt_num(x: float) -> str:
    """A number without a useless ``.0``."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return f"{x:g}"


@dataclass(frozen=True)
class Issue:
    """Something that makes a roster illegal (error) or unusual (warning), or that the catalog
    asks to show the player (note)."""

    severity: str
    code: str
    message: str
    path: Loc = ()
    source: str = ""
    #: Where the issue comes from, for tools that match issues by origin: the id of the entry
    #: (or force) whose rule is broken, and the id of that constraint (``hidden`` for a hidden
    #: entry that is selected). Empty when the issue comes from no catalog rule.
    entry: str = ""
    constraint: str = ""

    def __init__(
        self,
        severity: str,
        code: str,
        message: str,
        path: Loc = (),
        source: str = "",
        entry: str = "",
        constraint: str = "",
    ) -> None:
        # What the frozen dataclass's own __init__ does (one object.__setattr__ per field),
        # in one step (as Value does): a large roster can carry hundreds of warnings.
        self.__dict__.update(
            severity=severity,
            code=code,
            message=message,
            path=path,
            source=source,
            entry=entry,
            constraint=constraint,
        )

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "path": format_loc(self.path),
            "source": self.source,
        }
        if self.entry:
            out["entry"] = self.entry
        if self.constraint:
            out["constraint"] = self.constraint
        return out


#: A query child naming a faction: ``faction:<id>`` counts 1 in a force of that faction, else 0.
FACTION_REF = "faction:"


@dataclass(frozen=True)
class Value:
    """A value a game system computes for a selection or a roster."""

    key: str
    label: str
    value: Any
    text: str = ""
    source: str = ""

    def __init__(self, key: str, label: str, value: Any, text: str = "", source: str = "") -> None:
        # What the frozen dataclass's own __init__ does (one object.__setattr__ per field),
        # in one step: a large roster makes thousands of values per evaluation.
        self.__dict__.update(key=key, label=label, value=value, text=text, source=source)

    def display(self) -> str:
        if self.text:
            return self.text
        if isinstance(self.value, float):
            return fmt_num(self.value)
        return str(self.value)


class Node:
    """A selection in the evaluated tree (the root node stands for the roster)."""

    __slots__ = (
        "children",
        "count",
        "data",
        "entry",
        "facts",
        "group",
        "holding",
        "index",
        "link",
        "parent",
        "refs",
    )

    def __init__(
        self,
        data: SelectionData | None,
        entry: Entry | None,
        group: Group | None,
        parent: Node | None,
        index: int = 0,
        children: list[Node] | None = None,
        link: EntryLink | None = None,
        facts: EntryFacts | None = None,
        refs: frozenset[str] | None = None,
    ) -> None:
        self.data = data
        self.entry = entry
        self.group = group
        self.parent = parent
        #: (a selection built with nothing under it shares one empty list that refuses
        #: changes, :data:`NO_CHILDREN`: a node made to be given children gets its own)
        self.children: list[Node] = [] if children is None else children
        self.count = data.count if data is not None else 1
        self.index = index
        #: The link the selection was made through, if any.
        self.link = link
        #: What the engine reads of ``entry`` at every selection of it, from the catalog
        #: index (:meth:`CatalogIndex.facts`): set where the tree is built (``None`` on a
        #: node made elsewhere, whose entry's facts are then looked up in the index).
        self.facts = facts
        #: What the selection counts as, its categories as its entry states them (see
        #: :func:`~armybuilder.catalog.index.counted_as`), set with ``facts``.
        self.refs = refs
        #: Where everything the selection holds has nothing under it (a trooper's kit), what
        #: it holds (:class:`~armybuilder.catalog.index.Holding`), set where the tree is
        #: built: what is worked out from that alone is shared by the selections holding the
        #: same (``None``: worked out for the selection itself).
        self.holding: Holding | None = None

    #: For a force of a roster with several forces (a :class:`ForceNode`): its force entry
    #: (the node holds the force's selections and child forces; it has no entry), the force
    #: as read from the file and where it stands there. ``None`` (and no place) on any
    #: other node: kept here rather than on each node.
    force: ForceEntry | None = None
    force_data: ForceData | None = None
    force_loc: Loc = ()

    def path_ref(self) -> str:
        """What the selection counts as where counting is per link: ``path:`` and the id of
        its link, or of its entry when it was not made through a link."""
        link = self.link
        if link is not None and link.id:
            return f"path:{link.id}"
        return f"path:{self.entry.id}" if self.entry is not None else ""

    @property
    def depth(self) -> int:
        """How many selections (and forces) stand above this one, the root counted (the
        root's is 0): worked out when asked (only a printed roster asks)."""
        d = 0
        n = self.parent
        while n is not None:
            d += 1
            n = n.parent
        return d

    @property
    def is_root(self) -> bool:
        return self.parent is None

    @property
    def loc(self) -> Loc:
        return self.data.loc if self.data is not None else self.force_loc

    @property
    def entry_id(self) -> str | None:
        if self.entry is not None:
            return self.entry.id
        return self.data.entry if self.data is not None else None

    @property
    def categories(self) -> list[str]:
        return self.entry.categories if self.entry is not None else []

    def has_category(self, category: str) -> bool:
        return self.entry is not None and category in self.entry.categories

    def matches(self, ref: str) -> bool:
        """Is this node of entry ``ref``, in category ``ref`` or chosen in group ``ref``?"""
        if self.entry is None:
            return self.force is not None and self.force.id == ref
        return (
            ref == "*"
            or self.entry.id == ref
            or ref in self.entry.categories
            or (self.group is not None and self.group.id == ref)
            or (ref.startswith("type:") and ref[5:] == self.entry.type)
            or (self.link is not None and self.link.id == ref)
            or (ref.startswith("path:") and ref == self.path_ref())
        )

    def walk(self) -> Iterator[Node]:
        """This node and its descendants, depth first."""
        yield self
        yield from self.descendants()

    def descendants(self) -> Iterator[Node]:
        """The node's descendants, depth first (children in order, each before its own)."""
        stack = list(reversed(self.children))
        pop, push = stack.pop, stack.extend
        while stack:
            n = pop()
            yield n
            if n.children:
                push(reversed(n.children))

    def ancestors(self) -> Iterator[Node]:
        """Parent, grandparent... up to (and including) the root."""
        n = self.parent
        while n is not None:
            yield n
            n = n.parent

    def ancestor(self, entry_id: str) -> Node | None:
        """The nearest ancestor-or-self of entry ``entry_id``."""
        n: Node | None = self
        while n is not None:
            if n.entry is not None and n.entry.id == entry_id:
                return n
            n = n.parent
        return None

    def multiplicity(self, upto: Node | None = None) -> int:
        """How many copies of this node exist per one ``upto`` (counts multiply down)."""
        m = self.count
        a = self.parent
        while a is not None and a is not upto:
            m *= a.count
            a = a.parent
        return m

    def __repr__(self) -> str:
        return f"Node({self.entry_id!r}, count={self.count}, loc={format_loc(self.loc)})"


class ForceNode(Node):
    """A force of a roster with several forces (see :attr:`Node.force`)."""

    __slots__ = ("force", "force_data", "force_loc")

    def __init__(
        self,
        parent: Node | None,
        index: int,
        force: ForceEntry | None,
        force_data: ForceData | None,
        force_loc: Loc,
    ) -> None:
        super().__init__(None, None, None, parent, index)
        self.force = force
        self.force_data = force_data
        self.force_loc = force_loc


#: The children of every node :func:`evaluate` builds for a selection with nothing under
#: it: one empty list shared by them all, which refuses to be changed
#: (:class:`~armybuilder.rules.frozen.FrozenList`); an evaluation's tree is never added to
#: (what-if nodes are copies, made with lists of their own).
NO_CHILDREN: list[Node] = FrozenList()

#: The values one computation over a subtree set, per node (nodes in the order first given a
#: value, each node's values in the order set).
_Groups = tuple[tuple["Node", tuple["Value", ...]], ...]

#: Where a read of a traced computation was made, relative to the subtree's node: the path
#: of child indices down from it (``(0, 2)``), or how many steps up (``-1``: its parent);
#: ``None`` where the read has no selection.
_Where = tuple[int, ...] | int | None

#: One read a traced computation made (see :meth:`Evaluation.subtree`): the method, where
#: its selection argument stands among its arguments and relative to the subtree, the other
#: arguments, and what it returned; or a test of (``True``/``False``) or an addition to
#: (``None``) the set of checks made once per roster or force, with its key.
_Read = tuple[Any, int, _Where, Any, Any]


#: What one evaluation's log holds: a value set on a node, or (``None``) the values of a whole
#: subtree replayed from a previous evaluation (see :meth:`Evaluation.subtree`).
_Logged = tuple["Node | None", "Value | _Groups"]


class _Record:
    """What one computation over a subtree found: kept for the next evaluation."""

    __slots__ = (
        "_by_id",
        "_groups",
        "_keys",
        "data",
        "end",
        "issues",
        "key",
        "log",
        "node",
        "reads",
        "result",
        "start",
    )

    def __init__(
        self,
        data: SelectionData,
        key: Hashable,
        issues: tuple[Issue, ...],
        node: Node,
        log: list[_Logged],
        start: int,
        end: int,
        result: Any,
        groups: _Groups | None = None,
        by_id: dict[int, tuple[Value, ...]] | None = None,
        reads: tuple[_Read, ...] | None = None,
    ) -> None:
        self.data = data  # the subtree's selection (holding it keeps its id unique)
        self.key = key  # the names above the subtree and the caller's key
        self.issues = issues
        self.node = node  # the subtree's node in the evaluation that recorded it
        self.log = log  # the values that evaluation set...
        self.start = start  # ...from here...
        self.end = end  # ...to here are on nodes of the subtree
        self.result = result
        self._groups = groups
        self._by_id = by_id
        self._keys: frozenset[tuple[str, str, str, Loc]] | None = None
        #: For a computation replayed by what it read (see :meth:`Evaluation.subtree`): each
        #: read from outside the subtree, in order, with what it found.
        self.reads = reads

    def issue_keys(self) -> frozenset[tuple[str, str, str, Loc]]:
        """What :func:`_merge_repeated` tells its issues apart by, worked out once (fewer
        than its issues where two of them are alike)."""
        keys = self._keys
        if keys is None:
            keys = self._keys = frozenset(map(_issue_key, self.issues))
        return keys

    def groups(self) -> _Groups:
        """The values the subtree's computation set, per node (nodes in the order first
        given a value, each node's values in the order set); worked out once."""
        if self._groups is None:
            per: dict[int, tuple[Node, list[Value]]] = {}

            def add(n: Node, vs: Iterable[Value]) -> None:
                got = per.get(id(n))
                if got is None:
                    got = per[id(n)] = (n, [])
                got[1].extend(vs)

            for n, v in self.log[self.start : self.end]:
                if isinstance(v, Value):
                    add(n, (v,))  # type: ignore[arg-type]
                else:
                    for m, vs in v:
                        add(m, vs)
            self._groups = tuple((n, tuple(vs)) for n, vs in per.values())
            self.log = []  # (read once: the evaluation's log need not be kept alive for it)
        return self._groups

    def by_id(self) -> dict[int, tuple[Value, ...]]:
        """:meth:`groups` by ``id()`` of the nodes (of :attr:`node`'s tree); worked out once."""
        if self._by_id is None:
            self._by_id = {id(n): vs for n, vs in self.groups()}
        return self._by_id


def _file(values: dict[int, list[Value] | tuple[Value, ...]], groups: _Groups) -> None:
    """File replayed values per node, after any a node has already."""
    for target, vs in groups:
        got = values.get(id(target))
        values[id(target)] = vs if got is None else [*got, *vs]


def _moved_from(
    known: Mapping[int, Any], data: SelectionData, at: Callable[[Any], SelectionData]
) -> tuple[Any, SelectionData] | None:
    """What ``known`` (a table of a :class:`SubtreeMemo`, by ``id()`` of a selection) holds
    for the selection ``data`` is a moved copy of (:attr:`SelectionData.origin`, followed
    back), and that selection; ``at``: a row's selection."""
    o = data.origin
    while o is not None:
        row = known.get(id(o))
        if row is not None and at(row) is o:
            return row, o
        o = o.origin
    return None


_Row = TypeVar("_Row", bound=tuple[Any, ...])


def _row_of(table: Mapping[int, _Row] | None, data: SelectionData) -> _Row | None:
    """``table``'s row for ``data`` (a table of a :class:`SubtreeMemo` by ``id()`` of a
    selection, each row a tuple starting with its selection): its own, or that of the
    selection it is a moved copy of (:func:`_moved_from`), made over to it; ``None``."""
    if not table:
        return None
    row = table.get(id(data))
    if row is not None and row[0] is data:
        return row
    if data.origin is None:
        return None
    moved = _moved_from(table, data, operator.itemgetter(0))
    return cast("_Row", (data, *moved[0][1:])) if moved is not None else None


def _moved_record(known: dict[int, _Record], data: SelectionData, key: Hashable) -> _Record | None:
    """The record of the selection ``data`` is a moved copy of, made over to ``data``: its
    issues and result with the places in the subtree rewritten to the copy's
    (:func:`_relocated_value`); ``None`` where there is none under ``key``, or it holds a
    place it cannot rewrite (outside the subtree, or in an object it does not know)."""
    found = _moved_from(known, data, operator.attrgetter("data"))
    if found is None:
        return None
    prev, o = found
    if prev.key != key:
        return None
    old, new = o.loc, data.loc
    issues = _relocated_value(prev.issues, old, new)
    result = _relocated_value(prev.result, old, new)
    if issues is _CANNOT or result is _CANNOT:
        return None
    # The values by node, the nodes those of the evaluation that recorded it: the replay
    # finds them again by their place under the subtree's node, the same under the copy's.
    # They are replayed as they are: where one holds more than plain data, it must hold no
    # place (a value is shown as it was found).
    groups = prev.groups()
    for _, vs in groups:
        for v in vs:
            got = v.value
            if type(got) not in _PLAIN and _relocated_value(got, old, new) is not got:
                return None
    return _Record(data, prev.key, issues, prev.node, [], 0, 0, result, groups, reads=prev.reads)


#: What :func:`_relocated_value` gives for a value holding a place it cannot rewrite.
_CANNOT: Any = object()
_PLAIN = frozenset({type(None), bool, int, float, str})
_PLACES = ("selections", "forces")


def _relocated_value(value: Any, old: Loc, new: Loc) -> Any:
    """``value`` (found in the subtree at ``old``) with every place in it under ``old``
    rewritten to the same place under ``new``: the same object where it holds none, a copy
    where it does; :data:`_CANNOT` where it holds a place outside the subtree, or an object
    other than plain data, issues and values (which may hold a place that cannot be told)."""
    t = type(value)
    if t in _PLAIN or t is Value:
        return value
    if t is Issue:
        path = value.path
        if path[: len(old)] == old and old:
            return Issue(
                value.severity,
                value.code,
                value.message,
                (*new, *path[len(old) :]),
                value.source,
                value.entry,
                value.constraint,
            )
        return _CANNOT if path and path[0] in _PLACES else value
    if t is tuple or t is list:
        if value and type(value[0]) is str and value[0] in _PLACES:  # (a place)
            if old and value[: len(old)] == old:
                return t((*new, *value[len(old) :]))
            return _CANNOT
        items = [_relocated_value(v, old, new) for v in value]
        if any(v is _CANNOT for v in items):
            return _CANNOT
        if all(map(operator.is_, items, value)):
            return value
        return t(items)
    if t is dict:
        out = {}
        changed = False
        for k, v in value.items():
            if type(k) not in _PLAIN:
                return _CANNOT
            got = _relocated_value(v, old, new)
            if got is _CANNOT:
                return _CANNOT
            changed = changed or got is not v
            out[k] = got
        return out if changed else value
    if (t is frozenset or t is set) and all(type(v) in _PLAIN for v in value):
        return value
    return _CANNOT


class _UnitWalk:
    """What the walks over the whole roster of one force find of one top-level selection and
    everything under it (see :meth:`Evaluation._unit_walk`), each part worked out when first
    asked for: what they can be counted as (:meth:`Evaluation.present_refs`) and their entry
    ids (:func:`_entry_ids_under`); what :meth:`Evaluation._static_counts` of the roster finds
    in them: per set of references, how many selections count as them (in the order its walk
    first meets each set), the selections whose categories a modifier may change (each by its
    path of child indices from the top-level one, with its copies), and per reference how
    many selections count as it (``None`` where one of them has no copies: see
    :meth:`Evaluation._roster_counts`). The same for every evaluation that finds the same
    selection object (the same selections under it, of the same entries in the same index),
    so it is handed on with the memo."""

    __slots__ = ("counts", "ids", "moved", "parts", "present")

    def __init__(self) -> None:
        self.present: frozenset[str] | None = None
        self.ids: frozenset[str] = frozenset()
        self.parts: tuple[tuple[frozenset[str], float], ...] | None = None
        self.moved: tuple[tuple[tuple[int, ...], int], ...] = ()
        self.counts: dict[str, float] | None = None


class SubtreeMemo:
    """What an evaluation found per subtree, handed to the next evaluation of the same roster.

    A roster edit replaces the selections on the path to the change and leaves every other
    :class:`~armybuilder.rosters.SelectionData` object as it was (it is never changed in
    place), so a subtree whose selection is the same object, under the same names, holds the
    same content: its issues, values and totals can be replayed instead of computed again.
    A removal, an insertion or a move leaves the selections after it copies of what was there
    (:func:`~armybuilder.rosters.relocated`, :attr:`SelectionData.origin`): the same content
    at another place, replayed with the places in what was found rewritten.
    Only used when nothing in the catalog looks outside a subtree
    (:attr:`CatalogIndex.subtree_local`) and the rules module says the same of itself
    (:attr:`SystemRules.subtree_local`).
    """

    __slots__ = (
        "costs_traced",
        "counted",
        "custom",
        "hits",
        "index",
        "keyed",
        "misses",
        "names_traced",
        "nodes",
        "records",
        "roster_counts",
        "rules",
        "totals",
        "walked",
        "walks",
    )

    def __init__(self, index: CatalogIndex | None = None, rules: SystemRules | None = None) -> None:
        self.index = index
        self.rules = rules
        #: Per tag of :meth:`Evaluation.subtree`, by ``id()`` of the subtree's selection.
        self.records: dict[str, dict[int, _Record]] = {}
        self.totals: dict[int, tuple[SelectionData, dict[str, float]]] = {}
        #: The totals of selections that are not closed but read only counts above them
        #: (:meth:`CatalogIndex.outside_counts`), with those counts.
        self.keyed: dict[int, tuple[SelectionData, tuple[float, ...], dict[str, float]]] = {}
        #: Built nodes of selections with children, whose building reported nothing: the
        #: next evaluation takes them over (re-parented) instead of building them again.
        self.nodes: dict[int, Node] = {}
        #: The totals of selections worked out by what their costs read (see
        #: :meth:`Evaluation._costs_by_reads`): the selection, its entry, those reads and the
        #: totals.
        self.costs_traced: dict[
            int, tuple[SelectionData, Entry | None, tuple[_Read, ...], dict[str, float]]
        ] = {}
        #: The names of selections whose entry has modifiers of its name, worked out by what
        #: those modifiers read (see :meth:`Evaluation._name_by_reads`): the selection, its
        #: entry, those reads and the name.
        self.names_traced: dict[
            int, tuple[SelectionData, Entry | None, tuple[_Read, ...], str]
        ] = {}
        #: The roster's own entries (``custom:``) the index was built with: what they were
        #: (plain data), the file they were read from, the factions and the problems found.
        #: The next evaluation whose roster has the same ones reuses the index (and so the
        #: memo) instead of building both again.
        self.custom: tuple[Any, str, tuple[str, ...], tuple[Issue, ...]] | None = None
        #: What the whole-roster walks read of each top-level selection of a roster of one
        #: force (see :meth:`Evaluation._unit_walk`), with the selection.
        self.walks: dict[int, tuple[SelectionData, _UnitWalk]] = {}
        #: The top-level selections of a roster of one force and the counts
        #: :meth:`Evaluation._static_counts` found of the whole roster (see
        #: :meth:`Evaluation._roster_counts`).
        self.roster_counts: tuple[tuple[SelectionData, ...], dict[str, float]] | None = None
        #: Subtrees replayed and computed (for tests and benchmarks).
        self.hits = 0
        self.misses = 0
        #: Top-level selections walked for :attr:`walks` (the others' taken from the
        #: previous evaluation's; for tests and benchmarks).
        self.walked = 0
        #: Top-level selections' counts added to (or taken off) the roster's (see
        #: :meth:`Evaluation._roster_counts`; for tests and benchmarks).
        self.counted = 0


@dataclass
class Evaluation:
    """Everything known about one roster: its tree, issues, totals and computed values."""

    roster: Roster
    index: CatalogIndex
    root: Node
    issues: list[Issue] = field(default_factory=list)
    #: The values per ``id()`` of a node: a list, or a tuple where they were replayed whole
    #: (shared with the memo, never changed; read them with :meth:`values_of`).
    values: dict[int, list[Value] | tuple[Value, ...]] = field(default_factory=dict)
    roster_values: list[Value] = field(default_factory=list)
    totals: dict[str, float] = field(default_factory=dict)
    _unit_cost: dict[tuple[int, str], float] = field(default_factory=dict, repr=False)
    _total: dict[int, dict[str, float]] = field(default_factory=dict, repr=False)
    rules: SystemRules | None = field(default=None, repr=False)
    _query: dict[tuple[Any, ...], float] = field(default_factory=dict, repr=False)
    #: Modified values by (entry, field, the selection their one scope names, value): see
    #: :meth:`apply_modifiers`. Cleared with ``_query`` (what they are worked out from).
    _modified: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False)
    #: One copy's costs of the selections of an entry whose cost modifiers each look at one
    #: scope, by the entry and those scopes' selections (see :meth:`_scoped_costs`). Cleared
    #: with ``_modified``.
    _scoped: dict[tuple[int, ...], dict[str, float]] = field(default_factory=dict, repr=False)
    #: The totals of one selection of a :class:`Holding`, by the holding, the ``id()`` of
    #: its own costs' object (the catalog's, or one of ``_scoped``) and its count (see
    #: :meth:`_node_cost`). Cleared with ``_scoped``.
    _held: dict[tuple[Holding, int, int], dict[str, float]] = field(
        default_factory=dict, repr=False
    )
    #: The dictionaries of ``_scoped`` by what they hold (each cost with its sign, so that
    #: -0.0 and 0.0 stay apart): one object per set of costs, so that ``_held`` keyed by it
    #: serves every scope with the same costs (the troopers of every platoon of one
    #: motive). Cleared with ``_scoped``.
    _same_costs: dict[tuple[tuple[str, float, float], ...], dict[str, float]] = field(
        default_factory=dict, repr=False
    )
    #: The last :meth:`_scoped_costs` found where its entry's scopes are above the parent:
    #: the entry, the parent and what was found (the same for the next sibling of that
    #: entry). Dropped with ``_scoped``.
    _last_scoped: tuple[Entry, Node | None, dict[str, float]] | None = field(
        default=None, repr=False
    )
    _counts: dict[tuple[int, bool, bool], dict[str, float]] = field(
        default_factory=dict, repr=False
    )
    #: See :meth:`_static_counts`.
    _static: dict[tuple[int, bool, bool], tuple[dict[str, float], list[tuple[Node, int]]]] = field(
        default_factory=dict, repr=False
    )
    #: What selections of one entry (through one link, in one group) count as.
    _refs: dict[tuple[int, int, int], frozenset[str]] = field(default_factory=dict, repr=False)
    #: The memo this evaluation reads (the previous one's) and the one it fills.
    memo_in: SubtreeMemo | None = field(default=None, repr=False)
    memo_out: SubtreeMemo | None = field(default=None, repr=False)
    _value_log: list[_Logged] | None = field(default=None, repr=False)
    #: How many :meth:`subtree` computations are under way (their records read the log).
    _computing: int = field(default=0, repr=False)
    _above: dict[int, tuple[Any, ...]] = field(default_factory=dict, repr=False)
    #: :meth:`_outside_key` per entry and parent (by ``id()``).
    _outside_keys: dict[tuple[int, int], tuple[float, ...] | None] = field(
        default_factory=dict, repr=False
    )
    #: Per tag of :meth:`subtree`: the previous evaluation's records and this one's.
    #: The records whose issues were replayed, each with where they went in :attr:`issues`
    #: (start, end), in order: :func:`_merge_repeated` reads their issues' keys off them.
    _replayed: list[tuple[int, int, _Record]] = field(default_factory=list, repr=False)
    _tag_records: dict[str, tuple[dict[int, _Record] | None, dict[int, _Record]]] = field(
        default_factory=dict, repr=False
    )
    _top_names: tuple[str] | None = field(default=None, repr=False)
    #: While a traced computation runs (see :meth:`subtree`): the reads it has made from
    #: outside the subtree, the subtree's node, and how deep in a traced read the evaluation
    #: is (only the outermost read is kept: reading it again reads what it read).
    _trace: list[_Read] | None = field(default=None, repr=False)
    _trace_node: Node | None = field(default=None, repr=False)
    _trace_keys: set[Any] = field(default_factory=set, repr=False)
    #: Subtrees replayed by what their checks read, and checked again (tests, benchmarks).
    traced_hits: int = field(default=0, repr=False)
    traced_misses: int = field(default=0, repr=False)
    _trace_depth: int = field(default=0, repr=False)
    #: False once a traced computation has read something it cannot name again.
    _trace_ok: bool = field(default=True, repr=False)
    #: Held while a traced computation runs on the finished evaluation
    #: (:meth:`_replay_by_reads`): a cost worked out on demand by another thread (a PDF
    #: export beside the builder's panes) waits, instead of swapping the trace under it.
    _trace_lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    #: See :meth:`present_refs`.
    _present: frozenset[str] | None = field(default=None, repr=False)
    #: :meth:`where` of the selections that have been a parent, by ``id()``.
    _where: dict[int, str] = field(default_factory=dict, repr=False)
    #: :meth:`name` of the selections of the tree whose entry has modifiers of its name, by
    #: ``id()`` (with the node, to tell a reused id apart), once the evaluation is complete
    #: (see :meth:`_known_names`).
    _names: dict[int, tuple[Node, str]] = field(default_factory=dict, repr=False)
    #: Set by :func:`evaluate` once the tree is built, its costs settled and checked: from
    #: then on nothing changes what a name reads.
    _complete: bool = field(default=False, repr=False)
    #: Set by :meth:`tree_complete`: from then on the tree holds every selection (what the
    #: whole-roster walks find of a top-level selection may be kept for the next evaluation).
    _tree_built: bool = field(default=False, repr=False)
    _take_nodes: bool = field(default=False, repr=False)
    #: The campaign state keys the rules module declares (none: state is not checked).
    state_keys: tuple[StateKey, ...] = field(default=(), repr=False)
    #: The forces of a roster with several forces (``None``: the roster is one force).
    forces: list[ForceData] | None = field(default=None, repr=False)
    #: Per faction id, the entries a force of that faction may take at its top (set when the
    #: forces of a roster draw on more than one faction; ``None``: any of the index's).
    faction_roots: dict[str, frozenset[str]] | None = field(default=None, repr=False)
    #: The categories of each selection of the tree a modifier may give some or take some
    #: from, settled for the whole roster (see :meth:`_settled_categories`), by ``id()``;
    #: ``None``: not worked out yet.
    _cats: dict[int, list[str]] | None = field(default=None, repr=False)
    #: While they settle: the previous round's, which every read of a category reads.
    _cats_round: dict[int, list[str]] | None = field(default=None, repr=False)
    #: The faction of each force node that names one (by ``id(node)``).
    force_faction: dict[int, str] = field(default_factory=dict, repr=False)
    #: While costs settle (:meth:`_settle_costs`): the previous round's totals per node, which
    #: cost queries read instead of recursing into the costs being computed.
    _settling: dict[int, dict[str, float]] | None = field(default=None, repr=False)
    _cost_reads_cost: set[str] = field(default_factory=set, repr=False)
    #: Set when costs never settle: modifiers that read costs are then left out.
    _skip_cost_loops: bool = field(default=False, repr=False)
    _cost_capped: bool = field(default=False, repr=False)
    #: Modifiers that reach a selection from another one (see :func:`_find_reach`): per
    #: ``id(node)`` reached, each with the selection whose entry holds it, in order.
    _reached: dict[int, list[tuple[Modifier, Node]]] = field(default_factory=dict, repr=False)
    #: The selections a modifier from outside their subtree reaches: never replayed.
    _opened: set[int] = field(default_factory=set, repr=False)
    #: Per reached selection: its categories before each modifier that reaches it, then after.
    _reach_cats: dict[int, list[list[str]]] = field(default_factory=dict, repr=False)
    #: Whether the caller reads the computed values (``False``: issues, costs and totals
    #: only, as ``validate`` does): a rules module may then leave out values that decide no
    #: issue (:attr:`SystemRules` says which of its values it leaves out). The values it does
    #: compute, the issues, costs and totals are the same either way.
    values_wanted: bool = field(default=True, repr=False)
    #: Whether the rules module adds costs of its own (:meth:`SystemRules.extra_cost`):
    #: worked out from ``rules`` however the evaluation is made (what-if copies too).
    _extra_cost: bool = field(default=False, init=False, repr=False)
    #: Problems found while the tree is built, reported once it is complete (their messages
    #: name selections, whose names a modifier may work out by counting the whole tree).
    _after_build: list[Callable[[], None]] = field(default_factory=list, repr=False)
    #: :meth:`_context_nodes`, per set of cost fields.
    _context: dict[frozenset[str], list[tuple[Node, bool]]] = field(
        default_factory=dict, repr=False
    )
    #: :meth:`rise_with`'s selections to copy and to price again, per parent, choices
    #: dropped and cost fields (every option under one selection shares them).
    _rise_plans: dict[tuple[int, frozenset[int], frozenset[str]], _RisePlan] = field(
        default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        self._extra_cost = self.rules is not None and _adds_costs(self.rules)

    def what_if(self) -> Evaluation:
        """An evaluation of the same tree with caches of its own, for what-if nodes hung
        under it (whose ``id()`` must not reach this one's caches): it knows the roster's
        forces and their factions as this one does, so a what-if price reads a force's
        scope and faction as the evaluation of the roster with that selection would."""
        return Evaluation(
            self.roster,
            self.index,
            self.root,
            rules=self.rules,
            state_keys=self.state_keys,
            forces=self.forces,
            faction_roots=self.faction_roots,
            force_faction=self.force_faction,
            _skip_cost_loops=self._skip_cost_loops,
        )

    def rise_with(
        self,
        parent: Node,
        add: Callable[[Node], Node],
        drop: Sequence[Node] = (),
        cost_types: Sequence[str] = (),
        fields: Iterable[str] | None = None,
        price: dict[str, float] | None = None,
    ) -> dict[str, float]:
        """What the roster's total would rise by in each of ``cost_types`` were one more
        selection under ``parent``: ``add`` makes the new node under the copy of ``parent``
        (it appends nothing itself); the choices in ``drop`` (children of ``parent``) are
        left out, and the new node takes the place of the first of them. The costs are
        worked out on a copy of the tree (of the nodes: the selections are shared) as an
        evaluation of that roster works them out, without checking anything.

        ``fields``: the cost fields (``cost:pts``) of ``cost_types``, given where no modifier
        on them sums a cost or reaches other selections and the rules module adds no costs
        (the caller knows: :meth:`CatalogIndex.cost_counts`). Then only the selections whose
        costs or categories a modifier may change from outside their subtree are copied, with
        the selections above them and above ``parent``; the rest of the tree is shared and
        its costs are not worked out again (they cannot change). ``None``: the whole tree is
        copied and all its costs are worked out, costs that read costs settled. ``price``
        (with ``fields``): the new selection's own cost with everything under it, where the
        caller knows it cannot depend on where it is added (it is not worked out again)."""
        dropped = {id(n) for n in drop}
        copied: dict[int, Node] = {}
        faction = dict(self.force_faction)
        keep: AbstractSet[int] | None = None
        context: list[Node] = []
        # Per context selection, where its cost can change only through counts: the
        # references it counts in a scope holding the change (see :meth:`_cost_reads`).
        watch: dict[int, frozenset[str]] = {}
        context_reaches = False
        if fields is not None:
            plan = self._rise_plan(parent, dropped, frozenset(fields))
            keep, context, watch, context_reaches = plan

        def copy(old: Node, new_parent: Node | None) -> Node:
            if old.force is not None:
                n: Node = ForceNode(new_parent, old.index, old.force, old.force_data, old.force_loc)
            else:
                # (facts and refs: of the same entry, link and group)
                n = Node(
                    old.data,
                    old.entry,
                    old.group,
                    new_parent,
                    old.index,
                    None,
                    old.link,
                    old.facts,
                    old.refs,
                )
            n.count = old.count
            found = self.force_faction.get(id(old))
            if found is not None:
                faction[id(n)] = found
            copied[id(old)] = n
            return n

        root = copy(self.root, None)
        made: list[Node] = []
        stack: list[tuple[Node, Node]] = [(self.root, root)]
        while stack:
            old, new = stack.pop()
            placed = False
            for c in old.children:
                if id(c) in dropped:
                    if not placed:
                        made.append(add(new))
                        new.children.append(made[-1])
                        placed = True
                    continue
                if keep is not None and id(c) not in keep:
                    new.children.append(c)  # shared: nothing in it can change
                    continue
                n = copy(c, new)
                new.children.append(n)
                if c.children or c is parent:
                    stack.append((c, n))
            if old is parent and not placed:
                made.append(add(new))
                new.children.append(made[-1])
        if id(parent) not in copied or not made:
            raise ValueError("the parent is not a node of this evaluation")
        ev = Evaluation(
            self.roster,
            self.index,
            root,
            rules=self.rules,
            state_keys=self.state_keys,
            forces=self.forces,
            faction_roots=self.faction_roots,
            force_faction=faction,
        )
        if self.index.reaching_modifiers and (
            keep is None
            or self._reached
            or context_reaches
            or any(
                n.entry is not None and any(reaches(m) for m in n.entry.modifiers)
                for top in made
                for n in top.walk()
            )
        ):
            _find_reach(ev)
        if keep is None:
            ev._settle_costs()
            after = ev.total_cost(root)
            return {
                ct: tidy_cost(after.get(ct, 0.0) - self.totals.get(ct, 0.0)) for ct in cost_types
            }
        # Only what can change: the new selection (times the copies of its parent), less
        # what it replaces, and each copied selection whose own cost may read the roster.
        new_parent = copied[id(parent)]
        times = parent.multiplicity()
        rise = dict.fromkeys(cost_types, 0.0)
        if price is not None:
            for ct in cost_types:
                rise[ct] += price.get(ct, 0.0) * times
        else:
            for top in made:
                for n in top.walk():
                    k = n.multiplicity(new_parent)
                    for ct in cost_types:
                        rise[ct] += ev.unit_cost(n, ct) * k * times
        for d in drop:
            got = self.total_cost(d)
            for ct in cost_types:
                rise[ct] -= got.get(ct, 0.0) * times
        changed = [*made, *drop]
        for n in context:
            reads = watch.get(id(n))
            if reads is not None and not any(self._may_count(t, reads) for t in changed):
                continue  # none of what it counts is added or taken: its cost stands
            k = n.multiplicity()
            for ct in cost_types:
                rise[ct] += (ev.unit_cost(copied[id(n)], ct) - self.unit_cost(n, ct)) * k
        return {ct: tidy_cost(v) for ct, v in rise.items()}

    def rise_is_own(
        self,
        parent: Node,
        add: Callable[[Node], Node],
        drop: Sequence[Node],
        fields: Iterable[str],
    ) -> bool:
        """Whether :meth:`rise_with` with these ``fields`` and a ``price`` comes to that
        price times the copies of ``parent``, less what ``drop`` costs: no selection whose
        cost in ``fields`` a modifier may change from outside it (the plan's context) can
        find anything else, each only counting references that neither the new selection
        nor ``drop`` hold. Then the copy of the tree that :meth:`rise_with` makes would
        change no cost, and need not be made. ``add`` makes the new node (under ``parent``,
        appending nothing), only where some context selection counts something; ``fields``
        as for :meth:`rise_with` (the caller knows :meth:`CatalogIndex.cost_counts`)."""
        _, context, watch, _ = self._rise_plan(parent, {id(n) for n in drop}, frozenset(fields))
        if not context:
            return True
        if any(watch.get(id(n)) is None for n in context):
            return False  # (its cost may change whatever is added: worked out on the copy)
        changed = [add(parent), *drop]
        return not any(self._may_count(t, watch[id(n)]) for n in context for t in changed)

    def _rise_plan(self, parent: Node, dropped: set[int], fields: frozenset[str]) -> _RisePlan:
        """For :meth:`rise_with` with ``fields``: the selections to copy (those of
        ``parent``'s path and of each context selection's), the context selections whose
        costs may change, what each of them counts (where only counts can change it), and
        whether a modifier of one reaches other selections; the same for every option added
        under ``parent`` in place of ``dropped``, so worked out once per evaluation."""
        key = (id(parent), frozenset(dropped), fields)
        found = self._rise_plans.get(key)
        if found is not None:
            return found
        path = {id(n) for n in (parent, *parent.ancestors())}
        keep = set(path)
        context: list[Node] = []
        watch: dict[int, frozenset[str]] = {}
        by_reads = RISE_BY_READS and self.index.cost_counts(fields) is not None
        for n, local in self._context_nodes(fields):
            if local and id(n) not in path and id(n.parent) not in path:
                continue  # what it reads holds nothing added or dropped
            chain = [n, *n.ancestors()]
            if any(id(x) in dropped for x in chain):
                continue
            if by_reads:
                reads = self._cost_reads(n, fields, path)
                if reads is not None:
                    if not reads:
                        continue  # no count its cost reads can change
                    watch[id(n)] = reads
            context.append(n)
            keep.update(id(x) for x in chain)
        reaching = any(reaches(m) for n in context for m in n.entry.modifiers)  # type: ignore[union-attr]
        found = self._rise_plans[key] = (frozenset(keep), context, watch, reaching)
        return found

    def _cost_reads(
        self, node: Node, fields: frozenset[str], path: AbstractSet[int]
    ) -> frozenset[str] | None:
        """For :meth:`rise_with` (where :meth:`CatalogIndex.cost_counts` of ``fields`` is
        known: no cost modifier sums a cost, counts a percentage or a category a modifier may
        give or take): what the modifiers of ``node``'s cost in ``fields`` count in a scope
        that holds the change (a selection of ``path``: where the new selection goes and
        those above it); a count in any other scope, of ancestry or of forces, is the same
        after the change. ``None``: anything may change it (it is reached by a modifier of
        a cost, or :func:`_cost_counts` is ``None``). Its categories are not read: no cost
        counts what a modifier may make a selection, and a test of what it is reads the
        categories its entry states; so a modifier reaching it that changes no cost (a
        characteristic, a name, categories: an upgrade's on its bearer's models) leaves
        its cost to its own modifiers."""
        entry = node.entry
        if entry is None:
            return None
        reached = self._reached.get(id(node))
        if reached is not None and any(m.field in fields for m, _ in reached):
            return None
        counts = _cost_counts(self.index, entry, fields)
        if counts is None:
            return None
        refs: set[str] = set()
        for scope, ref in counts:
            scope_node = self._scope_node(node, scope)
            if scope_node is None or id(scope_node) not in path:
                continue  # nothing is added to or taken from that scope
            refs.add(ref)
        return frozenset(refs)

    def _may_count(self, top: Node, refs: frozenset[str]) -> bool:
        """Whether ``top`` or anything under it may be counted as one of ``refs`` (its
        entry, link, categories, group or a group holding it, type, ``*``), or may take or
        lose a category by a modifier (then anything)."""
        if "*" in refs:
            return True
        index = self.index
        fields_of = index.modified_fields
        # (a reference that may name a group: a group counts what is chosen in it and in the
        # groups inside it)
        grouped = any(
            ":" not in r
            and r not in index.entries
            and r not in index.shared
            and r not in index.categories
            for r in refs
        )
        for n in top.walk():
            entry = n.entry
            if entry is None:
                continue
            if id(n) in self._reached:
                return True
            if entry.modifiers:
                mf = fields_of(entry)
                if "categories" in mf or "primary-category" in mf:
                    return True
            if not self._node_refs(n, entry.categories).isdisjoint(refs):
                return True
            if n.group is not None and grouped:
                return True
            for ref in refs:
                if ref.startswith("type:") and entry.type in ref[5:].split("|"):
                    return True
                if n.link is not None and ref == f"path:{n.link.id}":
                    return True
                if ref == f"path:{entry.id}":
                    return True
        return False

    def _context_nodes(self, fields: frozenset[str]) -> list[tuple[Node, bool]]:
        """The selections whose cost in ``fields``, or whose categories, a modifier may
        change from outside their subtree: their entry has such a modifier with a condition
        or repeat, holds a modifier that reaches other selections, or is reached by one;
        each with whether what those modifiers read is all within the selection or its
        parent (scopes ``self`` and ``parent``: a selection added elsewhere cannot change
        it). Worked out once per evaluation (and ``fields``)."""
        found = self._context.get(fields)
        if found is None:
            index, reached = self.index, self._reached
            found = []
            for n in self.root.descendants():
                entry = n.entry
                if entry is None:
                    continue
                outside, reads = _cost_context(index, entry, fields)
                if not outside and reached and id(n) in reached:
                    outside = True
                if outside or reads:
                    found.append((n, not outside))
            self._context[fields] = found
        return found

    # ----------------------------------------------------------------- results

    @property
    def rules_add_costs(self) -> bool:
        """Whether the rules module adds costs of its own, so a selection's price may depend
        on the rest of the roster (:meth:`SystemRules.extra_cost`)."""
        return self._extra_cost

    @property
    def valid(self) -> bool:
        """No errors (warnings do not make a roster illegal)."""
        return not any(i.is_error for i in self.issues)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.is_error]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == WARNING]

    @property
    def notes(self) -> list[Issue]:
        """What the catalog asks to show (severity ``note``): neither errors nor warnings."""
        return [i for i in self.issues if i.severity == NOTE]

    def codes(self) -> list[str]:
        """The issue codes, in order (handy in tests)."""
        return [i.code for i in self.issues]

    def error(
        self, code: str, message: str, node: Node | Loc | None = None, source: str = ""
    ) -> None:
        """Report an error."""
        self._add(ERROR, code, message, node, source)

    def warning(
        self, code: str, message: str, node: Node | Loc | None = None, source: str = ""
    ) -> None:
        """Report a warning."""
        self._add(WARNING, code, message, node, source)

    def _add(
        self,
        severity: str,
        code: str,
        message: str,
        node: Node | Loc | None,
        source: str,
        entry: str = "",
        constraint: str = "",
    ) -> None:
        loc: Loc = node.loc if isinstance(node, Node) else (node or ())
        self.issues.append(Issue(severity, code, message, loc, source, entry, constraint))

    def set_value(
        self, node: Node, key: str, label: str, value: Any, text: str = "", source: str = ""
    ) -> None:
        """Record a computed value for a node (the root node: the whole roster)."""
        self._put_value(node, Value(key, label, value, text, source))

    def _put_value(self, node: Node, v: Value) -> None:
        if node.parent is None:  # (the root)
            self.roster_values.append(v)
            return
        values = self.values
        key = id(node)
        got = values.get(key)
        if got is None:
            values[key] = [v]
        elif type(got) is list:
            got.append(v)
        else:  # values replayed whole (shared with the memo): copied before they grow
            values[key] = [*got, v]
        if self._value_log is not None:
            self._value_log.append((node, v))

    def put_values(self, node: Node, values: tuple[Value, ...]) -> None:
        """Record values already made, in order (as :meth:`set_value` each): for a rules
        module that keeps the values of what computes alike (frozen, so they may be shared)."""
        if node.parent is None:
            self.roster_values.extend(values)
            return
        if not values:
            return
        key = id(node)
        got = self.values.get(key)
        if got is None:
            self.values[key] = values  # (shared, as replayed values are: _put_value)
        elif type(got) is list:
            got.extend(values)
        else:  # values replayed whole (shared with the memo): copied before they grow
            self.values[key] = [*got, *values]
        if self._value_log is not None:
            # Logged as one group (see _Logged): the values of one node, in order.
            self._value_log.append((None, ((node, values),)))

    # ----------------------------------------------------------------- reuse

    def _names_above(self, node: Node) -> tuple[Any, ...]:
        """The labels (and experience) of the selections above ``node``, and the entry and
        faction of the forces above it: what its messages, inherited values and faction
        conditions may read from outside its subtree."""
        parent = node.parent
        if parent is None or parent.is_root:
            top = self._top_names
            if top is None:
                top = self._top_names = (self.roster.name,)
            return top
        key = id(parent)
        found = self._above.get(key)
        if found is None:
            data = parent.data
            force = parent.force
            found = (
                *self._names_above(parent),
                self.label(parent),
                data.experience
                if data is not None
                else (force.id, self.force_faction.get(id(parent)))
                if force is not None
                else None,
            )
            self._above[key] = found
        return found

    def reusable(self, node: Node) -> bool:
        """Whether what this evaluation found in ``node``'s subtree is what the previous one
        found, when the selection is the same object (see :meth:`subtree`)."""
        return (
            self.memo_out is not None
            and self.index.closed(node.entry)
            and id(node) not in self._opened
        )

    def _outside_key(self, node: Node) -> tuple[float, ...] | None:
        """For a selection that is not closed: the counts above it that its checks and
        costs read (:meth:`CatalogIndex.outside_counts`), as this evaluation finds them;
        ``None`` where it reads more than those, or the rules module adds costs."""
        if self._extra_cost or id(node) in self._opened:
            return None
        # The scopes it reads name entries above it: the same for every selection of its
        # entry under one parent (siblings have the same selections above them).
        known = self._outside_keys
        at = (id(node.entry), id(node.parent))
        if at in known:
            return known[at]
        found: tuple[float, ...] | None = None
        reads = self.index.outside_counts(node.entry)
        if reads is not None:
            query = self.query
            found = tuple([query(node, *r) for r in reads])
        known[at] = found
        return found

    def subtree(
        self,
        node: Node,
        tag: str,
        compute: Callable[[], T],
        key: Hashable = None,
        _open: bool = False,
        _seen: set[Any] | None = None,
    ) -> T:
        """``compute()``, a computation over the subtree at ``node`` that reports issues and
        values of that subtree only; or, when the previous evaluation ran it on the same
        selection under the same names (and ``key``), what it found then, replayed. (Or on
        the selection this one is a moved copy of: replayed with the places in its issues and
        result rewritten, where they are plain data, issues and values; see
        :func:`_relocated_value`.)

        Rules modules whose analysis folds the tree bottom-up wrap each formation in this and
        set :attr:`SystemRules.subtree_local`; the result is returned as it was, so it must
        not be changed afterwards. (``_open``: for the engine's own checks, a selection the
        caller has found closed, or one that is not but whose checks read only counts above
        it, ``key`` holding them: see :meth:`_outside_key`. ``_seen``: for the engine's own
        checks of any other selection, the checks made once per roster or force so far: the
        computation is traced, every read it makes outside the subtree (a count, a modified
        value, a category, a test of those checks) kept with what it found; it is replayed
        where each of those reads, made again in this evaluation, finds the same.)
        """
        out = self.memo_out
        data = node.data
        log = self._value_log
        if (
            out is None
            or data is None
            or log is None
            or id(node) in self._opened
            or not (_open or self.index.closed(node.entry))
            or (_seen is not None and self._trace is not None)  # (inside a traced one)
        ):
            return compute()
        # (what _names_above gives, read from its caches where it has worked it out)
        parent = node.parent
        if parent is None or parent.parent is None:
            names = self._top_names or self._names_above(node)
        else:
            names = self._above.get(id(parent)) or self._names_above(node)
        # The previous evaluation's records of this tag and this one's (looked up once).
        pair = self._tag_records.get(tag)
        if pair is None:
            memo_in = self.memo_in
            pair = self._tag_records[tag] = (
                memo_in.records.get(tag) if memo_in is not None else None,
                out.records.setdefault(tag, {}),
            )
        known, mine = pair
        prev = known.get(id(data)) if known is not None else None
        if prev is not None and prev.data is not data:
            prev = None
        if prev is None and known is not None and data.origin is not None:
            # A copy of a selection a removal, an insertion or a move shifted: what was found
            # in the selection it was copied from, with its places rewritten (where it holds
            # none it cannot rewrite; see _moved_record).
            prev = _moved_record(known, data, (names, key))
        if (
            prev is not None
            and prev.key == (names, key)
            and (prev.reads is None or (_seen is not None and self._same_reads(prev, node, _seen)))
        ):
            out.hits += 1
            if _seen is not None:
                self.traced_hits += 1
            if prev.issues:
                issues = self.issues
                i0 = len(issues)
                issues.extend(prev.issues)
                self._replayed.append((i0, len(issues), prev))
            values = self.values
            if prev.node is node:
                # The same nodes (taken over from the previous evaluation): their values are
                # filed at once, shared (a node's values grow only by a copy: _put_value).
                by_id = prev._by_id
                if by_id is None:
                    by_id = prev.by_id()
                if by_id:  # (empty exactly when groups() is)
                    if values.keys().isdisjoint(by_id):
                        values.update(by_id)
                    else:
                        _file(values, prev.groups())
                    if self._computing:
                        # (logged for the computations around this one only: none reads the
                        # log outside them)
                        log.append((None, prev.groups()))
                # The record holds its values itself (groups() read them off the log it was
                # made on), so it serves the next evaluation as it is.
                mine[id(data)] = prev
                return prev.result  # type: ignore[no-any-return]
            # Another evaluation's tree: the same nodes, found by their place.
            v0 = len(log)
            base = len(data.loc)
            moved = []
            for old, vs in prev.groups():
                target = node
                rel = old.loc
                for i in range(base + 1, len(rel), 2):
                    target = target.children[rel[i]]  # type: ignore[index]
                moved.append((target, vs))
            groups = tuple(moved)
            _file(values, groups)
            if groups and self._computing:
                log.append((None, groups))
            # Recorded again, on this evaluation's nodes: a memo refers to one evaluation only.
            mine[id(data)] = _Record(
                data,
                prev.key,
                prev.issues,
                node,
                log,
                v0,
                len(log),
                prev.result,
                groups,
                reads=prev.reads,
            )
            return prev.result  # type: ignore[no-any-return]
        out.misses += 1
        if _seen is not None:
            self.traced_misses += 1
        i0 = len(self.issues)
        v0 = len(log)
        self._computing += 1
        trace: list[_Read] | None = None
        if _seen is not None:
            trace = self._trace = []
            self._trace_node = node
            self._trace_ok = True
            self._trace_keys.clear()
        try:
            result = compute()
        finally:
            self._computing -= 1
            if trace is not None:
                self._trace = self._trace_node = None
        if trace is not None and not self._trace_ok:
            return result  # (it read what cannot be read again: never replayed)
        mine[id(data)] = _Record(
            data,
            (names, key),
            tuple(self.issues[i0:]),
            node,
            log,
            v0,
            len(log),
            result,
            reads=tuple(trace) if trace is not None else None,
        )
        return result

    # The reads a traced computation makes (see :meth:`subtree`).

    def _where_in_trace(self, node: Node) -> _Where:
        """Where ``node`` stands relative to the traced subtree's node (``_Where``); the
        trace is spoiled where it is neither in that subtree nor above it."""
        top = self._trace_node
        assert top is not None
        path: list[int] = []
        n: Node | None = node
        while n is not None and n is not top:
            up = n.parent
            if up is None:
                break
            kids = up.children
            i = n.index
            if i >= len(kids) or kids[i] is not n:  # (not its place: looked for)
                i = next((k for k, c in enumerate(kids) if c is n), -1)
                if i < 0:  # (a what-if node hung under the tree)
                    self._trace_ok = False
                    return None
            path.append(i)
            n = up
        if n is top:
            path.reverse()
            return tuple(path)
        steps = 0
        n = top
        while n is not None and n is not node:
            n = n.parent
            steps -= 1
        if n is None:
            self._trace_ok = False
            return None
        return steps

    def _reads_inside(
        self, context: Node, scope: str, ref: str | None, field_: str, percent: bool
    ) -> bool:
        """Whether a query of a traced computation counts selections inside its subtree
        alone, as they are whatever lies outside: of what no modifier can make a selection
        count as (an entry, link, group, type, or a category no modifier gives or takes),
        in a scope that is the subtree's node or under it, and no modifier of another
        selection reaches a selection of the roster; or a sum of a cost no modifier changes
        (nor the rules module) in such a scope. Such a read is not kept in the trace (the same
        subtree holds the same selections, at the same costs)."""
        if (
            percent
            or scope == "ancestor"
            or self._reached
            or (ref is not None and (ref in self.index.added_categories or ":" in ref))
        ):
            return False
        if field_ != "selections" and (
            self._extra_cost
            or field_ not in self.index.cost_types
            or field_ in self._modified_costs()
        ):
            return False
        n = self._scope_node(context, scope)
        top = self._trace_node
        while n is not None and n is not top:
            n = n.parent
        return n is not None

    def _in_trace(self, node: Node | None) -> bool:
        """Whether ``node`` is the traced subtree's node or under it."""
        top = self._trace_node
        while node is not None and node is not top:
            node = node.parent
        return node is not None

    def _queries_inside(
        self, owner: str | None, queries: Iterable[Condition | Repeat], context: Node
    ) -> bool:
        """Whether each of ``queries`` (conditions and repeats of a modifier of ``owner``,
        read at ``context``) finds what it finds inside the traced subtree alone
        (:meth:`_reads_inside`): a count or cost there, or a test of what a selection there
        is (its entry, categories as its entry states them or type; its group or link below
        the subtree's own node, which its parent decides)."""
        for q in queries:
            if isinstance(q, Condition) and q.type in ("instance-of", "not-instance-of"):
                ref = q.child or owner
                if ref is None or ref.startswith(FACTION_REF) or q.scope == "ancestor":
                    return False
                n = self._scope_node(context, q.scope)
                if n is None or not self._in_trace(n):
                    return False
                if n is self._trace_node and not (
                    ref == "*"
                    or ref.startswith("type:")
                    or (n.entry is not None and (ref == n.entry.id or ref in n.entry.categories))
                ):
                    return False  # (the subtree's own link or group: where it was placed)
            elif not self._reads_inside(context, q.scope, q.child or owner, q.field, q.percent):
                return False
        return True

    def _mods_inside(self, owner: Entry | ForceEntry | Group, field_: str, context: Node) -> bool:
        """Whether ``field_`` of ``owner`` at ``context``, a selection in the traced subtree,
        is modified by what lies in that subtree alone: no modifier reaches a selection of
        the roster, and each modifier of the field reads no cost and only what
        :meth:`_queries_inside` finds inside. Such a value is the same wherever the same
        subtree stands: it is not kept in the trace (see :meth:`subtree`)."""
        if self._reached or not self._in_trace(context):
            return False
        mods, _ = self.index.modifiers_on(owner, field_)
        inside = self._queries_inside
        for mod, reads_cost in mods:
            if reads_cost or not inside(owner.id, modifier_queries(mod), context):
                return False
        return True

    def _reads_alone(
        self, owner: Entry | ForceEntry | Group, field_: str, value: Any, context: Node
    ) -> bool:
        """Whether ``field_`` of ``owner`` at ``context``, a selection in the traced subtree,
        is worked out by its modifiers from their conditions and repeats alone, each read
        where it is made (a condition or count looking outside the subtree kept in the trace
        on its own; one inside it left out: see :meth:`_queries_inside`), with no value kept
        between selections that could hide one of those reads (several scopes, or a value
        that is not a number or text: :meth:`apply_modifiers` works it out afresh), no
        modifier reading a cost and none reaching a selection of the roster. The value is
        then the same where each of those reads finds the same: the value itself need not
        be read again (its conditions inside the subtree are the same with the same
        subtree)."""
        if self._reached or not self._in_trace(context):
            return False
        mods, scope = self.index.modifiers_on(owner, field_)
        if scope is not None and type(value) in _SCALARS:
            return False  # (a value kept per scope selection: read whole)
        return not any(reads_cost for _, reads_cost in mods)

    def _modified_costs(self) -> frozenset[str]:
        """The cost types a modifier of the catalog changes anywhere (any other cost of a
        selection is what its entries state, times its count)."""
        memo: dict[str, frozenset[str]] = self.index.memo("engine.modified_costs")
        found = memo.get("")
        if found is None:
            index = self.index
            owners = [*index.entries.values(), *index.shared.values()]
            owners.extend(c.entry for c in index._all_children())
            fields = {m.field for o in owners for m in o.modifiers}
            found = memo[""] = frozenset(
                ct
                for ct in index.cost_types
                if (index.cost_fields.get(ct) or f"cost:{ct}") in fields
            )
        return found

    def _traced(self, fn: Callable[..., Any], at: int, args: tuple[Any, ...]) -> Any:
        """``fn(self, *args)``, kept in the trace with where its selection (``args[at]``)
        stands (``at`` < 0: it has none)."""
        self._trace_depth += 1
        try:
            found = fn(self, *args)
        finally:
            self._trace_depth -= 1
        trace = self._trace
        if trace is not None:
            where = self._where_in_trace(args[at]) if at >= 0 else None
            rest = args[:at] + args[at + 1 :] if at >= 0 else args
            try:
                once = (fn, where, rest)
                if once in self._trace_keys:
                    return found  # (read already: the same read finds the same)
                self._trace_keys.add(once)
            except TypeError:
                pass  # (a list among its arguments: kept as it is)
            # (a list found is kept as it was: the caller may change the one it is given)
            trace.append((fn, at, where, rest, list(found) if type(found) is list else found))
        return found

    def _node_at(self, node: Node, where: _Where) -> Node | None:
        """The selection standing ``where`` relative to ``node`` (see ``_Where``)."""
        if isinstance(where, int):
            n: Node | None = node
            for _ in range(-where):
                n = n.parent if n is not None else None
            return n
        n = node
        for i in where or ():
            if i >= len(n.children):
                return None
            n = n.children[i]
        return n

    def _same_reads(self, prev: _Record, node: Node, seen: set[Any]) -> bool:
        """Whether every read of ``prev``'s traced computation, made again here with
        ``node`` as the subtree's node, finds what it found; if so, the checks it made once
        per roster or force are marked made in ``seen``."""
        reads = prev.reads
        assert reads is not None
        return self._reads_same(reads, node, seen)

    def _reads_same(self, reads: tuple[_Read, ...], node: Node, seen: set[Any]) -> bool:
        """:meth:`_same_reads` of a trace's ``reads``."""
        marked: list[Any] = []
        for fn, at, where, rest, found in reads:
            if fn is None:  # a test of ``seen`` (``found``: its answer) or an addition
                if found is None:
                    marked.append(rest)
                elif (rest in seen or rest in marked) is not found:
                    return False
                continue
            if at >= 0:
                n = self._node_at(node, where)
                if n is None:
                    return False
                args = (*rest[:at], n, *rest[at:])
            else:
                args = rest
            if fn(self, *args) != found:
                return False
        seen.update(marked)
        return True

    def seen_once(self, seen: set[Any], key: Any) -> bool:
        """Whether a check made once per roster or force (``key``) has been made."""
        got = key in seen
        if self._trace is not None:
            self._trace.append((None, -1, None, key, got))
        return got

    def mark_once(self, seen: set[Any], key: Any) -> None:
        """Mark a check made once per roster or force (``key``) as made."""
        seen.add(key)
        if self._trace is not None:
            self._trace.append((None, -1, None, key, None))

    def present_of(self, keys: KeysView[str]) -> AbstractSet[str]:
        """Which of ``keys`` something in the roster can be counted as (:meth:`present_refs`)."""
        if self._trace is not None and not self._trace_depth:
            return self._traced(  # type: ignore[no-any-return]
                Evaluation._present_of, -1, (frozenset(keys),)
            )
        return keys & self.present_refs()

    def _present_of(self, keys: frozenset[str]) -> frozenset[str]:
        return keys & self.present_refs()

    def values_of(self, node: Node) -> list[Value]:
        if node.is_root:
            return self.roster_values
        got = self.values.get(id(node))
        if got is None:
            return []
        return got if type(got) is list else list(got)

    def value(self, node: Node, key: str) -> Any:
        """A computed value by key, or ``None``."""
        for v in self.values_of(node):
            if v.key == key:
                return v.value
        return None

    def nodes(self) -> Iterator[Node]:
        """Every selection node (not the root), depth first."""
        return self.root.descendants()

    def present_refs(self) -> frozenset[str]:
        """Everything a selection of the roster can be counted as (entry, link, group and
        category ids, those a modifier may add included, and force ids): a count of anything
        else is 0 anywhere in the roster. Worked out once per evaluation."""
        found = self._present
        if found is None and self._walks_kept():
            # (the union of each top-level selection's, kept where it is the same object)
            refs_of: set[str] = set(self.index.added_categories)
            for c in self.root.children:
                present = self._unit_present(c).present
                assert present is not None
                refs_of.update(present)
            found = self._present = frozenset(refs_of)
        if found is None:
            refs: set[str] = set(self.index.added_categories)
            _present_in(self.root.descendants(), refs, set())
            found = self._present = frozenset(refs)
        return found

    def _walks_kept(self) -> bool:
        """Whether the walks over the whole roster are made of each top-level selection's
        part (:meth:`_unit_walk`): in a roster of one force whose tree is complete, in an
        evaluation that hands what it found to the next."""
        return self.forces is None and self._tree_built and self.memo_out is not None

    def _unit_walk(self, unit: Node) -> _UnitWalk:
        """What the walks over the whole roster find of the top-level selection ``unit`` and
        everything under it (:class:`_UnitWalk`, its parts worked out where they are asked
        for): the previous evaluation's where the selection is the same object, else new. An
        edit then walks the top-level selection it changed, not the roster."""
        data = unit.data
        out = self.memo_out
        assert out is not None
        if data is not None:
            kept = out.walks.get(id(data))
            if kept is None and self.memo_in is not None:
                kept = self.memo_in.walks.get(id(data))
            if kept is not None and kept[0] is data:
                if not self._complete:
                    out.walks[id(data)] = kept
                return kept[1]
        found = _UnitWalk()
        out.walked += 1
        if data is not None and not self._complete:
            out.walks[id(data)] = (data, found)
        return found

    def _unit_present(self, unit: Node) -> _UnitWalk:
        """:meth:`_unit_walk` with what ``unit`` and everything under it can be counted as
        and their entry ids worked out (walked as present_refs and _entry_ids_under walk)."""
        found = self._unit_walk(unit)
        if found.present is None:
            present: set[str] = set()
            ids: set[str] = set()
            _present_in(unit.walk(), present, ids)
            found.ids = frozenset(ids)
            found.present = frozenset(present)
        return found

    def _unit_counts(self, unit: Node) -> _UnitWalk:
        """:meth:`_unit_walk` with what :meth:`_static_counts` of the roster finds in ``unit``
        worked out (walked as it walks the roster)."""
        found = self._unit_walk(unit)
        if found.parts is not None:
            return found
        by_refs: dict[frozenset[str], float] = {}
        moved: list[tuple[Node, int]] = []
        fields_of = self.index.modified_fields
        by_modifier = self.index.category_modifiers
        stated = self._stated_refs
        stack: list[tuple[Node, int]] = [(unit, unit.count)]
        pop, push = stack.pop, stack.extend
        while stack:
            n, mult = pop()
            entry = n.entry
            if entry is None:
                if n.force is not None:
                    push([(c, c.count) for c in n.children])
                continue
            if by_modifier and "categories" in fields_of(entry):
                moved.append((n, mult))
            else:
                refs = stated(n)
                by_refs[refs] = by_refs.get(refs, 0.0) + mult
            if n.children:
                push([(c, mult * c.count) for c in n.children])
        counted: dict[str, float] = {}
        for refs, copies in by_refs.items():
            for ref in refs:
                counted[ref] = counted.get(ref, 0.0) + copies
        # (see _roster_counts: every part at least one copy)
        found.counts = counted if all(copies > 0 for copies in by_refs.values()) else None
        found.moved = tuple((_path_below(unit, n), mult) for n, mult in moved)
        found.parts = tuple(by_refs.items())
        return found

    def _roster_counts(self, units: list[Node], walks: list[_UnitWalk]) -> dict[str, float] | None:
        """The counts :meth:`_static_counts` finds of the whole roster (of the selections no
        modifier gives categories), from the previous evaluation's: the parts of the
        top-level selections no longer there taken off, those of the new ones added (a
        reference no selection counts as any more dropped). ``None`` where there is nothing
        to start from, or the edit changed more than half the list. The same dictionary as
        added up afresh, but for the order of its keys (read by key only): whole numbers
        of copies, each part's at least one (else its counts are ``None``), so the sums are
        exact and a count falls to 0 exactly where nothing counts as it."""
        memo_in = self.memo_in
        prev = memo_in.roster_counts if memo_in is not None else None
        if prev is None or memo_in is None:
            return None
        old, counts = prev
        now: dict[int, int] = {}
        for c in units:
            now[id(c.data)] = now.get(id(c.data), 0) + 1
        gone: list[SelectionData] = []
        for d in old:
            k = id(d)
            left = now.get(k, 0)
            if left:
                now[k] = left - 1
            else:
                gone.append(d)
        # (the new ones: as many of each as are left above)
        added: list[_UnitWalk] = []
        for c, w in zip(units, walks, strict=True):
            k = id(c.data)
            if now.get(k, 0):
                now[k] -= 1
                added.append(w)
        if len(gone) + len(added) > len(units) // 2:
            return None
        if self.memo_out is not None:
            self.memo_out.counted += len(gone) + len(added)
        counts = dict(counts)
        for d in gone:
            kept = memo_in.walks.get(id(d))
            part = kept[1].counts if kept is not None and kept[0] is d else None
            if part is None:
                return None
            for ref, copies in part.items():
                left_over = counts[ref] - copies
                if left_over:
                    counts[ref] = left_over
                else:
                    del counts[ref]
        for w in added:
            part = w.counts
            if part is None:
                return None
            for ref, copies in part.items():
                counts[ref] = counts.get(ref, 0.0) + copies
        return counts

    def entry_ids_under(self, node: Node) -> AbstractSet[str]:
        """:func:`_entry_ids_under`, of the root the union of each top-level selection's
        (:meth:`_unit_walk`)."""
        if node.parent is None and self._walks_kept():
            if len(node.children) == 1:
                return self._unit_present(node.children[0]).ids
            ids: set[str] = set()
            for c in node.children:
                ids.update(self._unit_present(c).ids)
            return ids
        return _entry_ids_under(node)

    def nodes_in(self, category: str) -> list[Node]:
        """The selections in ``category`` (as their entries state it), depth first: what
        ``[n for n in self.nodes() if n.has_category(category)]`` gives, without walking the
        selections that cannot hold one (see :meth:`CatalogIndex.holders`)."""
        holders = self.index.holders(category)
        out: list[Node] = []
        stack = list(reversed(self.root.children))
        while stack:
            n = stack.pop()
            entry = n.entry
            if entry is None:
                if n.force is not None:  # a force: its selections are the roster's
                    stack.extend(reversed(n.children))
                continue  # (a selection the catalog does not know: nothing is judged)
            if category in entry.categories:
                out.append(n)
            if n.children and id(entry) in holders:
                stack.extend(reversed(n.children))
        return out

    def tree_complete(self) -> None:
        """Drop everything worked out from the tree while it was still being built.

        Building reports some problems as it goes (a selection the catalog does not allow
        where it stands names its parent, whose name a modifier may work out by counting
        the parent's selections): such counts, names and costs saw only the selections
        built so far. Every cache of what the tree holds is emptied once the tree (and
        what reaches across it) is complete, so nothing read later sees a partial tree.
        """
        for cache in (
            self._query,
            self._modified,
            self._scoped,
            self._held,
            self._same_costs,
            self._counts,
            self._static,
            self._where,
            self._names,
            self._above,
            self._unit_cost,
            self._total,
            self._context,
            self._rise_plans,
            self._outside_keys,
            self._reach_cats,
        ):
            cache.clear()
        self._present = None
        self._last_scoped = None
        self._cats = None
        self._tree_built = True

    # ----------------------------------------------------------------- names

    def name(self, node: Node) -> str:
        """The node's display name: custom name, else the (modified) entry name."""
        if node.parent is None:  # (the root; Node.is_root, inlined)
            return self.roster.name
        if node.force is not None:
            fd = node.force_data
            return fd.name if fd is not None and fd.name else node.force.name
        data = node.data
        if data is not None and data.name:
            return data.name
        entry = node.entry
        if entry is None:
            return data.entry if data and data.entry else "?"
        if not self._reached and not (
            entry.modifiers and "name" in self.index.modified_fields(entry)
        ):
            return entry.name  # (what apply_modifiers gives: no modifier changes it)
        if self._complete and self._trace is None:
            # (inside a traced computation it is read again: its reads are kept there)
            got = self._names.get(id(node))
            if got is not None and got[0] is node:
                return got[1]
        return str(self.apply_modifiers(entry, "name", entry.name, node))

    def _known_names(self) -> None:
        """Work out the name of every selection of the tree whose entry has modifiers of its
        name (the Crusade ranks a 40k unit appends by its experience), for :meth:`name` to
        read: each by what those modifiers read where the previous evaluation worked out the
        same selection's (:meth:`_name_by_reads`). Done by :func:`evaluate` once the tree is
        built, its costs settled and checked, in the thread that evaluates: the trace a name
        is worked out with is the evaluation's own, which nothing else writes while it
        runs (an evaluation is read by other threads only once it is made)."""
        fields_of = self.index.modified_fields
        reached = self._reached
        names = self._names
        named: dict[int, bool] = {}  # (per entry: has it modifiers of its name)
        # (only into the selections whose entry can hold one with modifiers of its name,
        # unless a modifier of another selection reaches one)
        for n in self.root.descendants() if reached else _walk_holding(self, _NAMED):
            entry = n.entry
            if entry is None:
                continue
            data = n.data
            if data is not None and data.name:
                continue
            own = named.get(id(entry))
            if own is None:
                own = named[id(entry)] = bool(entry.modifiers) and "name" in fields_of(entry)
            if own or (reached and id(n) in reached):
                names[id(n)] = (n, self._name_by_reads(n, entry, data))

    def _name_by_reads(self, node: Node, entry: Entry, data: SelectionData | None) -> str:
        """The name of ``node`` (of ``entry``, with no name of its own): the previous
        evaluation's where the selection is the same object of the same entry and every
        read its name modifiers made from outside it (:meth:`subtree`'s trace: a count of
        the roster or force, a faction, a category, a cost) finds the same again (what lies
        inside it is the same in the same selection); else worked out, traced. Where a
        modifier of another selection reaches one, names are worked out afresh (as costs:
        :meth:`_costs_by_reads`)."""
        out = self.memo_out
        if out is None or data is None or self._reached or self._trace is not None:
            return str(self.apply_modifiers(entry, "name", entry.name, node))
        memo_in = self.memo_in
        return self._replay_by_reads(
            memo_in.names_traced if memo_in is not None else None,
            out.names_traced,
            node,
            data,
            lambda: str(self.apply_modifiers(entry, "name", entry.name, node)),
        )

    def label(self, node: Node) -> str:
        """Name with count, e.g. ``Squad ×4``."""
        n = self.name(node)
        return f"{n} ×{node.count}" if node.count != 1 else n

    def where(self, node: Node) -> str:
        """A breadcrumb such as ``1st Platoon > Squad ×4``."""
        parent = node.parent
        if parent is None:
            return self.roster.name
        own = self.label(node)
        if parent.parent is None:
            return own
        # The breadcrumb above is the same for every selection of one parent (once costs have
        # settled: a name modifier may count what is selected).
        above = self._where.get(id(parent))
        if above is None:
            above = self.where(parent)
            if self._settling is None:
                self._where[id(parent)] = above
        return f"{above} > {own}"

    # ----------------------------------------------------------------- experience

    def experience(self, node: Node) -> ExperienceLevel | None:
        """The experience level that applies to a node (its own, an ancestor's, the default)."""
        n: Node | None = node
        while n is not None:
            if n.data is not None and n.data.experience:
                return self.index.experience.get(n.data.experience)
            n = n.parent
        default = self.index.system.model.default_experience
        return self.index.experience.get(default) if default else None

    # ----------------------------------------------------------------- costs

    def _settle_costs(self) -> None:
        """Work out every cost before anything else reads one.

        A cost modifier may depend on costs (its condition or repeat sums a cost type over a
        scope that holds the entry itself: "+10 pts while the roster is over 500 pts"). As
        BattleScribe and New Recruit do, such costs are found by iteration: each round reads
        the costs of the previous one (none in the first), until a round changes nothing. A
        catalog whose costs never settle is reported as an error, never a crash, and its costs
        are then worked out without the modifiers that read costs (the entries' base costs
        where only those modify them), as the conformance suite asks.
        """
        self._settling = {}
        self._cost_reads_cost = set()
        try:
            for rounds in range(1, MAX_COST_ROUNDS + 1):
                self.total_cost(self.root)
                if not self._cost_reads_cost:
                    return  # no cost reads a cost: one round is exact
                totals = {id(n): dict(self.total_cost(n)) for n in self.root.walk()}
                if totals == self._settling or rounds == MAX_COST_ROUNDS:
                    break  # the costs of this round stay (those read later too)
                self._settling = totals
                self._unit_cost.clear()
                self._total.clear()
                self._query.clear()
                self._modified.clear()
                self._scoped.clear()
                self._held.clear()
                self._same_costs.clear()
                self._last_scoped = None
            if totals == self._settling and not self._cost_capped:
                return
            names = ", ".join(sorted(self._cost_reads_cost))
            self.error(
                "cost-not-settled",
                f"the costs of {names} depend on costs and never settle on one value "
                f"({MAX_COST_ROUNDS} rounds): a catalog error; check the conditions and "
                "repeats of their cost modifiers (they are left out of the costs shown)",
            )
            self._settling = None
            self._skip_cost_loops = True
            self._unit_cost.clear()
            self._total.clear()
            self._query.clear()
            self._modified.clear()
            self._scoped.clear()
            self._held.clear()
            self._same_costs.clear()
            self._last_scoped = None
            self.total_cost(self.root)
        finally:
            self._settling = None

    def unit_cost(self, node: Node, cost_type: str) -> float:
        """The cost of one copy of the node's own entry (modifiers applied, children excluded)."""
        key = (id(node), cost_type)
        found = self._unit_cost.get(key)
        if found is not None:
            return found
        entry = node.entry
        if entry is None:
            self._unit_cost[key] = 0.0
            return 0.0
        base = entry.costs.get(cost_type, 0.0)
        value = base
        if entry.modifiers or self._reached:
            field_ = self.index.cost_fields.get(cost_type) or f"cost:{cost_type}"
            if field_ in self.index.modified_fields(entry) or (
                self._reached and id(node) in self._reached
            ):
                value = self.apply_modifiers(entry, field_, base, node)
        if not _is_number(value):
            value = base  # only a catalog check-catalog rejects gets here
        if self._extra_cost and self.rules is not None:
            try:
                value += self.rules.extra_cost(self, node, cost_type)
            except Exception as exc:  # report once, never crash
                if not any(i.code == "rules-module-failed" for i in self.issues):
                    why = f"{type(exc).__name__}: {exc}"
                    self.error("rules-module-failed", _module_failed(self.index, why), node)
        found = self._unit_cost[key] = tidy_cost(float(value))
        return found

    def total_cost(self, node: Node) -> dict[str, float]:
        """The cost of the node with everything under it, times its count."""
        cached = self._total.get(id(node))
        if cached is not None:
            return cached
        data = node.data
        out = self.memo_out
        if (
            out is not None
            and data is not None
            and id(node) not in self._opened
            and self.index.closed(node.entry)
        ):
            memo_in = self.memo_in
            prev = _row_of(memo_in.totals if memo_in is not None else None, data)
            if (
                prev is not None
                and prev[0] is data
                # (costs a rules module adds may read the selections above a nested one,
                # which are not part of this key: only top-level ones are replayed then)
                and (not self._extra_cost or node.parent is None or node.parent.entry is None)
            ):
                out.totals[id(data)] = prev  # (the same pair serves the next evaluation)
                cached = prev[1]
            else:
                cached = self._node_cost(node)
                out.totals[id(data)] = (data, cached)
            self._total[id(node)] = cached
        elif (
            out is not None
            and data is not None
            and node.children
            and (outside := self._outside_key(node)) is not None
        ):
            # Not closed, but what its costs read from above is counts: the same selection
            # with the same counts above has the same totals.
            memo_in = self.memo_in
            was = _row_of(memo_in.keyed if memo_in is not None else None, data)
            if was is not None and was[0] is data and was[1] == outside:
                out.keyed[id(data)] = was
                cached = was[2]
            else:
                cached = self._node_cost(node)
                out.keyed[id(data)] = (data, outside, cached)
            self._total[id(node)] = cached
        elif (
            out is not None
            and data is not None
            and node.children
            and self._trace is None
            and not self._extra_cost
            and not self._reached
            and not self._costs_read_costs()
        ):
            cached = self._total[id(node)] = self._costs_by_reads(node, data, out)
        else:
            cached = self._node_cost(node)
            self._total[id(node)] = cached
        return cached

    def _costs_read_costs(self) -> bool:
        """Whether a modifier of the catalog that costs are worked out with (of a cost, or
        of categories, which a cost's conditions may count) reads a cost (a condition or
        repeat on a cost type): costs may then settle over several rounds, each reading the
        last, and one selection's cost may work out another's."""
        memo: dict[str, bool] = self.index.memo("engine.costs_read_costs")
        found = memo.get("")
        if found is None:
            index = self.index
            costs = set(index.cost_types)
            fields = {index.cost_fields.get(ct) or f"cost:{ct}" for ct in index.cost_types}
            fields.add("categories")
            owners = [*index.entries.values(), *index.shared.values()]
            owners.extend(c.entry for c in index._all_children())
            found = memo[""] = any(
                m.field in fields and modifier_reads(m, costs) for o in owners for m in o.modifiers
            )
        return found

    def _costs_by_reads(
        self, node: Node, data: SelectionData, out: SubtreeMemo
    ) -> dict[str, float]:
        """The totals of ``node`` (a selection with children, in an edit session, that is
        neither closed nor keyed by the counts above it): the previous evaluation's where
        the selection is the same object of the same entry and every read its costs made
        from outside it (:meth:`subtree`'s trace: counts, modified values, categories; what
        lies inside it is the same in the same selection) finds the same again; else worked
        out, traced. No cost modifier of the catalog reads a cost (one round settles them),
        the rules module adds none and no modifier of the roster reaches across selections,
        so what the costs read is a count or a modified value of the tree, read again here
        as the trace has it."""
        memo_in = self.memo_in
        return self._replay_by_reads(
            memo_in.costs_traced if memo_in is not None else None,
            out.costs_traced,
            node,
            data,
            lambda: self._node_cost(node),
        )

    def _replay_by_reads(
        self,
        before: dict[int, tuple[SelectionData, Entry | None, tuple[_Read, ...], T]] | None,
        after: dict[int, tuple[SelectionData, Entry | None, tuple[_Read, ...], T]],
        node: Node,
        data: SelectionData,
        work_out: Callable[[], T],
    ) -> T:
        """What ``work_out`` gives for ``node`` (of selection ``data``): the previous
        evaluation's (``before``) where the selection is the same object of the same entry
        and every read made from outside it finds the same again; else worked out with the
        reads traced. Either way kept in ``after`` with its reads (unless a read could not
        be traced), for the next evaluation (:meth:`_costs_by_reads`, :meth:`_name_by_reads`).
        One at a time per evaluation (``_trace_lock``): the trace is the evaluation's own."""
        with self._trace_lock:
            # (a copy a removal, an insertion or a move shifted: what was worked out for the
            # selection it was copied from, where it reads the same; what it reads is found
            # relative to the node, and a place it finds is read again)
            prev = _row_of(before, data)
            if (
                prev is not None
                and prev[0] is data
                and prev[1] is node.entry
                and self._reads_same(prev[2], node, set())
            ):
                after[id(data)] = prev
                return prev[3]
            trace: list[_Read] = []
            self._trace = trace
            self._trace_node = node
            self._trace_ok = True
            self._trace_keys.clear()
            try:
                found = work_out()
            finally:
                self._trace = self._trace_node = None
            if self._trace_ok:
                after[id(data)] = (data, node.entry, tuple(trace), found)
            return found

    def _node_cost(self, node: Node) -> dict[str, float]:
        entry = node.entry
        facts = node.facts
        reached = self._reached
        # (own: costs of the entry's own, which no rules module adds to and no modifier of
        # another selection reaches)
        own = False
        static: dict[str, float] | None = None
        if entry is not None and not self._extra_cost and not (reached and id(node) in reached):
            own = True
            static = facts.static if facts is not None else self.index.static_costs(entry)
        # (own_costs: one copy's costs of the entry's own, in an object shared by the
        # selections they are the same for: the catalog's, or those of a scope's selection)
        own_costs: dict[str, float] | None = static
        if static is None and own and entry is not None and entry.modifiers:
            own_costs = self._scoped_costs(node, entry)
        holding = node.holding
        if (
            holding is not None
            and own_costs is not None
            and holding.static
            and self.memo_out is None
            and not reached
        ):
            # What it holds has static costs (a trooper's kit): its totals are worked out
            # from its own costs, what it holds and its count alone (the loop below), once
            # per such make-up and its own costs' object (kept with _scoped, which keeps
            # those objects alive and is emptied with them).
            hkey = (holding, id(own_costs), node.count)
            done = self._held.get(hkey)
            if done is None:
                done = self._held[hkey] = self._add_up(node, dict(own_costs))
            return dict(done)
        if own_costs is not None:
            per_copy = dict(own_costs)
        else:
            unit = self.unit_cost
            per_copy = {ct: unit(node, ct) for ct in self.index.cost_types}
        return self._add_up(node, per_copy)

    def _add_up(self, node: Node, per_copy: dict[str, float]) -> dict[str, float]:
        """``per_copy`` (the costs of one copy of the node's entry) with the totals of
        everything under the node added, times its count."""
        reached = self._reached
        if node.children:
            total, get = self.total_cost, per_copy.get
            totals, static_costs = self._total, self.index.static_costs
            # A selection with nothing under it, whose costs no modifier changes: its totals
            # are the catalog's costs times its count (what total_cost works out for it, in
            # any round: added here, and worked out again only if something asks for them).
            leaves = self.memo_out is None and not self._extra_cost and not reached
            for c in node.children:
                if leaves and not c.children:
                    f = c.facts
                    if f is not None:
                        got = f.static
                    elif c.entry is not None:
                        got = static_costs(c.entry)
                    else:
                        got = None
                    if got is not None:
                        k = c.count
                        if k == 1:
                            for ct, v in got.items():
                                per_copy[ct] = get(ct, 0.0) + v
                        else:
                            for ct, v in got.items():
                                per_copy[ct] = get(ct, 0.0) + tidy_cost(v * k)
                        continue
                got = totals.get(id(c))
                if got is None:
                    if leaves:
                        # (what total_cost does with no memo to fill: its own costs, kept)
                        got = totals[id(c)] = self._node_cost(c)
                    else:
                        got = total(c)
                for ct, v in got.items():
                    per_copy[ct] = get(ct, 0.0) + v
            for ct, v in per_copy.items():
                if v % 1:
                    per_copy[ct] = round(v, COST_DECIMALS)  # (tidy_cost, inlined)
        count = node.count
        if count == 1:
            return per_copy  # (each cost times 1: the same floats)
        return {ct: tidy_cost(v * count) for ct, v in per_copy.items()}

    def _scoped_costs(self, node: Node, entry: Entry) -> dict[str, float] | None:
        """What ``{ct: unit_cost(node, ct)}`` gives, for a selection of ``entry`` that no
        modifier of another selection reaches and no rules module adds to, where each cost
        the entry's modifiers change is changed by modifiers that look at one scope alone
        (:func:`~armybuilder.catalog.index.shared_scope`): the same for every selection of
        the entry with the same selections in those scopes (the troopers of one platoon), so
        worked out for the first and kept for the others (the dictionary kept: do not change
        it). ``None`` where that does not hold.
        """
        if self._trace is not None:
            return None  # (shared between selections: a traced cost reads its own)
        facts = node.facts
        if facts is None:
            facts = self.index.facts(entry)
        scopes = facts.cost_scopes
        if scopes is None:
            return None
        last = self._last_scoped
        if last is not None and last[1] is node.parent and last[0] is entry and facts.scopes_above:
            # A sibling of the last selection asked, of the same entry: its scopes are above
            # their parent (EntryFacts.scopes_above), so they are the same selections.
            return last[2]
        at = self._scope_node
        if len(scopes) == 1:  # (one cost type)
            key: tuple[int, ...] = (id(entry), id(at(node, scopes[0])))
        else:
            key = (id(entry), *[id(at(node, s)) if s else 0 for s in scopes])
        found = self._scoped.get(key)
        if found is None:
            unit = self.unit_cost
            made = {ct: unit(node, ct) for ct in self.index.cost_types}
            same = tuple((ct, v, math.copysign(1.0, v)) for ct, v in made.items())
            found = self._scoped[key] = self._same_costs.setdefault(same, made)
        if facts.scopes_above:
            self._last_scoped = (entry, node.parent, found)
        return found  # (never changed: callers copy it)

    # ----------------------------------------------------------------- characteristics

    def profile_value(self, node: Node, profile: Profile, char_id: str) -> Any:
        """A characteristic of one of the node's profiles (modifiers applied)."""
        if node.entry is None or char_id not in profile.characteristics:
            return None
        return self.apply_modifiers(
            node.entry,
            f"characteristic:{char_id}",
            profile.characteristics[char_id],
            node,
            profile.type,
        )

    def profile_hidden(self, node: Node, profile: Profile) -> bool:
        """Whether one of the node's profiles is hidden: its own ``hidden``, after the
        entry's modifiers of ``profile:<id>:hidden`` (a profile without an id has none)."""
        if profile.id is None or node.entry is None:
            return profile.hidden
        return bool(
            self.apply_modifiers(node.entry, profile_hidden_field(profile.id), profile.hidden, node)
        )

    def profile_name(self, node: Node, profile: Profile) -> str:
        """One of the node's profiles' name as the entry shows it: after the entry's modifiers
        of ``profile:<id>:name`` (empty: the profile has no name of its own)."""
        if profile.id is None or node.entry is None:
            return profile.name
        return str(
            self.apply_modifiers(node.entry, profile_name_field(profile.id), profile.name, node)
        )

    def visible_profiles(self, node: Node) -> list[Profile]:
        """The node's profiles a player is shown (printed, listed), in catalog order."""
        if node.entry is None:
            return []
        return [p for p in node.entry.profiles if not self.profile_hidden(node, p)]

    def characteristic(self, node: Node, char_id: str, profile_type: str | None = None) -> Any:
        """A characteristic of the node's first profile that has it (modifiers applied)."""
        if node.entry is None:
            return None
        for p in node.entry.profiles:
            if (profile_type is None or p.type == profile_type) and char_id in p.characteristics:
                return self.apply_modifiers(
                    node.entry,
                    f"characteristic:{char_id}",
                    p.characteristics[char_id],
                    node,
                    p.type,
                )
        return None

    # ----------------------------------------------------------------- queries

    def _scope_node(self, context: Node, scope: str) -> Node | None:
        if scope not in SCOPE_WORDS and ":" not in scope:
            # the nearest selection of entry ``scope``, this one or above (Node.ancestor,
            # inlined; the most asked: a trooper's platoon)
            at: Node | None = context
            while at is not None:
                entry = at.entry
                if entry is not None and entry.id == scope:
                    return at
                at = at.parent
            return None
        if scope == "self":
            return context
        if scope == "parent":
            return context.parent
        if scope == "force":
            return self.force_of(context)
        if scope == "roster":
            return self.root
        if scope == "top":  # the top-level selection holding the context
            n: Node | None = context
            while n is not None and n.parent is not None and n.parent.entry is not None:
                n = n.parent
            return n if n is not None and n.entry is not None else None
        if ":" in scope and scope.startswith("type:"):  # the nearest of these types
            kinds = scope[5:].split("|")
            n = context
            while n is not None and n.entry is not None:
                if n.entry.type in kinds:
                    return n
                n = n.parent
            return None
        # (an entry id with a colon in it: the nearest selection of it, as above)
        at = context
        while at is not None:
            entry = at.entry
            if entry is not None and entry.id == scope:
                return at
            at = at.parent
        return None

    def force_nodes(self) -> list[Node]:
        """The nodes of the roster's forces (child forces after their parent); none for a
        roster of one force."""
        if self.forces is None:
            return []
        return [n for n in self.root.walk() if n.force is not None]

    def units(self) -> list[Node]:
        """The top-level selections: the root's children for a roster of one force, else
        those of every force in order (child forces after their parent)."""
        if self.forces is None:
            return list(self.root.children)
        return [c for f in self.force_nodes() for c in f.children if c.force is None]

    def force_of(self, node: Node) -> Node:
        """The force a node is in (the root when the roster is one force)."""
        if self.forces is None:
            return self.root
        n: Node | None = node
        while n is not None:
            if n.force is not None:
                return n
            n = n.parent
        return self.root

    def is_faction(self, faction_id: str, context: Node) -> bool:
        """Whether ``context`` is in a force of this faction (the roster's, for a roster of
        one force)."""
        if self.forces is not None:
            got = self.force_faction.get(id(self.force_of(context)))
            if got is not None:
                return got == faction_id
        named = self.roster.header.faction
        factions = named if isinstance(named, list) else [named]
        return faction_id == self.index.faction.id or faction_id in factions

    def counts_per_link(self, ref: str) -> bool:
        """Whether a query per link (``per_link: true``) counts ``ref`` by the link each
        selection came through: an entry or a link id. A category or a group belongs to no
        link: everything in it is counted as it is, per link or not (as are ``*``, a
        ``type:`` and any other prefixed reference)."""
        if ref == "*" or ":" in ref:
            return False
        index = self.index
        if ref in index.entries or ref in index.shared:
            return True
        return ref not in index.categories and ref not in index.groups

    def query(
        self,
        context: Node,
        scope: str,
        child: str | None,
        field_: str,
        deep: bool | None,
        owner: str | None,
        child_forces: bool = False,
        percent: bool = False,
        per_link: bool = False,
    ) -> float:
        """Count selections (or sum a cost) of ``child`` (default: ``owner``) within a scope.

        In a roster with several forces, the roster scope reaches into every force, and a
        force into the forces inside it only with ``child_forces``; field `forces` counts
        forces (of force entry ``child``, or any) instead of selections. ``percent``: the
        result as a percentage of the same count (or cost) of everything in the scope.
        ``per_link``: selections made through a link count as that link's, not as their
        entry's (``child`` may name the link; :meth:`counts_per_link` says which references
        are counted so). Constraints, conditions and repeats all count through here."""
        if (
            self._trace is not None
            and not self._trace_depth
            and not self._reads_inside(context, scope, child or owner, field_, percent)
        ):
            return self._traced(  # type: ignore[no-any-return]
                Evaluation.query,
                0,
                (context, scope, child, field_, deep, owner, child_forces, percent, per_link),
            )
        if child is not None and child.startswith(FACTION_REF):
            return 1.0 if self.is_faction(child[len(FACTION_REF) :], context) else 0.0
        if per_link and field_ != "forces":
            ref0 = child or owner
            if ref0 is not None and self.counts_per_link(ref0):
                if child is not None:
                    child = f"path:{child}"
                else:
                    owner = f"path:{owner}"
        if scope == "ancestor":
            # Every selection above: how many of them are (of) ``child``.
            ref = child or owner
            return float(
                sum(
                    1
                    for a in context.ancestors()
                    if a.entry is not None and (ref is None or a.matches(ref))
                )
            )
        scope_node = self._scope_node(context, scope)
        if scope_node is None:
            return 0.0
        if percent:
            part = self.query(context, scope, child, field_, deep, owner, child_forces)
            if deep is None:
                deep = scope != "parent"
            if field_ == "selections":
                whole = self._ref_counts(scope_node, deep, child_forces).get("*", 0.0)
            else:
                whole = self.total_cost(scope_node).get(field_, 0.0) / max(scope_node.count, 1)
            return 100.0 * part / whole if whole else 0.0
        ref = child or owner
        if deep is None:
            deep = scope != "parent"
        key = (id(scope_node), ref, field_, deep, child_forces)
        cached = self._query.get(key)
        if cached is not None:
            return cached
        if field_ == "forces":
            # (a roster of one force has no force among its selections: nothing to count)
            total = (
                0.0
                if self.forces is None
                else float(
                    sum(
                        1
                        for n in self._reach(scope_node, True, child_forces, forces=True)
                        if n.force is not None and (ref is None or n.force.id == ref)
                    )
                )
            )
            self._query[key] = total
            return total
        if field_ == "selections" and ref is not None:
            if (
                deep
                and scope_node.entry is not None
                and not child_forces
                and not self._reached
                and not self.index.category_modifiers
                and (id(scope_node), True, False) not in self._counts
            ):
                if ref not in self.index.deep_refs(scope_node.entry):
                    # Nothing below the scope's children can be of it: their count (one
                    # walk of the children per scope, whatever is asked).
                    total = self._ref_counts(scope_node, False).get(ref, 0.0)
                else:
                    # Only the selections that can hold it are looked into.
                    total = self._ref_count(scope_node, ref)
            else:
                total = self._ref_counts(scope_node, deep, child_forces).get(ref, 0.0)
            self._query[key] = total
            return total
        total = 0.0
        pool: Iterable[Node] = self._reach(scope_node, deep, child_forces)
        for n in pool:
            if ref is not None and not n.matches(ref):
                continue
            if field_ == "selections":
                total += n.multiplicity(scope_node)
            else:
                parent_mult = (
                    n.parent.multiplicity(scope_node)
                    if (n.parent is not None and n.parent is not scope_node)
                    else 1
                )
                total += self._cost_read(n, field_) * parent_mult
        if ref is None and field_ != "selections":
            # Nothing named: the cost of one copy of the scope itself.
            total = self._cost_read(scope_node, field_) / max(scope_node.count, 1)
        self._query[key] = total
        return total

    def _reach(
        self, scope_node: Node, deep: bool, child_forces: bool, forces: bool = False
    ) -> Iterator[Node]:
        """The selections under ``scope_node`` (children only unless ``deep``), looking
        through the forces the scope reaches (see :meth:`query`); ``forces``: the force
        nodes too."""
        stack = list(reversed(scope_node.children))
        while stack:
            n = stack.pop()
            if n.force is not None:
                if scope_node.is_root or child_forces:
                    if forces:
                        yield n
                    stack.extend(reversed(n.children))
                continue
            yield n
            if deep:
                stack.extend(reversed(n.children))

    def _cost_read(self, node: Node, cost_type: str) -> float:
        """A cost a query reads: while costs settle, the previous round's."""
        if self._settling is None:
            return self.total_cost(node).get(cost_type, 0.0)
        return self._settling.get(id(node), {}).get(cost_type, 0.0)

    def _ref_counts(
        self, scope_node: Node, deep: bool, child_forces: bool = False
    ) -> dict[str, float]:
        """How many selections of every entry, category and group lie under ``scope_node``
        (copies multiplied down the tree); one walk per scope node and evaluation. (At the
        root, forces are always looked into: one count whatever ``child_forces`` says, as
        :meth:`_static_counts` makes it.)"""
        key = (id(scope_node), deep, child_forces or scope_node.parent is None)
        counts = self._counts.get(key)
        if counts is not None:
            return counts
        # What every count of this scope finds alike (the selections whose categories no
        # modifier changes), counted once; the others (as settled) in the walk's order.
        static, others = self._static_counts(scope_node, deep, child_forces)
        if others:
            counts = dict(static)
            get = counts.get
            for n, mult in others:
                for ref in self._node_refs(n, self.categories(n)):
                    counts[ref] = get(ref, 0.0) + mult
        else:
            counts = static
        self._counts[key] = counts
        return counts

    def _stated_refs(self, n: Node) -> frozenset[str]:
        """What a selection counts as with its categories as its entry states them."""
        found = n.refs
        if found is None:
            entry = n.entry
            assert entry is not None
            rkey = (id(entry), id(n.link), id(n.group))
            found = self._refs.get(rkey)
            if found is None:
                found = self._refs[rkey] = self._node_refs(n, entry.categories)
        return found

    def _static_counts(
        self, scope_node: Node, deep: bool, child_forces: bool
    ) -> tuple[dict[str, float], list[tuple[Node, int]]]:
        """For :meth:`_ref_counts` of ``scope_node``: how many selections under it (children
        only unless ``deep``) count as each reference, of those whose categories no modifier
        changes (from anywhere: no modifier reaches them); and the others with their copies,
        in the order :meth:`_ref_counts`'s walk reaches them. Worked out once per scope
        selection, depth and reach into forces (at the root, forces are always looked into:
        the same walk either way) and evaluation: the tree is complete (emptied with
        :meth:`tree_complete`)."""
        key = (id(scope_node), deep, child_forces or scope_node.is_root)
        found = self._static.get(key)
        if found is not None:
            return found
        by_refs: dict[frozenset[str], float] = {}
        others: list[tuple[Node, int]] = []
        if deep and scope_node.parent is None and not self._reached and self._walks_kept():
            # The whole roster: what the walk below finds, each top-level selection's part
            # (kept where it is the same object) added up in the walk's order: the last
            # first, everything under each before the one before it. (Whole numbers of
            # copies: the sums are exact in any order.)
            units = scope_node.children
            walks = [self._unit_counts(c) for c in units]
            for c, w in zip(reversed(units), reversed(walks), strict=True):
                for path, mult in w.moved:
                    at = c
                    for i in path:
                        at = at.children[i]
                    others.append((at, mult))
            counts_of = self._roster_counts(units, walks)
            if counts_of is None:
                if self.memo_out is not None:
                    self.memo_out.counted += len(walks)
                for w in reversed(walks):
                    assert w.parts is not None
                    for refs, copies in w.parts:
                        by_refs[refs] = by_refs.get(refs, 0.0) + copies
                counts_of = {}
                for refs, copies in by_refs.items():
                    for ref in refs:
                        counts_of[ref] = counts_of.get(ref, 0.0) + copies
            out = self.memo_out
            if out is not None and not self._complete:
                datas = tuple(c.data for c in units if c.data is not None)
                if len(datas) == len(units):
                    out.roster_counts = (datas, counts_of)
            found = self._static[key] = (counts_of, others)
            return found
        fields_of = self.index.modified_fields
        by_modifier = self.index.category_modifiers
        reached = self._reached
        stated = self._stated_refs
        stack: list[tuple[Node, int]] = [(c, c.count) for c in scope_node.children]
        pop, push = stack.pop, stack.extend
        while stack:
            n, mult = pop()
            entry = n.entry
            if entry is None:
                if n.force is not None and (scope_node.is_root or child_forces):
                    push([(c, c.count) for c in n.children])
                continue
            if (by_modifier and "categories" in fields_of(entry)) or (reached and id(n) in reached):
                others.append((n, mult))
            else:
                refs = stated(n)
                by_refs[refs] = by_refs.get(refs, 0.0) + mult
            if deep and n.children:
                push([(c, mult * c.count) for c in n.children])
        counts: dict[str, float] = {}
        get = counts.get
        for refs, copies in by_refs.items():
            for ref in refs:  # a node counts once even if its id is also a category
                counts[ref] = get(ref, 0.0) + copies
        found = self._static[key] = (counts, others)
        return found

    def _ref_count(self, scope_node: Node, ref: str) -> float:
        """``_ref_counts(scope_node, True).get(ref, 0.0)`` for a selection ``scope_node``
        when no modifier changes categories or reaches from another selection: the same
        whole-number sum, walking only into selections that can hold ``ref``
        (:meth:`CatalogIndex.held_refs`)."""
        refs_of = self._refs
        held = self.index.held_refs
        total = 0.0
        stack: list[tuple[Node, int]] = [(c, c.count) for c in scope_node.children]
        pop, push = stack.pop, stack.extend
        while stack:
            n, mult = pop()
            entry = n.entry
            if entry is None:
                continue  # (a selection the catalog does not know; no force under a selection)
            refs = n.refs
            if refs is None:
                rkey = (id(entry), id(n.link), id(n.group))
                refs = refs_of.get(rkey)
                if refs is None:
                    refs = refs_of[rkey] = self._node_refs(n, entry.categories)
            if ref in refs:
                total += mult
            if n.children and ref in held(entry):
                push([(c, mult * c.count) for c in n.children])
        return total

    @staticmethod
    def _node_refs(n: Node, categories: list[str]) -> frozenset[str]:
        """Everything a selection counts as: its entry, categories, group, link, type."""
        assert n.entry is not None
        refs = {n.entry.id, *categories, f"type:{n.entry.type}", "*", n.path_ref()}
        if n.link is not None and n.link.id:
            refs.add(n.link.id)
        if n.group is not None:
            refs.add(n.group.id)
        return frozenset(refs)

    def condition_holds(self, cond: Condition, context: Node, owner: str | None) -> bool:
        """Does a modifier condition hold in the context of ``context``?"""
        if (
            self._trace is not None
            and not self._trace_depth
            and not (
                not self._reached
                and self._in_trace(context)
                and self._queries_inside(owner, (cond,), context)
            )
        ):
            return self._traced(  # type: ignore[no-any-return]
                Evaluation.condition_holds, 1, (cond, context, owner)
            )
        if cond.type in {"instance-of", "not-instance-of"}:
            ref = cond.child or owner
            if ref is not None and ref.startswith(FACTION_REF):
                hit = self.is_faction(ref[len(FACTION_REF) :], context)
                return hit if cond.type == "instance-of" else not hit
            if cond.scope == "ancestor":
                hit = ref is not None and any(a.matches(ref) for a in context.ancestors())
                return hit if cond.type == "instance-of" else not hit
            scope_node = self._scope_node(context, cond.scope)
            hit = scope_node is not None and ref is not None and scope_node.matches(ref)
            return hit if cond.type == "instance-of" else not hit
        got = self.query(
            context,
            cond.scope,
            cond.child,
            cond.field,
            cond.deep,
            owner,
            cond.child_forces,
            cond.percent,
            cond.per_link,
        )
        return _COMPARE[cond.type](got, cond.value)

    def _group_holds(self, group: ConditionGroup, context: Node, owner: str | None) -> bool:
        """Whether ``group`` holds: its conditions, then its groups, in order; the first that
        decides it (one that fails an `and`, one that holds an `or`) ends the look, as in
        :meth:`modifier_applies` (a condition reads counts and records its reads only: what is
        not read cannot change the answer, so a traced computation is replayed by the reads
        that decided it). An empty group holds."""
        conditions, groups = group.conditions, group.groups
        if not conditions and not groups:
            return True
        holds = self.condition_holds
        if group.type == "and":
            for c in conditions:
                if not holds(c, context, owner):
                    return False
            return all(self._group_holds(g, context, owner) for g in groups)
        for c in conditions:
            if holds(c, context, owner):
                return True
        return any(self._group_holds(g, context, owner) for g in groups)

    def modifier_applies(self, mod: Modifier, context: Node, owner: str | None) -> bool:
        holds = self.condition_holds
        for c in mod.conditions:  # (in order, the first that fails decides)
            if not holds(c, context, owner):
                return False
        return not mod.groups or all(self._group_holds(g, context, owner) for g in mod.groups)

    def _repeats(self, rep: Repeat, context: Node, owner: str | None) -> int:
        got = self.query(
            context,
            rep.scope,
            rep.child,
            rep.field,
            rep.deep,
            owner,
            rep.child_forces,
            rep.percent,
            rep.per_link,
        )
        if rep.value <= 0:
            return 0
        times = got / rep.value
        if times > MAX_TIMES:
            times = MAX_TIMES
            if self._settling is not None and rep.field in self.index.cost_types:
                self._cost_capped = True  # a cost loop that only stopped at the cap
        return (math.ceil(times) if rep.round_up else math.floor(times)) * rep.repeats

    def apply_modifiers(
        self,
        entry: Entry | ForceEntry | Group,
        field_: str,
        value: Any,
        context: Node,
        profile_type: str | None = None,
    ) -> Any:
        """``value`` after every modifier of ``entry`` (or of a force entry) on ``field_``
        that applies; for the selection ``context`` of ``entry``, then after the modifiers of
        other selections that reach it. ``profile_type``: of a characteristic, the type of
        the profile it is read from."""
        if (
            self._trace is not None
            and not self._trace_depth
            and (
                (entry.modifiers and field_ in self.index.modified_fields(entry))
                or (self._reached and id(context) in self._reached)
            )
            and not self._mods_inside(entry, field_, context)
            and not self._reads_alone(entry, field_, value, context)
        ):  # (what no modifier changes is the value given, read from nowhere; what only
            # the subtree's own selections change is the same with the same subtree)
            return self._traced(
                Evaluation.apply_modifiers, 3, (entry, field_, value, context, profile_type)
            )
        if entry.modifiers:
            mods, scope = self.index.modifiers_on(entry, field_)
            if mods and (scope is None or type(value) not in _SCALARS):
                value = self._apply_modifiers(entry, mods, field_, value, context, profile_type)
            elif mods:
                # What the modifiers find depends on their scope's selection alone: the same
                # entry, field and value there give the same result (the troopers of a platoon).
                scope_node = self._scope_node(context, scope)  # type: ignore[arg-type]
                key = (id(entry), field_, id(scope_node), type(value), value, profile_type)
                found = self._modified.get(key, _MISSING)
                if found is _MISSING:
                    found = self._modified[key] = self._by_counts(
                        entry, mods, field_, value, context, profile_type, scope_node
                    )
                value = found
        if self._reached and context.entry is entry and field_ != "categories":
            reached = self._reached.get(id(context))
            if reached is not None:
                for k, (mod, source) in enumerate(reached):
                    if mod.field != field_:
                        continue
                    if profile_type is not None and mod.profile_type not in (None, profile_type):
                        continue
                    if mod.child is not None and not self._reach_matches(context, mod.child, k):
                        continue
                    assert source.entry is not None
                    value = self._apply_one(mod, value, source, source.entry)
        return value

    def _by_counts(
        self,
        entry: Entry | ForceEntry | Group,
        mods: tuple[tuple[Modifier, bool], ...],
        field_: str,
        value: Any,
        context: Node,
        profile_type: str | None,
        scope_node: Node | None,
    ) -> Any:
        """:meth:`_apply_modifiers` for modifiers that all look at one scope, whose selection
        is ``scope_node``. Where their conditions only compare counts of selections there
        (:meth:`CatalogIndex.count_refs`), what they find is the same for every scope
        selection with the same counts (the troopers of every platoon of one motive): worked
        out for the first and kept by those counts, with the entry, field and value, for
        the rest of the evaluation (in ``_modified``, emptied with the counts)."""
        index = self.index
        refs = (
            index.count_refs(entry, field_)
            if (
                scope_node is not None
                and scope_node.entry is not None
                and self._trace is None
                and not self._reached
                and not index.category_modifiers
            )
            else None
        )
        if refs is None:
            return self._apply_modifiers(entry, mods, field_, value, context, profile_type)
        assert scope_node is not None and scope_node.entry is not None
        # What each condition's query gives (see :meth:`query`): a count of the scope's
        # children, or of everything under it where nothing below its children can be of
        # the reference (:meth:`CatalogIndex.deep_refs`).
        counts = self._ref_counts(scope_node, False).get
        deep_refs = index.deep_refs(scope_node.entry)
        found: list[float] = []
        for ref, deep in refs:
            if deep and ref in deep_refs:
                return self._apply_modifiers(entry, mods, field_, value, context, profile_type)
            found.append(counts(ref, 0.0))
        key = (id(entry), field_, type(value), value, profile_type, tuple(found), _BY_COUNTS)
        got = self._modified.get(key, _MISSING)
        if got is _MISSING:
            got = self._modified[key] = self._apply_modifiers(
                entry, mods, field_, value, context, profile_type
            )
        return got

    def _apply_modifiers(
        self,
        entry: Entry | ForceEntry | Group,
        mods: tuple[tuple[Modifier, bool], ...],
        field_: str,
        value: Any,
        context: Node,
        profile_type: str | None = None,
    ) -> Any:
        for mod, reads_cost in mods:
            if profile_type is not None and mod.profile_type not in (None, profile_type):
                continue
            if reads_cost:
                if self._settling is not None:
                    self._cost_reads_cost.add(entry.name)
                if self._skip_cost_loops and field_.startswith("cost:"):
                    continue
            if (mod.conditions or mod.groups) and not self.modifier_applies(mod, context, entry.id):
                continue
            if mod.repeat is None and not mod.repeats:
                times = 1
            else:
                reps = [mod.repeat] if mod.repeat is not None else []
                times = sum(self._repeats(r, context, entry.id) for r in [*reps, *mod.repeats])
            value = _apply(mod, value, times)
        return value

    def _apply_one(
        self, mod: Modifier, value: Any, context: Node, owner: Entry | ForceEntry | Group
    ) -> Any:
        """``value`` after ``mod`` of ``owner``, whose conditions read ``context``."""
        reads_cost = modifier_reads(mod, set(self.index.cost_types))
        return self._apply_modifiers(owner, ((mod, reads_cost),), mod.field, value, context)

    def _reach_matches(self, node: Node, ref: str, k: int) -> bool:
        """Whether ``node`` is of ``ref`` for the ``k``-th modifier reaching it: its entry,
        link, group or type, or a category it has after the modifiers before that one."""
        if _is_of(node, ref):
            return True
        states = self._reach_states(node)
        cats = states[k] if states is not None else node.categories
        return ref in cats

    def _reach_states(self, node: Node) -> list[list[str]] | None:
        """The node's categories before each modifier that reaches it, then after them all
        (``None`` while they are being worked out: a filter then reads the entry's own)."""
        key = id(node)
        states = self._reach_cats.get(key)
        if states is not None:
            return states or None
        entry = node.entry
        assert entry is not None
        self._reach_cats[key] = []  # in progress
        cats: list[str] = list(self.apply_modifiers(entry, "categories", entry.categories, node))
        states = []
        for mod, source in self._reached.get(key, ()):
            states.append(cats)
            if mod.field != "categories":
                continue
            if mod.child is not None and mod.child not in cats and not _is_of(node, mod.child):
                continue
            assert source.entry is not None
            cats = list(self._apply_one(mod, cats, source, source.entry))
        states.append(cats)
        self._reach_cats[key] = states
        return states

    def force_hidden(self, node: Node) -> bool:
        """Whether a force (of a roster with several) is hidden, after its entry's
        modifiers."""
        force = node.force
        if force is None:
            return False
        return bool(self.apply_modifiers(force, "hidden", force.hidden, node))

    def categories(self, node: Node) -> list[str]:
        """The node's categories, after modifiers that add or remove some: as they settle
        for the whole roster (:meth:`_settled_categories`), the same whatever the order of
        the selections."""
        entry = node.entry
        if entry is None:
            return []
        if not self.index.category_modifiers:
            return entry.categories
        if "categories" not in self.index.modified_fields(entry) and not (
            self._reached and id(node) in self._reached
        ):
            return entry.categories  # (no modifier gives or takes one: read from nowhere)
        if (
            self._trace is not None
            and not self._trace_depth
            and not self._mods_inside(entry, "categories", node)
        ):
            return self._traced(Evaluation.categories, 0, (node,))  # type: ignore[no-any-return]
        state = self._cats_round
        if state is None:
            state = self._settled_categories()
        found = state.get(id(node))
        if found is None:  # (a selection outside the tree: where an option is tried)
            return self._categories_now(node)
        return found

    def _categories_now(self, node: Node) -> list[str]:
        """The node's categories after the modifiers that add or remove some, their
        conditions reading the categories of the others as they stand."""
        entry = node.entry
        assert entry is not None
        if self._reached and id(node) in self._reached:
            states = self._reach_states(node)
            if states is not None:
                return states[-1]
        return list(self.apply_modifiers(entry, "categories", entry.categories, node))

    def _categories_read_alone(self, entry: Entry) -> bool:
        """Whether the modifiers of ``entry``'s categories read nothing that a modifier of
        categories may change: they count selections or forces only (no cost, no
        percentage), of references no modifier may give as a category
        (:attr:`CatalogIndex.added_categories`, which holds those taken away too), in scopes
        none names (nor the primary category). Worked out once per entry."""
        memo = self.index.memo("engine.categories_read_alone")
        found = memo.get(id(entry))
        if found is not None and found[0] is entry:
            return bool(found[1])
        added = self.index.added_categories
        alone = True
        for field_ in ("categories", "primary-category"):
            mods, _ = self.index.modifiers_on(entry, field_)
            for m, reads_cost in mods:
                alone = alone and not reads_cost
                for q in modifier_queries(m):
                    if (
                        q.field not in ("selections", "forces")
                        or q.percent
                        or q.child in added
                        or q.scope in added
                        or q.scope == "primary-category"
                    ):
                        alone = False
        memo[id(entry)] = (entry, alone)
        return alone

    def _settled_categories(self) -> dict[int, list[str]]:
        """The categories of every selection of the tree that a modifier may give some or
        take some from, by ``id()``: worked out in rounds, each from the previous round's
        categories of every selection (the first from those the catalog states), until a
        round changes none (at most one round more than such selections: a modifier whose
        condition undoes it never settles, and the last round's are kept; one round where
        what the modifiers read is nothing they change, :meth:`_categories_read_alone`).
        So a category that a modifier gives on a count of categories other modifiers give
        is the same whatever the order of the selections (an Alpha marked while the roster
        holds an Alpha; a Beta crowned while it holds a marked selection: crowned, in any
        order; docs/catalog-format.md, "Categories that hang on each other").
        Once per evaluation, on the complete tree; the rounds read and fill caches of their
        own, and nothing they read is traced (:meth:`categories` is)."""
        found = self._cats
        if found is not None:
            return found
        # (the selections of the whole tree whose categories a modifier may change)
        nodes = [n for n, _ in self._static_counts(self.root, True, True)[1]]
        state: dict[int, list[str]] = {id(n): n.entry.categories for n in nodes if n.entry}
        kept = [getattr(self, name) for name in _ROUND_CACHES]
        last_scoped, present = self._last_scoped, self._present
        self._trace_depth += 1
        try:
            # (where what the modifiers read is none of what they change, one round)
            alone = not self._reached and all(
                self._categories_read_alone(n.entry) for n in nodes if n.entry is not None
            )
            rounds = 1 if alone else len(nodes) + 1
            for _ in range(rounds):
                self._cats_round = state
                for name in _ROUND_CACHES:
                    setattr(self, name, {})
                self._last_scoped = None
                now = {id(n): self._categories_now(n) for n in nodes}
                if now == state:
                    break
                state = now
        finally:
            self._cats_round = None
            self._trace_depth -= 1
            for name, cache in zip(_ROUND_CACHES, kept, strict=True):
                setattr(self, name, cache)
            self._last_scoped, self._present = last_scoped, present
        self._cats = state
        return state

    def primary_category(self, node: Node) -> str | None:
        """The node's primary category, after modifiers."""
        if node.entry is None:
            return None
        if not self.index.category_modifiers:
            return node.entry.primary_category
        found = self.apply_modifiers(
            node.entry, "primary-category", node.entry.primary_category, node
        )
        return str(found) if found else None

    def constraint_value(self, entry: Entry, con: Constraint, context: Node) -> float:
        if con.id is None:
            return con.value
        return float(self.apply_modifiers(entry, f"constraint:{con.id}", con.value, context))

    def is_hidden(self, entry: Entry, context: Node) -> bool:
        return bool(self.apply_modifiers(entry, "hidden", entry.hidden, context))

    def group_constraint_value(self, group: Group, con: Constraint, context: Node) -> float:
        """The value of ``con``, a constraint of ``group`` on a cost of its choices, in the
        selection ``context`` holding the group, after the group's modifiers of it (the
        build slots of one vehicle)."""
        if con.id and group.modifiers:
            field_ = f"constraint:{con.id}"
            if field_ in self.index.modified_fields(group):
                return float(self.apply_modifiers(group, field_, con.value, context))
        return float(con.value)

    def is_group_hidden(self, group: Group, context: Node) -> bool:
        """Whether ``group`` is hidden in the selection ``context`` (after its modifiers)."""
        return bool(self.apply_modifiers(group, "hidden", group.hidden, context))

    def group_bounds(self, group: Group, context: Node) -> tuple[int, int | None]:
        """How many choices ``group`` asks for at least and allows at most (``None``: no
        limit) in the selection ``context``, after the group's modifiers of `min` and `max`
        (one more choice where the unit has grown; a negative maximum is no limit)."""
        low, high = group.min, group.max
        if group.modifiers:
            fields = self.index.modified_fields(group)
            if "max" in fields:
                most = -1 if high is None else high
                got = float(self.apply_modifiers(group, "max", most, context))
                high = None if got < 0 else int(got)
            if "min" in fields:
                low = max(0, int(float(self.apply_modifiers(group, "min", low, context))))
        return low, high


#: Most rounds costs that depend on costs get to settle (:meth:`Evaluation._settle_costs`).
MAX_COST_ROUNDS = 20
#: Most times a repeating modifier applies, whatever its query counts.
MAX_TIMES = 1_000_000


#: Values :meth:`Evaluation.apply_modifiers` keeps once worked out (hashable, immutable).
_SCALARS = frozenset({str, int, float, bool, type(None)})
_MISSING = object()
#: Marks a key of :meth:`Evaluation._by_counts` in ``Evaluation._modified``.
_BY_COUNTS = object()

#: A condition's comparison of what its query found with its value, by condition type.
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "less-than": operator.lt,
    "greater-than": operator.gt,
    "equal-to": operator.eq,
    "not-equal-to": operator.ne,
    "at-least": operator.ge,
    "at-most": operator.le,
}


_NUMBERS = (int, float)


def _is_number(value: Any) -> bool:
    return isinstance(value, _NUMBERS) and not isinstance(value, bool)


def _apply(mod: Modifier, value: Any, times: int = 1) -> Any:
    """``value`` after ``mod`` applied ``times`` times. A modifier check-catalog rejects
    (adding to a name, appending to a cost) leaves the value as it is."""
    if times <= 0:
        return value
    if mod.type == "set":
        return mod.value
    if mod.type == "append":
        base = value if value is not None else ""
        return f"{base}" + f"{mod.separator}{mod.value}" * min(times, 100)
    if mod.type == "replace":
        if value is None or isinstance(value, bool) or not mod.find:
            return value
        text = fmt_num(value) if _is_number(value) else str(value)
        if mod.find not in text:
            return value  # (a number stays a number)
        return text.replace(mod.find, str(mod.value))
    if mod.type in ("floor", "ceil"):
        return _clamp(value, mod.value, mod.type == "floor")
    if mod.type in ("add", "remove"):
        # Of a list (an entry's categories): the value joins it, or leaves it.
        items = list(value) if isinstance(value, list | tuple) else []
        if mod.type == "add":
            return items if mod.value in items else [*items, mod.value]
        return [v for v in items if v != mod.value]
    step = mod.value
    if not isinstance(step, _NUMBERS) or isinstance(step, bool):
        return value
    if not (value is None or _is_number(value)):
        if mod.position is not None and isinstance(value, str):
            return _shift_number(value, mod.position, step * times, mod.type == "increment")
        return value
    step *= times
    out = (value or 0) + step if mod.type == "increment" else (value or 0) - step
    if isinstance(value, int) and isinstance(out, float) and out.is_integer():
        return int(out)  # a whole characteristic stays whole (4 + 1 is 5, not 5.0)
    return out


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _shift_number(text: str, position: int, step: float, up: bool) -> str:
    """``text`` with its number at ``position`` (0 the first, -1 the last) moved by
    ``step`` (``D6+1`` -> ``D6+2``); a text without that number is left as it is."""
    found = list(_NUMBER.finditer(text))
    if not -len(found) <= position < len(found):
        return text
    m = found[position]
    num = float(m.group()) + (step if up else -step)
    return f"{text[: m.start()]}{fmt_num(num)}{text[m.end() :]}"


_NUMBER_TEXT = re.compile(r"^(-?\d+(?:\.\d+)?)(\D*)$")


def _clamp(value: Any, bound: Any, floor: bool) -> Any:
    """``value`` kept at least (``floor``) or at most ``bound``; a text that is a number with
    a unit after it (``12"``, ``3+``) is clamped by its number and keeps the unit."""
    if not _is_number(bound):
        return value
    if _is_number(value):
        return max(value, bound) if floor else min(value, bound)
    found = _NUMBER_TEXT.match(value.strip()) if isinstance(value, str) else None
    if found is None:
        return value
    num = float(found.group(1))
    got = max(num, bound) if floor else min(num, bound)
    return f"{fmt_num(got)}{found.group(2)}"


# --------------------------------------------------------------------------- building


def _build(ev: Evaluation, parent: Node, selections: list[SelectionData]) -> None:
    entry = parent.entry
    # (the parent's possible children by id, each with what the engine reads of its entry)
    facts = parent.facts
    child_of = (
        facts.kids() if facts is not None and facts.entry is entry else ev.index.child_facts(entry)
    ).get
    siblings = parent.children
    out = ev.memo_out
    built = out.nodes if out is not None else None
    taken = ev.memo_in.nodes if ev._take_nodes and ev.memo_in is not None else None
    # What the parent holds, while everything in it is a plain selection with nothing under
    # it (see Holding): its facts, then per selection its option (by id()), count and name.
    held: list[Any] | None = [facts] if facts is not None and facts.entry is entry else None
    append = siblings.append
    for i, sel in enumerate(selections):
        sub = sel.children
        if sub and taken is not None:
            prev = taken.get(id(sel))
            if (
                prev is not None
                and prev.data is sel
                and (was := prev.parent) is not None
                and was.entry is entry
                and (entry is not None or _same_place(was, parent))
            ):
                # The same selection object under a parent of the same entry (or a force of
                # the same force entry and faction): the same subtree. The previous evaluation
                # is superseded; its nodes move over.
                prev.parent = parent
                append(prev)
                built[id(sel)] = prev  # type: ignore[index]
                held = None
                continue
        findings = sel.findings
        if findings:
            for f in findings:
                ev._add(f.severity, f.code, f.message, f.loc, "")
        ref = sel.entry
        found = child_of(ref) if ref else None
        # (a selection with nothing under it gets none: the one shared empty list, which
        # leaves no list per leaf for the collector to track)
        kids = None if sub else NO_CHILDREN
        if found is not None:
            child = found[0]
            node = Node(
                sel, child.entry, child.group, parent, i, kids, child.link, found[1], found[2]
            )
            if held is not None:
                if sub or findings or sel.experience or sel.state:
                    held = None
                else:
                    held += (id(found), sel.count, sel.name)
        else:
            held = None
            node = Node(sel, None, None, parent, i, kids)
            if ref is not None:
                ev._after_build.append(partial(_report_unplaced, ev, node, ref, parent))
        append(node)
        if not sub:
            continue
        if node.entry is not None:
            if built is not None:
                before = len(ev.issues) + len(ev._after_build)
                _build(ev, node, sel.children)
                if len(ev.issues) + len(ev._after_build) == before and not sel.findings:
                    built[id(sel)] = node
            else:
                _build(ev, node, sel.children)
        else:
            # Keep the subtree in view (it is saved back) but do not judge it.
            for j, c in enumerate(sel.children):
                node.children.append(Node(c, None, None, node, j))
    if held is not None and len(held) > 1:
        parent.holding = ev.index.holding(tuple(held))


def _same_place(old: Node, new: Node) -> bool:
    """Whether a selection under ``old`` (of the previous evaluation) stands where it would
    under ``new``: a parent of the same entry, or a force of the same entry and faction."""
    if old.entry is not new.entry:
        return False
    if new.entry is not None:
        return True
    if old.force is not new.force:
        return False
    return (old.force_data.faction if old.force_data is not None else None) == (
        new.force_data.faction if new.force_data is not None else None
    )


def _build_forces(ev: Evaluation, parent: Node, forces: list[ForceData]) -> None:
    for i, fd in enumerate(forces):
        for f in fd.findings:
            ev._add(f.severity, f.code, f.message, f.loc, "")
        force = ev.index.forces.get(fd.force)
        if force is None:
            if fd.force:  # (a force without `force:` is reported by its finding)
                ev._after_build.append(partial(_report_unknown_force, ev, fd, i, parent))
            force = ForceEntry(id=fd.force or "?", name=fd.name or fd.force or "?")
        node = ForceNode(parent, i, force, fd, fd.loc)
        if fd.faction is not None:
            ev.force_faction[id(node)] = fd.faction
        parent.children.append(node)
        _build(ev, node, fd.selections)
        faction = fd.faction or ev.roster.faction
        roots = ev.faction_roots.get(faction) if ev.faction_roots else None
        if roots is not None:
            for c in node.children:
                if c.entry is not None and c.entry.id not in roots:
                    ev._after_build.append(partial(_report_wrong_faction, ev, c, faction))
        _build_forces(ev, node, fd.forces)


def _report_unknown_force(ev: Evaluation, fd: ForceData, i: int, parent: Node) -> None:
    known = ", ".join(ev.index.forces) or "none"
    where = f"force {fd.name!r}" if fd.name else f"force {i + 1}"
    if not parent.is_root:
        where = f"{ev.where(parent)} > {where}"
    ev.error(
        "unknown-force",
        f"{where}: unknown force entry {fd.force!r} (force entries: {known})",
        (*fd.loc, "force"),
    )


def _report_wrong_faction(ev: Evaluation, node: Node, faction: str) -> None:
    ev.error(
        "wrong-faction",
        f"{ev.where(node)} is not in the {_faction_name(ev, faction)} catalog this force draws on",
        node.loc,
    )


def _faction_name(ev: Evaluation, faction: str) -> str:
    found = ev.index.system.factions.get(faction)
    return found.name if found is not None else repr(faction)


def _report_unplaced(ev: Evaluation, node: Node, entry_id: str, parent: Node) -> None:
    where = "at the top of the roster" if parent.is_root else f"under {ev.where(parent)}"
    known = ev.index.entries.get(entry_id) or ev.index.shared.get(entry_id)
    if known is not None:
        rules = ev.rules
        explained = rules.explain_not_allowed(ev, known, parent, node) if rules else None
        if explained is not None:
            message, source = explained
            ev.error("entry-not-allowed", message, node, source)
            return
        options = [c.entry.name for c in ev.index.children(parent.entry)]
        hint = f"; the options there are: {', '.join(options)}" if options else ""
        ev.error(
            "entry-not-allowed", f"{known.name} ({entry_id}) cannot be selected {where}{hint}", node
        )
    else:
        close = _close_ids(entry_id, ev.index.selectable_ids(parent.entry))
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
        ev.error(
            "unknown-entry",
            f"unknown entry {entry_id!r} {where}{hint}; it is kept in the file unchanged",
            node,
        )


def _close_ids(word: str, options: list[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(word, options, n=3, cutoff=0.6)


# --------------------------------------------------------------------------- checks


def _ref_name(ev: Evaluation, ref: str | None, owner: Entry | Group) -> str:
    return owner.name if ref is None else ev.index.name_of(ref)


def constraint_issue_text(
    ev: Evaluation,
    con: Constraint,
    owner: Entry | Group,
    got: float,
    limit: float,
    scope_node: Node,
) -> tuple[str, str]:
    """The code and message of the issue a broken constraint of ``owner`` (an entry, or a
    group whose choices' cost it bounds) reports, measuring ``got`` against ``limit`` in
    ``scope_node`` (tools recognise an issue by them)."""
    what = _ref_name(ev, con.child, owner)
    if con.child is None and is_group(owner) and not owner.entries and owner.groups:
        what = _shown_groups_text(ev, owner, scope_node) or what
    if con.field == "selections":
        amount, bound = f"{number(got)} × {what}", number(limit)
    else:
        ct = ev.index.cost_types.get(con.field)
        unit = f" {unit_after(number(limit), ct.unit)}" if ct and ct.unit else ""
        cname = ct.name if ct else con.field
        amount = f"{named_amount(cname, ct.unit if ct else '', number(got))} in {what}"
        bound = f"{number(limit)}{unit}"
    holder = ev.where(scope_node) if not scope_node.is_root else f"The roster {ev.roster.name!r}"
    if con.type == "max":
        code, text = "max-exceeded", f"{holder} has {amount}; at most {bound} allowed"
    else:
        code, text = "min-not-met", f"{holder} has {amount}; at least {bound} needed"
    if con.message:
        text += f" ({con.message})"
    return code, text


def _shown_groups_text(ev: Evaluation, group: Group, node: Node) -> str:
    """What a group of subgroups only is called where the player sees it: the catalog and
    the details pane show its subgroups, not it (Gaslands' vehicle "Options" holds Upgrades,
    Trailers, hidden, and Weapons: "its Upgrades and Weapons"); "" when none shows. Each
    subgroup without entries of its own is named by those inside it, hidden ones left out
    (after their modifiers of ``hidden`` at ``node``)."""
    names: list[str] = []

    def walk(g: Group) -> None:
        for sub in g.groups:
            if ev.is_group_hidden(sub, node) if sub.modifiers else sub.hidden:
                continue
            if sub.entries or not sub.groups:
                names.append(sub.name)
            else:
                walk(sub)

    walk(group)
    names = list(dict.fromkeys(names))
    if not names:
        return ""
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"its {listed}"


def _constraint_issue(
    ev: Evaluation,
    con: Constraint,
    owner: Entry,
    got: float,
    limit: float,
    scope_node: Node,
    context: Node,
) -> None:
    code, text = constraint_issue_text(ev, con, owner, got, limit, scope_node)
    target = scope_node if not scope_node.is_root else context
    ev._add(con.severity, code, text, target, con.source or owner.source, owner.id, con.id or "")


def _check_constraint(
    ev: Evaluation,
    con: Constraint,
    owner: Entry,
    context: Node,
    at_parent: bool,
    link: EntryLink | None = None,
) -> None:
    """Check one constraint of ``owner``.

    ``at_parent``: the constraint is checked at a selection that may hold ``owner`` as a
    child (``context``), so its `parent` scope is ``context`` itself; otherwise ``context`` is
    a selection of ``owner`` (scope `self`).
    """
    scope = "self" if at_parent and con.scope == "parent" else con.scope
    scope_node = ev._scope_node(context, scope)
    if scope_node is None:
        return
    # A constraint's value is modified in the context of a selection of its entry, where
    # there is one (checked at the parent, the modifiers still speak for the entry).
    at = context
    if at_parent and (owner.modifiers or ev._reached):
        at = next(
            (c for c in context.children if c.entry is not None and c.entry.id == owner.id), context
        )
    limit = ev.constraint_value(owner, con, at)
    if limit < 0:  # BattleScribe: -1 means unlimited
        return
    # An entry hidden where it would be chosen cannot be chosen: its minimum asks nothing.
    if (
        con.type == "min"
        and at_parent
        and (owner.hidden or owner.modifiers or ev._reached)
        and ev.is_hidden(owner, at)
    ):
        return
    deep = con.deep if con.deep is not None else scope != "parent" and not at_parent
    if at_parent and con.scope == "parent":
        deep = bool(con.deep)
    # A constraint measuring its own selection (scope self, nothing named) measures the whole
    # selection: its cost, or everything selected in it.
    owner_id = None if (con.scope == "self" and con.child is None and not at_parent) else owner.id
    if con.per_link and owner_id is not None and con.child is None and con.field != "forces":
        # Counted per link: the selections made the way this one is (through ``link``).
        owner_id = f"path:{link.id}" if link is not None and link.id else f"path:{owner_id}"
    # A ``child`` is counted per link exactly as a condition counts it (Evaluation.query
    # decides: an entry or link per link, a category or group as it is).
    child_per_link = con.per_link and con.child is not None
    got = ev.query(
        context,
        scope,
        con.child,
        con.field,
        deep,
        owner_id,
        con.child_forces,
        con.percent,
        child_per_link,
    )
    if (con.type == "max" and got > limit) or (con.type == "min" and got < limit):
        _constraint_issue(ev, con, owner, got, limit, scope_node, context)


def _present_in(nodes: Iterable[Node], refs: set[str], ids: set[str]) -> None:
    """Add to ``refs`` what each of ``nodes`` can be counted as (see
    :meth:`Evaluation.present_refs`: its entry, its categories as stated, its link and group;
    a force's id), and to ``ids`` their entry ids."""
    add, update = refs.add, refs.update
    seen: set[int] = set()  # (each entry's id and categories added once)
    for n in nodes:
        entry = n.entry
        if entry is None:
            if n.force is not None:
                add(n.force.id)
            continue
        ids.add(entry.id)
        if id(entry) not in seen:
            seen.add(id(entry))
            add(entry.id)
            update(entry.categories)
        if n.link is not None and n.link.id:
            add(n.link.id)
        if n.group is not None:
            add(n.group.id)


def _path_below(top: Node, node: Node) -> tuple[int, ...]:
    """The child indices from ``top`` down to ``node`` (a selection under it)."""
    path: list[int] = []
    n = node
    while n is not top:
        up = n.parent
        assert up is not None
        kids = up.children
        i = n.index
        if i >= len(kids) or kids[i] is not n:  # (not its place: looked for)
            i = next(k for k, c in enumerate(kids) if c is n)
        path.append(i)
        n = up
    path.reverse()
    return tuple(path)


def _entry_ids_under(node: Node) -> set[str]:
    """The entry ids of every selection under ``node`` (at any depth)."""
    out: set[str] = set()
    todo = list(node.children)
    while todo:
        c = todo.pop()
        if c.entry is not None:
            out.add(c.entry.id)
        todo.extend(c.children)
    return out


def _holds_entry(ev: Evaluation, node: Node, entry_id: str) -> bool:
    """Whether a selection of entry ``entry_id`` stands under ``node`` (at any depth): what
    ``entry_id in _entry_ids_under(node)`` says, looking only into selections whose entry can
    hold one (:meth:`CatalogIndex.held_refs`)."""
    held = ev.index.held_refs
    todo = list(node.children)
    pop, push = todo.pop, todo.extend
    while todo:
        c = pop()
        entry = c.entry
        if entry is None:
            push(c.children)  # (a force, or what an unknown selection holds: looked into)
            continue
        if entry.id == entry_id:
            return True
        if c.children and entry_id in held(entry):
            push(c.children)
    return False


def _check_children(ev: Evaluation, node: Node, plan: ChildChecks, seen_global: set[Any]) -> None:
    """The constraints of ``node``'s possible children checked at ``node``, in catalog order,
    skipping those that cannot break here (see :meth:`CatalogIndex.child_checks`)."""
    rows = plan.rows
    order: list[int] = list(plan.plain)
    # Checked once per roster (or force): after one selection of this entry has had them, the
    # next ones of the same entry (in the same force) find every one of them seen.
    done: tuple[str, int, Loc] | None = None
    if plan.once:
        # (the force by its place, not its node: a replayed check names it in the next
        # evaluation too)
        done = ("plan", id(plan), ev.force_of(node).loc)
        if ev.seen_once(seen_global, done):
            done = None
    if plan.keyed or (done is not None and plan.keyed_once):
        # Maxima of what no selection of the roster is: nothing to count.
        for k in ev.present_of(plan.keyed.keys()):
            order.extend(plan.keyed[k])
        if done is not None:
            for k in ev.present_of(plan.keyed_once.keys()):
                order.extend(plan.keyed_once[k])
    if done is not None:
        order.extend(plan.plain_once)
        ev.mark_once(seen_global, done)
    if plan.held:
        # A maximum counting the entry's selections here: with none of them under this
        # selection it counts 0, which no maximum (unlimited when negative) refuses.
        # (Many of them, as at the root: the entries found under it in one walk first; one
        # that is not there is not found by the walk of _holds_entry either.)
        under = ev.entry_ids_under(node) if len(plan.held) > HELD_BY_ONE_WALK else None
        for k, rows_k in plan.held.items():
            if (under is None or k in under) and _holds_entry(ev, node, k):
                order.extend(rows_k)
    if len(order) > 1:
        order.sort()
    # A limit several children share (links to one entry, or one entry in two groups: a
    # constraint not counted per link) counts the same selections for each: checked once,
    # under the first of them.
    shared: set[tuple[int, str]] | None = None
    for i in order:
        child, con, _ = rows[i]
        if not con.per_link and len(order) > 1:
            key_shared = (id(con), child.entry.id)
            if shared is None:
                shared = {key_shared}
            elif key_shared in shared:
                continue
            else:
                shared.add(key_shared)
        if con.scope in {"roster", "force"}:
            key = (id(con), ev.force_of(node).loc) if con.scope == "force" else id(con)
            if ev.seen_once(seen_global, key):
                continue
            ev.mark_once(seen_global, key)
        _check_constraint(ev, con, child.entry, node, True, child.link)


def _check_node(ev: Evaluation, node: Node, seen_global: set[Any]) -> None:
    idx = ev.index
    # In a roster of several forces, the top-level entries' constraints are checked in each
    # force (the root holds forces, not selections).
    held = node.parent is not None or ev.forces is None
    facts = node.facts
    if held:
        plan = facts.child_checks if facts is not None else idx.child_checks(node.entry)
        if plan.rows:
            _check_children(ev, node, plan, seen_global)
    if node.entry is not None:
        entry = node.entry
        plain = facts.checks if facts is not None else idx.entry_checks(entry)
        reached = bool(ev._reached) and id(node) in ev._reached
        if ev.state_keys and node.data is not None and node.data.state:
            _check_state(ev, node, node.data.state)
        own = plain.self_constraints
        if own:
            counts = plain.self_counts
            if counts and ev._trace is None and not ev._reached and not idx.category_modifiers:
                # (what _check_constraint does for a constraint that counts one reference
                # among the selection's own children: that count, read straight)
                said: tuple[Any, ...] | None = None  # (the last limit worked out, with its id)
                for con, ref in zip(own, counts, strict=True):
                    if ref is None:
                        _check_constraint(ev, con, entry, node, False, node.link)
                        continue
                    value = con.value
                    if (
                        said is not None
                        and said[0] == con.id
                        and said[1] is type(value)
                        and (said[2] == value)
                    ):
                        # (a minimum and a maximum of one id and value: the same modifiers
                        # of the same field, on the same value, in the same selection)
                        limit = said[3]
                    else:
                        limit = ev.constraint_value(entry, con, node)
                        said = (con.id, type(value), value, limit)
                    if limit < 0:  # BattleScribe: -1 means unlimited
                        continue
                    got = _own_count(ev, node, ref)
                    if (con.type == "max" and got > limit) or (con.type == "min" and got < limit):
                        _constraint_issue(ev, con, entry, got, limit, node, node)
            else:
                for con in own:
                    _check_constraint(ev, con, entry, node, False, node.link)
        if plain.groups:
            _check_groups(ev, node, entry, facts)
        if plain.messages or plain.message_groups or reached:
            _check_messages(ev, node, entry, reached)
        # (no modifier of it on `hidden`: the catalog's flag)
        if ev.is_hidden(entry, node) if plain.hidden_modified or reached else bool(entry.hidden):
            ev._add(
                ERROR,
                "hidden-entry",
                f"{ev.where(node)} is not available to this roster (hidden in the catalog)",
                node,
                entry.source,
                entry.id,
                "hidden",
            )
        if plain.hideable and node.children:
            _check_hidden_groups(ev, node, plain.hideable)
        if entry.max_count is not None and node.count > entry.max_count:
            ev.error(
                "max-exceeded",
                f"{ev.where(node)}: count {node.count} is more than {entry.max_count}",
                node,
                entry.source,
            )
        data = node.data
        if data is not None and data.experience:
            if data.experience not in idx.experience:
                if idx.experience:
                    why = f"unknown experience level {data.experience!r} (levels: "
                    why += ", ".join(idx.experience) + ")"
                else:
                    why = (
                        f"experience {data.experience!r} is not a choice in "
                        f"{idx.system.name}: it has no experience levels to pick (where it "
                        "tracks experience, it works it out from the campaign `state:`)"
                    )
                ev.error(
                    "unknown-experience", f"{ev.where(node)}: {why}", (*node.loc, "experience")
                )
            elif not entry.experience:
                ev.warning(
                    "experience-ignored",
                    f"{ev.where(node)} does not record experience; {data.experience!r} is ignored",
                    (*node.loc, "experience"),
                )
    quiet = idx.quiet_leaf
    reached_any = ev._reached
    for c in node.children:
        kind = c.entry
        if kind is None:
            if c.force is not None:
                _check_node(ev, c, seen_global)
            continue
        if not c.children:
            # A selection with nothing under it, of an entry with nothing to check there:
            # only what is its own can be wrong (what _check_node would find, skipped).
            data = c.data
            f = c.facts
            if (
                (f.quiet if f is not None else quiet(kind))
                and (kind.max_count is None or c.count <= kind.max_count)
                and (data is None or not (data.experience or (ev.state_keys and data.state)))
                and not (reached_any and id(c) in reached_any)
            ):
                continue
            _check_node(ev, c, seen_global)
        elif ev.memo_out is not None:
            check = lambda c=c: _check_node(ev, c, seen_global)  # noqa: E731
            if ev.index.closed(kind):
                ev.subtree(c, "check", check, None, _open=True)  # (found closed here)
            elif (outside := ev._outside_key(c)) is not None:
                # Not closed, but reading only counts above it: replayed by them.
                ev.subtree(c, "check", check, outside, _open=True)
            else:
                # Reading more: replayed where what it read is found the same again.
                ev.subtree(c, "check-traced", check, None, _open=True, _seen=seen_global)
        else:
            holding = c.holding
            if (
                holding is not None
                and not reached_any
                and holding.quiet
                and (kind.max_count is None or c.count <= kind.max_count)
                and ((data := c.data) is None or not (data.experience or data.state))
            ):
                # What it holds can break nothing, and nothing of its own can (what
                # _check_node would find: nothing; see Holding.quiet).
                continue
            _check_node(ev, c, seen_global)


def _check_hidden_groups(
    ev: Evaluation, node: Node, hideable: dict[int, tuple[Group, ...]]
) -> None:
    """A choice under ``node`` kept in a group hidden there (the group, or one it lies in,
    after their modifiers of `hidden`): the warning `hidden-group-choice` on the choice (a
    40k Captain's enhancement of a detachment the roster no longer takes: the catalog stops
    offering it, and nothing else tells the player). Not an error: BattleScribe adds the
    entries its data requires in such a group with their parent (40k's "content is enabled"
    choices of Show/Hide Options, in a Crusade group a roster outside a Crusade hides), and
    those are not reported. ``hideable``: :attr:`EntryChecks.hideable` of its entry."""
    found: dict[int, Group | None] = {}
    for c in node.children:
        group, entry = c.group, c.entry
        if group is None or entry is None:
            continue
        path = hideable.get(id(group))
        if path is None:
            continue
        key = id(group)
        if key in found:
            hidden = found[key]
        else:
            hidden = found[key] = hiding_group(ev, node, path)
        if hidden is None or _required_in_parent(entry) or ev.is_hidden(entry, c):
            # (shown; the data's own choice there; or the entry hidden itself: the error
            # `hidden-entry` at its selection)
            continue
        ev._add(
            WARNING,
            "hidden-group-choice",
            f"{ev.where(c)} is in {hidden.name}, which the data hides for this roster: it "
            "is no longer offered (remove it, or take back what hides the group)",
            c,
            hidden.source,
            hidden.id,
            "hidden",
        )


def hiding_group(ev: Evaluation, node: Node, path: tuple[Group, ...]) -> Group | None:
    """The group that hides a group in the selection ``node``: the first of ``path`` (a
    group and those it lies in that can be hidden, outermost first, as
    :attr:`EntryChecks.hideable` holds them) hidden there after its modifiers of `hidden`;
    ``None``: the group is shown. The one test of both the check above and the options
    the edit session offers (:meth:`EditSession.options`)."""
    for g in path:
        if ev.is_group_hidden(g, node) if g.modifiers else g.hidden:
            return g
    return None


def _required_in_parent(entry: Entry) -> bool:
    """Whether ``entry``'s constraints, as written, ask its parent for at least one (the
    entries BattleScribe chooses with their parent)."""
    return any(
        con.type == "min"
        and con.scope == "parent"
        and con.field == "selections"
        and con.child is None
        and con.value > 0
        for con in entry.constraints
    )


def _own_count(ev: Evaluation, node: Node, ref: str) -> float:
    """``ev._ref_counts(node, False).get(ref, 0.0)`` for a selection (not the root) when no
    modifier changes categories or reaches from another selection: the copies of the
    selection's children of ``ref`` (whole numbers: the same sum in any order), without
    tallying every reference of every child."""
    counts = ev._counts.get((id(node), False, False))
    if counts is not None:
        return counts.get(ref, 0.0)
    got = 0.0
    for c in node.children:
        if c.entry is None:
            continue  # (a selection the catalog does not know; no force under a selection)
        refs = c.refs
        if refs is None:
            return ev._ref_counts(node, False).get(ref, 0.0)
        if ref in refs:
            got += c.count
    return got


def _check_state(ev: Evaluation, node: Node, state: Any) -> None:
    """The selection's campaign state against the keys the rules module declares."""
    by_name = {k.name: k for k in ev.state_keys}
    for p in check_state(ev.state_keys, state):
        loc: Loc = (*node.loc, "state") if p.key is None else (*node.loc, "state", p.key)
        key = by_name.get(p.key or "")
        ev._add(
            p.severity, p.code, f"{ev.where(node)}: {p.message}", loc, key.source if key else ""
        )


def _check_messages(ev: Evaluation, node: Node, entry: Entry, reached: bool) -> None:
    """The catalog's own messages on ``node``: a modifier of field ``error``, ``warning`` or
    ``note`` adds its text (type ``add``) when its conditions hold, and the selection carries
    that text as an issue of that severity (``{name}`` in it: the selection's name). So do
    the modifiers of the entry's groups, read from the selection holding them. ``reached``:
    modifiers of other selections reach this one (any field may then hold a message)."""
    plain = ev.index.entry_checks(entry)
    for severity in MESSAGE_FIELDS if reached else plain.messages:
        for text in _texts(ev.apply_modifiers(entry, severity, (), node)):
            _message(ev, node, entry, severity, text)
    for g, severities in plain.message_groups:
        for severity in severities:
            for text in _texts(ev.apply_modifiers(g, severity, (), node)):
                _message(ev, node, g, severity, text)


def _texts(found: Any) -> list[Any]:
    """The messages a modifier of a message field left: a list (``add``); a single value
    where a catalog check-catalog refuses used ``set``, never its characters one by one."""
    if isinstance(found, list | tuple):
        return list(found)
    return [] if found is None or found == "" else [found]


def _message(ev: Evaluation, node: Node, owner: Entry | Group, severity: str, text: Any) -> None:
    said = str(text).replace("{name}", ev.name(node)) if text is not None else ""
    ev._add(severity, "catalog-message", f"{ev.where(node)}: {said}", node, owner.source, owner.id)


def _per_entry(ev: Evaluation, name: str, entry: Entry, work: Callable[[Entry], T]) -> T:
    """``work(entry)``, kept with the catalog index (:meth:`CatalogIndex.memo` ``name``, by
    the entry's ``id()``): worked out once per entry while that index is in use."""
    known: dict[int, tuple[Entry, T]] = ev.index.memo(name)
    hit = known.get(id(entry))
    if hit is not None and hit[0] is entry:
        return hit[1]
    found = work(entry)
    known[id(entry)] = (entry, found)
    return found


def _check_groups(
    ev: Evaluation, node: Node, entry: Entry, facts: EntryFacts | None = None
) -> None:
    """The minimum and maximum choices of the groups of ``node``'s entry (a parent group
    before its subgroups; choices in a subgroup count toward the groups above it).
    ``facts``: the entry's (:meth:`CatalogIndex.facts`), where the caller has them."""
    if facts is None:
        facts = ev.index.facts(entry)
    checks = facts.group_checks
    if not checks:
        return
    by_group: dict[int, int] = {}
    had = by_group.get
    for c in node.children:
        chosen_in = c.group
        if chosen_in is not None:
            k = id(chosen_in)
            by_group[k] = had(k, 0) + c.count
    maxima = facts.group_maxima
    if maxima is not None:
        # Only maxima to check: nothing to report unless a group holds more than its own.
        over = maxima.get
        for gid, got in by_group.items():
            if got > over(gid, got):
                break
        else:
            return
    get = by_group.get
    for g, ids in checks:
        if not by_group:
            got = 0
        elif len(ids) == 1:  # (no subgroups: the group's own choices)
            got = get(ids[0], 0)
        else:
            got = sum(get(i, 0) for i in ids)
        if g.constraints:
            _check_group_costs(ev, node, g, ids)
        low, high = ev.group_bounds(g, node) if g.modifiers else (g.min, g.max)
        if high is not None and got > high:
            ev._add(
                g.severity,
                "max-exceeded",
                f"{ev.where(node)} has {got} choices of {g.name}; at most {high} allowed",
                node,
                g.source,
                g.id,
            )
        if got < low and not (
            (g.hidden or g.modifiers) and ev.apply_modifiers(g, "hidden", g.hidden, node)
        ):
            # (a default the catalog does not define is no choice to suggest)
            usual = g.default if g.default and ev.index.knows(g.default) else None
            choice = f" (the usual choice is {ev.index.name_of(usual)})" if usual else ""
            ev._add(
                g.severity,
                "min-not-met",
                f"{ev.where(node)} has {got} choices of {g.name}; at least {low} needed{choice}",
                node,
                g.source,
                g.id,
            )


def _check_group_costs(ev: Evaluation, node: Node, g: Group, ids: tuple[int, ...]) -> None:
    """The constraints of group ``g`` on a cost of what is chosen in it (``ids``: it and its
    subgroups) under ``node``: at most two build slots among a vehicle's options, the value
    as the group's modifiers leave it for this selection (a negative value is no limit)."""
    chosen = [c for c in node.children if c.group is not None and id(c.group) in ids]
    for con in g.constraints:
        limit = ev.group_constraint_value(g, con, node)
        if limit < 0:
            continue
        got = sum(ev._cost_read(c, con.field) for c in chosen)
        if (con.type == "max" and got > limit) or (con.type == "min" and got < limit):
            if con.type == "min" and (g.hidden or g.modifiers) and ev.is_group_hidden(g, node):
                continue  # (nothing can be chosen in a hidden group)
            code, text = constraint_issue_text(ev, con, g, got, limit, node)
            ev._add(con.severity, code, text, node, con.source or g.source, g.id, con.id or "")


def _check_force(ev: Evaluation, force: ForceEntry, node: Node) -> None:
    """A force's category slots and constraints, at its node (the root for a roster of one
    force)."""
    idx = ev.index
    fname = force.name if node.is_root else ev.name(node)
    for slot in force.slots:
        got = sum(n.count for n in node.children if n.has_category(slot.category))
        cname = idx.name_of(slot.category)
        if slot.max is not None and got > slot.max:
            ev._add(
                slot.severity,
                "max-exceeded",
                f"{fname} has {got} × {cname}; at most {slot.max} allowed",
                node.loc,
                slot.source or force.source,
            )
        if got < slot.min:
            ev._add(
                slot.severity,
                "min-not-met",
                f"{fname} has {got} × {cname}; at least {slot.min} needed",
                node.loc,
                slot.source or force.source,
            )
    for con in force.constraints:
        owner = Entry(id=force.id, name=force.name)
        _check_constraint(ev, con, owner, node, True)


def _check_roster(ev: Evaluation) -> None:
    idx, roster = ev.index, ev.roster
    for f in roster.findings:
        ev._add(f.severity, f.code, f.message, f.loc, "")
    if ev.forces is not None:
        for n in ev.root.walk():
            if n.force is not None:
                _check_force(ev, n.force, n)
    force = None
    if ev.forces is not None:
        pass  # checked above, each at its node
    elif roster.header.force:
        force = idx.forces.get(roster.header.force)
        if force is None:
            ev.error(
                "unknown-force",
                f"unknown force {roster.header.force!r} (forces: "
                f"{', '.join(idx.forces) or 'none'})",
                ("force",),
            )
    else:
        force = idx.default_force()
    if force is not None:
        _check_force(ev, force, ev.root)
    if not ev.root.children and not roster.findings:
        ev.warning(
            "roster-empty",
            f"The roster {roster.name!r} has no selections yet; add units from the catalog",
            (),
        )
    totals = ev.total_cost(ev.root)
    ev.totals = dict(totals)
    limits: dict[str, float] = dict(roster.header.limits)
    for ct in idx.cost_types.values():
        if ct.id not in limits and ct.default_limit is not None:
            limits[ct.id] = ct.default_limit
    for ct_id, limit in limits.items():
        limit_ct = idx.cost_types.get(ct_id)
        if limit_ct is None:
            ev.error(
                "unknown-cost-type",
                f"limit on unknown cost type {ct_id!r} (cost types: "
                f"{', '.join(idx.cost_types) or 'none'})",
                ("limits", ct_id),
            )
            continue
        spent = totals.get(ct_id, 0.0)
        if spent > limit:
            unit = limit_ct.unit
            over = number(tidy_cost(spent - limit))
            ev.error(
                "cost-limit-exceeded",
                f"{named_amount(limit_ct.name, unit, number(spent))} is over the limit of "
                f"{number(limit)}{f' {unit_after(number(limit), unit)}' if unit else ''} by "
                f"{over}{f' {unit_after(over, unit)}' if unit else ''}",
                ("limits", ct_id),
            )


def evaluate(
    roster: Roster,
    index: CatalogIndex,
    rules: SystemRules | None = None,
    memo: SubtreeMemo | None = None,
    take_nodes: bool = False,
    forces: list[ForceData] | None = None,
    faction_roots: dict[str, frozenset[str]] | None = None,
    values: bool = True,
) -> Evaluation:
    """Validate a roster against a catalog and compute its values.

    ``forces``: the roster's forces, when it has several (each a node under the root holding
    its selections and child forces; ``roster.selections`` are then not read); by default
    those of a roster file of several forces (:attr:`Roster.forces`). ``faction_roots``: see
    :attr:`Evaluation.faction_roots`.

    ``memo``: the :attr:`Evaluation.memo_out` of the previous evaluation of the same roster
    (or an empty :class:`SubtreeMemo` to start one). Where the catalog and the rules module
    allow it, the subtrees an edit did not touch are then replayed from it rather than checked
    again; the result is the same either way. ``take_nodes``: also take over the previous
    evaluation's nodes of those subtrees instead of building them again; that evaluation's
    tree is then no longer its own (for a caller that is done with it).

    ``values=False``: the caller reads the issues, costs and totals only (``validate``); the
    rules module may leave out values that decide no issue (see
    :attr:`Evaluation.values_wanted`). Such an evaluation neither reads nor fills a memo.
    """
    root = Node(None, None, None, None)
    if forces is None:
        forces = roster.forces
    ev = Evaluation(
        roster,
        index,
        root,
        rules=rules,
        forces=forces,
        faction_roots=faction_roots,
        values_wanted=values,
    )
    if rules is not None:
        ev.state_keys = tuple(rules.state_keys())
    if memo is not None and values and (rules is None or rules.subtree_local):
        # Only what this evaluation computes or replays is kept for the next one: a subtree
        # replayed whole is kept whole, not the parts inside it.
        ev.memo_in = memo if memo.index is index and memo.rules is rules else None
        ev.memo_out = SubtreeMemo(index, rules)
        ev._value_log = []
        ev._take_nodes = take_nodes and ev.memo_in is not None
    if roster.system != index.system.id or (
        roster.faction != index.faction.id and roster.faction not in index.also
    ):
        ev.error(
            "wrong-catalog",
            f"the roster is for {roster.system}/{roster.faction}, not "
            f"{index.system.id}/{index.faction.id}",
            ("faction",),
        )
    if forces is None:
        _build(ev, root, roster.selections)
    else:
        _build_forces(ev, root, forces)
    if index.reaching_modifiers:
        _find_reach(ev)
    ev.tree_complete()
    ev._settle_costs()
    # What building found, now that every name and count reads the whole tree.
    for report in ev._after_build:
        report()
    ev._after_build.clear()
    _check_roster(ev)
    _check_node(ev, root, set())
    if rules is not None:
        try:
            rules.analyse(ev)
        except RecursionError:
            ev.error("rules-module-failed", _module_failed(index, "nested too deeply"))
        except Exception as exc:  # a value its checks did not foresee: report, never crash
            ev.error("rules-module-failed", _module_failed(index, f"{type(exc).__name__}: {exc}"))
    _merge_repeated(ev)
    if ev.memo_out is not None:
        ev._known_names()
    ev._complete = True
    return ev


#: :meth:`Evaluation.rise_with` works out again only the costs of the selections whose cost
#: modifiers count what the change adds or takes in a scope holding it (an off-switch for
#: tests: ``False`` works out every such selection's cost again).
RISE_BY_READS = True


#: What :meth:`Evaluation.rise_with` copies and prices again for a change under one
#: selection (:meth:`Evaluation._rise_plan`): the selections to copy, the context
#: selections, what each counts, whether a modifier of one reaches other selections.
_RisePlan = tuple[frozenset[int], list[Node], dict[int, frozenset[str]], bool]

#: Above this many limits of entries held under a selection, :func:`_check_children` first
#: finds in one walk which entries are under it at all (a test may set it high: each entry
#: then looked for on its own, as before).
HELD_BY_ONE_WALK = 8

#: The caches of :class:`Evaluation` a round of :meth:`Evaluation._settled_categories` has
#: of its own (what they hold may read a category).
_ROUND_CACHES = (
    "_query",
    "_modified",
    "_scoped",
    "_held",
    "_same_costs",
    "_counts",
    "_unit_cost",
    "_total",
    "_context",
    "_outside_keys",
    "_reach_cats",
)

#: What :func:`_merge_repeated` merges issues by (one problem reported twice).
_issue_key = operator.attrgetter("severity", "code", "message", "path")

#: :func:`_merge_repeated` returns at once where no two issues are alike (an off-switch for
#: tests: ``False`` always runs its loop).
MERGE_AT_ONCE = True


def _all_unlike(issues: list[Issue], replayed: list[tuple[int, int, _Record]]) -> bool:
    """Whether no two of ``issues`` are alike (see :func:`_merge_repeated`). The keys of the
    issues replayed whole (``replayed``: where each record's issues went) are the record's,
    worked out when it was first replayed: an edit reads the keys of what it computed only.
    A stretch no longer holding its record's issues (a rules module that changed the list)
    has its issues' keys read."""
    keys: set[tuple[str, str, str, Loc]] = set()
    at = 0
    for start, end, record in replayed:
        if start < at:
            continue  # (never so: the stretches follow each other)
        got = record.issues
        if end > len(issues) or end - start != len(got):
            continue
        if not all(map(operator.is_, issues[start:end], got)):
            continue
        if at < start:
            keys.update(map(_issue_key, issues[at:start]))
        keys |= record.issue_keys()
        at = end
    if at < len(issues):
        keys.update(map(_issue_key, issues[at:]))
    return len(keys) == len(issues)


def _merge_repeated(ev: Evaluation) -> None:
    """One issue per problem: where several rules of the catalog report the same message at
    the same place (a limit written on a slot of the force and again on the entry that fills
    it), the player reads it once; one rule's issues are all kept. The one kept points at an
    entry the player can add, where one of them does (its ``entry`` and ``constraint``), else
    the first."""
    issues = ev.issues
    if len(issues) < 2:
        return
    if MERGE_AT_ONCE and _all_unlike(issues, ev._replayed):
        # No two alike (as on every roster of the benchmark's corpus): nothing to merge,
        # found by one pass in C rather than the loop below (an edit of a large roster
        # replays hundreds of warnings, all kept).
        return
    first: dict[tuple[str, str, str, Loc], int] = {}
    out: list[Issue] = []
    entries, shared = ev.index.entries, ev.index.shared
    for issue in issues:
        key = (issue.severity, issue.code, issue.message, issue.path)
        at = first.get(key)
        if at is None:
            first[key] = len(out)
            out.append(issue)
        elif (out[at].entry, out[at].constraint) == (issue.entry, issue.constraint):
            out.append(issue)  # (one rule, reported for each of two selections)
        elif (issue.entry in entries or issue.entry in shared) and not (
            out[at].entry in entries or out[at].entry in shared
        ):
            out[at] = issue
    if len(out) < len(issues):
        issues[:] = out


def _is_of(node: Node, ref: str) -> bool:
    """Whether the selection is of entry, link, group or ``type:`` ``ref`` (not a category)."""
    entry = node.entry
    return entry is not None and (
        ref == "*"
        or ref == entry.id
        or (ref.startswith("type:") and entry.type in ref[5:].split("|"))
        or (node.group is not None and node.group.id == ref)
        or (node.link is not None and node.link.id == ref)
    )


def _reaching(entry: Entry) -> tuple[Modifier, ...]:
    """The entry's modifiers that change other selections than its own."""
    return tuple(m for m in entry.modifiers if reaches(m))


def _cost_counts(
    index: CatalogIndex, entry: Entry, fields: frozenset[str]
) -> tuple[tuple[str, str], ...] | None:
    """For :meth:`Evaluation._cost_reads`: what the modifiers of ``entry`` on ``fields``
    count, each scope with the reference counted there (a count of ancestry or of forces, or
    a test of what a selection is, left out: an added selection changes none of them);
    ``None`` where one of its modifiers reaches other selections' costs, or one on
    ``fields`` reads anything but a count of selections (a cost, a percentage). A modifier
    reaching other selections' characteristics, names or categories changes no cost of
    theirs nor of its own (no cost counts a category a modifier may give, and a test of
    what a selection is reads the categories its entry states). Worked out once per entry
    and set of fields while the index is in use."""
    known: dict[tuple[int, frozenset[str]], tuple[Entry, tuple[tuple[str, str], ...] | None]]
    known = index.memo("engine.cost_counts")
    key = (id(entry), fields)
    hit = known.get(key)
    if hit is not None and hit[0] is entry:
        return hit[1]
    out: tuple[tuple[str, str], ...] | None = _counted(entry, fields)
    known[key] = (entry, out)
    return out


def _counted(entry: Entry, fields: frozenset[str]) -> tuple[tuple[str, str], ...] | None:
    """:func:`_cost_counts`, worked out."""
    found: list[tuple[str, str]] = []
    for m in entry.modifiers:
        if reaches(m):
            if m.field in fields:
                return None
            continue  # (another selection's characteristic, name or categories)
        if m.field not in fields:
            continue
        for q in modifier_queries(m):
            if getattr(q, "type", "") in ("instance-of", "not-instance-of"):
                continue
            if q.field == "forces":
                continue
            if q.field != "selections" or q.percent:
                return None  # (never so where cost_counts is known: kept safe)
            if q.scope == "ancestor":
                continue  # (the selections above it: not moved)
            found.append((q.scope, q.child or entry.id))
    return tuple(found)


def _cost_context(index: CatalogIndex, entry: Entry, fields: frozenset[str]) -> tuple[bool, bool]:
    """For :meth:`Evaluation._context_nodes`: whether a modifier of ``entry`` reaches other
    selections or has a condition or repeat on ``fields`` (or categories) looking further
    than its selection and the parent (outside), and whether it has any such condition or
    repeat (reads). Worked out once per entry and set of fields while the index is in use."""
    known: dict[tuple[int, frozenset[str]], tuple[Entry, tuple[bool, bool]]]
    known = index.memo("engine.cost_context")
    key = (id(entry), fields)
    hit = known.get(key)
    if hit is not None and hit[0] is entry:
        return hit[1]
    watched = fields | {"categories", "primary-category"}
    outside = reads = False
    for m in entry.modifiers:
        if reaches(m):
            outside = True
        elif m.field in watched and (m.conditions or m.groups or m.repeat or m.repeats):
            reads = True
            if any(q.scope not in ("self", "parent") for q in modifier_queries(m)):
                outside = True
    known[key] = (entry, (outside, reads))
    return outside, reads


def _names_modified(index: CatalogIndex, entry: Entry) -> bool:
    """Whether ``entry`` has modifiers of its name (:meth:`Evaluation._known_names`)."""
    return bool(entry.modifiers) and "name" in index.modified_fields(entry)


def _reaches_others(index: CatalogIndex, entry: Entry) -> bool:
    """Whether ``entry`` has a modifier that changes other selections (:func:`_find_reach`)."""
    return bool(entry.modifiers) and any(reaches(m) for m in entry.modifiers)


#: What :func:`_walk_holding` looks for: the name of its memo with the index, and the test
#: of an entry.
_NAMED = ("engine.holds_named", _names_modified)
_REACHING = ("engine.holds_reaching", _reaches_others)


def _may_hold(
    index: CatalogIndex, what: tuple[str, Callable[[CatalogIndex, Entry], bool]], entry: Entry
) -> bool:
    """Whether a selection of an entry that ``what`` finds can stand under a selection of
    ``entry``, at any depth: one of its possible children (:meth:`CatalogIndex.children`, of
    which every selection under it is one), theirs, and so on. Worked out once per entry
    while the index is in use (as :meth:`CatalogIndex.held_refs`)."""
    name, test = what
    known: dict[int, tuple[Entry, bool]] = index.memo(name)
    hit = known.get(id(entry))
    if hit is not None and hit[0] is entry:
        return hit[1]
    found = False
    seen = {id(entry)}
    stack = [c.entry for c in index.children(entry)]
    while stack:
        e = stack.pop()
        if test(index, e):
            found = True
            break
        if id(e) not in seen:
            seen.add(id(e))
            stack.extend(c.entry for c in index.children(e))
    known[id(entry)] = (entry, found)
    return found


def _walk_holding(
    ev: Evaluation, what: tuple[str, Callable[[CatalogIndex, Entry], bool]]
) -> Iterator[Node]:
    """The selections of the tree, depth first (as :meth:`Node.descendants`), looking under
    a selection only where what ``what`` finds can stand there (:func:`_may_hold`): under a
    selection the catalog does not know, or a force, always."""
    index = ev.index
    stack = list(reversed(ev.root.children))
    pop, push = stack.pop, stack.extend
    while stack:
        n = pop()
        yield n
        if n.children and (n.entry is None or _may_hold(index, what, n.entry)):
            push(reversed(n.children))


def _find_reach(ev: Evaluation) -> None:
    """Record, per selection, the modifiers of other selections that reach it (a modifier's
    ``scope`` and ``reach``), in the order of the roster then of each entry's modifiers; and
    open (never replay) the subtrees that hold a reached selection but not the modifier's."""
    reached, opened = ev._reached, ev._opened
    # (only into the selections whose entry can hold one with such a modifier)
    for node in _walk_holding(ev, _REACHING):
        entry = node.entry
        if entry is None or not entry.modifiers:
            continue
        mods = _per_entry(ev, "engine.reaching", entry, _reaching)
        if not mods:
            continue
        holders = {id(node), *(id(a) for a in node.ancestors())}
        for mod in mods:
            anchor = ev._scope_node(node, mod.scope)
            if anchor is None:
                continue
            if mod.reach == "self":
                targets = [anchor]
            elif mod.reach == "children":
                targets = anchor.children
            elif mod.reach == "descendants":
                targets = list(anchor.descendants())
            else:
                targets = list(anchor.walk())
            for target in targets:
                if target.entry is None:
                    continue
                reached.setdefault(id(target), []).append((mod, node))
                n: Node | None = target
                while n is not None and id(n) not in holders:
                    opened.add(id(n))
                    n = n.parent


def _adds_costs(rules: SystemRules) -> bool:
    """Whether ``rules`` adds costs of its own (overrides :meth:`SystemRules.extra_cost`)."""
    from ..plugin import SystemRules

    own = getattr(rules, "__dict__", {})
    return "extra_cost" in own or getattr(type(rules), "extra_cost", None) is not (
        SystemRules.extra_cost
    )


def _module_failed(index: CatalogIndex, why: str) -> str:
    why = why if len(why) <= 300 else why[:300] + "…"
    return (
        f"the {index.system.name} rules could not work out this roster's values ({why}); "
        "the checks above still hold, but computed values may be missing"
    )


def _custom_catalog(roster: Roster, gs: GameSystem) -> tuple[CustomCatalog | None, list[Issue]]:
    """The roster's own entries (``custom:``), checked like a catalog (see
    :func:`armybuilder.catalog.custom_catalog`); its problems become issues."""
    from pathlib import Path

    if roster.custom is None:
        return None, []
    here: Path = roster.path or Path(roster.file)
    custom, problems = custom_catalog(roster.custom, here, gs, roster.faction)
    issues = [
        Issue(ERROR, "invalid-custom-entry", f"custom entries: {msg}", ("custom", *loc))
        for loc, msg in problems
    ]
    return custom, issues


def evaluate_roster(
    roster: Roster,
    system: GameSystem,
    memo: SubtreeMemo | None = None,
    take_nodes: bool = False,
    values: bool = True,
) -> Evaluation:
    """Validate a roster against its system: its faction's catalog (with any extensions and
    the roster's own ``custom:`` entries) and the system's rules module. ``values=False``: for
    a caller that reads issues, costs and totals only (see :func:`evaluate`).

    Raises :class:`~armybuilder.errors.UnknownFactionError` for a faction the system lacks.
    """
    factions = roster.factions()
    index = system.index(roster.faction)
    for f in factions[1:]:
        system.faction(f)  # (raises for a faction the system lacks)
    raw = roster.custom
    if raw is not None and memo is not None and memo.custom is not None:
        # An edit session: the same own entries as last time give the same catalog.
        was, here, fids, found = memo.custom
        if (
            memo.index is not None
            and memo.index.system is system
            and here == str(roster.path or roster.file)
            and fids == tuple(factions)
            and was == raw
        ):
            ev = evaluate(
                roster,
                memo.index,
                system.rules,
                memo,
                take_nodes,
                faction_roots=_faction_roots(memo.index, system, factions),
                values=values,
            )
            ev.issues[:0] = [*_dropped_extensions(memo.index), *found]
            if ev.memo_out is not None:
                ev.memo_out.custom = memo.custom
            return ev
    custom, problems = _custom_catalog(roster, system)
    if len(factions) > 1:
        index = system.index_of(factions, custom)
        problems.extend(_clashes(roster, system, factions))
    elif custom is not None:
        index = system.index_with(roster.faction, custom)
    roots = _faction_roots(index, system, factions)
    ev = evaluate(roster, index, system.rules, memo, take_nodes, faction_roots=roots, values=values)
    ev.issues[:0] = [*_dropped_extensions(index), *problems]
    if raw is not None and custom is not None and ev.memo_out is not None:
        ev.memo_out.custom = (
            raw,
            str(roster.path or roster.file),
            tuple(factions),
            tuple(problems),
        )
    return ev


def _faction_roots(
    index: CatalogIndex, system: GameSystem, factions: list[str]
) -> dict[str, frozenset[str]] | None:
    """What each faction's forces may take at their top level in a roster of several
    factions (``None`` for one): its own roots and the roster's own entries."""
    if len(factions) <= 1:
        return None
    roots = {f: frozenset(c.entry.id for c in system.index(f).roots) for f in factions}
    own = frozenset(c.entry.id for c in index.roots).difference(*roots.values())
    return {f: ids | own for f, ids in roots.items()}


def _clashes(roster: Roster, system: GameSystem, factions: list[str]) -> list[Issue]:
    """An error for each pair of the roster's factions that define the same entry id (their
    forces cannot be checked together: one definition would stand for both)."""
    common = {e.id for e in [*system.model.entries, *system.model.shared_entries]}
    defined = {f: set(system.index(f).entries) | set(system.index(f).shared) for f in factions}

    def definition(faction: str, entry_id: str) -> Any:
        idx = system.index(faction)
        return idx.entries.get(entry_id) or idx.shared.get(entry_id)

    out = []
    for i, a in enumerate(factions):
        for b in factions[i + 1 :]:
            # One definition both factions share (a catalog both draw on) is no clash.
            both = sorted(
                x
                for x in (defined[a] & defined[b]) - common
                if definition(a, x) is not definition(b, x)
            )
            if both:
                shown = ", ".join(repr(x) for x in both[:5]) + (" ..." if len(both) > 5 else "")
                out.append(
                    Issue(
                        ERROR,
                        "faction-clash",
                        f"the factions {system.faction(a).name} and {system.faction(b).name} "
                        f"both define {shown}: their forces cannot be checked together in one "
                        "roster (costs and rules of one would stand for the other's)",
                        ("faction",) if a == roster.faction else (),
                    )
                )
    return out


def _dropped_extensions(index: CatalogIndex) -> list[Issue]:
    """A warning for each extension of the roster's faction that was left out at load time
    (its units are missing from this roster's catalog), and for each element of the
    faction's data left out for a value that could not be read (``data-value``)."""
    return [
        Issue(
            "warning",
            "catalog-data-left-out",
            f"{p} (in the data of {index.faction.name})",
            (),
        )
        if p.code == "data-value"
        else Issue(
            "warning",
            "catalog-extension-dropped",
            f"{p}; the catalog extension is left out, so its entries are not available to "
            f"{index.faction.name}",
            (),
        )
        for p in index.faction.dropped
    ]
