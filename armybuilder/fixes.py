"""Quick fixes: the known remedy of an issue, applied as one undoable edit.

An issue offers a fix when what to do is not in doubt:

* an unknown entry whose id is close to one that can go there ("did you mean 'sergeant'?"):
  the selection's entry id is replaced, and its name, count, experience, notes, campaign state
  and contents stay as they are;
* a count over the entry's maximum: the count is brought down to it;
* more choices in a group than it allows, or more of an entry than a constraint allows (in
  the unit, or over the whole roster or force): the surplus goes (the last ones first; a
  counted selection is reduced before one is removed);
* more of a cost among a group's choices than the group allows (build slots of a vehicle):
  the last choices that cost something go, as few as bring the sum within it;
* fewer choices in a group than it needs, where the group names its usual choice or offers
  only one; fewer of an entry than a constraint needs: that entry is added.
* a choice kept in a group the data now hides for this roster (a 40k enhancement of a
  detachment no longer taken): it is removed.

Nothing here imports Textual: the builder, scripts and tests use the same fixes. Each fix goes
through :meth:`armybuilder.session.EditSession.apply` (or one of the session's own edits), so
it is one step of the undo history.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .catalog import Child
    from .model.catalog import Constraint, Entry, Group
    from .rules.engine import Evaluation, Issue, Node
    from .session import EditSession, Loc


@dataclass(frozen=True)
class Fix:
    """One remedy: what it does (``label``, shown to the player) and how (``apply``: makes
    the edit and returns the selection to show after it)."""

    label: str
    apply: Callable[[EditSession], Loc]


def node_at(ev: Evaluation, loc: Loc) -> Node | None:
    """The evaluated node at a roster location (``None``: not a selection there)."""
    node = ev.root
    for i in range(1, len(loc), 2):
        step = loc[i]
        if not isinstance(step, int) or step >= len(node.children):
            return None
        node = node.children[step]
    return node


def fixes_for(ev: Evaluation, issue: Issue) -> list[Fix]:
    """The fixes an issue offers (most likely first; empty: none is known)."""
    node = node_at(ev, issue.path)
    if node is None:
        return []
    if issue.code == "unknown-entry":
        return _replace_unknown(ev, node)
    if issue.code == "max-exceeded":
        return _reduce(ev, node, issue)
    if issue.code == "min-not-met":
        return _complete(ev, node, issue)
    if issue.code == "hidden-group-choice" and node.parent is not None:
        return [Fix(f"Remove {ev.name(node)}", _remove(node.loc))]
    return []


def _remove(loc: Loc) -> Callable[[EditSession], Loc]:
    def apply(session: EditSession) -> Loc:
        return session.remove(loc)

    return apply


# --------------------------------------------------------------------------- unknown entries


def _replace_unknown(ev: Evaluation, node: Node) -> list[Fix]:
    parent, unknown = node.parent, node.entry_id
    if parent is None or node.entry is not None or not unknown:
        return []
    ids = ev.index.selectable_ids(parent.entry, shown_only=True)
    close = difflib.get_close_matches(unknown, ids, n=3, cutoff=0.6)
    loc = node.loc
    fixes = []
    for entry_id in close:
        name = ev.index.name_of(entry_id)
        fixes.append(
            Fix(
                f"Replace {unknown!r} by {entry_id!r} ({name}), keeping the rest",
                _set_entry(loc, unknown, entry_id),
            )
        )
    return fixes


def _set_entry(loc: Loc, old: str, new: str) -> Callable[[EditSession], Loc]:
    def apply(session: EditSession) -> Loc:
        from .session import SetKey

        session.apply(f"Replace {old} by {new}", [SetKey(loc, "entry", new)], loc, loc)
        return loc

    return apply


# --------------------------------------------------------------------------- over a maximum


def _reduce(ev: Evaluation, node: Node, issue: Issue) -> list[Fix]:
    entry = node.entry
    if entry is None:  # the roster or a force: a maximum over all of it
        return _remove_surplus(ev, _wide_constraint(ev, node, issue))
    if not issue.entry and entry.max_count is not None and node.count > entry.max_count:
        most = entry.max_count
        return [Fix(f"Set the count to {most}", _set_count(node.loc, most))]
    group = _group(entry, issue.entry)
    if group is not None and issue.constraint:
        con = next((c for c in group.constraints if c.id == issue.constraint), None)
        if con is not None:
            return _reduce_group_cost(ev, node, group, con)
    allowed = ev.group_bounds(group, node)[1] if group is not None else None
    if group is not None and allowed is not None:
        chosen = [c for c in node.children if c.group is not None and _in(c.group, group)]
        surplus = sum(c.count for c in chosen) - allowed
        if surplus > 0:
            what = f"{surplus} choice{'s' if surplus != 1 else ''} of {group.name}"
            return [Fix(f"Remove the last {what}", _trim(chosen, surplus))]
        return []
    found = (
        _constraint(ev, node, issue)
        or _own_constraint(ev, node, issue)
        or _wide_constraint(ev, node, issue)
    )
    return _remove_surplus(ev, found)


def _reduce_group_cost(ev: Evaluation, node: Node, group: Group, con: Constraint) -> list[Fix]:
    """Over a group's limit on a cost of its choices (two build slots among a vehicle's
    options): the last choices that cost something go, as few as bring the sum within it."""
    from .words import named_amount, number

    limit = ev.group_constraint_value(group, con, node)
    costly: list[tuple[Node, float]] = []
    for c in node.children:
        if c.group is not None and _in(c.group, group):
            each = ev.total_cost(c).get(con.field, 0.0) / max(c.count, 1)
            if each > 0:
                costly.append((c, each))
    got = sum(each * c.count for c, each in costly)
    if limit < 0 or got <= limit:
        return []
    copies = 0
    for c, each in reversed(costly):
        for _ in range(c.count):
            if got <= limit:
                break
            got -= each
            copies += 1
    ct = ev.index.cost_types.get(con.field)
    bound = named_amount(ct.name if ct else con.field, ct.unit if ct else "", number(limit))
    what = f"{copies} choice{'s' if copies != 1 else ''} of {group.name}"
    return [
        Fix(
            f"Remove the last {what} that cost {ct.name if ct else con.field} (to at most {bound})",
            _trim([c for c, _ in costly], copies),
        )
    ]


def _remove_surplus(ev: Evaluation, found: Found | None) -> list[Fix]:
    if found is None:
        return []
    con, owner, holders, limit, got = found
    surplus = int(got) - int(limit)
    if surplus <= 0 or not holders or surplus > sum(c.count for c in holders):
        return []  # (more than the direct children hold: which deeper ones go is not obvious)
    name = ev.index.name_of(owner.id if con.child is None else con.child)
    if con.per_link and con.child is None:
        name = owner.name  # (the option's own name: an entry's link may rename it)
    return [Fix(f"Remove {surplus} × {name} (the last first)", _trim(holders, surplus))]


def _set_count(loc: Loc, count: int) -> Callable[[EditSession], Loc]:
    def apply(session: EditSession) -> Loc:
        session.set_count(loc, count)
        return loc

    return apply


def _trim(selections: list[Node], surplus: int) -> Callable[[EditSession], Loc]:
    """Take ``surplus`` copies off the last of ``selections``: counts are reduced, selections
    whose whole count goes are removed; one edit."""
    plan: list[tuple[Loc, int]] = []  # (loc, new count; 0: removed), last ones first
    left = surplus
    for sel in reversed(selections):
        if left <= 0:
            break
        take = min(left, sel.count)
        plan.append((sel.loc, sel.count - take))
        left -= take

    def apply(session: EditSession) -> Loc:
        from .session import Delete, Op, SetKey

        ops: list[Op] = []
        # Deepest and last first, so the locations of those still to change hold.
        for loc, count in sorted(plan, key=lambda p: p[0], reverse=True):
            if count == 0:
                ops.append(Delete(loc[:-2], int(loc[-1])))
            else:
                ops.append(SetKey(loc, "count", count if count != 1 else None))
        first = min(loc for loc, _ in plan)
        parent = first[:-2]
        after = parent if any(c == 0 for _, c in plan) else first
        session.apply(f"Remove {surplus} over the maximum", ops, first, after)
        return after

    return apply


# --------------------------------------------------------------------------- under a minimum


def _complete(ev: Evaluation, node: Node, issue: Issue) -> list[Fix]:
    entry = node.entry
    group = _group(entry, issue.entry) if entry is not None else None
    if (
        group is not None
        and issue.constraint
        and any(c.id == issue.constraint for c in group.constraints)
    ):
        return []  # (short of a cost among its choices: which option to add is not obvious)
    if group is not None:
        # The group's options by entry id, each added by the id that reads back as that
        # option (its link's, where the entry is also offered outside the group).
        options: dict[str, Child] = {}
        for c in ev.index.children(entry):
            if c.group is not None and _in(c.group, group) and not c.entry.hidden:
                options.setdefault(c.entry.id, c)
        chosen = sum(c.count for c in node.children if c.group is not None and _in(c.group, group))
        pick = options.get(group.default) if group.default else None
        if pick is None and len(options) == 1:
            pick = next(iter(options.values()))
        missing = ev.group_bounds(group, node)[0] - chosen
        if pick is None or missing <= 0:
            return []
        wanted = ev.index.recorded_id(entry, pick)
        return [_add_fix(ev, node.loc, wanted, missing, pick.entry.name)]
    found = _constraint(ev, node, issue) or _own_constraint(ev, node, issue)
    if found is None:
        return []
    con, owner, _holders, limit, got = found
    wanted_id = owner.id if con.child is None else con.child
    if wanted_id in ev.index.categories and wanted_id not in ev.index.entries and entry:
        # A category: the obvious entry is the one option here that is of it, if only one is.
        of_it = [
            c.entry.id
            for c in ev.index.children(entry)
            if not c.entry.hidden and wanted_id in c.entry.categories
        ]
        wanted_id = of_it[0] if len(of_it) == 1 else ""
    if wanted_id not in ev.index.entries and wanted_id not in ev.index.shared:
        return []  # a category or a force: no one obvious entry
    if ev.index.child(entry, wanted_id) is None:
        return []  # (added higher up, it would not count here)
    missing = int(limit) - int(got)
    if missing <= 0:
        return []
    if con.per_link and con.child is None:
        # Added through the option whose count it is (the entry may be offered twice).
        option = next((c for c in ev.index.children(entry) if c.entry is owner), None)
        if option is None:
            return []
        return [_add_fix(ev, node.loc, ev.index.recorded_id(entry, option), missing, owner.name)]
    return [_add_fix(ev, node.loc, wanted_id, missing)]


def _add_fix(
    ev: Evaluation, parent: Loc, entry_id: str, missing: int, name: str | None = None
) -> Fix:
    """Add ``missing`` of ``entry_id`` as one selection; at most the count a roster file
    holds (:data:`~armybuilder.model.bounds.MAX_COUNT`), the label saying so when that is
    short of what is missing."""
    from .model.bounds import MAX_COUNT

    name = name or ev.index.name_of(entry_id)
    n = min(missing, MAX_COUNT)
    label = f"Add {n:,} × {name}"
    if n < missing:
        label += f" (of the {missing:,} missing: one selection holds at most {MAX_COUNT:,})"

    def apply(session: EditSession) -> Loc:
        where = session.where_to_add(parent, entry_id)
        if where is None:
            from .session import EditError

            raise EditError(f"{name} cannot be added here")
        return session.add(where, entry_id, count=n, required=True)

    return Fix(label, apply)


# --------------------------------------------------------------------------- lookups


def _in(group: Group, outer: Group) -> bool:
    """Whether ``group`` is ``outer`` or one of its subgroups."""
    if group is outer or group.id == outer.id:
        return True
    return any(_in(group, g) for g in outer.groups)


def _group(entry: Entry | None, group_id: str) -> Group | None:
    if entry is None or not group_id:
        return None
    from .catalog import walk_groups

    return next((g for g in walk_groups(entry.groups) if g.id == group_id), None)


#: What a fix needs to know of a broken selection-count constraint: the constraint, its owner,
#: the direct children of the node it counts, its limit there and the count it measures.
Found = tuple["Constraint", "Entry", list["Node"], float, float]


def _constraint(ev: Evaluation, node: Node, issue: Issue) -> Found | None:
    """The selection-count constraint an issue reports (checked at ``node``): the constraint,
    its owner, the direct children of ``node`` it counts, its limit there and what it counts.
    ``None`` when it is not one a fix can settle by adding or removing children of ``node``."""
    if not issue.constraint or not issue.entry:
        return None
    for child, con in ev.index.child_constraints(node.entry):
        if child.entry.id != issue.entry or con.id != issue.constraint:
            continue
        if con.field != "selections" or con.scope != "parent" or con.percent:
            return None
        if con.deep and con.per_link:
            return None  # (counted per link at every depth: unsure)
        if con.per_link and con.child is None:
            # Counted per link: the selections made through this option only. An entry offered
            # twice has the constraint once per option; the one the issue reports is the one
            # whose own count, measured as the engine measures it, gives the issue's words.
            from .rules.engine import constraint_issue_text

            ref = child.path_ref()
            holders = [c for c in node.children if c.entry is not None and c.path_ref() == ref]
            got = float(sum(c.count for c in holders))
            at = holders[0] if holders else node
            limit = ev.constraint_value(child.entry, con, at)
            said = constraint_issue_text(ev, con, child.entry, got, limit, node)
            if said != (issue.code, issue.message):
                continue
            return con, child.entry, holders, limit, got
        if con.per_link:
            return None  # (a named child counted per link: not settled here)
        counted = child.entry.id if con.child is None else con.child
        holders = [c for c in node.children if c.entry is not None and c.entry.id == counted]
        at = holders[0] if holders else node
        got = float(sum(c.count for c in holders))
        if con.deep:  # counted at every depth under ``node``, as the rules engine counts it
            deep = ev.query(
                node, "self", con.child, "selections", True, child.entry.id, con.child_forces
            )
            if deep < got:
                return None
            got = deep
        return con, child.entry, holders, ev.constraint_value(child.entry, con, at), got
    return None


def _own_constraint(ev: Evaluation, node: Node, issue: Issue) -> Found | None:
    """The constraint of ``node``'s own entry on how many of one entry or category it holds
    (scope `self`, a ``child``: "a Group HQ has at most 3 Marines", directly or at every
    depth) that ``issue`` reports, with :func:`_constraint`'s answer (the count is the one the
    constraint measures, at every depth for a deep one). Such a constraint often has no id, so
    it is recognised as the one whose own issue, measured here as the rules engine measures
    it, is exactly ``issue`` (same code and message: same count, limit, name and place).
    ``None`` when none, or more than one, fits."""
    from .rules.engine import constraint_issue_text

    entry = node.entry
    if entry is None or issue.entry != entry.id:
        return None
    kind = {"max-exceeded": "max", "min-not-met": "min"}.get(issue.code)
    found: list[Found] = []
    for con in entry.constraints:
        child = con.child
        if (
            con.type != kind
            or con.scope != "self"
            or con.field != "selections"
            or child is None
            or con.percent
            or con.per_link
            or (con.id or "") != issue.constraint
        ):
            continue
        is_entry = child in ev.index.entries or child in ev.index.shared
        if not is_entry and child not in ev.index.categories:
            continue
        limit = ev.constraint_value(entry, con, node)
        if limit < 0:
            continue
        deep = con.deep is not False  # (scope self counts at every depth unless told not to)
        got = ev.query(node, "self", child, "selections", deep, entry.id, con.child_forces)
        holders = [
            c
            for c in node.children
            if c.entry is not None
            and (c.entry.id == child if is_entry else child in c.entry.categories)
        ]
        direct = sum(c.count for c in holders)
        if direct > got or (not deep and direct != got):
            continue  # (the direct children are not counted as they seem: unsure)
        if constraint_issue_text(ev, con, entry, got, limit, node) == (issue.code, issue.message):
            found.append((con, entry, holders, limit, got))
    return found[0] if len(found) == 1 else None


def _reach(scope_node: Node, child_forces: bool) -> Iterator[Node]:
    """Every selection under ``scope_node``, in roster order, looking into the forces in it as
    the engine counts them: all of them from the roster, those inside a force only when the
    constraint says so (``child_forces``)."""
    stack = list(reversed(scope_node.children))
    while stack:
        n = stack.pop()
        if n.force is not None:
            if scope_node.is_root or child_forces:
                stack.extend(reversed(n.children))
            continue
        yield n
        stack.extend(reversed(n.children))


def _wide_constraint(ev: Evaluation, node: Node, issue: Issue) -> Found | None:
    """The maximum on how many selections of one entry a whole roster or force may have
    (scope `roster` or `force`: "at most 1 house rule in the roster") that ``issue`` (at
    ``node``) reports, with every selection of that entry in the scope, in roster order, as
    its holders (the last ones go first). Recognised, like :func:`_own_constraint`'s, as the
    one constraint of the issue's entry whose issue, measured over those selections, is
    exactly ``issue``; ``None`` when none, or more than one, fits (a count the engine
    measures otherwise, a category, a percentage: no fix)."""
    from .rules.engine import constraint_issue_text

    if issue.code != "max-exceeded" or not issue.entry:
        return None
    owner = ev.index.entries.get(issue.entry)
    if owner is None:
        return None
    found: list[Found] = []
    for con in owner.constraints:
        counted = con.child or owner.id
        if (
            con.type != "max"
            or con.scope not in ("roster", "force")
            or con.field != "selections"
            or con.percent
            or con.per_link
            or (con.id or "") != issue.constraint
            or counted not in ev.index.entries
        ):
            continue
        scope_node = ev.root if con.scope == "roster" else ev.force_of(node)
        if scope_node is None:
            continue
        holders = [
            n
            for n in _reach(scope_node, con.child_forces)
            if n.entry is not None and n.entry.id == counted
        ]
        if not holders:
            continue
        limit = ev.constraint_value(owner, con, holders[0])
        got = float(sum(n.count for n in holders))
        if limit < 0 or got <= limit:
            continue
        if constraint_issue_text(ev, con, owner, got, limit, scope_node) == (
            issue.code,
            issue.message,
        ):
            found.append((con, owner, holders, limit, got))
    return found[0] if len(found) == 1 else None
