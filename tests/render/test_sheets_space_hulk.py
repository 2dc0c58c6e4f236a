"""Space Hulk record sheets as they come off the printer: a card per Terminator with its
weapons, ammunition and psi points (Space Hulk house rules: squad, weapons, special units)."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import EXAMPLES
from sheet_layout import cards_titled, laid_out, layout_faults, sheet_html, variant

from armybuilder.catalogs import Library

SH = EXAMPLES / "space-hulk"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["squad-with-librarian", "standard-squad", "techmarine-tarantula"])
def test_cards_keep_their_text_inside(library: Library, name: str, paper: str) -> None:
    assert layout_faults(laid_out(sheet_html(SH / f"{name}.yaml", library, paper))) == []


def test_a_terminator_bought_twice_gets_two_cards(library: Library, tmp_path: Path) -> None:
    """Each model on the board is tracked on its own (Space Hulk squad: one figure each);
    the first of them is the one already lost."""
    path = variant(
        SH / "standard-squad.yaml",
        tmp_path,
        (
            "        name: Brother Noctis\n",
            "        name: Brother Noctis\n        count: 2\n        state: {lost: 1}\n",
        ),
    )
    html = sheet_html(path, library)
    layout = laid_out(html)
    assert layout_faults(layout) == []
    for n in (1, 2):
        (card,) = cards_titled(layout, f"Brother Noctis {n} of 2")
        assert "Storm Bolter any 2D6 6+" in card.text
    assert "Terminator · LOST" in cards_titled(layout, "Brother Noctis 1 of 2")[0].text
    assert "LOST" not in cards_titled(layout, "Brother Noctis 2 of 2")[0].text
