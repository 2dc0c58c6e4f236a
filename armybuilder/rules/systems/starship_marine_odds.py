"""Starship Marine: the exact odds of fire (3.5), grenades (3.6), APGW (3.5, 3.10), combat
robot damage (3.7) and hand to hand combat (3.15).

Readings (also in ``docs/systems/starship-marine.md``):

* the d10 reads 0-9 ("0 = 0"), so a score of N or more comes up (10 - N) times in 10; a table
  score of 11 cannot be reached without a favourable factor;
* secondary hits (3.5): a roll that is an exact multiple of the score needed (8 when 4 is
  needed) scores that many hits, the designated target included; 0 is never a hit;
* a grenade that is not a 'Good Throw' is a 'Normal Throw' (3.6);
* the odds are the base table's: situation factors (concealment, moving non-tactically,
  bunching, ECM) and experience classes (4.7) are not applied.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...dice import Distribution

SRC = "Starship Marine"

#: Table 3.5: weapon row -> scores needed for (range, target) in RANGES x TARGETS order.
FIRE_TABLE: dict[str, tuple[int, int, int, int, int, int]] = {
    "SCA I": (4, 6, 7, 9, 8, 11),
    "SCA II": (4, 6, 6, 8, 7, 10),
    "SCA III": (4, 6, 5, 7, 6, 9),
    "APGW": (8, 9, 5, 7, 5, 7),
}
SCA_ROWS = {1: "SCA I", 2: "SCA II", 3: "SCA III"}
RANGES = ("up to 15 cm", "up to 40 cm", "over 40 cm")
SHORT_RANGES = ("≤15 cm", "≤40 cm", ">40 cm")
TARGETS = ("Unarmoured", "Armoured")

#: 3.6: chance of a 'Good Throw' on 1d6, by range and line of sight (None: prohibited).
GOOD_THROW: dict[str, Fraction] = {
    "up to 15 cm": Fraction(1),
    "up to 15 cm, round a corner": Fraction(3, 6),
    "up to 40 cm": Fraction(4, 6),
    "over 40 cm": Fraction(2, 6),
}
#: 3.6 grenade effects: the d10 score needed by target type for a normal / good throw.
GRENADE_EFFECT: dict[str, tuple[int | None, int]] = {
    "Unarmoured": (6, 4),
    "Armoured": (None, 9),
}

#: 3.15 hand to hand additions by kind of figure.
H2H_BONUS = {"marine": 3, "combat robot": 1, "crewman": 0}


def d10_at_least(need: int | None) -> Fraction:
    """P(1d10, read 0-9, scores ``need`` or more)."""
    if need is None:
        return Fraction(0)
    return Fraction(min(max(10 - need, 0), 10), 10)


@lru_cache(maxsize=64)
def fire_hits(need: int) -> Distribution:
    """Hits scored by one shot needing ``need`` (3.5, secondary hits on exact multiples)."""
    out: dict[int, int] = {}
    for face in range(10):
        if need <= 0 or face < need or face == 0:
            hits = 0
        elif face % need == 0:
            hits = face // need
        else:
            hits = 1
        out[hits] = out.get(hits, 0) + 1
    return {k: Fraction(n, 10) for k, n in sorted(out.items())}


def grenade_hit(throw: str, target: str) -> Fraction:
    """The chance that a figure of ``target`` type within 8 cm of the grenade is hit (3.6)."""
    good = GOOD_THROW[throw]
    normal_need, good_need = GRENADE_EFFECT[target]
    return good * d10_at_least(good_need) + (1 - good) * d10_at_least(normal_need)


@lru_cache(maxsize=64)
def hand_to_hand(bonus: int, other: int) -> tuple[Fraction, Fraction, Fraction]:
    """(win, inconclusive, lose) for a figure with ``bonus`` against one with ``other``: both
    roll 1d10 and add; the higher wins, equal is inconclusive (3.15)."""
    win = tie = 0
    for a in range(10):
        for b in range(10):
            if a + bonus > b + other:
                win += 1
            elif a + bonus == b + other:
                tie += 1
    return Fraction(win, 100), Fraction(tie, 100), Fraction(100 - win - tie, 100)


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def frac(p: Fraction) -> str:
    if p == 0:
        return "0 (never)"
    if p == 1:
        return "1 (certain)"
    return f"{p} ({pct(p)})"


@lru_cache(maxsize=16)
def fire_value(row: str) -> tuple[dict[str, Any], str]:
    """A weapon row of table 3.5 as a computed value: the chance one shot hits, by range
    and target type, with the secondary hits of exact multiples."""
    needs = FIRE_TABLE[row]
    value: dict[str, Any] = {"weapon": row}
    parts: list[str] = []
    for i, rng in enumerate(RANGES):
        block: dict[str, Any] = {}
        texts: list[str] = []
        for j, target in enumerate(TARGETS):
            need = needs[2 * i + j]
            hits = fire_hits(need)
            block[target] = {
                "need": need,
                "hit": str(d10_at_least(need)),
                "hits": {str(k): str(p) for k, p in hits.items()},
            }
            extra = [k for k in hits if k > 1]
            more = f", {max(extra)} hits on a roll of {need * max(extra)}" if extra else ""
            texts.append(f"{target.lower()} {need}+ {frac(d10_at_least(need))}{more}")
        value[rng] = block
        parts.append(f"{SHORT_RANGES[i]}: " + ", ".join(texts))
    return value, f"{row}, one shot hits (1d10) " + "; ".join(parts)


@lru_cache(maxsize=1)
def grenade_value() -> tuple[dict[str, Any], str]:
    value: dict[str, Any] = {}
    parts: list[str] = []
    for throw in GOOD_THROW:
        block = {t: str(grenade_hit(throw, t)) for t in TARGETS}
        value[throw] = {"good_throw": str(GOOD_THROW[throw]), **block}
        parts.append(
            f"{throw}: unarmoured {frac(grenade_hit(throw, 'Unarmoured'))}, "
            f"armoured {frac(grenade_hit(throw, 'Armoured'))}"
        )
    return value, "a figure within 8 cm is hit — " + "; ".join(parts)


@lru_cache(maxsize=8)
def hand_to_hand_value(kind: str) -> tuple[dict[str, Any], str]:
    bonus = H2H_BONUS[kind]
    value: dict[str, Any] = {"bonus": bonus}
    parts: list[str] = []
    for other, ob in H2H_BONUS.items():
        win, tie, lose = hand_to_hand(bonus, ob)
        value[other] = {"win": str(win), "inconclusive": str(tie), "lose": str(lose)}
        parts.append(f"vs {other}: wins {frac(win)}, draws {pct(tie)}, loses {pct(lose)}")
    return value, f"+{bonus}: " + "; ".join(parts) + " (unarmed, surprised, outnumbered: less)"


ROBOT_DAMAGE = {
    "no firing": Fraction(2, 6),
    "immobilised": Fraction(3, 6),
    "destroyed": Fraction(1, 6),
}


def _who(kind: str) -> tuple[str, str]:
    name, _, column = kind.partition("|")
    return name, column


def _h2h_name(name: str) -> str:
    """An armoured robot is a combat robot in hand to hand combat (3.7, 3.15)."""
    return "combat robot" if name == "armoured robot" else name


@lru_cache(maxsize=256)
def fire_against(
    row: str, firers: int, kinds: tuple[tuple[str, int], ...]
) -> tuple[dict[str, Any], str]:
    """One shot of ``row`` at each kind of figure of a target: the chance it hits, by range,
    and what a hit does (a combat robot needs two, or a lucky first: 3.7)."""
    needs = FIRE_TABLE[row]
    value: dict[str, Any] = {"weapon": row, "firers": firers, "targets": {}}
    parts: list[str] = []
    for kind, n in kinds:
        name, column = _who(kind)
        j = TARGETS.index(column)
        per: dict[str, str] = {}
        texts: list[str] = []
        for i, rng in enumerate(RANGES):
            p = d10_at_least(needs[2 * i + j])
            per[rng] = str(p)
            texts.append(f"{SHORT_RANGES[i]} {frac(p)}")
        block: dict[str, Any] = {"figures": n, "column": column, "hit": per}
        note = ""
        if name == "combat robot":
            short = d10_at_least(needs[j])
            block["destroyed_by_one_shot"] = {
                rng: str(Fraction(per[rng]) * ROBOT_DAMAGE["destroyed"]) for rng in RANGES
            }
            note = f" (two hits destroy it; one shot at ≤15 cm destroys it {frac(short / 6)})"
        value["targets"][f"{name} ({column.lower()})"] = block
        parts.append(f"{name} ({column.lower()}, {n}): " + ", ".join(texts) + note)
    return value, f"{firers} firing, one shot hits: " + "; ".join(parts)


@lru_cache(maxsize=64)
def grenades_against(
    throwers: int, kinds: tuple[tuple[str, int], ...]
) -> tuple[dict[str, Any], str]:
    value: dict[str, Any] = {"throwers": throwers, "targets": {}}
    parts: list[str] = []
    for kind, n in kinds:
        name, column = _who(kind)
        per = {t: str(grenade_hit(t, column)) for t in GOOD_THROW}
        value["targets"][f"{name} ({column.lower()})"] = {
            "figures": n,
            "column": column,
            "hit": per,
        }
        parts.append(
            f"{name} ({column.lower()}): "
            + ", ".join(f"{t} {frac(grenade_hit(t, column))}" for t in GOOD_THROW)
        )
    return value, f"{throwers} can throw; a figure within 8 cm is hit: " + "; ".join(parts)


@lru_cache(maxsize=64)
def h2h_against(
    mine: tuple[tuple[str, int], ...], kinds: tuple[tuple[str, int], ...]
) -> tuple[dict[str, Any], str]:
    value: dict[str, Any] = {}
    parts: list[str] = []
    for my, _ in mine:
        me = _h2h_name(_who(my)[0])
        block: dict[str, Any] = {}
        for kind, _ in kinds:
            them = _h2h_name(_who(kind)[0])
            if them in block:
                continue
            if them not in H2H_BONUS:
                block[them] = {"win": "1", "inconclusive": "0", "lose": "0"}
                parts.append(f"{me} vs {them}: wins 1 (certain: it cannot fight hand to hand)")
                continue
            win, tie, lose = hand_to_hand(H2H_BONUS[me], H2H_BONUS[them])
            block[them] = {"win": str(win), "inconclusive": str(tie), "lose": str(lose)}
            parts.append(f"{me} vs {them}: wins {frac(win)}, draws {pct(tie)}")
        value[me] = block
    return value, "; ".join(parts)
