"""Starship Troopers record sheets as they come off the printer: a card per unit with the
stat lines, weapons and a box row per model (Starship Troopers, Characteristics chapter)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from render_helpers import EXAMPLES
from sheet_layout import cards_titled, laid_out, layout_faults, sheet_html, variant

from armybuilder.catalogs import Library

ST = EXAMPLES / "starship-troopers"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["arachnid-swarm", "mi-squad", "mi-with-own-units"])
def test_cards_keep_their_text_inside(library: Library, name: str, paper: str) -> None:
    assert layout_faults(laid_out(sheet_html(ST / f"{name}.yaml", library, paper))) == []


def test_a_unit_bought_twice_gets_two_cards(library: Library, tmp_path: Path) -> None:
    """Second wave ×2 is two units of four Arachnid Warriors: two cards, four boxes each
    (one box per model without Hits/X)."""
    path = variant(
        ST / "arachnid-swarm.yaml",
        tmp_path,
        ("    name: Second wave\n", "    name: Second wave\n    count: 2\n"),
    )
    html = sheet_html(path, library)
    layout = laid_out(html)
    assert layout_faults(layout) == []
    for n in (1, 2):
        (card,) = cards_titled(layout, f"Second wave {n} of 2")
        assert "Arachnid Warrior ×4" in card.text
        block = html.split(f"Second wave {n} of 2", 2)[2].split('class="st-models', 1)[1]
        row = block.split("</tr>", 1)[0]
        assert len(re.findall(r'class="box[ "]', row)) == 4
