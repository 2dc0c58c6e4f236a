"""The key bar (footer) is rebuilt only when its keys change (`StableFooter`), and never shows
keys of another focus: after each focus move and each dialog, the painted bottom row lists
exactly the keys the screen's bindings show for the focused area."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
        for key in ["f3", "f4", "f7", "f3", "g", "escape", "f6", "f3"]:
            await pilot.press(key)
            if key == "g":
                await wait_for(pilot, lambda: app.screen.id == "summary")
                continue
            await wait_for(pilot, lambda: app.screen is editor)
            said = await footer_says(pilot, app)
            for part in expected_keys(app)[:6]:  # those an 160-column bar has room for
                assert part in said, (key, part, said)
        # Fewer rebuilds than focus changes: F3 after F7 and the round trip through `g`
        # rebuild only when the keys differ.
        assert builds <= 4
