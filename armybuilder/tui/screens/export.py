"""The progress of a PDF export. The export itself runs in a worker of the editor, so
hiding this dialog leaves it running; the editor says when it is done."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, ProgressBar, Select, Static

from .base import Dialog
from .dialogs import PathScreen


class ExportScreen(Dialog[None]):
    """A progress bar for a running export."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "hide", "Hide", show=False)]

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Export PDF", classes="dialog-title")
            yield Static(f"Rendering {self.out} …", id="export-message")
            yield ProgressBar(total=100, show_eta=False, id="export-progress")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Run in background", id="hide")

    def set_progress(self, fraction: float) -> None:
        self.query_one(ProgressBar).update(progress=max(0.0, min(1.0, fraction)) * 100)

    def finish(self) -> None:
        if self.is_current:
            self.dismiss(None)

    @on(Button.Pressed, "#hide")
    def _hide(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_hide()

    def action_hide(self) -> None:
        self.dismiss(None)


#: Paper sizes the PDF renderer knows (``armybuilder.render.render_pdf(paper=...)``).
PAPERS: list[tuple[str, str]] = [("A4", "a4"), ("Letter (US)", "letter")]


class PdfPathScreen(PathScreen):
    """Where to write the PDF, and on which paper size (A4 or Letter).

    Returns the path like :class:`PathScreen`; the paper chosen is :attr:`paper`.
    """

    def __init__(self, default: str, paper: str = "a4", *, id: str | None = None) -> None:
        super().__init__("Export PDF to", default, "Export", id=id)
        self.paper = paper if paper in {p for _, p in PAPERS} else "a4"

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Input(self.default, id="path-input", placeholder="path/to/roster.pdf")
            yield Label("Paper size", classes="field-label")
            yield Select[str](PAPERS, id="pdf-paper", allow_blank=False, value=self.paper)
            yield Static("", id="path-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.action_label, id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    @on(Select.Changed, "#pdf-paper")
    def _paper(self, event: Select.Changed) -> None:
        event.stop()
        if event.value is not Select.NULL:
            self.paper = str(event.value)
