"""A new roster of a BattleScribe system, edited in the builder before its first save (Pilot,
headless): it starts with what the catalogue requires (a Gaslands team's Sponsor), and
picking which Sponsor in the details pane works and saves the file the same edit gives on
the roster saved and opened again. Needs the BattleScribe test data
(../shared/bsdata); skips with a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import pane_lines
from textual.widgets import Input, Select

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.tui.screens.dialogs import NewRosterScreen, PathScreen

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(),
    reason=f"the Gaslands BattleScribe data is not at {BSDATA / 'gaslands'}",
)

SPONSOR = ("selections", 0)
SPONSOR_GROUP, MISHKIN = "e0ac-21ce-2203-7e81", "3057-1f8e-63b6-95e6"


@run_async
async def test_a_new_gaslands_team_takes_a_sponsor_before_its_first_save(
    make_app: Any, tmp_path: Path
) -> None:
    """Home screen, N, Gaslands, "Team": the roster holds the required Sponsor. Choosing
    Mishkin in its details failed with "'dict' object has no attribute 'insert'" (the
    Sponsor had gone into the new roster as plain data, and the choice gives it its first
    ``selections:``). Now Mishkin is chosen and shown in the roster tree, and the saved file
    is the one the same choice makes on the team saved and opened again."""
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
        assert s is not None and s.is_new
        assert s.entry_at(SPONSOR) is not None and s.entry_at(SPONSOR).name == "Sponsor"
        editor.jump_to(SPONSOR)
        await pilot.pause()
        choice = next(w for w in editor.details.query(Select) if w.name == f"grp:{SPONSOR_GROUP}")
        choice.value = MISHKIN  # as a pick in the drop-down does
        await wait_for(pilot, lambda: s.can_undo)
        await pilot.pause()
        assert [c["entry"] for c in s.node(SPONSOR)["selections"]] == [MISHKIN]
        assert s.history == ["Choose Mishkin"]
        assert any("Mishkin" in line for line in pane_lines(app, editor.roster_tree))
        target = tmp_path / "team.yaml"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, PathScreen))
        app.screen.query_one("#path-input", Input).value = str(target)
        await pilot.press("enter")
        await wait_for(pilot, lambda: target.is_file() and not s.dirty, timeout=10)
    # The same edit on the new team saved first and opened again: the same file.
    first = EditSession.new(lib, "gaslands", "gaslands", "Team", autosave=False)
    reopened = EditSession.open(first.save(tmp_path / "first.yaml"), lib, autosave=False)
    first.close()
    reopened.choose(SPONSOR, SPONSOR_GROUP, MISHKIN)
    assert target.read_bytes() == reopened.save().read_bytes()
    reopened.close()
