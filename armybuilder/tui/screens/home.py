"""The home screen: recent rosters, unsaved work to recover, a new roster, any file."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...session import RecentEntry, RecentFiles, RecoveryInfo, list_recoveries
from ...words import plural
from ..bindings import HOME_ACTIONS, bindings
from .base import ArmyScreen

if TYPE_CHECKING:
    pass


def shown_path(path: Path, cwd: Path) -> str:
    """A path relative to the current folder when inside it, else with ``~``."""
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        pass
    home = Path.home()
    try:
        return "~" + os.sep + str(path.resolve().relative_to(home))
    except ValueError:
        return str(path)


def _when(ts: float) -> str:
    if not ts:
        return ""
    return dt.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


class HomeScreen(ArmyScreen):
    """Where the TUI starts without a file."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(HOME_ACTIONS)

    def __init__(self, cwd: Path | None = None) -> None:
        super().__init__(id="home")
        self.cwd = cwd or Path.cwd()
        self._recent: list[RecentEntry] = []
        self._recoveries: list[RecoveryInfo] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home-body"):
            yield Static(
                Text.assemble(
                    ("armybuilder", "bold"),
                    ("  build, edit and validate rosters", "dim"),
                ),
                id="home-title",
            )
            with Horizontal(id="home-buttons"):
                yield Button("New roster (n)", id="home-new", variant="primary")
                yield Button("Open file (o)", id="home-open")
                yield Button("Help (F1)", id="home-help")
            with Vertical(id="recover-pane"):
                yield Label("Unsaved work to recover", id="recover-title", classes="pane-title")
                yield OptionList(id="recover-list")
            with Vertical(id="recent-pane"):
                yield Label("Recent rosters", classes="pane-title")
                yield OptionList(id="recent-list")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_lists()
        # Enter opens what is highlighted in the list listed first: unsaved work to recover
        # when there is some (the focus was on the recent list below it, so Enter opened the
        # first recent roster while the recovery showed highlighted above).
        first = "#recover-list" if self._recoveries else "#recent-list"
        self.query_one(first, OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_lists()

    def refresh_lists(self) -> None:
        """Read the recent list, the current folder and the recovery journals again."""
        recent = RecentFiles().entries()
        seen = {e.path.resolve() for e in recent}
        for entry in RecentFiles.scan_folder(self.cwd):
            if entry.path.resolve() not in seen:
                entry.opened = 0.0  # found in the folder, not opened here: no date shown
                recent.append(entry)
                seen.add(entry.path.resolve())
        self._recent = recent
        options = self.query_one("#recent-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        for entry in recent:
            prompt = Text(entry.name or entry.path.stem, "bold")
            prompt.append(f"  {entry.system} · {entry.faction}", "dim")
            prompt.append(f"\n  {shown_path(entry.path, self.cwd)}", "")
            when = _when(entry.opened)
            if when:
                prompt.append(f"  {when}", "dim")
            options.add_option(Option(prompt))
        if not recent:
            options.add_option(
                Option(
                    Text("No rosters yet: press n for a new one, o to open a file.", "dim"),
                    disabled=True,
                )
            )
        else:
            options.highlighted = min(highlighted or 0, len(recent) - 1)
        # Unsaved edits left by a session that did not end normally (opening the roster
        # offers to recover them; a roster never saved is recovered from here).
        self._recoveries = [r for r in list_recoveries() if not r.other_process_alive]
        rec = self.query_one("#recover-list", OptionList)
        rec.clear_options()
        for info in self._recoveries:
            prompt = Text(info.name or "Untitled roster", "bold")
            prompt.append(f"  {info.system} · {info.faction}", "dim")
            where = shown_path(info.file, self.cwd) if info.file else "never saved"
            prompt.append(f"\n  {where}; {plural(info.edits, 'edit')}, {_when(info.updated)}", "")
            rec.add_option(Option(prompt))
        if self._recoveries:
            rec.highlighted = 0
        shown = bool(self._recoveries)
        if rec.has_focus and not shown:
            options.focus()
        rec.display = shown
        self.query_one("#recover-title").display = shown

    @on(OptionList.OptionSelected, "#recent-list")
    def _open_recent(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._recent):
            self.army_app.open_roster(self._recent[event.option_index].path)

    @on(OptionList.OptionSelected, "#recover-list")
    def _recover(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._recoveries):
            info = self._recoveries[event.option_index]
            if info.file is not None:
                # The file the edits began on (a .ros not saved as YAML since: the .ros),
                # which offers to recover them.
                self.army_app.open_roster(info.file)
            else:
                self.army_app.recover_untitled(info)

    @on(Button.Pressed, "#home-new")
    def _new(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_new_roster()

    @on(Button.Pressed, "#home-open")
    def _open(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_open_file()

    @on(Button.Pressed, "#home-help")
    def _help(self, event: Button.Pressed) -> None:
        event.stop()
        self.army_app.action_help()

    def action_new_roster(self) -> None:
        self.army_app.new_roster_dialog()

    def action_open_file(self) -> None:
        self.army_app.open_file_dialog()

    def action_refresh(self) -> None:
        self.refresh_lists()

    def action_forget(self) -> None:
        options = self.query_one("#recent-list", OptionList)
        index = options.highlighted
        if options.has_focus and index is not None and 0 <= index < len(self._recent):
            RecentFiles().remove(self._recent[index].path)
            self.refresh_lists()
