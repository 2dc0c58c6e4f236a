"""Catalog-aware roster edits: add an entry together with the choices it comes with.

:meth:`armybuilder.rosters.Roster.add` appends exactly one selection. :func:`add_entry` is what
a player means by "add a platoon": the entry, plus, recursively, the default choice of each of
its groups (a trooper arrives with its knife, side arm and armour; a platoon with its motive).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .catalog import CatalogIndex, Child, walk_groups
from .errors import ArmybuilderError
from .model.catalog import Entry
from .rosters import Loc, Roster

if TYPE_CHECKING:
    from .rules.engine import Node


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
    """Add, under the selection at ``loc``, what its catalog minimums still ask for.

    Each minimum is counted as the rules engine counts it: one counted per link
    (``per_link``) sees only the selections made through its own option (an entry offered
    twice, through two links, is two counts), any other sees every selection of the entry.
    What is added goes in through the option whose minimum asks for it (by the id that
    reads back as that option, :meth:`CatalogIndex.recorded_id`), and counts toward every
    minimum that follows: one shared minimum of an entry offered twice is met once, not once
    per option."""
    from .rules.engine import evaluate

    ev = evaluate(roster, index, None)
    node = _find(ev.root, loc)
    if node is None or node.entry is None:
        return
    wanted: list[tuple[Child, int]] = []
    added: dict[str, int] = {}  # what is to be added, by everything it counts as

    def want(child: Child, need: int) -> None:
        wanted.append((child, need))
        refs = {child.entry.id, child.path_ref(), *child.entry.categories}
        if child.link is not None and child.link.id:
            refs.add(child.link.id)
        for ref in refs:
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
    for child, need in wanted:
        option = index.recorded_id(node.entry, child)
        if child.entry.type == "unit":
            for _ in range(need):
                add_entry(roster, index, loc, option, fill=True)
        else:
            add_entry(roster, index, loc, option, count=need, fill=True)


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
