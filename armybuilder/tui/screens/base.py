"""What the builder's screens share: the full screens' application, and the dialogs' key bar."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.geometry import Region
from textual.notifications import Notification
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Tree

from ..widgets.stable import StableFooter

if TYPE_CHECKING:
    from ..app import ArmyBuilderApp

R = TypeVar("R")


class ArmyScreen(Screen[None]):
    """A full screen of the builder (the home screen, the editor)."""

    @property
    def army_app(self) -> ArmyBuilderApp:
        """The application, with its library, settings and folders."""
        from ..app import ArmyBuilderApp

        assert isinstance(self.app, ArmyBuilderApp)
        return self.app


class DialogFooter(StableFooter):
    """A dialog's key bar: its own keys, without the command palette's."""

    SLOTS = 8

    def __init__(self) -> None:
        super().__init__(show_command_palette=False)


class Dialog(ModalScreen[R]):
    """A dialog over another screen, with a key bar of its own.

    The screen below keeps its key bar, whose keys do nothing while a dialog is open (the
    home screen's "n New roster" stayed at the bottom of the New roster dialog): a dialog
    covers it with one that shows the keys that work in the dialog, for the focus where it
    is: what Enter does there (the button's label, the form's action in a field, "Choose" in
    a list), Tab to the next field, and Esc (cancel, or close an open list). Only keys
    bound where the focus is are shown, so the bar never offers a key that does nothing.
    Subclasses compose their content in :meth:`compose_dialog`.

    Left and Right move the focus between the buttons of a row (as Tab and Shift+Tab do,
    which also reach the fields): a player on "Cancel" of "Replace / Cancel" pressed Left
    then Enter to replace the file and cancelled the save instead. In a text field they
    move its cursor, as before."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "button(-1)", "Previous button", show=False),
        Binding("right", "button(1)", "Next button", show=False),
    ]

    #: What Tab is said to do.
    TAB_LABEL = "Next"
    #: What Enter in a text field does (a form's action, "Create"); ``None``: nothing.
    submit_label: str | None = None

    def compose(self) -> ComposeResult:
        yield from self.compose_dialog()
        yield DialogFooter()

    def compose_dialog(self) -> ComposeResult:
        """The dialog's own widgets (the key bar follows them)."""
        return iter(())

    def place_notices(self, notices: list[Notification]) -> None:
        """Show ``notices`` (Textual's toasts, at the bottom right) at the top right instead
        while at the bottom they would cover the focused field. At 80x24 a form fills the
        screen: "Not added yet: ..." of the Define a unit form covered the field being typed
        in. Where the toasts will be is worked out from their text before the layout that
        places them (as Textual's styles size a toast: 60 wide at the most, half the screen;
        its padding and left edge, 3 columns; one row above it, two of padding; the rack one
        row above the bottom), so that no frame shows one over the field."""
        top = False
        focused = self.focused
        live = [n for n in notices if not n.has_expired]
        if live and focused is not None and focused.region:
            size = self.size
            width = min(60, size.width // 2)
            console = self.app.console
            height = 0
            for notice in live:
                text = Text.from_markup(notice.message) if notice.markup else Text(notice.message)
                height += 3 + (1 if notice.title else 0)
                height += len(text.wrap(console, max(1, width - 3)))
            x = size.width - width
            bottom = Region(x, size.height - 1 - height, width, height)
            top = bottom.overlaps(focused.region) and not Region(x, 0, width, height).overlaps(
                focused.region
            )
        self.set_class(top, "-notices-top")

    def _on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # (a toast shown stays clear of the field the focus moves to)
        self.place_notices(list(self.app._notifications))

    def _button_row(self) -> tuple[list[Button], int] | None:
        """The focusable buttons of the row the focused button is in, and its place there;
        ``None`` when the focus is not on a button."""
        focused = self.focused
        if not isinstance(focused, Button) or focused.parent is None:
            return None
        row = [w for w in focused.parent.children if isinstance(w, Button) and w.focusable]
        return row, row.index(focused)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "button":
            return self._button_row() is not None
        return super().check_action(action, parameters)

    def action_button(self, step: int) -> None:
        """Focus the button ``step`` places along the focused one's row (not past its ends)."""
        found = self._button_row()
        if found is None:
            return
        row, at = found
        to = max(0, min(len(row) - 1, at + step))
        if to != at:
            row[to].focus()

    def key_label(self, key: str, found: ActiveBinding) -> str | None:
        """What ``key`` does with the focus where it is (``found``: the binding it runs), as
        the key bar says it; ``None``: not shown."""
        node: Any = found.node
        binding = found.binding
        if key == "enter":
            if isinstance(node, Input):
                return self.submit_label
            if isinstance(node, Button):
                return str(node.label)
            if isinstance(node, (Select, OptionList)):
                return "Choose"
            if isinstance(node, Tree):
                return "Open"
            if isinstance(node, Checkbox):
                return "Toggle"
        elif key == "tab":
            if isinstance(node, Screen) and len(self.focus_chain) > 1:
                return self.TAB_LABEL
            return None
        elif key == "escape":
            if isinstance(node, OptionList):  # a Select's open list
                return "Close list"
            if node is self:
                return binding.description
        return binding.description if binding.show else None

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The bindings where the focus is, Enter, Tab and Esc first, each labelled with what
        it does there (:meth:`key_label`)."""
        active = super().active_bindings
        shown: dict[str, ActiveBinding] = {}
        for key in ("enter", "tab", "escape"):
            found = active.get(key)
            if found is None:
                continue
            label = self.key_label(key, found)
            binding = found.binding
            if label:
                binding = replace(binding, description=label, show=True)
            elif binding.show:
                binding = replace(binding, show=False)
            shown[key] = found._replace(binding=binding)
        for key, found in active.items():
            shown.setdefault(key, found)
        return shown
