"""StarMarines record sheets as they come off the printer: team cards with a row per soldier
and vehicle cards with the damage table (StarMarines IX-B; X, Vehicle Damage Table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import EXAMPLES, count_boxes
from sheet_layout import cards_titled, layout_faults, printed, sheet_html, variant

from armybuilder.catalog import Library

SM = EXAMPLES / "starmarines"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["norx-example", "starmarines-example"])
def test_cards_keep_their_text_inside(library: Library, name: str, paper: str) -> None:
    """No title under its subtitle, no damage table past the card's edge, nothing off the
    page (the vehicle cards were garbled on page 4 of both examples)."""
    layout = printed(SM / f"{name}.yaml", library, paper).layout
    vehicles = [c for c in layout.cards if "smr-vehicle" in c.classes]
    assert vehicles, "no vehicle card laid out"
    assert layout_faults(layout) == []


def _card(library: Library, path: Path, title: str) -> str:
    layout = printed(path, library).layout
    found = [c.text for c in layout.cards if c.text.startswith(title)]
    assert found, f"no card titled {title!r}"
    return found[0]


def test_vehicle_damage_table_in_full(library: Library) -> None:
    """X, Vehicle Damage Table: 1 stunned; 2 stunned and a weapon lost; 3 disarmed;
    4 crippled; 5-6 destroyed; level-1 repair for stunned, level 2 for disarmed/crippled."""
    text = _card(library, SM / "norx-example.yaml", "Halftrack")
    table = text.split("d6 Damage Effect Repair", 1)[1]
    assert table.index("1 Stunned") < table.index("2 Stunned") < table.index("3 Disarmed")
    two = table.split("2 Stunned", 1)[1].split("3 Disarmed", 1)[0]
    assert "loses one weapon" in two and "level 1" in two
    assert "4 Crippled" in table and "5–6 Destroyed" in table
    assert table.split("3 Disarmed", 1)[1].split("4 Crippled")[0].strip().endswith("level 2")


def test_supertank_table_lowers_the_damage_level(library: Library) -> None:
    """IV-g, IX-A: a supertank subtracts 1 from the damage *level* (never below 1) — the
    builder's reading (docs/systems/starmarines.md, Readings): rolls 3–4 (Disarmed, Crippled,
    level 2) become Stunned with a level-1 repair; rolls 5–6 (Destroyed, level 3) become
    "Disarmed or Crippled" with a level-2 repair; rolls 1 and 2 stay as the table gives them
    (2 still loses a weapon). One hit never destroys it; the track still has a Destroyed box
    for Disarmed and Crippled together (IX-B)."""
    text = _card(library, SM / "starmarines-example.yaml", "Mauler")
    table, track = (
        text.split("d6 Damage Effect Repair", 1)[1].split("Overrun:")[0].split(" level 2 ")
    )
    one, rest = table.split(" 2 Stunned ", 1)
    two, rest = rest.split(" 3–4 Stunned ", 1)
    three_four, five_six = rest.split(" 5–6 Disarmed or Crippled ", 1)
    assert one.strip() == "1 Stunned cannot move or shoot level 1"
    assert "loses one weapon" in two and two.endswith("level 1")
    assert three_four.strip() == "cannot move or shoot level 1"
    assert "can move, cannot shoot" in five_six and "can shoot, cannot move" in five_six
    assert "Destroyed" not in table and "6 " not in table.replace("5–6", "")
    note, track = track.split("(IX-B).", 1)
    assert note.startswith("Supertank (IX-A): the table above already lowers each damage level")
    # each level has its tick box, printed as a box character after its name
    assert track.split() == ["Stunned", "☐", "Disarmed", "☐", "Crippled", "☐", "Destroyed", "☐"]


def test_supertank_house_rule_reads_the_table_one_row_lower(
    library: Library, tmp_path: Path
) -> None:
    """IX-A, house rule ``supertank-roll-house-rule`` (docs/systems/starmarines.md,
    Readings): the damage *roll* is reduced by 1, never below 1 — 1–2 Stunned, 3 Stunned
    losing a weapon, 4 Disarmed, 5 Crippled, 6 Destroyed."""
    path = variant(
        SM / "starmarines-example.yaml",
        tmp_path,
        ("selections:\n", "selections:\n  - entry: supertank-roll-house-rule\n"),
    )
    text = _card(library, path, "Mauler")
    table = text.split("d6 Damage Effect Repair", 1)[1]
    assert "1–2 Stunned" in table and "3 Stunned" in table
    assert "loses one weapon" in table.split("3 Stunned", 1)[1].split("4 Disarmed", 1)[0]
    assert "4 Disarmed" in table and "5 Crippled" in table and "6 Destroyed" in table
    assert "Supertank, house rule (IX-A): the table above already reads each roll one lower" in (
        table
    )


def test_every_soldier_and_vehicle_bought_twice_is_printed(library: Library) -> None:
    """Choppers ×2 is two mobs of 7 (6 warriors and a gunner): 14 soldier rows, each
    numbered team on its own card; Battle trike ×2 is two vehicles, each with its own card
    and damage track (StarMarines IV-a: every soldier and vehicle is a counter)."""
    layout = printed(SM / "norx-example.yaml", library).layout
    for n in (1, 2):
        (mob,) = cards_titled(layout, f"Choppers {n} of 2")
        assert [f"Norx warrior {i}" in mob.text for i in range(1, 7)] == [True] * 6
        assert "Norx warrior 7" not in mob.text
        assert mob.text.count("Gunner") - mob.text.count("Gunner:") == 1  # one row
        (trike,) = cards_titled(layout, f"Battle trike {n} of 2")
        assert "d6 Damage Effect Repair" in trike.text
        assert "Stunned ☐ Disarmed ☐ Crippled ☐ Destroyed ☐" in trike.text.replace("  ", " ")
    assert not cards_titled(layout, "Choppers ×2") and not cards_titled(layout, "Battle trike ×2")


def test_losses_fall_on_the_first_copies(library: Library, tmp_path: Path) -> None:
    """Campaign state ``lost`` on a counted selection crosses out the first ones fielded."""
    path = variant(
        SM / "norx-example.yaml",
        tmp_path,
        (
            "          - entry: ex-warrior\n            count: 6\n",
            "          - entry: ex-warrior\n            count: 6\n            state: {lost: 7}\n",
        ),
        (
            "          - entry: ex-trike\n            count: 2\n",
            "          - entry: ex-trike\n            count: 2\n            state: {lost: 1}\n",
        ),
    )
    html = sheet_html(path, library)
    first, second = html.split("Choppers 1 of 2", 1)[1].split("Choppers 2 of 2", 1)
    assert first.count('class="smr-dead"') == 6  # all six warriors of the first mob
    assert second.split("</table>", 1)[0].count('class="smr-dead"') == 1
    trike1, trike2 = html.split("Battle trike 1 of 2", 1)[1].split("Battle trike 2 of 2", 1)
    assert count_boxes(trike1.split("</div>", 1)[0])[1] > 0
    assert count_boxes(trike2.split("smr-track", 1)[1].split("</p>", 1)[0])[1] == 0


def test_attack_modifiers_with_aim_experience_and_weapon(library: Library) -> None:
    """X, Soldier Experience Table: Elite gives +1 on attack rolls; the unit's own aim and
    the weapon's aim apply too (IX-A). Gorrak (Norx chief, aim -1, Elite) with a Norx pistol
    (aim -1): +0 for himself, -1 with the pistol; a Norx warrior (aim -1, Average) with his
    battle-axe (no aim): -1."""
    layout = printed(SM / "norx-example.yaml", library).layout
    (warband,) = cards_titled(layout, "Gorrak's warband")
    gorrak = warband.text.split("Gorrak (leader)", 1)[1].split("Norx champion", 1)[0]
    assert gorrak.split()[3] == "+0"  # move, armor, toughness, attack
    assert "Attack: Norx pistol -1" in gorrak
    (mob,) = cards_titled(layout, "Choppers 1 of 2")
    warrior = mob.text.split("Norx warrior 1", 1)[1].split("Norx warrior 2", 1)[0]
    assert warrior.split()[3] == "-1" and "Attack: Battle-axe -1" in warrior
    (walker,) = cards_titled(layout, "Combat walker")
    # large walker, aim -1, Average (no attack bonus); heavy cannon aim -1, big gun none
    assert "Heavy cannon -2" in walker.text and "Big gun -1" in walker.text


def test_broken_box_for_soldiers_who_check_morale(library: Library) -> None:
    """VIII-H / IX-D: a soldier failing a morale check is Broken (a marker on the map);
    Heroes and vehicles never check, so they get no box."""
    doc = printed(SM / "norx-example.yaml", library)
    html = doc.result.html
    warband = html.split('class="smr-soldiers"', 1)[1].split("<tbody>", 1)[1]  # the first card
    rows = warband.split("</tbody>", 1)[0].split("<tr")[1:]
    broken = [('<span class="small">B</span>' in r) for r in rows]
    assert broken == [True, False, True]  # Gorrak, the champion (Hero), the mechanic
    mob = html.split("Choppers 1 of 2", 2)[2].split("</tbody>", 1)[0]
    assert mob.count('<span class="small">B</span>') == 7
    layout = doc.layout
    assert "B" not in cards_titled(layout, "Halftrack")[0].text.split()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_row_of_vehicle_cards_fills_the_page_it_fits_on(library: Library, paper: str) -> None:
    """The Norx warband's two rows of vehicle cards (side by side, each row a line to the
    layout) were kept together by the default orphans / widows of 2 and moved whole to the
    next page, leaving the page of the second Choppers card half empty: the row of Battle
    trikes prints under that card where it fits."""
    from sheet_layout import pdf_text_pages

    pages = pdf_text_pages(SM / "norx-example.yaml", library, paper)
    choppers = next(i for i, t in enumerate(pages) if "Choppers 2 of 2" in t)
    trike = next(i for i, t in enumerate(pages) if "Battle trike 1 of 2" in t)
    assert trike == choppers, [p[:80] for p in pages]


def test_a_copy_card_prints_the_cost_of_its_copy(library: Library) -> None:
    """A card of one of the copies of a counted selection prints what that copy costs, so
    that the cards add up to the roster's figure: Choppers ×2 (18 BP) prints "Choppers 1 of
    2 · Build points 9 BP" and "2 of 2 · 9 BP", not 18 BP on each (36 BP on paper for an
    18 BP mob pair); each Battle trike of the pair (8 BP) 4 BP. The figures are the
    evaluation's, divided by the count; read from the printed cards."""
    import re

    from armybuilder.render import load

    ev = load(SM / "norx-example.yaml", library)[2]
    layout = printed(SM / "norx-example.yaml", library).layout
    nodes = {
        (n.data.name if n.data is not None and n.data.name else n.entry.name): n
        for n in ev.root.walk()
        if n.entry is not None
    }
    for name in ("Choppers", "Battle trike"):
        node = nodes[name]
        assert node.count == 2
        total = ev.total_cost(node)["bp"]
        for n in (1, 2):
            (card,) = cards_titled(layout, f"{name} {n} of 2")
            got = re.findall(r"Build points ([\d.]+) BP", card.text)
            assert got and float(got[0]) == total / 2, (name, n, got, total, card.text[:200])
