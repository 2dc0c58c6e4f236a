"""JSON export: exactly what ``armybuilder show --format json`` prints (documented in the
README): the roster with its verdict, totals, limits, issues, roster-wide values and units,
each unit with its costs, computed values and children."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules.engine import Evaluation


def roster_data(ev: Evaluation, file: str | None = None) -> dict[str, Any]:
    """The ``show --format json`` document of an evaluated roster."""
    from ..report import show_json

    return show_json(file if file is not None else ev.roster.file, ev.roster, ev)


def export_json(ev: Evaluation, file: str | None = None) -> str:
    """The roster as JSON text (UTF-8, indented, with a final newline)."""
    return json.dumps(roster_data(ev, file), indent=2, ensure_ascii=False, default=str) + "\n"
