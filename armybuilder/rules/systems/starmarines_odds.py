"""StarMarines: the exact odds of the Soldier Wounding Table and the Vehicle Damage Table (X).

What the main rules give is what happens once an attack gets through: a soldier rolls a die
on his race's column of the wounding table (Wounded or Dead; a wounded soldier whose armour
is pierced again is dead, IX-B), a vehicle rolls on the damage table (Stunned, Disarmed,
Crippled, Destroyed; Disarmed and Crippled together destroy it, IX-B). The aim, armour-pierce
and toughness steps are in the races' own rule books, not in the text: the odds here start
where the main rules do. A weapon of an AP a vehicle is immune to (IV-g) does nothing to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

SRC = "StarMarines"


def pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def frac(p: Fraction) -> str:
    if p == 0:
        return "0 (never)"
    if p == 1:
        return "1 (certain)"
    return f"{p} ({pct(p)})"


def wounding_odds(column: Sequence[str]) -> dict[str, Fraction]:
    """A race's wounding column (results for rolls 1-6) as the chance of each result."""
    out: dict[str, Fraction] = {}
    for result in column:
        out[result] = out.get(result, Fraction(0)) + Fraction(1, 6)
    return out


@lru_cache(maxsize=64)
def wounding_value(column: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    odds = wounding_odds(column)
    dead = odds.get("Dead", Fraction(0))
    value = {"dead": str(dead), "wounded": str(odds.get("Wounded", Fraction(0)))}
    text = (
        f"a wound roll kills {frac(dead)}, wounds {frac(1 - dead)}; a wounded soldier hit "
        "again is dead"
    )
    return value, text


def damage_odds(results: Mapping[int, str]) -> dict[str, Fraction]:
    """Die roll -> result (the vehicle's own table) as the chance of each result per hit."""
    out: dict[str, Fraction] = {}
    for result in results.values():
        out[result] = out.get(result, Fraction(0)) + Fraction(1, 6)
    return out


def destroyed_within(results: Mapping[int, str], hits: int) -> Fraction | None:
    """The chance that ``hits`` hits destroy the vehicle: a Destroyed result, or Disarmed and
    Crippled both suffered (IX-B). ``None`` when a result leaves the kind open ("Disarmed or
    Crippled": which one is not said)."""
    odds = damage_odds(results)
    if any(" or " in r for r in odds):
        return None
    # states: (disarmed, crippled) -> probability, plus destroyed
    states: dict[tuple[bool, bool], Fraction] = {(False, False): Fraction(1)}
    gone = Fraction(0)
    for _ in range(hits):
        nxt: dict[tuple[bool, bool], Fraction] = {}
        for (dis, cri), p in states.items():
            for result, q in odds.items():
                d, c = dis or result == "Disarmed", cri or result == "Crippled"
                if result == "Destroyed" or (d and c):
                    gone += p * q
                else:
                    nxt[(d, c)] = nxt.get((d, c), Fraction(0)) + p * q
        states = nxt
    return gone


@lru_cache(maxsize=64)
def damage_value(results: tuple[tuple[int, str], ...]) -> tuple[dict[str, Any], str]:
    table = dict(results)
    odds = damage_odds(table)
    value: dict[str, Any] = {"per_hit": {r: str(p) for r, p in odds.items()}}
    text = "one hit: " + ", ".join(f"{r} {frac(p)}" for r, p in odds.items())
    within = {k: destroyed_within(table, k) for k in (1, 2, 3)}
    if all(p is not None for p in within.values()):
        value["destroyed_within"] = {str(k): str(p) for k, p in within.items()}
        text += "; destroyed within " + ", ".join(
            f"{k} hit{'s' if k > 1 else ''} {frac(p)}" for k, p in within.items() if p is not None
        )
    return value, text
