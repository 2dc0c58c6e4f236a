"""The New roster dialog asks a BattleScribe game system's cost limits, as BattleScribe's New
Roster dialog does: "pts limit" for 40k (its .gst's cost type 51b2-306e-1021-d207, the
Crusade ones hidden), "Cans limit" and "Build Slots limit" for Gaslands, before any catalogue
is read (Pilot, headless; what the dialog and the panes show against what the session
computes). Before, a BattleScribe system showed no limit at all until a faction had been
read, and a new 40k list had no points limit to be over. Needs the BattleScribe test data
(../shared/bsdata); skips with a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import expected_issue_text, pane_lines, totals_problems
from textual.widgets import Input, Label, Select

from armybuilder.catalog import Library
from armybuilder.tui.screens.dialogs import NewRosterScreen

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(),
    reason=f"the 40k BattleScribe data is not at {BSDATA / 'wh40k-10e'}",
)


def _limit_fields(dialog: NewRosterScreen) -> list[tuple[str, str, str]]:
    """The dialog's limit fields: label, cost type id, text."""
    labels = [str(w.render()) for w in dialog.query("#new-limits Label").results(Label)]
    inputs = list(dialog.query(".new-limit").results(Input))
    return [(lab, i.name or "", i.value) for lab, i in zip(labels, inputs, strict=True)]


@run_async
async def test_a_new_40k_roster_gets_its_points_limit_and_says_when_over_it(
    make_app: Any, tmp_path: Path
) -> None:
    lib = Library([BSDATA]).scan()
    app = make_app(library=lib, cwd=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
        dialog = app.screen
        assert isinstance(dialog, NewRosterScreen)
        dialog.query_one("#new-system", Select).value = "gaslands"
        await pilot.pause()
        assert _limit_fields(dialog) == [
            ("Cans limit", "cans", ""),
            ("Build Slots limit", "build-slots", ""),
        ]
        dialog.query_one("#new-system", Select).value = "wh40k-10e"
        await pilot.pause()
        # (defaultCostLimit -1: no limit filled in, as BattleScribe leaves it)
        assert _limit_fields(dialog) == [("pts limit", "pts", "")]
        painted = "\n".join(pane_lines(app, dialog.query_one("#new-form")))
        assert "pts limit" in painted and "no limit" in painted
        dialog.query_one("#new-faction", Select).value = SM
        await pilot.pause()
        assert _limit_fields(dialog) == [("pts limit", "pts", "")]
        dialog.query_one(".new-limit", Input).value = "100"
        await pilot.pause()
        await pilot.press("M", "a", "r", "i", "n", "e", "s", "enter")
        editor = await wait_editor(pilot, timeout=60)
        s = editor.session
        assert s is not None and s.is_new
        assert dict(s.roster.header.limits) == {"pts": 100}
        squad = next(c for c in s.index.roots if c.entry.name == "Intercessor Squad")
        entry_id = s.index.recorded_id(None, squad)
        for _ in range(2):  # 80 pts each (entry 8da0-4570-c3c-819f)
            editor.add_entry(entry_id, ())
            await pilot.pause()
        await wait_for(pilot, lambda: s.evaluation_is_current, timeout=30)
        await pilot.pause()
        ev = s.evaluation
        assert ev is not None and ev.totals["pts"] > 100
        items = expected_issue_text(ev)
        over = [i for i in items if "over the limit of 100 pts" in i]
        assert len(over) == 1, items
        painted = "".join(pane_lines(app, editor.issues.issue_list)).replace(" ", "")
        assert over[0].replace(" ", "") in painted
        assert totals_problems(ev, pane_lines(app, editor.totals)) == []
