"""Catalog-aware roster edits: add an entry together with the choices it comes with.

:meth:`armybuilder.rosters.Roster.add` appends exactly one selection. :func:`add_entry` is what
a player means by "add a platoon": the entry, plus, recursively, the default choice of each of
its groups (a trooper arrives with its knife, side arm and armour; a platoon with its motive).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .catalog import CatalogIndex, walk_groups
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
        options = ", ".join(c.entry.id for c in index.children(parent_entry)) or "none"
        raise NotAnOptionError(f"{entry_id!r} cannot be selected {where} (options: {options})")
    loc = roster.add(parent, entry_id, count=count, name=name)
    if defaults:
        _add_defaults(roster, index, loc, child.entry)
    if fill:
        fill_minimums(roster, index, loc)
    return loc


def fill_minimums(roster: Roster, index: CatalogIndex, loc: Loc) -> None:
    """Add, under the selection at ``loc``, what its catalog minimums still ask for."""
    from .rules.engine import evaluate

    ev = evaluate(roster, index, None)
    node = _find(ev.root, loc)
    if node is None or node.entry is None:
        return
    wanted: list[tuple[Entry, int]] = []
    for child, con in index.child_constraints(node.entry):
        if con.type != "min" or con.scope != "parent" or con.child or con.field != "selections":
            continue
        need = int(ev.constraint_value(child.entry, con, node)) - int(
            ev.query(node, "self", None, "selections", False, child.entry.id)
        )
        if need > 0:
            wanted.append((child.entry, need))
    for con in node.entry.constraints:
        if con.type != "min" or con.scope != "self" or not con.child or con.field != "selections":
            continue
        candidates = [
            c.entry
            for c in index.children(node.entry)
            if c.entry.id == con.child or con.child in c.entry.categories
        ]
        if len(candidates) != 1:
            continue  # a choice for the player, not ours to make
        need = int(ev.constraint_value(node.entry, con, node)) - int(
            ev.query(node, "self", con.child, "selections", con.deep, node.entry.id)
        )
        if need > 0:
            wanted.append((candidates[0], need))
    for entry, need in wanted:
        if entry.type == "unit":
            for _ in range(need):
                add_entry(roster, index, loc, entry.id, fill=True)
        else:
            add_entry(roster, index, loc, entry.id, count=need, fill=True)


def _find(root: Node, loc: Loc) -> Node | None:
    for n in root.walk():
        if n.loc == loc:
            return n
    return None


def _add_defaults(roster: Roster, index: CatalogIndex, loc: Loc, entry: Entry) -> None:
    for group in walk_groups(entry.groups):
        if group.default:
            child = index.default_child(entry, group)
            recorded = index.recorded_id(entry, child) if child is not None else group.default
            sub = roster.add(loc, recorded, count=group.default_count)
            if child is not None:
                _add_defaults(roster, index, sub, child.entry)
