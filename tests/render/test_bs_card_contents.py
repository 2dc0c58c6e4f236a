# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""What a card printed from BattleScribe data holds, read back from the page: every rule of
what the card carries, texts whole however long, a stat line of many columns inside the card,
and the ids of selections the data does not hold.

One roster of a small game system made here is rendered once (and a roster of only a bare
roster option once more); the PDF's text is read with pypdf and its pages rasterised with
pypdfium2. Each test names the defect it guards against, as it was seen on real data
(``../shared/bsdata``): a Gaslands car whose Harpoon says "See Rules." with no rule printed, a
40k squad without the texts of "Pistol" or "Assault", the detachment's rule missing.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import pytest
from bs_tiny import tiny_library
from raster_helpers import DPI, MARGINS_MM, StrayText, ink, rasterise, stray_text

from armybuilder.catalog import Library
from armybuilder.render import render_pdf
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

pytest.importorskip("pypdfium2", reason="rasterising PDFs needs pypdfium2 (the test extra)")

#: A text longer than the 2,000 characters other texts are cut at, its end marked.
WORDS = "Each time this model makes an attack that targets a unit within half range, add one to the wound roll. "
LONG_RULE = (WORDS * 30)[:2590] + " END-OF-RULE"
LONG_ABILITY = (WORDS * 30)[:2590] + " END-OF-ABILITY"
#: Texts the data writes a line an item (its line breaks as BattleScribe data has them).
LEADER = "This model can be attached to the following units:\n- BOYZ\n- NOBZ"
CALL = "Once per battle, call it:\r\n- Units advance and charge.\r\n\r\n- Models get a 5+ save."
#: A profile type of 15 characteristics whose values are long words.
WIDE = [f"Column {i}" for i in range(15)]


def _chars(names: list[str], prefix: str) -> str:
    return "".join(
        f'<characteristicType id="{prefix}{i}" name="{n}"/>' for i, n in enumerate(names)
    )


def _profile(pid: str, name: str, type_id: str, values: list[str], prefix: str) -> str:
    chars = "".join(
        f'<characteristic name="c{i}" typeId="{prefix}{i}">{v}</characteristic>'
        for i, v in enumerate(values)
    )
    return f'<profile id="{pid}" name="{name}" typeId="{type_id}" hidden="false"><characteristics>{chars}</characteristics></profile>'


def _rule(rid: str, name: str, text: str) -> str:
    return f'<rule id="{rid}" name="{name}" hidden="false"><description>{text}</description></rule>'


GST = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="unit" name="Unit"><characteristicTypes>{_chars(["M", "T", "W"], "u")}</characteristicTypes></profileType>
    <profileType id="rw" name="Ranged Weapons"><characteristicTypes>{_chars(["Range", "A", "Keywords"], "w")}</characteristicTypes></profileType>
    <profileType id="ab" name="Abilities"><characteristicTypes>{_chars(["Description"], "d")}</characteristicTypes></profileType>
    <profileType id="wide" name="Wide"><characteristicTypes>{_chars(WIDE, "x")}</characteristicTypes></profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
  <sharedRules>{_rule("blast", "Blast", "Add one attack per five models in the target unit.")}</sharedRules>
</gameSystem>
"""


def _gun(gid: str, name: str, rules: str) -> str:
    return (
        f'<selectionEntry id="{gid}" name="{name}" type="upgrade" hidden="false"><profiles>'
        + _profile(f"p-{gid}", name, "rw", ['24"', "D6", "Blast"], "w")
        + f"</profiles>{rules}</selectionEntry>"
    )


BLAST_LINK = '<infoLinks><infoLink id="il-{0}" name="Blast" targetId="blast" type="rule" hidden="false"/></infoLinks>'

CAT = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="squad" name="Gun Squad" type="unit" hidden="false">
      <costs><cost name="pts" typeId="pts" value="100"/></costs>
      <rules>{_rule("r-squad", "Squad Drill", "The squad moves as one.")}</rules>
      <selectionEntries>
        <selectionEntry id="gunner" name="Gunner" type="model" hidden="false">
          <profiles>{_profile("p-gunner", "Gunner", "unit", ['6"', "4", "2"], "u")}</profiles>
          <rules>{_rule("r-aim", "Steady Aim", "A gunner that did not move re-rolls one hit.")}</rules>
          <selectionEntries>
            {_gun("mortar", "Mortar", BLAST_LINK.format("mortar") + "<rules>" + _rule("r-indirect", "Indirect", "Fires at what the unit cannot see.") + "</rules>")}
            {_gun("launcher", "Launcher", BLAST_LINK.format("launcher"))}
          </selectionEntries>
        </selectionEntry>
        <selectionEntry id="escort" name="Escort" type="unit" hidden="false">
          <profiles>{_profile("p-escort", "Escort", "unit", ['8"', "3", "1"], "u")}</profiles>
          <rules>{_rule("r-escort", "Escort Duty", "Stays within 3 inches of the squad.")}</rules>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="brood" name="Brood" type="unit" hidden="false">
      <costs><cost name="pts" typeId="pts" value="60"/></costs>
      <selectionEntries>
        <selectionEntry id="gaunt" name="Gaunt" type="model" hidden="false">
          <profiles>{_profile("p-gaunt", "Gaunt", "unit", ['6"', "3", "1"], "u")}</profiles>
          <selectionEntries>{_gun("spiker", "Spiker", "")}{_gun("borer", "Borer", "")}</selectionEntries>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="detachment" name="Detachment" type="upgrade" hidden="false">
      <selectionEntries>
        <selectionEntry id="spearhead" name="Spearhead" type="upgrade" hidden="false">
          <rules>{_rule("r-spear", "Armoured Spearhead", "Vehicles of the army advance and shoot.")}</rules>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="sponsor" name="Sponsor" type="upgrade" hidden="false"/>
    <selectionEntry id="sage" name="Sage" type="model" hidden="false">
      <costs><cost name="pts" typeId="pts" value="50"/></costs>
      <profiles>{_profile("p-sage", "Long Ability", "ab", [LONG_ABILITY], "d")}{_profile("p-lead", "Leader", "ab", [LEADER], "d")}</profiles>
      <rules>{_rule("r-long", "Long Rule", LONG_RULE)}{_rule("r-call", "Call", CALL)}</rules>
    </selectionEntry>
    <selectionEntry id="wide" name="Wide Thing" type="model" hidden="false">
      <costs><cost name="pts" typeId="pts" value="5"/></costs>
      <profiles>{_profile("p-wide", "Wide Thing", "wide", [f"Value{i}-abcdefghijklmnopqr" for i in range(15)], "x")}</profiles>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

ROSTER = """\
format: 1
system: tiny
faction: army
name: Card contents
selections:
  - entry: detachment
    selections:
      - entry: spearhead
  - entry: squad
    selections:
      - entry: gunner
        count: 2
        selections:
          - entry: mortar
          - entry: launcher
          - entry: no-such-gun
      - entry: escort
  - entry: brood
    selections:
      - {entry: gaunt, count: 2, selections: [{entry: borer}]}
      - {entry: gaunt, selections: [{entry: borer}]}
      - {entry: gaunt, selections: [{entry: spiker}]}
  - entry: sage
  - entry: wide
  - entry: no-such-unit
    selections:
      - entry: no-such-model
        count: 3
"""

#: A roster whose only selection is a roster option with nothing chosen in it.
BARE_OPTION = "format: 1\nsystem: tiny\nfaction: army\nname: Just a sponsor\nselections:\n  - entry: sponsor\n"


#: Two forces, the second holding only a bare roster option.
TWO_FORCES = """\
format: 2
system: tiny
faction: army
name: Two forces
forces:
  - force: f1
    name: Sages
    selections:
      - entry: wide
  - force: f1
    name: Sponsored only
    selections:
      - entry: sponsor
"""


@dataclass
class Printed:
    text: str  # the whole PDF's text, whitespace as extracted
    pages: list[str]
    images: list[Any]  # PIL images, one a page
    stray: list[StrayText]


def _print(lib: Library, text: str) -> Printed:
    from pypdf import PdfReader

    roster = Roster.from_text(text, "<test>")
    ev = evaluate_roster(roster, lib.system(roster.system))
    out = io.BytesIO()
    result = render_pdf(ev, out, date="2026-01-01", keep_layout=True, pieces=False)
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(out.getvalue())).pages]
    return Printed("\n".join(pages), pages, rasterise(out.getvalue()), stray_text(result.document))


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory, GST, CAT)


@pytest.fixture(scope="module")
def printed(lib: Library) -> Printed:
    return _print(lib, ROSTER)


def squeezed(text: str) -> str:
    """Text without its white space (extraction breaks lines where the page does)."""
    return re.sub(r"\s+", "", text)


def sheets(printed: Printed) -> str:
    assert "Record sheets" in printed.text
    return printed.text[printed.text.index("Record sheets") :]


def card(printed: Printed, title: str, next_title: str) -> str:
    """The text of one card on the record sheets: from its title to the next card's."""
    text = sheets(printed)
    return text[text.index(title) : text.index(next_title)]


def test_a_card_prints_the_rules_of_its_models_and_weapons_once_each(printed: Printed) -> None:
    # Before: only the unit's own "Squad Drill" was printed; the gunners' "Steady Aim" and the
    # weapons' "Blast" and "Indirect" (named in the weapons' Keywords column) were nowhere.
    squad = squeezed(card(printed, "Gun Squad", "Escort"))
    for name, text in [
        ("Squad Drill", "The squad moves as one."),
        ("Steady Aim", "A gunner that did not move re-rolls one hit."),
        ("Blast", "Add one attack per five models in the target unit."),
        ("Indirect", "Fires at what the unit cannot see."),
    ]:
        assert squeezed(f"{name}: {text}") in squad, name
    # two weapons share "Blast": its text is printed once
    assert squad.count(squeezed("Add one attack per five models")) == 1
    # a unit nested in the squad prints its rule on its own card, not on the squad's too
    assert "EscortDuty" not in squad
    assert squeezed(sheets(printed)).count("EscortDuty:") == 1


def test_the_same_model_s_stat_line_is_one_row_with_how_many(printed: Printed) -> None:
    # Before: a row per selection: "Gaunt ×2", "Gaunt", "Gaunt" with the same stat line (a
    # BattleScribe roster of seven Termagants taken one by one printed seven identical rows).
    brood = squeezed(card(printed, "Brood", "Sage"))
    assert brood.count('6"31') == 1 and 'Gaunt×46"31' in brood
    # the models' table keeps a row per selection, each with its own kit and hit boxes
    assert "Gaunt×2Borer" in brood and brood.count("GauntBorer") == 1
    assert "GauntSpiker" in brood


def test_a_roster_option_card_prints_the_rule_of_what_is_chosen_in_it(printed: Printed) -> None:
    # Before: the Detachment card said "with: Spearhead", and the detachment's rule, which the
    # whole army plays by, was printed nowhere.
    assert squeezed("Armoured Spearhead: Vehicles of the army advance and shoot.") in squeezed(
        sheets(printed)
    )


def test_a_long_rule_and_a_long_ability_print_whole(printed: Printed) -> None:
    # Before: both were cut at 2,000 characters with an ellipsis, in mid-sentence.
    text = squeezed(sheets(printed))
    assert squeezed(LONG_RULE) in text
    assert squeezed(LONG_ABILITY) in text
    assert "…" not in printed.text


def test_a_rule_s_line_breaks_are_kept_and_a_cell_s_joined(printed: Printed) -> None:
    # Before: a rule's effects ran on in one line ("call it: - Units advance... - Models...").
    lines = [" ".join(line.split()) for line in sheets(printed).splitlines()]
    for item in (
        "Call: Once per battle, call it:",
        "- Units advance and charge.",
        "- Models get a 5+ save.",
    ):
        assert item in lines, lines
    # An ability's cell stays one paragraph: its list a line each would take a 40k character's
    # card past its page (see context.clean_lines).
    assert "Leader This model can be attached to the following units: - BOYZ - NOBZ" in lines


def test_a_stat_line_of_many_columns_stays_inside_its_card_and_page(printed: Printed) -> None:
    # Before: the 15 columns of "Wide" ran past the card's right border and off the page:
    # columns 9 to 14 were not printed at all.
    (number,) = [i for i, page in enumerate(printed.pages) if "Wide Thing" in page and i > 0]
    on_page = squeezed(printed.pages[number])
    for i in range(15):
        assert f"Column{i}" in on_page and f"Value{i}-" in on_page, i
    assert not [s for s in printed.stray if s.page == number], printed.stray
    # and no ink in the page's right margin (the running header ends at the margin's edge)
    image = printed.images[number]
    width, height = image.size
    px = DPI / 25.4  # pixels per millimetre
    top, right, bottom, _ = MARGINS_MM
    margin = (round(width - (right - 1) * px), round(top * px), width, round(height - bottom * px))
    assert ink(image, margin) == 0


def test_selections_the_data_does_not_hold_are_named_on_their_cards(printed: Printed) -> None:
    # Before: the card of an unknown unit was an empty box with its id, and the squad's
    # unknown gun was missing from the card without a word.
    squad = squeezed(card(printed, "Gun Squad", "Escort"))
    assert squeezed("Not in the game's data") in squad and "no-such-gun" in squad
    unknown = squeezed(sheets(printed)[sheets(printed).index("no-such-unit") :])
    assert squeezed("Not in the game's data") in unknown
    assert "no-such-unit" in unknown and "no-such-model×3" in unknown


def test_every_page_of_the_sheets_is_inked(printed: Printed) -> None:
    assert len(printed.images) >= 3
    for image in printed.images:
        assert ink(image) > 500


def test_a_roster_of_only_a_bare_option_prints_no_empty_sheets_page(lib: Library) -> None:
    # Before: a new Gaslands team (its bare "Sponsor" only) printed a second page holding the
    # heading "Record sheets" and nothing under it.
    only = _print(lib, BARE_OPTION)
    assert len(only.pages) == 1, only.pages
    assert "Record sheets" not in only.text
    assert "This roster is empty" in only.text and "Sponsor" in only.text


def test_a_force_of_only_a_bare_option_gets_no_sheets_page(lib: Library) -> None:
    # Before: the second force's sheets began on a page of their own, which held its name in
    # the running header and nothing else.
    two = _print(lib, TWO_FORCES)
    assert len(two.pages) == 2, two.pages
    assert "Sponsored only" in two.pages[0] and "Sponsored only" not in two.pages[1]
