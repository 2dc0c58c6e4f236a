"""Define a unit (``u``): a form that writes an entry into the roster's ``custom:`` list or
into a catalog file of the user's catalog folder (every roster of the faction then has it).

Name, kind, categories, whether it records experience, the stat line of one of the system's
profile types (one field per characteristic, with the system's description as placeholder),
and its costs. At every keystroke the draft is checked by :func:`armybuilder.unitdef.check`
(the checks a catalog file gets, the game system's own profile parser included): each
problem is shown, with the field it is about, and the entry as it will be written. Ctrl+S or
the button adds it (one undoable step); Escape leaves without a change.

Every field is built once, when the form opens (the fields of each profile type in a box of
their own, shown when that type is chosen), so nothing is mounted while the player types.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Select, Static, TextArea

from ...unitdef import (
    Draft,
    check,
    known_entries,
    new_id,
    new_user_file,
    profile_types,
    user_files,
)
from ...words import unit_is_name
from ...yamlio import dump_round_trip
from ..widgets.stable import LiveStatic
from .base import Dialog

if TYPE_CHECKING:
    from ...session import EditSession

KINDS = [("Model (one figure or counter)", "model"), ("Unit (holds models)", "unit"),
         ("Upgrade (weapon, kit)", "upgrade")]  # fmt: skip


class UnitFormScreen(Dialog[Draft | None]):
    """The form; dismissed with the draft to add (``None``: cancelled)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("ctrl+s", "add", "Add", priority=True),
    ]
    #: Enter in a field goes to the next one.
    submit_label = "Next field"

    def __init__(self, session: EditSession) -> None:
        super().__init__()
        self.session = session
        self.types = profile_types(session)
        #: The catalog entries an option may name (linked as they are).
        self.known = known_entries(session)
        self.cost_types = [ct for ct in session.index.cost_types.values() if not ct.hidden]
        #: The problems of the draft as last checked: (field, message).
        self.problems: list[tuple[str, str]] = []

    def compose_dialog(self) -> ComposeResult:
        index = self.session.index
        with VerticalScroll(classes="dialog wide unit-form"):
            yield Label(
                f"Define a unit for this roster ({index.system.name})", classes="dialog-title"
            )
            yield Input(id="u-name", placeholder="Name, e.g. Assault trooper")
            yield Select[str](KINDS, id="u-type", value="model", allow_blank=False)
            cats = ", ".join(list(index.categories)[:12])
            yield Input(id="u-categories", placeholder=f"Categories, comma-separated: {cats}")
            yield Checkbox("Records experience (a level per selection)", id="u-experience")
            options = [(pt.name, pt.id) for pt in self.types.values()]
            yield Select[str](
                options, id="u-profile", prompt="(no stat line)", allow_blank=True,
                value=options[0][1] if options else Select.NULL,
            )  # fmt: skip
            for pt in self.types.values():
                with Vertical(classes="u-chars", name=pt.id):
                    for ch in pt.characteristics:
                        yield Label(ch.name, classes="field-label")
                        yield Input(
                            name=f"char:{pt.id}:{ch.id}",
                            placeholder=ch.description or ch.name,
                            classes="field",
                        )
            for ct in self.cost_types:
                unit = f" ({ct.unit})" if ct.unit and not unit_is_name(ct.name, ct.unit) else ""
                yield Label(f"{ct.name}{unit}", classes="field-label")
                yield Input(name=f"cost:{ct.id}", type="number", classes="field")
            cost = self.cost_types[0].id if self.cost_types else ""
            yield Static(
                "Options, one choice per line: 'Weapon: Rifle, Cannon' (exactly one, the first "
                f"at first) or 'Kit [0-2]: Medkit +3' (+N: its cost{', ' + cost if cost else ''}"
                "); a catalog entry's name links to it",
                classes="field-label u-options-help",
            )
            yield TextArea(id="u-options", classes="u-options", soft_wrap=True)
            yield Label("Write it to", classes="field-label")
            yield Select[str](self._targets(), id="u-where", value="", allow_blank=False)
            yield LiveStatic("", id="u-check")
            yield LiveStatic("", id="u-preview")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Add (Ctrl+S)", id="add", variant="primary")

    def _targets(self) -> list[tuple[str, str]]:
        """Where the unit can go: this roster's ``custom:`` list (value ``""``), a file of
        the user's catalog folder extending the faction, or a new one there."""
        roster = self.session.roster
        out = [("This roster only (its custom: list)", "")]
        files = user_files(roster.system, roster.faction)
        for path in files:
            out.append((f"Every {roster.faction} roster: {path.name} (user catalogs)", str(path)))
        fresh = new_user_file(roster.system, roster.faction)
        if fresh not in files:
            out.append((f"Every {roster.faction} roster: new file {fresh}", str(fresh)))
        return out

    def on_mount(self) -> None:
        self._refresh()
        self.query_one("#u-name", Input).focus()

    # ----------------------------------------------------------------- the draft

    def draft(self) -> Draft:
        profile = self.query_one("#u-profile", Select).value
        profile_id = str(profile) if profile is not Select.NULL else ""
        kind = self.query_one("#u-type", Select).value
        chars: dict[str, str] = {}
        costs: dict[str, str] = {}
        for field in self.query(Input):
            name = field.name or ""
            if name.startswith(f"char:{profile_id}:") and profile_id:
                chars[name.split(":", 2)[2]] = field.value
            elif name.startswith("cost:"):
                costs[name[5:]] = field.value
        return Draft(
            name=self.query_one("#u-name", Input).value,
            type=str(kind) if kind is not Select.NULL else "model",
            categories=self.query_one("#u-categories", Input).value,
            profile_type=profile_id,
            experience=self.query_one("#u-experience", Checkbox).value,
            characteristics=chars,
            costs=costs,
            target=self._target(),
            options=self.query_one("#u-options", TextArea).text,
            known=self.known,
            option_cost=self.cost_types[0].id if self.cost_types else "",
        )

    def _target(self) -> Path | None:
        where = self.query_one("#u-where", Select).value
        return Path(str(where)) if where and where is not Select.NULL else None

    def _refresh(self) -> None:
        draft = self.draft()
        for box in self.query(".u-chars"):
            box.display = box.name == draft.profile_type
        self.problems = check(self.session, draft)
        text = Text()
        if self.problems:
            for n, (where, message) in enumerate(self.problems):
                if n:
                    text.append("\n")
                text.append("✖ ", "bold red")
                if where:
                    text.append(f"{where}: ", "bold")
                text.append(message)
        else:
            text.append("✔ Ready to add", "bold green")
        self.query_one("#u-check", LiveStatic).set_content(text)
        entry = draft.entry(new_id(self.session, draft.name or "unit"))
        if draft.target is None:
            preview = Text("custom:\n  entries:\n", "dim")
        else:
            preview = Text(f"{draft.target}\nentries:\n", "dim")
        preview.append(_indent(dump_round_trip([entry])), "cyan")
        self.query_one("#u-preview", LiveStatic).set_content(preview)

    @on(Input.Changed)
    @on(TextArea.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self, event: Any) -> None:
        event.stop()
        self._refresh()

    # ----------------------------------------------------------------- leaving

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
        else:
            self.action_add()

    def action_add(self) -> None:
        self._refresh()
        if self.problems:
            where, message = self.problems[0]
            self.app.notify(
                f"Not added yet: {where + ': ' if where else ''}{message}", severity="warning"
            )
            return
        self.dismiss(self.draft())

    def action_cancel(self) -> None:
        self.dismiss(None)


def _indent(text: str) -> str:
    return "".join(f"  {line}\n" for line in text.splitlines())
