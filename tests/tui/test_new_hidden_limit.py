"""The New roster dialog gives a new roster the limit of a hidden cost type, as BattleScribe
applies a hidden cost type's defaultCostLimit: it is not asked (no field for it), the roster
has it, and a unit over it is an error in the issues pane (Pilot, headless)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import expected_issue_text, pane_lines
from textual.widgets import Input, Label, Select

from armybuilder.catalog import Library
from armybuilder.tui.screens.dialogs import NewRosterScreen

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    "<costTypes>"
    '<costType id="ct-pts" name="pts" defaultCostLimit="-1" hidden="false"/>'
    '<costType id="ct-secret" name="Secret" defaultCostLimit="7" hidden="true"/>'
    '<costType id="ct-open" name="Open" hidden="true"/>'
    "</costTypes>"
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries></gameSystem>\n'
)
CAT = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue id="cat-1" name="Raiders" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
    '<selectionEntries><selectionEntry id="se-1" name="Warband" type="unit">'
    '<costs><cost name="pts" typeId="ct-pts" value="60"/>'
    '<cost name="Secret" typeId="ct-secret" value="9"/></costs>'
    "</selectionEntry></selectionEntries></catalogue>\n"
)


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Library:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "raiders.cat").write_text(CAT, encoding="utf-8")
    return Library([tmp_path / "data"]).scan()


@run_async
async def test_a_new_roster_gets_a_hidden_cost_types_limit(
    make_app: Any, tiny: Library, tmp_path: Path
) -> None:
    app = make_app(library=tiny, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
        dialog = app.screen
        assert isinstance(dialog, NewRosterScreen)
        dialog.query_one("#new-system", Select).value = "tiny"
        await pilot.pause()
        labels = [str(w.render()) for w in dialog.query("#new-limits Label").results(Label)]
        assert labels == ["pts limit"]  # (the hidden ones are not asked)
        assert [i.name for i in dialog.query(".new-limit").results(Input)] == ["pts"]
        painted = "\n".join(pane_lines(app, dialog.query_one("#new-form")))
        assert "Secret" not in painted
        dialog.query_one("#new-faction", Select).value = "raiders"
        await pilot.pause()
        await pilot.press("R", "enter")
        editor = await wait_editor(pilot, timeout=60)
        s = editor.session
        assert s is not None and s.is_new
        assert dict(s.roster.header.limits) == {"secret": 7}
        editor.add_entry("se-1", ())
        await pilot.pause()
        await wait_for(pilot, lambda: s.evaluation_is_current, timeout=30)
        await pilot.pause()
        ev = s.evaluation
        assert ev is not None
        over = [i for i in expected_issue_text(ev) if "over the limit of 7 Secret" in i]
        assert len(over) == 1, expected_issue_text(ev)
        issues = "".join(pane_lines(app, editor.issues.issue_list)).replace(" ", "")
        assert over[0].replace(" ", "") in issues
