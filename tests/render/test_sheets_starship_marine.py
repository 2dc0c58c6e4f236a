"""Starship Marine record sheets as they come off the printer: a sheet per squad with its
figures, ammunition and morale (Starship Marine 3.x, 4.x)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from render_helpers import EXAMPLES, count_boxes, printed_markup
from sheet_layout import Layout, cards_titled, layout_faults, printed, sheet_html, variant

from armybuilder.catalog import Library
from armybuilder.render import load

SMR = EXAMPLES / "starship-marine"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_regimental_hq_title_clear_of_its_subtitle(library: Library, paper: str) -> None:
    """The "Regimental HQ" card printed its title over its subtitle."""
    layout = printed(SMR / "earther-regiment.yaml", library, paper).layout
    assert any(c.title.startswith("Regimental") for c in layout.cards)
    assert layout_faults(layout) == []


def test_a_squad_bought_twice_prints_twice(library: Library, tmp_path: Path) -> None:
    """Every figure fielded gets a row: a Sirian squad ×2 is two squads of nine figures
    (Starship Marine 5.x orders of battle; 3.x: each figure acts and is hit on its own)."""
    path = variant(
        SMR / "sirian-platoon.yaml",
        tmp_path,
        ("        name: 1st Marine Squad\n", "        name: 1st Marine Squad\n        count: 2\n"),
    )
    layout = printed(path, library).layout
    assert layout_faults(layout) == []
    for n in (1, 2):
        (card,) = cards_titled(layout, f"1st Marine Squad {n} of 2")
        # the header ends at Experience (no campaign rules: no Sticker or Record columns)
        rows = card.text.split("Target Hits Experience", 1)[1]
        assert "Record" not in rows
        assert rows.count("Combat Robot") == 4 and rows.count("Corporal") == 2
        assert "9 Combat Robot" in rows and "10 " not in rows.split("Grenades")[0]


VETERANS = """\
format: 1
system: starship-marine
faction: earther
name: Veterans
selections:
  - entry: campaign-rules   # experience classes come with the campaign rules only (part 4)
  - entry: earther-squad
    name: 1st Squad
    selections:
      - entry: lieutenant
        name: Lt Hale
        state: {actions: 31, wounds: 2}
        selections: [{entry: marine-armour}, {entry: sca-2}]
      - entry: sergeant
        name: Sgt Kowalski
        state: {actions: 28, wounds: 1, hits: 1}
        selections: [{entry: marine-armour}, {entry: sca-3}]
      - {entry: corporal, selections: [{entry: marine-armour}, {entry: sca-3}]}
      - {entry: marine, count: 3, selections: [{entry: marine-armour}, {entry: sca-2}]}
"""


def test_campaign_record_printed_apart_from_hits(library: Library, tmp_path: Path) -> None:
    """4.7: ``wounds`` counts past actions in which the figure was wounded (each counts as
    two for experience): it is printed in the figure's record, never as crossed hit boxes;
    ``hits`` are this battle's (3.5, 3.7)."""
    path = tmp_path / "veterans.yaml"
    path.write_text(VETERANS, encoding="utf-8")
    doc = printed(path, library)
    html = doc.result.html
    layout = doc.layout
    assert layout_faults(layout) == []
    (card,) = cards_titled(layout, "1st Squad")
    assert "Record" in card.text
    hale = card.text.split("Lt Hale", 1)[1].split("Sgt Kowalski", 1)[0]
    assert "Veteran" in hale and "31 fought, wounded in 2" in hale
    sgt = card.text.split("Sgt Kowalski", 1)[1].split("Corporal", 1)[0]
    assert "28 fought, wounded in 1" in sgt
    rows = html.split('class="sm-figures"', 1)[1].split("</table>", 1)[0].split("<tr")[2:]
    assert [count_boxes(r)[1] for r in rows] == [0, 1, 0, 0, 0, 0]


def squash(text: str) -> str:
    """Text without spaces (bold figures are separate text boxes on a line)."""
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def regiment(library: Library) -> tuple[str, Layout]:
    doc = printed(SMR / "earther-regiment.yaml", library)
    html = doc.result.html
    return html, doc.layout


def test_one_force_wide_morale_tracker_with_its_factors(
    library: Library, regiment: tuple[str, Layout]
) -> None:
    """3.13: the attackers' morale strength is the whole force's (marines 2, others 1), and
    the die is modified by -1 below 50% and -2 below 25%; the sheet prints one strip for the
    force with those points and factors, none per squad."""
    html, layout = regiment
    ev = load(SMR / "earther-regiment.yaml", library)[2]
    mv = ev.value(ev.root, "attacker_morale")
    assert mv["below"] == {"50": 111, "25": 55} and mv["strength"] == 223
    (force,) = cards_titled(layout, "Force morale and tables")
    assert "starting strength 223" in force.text
    assert squash("below 50% (111 or less): -1") in squash(force.text)
    assert squash("below 25% (55 or less): -2") in squash(force.text)
    assert "Ship morale" not in force.text  # the boarding force keeps attacker morale
    assert html.count('class="sm-strip"') == 1
    strip = html.split('class="sm-strip"', 1)[1].split("</table>", 1)[0]
    assert count_boxes(strip) == (223, 0)  # a box per point, none lost yet
    rows = re.findall(
        r'<td class="sm-left">(\d+)–(\d+)</td><td class="boxes">(.*?)</td>'
        r'<td class="sm-thr">(.*?)</td>',
        strip,
    )
    # forty boxes to a row, each row labelled with the strength left after its first and
    # its last box: 222-183, ..., 22-0
    assert [(int(a), int(b)) for a, b, _, _ in rows] == [
        (222 - 40 * i, max(183 - 40 * i, 0)) for i in range(6)
    ]
    assert [count_boxes(b)[0] for _, _, b, _ in rows] == [40] * 5 + [23]
    # the box that leaves 111 (below 50%) and the one that leaves 55 (below 25%) are framed,
    # and their rows give the factor
    framed = []
    for first, _, boxes, note in rows:
        if '<span class="thr">' in boxes:
            before = count_boxes(boxes.split('<span class="thr">', 1)[0])[0]
            framed.append((int(first) - before, squash(printed_markup(note))))
    assert framed == [(111, "framed:111left,-1"), (55, "framed:55left,-2")]
    assert "worsens by one" not in html


def test_ship_morale_thresholds_for_defenders(library: Library) -> None:
    """3.12: a ship's company keeps ship morale (crew 1, officers 2, marines 3) with -1
    below 60%, -2 below 40%, -4 below 20%; it never gets an attacker morale strip."""
    layout = printed(SMR / "ships-company.yaml", library).layout
    (force,) = cards_titled(layout, "Force morale and tables")
    assert "Ship morale" in force.text and "starting strength 41" in force.text
    for part in ("below 60% (24 or less): -1", "below 40% (16 or less): -2",
                 "below 20% (8 or less): -4"):  # fmt: skip
        assert squash(part) in squash(force.text)
    everything = " ".join(c.text for c in layout.cards)
    assert "Attacker morale" not in everything and "attacker morale" not in everything


def test_reference_tables_from_the_rules(regiment: tuple[str, Layout]) -> None:
    """3.5 fire table (score to hit on 1d10 by range and target), its factors, 3.6 grenade
    tables, 3.7 combat robot damage."""
    _, layout = regiment
    (force,) = cards_titled(layout, "Force morale and tables")
    text = squash(force.text)
    for row in ("SCA I 4 6 7 9 8 11", "SCA II 4 6 6 8 7 10", "SCA III 4 6 5 7 6 9",
                "APGW launcher 8 9 5 7 5 7"):  # fmt: skip
        assert squash(row) in text
    assert squash("target moving non-tactically: +1") in text
    assert (
        squash("up to 15 cm automatic 4+") in text and squash("up to 40 cm 3+ not allowed") in text
    )
    assert squash("over 40 cm 5+ not allowed") in text
    assert squash("Unarmoured 6+ 4+") in text and squash("Armoured no effect 9+") in text
    assert squash("1–2 weapon control destroyed: no firing") in text
    assert squash("3–5 immobilised") in text and squash("6 lucky shot: destroyed outright") in text


def test_combat_robots_have_damage_boxes(regiment: tuple[str, Layout]) -> None:
    """3.7: a combat robot takes two hits; after the first it may lose its fire control or
    be immobilised: two hit boxes and a box for each of those effects."""
    html, _ = regiment
    squad = html.split("1st Marine Squad", 1)[1].split('class="sm-figures"', 1)[1]
    rows = squad.split("</table>", 1)[0].split("<tr")[2:]
    robot = next(r for r in rows if "Combat Robot" in r)
    assert count_boxes(robot)[0] == 4
    assert "no fire" in robot and "immob." in robot
    marine = next(r for r in rows if re.search(r"<td>\d+ Marine</td>", r))
    assert count_boxes(marine)[0] == 1


def test_pallet_stock_has_boxes(regiment: tuple[str, Layout]) -> None:
    """3.18: pallets hold 24 grenades, 12 door charges, 10 APGW missiles or 1 SuperCharge;
    the Logistics Group's 6 + 4 + 6 + 2 pallets each get a box per item."""
    html, layout = regiment
    (card,) = cards_titled(layout, "Logistics Group")
    for item, n, per in (("Grenades", 6, 24), ("Door charges", 4, 12), ("APGW missiles", 6, 10),
                         ("SuperCharges", 2, 1)):  # fmt: skip
        for i in range(1, n + 1):
            label = f"{item} pallet {i} ({per})"
            assert label in card.text
            row = html.split(label, 1)[1].split("</tr>", 1)[0]
            assert count_boxes(row)[0] == per
        assert f"{item} pallet {n + 1} " not in card.text


def test_logistics_group_heads_its_own_page(regiment: tuple[str, Layout]) -> None:
    """The Logistics Group sits beside the marine groups (5.1), not in the 3rd: its page's
    running header names it and it starts a page of its own."""
    html, layout = regiment
    (card,) = cards_titled(layout, "Logistics Group")
    assert layout.headers[card.page] == "Logistics Group"
    assert 'class="bm2 page-title" data-bookmark="Logistics Group"' in html
    assert all(c.page < card.page for c in layout.cards if c.title == "3rd Marine Squad")


CREW = """\
format: 1
system: starship-marine
faction: ships-company
name: Damage control
selections:
  - entry: ships-company
    name: ISS Resolute
    selections:
      - entry: crew-party
        name: Damage control
        selections:
          - {entry: crewman, name: Stoker Dale, selections: [{entry: substandard-armour}]}
          - {entry: crewman, name: Rating Ames, selections: [{entry: survival-suit}]}
          - {entry: ships-officer, name: Lt Cole, selections: [{entry: marine-armour}]}
          - {entry: clanker, name: Clanker}
          - {entry: armoured-robot, name: Robot}
"""


def test_target_column_is_each_figures_target_type(library: Library, tmp_path: Path) -> None:
    """3.5: the fire table is read in the column of the target's type; a man's follows his
    suit (substandard and marine armour: Armoured; spacesuit and survival suit: Unarmoured),
    a robot's is its own. The Target column prints the figure's ``target`` value as the rules
    module works it out."""
    path = tmp_path / "crew.yaml"
    path.write_text(CREW, encoding="utf-8")
    html = sheet_html(path, library)
    rows = html.split('class="sm-figures"', 1)[1].split("</table>", 1)[0].split("<tr")[2:]
    # the cells: number and name, equipment, target, hits, experience
    found = [re.findall(r"<td>([^<]*)</td>", r) for r in rows]
    cells = {re.sub(r"^\d+ ", "", c[0]): c[1:] for c in found}
    assert {k: v[1] for k, v in cells.items()} == {
        "Stoker Dale": "Armoured",
        "Rating Ames": "Unarmoured",
        "Lt Cole": "Armoured",
        "Clanker": "Unarmoured",
        "Robot": "Armoured",
    }


def test_without_campaign_rules_every_figure_is_experienced(
    library: Library, tmp_path: Path
) -> None:
    """Part 4 is optional: a roster that does not select ``campaign-rules`` plays every man
    as Experienced (docs/systems/starship-marine.md, Readings), so the sheet prints that class
    and no sticker or record of past actions, whatever the state holds."""
    path = tmp_path / "veterans.yaml"
    path.write_text(
        VETERANS.replace("  - entry: campaign-rules", "  # no campaign rules"), encoding="utf-8"
    )
    layout = printed(path, library).layout
    assert layout_faults(layout) == []
    (card,) = cards_titled(layout, "1st Squad")
    assert "Sticker" not in card.text and "Record" not in card.text
    hale = card.text.split("Lt Hale", 1)[1].split("Sgt Kowalski", 1)[0]
    assert "Experienced" in hale and "Veteran" not in hale and "fought" not in hale


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_logistics_group_fits_one_page(library: Library, paper: str) -> None:
    """The Logistics Group's card (31 figures, 18 pallets: 3.18) ran over a page: its last
    pallets and its odds line sat at the top of the next page, above the campaign rules. The
    pallets now stand in two columns across the card, and the card fits its page."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(printed(SMR / "earther-regiment.yaml", library, paper).result.pdf)
    pages = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    (card,) = [p for p in pages if "31 TRUC" in p]
    for text in ("1 Naval Lieutenant", "Grenades pallet 1 (24)", "SuperCharges pallet 2 (1)"):
        assert text in card, card
    assert "Odds (force sheet)" in " ".join(card.split())
    assert sum(re.search(r"pallet \d \(", p) is not None for p in pages) == 1
