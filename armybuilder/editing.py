"""Catalog-aware roster edits: add an entry together with the choices it comes with.

:meth:`armybuilder.rosters.Roster.add` appends exactly one selection. :func:`add_entry` is what
a player means by "add a platoon": the entry, plus, recursively, the default choice of each of
its groups (a trooper arrives with its knife, side arm and armour; a platoon with its motive).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .catalog import CatalogIndex, Child, walk_groups
from .errors import ArmybuilderError
from .model.catalog import Entry
from .rosters import Loc, Roster

if TYPE_CHECKING:
    from .rules.engine import Evaluation, Node


class NotAnOptionError(ArmybuilderError):
    """The entry cannot be selected at that place."""


def entry_at(roster: Roster, index: CatalogIndex, loc: Loc) -> Entry | None:
    """The catalog entry of the selection at ``loc`` (``None`` for the top level)."""
    entry: Entry | None = None
    for i in range(2, len(loc) + 1, 2):
        node = roster.node(loc[:i])
        child = index.child(entry, str(node.get("entry")))
        if child is None:
            raise NotAnOptionError(f"the selection at {loc[:i]} is not in the catalog")
        entry = child.entry
    return entry


def add_entry(
    roster: Roster,
    index: CatalogIndex,
    parent: Loc,
    entry_id: str,
    count: int = 1,
    name: str | None = None,
    defaults: bool = True,
    fill: bool = False,
) -> Loc:
    """Add ``entry_id`` under ``parent`` with its groups' defaults; returns the new loc.

    With ``fill``, also add what the catalog asks for at least (its minimum constraints, as
    modified for this place): a formation arrives with its standard sub-formations and
    figures. Units are added one selection each, models and upgrades as one selection with a
    count.
    """
    parent_entry = entry_at(roster, index, parent)
    child = index.child(parent_entry, entry_id)
    if child is None:
        where = "at the top level" if parent_entry is None else f"in {parent_entry.name}"
        options = (
            ", ".join(_id_and_name(c.entry.id, c.entry.name) for c in index.children(parent_entry))
            or "none"
        )
        what = _id_and_name(
            repr(entry_id), index.name_of(entry_id) if index.knows(entry_id) else ""
        )
        raise NotAnOptionError(f"{what} cannot be selected {where} (options: {options})")
    loc = roster.add(parent, entry_id, count=count, name=name)
    if defaults:
        _add_defaults(roster, index, loc, child.entry)
    if fill:
        fill_minimums(roster, index, loc)
    return loc


def fill_minimums(roster: Roster, index: CatalogIndex, loc: Loc) -> None:
    """Add, under the selection at ``loc``, what its catalog minimums still ask for, then do
    the same under each selection it holds.

    Each minimum is counted as the rules engine counts it: one counted per link
    (``per_link``) sees only the selections made through its own option (an entry offered
    twice, through two links, is two counts), any other sees every selection of the entry.
    What is added goes in through the option whose minimum asks for it (by the id that
    reads back as that option, :meth:`CatalogIndex.recorded_id`), and counts toward every
    minimum that follows: one shared minimum of an entry offered twice is met once, not once
    per option.

    The entries' own minimums come first; then a group that still holds fewer choices than
    its minimum (as modified for this place) gets more of its default choice, up to what
    that choice's own maximum leaves room for: a squad whose group asks for ten models, its
    sergeant one and its troopers at least seven, arrives with nine troopers. A model or an
    upgrade already there (a group's default) gets the more by its count rather than as a
    second selection of the same option; a unit is added one selection each. What is held
    under the selection, defaults included, is then filled the same way."""
    from .rules.engine import evaluate

    ev = evaluate(roster, index, None)
    node = _find(ev.root, loc)
    if node is None or node.entry is None:
        return
    wanted: list[tuple[Child, int]] = []
    added: dict[str, int] = {}  # what is to be added, by everything it counts as

    def want(child: Child, need: int) -> None:
        wanted.append((child, need))
        for ref in _counts_as(child):
            added[ref] = added.get(ref, 0) + need

    for child, con in index.child_constraints(node.entry):
        if con.type != "min" or con.scope != "parent" or con.child or con.field != "selections":
            continue
        # (as the engine checks it: counted per link by the way this option makes them)
        ref = child.path_ref() if con.per_link else child.entry.id
        have = int(ev.query(node, "self", None, "selections", bool(con.deep), ref))
        need = int(ev.constraint_value(child.entry, con, node)) - have - added.get(ref, 0)
        if need > 0:
            want(child, need)
    for con in node.entry.constraints:
        if con.type != "min" or con.scope != "self" or not con.child or con.field != "selections":
            continue
        per_link = con.per_link and ev.counts_per_link(con.child)
        candidates = [
            c
            for c in index.children(node.entry)
            if (
                c.path_ref() == f"path:{con.child}"
                if per_link
                else c.entry.id == con.child or con.child in c.entry.categories
            )
        ]
        if len(candidates) != 1:
            continue  # a choice for the player, not ours to make
        have = int(
            ev.query(
                node, "self", con.child, "selections", con.deep, node.entry.id, per_link=per_link
            )
        )
        ref = candidates[0].path_ref() if per_link else con.child
        need = int(ev.constraint_value(node.entry, con, node)) - have - added.get(ref, 0)
        if need > 0:
            want(candidates[0], need)
    _top_up_groups(ev, index, node, wanted, want)
    filled: set[Loc] = set()
    for child, need in wanted:
        option = index.recorded_id(node.entry, child)
        if child.entry.type == "unit":
            for _ in range(need):
                filled.add(add_entry(roster, index, loc, option, fill=True))
            continue
        held = _held(roster, loc, option)
        if held is not None:
            roster.set(held, "count", _count_of(roster.node(held)) + need)
        else:
            add_entry(roster, index, loc, option, count=need)
    for i in range(len(roster.node(loc).get("selections") or ())):
        sub = (*loc, "selections", i)
        if sub not in filled:
            fill_minimums(roster, index, sub)


def _counts_as(child: Child) -> set[str]:
    """Every reference a selection of ``child`` counts toward."""
    refs = {child.entry.id, child.path_ref(), *child.entry.categories}
    if child.link is not None and child.link.id:
        refs.add(child.link.id)
    return refs


def _top_up_groups(
    ev: Evaluation,
    index: CatalogIndex,
    node: Node,
    wanted: list[tuple[Child, int]],
    want: Callable[[Child, int], None],
) -> None:
    """Ask (``want``) for more of each group's default choice where the group still holds
    fewer choices than its minimum once ``wanted`` is added (choices in a subgroup count
    toward the groups above it, as the engine counts them); no more than the default's own
    maxima in the selection leave room for. A hidden group, or a hidden default, asks for
    nothing."""
    entry = node.entry
    assert entry is not None
    for g, ids in index.group_checks(entry):
        if not g.default:
            continue
        low = ev.group_bounds(g, node)[0] if g.modifiers else g.min
        if low <= 0 or ((g.hidden or g.modifiers) and ev.is_group_hidden(g, node)):
            continue
        got = sum(c.count for c in node.children if c.group is not None and id(c.group) in ids)
        got += sum(need for c, need in wanted if c.group is not None and id(c.group) in ids)
        short = low - got
        if short <= 0:
            continue
        default = index.default_child(entry, g)
        if default is None or ev.is_hidden(default.entry, node):
            continue
        room = _room(ev, index, node, default, wanted)
        if room is not None:
            short = min(short, room)
        if short > 0:
            want(default, short)


def _room(
    ev: Evaluation, index: CatalogIndex, node: Node, child: Child, wanted: list[tuple[Child, int]]
) -> int | None:
    """How many more selections of ``child`` its maxima in ``node`` allow (``None``: no
    limit), counting what ``wanted`` adds."""
    room: int | None = None
    for c, con in index.child_constraints(node.entry):
        if c is not child or con.type != "max" or con.scope != "parent" or con.child:
            continue
        if con.field != "selections":
            continue
        most = ev.constraint_value(child.entry, con, node)
        if most < 0:
            continue  # no limit
        ref = child.path_ref() if con.per_link else child.entry.id
        have = int(ev.query(node, "self", None, "selections", bool(con.deep), ref))
        have += sum(need for w, need in wanted if ref in _counts_as(w))
        left = max(0, int(most) - have)
        room = left if room is None else min(room, left)
    return room


def _held(roster: Roster, loc: Loc, option: str) -> Loc | None:
    """The first selection of ``option`` directly under ``loc`` that carries no name of its
    own (what the defaults made), if any."""
    for i, sel in enumerate(roster.node(loc).get("selections") or ()):
        if sel.get("entry") == option and not sel.get("name"):
            return (*loc, "selections", i)
    return None


def _count_of(sel: Any) -> int:
    count = sel.get("count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) else 1


def _find(root: Node, loc: Loc) -> Node | None:
    for n in root.walk():
        if n.loc == loc:
            return n
    return None


def _id_and_name(ref: str, name: str) -> str:
    """An id the player types, with the name it stands for where that says more."""
    return f"{ref} ({name})" if name and name != ref.strip("'") else ref


def _add_defaults(roster: Roster, index: CatalogIndex, loc: Loc, entry: Entry) -> None:
    for group in walk_groups(entry.groups):
        if group.default:
            child = index.default_child(entry, group)
            recorded = index.recorded_id(entry, child) if child is not None else group.default
            sub = roster.add(loc, recorded, count=group.default_count)
            if child is not None:
                _add_defaults(roster, index, sub, child.entry)
