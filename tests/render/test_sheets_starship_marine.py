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
