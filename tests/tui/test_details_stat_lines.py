"""The details pane shows a selection's stat lines as the roster has them, as the printed card
does (Pilot, headless): a profile the data hides is left out, one its modifiers show is in,
and a characteristic reads its modified value. BattleScribe's data model (reference summary,
"profiles" and "modifiers"): a profile may be hidden, and a modifier of a profile's
characteristic or of its hidden state applies to the selection it belongs to. The catalogue
is written by the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for

from armybuilder.catalog import Library
from armybuilder.tui.widgets.stable import LiveStatic

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="c-1" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="pt-1" name="Stats">
      <characteristicTypes><characteristicType id="ch-m" name="Move"/></characteristicTypes>
    </profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""
CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="e1" name="Walker" type="unit">
      <profiles>
        <profile id="p-a" name="Walker" typeId="pt-1">
          <modifiers>
            <modifier type="increment" field="ch-m" value="2">
              <conditions>
                <condition type="atLeast" value="1" field="selections" scope="roster"
                  childId="e2" shared="true" includeChildSelections="true"/>
              </conditions>
            </modifier>
          </modifiers>
          <characteristics>
            <characteristic name="Move" typeId="ch-m">5</characteristic>
          </characteristics>
        </profile>
        <profile id="p-b" name="Secret Plan" typeId="pt-1" hidden="true">
          <characteristics>
            <characteristic name="Move" typeId="ch-m">9</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <costs><cost name="pts" typeId="c-1" value="10"/></costs>
    </selectionEntry>
    <selectionEntry id="e2" name="Beacon" type="upgrade">
      <costs><cost name="pts" typeId="c-1" value="5"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def _loadout(editor: Any) -> str:
    return " ".join(editor.details.query_one("#d-loadout", LiveStatic).plain.split())


@run_async
async def test_the_details_pane_shows_stat_lines_as_the_roster_has_them(
    make_app: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    roster = tmp_path / "list.yaml"
    roster.write_text(
        "name: Test\nsystem: tiny\nfaction: army\nselections:\n  - entry: e1\n",
        encoding="utf-8",
    )
    app = make_app(roster, library=Library([folder]).scan())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(("selections", 0))
        await wait_for(pilot, lambda: "Walker" in _loadout(editor))
        # No Beacon: Move 5 as the catalog gives it; the hidden profile is not shown.
        assert "Move 5" in _loadout(editor), _loadout(editor)
        assert "Secret Plan" not in _loadout(editor)
        # A Beacon in the roster: the modifier gives Move 5 + 2; the pane follows the edit.
        editor.add_entry("e2", ())
        await wait_for(pilot, lambda: len(session.roster.selections) == 2)
        editor.jump_to(("selections", 0))
        await wait_for(pilot, lambda: "Move 7" in _loadout(editor))
        assert "Secret Plan" not in _loadout(editor)
