"""Costs from BattleScribe data read as BattleScribe prints them, the number then the cost
type's name ("Intercessor Squad [80pts]"): the builder's totals bar, catalog pane and roster
tree say "15 pts" and "25 / 20 pts", never "pts 15" nor "pts 15 pts" (Pilot, headless; the
catalogue is written by the test, its cost type padded as Gaslands pads " Cans")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from screen import painted, pane_lines

from armybuilder.catalog import Library

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="c-1" name=" Cans" defaultCostLimit="-1"/></costTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""
CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="e1" name="Buggy" type="unit">
      <costs><cost name=" Cans" typeId="c-1" value="10"/></costs>
    </selectionEntry>
    <selectionEntry id="e3" name="Bike" type="model">
      <costs><cost name=" Cans" typeId="c-1" value="15"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


@run_async
async def test_the_builder_prints_the_number_then_the_cost_name(
    make_app: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    roster = tmp_path / "list.yaml"
    roster.write_text(
        "name: Test\nsystem: tiny\nfaction: army\nlimits: {cans: 20}\n"
        "selections:\n  - entry: e3\n  - entry: e1\n",
        encoding="utf-8",
    )
    app = make_app(roster, library=Library([folder]).scan())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None and s.evaluation is not None
        assert s.evaluation.totals == {"cans": 25}
        await wait_for(pilot, lambda: "25 / 20 Cans" in " ".join(pane_lines(app, editor.totals)))
        catalog = pane_lines(app, editor.catalog)
        tree = pane_lines(app, editor.roster_tree)
        assert [x for x in catalog if "Buggy  10 Cans" in x], catalog
        assert [x for x in catalog if "Bike  15 Cans" in x], catalog
        assert [x for x in tree if "Bike" in x and "15 Cans" in x], tree
        rows = painted(app)
        assert not [x for x in rows if re.search(r"Cans \d", x)], rows
