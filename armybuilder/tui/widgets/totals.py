"""The totals bar: costs against the limits, error and warning counts, roster values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from ...session import format_number
from ...words import named_amount, plural
from .stable import LiveStatic

if TYPE_CHECKING:
    from textual.strip import Strip

    from ...rules.engine import Evaluation


#: Roster values longer than this (a paragraph about morale or ammunition) are left to the
#: roster's details pane; the bar says how many.
SHORT_VALUE = 30

SEPARATOR = " │ "


def fit_parts(
    essential: list[tuple[str, str]],
    values: list[str],
    longer: int,
    tail: list[tuple[str, str]],
    width: int,
) -> list[tuple[str, str]]:
    """The parts of the bar that fit on one row of ``width`` cells: the costs and the verdict
    (``essential``) and ``tail`` (validating…) always, then as many short values as fit in
    order, then ``+N more`` for the values left out (``+N more: the roster's details`` when
    that fits). A row too narrow even for the essential parts is cut by the widget."""

    def size(parts: list[tuple[str, str]]) -> int:
        return sum(cell_len(p) for p, _ in parts) + cell_len(SEPARATOR) * max(len(parts) - 1, 0)

    for shown in range(len(values), -1, -1):
        parts = [*essential, *((v, "") for v in values[:shown])]
        hidden = len(values) - shown + longer
        if not hidden:
            labels: list[list[tuple[str, str]]] = [[]]
        else:
            labels = [
                [(f"+{hidden} more: the roster's details", "dim")],
                [(f"+{hidden} more", "dim")],
            ]
        for label in labels:
            candidate = [*parts, *label, *tail]
            if size(candidate) <= width:
                return candidate
    # Not even the essential parts and "+N more" fit: keep them, the widget cuts the row.
    hidden = len(values) + longer
    return [*essential, *([(f"+{hidden} more", "dim")] if hidden else []), *tail]


class TotalsBar(LiveStatic):
    """The bottom of the editor: always one row. The costs against their limits and the
    verdict are always there; the roster's short values follow as far as the width allows,
    and ``+N more`` counts those left out (the roster's details list them all). The row is
    fitted again to each width the terminal is resized to."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._sig: object = None
        self._parts: tuple[list[tuple[str, str]], list[str], int, list[tuple[str, str]]] = (
            [],
            [],
            0,
            [],
        )
        #: The width the content was last fitted to.
        self._fit_width = -1
        #: Whether the last :meth:`show` changed the bar (a benchmark reads it).
        self.changed = False

    def show(self, ev: Evaluation, pending: bool = False) -> None:
        essential: list[tuple[str, str]] = []
        limits = dict(ev.roster.header.limits)
        for ct in ev.index.cost_types.values():
            if ct.hidden:
                continue
            value = ev.totals.get(ct.id, 0.0)
            limit = limits.get(ct.id, ct.default_limit)
            if limit is None:
                essential.append((named_amount(ct.name, ct.unit, format_number(value)), "bold"))
            else:
                over = value > limit
                essential.append(
                    (
                        named_amount(
                            ct.name, ct.unit, f"{format_number(value)} / {format_number(limit)}"
                        ),
                        "bold red" if over else "bold green",
                    )
                )
        errors = sum(1 for i in ev.issues if i.is_error)
        warnings = sum(1 for i in ev.issues if i.severity == "warning")
        if errors:
            essential.append((f"✖ {plural(errors, 'error')}", "bold red"))
        else:
            essential.append(("✔ legal", "bold green"))
        if warnings:
            essential.append((f"⚠ {plural(warnings, 'warning')}", "yellow"))
        values: list[str] = []
        longer = 0
        for v in ev.values_of(ev.root):
            shown = v.display()
            if len(shown) <= SHORT_VALUE:
                values.append(f"{v.label} {shown}")
            else:
                longer += 1
        tail = [("validating…", "italic dim")] if pending else []
        sig = (tuple(essential), tuple(values), longer, tuple(tail))
        self.changed = sig != self._sig
        if not self.changed:
            return
        self._sig = sig
        self._parts = (essential, values, longer, tail)
        width = self.size.width
        self._fit_width = width if width > 0 else -1
        self.set_content(self._fit(width))

    def _fit(self, width: int) -> Text:
        essential, values, longer, tail = self._parts
        parts = fit_parts(essential, values, longer, tail, width if width > 0 else 10_000)
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        for i, (part, style) in enumerate(parts):
            if i:
                text.append(SEPARATOR, "dim")
            text.append(part, style)
        return text

    def _lines(self, width: int) -> list[Strip]:
        # A new width (the terminal was resized): fit the parts to it again.
        if width > 0 and width != self._fit_width:
            self._fit_width = width
            self._content = self._fit(width)
            self._drawn = None
        return super()._lines(width)
