"""Infantry Operations: the exact odds of an attack (to hit on 2D6, troopers hit through the
cluster hits table).

The rules ("Infantry Attacks", "Weapon Damage") resolve an attack in two rolls:

* the **attack roll**, 2D6 against the target number (gunnery skill + movement + terrain +
  range bracket: +0 short, +2 medium, +4 long, +6 extreme); at or above it the attack hits;
* the **cluster roll**, 2D6 read in the cluster hits table (the BattleTech table, see
  ``../shared/reference/cluster-hits.md``) in the column of the attack value: the number of
  damage points, one trooper hit per point against conventional infantry.

Options the rules give, all computed exactly (fractions) here:

* **margin of success / failure** (advanced rule): each point by which the attack roll beats
  the target number adds 2 to the cluster roll, each point it misses by subtracts 2; the attack
  still hits unless the cluster roll ends at 1 or less. Readings: a cluster roll above 12 is
  read in the 12 row (the table has no higher row);
* **terrain** ("In the Open", "Light Cover", "Dug In"): damage points ×2 in the open, as rolled
  in light cover, halved (rounded down) dug in. Reading: the factor applies to the damage points
  read from the table (the alternative, doubling the attack value before the table, would give
  a different column);
* **burst fire**: against infantry in the open only, a platoon's support attack gains the burst
  dice as extra attack value (with a single burst weapon, half the roll, rounded down).

Attack values the table lacks (31-39, above 40) are split into columns it has, all read with
the same cluster roll: 35 = 30 + 5, 47 = 40 + 7.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...dice import Dice, Distribution, mixture, point

#: The cluster hits table: attack value -> damage points for cluster rolls 2..12.
CLUSTER: dict[int, tuple[int, ...]] = {
    1: (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
    2: (1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2),
    3: (1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3),
    4: (1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4),
    5: (1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5),
    6: (2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6),
    7: (2, 2, 3, 4, 4, 4, 4, 6, 6, 7, 7),
    8: (2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8),
    9: (3, 3, 4, 5, 5, 5, 5, 7, 7, 9, 9),
    10: (3, 3, 4, 6, 6, 6, 6, 8, 8, 10, 10),
    11: (4, 4, 5, 7, 7, 7, 7, 9, 9, 11, 11),
    12: (4, 4, 5, 8, 8, 8, 8, 10, 10, 12, 12),
    13: (4, 4, 5, 8, 8, 8, 8, 11, 11, 13, 13),
    14: (5, 5, 6, 9, 9, 9, 9, 11, 11, 14, 14),
    15: (5, 5, 6, 9, 9, 9, 9, 12, 12, 15, 15),
    16: (5, 5, 7, 10, 10, 10, 10, 13, 13, 16, 16),
    17: (5, 5, 7, 10, 10, 10, 10, 14, 14, 17, 17),
    18: (6, 6, 8, 11, 11, 11, 11, 14, 14, 18, 18),
    19: (6, 6, 8, 11, 11, 11, 11, 15, 15, 19, 19),
    20: (6, 6, 9, 12, 12, 12, 12, 16, 16, 20, 20),
    21: (7, 7, 9, 13, 13, 13, 13, 17, 17, 21, 21),
    22: (7, 7, 9, 14, 14, 14, 14, 18, 18, 22, 22),
    23: (7, 7, 10, 15, 15, 15, 15, 19, 19, 23, 23),
    24: (8, 8, 10, 16, 16, 16, 16, 20, 20, 24, 24),
    25: (8, 8, 10, 16, 16, 16, 16, 21, 21, 25, 25),
    26: (9, 9, 11, 17, 17, 17, 17, 21, 21, 26, 26),
    27: (9, 9, 11, 17, 17, 17, 17, 22, 22, 27, 27),
    28: (9, 9, 11, 17, 17, 17, 17, 23, 23, 28, 28),
    29: (10, 10, 12, 18, 18, 18, 18, 23, 23, 29, 29),
    30: (10, 10, 12, 18, 18, 18, 18, 24, 24, 30, 30),
    40: (12, 12, 18, 24, 24, 24, 24, 32, 32, 40, 40),
}

TWO_D6: Distribution = Dice(2, 6).distribution()

#: Range brackets and their target-number modifiers ("Target Number").
RANGE_BRACKETS: tuple[tuple[str, int], ...] = (
    ("short", 0),
    ("medium", 2),
    ("long", 4),
    ("extreme", 6),
)

TERRAINS = ("open", "light-cover", "dug-in")
TERRAIN_LABELS = {"open": "in the open", "light-cover": "in light cover", "dug-in": "dug in"}


@lru_cache(maxsize=512)
def columns(av: int) -> tuple[int, ...]:
    """The cluster-table columns an attack value is read in (see the module's readings)."""
    out: list[int] = []
    while av > 40:
        out.append(40)
        av -= 40
    if av in CLUSTER:
        out.append(av)
    elif av > 30:
        out += [30, av - 30]
    return tuple(c for c in out if c > 0)


@lru_cache(maxsize=8192)
def cluster_hits(av: int, roll: int) -> int:
    """Damage points for an attack value and a cluster roll (2..12; above 12 reads 12)."""
    if av <= 0 or roll <= 1:
        return 0
    row = min(roll, 12) - 2
    return sum(CLUSTER[c][row] for c in columns(av))


@lru_cache(maxsize=64)
def to_hit(tn: int) -> Fraction:
    """P(2D6 >= tn)."""
    return _exact_sum(p for t, p in TWO_D6.items() if t >= tn)


def _exact_sum(ps: Iterable[Fraction]) -> Fraction:
    """The exact sum of fractions, over their least common denominator at once (what
    ``sum(..., Fraction(0))`` gives, without reducing after each addition)."""
    got = list(ps)
    if not got:
        return Fraction(0)
    den = math.lcm(*(p.denominator for p in got))
    return Fraction(sum(p.numerator * (den // p.denominator) for p in got), den)


def _terrain(points: int, terrain: str) -> int:
    if terrain == "open":
        return points * 2
    if terrain == "dug-in":
        return points // 2
    return points


@dataclass(frozen=True)
class Burst:
    """A platoon's burst-fire bonus: the dice, halved when it has a single burst weapon."""

    dice: Dice
    half: bool = False

    def distribution(self) -> Distribution:
        d = self.dice.distribution()
        if not self.half:
            return {max(k, 0): p for k, p in d.items()}
        return mixture([(p, point(max(k, 0) // 2)) for k, p in d.items()])

    def text(self) -> str:
        return f"{self.dice}÷2" if self.half else str(self.dice)

    @classmethod
    def from_text(cls, text: str) -> Burst:
        """``"1D6"`` or ``"1D6÷2"`` (the platoon's ``av_support`` value)."""
        half = text.endswith("÷2")
        return cls(Dice.from_text(text.removesuffix("÷2")), half)


def _counts(d: Distribution) -> tuple[tuple[int, int], ...]:
    """A distribution as integer weights over a common denominator (fast to combine)."""
    den = 1
    for p in d.values():
        den = den * p.denominator // _gcd(den, p.denominator)
    return tuple((k, int(p * den)) for k, p in d.items())


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


_TWO_D6_W = _counts(TWO_D6)  # weights out of 36


@lru_cache(maxsize=4096)
def _kernel(av: int, shift: int) -> tuple[tuple[int, int], ...]:
    """Damage points for a cluster roll moved by ``shift``, as weights out of 36."""
    out: dict[int, int] = {}
    for roll, w in _TWO_D6_W:
        pts = cluster_hits(av, roll + shift)
        out[pts] = out.get(pts, 0) + w
    return tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def _points(
    av: int, tn: int, mos: bool, extra: tuple[tuple[int, int], ...]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Damage points before terrain, the attack value raised by ``extra`` (burst weights):
    (denominator, ((points, weight), ...))."""
    wsum = sum(w for _, w in extra)
    den = 36 * 36 * wsum
    out: dict[int, int] = {}
    for attack, w_attack in _TWO_D6_W:
        if not mos and attack < tn:
            out[0] = out.get(0, 0) + w_attack * 36 * wsum
            continue
        shift = 2 * (attack - tn) if mos else 0
        for b, w_b in extra:
            w_ab = w_attack * w_b
            for pts, w in _kernel(av + b, shift):
                out[pts] = out.get(pts, 0) + w_ab * w
    return den, tuple(sorted(out.items()))


@lru_cache(maxsize=4096)
def damage(
    av: int,
    tn: int,
    mos: bool = False,
    terrain: str = "light-cover",
    burst: Burst | None = None,
) -> Distribution:
    """The exact distribution of damage points (troopers hit) of one attack."""
    if av <= 0:
        return point(0)
    extra = _counts(burst.distribution()) if burst is not None and terrain == "open" else ((0, 1),)
    den, weights = _points(av, tn, mos, extra)
    out: dict[int, int] = {}
    for pts, w in weights:
        k = _terrain(pts, terrain)
        out[k] = out.get(k, 0) + w
    return {k: Fraction(w, den) for k, w in sorted(out.items())}


def incapacitated(points: int, track: tuple[int, ...]) -> int:
    """Troopers put out of action by ``points`` damage applied left to right along a damage
    track (the hits each trooper takes, support-weapon troopers last)."""
    down = 0
    for hits in track:
        if points < hits:
            break
        points -= hits
        down += 1
    return down


@lru_cache(maxsize=4096)
def casualties(dist_key: tuple[tuple[int, Fraction], ...], track: tuple[int, ...]) -> Distribution:
    """Troopers out of action in a platoon with ``track``, from a damage distribution."""
    out: Distribution = {}
    for pts, p in dist_key:
        k = incapacitated(pts, track)
        out[k] = out.get(k, Fraction(0)) + p
    return dict(sorted(out.items()))


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def frac(p: Fraction) -> str:
    """``11/12 (91.7%)``."""
    return f"{p} ({pct(p)})"


def dist_json(d: Distribution) -> dict[str, str]:
    return {str(k): str(p) for k, p in d.items()}


def avg(d: Distribution) -> str:
    """The mean, to two decimals (computed in floating point: it is only displayed)."""
    # p.numerator / p.denominator is what float(p) computes, without its two calls
    return f"{sum(k * (p.numerator / p.denominator) for k, p in d.items()):.2f}"


def avg_if_hit(d: Distribution) -> str:
    """The mean of the outcomes above 0 (the troopers hit when the attack hits), to two
    decimals; ``"0"`` when it cannot hit."""
    hit = _exact_sum(p for k, p in d.items() if k > 0)
    if not hit:
        return "0"
    mean = sum(k * (p.numerator / p.denominator) for k, p in d.items() if k > 0)
    return f"{mean / float(hit):.2f}"


def at_least(d: Distribution, k: int) -> Fraction:
    """P(X >= k), exact."""
    below = _exact_sum(p for x, p in d.items() if x < k)
    return 1 - below


def gunnery_number(text: str) -> int | None:
    """The gunnery skill as a number (``"6-7"``: the first, the better skill)."""
    head = str(text).split("-")[0].strip()
    return int(head) if head.isdigit() else None


# --------------------------------------------------------------------------- computed values

SRC = "Infantry Operations"


@lru_cache(maxsize=64)
def to_hit_value(gunnery: int) -> tuple[dict[str, Any], str]:
    """The chance to hit at each range bracket, from a gunnery skill (stationary targets, no
    other modifiers): the platoon's ``to_hit`` computed value and its text."""
    value: dict[str, Any] = {
        # every target number a modifier can make (2D6: 2 always hits, 13 never does)
        "by_tn": {str(tn): str(to_hit(tn)) for tn in range(2, 14)},
    }
    parts: list[str] = []
    for bracket, mod in RANGE_BRACKETS:
        tn = gunnery + mod
        p = to_hit(tn)
        value[bracket] = {"tn": tn, "p": str(p), "percent": round(float(p) * 100, 1)}
        parts.append(f"{bracket} TN {tn}: {frac(p)}")
    return value, "; ".join(parts)


@lru_cache(maxsize=2048)
def attack_value_odds(
    av: int, gunnery: int, burst: Burst | None = None, melee: bool = False
) -> tuple[dict[str, Any], str]:
    """One attack value's odds at every range bracket: troopers hit (damage points) in light
    cover, by the standard rules and with margin of success, and in the open at short range
    (with any burst fire). Dug in is each light-cover outcome halved, rounded down; the
    other terrains and the troopers put out of action come with ``show --against`` (kept
    out of every evaluation: they are costly). Shared; do not mutate."""
    brackets: dict[str, Any] = {}
    parts: list[str] = []
    mos_parts: list[str] = []
    # Melee attacks happen only at range 0 ("Infantry Attacks"): no range modifier.
    for bracket, mod in (("range 0", 0),) if melee else RANGE_BRACKETS:
        tn = gunnery + mod
        light = damage(av, tn, False, "light-cover", burst)
        mos_light = damage(av, tn, True, "light-cover", burst)
        # each mean worked out once: the value and the text print the same one
        light_avg, mos_avg = avg(light), avg(mos_light)
        brackets[bracket] = {
            "tn": tn,
            "hit": str(to_hit(tn)),
            "standard": {
                "troopers_hit": dist_json(light),
                "expected": light_avg,
                "if_hit": avg_if_hit(light),
            },
            "margin_of_success": {
                "troopers_hit": dist_json(mos_light),
                "expected": mos_avg,
                "if_hit": avg_if_hit(mos_light),
                "hit": str(1 - mos_light.get(0, Fraction(0))),
            },
        }
        parts.append(f"{bracket} (TN {tn}) avg {light_avg}, ≥1 {pct(at_least(light, 1))}")
        mos_parts.append(f"{bracket} avg {mos_avg}")
    value: dict[str, Any] = {
        "av": av,
        "gunnery": gunnery,
        "burst": burst.text() if burst is not None else None,
        "brackets": brackets,
    }
    short = gunnery + RANGE_BRACKETS[0][1]
    open_d = damage(av, short, False, "open", burst)
    open_avg = avg(open_d)
    value["open_short"] = {
        "troopers_hit": dist_json(open_d),
        "expected": open_avg,
        "if_hit": avg_if_hit(open_d),
    }
    # the cluster table's column for this AV (rolls 2..12) and each roll's chance on 2D6
    value["cluster"] = [cluster_hits(av, r) for r in range(2, 13)]
    value["cluster_roll"] = [str(TWO_D6[r]) for r in range(2, 13)]
    text = (
        f"AV {av}, troopers hit in light cover: "
        + "; ".join(parts)
        + "; with margin of success: "
        + ", ".join(mos_parts)
        + f"; in the open ×2{' with burst ' + burst.text() if burst else ''}: "
        f"short avg {open_avg}"
    )
    return value, text


@lru_cache(maxsize=1024)
def matchup_odds(
    av: int, gunnery: int, track: tuple[int, ...], burst: Burst | None = None
) -> tuple[dict[str, Any], str]:
    """One attack at short range (TN = gunnery) on a platoon with damage track ``track``:
    troopers out of action in each terrain, standard rules and margin of success."""
    tn = gunnery
    value: dict[str, Any] = {
        "av": av,
        "tn": tn,
        "hit": str(to_hit(tn)),
        "troopers": len(track),
        "burst": burst.text() if burst is not None else None,
    }
    parts: list[str] = []
    for rule, mos in (("standard", False), ("margin_of_success", True)):
        block: dict[str, Any] = {}
        for t in TERRAINS:
            pts = damage(av, tn, mos, t, burst)
            down = casualties(tuple(pts.items()), track)
            block[t] = {
                "damage_points": dist_json(pts),
                "out_of_action": dist_json(down),
                "expected": avg(down),
                "all": str(at_least(down, len(track))) if track else "0",
            }
            if not mos:
                parts.append(f"{TERRAIN_LABELS[t]} avg {avg(down)} (≥1 {pct(at_least(down, 1))})")
        value[rule] = block
    mos_light = value["margin_of_success"]["light-cover"]["expected"]
    text = (
        f"AV {av}, TN {tn} (short range): hits {frac(to_hit(tn))}; troopers out of action "
        f"of {len(track)}: " + "; ".join(parts) + f"; with margin of success in light cover "
        f"avg {mos_light}"
    )
    return value, text
