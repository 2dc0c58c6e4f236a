"""The key bar (footer) is filled in place when its keys change (`StableFooter`), and never shows
keys of another focus: after each focus move and each dialog, the painted bottom row lists
exactly the keys the screen's bindings show for the focused area, from the first frame painted
with that focus (Textual's footer composed its keys after that frame, a tenth of a second to a
second later on a busy machine)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import painted
from textual.pilot import Pilot

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.stable import StableFooter

MakeApp = Callable[..., ArmyBuilderApp]


def expected_keys(app: ArmyBuilderApp) -> list[str]:
    """What Textual's own footer would show: each shown binding's key and description."""
    screen = app.screen
    seen: dict[str, str] = {}
    for _, binding, _enabled, _tip in screen.active_bindings.values():
        if binding.show and binding.action not in seen:
            seen[binding.action] = f"{app.get_key_display(binding)} {binding.description}"
    return list(seen.values())


async def footer_says(pilot: Pilot[Any], app: ArmyBuilderApp) -> str:
    await pilot.pause()
    await pilot.pause()
    return " ".join(painted(app)[-1].split())


@run_async
async def test_the_footer_follows_the_focus_and_dialogs(make_app: MakeApp, workdir: Any) -> None:
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        footer = editor.query_one(StableFooter)
        builds = 0
        original = footer.recompose

        async def counted() -> None:
            nonlocal builds
            builds += 1
            await original()

        footer.recompose = counted  # type: ignore[method-assign]
        compositions = footer.compositions
        for key in ["f3", "f4", "f7", "f3", "g", "escape", "f6", "f3"]:
            await pilot.press(key)
            if key == "g":
                await wait_for(pilot, lambda: app.screen.id == "summary")
                continue
            await wait_for(pilot, lambda: app.screen is editor)
            said = await footer_says(pilot, app)
            for part in expected_keys(app)[:6]:  # those an 160-column bar has room for
                assert part in said, (key, part, said)
        # The key widgets are filled in place: never composed again.
        assert builds == 0
        assert footer.compositions == compositions


def footer_problem(app: ArmyBuilderApp, rows: list[str]) -> str | None:
    """The painted key bar against the keys of the focus the frame shows (as many as fit)."""
    said = " ".join(rows[-1].split())
    expected = expected_keys(app)
    missing = [part for part in expected[:5] if part not in said]
    if missing:
        return f"focus {type(app.focused).__name__}: {said!r} lacks {missing}"
    return None


@run_async
async def test_every_frame_shows_the_keys_of_its_focus(
    make_app: MakeApp, workdir: Any, monkeypatch: Any
) -> None:
    """Each frame sent to the terminal, as the focus moves between the areas (F3 catalog, F4
    details, F6 name, F7 issues, Esc back to the roster) and around the help screen, shows the
    keys of the focus it shows."""
    app = make_app(workdir / "patrol.yaml")
    problems: list[str] = []
    frames = 0
    watching = False
    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        nonlocal frames
        if watching and renderable is not None and app.screen is screen:
            frames += 1
            problem = footer_problem(app, painted(app))
            if problem is not None:
                problems.append(problem)
        display(screen, renderable)

    monkeypatch.setattr(app, "_display", spy)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.pause(0.1)
        watching = True
        for key in ["f3", "f4", "f7", "escape", "f3", "f1", "escape", "f6", "escape", "f7"]:
            await pilot.press(key)
            await pilot.pause(0.05)
        await wait_for(pilot, lambda: app.screen is editor)
        await pilot.pause()
    assert frames >= 5
    assert problems == [], problems


def whole_keys_problem(app: ArmyBuilderApp, rows: list[str]) -> str | None:
    """The painted key bar must show whole keys, the first ones in their order (never one
    cut where the width ends: "^q Qui")."""
    bar = rows[-1].split("▏")[0].strip()
    shown = [part.strip() for part in bar.split("  ") if part.strip()]
    expected = expected_keys(app)
    if shown != expected[: len(shown)]:
        return f"{bar!r}: not whole keys in order, expected {expected}"
    return None


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (160, 48)])
@run_async
async def test_the_footer_shows_whole_keys(
    make_app: MakeApp, workdir: Any, size: tuple[int, int]
) -> None:
    """At any width, the key bar shows the keys that fit whole, in order, for each focus;
    resizing fits them again."""
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        for key in ["f3", "f4", "slash", "f6", "f7", "f3"]:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            assert whole_keys_problem(app, painted(app)) is None, key
        for width, height in [(70, 24), (120, 40), size]:
            await pilot.resize_terminal(width, height)
            await wait_for(pilot, lambda w=width: app.screen.size.width == w)  # type: ignore[misc]
            await pilot.pause()
            await pilot.pause()
            assert app.screen is editor
            assert whole_keys_problem(app, painted(app)) is None, (width, height)
