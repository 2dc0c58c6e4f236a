"""Starship Marine record sheets as they come off the printer: a sheet per squad with its
figures, ammunition and morale (Starship Marine 3.x, 4.x)."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import EXAMPLES
from sheet_layout import cards_titled, laid_out, layout_faults, sheet_html, variant

from armybuilder.catalogs import Library

SMR = EXAMPLES / "starship-marine"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_regimental_hq_title_clear_of_its_subtitle(library: Library, paper: str) -> None:
    """The "Regimental HQ" card printed its title over its subtitle."""
    layout = laid_out(sheet_html(SMR / "earther-regiment.yaml", library, paper))
    assert any(c.title.startswith("Regimental") for c in layout.cards)
    assert layout_faults(layout) == []


def test_a_squad_bought_twice_prints_twice(library: Library, tmp_path: Path) -> None:
    """Every figure fielded gets a row: a Sirian squad ×2 is two squads of nine figures
    (Starship Marine 5.x orders of battle; 3.x: each figure acts and is hit on its own)."""
    path = variant(
        SMR / "sirian-platoon.yaml",
        tmp_path,
        ("        name: 1st Marine Squad\n", "        name: 1st Marine Squad\n        count: 2\n"),
    )
    layout = laid_out(sheet_html(path, library))
    assert layout_faults(layout) == []
    for n in (1, 2):
        (card,) = cards_titled(layout, f"1st Marine Squad {n} of 2")
        rows = card.text.split("Actions", 1)[1]
        assert rows.count("Combat Robot") == 4 and rows.count("Corporal") == 2
        assert "9 Combat Robot" in rows and "10 " not in rows.split("Grenades")[0]


VETERANS = """\
format: 1
system: starship-marine
faction: earther
name: Veterans
selections:
  - entry: earther-squad
    name: 1st Squad
    selections:
      - entry: lieutenant
        name: Lt Hale
        state: {actions: 31, wounds: 2}
        selections: [{entry: marine-armour}, {entry: sca-2}]
      - entry: sergeant
        name: Sgt Kowalski
        state: {actions: 28, wounds: 1, hits: 1}
        selections: [{entry: marine-armour}, {entry: sca-3}]
      - {entry: corporal, selections: [{entry: marine-armour}, {entry: sca-3}]}
      - {entry: marine, count: 3, selections: [{entry: marine-armour}, {entry: sca-2}]}
"""


def test_campaign_record_printed_apart_from_hits(library: Library, tmp_path: Path) -> None:
    """4.7: ``wounds`` counts past actions in which the figure was wounded (each counts as
    two for experience): it is printed in the figure's record, never as crossed hit boxes;
    ``hits`` are this battle's (3.5, 3.7)."""
    path = tmp_path / "veterans.yaml"
    path.write_text(VETERANS, encoding="utf-8")
    html = sheet_html(path, library)
    layout = laid_out(html)
    assert layout_faults(layout) == []
    (card,) = cards_titled(layout, "1st Squad")
    assert "Record" in card.text
    hale = card.text.split("Lt Hale", 1)[1].split("Sgt Kowalski", 1)[0]
    assert "Veteran" in hale and "31 fought, wounded in 2" in hale
    sgt = card.text.split("Sgt Kowalski", 1)[1].split("Corporal", 1)[0]
    assert "28 fought, wounded in 1" in sgt
    rows = html.split('class="sm-figures"', 1)[1].split("</table>", 1)[0].split("<tr")[2:]
    assert [r.count("box x") for r in rows] == [0, 1, 0, 0, 0, 0]
