"""Building a roster faster: standard formations, names in series, split and merge.

Everything here is an edit a player makes in one step and undoes in one step: it composes
the session's invertible operations (:class:`~armybuilder.session.Insert`, ``Delete``,
``SetKey``) and applies them through :meth:`EditSession.apply`. Nothing here imports a
front end; the builder and scripts share it.

* :func:`add_standard` adds a unit at its **standard strength and loadout**, as its catalog
  entry declares it in data (``standard:``, see docs/catalog-format.md): an order of battle's
  group with its headquarters and three squads, a squad with its sergeant and two
  heavy weapons.
* :func:`next_in_series` names a copy after its original: a copy of "1st Squad" is
  "2nd Squad" (or the next number free among its siblings).
* :func:`split` turns a counted selection (Squad ×4) into separate selections that can then
  differ; :func:`merge` puts identical siblings back into one counted selection.
* :func:`sort` puts a unit's selections in the catalog's order or by name.
* :func:`find_everywhere` finds an entry by name wherever the roster can take it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .catalog import CatalogIndex, walk_groups
from .model.catalog import Entry, StandardSelection
from .yamlio import to_plain

if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

    from .catalog import Child
    from .session import EditSession, Loc

_SERIES = re.compile(r"^(\d+)(?:st|nd|rd|th) (.+)$")


def ordinal(n: int) -> str:
    """``1`` -> ``1st``, ``2`` -> ``2nd``, ``11`` -> ``11th``, ``23`` -> ``23rd``."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return f"{n}th"
    return f"{n}{('st', 'nd', 'rd')[n % 10 - 1]}"


# --------------------------------------------------------------------------- standard


def has_standard(entry: Entry) -> bool:
    """Whether the catalog declares a standard make-up for ``entry``."""
    return bool(entry.standard)


def standard_problems(index: CatalogIndex, entry: Entry) -> list[str]:
    """What is wrong with ``entry``'s ``standard`` (each item must be one of its options)."""
    out: list[str] = []

    def check(owner: Entry, items: Sequence[StandardSelection], where: str) -> None:
        for i, item in enumerate(items):
            child = index.child(owner, item.entry)
            if child is None:
                out.append(f"{where}[{i}]: {item.entry!r} is not an option of {owner.name}")
                continue
            if item.selections is not None:
                check(child.entry, item.selections, f"{where}[{i}].selections")

    check(entry, entry.standard, f"{entry.id}.standard")
    return out


class StandardError(ValueError):
    """An entry's standard names something that cannot be selected there."""


def build_standard(
    index: CatalogIndex,
    entry: Entry,
    name: str | None = None,
    count: int = 1,
    items: Sequence[StandardSelection] | None = None,
    recorded: str | None = None,
) -> CommentedMap:
    """A new selection of ``entry`` at its standard strength and loadout, in memory.

    ``items`` (default: the entry's own ``standard``) are added after the defaults of the
    groups they do not choose in; an item chosen in a group replaces that group's default.
    Without any standard this is the same selection plain "add" makes (groups' defaults).
    ``recorded``: the id the file names it by, where that is not the entry's
    (:meth:`CatalogIndex.recorded_id`).
    """
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    items = entry.standard if items is None else items
    node = CommentedMap()
    node["entry"] = recorded or entry.id
    if count != 1:
        node["count"] = count
    if name:
        node["name"] = name
    covered: set[str] = set()
    resolved = []
    for item in items:
        child = index.child(entry, item.entry)
        if child is None:
            raise StandardError(
                f"the standard of {entry.name} names {item.entry!r}, which is not one of its "
                "options (the catalog needs fixing)"
            )
        if child.group is not None:
            covered.add(child.group.id)
        resolved.append((item, child.entry, index.recorded_id(entry, child)))
    children = CommentedSeq()
    for group in walk_groups(entry.groups):
        if group.default and group.id not in covered:
            child = index.default_child(entry, group)
            if child is not None:
                children.append(
                    build_standard(
                        index,
                        child.entry,
                        count=group.default_count,
                        recorded=index.recorded_id(entry, child),
                    )
                )
    for item, sub, as_id in resolved:
        if sub.type == "unit" and item.count > 1 and item.name is None:
            for i in range(item.count):
                children.append(
                    build_standard(
                        index, sub, f"{ordinal(i + 1)} {sub.name}", 1, item.selections, as_id
                    )
                )
        else:
            children.append(
                build_standard(index, sub, item.name, item.count, item.selections, as_id)
            )
    if children:
        node["selections"] = children
    return node


def add_standard(session: EditSession, parent: Loc, entry_id: str) -> Loc:
    """Add ``entry_id`` under ``parent`` at its standard strength and loadout, as one
    undoable edit; returns the new selection's location. A pick-one group's current choice
    is swapped out as a plain add would do (see :meth:`EditSession.add`)."""
    from .session import Delete, EditError, Insert, Op, build_selection

    parent_entry = session.entry_at(parent) if parent else None
    if parent and parent_entry is None:
        raise EditError("this selection is not in the catalog; nothing can be added to it")
    child = session.index.child(parent_entry, entry_id)
    if child is None:
        where = "at the top level" if parent_entry is None else f"in {parent_entry.name}"
        raise EditError(f"{session.index.name_of(entry_id)} cannot be selected {where}")
    recorded = session.index.recorded_id(parent_entry, child)
    try:
        if has_standard(child.entry):
            node = build_standard(session.index, child.entry, recorded=recorded)
        else:
            # No standard declared: as the builder's add makes it (its defaults and what
            # its catalog requires inside it).
            node = build_selection(session.index, child.entry, recorded=recorded, required=True)
    except StandardError as exc:
        raise EditError(str(exc)) from None
    slot = session.slot_for(parent, entry_id)
    if slot.full is not None:
        raise EditError(slot.full)
    what = f"standard {child.entry.name}" if has_standard(child.entry) else child.entry.name
    ops: list[Op] = []
    if slot.replaces:
        ops = [Delete(parent, i) for i in reversed(slot.replaces)]
        at = slot.replaces[0]
        label = f"Swap in {what}"
    else:
        at = len(_selections(session, parent))
        label = f"Add {what}"
    ops.append(Insert(parent, at, node))
    session.apply(label, ops, parent, parent)
    return (*parent, "selections", at)


# --------------------------------------------------------------------------- series names


def _selections(session: EditSession, parent: Loc) -> list[Any]:
    seq = session.node(parent).get("selections")
    return list(seq) if isinstance(seq, list) else []


def display_name(session: EditSession, node: Any) -> str:
    """The name a selection shows: its custom name, else its entry's name."""
    name = node.get("name") if isinstance(node, dict) else None
    if isinstance(name, str) and name.strip():
        return name
    entry_id = str(node.get("entry")) if isinstance(node, dict) else "?"
    return session.index.name_of(entry_id)


def next_in_series(session: EditSession, loc: Loc) -> str | None:
    """The name a copy of the selection at ``loc`` gets: the next free number of its series
    among its siblings ("1st Squad" -> "2nd Squad"; an unnamed unit "Rifle
    Squad" -> "2nd Rifle Squad", or "4th Rifle Squad" beside two more unnamed ones: the
    number after the highest taken and after the series' members). ``None`` for models
    and upgrades (a copy keeps the name)."""
    node = session.node(loc)
    entry = session.entry_at(loc)
    name = display_name(session, node)
    match = _SERIES.match(name)
    if match is None and (entry is None or entry.type != "unit"):
        return None
    base = match.group(2) if match else name
    used: set[int] = set()
    # Siblings of the series: each unnamed one ("Rifle Squad") is one of its members too, so
    # a copy among three unnamed squads is the 4th, not a second "2nd".
    members = 0
    for sib in _selections(session, loc[:-2]):
        if not isinstance(sib, dict):
            continue
        sname = display_name(session, sib)
        m = _SERIES.match(sname)
        if m and m.group(2) == base:
            used.add(int(m.group(1)))
            members += 1
        elif sname == base:
            used.add(1)
            members += 1
    n = max(max(used, default=1), members) + 1
    return f"{ordinal(n)} {base}"


def duplicate(session: EditSession, loc: Loc) -> Loc:
    """Put a copy of the selection right after it, named next in its series (one edit)."""
    return session.duplicate(loc, name=next_in_series(session, loc))


# --------------------------------------------------------------------------- split / merge


def _plain_without(node: Any, *keys: str) -> Any:
    plain = to_plain(node)
    if isinstance(plain, dict):
        for k in keys:
            plain.pop(k, None)
    return plain


#: Most selections one split makes: a split of ×10,000 froze the builder for minutes, and a
#: list of that many lines is never what a player wants to edit one by one.
MAX_SPLIT = 100


def can_split(session: EditSession, loc: Loc) -> bool:
    """Whether the selection at ``loc`` stands for more than one copy."""
    return bool(loc) and session.count_of(loc) > 1


def split(session: EditSession, loc: Loc) -> Loc:
    """Split a counted selection (×n) into n selections of one each, in its place, as one
    undoable edit; returns the first. Each copy keeps the name, loadout, notes and state."""
    from .session import EditError, Insert, Op, SetKey, detached_copy

    n = session.count_of(loc)
    if n < 2:
        raise EditError("only a selection with a count above 1 can be split")
    parent, index = loc[:-2], int(loc[-1])
    node = session.node(loc)
    label = display_name(session, node)
    if n > MAX_SPLIT:
        raise EditError(
            f"{label} ×{n:,} would become {n:,} selections; a split makes at most "
            f"{MAX_SPLIT}: lower its count first (or duplicate it to have one that can differ)"
        )
    ops: list[Op] = [SetKey(loc, "count", None)]
    for i in range(1, n):
        copy_node = detached_copy(node)
        copy_node.pop("count", None)
        ops.append(Insert(parent, index + i, copy_node))
    session.apply(f"Split {label} ×{n}", ops, loc, loc)
    return loc


def mergeable(session: EditSession, loc: Loc) -> list[int]:
    """Indexes of the siblings identical to the selection at ``loc`` in all but count (its
    own index included, in order); fewer than two: nothing to merge."""
    if not loc:
        return []
    parent = loc[:-2]
    me = _plain_without(session.node(loc), "count")
    return [
        i
        for i, sib in enumerate(_selections(session, parent))
        if isinstance(sib, dict) and _plain_without(sib, "count") == me
    ]


def merge(session: EditSession, loc: Loc) -> Loc:
    """Merge the siblings identical to the selection at ``loc`` (all but their counts) into
    the first of them, its count the sum, as one undoable edit; returns the merged one."""
    from .session import Delete, EditError, Op, SetKey

    same = mergeable(session, loc)
    if len(same) < 2:
        raise EditError("no identical selection beside this one to merge with")
    parent = loc[:-2]
    total = sum(session.count_of((*parent, "selections", i)) for i in same)
    from .model.bounds import MAX_COUNT

    if total > MAX_COUNT:
        raise EditError(
            f"merged, the count would be {total:,}: more than the {MAX_COUNT:,} a roster "
            "file can hold"
        )
    first = (*parent, "selections", same[0])
    label = display_name(session, session.node(first))
    ops: list[Op] = [SetKey(first, "count", total)]
    ops += [Delete(parent, i) for i in reversed(same[1:])]
    session.apply(f"Merge {label} ×{total}", ops, loc, first)
    return first


# --------------------------------------------------------------------------- sorting


def catalog_order(session: EditSession, parent: Loc) -> dict[str, int]:
    """The rank of each option under ``parent`` in the order the builder's catalog lists
    them there: by section (its choice group, else its primary category), the sections in
    the order the catalog shows them (of their first option shown), the options of a
    section in the catalogue's order. Every option the catalogue has there counts, those
    the data hides too: a Legends unit while Legends are off sorts among its category,
    where the catalogue puts it (a section of hidden options only comes after those shown).
    Keyed by every id a selection may record for the option (its entry's, its link's in
    BattleScribe data: :meth:`CatalogIndex.child_map`)."""
    from .session import is_force_loc

    def section(c: Child) -> object:
        if c.group is not None:
            return ("group", c.group.id)
        entry = c.entry
        return ("category", entry.primary_category or next(iter(entry.categories), None))

    sections: dict[object, list[Child]] = {section(c): [] for c in session.options(parent)}
    for c in session.options(parent, hidden=True):
        sections.setdefault(section(c), []).append(c)
    place = {id(c): i for i, c in enumerate(c for listed in sections.values() for c in listed)}
    owner = session.entry_at(parent) if parent and not is_force_loc(parent) else None
    return {
        ref: place[id(c)] for ref, c in session.index.child_map(owner).items() if id(c) in place
    }


def sort(session: EditSession, parent: Loc, by: str = "catalog") -> bool:
    """Put the selections under ``parent`` in the catalog's order (``by="catalog"``: the
    order the catalog lists its options in, :func:`catalog_order`) or by name
    (``by="name"``), as one undoable edit; the sort is stable (equal ones keep their order).
    Returns whether anything moved."""
    from .session import EditError, Move, Op

    if by not in ("catalog", "name"):
        raise ValueError(f"sort by 'catalog' or 'name', not {by!r}")
    seq = _selections(session, parent)
    if len(seq) < 2:
        return False
    order = catalog_order(session, parent) if by == "catalog" else {}

    def key(i: int) -> tuple[Any, ...]:
        node = seq[i]
        entry_id = str(node.get("entry")) if isinstance(node, dict) else ""
        if by == "name":
            return (display_name(session, node).casefold(), i)
        return (order.get(entry_id, len(order)), i)

    wanted = sorted(range(len(seq)), key=key)
    if wanted == list(range(len(seq))):
        return False
    current = list(range(len(seq)))
    ops: list[Op] = []
    for to, original in enumerate(wanted):
        at = current.index(original)
        if at != to:
            ops.append(Move(parent, at, to))
            current.insert(to, current.pop(at))
    what = "the roster" if not parent else display_name(session, session.node(parent))
    how = "catalog order" if by == "catalog" else "name"
    if not ops:
        raise EditError("nothing to sort")
    session.apply(f"Sort {what} by {how}", ops, parent, parent)
    return True


# --------------------------------------------------------------------------- search everywhere


@dataclass(frozen=True)
class Place:
    """Somewhere an entry can be added: under the selection at ``parent`` (``()``: the top
    of the roster), described as ``where``; ``parent is None`` when no selection of the
    roster can take it now (``where`` then says what could)."""

    entry_id: str
    name: str
    parent: Loc | None
    where: str


def _where(session: EditSession, loc: Loc) -> str:
    """``Sergeant in 1st Squad`` (the selection and the one it is in)."""
    if not loc:
        return "the roster"
    name = display_name(session, session.node(loc))
    if len(loc) > 2:
        return f"{name} in {display_name(session, session.node(loc[:-2]))}"
    return name


def _words(text: str) -> str:
    """``text`` case-folded, its words separated by single spaces (tabs, runs of spaces and
    no-break spaces alike), for matching names however either side was typed."""
    return " ".join(text.casefold().split())


def find_everywhere(session: EditSession, text: str, limit: int = 200) -> list[Place]:
    """Every place in the roster where an entry whose name contains ``text`` (case
    insensitive, words separated by any whitespace: "storm  bolter" finds "Storm Bolter")
    can be added, the top of the roster first, then in roster order; entries of the faction
    that no selection can take now follow, with what could take them."""
    needle = _words(text)
    if not needle:
        return []
    index = session.index
    out: list[Place] = []
    placed: set[str] = set()
    stack: list[Loc] = [()]
    while stack and len(out) < limit:
        loc = stack.pop(0)
        if loc and session.entry_at(loc) is None:
            continue
        where = _where(session, loc)
        for child in session.options(loc):
            if needle in _words(child.entry.name) and not child.entry.hidden:
                out.append(Place(child.entry.id, child.entry.name, loc, where))
                placed.add(child.entry.id)
        stack.extend(session.children_locs(loc))
    owners: dict[str, list[str]] = {}
    for owner in [*index.entries.values(), *index.shared.values()]:
        for child in index.children(owner):
            owners.setdefault(child.entry.id, []).append(owner.name)
    for entry in [*index.entries.values(), *index.shared.values()]:
        if entry.id in placed or entry.hidden or needle not in _words(entry.name):
            continue
        could = sorted(set(owners.get(entry.id, [])))
        why = f"in {', '.join(could[:3])}" if could else "nowhere in this faction"
        out.append(Place(entry.id, entry.name, None, f"no place in the roster now (goes {why})"))
        placed.add(entry.id)
    return out[:limit]
