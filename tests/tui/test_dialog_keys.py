"""A dialog's key bar shows the keys that work in it (the bottom row of the terminal, read as
painted): what Enter does with the focus where it is (the focused button's label, the form's
action in a field, "Choose" in a list), Tab and Esc; never the keys of the screen under it,
which do nothing while the dialog is open (the New roster dialog showed the home screen's
"n New roster ... f1 Help")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import painted
from test_conflict import roster_copy
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import ModalScreen

from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]


def keybar(app: ArmyBuilderApp) -> list[str]:
    """The keys the painted bottom row shows, each "key label", in order."""
    row = painted(app)[-1].split("▏")[0]
    return [part.strip() for part in row.split("  ") if part.strip()]


def keys(app: ArmyBuilderApp, *pairs: tuple[str, str]) -> list[str]:
    """``(key, label)`` pairs as the bar writes them ("⏎ Create")."""
    return [f"{app.get_key_display(Binding(key, ''))} {label}" for key, label in pairs]


async def bar_after(pilot: Pilot[Any], *presses: str) -> list[str]:
    for key in presses:
        await pilot.press(key)
        await pilot.pause()
    await pilot.pause()
    await pilot.pause()
    return keybar(pilot.app)  # type: ignore[arg-type]


def keys_work(app: ArmyBuilderApp, bar: list[str]) -> list[str]:
    """The keys of ``bar`` that nothing in the dialog answers to (empty: all work): each must
    be bound where the focus is, up to the dialog (the screen below hears no key)."""
    chain = app.screen._modal_binding_chain
    shown = {app.get_key_display(b): key for _, bm in chain for key, b in bm}
    dead = []
    for part in bar:
        key = shown.get(part.split(" ")[0])
        if key is None or not any(key in bm.key_to_bindings for _, bm in chain):
            dead.append(part)
    return dead


async def open_dialog(
    pilot: Pilot[Any], key: str, screen_id: str | None = None
) -> ModalScreen[Any]:
    app = pilot.app
    below = app.screen
    await pilot.press(key)
    await wait_for(
        pilot,
        lambda: (
            app.screen is not below
            and isinstance(app.screen, ModalScreen)
            and (screen_id is None or app.screen.id == screen_id)
            and app.screen.is_mounted
        ),
    )
    await pilot.pause()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ModalScreen)
    return screen


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_home_dialogs_show_their_own_keys(make_app: MakeApp, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.screen.id == "home")
        await pilot.pause()
        home = keybar(app)
        assert keys(app, ("n", "New roster"))[0] in home, home

        await open_dialog(pilot, "n", "new-roster-dialog")
        create = keys(app, ("enter", "Create"), ("tab", "Next field"), ("escape", "Cancel"))
        assert keybar(app) == create  # the focus in the name field
        assert await bar_after(pilot, "tab") == create  # the cost limit's field
        assert await bar_after(pilot, "tab") == create  # the Create button
        cancel = keys(app, ("enter", "Cancel"), ("tab", "Next field"), ("escape", "Cancel"))
        assert await bar_after(pilot, "tab") == cancel  # the Cancel button
        choose = keys(app, ("enter", "Choose"), ("tab", "Next field"), ("escape", "Cancel"))
        # (the form's scrolled area, then the game system's list, closed)
        assert await bar_after(pilot, "tab") == keys(
            app, ("tab", "Next field"), ("escape", "Cancel")
        ), app.focused
        assert await bar_after(pilot, "tab") == choose, app.focused
        opened = await bar_after(pilot, "enter")  # ... and open: Esc closes the list
        assert opened[:1] == keys(app, ("enter", "Choose")), opened
        assert keys(app, ("escape", "Close list"))[0] in opened, opened
        assert keys_work(app, opened) == []
        assert await bar_after(pilot, "escape") == choose
        assert app.screen.id == "new-roster-dialog"
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "home")
        assert await bar_after(pilot) == home

        await open_dialog(pilot, "o", "open")
        bar = keybar(app)
        assert bar == keys(app, ("enter", "Open"), ("tab", "Next field"), ("escape", "Cancel"))
        assert keys_work(app, bar) == []
        assert await bar_after(pilot, "tab") == bar[:1] + bar[1:]  # the folder tree: Enter opens
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "home")

        await open_dialog(pilot, "f1")
        assert keybar(app) == keys(app, ("escape", "Close"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.id == "home")
        assert await bar_after(pilot) == home


@run_async
async def test_editor_dialogs_show_their_own_keys(make_app: MakeApp, tmp_path: Path) -> None:
    """Quit with unsaved changes, the file changed on disk, help: each dialog's own keys."""
    path = roster_copy(tmp_path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.press("down", "d")  # an edit: closing asks first
        await pilot.pause()
        editing = await bar_after(pilot)

        await open_dialog(pilot, "ctrl+q", "confirm-close")
        bar = keybar(app)
        assert bar == keys(app, ("enter", "Save"), ("tab", "Next"), ("escape", "Cancel"))
        assert keys_work(app, bar) == []
        assert await bar_after(pilot, "tab") == keys(
            app, ("enter", "Discard changes"), ("tab", "Next"), ("escape", "Cancel")
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is editor)
        assert await bar_after(pilot) == editing

        text = path.read_text(encoding="utf-8").replace("\nname: ", "\nname: Theirs ", 1)
        path.write_text(text, encoding="utf-8")  # another window saves the roster
        await open_dialog(pilot, "ctrl+s", "changed-on-disk")
        bar = keybar(app)
        assert bar == keys(app, ("enter", "Cancel"), ("tab", "Next"), ("escape", "Cancel"))
        assert await bar_after(pilot, "shift+tab") == keys(
            app, ("enter", "Save as…"), ("tab", "Next"), ("escape", "Cancel")
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is editor)

        await open_dialog(pilot, "f1")
        assert keybar(app) == keys(app, ("escape", "Close"))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is editor)
        assert await bar_after(pilot) == editing


@pytest.mark.parametrize("key", ["t", "f12", "g", "u", "ctrl+r", "f1"])
@run_async
async def test_every_editor_dialog_shows_keys_that_work(
    make_app: MakeApp, workdir: Path, key: str
) -> None:
    """Every other dialog of the editor (add force, save as, summary, unit form, PDF
    export, help): a key bar of keys bound in it, none of the editor's. (The faction's
    and rename dialogs are forms like the add force one.)"""
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.press("down")  # a unit: r renames it
        editing = await bar_after(pilot)
        await open_dialog(pilot, key)
        bar = keybar(app)
        assert bar, key
        assert keys_work(app, bar) == [], (key, bar)
        assert not set(bar) & set(editing), (key, bar, editing)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is editor)
        assert await bar_after(pilot) == editing
