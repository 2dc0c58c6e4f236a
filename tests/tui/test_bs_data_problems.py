"""The builder shows what was left out of a BattleScribe catalogue for a value that could not
be read (issue 18): its issues pane lists the warning naming the file, line and element, as
``validate`` prints it, and the rest of the catalogue is there to build with (Pilot,
headless). The catalogue is written by the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import expected_issue_text, pane_lines

from armybuilder.catalog import Library

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""
CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="e1" name="Captain" type="unit">
      <costs><cost name="pts" typeId="pts" value="nan"/></costs>
    </selectionEntry>
    <selectionEntry id="e3" name="Medic" type="model">
      <costs><cost name="pts" typeId="pts" value="15"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


@run_async
async def test_the_issues_pane_names_what_the_data_left_out(make_app: Any, tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    roster = tmp_path / "list.yaml"
    roster.write_text("name: Test\nsystem: tiny\nfaction: army\nselections:\n  - entry: e3\n")
    app = make_app(roster, library=Library([folder]).scan())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None and s.evaluation is not None
        (item,) = expected_issue_text(s.evaluation)
        assert item == (
            f"⚠ {folder / 'army.cat'}:4: <selectionEntry id='e1' name='Captain'> has a <cost> "
            "whose value is 'nan', not a finite number; it is left out (in the data of Army)"
        )
        # (the pane wraps the long path wherever it must: compared without the spaces)
        painted = "".join(pane_lines(app, editor.issues.issue_list)).replace(" ", "")
        assert item.replace(" ", "") in painted
        assert "e3" in s.index.entries and "e1" not in s.index.entries  # the rest is there
