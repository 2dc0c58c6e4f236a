"""The page footer is never cut short (QA of printing, item 9).

Each page's footer says the game system, the faction, the verdict, the date printed and that
armybuilder printed it. On one line cut with an ellipsis, a long faction name (40k: "Imperium -
Adeptus Astartes - Space Marines") left "printed 2026-11-27 by armybuil…". The footer now wraps
between its parts, the names shortened first (60 characters each at most): the verdict, the
date and our name are printed whole on every page, and inside the bottom margin. Every data
file is made here; each page is rasterised and its footer area must hold ink."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from raster_helpers import MARGINS_MM, rasterise

from armybuilder.catalog import Library
from armybuilder.render import render_pdf
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Warhammer 40,000 10th Edition" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="NAME" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="tank" name="Tank" type="model">
      <costs><cost name="pts" typeId="pts" value="200"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

LONG = "Imperium - Adeptus Astartes - Space Marines"
LONGER = LONG + " - Ultramarines 2nd Company"  # 70 characters
HUGE = "Imperium - " + "Very " * 30 + "Long Chapter"  # 170 characters


def _pages(tmp: Path, faction_name: str) -> tuple[list[str], bytes]:
    from pypdf import PdfReader

    folder = tmp / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT.replace("NAME", faction_name), encoding="utf-8")
    lib = Library([folder], use_cache=False).scan()
    gs = lib.system("tiny")
    faction = next(iter(gs.factions))
    text = f"name: T\nsystem: tiny\nfaction: {faction}\nselections:\n" + "  - entry: tank\n" * 3
    roster = Roster.from_text(text, "<test>")
    ev = evaluate_roster(roster, gs)
    out = io.BytesIO()
    render_pdf(ev, out, date="2026-11-27")
    data = out.getvalue()
    pages = [p.extract_text().replace("\xa0", " ") for p in PdfReader(io.BytesIO(data)).pages]
    return pages, data


@pytest.mark.parametrize(
    "name", [LONG, LONGER, HUGE], ids=["40k-faction", "70-characters", "170-characters"]
)
def test_the_footer_keeps_the_verdict_the_date_and_our_name(tmp_path: Path, name: str) -> None:
    pages, data = _pages(tmp_path, name)
    assert len(pages) >= 2
    for i, text in enumerate(pages, 1):
        flat = " ".join(text.split())
        assert "Legal · printed 2026-11-27 by armybuilder" in flat, (i, text)
        assert f"page {i} of {len(pages)}" in flat
        assert "armybuil…" not in flat
        if name == LONG:
            assert LONG in flat  # a faction name of 43 characters is printed whole
        else:
            # shortened first (the page's title above still says it whole)
            assert f"{name[:59]}… · Legal · printed" in flat, flat
    dpi = 100
    px = dpi / 25.4
    for image in rasterise(data, dpi):
        w, h = image.size
        # the footer's lines: inked below the content area and above the paper's last 6 mm
        # (what a home printer cannot reach)
        band = image.crop((0, round(h - MARGINS_MM[2] * px), w, round(h - 6 * px)))
        assert sum(band.histogram()[:128]) > 100
        assert sum(image.crop((0, round(h - 6 * px), w, h)).histogram()[:128]) == 0


def _footer_lines(tmp: Path, faction_name: str) -> list[list[tuple[str, bool]]]:
    """Per page, the text boxes of the footer (the bottom-left margin box) as laid out: each
    with whether it is printed whole (not clipped by its box)."""
    from raster_helpers import _descendants, _visible_rect
    from weasyprint.formatting_structure import boxes

    folder = tmp / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT.replace("NAME", faction_name), encoding="utf-8")
    lib = Library([folder], use_cache=False).scan()
    gs = lib.system("tiny")
    faction = next(iter(gs.factions))
    text = f"name: T\nsystem: tiny\nfaction: {faction}\nselections:\n  - entry: tank\n"
    ev = evaluate_roster(Roster.from_text(text, "<test>"), gs)
    result = render_pdf(ev, date="2026-11-27", keep_layout=True)
    out = []
    for page in result.document.pages:
        found = []
        for child in page._page_box.children:
            if isinstance(child, boxes.MarginBox) and child.at_keyword == "@bottom-left":
                for box, clip in _descendants(child):
                    if isinstance(box, boxes.TextBox) and box.text.strip():
                        x0, y0, x1, y1 = _visible_rect(box, clip)
                        whole = x1 - x0 >= box.width - 0.5 and y1 - y0 >= box.height - 0.5
                        found.append((box.text.replace("\xa0", " "), whole))
        out.append(found)
    return out


@pytest.mark.parametrize(
    "name", [LONG, LONGER, HUGE], ids=["40k-faction", "70-characters", "170-characters"]
)
def test_no_part_of_the_footer_is_clipped(tmp_path: Path, name: str) -> None:
    """What the text layer cannot show: a footer cut with an ellipsis keeps its whole text in
    the PDF, clipped from sight. Every text box of the laid-out footer is printed whole, and
    they end with the date and our name."""
    for boxes_ in _footer_lines(tmp_path, name):
        assert boxes_ and all(whole for _, whole in boxes_), boxes_
        assert " ".join(t for t, _ in boxes_).rstrip().endswith("printed 2026-11-27 by armybuilder")
