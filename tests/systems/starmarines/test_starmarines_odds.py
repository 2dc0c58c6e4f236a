"""StarMarines: exact odds of the Soldier Wounding Table and the Vehicle Damage Table.

Rules text: shared/seeds/003_ceaaebfe63a96e1e.txt, IX-B (Wounds and Vehicle Damage), X (Soldier
Wounding Table, Vehicle Damage Table), IV-g (weapon immunity).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

from armybuilder.rules.systems.starmarines_odds import (
    damage_odds,
    destroyed_within,
    wounding_odds,
)

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "starmarines"
TABLE = {1: "Stunned", 2: "Stunned", 3: "Disarmed", 4: "Crippled", 5: "Destroyed", 6: "Destroyed"}


def test_wounding_columns() -> None:
    # X, Soldier Wounding Table: StarMarines dead on 4-6 (1/2); Norx on 5-6 (1/3); Ghouls on 6.
    sm = ["Wounded"] * 3 + ["Dead"] * 3
    assert wounding_odds(sm) == {"Wounded": F(1, 2), "Dead": F(1, 2)}
    ghouls = ["Wounded"] * 5 + ["Dead"]
    assert wounding_odds(ghouls)["Dead"] == F(1, 6)


def test_vehicle_damage_per_hit_and_over_hits() -> None:
    # X, Vehicle Damage Table: Stunned 1-2, Disarmed 3, Crippled 4, Destroyed 5-6.
    assert damage_odds(TABLE) == {
        "Stunned": F(1, 3),
        "Disarmed": F(1, 6),
        "Crippled": F(1, 6),
        "Destroyed": F(1, 3),
    }
    # IX-B: Disarmed and Crippled together destroy it. Two hits, by hand: 1/3 at once; after a
    # Stunned (1/3) a 5-6 (1/3): 1/9; after a Disarmed or a Crippled (1/6 each) the other or
    # a 5-6 (1/2): 1/12 each. 1/3 + 1/9 + 1/6 = 11/18.
    assert destroyed_within(TABLE, 1) == F(1, 3)
    assert destroyed_within(TABLE, 2) == F(11, 18)
    # a supertank's level reading ("Disarmed or Crippled") leaves the kind open: not computed
    assert destroyed_within({1: "Stunned", 5: "Disarmed or Crippled"}, 2) is None


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "armybuilder", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_show_and_against() -> None:
    mine = EXAMPLES / "starmarines-example.yaml"
    out = _run("show", str(mine))
    assert out.returncode == 0, out.stderr
    assert "Wounding odds (StarMarines): a wound roll kills 1/2 (50.0%)" in out.stdout
    data = json.loads(
        _run(
            "show", str(mine), "--against", str(EXAMPLES / "norx-example.yaml"), "--format", "json"
        ).stdout
    )
    rows = data["against"]["matchups"]
    axe = next(r for r in rows if r["label"].startswith("Power axe"))
    # the Norx column: dead on 5-6
    assert axe["value"]["soldiers"]["dead"] == "1/3"
    # IV-g: the large walker is immune to AP 2 or less; the power axe is AP 2
    assert axe["value"]["vehicles"]["Combat walker"] == {"immune": True}
    laser = next(r for r in rows if r["label"].startswith("Laser cannon"))
    walker = laser["value"]["vehicles"]["Combat walker"]
    assert walker["immune"] is False and walker["destroyed_within"]["2"] == "11/18"
