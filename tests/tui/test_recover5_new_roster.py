"""A new roster made with the New roster dialog and edited in the builder, then lost (the
terminal dies: no save, no quit), comes back from the home screen's "Unsaved work to recover"
(Pilot, headless). A new Gaslands team starts with the Sponsor its catalogue requires; the
journal started from the roster's text without it, and recovering said "Cannot recover ...":
the player's edits were lost. Needs the BattleScribe test data (../shared/bsdata); skips with
a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for, wait_screen
from screen import pane_lines
from textual.widgets import OptionList, Select

from armybuilder.catalog import Library
from armybuilder.tui.screens.dialogs import NewRosterScreen
from armybuilder.tui.screens.editor import EditorScreen

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(),
    reason=f"the Gaslands BattleScribe data is not at {BSDATA / 'gaslands'}",
)


@run_async
async def test_a_lost_new_team_comes_back_from_the_home_screen(
    make_app: Any, tmp_path: Path
) -> None:
    lib = Library([BSDATA]).scan()
    app = make_app(library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
        dialog = app.screen
        dialog.query_one("#new-system", Select).value = "gaslands"
        await pilot.pause()
        dialog.query_one("#new-faction", Select).value = "gaslands"
        await pilot.pause()
        await pilot.press("T", "e", "a", "m", "enter")
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None and s.is_new and s.roster.selections  # the Sponsor
        # two vehicles from the catalog, then one more copy of the last unit in the tree
        await pilot.press("f4", "a")
        await wait_for(pilot, lambda: len(s.history) == 1, timeout=10)
        await pilot.press("down", "a")
        await wait_for(pilot, lambda: len(s.history) == 2, timeout=10)
        await pilot.press("f3", "end", "plus")
        await wait_for(pilot, lambda: len(s.history) == 3, timeout=10)
        await pilot.pause(0.3)
        expected = s.roster.dumps()
        lost_tree = pane_lines(app, editor.roster_tree)
        assert s.dirty and len(s.roster.selections) >= 3
    # (the terminal died: the session was neither saved nor closed)

    again = make_app(library=lib, cwd=tmp_path)
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_screen(pilot, "home")
        await pilot.pause()
        listed = again.screen.query_one("#recover-list", OptionList)
        assert listed.option_count == 1
        listed.focus()
        await pilot.press("enter")

        def said() -> list[str]:
            return [str(n.message) for n in again._notifications]

        await wait_for(
            pilot,
            lambda: isinstance(again.screen, EditorScreen) or any("Cannot" in m for m in said()),
            timeout=30,
        )
        assert not any("Cannot recover" in m for m in said()), said()
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None and s.dirty and s.is_new
        assert s.roster.dumps() == expected
        await pilot.pause(0.3)
        assert pane_lines(again, editor.roster_tree) == lost_tree
