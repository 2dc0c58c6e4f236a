"""Starship Troopers damage: the exact odds of one attack against one enemy profile.

There is no separate roll to hit: each damage die is compared with the target's Target and
Kill characteristics (Characteristics, Damage):

* a die (plus every bonus) below Target does nothing; at Target or more it is a **hit**, at
  Kill or more a **Kill result**; a Killshot weapon turns every hit into a Kill result;
* bonuses: a fixed bonus (``3xD6+1``), a random bonus die rolled **once** and added to every
  damage die of the attack (``2xD6+D6``), and Accurate, which adds the target's Size;
* a hit allows one save: armour (made worse by Piercing/X) or dodge, whichever the defender
  prefers; a Kill result allows only a dodge; Flame allows no dodge; a natural 1 always fails
  (Save);
* a model with Hits/X loses one hit per unsaved hit and two per undodged Kill result; a
  Multihit weapon doubles both against such a model (Hits/X, Multihit).

The distributions are computed exactly (fractions, by convolution over the dice and a mixture
over the bonus die), never sampled. Two readings fix what "per attack" means:

* against ordinary (single-hit) models, every die of the attack is resolved against a
  different model of the profile (as when a unit's fire is spread over the target unit), so
  one attack can cause as many casualties as it rolls dice. P(at least 1) is also the chance
  that a single model receiving all the dice is removed;
* against a Hits/X model, all the dice of the attack (and of a volley) go into the same model;
  it is a casualty once its lost hits reach X.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from ...dice import (
    Distribution,
    binomial,
    convolve_power,
    expectation,
    mixture,
    point,
    threshold,
    uniform,
)
from .starship_troopers_profiles import DamageDice, ModelProfile

#: The most damage dice a volley is tabulated for exactly. A unit's fire beyond this (say 400
#: troopers) gets its expected casualties only: the exact odds of a pool of n dice take time
#: growing with n³ (their fractions grow with n) while the table shows none of it.
VOLLEY_MAX_DICE = 100


@dataclass(frozen=True)
class Attack:
    """One way of rolling damage: the dice and the traits that change the outcome."""

    dice: DamageDice
    accurate: bool = False
    piercing: int = 0
    flame: bool = False
    killshot: bool = False
    multihit: bool = False
    #: LZ (Stream) fired directly: damage dice times the damage bonus, without the bonus.
    stream_direct: bool = False


@dataclass(frozen=True)
class Defender:
    """What of an enemy profile matters to damage."""

    target: int
    kill: int
    armour: int | None = None
    dodge: int | None = None
    hits: int = 1
    size: int = 1

    @classmethod
    def of(cls, p: ModelProfile) -> Defender:
        return cls(p.target, p.kill, p.save.armour, p.save.dodge, p.hits, p.size)


@dataclass(frozen=True)
class Outcome:
    """Distributions for one attack (or a volley of several)."""

    #: Damage dice scoring Target or better (Kill results included), before saves.
    hits: Distribution
    #: Hits the enemy loses after saves (single-hit models: = casualties).
    damage: Distribution
    #: Models removed as casualties.
    kills: Distribution

    @property
    def expected_kills(self) -> Fraction:
        return expectation(self.kills)


def save_chance(need: int | None) -> Fraction:
    """The chance to make a save of ``need``+ on a D6; a natural 1 always fails."""
    if need is None or need > 6:
        return Fraction(0)
    return Fraction(7 - max(need, 2), 6)


def hit_save(attack: Attack, d: Defender) -> Fraction:
    """The chance to save a hit: armour (worse by Piercing) or dodge, the better one."""
    armour = save_chance(d.armour + attack.piercing) if d.armour is not None else Fraction(0)
    return max(armour, kill_save(attack, d))


def kill_save(attack: Attack, d: Defender) -> Fraction:
    """The chance to dodge a Kill result (no armour save against it; none against Flame)."""
    if d.dodge is None or attack.flame:
        return Fraction(0)
    return save_chance(d.dodge)


def die_results(sides: int, bonus: int, d: Defender, killshot: bool) -> tuple[Fraction, Fraction]:
    """(P(hit but not a Kill result), P(Kill result)) for one die plus ``bonus``."""
    hit = kill = 0
    for face in range(1, sides + 1):
        r = face + bonus
        if r >= d.kill or (killshot and r >= d.target):
            kill += 1
        elif r >= d.target:
            hit += 1
    return Fraction(hit, sides), Fraction(kill, sides)


def _per_die_damage(attack: Attack, d: Defender, bonus: int) -> Distribution:
    """Hits one die takes off the enemy, after saves."""
    p_hit, p_kill = die_results(attack.dice.sides, bonus, d, attack.killshot)
    lost_hit = p_hit * (1 - hit_save(attack, d))
    lost_kill = p_kill * (1 - kill_save(attack, d))
    if d.hits <= 1:
        through = lost_hit + lost_kill
        return {0: 1 - through, 1: through} if through else point(0)
    per_hit, per_kill = (2, 4) if attack.multihit else (1, 2)
    out: Distribution = {0: 1 - lost_hit - lost_kill}
    out[per_hit] = out.get(per_hit, Fraction(0)) + lost_hit
    out[per_kill] = out.get(per_kill, Fraction(0)) + lost_kill
    return {k: v for k, v in sorted(out.items()) if v}


def dice_rolled(attack: Attack) -> int:
    """The most damage dice one attack rolls (a Stream weapon fired directly rolls its dice
    times the damage bonus, the bonus die at its highest)."""
    dice = attack.dice
    if not attack.stream_direct:
        return dice.count
    return dice.count * max(1, dice.bonus + (dice.bonus_die or 0))


def volley_is_exact(attack: Attack, attacks: int) -> bool:
    """Whether a volley of ``attacks`` rolls few enough dice to tabulate its exact odds."""
    return attacks * dice_rolled(attack) <= VOLLEY_MAX_DICE


@lru_cache(maxsize=4096)
def resolve(attack: Attack, d: Defender) -> Outcome:
    """The exact outcome of one attack against one enemy profile."""
    dice = attack.dice
    bonus_roll = uniform(dice.bonus_die) if dice.bonus_die else point(0)
    accurate = d.size if attack.accurate else 0
    hits_parts: list[tuple[Fraction, Distribution]] = []
    dmg_parts: list[tuple[Fraction, Distribution]] = []
    for roll, weight in bonus_roll.items():
        printed = dice.bonus + roll
        if attack.stream_direct:
            n = dice.count * printed if printed >= 1 else dice.count
            per_die_bonus = accurate
        else:
            n = dice.count
            per_die_bonus = printed + accurate
        p_hit, p_kill = die_results(dice.sides, per_die_bonus, d, attack.killshot)
        hits_parts.append((weight, binomial(n, p_hit + p_kill)))
        dmg_parts.append((weight, convolve_power(_per_die_damage(attack, d, per_die_bonus), n)))
    hits = mixture(hits_parts)
    damage = mixture(dmg_parts)
    kills = damage if d.hits <= 1 else threshold(damage, d.hits)
    return Outcome(hits, damage, kills)


@lru_cache(maxsize=4096)
def volley(attack: Attack, d: Defender, attacks: int) -> Outcome:
    """``attacks`` independent attacks (each with its own bonus die) at the same profile.

    Single-hit enemies: every die at a different model, casualties add up. A Hits/X enemy:
    everything goes into one model, which is removed once the hits lost reach X.
    """
    one = resolve(attack, d)
    hits = convolve_power(one.hits, attacks)
    damage = convolve_power(one.damage, attacks)
    kills = damage if d.hits <= 1 else threshold(damage, d.hits)
    return Outcome(hits, damage, kills)
