"""Starship Troopers damage tables: exact distributions against hand-computed fractions.

Rules text: shared/seeds/000_0a053458e8c4e0e5.txt (Characteristics: Damage, Special – Damage
bonus, Target, Save, Kill, Hits/X, Piercing/X, Accurate, Flame, Killshot, Multihit, LZ
(Stream)). Every expected value below is worked out by hand in the test (the formula is
written next to it); the code under test is armybuilder/rules/systems/
starship_troopers_damage.py, and through the engine the damage values of
starship_troopers.py.

Notation: for one damage die, h = P(hit but not a Kill result), k = P(Kill result);
the chance that the die removes an ordinary model is c = k·(1 − dodge) + h·(1 − best save).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate_roster
from armybuilder.rules.engine import Node
from armybuilder.rules.systems.starship_troopers_damage import (
    Attack,
    Defender,
    resolve,
    save_chance,
    volley,
)
from armybuilder.rules.systems.starship_troopers_profiles import DamageDice

Evaluate = Callable[[Roster], Evaluation]
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "starship-troopers"

# The two printed profiles (Characteristics):
# MI Cap Trooper: Size 1, Target 4+, Save 4+, Kill 7+.
CAP = Defender(target=4, kill=7, armour=4, dodge=None, hits=1, size=1)
# Arachnid Warrior: Size 2, Target 5+, Save 4+, Kill 8+.
WARRIOR = Defender(target=5, kill=8, armour=4, dodge=None, hits=1, size=2)

D6, D10 = 6, 10


def dice(count: int, sides: int, bonus: int = 0, bonus_die: int | None = None) -> DamageDice:
    return DamageDice(count, sides, bonus, bonus_die)


def binom2(c: F) -> dict[int, F]:
    """Two independent dice that each remove a model with chance c."""
    return {0: (1 - c) ** 2, 1: 2 * c * (1 - c), 2: c**2}


def clean(d: dict[int, F]) -> dict[int, F]:
    return {k: v for k, v in d.items() if v}


# =========================================================================== the printed pair


def test_morita_against_arachnid_warrior() -> None:
    # 2xD6 vs Target 5+: a die hits on 5 or 6 (h = 2/6); Kill 8+ is out of reach of a D6.
    # Armour 4+ saves half of the hits: c = 2/6 · 1/2 = 1/6.
    out = resolve(Attack(dice(2, D6)), WARRIOR)
    assert out.hits == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}  # (4/6)², 2·(2/6)(4/6), (2/6)²
    assert out.kills == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}
    assert out.expected_kills == F(1, 3)


def test_cap_trooper_close_combat_against_warrior() -> None:
    # D6 vs 5+: h = 2/6, saved half the time: P(removed) = 1/6.
    out = resolve(Attack(dice(1, D6)), WARRIOR)
    assert out.kills == {0: F(5, 6), 1: F(1, 6)}


def test_warrior_claws_against_cap_trooper() -> None:
    # 2xD6+1 vs Target 4+ / Kill 7+: face+1 >= 7 -> face 6 (k = 1/6); face 3..5 hit (h = 3/6).
    # Piercing/1 turns armour 4+ into 5+ (saves 2/6). c = 1/6 + 3/6 · 4/6 = 1/2.
    out = resolve(Attack(dice(2, D6, 1), piercing=1), CAP)
    assert out.kills == binom2(F(1, 2)) == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    # hits before saves: face >= 3 on each die (4/6)
    assert out.hits == {0: F(1, 9), 1: F(4, 9), 2: F(4, 9)}


def test_warrior_bite_against_cap_trooper() -> None:
    # D10 vs 4+/7+: k = faces 7..10 = 4/10; h = faces 4..6 = 3/10; armour 5+ after Piercing/1.
    # c = 4/10 + 3/10 · 4/6 = 6/10.
    out = resolve(Attack(dice(1, D10), piercing=1), CAP)
    assert out.kills == {0: F(2, 5), 1: F(3, 5)}


def test_warrior_claws_without_piercing_would_be_weaker() -> None:
    # Same as above with armour 4+: c = 1/6 + 3/6 · 1/2 = 5/12.
    assert resolve(Attack(dice(2, D6, 1)), CAP).kills == binom2(F(5, 12))


# =========================================================================== bonuses


def test_random_bonus_die_is_shared_by_all_dice() -> None:
    # 2xD6+D6 vs the Warrior: one bonus roll b is added to both dice.
    # For each b, a die shows face+b: kill at >= 8, hit at >= 5, armour 4+ saves half the hits.
    #   b=1: k=0,   h=3/6 -> c = 1/4
    #   b=2: k=1/6, h=3/6 -> c = 1/6 + 1/4  = 5/12
    #   b=3: k=2/6, h=3/6 -> c = 2/6 + 1/4  = 7/12
    #   b=4: k=3/6, h=3/6 -> c = 3/6 + 1/4  = 3/4
    #   b=5: k=4/6, h=2/6 -> c = 4/6 + 1/6  = 5/6
    #   b=6: k=5/6, h=1/6 -> c = 5/6 + 1/12 = 11/12
    cs = [F(1, 4), F(5, 12), F(7, 12), F(3, 4), F(5, 6), F(11, 12)]
    expected = {n: sum(binom2(c)[n] for c in cs) / 6 for n in (0, 1, 2)}
    out = resolve(Attack(dice(2, D6, bonus_die=6)), WARRIOR)
    assert out.kills == expected
    assert expected == {0: F(169, 864), 1: F(310, 864), 2: F(385, 864)}
    # a die rolled separately for each damage die would give independent dice instead:
    mean_c = sum(cs) / 6
    assert out.kills[2] != mean_c**2


def test_each_attack_of_a_volley_rolls_its_own_bonus_die() -> None:
    one = resolve(Attack(dice(2, D6, bonus_die=6)), WARRIOR)
    two = volley(Attack(dice(2, D6, bonus_die=6)), WARRIOR, 2)
    assert two.kills[0] == one.kills[0] ** 2 == F(169, 864) ** 2
    assert two.kills[4] == one.kills[2] ** 2


def test_fixed_bonus_adds_to_each_die() -> None:
    # 3xD6+1 vs the Warrior: face+1 >= 8 never; >= 5 -> faces 4..6 (h = 1/2); c = 1/4.
    out = resolve(Attack(dice(3, D6, 1)), WARRIOR)
    c = F(1, 4)
    assert out.kills == {0: (1 - c) ** 3, 1: 3 * c * (1 - c) ** 2, 2: 3 * c**2 * (1 - c), 3: c**3}


def test_accurate_adds_the_target_size() -> None:
    # 2xD6 Accurate vs the Warrior (Size 2): face+2 >= 8 -> face 6 (k = 1/6);
    # face+2 in 5..7 -> faces 3..5 (h = 3/6). c = 1/6 + 3/6 · 1/2 = 5/12.
    assert resolve(Attack(dice(2, D6), accurate=True), WARRIOR).kills == binom2(F(5, 12))
    # against a Size 1 Cap Trooper the bonus is +1: face 6 kills (1/6), faces 3..5 hit (3/6);
    # c = 1/6 + 3/6 · 1/2 = 5/12 as well (same thresholds relative to the bonus).
    assert resolve(Attack(dice(2, D6), accurate=True), CAP).kills == binom2(F(5, 12))


def test_accurate_and_bonus_die_together() -> None:
    # D6+D6 Accurate vs Cap Trooper (Size 1): per bonus b, the die shows face+b+1.
    # b=1: face+2: kill face>=5 (2/6), hit faces 2..4 (3/6): c = 2/6 + 3/12 = 7/12
    # b=2: face+3: kill >=4 (3/6), hit 1..3 (3/6): c = 3/6 + 3/12 = 3/4
    # b=3: face+4: kill >=3 (4/6), hit 1..2 (2/6): c = 4/6 + 2/12 = 5/6
    # b=4: face+5: kill >=2 (5/6), hit 1 (1/6): c = 5/6 + 1/12 = 11/12
    # b=5, b=6: every face kills: c = 1
    cs = [F(7, 12), F(3, 4), F(5, 6), F(11, 12), F(1), F(1)]
    out = resolve(Attack(dice(1, D6, bonus_die=6), accurate=True), CAP)
    assert out.kills == {0: sum(1 - c for c in cs) / 6, 1: sum(cs) / 6}


# =========================================================================== saves


def test_piercing_against_armour() -> None:
    # 2xD6 vs the Warrior, h = 2/6. Piercing/2: armour 6+ saves 1/6 -> c = 2/6 · 5/6 = 5/18.
    assert resolve(Attack(dice(2, D6), piercing=2), WARRIOR).kills == binom2(F(5, 18))
    # Piercing/3: armour 7+ cannot be made -> c = 2/6.
    assert resolve(Attack(dice(2, D6), piercing=3), WARRIOR).kills == binom2(F(1, 3))


def test_dodge_only_model() -> None:
    # A "-/4+" model, Target 4+, Kill 7+, hit by a D10: k = 4/10, h = 3/10.
    # Dodge 4+ (1/2) works against both: c = 4/10 · 1/2 + 3/10 · 1/2 = 7/20.
    dodger = Defender(4, 7, None, 4)
    assert resolve(Attack(dice(1, D10)), dodger).kills == {0: F(13, 20), 1: F(7, 20)}
    # Piercing only affects armour: the dodge is unchanged.
    assert resolve(Attack(dice(1, D10), piercing=2), dodger).kills == {0: F(13, 20), 1: F(7, 20)}


def test_armour_and_dodge_one_save_per_hit() -> None:
    # "4+/6+", Target 4+, Kill 7+, D10: against a hit the better save (armour 1/2) is taken,
    # against a Kill result only the dodge (1/6). c = 4/10 · 5/6 + 3/10 · 1/2 = 29/60.
    both = Defender(4, 7, 4, 6)
    assert resolve(Attack(dice(1, D10)), both).kills == {0: F(31, 60), 1: F(29, 60)}
    # With Piercing/2 the armour needs 6+ (1/6) and the dodge is no worse: 1/6 either way.
    # c = 4/10 · 5/6 + 3/10 · 5/6 = 7/12.
    assert resolve(Attack(dice(1, D10), piercing=2), both).kills[1] == F(7, 12)
    # "5+/4+" with Piercing/1: armour 6+ (1/6) or dodge 4+ (1/2): the dodge is better.
    # c = 4/10 · 1/2 + 3/10 · 1/2 = 7/20.
    agile = Defender(4, 7, 5, 4)
    assert resolve(Attack(dice(1, D10), piercing=1), agile).kills[1] == F(7, 20)


def test_flame_denies_the_dodge() -> None:
    # "-/4+": with Flame there is no save at all: c = 4/10 + 3/10 = 7/10.
    assert resolve(Attack(dice(1, D10), flame=True), Defender(4, 7, None, 4)).kills[1] == F(7, 10)
    # "4+/6+": armour still works against hits, nothing against Kill results:
    # c = 4/10 + 3/10 · 1/2 = 11/20.
    assert resolve(Attack(dice(1, D10), flame=True), Defender(4, 7, 4, 6)).kills[1] == F(11, 20)


def test_natural_one_always_fails() -> None:
    # A save of 2+ (or one made easier still) fails on a 1: 5/6 at best.
    assert save_chance(2) == F(5, 6)
    assert save_chance(1) == F(5, 6)
    assert save_chance(0) == F(5, 6)
    assert save_chance(6) == F(1, 6)
    assert save_chance(7) == 0
    # Armour 2+, Target 2+, Kill 7+ (out of a D6's reach), hit by one D6: faces 2..6 hit
    # (h = 5/6) and the save fails only on a 1: c = 5/6 · 1/6 = 5/36.
    tough = Defender(2, 7, 2)
    assert resolve(Attack(dice(1, D6)), tough).kills[1] == F(5, 36)


def test_no_save_model() -> None:
    # Save "-": every hit removes it. D6 vs Target 4+: c = 1/2.
    assert resolve(Attack(dice(1, D6)), Defender(4, 7)).kills == {0: F(1, 2), 1: F(1, 2)}


# =========================================================================== Kill results


def test_killshot_turns_hits_into_kill_results() -> None:
    # 2xD6 Killshot vs the Warrior: faces 5, 6 reach Target, count as Kill results: no armour.
    # c = 2/6 (instead of 1/6 without Killshot).
    assert resolve(Attack(dice(2, D6), killshot=True), WARRIOR).kills == binom2(F(1, 3))
    # against a dodging model the dodge still applies: "-/5+": c = 2/6 · 4/6 = 2/9.
    dodger = Defender(5, 8, None, 5)
    assert resolve(Attack(dice(2, D6), killshot=True), dodger).kills == binom2(F(2, 9))


# =========================================================================== Hits/X, Multihit

# A made-up multihit model (no such profile is printed): Target 4+, Kill 7+, armour 4+, Hits/3.
BIG = Defender(target=4, kill=7, armour=4, dodge=None, hits=3, size=3)


def test_hits_x_model_loses_hits() -> None:
    # 2xD6+1 vs BIG: per die, face 6 is a Kill result (1/6): 2 hits, no armour save;
    # faces 3..5 hit (3/6) and the 4+ armour fails half the time: 1 hit with 1/4;
    # nothing with 1 - 1/6 - 1/4 = 7/12.
    z, one, two = F(7, 12), F(1, 4), F(1, 6)
    lost = {
        0: z * z,
        1: 2 * z * one,
        2: one * one + 2 * z * two,
        3: 2 * one * two,
        4: two * two,
    }
    out = resolve(Attack(dice(2, D6, 1)), BIG)
    assert out.damage == lost
    # removed when 3 or more hits are lost: 2·(1/4)(1/6) + (1/6)² = 1/9
    assert out.kills == {0: F(8, 9), 1: F(1, 9)}


def test_multihit_weapon_doubles_against_multihit_models() -> None:
    # As above, but a hit costs 2 hits and a Kill result 4.
    z, one, two = F(7, 12), F(1, 4), F(1, 6)
    lost = {0: z * z, 2: 2 * z * one, 4: one * one + 2 * z * two, 6: 2 * one * two, 8: two * two}
    out = resolve(Attack(dice(2, D6, 1), multihit=True), BIG)
    assert out.damage == lost
    # removed at 3+ lost, i.e. unless 0 or 2: 1 - 49/144 - 42/144 = 53/144
    assert out.kills[1] == F(53, 144)
    # against an ordinary model Multihit changes nothing
    assert resolve(Attack(dice(2, D6, 1), multihit=True), CAP).kills == binom2(F(5, 12))


def test_one_die_cannot_remove_hits_3() -> None:
    # A standard attack (one die, no Multihit) costs at most 2 hits (Kill result).
    assert resolve(Attack(dice(1, D10, 5)), BIG).kills == {0: F(1)}
    # A Hits/2 model is removed by a Kill result: D10 vs 4+/7+: k = 4/10.
    # c(removed) = k = 4/10 (a single failed save only takes one of its two hits).
    hits2 = Defender(4, 7, 4, None, hits=2)
    assert resolve(Attack(dice(1, D10)), hits2).kills == {0: F(3, 5), 1: F(2, 5)}


def test_volley_against_a_multihit_model() -> None:
    # Two D10 attacks into one Hits/2 model (Target 4+, Kill 7+, armour 4+): per die,
    # 2 hits lost with 4/10, 1 with 3/10 · 1/2 = 3/20, 0 with 9/20.
    # Survives only with 0+0, 0+1 or 1+0: (9/20)² + 2 · (9/20)(3/20) = 135/400.
    hits2 = Defender(4, 7, 4, None, hits=2)
    assert volley(Attack(dice(1, D10)), hits2, 2).kills == {0: F(135, 400), 1: F(265, 400)}


# =========================================================================== Stream


def test_stream_weapon_direct_fire() -> None:
    # D10+2 LZ (Stream) in direct fire rolls 1×2 = 2 D10 with no bonus (LZ (Stream) example).
    # vs Cap Trooper: k = 4/10, h = 3/10, armour 4+: c = 4/10 + 3/20 = 11/20.
    direct = resolve(Attack(dice(1, D10, 2), stream_direct=True), CAP)
    assert direct.kills == binom2(F(11, 20))
    # Stream fire rolls the dice as printed against each model: face+2 >= 7 -> 6/10 kill,
    # faces 2..4 hit (3/10): c = 6/10 + 3/20 = 3/4.
    assert resolve(Attack(dice(1, D10, 2)), CAP).kills == {0: F(1, 4), 1: F(3, 4)}


# =========================================================================== volleys


def test_six_moritas() -> None:
    # Six attacks of 2xD6 at Warriors: 12 dice each removing one with 1/6.
    out = volley(Attack(dice(2, D6)), WARRIOR, 6)
    assert out.kills[0] == F(5, 6) ** 12
    assert out.kills[12] == F(1, 6) ** 12
    assert out.expected_kills == 2


# =========================================================================== through the engine


def squad(ev: Evaluation) -> Node:
    return ev.root.children[0]


def value(ev: Evaluation, node: Node, key: str) -> Any:
    got = ev.value(node, key)
    assert got is not None, [v.key for v in ev.values_of(node)]
    return got


def exact(items: list[dict[str, Any]]) -> dict[int, F]:
    return {i["n"]: F(i["exact"]) for i in items}


def test_engine_morita_row(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(Roster.from_file(EXAMPLES / "mi-squad.yaml"))
    row = value(ev, squad(ev), "damage.morita-assault-rifle.arachnid-warrior")
    assert row["dice"] == "2xD6"
    assert row["target"] == "Arachnid Warrior"
    assert exact(row["kills"]) == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}
    assert exact(row["hits"]) == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    assert F(row["expected_kills"]["exact"]) == F(1, 3)
    assert exact(row["at_least"]) == {1: F(11, 36), 2: F(1, 36)}
    # six troopers fire: 12 dice, each removing a Warrior with 1/6
    assert row["attacks"] == 6
    assert exact(row["volley"]["at_least"])[1] == 1 - F(5, 6) ** 12
    assert F(row["volley"]["expected_kills"]["exact"]) == 2
    assert abs(row["kills"][0]["p"] - 25 / 36) < 1e-12


def test_engine_close_combat_both_ways(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(Roster.from_file(EXAMPLES / "arachnid-swarm.yaml"))
    wave = squad(ev)
    claws = value(ev, wave, "damage.arachnid-warrior.close-combat-1.cap-trooper")
    bite = value(ev, wave, "damage.arachnid-warrior.close-combat-2.cap-trooper")
    assert claws["dice"] == "2xD6+1"
    assert exact(claws["kills"]) == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}
    assert bite["dice"] == "D10"
    assert exact(bite["kills"]) == {0: F(2, 5), 1: F(3, 5)}
    assert "armour 4+ becomes 5+" in claws["notes"]
    ev2 = evaluate_roster(Roster.from_file(EXAMPLES / "mi-squad.yaml"))
    cc = value(ev2, squad(ev2), "damage.cap-trooper.close-combat.arachnid-warrior")
    assert exact(cc["kills"]) == {0: F(5, 6), 1: F(1, 6)}


def test_engine_rows_for_user_weapons(library: Library) -> None:
    # a roster with custom: entries is evaluated together with them
    roster = Roster.from_file(EXAMPLES / "mi-with-own-units.yaml")
    ev = evaluate_roster(roster, library.system(roster.system))
    assert ev.issues == []
    team = squad(ev)
    # Example support gun: 3xD6+1 Accurate Piercing/1 vs the Warrior (Size 2, armour 4+ -> 5+):
    # face+3 >= 8 -> faces 5, 6 (k = 2/6); face+3 in 5..7 -> faces 2..4 (h = 3/6);
    # c = 2/6 + 3/6 · 4/6 = 2/3 per die, three dice.
    gun = value(ev, team, "damage.example-support-gun.arachnid-warrior")
    c = F(2, 3)
    assert exact(gun["kills"]) == {
        0: (1 - c) ** 3,
        1: 3 * c * (1 - c) ** 2,
        2: 3 * c**2 * (1 - c),
        3: c**3,
    }
    # Example flamer D10+2 LZ (Stream), Flame: two rows.
    # direct: 2xD10, no bonus, vs 5+/8+: k = 3/10, h = 3/10, armour 1/2: c = 3/10 + 3/20 = 9/20
    direct = value(ev, team, "damage.example-flamer.direct.arachnid-warrior")
    assert exact(direct["kills"]) == binom2(F(9, 20))
    # Stream fire: D10+2: face+2 >= 8 -> faces 6..10 (5/10); 5..7 -> faces 3..5 (3/10):
    # c = 5/10 + 3/20 = 13/20
    stream = value(ev, team, "damage.example-flamer.stream.arachnid-warrior")
    assert exact(stream["kills"]) == {0: F(7, 20), 1: F(13, 20)}
    # three Moritas in the unit (the sergeant's and two troopers')
    assert value(ev, team, "damage.morita-assault-rifle.arachnid-warrior")["attacks"] == 3


@pytest.mark.parametrize("name", ["mi-squad.yaml", "arachnid-swarm.yaml", "mi-with-own-units.yaml"])
def test_damage_values_are_json(library: Library, name: str) -> None:
    import json

    roster = Roster.from_file(EXAMPLES / name)
    ev = evaluate_roster(roster, library.system(roster.system))
    for node in ev.nodes():
        for v in ev.values_of(node):
            json.dumps(v.value)
