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
from .rules.engine import Evaluation, Issue, Node, evaluate_roster, fmt_num, format_loc


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
    """Costs per visible cost type, e.g. ``Mass 2380 kg``."""
    parts = []
    for ct in index.cost_types.values():
        if ct.hidden:
            continue
        v = totals.get(ct.id, 0.0)
        unit = f" {ct.unit}" if ct.unit else ""
        parts.append(f"{ct.name} {fmt_num(v)}{unit}")
    return ", ".join(parts)


def issue_json(roster: Roster, issue: Issue) -> dict[str, Any]:
    out = issue.to_json()
    line, col = roster.position(issue.path) if issue.path else (None, None)
    out["line"], out["column"] = line, col
    return out


def load_evaluated(lib: Library, file: str) -> tuple[Roster, GameSystem, Evaluation]:
    roster = Roster.from_file(file, round_trip=False, library=lib)
    key = "system"
    try:
        gs = lib.system(roster.system)
        key = "faction"
        gs.faction(roster.faction)
    except (UnknownSystemError, UnknownFactionError) as exc:
        line, col = roster.position((key,))
        raise InputError.single(file, str(exc), line, col, f"unknown-{key}") from None
    return roster, gs, evaluate_roster(roster, gs)


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
        "totals": finite(dict(ev.totals)),
        "limits": finite(dict(roster.header.limits)),
        "issues": [issue_json(roster, i) for i in ev.issues],
    }


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
