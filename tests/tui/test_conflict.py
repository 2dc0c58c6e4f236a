"""Two windows on one roster (issue 12, item 5): saving over a file that another window or
program saved since it was opened asks first: reload, overwrite, save as, or cancel."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from textual.pilot import Pilot
from textual.widgets import Button

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.dialogs import ConfirmScreen, PathScreen
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


def roster_copy(folder: Path) -> Path:
    path = folder / "squad.yaml"
    path.write_bytes((EXAMPLES / "space-hulk/standard-squad.yaml").read_bytes())
    return path


def save_elsewhere(path: Path) -> str:
    """What another window does: save the roster with another name."""
    text = path.read_text(encoding="utf-8").replace("\nname: ", "\nname: Theirs ", 1)
    assert "name: Theirs" in text
    path.write_text(text, encoding="utf-8")
    return text


async def edit_and_save(pilot: Pilot[Any], editor: EditorScreen) -> None:
    editor.roster_tree.focus()
    await pilot.press("down", "d")  # duplicate the squad: an edit of this window
    await pilot.pause()
    assert editor.session is not None and editor.session.dirty
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: pilot.app.screen.id == "changed-on-disk")


def buttons_inside(app: ArmyBuilderApp) -> None:
    screen = app.screen
    assert isinstance(screen, ConfirmScreen)
    area = app.screen.region
    for button in screen.query(Button):
        assert area.contains_region(button.region), (button.id, button.region, area)
        assert button.region.area > 0


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
@run_async
async def test_overwrite_keeps_the_other_version_as_backup(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int]
) -> None:
    path = roster_copy(tmp_path)
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        theirs = save_elsewhere(path)
        await edit_and_save(pilot, editor)
        assert path.read_text(encoding="utf-8") == theirs  # nothing written yet
        buttons_inside(app)
        await pilot.click("#overwrite")
        await wait_for(pilot, lambda: app.screen is editor)
        assert path.read_text(encoding="utf-8") != theirs
        assert "Theirs" not in path.read_text(encoding="utf-8")
        assert path.with_name("squad.yaml.bak").read_text(encoding="utf-8") == theirs
        assert editor.session is not None and not editor.session.dirty


@run_async
async def test_reload_shows_the_file_as_saved_elsewhere(make_app: MakeApp, tmp_path: Path) -> None:
    path = roster_copy(tmp_path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        theirs = save_elsewhere(path)
        await edit_and_save(pilot, editor)
        await pilot.click("#reload")
        await wait_for(pilot, lambda: app.screen is editor)
        await pilot.pause()
        s = editor.session
        assert s is not None and not s.dirty
        assert s.name.startswith("Theirs")
        assert path.read_text(encoding="utf-8") == theirs
        assert editor.title.startswith("Theirs")


@run_async
async def test_save_as_and_cancel(make_app: MakeApp, tmp_path: Path) -> None:
    path = roster_copy(tmp_path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        theirs = save_elsewhere(path)
        await edit_and_save(pilot, editor)
        await pilot.press("escape")  # cancel: nothing written, still unsaved
        await wait_for(pilot, lambda: app.screen is editor)
        assert path.read_text(encoding="utf-8") == theirs
        assert editor.session is not None and editor.session.dirty
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "changed-on-disk")
        await pilot.click("#save-as")
        await wait_for(pilot, lambda: isinstance(app.screen, PathScreen))
        other = tmp_path / "mine.yaml"
        app.screen.query_one("#path-input").value = str(other)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for(pilot, lambda: other.exists())
        assert path.read_text(encoding="utf-8") == theirs
        assert "Theirs" not in other.read_text(encoding="utf-8")
