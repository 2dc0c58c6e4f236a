"""Undo and redo pressed in a details field (issue 18): the field shows what the roster has
after the undo, as it is painted, not the text that was just undone.

Ctrl+Z in the Notes field applied the notes typed there, undid them, and left the field
showing them: the roster had no notes, the screen said it had, and saving wrote none (seen
in tmux on a Gaslands car: "needs paint" still in the field, ``armybuilder show`` without
it). The same for the name, the count and the roster's name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from screen import normal, pane_lines
from test_focus import SQUAD, copy_of
from test_screen_model import settle
from textual.pilot import Pilot
from textual.widgets import Input

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


def shown(app: ArmyBuilderApp, field: Input) -> str:
    """The field's text as the terminal shows it."""
    return normal(" ".join(pane_lines(app, field)))


def in_roster(editor: EditorScreen, wid: str) -> str:
    """What the roster has for the field ``wid`` of the selection."""
    s = editor.session
    assert s is not None
    ev = s.evaluate()
    if wid == "d-roster-name":
        return ev.roster.name
    node = ev.root.children[0]
    assert node.data is not None
    if wid == "d-name":
        return node.data.name or ""
    if wid == "d-notes":
        return node.data.notes or ""
    return str(node.count)


async def field_focused(pilot: Pilot[Any], editor: EditorScreen, wid: str) -> Input:
    """Tab from the first field (F6) to ``wid``."""
    editor.roster_tree.focus()
    if wid != "d-roster-name":
        await pilot.press("down")  # the squad
    await settle(pilot, editor)
    await pilot.press("f6")
    await pilot.pause()
    for _ in range(8):
        focused = pilot.app.focused
        if isinstance(focused, Input) and focused.id == wid:
            return focused
        await pilot.press("tab")
        await pilot.pause()
    raise AssertionError(f"Tab never reached #{wid}; at {pilot.app.focused}")


@pytest.mark.parametrize(
    ("wid", "typed"),
    [("d-name", "Bravo"), ("d-notes", "needs paint"), ("d-count", "3"), ("d-roster-name", "X")],
)
@run_async
async def test_ctrl_z_in_a_field_shows_the_undone_value(
    make_app: MakeApp, workdir: Path, wid: str, typed: str
) -> None:
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        field = await field_focused(pilot, editor, wid)
        before = in_roster(editor, wid)
        assert shown(app, field) == before
        await pilot.press("ctrl+u", *typed)
        await pilot.press("ctrl+z")  # applies the typing, then undoes it
        await settle(pilot, editor)
        assert in_roster(editor, wid) == before
        assert app.focused is field
        assert shown(app, field) == before, (wid, shown(app, field), before)
        await pilot.press("ctrl+y")
        await settle(pilot, editor)
        assert in_roster(editor, wid) == typed
        assert shown(app, field) == typed
        # Typing goes on from the end of the text shown, and the field commits it.
        await pilot.press("1", "enter")
        await settle(pilot, editor)
        assert in_roster(editor, wid) == typed + "1"
        assert shown(app, editor.query_one(f"#{wid}", Input)) == typed + "1"


@run_async
async def test_ctrl_z_twice_in_a_field_then_leaving_keeps_the_undo(
    make_app: MakeApp, workdir: Path
) -> None:
    """The text shown after an undo is the roster's: leaving the field (which commits what
    it shows) does not bring the undone edit back."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        field = await field_focused(pilot, editor, "d-notes")
        await pilot.press(*"first", "enter")
        await settle(pilot, editor)
        field = await field_focused(pilot, editor, "d-notes")
        await pilot.press("ctrl+u", *"second", "ctrl+z", "ctrl+z")
        await settle(pilot, editor)
        assert in_roster(editor, "d-notes") == ""
        assert shown(app, field) == ""
        await pilot.press("f3")
        await settle(pilot, editor)
        assert in_roster(editor, "d-notes") == ""
        s = editor.session
        assert s is not None and s.history == []


@pytest.mark.parametrize("leave", ["enter", "f3", "tab"])
@run_async
async def test_a_count_left_empty_shows_the_count_again(
    make_app: MakeApp, workdir: Path, leave: str
) -> None:
    """A count cleared and left (Enter, F3, Tab) is no count: nothing changes, and the field
    shows the unit's count again, not a blank (seen in tmux on a Necron Warriors unit at
    80x24: "−          +" beside a unit of 1)."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        field = await field_focused(pilot, editor, "d-count")
        before = in_roster(editor, "d-count")
        await pilot.press("ctrl+u", leave)
        await settle(pilot, editor)
        assert app.focused is not field
        assert in_roster(editor, "d-count") == before
        assert shown(app, field) == before, (shown(app, field), before)
        s = editor.session
        assert s is not None and s.history == []


@run_async
async def test_ctrl_q_in_a_field_asks_about_the_text_typed(
    make_app: MakeApp, workdir: Path
) -> None:
    """Ctrl+Q with a name typed in the field of a saved roster quit at once, the name lost
    (seen in tmux on an Orks roster); it is applied first, as Ctrl+W does, so quitting asks
    about it."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await field_focused(pilot, editor, "d-name")
        s = editor.session
        assert s is not None and not s.dirty
        await pilot.press("ctrl+u", *"Bravo", "ctrl+q")
        await pilot.pause()
        assert s.history == ["Rename to Bravo"]
        assert app.screen.id == "confirm-close", app.screen
        assert app.is_running
