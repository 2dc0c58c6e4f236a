# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""What sets a roster up is printed apart from its units, and not counted among them (QA of
printing, item 3).

A 40k roster's page said "Units (18)" for 15 units: the Detachment, the Battle Size and the
Show/Hide Options were counted. The data makes those upgrades at the top of the force, in the
game system's "Configuration" category (``Warhammer 40,000.gst``: ``Battle Size``,
``type="upgrade"``); a unit a player fields is a ``unit`` or a ``model``. The roster page now
lists such selections under "Roster options (N)" before "Units (N)", which counts the units
only; a roster of several forces says "N units, K roster options" per force. Every data file is
made here; the PDF's text is read back and the page rasterised.
"""

from __future__ import annotations

import io
import re

import pytest
from bs_tiny import render_legal, tiny_library
from raster_helpers import body_box, ink, rasterise

from armybuilder.catalog import Library
from armybuilder.render.context import build_view
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="config" name="Configuration"/>
    <categoryEntry id="inf" name="Infantry"/>
  </categoryEntries>
  <profileTypes>
    <profileType id="crew-p" name="Crew">
      <characteristicTypes><characteristicType id="life" name="Life"/></characteristicTypes>
    </profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
  <selectionEntries>
    <selectionEntry id="pilot" name="Pilot" type="upgrade">
      <profiles>
        <profile id="p-pilot" name="Pilot" typeId="crew-p" hidden="false">
          <characteristics><characteristic name="Life" typeId="life">4</characteristic></characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry id="size" name="Battle Size" type="upgrade">
      <categoryLinks><categoryLink id="cl-1" targetId="config" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="strike" name="Strike Force (2000 Point limit)" type="upgrade"/>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="detachment" name="Detachment" type="upgrade">
      <categoryLinks><categoryLink id="cl-2" targetId="config" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="gladius" name="Gladius Task Force" type="upgrade"/>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="captain" name="Captain" type="model">
      <categoryLinks><categoryLink id="cl-3" targetId="inf" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
    </selectionEntry>
    <selectionEntry id="squad" name="Intercessor Squad" type="unit">
      <categoryLinks><categoryLink id="cl-4" targetId="inf" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
      <selectionEntries>
        <selectionEntry id="marine" name="Intercessor" type="model"/>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

UNITS = (
    "  - entry: captain\n"
    "  - entry: squad\n    selections: [{entry: marine, count: 5}]\n"
    "  - entry: captain\n"
)
OPTIONS = (
    "  - entry: detachment\n    selections: [{entry: gladius}]\n"
    "  - entry: size\n    selections: [{entry: strike}]\n"
)
ONE_FORCE = "name: T\nsystem: tiny\nfaction: army\nselections:\n" + OPTIONS + UNITS


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory, GST, CAT)


def _page(lib: Library, text: str) -> tuple[str, bytes]:
    from pypdf import PdfReader

    data = render_legal(lib, text, sheets=False)
    page = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    return re.sub(r"\s+", " ", page), data


def test_configuration_is_no_unit(lib: Library) -> None:
    text, data = _page(lib, ONE_FORCE)
    assert "Units (3)" in text, text
    assert "Roster options (2)" in text, text
    # each printed once, the options first, then the units in the roster's order
    at = [text.index(s) for s in ("Roster options (2)", "Detachment", "Battle Size", "Units (3)")]
    assert at == sorted(at), text
    assert text.count("Detachment") == 1 and "Gladius Task Force" in text
    assert text.count("Captain") == 2 and "Intercessor Squad" in text
    assert all(ink(page, body_box(page)) > 200 for page in rasterise(data))


def test_a_roster_of_units_only_has_no_options_heading(lib: Library) -> None:
    text, _ = _page(lib, "name: T\nsystem: tiny\nfaction: army\nselections:\n" + UNITS)
    assert "Units (3)" in text and "Roster options" not in text


def test_a_force_counts_its_units_and_its_options_apart(lib: Library) -> None:
    two = (
        "format: 2\nname: T\nsystem: tiny\nfaction: army\nforces:\n"
        "  - force: f1\n    faction: army\n    selections:\n"
        + "".join("    " + line + "\n" for line in (OPTIONS + UNITS).splitlines())
        + "  - force: f1\n    faction: army\n    selections:\n"
        + "".join("    " + line + "\n" for line in UNITS.splitlines()[:1])
    )
    roster = Roster.from_text(two, "<test>")
    view = build_view(evaluate_roster(roster, lib.system(roster.system)))
    assert [len(f.unit_lines()) for f in view.forces] == [3, 1]
    assert [len(f.option_lines()) for f in view.forces] == [2, 0]
    text, _ = _page(lib, two)
    assert "· 3 units, 2 roster options" in text, text
    assert "· 1 unit" in text, text


def test_a_crew_member_with_a_stat_line_is_a_unit(lib: Library) -> None:
    """Space Station Zero's data makes each crew member an upgrade with a stat line (Life,
    Move, Combat...) at the top of the force: the roster page listed a crew of eight as
    "Roster options (8)" and no units. An upgrade with a profile of its own is fielded."""
    text, _ = _page(lib, ONE_FORCE + "  - entry: pilot\n  - entry: pilot\n")
    assert "Units (5)" in text and "Roster options (2)" in text, text
    assert text.index("Units (5)") < text.index("Pilot"), text
