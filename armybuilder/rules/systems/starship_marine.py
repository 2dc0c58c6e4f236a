"""Starship Marine (Streamline, 2005): computed values and checks.

A Starship Marine force is not bought with points: it is a set of formations from a corps'
order of battle (part 5), whose structure the catalog carries (formation entries with `min` /
`max` constraints per kind of figure). What lives here is what structure cannot express:

* **head counts** of every formation and of the whole force, computed from the figures in it:
  marine officers, marine other ranks, non-marines, combat robots, close support robots, TRUCs
  (and clankers, armoured robots) — never copied from the printed summary tables (part 5);
* **morale strength** at the start of a game, as defenders (ship morale, 3.12) and as attackers
  (3.13), with the strengths at which each morale threshold is crossed;
* **ammunition**: the squad issue of grenades and door charges (3.16), APGW missiles per
  launcher (3.18, 4.9), and **logistics**: pallets by type, TRUC capacity, casualty lift
  (3.17, 3.18, 4.8);
* **experience** of every marine and non-marine from the actions recorded in its ``state``
  (``actions``, ``wounds``; 4.7);
* the **equipment and command rules**: SCA II / III need marine armour (2.4), robots cannot use
  grenades (3.6), APGW needs a marine with SCA II / III to call it (2.5, 3.10), a close support
  marine gives up his SCA, grenades and demolition charges (4.9), a squad's privates need an
  officer or NCO (3.3), a squad cannot hold more grenades or door charges than its issue (3.16).

The figures the module reads (morale values, missiles, pallet loads, experience tables,
ammunition scales) come from the catalog: the troop profile of each figure, the ``data`` of
equipment entries and the system file's ``data``. Choices where the text is silent or
contradicts itself are stated where they are made and in ``docs/systems/starship-marine.md``.

:func:`add_standard` adds a formation with its full order of battle (every sub-formation and
figure at the strength its constraints give, equipment as the groups' defaults).
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ...dice import Dice, Distribution, convolve_power, uniform
from ...plugin import CatalogFinding, Matchup, SystemRules
from ..engine import Evaluation, Node
from ..state import DEFAULT_MAXIMUM, StateKey
from .starship_marine_odds import (
    BASE,
    ROBOT_DAMAGE,
    SCA_ROWS,
    Factors,
    fire_against,
    fire_value,
    grenade_value,
    grenades_against,
    h2h_against,
    hand_to_hand_value,
    target_key,
)

if TYPE_CHECKING:
    from ...catalog import CatalogIndex
    from ...model.catalog import Entry, FactionFile, SystemFile
    from ...rosters import Loc, Roster

SRC = "Starship Marine"

# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class ExperienceClass:
    """One row of an experience table (4.7)."""

    id: str
    name: str
    actions: int  # the least number of actions that gives this class
    sticker: str
    effect: str
    #: die-roll factors the class gives (4.7), from the catalog's ``modifiers``
    modifiers: Factors = BASE

    @property
    def sticker_text(self) -> str:
        s = self.sticker.strip()
        return "no sticker" if s.lower() == "no sticker" else f"{s.lower()} sticker"


@dataclass(frozen=True)
class Threshold:
    """A morale threshold: strength below ``below`` percent of the start brings ``factor``."""

    below: int
    factor: int


@dataclass(frozen=True)
class Tables:
    """The system-wide figures of the rules, read from ``system.yaml``'s ``data``."""

    marine_classes: tuple[ExperienceClass, ...]
    non_marine_classes: tuple[ExperienceClass, ...]
    baseline: str  # the class id every figure has without the campaign rules (4.7)
    wounded_action_counts: int
    grenades_per_man: int
    door_charges_per_marine: int
    truc_pallets: int
    truc_casualties: int
    ship_thresholds: tuple[Threshold, ...]
    attacker_thresholds: tuple[Threshold, ...]
    campaign: CampaignTables | None = None  # part 4's tables, when the catalog gives them

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tables:
        """Read the tables (raises ``KeyError`` / ``TypeError`` / ``ValueError`` when malformed;
        :meth:`StarshipMarine.check_catalog` reports those with their location)."""
        exp = data["experience"]
        ammo = data["ammunition"]
        logs = data["logistics"]
        morale = data["morale"]
        marine, non_marine = _classes(exp["marine"]), _classes(exp["non-marine"])
        baseline = str(exp.get("baseline", "experienced"))
        for table in (marine, non_marine):
            if not any(c.id == baseline for c in table):
                raise ValueError(f"the baseline class {baseline!r} is not in every table")
        return cls(
            marine_classes=marine,
            non_marine_classes=non_marine,
            baseline=baseline,
            wounded_action_counts=_whole(exp["wounded_action_counts"]),
            grenades_per_man=_whole(ammo["grenades_per_man"]),
            door_charges_per_marine=_whole(ammo["door_charges_per_marine"]),
            truc_pallets=_whole(logs["truc_pallets"]),
            truc_casualties=_whole(logs["truc_casualties"]),
            ship_thresholds=_thresholds(morale["ship"]["thresholds"]),
            attacker_thresholds=_thresholds(morale["attacker"]["thresholds"]),
            campaign=CampaignTables.from_data(data["campaign"]) if "campaign" in data else None,
        )

    def classes(self, kind: str) -> tuple[ExperienceClass, ...]:
        return self.marine_classes if kind == "marine" else self.non_marine_classes

    def baseline_class(self, kind: str) -> ExperienceClass:
        """The class a figure of this kind has when the campaign rules are not played."""
        return next(c for c in self.classes(kind) if c.id == self.baseline)


#: (result, the 1d6 rolls giving it in each column), a table's rows in order
Rows = tuple[tuple[str, dict[str, tuple[int, ...]]], ...]


def _d6_rows(rows: Any, columns: Sequence[str], what: str) -> Rows:
    """Rows of a 1d6 table; every column must give each roll 1-6 exactly once."""
    if not isinstance(rows, list) or not rows:
        raise ValueError(f"{what}: a non-empty list of rows is needed")
    out = []
    for r in rows:
        rolls = {c: tuple(_whole(x) for x in r[c]) for c in columns}
        out.append((str(r["result"]), rolls))
    for c in columns:
        got = sorted(x for _, rolls in out for x in rolls[c])
        if got != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"{what}, column {c}: the rolls must be 1 to 6 once each, not {got}")
    return tuple(out)


def d6_outcomes(rows: Rows, column: str) -> dict[str, Fraction]:
    """The exact chance of each result of a 1d6 table column (results in table order)."""
    return {name: Fraction(len(rolls[column]), 6) for name, rolls in rows if rolls[column]}


KILLED, SERIOUS = "Killed", "Serious wound"


@dataclass(frozen=True)
class CampaignTables:
    """The campaign tables of part 4 (4.3 - 4.6), read from ``data.campaign``."""

    casualties: dict[str, Rows]  # by what the casualty wears; columns atmosphere / vacuum
    hospital: Rows  # columns killed / serious
    equipment: Rows  # columns: marine-armour, spacesuit, combat-robot, close-support-robot
    recovery: Dice
    fight_below: int
    wounded_effects: str
    #: die-roll factors of a marine fighting wounded (4.6), from ``wounded_modifiers``
    wounded: Factors = BASE

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> CampaignTables:
        cas = data["casualties"]
        tables = {
            k: _d6_rows(v, ("atmosphere", "vacuum"), f"casualties {k}")
            for k, v in cas.items()
            if k != "source"
        }
        equipment = data["lost_equipment"]["rows"]
        columns = [k for k in equipment[0] if k != "result"] if equipment else []
        return cls(
            casualties=tables,
            hospital=_d6_rows(data["hospital_ship"]["rows"], ("killed", "serious"), "hospital"),
            equipment=_d6_rows(equipment, columns, "lost equipment"),
            recovery=Dice.from_text(str(data["recovery_dice"])),
            fight_below=_whole(data["fight_below_days"]),
            wounded_effects=str(data["wounded_effects"]),
            wounded=Factors.from_data(data.get("wounded_modifiers"), "wounded"),
        )

    def casualty(self, table: str, where: str, hospital: bool = False) -> dict[str, Fraction]:
        """What becomes of a casualty (4.3), in ``where`` (atmosphere / vacuum); with
        ``hospital``, the killed and seriously wounded roll again on the hospital ship table
        (4.5)."""
        first = d6_outcomes(self.casualties[table], where)
        if not hospital:
            return first
        out: dict[str, Fraction] = {}
        for name, p in first.items():
            column = {KILLED: "killed", SERIOUS: "serious"}.get(name)
            if column is None:
                out[name] = out.get(name, Fraction(0)) + p
                continue
            for result, q in d6_outcomes(self.hospital, column).items():
                out[result] = out.get(result, Fraction(0)) + p * q
        return out

    def recovery_days(self) -> Distribution:
        """Days a minor wound keeps a casualty out: the dice summed, a d10 reading 0 to 9
        (3.0: zero is zero)."""
        d = self.recovery
        start = 0 if d.sides == 10 else 1
        dist = convolve_power(uniform(d.sides, start), d.count)
        return {k + d.modifier: p for k, p in dist.items()}


def odds_text(odds: Mapping[str, Fraction]) -> str:
    """``{"No injury": 1/6, ...}`` -> ``no injury 1/6, just a scratch 1/3, ...``."""
    return ", ".join(f"{name[:1].lower()}{name[1:]} {p}" for name, p in odds.items())


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _classes(rows: Any) -> tuple[ExperienceClass, ...]:
    if not isinstance(rows, list) or not rows:
        raise ValueError("an experience table must be a non-empty list of classes")
    out = tuple(
        ExperienceClass(
            str(r["id"]),
            str(r["name"]),
            _whole(r["actions"]),
            str(r["sticker"]),
            str(r["effect"]),
            Factors.from_data(r.get("modifiers"), str(r["name"])),
        )
        for r in rows
    )
    if out[0].actions != 0:
        raise ValueError("the first experience class must start at 0 actions")
    if any(b.actions <= a.actions for a, b in pairwise(out)):
        raise ValueError("experience classes must be listed by rising number of actions")
    return out


def _thresholds(rows: Any) -> tuple[Threshold, ...]:
    if not isinstance(rows, list) or not rows:
        raise ValueError("morale thresholds must be a non-empty list")
    return tuple(Threshold(_whole(r["below"]), _whole(r["factor"])) for r in rows)


# --------------------------------------------------------------------------- pure rules


def counted_actions(actions: int, wounds: int, wounded_counts: int = 2) -> int:
    """Actions that count towards experience (4.7).

    ``actions`` is every action the figure fought, ``wounds`` the number of those actions in
    which it was wounded; each of these counts ``wounded_counts`` (2) times instead of once. A
    wound is always taken in an action, so at least ``wounds`` actions were fought.
    """
    fought = max(actions, wounds)
    return fought + wounds * (wounded_counts - 1)


def experience_class(classes: Sequence[ExperienceClass], actions: int) -> ExperienceClass:
    """The class reached with ``actions`` counted actions (the table's last row not above)."""
    found = classes[0]
    for c in classes:
        if actions >= c.actions:
            found = c
    return found


def below_threshold(strength: int, percent: int) -> int | None:
    """The largest whole morale strength that is *below* ``percent``% of ``strength``.

    Falling to this strength (or lower) crosses the threshold. ``None`` when no strength can
    be below it (a start strength of 0).
    """
    scaled = strength * percent  # compare 100 * current < strength * percent, exactly
    best = (scaled - 1) // 100 if scaled > 0 else -1
    return best if best >= 0 else None


def thresholds_text(strength: int, thresholds: Sequence[Threshold]) -> tuple[dict[str, Any], str]:
    """The strengths at which each threshold is crossed, as a value and as text."""
    marks: dict[str, Any] = {}
    parts = []
    for t in thresholds:
        at = below_threshold(strength, t.below)
        marks[str(t.below)] = at
        if at is not None:
            parts.append(f"below {t.below}% at {at} or less ({t.factor:+d})")
    if not parts:
        return marks, f"{strength} (nothing that counts for morale)"
    return marks, f"{strength}; " + ", ".join(parts)


# --------------------------------------------------------------------------- figures


@dataclass(frozen=True)
class FigureType:
    """What the rules need to know about a figure entry (from its categories and profile)."""

    kind: str  # "marine", "non-marine" or "robot"
    officer: bool
    nco: bool
    private: bool
    ship_morale: int
    attack_morale: int
    combat_robot: bool = False
    armoured_robot: bool = False
    close_support_robot: bool = False
    truc: bool = False
    clanker: bool = False

    @property
    def human(self) -> bool:
        return self.kind != "robot"


def figure_type(entry: Entry) -> FigureType | None:
    """Classify a figure entry; ``None`` if it is not one (no troop profile / troop type)."""
    cats = set(entry.categories)
    if "marines" in cats:
        kind = "marine"
    elif "non-marines" in cats:
        kind = "non-marine"
    elif "robot" in cats:
        kind = "robot"
    else:
        return None
    chars: dict[str, Any] = {}
    for p in entry.profiles:
        if p.type == "troop":
            chars = dict(p.characteristics)
            break
    ship, attack = chars.get("ship-morale"), chars.get("attack-morale")
    if not isinstance(ship, int) or not isinstance(attack, int):
        return None
    return FigureType(
        kind=kind,
        officer="officer" in cats,
        nco="nco" in cats,
        private="private" in cats,
        ship_morale=ship,
        attack_morale=attack,
        combat_robot="combat-robot" in cats,
        armoured_robot="armoured-robot" in cats,
        close_support_robot="close-support-robot" in cats,
        truc="truc" in cats,
        clanker="clanker" in cats,
    )


@dataclass
class Kit:
    """What one figure carries (its upgrade children)."""

    armour: bool = False
    suit: str = ""
    target: str = ""  # the fire table column the suit gives ("Armoured" / "Unarmoured")
    substandard: bool = False
    ecm: bool = False
    sca: int = 0  # 0: no SCA, else its mod (1, 2, 3)
    sca_name: str = ""
    launcher_missiles: int = 0  # a close support robot's launcher
    launchers: int = 0
    pack_missiles: int = 0  # a close support marine's APGW pack
    pack: bool = False
    grenades: int = 0
    door_charges: int = 0
    pallets: list[tuple[Node, int]] | None = None


def _kit(node: Node) -> Kit:
    kit = Kit()
    for item in node.children:
        e = item.entry
        if e is None:
            continue
        cats = e.categories
        n = item.count
        if "armour" in cats:
            kit.armour = True
            kit.suit = e.name
        elif "suit" in cats:
            kit.suit = kit.suit or e.name
        if "suit" in cats:
            kit.substandard = kit.substandard or "substandard-armour" in cats
            for p in e.profiles:
                target = p.characteristics.get("target")
                if p.type == "suit" and isinstance(target, str):
                    kit.target = "Armoured" if kit.armour else target
        if "ecm-pack" in cats:
            kit.ecm = True
        if "sca" in cats:
            mod = e.data.get("mod")
            if isinstance(mod, int) and mod > kit.sca:
                kit.sca, kit.sca_name = mod, e.name
        if "apgw-launcher" in cats:
            kit.launchers += n
            kit.launcher_missiles += _int(e.data.get("missiles")) * n
        if "apgw-pack" in cats:
            kit.pack = True
            kit.pack_missiles += _int(e.data.get("missiles")) * n
        if "grenades" in cats:
            kit.grenades += n
        if "door-charges" in cats:
            kit.door_charges += n
        if "pallet" in cats:
            if kit.pallets is None:
                kit.pallets = []
            kit.pallets.append((item, n))
    return kit


def h2h_kind(ft: FigureType) -> str | None:
    """The hand to hand addition a figure uses (3.15); ``None``: not equipped for it (TRUCs,
    close support robots), it loses automatically."""
    if ft.kind == "marine":
        return "marine"
    if ft.kind == "non-marine":
        return "crewman"
    if ft.combat_robot or ft.armoured_robot:
        return "combat robot"
    return None


#: Kinds of figure a defender is made of (fire table column, hand to hand).
H2H_KINDS = ("marine", "crewman", "combat robot")


def target_kind(ft: FigureType, kit: Kit) -> str:
    """``marine`` / ``crewman`` (with their suit's column), ``combat robot``, ``armoured
    robot`` or ``robot`` (TRUCs, close support robots: one hit, no hand to hand)."""
    if ft.human:
        kind = "marine" if ft.kind == "marine" else "crewman"
        column = kit.target or ("Armoured" if kit.armour else "Unarmoured")
        return f"{kind}|{column}"
    if ft.armoured_robot:
        return "armoured robot|Armoured"
    if ft.combat_robot:
        return "combat robot|Unarmoured"
    return "robot|Unarmoured"


def weapon_rows(ft: FigureType, kit: Kit) -> list[str]:
    """The rows of table 3.5 a figure fires on."""
    rows = [SCA_ROWS[kit.sca]] if kit.sca in SCA_ROWS and not kit.pack else []
    if kit.launchers or kit.pack:
        rows.append("APGW")
    return rows


OddsRows = tuple[tuple[str, str, tuple[dict[str, Any], str], str], ...]


def _figure_odds(ft: FigureType, kit: Kit, f: Factors = BASE) -> OddsRows:
    """The figure's odds values, its own factors ``f`` (4.6, 4.7) applied."""
    return _odds_rows(
        tuple(weapon_rows(ft, kit)),
        ft.human and not kit.pack,
        h2h_kind(ft),
        ft.combat_robot and not ft.armoured_robot,
        f,
    )


@lru_cache(maxsize=256)
def _odds_rows(
    rows: tuple[str, ...], grenades: bool, kind: str | None, robot: bool, f: Factors
) -> OddsRows:
    out: list[tuple[str, str, tuple[dict[str, Any], str], str]] = []
    if f.names:
        out.append(
            (
                "odds_factors",
                "Odds factors",
                (
                    {"from": list(f.names), "factors": f.describe()},
                    f"{' and '.join(f.names)}: {', '.join(f.describe())}",
                ),
                "4.6, 4.7",
            )
        )
    if f.non_combatant:
        out.append(
            (
                "odds_fire",
                "Fire odds",
                ({"non_combatant": True}, "counts as a non-combatant (4.7): no fire or grenades"),
                "4.7",
            )
        )
    else:
        for row in rows:
            key = "odds_apgw" if row == "APGW" else "odds_fire"
            out.append((key, f"{row} fire odds", fire_value(row, f), "3.5"))
        if grenades:
            out.append(("odds_grenade", "Grenade odds", grenade_value(f), "3.6"))
    if kind is not None:
        out.append(("odds_hand_to_hand", "Hand to hand odds", hand_to_hand_value(kind, f), "3.15"))
    if robot:
        dmg = {k: str(v) for k, v in ROBOT_DAMAGE.items()}
        out.append(
            (
                "odds_robot_damage",
                "A first hit on it",
                (
                    dmg,
                    "two hits destroy it; after the first, 1d6: no firing 1/3 (33.3%), "
                    "immobilised 1/2 (50.0%), destroyed outright 1/6 (16.7%)",
                ),
                "3.7",
            )
        )
    return tuple(out)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# --------------------------------------------------------------------------- tallies


# Integer fields of a tally, in the order of :attr:`Tally.v`.
_FIELDS = (
    "officers",
    "other_ranks",
    "non_marines",
    "combat_robots",
    "close_support_robots",
    "trucs",
    "clankers",
    "armoured_robots",
    "ship_morale",
    "attack_morale",
    "grenade_men",  # figures drawing grenades: men, not close support marines (3.16, 4.9)
    "door_charge_men",  # marines drawing door charges (3.16, 4.9)
    "grenades_carried",  # grenades recorded on figures
    "door_charges_carried",
    "cs_marines",
    "launchers",
    "missiles",
    "callers",  # marines who can call APGW (2.5)
    "loaded_trucs",
)
(
    OFFICERS,
    OTHER_RANKS,
    NON_MARINES,
    COMBAT_ROBOTS,
    CLOSE_SUPPORT_ROBOTS,
    TRUCS,
    CLANKERS,
    ARMOURED_ROBOTS,
    SHIP_MORALE,
    ATTACK_MORALE,
    GRENADE_MEN,
    DOOR_CHARGE_MEN,
    GRENADES_CARRIED,
    DOOR_CHARGES_CARRIED,
    CS_MARINES,
    LAUNCHERS,
    MISSILES,
    CALLERS,
    LOADED_TRUCS,
) = range(len(_FIELDS))

#: The keys of the ``head_count`` value (the first fields of a tally), in display order.
HEAD_COUNT_KEYS = _FIELDS[: ARMOURED_ROBOTS + 1]


class Tally:
    """Totals for one copy of a formation (or figure); added up the tree with counts.

    The integer totals sit in one list (:attr:`v`, indexed by the constants above) so that
    adding a sub-formation is a single vector operation.
    """

    __slots__ = ("classes", "launcher", "pallets", "v")

    def __init__(self) -> None:
        #: Where the first figure with an APGW launcher is, in the order of the roster.
        self.launcher: Loc | None = None
        self.v: list[int] = [0] * len(_FIELDS)
        self.pallets: dict[str, list[Any]] = {}  # entry id -> [name, item, per pallet, count]
        self.classes: dict[tuple[str, str], int] = {}  # (kind, class name) -> figures

    def add(self, other: Tally, n: int) -> None:
        """Add ``n`` copies of ``other``."""
        if n == 1:
            self.v = list(map(operator.add, self.v, other.v))
        else:
            self.v = [a + b * n for a, b in zip(self.v, other.v, strict=True)]
        for pid, row in other.pallets.items():
            mine = self.pallets.setdefault(pid, [row[0], row[1], row[2], 0])
            mine[3] += row[3] * n
        for key, c in other.classes.items():
            self.classes[key] = self.classes.get(key, 0) + c * n

    @property
    def humans(self) -> int:
        v = self.v
        return v[OFFICERS] + v[OTHER_RANKS] + v[NON_MARINES]

    def head_count(self) -> dict[str, int]:
        return dict(zip(HEAD_COUNT_KEYS, self.v[: len(HEAD_COUNT_KEYS)], strict=True))


def head_count_text(h: Mapping[str, int]) -> str:
    """``"marines: 18 officers, 88 other ranks; 11 non-marines; robots: 26 combat, 16 close
    support, 32 TRUC"`` (kinds the formation lacks are left out)."""
    if h["officers"] or h["other_ranks"]:
        text = f"marines: {_n(h['officers'], 'officer')}, {_n(h['other_ranks'], 'other rank')}"
    else:
        text = "no marines"
    if h["non_marines"]:
        text += f"; {_n(h['non_marines'], 'non-marine')}"
    robots = []
    if h["combat_robots"]:
        armoured = h.get("armoured_robots", 0)
        robots.append(
            f"{h['combat_robots']} combat" + (f" ({armoured} armoured)" if armoured else "")
        )
    if h["close_support_robots"]:
        robots.append(f"{h['close_support_robots']} close support")
    if h["trucs"]:
        robots.append(f"{h['trucs']} TRUC")
    if h.get("clankers"):
        robots.append(_n(h["clankers"], "clanker"))
    return f"{text}; " + (f"robots: {', '.join(robots)}" if robots else "no robots")


# --------------------------------------------------------------------------- the module


#: Campaign state (a selection's ``state:``). History (kept from action to action, 4.7) is
#: apart from the battle in progress: ``wounds`` counts actions in which the figure was
#: wounded, never hits; the hits a figure has taken in this battle are ``hits``.
STATE_KEYS: tuple[StateKey, ...] = (
    StateKey(
        "actions",
        "int",
        "Actions the figure has fought in the campaign so far; sets its experience class.",
        history=True,
        source=f"{SRC} 4.7",
        example="12",
    ),
    StateKey(
        "wounds",
        "int",
        "Of those actions, how many the figure was wounded in (each counts as two for "
        "experience); a record of past actions, not damage in this battle.",
        history=True,
        source=f"{SRC} 4.7",
        example="1",
    ),
    StateKey(
        "recovery_days",
        "int",
        "Days a minor wound still keeps the figure out (4.3: 3d10, doubled by a hospital "
        "ship's close call, 4.5); with fewer than 15 to go a marine may fight wounded (4.6).",
        history=True,
        source=f"{SRC} 4.3, 4.5, 4.6",
        example="12",
    ),
    StateKey(
        "invalided",
        "bool",
        "A serious wound: the figure lives but is unfit for duty and leaves at the next base.",
        history=True,
        source=f"{SRC} 4.3",
        example="true",
    ),
    StateKey(
        "repair_days",
        "int",
        "Days until the figure's suit of armour, spacesuit or robot body is repaired (4.4).",
        history=True,
        source=f"{SRC} 4.4",
        example="3",
    ),
    StateKey(
        "hits",
        "int",
        "Hits taken in the battle being played (one knocks out a man or most robots, a combat "
        "robot takes two), counted over the selection's figures, first figure first.",
        history=False,
        source=f"{SRC} 3.5, 3.7",
        example="1",
    ),
    StateKey(
        "lost",
        "int",
        "Figures of this selection out of action (casualties) in the battle being played.",
        history=False,
        source=f"{SRC} 3.17",
        example="1",
    ),
    StateKey(
        "ammo_spent",
        "map-int",
        "A squad's grenades, door charges, SuperCharges and APGW missiles used so far in the "
        "battle.",
        history=False,
        source=f"{SRC} 3.16, 3.10",
        example="{grenades: 4, door_charges: 1}",
        ids=("grenades", "door_charges", "supercharges", "missiles"),
    ),
    StateKey(
        "morale_lost",
        "map-int",
        "Morale strength points lost so far in the battle: the ship's (defender) and the "
        "attacker's.",
        history=False,
        source=f"{SRC} 3.12, 3.13",
        example="{ship: 3}",
        ids=("ship", "attack"),
    ),
)


class StarshipMarine(SystemRules):
    """The Starship Marine rules module."""

    system_id = "starship-marine"
    subtree_local = True

    def state_keys(self) -> tuple[StateKey, ...]:
        return STATE_KEYS

    def _factors(self, ev: Evaluation, node: Node, ft: FigureType) -> Factors:
        """A figure's factors (4.6, 4.7) as its evaluation worked them out: the class its
        ``experience`` value names, and the wounded factors when it fights wounded."""
        if not ft.human:
            return BASE
        try:
            tables = self.tables(ev.index.system.model)
        except (KeyError, TypeError, ValueError, AttributeError):
            return BASE
        xp = ev.value(node, "experience")
        name = xp.get("class") if isinstance(xp, dict) else None
        f = next((c.modifiers for c in tables.classes(ft.kind) if c.name == name), BASE)
        if ev.value(node, "wounded") is not None and tables.campaign is not None:
            f = f + tables.campaign.wounded
        return f

    def _forces(
        self, ev: Evaluation
    ) -> list[tuple[Node, Counter[tuple[str, Factors]], Counter[str], Counter[Factors]]]:
        """Per top-level selection: the table 3.5 rows its figures fire on with their factors
        (figures each), the kinds of figure in it (target column, hand to hand kind and the
        factors that change them), and its grenade men by factors."""
        out: list[tuple[Node, Counter[tuple[str, Factors]], Counter[str], Counter[Factors]]] = []
        for unit in ev.units():
            rows: Counter[tuple[str, Factors]] = Counter()
            kinds: Counter[str] = Counter()
            grenadiers: Counter[Factors] = Counter()
            for n in unit.walk():
                if n.entry is None or n.entry.type != "model":
                    continue
                ft = self.figure_type(n.entry)
                if ft is None:
                    continue
                kit = _kit(n)
                m = n.multiplicity(unit)
                f = self._factors(ev, n, ft)
                if not f.non_combatant:
                    for row in weapon_rows(ft, kit):
                        rows[(row, f)] += m
                    if ft.human and not kit.pack:
                        grenadiers[f] += m
                name, column = target_kind(ft, kit).split("|")
                kinds[target_key(name, column, f)] += m
            out.append((unit, rows, kinds, grenadiers))
        return out

    def against(self, ev: Evaluation, other: Evaluation) -> list[Matchup]:
        """Each top-level selection's fire (3.5), APGW, grenades (3.6) and hand to hand
        combat (3.15) against the figures of each of ``other``'s, with each figure's class
        and wounded factors (4.6, 4.7) on both sides; a key names the factors that differ
        from the baseline (``fire.sca-ii.novice``)."""
        rows: list[Matchup] = []
        targets = [(other.name(u), kinds) for u, _, kinds, _ in self._forces(other)]
        for unit, weapons, kinds, grenadiers in self._forces(ev):
            for name, their in targets:
                if not their:
                    continue
                kinds_t = tuple(sorted(their.items()))
                for (row, f), n in sorted(weapons.items(), key=lambda x: (x[0][0], x[0][1].slug)):
                    value, text = fire_against(row, n, kinds_t, f)
                    key = f"fire.{row.lower().replace(' ', '-')}" + (f".{f.slug}" if f.slug else "")
                    label = f"{row} fire" + (f" ({', '.join(f.names)})" if f.names else "")
                    rows.append(Matchup(unit, name, key, label, value, text, f"{SRC} 3.5, 3.7"))
                for f, n in sorted(grenadiers.items(), key=lambda x: x[0].slug):
                    value, text = grenades_against(n, kinds_t, f)
                    key = "grenades" + (f".{f.slug}" if f.slug else "")
                    label = "Grenades" + (f" ({', '.join(f.names)})" if f.names else "")
                    rows.append(Matchup(unit, name, key, label, value, text, f"{SRC} 3.6"))
                mine = tuple(
                    sorted((k, n) for k, n in kinds.items() if k.split("|")[0] in H2H_KINDS)
                )
                if mine:
                    value, text = h2h_against(mine, kinds_t)
                    rows.append(
                        Matchup(
                            unit, name, "hand-to-hand", "Hand to hand", value, text, f"{SRC} 3.15"
                        )
                    )
        return rows

    def __init__(self) -> None:
        self._types: dict[int, tuple[Entry, FigureType | None]] = {}
        self._tables: dict[int, tuple[Any, Tables]] = {}
        #: computed odds per campaign table and column (the tables' figures do not change)
        self._odds: dict[tuple[int, str, str], tuple[Any, str]] = {}
        self._reach: dict[int, tuple[CatalogIndex, frozenset[str]]] = {}

    # ----------------------------------------------------------------- cached lookups

    def figure_type(self, entry: Entry) -> FigureType | None:
        hit = self._types.get(id(entry))
        if hit is not None and hit[0] is entry:
            return hit[1]
        ft = figure_type(entry)
        if len(self._types) > 4096:  # catalogs re-read (a roster's own entries): start afresh
            self._types.clear()
        self._types[id(entry)] = (entry, ft)
        return ft

    def tables(self, system: SystemFile) -> Tables:
        hit = self._tables.get(id(system))
        if hit is not None and hit[0] is system:
            return hit[1]
        tables = Tables.from_data(system.data)
        self._tables[id(system)] = (system, tables)
        return tables

    # ----------------------------------------------------------------- catalog checks

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        if faction is None:
            yield from _check_system_data(system)
            yield from _check_entries("system", system)
        else:
            yield from _check_entries("faction", faction)

    # ----------------------------------------------------------------- placement

    def explain_not_allowed(
        self, ev: Evaluation, entry: Entry, parent: Node, node: Node
    ) -> tuple[str, str] | None:
        """Why a figure or formation is out of place, in order-of-battle terms (part 5): a
        formation of another corps, or a figure a formation's order of battle does not list."""
        faction = ev.index.faction.model
        if entry.type == "unit" and entry.id not in self._formations_of(ev.index):
            where = "at the top of the roster" if parent.is_root else f"in {ev.where(parent)}"
            return (
                f"{entry.name} ({entry.id}) is a formation of another order of battle "
                f"({entry.source}); the {faction.name} field their own ({faction.source}), "
                f"so it cannot be selected {where}",
                faction.source,
            )
        if entry.type == "model" and not parent.is_root and parent.entry is not None:
            figures = [c.entry.name for c in ev.index.children(parent.entry)]
            figures = [f for f in figures if f] or ["no such figure"]
            source = parent.entry.source or faction.source
            return (
                f"{ev.where(parent)} cannot hold {_article(entry.name)} ({entry.id}): its order "
                f"of battle ({source}) has {_and(figures)}",
                source,
            )
        return None

    def _formations_of(self, index: CatalogIndex) -> frozenset[str]:
        """The formation ids a faction's roster can reach from its top level."""
        hit = self._reach.get(id(index))
        if hit is not None and hit[0] is index:
            return hit[1]
        seen: set[str] = set()
        todo = [c.entry for c in index.roots]
        while todo:
            e = todo.pop()
            if e.type != "unit" or e.id in seen:
                continue
            seen.add(e.id)
            todo.extend(c.entry for c in index.children(e))
        found = frozenset(seen)
        if len(self._reach) > 64:
            self._reach.clear()
        self._reach[id(index)] = (index, found)
        return found

    # ----------------------------------------------------------------- analysis

    def analyse(self, ev: Evaluation) -> None:
        try:
            tables = self.tables(ev.index.system.model)
        except (KeyError, TypeError, ValueError, AttributeError):
            return  # reported by check_catalog; nothing can be computed without the tables
        run = _Run(self, ev, tables, campaign=plays_campaign(ev))
        total = Tally()
        for child in ev.units():
            t = run.visit(child)
            if t is not None:
                total.add(t, child.count)
                total.launcher = total.launcher or t.launcher
        run.show(ev.root, total)
        run.check_apgw_callers(total)
        run.show_sheet_tables(ev.root)
        if run.campaign and tables.campaign is not None:
            run.show_recovery(tables.campaign)


def plays_campaign(ev: Evaluation) -> bool:
    """Whether the roster plays the optional campaign rules of part 4: it selects an entry of
    category ``campaign-rules`` at its top level."""
    return any(c.entry is not None and "campaign-rules" in c.entry.categories for c in ev.units())


class _Run:
    """One analysis of one evaluation."""

    def __init__(
        self, rules: StarshipMarine, ev: Evaluation, tables: Tables, campaign: bool = False
    ) -> None:
        self.rules = rules
        self.ev = ev
        self.tables = tables
        self.campaign = campaign

    # ----------------------------------------------------------------- tree walk

    def visit(self, node: Node) -> Tally | None:
        entry = node.entry
        if entry is None:
            return None
        if entry.type == "model":
            return self.figure(node)
        if entry.type == "unit":
            return self.formation(node)
        return None

    def formation(self, node: Node) -> Tally:
        """The totals of one copy of a formation; its values and issues are recorded. An
        untouched formation is replayed from the previous evaluation."""
        return self.ev.subtree(
            node, "starship-marine", lambda: self._formation(node), key=self.campaign
        )

    def _formation(self, node: Node) -> Tally:
        total = Tally()
        launcher: Loc | None = None
        local = Tally()  # figures directly in this formation
        privates = leaders = 0
        for c in node.children:
            e = c.entry
            if e is None:
                continue
            if e.type == "model":
                t = self.figure(c)
                local.add(t, c.count)
                launcher = launcher or t.launcher
                ft = self.rules.figure_type(e)
                if ft is not None and ft.kind == "marine":
                    if ft.private:
                        privates += c.count
                    elif ft.officer or ft.nco:
                        leaders += c.count
            elif e.type == "unit":
                t = self.formation(c)
                total.add(t, c.count)
                launcher = launcher or t.launcher
        total.add(local, 1)
        total.launcher = launcher
        self.show(node, total)
        self.check_command(node, privates, leaders)
        if local.v[COMBAT_ROBOTS] and not total.humans:
            n = local.v[COMBAT_ROBOTS]
            self.ev.warning(
                "sm-robots-alone",
                f"{self.ev.where(node)} has {_n(n, 'combat robot')} and nobody to lead "
                f"{'them' if n != 1 else 'it'}; combat robots follow squad drills but are "
                "not programmed to act on their own in an all-robot unit",
                node,
                f"{SRC} 2.3",
            )
        self.check_ammunition(node, local)
        return total

    def figure(self, node: Node) -> Tally:
        t = Tally()
        entry = node.entry
        if entry is None:
            return t
        ft = self.rules.figure_type(entry)
        if ft is None:
            return t
        kit = _kit(node)
        ev = self.ev
        t.v[SHIP_MORALE] = ft.ship_morale
        t.v[ATTACK_MORALE] = ft.attack_morale
        t.v[GRENADES_CARRIED] = kit.grenades
        t.v[DOOR_CHARGES_CARRIED] = kit.door_charges
        if ft.kind == "marine":
            if ft.officer:
                t.v[OFFICERS] = 1
            else:
                t.v[OTHER_RANKS] = 1
            if kit.pack:
                t.v[CS_MARINES] = 1
                t.v[LAUNCHERS] = 1
                t.v[MISSILES] = kit.pack_missiles
                ev.set_value(
                    node,
                    "close_support",
                    "Close support marine",
                    {"missiles": kit.pack_missiles},
                    text=f"APGW pack with {kit.pack_missiles} missiles; no SCA, grenades or "
                    "demolition charges",
                    source=f"{SRC} 4.9",
                )
            else:
                t.v[GRENADE_MEN] = 1
                t.v[DOOR_CHARGE_MEN] = 1
                if kit.sca >= 2:
                    t.v[CALLERS] = 1
        elif ft.kind == "non-marine":
            t.v[NON_MARINES] = 1
            t.v[GRENADE_MEN] = 1
        else:
            t.v[COMBAT_ROBOTS] = int(ft.combat_robot)
            t.v[ARMOURED_ROBOTS] = int(ft.armoured_robot)
            t.v[CLOSE_SUPPORT_ROBOTS] = int(ft.close_support_robot)
            t.v[TRUCS] = int(ft.truc)
            t.v[CLANKERS] = int(ft.clanker)
            t.v[LAUNCHERS] = kit.launchers
            t.v[MISSILES] = kit.launcher_missiles
        if t.v[LAUNCHERS]:
            t.launcher = node.loc
        if kit.pallets:
            for item, n in kit.pallets:
                e = item.entry
                if e is None:
                    continue
                row = t.pallets.setdefault(
                    e.id,
                    [e.name, str(e.data.get("item", e.name)), _int(e.data.get("per_pallet")), 0],
                )
                row[3] += n
            if ft.truc:
                t.v[LOADED_TRUCS] = 1
            elif ft.human:
                self.show_pallet_carrier(node, entry)
        if ft.human and kit.target:
            ev.set_value(node, "target", "Target type", kit.target, source=f"{SRC} 3.5")
        f = BASE
        if ft.human:
            cls = self.experience(node, ft)
            t.classes[(ft.kind, cls.name)] = 1
            f = self.factors(node, ft, cls)
        self.odds(node, ft, kit, f)
        self.check_figure(node, ft, kit)
        self.campaign_record(node, ft, kit)
        return t

    def factors(self, node: Node, ft: FigureType, cls: ExperienceClass) -> Factors:
        """The die-roll factors of a man: his class's (4.7) and, a marine fighting wounded
        with the campaign rules, the wounded ones (4.6). Read from the catalog's data."""
        f = cls.modifiers
        camp = self.tables.campaign
        if self.campaign and camp is not None and ft.kind == "marine":
            state = node.data.state if node.data is not None else {}
            recovery = state.get("recovery_days")
            if (
                isinstance(recovery, int)
                and not isinstance(recovery, bool)
                and 0 < recovery < camp.fight_below
            ):
                f = f + camp.wounded
        return f

    def odds(self, node: Node, ft: FigureType, kit: Kit, f: Factors = BASE) -> None:
        """The exact odds of the figure's weapons (3.5, 3.6, 3.10), of hand to hand combat
        (3.15) and, for a combat robot, of the damage a hit does to it (3.7), with the
        figure's own factors ``f`` (4.6, 4.7)."""
        for key, label, (value, text), src in _figure_odds(ft, kit, f):
            self.ev.set_value(node, key, label, value, text=text, source=f"{SRC} {src}")

    def show_pallet_carrier(self, node: Node, entry: Entry) -> None:
        """A man carrying a pallet (3.18, 4.8): his speed with it, alone or helped."""
        chars: dict[str, Any] = {}
        for p in entry.profiles:
            if p.type == "troop":
                chars = dict(p.characteristics)
        tac, non = chars.get("tactical"), chars.get("non-tactical")
        half = ""
        if isinstance(tac, int) and isinstance(non, int):
            half = f" ({_cm(tac / 2)} / {_cm(non / 2)} cm)"
        self.ev.set_value(
            node,
            "pallet_carrier",
            "Carrying a pallet",
            {"alone": "half", "two": "normal", "gravity_two": "half", "gravity_four": "normal"},
            text=f"alone at half speed{half}, two men at normal speed; in gravity or "
            "underwater two men at half speed, four at normal speed",
            source=f"{SRC} 3.18, 4.8",
        )

    # ----------------------------------------------------------------- campaign (4.3 - 4.6)

    def campaign_record(self, node: Node, ft: FigureType, kit: Kit) -> None:
        """Whether the figure is fit to be fielded (4.3 - 4.6), and, with the campaign rules,
        the exact odds of what a hit does to it and to its equipment."""
        ev, camp = self.ev, self.tables.campaign
        state = node.data.state if node.data is not None else {}
        recovery = self._state_int(node, state, "recovery_days")
        repair = self._state_int(node, state, "repair_days")
        invalided = state.get("invalided") is True
        if not self.campaign or camp is None:
            if recovery or repair or invalided:
                ev.warning(
                    "sm-campaign-state-unused",
                    f"{ev.where(node)} records wounds or repairs of the campaign rules, but the "
                    "roster does not play them (select Campaign rules at its top level)",
                    (*node.loc, "state"),
                    f"{SRC} 4",
                )
            return
        src = f"{SRC} 4.3 - 4.6"
        unfit = []
        if invalided:
            unfit.append("was invalided out by a serious wound (4.3)")
        if repair:
            what = kit.suit.lower() if ft.human and kit.suit else "body"
            unfit.append(f"has its {what} under repair for {repair} more days (4.4)")
        if recovery and (ft.kind != "marine" or recovery >= camp.fight_below):
            unfit.append(
                f"has {recovery} days of recovery to go; only marines with fewer than "
                f"{camp.fight_below} to go may fight (4.6)"
            )
        if unfit:
            ev.error(
                "sm-not-fit",
                f"{ev.where(node)} cannot be fielded: it {_and(unfit)}",
                (*node.loc, "state"),
                src,
            )
        elif recovery:
            ev.warning(
                "sm-fighting-wounded",
                f"{ev.where(node)} fights wounded ({recovery} days of recovery to go): "
                f"{camp.wounded_effects}",
                (*node.loc, "state"),
                f"{SRC} 4.6",
            )
            ev.set_value(
                node, "wounded", "Fighting wounded", camp.wounded_effects, source=f"{SRC} 4.6"
            )
        self.show_casualty_odds(node, ft, kit, camp)

    def show_recovery(self, camp: CampaignTables) -> None:
        """How long a minor wound keeps a casualty out (4.3), and the chance that a marine
        may fight again within the limit of 4.6 (worked out once per set of tables)."""
        key = (id(camp), "recovery", "")
        cached = self.rules._odds.get(key)
        if cached is None:
            days = camp.recovery_days()
            mean = sum((k * p for k, p in days.items()), Fraction(0))
            soon = sum((p for k, p in days.items() if k < camp.fight_below), Fraction(0))
            value = {
                "dice": str(camp.recovery),
                "days": {str(k): str(p) for k, p in days.items()},
                "mean": str(mean),
                "fit_to_fight": str(soon),
            }
            text = (
                f"{camp.recovery} days ({min(days)}–{max(days)}, {float(mean):g} on average; a "
                f"d10 reads 0–9); fewer than {camp.fight_below} days, so a marine may fight "
                f"wounded, with chance {soon} ({float(soon):.0%}); double it after a hospital "
                "ship's close call"
            )
            cached = self.rules._odds[key] = (value, text)
        self.ev.set_value(
            self.ev.root,
            "recovery",
            "Minor wound recovery",
            cached[0],
            text=cached[1],
            source=f"{SRC} 3.0, 4.3, 4.5, 4.6",
        )

    def show_casualty_odds(
        self, node: Node, ft: FigureType, kit: Kit, camp: CampaignTables
    ) -> None:
        table = column = None
        if ft.human:
            if kit.substandard:
                table, column = "substandard-armour", "marine-armour"
            elif kit.armour:
                table, column = "marine-armour", "marine-armour"
            elif kit.suit:
                table, column = "spacesuit", "spacesuit"
        elif ft.combat_robot:
            column = "combat-robot"
        elif ft.close_support_robot:
            column = "close-support-robot"
        cache = self.rules._odds
        if table is not None and table in camp.casualties:
            key = (id(camp), "casualty", table)
            if key not in cache:
                value: dict[str, Any] = {"table": table}
                parts = []
                for where in ("atmosphere", "vacuum"):
                    first = camp.casualty(table, where)
                    saved = camp.casualty(table, where, hospital=True)
                    value[where] = {k: str(v) for k, v in first.items()}
                    value[f"{where}_hospital_ship"] = {k: str(v) for k, v in saved.items()}
                    parts.append(
                        f"in {where}: {odds_text(first)} (killed after a hospital ship: "
                        f"{saved.get(KILLED, Fraction(0))})"
                    )
                cache[key] = (value, "; ".join(parts))
            value, text = cache[key]
            self.ev.set_value(
                node, "casualty_odds", "If hit", value, text=text, source=f"{SRC} 4.3, 4.5"
            )
        if column is not None and any(r[column] for _, r in camp.equipment if column in r):
            key = (id(camp), "equipment", column)
            if key not in cache:
                odds = d6_outcomes(camp.equipment, column)
                cache[key] = ({k: str(v) for k, v in odds.items()}, odds_text(odds))
            value, text = cache[key]
            self.ev.set_value(
                node,
                "equipment_odds",
                "Its equipment if hit",
                value,
                text=text,
                source=f"{SRC} 4.4",
            )

    # ----------------------------------------------------------------- experience

    def experience(self, node: Node, ft: FigureType) -> ExperienceClass:
        state = node.data.state if node.data is not None else {}
        actions = self._state_int(node, state, "actions")
        wounds = self._state_int(node, state, "wounds")
        wounded = self.tables.wounded_action_counts
        counted = counted_actions(actions, wounds, wounded)
        if wounds > actions:
            self.ev.warning(
                "sm-state",
                f"{self.ev.where(node)} records {wounds} wounds but {actions} actions fought; "
                f"every wound is taken in an action, so {wounds} actions were fought, each "
                f"counting {wounded}: {counted} actions are counted",
                (*node.loc, "state"),
                f"{SRC} 4.7",
            )
        scale = "marine" if ft.kind == "marine" else "non-marine"
        if not self.campaign:
            base = self.tables.baseline_class(ft.kind)
            self.ev.set_value(
                node,
                "experience",
                "Experience",
                {
                    "class": base.name,
                    "scale": scale,
                    "actions": max(actions, wounds),
                    "wounds": wounds,
                    "counted": counted,
                    "sticker": base.sticker,
                    "effect": base.effect,
                    "campaign": False,
                },
                text=f"{base.name} (the baseline: the campaign rules are not played): "
                f"{base.effect}",
                source=f"{SRC} 4, 4.7",
            )
            return base
        classes = self.tables.classes(ft.kind)
        cls = experience_class(classes, counted)
        detail = ""
        if wounds:
            detail = f": {max(actions, wounds)} fought, {wounds} wounded"
        self.ev.set_value(
            node,
            "experience",
            "Experience",
            {
                "class": cls.name,
                "scale": scale,
                "actions": max(actions, wounds),
                "wounds": wounds,
                "counted": counted,
                "sticker": cls.sticker,
                "effect": cls.effect,
                "campaign": True,
            },
            text=f"{cls.name} ({counted} action{'s' if counted != 1 else ''}{detail}; "
            f"{cls.sticker_text}): {cls.effect}",
            source=f"{SRC} 4.7",
        )
        return cls

    def _state_int(self, node: Node, state: Mapping[str, Any], key: str) -> int:
        """A whole-number state key, 0 when absent or not a valid number (the engine reports
        those against :data:`STATE_KEYS`)."""
        value = state.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            return 0
        return value if 0 <= value <= DEFAULT_MAXIMUM else 0

    # ----------------------------------------------------------------- checks

    def check_figure(self, node: Node, ft: FigureType, kit: Kit) -> None:
        """The equipment rules for one figure (its issues name the figure's place)."""
        ev = self.ev
        if kit.sca >= 2 and not kit.armour and not ft.armoured_robot:
            if ft.kind == "robot":
                wearing = "is a robot without marine-standard armour"
            else:
                wearing = f"wears a {kit.suit.lower()}" if kit.suit else "has no marine armour"
            ev.error(
                "sm-sca-needs-armour",
                f"{ev.where(node)} carries an {kit.sca_name} but {wearing}; "
                "SCA II and SCA III work only with marine armour",
                node,
                f"{SRC} 2.4",
            )
        if ft.kind == "non-marine" and kit.armour:
            sca = f" (and its {kit.sca_name})" if kit.sca >= 2 else ""
            ev.warning(
                "sm-crew-marine-armour",
                f"{ev.where(node)} wears marine armour{sca}; crew are not trained to operate "
                "it (armoured combat crew wear substandard armour, 4.3)",
                node,
                f"{SRC} 2.2, 4.3",
            )
        if ft.kind == "robot" and kit.grenades:
            ev.error(
                "sm-robot-grenades",
                f"{ev.where(node)} is given {_n(kit.grenades, 'grenade')}"
                f"{' each' if node.count > 1 else ''}; robots cannot use grenades",
                node,
                f"{SRC} 3.6",
            )
        if kit.pack:
            wrong = []
            if ft.kind == "robot":
                wrong.append("is a robot (the pack is worn on a marine's armour)")
            elif ft.kind != "marine":
                wrong.append("is not a marine (the pack is worn on a marine's armour)")
            elif not kit.armour:
                wrong.append("has no marine armour to mount the pack on")
            extras = []
            if kit.sca:
                extras.append(f"an {kit.sca_name}")
            if kit.grenades:
                extras.append(_n(kit.grenades, "grenade"))
            if kit.door_charges:
                extras.append(_n(kit.door_charges, "door charge"))
            if extras:
                wrong.append(
                    f"also carries {_and(extras)} (a close support marine gives up his personal "
                    "weapon, grenades and demolition charges)"
                )
            if wrong:
                ev.error(
                    "sm-close-support-kit",
                    f"{ev.where(node)} has an APGW pack but {_and(wrong)}",
                    node,
                    f"{SRC} 2.6, 4.9",
                )

    def check_command(self, node: Node, privates: int, leaders: int) -> None:
        if privates and not leaders:
            they = "they take" if privates != 1 else "he takes"
            self.ev.warning(
                "sm-no-leader",
                f"{self.ev.where(node)} has {privates} marine private"
                f"{'s' if privates != 1 else ''} but no officer or NCO; privates should not "
                f"normally be more than 20 cm from one of their squad, and beyond that {they} "
                "individual morale tests like crew",
                node,
                f"{SRC} 3.3, 3.14",
            )

    def check_ammunition(self, node: Node, local: Tally) -> None:
        grenades = local.v[GRENADE_MEN] * self.tables.grenades_per_man
        charges = local.v[DOOR_CHARGE_MEN] * self.tables.door_charges_per_marine
        over = []
        if local.v[GRENADES_CARRIED] > grenades:
            over.append(f"{local.v[GRENADES_CARRIED]} grenades (issue {grenades})")
        if local.v[DOOR_CHARGES_CARRIED] > charges:
            over.append(f"{local.v[DOOR_CHARGES_CARRIED]} door charges (issue {charges})")
        if over:
            self.ev.error(
                "sm-ammo-over-issue",
                f"{self.ev.where(node)} holds {_and(over)}; a squad may not hold more than "
                f"{self.tables.grenades_per_man} grenades per man and "
                f"{self.tables.door_charges_per_marine} door charges per marine",
                node,
                f"{SRC} 3.16",
            )

    def check_apgw_callers(self, total: Tally) -> None:
        if total.v[LAUNCHERS] and not total.v[CALLERS] and total.launcher is not None:
            what = []
            if total.v[CLOSE_SUPPORT_ROBOTS]:
                n = total.v[CLOSE_SUPPORT_ROBOTS]
                what.append(f"{n} close support robot{'s' if n != 1 else ''}")
            if total.v[CS_MARINES]:
                n = total.v[CS_MARINES]
                what.append(f"{n} close support marine{'s' if n != 1 else ''}")
            self.ev.warning(
                "sm-apgw-caller",
                f"The force has {_and(what) or 'APGW launchers'} but no marine with an SCA II "
                "or SCA III to call their missiles; robots, crew and close support marines "
                "cannot call APGW",
                total.launcher,
                f"{SRC} 2.5, 3.10",
            )

    # ----------------------------------------------------------------- values

    def show(self, node: Node, t: Tally) -> None:
        ev, tables = self.ev, self.tables
        h = t.head_count()
        ev.set_value(
            node, "head_count", "Head count", h, text=head_count_text(h), source=f"{SRC} 5"
        )
        for key, label, strength, thresholds, section in (
            ("ship_morale", "Ship morale strength (defending)", t.v[SHIP_MORALE],
             tables.ship_thresholds, "3.12"),
            ("attacker_morale", "Attacker morale strength", t.v[ATTACK_MORALE],
             tables.attacker_thresholds, "3.13"),
        ):  # fmt: skip
            marks, text = thresholds_text(strength, thresholds)
            ev.set_value(
                node,
                key,
                label,
                {"strength": strength, "below": marks},
                text=text,
                source=f"{SRC} {section}",
            )
        if t.humans:
            grenades = t.v[GRENADE_MEN] * tables.grenades_per_man
            charges = t.v[DOOR_CHARGE_MEN] * tables.door_charges_per_marine
            text = (
                f"{grenades} grenades ({tables.grenades_per_man} per man), {charges} door "
                f"charges ({tables.door_charges_per_marine} per marine)"
            )
            if t.v[CS_MARINES]:
                text += "; close support marines draw none"
            value: dict[str, Any] = {"grenades": grenades, "door_charges": charges}
            if t.v[GRENADES_CARRIED] or t.v[DOOR_CHARGES_CARRIED]:
                value["grenades_carried"] = t.v[GRENADES_CARRIED]
                value["door_charges_carried"] = t.v[DOOR_CHARGES_CARRIED]
                text += (
                    f"; recorded on figures: {t.v[GRENADES_CARRIED]} grenades, "
                    f"{t.v[DOOR_CHARGES_CARRIED]} door charges"
                )
            ev.set_value(
                node, "ammunition", "Ammunition issue", value, text=text, source=f"{SRC} 3.16"
            )
        if t.v[LAUNCHERS]:
            robots = t.v[LAUNCHERS] - t.v[CS_MARINES]
            parts = []
            if robots:
                parts.append(f"{robots} close support robot launcher{'s' if robots != 1 else ''}")
            if t.v[CS_MARINES]:
                n = t.v[CS_MARINES]
                parts.append(f"{n} close support marine{'s' if n != 1 else ''}")
            ev.set_value(
                node,
                "apgw",
                "APGW",
                {
                    "launchers": t.v[LAUNCHERS],
                    "close_support_marines": t.v[CS_MARINES],
                    "missiles": t.v[MISSILES],
                    "callers": t.v[CALLERS],
                },
                text=f"{t.v[MISSILES]} missiles in {_and(parts)}; one launch per launcher a move; "
                f"{t.v[CALLERS]} marine{'s' if t.v[CALLERS] != 1 else ''} can call them",
                source=f"{SRC} 2.5, 3.10, 3.18, 4.9",
            )
        if t.v[TRUCS] or t.pallets:
            self.show_logistics(node, t)
        if t.classes:
            self.show_experience(node, t)

    def show_logistics(self, node: Node, t: Tally) -> None:
        tables = self.tables
        capacity = t.v[TRUCS] * tables.truc_pallets
        pallets = sum(row[3] for row in t.pallets.values())
        loads = [
            {"pallet": name, "item": item, "pallets": n, "items": per * n}
            for name, item, per, n in t.pallets.values()
        ]
        parts = [f"{d['pallets']} × {d['item']} ({d['items']})" for d in loads]
        free = max(t.v[TRUCS] - t.v[LOADED_TRUCS], 0)
        text = f"{_n(t.v[TRUCS], 'TRUC')} (room for {_n(capacity, 'pallet')})"
        if parts:
            text += f"; loaded: {', '.join(parts)}"
        text += (
            f"; {free} TRUC{'s' if free != 1 else ''} free to lift "
            f"{free * tables.truc_casualties} casualties"
        )
        self.ev.set_value(
            node,
            "logistics",
            "Logistics",
            {
                "trucs": t.v[TRUCS],
                "pallet_capacity": capacity,
                "pallets": pallets,
                "loads": loads,
                "free_trucs": free,
                "casualty_lift": free * tables.truc_casualties,
            },
            text=text,
            source=f"{SRC} 3.17, 3.18, 4.8",
        )

    def show_sheet_tables(self, root: Node) -> None:
        _show_sheet_tables(self, root)

    def show_experience(self, node: Node, t: Tally) -> None:
        value: dict[str, dict[str, int]] = {}
        parts = []
        for kind, label in (("marine", "marines"), ("non-marine", "non-marines")):
            order = [c.name for c in self.tables.classes(kind)]
            counts = {name: t.classes.get((kind, name), 0) for name in order}
            counts = {k: v for k, v in counts.items() if v}
            if counts:
                value[kind] = counts
                parts.append(
                    f"{label}: " + ", ".join(f"{v} {k.lower()}" for k, v in counts.items())
                )
        self.ev.set_value(
            node, "experience", "Experience", value, text="; ".join(parts), source=f"{SRC} 4.7"
        )


def _cm(x: float) -> str:
    """``7.5`` -> ``7.5``, ``10.0`` -> ``10``."""
    return f"{x:g}"


def _article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


FIRE_COLUMNS = (
    "close-unarmoured",
    "close-armoured",
    "medium-unarmoured",
    "medium-armoured",
    "long-unarmoured",
    "long-armoured",
)


def _show_sheet_tables(run: _Run, root: Node) -> None:
    """Roster-wide values a record sheet prints as reference tables: which morale the force
    keeps (a ship's company defends, 3.12; anyone else attacks, 3.13), the fire table of the
    weapons the force carries (3.5) with its die-roll factors, the grenade tables (3.6) and
    the combat robot damage table (3.7). Tables absent from the catalog are left out."""
    ev = run.ev
    data = ev.index.system.model.data
    defends = any(c.has_category("ships-company") for c in ev.units())
    tables = run.tables
    ev.set_value(
        root,
        "morale_factors",
        "Morale factors",
        {
            "ship": {str(t.below): t.factor for t in tables.ship_thresholds},
            "attacker": {str(t.below): t.factor for t in tables.attacker_thresholds},
        },
        text="ship: "
        + ", ".join(f"below {t.below}% {t.factor:+d}" for t in tables.ship_thresholds)
        + "; attacker: "
        + ", ".join(f"below {t.below}% {t.factor:+d}" for t in tables.attacker_thresholds),
        source=f"{SRC} 3.12, 3.13",
    )
    ev.set_value(
        root,
        "morale_side",
        "Morale kept",
        {"ship": defends, "attacker": not defends},
        text="ship morale (defending)" if defends else "attacker morale",
        source=f"{SRC} 3.12, 3.13",
    )
    rows: dict[str, dict[str, Any]] = {}
    stack = list(root.children)
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        entry = node.entry
        if entry is None or entry.id in seen:
            continue
        seen.add(entry.id)
        for p in entry.profiles:
            chars = p.characteristics
            if p.type == "weapon" and all(isinstance(chars.get(c), int) for c in FIRE_COLUMNS):
                rows[entry.id] = {"weapon": entry.name, "scores": [chars[c] for c in FIRE_COLUMNS]}
                break
    fire = _dict_of(data.get("fire"))
    table = sorted(rows.values(), key=lambda r: str(r["weapon"]))
    if rows:
        ev.set_value(
            root,
            "fire_table",
            "Fire table",
            {"columns": list(FIRE_COLUMNS), "rows": table,
             "factors": list(fire.get("factors", []))},
            text="; ".join(
                f"{r['weapon']} " + "/".join(str(x) for x in r["scores"]) for r in table
            ),
            source=f"{SRC} 3.5",
        )  # fmt: skip
    grenades = _dict_of(data.get("grenades"))
    if grenades.get("throw") and grenades.get("effects"):
        ev.set_value(
            root,
            "grenade_table",
            "Grenades",
            {
                "throw": list(grenades["throw"]),
                "effects": list(grenades["effects"]),
                "radius": grenades.get("blast_radius_cm"),
            },
            text=f"blast radius {grenades.get('blast_radius_cm')} cm",
            source=f"{SRC} 3.6",
        )
    robots = _dict_of(data.get("robot_damage"))
    if robots.get("rolls"):
        ev.set_value(
            root,
            "robot_damage",
            "Combat robot damage",
            list(robots["rolls"]),
            text="; ".join(
                (
                    f"{r.get('low')}–{r.get('high')}"
                    if r.get("low") != r.get("high")
                    else str(r.get("low"))
                )
                + f": {r.get('effect')}"
                for r in robots["rolls"]
            ),
            source=f"{SRC} 3.7",
        )


def _dict_of(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _n(n: int, word: str) -> str:
    """``3, "grenade"`` -> ``3 grenades``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- catalog checks


def _check_system_data(system: SystemFile) -> Iterator[CatalogFinding]:
    data = system.data
    needed: list[tuple[list[str | int], str]] = [
        (["data", "experience", "marine"], "the marine experience table"),
        (["data", "experience", "non-marine"], "the non-marine experience table"),
        (["data", "experience", "wounded_action_counts"], "how many actions a wound counts"),
        (["data", "ammunition", "grenades_per_man"], "grenades issued per man"),
        (["data", "ammunition", "door_charges_per_marine"], "door charges issued per marine"),
        (["data", "logistics", "truc_pallets"], "pallets per TRUC"),
        (["data", "logistics", "truc_casualties"], "casualties per TRUC"),
        (["data", "morale", "ship", "thresholds"], "the ship morale thresholds"),
        (["data", "morale", "attacker", "thresholds"], "the attacker morale thresholds"),
    ]
    for loc, what in needed:
        node: Any = data
        for step in loc[1:]:
            node = node.get(step) if isinstance(node, dict) else None
        if node is None:
            yield ("system", loc[:-1], f"{'.'.join(str(s) for s in loc)} is missing ({what})")
    try:
        Tables.from_data(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        yield ("system", ["data"], f"the rules tables in data cannot be read: {exc}")


def _check_entries(which: str, model: Any) -> Iterator[CatalogFinding]:
    from ...catalog import iter_entries
    from ...model.catalog import Entry as EntryModel

    for loc, item in iter_entries(model):
        if not isinstance(item, EntryModel):
            continue
        cats = set(item.categories)
        if item.type == "model":
            kinds = cats & {"marines", "non-marines", "robot"}
            if len(kinds) != 1:
                yield (
                    which,
                    [*loc, "categories"],
                    f"{item.name}: a figure needs exactly one troop type category "
                    "(marines, non-marines or robot)",
                )
            elif figure_type(item) is None:
                yield (
                    which,
                    [*loc, "profiles"],
                    f"{item.name}: a figure needs a troop profile with whole-number "
                    "ship-morale and attack-morale",
                )
        if "sca" in cats and item.data.get("mod") not in (1, 2, 3):
            yield (which, [*loc, "data"], f"{item.name}: an SCA needs data.mod 1, 2 or 3")
        if cats & {"apgw-launcher", "apgw-pack"} and not _int(item.data.get("missiles")):
            yield (which, [*loc, "data"], f"{item.name}: an APGW launcher needs data.missiles")
        if "pallet" in cats and (
            not _int(item.data.get("per_pallet")) or not isinstance(item.data.get("item"), str)
        ):
            yield (
                which,
                [*loc, "data"],
                f"{item.name}: a pallet needs data.item (what it holds) and data.per_pallet",
            )


# --------------------------------------------------------------------------- building


def standard_contents(index: CatalogIndex, entry: Entry) -> list[tuple[Entry, int]]:
    """What a formation holds at full strength, from its order-of-battle constraints.

    Each ``min`` constraint on the formation (scope ``self``, children only) names a figure or
    sub-formation (or a category, e.g. ``combat-robot``: its first option) and how many.
    """
    options = index.children(entry)
    out: list[tuple[Entry, int]] = []
    for con in entry.constraints:
        if con.type != "min" or con.scope != "self" or con.child is None or con.deep:
            continue
        n = int(con.value)
        match = next((c for c in options if c.entry.id == con.child), None)
        if match is None:
            match = next((c for c in options if con.child in c.entry.categories), None)
        if match is not None and n > 0:
            out.append((match.entry, n))
    return out


def ordinal(n: int) -> str:
    """``1`` -> ``1st``, ``4`` -> ``4th``, ``12`` -> ``12th``."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return f"{n}th"
    return f"{n}{('st', 'nd', 'rd')[n % 10 - 1]}"


def add_standard(
    roster: Roster, index: CatalogIndex, parent: Loc, entry_id: str, name: str | None = None
) -> Loc:
    """Add a formation with its whole order of battle under ``parent``; returns its location.

    Sub-formations are added one selection each (named "1st Marine Squad", "2nd ..." when there
    are several), figures as one selection with a count, each with its groups' default
    equipment. Raises :class:`armybuilder.editing.NotAnOptionError` if the entry cannot be
    selected there.
    """
    from ...editing import NotAnOptionError, entry_at

    parent_entry = entry_at(roster, index, parent)
    child = index.child(parent_entry, entry_id)
    if child is None:
        where = "at the top level" if parent_entry is None else f"in {parent_entry.name}"
        raise NotAnOptionError(f"{entry_id!r} cannot be selected {where}")
    return _add_standard(roster, index, parent, child.entry, name)


def _add_standard(
    roster: Roster, index: CatalogIndex, parent: Loc, entry: Entry, name: str | None
) -> Loc:
    from ...editing import add_entry

    loc = add_entry(roster, index, parent, entry.id, name=name)
    for sub, n in standard_contents(index, entry):
        if sub.type == "unit":
            for i in range(n):
                sub_name = f"{ordinal(i + 1)} {sub.name}" if n > 1 else None
                _add_standard(roster, index, loc, sub, sub_name)
        else:
            add_entry(roster, index, loc, sub.id, count=n)
    return loc


RULES = StarshipMarine()
