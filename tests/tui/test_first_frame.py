"""The first frame of a roster opened from a file is right, without a key press (Pilot).

A roster named on the command line is read in a worker while the editor shows "loading";
when it arrives, the panes are filled and the screen is laid out for the first time with
them. That frame used to be painted with the catalog's search box still focused (so, at 80
columns, the catalog wide and the roster tree narrow), the footer without the editing keys,
and the tree's labels and the issues fitted to no width (cut at the pane's edge: "440 / 1");
the panes were put right a message later, after the collection of the heap that follows the
load, seconds on a busy machine. The footer showed the loading screen's keys in that frame and
the editing keys half a second to a second later (Textual's footer composes its key widgets
after the repaint that follows a focus move); it shows them from the first frame now. Every
frame sent to the terminal once the roster shows is compared here with what the session
computes, its footer included.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REAL_SETTLE_HEAP, at_sizes, run_async, sizes, wait_editor, wait_for
from screen import painted
from test_screen_model import screen_problems

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens import editor as editor_module
from armybuilder.tui.screens.editor import EditorScreen


def frame_problems(app: ArmyBuilderApp, editor: EditorScreen, footer: bool = True) -> list[str]:
    """What is wrong with the frame about to be sent: the panes against the session, the
    focus (the roster tree's, so the catalog is at its unfocused width) and the footer (the
    editing keys)."""
    problems = screen_problems(app, editor)
    if app.focused is not editor.roster_tree:
        problems.append(f"the focus is on {app.focused!r}, not the roster tree")
    rows = painted(app)
    keys = rows[-1]
    if footer and ("Add" not in keys or "Save" not in keys):
        problems.append(f"the footer shows {keys.strip()!r}")
    # The size classes the style sheet reads (the side panes' widths at 80 columns).
    width, height = app.size
    for name, wanted in [
        ("-narrow", width < 110),
        ("-wide", width >= 110),
        ("-short", height < 32),
        ("-tall", height >= 32),
    ]:
        if editor.has_class(name) != wanted:
            problems.append(f"the screen at {width}x{height} {'lacks' if wanted else 'has'} {name}")
    session = editor.session
    title = rows[0]
    if session is not None and (session.name not in title or "loading" in title):
        problems.append(f"the header shows {title.strip()!r}")
    return problems


@pytest.mark.parametrize(
    ("roster", "size"),
    # (CI: each roster at one size; ARMYBUILDER_TUI_ALL=1: both at both sizes)
    at_sizes("starship-marine/earther-regiment.yaml", "space-hulk/standard-squad.yaml"),
)
@run_async
async def test_the_first_frame_of_a_loaded_roster_matches_the_model(
    make_app: Any,
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    roster: str,
    size: tuple[int, int],
) -> None:
    path = workdir / Path(roster).name
    shutil.copy(EXAMPLES / roster, path)
    app = make_app(path)
    frames: list[tuple[list[str], list[str]]] = []
    settled: list[list[str]] = []

    def record() -> None:
        screen = app.screen
        if (
            isinstance(screen, EditorScreen)
            and screen.session is not None
            and not screen.query_one("#editor-body").loading
            and screen.roster_tree.region  # laid out (until then the screen shows "loading")
        ):
            frames.append((painted(app), frame_problems(app, screen)))

    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            record()
        display(screen, renderable)

    monkeypatch.setattr(app, "_display", spy)
    # What the player sees while the heap is collected after the load (it blocks the app
    # for a moment, seconds on a loaded machine): the frame on screen then.
    settle = REAL_SETTLE_HEAP  # (the other builder tests leave it out: conftest.py)

    def settle_heap() -> None:
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        settled.append(frame_problems(app, screen))
        settle()

    monkeypatch.setattr(editor_module, "settle_heap", settle_heap)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        await wait_for(pilot, lambda: bool(settled) and bool(frames))
        await pilot.pause()
        assert editor.session is not None
        assert frame_problems(app, editor) == []
    # The frame on screen while the app is held by the collection: the settled editor.
    assert settled == [[]], settled
    # Every frame that shows the roster shows it right, from the first one.
    first_rows, first_problems = frames[0]
    assert first_problems == [], "\n".join([*first_problems, *first_rows])
    assert [p for _, p in frames if p] == []


@pytest.mark.parametrize("size", sizes((80, 24)))  # (160x48: ARMYBUILDER_TUI_ALL=1)
@run_async
async def test_the_first_frame_of_a_new_roster_matches_the_model(
    make_app: Any, workdir: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """A roster made with the New roster dialog: every frame from the first one that shows
    it is right (panes, focus, footer, title), without a key press."""
    from textual.widgets import Select

    from armybuilder.tui.screens.dialogs import NewRosterScreen

    app = make_app()
    frames: list[tuple[list[str], list[str]]] = []

    def record() -> None:
        screen = app.screen
        if (
            isinstance(screen, EditorScreen)
            and screen.session is not None
            and screen.session.evaluation is not None
            and screen.roster_tree.region
        ):
            frames.append((painted(app), frame_problems(app, screen)))

    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            record()
        display(screen, renderable)

    monkeypatch.setattr(app, "_display", spy)
    async with app.run_test(size=size) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
        dialog = app.screen
        dialog.query_one("#new-system", Select).value = "starship-troopers"
        await pilot.pause()
        dialog.query_one("#new-faction", Select).value = "mobile-infantry"
        await pilot.pause()
        await pilot.press(*"Crew")
        await pilot.press("enter")
        editor = await wait_editor(pilot)
        await wait_for(pilot, lambda: bool(frames))
        await pilot.pause(0.3)
        assert frame_problems(app, editor) == []
    first_rows, first_problems = frames[0]
    assert first_problems == [], "\n".join([*first_problems, *first_rows])
    assert [p for _, p in frames if p] == []


@run_async
async def test_every_frame_after_a_resize_has_the_size_classes(
    make_app: Any, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Resizing the terminal (160x48 to 80x24 and back, with a dialog open once): no frame is
    painted with the panes of the other size (Textual laid the screen out for the new size,
    painted it, then changed the classes the side panes' widths follow)."""
    path = workdir / "earther-regiment.yaml"
    shutil.copy(EXAMPLES / "starship-marine" / "earther-regiment.yaml", path)
    app = make_app(path)
    problems: list[str] = []
    watching = False
    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        if watching and renderable is not None:
            width, height = app.size
            for name, wanted in [("-narrow", width < 110), ("-short", height < 32)]:
                for shown in app.screen_stack:
                    if shown.has_class(name) != wanted:
                        problems.append(f"{shown!r} at {width}x{height}: {name} {not wanted}")
        display(screen, renderable)

    monkeypatch.setattr(app, "_display", spy)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.pause(0.2)
        watching = True
        for size in [(80, 24), (160, 48), (100, 30)]:
            await pilot.resize_terminal(*size)
            await wait_for(pilot, lambda s=size: editor.size.width == s[0])  # type: ignore[misc]
            await pilot.pause(0.1)
        await pilot.press("f1")
        await wait_for(pilot, lambda: app.screen is not editor)
        await pilot.resize_terminal(160, 48)
        await wait_for(pilot, lambda: app.screen.size.width == 160)
        await pilot.pause(0.1)
    assert problems == [], problems
