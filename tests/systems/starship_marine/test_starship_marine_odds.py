"""Starship Marine: exact odds of fire (3.5), grenades (3.6), combat robot damage (3.7) and
hand to hand combat (3.15), checked against hand-computed numbers.

Rules text: shared/seeds/001_aee7d77e3f7a5af7.txt. The d10 reads 0-9 ("0 = 0").
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

from armybuilder.rules.systems.starship_marine_odds import (
    FIRE_TABLE,
    d10_at_least,
    fire_hits,
    grenade_hit,
    hand_to_hand,
)

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "starship-marine"


def test_fire_table_rows() -> None:
    # Table 3.5: SCA II needs 4 (unarmoured) / 6 (armoured) up to 15 cm, 7 / 10 over 40 cm.
    assert FIRE_TABLE["SCA II"] == (4, 6, 6, 8, 7, 10)
    assert FIRE_TABLE["APGW"] == (8, 9, 5, 7, 5, 7)
    # a score of 4 or more on a d10 read 0-9: 6 faces of 10
    assert d10_at_least(4) == F(3, 5)
    assert d10_at_least(9) == F(1, 10)
    assert d10_at_least(10) == 0 and d10_at_least(11) == 0


def test_secondary_hits_on_exact_multiples() -> None:
    # 3.5: a roll that is a multiple of the score needed scores that many hits: needing 4, an
    # 8 scores 2 (1 face in 10); 4-7 and 9 score 1 (5 faces); 0-3 miss.
    assert fire_hits(4) == {0: F(4, 10), 1: F(5, 10), 2: F(1, 10)}
    # needing 5 or more no multiple can be rolled
    assert fire_hits(5) == {0: F(1, 2), 1: F(1, 2)}


def test_grenades() -> None:
    # 3.6: up to 40 cm in sight, a Good Throw on 3-6 (2/3); an unarmoured figure within 8 cm
    # is hit on 4+ after a good throw, 6+ after a normal one: 2/3*6/10 + 1/3*4/10 = 8/15.
    assert grenade_hit("up to 40 cm", "Unarmoured") == F(8, 15)
    # armoured: only a good throw can hurt, on 9+: 2/3 * 1/10 = 1/15
    assert grenade_hit("up to 40 cm", "Armoured") == F(1, 15)
    # up to 15 cm in sight the throw is always good: 6/10
    assert grenade_hit("up to 15 cm", "Unarmoured") == F(3, 5)


def test_hand_to_hand() -> None:
    # 3.15: marine +3 against a crewman: 1d10 each; the crewman wins only if he rolls 4 or
    # more above the marine: 6+5+4+3+2+1 = 21 of 100; equal totals (7 of 100) inconclusive.
    assert hand_to_hand(3, 0) == (F(72, 100), F(7, 100), F(21, 100))
    # two marines: 10 of 100 ties, the rest split evenly
    assert hand_to_hand(3, 3) == (F(45, 100), F(10, 100), F(45, 100))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "armybuilder", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_show_prints_fire_grenade_and_hand_to_hand_odds() -> None:
    out = _run("show", str(EXAMPLES / "martian-boarding-group.yaml"))
    assert out.returncode == 0, out.stderr
    assert "SCA II fire odds: SCA II, one shot hits (1d10) ≤15 cm: unarmoured 4+ 3/5 (60.0%)" in (
        out.stdout
    )
    assert "Hand to hand odds: +3: vs marine: wins 9/20 (45.0%)" in out.stdout
    assert "up to 40 cm: unarmoured 8/15 (53.3%), armoured 1/15 (6.7%)" in out.stdout


def test_show_against_a_ships_company() -> None:
    out = _run(
        "show",
        str(EXAMPLES / "martian-boarding-group.yaml"),
        "--against",
        str(EXAMPLES / "ships-company.yaml"),
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["against"]["matchups"]
    sca2 = next(r for r in rows if r["key"] == "fire.sca-ii")
    marines = sca2["value"]["targets"]["marine (armoured)"]
    # Table 3.5, SCA II at armoured targets: 6+, 8+, 10+ -> 2/5, 1/5, never
    assert marines["hit"] == {"up to 15 cm": "2/5", "up to 40 cm": "1/5", "over 40 cm": "0"}
    robots = sca2["value"]["targets"]["combat robot (unarmoured)"]
    # 3.7: one shot destroys a combat robot only with a hit and a 6: 3/5 * 1/6 = 1/10
    assert robots["destroyed_by_one_shot"]["up to 15 cm"] == "1/10"
    h2h = next(r for r in rows if r["key"] == "hand-to-hand")["value"]["marine"]
    assert h2h["crewman"]["win"] == "18/25"
