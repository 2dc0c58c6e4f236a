"""The list at a glance: the roster's categories against their limits, what is still
required, cost per category against the limit, and what cannot be added now and why.

The figures are :func:`armybuilder.overview.overview`'s; this screen only shows its lines.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from ...overview import Overview
from .base import Dialog

_HEADINGS = ("Category:", "Still required:", "Cannot be added now:")
#: What the summary says while the roster's latest state is being checked.
WORKING = "Working: checking the roster as it is now…"


def overview_text(view: Overview) -> Text:
    """The overview's lines, headings in bold and problems in the error colour."""
    text = Text()
    for i, line in enumerate(view.lines()):
        if i:
            text.append("\n")
        if line.startswith(_HEADINGS) or line.startswith("Totals:"):
            text.append(line, "bold")
        elif "✖" in line:
            text.append(line, "red")
        elif "⚠" in line:
            text.append(line, "yellow")
        else:
            text.append(line)
    return text


class SummaryScreen(Dialog[None]):
    """The roster at a glance (Esc closes)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,g,f9,q", "close", "Close", show=False)]

    def __init__(self, name: str, view: Overview | None) -> None:
        """``view``: the figures; ``None`` while the roster's latest state is being checked
        (the screen says so until :meth:`show` gives them)."""
        super().__init__(id="summary")
        self.roster_name = name
        self.view = view

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog summary"):
            yield Label(self._title(), classes="dialog-title", id="summary-title")
            with VerticalScroll(id="summary-scroll"):
                yield Static(self._text(), id="summary-text")
            yield Label("Esc closes", classes="dialog-message")

    def _text(self) -> Text:
        if self.view is None:
            return Text(WORKING, "italic")
        return overview_text(self.view)

    def _title(self) -> str:
        return f"{self.roster_name} at a glance"

    def show(self, name: str, view: Overview | None) -> None:
        """Show another roster's (or the same roster's new) figures: the editor keeps one
        summary screen and brings it back with new content, which is faster than building
        the screen again each time."""
        self.roster_name, self.view = name, view
        if self.is_mounted:
            self.query_one("#summary-title", Label).update(self._title())
            self.query_one("#summary-text", Static).update(self._text())
            self.query_one("#summary-scroll", VerticalScroll).scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
