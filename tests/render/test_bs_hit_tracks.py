# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""A card of BattleScribe data draws a box per hit point its stat line gives (print QA).

A Gaslands car's card printed "Hull Points 12" in its stat line and no boxes to tick, so a
player had nothing to track damage on; a 40k Land Raider (W 16) and each model of a squad
(W 2) the same, and a Space Station Zero crew member (Life 4). The generic cards drew boxes
only for characteristics whose *id* is ``hits``, ``wounds``...; BattleScribe's ids are hex,
so a column is now also known by its name (``HIT_NAMES``). Every data file is made here; the
PDF's text is read back with pypdfium2 and its pages rasterised.
"""

from __future__ import annotations

import pytest
from bs_tiny import render_legal, tiny_library
from raster_helpers import body_box, ink, rasterise

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="veh" name="Vehicle">
      <characteristicTypes>
        <characteristicType id="a1b2-0001" name="Hull Points"/>
        <characteristicType id="a1b2-0002" name="Max Gear"/>
      </characteristicTypes>
    </profileType>
    <profileType id="unit" name="Unit">
      <characteristicTypes>
        <characteristicType id="a1b2-0003" name="M"/>
        <characteristicType id="a1b2-0004" name="W"/>
      </characteristicTypes>
    </profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="car" name="Car" type="model" hidden="false">
      <profiles>
        <profile id="p-car" name="Car" typeId="veh" hidden="false">
          <characteristics><characteristic name="Hull Points" typeId="a1b2-0001">12</characteristic><characteristic name="Max Gear" typeId="a1b2-0002">5</characteristic></characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry id="beast" name="Beast" type="model" hidden="false">
      <profiles>
        <profile id="p-beast" name="Beast" typeId="unit" hidden="false">
          <characteristics><characteristic name="M" typeId="a1b2-0003">6"</characteristic><characteristic name="W" typeId="a1b2-0004">D6</characteristic></characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry id="squad" name="Squad" type="unit" hidden="false">
      <selectionEntries>
        <selectionEntry id="trooper" name="Trooper" type="model" hidden="false">
          <profiles>
            <profile id="p-trooper" name="Trooper" typeId="unit" hidden="false">
              <characteristics><characteristic name="M" typeId="a1b2-0003">6"</characteristic><characteristic name="W" typeId="a1b2-0004">2</characteristic></characteristics>
            </profile>
          </profiles>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

ROSTER = (
    "name: T\nsystem: tiny\nfaction: army\nselections:\n"
    "  - entry: car\n"
    "  - entry: squad\n    selections: [{entry: trooper, count: 3}]\n"
    "  - entry: beast\n"
)


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return render_legal(tiny_library(tmp_path_factory, GST, CAT), ROSTER)


def _lines(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    return [
        line.strip()
        for i in range(1, len(doc))  # the record sheets (the roster page is the first)
        for line in doc[i].get_textpage().get_text_range().splitlines()
    ]


def test_a_vehicle_gets_a_box_per_hull_point(pdf: bytes) -> None:
    lines = _lines(pdf)
    (track,) = [line for line in lines if line.startswith("Hull Points:")]
    assert track.count("☐") == 12, track
    assert all(ink(page, body_box(page)) > 200 for page in rasterise(pdf))


def test_each_model_of_a_squad_gets_its_wounds(pdf: bytes) -> None:
    """Three troopers of W 2: the card's model table has a column of boxes, two per model."""
    lines = _lines(pdf)
    assert any("Hits (a box per hit)" in line for line in lines), lines
    (row,) = [line for line in lines if line.startswith("Trooper ×3") and "☐" in line]
    assert row.count("☐") == 6, row


def test_a_characteristic_that_is_no_number_draws_no_boxes(pdf: bytes) -> None:
    """W "D6" is no count of boxes: the beast's card has none (and no empty "W:" line)."""
    lines = _lines(pdf)
    assert not any(line.startswith("W:") for line in lines), lines
