"""The odds printed on the record sheets (templates/<system>/odds.html), one example per
system: the numbers are worked out here from the rules' own tables (exact fractions) and
found in the PDF's text, and the odds tables are found on the page as ink.

Rules texts: ../shared/seeds/ (Infantry Operations 004, Starship Marine 001, StarMarines
003); Space Hulk and Starship Troopers from their catalogs' sources.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest
from raster_helpers import DPI, ink
from render_helpers import EXAMPLES, IO_COMPANY, Rendered

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference"

TWO_D6 = {r: F(6 - abs(r - 7), 36) for r in range(2, 13)}
#: Total Warfare cluster hits table, AV 8 column (rolls 2-12), as Infantry Operations uses it.
CLUSTER_8 = (2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8)


def flat(text: str) -> str:
    return " ".join(text.split())


def locate(pdf: bytes, needle: str) -> tuple[int, tuple[float, float, float, float]]:
    """The page (0-based) and box (left, top, right, bottom, in points from the top-left)
    of the first occurrence of ``needle`` in the PDF."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        for i, page in enumerate(doc):
            tp = page.get_textpage()
            found = tp.search(needle).get_next()
            if found:
                start, count = found
                boxes = [tp.get_charbox(start + k) for k in range(count)]
                height = page.get_height()
                left = min(b[0] for b in boxes)
                right = max(b[2] for b in boxes)
                top = height - max(b[3] for b in boxes)
                bottom = height - min(b[1] for b in boxes)
                return i, (left, top, right, bottom)
    finally:
        doc.close()
    raise AssertionError(f"{needle!r} is not in the PDF")


def ink_below(doc: Rendered, needle: str, depth_mm: float = 12) -> float:
    """The share of ink in a band of the page from ``needle`` down ``depth_mm`` (the odds
    table under its heading), across the content width."""
    page, (_, top, _, _) = locate(doc.result.pdf, needle)
    image = doc.images()[page]
    px = DPI / 72
    w, _ = image.size
    box = (
        round(12 * 72 / 25.4 * px),
        round(top * px),
        round(w - 12 * 72 / 25.4 * px),
        round((top + depth_mm * 72 / 25.4) * px),
    )
    area = (box[2] - box[0]) * (box[3] - box[1])
    return ink(image, box) / area


@pytest.fixture(scope="module")
def sheet(render: Callable[..., Rendered]) -> Callable[[str], tuple[Rendered, str]]:
    def run(example: str) -> tuple[Rendered, str]:
        doc = render(EXAMPLES / example)
        return doc, flat(doc.text())

    return run


def cluster_column(av: int) -> tuple[int, ...]:
    """The cluster hits table's column for ``av`` (rolls 2-12), read from the reference copy
    in ../shared/reference/cluster-hits.md (the test skips without it)."""
    path = REFERENCE / "cluster-hits.md"
    if not path.is_file():
        pytest.skip(f"{path} is not there (shared reference data, not in the project)")
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == str(av):
            return tuple(int(c) for c in cells[1:])
    raise AssertionError(f"no AV {av} column in {path}")


def if_hit(column: tuple[int, ...], tn: int, margin: bool) -> str:
    """Troopers hit when the attack hits (Weapon Damage: one trooper a damage point, light
    cover as rolled), to two decimals, worked out from scratch: without margin of success the
    attack hits on 2D6 >= TN and the cluster roll is read as rolled; with it (Margin of
    Success/Failure) the cluster roll moves 2 per point the attack roll beats or misses the
    TN, a roll of 1 or less misses, one above 12 reads 12."""
    total, hit = F(0), F(0)
    for attack, pa in TWO_D6.items():
        if not margin and attack < tn:
            continue
        for roll, pr in TWO_D6.items():
            moved = roll + (2 * (attack - tn) if margin else 0)
            points = 0 if moved <= 1 else column[min(moved, 12) - 2]
            if points:
                total += points * pa * pr
                hit += pa * pr
    return f"{float(total / hit):.2f}"


def test_infantry_ops_odds_card(sheet: Any) -> None:
    """The Infantry Operations odds card: one page after the platoon sheets, each distinct
    attack once, naming the platoons that make it."""
    doc, text = sheet("infantry-ops/rifle-srm-platoon.yaml")
    card = text.split("Odds (exact)", 1)[1]
    # Infantry Attacks (Attack Roll, Target Number): a Regular platoon (gunnery 4) needs 4
    # at short range, +2 per bracket beyond: P(2D6 >= 4) = 33/36, >= 6 26/36, >= 8 15/36,
    # >= 10 6/36.
    tns = (4, 6, 8, 10)
    hits = [sum((p for r, p in TWO_D6.items() if r >= tn), F(0)) for tn in tns]
    assert hits == [F(11, 12), F(13, 18), F(5, 12), F(1, 6)]
    assert "Gunnery 4:" in card and "Short TN 4 Medium TN 6 Long TN 8 Extreme TN 10" in card
    # Weapon Damage with the cluster hits table: primary AV 8 (16 riflemen's auto-rifles at
    # DV 0.5), support AV 16 (8 SRM1 at DV 2), melee AV 6 (24 knives at 0.25).
    col8 = cluster_column(8)
    assert col8 == CLUSTER_8
    mean = sum(h * TWO_D6[r] for r, h in zip(range(2, 13), col8, strict=True))
    assert mean == F(177, 36) and if_hit(col8, 4, False) == "4.92"
    rows = ((8, "Primary", "Auto-Rifle 1/2/3/4"), (16, "Support", "SRM1 3/6/9/12"))
    for av, name, weapons in rows:
        col = cluster_column(av)
        cells = " ".join(
            f"{p} · {if_hit(col, tn, False)} / {if_hit(col, tn, True)}"
            for p, tn in zip(hits, tns, strict=True)
        )
        # in the open at short range the damage points are doubled (In the Open)
        mean_av = sum(h * TWO_D6[r] for r, h in zip(range(2, 13), col, strict=True))
        row = f"{name} AV {av} Foot Platoon (Rifle + SRM1) · {weapons} {cells}"
        row += f" {float(2 * mean_av):.2f}"
        assert row in card, row
    assert card.count("Foot Platoon (Rifle + SRM1)") == 3  # primary, support, melee rows
    col6 = cluster_column(6)
    assert (
        f"Melee AV 6 Foot Platoon (Rifle + SRM1) · Knife/Bayonet, AutoPistol range 0, TN 4: "
        f"11/12 · {if_hit(col6, 4, False)} / {if_hit(col6, 4, True)}"
    ) in card
    # each cluster roll's chance on 2D6, as printed
    assert "Chance (2D6) " + " ".join(str(p) for p in TWO_D6.values()) in card
    last = len(doc.images()) - 1  # the card is the last page
    assert locate(doc.result.pdf, "Chance (2D6)")[0] == last
    assert locate(doc.result.pdf, "Gunnery 4: to hit")[0] == last
    assert ink_below(doc, "Gunnery 4: to hit", 25) > 0.03


def test_starship_marine_squad_odds_apply_class_factors(sheet: Any) -> None:
    doc, text = sheet("starship-marine/martian-boarding-group.yaml")
    # Table 3.5, SCA II: 4/6 up to 15 cm, 6/8 up to 40 cm, 7/10 over 40 (unarmoured/armoured);
    # a d10 reads 0-9. A Novice (4.7) fires at -1: a hit needs a roll of 5, 7, 7, 9, 8, 11.
    novice = [F(max(10 - (n + 1), 0), 10) for n in (4, 6, 6, 8, 7, 10)]
    assert novice == [F(1, 2), F(3, 10), F(3, 10), F(1, 10), F(1, 5), 0]
    pairs = " ".join(f"{novice[i]} · {novice[i + 1]}" for i in (0, 2, 4))
    # the force's odds table has a row per weapon and set of factors; the squad names the
    # rows its figures use, and how many figures use each
    table = text.split("Odds (exact)", 1)[1]
    assert f"SCA II · Novice -1 {pairs}" in table
    assert table.count("SCA II · Novice -1") == 1
    assert "SCA II · Novice ×5;" in text
    # a Veteran (4.7, +1 on all die rolls) in hand to hand (3.15): marine +3 +1 against a
    # crewman +0: he wins when his d10 + 4 beats the other's d10: 79 of 100
    wins = sum(1 for a in range(10) for b in range(10) if a + 4 > b)
    assert wins == 79
    assert "Hand to hand +4 wins: vs marine 11/20, crewman 79/100" in table
    assert "hand to hand +4 ×1" in text
    # grenades (3.6) by a Novice up to 40 cm in sight: a Good Throw on 4-6 (3+ at -1), then
    # 4+ (unarmoured) or 6+ after a normal throw: 1/2 × 6/10 + 1/2 × 4/10 = 1/2
    assert "Grenade · Novice -1 3/5 · 1/10 1/2 · 1/20" in table
    assert "Grenade · Novice ×6;" in text
    assert "Veteran SCA fire +1" in table.split("Factors:", 1)[1]
    assert ink_below(doc, "Odds (exact)") > 0.03


def test_starship_marine_without_campaign_rules_is_at_the_baseline(sheet: Any) -> None:
    _, text = sheet("starship-marine/sirian-platoon.yaml")
    # Part 4 not played (4: optional): everyone is Experienced, the baseline (4.7), and the
    # odds are table 3.5's own: SCA II needs 4, 6, 6, 8, 7, 10 on a d10 read 0-9.
    p = [F(max(10 - n, 0), 10) for n in (4, 6, 6, 8, 7, 10)]
    base = " ".join(f"{p[i]} · {p[i + 1]}" for i in (0, 2, 4))
    assert base == "3/5 · 2/5 2/5 · 1/5 3/10 · 0"
    odds = text.split("Odds (exact)", 1)[1]
    assert f"SCA II {base}" in odds
    assert "Novice" not in odds[:600] and "Veteran" not in odds[:600]
    assert "SCA II ×" in text.split("Odds (force sheet):", 1)[1]
    assert "Everyone at the baseline, Experienced (4.7)." in text


def test_starmarines_odds_card(sheet: Any) -> None:
    doc, text = sheet("starmarines/starmarines-example.yaml")
    # Soldier Wounding Table (X): Dran dead on 4-6 (1/2), Ghouls on 6 (1/6), Pelgari on 3-6
    assert "dead 1/2 1/6 1/3 2/3 1/3 1/2 2/3 1/3 1/2" in text
    # Vehicle Damage Table: the hover scout's 1d6 gives Stunned 2, Disarmed 1, Crippled 1,
    # Destroyed 2; Disarmed and Crippled together destroy (IX-B). Within two hits:
    # 1/3 + 1/3 × 1/3 + 2 × 1/6 × (1/3 + 1/6) = 11/18.
    two = F(1, 3) + F(1, 3) * F(1, 3) + 2 * F(1, 6) * (F(1, 3) + F(1, 6))
    assert two == F(11, 18)
    assert f"1/3 / {two} / 85/108" in text
    assert ink_below(doc, "Soldier wounding") > 0.03


def test_space_hulk_exact_kill_chances(sheet: Any) -> None:
    doc, text = sheet("space-hulk/standard-squad.yaml")
    # Storm bolter: 2D6, kills on 6+ with either die: 1 - (5/6)^2 = 11/36; sustained fire
    # on the same target adds +1 to the kill roll each shot: 5+ 1-(4/6)^2 = 5/9, ...
    assert 1 - F(5, 6) ** 2 == F(11, 36) and 1 - F(4, 6) ** 2 == F(5, 9)
    assert "Storm Bolter 11/36 11/36 → 5/9 → 3/4 → 8/9 → 35/36 → 1" in text
    # assault cannon: 3D6 kills on 5+: 1 - (4/6)^3 = 19/27; explodes on a triple: 6/216
    assert 1 - F(4, 6) ** 3 == F(19, 27)
    assert "Assault Cannon 19/27" in text and "explodes 1/36" in text
    assert ink_below(doc, "Odds (exact)") > 0.03


def test_starship_troopers_exact_hits_and_casualties(sheet: Any) -> None:
    doc, text = sheet("starship-troopers/mi-squad.yaml")
    # Morita, 2xD6 against an Arachnid Warrior (Target 5+): a die hits on 5-6 (1/3):
    # 0 hits 4/9, 1 hit 4/9, 2 hits 1/9
    assert "0: 4/9, 1: 4/9, 2: 1/9" in text
    assert "≥1: 11/36, ≥2: 1/36" in text
    assert ink_below(doc, "One attack, exact") > 0.03


def test_infantry_ops_odds_card_lists_each_attack_once(
    render: Callable[..., Rendered], write_roster: Callable[[str, str], Path]
) -> None:
    """Four rifle platoons of 28 (auto-rifle, thrown grenade): one card for the force, one
    row per distinct attack naming the platoons that make it; a Veteran platoon rolls
    against other target numbers (Experience table), so its attacks get a table of their own."""
    head, last = IO_COMPANY.rsplit("experience: regular", 1)
    doc = render(write_roster("company.yaml", head + "experience: veteran" + last))
    text = flat(doc.text())
    card = text.split("Odds (exact)", 1)[1]
    assert text.count("Chance (2D6)") == 1 and card.count("Gunnery") == 2
    # Infantry Attacks: AV = the DV of the troopers, rounded up: 28 × 0.5 = 14
    regular = card.split("Gunnery 4:", 1)[1].split("Gunnery", 1)[0]
    assert "Primary AV 14 Platoon 1, Platoon 2, Platoon 3 · Auto-Rifle" in regular
    assert "Secondary AV 14 Platoon 1, Platoon 2, Platoon 3 · Thrown Grenade" in regular
    assert regular.count("Primary AV") == 1 and "Platoon 4" not in regular
    assert card.count("Primary AV 14 Platoon 4 ·") == 1
