# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""Cards printed from BattleScribe data show what the data shows a player, and nothing it hides.

The data's model (``../battlescribe-spec``: a profile's ``hidden`` and the modifiers of its
``hidden``, set by conditions on what is selected) decides which stat lines and abilities a
selection has: a commander's ability that depends on the ship type, an ability a model gains
with experience. A hidden profile is not the player's and is not printed; one a modifier shows
is. Each PDF is rasterised and its text read back: the lines that belong are there and inked,
the hidden ones are nowhere. Every data file is made here.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from raster_helpers import body_box, ink, rasterise

from armybuilder.catalog import Library
from armybuilder.render import render_pdf
from armybuilder.render.context import build_view
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="ab" name="Ability">
      <characteristicTypes><characteristicType id="desc" name="Description"/></characteristicTypes>
    </profileType>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="cat-char" name="Character"/>
    <categoryEntry id="cat-inf" name="Infantry"/>
    <categoryEntry id="cat-fac" name="Faction: Tiny Guard"/>
  </categoryEntries>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
  <sharedProfiles>
    <profile id="crewman" name="Crewmember" typeId="ab" hidden="false">
      <characteristics><characteristic name="Description" typeId="desc">Pulls ropes.</characteristic></characteristics>
    </profile>
    <profile id="lore" name="Linked Lore" typeId="ab" hidden="false">
      <characteristics><characteristic name="Description" typeId="desc">Knows the old ways.</characteristic></characteristics>
    </profile>
  </sharedProfiles>
  <sharedRules>
    <rule id="demise" name="Deadly Demise" hidden="false"><description>Roll when destroyed.</description></rule>
  </sharedRules>
</gameSystem>
"""

VETERAN = (
    '<conditions><condition field="selections" scope="self" value="1" childId="vet"'
    ' type="atLeast"/></conditions>'
)

#: The Hero: "Always" is always shown; "Never Shown" is hidden with nothing to show it;
#: "Veteran Trick" is hidden until the Veteran upgrade is taken; "Rookie Luck" is shown until
#: then; "Linked Lore" (a shared profile) is hidden by its info link's modifier once a veteran.
CAT = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="hero" name="Hero" type="model" hidden="false">
      <costs><cost name="pts" typeId="pts" value="50"/></costs>
      <categoryLinks>
        <categoryLink id="cl-1" targetId="cat-char" primary="true"/>
        <categoryLink id="cl-2" targetId="cat-inf" primary="false"/>
        <categoryLink id="cl-3" targetId="cat-fac" primary="false"/>
      </categoryLinks>
      <profiles>
        <profile id="p-always" name="Always" typeId="ab" hidden="false">
          <characteristics><characteristic name="Description" typeId="desc">Stands firm.</characteristic></characteristics>
        </profile>
        <profile id="p-never" name="Never Shown" typeId="ab" hidden="true">
          <characteristics><characteristic name="Description" typeId="desc">Secret.</characteristic></characteristics>
        </profile>
        <profile id="p-vet" name="Veteran Trick" typeId="ab" hidden="true">
          <modifiers><modifier type="set" field="hidden" value="false">{VETERAN}</modifier></modifiers>
          <characteristics><characteristic name="Description" typeId="desc">Learned in battle.</characteristic></characteristics>
        </profile>
        <profile id="p-rookie" name="Rookie Luck" typeId="ab" hidden="false">
          <modifiers><modifier type="set" field="hidden" value="true">{VETERAN}</modifier></modifiers>
          <characteristics><characteristic name="Description" typeId="desc">Beginner's luck.</characteristic></characteristics>
        </profile>
      </profiles>
      <infoLinks>
        <infoLink id="il-lore" name="Linked Lore" targetId="lore" type="profile" hidden="false">
          <modifiers><modifier type="set" field="hidden" value="true">{VETERAN}</modifier></modifiers>
        </infoLink>
        <infoLink id="il-demise" name="Deadly Demise" targetId="demise" type="rule" hidden="false">
          <modifiers>
            <modifier type="append" value="D6" field="name"/>
            <modifier type="set" value="Explodes on a 6." field="description">{VETERAN}</modifier>
          </modifiers>
        </infoLink>
      </infoLinks>
      <selectionEntries>
        <selectionEntry id="gun" name="Machine Gun" type="upgrade" hidden="false">
          <selectionEntries>
            <selectionEntry id="front" name="Front" type="upgrade" hidden="false"/>
          </selectionEntries>
        </selectionEntry>
        <selectionEntry id="vet" name="Veteran" type="upgrade" hidden="false">
          <constraints><constraint id="vet-max" type="max" value="1" field="selections" scope="parent"/></constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="deckhand" name="Deckhand" type="model" hidden="false">
      <infoLinks>
        <infoLink id="il-crew" name="Crewmember" targetId="crewman" type="profile" hidden="false">
          <modifiers><modifier type="set" field="name" value="Deckhand"/></modifiers>
        </infoLink>
      </infoLinks>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

ROOKIE = "name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: hero\n"
VETERAN_HERO = ROOKIE + "    selections:\n      - entry: vet\n"

ALL = {"Always", "Never Shown", "Veteran Trick", "Rookie Luck", "Linked Lore"}


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    base = tmp_path_factory.mktemp("bs")
    folder = base / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    return Library([folder], use_cache=False).scan()


def _evaluate(lib: Library, text: str) -> Evaluation:
    roster = Roster.from_text(text, "<test>")
    return evaluate_roster(roster, lib.system(roster.system))


def _pdf(ev: Evaluation) -> tuple[str, bytes]:
    from pypdf import PdfReader

    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01")
    data = out.getvalue()
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    return text, data


@pytest.mark.parametrize(
    ("roster", "shown"),
    [
        (ROOKIE, {"Always", "Rookie Luck", "Linked Lore"}),
        (VETERAN_HERO, {"Always", "Veteran Trick"}),
    ],
    ids=["rookie", "veteran"],
)
def test_a_card_prints_the_profiles_the_data_shows_and_no_hidden_one(
    lib: Library, roster: str, shown: set[str]
) -> None:
    ev = _evaluate(lib, roster)
    hero = build_view(ev).units[0]
    assert {p.name for p in hero.profiles} == shown
    text, data = _pdf(ev)
    for name in shown:
        assert name in text
    for name in ALL - shown:
        assert name not in text
    pages = rasterise(data)
    # the card (on the record sheet page) is inked: its ability table is there
    assert all(ink(page, body_box(page)) > 200 for page in pages)


def test_a_hidden_profile_keeps_its_id_and_the_others_are_shared_by_value(lib: Library) -> None:
    """Only the profiles that can be hidden carry an id and ``hidden`` in the translation."""
    ev = _evaluate(lib, ROOKIE)
    entry = ev.root.children[0].entry
    assert entry is not None
    by_name = {p.name: p for p in entry.profiles}
    assert by_name["Always"].id is None and by_name["Always"].hidden is False
    assert by_name["Never Shown"].hidden is True
    assert by_name["Veteran Trick"].id == "p-vet" and by_name["Veteran Trick"].hidden is True
    assert by_name["Linked Lore"].id == "lore"


def test_a_yaml_catalog_may_hide_a_profile_by_its_id(tmp_path: Path) -> None:
    """Our own catalog format: `profile:<id>:hidden` is a modifier field check-catalog
    accepts (docs/catalog-format.md, "Modifiers"); a misspelt profile id is refused."""
    from armybuilder.cli import main

    base = """kind: system
id: tinyy
name: Tinyy
profile_types:
  - id: ab
    name: Ability
    characteristics: [{id: desc, name: Description}]
forces: [{id: army, name: Army}]
entries:
  - id: hero
    name: Hero
    type: model
    profiles:
      - {id: p1, type: ab, name: Secret, hidden: true, characteristics: {desc: x}}
    modifiers:
      - {type: set, field: "profile:PID:hidden", value: false}
"""
    good = tmp_path / "good" / "tinyy.yaml"
    good.parent.mkdir()
    good.write_text(base.replace("PID", "p1"), encoding="utf-8")
    bad = tmp_path / "bad" / "tinyy.yaml"
    bad.parent.mkdir()
    bad.write_text(base.replace("PID", "p2"), encoding="utf-8")
    assert main(["check-catalog", str(good)]) == 0
    assert main(["check-catalog", str(bad)]) == 2


@pytest.mark.parametrize(
    ("roster", "text"),
    [(ROOKIE, "Roll when destroyed."), (VETERAN_HERO, "Explodes on a 6.")],
    ids=["rookie", "veteran"],
)
def test_a_rule_prints_with_the_name_and_text_its_entry_gives_it(
    lib: Library, roster: str, text: str
) -> None:
    """An info link's modifiers of a rule's name and description (BattleScribe's "Deadly
    Demise" with "D6" appended on one vehicle, "D3" on another) print on that unit's card:
    the player reads how many dice, not the bare rule name."""
    ev = _evaluate(lib, roster)
    hero = build_view(ev).units[0]
    assert hero.rules == ["Deadly Demise D6"]
    assert hero.rule_texts == [("Deadly Demise D6", text)]
    printed, data = _pdf(ev)
    assert "Deadly Demise D6:" in printed and text in printed
    pages = rasterise(data)
    assert all(ink(page, body_box(page)) > 200 for page in pages)


GUNNER = ROOKIE + "    selections:\n      - entry: gun\n        selections: [{entry: front}]\n"


def test_an_upgrade_holding_upgrades_is_in_the_unit_s_line_and_card(lib: Library) -> None:
    """A weapon with its mounting (Gaslands: a Machine Gun mounted Front), a wargear option
    holding its weapons (40k: "Bolt Pistol, Master-crafted Bolter, Melee Weapon"): the roster
    page's line of the unit and its card say what it carries, the mounting with it, instead of
    leaving both out because the weapon is no plain upgrade."""
    from pypdf import PdfReader

    ev = _evaluate(lib, GUNNER)
    hero = build_view(ev).units[0]
    assert hero.loadout == []  # (the plain upgrades: the text export lists the gun apart)
    assert hero.kit == ["Machine Gun (Front)"]
    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01")
    reader = PdfReader(io.BytesIO(out.getvalue()))
    roster_page, card_page = (p.extract_text() for p in reader.pages[:2])
    assert "with Machine Gun (Front)" in roster_page
    assert "with: Machine Gun (Front)" in card_page
    assert all(ink(page, body_box(page)) > 200 for page in rasterise(out.getvalue()))


def test_a_card_prints_the_unit_s_categories(lib: Library) -> None:
    """A datasheet's keywords are the data's categories of the unit (BattleScribe prints them
    as "Categories" on every selection): the card says them under its title, in the data's
    order, the faction keyword too."""
    from pypdf import PdfReader

    ev = _evaluate(lib, ROOKIE)
    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01")
    card_page = PdfReader(io.BytesIO(out.getvalue())).pages[1].extract_text()
    assert "Categories: Character, Infantry, Faction: Tiny Guard" in card_page
    assert all(ink(page, body_box(page)) > 200 for page in rasterise(out.getvalue()))


def test_a_profile_prints_with_the_name_its_entry_gives_it(lib: Library) -> None:
    """A shared stat line ("Crewmember") that an info link's modifier names after the entry
    (Space Station Zero: "Commander", "Pilot"...) prints under that name."""
    from pypdf import PdfReader

    ev = _evaluate(lib, "name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: deckhand\n")
    (deckhand,) = build_view(ev).units
    assert [p.name for p in deckhand.profiles] == ["Deckhand"]
    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01")
    card_page = PdfReader(io.BytesIO(out.getvalue())).pages[1].extract_text()
    assert "Pulls ropes." in card_page and "Crewmember" not in card_page
    assert all(ink(page, body_box(page)) > 200 for page in rasterise(out.getvalue()))
