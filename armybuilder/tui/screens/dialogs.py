"""Modal dialogs: a question with buttons, a file path, a new roster."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DirectoryTree, Input, Label, Select, Static

from ...words import unit_is_name
from .base import Dialog

if TYPE_CHECKING:
    from ...catalog import GameSystem, Library

R = TypeVar("R")


class ConfirmScreen(Dialog[str]):
    """A question and a row of buttons; returns the id of the button (``cancel`` on Escape).
    Its key bar says what Enter does (the focused button's label), Tab and Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        message: str,
        buttons: Iterable[tuple[str, str, str]],
        *,
        id: str | None = None,
        wide: bool = False,
        focus: str | None = None,
    ) -> None:
        """``buttons``: (id, label, variant) with variant ``primary``, ``error``, ``default``...

        ``focus``: the id of the button Enter presses at first (the first button without
        it). A question whose first answer drops work focuses ``cancel`` instead."""
        super().__init__(id=id)
        self.dialog_title = title
        self.message = message
        self.buttons = list(buttons)
        self.wide = wide
        self.initial_focus = focus

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog wide" if self.wide else "dialog"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Static(self.message, classes="dialog-message")
            with Horizontal(classes="dialog-buttons"):
                for bid, label, variant in self.buttons:
                    yield Button(label, id=bid, variant=variant)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        if self.initial_focus is not None:
            for button in self.query(Button):
                if button.id == self.initial_focus:
                    button.focus()
                    return
        self.query(Button).first().focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id or "cancel")

    def action_cancel(self) -> None:
        self.dismiss("cancel")


class _FormScreen(Dialog[R]):
    """A dialog with fields: Enter in a field or the first button submits, Cancel or Escape
    closes it with ``None``. The key bar says what Enter does in a field
    (:attr:`submit_label`, the first button's label)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    TAB_LABEL = "Next field"

    def _finish(self) -> None:
        raise NotImplementedError

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._finish()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
        else:
            self._finish()

    def action_cancel(self) -> None:
        self.dismiss(None)


class _RosterFiles(DirectoryTree):
    """Folders and YAML files only."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [
            p
            for p in paths
            if not p.name.startswith(".") and (p.is_dir() or p.suffix in {".yaml", ".yml"})
        ]


class PathScreen(_FormScreen[Path | None]):
    """Ask for a file path (with a folder browser when opening)."""

    def __init__(
        self,
        title: str,
        default: str = "",
        action: str = "OK",
        *,
        browse: Path | None = None,
        must_exist: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.dialog_title = title
        self.default = default
        self.action_label = action
        self.submit_label = action
        self.browse = browse
        self.must_exist = must_exist

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Input(self.default, id="path-input", placeholder="path/to/roster.yaml")
            yield Static("", id="path-error", classes="dialog-error")
            if self.browse is not None:
                yield _RosterFiles(self.browse, id="path-browser")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.action_label, id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        field = self.query_one("#path-input", Input)
        field.focus()
        field.cursor_position = len(field.value)

    def _finish(self) -> None:
        text = self.query_one("#path-input", Input).value.strip()
        if not text:
            self.query_one("#path-error", Static).update("Enter a file name.")
            return
        path = Path(text).expanduser()
        if self.must_exist and not path.is_file():
            self.query_one("#path-error", Static).update(f"No such file: {path}")
            return
        if path.is_dir():
            self.query_one("#path-error", Static).update(f"{path} is a folder.")
            return
        self.dismiss(path)

    @on(DirectoryTree.FileSelected)
    def _file(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        field = self.query_one("#path-input", Input)
        field.value = str(event.path)
        self._finish()


@dataclass
class NewRoster:
    """What the new-roster dialog asks for."""

    system: str
    faction: str
    name: str
    limits: dict[str, float] = field(default_factory=dict)


class NewRosterScreen(_FormScreen[NewRoster | None]):
    """Game system, faction, name and cost limits of a new roster."""

    def __init__(self, library: Library, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.library = library
        self.submit_label = "Create"
        #: What the dialog says is missing or wrong ("" when nothing).
        self.error_text = ""
        #: The limits of the chosen system's hidden cost types, by id: not asked, given to
        #: the new roster (BattleScribe applies a hidden cost type's defaultCostLimit).
        self._hidden_limits: dict[str, float] = {}

    def compose_dialog(self) -> ComposeResult:
        systems = sorted(self.library.systems.values(), key=lambda s: s.name)
        with Vertical(classes="dialog wide", id="new-roster"):
            yield Label("New roster", classes="dialog-title")
            with VerticalScroll(id="new-form"):
                yield from self._form(systems)
            yield Static("", id="new-error", classes="dialog-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Create", id="create", variant="primary")
                yield Button("Cancel", id="cancel")

    def _form(self, systems: list[GameSystem]) -> ComposeResult:
        yield Label("Game system", classes="field-label")
        yield Select[str](
            [(s.name, s.id) for s in systems],
            id="new-system",
            allow_blank=False,
            value=systems[0].id if systems else Select.NULL,
        )
        yield Label("Faction", classes="field-label")
        factions = systems[0].offered_factions() if systems else []
        # No faction is picked for the player (the alphabetically first is nobody's default),
        # unless the system has only one.
        yield Select[str](
            [(f.name, f.id) for f in factions],
            id="new-faction",
            allow_blank=True,
            prompt="(choose a faction)",
            value=factions[0].id if len(factions) == 1 else Select.NULL,
        )
        yield Label("Name", classes="field-label")
        yield Input(id="new-name", placeholder="e.g. 1st Platoon", classes="field")
        yield Vertical(id="new-limits")

    def on_mount(self) -> None:
        self._system_changed()
        self.query_one("#new-name", Input).focus()

    @on(Select.Changed, "#new-system")
    def _on_system(self, event: Select.Changed) -> None:
        event.stop()
        self._system_changed()

    def _system_changed(self) -> None:
        value = self.query_one("#new-system", Select).value
        system = self.library.systems.get(str(value)) if value is not Select.NULL else None
        faction = self.query_one("#new-faction", Select)
        limits = self.query_one("#new-limits", Vertical)
        limits.remove_children()
        self._hidden_limits = {}
        if system is None:
            faction.set_options([])
            return
        factions = system.offered_factions()
        faction.set_options([(f.name, f.id) for f in factions])
        if len(factions) == 1:
            faction.value = factions[0].id
        widgets: list[Label | Input] = []
        # (a system read lazily, BattleScribe data, knows its cost types before a faction)
        for ct, default in system.limit_types():
            if ct.hidden:  # (not asked; its limit applies, as BattleScribe's does)
                if default is not None and ct.default_limit is None:
                    self._hidden_limits[ct.id] = default
                continue
            unit = f" ({ct.unit})" if ct.unit and not unit_is_name(ct.name, ct.unit) else ""
            widgets.append(Label(f"{ct.name} limit{unit}", classes="field-label"))
            text = "" if default is None else f"{default:g}"
            widgets.append(
                Input(
                    text,
                    name=ct.id,
                    type="number",
                    placeholder="no limit",
                    classes="new-limit field",
                )
            )
        limits.mount_all(widgets)

    @on(Input.Changed)
    @on(Select.Changed, "#new-faction")
    def _field_changed(self, event: Input.Changed | Select.Changed) -> None:
        """A message about what was missing goes once the field is filled in."""
        name = self.query_one("#new-name", Input).value.strip()
        faction = self.query_one("#new-faction", Select).value
        text = self.error_text
        if (text.startswith("Give the roster a name") and name) or (
            text.startswith("Choose a game system") and faction is not Select.NULL
        ):
            self._say("")

    def _say(self, text: str) -> None:
        self.error_text = text
        self.query_one("#new-error", Static).update(text)

    def _finish(self) -> None:
        system = self.query_one("#new-system", Select).value
        faction = self.query_one("#new-faction", Select).value
        name = self.query_one("#new-name", Input).value.strip()
        if system is Select.NULL or faction is Select.NULL:
            self._say("Choose a game system and a faction.")
            return
        if not name:
            self._say("Give the roster a name.")
            self.query_one("#new-name", Input).focus()
            return
        limits: dict[str, float] = dict(self._hidden_limits)
        for field_ in self.query(".new-limit").results(Input):
            text = field_.value.strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                self._say(f"{text!r} is not a number.")
                return
            limits[field_.name or ""] = value
        self.dismiss(NewRoster(str(system), str(faction), name, limits))


@dataclass
class NewForce:
    """What the add-force dialog asks for."""

    force: str
    faction: str
    name: str


class AddForceScreen(_FormScreen[NewForce | None]):
    """The force entry, faction and name of a force to add to the roster."""

    def __init__(
        self,
        forces: list[tuple[str, str]],
        factions: list[tuple[str, str]],
        faction: str,
        *,
        id: str | None = None,
    ) -> None:
        """``forces`` and ``factions``: (name, id) to choose from; ``faction``: the one
        chosen at first."""
        super().__init__(id=id)
        self.forces = forces
        self.submit_label = "Add"
        self.factions = factions
        self.faction = faction

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog", id="add-force"):
            yield Label("Add a force", classes="dialog-title")
            yield Label("Force", classes="field-label")
            yield Select[str](
                self.forces, id="force-entry", allow_blank=False, value=self.forces[0][1]
            )
            yield Label("Faction", classes="field-label")
            yield Select[str](
                self.factions, id="force-faction", allow_blank=False, value=self.faction
            )
            yield Label("Name (optional)", classes="field-label")
            yield Input(id="force-name", placeholder="e.g. Vanguard", classes="field")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Add", id="add", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#force-name", Input).focus()

    def _finish(self) -> None:
        force = self.query_one("#force-entry", Select).value
        faction = self.query_one("#force-faction", Select).value
        name = self.query_one("#force-name", Input).value.strip()
        self.dismiss(NewForce(str(force), str(faction), name))


class RenameScreen(_FormScreen[str | None]):
    """A new name for something (empty: its default name)."""

    def __init__(self, title: str, current: str, placeholder: str, *, id: str | None = None):
        super().__init__(id=id)
        self.dialog_title = title
        self.current = current
        self.placeholder = placeholder
        self.submit_label = "Rename"

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog", id="rename"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Input(self.current, id="rename-name", placeholder=self.placeholder)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Rename", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#rename-name", Input).focus()

    def _finish(self) -> None:
        self.dismiss(self.query_one("#rename-name", Input).value)


class FactionScreen(_FormScreen[str | None]):
    """The faction a roster (or a force) changes to, with what becomes of its selections
    shown for the faction chosen before anything changes."""

    def __init__(
        self,
        title: str,
        factions: list[tuple[str, str]],
        current: str,
        preview: Callable[[str], str],
        *,
        id: str | None = None,
    ) -> None:
        """``factions``: (name, id) to choose from; ``current``: the faction now;
        ``preview(faction_id)``: what the change would do, in a sentence."""
        super().__init__(id=id)
        self.dialog_title = title
        self.factions = factions
        self.current = current
        self.preview = preview

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="change-faction"):
            yield Label(self.dialog_title, classes="dialog-title")
            yield Label("Faction", classes="field-label")
            yield Select[str](
                self.factions, id="faction-choice", allow_blank=False, value=self.current
            )
            yield Static("", id="faction-preview", classes="dialog-message")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Change", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self._chosen()
        self.query_one("#faction-choice", Select).focus()

    @on(Select.Changed, "#faction-choice")
    def _on_choice(self, event: Select.Changed) -> None:
        event.stop()
        self._chosen()

    def _chosen(self) -> None:
        value = self.query_one("#faction-choice", Select).value
        text = (
            "Choose another faction: each unit is looked for in its catalog by id, then by name"
            if value == self.current or value is Select.NULL
            else self.preview(str(value))
        )
        self.query_one("#faction-preview", Static).update(text)

    def _finish(self) -> None:
        value = self.query_one("#faction-choice", Select).value
        self.dismiss(None if value is Select.NULL or value == self.current else str(value))
