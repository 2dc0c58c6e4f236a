"""Starship Marine record sheets as they come off the printer: a sheet per squad with its
figures, ammunition and morale (Starship Marine 3.x, 4.x)."""

from __future__ import annotations

import pytest
from render_helpers import EXAMPLES
from sheet_layout import laid_out, layout_faults, sheet_html

from armybuilder.catalogs import Library

SMR = EXAMPLES / "starship-marine"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_regimental_hq_title_clear_of_its_subtitle(library: Library, paper: str) -> None:
    """The "Regimental HQ" card printed its title over its subtitle."""
    layout = laid_out(sheet_html(SMR / "earther-regiment.yaml", library, paper))
    assert any(c.title.startswith("Regimental") for c in layout.cards)
    assert layout_faults(layout) == []
