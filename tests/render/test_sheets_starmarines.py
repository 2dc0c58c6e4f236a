"""StarMarines record sheets as they come off the printer: team cards with a row per soldier
and vehicle cards with the damage table (StarMarines IX-B; X, Vehicle Damage Table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import EXAMPLES
from sheet_layout import laid_out, layout_faults, sheet_html

from armybuilder.catalogs import Library

SM = EXAMPLES / "starmarines"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["norx-example", "starmarines-example"])
def test_cards_keep_their_text_inside(library: Library, name: str, paper: str) -> None:
    """No title under its subtitle, no damage table past the card's edge, nothing off the
    page (the vehicle cards were garbled on page 4 of both examples)."""
    layout = laid_out(sheet_html(SM / f"{name}.yaml", library, paper))
    vehicles = [c for c in layout.cards if "smr-vehicle" in c.classes]
    assert vehicles, "no vehicle card laid out"
    assert layout_faults(layout) == []


def _card(library: Library, path: Path, title: str) -> str:
    layout = laid_out(sheet_html(path, library))
    found = [c.text for c in layout.cards if c.text.startswith(title)]
    assert found, f"no card titled {title!r}"
    return found[0]


def test_vehicle_damage_table_in_full(library: Library) -> None:
    """X, Vehicle Damage Table: 1 stunned; 2 stunned and a weapon lost; 3 disarmed;
    4 crippled; 5-6 destroyed; level-1 repair for stunned, level 2 for disarmed/crippled."""
    text = _card(library, SM / "norx-example.yaml", "Halftrack")
    table = text.split("d6 Damage Effect Repair", 1)[1]
    assert table.index("1 Stunned") < table.index("2 Stunned") < table.index("3 Disarmed")
    two = table.split("2 Stunned", 1)[1].split("3 Disarmed", 1)[0]
    assert "loses one weapon" in two and "level 1" in two
    assert "4 Crippled" in table and "5–6 Destroyed" in table
    assert table.split("3 Disarmed", 1)[1].split("4 Crippled")[0].strip().endswith("level 2")


def test_supertank_reads_the_table_one_row_lower(library: Library) -> None:
    """IX-A: a supertank's damage roll is reduced by 1, never below 1."""
    text = _card(library, SM / "starmarines-example.yaml", "Mauler")
    table = text.split("d6 Damage Effect Repair", 1)[1]
    assert "1–2 Stunned" in table and "3 Stunned" in table
    assert "4 Disarmed" in table and "5 Crippled" in table and "6 Destroyed" in table
