# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""A weapon carried more than once is printed with how many there are (QA of printing, item 2).

A 40k Land Raider carries two Godhammer lascannons (two selections of one entry); its card's
weapon table had one "Godhammer Lascannon" row, so the table read as one gun, and only the
"with:" line below it showed both. A card's weapon table now has a row per weapon profile with
its count, "Lascannon ×2" (a squad's card counts what its models carry together: a sergeant and
four troopers with rifles, "Rifle ×5"), in the form the card's model rows ("Trooper ×4") and its
"with:" line use: it said "2× Lascannon" above "with: Lascannon ×2" on the same card.
Every data file is made here; the PDF's text is read back and its pages rasterised.
"""

from __future__ import annotations

import io
import re

import pytest
from bs_tiny import render_legal, tiny_library
from raster_helpers import body_box, ink, rasterise

from armybuilder.catalog import Library

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="wpn" name="Ranged Weapons">
      <characteristicTypes>
        <characteristicType id="range" name="Range"/>
        <characteristicType id="a" name="A"/>
      </characteristicTypes>
    </profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
  <sharedProfiles>
    <profile id="p-rifle" name="Rifle" typeId="wpn" hidden="false">
      <characteristics><characteristic name="Range" typeId="range">24"</characteristic><characteristic name="A" typeId="a">2</characteristic></characteristics>
    </profile>
  </sharedProfiles>
</gameSystem>
"""

RIFLE = '<infoLinks><infoLink id="ILID" name="Rifle" targetId="p-rifle" type="profile" hidden="false"/></infoLinks>'

CAT = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="tank" name="Tank" type="model" hidden="false">
      <costs><cost name="pts" typeId="pts" value="200"/></costs>
      <selectionEntries>
        <selectionEntry id="las" name="Lascannon" type="upgrade" hidden="false">
          <profiles>
            <profile id="p-las" name="Lascannon" typeId="wpn" hidden="false">
              <characteristics><characteristic name="Range" typeId="range">48"</characteristic><characteristic name="A" typeId="a">1</characteristic></characteristics>
            </profile>
          </profiles>
        </selectionEntry>
        <selectionEntry id="hb" name="Heavy Bolter" type="upgrade" hidden="false">
          <profiles>
            <profile id="p-hb" name="Heavy Bolter" typeId="wpn" hidden="false">
              <characteristics><characteristic name="Range" typeId="range">36"</characteristic><characteristic name="A" typeId="a">3</characteristic></characteristics>
            </profile>
          </profiles>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="squad" name="Squad" type="unit" hidden="false">
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
      <selectionEntries>
        <selectionEntry id="sarge" name="Sergeant" type="model" hidden="false">
          <selectionEntries>
            <selectionEntry id="sarge-rifle" name="Rifle" type="upgrade" hidden="false">{RIFLE.replace("ILID", "il-1")}</selectionEntry>
          </selectionEntries>
        </selectionEntry>
        <selectionEntry id="trooper" name="Trooper" type="model" hidden="false">
          <selectionEntries>
            <selectionEntry id="trooper-rifle" name="Rifle" type="upgrade" hidden="false">{RIFLE.replace("ILID", "il-2")}</selectionEntry>
          </selectionEntries>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

HEAD = "name: T\nsystem: tiny\nfaction: army\nselections:\n"
#: Two selections of the lascannon (as the 40k data gives a Land Raider's pair), one heavy bolter.
TWO_SELECTIONS = HEAD + (
    "  - entry: tank\n    selections:\n      - entry: las\n      - entry: las\n      - entry: hb\n"
)
#: One selection of it taken twice.
COUNT_TWO = (
    HEAD + "  - entry: tank\n    selections:\n      - {entry: las, count: 2}\n      - entry: hb\n"
)
SQUAD = HEAD + (
    "  - entry: squad\n    selections:\n"
    "      - entry: sarge\n        selections: [{entry: sarge-rifle}]\n"
    "      - entry: trooper\n        count: 4\n        selections: [{entry: trooper-rifle}]\n"
)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory, GST, CAT)


def _card_text(lib: Library, text: str) -> tuple[str, bytes]:
    """The text of the record sheet page (the last), and the whole PDF."""
    from pypdf import PdfReader

    data = render_legal(lib, text)
    return PdfReader(io.BytesIO(data)).pages[-1].extract_text(), data


@pytest.mark.parametrize("roster", [TWO_SELECTIONS, COUNT_TWO], ids=["two-selections", "count-2"])
def test_a_weapon_carried_twice_is_printed_with_its_count(lib: Library, roster: str) -> None:
    card, data = _card_text(lib, roster)
    rows = [line for line in card.splitlines() if "Lascannon" in line and '48"' in line]
    assert len(rows) == 1, card
    assert re.match(r"\s*Lascannon ×2\s", rows[0]), rows
    # one heavy bolter: no count in front of it
    assert re.search(r'(^|\n)\s*Heavy Bolter\s+36"', card), card
    assert "Heavy Bolter ×" not in card
    assert not re.search(r"\d× ", card), card  # one form of a count on the card
    assert all(ink(page, body_box(page)) > 200 for page in rasterise(data))


def test_a_squad_card_counts_what_its_models_carry(lib: Library) -> None:
    card, _ = _card_text(lib, SQUAD)
    assert re.search(r'Rifle ×5\s+24"', card), card


#: A squad whose troopers are two selections (as a player who gives two of them another weapon
#: gets): the summary counts the models by name, as the card's model count does.
SQUAD_SPLIT = HEAD + (
    "  - entry: squad\n    selections:\n"
    "      - entry: sarge\n        selections: [{entry: sarge-rifle}]\n"
    "      - entry: trooper\n        count: 2\n        selections: [{entry: trooper-rifle}]\n"
    "      - entry: trooper\n        count: 2\n        selections: [{entry: trooper-rifle}]\n"
)


@pytest.mark.parametrize("roster", [TWO_SELECTIONS, COUNT_TWO], ids=["two-selections", "count-2"])
def test_the_summary_counts_a_weapon_carried_twice_as_the_card_does(
    lib: Library, roster: str
) -> None:
    """The roster page's line of the tank and its card's "with:" line say "Lascannon ×2" (it
    read "Lascannon, Lascannon" for the two selections the 40k data gives a Land Raider)."""
    from pypdf import PdfReader

    card, data = _card_text(lib, roster)
    summary = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    for page in (summary, card):
        flat = " ".join(page.split())
        assert (
            "with Lascannon ×2, Heavy Bolter" in flat or "with: Lascannon ×2, Heavy Bolter" in flat
        ), page
        assert "Lascannon, Lascannon" not in flat
    # the weapon table's count, the same number in the same form
    assert re.search(r'Lascannon ×2\s+48"', card), card


def test_the_summary_counts_models_of_one_name_together(lib: Library) -> None:
    from pypdf import PdfReader

    _, data = _card_text(lib, SQUAD_SPLIT)
    summary = " ".join(PdfReader(io.BytesIO(data)).pages[0].extract_text().split())
    assert "5 models: Sergeant, Trooper ×4" in summary, summary
    assert "Trooper ×2, Trooper ×2" not in summary
