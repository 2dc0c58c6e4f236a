"""Loading a roster file for reading, and its report as JSON-ready data.

Shared by the command line (``validate``, ``show``), the exports and the renderer: one place
defines the shape of ``--format json`` (documented in the README). No Textual, no WeasyPrint.
"""

from __future__ import annotations

import math
from typing import Any

from .catalog import CatalogIndex, GameSystem, Library
from .errors import InputError, Problem, UnknownFactionError, UnknownSystemError
from .rosters import Roster
from .rules.engine import Evaluation, Issue, Node, evaluate_roster, format_loc
from .words import named_amount, number


def finite(data: Any) -> Any:
    """``data`` with every NaN or infinite float replaced by ``None``, so that the JSON
    printed is JSON (Python would write ``NaN`` and ``Infinity``, which no parser reads)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [finite(v) for v in data]
    return data


def format_costs(index: CatalogIndex, totals: dict[str, float]) -> str:
    """Costs per visible cost type, e.g. ``Mass 2,380 kg`` (``1,910 pts`` when the unit is the
    cost type's name)."""
    parts = []
    for ct in index.cost_types.values():
        if ct.hidden:
            continue
        v = totals.get(ct.id, 0.0)
        parts.append(named_amount(ct.name, ct.unit, number(v)))
    return ", ".join(parts)


def limits_text(index: CatalogIndex, limits: dict[str, float]) -> str:
    """A roster's cost limits as ``show`` prints them after its totals: each with its unit, as
    the totals read ("limit 75 BP", "limit 500 pts", "limit 50 Cans, limit 10 Build Slots"),
    or after the cost type's name where it has none ("Value limit 200"); never a cost type's
    id ("bp limit 75", "build-slots limit 10"), which the player never sees elsewhere. A limit
    on a cost type the catalog does not know keeps its key."""
    parts = []
    for key, value in limits.items():
        ct = index.cost_types.get(key)
        amount = number(value)
        if ct is None:
            parts.append(f"{key} limit {amount}")
        elif ct.unit:  # (the amount in its unit: as a total reads where that is its name)
            parts.append(f"limit {named_amount(ct.unit, ct.unit, amount)}")
        else:
            parts.append(f"{ct.name} limit {amount}")
    return ", ".join(parts)


def price_text(index: CatalogIndex, costs: dict[str, float]) -> str:
    """A selection's price as every surface prints it beside the selection (the builder's
    panes, ``show``, the PDF and the exports): each visible cost type it costs something of,
    as BattleScribe and New Recruit print a price ("12 Cans", never "12 Cans, 0 Build
    Slots"; "80 pts" with no "0 CP"), and nothing for one that costs nothing (a free roster
    option such as Gaslands' "Sponsor"). Totals keep their zeros (:func:`format_costs`):
    they stand beside the limits."""
    parts = []
    for ct in index.cost_types.values():
        if ct.hidden:
            continue
        amount = number(costs.get(ct.id, 0.0))
        if amount != "0":
            parts.append(named_amount(ct.name, ct.unit, amount))
    return ", ".join(parts)


def issue_json(roster: Roster, issue: Issue, ev: Evaluation | None = None) -> dict[str, Any]:
    out = issue.to_json()
    line, col = roster.position(issue.path) if issue.path else (None, None)
    out["line"], out["column"] = line, col
    force = force_at(ev, issue.path) if ev is not None else None
    if force is not None and ev is not None:
        out["force"] = ev.name(force)
        out["force_path"] = format_loc(force.loc)
    return out


def force_at(ev: Evaluation, path: tuple[str | int, ...]) -> Node | None:
    """The innermost force (of a roster of several) a location lies in, if any."""
    found = None
    for node in ev.force_nodes():
        loc = node.loc
        if path[: len(loc)] == loc and (found is None or len(loc) > len(found.loc)):
            found = node
    return found


def force_title(ev: Evaluation, node: Node) -> str:
    """A force's heading: its name, and what it is when it has a name of its own,
    e.g. ``Vanguard (Patrol, Red Army)``."""
    fd = node.force_data
    faction = fd.faction if fd is not None and fd.faction else ev.roster.faction
    found = ev.index.system.factions.get(faction)
    what = []
    if fd is not None and fd.name and node.force is not None:
        what.append(node.force.name)
    if len(ev.roster.factions()) > 1:
        what.append(found.name if found is not None else faction)
    return ev.name(node) + (f" ({', '.join(what)})" if what else "")


def forces_json(ev: Evaluation, node: Node, units: bool) -> list[dict[str, Any]]:
    """The forces directly inside ``node`` (the root: the roster's), each with its totals,
    its verdict and (``units``) its selections."""
    out = []
    for f in node.children:
        if f.force is None:
            continue
        fd = f.force_data
        inside = [i for i in ev.issues if i.path[: len(f.loc)] == f.loc]
        data: dict[str, Any] = {
            "path": format_loc(f.loc),
            "force": fd.force if fd is not None else f.force.id,
            "force_name": f.force.name,
            "faction": (fd.faction if fd is not None and fd.faction else ev.roster.faction),
            "name": ev.name(f),
            "valid": not any(i.is_error for i in inside),
            "errors": sum(1 for i in inside if i.is_error),
            "warnings": sum(1 for i in inside if i.severity == "warning"),
            "notes": sum(1 for i in inside if i.severity == "note"),
            "totals": finite(dict(ev.total_cost(f))),
        }
        if units:
            data["units"] = [unit_json(ev, c) for c in f.children if c.force is None]
        data["forces"] = forces_json(ev, f, units)
        out.append(data)
    return out


def load_evaluated(
    lib: Library, file: str, values: bool = True
) -> tuple[Roster, GameSystem, Evaluation]:
    """Read and evaluate one roster file; ``values=False`` for a caller that reads no
    computed value (see :func:`~armybuilder.rules.engine.evaluate`)."""
    roster = Roster.from_file(file, round_trip=False, library=lib)
    key = "system"
    loc: tuple[str | int, ...] = (key,)
    try:
        gs = lib.system(roster.system)
        loc = ("faction",)
        gs.faction(roster.faction)
        for force in roster.all_forces():
            loc = (*force.loc, "faction")
            if force.faction:
                gs.faction(force.faction)
    except (UnknownSystemError, UnknownFactionError) as exc:
        line, col = roster.position(loc)
        key = str(loc[-1])
        raise InputError.single(file, str(exc), line, col, f"unknown-{key}") from None
    return roster, gs, evaluate_roster(roster, gs, values=values)


def unreadable_json(file: str, problems: list[Problem]) -> dict[str, Any]:
    return {
        "file": file,
        "readable": False,
        "valid": False,
        "system": None,
        "faction": None,
        "name": None,
        "totals": {},
        "issues": [
            {
                "severity": "error",
                "code": p.code,
                "message": p.message,
                "path": "",
                "source": "",
                "line": p.line,
                "column": p.column,
                "file": p.file,
            }
            for p in problems
        ],
    }


def roster_json(file: str, roster: Roster, ev: Evaluation) -> dict[str, Any]:
    return {
        "file": file,
        "readable": True,
        "system": roster.system,
        "faction": roster.faction,
        "name": roster.name,
        "valid": ev.valid,
        "errors": len(ev.errors),
        "warnings": len(ev.warnings),
        "notes": len(ev.notes),
        "totals": finite(dict(ev.totals)),
        "limits": finite(dict(roster.header.limits)),
        "issues": [issue_json(roster, i, ev) for i in ev.issues],
        **({"forces": forces_json(ev, ev.root, False)} if ev.forces is not None else {}),
    }


def show_json(file: str, roster: Roster, ev: Evaluation) -> dict[str, Any]:
    """What ``show --format json`` prints (without ``against``): the roster's report with
    its values and units; a roster of several forces lists its ``forces`` with their units
    (``units`` then holds every force's top-level selections, in order)."""
    data = roster_json(file, roster, ev)
    data["values"] = values_json(ev, ev.root)
    data["units"] = [unit_json(ev, n) for n in ev.units()]
    if ev.forces is not None:
        data["forces"] = forces_json(ev, ev.root, True)
    return data


def values_json(ev: Evaluation, node: Node) -> dict[str, Any]:
    return {
        v.key: {"label": v.label, "value": finite(v.value), "text": v.display(), "source": v.source}
        for v in ev.values_of(node)
    }


def unit_json(ev: Evaluation, node: Node) -> dict[str, Any]:
    return {
        "path": format_loc(node.loc),
        "entry": node.entry_id,
        "known": node.entry is not None,
        "name": ev.name(node),
        "type": node.entry.type if node.entry else None,
        "count": node.count,
        "experience": node.data.experience if node.data else None,
        "categories": list(node.categories),
        "costs": finite(dict(ev.total_cost(node))) if node.entry else {},
        "values": values_json(ev, node),
        "children": [unit_json(ev, c) for c in node.children],
    }
