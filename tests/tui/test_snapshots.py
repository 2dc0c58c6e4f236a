"""What the main screens look like (pytest-textual-snapshot), at 80x24 and at 160x48.

They use the synthetic Demo Wars system (tests/tui/fixtures) so that catalog changes in the
real systems do not change them. Update with ``pytest tests/tui --snapshot-update`` after a
deliberate change of the layout, and look at the SVGs before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import DEMO_ROSTERS, wait_editor, wait_for, wait_screen
from textual.pilot import Pilot
from textual.widgets import Input

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.help import HelpScreen
from armybuilder.tui.settings import Settings

SIZES = [(80, 24), (160, 48)]


def _app(library: Library, path: str | None = None) -> ArmyBuilderApp:
    return ArmyBuilderApp(
        DEMO_ROSTERS / path if path else None,
        library=library,
        cwd=DEMO_ROSTERS,
        settings=Settings(),
    )


async def _still(pilot: Pilot[Any]) -> None:
    """No blinking cursors in a snapshot."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_home_screen(snap_compare: Any, demo_library: Library, size: tuple[int, int]) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await wait_screen(pilot, "home")
        await _still(pilot)

    assert snap_compare(_app(demo_library), terminal_size=size, run_before=ready)


def test_new_roster_dialog(snap_compare: Any, demo_library: Library) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await wait_screen(pilot, "home")
        await pilot.press("n")
        await wait_screen(pilot, "new-roster-dialog")
        await pilot.press(*"Dawn")
        await _still(pilot)

    assert snap_compare(_app(demo_library), terminal_size=(80, 24), run_before=ready)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_editor(snap_compare: Any, demo_library: Library, size: tuple[int, int]) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        editor = await wait_editor(pilot)
        # Bravo's two soldiers: an error on their squad, a weapon choice in the details.
        editor.jump_to(("selections", 2, "selections", 0))
        await pilot.pause()
        await _still(pilot)

    assert snap_compare(_app(demo_library, "patrol.yaml"), terminal_size=size, run_before=ready)


def test_editor_unknown_entry(snap_compare: Any, demo_library: Library) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 1, "selections", 1))
        await pilot.pause()
        await _still(pilot)

    app = _app(demo_library, "unknown-entry.yaml")
    assert snap_compare(app, terminal_size=(80, 24), run_before=ready)


def test_help_screen(
    snap_compare: Any, demo_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The help names the settings file, in the user folder: make that path the same each run.
    monkeypatch.setenv("ARMYBUILDER_HOME", "/tmp/armybuilder-snapshot-home")

    async def ready(pilot: Pilot[Any]) -> None:
        await wait_screen(pilot, "home")
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()

    assert snap_compare(_app(demo_library), terminal_size=(120, 40), run_before=ready)
