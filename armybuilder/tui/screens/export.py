"""The progress of a PDF export. The export itself runs in a worker of the editor, so
hiding this dialog leaves it running; the editor says when it is done."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, ProgressBar, Static


class ExportScreen(ModalScreen[None]):
    """A progress bar for a running export."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "hide", "Hide", show=False)]

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out

    def compose(self) -> ComposeResult:
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
