"""Changing a roster's (or one force's) faction, keeping its selections where they still fit.

:func:`plan_faction_change` works out, without changing anything, what becomes of each
selection when the roster (or the force at a loc) draws on another faction's catalog; the
front end shows that before the player confirms. :func:`change_faction` applies it as one
undoable step.

Each selection is looked for among the options the new catalog offers where it sits (the
top level, or the options of its parent's new entry): first by its entry id, then by the
name of the entry it was (case and spacing ignored). A selection found either way keeps its
custom name, count, experience, notes, campaign state and children (only its ``entry:`` key
changes when it was found by name), and its children are looked for in turn. A selection
found neither way is **kept as it is**: it becomes an unknown entry, which validation
reports and the player fixes (the quick fix offers close ids) or deletes. Nothing is
dropped; what is under an unknown selection is kept unchanged too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ArmybuilderError
from .operations import EditError, Loc, Op, SetKey, is_force_loc

if TYPE_CHECKING:
    from ..catalog import CatalogIndex
    from ..model.catalog import Entry
    from .editor import EditSession


@dataclass(frozen=True)
class Refit:
    """What becomes of one selection: found by id, by name (``new`` differs from ``old``),
    or not at all (``new`` is ``None``: kept as an unknown entry)."""

    loc: Loc
    #: What the player reads: the selection's own name, else its entry's.
    label: str
    old: str
    new: str | None
    #: How many selections are inside it (kept unchanged when it does not fit).
    inside: int = 0

    @property
    def fits(self) -> bool:
        return self.new is not None


@dataclass
class FactionChange:
    """The plan (and, once applied, the record) of a faction change."""

    #: Where: ``()`` for the roster, else a force's loc.
    where: Loc
    old_faction: str
    new_faction: str
    #: Every selection looked at, in document order (those inside an unfit one are not).
    refits: list[Refit] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)

    @property
    def by_id(self) -> list[Refit]:
        return [r for r in self.refits if r.new == r.old]

    @property
    def by_name(self) -> list[Refit]:
        return [r for r in self.refits if r.new is not None and r.new != r.old]

    @property
    def unfit(self) -> list[Refit]:
        return [r for r in self.refits if r.new is None]

    def summary(self, new_name: str | None = None) -> str:
        """One paragraph for the player: how many kept, which matched by name, which no
        longer fit (kept as unknown entries)."""
        name = new_name or self.new_faction
        parts = [f"{len(self.by_id)} kept as they are"]
        if self.by_name:
            names = _some(f"{r.label} → {r.new}" for r in self.by_name)
            parts.append(f"{len(self.by_name)} matched by name ({names})")
        unfit = self.unfit
        if unfit:
            names = _some(r.label + (f" with {r.inside} inside" if r.inside else "") for r in unfit)
            parts.append(
                f"{len(unfit)} no longer fit, kept as unknown entries to fix or delete ({names})"
            )
        return f"To {name}: " + "; ".join(parts) + "."


#: How many selections a summary names (the rest are counted).
NAMED = 8


def _some(names: Iterable[str]) -> str:
    items = list(names)
    more = len(items) - NAMED
    return ", ".join(items[:NAMED]) + (f" and {more} more" if more > 0 else "")


def _count_inside(node: Any) -> int:
    sels = node.get("selections") if isinstance(node, dict) else None
    if not isinstance(sels, list):
        return 0
    return sum(1 + _count_inside(s) for s in sels)


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _selections(node: Any, loc: Loc) -> Iterator[tuple[Loc, Any]]:
    sels = node.get("selections") if isinstance(node, dict) else None
    if isinstance(sels, list):
        for i, s in enumerate(sels):
            yield (*loc, "selections", i), s


def _scopes(session: EditSession, where: Loc) -> list[Loc]:
    """The owners of the selections whose faction changes: the roster (format 1), a force,
    or, for the roster of several forces, every force that takes the roster's faction."""
    roster = session.roster
    if where:
        return [where]
    if roster.forces is None:
        return [()]
    return [f.loc for f in roster.all_forces() if not f.faction]


def plan_faction_change(session: EditSession, faction: str, where: Loc = ()) -> FactionChange:
    """What changing the faction of the roster (``where == ()``) or of the force at
    ``where`` to ``faction`` would do (nothing is changed). Raises :class:`EditError` for a
    faction the system lacks or a loc that is not a force."""
    from ..catalog import custom_catalog

    system = session.system
    if faction not in system.factions:
        known = ", ".join(sorted(system.factions))
        raise EditError(f"{system.name} has no faction {faction!r} (factions: {known})")
    roster = session.roster
    if where:
        if not is_force_loc(where) or session.force_at(where) is None:
            raise EditError("select a force (or the roster) to change its faction")
        force = session.force_at(where)
        assert force is not None
        old = force.faction or roster.faction
    else:
        old = roster.faction
    plan = FactionChange(tuple(where), old, faction)
    if faction == old:
        return plan
    old_index = session.index
    try:
        new_index: CatalogIndex = system.index(faction)
        if roster.custom is not None:
            here = roster.path or Path(roster.file)
            custom, _ = custom_catalog(roster.custom, here, system, faction)
            if custom is not None:
                new_index = system.index_with(faction, custom)
    except ArmybuilderError as exc:
        raise EditError(f"cannot read the {faction} catalog: {exc}") from exc

    def visit(
        loc: Loc, node: Any, old_parent: Entry | None, new_parent: Entry | None, known: bool
    ) -> None:
        entry_id = str(node.get("entry", "")) if isinstance(node, dict) else ""
        was = old_index.child(old_parent, entry_id) if known else None
        name = node.get("name") if isinstance(node, dict) else None
        label = str(name) if name else (was.entry.name if was is not None else entry_id)
        found = new_index.child(new_parent, entry_id)
        if found is None and was is not None:
            wanted = _key(was.entry.name)
            found = next(
                (
                    c
                    for c in new_index.children(new_parent)
                    if not c.entry.hidden and _key(c.entry.name) == wanted
                ),
                None,
            )
        if found is None:
            plan.refits.append(Refit(loc, label, entry_id, None, _count_inside(node)))
            return
        plan.refits.append(Refit(loc, label, entry_id, found.entry.id))
        if found.entry.id != entry_id:
            plan.ops.append(SetKey(loc, "entry", found.entry.id))
        for child_loc, child in _selections(node, loc):
            visit(child_loc, child, was.entry if was else None, found.entry, was is not None)

    for scope in _scopes(session, plan.where):
        owner = session.node(scope)
        for loc, node in _selections(owner, scope):
            visit(loc, node, None, None, True)
    return plan


def change_faction(session: EditSession, faction: str, where: Loc = ()) -> FactionChange:
    """Change the faction of the roster (``where == ()``) or of the force at ``where`` to
    ``faction`` as one undoable edit, keeping each selection where it still fits (see the
    module docstring); returns what was done. Changing to the same faction does nothing."""
    plan = plan_faction_change(session, faction, where)
    if plan.new_faction == plan.old_faction:
        return plan
    roster = session.roster
    if plan.where:
        head: Op = SetKey(plan.where, "faction", faction)
    else:
        current = roster.doc.get("faction")
        value: Any = faction
        if isinstance(current, list):
            value = [faction, *(f for f in current[1:] if f != faction)]
        head = SetKey((), "faction", value)
    name = session.system.factions[faction].name
    where_text = f" of {session.force_label(plan.where)}" if plan.where else ""
    session._apply(
        f"Change faction{where_text} to {name}",
        [head, *plan.ops],
        plan.where,
        plan.where,
    )
    return plan
