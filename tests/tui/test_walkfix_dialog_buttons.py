"""Left and Right move the focus between a dialog's buttons (as Tab and Shift+Tab do), the
focused button is painted marked (reversed), and Enter presses it.

A player on the "Replace the file?" dialog (Cancel focused at first) pressed Left to reach
Replace, then Enter: Left did nothing, and Enter cancelled the save they meant to make.
Each check reads the screen as painted: which button's label is reversed, what the key bar
says Enter does, and what the file on disk holds after Enter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for, wait_screen
from test_conflict import roster_copy
from test_dialog_keys import keybar, keys, open_dialog
from test_flows import answer_path
from textual.pilot import Pilot
from textual.widgets import Button, Input

from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]


def marked_buttons(app: ArmyBuilderApp, labels: list[str]) -> list[str]:
    """The labels of ``labels`` painted reversed (the focus mark) on the screen's row that
    shows them all, in the order painted."""
    update = app.screen._compositor.render_full_update()
    for row in update.strips:
        segments = [seg for strip in row for seg in strip]  # type: ignore[attr-defined]
        text = "".join(seg.text for seg in segments)
        if not all(f" {label} " in text for label in labels):
            continue
        marked = []
        for label in labels:
            start = text.index(f" {label} ") + 1
            pos = 0
            for seg in segments:
                seg_text = seg.text
                if pos <= start < pos + len(seg_text):
                    style = seg.style
                    if style is not None and style.reverse:
                        marked.append(label)
                    break
                pos += len(seg_text)
        return marked
    raise AssertionError(f"no painted row shows the buttons {labels}")


async def press(pilot: Pilot[Any], *presses: str) -> None:
    for key in presses:
        await pilot.press(key)
        await pilot.pause()
    await pilot.pause()


@run_async
async def test_left_then_enter_replaces_the_file(make_app: MakeApp, tmp_path: Path) -> None:
    path = roster_copy(tmp_path)
    other = tmp_path / "other.yaml"
    other.write_text("# keep me until replaced\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("f12")
        await answer_path(pilot, other)
        await wait_screen(pilot, "confirm-overwrite")
        await press(pilot)
        buttons = ["Replace", "Cancel"]
        assert marked_buttons(app, buttons) == ["Cancel"]  # (Cancel first: it drops nothing)
        assert keybar(app)[0] == keys(app, ("enter", "Cancel"))[0]
        await press(pilot, "left")
        assert marked_buttons(app, buttons) == ["Replace"]
        assert keybar(app)[0] == keys(app, ("enter", "Replace"))[0]
        await press(pilot, "left")  # (the first button stays focused)
        assert marked_buttons(app, buttons) == ["Replace"]
        await press(pilot, "right")
        assert marked_buttons(app, buttons) == ["Cancel"]
        await press(pilot, "right")  # (so does the last)
        assert marked_buttons(app, buttons) == ["Cancel"]
        await press(pilot, "shift+tab")
        assert marked_buttons(app, buttons) == ["Replace"]
        await press(pilot, "tab")
        assert marked_buttons(app, buttons) == ["Cancel"]
        await press(pilot, "left", "enter")
        await wait_for(pilot, lambda: app.screen is editor)
        assert editor.session is not None and editor.session.path == other
    assert other.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


@run_async
async def test_three_buttons_of_the_unsaved_changes_question(
    make_app: MakeApp, tmp_path: Path
) -> None:
    path = roster_copy(tmp_path)
    before = path.read_text(encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await press(pilot, "down", "d")  # an edit: closing asks first
        await open_dialog(pilot, "ctrl+q", "confirm-close")
        buttons = ["Save", "Discard changes", "Cancel"]
        assert marked_buttons(app, buttons) == ["Save"]
        await press(pilot, "right")
        assert marked_buttons(app, buttons) == ["Discard changes"]
        await press(pilot, "right")
        assert marked_buttons(app, buttons) == ["Cancel"]
        await press(pilot, "left")
        assert marked_buttons(app, buttons) == ["Discard changes"]
        await press(pilot, "left", "left")
        assert marked_buttons(app, buttons) == ["Save"]
        await press(pilot, "right", "right", "enter")  # Cancel: back to the editor
        await wait_for(pilot, lambda: app.screen is editor)
    assert path.read_text(encoding="utf-8") == before


@run_async
async def test_form_buttons_and_fields(make_app: MakeApp) -> None:
    """In a form, Left and Right move a field's cursor, and the focus between the buttons
    once it is on them (the New roster dialog: Create / Cancel)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.screen.id == "home")
        await open_dialog(pilot, "n", "new-roster-dialog")
        name = app.screen.query_one("#new-name", Input)
        assert app.focused is name
        await press(pilot, *"Abc", "left", "left")
        assert app.focused is name and name.cursor_position == 1
        await press(pilot, "right")
        assert app.focused is name and name.cursor_position == 2
        while not isinstance(app.focused, Button):
            await press(pilot, "tab")
        buttons = ["Create", "Cancel"]
        assert marked_buttons(app, buttons) == ["Create"]
        await press(pilot, "right")
        assert marked_buttons(app, buttons) == ["Cancel"]
        assert keybar(app)[0] == keys(app, ("enter", "Cancel"))[0]
        await press(pilot, "left")
        assert marked_buttons(app, buttons) == ["Create"]
        await press(pilot, "right", "enter")
        await wait_for(pilot, lambda: app.screen.id == "home")
