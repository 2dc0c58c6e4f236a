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


ROS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<roster id="r-1" name="Test" battleScribeVersion="2.03" gameSystemId="sys-1" gameSystemName="Tiny" xmlns="http://www.battlescribe.net/schema/rosterSchema">
  <forces>
    <force id="f-1" name="Army" entryId="f1" catalogueId="cat-1" catalogueName="Army">
      <selections>
        <selection id="s-1" name="Medic" entryId="e3" number="1" type="model"/>
        <selection id="s-2" name="Jetbike" entryId="e9" number="2" type="model"/>
      </selections>
    </force>
  </forces>
</roster>
"""


@run_async
async def test_a_ros_with_an_unknown_entry_opens_with_it_reported(
    make_app: Any, tmp_path: Path
) -> None:
    """A .ros selection of an entry the data lacks is an issue on that selection, with its
    count kept; the roster around it opens, to build with."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT.replace('value="nan"', 'value="10"'), encoding="utf-8")
    ros = tmp_path / "list.ros"
    ros.write_text(ROS, encoding="utf-8")
    app = make_app(ros, library=Library([folder]).scan())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None and s.evaluation is not None
        assert [sel.entry for sel in s.roster.selections] == ["e3", "e9"]
        assert [sel.count for sel in s.roster.selections] == [1, 2]
        items = expected_issue_text(s.evaluation)
        assert any("unknown entry 'e9'" in i for i in items), items
        painted = "".join(pane_lines(app, editor.issues.issue_list)).replace(" ", "")
        assert "unknownentry'e9'" in painted
