"""The totals bar: costs against the limits, error and warning counts, roster values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ...session import format_number
from .stable import LiveStatic

if TYPE_CHECKING:
    from ...rules.engine import Evaluation


#: Roster values longer than this (a paragraph about morale or ammunition) are left to the
#: roster's details pane; the bar says how many.
SHORT_VALUE = 30


class TotalsBar(LiveStatic):
    """The bottom of the editor: one line, or as many as the totals need to show in full
    (they wrap between words; the style sheet caps the height)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._sig: object = None
        #: Whether the last :meth:`show` changed the bar (a benchmark reads it).
        self.changed = False

    def show(self, ev: Evaluation, pending: bool = False) -> None:
        parts: list[tuple[str, str]] = []
        limits = dict(ev.roster.header.limits)
        for ct in ev.index.cost_types.values():
            if ct.hidden:
                continue
            value = ev.totals.get(ct.id, 0.0)
            unit = f" {ct.unit}" if ct.unit else ""
            limit = limits.get(ct.id, ct.default_limit)
            if limit is None:
                parts.append((f"{ct.name} {format_number(value)}{unit}", "bold"))
            else:
                over = value > limit
                parts.append(
                    (
                        f"{ct.name} {format_number(value)} / {format_number(limit)}{unit}",
                        "bold red" if over else "bold green",
                    )
                )
        errors = sum(1 for i in ev.issues if i.is_error)
        warnings = len(ev.issues) - errors
        if errors:
            parts.append((f"✖ {errors} error{'s' if errors != 1 else ''}", "bold red"))
        else:
            parts.append(("✔ legal", "bold green"))
        if warnings:
            parts.append((f"⚠ {warnings} warning{'s' if warnings != 1 else ''}", "yellow"))
        longer = 0
        for v in ev.values_of(ev.root):
            shown = v.display()
            if len(shown) <= SHORT_VALUE:
                parts.append((f"{v.label} {shown}", ""))
            else:
                longer += 1
        if longer:
            parts.append((f"+{longer} more: the roster's details", "dim"))
        if pending:
            parts.append(("validating…", "italic dim"))
        sig = tuple(parts)
        self.changed = sig != self._sig
        if not self.changed:
            return
        self._sig = sig
        text = Text()
        for i, (part, style) in enumerate(parts):
            if i:
                text.append(" │ ", "dim")
            text.append(part, style)
        self.set_content(text)
