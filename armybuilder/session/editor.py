"""The edit session (:class:`EditSession`): one roster being edited, with validation, undo
and redo, unsaved changes and its recovery journal (see :mod:`armybuilder.session`)."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import math
import threading
import time
import uuid
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ArmybuilderError
from ..words import tally, tidy_cost
from .journal import Journal, RecoveryInfo, filed_as
from .operations import (
    Delete,
    EditError,
    Insert,
    Loc,
    Move,
    Op,
    SetKey,
    _fmt,
    _node_at,
    _normalised,
    _own,
    _owner,
    apply_op,
    build_selection,
    check_count,
    detached_copy,
    is_force_loc,
    new_roster,
    op_from_json,
    op_to_json,
    refresh_after,
)
from .text import costs_text, limit_text, parse_state, state_warnings

# The roster machinery (ruamel.yaml, pydantic models) is imported where it is used, so that
# the TUI's home screen (recent files, recovery journals) shows before it is loaded.
if TYPE_CHECKING:
    from ..catalog import CatalogIndex, Child, GameSystem, Library
    from ..model.catalog import Constraint, Entry, ForceEntry, Group, Modifier
    from ..rosters import ForceData, Roster, WrittenSave
    from ..rules.engine import Evaluation, Node, SubtreeMemo
    from ..rules.state import StateKey


# =========================================================================== the session


@dataclass
class Edit:
    """One undoable step: the operations applied, in order, and their inverses."""

    label: str
    ops: list[Op]
    inverses: list[Op]
    #: The selection to show after undoing / redoing this edit.
    focus_before: Loc | None = None
    focus_after: Loc | None = None


#: Tokens that mark states of a document (the edit on top of the undo stack); 0 is "no edit".
_TOKENS = itertools.count(1)


def _token() -> int:
    return next(_TOKENS)


def _count_of(node: Any) -> int:
    n = node.get("count", 1) if isinstance(node, dict) else 1
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 1 else 1


@dataclass(frozen=True)
class Slot:
    """Where an entry added under a selection goes, as its choice groups see it
    (:meth:`EditSession.slot_for`)."""

    #: The group that decides (``None``: no group limit is reached).
    group: Group | None
    #: Positions of the choices the new one replaces (a pick-one group).
    replaces: list[int]
    #: Why it cannot be added (a group already full), else ``None``.
    full: str | None
    #: It is the choice of its pick-one group already (``full`` says so): adding it
    #: changes nothing.
    chosen: bool = False

    @property
    def swaps(self) -> bool:
        return bool(self.replaces)


@dataclass(frozen=True)
class Limit:
    """How many of something are chosen where the player chooses, and how many the rules
    allow there (the catalog's constraints and group limits, modifiers applied)."""

    selected: int
    minimum: int = 0
    maximum: int | None = None

    @property
    def range_text(self) -> str:
        return limit_text(self.minimum, self.maximum)

    @property
    def count_text(self) -> str:
        """``6/7`` against a maximum, ``2, at least 3`` against a minimum alone, else
        ``3 chosen`` (``""`` for none chosen and no limit)."""
        if self.maximum is not None:
            return f"{self.selected}/{self.maximum}"
        if self.minimum:
            return f"{self.selected}, at least {self.minimum}"
        return f"{self.selected} chosen" if self.selected else ""

    @property
    def bounded(self) -> bool:
        return self.maximum is not None or self.minimum > 0


@dataclass(frozen=True)
class OptionInfo:
    """One catalog option under a selection, as the engine sees it there."""

    #: The id that names the option there: the one :meth:`EditSession.add` takes and the
    #: roster records (:meth:`EditSession.option_id`): the entry's id, or the id of the link
    #: it comes through where the same entry is offered there twice (plainly and in a group).
    entry_id: str
    limit: Limit
    #: The cost of one added here with its default choices (modifiers and the rules
    #: module's extra costs applied), per cost type shown to a player (the hidden ones are
    #: not priced: :attr:`EditSession.shown_cost_types`).
    costs: dict[str, float]


@dataclass(frozen=True)
class UnitSummary:
    """What a roster line says about a selection: its name, what it is, how many, its
    experience, its loadout (chosen weapons and upgrades) and its cost."""

    name: str
    #: The entry's name when a custom name stands in its place ("Pte Vasquez" is a Marine).
    entry_name: str
    count: int
    #: The experience level or class that applies ("" when it records none).
    experience: str
    #: Each upgrade once, with how many there are ("Lightning Claw ×2").
    loadout: tuple[str, ...]
    cost: str
    #: How many upgrades the loadout holds in all (a line too narrow for their names says
    #: "4 kit"); 0: one per name of :attr:`loadout`.
    pieces: int = 0


def unit_summary(ev: Evaluation, node: Node) -> UnitSummary:
    """The facts a roster line shows about ``node``, as ``ev`` computes them.

    Experience: the class the rules module computes for it (a value keyed ``experience``:
    a text, or a mapping with a ``class``), else the level that applies to an entry that
    records experience (its own, or inherited). Loadout: its chosen upgrades (weapons,
    armour, kit), each name once with how many there are.
    """
    name = ev.name(node)
    entry = node.entry
    entry_name = ""
    if entry is not None and node.data is not None and node.data.name:
        modified = str(ev.apply_modifiers(entry, "name", entry.name, node))
        entry_name = modified if modified != name else ""
    experience = ""
    computed = ev.value(node, "experience") if not node.is_root else None
    if isinstance(computed, dict) and computed.get("class"):
        experience = str(computed["class"])
    elif isinstance(computed, str):
        experience = computed
    elif entry is not None and ev.index.experience:
        own = node.data.experience if node.data is not None else None
        if entry.experience or own:
            level = ev.experience(node)
            experience = level.name if level is not None else ""
    # The same upgrade taken in several selections is counted once ("Lightning Claw ×2"),
    # in the order of its first selection, as the printed roster counts it.
    upgrades = [
        (ev.name(c), c.count)
        for c in node.children
        if c.entry is not None and c.entry.type == "upgrade" and not c.children
    ]
    loadout = tuple(tally(upgrades))
    costs = ev.total_cost(node) if not node.is_root else ev.totals
    return UnitSummary(
        name,
        entry_name,
        node.count,
        experience,
        loadout,
        costs_text(ev.index, costs),
        sum(n for _, n in upgrades),
    )


def _ev_node(ev: Evaluation, loc: Loc) -> Node | None:
    node = ev.root
    for i in range(1, len(loc), 2):
        step = loc[i]
        kids = node.children
        if loc[i - 1] == "forces":
            kids = [c for c in kids if c.force is not None]
        if not isinstance(step, int) or step >= len(kids):
            return None
        node = kids[step]
    return node


def _parse_new(node: Any, loc: Loc) -> Any:
    from ..rosters import parse_selection

    return parse_selection(node, loc)


#: Options under one selection whose modifiers of `hidden` are alike share one evaluation
#: of them (:meth:`EditSession.options`); ``False``: each is evaluated (for the tests).
SHARE_HIDDEN = True

#: Options in a group the data hides there (by the group's own modifiers of `hidden`) are not
#: offered (:meth:`EditSession.options`); ``False``: only the options' own flags count (tests).
HIDE_GROUPS = True

#: Where a condition of an option's `hidden` modifier may look and find the same for every
#: option under one selection: nothing there is the option itself (it is not yet added).
_ALIKE_SCOPES = frozenset({"roster", "force", "parent"})


def _hidden_alike(index: CatalogIndex, child: Child, below_top: bool) -> tuple[Any, ...] | None:
    """What the modifiers of ``child``'s `hidden` flag are alike by, where what they find
    does not depend on the option they belong to (``None``: it may): every condition names
    what it counts or is an instance of (not the option's own entry), not per link, in a
    scope holding the option rather than the option (the roster, its force, the selection
    it would be added to; the top-level selection and the ones above, below the top), and
    no repeats. Options under one selection with the same key are hidden alike."""
    entry = child.entry
    mods, _ = index.modifiers_on(entry, "hidden")
    own: set[str | None] = {entry.id, f"path:{entry.id}"}
    if child.link is not None:
        own |= {child.link.id, f"path:{child.link.id}"}
    scopes = _ALIKE_SCOPES | {"top"} if below_top else _ALIKE_SCOPES

    def plain(conds: Sequence[Any], groups: Sequence[Any]) -> bool:
        for c in conds:
            if c.child is None or c.child in own or c.per_link:
                return False
            if c.scope not in scopes and not (
                c.scope == "ancestor" and c.type in ("instance-of", "not-instance-of")
            ):
                return False
        return all(plain(g.conditions, g.groups) for g in groups)

    for m, _ in mods:
        if m.repeat is not None or m.repeats or not plain(m.conditions, m.groups):
            return None
    return (repr(tuple(m for m, _ in mods)), entry.hidden)


def _scratch_node(
    index: CatalogIndex,
    data: Any,
    entry: Entry,
    group: Group | None,
    parent: Node,
    child: Child | None = None,
) -> Node:
    """An evaluated node for a selection not (yet) in the roster, under ``parent`` (which does
    not list it among its children): what-if costs. ``child``: the option it is made from
    (its link is the node's)."""
    from ..rules.engine import Node

    node = Node(data, entry, group, parent, len(parent.children))
    if child is not None:
        node.link = child.link
    for c in data.children:
        found = index.child(entry, c.entry) if c.entry else None
        if found is not None:
            node.children.append(_scratch_node(index, c, found.entry, found.group, node, found))
    return node


def _copy_subtree(old: Node, data: Any, parent: Node) -> Node:
    """A copy of the evaluated ``old`` with everything under it, under ``parent``, its own
    selection read from ``data`` (its children's as they are): what-if costs of a change to a
    selection already in the roster."""
    from ..rules.engine import Node

    node = Node(data, old.entry, old.group, parent, old.index)
    node.count = old.count
    node.link = old.link
    for c in old.children:
        node.children.append(_copy_subtree(c, c.data, node))
    return node


def _counts_in(node: Node, counted: frozenset[str] | None) -> bool:
    """Whether ``node`` or anything under it is of what ``counted`` names (entry, link,
    category, group, ``type:``; see :meth:`CatalogIndex.cost_counts`; ``None``: anything),
    or may take a category: a selection whose adding or removal may change another's cost.
    A group counts what is chosen in it and in the groups inside it."""
    if counted is None:
        return True
    if not counted:
        return False
    for n in node.walk():
        entry = n.entry
        if entry is None:
            continue
        if "*" in counted or entry.id in counted:
            return True
        if any(cat in counted for cat in entry.categories):
            return True
        if n.link is not None and (n.link.id in counted or f"path:{n.link.id}" in counted):
            return True
        if f"path:{entry.id}" in counted:
            return True
        if n.group is not None and any(ref in counted for ref in _group_refs(n)):
            return True
        if any(ref.startswith("type:") and entry.type in ref[5:].split("|") for ref in counted):
            return True
        if any(m.field in ("categories", "primary-category") for m in entry.modifiers):
            return True
    return False


def _group_refs(node: Node) -> list[str]:
    """The ids of the groups ``node`` is chosen in (its own and those holding it)."""
    parent = node.parent
    group = node.group
    if group is None:
        return []
    refs = [group.id]
    if parent is None or parent.entry is None:
        return refs

    def path(groups: Sequence[Group]) -> list[str] | None:
        for g in groups:
            if g is group:
                return [g.id]
            inner = path(g.groups)
            if inner is not None:
                return [g.id, *inner]
        return None

    return path(parent.entry.groups) or refs


def _counts_inside(index: CatalogIndex, top: Node, node: Node, owner: str, mod: Modifier) -> bool:
    """Whether every condition and repeat of ``mod`` (of the entry ``owner`` of ``node``, a
    selection in the new subtree ``top``) counts selections in a scope inside ``top`` (the
    selection itself, or its nearest enclosing one of an entry or type that ``top`` holds
    above it), of what they are as their entries state it: an entry, group, link, type or
    ``*``, or a category no modifier gives or takes. What it finds is then the same
    wherever ``top`` is added. A count of forces, of a cost or a percentage reads outside;
    a test of what a selection is (``instance-of``) is taken as reading where it stands
    (most test an ancestor; one of a selection inside is rare enough to be worked out on a
    copy)."""
    from ..catalog.index import SCOPE_WORDS, modifier_queries
    from ..model.catalog import Condition

    added = index.added_categories
    for q in modifier_queries(mod):
        if isinstance(q, Condition) and q.type in ("instance-of", "not-instance-of"):
            return False
        if q.field != "selections" or q.percent:
            return False
        ref = q.child or owner
        if ref in added or (":" in ref and not ref.startswith("type:")):
            return False  # (a category a modifier may give, or a faction, a link's path)
        scope = q.scope
        if scope == "self":
            continue
        if scope == "parent":
            if node is top:
                return False
            continue
        if scope in SCOPE_WORDS or scope == "ancestor":
            return False  # (force, roster, top: where it is added)
        kinds = scope[5:].split("|") if scope.startswith("type:") else None
        at: Node | None = node
        while at is not None:
            entry = at.entry
            if entry is not None and (
                entry.type in kinds if kinds is not None else entry.id == scope
            ):
                break
            at = None if at is top else at.parent
        if at is None:
            return False  # (the nearest such selection is above ``top``)
    return True


def _what_if(ev: Evaluation) -> Evaluation:
    """An evaluation sharing ``ev``'s tree with caches of its own, for what-if nodes (whose
    ids must not reach ``ev``'s caches)."""
    return ev.what_if()


def _priced(ev: Evaluation, node: Node, cost_types: Sequence[str]) -> dict[str, float]:
    """What ``node`` costs with everything under it, times its count, in ``cost_types`` only:
    :meth:`Evaluation.total_cost` restricted to those types (each unit cost is the engine's,
    modifiers and the rules module's extra costs applied), so that the types no one is shown
    are not worked out."""
    per_copy = {ct: ev.unit_cost(node, ct) for ct in cost_types}
    for c in node.children:
        for ct, v in _priced(ev, c, cost_types).items():
            per_copy[ct] += v
    return {ct: tidy_cost(v * node.count) for ct, v in per_copy.items()}


class EditSession:
    """A roster being edited. See the module docstring."""

    def __init__(
        self,
        roster: Roster,
        system: GameSystem,
        *,
        history_limit: int = 1000,
        autosave: bool = True,
    ) -> None:
        if not roster.round_trip:
            raise ValueError("an edit session needs a roster loaded with round_trip=True")
        self.roster = roster
        self.system = system
        self.history_limit = history_limit
        self.autosave = autosave
        self.session_id = uuid.uuid4().hex[:12]
        self.generation = 0
        self._undo: list[tuple[Edit, int]] = []
        self._redo: list[tuple[Edit, int]] = []
        self._saved_token = 0
        #: Between :meth:`start_save` and :meth:`end_save`: edits are refused.
        self.saving = False
        self._evaluation: Evaluation | None = None
        self._evaluation_generation = -1
        self._eval_lock = threading.Lock()
        # One evaluation at a time: each takes over parts of the previous one's tree.
        self._run_lock = threading.Lock()
        self._basis: tuple[int, SubtreeMemo] | None = None  # the latest generation evaluated
        #: Milliseconds the last evaluation took (wall time).
        self.last_eval_ms = 0.0
        #: Milliseconds of CPU time the last evaluation took in its own thread: what it
        #: would hold the builder's event loop for. (A worker's wall time also counts the
        #: time it waited for the interpreter while the event loop painted meanwhile.)
        self.last_eval_cpu_ms = 0.0
        #: Milliseconds the last edit took (document change and re-parse, not validation).
        self.last_edit_ms = 0.0
        self.journal = Journal.for_roster(filed_as(roster), self.session_id)
        #: The text of the document as last saved (or opened), which the journal starts from
        #: when an edit leaves that state: the roster's own text, unless the roster came with
        #: changes its text does not hold; then ``None`` until the first edit writes it out.
        self._saved_text: str | None = None if roster.dirty else roster.text
        #: Figures the panes show (limits, what-if costs), per evaluation.
        self._figures: dict[Any, Any] = {}
        self._fresh_data: dict[int, tuple[Entry, Any]] = {}
        #: Per option (entry, group and link, by ``id()``: a link may set costs of its own):
        #: its own price where it can depend on nothing but the entry (else ``None``), and
        #: whether another selection's cost may count it (its rise is then worked out each
        #: time: :class:`_Pricer`).
        self._fixed_prices: dict[
            tuple[int, int, int], tuple[Entry, dict[str, float] | None, bool]
        ] = {}
        self._shown_types: tuple[CatalogIndex, tuple[str, ...]] | None = None
        self._groups_of: dict[
            int, tuple[Entry, dict[int, list[Group]], dict[int, frozenset[str]]]
        ] = {}
        #: Per entry whose options may be hidden (by ``id()``, the entry kept beside; the
        #: roster's top by ``id(None)``): the options hidden as written, and those with
        #: modifiers of `hidden`, each with what they are alike by (:meth:`_hiding_plan`).
        self._hiding: dict[
            int,
            tuple[
                Entry | None,
                frozenset[int],
                tuple[tuple[Child, tuple[Any, ...] | None], ...],
            ],
        ] = {}

    # ----------------------------------------------------------------- construction

    @classmethod
    def open(
        cls, path: Path | str, library: Library, *, lazy: bool = True, **kw: Any
    ) -> EditSession:
        """Open a roster file for editing.

        ``lazy``: read it with the fast loader, so that it is shown and validated at once,
        and build the round-trip document edits and saves need in a worker thread meanwhile
        (an edit made before it is ready waits for it); see :meth:`Roster.from_text`.

        Raises :class:`~armybuilder.errors.RosterError` when the file cannot be read and
        ``UnknownSystemError`` / ``UnknownFactionError`` when its catalog is not installed.
        """
        from ..rosters import Roster

        roster = Roster.from_file(path, library=library, lazy=lazy)
        system = library.system(roster.system)
        system.faction(roster.faction)
        roster.prepare_merge_base()  # so that a save keeps the user's own text, fast
        roster.prepare_round_trip()
        session = cls(roster, system, **kw)
        if roster.converted_from is not None:
            # Converted from another format: unsaved, but its document was read from its text
            # (the journal starts from that text, without writing the roster out again).
            session._saved_text = roster.text
        return session

    @classmethod
    def new(
        cls,
        library: Library,
        system_id: str,
        faction_id: str,
        name: str,
        limits: dict[str, float] | None = None,
        **kw: Any,
    ) -> EditSession:
        """A fresh roster (not saved anywhere yet), made as ``armybuilder new`` makes it
        (:func:`new_roster`: the schema line and the comment on what can be selected)."""
        system = library.system(system_id)
        system.faction(faction_id)
        roster = new_roster(system, faction_id, name, limits or None)
        return cls(roster, system, **kw)

    @classmethod
    def recover(cls, info: RecoveryInfo, library: Library, **kw: Any) -> EditSession:
        """A session on the roster a recovery journal describes, its edits unsaved.

        The recovered edits form one undoable step, so undo gives back the file as saved.
        """
        from ..rosters import Roster

        base = Roster.from_text(
            info.base, str(info.path) if info.path else "<recovered roster>", info.path
        )
        base.bom = info.bom
        if info.newline is not None:
            base.newline = info.newline
        # Saving checks the file is still the one the edits started from (not overwritten).
        base.disk_digest = info.disk_digest
        if info.converted_from is not None:
            # Converted from a .ros: saved as the YAML beside it (asking before replacing a
            # file there), its journal filed under the .ros while it is not saved.
            base.converted_from = info.converted_from
            base.converted_digest = info.converted_digest
            base.dirty = info.converted
        system = library.system(base.system)
        session = cls(base, system, **kw)
        if info.converted:
            session._saved_text = info.base  # (as :meth:`open` has it: see there)
        if info.file_changed or info.unsaved_base or info.path is None:
            # What is on disk (if anything) is not where the edits started: unsaved even
            # once the recovered edits are undone.
            session._saved_token = -1
        if info.ops:
            session._apply("Recovered changes", list(info.ops), None, None)
        elif session.dirty and session.autosave:
            # Nothing but the unsaved base to recover: this session's journal holds it as
            # unsaved, so that it is offered again should this session be lost in turn.
            session.journal.start(base, info.base, unsaved=True)
            session.generation += 1
        # Only now, with the edits safe in this session's own journal, the old one goes;
        # unless the window that wrote it still runs: it is that window's (recovering here
        # takes a copy), and goes when that window saves or closes.
        if not info.other_process_alive:
            info.discard()
        return session

    # ----------------------------------------------------------------- state

    @property
    def index(self) -> CatalogIndex:
        """The catalog the roster is validated against (with its own custom entries)."""
        ev = self._evaluation
        factions = self.roster.factions()
        if ev is not None and set(factions) <= {ev.index.faction.id, *ev.index.also}:
            return ev.index
        if ev is not None or len(factions) > 1:
            # A force of another faction was just added, or the faction changed.
            return self.evaluate().index
        return self.system.index(self.roster.faction)

    @property
    def path(self) -> Path | None:
        return self.roster.path

    @property
    def name(self) -> str:
        return self.roster.name

    @property
    def dirty(self) -> bool:
        """Unsaved changes?"""
        return self._state_token() != self._saved_token

    @property
    def is_new(self) -> bool:
        """Never saved to a file."""
        return self.roster.path is None

    def _state_token(self) -> int:
        return self._undo[-1][1] if self._undo else 0

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_label(self) -> str | None:
        return self._undo[-1][0].label if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1][0].label if self._redo else None

    @property
    def history(self) -> list[str]:
        """Labels of the undoable edits, oldest first."""
        return [e.label for e, _ in self._undo]

    @property
    def unsaved_edits(self) -> int | None:
        """How many edits (made, or undone) lie between the roster as last saved (or opened)
        and as it is now: 0 when it is not dirty; ``None`` when the saved state is no longer
        on the undo path (edits undone past it and others made in their place, or edits
        recovered from a journal)."""
        saved = self._saved_token
        if saved == self._state_token():
            return 0
        undo = [token for _, token in self._undo]
        if saved == 0:
            return len(undo)
        if saved in undo:
            return len(undo) - 1 - undo.index(saved)
        redo = [token for _, token in self._redo]
        if saved in redo:
            return len(redo) - redo.index(saved)
        return None

    # ----------------------------------------------------------------- validation

    def evaluate(self) -> Evaluation:
        """The evaluation of the roster as it is now (computed once per edit)."""
        with self._eval_lock:
            if self._evaluation is not None and self._evaluation_generation == self.generation:
                return self._evaluation
            generation = self.generation
            roster = copy.copy(self.roster)
        ev = self.evaluate_snapshot(roster, generation)
        self.offer(generation, ev)
        return ev

    @property
    def evaluation(self) -> Evaluation | None:
        """The latest evaluation computed (it may be of an earlier generation)."""
        return self._evaluation

    @property
    def evaluation_is_current(self) -> bool:
        return self._evaluation is not None and self._evaluation_generation == self.generation

    @property
    def evaluation_generation(self) -> int:
        return self._evaluation_generation

    def snapshot(self) -> tuple[int, Roster]:
        """The current generation and a roster view that later edits do not change.

        Edits replace the roster's parsed lists rather than changing them, so a shallow copy
        is a consistent view for an evaluation in another thread.
        """
        return self.generation, copy.copy(self.roster)

    def evaluate_snapshot(self, roster: Roster, generation: int | None = None) -> Evaluation:
        """Evaluate a snapshot (safe to call from a worker thread; evaluations run one at a
        time). ``generation``: the one :meth:`snapshot` gave with it.

        What the latest evaluation found in the parts no edit has touched since is replayed.
        An evaluation of a newer generation also takes over the tree nodes of those parts (the
        previous evaluation is then superseded); without a generation, or for an older one,
        it builds its own.
        """
        from ..rules.engine import SubtreeMemo, evaluate_roster

        with self._run_lock:
            t0, c0 = time.perf_counter(), time.thread_time()
            basis = self._basis
            newer = generation is not None and (basis is None or generation > basis[0])
            memo = basis[1] if basis is not None else SubtreeMemo()
            ev = evaluate_roster(roster, self.system, memo, take_nodes=newer)
            if newer and generation is not None and ev.memo_out is not None:
                self._basis = (generation, ev.memo_out)
            self.last_eval_cpu_ms = 1000 * (time.thread_time() - c0)
            self.last_eval_ms = 1000 * (time.perf_counter() - t0)
        return ev

    def offer(self, generation: int, ev: Evaluation) -> bool:
        """Keep an evaluation computed on a snapshot; ``True`` if it is of the current state."""
        with self._eval_lock:
            if generation >= self._evaluation_generation:
                self._evaluation = ev
                self._evaluation_generation = generation
            return generation == self.generation

    def rebind(self, system: GameSystem) -> None:
        """Validate against ``system`` from now on (the catalogs were read again because a
        file changed): the next evaluation starts afresh; the roster and its history stay."""
        with self._run_lock, self._eval_lock:
            self.system = system
            self._basis = None
            self._figures.clear()
            self._fresh_data.clear()
            self._fixed_prices.clear()
            self._groups_of.clear()
            self._hiding.clear()
            # A new generation, so an evaluation of the old catalogs still running in a
            # worker is not taken for the current one.
            self.generation += 1

    # ----------------------------------------------------------------- lookups

    def exists(self, loc: Loc) -> bool:
        """Is there a selection at ``loc``?"""
        if not loc:
            return True
        try:
            return isinstance(_node_at(self.roster.view, loc), dict)
        except (KeyError, IndexError, TypeError):
            return False

    def node(self, loc: Loc) -> Any:
        """The document mapping at ``loc``."""
        return self.roster.doc if not loc else _owner(self.roster.doc, loc)

    def entry_at(self, loc: Loc) -> Entry | None:
        """The catalog entry of the selection at ``loc`` (``None``: the roster, or unknown)."""
        index = self.index
        entry: Entry | None = None
        for i in range(2, len(loc) + 1, 2):
            if loc[i - 2] == "forces":  # a force: what it holds is chosen as at the top
                entry = None
                continue
            try:
                node = _node_at(self.roster.view, loc[:i])
            except (KeyError, IndexError, TypeError):
                return None
            child = index.child(entry, str(node.get("entry"))) if isinstance(node, dict) else None
            if child is None:
                return None
            entry = child.entry
        return entry

    def is_known(self, loc: Loc) -> bool:
        """The selection at ``loc`` (and every one above it) is in the catalog."""
        return not loc or self.entry_at(loc) is not None

    def options(
        self, loc: Loc, ev: Evaluation | None = None, *, hidden: bool = False
    ) -> list[Child]:
        """What may be added under the selection at ``loc`` (the roster's top level for
        ``()``; a force's top level for a force's loc), as BattleScribe lists it: an entry
        hidden there is left out, after the modifiers of its ``hidden`` flag as ``ev``
        (default: the current evaluation) finds them (Legends units while the roster's
        "Show Legends" option is off), the one a selection of it would be checked by (the
        "hidden-entry" error). Where ``ev`` does not hold the selection at ``loc`` (an
        evaluation of an earlier edit, still running), the catalog's own flags decide.
        ``hidden``: every option the catalogue lists there, the hidden ones too, in its
        order (where a selection of a hidden entry sorts)."""
        if is_force_loc(loc):
            ids = self.force_entry_ids(loc)
            children = [c for c in self.index.children(None) if c.entry.id in ids]
            entry = None
        else:
            if loc and not self.is_known(loc):
                return []
            entry = self.entry_at(loc) if loc else None
            children = self.index.children(entry)
        if hidden:
            return list(children)
        left_out = self._hidden_options(loc, entry, ev or self.evaluate())
        if left_out is None:
            return [c for c in children if not c.entry.hidden]
        return [c for c in children if id(c) not in left_out]

    def _hidden_options(
        self, loc: Loc, entry: Entry | None, ev: Evaluation
    ) -> frozenset[int] | None:
        """The options under ``loc`` (of ``entry``) hidden there as ``ev`` finds them, by
        ``id()`` of their :class:`Child` (``None``: ``ev`` holds no selection of ``entry``
        at ``loc``). Worked out once per evaluation and place: only the options with a
        modifier of ``hidden`` are evaluated, each at a selection of it made for the
        purpose under the one at ``loc`` (which does not list it: BattleScribe decides
        what it lists before anything is added)."""
        found: tuple[Node | None, frozenset[int], list[Node]] = self._cached(
            ev, ("hidden options", loc), lambda: self._work_out_hidden(loc, ev)
        )
        node, hidden, _ = found
        if node is None or node.entry is not entry:
            return None
        return hidden

    def _work_out_hidden(
        self, loc: Loc, ev: Evaluation
    ) -> tuple[Node | None, frozenset[int], list[Node]]:
        from ..rules.engine import Node

        node = _ev_node(ev, loc)
        if node is None or (is_force_loc(loc) and node.force is None):
            return None, frozenset(), []
        _, hidden_as_written, modified = self._hiding_plan(node.entry)
        hidden = set(hidden_as_written)
        # (the scratch selections are kept with the result, as long as ``ev`` is the one
        # cached: the evaluation's caches are keyed by the ids of the selections asked of)
        made: list[Node] = []
        # Options whose modifiers of `hidden` are alike and read nothing of the option
        # itself are hidden alike (the Legends units of a catalogue, each with the same
        # condition on the roster's "Show Legends"): one of them is evaluated.
        found: dict[tuple[Any, ...], bool] = {}
        share = SHARE_HIDDEN
        entry = node.entry
        # A group the data hides there hides every option in it, and its subgroups (a 40k
        # character's enhancements of a detachment not taken: the group's own modifier), as
        # BattleScribe lists them. Found first: an option in a hidden group is hidden
        # whatever its own modifiers say, so they are not evaluated (a 40k squad outside a
        # Crusade: its 170 options with modifiers of `hidden` all in hidden groups).
        gone: set[int] = set()
        if entry is not None and entry.groups and HIDE_GROUPS:
            gone = self._hidden_groups(entry, node, ev)
        for c, key in modified:
            if gone and c.group is not None and id(c.group) in gone:
                hidden.add(id(c))
                continue
            if share and key is not None and key in found:
                is_hidden = found[key]
            else:
                scratch = Node(None, c.entry, c.group, node, len(node.children), link=c.link)
                made.append(scratch)
                is_hidden = ev.is_hidden(c.entry, scratch)
                if key is not None:
                    found[key] = is_hidden
            if is_hidden:
                hidden.add(id(c))
        if gone and entry is not None:
            for c in self.index.children(entry):
                if c.group is not None and id(c.group) in gone:
                    hidden.add(id(c))
        return node, frozenset(hidden), made

    def _hidden_groups(self, entry: Entry, node: Node, ev: Evaluation) -> set[int]:
        """The groups of ``entry`` hidden in its selection ``node`` as ``ev`` finds them (after
        their modifiers of `hidden`; a group inside a hidden one is hidden), by ``id()``: the
        engine's test of a choice kept in a hidden group (:func:`hiding_group`)."""
        from ..rules.engine import hiding_group

        return {
            key
            for key, path in self.index.entry_checks(entry).hideable.items()
            if hiding_group(ev, node, path) is not None
        }

    def _hiding_plan(
        self, entry: Entry | None
    ) -> tuple[Entry | None, frozenset[int], tuple[tuple[Child, tuple[Any, ...] | None], ...]]:
        """Of the options under a selection of ``entry`` (``None``: the roster's top), those
        hidden as written and without modifiers of `hidden`, by ``id()``, and those with
        such modifiers, each with what they are alike by there (:func:`_hidden_alike`):
        worked out once per entry."""
        found = self._hiding.get(id(entry))
        if found is not None and found[0] is entry:
            return found
        index = self.index
        as_written: list[int] = []
        modified: list[tuple[Child, tuple[Any, ...] | None]] = []
        for c in index.children(entry):
            if c.entry.modifiers and "hidden" in index.modified_fields(c.entry):
                modified.append((c, _hidden_alike(index, c, entry is not None)))
            elif c.entry.hidden:
                as_written.append(id(c))
        found = self._hiding[id(entry)] = (entry, frozenset(as_written), tuple(modified))
        return found

    def option_id(self, loc: Loc, child: Child) -> str:
        """The id that names ``child``, an option under ``loc`` (:meth:`options`): the one
        :meth:`add` takes and the roster records (:meth:`CatalogIndex.recorded_id`), so that
        an entry offered there twice (plainly and through a group's link) is two options."""
        entry = self.entry_at(loc) if loc and not is_force_loc(loc) else None
        return self.index.recorded_id(entry, child)

    def children_locs(self, loc: Loc) -> list[Loc]:
        view = self.roster.view
        seq = (_owner(view, loc) if loc else view).get("selections") if self.exists(loc) else None
        if not isinstance(seq, list):
            return []
        return [(*loc, "selections", i) for i in range(len(seq))]

    @staticmethod
    def parent_of(loc: Loc) -> Loc:
        return loc[:-2]

    # ----------------------------------------------------------------- applying

    def _apply(
        self,
        label: str,
        ops: list[Op],
        focus_before: Loc | None,
        focus_after: Loc | None,
    ) -> Edit:
        self._not_saving()
        t0 = time.perf_counter()
        ops = [_normalised(op) for op in ops]
        # Before anything changes: a value that cannot be recorded is refused, and what is
        # applied is what the journal gives back (so recovery replays exactly these values).
        lines: list[str] = []
        if self.autosave:
            records = [op_to_json(op) for op in ops]
            lines = [json.dumps(r) for r in records]
            ops = [
                op_from_json(r) if r["op"] in ("insert", "set") else op
                for r, op in zip(records, ops, strict=True)
            ]
        if self.autosave and self._saved_text is None and not self.dirty:
            # The journal starts from the document this edit applies to (see _record).
            from ..yamlio import dump_round_trip

            self._saved_text = dump_round_trip(self.roster.doc)
        applied: list[Op] = []
        inverses: list[Op] = []
        try:
            shared = self.roster.may_share
            for op in ops:
                inverses.append(apply_op(self.roster.doc, op, shared))
                applied.append(op)
        except Exception:
            for inv in reversed(inverses):  # leave the document as it was
                apply_op(self.roster.doc, inv, self.roster.may_share)
            raise
        finally:
            if applied:
                refresh_after(self.roster, applied)
        edit = Edit(label, applied, inverses, focus_before, focus_after)
        was_dirty = self.dirty
        undo_before, redo_before = list(self._undo), list(self._redo)
        self._undo.append((edit, _token()))
        if len(self._undo) > self.history_limit:
            del self._undo[0]
        self._redo.clear()
        try:
            self._record(applied, was_dirty, lines)
        except OSError as exc:
            self._undo, self._redo = undo_before, redo_before
            self._revert(list(reversed(inverses)))
            raise self._journal_error(exc) from None
        self.generation += 1
        self.last_edit_ms = 1000 * (time.perf_counter() - t0)
        return edit

    def _encode(self, ops: Sequence[Op]) -> list[str]:
        """The journal lines of ``ops`` (none without autosave)."""
        if not self.autosave:
            return []
        return [json.dumps(op_to_json(op)) for op in ops]

    def _revert(self, ops: Sequence[Op]) -> None:
        shared = self.roster.may_share
        for op in ops:
            apply_op(self.roster.doc, op, shared)
        refresh_after(self.roster, ops)

    @staticmethod
    def _journal_error(exc: OSError) -> EditError:
        return EditError(
            "the edit was not made: the recovery journal cannot be written "
            f"({exc.strerror or exc}); free some disk space, or save the roster"
        )

    def _record(self, ops: Sequence[Op], was_dirty: bool, lines: Sequence[str]) -> None:
        """Write the operations just applied to the recovery journal (raises ``OSError``)."""
        if not self.autosave:
            return
        if not self.dirty:
            # Back at the saved state (undo): nothing to recover.
            self.journal.discard()
        elif self.journal.started and not self.journal.orphaned:
            self.journal.append_lines(lines)
        elif not was_dirty and self._saved_text is not None and not self.journal.started:
            # The state before these operations is the saved one: its text is at hand.
            self.journal.start(self.roster, self._saved_text)
            self.journal.append_lines(lines)
        else:
            # Unsaved already (the journal could not be written before): start from now.
            from ..yamlio import dump_round_trip

            self.journal.start(self.roster, dump_round_trip(self.roster.doc), unsaved=True)

    def undo(self) -> Loc | None:
        """Undo the last edit; returns the selection it was about (``None``: nothing to undo)."""
        self._not_saving()
        if not self._undo:
            return None
        edit, token = self._undo[-1]
        ops = list(reversed(edit.inverses))
        lines = self._encode(ops)
        was_dirty = self.dirty
        self._undo.pop()
        self._revert(ops)
        self._redo.append((edit, token))
        try:
            self._record(ops, was_dirty, lines)
        except OSError as exc:
            self._redo.pop()
            self._revert(edit.ops)
            self._undo.append((edit, token))
            raise self._journal_error(exc) from None
        self.generation += 1
        return edit.focus_before if edit.focus_before is not None else ()

    def redo(self) -> Loc | None:
        """Redo the last undone edit; returns the selection it was about."""
        self._not_saving()
        if not self._redo:
            return None
        edit, token = self._redo[-1]
        lines = self._encode(edit.ops)
        was_dirty = self.dirty
        self._redo.pop()
        self._revert(edit.ops)
        self._undo.append((edit, token))
        try:
            self._record(edit.ops, was_dirty, lines)
        except OSError as exc:
            self._undo.pop()
            self._revert(list(reversed(edit.inverses)))
            self._redo.append((edit, token))
            raise self._journal_error(exc) from None
        self.generation += 1
        return edit.focus_after if edit.focus_after is not None else ()

    # ----------------------------------------------------------------- edits

    def _seq_len(self, parent: Loc) -> int:
        seq = self.node(parent).get("selections")
        return len(seq) if isinstance(seq, list) else 0

    def _check_selection(self, loc: Loc) -> None:
        if len(loc) < 2 or loc[-2] != "selections" or not isinstance(loc[-1], int):
            raise EditError("select a unit first")
        if not self.exists(loc):
            raise EditError(f"no selection at {_fmt(loc)}")

    def add(
        self,
        parent: Loc,
        entry_id: str,
        count: int = 1,
        name: str | None = None,
        required: bool = False,
    ) -> Loc:
        """Add ``entry_id`` under ``parent`` with its groups' defaults; returns its loc. A
        count a roster file cannot hold (above :data:`~armybuilder.model.bounds.MAX_COUNT`)
        is refused, as :meth:`set_count` refuses it. With ``required``, it also comes with
        what its catalog requires inside it (the builder's add: :func:`build_selection`)."""
        check_count(count)
        if is_force_loc(parent):
            self._check_force(parent)
            if entry_id not in self.force_entry_ids(parent):
                raise EditError(
                    f"{self.index.name_of(entry_id)} is not in the catalog this force draws on"
                )
        elif parent:
            self._check_selection(parent)
        parent_entry = self.entry_at(parent) if parent else None
        if parent and parent_entry is None and not is_force_loc(parent):
            raise EditError("this selection is not in the catalog; nothing can be added to it")
        if not parent and self.roster.forces is not None:
            raise EditError("this roster has several forces: choose the force to add to")
        child = self.index.child(parent_entry, entry_id)
        if child is None:
            where = "at the top level" if parent_entry is None else f"in {parent_entry.name}"
            raise EditError(f"{self.index.name_of(entry_id)} cannot be selected {where}")
        node = build_selection(
            self.index,
            child.entry,
            count,
            name,
            self.index.recorded_id(parent_entry, child),
            required=required,
        )
        slot = self.slot_for(parent, entry_id, count)
        if slot.full is not None:
            raise EditError(slot.full)
        if slot.replaces:
            # A pick-one group (at most 1): the new choice takes the old one's place, in one
            # undoable step (radio buttons, as BattleScribe and New Recruit do).
            olds = [self._label((*parent, "selections", i)) for i in slot.replaces]
            ops: list[Op] = [Delete(parent, i) for i in reversed(slot.replaces)]
            at = slot.replaces[0]
            ops.append(Insert(parent, at, node))
            label = f"Swap {', '.join(olds)} for {child.entry.name}"
            self._apply(label, ops, parent, parent)
            return (*parent, "selections", at)
        index = self._seq_len(parent)
        loc = (*parent, "selections", index)
        self._apply(f"Add {child.entry.name}", [Insert(parent, index, node)], parent, parent)
        return loc

    def group_chain(self, parent: Loc, entry_id: str) -> list[Group]:
        """The groups ``entry_id`` is chosen in under ``parent``, outermost first (``[]``:
        it is not in a group there)."""
        parent_entry = self.entry_at(parent) if parent else None
        child = self.index.child(parent_entry, entry_id)
        if parent_entry is None or child is None or child.group is None:
            return []
        target = child.group

        def path(groups: Sequence[Group]) -> list[Group] | None:
            for g in groups:
                if g is target or g.id == target.id:
                    return [g]
                inner = path(g.groups)
                if inner is not None:
                    return [g, *inner]
            return None

        return path(parent_entry.groups) or [target]

    def group_members(self, parent: Loc, group: Group) -> list[int]:
        """Positions, in ``parent``'s selections, of the choices made in ``group`` (or in its
        subgroups)."""
        parent_entry = self.entry_at(parent) if parent else None
        if parent_entry is None:
            return []
        from ..catalog import walk_groups

        inside = {id(g) for g in walk_groups([group])}
        child_of = self.index.child_map(parent_entry).get
        seq = self.node(parent).get("selections")
        items = list(seq) if isinstance(seq, list) else []
        out = []
        for i, s in enumerate(items):
            # A selection is in the group when it reads as one of the group's options (as
            # the rules engine reads it: an entry also offered plainly is not).
            ref = s.get("entry") if isinstance(s, dict) else None
            c = child_of(ref) if isinstance(ref, str) else None
            if c is not None and c.group is not None and id(c.group) in inside:
                out.append(i)
        return out

    def slot_for(self, parent: Loc, entry_id: str, count: int = 1) -> Slot:
        """What adding ``count`` × ``entry_id`` under ``parent`` does to the groups it is
        chosen in: fits, replaces the choice of a pick-one group, or finds a group full."""
        for group in reversed(self.group_chain(parent, entry_id)):  # innermost first
            most = self._group_max(parent, group)
            if most is None:
                continue
            members = self.group_members(parent, group)
            seq = self.node(parent).get("selections")
            chosen = sum(_count_of(seq[i]) for i in members)
            if chosen + count <= most:
                continue
            if most == 1 and count == 1 and members:
                same = [i for i in members if seq[i].get("entry") == entry_id]
                if same and len(members) == 1:
                    name = self.index.name_of(entry_id)
                    return Slot(
                        group,
                        [],
                        f"{name} is already the choice of {group.name} (at most 1)",
                        chosen=True,
                    )
                return Slot(group, members, None)
            name = self.index.name_of(entry_id)
            return Slot(
                group,
                [],
                f"{group.name} is full: {chosen} chosen, at most {most} allowed; "
                f"remove one before adding {name}",
            )
        return Slot(None, [], None)

    def _group_max(self, parent: Loc, group: Group) -> int | None:
        """How many choices ``group`` allows in the selection at ``parent``: its maximum, as
        its modifiers leave it there (:meth:`Evaluation.group_bounds`) where it has any."""
        if not group.modifiers:
            return group.max
        ev = self.evaluate()
        node = _ev_node(ev, parent)
        if node is None:
            return group.max
        return ev.group_bounds(group, node)[1]

    def where_to_add(self, target: Loc, entry_id: str) -> Loc | None:
        """The selection at or above ``target`` where ``entry_id`` can be added, if any."""
        loc = target
        while True:
            if is_force_loc(loc):  # a force takes its faction's top-level entries
                if entry_id in self.force_entry_ids(loc):
                    return loc
                loc = loc[:-2]
                continue
            entry = self.entry_at(loc) if loc else None
            if (not loc or entry is not None) and self.index.child(entry, entry_id) is not None:
                if not loc and self.roster.forces is not None:
                    return None  # (a roster of several forces: into a force only)
                return loc
            if not loc:
                return None
            loc = loc[:-2]

    # ----------------------------------------------------------------- limits and costs

    def _cached(self, ev: Evaluation, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """What ``compute`` gives for ``key`` under evaluation ``ev``, computed once per
        evaluation (the catalog and the details ask for the same figures after an edit)."""
        cache = self._figures
        if cache.get("ev") is not ev:
            cache.clear()
            cache["ev"] = ev
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def _fresh(self, entry: Entry) -> Any:
        """A new selection of ``entry`` as the builder adds it (its defaults and what its
        catalog requires inside it), parsed (the same each time: it is read only)."""
        found = self._fresh_data.get(id(entry))
        if found is None or found[0] is not entry:
            made = build_selection(self.index, entry, required=True)
            data = _parse_new(made, ("selections", 0))
            found = self._fresh_data[id(entry)] = (entry, data)
        return found[1]

    def option_infos(
        self,
        parent: Loc,
        ev: Evaluation | None = None,
        ids: Collection[str] | None = None,
    ) -> list[OptionInfo]:
        """Limits and costs of what may be added under ``parent`` (:meth:`options`), as
        ``ev`` (default: the current evaluation) computes them.

        ``ids``: only the options named so (:meth:`option_id`), in the order of the whole
        list: exactly ``[i for i in option_infos(parent, ev) if i.entry_id in ids]``, each
        option priced only when first asked for under ``ev`` (a pane prices the rows it
        shows; the rest are priced when scrolled to, or never)."""
        at: Evaluation = ev or self.evaluate()
        if ids is None:
            found: list[OptionInfo] = self._cached(
                at, ("options", parent), lambda: self._pricer(parent, at).all()
            )
            return found
        cache = self._figures
        if cache.get("ev") is at:
            whole: list[OptionInfo] | None = cache.get(("options", parent))
            if whole is not None:
                return [i for i in whole if i.entry_id in ids]
        return self._pricer(parent, at).some(ids)

    def _pricer(self, parent: Loc, ev: Evaluation) -> _Pricer:
        """The option pricer of ``parent`` under ``ev`` (one per evaluation: what it priced
        is kept until the next evaluation)."""
        found: _Pricer = self._cached(ev, ("pricer", parent), lambda: _Pricer(self, parent, ev))
        return found

    def _option_infos(self, parent: Loc, ev: Evaluation) -> list[OptionInfo]:
        """Every option under ``parent`` priced, in the order of :meth:`options` (not cached:
        :meth:`option_infos` keeps them)."""
        return _Pricer(self, parent, ev).all()

    def _rise(
        self,
        ev: Evaluation,
        node: Node,
        c: Child,
        drop: Sequence[Node],
        shown: Sequence[str],
        whole: bool,
        own: dict[str, float] | None = None,
    ) -> dict[str, float]:
        """What the roster's total rises by in each of ``shown`` with ``c`` added under
        ``node`` as the builder adds it (in place of ``drop``), worked out on a copy of the
        roster's tree (:meth:`Evaluation.rise_with`; ``whole``: all of it, as where the
        rules module adds costs or a cost modifier reads costs or reaches out)."""
        data = self._fresh(c.entry)
        index = self.index
        fields = None if whole else self._cost_fields()
        return ev.rise_with(
            node,
            lambda parent: _scratch_node(index, data, c.entry, c.group, parent, c),
            drop,
            shown,
            fields,
            None if whole else own,
        )

    def _cost_fields(self) -> frozenset[str]:
        return frozenset(
            self.index.cost_fields.get(ct) or f"cost:{ct}" for ct in self.shown_cost_types
        )

    def _cost_counts(self) -> frozenset[str] | None:
        """What the modifiers of the shown costs count (see :meth:`CatalogIndex.cost_counts`):
        ``None`` where any selection may change another's shown cost."""
        return self.index.cost_counts(self._cost_fields())

    def _group_ids(self, entry: Entry) -> tuple[dict[int, list[Group]], dict[int, frozenset[str]]]:
        """Per group of ``entry`` (by ``id()``): the groups holding it, outermost first, and
        the ids of the entries chosen in it or in a group inside it. Kept per entry."""
        found = self._groups_of.get(id(entry))
        if found is None or found[0] is not entry:
            from ..catalog import walk_groups

            chains: dict[int, list[Group]] = {}

            def walk(groups: Sequence[Group], above: list[Group]) -> None:
                for g in groups:
                    chain = [*above, g]
                    chains.setdefault(id(g), chain)
                    walk(g.groups, chain)

            walk(entry.groups, [])
            children = self.index.children(entry)
            inside: dict[int, frozenset[str]] = {}
            for chain in chains.values():
                g = chain[-1]
                within = {id(x) for x in walk_groups([g])}
                inside[id(g)] = frozenset(
                    c.entry.id for c in children if c.group is not None and id(c.group) in within
                )
            found = self._groups_of[id(entry)] = (entry, chains, inside)
        return found[1], found[2]

    def _replaced_by(self, node: Node, ev: Evaluation) -> Callable[[Child], list[Node] | None]:
        """Per option under ``node``: the choices adding it replaces (a pick-one group's, as
        :meth:`add` swaps them; ``[]``: it is added beside the others, also where a group is
        full and the builder refuses it: priced as if it fitted), or ``None`` where it is the
        choice of its pick-one group already (:meth:`slot_for`, on the evaluated tree)."""
        entry = node.entry
        if entry is None or not entry.groups:
            return lambda c: []
        chains, inside = self._group_ids(entry)
        members: dict[int, list[Node]] = {}

        def members_of(group: Group) -> list[Node]:
            found = members.get(id(group))
            if found is None:
                ids = inside.get(id(group))
                if ids is None:  # (not one of the entry's groups: only its own choices)
                    ids = frozenset(
                        c.entry.id for c in self.index.children(entry) if c.group is group
                    )
                found = members[id(group)] = [
                    n for n in node.children if n.data is not None and n.entry_id in ids
                ]
            return found

        def replaced(c: Child) -> list[Node] | None:
            if c.group is None:
                return []
            for group in reversed(chains.get(id(c.group), [c.group])):  # innermost first
                most = ev.group_bounds(group, node)[1] if group.modifiers else group.max
                if most is None:
                    continue
                chosen = members_of(group)
                if sum(n.count for n in chosen) + 1 <= most:
                    continue
                if most == 1 and chosen:
                    if len(chosen) == 1 and chosen[0].entry_id == c.entry.id:
                        return None
                    return chosen
                return []
            return []

        return replaced

    @property
    def shown_cost_types(self) -> tuple[str, ...]:
        """The cost types a player is shown (the catalog's hidden ones left out, such as a
        campaign's bookkeeping costs): the only ones :meth:`option_infos` prices."""
        index = self.index
        found = self._shown_types
        if found is None or found[0] is not index:
            types = tuple(ct.id for ct in index.cost_types.values() if not ct.hidden)
            found = self._shown_types = (index, types)
        return found[1]

    def _price_is_fixed(self, scratch: Node) -> bool:
        """Whether the what-if price of ``scratch`` (a new selection with its defaults) is
        the same wherever it is added in whatever roster: each modifier of an entry in it on
        a cost that is shown (one on a hidden cost type changes nothing that is priced) only
        counts selections inside ``scratch`` (:func:`_counts_inside`: a squad's cost by its
        models), and the rules module adds no costs (checked by the caller). Modifiers of
        other selections reaching into it are left to the caller too: where one changes a
        cost, :meth:`CatalogIndex.cost_counts` is ``None`` and the price is not used."""
        index = self.index
        fields = [f"cost:{ct}" for ct in self.shown_cost_types]
        stack = [scratch]
        while stack:
            n = stack.pop()
            entry = n.entry
            if entry is not None and entry.modifiers:
                for f in fields:
                    for m, reads_cost in index.modifiers_on(entry, f)[0]:
                        if reads_cost or not _counts_inside(index, scratch, n, entry.id, m):
                            return False
            stack.extend(n.children)
        return True

    def _limits_under(self, ev: Evaluation, node: Node, parent: Loc) -> Callable[[Child], Limit]:
        """:meth:`_entry_limit` of the children of ``node`` (at ``parent``), each worked out
        once per evaluation (the options and the groups both ask; a group asks for its
        subgroups' entries again), with the counts under ``node`` by entry and by the way
        each was chosen (:meth:`Node.path_ref`) taken in one walk."""
        memo: dict[Any, Any] = self._cached(ev, ("entry-limits", parent), dict)
        here = memo.get("here")
        if here is None:
            here = memo["here"] = {}
            for n in node.children:
                here[n.entry_id] = here.get(n.entry_id, 0) + n.count
                ref = n.path_ref()
                here[ref] = here.get(ref, 0) + n.count

        def limit(child: Child) -> Limit:
            # An entry offered twice (plainly and through a link, or through two links) is
            # two options, each with its own limit where a constraint counts per link.
            key = (id(child.entry), id(child.link))
            found = memo.get(key)
            if found is None or found[0] is not child.entry or found[1] is not child.link:
                found = memo[key] = (
                    child.entry,
                    child.link,
                    self._entry_limit(ev, node, child, here.get),
                )
            lim: Limit = found[2]
            return lim

        return limit

    def _entry_limit(
        self,
        ev: Evaluation,
        node: Node,
        child: Child,
        here: Callable[[str, int], int] | None = None,
    ) -> Limit:
        """How many of ``child`` are under ``node`` and the tightest limits on it there
        (``here``: the selections directly under ``node`` by entry id and by
        :meth:`Node.path_ref`, when known). Each limit is against what its constraint counts,
        as the engine counts it: a constraint counted per link (``per_link``) counts only the
        selections made the way this option makes them (:meth:`Child.path_ref`), so an entry
        offered twice shows, on each of its options, that option's count against that
        option's limit. The count shown is the one the tightest maximum (else the highest
        minimum) is against; without either, the option's own (made through it)."""
        entry = child.entry
        if here is None:
            counted: dict[str, int] = {}
            for n in node.children:
                for ref in (n.entry_id, n.path_ref()):
                    if ref is not None:
                        counted[ref] = counted.get(ref, 0) + n.count
            here = counted.get
        own_ref = child.path_ref()
        index = ev.index  # (the session's index property works out the roster's factions)
        lows: list[tuple[int, int]] = []  # (limit, the count it is against)
        highs: list[tuple[int, int, int]] = []  # (room left, limit, the count it is against)

        def note(con: Constraint, owner: Entry, ref: str) -> None:
            value = ev.constraint_value(owner, con, node)
            if value < 0 or not float(value).is_integer():
                return
            got = here(ref, 0)
            if con.type == "max":
                highs.append((int(value) - got, int(value), got))
            else:
                lows.append((int(value), got))

        for con in self._sibling_constraints(entry, index):
            # (the engine counts per link as :meth:`Evaluation.query` does; an entry's
            # own id, named or not, is counted by the way the selection was made)
            if not con.per_link:
                note(con, entry, entry.id)
            elif con.child is None or own_ref == f"path:{entry.id}":
                note(con, entry, own_ref)
        if node.entry is not None:
            link_id = child.link.id if child.link else None
            by_child = self._child_constraints(node.entry, index)
            for named in (entry.id, link_id) if link_id != entry.id else (entry.id,):
                for con in by_child.get(named, ()) if named is not None else ():
                    if not con.per_link:
                        if con.child == entry.id:
                            note(con, node.entry, entry.id)
                    elif own_ref == f"path:{con.child}":
                        # Counted per link: the selections made through what it names,
                        # which is the way this option makes them.
                        note(con, node.entry, own_ref)
        if highs:
            _room, maximum, selected = min(highs)
            return Limit(selected, max(lo for lo, _ in lows) if lows else 0, maximum)
        if lows:
            minimum, selected = max(lows)
            return Limit(selected, minimum, None)
        return Limit(here(own_ref, 0), 0, None)

    def _sibling_constraints(
        self, entry: Entry, index: CatalogIndex | None = None
    ) -> tuple[Constraint, ...]:
        """The constraints of ``entry`` on how many of it its parent holds (scope ``parent``,
        counting selections of it), found once per entry (:meth:`_entry_limit` asks for
        each option of a unit at every evaluation) and kept in ``index`` (default: the
        session's)."""
        memo: dict[int, tuple[Entry, tuple[Constraint, ...]]] = (index or self.index).memo(
            "session.sibling_constraints"
        )
        found = memo.get(id(entry))
        if found is None or found[0] is not entry:
            found = memo[id(entry)] = (
                entry,
                tuple(
                    con
                    for con in entry.constraints
                    if con.field == "selections"
                    and con.child in (None, entry.id)
                    and con.scope == "parent"
                ),
            )
        return found[1]

    def _child_constraints(
        self, entry: Entry, index: CatalogIndex | None = None
    ) -> dict[str, tuple[Constraint, ...]]:
        """The constraints of ``entry`` on how many selections of one named child it holds
        (scope ``self``), by the id they name; found once per entry, kept in ``index``
        (default: the session's)."""
        memo: dict[int, tuple[Entry, dict[str, tuple[Constraint, ...]]]] = (
            index or self.index
        ).memo("session.child_constraints")
        found = memo.get(id(entry))
        if found is None or found[0] is not entry:
            by_child: dict[str, tuple[Constraint, ...]] = {}
            for con in entry.constraints:
                if con.scope == "self" and con.field == "selections" and con.child is not None:
                    by_child[con.child] = (*by_child.get(con.child, ()), con)
            found = memo[id(entry)] = (entry, by_child)
        return found[1]

    def group_limits(self, parent: Loc, ev: Evaluation | None = None) -> Mapping[str, Limit]:
        """For each choice group of the selection at ``parent`` (subgroups too): how many are
        chosen in it and how many are allowed. A group without limits of its own takes them
        from its entries' limits (a Sergeant group of one entry that must be taken once
        reads "exactly 1").

        Each group's limit is worked out when first asked for under ``ev`` (a pane asks for
        the headings it shows: a 40k squad has 48 groups, 47 of them hidden outside a
        Crusade), and kept with the evaluation's figures; reading them all gives what
        working them all out gives."""
        ev = ev or self.evaluate()
        found: Mapping[str, Limit] = self._cached(
            ev, ("groups", parent), lambda: self._group_limits(parent, ev)
        )
        return found

    def _group_limits(self, parent: Loc, ev: Evaluation) -> Mapping[str, Limit]:
        node = _ev_node(ev, parent)
        entry = node.entry if node is not None else None
        if node is None or entry is None:
            return {}
        return _GroupLimits(self, ev, node, parent)

    def _groups_of_entry(
        self, entry: Entry
    ) -> tuple[dict[str, tuple[Group, tuple[int, ...]]], dict[int, list[Child]]]:
        """Each group of ``entry`` (subgroups too) by id, with the groups it holds (itself
        first), in the catalog's order; and the entry's options by the group they are in:
        found once per entry."""
        from ..catalog import walk_groups

        memo: dict[
            int,
            tuple[Entry, dict[str, tuple[Group, tuple[int, ...]]], dict[int, list[Child]]],
        ] = self.index.memo("session.groups_inside")
        walked = memo.get(id(entry))
        if walked is None or walked[0] is not entry:
            by_id: dict[str, tuple[Group, tuple[int, ...]]] = {}
            for g in walk_groups(entry.groups):
                # (a group id met twice keeps the last, as the dict built from them did)
                by_id[g.id] = (g, tuple(dict.fromkeys(id(x) for x in walk_groups([g]))))
            own: dict[int, list[Child]] = {}
            for c in self.index.children(entry):
                if c.group is not None:
                    own.setdefault(id(c.group), []).append(c)
            walked = memo[id(entry)] = (entry, by_id, own)
        return walked[1], walked[2]

    def slot_limits(self, ev: Evaluation | None = None, loc: Loc = ()) -> dict[str, Limit]:
        """The force's category slots at the top of the roster (or of the force at ``loc``
        in a roster of several): category id -> limit."""
        ev = ev or self.evaluate()
        index = self.index
        if not loc and self.roster.forces is not None:
            return {}  # a roster of several forces: each force has its own slots
        top = _ev_node(ev, loc) if loc else ev.root
        if top is None:
            return {}
        if loc:
            force = top.force
        else:
            force_id = self.roster.header.force
            force = index.forces.get(force_id) if force_id else index.default_force()
        if force is None:
            return {}
        out = {}
        for slot in force.slots:
            got = sum(n.count for n in top.children if n.has_category(slot.category))
            out[slot.category] = Limit(got, slot.min, slot.max)
        return out

    def category_limits(self, parent: Loc, ev: Evaluation | None = None) -> dict[str, Limit]:
        """Limits on categories of what is selected under ``parent``: the force's slots at
        the top of the roster (:meth:`slot_limits`), else the selection's own constraints on
        a category of its children (a squad of exactly six models). Category id -> limit."""
        ev = ev or self.evaluate()
        if not parent or is_force_loc(parent):
            return self.slot_limits(ev, parent)
        node = _ev_node(ev, parent)
        entry = node.entry if node is not None else None
        if node is None or entry is None:
            return {}
        categories = self.index.categories
        lows: dict[str, int] = {}
        highs: dict[str, int] = {}
        for con in entry.constraints:
            if con.scope != "self" or con.field != "selections" or con.child not in categories:
                continue
            value = ev.constraint_value(entry, con, node)
            if value < 0 or not float(value).is_integer():
                continue
            cat = str(con.child)
            if con.type == "max":
                highs[cat] = min(int(value), highs.get(cat, int(value)))
            else:
                lows[cat] = max(int(value), lows.get(cat, 0))
        out = {}
        for cat in lows.keys() | highs.keys():
            got = sum(n.count for n in node.children if n.has_category(cat))
            hi = highs.get(cat)
            lo = min(lows.get(cat, 0), hi) if hi is not None else lows.get(cat, 0)
            out[cat] = Limit(got, lo, hi)
        return out

    def experience_costs(
        self, loc: Loc, ev: Evaluation | None = None
    ) -> dict[str | None, dict[str, float]]:
        """What the selection at ``loc`` costs (with everything under it) at each experience
        level the system has, and with none of its own (key ``None``: inherited), as the
        engine computes it."""
        ev = ev or self.evaluate()
        found: dict[str | None, dict[str, float]] = self._cached(
            ev, ("experience", loc), lambda: self._experience_costs(loc, ev)
        )
        return found

    def _experience_costs(self, loc: Loc, ev: Evaluation) -> dict[str | None, dict[str, float]]:
        node = _ev_node(ev, loc)
        if node is None or node.entry is None or node.data is None or node.parent is None:
            return {}
        what_if = _what_if(ev)
        keep: list[Node] = []
        out: dict[str | None, dict[str, float]] = {}
        for level in [None, *self.index.experience]:
            data = dataclasses.replace(node.data, experience=level)
            scratch = _scratch_node(self.index, data, node.entry, node.group, node.parent)
            keep.append(scratch)
            out[level] = dict(what_if.total_cost(scratch))
        return out

    def experience_rises(
        self, loc: Loc, ev: Evaluation | None = None
    ) -> dict[str | None, dict[str, float]]:
        """What the roster's total rises by, in each cost type the player is shown, were the
        selection at ``loc`` set to each experience level the system has, or to none of its
        own (key ``None``: inherited): 0 for the level it has now, less than 0 for a cheaper
        one. Worked out on a copy of the whole roster's tree (:meth:`Evaluation.rise_with`),
        since what a level costs may be the rules module's and reach other selections (those
        under it inherit it)."""
        ev = ev or self.evaluate()
        found: dict[str | None, dict[str, float]] = self._cached(
            ev, ("experience-rise", loc), lambda: self._experience_rises(loc, ev)
        )
        return found

    def _experience_rises(self, loc: Loc, ev: Evaluation) -> dict[str | None, dict[str, float]]:
        node = _ev_node(ev, loc)
        if node is None or node.entry is None or node.data is None or node.parent is None:
            return {}
        shown = self.shown_cost_types
        now = node.data.experience
        out: dict[str | None, dict[str, float]] = {}
        for level in [None, *self.index.experience]:
            if level == now:
                out[level] = dict.fromkeys(shown, 0.0)
                continue
            data = dataclasses.replace(node.data, experience=level)
            out[level] = ev.rise_with(
                node.parent, partial(_copy_subtree, node, data), [node], shown
            )
        return out

    def remove(self, loc: Loc) -> Loc:
        """Remove the selection at ``loc``; returns the selection to show next."""
        self._check_selection(loc)
        parent, index = loc[:-2], int(loc[-1])
        label = self._label(loc)
        n = self._seq_len(parent)
        after: Loc = (*parent, "selections", min(index, n - 2)) if n > 1 else parent
        self._apply(f"Remove {label}", [Delete(parent, index)], loc, after)
        return after

    def duplicate(self, loc: Loc, name: str | None = None) -> Loc:
        """Put a copy of the selection at ``loc`` right after it (named ``name`` if given);
        returns the copy's loc."""
        self._check_selection(loc)
        parent, index = loc[:-2], int(loc[-1])
        node = detached_copy(self.node(loc))
        if name:
            node["name"] = name
        new = (*parent, "selections", index + 1)
        self._apply(f"Duplicate {self._label(loc)}", [Insert(parent, index + 1, node)], loc, new)
        return new

    def apply(self, label: str, ops: Sequence[Op], focus_before: Loc, focus_after: Loc) -> None:
        """Apply ``ops`` as one undoable, journaled edit named ``label``: the way in for
        edits composed elsewhere (:mod:`armybuilder.building`)."""
        for op in ops:
            if isinstance(op, Insert | Delete | Move):
                if op.parent:
                    self._check_selection(op.parent)
            elif op.loc:
                self._check_selection(op.loc)
        self._apply(label, list(ops), focus_before, focus_after)

    def move(self, loc: Loc, delta: int) -> Loc:
        """Move the selection ``delta`` places among its siblings; returns its new loc."""
        self._check_selection(loc)
        parent, index = loc[:-2], int(loc[-1])
        to = max(0, min(self._seq_len(parent) - 1, index + delta))
        if to == index:
            return loc
        new = (*parent, "selections", to)
        word = "up" if delta < 0 else "down"
        self._apply(f"Move {self._label(loc)} {word}", [Move(parent, index, to)], loc, new)
        return new

    def set(self, loc: Loc, key: str, value: Any, label: str | None = None) -> None:
        """Set (``None``: remove) a key of the selection at ``loc`` (``()``: the roster)."""
        if loc:
            self._check_selection(loc)
        from ..yamlio import to_plain

        current = self.node(loc).get(key)
        if to_plain(current) == to_plain(value):
            return
        text = label or (f"Set {key}" if value is not None else f"Clear {key}")
        self._apply(text, [SetKey(loc, key, value)], loc, loc)

    def rename(self, loc: Loc, name: str | None) -> None:
        """Give a selection a custom name (empty: back to the entry's name), or rename the
        roster (``loc == ()``; a roster always has a name)."""
        name = (name or "").strip() or None
        if not loc:
            if name is None:
                raise EditError("a roster needs a name")
            self.set((), "name", name, f"Rename roster to {name}")
            return
        self.set(loc, "name", name, f"Rename to {name}" if name else "Clear custom name")

    def set_count(self, loc: Loc, count: int) -> None:
        """Set how many copies a selection stands for (at least 1)."""
        check_count(count)  # (a roster file holds at most MAX_COUNT; above, it reads as 1)
        node = self.node(loc)
        # A count brought in by a `<<:` merge key cannot be removed: write 1 over it.
        keep = count == 1 and "count" in node and not _own(node, "count")
        self.set(loc, "count", count if count != 1 or keep else None, f"Count {count}")

    def count_of(self, loc: Loc) -> int:
        value = self.node(loc).get("count", 1)
        return value if isinstance(value, int) and not isinstance(value, bool) else 1

    def set_experience(self, loc: Loc, level: str | None) -> None:
        if level is not None and level not in self.index.experience:
            raise EditError(f"unknown experience level {level!r}")
        name = self.index.experience[level].name if level else None
        self.set(loc, "experience", level, f"Experience {name}" if name else "Clear experience")

    def set_notes(self, loc: Loc, notes: str | None) -> None:
        self.set(loc, "notes", (notes or "").strip() or None, "Edit notes")

    @property
    def state_keys(self) -> tuple[StateKey, ...]:
        """The campaign state keys this roster's game system declares (its rules module)."""
        rules = self.system.rules
        return tuple(rules.state_keys()) if rules is not None else ()

    def set_state(self, loc: Loc, text: str) -> list[str]:
        """Set a selection's campaign ``state:`` from its one-line form (see
        :func:`parse_state`, checked against the system's :attr:`state_keys`); blank clears
        it. Raises :class:`EditError` (nothing changes) for text that is not ``key: value``
        pairs or a value of the wrong type or out of range. Returns the warnings about what
        was stored (an unknown key, with the nearest known one)."""
        if not loc:
            raise EditError("campaign state belongs to a selection, not to the roster")
        keys = self.state_keys
        state = parse_state(text, keys)
        self.set(loc, "state", state, "Edit campaign state")
        return state_warnings(state, keys)

    def set_limit(self, cost_type: str, value: float | None) -> None:
        """Set (``None``: remove) the roster's limit on a cost type."""
        from ruamel.yaml.comments import CommentedMap

        from ..yamlio import to_plain

        if cost_type not in self.index.cost_types:
            raise EditError(f"unknown cost type {cost_type!r}")
        from ..model.bounds import MAX_LIMIT

        if value is not None and not math.isfinite(value):
            # 1e999 typed in a number field reads as infinity: no roster file can hold it.
            raise EditError(f"a limit must be a number such as 1500 or 1500.5, not {value}")
        if value is not None and value < 0:
            raise EditError("a limit cannot be negative")
        if value is not None and value > MAX_LIMIT:
            # Nor one above the largest a roster file holds (the file would not read back).
            said = f"{value:,.0f}" if value < 1e15 else f"{value:.3g}"
            raise EditError(f"a limit can be at most {MAX_LIMIT:,}, not {said}")
        stored: float | int | None = value
        if value is not None and float(value).is_integer():
            stored = int(value)
        limits = self.roster.doc.get("limits")
        name = self.index.cost_types[cost_type].name
        label = f"{name} limit {stored}" if stored is not None else f"Clear {name} limit"
        if isinstance(limits, dict):
            if to_plain(limits.get(cost_type)) == stored:
                return
            ops: list[Op] = [SetKey(("limits",), cost_type, stored)]
            if stored is None and set(limits) <= {cost_type}:
                ops = [SetKey((), "limits", None)]
            self._apply(label, ops, (), ())
            return
        if stored is None:
            return
        lm = CommentedMap()
        lm[cost_type] = stored
        self._apply(label, [SetKey((), "limits", lm)], (), ())

    def choose(self, parent: Loc, group_id: str, entry_id: str | None) -> Loc | None:
        """Make ``entry_id`` the only choice of group ``group_id`` under ``parent``
        (``None``: no choice), with its defaults and what its catalog requires inside it
        (as the builder adds an entry); returns the new choice's loc."""
        entry = self.entry_at(parent) if parent else None
        if parent and entry is None:
            raise EditError("this selection is not in the catalog")
        from ..catalog import walk_groups

        groups = entry.groups if entry is not None else []
        group = next((g for g in walk_groups(groups) if g.id == group_id), None)
        if entry is None or group is None:
            raise EditError(f"{self.index.name_of(group_id)} is not a choice here")
        inside = {id(g) for g in walk_groups([group])}
        # The group's options by entry id and by their links' own ids.
        in_group: dict[str, Child] = {}
        for c in self.index.children(entry):
            if c.group is not None and id(c.group) in inside:
                in_group.setdefault(c.entry.id, c)
                if c.link is not None and c.link.id:
                    in_group.setdefault(c.link.id, c)
        if entry_id is not None and entry_id not in in_group:
            raise EditError(f"{self.index.name_of(entry_id)} is not a choice of that group")
        seq = self.node(parent).get("selections")
        items = list(seq) if isinstance(seq, list) else []
        current = self.group_members(parent, group)
        if (
            entry_id is not None
            and len(current) == 1
            and items[current[0]].get("entry") == entry_id
        ):
            return (*parent, "selections", current[0])
        ops: list[Op] = [Delete(parent, i) for i in reversed(current)]
        at = current[0] if current else len(items)
        new: Loc | None = None
        if entry_id is not None:
            child = in_group[entry_id]
            made = build_selection(
                self.index,
                child.entry,
                recorded=self.index.recorded_id(entry, child),
                required=True,
            )
            ops.append(Insert(parent, at, made))
            new = (*parent, "selections", at)
            label = f"Choose {child.entry.name}"
        else:
            label = f"Clear {self.index.name_of(group_id)}"
        if not ops:
            return None
        self._apply(label, ops, parent, parent)
        return new

    # ----------------------------------------------------------------- forces

    def force_entries(self) -> list[ForceEntry]:
        """The game system's force entries a force may be added as: a hidden one (40k's
        "Boarding Actions") is not offered, as BattleScribe does not offer it; a roster that
        holds one still opens."""
        return [f for f in self.system.model.forces if not f.hidden]

    def force_at(self, loc: Loc) -> ForceData | None:
        """The parsed force at ``loc`` (``None``: not a force of this roster)."""
        for f in self.roster.all_forces():
            if f.loc == tuple(loc):
                return f
        return None

    def force_locs(self) -> list[Loc]:
        """Every force's loc, child forces after their parent (none for a roster of one)."""
        return [f.loc for f in self.roster.all_forces()]

    def force_entry_ids(self, loc: Loc) -> frozenset[str]:
        """The entries the force at ``loc`` may take at its top: its faction's, and the
        roster's own (``custom:``)."""
        force = self.force_at(loc)
        faction = force.faction if force is not None and force.faction else self.roster.faction
        try:
            own = self.system.index(faction)
        except ArmybuilderError:
            return frozenset()
        mine = {c.entry.id for c in own.roots}
        everyone = {c.entry.id for f in self.roster.factions() for c in self._roots_of(f)}
        custom = {c.entry.id for c in self.index.roots} - everyone
        return frozenset(mine | custom)

    def _roots_of(self, faction: str) -> list[Child]:
        try:
            return self.system.index(faction).roots
        except ArmybuilderError:
            return []

    def _check_force(self, loc: Loc) -> None:
        if not is_force_loc(loc) or self.force_at(loc) is None:
            raise EditError("select a force first")

    def add_force(
        self,
        force: str,
        faction: str | None = None,
        name: str | None = None,
        parent: Loc = (),
    ) -> Loc:
        """Add a force of force entry ``force`` drawing on ``faction`` (default: the
        parent force's, or the roster's), at the end of the roster's forces or inside the
        force at ``parent``; returns its loc. A roster of one force becomes a roster of
        several (format 2): its selections become its first force, in the same undoable
        step."""
        from ruamel.yaml.comments import CommentedMap

        from ..model.roster import FORCES_FORMAT

        entries = {f.id: f for f in self.system.model.forces}
        if not entries:
            raise EditError(f"{self.system.name} has no force entries: its rosters are one force")
        if force not in entries:
            raise EditError(f"unknown force entry {force!r} (force entries: {', '.join(entries)})")
        above = self.force_at(parent) if parent else None
        faction = faction or (above.faction if above is not None else None) or self.roster.faction
        if faction not in self.system.factions:
            raise EditError(f"{self.system.name} has no faction {faction!r}")
        node = CommentedMap()
        node["force"] = force
        node["faction"] = faction
        name = (name or "").strip() or None
        if name:
            node["name"] = name
        label = f"Add force {name or entries[force].name}"
        doc = self.roster.doc
        if self.roster.forces is None:
            if parent:
                raise EditError("a roster of one force has no force to add into")
            first = CommentedMap()
            first["force"] = self.roster.header.force or next(iter(entries))
            first["faction"] = self.roster.faction
            sels = doc.get("selections")
            if sels is not None:
                first["selections"] = sels
            keys = list(doc.keys())
            at = keys.index("selections") if "selections" in keys else None
            ops: list[Op] = [SetKey((), "forces", [first, node], at)]
            if sels is not None:
                ops.append(SetKey((), "selections", None))
            if "force" in doc:
                ops.append(SetKey((), "force", None))
            ops.append(SetKey((), "format", FORCES_FORMAT))
            loc: Loc = ("forces", 1)
            self._apply(label, ops, (), loc)
            return loc
        if parent:
            self._check_force(parent)
        seq = (self.node(parent) if parent else doc).get("forces")
        index = len(seq) if isinstance(seq, list) else 0
        loc = (*parent, "forces", index)
        self._apply(label, [Insert(parent, index, node, key="forces")], parent or (), loc)
        return loc

    def remove_force(self, loc: Loc) -> Loc:
        """Remove the force at ``loc`` with everything in it; returns the loc to show next
        (the roster stays a roster of several forces, however many are left)."""
        self._check_force(loc)
        parent, index = loc[:-2], int(loc[-1])
        seq = (self.node(parent) if parent else self.roster.doc).get("forces")
        n = len(seq) if isinstance(seq, list) else 0
        after: Loc = (*parent, "forces", min(index, n - 2)) if n > 1 else parent
        label = f"Remove force {self.force_label(loc)}"
        self._apply(label, [Delete(parent, index, key="forces")], loc, after)
        return after

    def move_force(self, loc: Loc, delta: int) -> Loc:
        """Move the force at ``loc`` ``delta`` places among its siblings; returns its loc."""
        self._check_force(loc)
        parent, index = loc[:-2], int(loc[-1])
        seq = (self.node(parent) if parent else self.roster.doc).get("forces")
        n = len(seq) if isinstance(seq, list) else 0
        to = max(0, min(n - 1, index + delta))
        if to == index:
            return loc
        word = "up" if delta < 0 else "down"
        new = (*parent, "forces", to)
        label = f"Move force {self.force_label(loc)} {word}"
        self._apply(label, [Move(parent, index, to, key="forces")], loc, new)
        return new

    def rename_force(self, loc: Loc, name: str | None) -> Loc:
        """Give the force at ``loc`` a name (empty: back to its force entry's name);
        returns its loc."""
        self._check_force(loc)
        name = (name or "").strip() or None
        if self.node(loc).get("name") == name:
            return loc
        label = f"Rename force to {name}" if name else "Clear force name"
        self._apply(label, [SetKey(loc, "name", name)], loc, loc)
        return loc

    def force_label(self, loc: Loc) -> str:
        force = self.force_at(loc)
        if force is None:
            return "?"
        if force.name:
            return force.name
        entry = next((f for f in self.system.model.forces if f.id == force.force), None)
        return entry.name if entry is not None else force.force

    def _label(self, loc: Loc) -> str:
        if is_force_loc(loc):
            return self.force_label(loc)
        node = self.node(loc)
        name = node.get("name")
        if name:
            return str(name)
        entry = self.entry_at(loc)
        return entry.name if entry is not None else str(node.get("entry", "selection"))

    # ----------------------------------------------------------------- saving

    def save(self, path: Path | str | None = None, *, overwrite: bool = False) -> Path:
        """Save the roster (atomically; the previous file kept as ``.bak``).

        Raises :class:`~armybuilder.rosters.ChangedOnDiskError` (nothing written, nothing
        lost) when the file changed on disk since it was opened or last saved here (another
        window, a text editor), or when ``path`` is another file that exists: ask the user,
        then save again with ``overwrite=True`` (or to another path).
        """
        job = self.start_save(path, overwrite=overwrite)
        try:
            job.run()
        except BaseException:  # (run keeps an Exception for end_save; this is Ctrl+C)
            self.saving = False
            raise
        return self.end_save(job)

    def start_save(self, path: Path | str | None = None, *, overwrite: bool = False) -> SaveJob:
        """Begin a save in three steps, for a caller that writes the file in a worker thread:
        this (on the session's thread), :meth:`SaveJob.run` (on any thread: the dump and the
        atomic write, the slow part), then :meth:`end_save` (on the session's thread again).
        Until :meth:`end_save`, edits, undo and redo are refused (:class:`EditError`): what
        is written is the roster as it was here, and no edit can slip in unsaved."""
        target = Path(path) if path is not None else self.roster.path
        if target is None:
            raise EditError("this roster has no file yet; save it as a new file")
        if self.saving:
            raise EditError("the roster is being saved already")
        self.saving = True
        return SaveJob(self.roster, target, overwrite, self._state_token())

    def end_save(self, job: SaveJob) -> Path:
        """Finish the save begun by :meth:`start_save`: edits are allowed again, and the
        session takes the file as saved; raises what :meth:`SaveJob.run` met (the roster
        then stays as it was: unsaved)."""
        self.saving = False
        if job.error is not None:
            raise job.error
        written = job.written
        if written is None:
            raise EditError("the save did not run")
        old_journal = self.journal
        saved = self.roster.commit_save(written)
        with self._eval_lock:
            ev = self._evaluation
            if ev is not None and self._evaluation_generation == self.generation:
                # The evaluation shown is of the roster just saved: its exports give the
                # lines of the file written (none while edits were unsaved).
                ev.roster.follow_save(self.roster)
        self._saved_token = job.token
        self._saved_text = self.roster.text
        old_journal.discard()
        self.journal = Journal.for_roster(filed_as(self.roster), self.session_id)
        self.journal.discard()
        return saved

    def _not_saving(self) -> None:
        if self.saving:
            raise EditError("the roster is being saved; edit it again once it is written")

    def close(self, keep_recovery: bool = False) -> None:
        """End the session. Without unsaved changes (or unless asked), the journal goes."""
        if keep_recovery and self.dirty:
            self.journal.close()
        else:
            self.journal.discard()


class SaveJob:
    """The slow part of a save (:meth:`EditSession.start_save`): :meth:`run` dumps the
    roster and writes the file atomically, on any thread; what it met is kept for
    :meth:`EditSession.end_save`."""

    def __init__(self, roster: Roster, target: Path, overwrite: bool, token: int) -> None:
        self.roster = roster
        self.target = target
        self.overwrite = overwrite
        self.token = token
        self.written: WrittenSave | None = None
        self.error: Exception | None = None

    def run(self) -> None:
        try:
            self.written = self.roster.write_save(self.target, overwrite=self.overwrite)
        except Exception as exc:  # handed to end_save, on the session's thread
            self.error = exc


class _Pricer:
    """The options under one selection and what is shared in pricing them under one
    evaluation (limits, the choices each would replace, the what-if evaluation and the
    new nodes priced in it, which must live as long as it: their ids key its caches); each
    option priced once, when first asked for (:meth:`EditSession.option_infos`)."""

    def __init__(self, session: EditSession, parent: Loc, ev: Evaluation) -> None:
        self.session = session
        self.ev = ev
        self.node = node = _ev_node(ev, parent)
        self.options = options = session.options(parent, ev)
        # Each option by the id that adds it (an entry offered twice there is two options).
        parent_entry = session.entry_at(parent) if parent and not is_force_loc(parent) else None
        recorded = session.index.recorded_id
        self.ids = [recorded(parent_entry, c) for c in options]
        #: Where each id stands in :attr:`ids` (made when first asked for).
        self.at: dict[str, list[int]] | None = None
        self.done: dict[int, OptionInfo] = {}
        if node is None:
            return
        self.what_if = what_if = _what_if(ev)
        self.limits = session._limits_under(ev, node, parent)
        self.shown = session.shown_cost_types
        self.fields = session._cost_fields()
        # A price kept per entry holds only while the rules module adds no costs of its own
        # (they may read the whole roster: every price is then the roster's own rise).
        self.fixed = None if what_if.rules_add_costs else session._fixed_prices
        self.counted = session._cost_counts()
        self.replaced = session._replaced_by(node, ev)
        self.multiplicity = node.multiplicity()
        self.whole = self.counted is None or what_if.rules_add_costs
        self.keep: list[Node] = []  # what-if nodes live as long as ``what_if``

    def all(self) -> list[OptionInfo]:
        return [self.info(n) for n in range(len(self.options))]

    def some(self, ids: Collection[str]) -> list[OptionInfo]:
        # (the catalog asks for one option at a time while idle: found by its id, not by
        # going through every option's each time)
        at = self.at
        if at is None:
            at = {}
            for n, i in enumerate(self.ids):
                at.setdefault(i, []).append(n)
            self.at = at  # (whole before it is seen)
        found = sorted(n for i in set(ids) for n in at.get(i, ()))
        return [self.info(n) for n in found]

    def info(self, n: int) -> OptionInfo:
        found = self.done.get(n)
        if found is None:
            found = self.done[n] = self._price(n)
        return found

    def _price(self, n: int) -> OptionInfo:
        c, option_id = self.options[n], self.ids[n]
        node = self.node
        if node is None:
            return OptionInfo(option_id, Limit(0), {})
        s, ev, shown, fixed, counted = self.session, self.ev, self.shown, self.fixed, self.counted
        drop = self.replaced(c)
        if drop is None:  # already the choice of its pick-one group: adding changes nothing
            return OptionInfo(option_id, self.limits(c), dict.fromkeys(shown, 0.0))
        key = (id(c.entry), id(c.group), id(c.link))
        known = None if fixed is None else fixed.get(key)
        if known is not None and known[0] is not c.entry:
            known = None
        if known is None and fixed is not None:
            data = s._fresh(c.entry)
            scratch = _scratch_node(s.index, data, c.entry, c.group, node, c)
            self.keep.append(scratch)
            own = _priced(self.what_if, scratch, shown) if s._price_is_fixed(scratch) else None
            known = fixed[key] = (
                c.entry,
                own,
                own is not None and _counts_in(scratch, counted),
            )
        if (
            known is not None
            and known[1] is not None
            and (
                (not known[2] and not any(_counts_in(d, counted) for d in drop))
                or (not self.whole and self._counted_nowhere(c, drop))
            )
        ):
            # Nothing else's cost reads this option or what it replaces: the roster rises by
            # its own price, less the choices it replaces, times the copies of the selection
            # it is added under.
            price = known[1]
            costs = {
                ct: tidy_cost(
                    (price[ct] - sum(ev.total_cost(d).get(ct, 0.0) for d in drop))
                    * self.multiplicity
                )
                for ct in shown
            }
        else:
            own = known[1] if known is not None else None
            costs = s._rise(ev, node, c, drop, shown, self.whole, own)
        return OptionInfo(option_id, self.limits(c), costs)

    def _counted_nowhere(self, c: Child, drop: Sequence[Node]) -> bool:
        """Whether no selection of the roster whose cost may change from outside it counts
        ``c`` added here or ``drop`` taken away (:meth:`Evaluation.rise_is_own`): each such
        cost counts only in its own scopes, and those that hold this selection count none of
        what changes. Where an option's own price is fixed, this spares the copy of the tree
        :meth:`Evaluation.rise_with` makes for options that some modifier of the catalog
        counts, but only in scopes elsewhere (a squad's models, counted in their squad)."""
        s, node = self.session, self.node
        assert node is not None

        def add(parent: Node) -> Node:
            scratch = _scratch_node(s.index, s._fresh(c.entry), c.entry, c.group, parent, c)
            self.keep.append(scratch)
            return scratch

        return self.ev.rise_is_own(node, add, drop, self.fields)


class _GroupLimits(Mapping[str, Limit]):
    """:meth:`EditSession.group_limits` of one selection under one evaluation: every group
    of its entry (subgroups too) by id, each group's limit worked out when first read (its
    own entries' limits, and its subgroups', from :meth:`EditSession._limits_under`)."""

    def __init__(self, session: EditSession, ev: Evaluation, node: Node, parent: Loc) -> None:
        assert node.entry is not None
        self._groups, self._own = session._groups_of_entry(node.entry)
        self._ev = ev
        self._node = node
        self._limits = session._limits_under(ev, node, parent)
        self._counts: dict[int, int] | None = None
        self._done: dict[str, Limit] = {}

    def __getitem__(self, group_id: str) -> Limit:
        found = self._done.get(group_id)
        if found is not None:
            return found
        g, inside = self._groups[group_id]  # (KeyError: not a group of this entry)
        counts = self._counts
        if counts is None:
            counts = self._counts = {}
            for n in self._node.children:
                if n.group is not None:
                    counts[id(n.group)] = counts.get(id(n.group), 0) + n.count
        chosen = sum(counts.get(i, 0) for i in inside)
        members = [self._limits(c) for i in inside for c in self._own.get(i, ())]
        lo, hi = self._ev.group_bounds(g, self._node) if g.modifiers else (g.min, g.max)
        if hi is None and members and all(lim.maximum is not None for lim in members):
            hi = sum(lim.maximum or 0 for lim in members)
        lo = max(lo, sum(lim.minimum for lim in members))
        if hi is not None:
            lo = min(lo, hi)
        found = self._done[group_id] = Limit(chosen, lo, hi)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._groups)

    def __len__(self) -> int:
        return len(self._groups)

    def __repr__(self) -> str:
        return f"_GroupLimits({dict(self)!r})"
