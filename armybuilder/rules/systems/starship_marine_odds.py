"""Starship Marine: the exact odds of fire (3.5), grenades (3.6), APGW (3.5, 3.10), combat
robot damage (3.7) and hand to hand combat (3.15).

Readings (also in ``docs/systems/starship-marine.md``):

* the d10 reads 0-9 ("0 = 0"), so a score of N or more comes up (10 - N) times in 10; a table
  score of 11 cannot be reached without a favourable factor;
* secondary hits (3.5): a roll that is an exact multiple of the score needed (8 when 4 is
  needed) scores that many hits, the designated target included; 0 is never a hit;
* a grenade that is not a 'Good Throw' is a 'Normal Throw' (3.6);
* a die-roll factor (3.5) is added to the roll; the secondary hits of 3.5 are judged on the
  roll itself ("the score rolled on the die"), a 0 never hits;
* the figure's own factors are applied (:class:`Factors`: its experience class, 4.7, and
  fighting wounded, 4.6, read from the catalog); situation factors (concealment, moving
  non-tactically, bunching, ECM) are listed on the sheet but not applied;
* a grenade accuracy factor moves the 1d6 'Good Throw' roll; an automatic Good Throw (up to
  15 cm in sight) takes no roll and stays automatic; the 1d10 effect roll of each figure in
  the blast is not the thrower's roll and takes no factor.
"""

from __future__ import annotations

from dataclasses import dataclass
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

#: 3.6: the 1d6 score for a 'Good Throw', by range and line of sight (1: automatic), and
#: the same throw out of sight (None: prohibited), which is how a wounded marine throws (4.6).
GOOD_THROW_NEED: dict[str, tuple[int, int | None]] = {
    "up to 15 cm": (1, 4),
    "up to 15 cm, round a corner": (4, 4),
    "up to 40 cm": (3, None),
    "over 40 cm": (5, None),
}


@dataclass(frozen=True)
class Factors:
    """The die-roll factors a figure brings to its own rolls and to fire at it: its
    experience class (4.7) and fighting wounded (4.6), read from the catalog's data."""

    fire: int = 0  # SCA direct fire (3.5)
    apgw: int = 0  # APGW it fires (3.5, 3.10)
    grenade: int = 0  # the grenade accuracy (Good Throw) roll (3.6)
    hand_to_hand: int = 0  # its 1d10 in hand to hand combat (3.15)
    incoming: int = 0  # fire at this figure (a Veteran is always a disappearing target)
    out_of_sight: bool = False  # every grenade counts as thrown out of sight (4.6)
    non_combatant: bool = False  # a Raw non-marine (4.7)
    names: tuple[str, ...] = ()  # what gives them: "Novice", "wounded"

    @classmethod
    def from_data(cls, data: Any, name: str) -> Factors:
        """``{fire: -1, grenade: -1, ...}`` from the catalog (raises on a malformed entry)."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise TypeError(f"modifiers must be a mapping, not {data!r}")
        known = {"fire", "apgw", "grenade", "hand_to_hand", "incoming"}
        flags = {"out_of_sight", "non_combatant"}
        for k, v in data.items():
            if k in known and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"modifier {k}: {v!r} is not a whole number")
            if k in flags and not isinstance(v, bool):
                raise TypeError(f"modifier {k}: {v!r} is not true or false")
            if k not in known | flags:
                raise ValueError(
                    f"unknown modifier {k!r} (known: {', '.join(sorted(known | flags))})"
                )
        f = cls(**{k: v for k, v in data.items()})
        return f if f == cls() else cls(**{**data, "names": (name,)})

    def __add__(self, other: Factors) -> Factors:
        return Factors(
            self.fire + other.fire,
            self.apgw + other.apgw,
            self.grenade + other.grenade,
            self.hand_to_hand + other.hand_to_hand,
            self.incoming + other.incoming,
            self.out_of_sight or other.out_of_sight,
            self.non_combatant or other.non_combatant,
            self.names + other.names,
        )

    @property
    def slug(self) -> str:
        """``novice``, ``veteran-wounded``: the suffix of an odds key (empty at the baseline)."""
        return "-".join(n.lower().replace(" ", "-") for n in self.names)

    def row(self, row: str) -> int:
        """The factor on the fire table row ``row`` (APGW, or an SCA row)."""
        return self.apgw if row == "APGW" else self.fire

    def describe(self) -> list[str]:
        """The factors in words, for the sheet and ``show``."""
        out = []
        for label, v in (
            ("SCA fire", self.fire),
            ("APGW", self.apgw),
            ("grenade accuracy", self.grenade),
            ("hand to hand", self.hand_to_hand),
            ("fire at him", self.incoming),
        ):
            if v:
                out.append(f"{label} {v:+d}")
        if self.out_of_sight:
            out.append("grenades as out of sight")
        if self.non_combatant:
            out.append("non-combatant")
        return out


BASE = Factors()


def good_throw(throw: str, factor: int = 0, out_of_sight: bool = False) -> Fraction | None:
    """The chance of a 'Good Throw' (3.6) with ``factor`` on the 1d6; ``None``: prohibited."""
    in_sight, corner = GOOD_THROW_NEED[throw]
    need = corner if out_of_sight else in_sight
    if need is None:
        return None
    if need <= 1:
        return Fraction(1)
    return Fraction(min(max(7 - (need - factor), 0), 6), 6)


#: 3.6: chance of a 'Good Throw' on 1d6 with no factor, by range and line of sight.
GOOD_THROW: dict[str, Fraction] = {
    t: p for t in GOOD_THROW_NEED if (p := good_throw(t)) is not None
}
#: 3.6 grenade effects: the d10 score needed by target type for a normal / good throw.
GRENADE_EFFECT: dict[str, tuple[int | None, int]] = {
    "Unarmoured": (6, 4),
    "Armoured": (None, 9),
}

#: 3.15 hand to hand additions by kind of figure.
H2H_BONUS = {"marine": 3, "combat robot": 1, "crewman": 0}


def d10_at_least(need: int | None, factor: int = 0) -> Fraction:
    """P(1d10, read 0-9, plus ``factor`` scores ``need`` or more; a 0 rolled never hits)."""
    if need is None:
        return Fraction(0)
    if not factor:
        return Fraction(min(max(10 - need, 0), 10), 10)
    return 1 - fire_hits(need, factor).get(0, Fraction(0))


@lru_cache(maxsize=256)
def fire_hits(need: int, factor: int = 0) -> Distribution:
    """Hits scored by one shot needing ``need`` with ``factor`` added to the roll (3.5): a
    hit when the modified score reaches ``need``; a roll that is itself an exact multiple of
    ``need`` scores that many hits (secondary hits)."""
    out: dict[int, int] = {}
    for face in range(10):
        if need <= 0 or face + factor < need or face == 0:
            hits = 0
        elif face % need == 0:
            hits = face // need
        else:
            hits = 1
        out[hits] = out.get(hits, 0) + 1
    return {k: Fraction(n, 10) for k, n in sorted(out.items())}


def grenade_hit(
    throw: str, target: str, factor: int = 0, out_of_sight: bool = False
) -> Fraction | None:
    """The chance that a figure of ``target`` type within 8 cm of the grenade is hit (3.6),
    with ``factor`` on the thrower's accuracy roll; ``None``: the throw is prohibited."""
    good = good_throw(throw, factor, out_of_sight)
    if good is None:
        return None
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


def frac(p: Fraction | None) -> str:
    if p is None:
        return "not allowed"
    if p == 0:
        return "0 (never)"
    if p == 1:
        return "1 (certain)"
    return f"{p} ({pct(p)})"


def _who_text(f: Factors, what: str) -> str:
    """``SCA II (Novice: SCA fire -1)`` for a figure whose factors change ``what``."""
    return f"{what} ({', '.join(f.names)}: {'; '.join(f.describe())})" if f.names else what


@lru_cache(maxsize=64)
def fire_value(row: str, f: Factors = BASE) -> tuple[dict[str, Any], str]:
    """A weapon row of table 3.5 as a computed value: the chance one shot hits, by range
    and target type, with the secondary hits of exact multiples, the figure's own factor
    (4.6, 4.7) added to the roll."""
    needs = FIRE_TABLE[row]
    factor = f.row(row)
    value: dict[str, Any] = {"weapon": row, "factor": factor, "factors": list(f.names)}
    parts: list[str] = []
    for i, rng in enumerate(RANGES):
        block: dict[str, Any] = {}
        texts: list[str] = []
        for j, target in enumerate(TARGETS):
            need = needs[2 * i + j]
            hits = fire_hits(need, factor)
            hit = 1 - hits.get(0, Fraction(0))
            block[target] = {
                "need": need,
                "hit": str(hit),
                "hits": {str(k): str(p) for k, p in hits.items()},
            }
            extra = [k for k in hits if k > 1]
            more = f", {max(extra)} hits on a roll of {need * max(extra)}" if extra else ""
            texts.append(f"{target.lower()} {need}+ {frac(hit)}{more}")
        value[rng] = block
        parts.append(f"{SHORT_RANGES[i]}: " + ", ".join(texts))
    head = _who_text(f, row) if factor else row
    return value, f"{head}, one shot hits (1d10) " + "; ".join(parts)


@lru_cache(maxsize=16)
def grenade_value(f: Factors = BASE) -> tuple[dict[str, Any], str]:
    value: dict[str, Any] = {"factor": f.grenade, "out_of_sight": f.out_of_sight}
    parts: list[str] = []
    for throw in GOOD_THROW_NEED:
        good = good_throw(throw, f.grenade, f.out_of_sight)
        hit = {t: grenade_hit(throw, t, f.grenade, f.out_of_sight) for t in TARGETS}
        value[throw] = {
            "good_throw": None if good is None else str(good),
            **{t: None if p is None else str(p) for t, p in hit.items()},
        }
        if good is None:
            parts.append(f"{throw}: not allowed")
            continue
        parts.append(
            f"{throw}: unarmoured {frac(hit['Unarmoured'])}, armoured {frac(hit['Armoured'])}"
        )
    head = "a figure within 8 cm is hit"
    if f.grenade or f.out_of_sight:
        head = _who_text(f, head)
    return value, head + " — " + "; ".join(parts)


@lru_cache(maxsize=16)
def hand_to_hand_value(kind: str, f: Factors = BASE) -> tuple[dict[str, Any], str]:
    bonus = H2H_BONUS[kind] + f.hand_to_hand
    value: dict[str, Any] = {"bonus": bonus}
    parts: list[str] = []
    for other, ob in H2H_BONUS.items():
        win, tie, lose = hand_to_hand(bonus, ob)
        value[other] = {"win": str(win), "inconclusive": str(tie), "lose": str(lose)}
        parts.append(f"vs {other}: wins {frac(win)}, draws {pct(tie)}, loses {pct(lose)}")
    head = f"{bonus:+d}"
    if f.hand_to_hand:
        head += f" ({', '.join(f.names)} {f.hand_to_hand:+d})"
    return value, f"{head}: " + "; ".join(parts) + " (unarmed, surprised, outnumbered: less)"


ROBOT_DAMAGE = {
    "no firing": Fraction(2, 6),
    "immobilised": Fraction(3, 6),
    "destroyed": Fraction(1, 6),
}


def target_key(name: str, column: str, f: Factors = BASE) -> str:
    """A kind of target figure as ``--against`` counts them: ``marine|Armoured`` and, for a
    figure whose class or wounds change the fire at it or its hand to hand, the factors
    (``marine|Armoured|-1|1|Veteran``)."""
    if not (f.incoming or f.hand_to_hand):
        return f"{name}|{column}"
    return f"{name}|{column}|{f.incoming}|{f.hand_to_hand}|{' '.join(f.names)}"


def _who(kind: str) -> tuple[str, str]:
    name, column, *_ = kind.split("|")
    return name, column


def _kind_factors(kind: str) -> tuple[int, int, str]:
    """(fire at it, its hand to hand factor, what gives them) of a ``target_key``."""
    parts = kind.split("|")
    if len(parts) < 5:
        return 0, 0, ""
    return int(parts[2]), int(parts[3]), parts[4]


def _label(kind: str) -> str:
    name, column = _who(kind)
    why = _kind_factors(kind)[2]
    return f"{name}{' ' + why.lower() if why else ''} ({column.lower()})"


def _h2h_name(name: str) -> str:
    """An armoured robot is a combat robot in hand to hand combat (3.7, 3.15)."""
    return "combat robot" if name == "armoured robot" else name


@lru_cache(maxsize=256)
def fire_against(
    row: str, firers: int, kinds: tuple[tuple[str, int], ...], f: Factors = BASE
) -> tuple[dict[str, Any], str]:
    """One shot of ``row`` at each kind of figure of a target: the chance it hits, by range,
    and what a hit does (a combat robot needs two, or a lucky first: 3.7); the firer's own
    factor and the target's (a Veteran, a wounded marine) are added to the roll."""
    needs = FIRE_TABLE[row]
    mine = f.row(row)
    value: dict[str, Any] = {"weapon": row, "firers": firers, "factor": mine, "targets": {}}
    parts: list[str] = []
    for kind, n in kinds:
        name, column = _who(kind)
        incoming = _kind_factors(kind)[0]
        factor = mine + incoming
        j = TARGETS.index(column)
        per: dict[str, str] = {}
        texts: list[str] = []
        for i, rng in enumerate(RANGES):
            p = d10_at_least(needs[2 * i + j], factor)
            per[rng] = str(p)
            texts.append(f"{SHORT_RANGES[i]} {frac(p)}")
        block: dict[str, Any] = {"figures": n, "column": column, "factor": factor, "hit": per}
        note = ""
        if name == "combat robot":
            short = d10_at_least(needs[j], factor)
            block["destroyed_by_one_shot"] = {
                rng: str(Fraction(per[rng]) * ROBOT_DAMAGE["destroyed"]) for rng in RANGES
            }
            note = f" (two hits destroy it; one shot at ≤15 cm destroys it {frac(short / 6)})"
        value["targets"][_label(kind)] = block
        tag = f", factor {factor:+d}" if factor else ""
        parts.append(f"{_label(kind)[:-1]}, {n}{tag}): " + ", ".join(texts) + note)
    head = f"{firers} firing"
    if mine:
        head += f" ({', '.join(f.names)} {mine:+d})"
    return value, f"{head}, one shot hits: " + "; ".join(parts)


@lru_cache(maxsize=64)
def grenades_against(
    throwers: int, kinds: tuple[tuple[str, int], ...], f: Factors = BASE
) -> tuple[dict[str, Any], str]:
    value: dict[str, Any] = {"throwers": throwers, "factor": f.grenade, "targets": {}}
    parts: list[str] = []
    for kind, n in kinds:
        column = _who(kind)[1]
        per = {t: grenade_hit(t, column, f.grenade, f.out_of_sight) for t in GOOD_THROW_NEED}
        value["targets"][_label(kind)] = {
            "figures": n,
            "column": column,
            "hit": {t: None if p is None else str(p) for t, p in per.items()},
        }
        parts.append(f"{_label(kind)}: " + ", ".join(f"{t} {frac(p)}" for t, p in per.items()))
    head = f"{throwers} can throw"
    if f.grenade or f.out_of_sight:
        head = _who_text(f, head)
    return value, f"{head}; a figure within 8 cm is hit: " + "; ".join(parts)


@lru_cache(maxsize=64)
def h2h_against(
    mine: tuple[tuple[str, int], ...], kinds: tuple[tuple[str, int], ...]
) -> tuple[dict[str, Any], str]:
    value: dict[str, Any] = {}
    parts: list[str] = []
    for my, _ in mine:
        me = _h2h_name(_who(my)[0])
        _, my_bonus, my_why = _kind_factors(my)
        me_label = f"{me} {my_why.lower()}" if my_why and my_bonus else me
        block: dict[str, Any] = value.setdefault(me_label, {})
        for kind, _ in kinds:
            them = _h2h_name(_who(kind)[0])
            _, their_bonus, their_why = _kind_factors(kind)
            them_label = f"{them} {their_why.lower()}" if their_why and their_bonus else them
            if them_label in block:
                continue
            if them not in H2H_BONUS:
                block[them_label] = {"win": "1", "inconclusive": "0", "lose": "0"}
                parts.append(
                    f"{me_label} vs {them_label}: wins 1 (certain: it cannot fight hand to hand)"
                )
                continue
            win, tie, lose = hand_to_hand(H2H_BONUS[me] + my_bonus, H2H_BONUS[them] + their_bonus)
            block[them_label] = {"win": str(win), "inconclusive": str(tie), "lose": str(lose)}
            parts.append(f"{me_label} vs {them_label}: wins {frac(win)}, draws {pct(tie)}")
    return value, "; ".join(parts)
