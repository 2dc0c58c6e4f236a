"""Infantry Operations: the exact odds of an attack, checked against hand-computed numbers.

Rules text: shared/seeds/004_305487a09ab214d9.txt, "Infantry Attacks" (Attack Roll, Target
Number, Margin of Success/Margin of Failure), "Weapon Damage" (cluster chart, In the Open,
Dug In, Burst fire); the cluster hits table is shared/reference/cluster-hits.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

from armybuilder.dice import Dice
from armybuilder.rules.systems.infantry_ops_odds import (
    Burst,
    casualties,
    cluster_hits,
    columns,
    damage,
    incapacitated,
    to_hit,
)

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "infantry-ops" / "rifle-lmg-platoon.yaml"


def test_to_hit_on_2d6() -> None:
    # Attack Roll: 2D6 against the target number; 15 of the 36 rolls make 8 or more.
    assert to_hit(8) == F(15, 36)
    assert to_hit(4) == F(33, 36)
    assert to_hit(2) == 1
    assert to_hit(13) == 0


def test_cluster_table_and_split_columns() -> None:
    # cluster hits table: AV 14, roll 7 -> 9; AV 40, roll 4 -> 18; AV 2, roll 8 -> 2.
    assert cluster_hits(14, 7) == 9
    assert cluster_hits(40, 4) == 18
    assert cluster_hits(2, 8) == 2
    # 35 is not a column: read as 30 + 5 with the same roll (documented reading).
    assert columns(35) == (30, 5)
    assert cluster_hits(35, 7) == 18 + 3
    # a cluster roll beyond 12 (margin of success) reads the 12 row
    assert cluster_hits(10, 16) == 10


def test_standard_attack_distribution() -> None:
    # AV 1 at TN 4: every hit is one damage point: P(hit) = 33/36.
    assert damage(1, 4) == {0: F(3, 36), 1: F(33, 36)}
    # AV 2 at TN 2 (always hits): 1 point on cluster rolls 2-7 (21/36), 2 on 8-12 (15/36).
    assert damage(2, 2) == {1: F(21, 36), 2: F(15, 36)}


def test_terrain_doubles_and_halves_damage() -> None:
    # In the Open: damage x2; Dug In: half, rounded down (AV 1 then never hurts).
    assert damage(1, 4, terrain="open") == {0: F(3, 36), 2: F(33, 36)}
    assert damage(1, 4, terrain="dug-in") == {0: F(1)}


def test_margin_of_failure_can_still_hit() -> None:
    # Margin of Success/Failure: each point of margin moves the cluster roll by 2; the attack
    # misses only if the cluster roll ends at 1 or less. AV 1 at TN 7, by hand:
    # attack 2: cluster >= 12 (1/36); 3: >= 10 (6/36); 4: >= 8 (15/36); 5: >= 6 (26/36);
    # 6: >= 4 (33/36); 7+: always (21/36 of attack rolls).
    p_any = F(1 * 1 + 2 * 6 + 3 * 15 + 4 * 26 + 5 * 33, 36 * 36) + F(21, 36)
    assert p_any == F(361, 432)
    assert damage(1, 7, mos=True) == {0: 1 - p_any, 1: p_any}
    # Without the advanced rule the same attack hits only on 7+.
    assert damage(1, 7) == {0: F(15, 36), 1: F(21, 36)}


def test_burst_fire_only_in_the_open_and_halved_for_one_weapon() -> None:
    # Burst fire: one burst weapon -> half the roll (rounded down): 1D6 gives 0,1,1,2,2,3.
    half = Burst(Dice(1, 6), half=True)
    assert half.distribution() == {0: F(1, 6), 1: F(2, 6), 2: F(2, 6), 3: F(1, 6)}
    # not in light cover
    assert damage(1, 2, terrain="light-cover", burst=half) == damage(1, 2)
    # in the open at TN 2 with AV 1 + burst: columns 1..4, read with one cluster roll, x2.
    d = damage(1, 2, terrain="open", burst=half)
    assert sum(d.values()) == 1
    expected_av2 = F(21, 36) * 1 + F(15, 36) * 2  # mean cluster hits, AV 2
    assert d.get(2, F(0)) >= F(1, 6) + F(2, 6) * F(21, 36)  # AV 1 always 1; AV 2 low rolls
    assert expected_av2 == F(17, 12)


def test_damage_track_armoured_troopers_take_two() -> None:
    # Weapon Damage: armoured troopers take a second hit before they are out.
    assert incapacitated(3, (2, 2, 1)) == 1
    assert incapacitated(4, (2, 2, 1)) == 2
    assert incapacitated(9, (1, 1)) == 2
    assert casualties(((0, F(1, 2)), (2, F(1, 2))), (2, 2)) == {0: F(1, 2), 1: F(1, 2)}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "armybuilder", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_show_prints_the_odds_of_the_example_platoon() -> None:
    # The Rifle + LMG example platoon is Regular (gunnery 4): short TN 4, long TN 8.
    out = _run("show", str(EXAMPLE))
    assert out.returncode == 0, out.stderr
    assert "To hit (2D6): short TN 4: 11/12 (91.7%)" in out.stdout
    assert "long TN 8: 5/12 (41.7%)" in out.stdout
    assert "Support attack odds: AV 8" in out.stdout
    data = json.loads(_run("show", str(EXAMPLE), "--format", "json").stdout)
    platoon = data["units"][0]["values"]
    # every target number 2..13: 2D6 >= 8 comes up 15 times in 36
    by_tn = platoon["to_hit"]["value"]["by_tn"]
    assert by_tn["8"] == "5/12" and by_tn["2"] == "1" and by_tn["13"] == "0"
    assert by_tn["7"] == "7/12"
    odds = platoon["odds_support"]["value"]
    assert odds["burst"] == "1D6"
    short = odds["brackets"]["short"]
    assert short["tn"] == 4 and short["hit"] == "11/12"
    dist = {int(k): F(v) for k, v in short["standard"]["troopers_hit"].items()}
    assert dist == damage(8, 4)
    assert sum(dist.values()) == 1


def test_show_against_another_platoon() -> None:
    # Weapon Damage: one trooper hit per damage point; the Rifle + SRM1 platoon's 24 troopers
    # wear Kevlar (no armour points), so troopers out of action = damage points (AV 10 does
    # at most 10 in light cover, 20 in the open: fewer than 24).
    other = REPO / "examples" / "infantry-ops" / "rifle-srm-platoon.yaml"
    out = _run("show", str(EXAMPLE), "--against", str(other), "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["against"]["matchups"]
    primary = next(r for r in rows if r["key"] == "primary")
    assert primary["target"] == "Foot Platoon (Rifle + SRM1)"
    v = primary["value"]
    assert (v["av"], v["tn"], v["hit"], v["troopers"]) == (10, 4, "11/12", 24)
    light = {int(k): F(p) for k, p in v["standard"]["light-cover"]["out_of_action"].items()}
    assert light == damage(10, 4)
    opened = {int(k): F(p) for k, p in v["standard"]["open"]["out_of_action"].items()}
    assert opened == {2 * k: p for k, p in damage(10, 4).items()}
    text = _run("show", str(EXAMPLE), "--against", str(other)).stdout
    assert "Against Rifle + SRM1 platoon (Inner Sphere):" in text
    assert "Primary attack: AV 10, TN 4 (short range): hits 11/12 (91.7%)" in text


def test_show_against_an_entry_id_and_a_bad_name() -> None:
    # a Clan platoon fielded alone with its catalog minimum: 5 squads of 5 (The Infantry
    # Platoon), Kevlar-clad.
    out = _run("show", str(EXAMPLE), "--against", "clan:platoon")
    assert out.returncode == 0, out.stderr
    assert "troopers out of action of 25" in out.stdout
    bad = _run("show", str(EXAMPLE), "--against", "no-such-thing")
    assert bad.returncode == 2
    assert "no-such-thing" in bad.stderr and "Traceback" not in bad.stderr


def test_armoured_targets_take_two_hits_each() -> None:
    # Weapon Damage: an armoured trooper takes a second hit before he is out of action; 4
    # points on a track of armoured troopers put 2 out.
    track = (2,) * 10
    assert casualties(((4, F(1)),), track) == {2: F(1)}


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    given = None

if given is not None:

    @settings(max_examples=60, deadline=None)
    @given(
        av=st.integers(1, 95),
        tn=st.integers(0, 14),
        mos=st.booleans(),
        terrain=st.sampled_from(["open", "light-cover", "dug-in"]),
        burst=st.sampled_from([None, Burst(Dice(1, 3)), Burst(Dice(2, 6), half=True)]),
    )
    def test_every_distribution_is_exact_and_bounded(
        av: int, tn: int, mos: bool, terrain: str, burst: Burst | None
    ) -> None:
        # whatever the attack, the outcomes sum to exactly 1, none is negative, and a harder
        # target number never makes any damage more likely (Attack Roll, Margin of Success)
        d = damage(av, tn, mos, terrain, burst)
        assert sum(d.values()) == 1
        assert all(k >= 0 and p > 0 for k, p in d.items())
        harder = damage(av, tn + 1, mos, terrain, burst)
        assert 1 - harder.get(0, F(0)) <= 1 - d.get(0, F(0))
