"""Infantry Operations record sheets as they come off the printer: a page per platoon with
its damage track, weapons and attack values (Infantry Operations, after MegaMekLab)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from render_helpers import EXAMPLES, count_boxes
from sheet_layout import layout_faults, pdf_text_pages, printed, sheet_html, variant

from armybuilder.catalog import Library

IO = EXAMPLES / "infantry-ops"


def platoon_pages(pages: list[str]) -> list[str]:
    """The record sheet pages of the platoons: from the first with "Record sheets" up to
    the force's odds card, which must follow them as the PDF's last page, one page only."""
    start = next(i for i, t in enumerate(pages) if "Record sheets" in t)
    odds = [i for i, t in enumerate(pages) if "Odds (exact)" in t and "Cluster roll" in t]
    assert odds == [len(pages) - 1], "one odds card, on the last page"
    return pages[start : odds[0]]


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
        track = sheet.split('io-track">', 1)[1].split("</table>", 1)[0]
        assert count_boxes(track)[0] == 28


@pytest.fixture(scope="module")
def lmg_sheet(library: Library) -> str:
    """The sheet page of the rules' example rifle + light machine gun platoon (4 squads of 5
    riflemen with auto-rifle and thrown grenades, 2 LMG gunners), as the PDF prints it."""
    return platoon_pages(pdf_text_pages(IO / "rifle-lmg-platoon.yaml", library))[-1]


def test_attack_value_for_each_number_of_troopers_left(lmg_sheet: str) -> None:
    """Infantry Attacks: an AV is the sum of the DV of the troopers attacking, rounded up;
    Weapon Damage: troopers fall left to right, support weapon troopers last. With n left,
    the 8 LMG gunners (DV 1) go last; the riflemen (auto-rifle 0.5, grenade 0.5) first."""
    row = lmg_sheet.split("Attack value by troopers left", 1)[1]
    left = [int(x) for x in row.split("Left", 1)[1].split("Primary", 1)[0].split()]
    assert left == list(range(28, 0, -1))
    printed = {
        name: [int(x) for x in row.split(name, 1)[1].split()[:28]]
        for name in ("Primary", "Secondary", "Support")
    }
    riflemen = [max(n - 8, 0) for n in left]
    assert printed["Primary"] == [math.ceil(0.5 * r) for r in riflemen]
    assert printed["Secondary"] == [math.ceil(0.5 * r) for r in riflemen]
    assert printed["Support"] == [min(n, 8) * 1 for n in left]


def test_fifty_percent_mark(lmg_sheet: str) -> None:
    """Morale: a test at -2 once the unit has suffered 50% losses: the 14th of 28 to fall."""
    track = lmg_sheet.split("Damage track", 1)[1].split("Number: order of loss", 1)[0]
    assert "14 S3 50%" in track and track.count("50%") == 1


def test_cluster_columns_for_burst_totals(lmg_sheet: str) -> None:
    """Burst fire: with two or more burst weapons the platoon adds the whole burst roll
    (the LMG's 1D6) to its support AV 8 against infantry in the open: AV 9 to 14. Weaponry:
    every trooper keeps his knife (DV 0.25), so the 28 make a Melee AV of 7 with its own
    column."""
    cluster = lmg_sheet.split("Cluster hits", 1)[1].split("Roll 2D6 when", 1)[0]
    head = (
        "2D6 Primary AV 10 Secondary AV 10 Support AV 8 Melee AV 7"
        " AV 9 AV 10 AV 11 AV 12 AV 13 AV 14"
    )
    assert head in cluster
    rows = [
        r.split() for r in re.findall(r"(?:^| )((?:\d+ ){10}\d+)(?= |$)", cluster.split(head)[1])
    ]
    rows = [[int(x) for x in r] for r in rows]
    assert [r[0] for r in rows] == list(range(2, 13))
    for r in rows:  # the burst column for AV 10 reads as the primary AV 10 column
        assert r[6] == r[1] and r[5] <= r[6] <= r[7]
    # the cluster hits table's AV 7 column (Total Warfare), rolls 2 to 12
    assert [r[4] for r in rows] == [2, 2, 3, 4, 4, 4, 4, 6, 6, 7, 7]


def test_damage_margin_and_morale_rules(lmg_sheet: str) -> None:
    """Margin of Success/Failure: +2 / -2 on the cluster roll per point, 1 or less misses;
    Weapon Damage: in the open ×2, dug in half (rounded down), HE a second trooper; Morale:
    base TN 4 for Regulars and the modifiers of the table."""
    text = lmg_sheet
    assert "Margin of success: +2 on this roll per point; margin of failure: -2 per point" in text
    assert "1 or less: all miss" in text
    assert "In the open: damage ×2" in text and "Dug in: ×0.5 (rounded down)" in text
    assert "HE in the open or in light cover: each point hits a second trooper" in text
    morale = text.split("Morale test (base TN 4, Regular)", 1)[1]
    for line in ("Unit has suffered 50% losses -2", "Unit's commander incapacitated -4",
                 "Attacked by fire weaponry -4", "Attacked by a BattleMech -2",
                 "Friendly BattleMech or vehicle within 3 hexes +2", "Unit is rallied +2",
                 "Unit is pinned -2", "Unit has broken morale -4"):  # fmt: skip
        assert line in morale


def test_grenades_as_volleys_and_load_times(library: Library, lmg_sheet: str) -> None:
    """Thrown Grenade: ammo 4 a trooper; the platoon's grenade attack is one throw from
    every carrier, so 4 volleys to tick. Weapon table: set-up and load times (SRM1 loads in
    1 turn; the man-portable LMG sets up in 1, fixed mount)."""
    ammo = lmg_sheet.split("Ammunition", 1)[1].split("Damage to this platoon", 1)[0]
    assert "Thrown Grenade ×20 4 each: 4 volleys" in ammo
    html = sheet_html(IO / "rifle-lmg-platoon.yaml", library)
    # (the ammunition row: the attack table names the grenades the same way, "×20")
    grenades = html.split("Thrown Grenade ×20<br>", 1)[1].split("</tr>", 1)[0]
    assert count_boxes(grenades)[0] == 4
    assert "Man-portable Light MG ×8 1 DB +1D6 0 (+0) 2 (+0) 4 (+2) 6 (+4) 8 (+6) — 1* / 0" in (
        lmg_sheet
    )
    srm = platoon_pages(pdf_text_pages(IO / "rifle-srm-platoon.yaml", library))[-1]
    assert "SRM1 ×8 2 CM — 3 (+0) 6 (+2) 9 (+4) 12 (+6) — 0 / 1" in srm


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["rifle-platoon", "rifle-lmg-platoon", "rifle-srm-platoon"])
def test_a_platoon_fits_one_page(library: Library, name: str, paper: str) -> None:
    """Everything above on one page per platoon, A4 and Letter; the force's odds card on
    a page of its own after it."""
    pages = pdf_text_pages(IO / f"{name}.yaml", library, paper)
    sheets = platoon_pages(pages)
    assert len(sheets) == 1
    assert "Squads" in sheets[0] and sheets[0].rstrip().endswith(
        f"page {len(pages) - 1} of {len(pages)}"
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["rifle-platoon", "rifle-lmg-platoon", "rifle-srm-platoon"])
def test_nothing_runs_off_the_page(library: Library, name: str, paper: str) -> None:
    layout = printed(IO / f"{name}.yaml", library, paper).layout
    assert layout_faults(layout) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_flechette_attack_values_against_each_target(
    library: Library, tmp_path: Path, paper: str
) -> None:
    """Weapons and Equipment, Types: FL (+0.25 DV against unarmoured targets, -0.25 against
    armoured ones; docs/systems/infantry-ops.md, Readings): 28 troopers with an assault
    shotgun (0.5 DB/FL) have primary AV 14, 21 against unarmoured and 7 against armoured
    targets; with a knife (0.25) and a needler (0.25 FL) the best weapon counts, so melee
    AV 7, 14 unarmoured and 7 armoured (the knife). The sheet prints both beside the AV and
    a cluster column for an AV no other column has (21), still on one page."""
    path = variant(
        IO / "rifle-platoon.yaml",
        tmp_path,
        ("- entry: auto-rifle", "- entry: assault-shotgun"),
        ("- entry: autopistol", "- entry: needler"),
    )
    pages = pdf_text_pages(path, library, paper)
    sheets = platoon_pages(pages)
    assert len(sheets) == 1
    sheet = sheets[0]
    assert "Primary 14 unarm. 21 arm. 7 0 Assault Shotgun ×28 0.5 DB/FL" in sheet
    assert "Secondary 14 0 Thrown Grenade ×28" in sheet  # no fléchette weapon: one AV
    assert "Melee 7 unarm. 14 arm. 7 0 Knife/Bayonet ×28" in sheet
    cluster = sheet.split("Cluster hits", 1)[1].split("Roll 2D6 when", 1)[0]
    head = "2D6 Primary AV 14 Secondary AV 14 Melee AV 7 Primary unarm. AV 21"
    assert head in cluster
    rows = [
        [int(x) for x in r.split()]
        for r in re.findall(r"(?:^| )((?:\d+ ){4}\d+)(?= |$)", cluster.split(head)[1])
    ]
    assert [r[0] for r in rows] == list(range(2, 13))
    # the cluster hits table's AV 21 column (Total Warfare), rolls 2 to 12
    assert [r[4] for r in rows] == [7, 7, 9, 13, 13, 13, 13, 17, 17, 21, 21]
    assert layout_faults(printed(path, library, paper).layout) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_mortar_reloads_all_ticked_on_one_page(
    library: Library, tmp_path: Path, paper: str
) -> None:
    """Weapons and Equipment (Ammo): the light mortar's "1 (8)" is one round loaded and a
    reload of 8 rounds a bearer carries (docs/systems/infantry-ops.md, Readings). The Rifle +
    SRM1 platoon re-armed with light mortars: 8 mortars with a round each and 16 bearers,
    128 reload boxes, all on the platoon's one page."""
    path = variant(
        IO / "rifle-srm-platoon.yaml",
        tmp_path,
        ("- entry: srm1-ammo", "- entry: light-mortar-ammo"),
        ("- entry: srm1\n", "- entry: light-mortar\n"),
    )
    doc = printed(path, library, paper)
    html = doc.result.html
    ammo = html.split('class="io-ammo"', 1)[1].split("</table>", 1)[0]
    mortar = ammo.split("Light Mortar ×8", 1)[1].split("</tr>", 1)[0]
    loaded, reloads = mortar.split("reloads:", 1)
    assert count_boxes(loaded)[0] == 8
    assert count_boxes(reloads)[0] == 128
    assert layout_faults(doc.layout) == []
    pages = pdf_text_pages(path, library, paper)
    assert len(platoon_pages(pages)) == 1
