"""Text a front end shows in its panes: costs, limits, campaign state, the plain-text roster."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..words import named_amount, number, unit_after
from .operations import EditError

# The roster machinery (ruamel.yaml, pydantic models) is imported where it is used, so that
# the TUI's home screen (recent files, recovery journals) shows before it is loaded.
if TYPE_CHECKING:
    from ..catalog import CatalogIndex
    from ..model.catalog import CostType
    from ..rules.engine import Evaluation, Node
    from ..rules.state import StateKey


def limit_text(minimum: int, maximum: int | None) -> str:
    """A range as a player reads it: ``exactly 1``, ``0-2``, ``at least 3``, ``any number``."""
    if maximum is None:
        return f"at least {minimum}" if minimum else "any number"
    if minimum == maximum:
        return f"exactly {maximum}"
    return f"{minimum}-{maximum}"


_PLAIN_WORD = re.compile(r"[A-Za-z_][\w-]*\Z")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def state_text(state: Any) -> str:
    """Campaign state on one line, as YAML flow: ``{actions: 31, wounds: 2}`` ("" if none)."""
    if not state:
        return ""

    def flow(value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(flow(v) for v in value) + "]"
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        text = str(value)
        if _PLAIN_WORD.match(text) and text.lower() not in _YAML_WORDS:
            return text
        return json.dumps(text, ensure_ascii=False)

    return flow(state)


_STATE_EXAMPLE = "{actions: 31, wounds: 2}"


def parse_state(text: str, keys: Sequence[StateKey] = ()) -> dict[str, Any] | None:
    """Campaign state typed on one line: a YAML mapping, braces optional (``actions: 3,
    wounds: 1`` or ``{actions: 3, wounds: 1}``); blank: no state. Raises :class:`EditError`
    for text that is not ``key: value`` pairs (``wounds 2``, where the colon is missing, is
    refused rather than stored as a key ``"wounds 2"`` without a value) and, when the game
    system declares its state ``keys``, for values of the wrong type or out of range.
    Unknown keys pass here: :func:`state_warnings` names them (the engine warns too)."""
    from ..errors import InputError
    from ..rules.state import ERROR, check_state, state_placeholder
    from ..yamlio import load_safe

    example = state_placeholder(keys) or _STATE_EXAMPLE
    text = text.strip()
    if not text:
        return None
    source = text if text.startswith("{") else "{" + text + "}"
    try:
        value = load_safe(source, "campaign state")
    except InputError as exc:
        raise EditError(
            f"campaign state must read key: value, e.g. {example} ({exc.problems[0].message})"
        ) from None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise EditError(f"campaign state is not a mapping: write key: value, e.g. {example}")
    bare = [k for k, v in value.items() if v is None]
    if bare:
        raise EditError(
            f"campaign state {bare[0]!r} has no value: write key: value, e.g. {example}"
        )
    errors = [p for p in check_state(keys, value) if p.severity == ERROR]
    if errors:
        raise EditError("campaign state: " + "; ".join(p.message for p in errors))
    return dict(value) or None


def state_warnings(state: dict[str, Any] | None, keys: Sequence[StateKey]) -> list[str]:
    """What is legal but suspect in a campaign state: unknown keys, each naming the nearest
    known one (``acitons`` -> did you mean 'actions'?)."""
    from ..rules.state import ERROR, check_state

    return [p.message for p in check_state(keys, state) if p.severity != ERROR]


def amount_text(ct: CostType, amount: str) -> str:
    """An amount of cost type ``ct`` as a player reads it: with its unit (``85 kg``, and
    ``80 pts``, ``5 Cans``, ``1 Can`` from BattleScribe data, whose cost types are named by
    their unit),
    or, for a cost without a unit, after its name (``Value 180``), never a bare number nobody
    can tell the meaning of."""
    return f"{amount} {unit_after(amount, ct.unit)}" if ct.unit else f"{ct.name} {amount}"


def costs_text(index: CatalogIndex, costs: dict[str, float], named: bool = False) -> str:
    """A price as a player reads it (``85 kg``, ``4 bp``, ``Value 30``), hidden costs and
    those that print as zero left out (``12 Cans``, never ``12 Cans, 0 Build Slots``: the
    rule of :func:`armybuilder.report.price_text`); totals use :func:`cost_text`. ``named``:
    each after its cost type's name too, as ``show`` and the cards print it (``Mass 85 kg``;
    ``80 pts`` where the name is the unit), where a pane has the room."""
    parts = []
    for ct in index.cost_types.values():
        if ct.hidden:
            continue
        amount = format_number(costs.get(ct.id, 0.0))
        if amount != "0":
            parts.append(
                named_amount(ct.name, ct.unit, amount) if named else amount_text(ct, amount)
            )
    return ", ".join(parts)


format_number = number
"""A quantity as the builder shows it: :func:`armybuilder.words.number`, the one rule of
every report (0.125 is "0.125" in the builder as in the PDF, 0.0005 is not "0", and a tiny
negative is "0", never "-0")."""


def cost_text(
    ev: Evaluation, costs: dict[str, float], limits: bool = False, named: bool = False
) -> str:
    """Costs as text, e.g. ``2,380 kg``; with ``limits``, against the roster's limits;
    ``named``, after each cost type's name (``Mass 2,380 / 3,000 kg``, as the totals bar and
    ``show`` say them)."""
    parts = []
    roster_limits = dict(ev.roster.header.limits)
    for ct in ev.index.cost_types.values():
        if ct.hidden:
            continue
        limit = roster_limits.get(ct.id, ct.default_limit)
        value = costs.get(ct.id, 0.0)
        amount = format_number(value)
        if limits and limit is not None:
            amount = f"{amount} / {format_number(limit)}"
        parts.append(named_amount(ct.name, ct.unit, amount) if named else amount_text(ct, amount))
    return ", ".join(parts)


def plain_text(ev: Evaluation) -> str:
    """A plain-text roster for a forum post: the tree with counts and costs, totals, issues."""
    roster = ev.roster
    system = ev.index.system.name
    lines = [roster.name, f"{system}, {ev.index.faction.name}"]
    totals = cost_text(ev, ev.totals, limits=True)
    if totals:
        lines.append(f"Total: {totals}")
    for v in ev.values_of(ev.root):
        lines.append(f"{v.label}: {v.display()}")
    lines.append("")

    def walk(node: Node, depth: int) -> None:
        for child in node.children:
            costs = costs_text(ev.index, ev.total_cost(child))
            text = f"{'  ' * depth}- {ev.label(child)}"
            if child.entry is not None and child.data is not None and child.data.name:
                text += f" ({child.entry.name})"
            if child.entry is None and child.force is None:  # a force names no entry
                text += " [unknown entry]"
            if costs:
                text += f"  [{costs}]"
            lines.append(text)
            walk(child, depth + 1)

    walk(ev.root, 0)
    if ev.issues:
        lines.append("")
        errors, warnings = len(ev.errors), len(ev.warnings)
        lines.append(f"Validation: {errors} error(s), {warnings} warning(s)")
        for issue in ev.issues:
            mark = "ERROR" if issue.is_error else "warning"
            lines.append(f"  {mark}: {issue.message}")
    else:
        lines.append("")
        lines.append("Validation: legal")
    return "\n".join(lines) + "\n"
