"""What the builder's panes say, compared with what the session computes (Pilot, headless):
choices in pick-one groups swap, limits and costs where the player chooses, what the roster
tree tells about each unit, the campaign state field."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from textual.pilot import Pilot
from textual.widgets import Select

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]

#: Brother Deino of the standard squad: storm bolter and power fist.
DEINO = ("selections", 0, "selections", 3)


def copy_example(folder: Path, system: str, name: str) -> Path:
    path = folder / name
    shutil.copy(EXAMPLES / system / name, path)
    return path


async def highlight_in_catalog(pilot: Pilot[Any], editor: EditorScreen, entry_id: str) -> None:
    """Move the catalog's cursor to an entry with the keyboard."""
    await pilot.press("f4")
    await pilot.pause()
    catalog = editor.catalog
    for _ in range(60):
        if catalog.highlighted() == entry_id:
            return
        await pilot.press("down")
    raise AssertionError(f"{entry_id} is not in the catalog pane")


def choice(editor: EditorScreen, group_id: str) -> Select[str]:
    return next(s for s in editor.details.query(Select) if s.name == f"grp:{group_id}")


def issue_texts(editor: EditorScreen) -> list[str]:
    return editor.issues.texts()


# --------------------------------------------------------------------------- pick-one groups


@run_async
async def test_catalog_add_swaps_a_pick_one_choice(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(DEINO)
        await pilot.pause()
        assert choice(editor, "terminator-ranged").value == "storm-bolter"
        await highlight_in_catalog(pilot, editor, "assault-cannon")
        await pilot.press("a")
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "assault-cannon",
            "power-fist",
        ]
        assert not any("choices of Ranged weapon" in t for t in issue_texts(editor))
        # The drop-down shows the new choice, not "(none)".
        await wait_for(pilot, lambda: choice(editor, "terminator-ranged").value == "assault-cannon")
        # Undo gives back the storm bolter in one step.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "storm-bolter",
            "power-fist",
        ]
        assert not session.can_undo
        await wait_for(pilot, lambda: choice(editor, "terminator-ranged").value == "storm-bolter")


@run_async
async def test_details_drop_down_swaps_in_one_step(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(DEINO)
        await pilot.pause()
        # Adding the current choice again says so and changes nothing.
        await highlight_in_catalog(pilot, editor, "storm-bolter")
        await pilot.press("a")
        await pilot.pause()
        assert not session.history
        notices = [n.message for n in app._notifications]
        assert any("already the choice of Ranged weapon" in m for m in notices)
        choice(editor, "terminator-melee").value = "chainfist"
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "storm-bolter",
            "chainfist",
        ]
        assert len(session.history) == 1
        await pilot.press("f3")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]][1] == "power-fist"
        await wait_for(pilot, lambda: choice(editor, "terminator-melee").value == "power-fist")
