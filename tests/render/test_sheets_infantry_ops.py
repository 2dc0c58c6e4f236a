"""Infantry Operations record sheets as they come off the printer: a page per platoon with
its damage track, weapons and attack values (Infantry Operations, after MegaMekLab)."""

from __future__ import annotations

import re
from pathlib import Path

from render_helpers import EXAMPLES
from sheet_layout import sheet_html, variant

from armybuilder.catalogs import Library

IO = EXAMPLES / "infantry-ops"


def test_a_platoon_bought_twice_gets_two_sheets(library: Library, tmp_path: Path) -> None:
    """Two rifle platoons of 28 troopers: two sheets, each with 28 damage boxes, one per
    trooper (Kevlar is not armour that takes a second box)."""
    path = variant(
        IO / "rifle-platoon.yaml",
        tmp_path,
        ("    name: Foot Platoon (Rifle)\n", "    name: Foot Platoon (Rifle)\n    count: 2\n"),
    )
    html = sheet_html(path, library)
    sheets = html.split('<section class="sheet io-platoon"')[1:]
    assert len(sheets) == 2
    for n, sheet in enumerate(sheets, 1):
        assert f"Foot Platoon (Rifle) {n} of 2" in sheet
        track = sheet.split('class="io-track">', 1)[1].split("</div>", 1)[0]
        assert len(re.findall(r'class="box[ "]', track)) == 28
