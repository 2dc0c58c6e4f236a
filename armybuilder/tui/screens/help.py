"""The help screen: every key binding, its id (for the settings file) and what it does."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from ..bindings import APP_ACTIONS, EDITOR_ACTIONS, HOME_ACTIONS, ActionSpec
from ..settings import settings_path
from .base import Dialog

SECTIONS: list[tuple[str, list[ActionSpec]]] = [
    ("Everywhere", APP_ACTIONS),
    ("Home screen", HOME_ACTIONS),
    ("Roster editor", EDITOR_ACTIONS),
]


def display_keys(keys: str) -> str:
    """``ctrl+s,f12`` -> ``Ctrl+S, F12``."""
    names = {
        "question_mark": "?",
        "slash": "/",
        "plus": "+",
        "minus": "-",
        "equals_sign": "=",
        "full_stop": ".",
        "delete": "Del",
        "insert": "Ins",
        "escape": "Esc",
    }
    out = []
    for key in keys.split(","):
        parts = [
            names.get(p, ("Shift+" + p if p.isupper() else p.upper()) if len(p) == 1 else p.title())
            for p in key.split("+")
        ]
        out.append("+".join(parts))
    return ", ".join(out)


def bindings_table(keymap: dict[str, str]) -> Table:
    """All bindings in one table, a heading row per section."""
    table = Table(expand=True, box=None, padding=(0, 2, 0, 0), show_header=True)
    table.add_column("Keys", style="bold cyan", no_wrap=True)
    table.add_column("Action", ratio=1)
    table.add_column("Binding id", style="dim", no_wrap=True)
    for title, specs in SECTIONS:
        table.add_row(Text(title, "bold underline"), "", "")
        for spec in specs:
            table.add_row(display_keys(keymap.get(spec.id, spec.keys)), spec.help, spec.id)
        table.add_row("", "", "")
    table.add_row(Text("Also", "bold underline"), "", "")
    for keys, text in (
        ("Ctrl+P", "Command palette: every action, and 'Add …' for each catalog entry"),
        ("Tab, Shift+Tab", "Move between the catalog, the roster, the issues and details"),
        ("Enter", "Catalog: add the entry. Issues: jump to the unit it is about"),
        ("Enter in a field", "Apply it and go back to the roster tree"),
        ("Esc in a field", "Leave it unchanged (the search box: clear the search)"),
        ("Ctrl keys", "Work in fields too, after applying what was typed there"),
        ("Double click", "Catalog: add the entry"),
        ("Left, Right", "Roster tree: collapse / expand, go to parent / first child"),
    ):
        table.add_row(keys, text, "")
    return table


class HelpScreen(Dialog[None]):
    """Key bindings and where to change them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "close", "Close", show=False)
    ]

    def __init__(self, keymap: dict[str, str] | None = None) -> None:
        super().__init__()
        self.keymap = keymap or {}

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            yield Label("Key bindings", classes="dialog-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(bindings_table(self.keymap), id="help-table")
                yield Static(
                    Text.assemble(
                        ("\nRemap keys in ", ""),
                        (str(settings_path()), "bold"),
                        (', e.g.\n  [keys]\n  "editor.add" = "a,insert"\n', ""),
                        ("See docs/tui.md. Esc closes this screen.", "dim"),
                    ),
                    id="help-settings",
                )

    def action_close(self) -> None:
        self.dismiss(None)
