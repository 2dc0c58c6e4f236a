"""The numbers the Infantry Operations rules produce, checked against the rules text.

Rules text: shared/seeds/004_305487a09ab214d9.txt ("Infantry Operations", BattleTech
conventional infantry house rules). Every expected figure below is taken from that text (the
section is named next to it) or computed in the test from figures of the text; the
implementation under test is armybuilder/rules/systems/infantry_ops.py with the catalogs in
catalogs/infantry-ops/.

Platoons are built programmatically (Roster.new + Roster.add) and evaluated with the bundled
catalogs; the example rosters in examples/infantry-ops/ are evaluated as shipped.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.dice import Dice
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation
from armybuilder.rules.engine import Node
from armybuilder.rules.systems.infantry_ops import (
    ProfileSyntaxError,
    WeaponStats,
    parse_ammo,
    parse_dv,
    parse_range,
    parse_setup,
)

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "infantry-ops"
SEED = REPO.parent / "shared" / "seeds" / "004_305487a09ab214d9.txt"
SYSTEM = "infantry-ops"

# Troopers of the kit used when only the head count matters: an Auto-Rifle and the standard
# Kevlar vest (encumbrance 1, not encumbered).
RIFLEMAN = ("auto-rifle", "kevlar-vest")

# --------------------------------------------------------------------------- seed tables

# "The Infantry Platoon", structure table (troopers per squad / squads per platoon):
# | Affiliation | Foot | Motorised (All) | Jump | Mech: (Hover/ VTOL) | Mech: Wheeled/ Naval) |
# |  Mech: (Tracked) |
# | InnerSphere | 7/4 | 7/4 | 7/3 | 5/4 | 6/4 | 7/4 |
# | Clan        | 5/5 | 5/5 | 5/4 | 5/5 | 5/5 | 5/5 |
# | Comstar     | 6/6 | 6/6 | 6/4 | 5/6 | 6/6 | 6/6 |
STRUCTURE_COLUMNS = (
    "foot",
    "motorised",
    "jump",
    "mech-hover-vtol",
    "mech-wheeled-naval",
    "mech-tracked",
)
STRUCTURE_TABLE: dict[str, tuple[tuple[int, int], ...]] = {
    "inner-sphere": ((7, 4), (7, 4), (7, 3), (5, 4), (6, 4), (7, 4)),
    "clan": ((5, 5), (5, 5), (5, 4), (5, 5), (5, 5), (5, 5)),
    "comstar": ((6, 6), (6, 6), (6, 4), (5, 6), (6, 6), (6, 6)),
}
SEED_AFFILIATION = {"InnerSphere": "inner-sphere", "Clan": "clan", "Comstar": "comstar"}
FACTIONS = tuple(STRUCTURE_TABLE)

# The structure-table column each motive entry falls in ("Motive Types", movement table).
MOTIVE_COLUMN = {
    "foot": "foot",
    "jump": "jump",
    "motorised-wheeled": "motorised",
    "motorised-hover": "motorised",
    "motorised-tracked": "motorised",
    "mechanised-wheeled": "mech-wheeled-naval",
    "mechanised-tracked": "mech-tracked",
    "mechanised-hover": "mech-hover-vtol",
    "mechanised-vtol": "mech-hover-vtol",
    "mechanised-naval": "mech-wheeled-naval",
}
MOTIVES = tuple(MOTIVE_COLUMN)
MECHANISED = tuple(m for m in MOTIVES if m.startswith("mechanised"))


def standard(faction: str, motive: str) -> tuple[int, int]:
    """(troopers per squad, squads) of the structure table."""
    return STRUCTURE_TABLE[faction][STRUCTURE_COLUMNS.index(MOTIVE_COLUMN[motive])]


# Movement table ("Movement Rules", "Movement Points"): MP (fast), the encumbered figure in
# square brackets for foot and jump, the mass column, and the mechanised Max Crew figure.
# Mechanised – Naval prints no MP cell.
@dataclass(frozen=True)
class MotiveRow:
    mp: int | None
    fast: int | None
    jump: int | None = None
    kg_per_trooper: int = 0  # on top of the 85 kg per trooper
    kg_per_squad: int = 0
    max_crew: int | None = None


FOOT_KG = 85  # "85 per trooper + Support Weapons"
MOVEMENT_TABLE = {
    "foot": MotiveRow(1, 2),  # "1 [0*E] (2)"
    "jump": MotiveRow(1, 2, jump=3, kg_per_trooper=80),  # "Foot, Jump", "3j [2E]", "+80 kg"
    "motorised-wheeled": MotiveRow(6, 9, kg_per_trooper=110),
    "motorised-hover": MotiveRow(7, 11, kg_per_trooper=130),
    "motorised-tracked": MotiveRow(5, 8, kg_per_trooper=150),
    "mechanised-wheeled": MotiveRow(7, 11, kg_per_squad=6000, max_crew=5),
    "mechanised-tracked": MotiveRow(4, 6, kg_per_squad=6000, max_crew=10),
    "mechanised-hover": MotiveRow(12, 18, kg_per_squad=5000, max_crew=4),
    "mechanised-vtol": MotiveRow(12, 18, kg_per_squad=5000, max_crew=4),
    "mechanised-naval": MotiveRow(None, None, kg_per_squad=6000, max_crew=5),
}
ENCUMBERED_FOOT_MP = 0  # "1 [0*E] (2)"
ENCUMBERED_JUMP_MP = 2  # "3j [2E]"; "leaps of upto 90 meters (60 if encumbered)"

# "Morale", experience table: Experience Level | Average Gunnery Skill | Base TN.
EXPERIENCE_TABLE = {
    "elite": ("Elite", "2", 0),
    "veteran": ("Veteran", "3", 2),
    "regular": ("Regular", "4", 4),
    "green": ("Green", "5", 6),
    "very-green": ("Very Green", "6-7", 8),
    "civilian": ("Civilian", "8", 10),
}

# "Weapon Rules" tables, as parsed values:
# id: (DV, damage types, burst dice, reach per bracket PB/S/M/L/EX (None = "-"), minimum range,
#      Enc., set-up, fixed mount (*), load, CF, CC, ammo (shots, carried, one shot, per missile))
N = None
# fmt: off
WEAPONS: dict[str, tuple[Any, ...]] = {
    # Small Melee and Pistols
    "knife-bayonet": (0.25, ("ML",), N, (0,), N, 0, 0, False, 0, 1, 1, (N, N, False, False)),
    "autopistol": (0.25, ("DB",), N, (0, 1), N, 0, 0, False, 0, 1, 1, (N, N, False, False)),
    "heavy-revolver": (0.5, ("DB",), N, (0,), N, 0, 0, False, 0, 1, 1, (N, N, False, False)),
    "machine-pistol": (0.5, ("DB",), N, (0,), N, 0, 0, False, 0, 1, 1, (N, N, False, False)),
    "laser-pistol": (0.25, ("DE",), N, (0, 1, 2), N, 0, 0, False, 0, 1, 1, (N, N, False, False)),
    "needler": (0.25, ("FL",), N, (0, 1), N, 0, 0, False, 0, 1, 1, (N, N, False, False)),
    "sawn-off-shotgun": (0.25, ("FL",), N, (0, 1), N, 0, 0, False, 0, 1, 1,
                         (N, N, False, False)),
    # Primary Weapons
    "auto-rifle": (0.5, ("DB",), N, (0, 1, 2, 3, 4), N, 1, 0, False, 0, 1, 1,
                   (N, N, False, False)),
    "smg": (0.5, ("DB",), N, (0, 1, 2, N, N), N, 1, 0, False, 0, 1, 1, (N, N, False, False)),
    "assault-shotgun": (0.5, ("DB", "FL"), N, (0, 1, 2, N, N), N, 1, 0, False, 0, 1, 1,
                        (N, N, False, False)),
    "rifle": (0.25, ("DB",), N, (0, 3, 6, 9, 12), N, 1, 0, False, 0, 1, 1, (N, N, False, False)),
    "sniper-rifle": (0.5, ("DB",), N, (0, 3, 6, 9), N, 2, 1, False, 0, 1, 1,
                     (N, N, False, False)),
    "anti-tank-rifle": (1.0, ("DB",), N, (0, 3, 6, 9), N, 3, 2, False, 0, 1, 1,
                        (N, N, False, False)),
    "laser-rifle": (0.25, ("DE",), N, (0, 2, 4, 6, 8), N, 1, 0, False, 0, 1, 1,
                    (N, N, False, False)),
    "katana": (0.5, ("ML",), N, (0,), N, 1, 0, False, 0, 1, 1, (N, N, False, False)),
    "no-dachi": (0.75, ("ML",), N, (0,), N, 1, 0, False, 0, 1, 1, (N, N, False, False)),
    # Secondary Weapons (Machine Guns)
    "squad-assault-weapon": (0.5, ("DB",), "1D3", (0, 2, 4, 6, 8), N, 1, 0, False, 0, 1, 1,
                             (N, N, False, False)),
    "light-mg": (1.0, ("DB",), "1D6", (0, 2, 4, 6, 8), N, 2, 1, True, 0, 1, 2,
                 (N, N, False, False)),
    "mg": (2.0, ("DB",), "2D6", (0, 1, 2, 3), N, 3, 2, True, 0, 2, 2, (N, N, False, False)),
    "heavy-mg": (3.0, ("DB",), "3D6", (0, 1, 2), N, 1, 3, True, 0, 2, 3, (N, N, False, False)),
    # Secondary Weapons (Missiles, Mortars and Grenades)
    "laaw": (2.0, ("CM",), N, (N, 3, 6, 9, 12), N, 1, 0, False, 0, 1, 1, (1, N, True, False)),
    "srm1": (2.0, ("CM",), N, (N, 3, 6, 9, 12), N, 3, 0, False, 1, 1, 1, (1, 2, False, False)),
    "lrm1": (1.0, ("CM", "IF"), N, (N, 7, 14, 21, 28), 6, 3, 0, False, 1, 1, 1,
             (1, 2, False, False)),
    "mml": (N, (), N, (), N, 3, 0, False, 1, 3, 3, (N, N, False, True)),
    "light-mortar": (1.0, ("HE", "IF"), N, (N, 3, 6, 9, 12), 2, 2, 1, True, 0, 2, 2,
                     (1, 8, False, False)),
    "heavy-mortar": (2.0, ("HE", "IF"), N, (N, 3, 6, 9, 12), 2, 3, 2, True, 0, 3, 3,
                     (1, 4, False, False)),
    "auto-grenade": (0.5, ("HE",), N, (N, 1, 2, 3, N), N, 1, 0, False, 1, 1, 1,
                     (6, N, False, False)),
    "grenade-launcher": (1.0, ("HE",), N, (N, 1, 2, 3, N), N, 2, 0, False, 1, 1, 1,
                         (6, N, False, False)),
    "heavy-grenade-launcher": (2.0, ("HE",), N, (N, 1, 2, 3, N), N, 3, 1, True, 1, 2, 2,
                               (6, N, False, False)),
    "thrown-grenade": (0.5, ("HE", "IF"), N, (0, 1, N, N), N, 1, 0, False, 0, 1, 1,
                       (4, N, False, False)),
    # Support Weapons (Energy)
    "support-small-laser": (2.0, ("DE",), N, (0, 1, 2, 3), N, 2, 0, False, 0, 1, 1,
                            (N, N, False, False)),
    "support-medium-laser": (3.0, ("DE",), N, (0, 3, 6, 9), N, 3, 1, True, 0, 1, 2,
                             (N, N, False, False)),
    "support-large-laser": (4.0, ("DE",), N, (0, 5, 10, 15), N, 3, 2, True, 0, 1, 3,
                            (N, N, False, False)),
    "support-ppc": (5.0, ("DE",), N, (0, 6, 12, 18), 3, 3, 3, True, 0, 1, 4,
                    (N, N, False, False)),
}
SUPPORT_WEAPONS = (
    "squad-assault-weapon", "light-mg", "mg", "heavy-mg", "srm1", "lrm1", "mml", "light-mortar",
    "heavy-mortar", "heavy-grenade-launcher", "support-small-laser", "support-medium-laser",
    "support-large-laser", "support-ppc",
)
# fmt: on

# --------------------------------------------------------------------------- helpers

Kit = Sequence[str]
SquadSpec = Sequence[tuple[int, Kit]]  # (number of troopers, their kit) per trooper selection


@dataclass
class Built:
    roster: Roster
    platoon_loc: tuple[str | int, ...]
    squad_locs: list[tuple[str | int, ...]]
    trooper_locs: list[list[tuple[str | int, ...]]]


@cache
def blank_roster(faction: str) -> Roster:
    """Roster.new, made once per faction (tests deep-copy it: YAML dumping is the slow part)."""
    return Roster.new(SYSTEM, faction, "test")


def build(
    faction: str,
    motive: str | None,
    squads: Sequence[SquadSpec],
    *,
    guns: int = 0,
    experience: str | None = None,
    squad_names: Sequence[str] | None = None,
) -> Built:
    """A roster with one platoon: its motive, field guns and one selection per squad."""
    roster = copy.deepcopy(blank_roster(faction))
    extra = {"experience": experience} if experience else {}
    platoon = roster.add((), "platoon", name="Test Platoon", **extra)
    if motive is not None:
        roster.add(platoon, motive)
    if guns:
        roster.add(platoon, "ac-5-field-gun", count=guns)
    squad_locs: list[tuple[str | int, ...]] = []
    trooper_locs: list[list[tuple[str | int, ...]]] = []
    for i, spec in enumerate(squads):
        name = squad_names[i] if squad_names else f"Squad {i + 1}"
        squad = roster.add(platoon, "squad", name=name)
        squad_locs.append(squad)
        trooper_locs.append([])
        for n, kit in spec:
            trooper = roster.add(squad, "trooper", count=n)
            trooper_locs[-1].append(trooper)
            for item in kit:
                roster.add(trooper, item)
    return Built(roster, platoon, squad_locs, trooper_locs)


def uniform(troopers: int, squads: int, kit: Kit = RIFLEMAN) -> list[SquadSpec]:
    return [[(troopers, kit)] for _ in range(squads)]


def node_at(ev: Evaluation, loc: tuple[str | int, ...]) -> Node:
    for n in ev.nodes():
        if n.loc == loc:
            return n
    raise AssertionError(f"no node at {loc}")


def platoon_of(ev: Evaluation) -> Node:
    platoons = [n for n in ev.nodes() if n.has_category("platoon")]
    assert len(platoons) == 1
    return platoons[0]


def text_of(ev: Evaluation, node: Node, key: str) -> str:
    for v in ev.values_of(node):
        if v.key == key:
            return v.display()
    raise AssertionError(f"no value {key!r} on {node}")


def codes(ev: Evaluation, severity: str | None = None) -> list[str]:
    return sorted(i.code for i in ev.issues if severity is None or i.severity == severity)


Evaluate = Callable[[Roster], Evaluation]


@pytest.fixture
def run(evaluate_roster: Evaluate) -> Callable[..., tuple[Evaluation, Node, Built]]:
    """Build a platoon and evaluate it: returns (evaluation, platoon node, built roster)."""

    def go(*args: Any, **kwargs: Any) -> tuple[Evaluation, Node, Built]:
        built = build(*args, **kwargs)
        ev = evaluate_roster(built.roster)
        return ev, platoon_of(ev), built

    return go


def seed_text() -> str:
    if not SEED.is_file():
        pytest.skip(f"rules text not found at {SEED}")
    return SEED.read_text(encoding="utf-8")


# =========================================================================== 1. examples


def example(evaluate_roster: Evaluate, name: str) -> tuple[Evaluation, Node]:
    ev = evaluate_roster(Roster.from_file(EXAMPLES / name))
    return ev, platoon_of(ev)


def test_example_rifle_platoon(evaluate_roster: Evaluate) -> None:
    """Example Units, "Foot Platoon (Rifle)": 7/4, 1 (2), 28 × 0.5 = 14 AV, grenades 14 AV."""
    ev, p = example(evaluate_roster, "rifle-platoon.yaml")
    assert ev.issues == []
    assert ev.valid
    assert ev.value(p, "troopers") == 28
    assert ev.value(p, "squads") == 4
    assert ev.value(p, "structure") == "7/4"
    assert ev.value(p, "av_primary")["av"] == 14
    assert ev.value(p, "av_secondary")["av"] == 14
    assert ev.value(p, "av_support")["av"] == 0
    assert ev.value(p, "encumbered") == 0
    assert text_of(ev, p, "movement") == "1 (2)"
    assert ev.value(p, "movement") == {"mp": 1, "fast": 2, "encumbered": False}
    assert ev.totals["kg"] == 28 * FOOT_KG


def test_example_rifle_lmg_platoon(evaluate_roster: Evaluate) -> None:
    """Example Units, "Foot Platoon (Rifle + Light Machine Gun)": 20 rifles = 10 AV,
    grenades 10 AV, 8 LMG × 1 DV = 8 AV +1D6 (two or more burst weapons: full dice)."""
    ev, p = example(evaluate_roster, "rifle-lmg-platoon.yaml")
    assert ev.issues == []
    assert ev.valid
    assert ev.value(p, "troopers") == 28
    assert ev.value(p, "av_primary")["av"] == 10
    assert ev.value(p, "av_secondary")["av"] == 10
    support = ev.value(p, "av_support")
    assert support["av"] == 8
    assert support["burst"] == "1D6"
    assert support["vs_armour"] == 8  # DV 1 weapons are anti-material
    assert text_of(ev, p, "av_support") == "8 +1D6"
    assert text_of(ev, p, "movement") == "1 (2)"
    # LMG: CC 2, CF 1; two per squad
    for sq in (n for n in ev.nodes() if n.has_category("squad")):
        assert ev.value(sq, "crew_to_carry") == 4
        assert ev.value(sq, "crew_to_fire") == 2
        assert ev.value(sq, "burst") == "1D6-3"


def test_example_rifle_srm_platoon(evaluate_roster: Evaluate) -> None:
    """Example Units, "Foot Platoon (Rifle + SRM1)": 6/4, Movement 0*, 16 × 0.5 = 8 AV,
    SRM1 8 × 2 DV = 16 AV, SRM ammo 16 × 2 shots."""
    ev, p = example(evaluate_roster, "rifle-srm-platoon.yaml")
    assert ev.valid
    assert ev.errors == []
    assert codes(ev, "warning") == ["io-encumbered", "io-encumbered", "min-not-met"]
    (min_issue,) = [i for i in ev.issues if i.code == "min-not-met"]
    assert "6" in min_issue.message and "7" in min_issue.message
    assert ev.value(p, "troopers") == 24
    assert ev.value(p, "structure") == "6/4"
    assert ev.value(p, "encumbered") == 24
    assert ev.value(p, "av_primary")["av"] == 8
    assert ev.value(p, "av_secondary")["av"] == 0
    support = ev.value(p, "av_support")
    assert support["av"] == 16
    assert support["vs_armour"] == 16
    assert "burst" not in support
    movement = ev.value(p, "movement")
    assert movement["mp"] == 0
    assert movement["fast"] is None
    assert text_of(ev, p, "movement").startswith("0*")
    ammo = ev.value(p, "ammo")
    assert ammo["SRM1"]["weapons"] == 8
    assert ammo["SRM1"]["reloads"] == 16 * 2


# =========================================================================== 2. structure


def test_structure_table_matches_seed() -> None:
    """The literal STRUCTURE_TABLE above is the seed's table, column for column."""
    rows: dict[str, list[tuple[int, int]]] = {}
    header: list[str] = []
    for line in seed_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "Affiliation":
            header = cells[1:]
        elif cells and cells[0] in SEED_AFFILIATION:
            rows[SEED_AFFILIATION[cells[0]]] = [
                (int(a), int(b)) for a, b in (c.split("/") for c in cells[1:])
            ]
    assert [h.split(":")[0].split()[0] for h in header] == [
        "Foot",
        "Motorised",
        "Jump",
        "Mech",
        "Mech",
        "Mech",
    ]
    assert "Hover" in header[3] and "Wheeled" in header[4] and "Tracked" in header[5]
    assert {k: tuple(v) for k, v in rows.items()} == STRUCTURE_TABLE


STRUCTURE_CASES = [(f, m) for f in FACTIONS for m in MOTIVES]


@pytest.mark.parametrize(("faction", "motive"), STRUCTURE_CASES)
def test_structure_standard(run: Callable[..., Any], faction: str, motive: str) -> None:
    troopers, squads = standard(faction, motive)
    ev, p, _ = run(faction, motive, uniform(troopers, squads))
    assert ev.issues == [], [i.message for i in ev.issues]
    assert ev.value(p, "structure") == f"{troopers}/{squads}"
    assert ev.value(p, "troopers") == troopers * squads
    assert ev.value(p, "squads") == squads


@pytest.mark.parametrize(("faction", "motive"), STRUCTURE_CASES)
def test_structure_extra_trooper(run: Callable[..., Any], faction: str, motive: str) -> None:
    troopers, squads = standard(faction, motive)
    spec = uniform(troopers, squads)
    spec[-1] = [(troopers + 1, RIFLEMAN)]
    ev, p, built = run(faction, motive, spec)
    maxes = [i for i in ev.issues if i.code == "max-exceeded"]
    assert len(maxes) == 1
    assert maxes[0].is_error
    assert maxes[0].path == built.squad_locs[-1]
    assert not ev.valid
    # the only other error possible: the vehicle's capacity (Max Crew + driver)
    row = MOVEMENT_TABLE[motive]
    over_capacity = row.max_crew is not None and troopers + 1 > row.max_crew + 1
    assert codes(ev, "error") == sorted(
        ["max-exceeded", *(["io-vehicle-capacity"] if over_capacity else [])]
    )
    assert ev.value(p, "structure") == f"{troopers + 1}+{troopers}/{squads}"


@pytest.mark.parametrize(("faction", "motive"), STRUCTURE_CASES)
def test_structure_one_trooper_fewer(run: Callable[..., Any], faction: str, motive: str) -> None:
    troopers, squads = standard(faction, motive)
    spec = uniform(troopers, squads)
    spec[0] = [(troopers - 1, RIFLEMAN)]
    ev, p, built = run(faction, motive, spec)
    assert ev.valid
    assert ev.errors == []
    assert codes(ev) == ["min-not-met"]
    assert ev.warnings[0].path == built.squad_locs[0]
    assert ev.value(p, "troopers") == troopers * squads - 1


@pytest.mark.parametrize(("faction", "motive"), STRUCTURE_CASES)
def test_structure_extra_squad(run: Callable[..., Any], faction: str, motive: str) -> None:
    troopers, squads = standard(faction, motive)
    ev, p, built = run(faction, motive, uniform(troopers, squads + 1))
    assert codes(ev) == ["max-exceeded"]
    assert ev.errors[0].path == built.platoon_loc
    assert not ev.valid
    assert ev.value(p, "structure") == f"{troopers}/{squads + 1}"


@pytest.mark.parametrize("faction", FACTIONS)
def test_structure_one_squad_fewer_is_a_warning(run: Callable[..., Any], faction: str) -> None:
    troopers, squads = standard(faction, "foot")
    ev, p, _ = run(faction, "foot", uniform(troopers, squads - 1))
    assert ev.valid
    assert codes(ev) == ["min-not-met"]
    assert ev.value(p, "squads") == squads - 1


def test_squad_copies_count_toward_structure(evaluate_roster: Evaluate) -> None:
    """A squad selection with count 5 is five squads (IS foot allows 4)."""
    roster = Roster.new(SYSTEM, "inner-sphere", "test")
    p = roster.add((), "platoon")
    roster.add(p, "foot")
    s = roster.add(p, "squad", count=5)
    t = roster.add(s, "trooper", count=7)
    for item in RIFLEMAN:
        roster.add(t, item)
    ev = evaluate_roster(roster)
    assert codes(ev) == ["max-exceeded"]
    assert ev.value(platoon_of(ev), "squads") == 5
    assert ev.value(platoon_of(ev), "troopers") == 35
    assert ev.value(platoon_of(ev), "structure") == "7/5"


# =========================================================================== 3. encumbrance


@pytest.mark.parametrize(
    ("kit", "enc"),
    [
        (("auto-rifle", "thrown-grenade", "kevlar-vest"), 2),
        (("auto-rifle", "thrown-grenade", "flak-vest"), 3),
        (("auto-rifle", "full-body-armour"), 3),
        (("auto-rifle", "kevlar-vest", "fire-proof-suit"), 2),
        (("auto-rifle", "thrown-grenade", "kevlar-vest", "ghillie-suit"), 3),
        (("auto-rifle", "flak-vest", "sneak-suit"), 3),
        (("knife-bayonet", "autopistol", "kevlar-vest"), 0),
        (("anti-tank-rifle", "kevlar-vest"), 3),
        (("sniper-rifle", "kevlar-vest"), 2),
        (("auto-rifle", "srm1-ammo", "kevlar-vest"), 3),  # "SRM Ammo 16 x 2 Shots (E2)"
        (("mg", "kevlar-vest"), 3),
        (("heavy-mg", "kevlar-vest"), 1),  # Heavy MG Enc. printed as 1
        (("light-mg", "kevlar-vest"), 2),
    ],
)
def test_trooper_encumbrance(run: Callable[..., Any], kit: Kit, enc: int) -> None:
    """Rules: "Any Trooper can carry 2 encumbrance points ... If they have 3 ... encumbered."""
    ev, p, built = run("inner-sphere", "foot", [[(7, kit)]])
    trooper = node_at(ev, built.trooper_locs[0][0])
    assert ev.value(trooper, "encumbrance") == enc
    encumbered = enc >= 3
    assert ev.value(p, "encumbered") == (7 if encumbered else 0)
    assert codes(ev).count("io-encumbered") == (1 if encumbered else 0)
    if encumbered:
        (w,) = [i for i in ev.issues if i.code == "io-encumbered"]
        assert w.severity == "warning"
        assert w.path == built.trooper_locs[0][0]
        assert text_of(ev, trooper, "encumbrance") == f"{enc} (encumbered)"
        assert ev.value(p, "movement") == {"mp": 0, "fast": None, "encumbered": True}
        assert text_of(ev, p, "movement").startswith("0*")
    else:
        assert ev.value(p, "movement") == {"mp": 1, "fast": 2, "encumbered": False}
        assert text_of(ev, p, "movement") == "1 (2)"


@pytest.mark.parametrize(
    ("armour", "points", "boxes"),
    [("kevlar-vest", 0, 1), ("flak-vest", 1, 2), ("full-body-armour", 2, 2)],
)
def test_armour_points_and_damage_boxes(
    run: Callable[..., Any], armour: str, points: int, boxes: int
) -> None:
    """Armour table; "Weapon Damage": an armoured trooper takes a 1st and a 2nd hit."""
    ev, p, built = run("inner-sphere", "foot", [[(7, ("auto-rifle", armour))]] * 4)
    assert ev.value(node_at(ev, built.trooper_locs[0][0]), "armour") == points
    assert ev.value(p, "damage_boxes") == 28 * boxes


def test_one_encumbered_trooper_slows_the_platoon(run: Callable[..., Any]) -> None:
    spec = uniform(7, 4)
    spec[2] = [(6, RIFLEMAN), (1, ("anti-tank-rifle", "kevlar-vest"))]
    ev, p, _ = run("inner-sphere", "foot", spec)
    assert ev.value(p, "encumbered") == 1
    assert ev.value(p, "movement")["mp"] == ENCUMBERED_FOOT_MP
    assert ev.valid


def test_jump_platoon_encumbered(run: Callable[..., Any]) -> None:
    """Jump: 3 jump MP, 2 when encumbered ("3j [2E]")."""
    troopers, squads = standard("inner-sphere", "jump")
    kit = ("auto-rifle", "thrown-grenade", "flak-vest")
    ev, p, _ = run("inner-sphere", "jump", uniform(troopers, squads, kit))
    movement = ev.value(p, "movement")
    assert movement["jump"] == ENCUMBERED_JUMP_MP
    assert movement["mp"] == ENCUMBERED_FOOT_MP
    assert movement["fast"] is None
    text = text_of(ev, p, "movement")
    assert text.startswith("0*")
    assert "jump 2" in text
    assert ev.value(p, "encumbered") == troopers * squads
    assert codes(ev) == ["io-encumbered"] * squads
    assert ev.valid


@pytest.mark.parametrize("motive", ["motorised-wheeled", "motorised-hover", "motorised-tracked"])
def test_motorised_platoon_encumbered_moves_as_usual(run: Callable[..., Any], motive: str) -> None:
    """Encumbered movement "applies only to foot and jump movement"."""
    troopers, squads = standard("inner-sphere", motive)
    kit = ("auto-rifle", "thrown-grenade", "flak-vest")
    ev, p, _ = run("inner-sphere", motive, uniform(troopers, squads, kit))
    row = MOVEMENT_TABLE[motive]
    assert ev.value(p, "encumbered") == troopers * squads
    assert ev.value(p, "movement") == {"mp": row.mp, "fast": row.fast, "encumbered": False}
    assert text_of(ev, p, "movement") == f"{row.mp} ({row.fast})"
    assert codes(ev) == ["io-encumbered"] * squads


# =========================================================================== 4. attack values


def rounded_up(x: float) -> int:
    return math.ceil(x)


@pytest.mark.parametrize(
    ("weapon", "n", "dv"),
    [
        ("rifle", 7, 0.25),  # 1.75 -> 2
        ("rifle", 5, 0.25),  # 1.25 -> 2
        ("rifle", 4, 0.25),  # 1.0 -> 1
        ("auto-rifle", 7, 0.5),  # 3.5 -> 4
        ("laser-rifle", 3, 0.25),  # 0.75 -> 1
        ("smg", 1, 0.5),  # 0.5 -> 1
        ("anti-tank-rifle", 3, 1.0),
        ("sniper-rifle", 5, 0.5),  # 2.5 -> 3
    ],
)
def test_primary_av_sum_rounded_up(run: Callable[..., Any], weapon: str, n: int, dv: float) -> None:
    """Rules: "add together all of the DV off all the Primary weapons in that unit and round up"."""
    ev, p, built = run("inner-sphere", "foot", [[(n, (weapon, "kevlar-vest"))]])
    av = ev.value(p, "av_primary")
    assert av["dv_total"] == pytest.approx(n * dv)
    assert av["av"] == rounded_up(n * dv)
    # "Any weapon with a DV of less than 1 is considered an AP weapon"
    assert av["vs_armour"] == (av["av"] if dv >= 1 else 0)
    assert ev.value(node_at(ev, built.squad_locs[0]), "av_primary") == rounded_up(n * dv)


def test_rounding_happens_once_per_platoon(run: Callable[..., Any]) -> None:
    """4 squads of 7 Rifles: 28 × 0.25 = 7 (not 4 × ceil(1.75) = 8)."""
    ev, p, _ = run("inner-sphere", "foot", uniform(7, 4, ("rifle", "kevlar-vest")))
    assert ev.value(p, "av_primary")["av"] == 7


def test_anti_material_mixed_with_anti_personnel(run: Callable[..., Any]) -> None:
    """3 Anti-Tank Rifles (DV 1) + 2 Auto-Rifles: AV 4, of which 3 hurts armour;
    2 LAAW (DV 2) secondary: AV 4, all of it vs armour; grenades (0.5) none."""
    spec = [
        [
            (3, ("anti-tank-rifle", "thrown-grenade", "kevlar-vest")),
            (2, ("auto-rifle", "laaw", "kevlar-vest")),
        ]
    ]
    ev, p, _ = run("inner-sphere", "foot", spec)
    primary = ev.value(p, "av_primary")
    assert (primary["av"], primary["vs_armour"]) == (4, 3)
    secondary = ev.value(p, "av_secondary")
    assert secondary["av"] == rounded_up(3 * 0.5 + 2 * 2)  # 6
    assert secondary["vs_armour"] == 4
    assert "anti-personnel" not in text_of(ev, p, "av_primary")


def test_anti_personnel_only_text(run: Callable[..., Any]) -> None:
    ev, p, _ = run("inner-sphere", "foot", uniform(7, 4))
    assert ev.value(p, "av_primary")["vs_armour"] == 0
    assert "anti-personnel" in text_of(ev, p, "av_primary")


@pytest.mark.parametrize(
    ("kit", "per_trooper"),
    [
        (("knife-bayonet", "heavy-revolver"), 0.5),
        (("knife-bayonet",), 0.25),
        (("knife-bayonet", "autopistol"), 0.25),
        (("knife-bayonet", "machine-pistol", "katana"), 0.5),
        (("knife-bayonet", "autopistol", "no-dachi"), 0.75),
        (("autopistol", "katana"), 0.5),
        ((), 0.0),
    ],
)
def test_melee_av_uses_highest_per_trooper(
    run: Callable[..., Any], kit: Kit, per_trooper: float
) -> None:
    """Melee AV: "added together all of the Melee/Small Melee or Pistol AV (using the highest
    value for different troopers)"."""
    ev, p, _ = run("inner-sphere", "foot", [[(7, (*kit, "kevlar-vest"))]])
    melee = ev.value(p, "av_melee")
    assert melee["dv_total"] == pytest.approx(7 * per_trooper)
    assert melee["av"] == rounded_up(7 * per_trooper)


def test_melee_and_primary_are_separate(run: Callable[..., Any]) -> None:
    """Knife + revolver + auto-rifle: melee 7 × 0.5 = 3.5 -> 4; primary 3.5 -> 4."""
    kit = ("knife-bayonet", "heavy-revolver", "auto-rifle", "kevlar-vest")
    ev, p, _ = run("inner-sphere", "foot", [[(7, kit)]])
    assert ev.value(p, "av_melee")["av"] == 4
    assert ev.value(p, "av_primary")["av"] == 4
    assert ev.value(p, "av_secondary")["av"] == 0


@pytest.mark.parametrize(
    ("weapon", "count", "burst"),
    [
        ("light-mg", 1, "1D6÷2"),  # "If there is only 1 burst fire unit, half the dice roll."
        ("light-mg", 2, "1D6"),  # "If there are 2 support weapons with burst fire ... full"
        ("light-mg", 4, "1D6"),
        ("squad-assault-weapon", 1, "1D3÷2"),
        ("squad-assault-weapon", 3, "1D3"),
        ("mg", 1, "2D6÷2"),
        ("mg", 2, "2D6"),
        ("heavy-mg", 1, "3D6÷2"),
    ],
)
def test_burst_fire_bonus(run: Callable[..., Any], weapon: str, count: int, burst: str) -> None:
    """Rules: "Burst fire": per platoon, full dice with two or more burst weapons, half with one."""
    # one gunner per squad so CC/CF never exceed a 7-trooper squad
    spec = [[(6, RIFLEMAN), (1, (weapon, "kevlar-vest"))] for _ in range(count)]
    ev, p, built = run("inner-sphere", "foot", spec)
    support = ev.value(p, "av_support")
    assert support["burst"] == burst
    dv = WEAPONS[weapon][0]
    assert support["av"] == rounded_up(count * dv)
    assert text_of(ev, p, "av_support").startswith(f"{support['av']} +{burst}")
    # "If you are using burst fire for single squads roll 1D6-3 per squad."
    for loc in built.squad_locs:
        assert ev.value(node_at(ev, loc), "burst") == "1D6-3"


def test_no_burst_without_burst_weapons(run: Callable[..., Any]) -> None:
    spec = [[(6, RIFLEMAN), (1, ("support-small-laser", "kevlar-vest"))]]
    ev, p, built = run("inner-sphere", "foot", spec)
    assert "burst" not in ev.value(p, "av_support")
    assert ev.value(node_at(ev, built.squad_locs[0]), "burst") is None


@pytest.mark.parametrize(
    ("rifle", "rifle_dv"), [("auto-rifle", 0.5), ("rifle", 0.25), ("anti-tank-rifle", 1.0)]
)
def test_crew_to_fire_two_removes_the_assistant(
    run: Callable[..., Any], rifle: str, rifle_dv: float
) -> None:
    """Infantry Attacks: "If a weapon with a Crew to Fire (CC) of 2 or more is fired then
    those troopers may not contribute to other attack values": an MG (CF 2) takes one rifleman
    out per MG."""
    spec = [[(6, (rifle, "kevlar-vest")), (1, ("mg", "kevlar-vest"))] for _ in range(4)]
    ev, p, _ = run("inner-sphere", "foot", spec)
    primary = ev.value(p, "av_primary")
    assert primary["av"] == rounded_up(24 * rifle_dv)
    assert ev.value(p, "av_primary_with_support") == rounded_up(20 * rifle_dv)
    assert ev.value(p, "av_support")["av"] == 4 * 2
    assert ev.value(p, "av_support")["burst"] == "2D6"


def test_heavy_mortar_three_crew(run: Callable[..., Any]) -> None:
    """Heavy Mortar CF 3: two assistants besides the gunner."""
    spec = [[(6, RIFLEMAN), (1, ("heavy-mortar", "kevlar-vest"))]]
    ev, p, _ = run("inner-sphere", "foot", spec)
    assert ev.value(p, "av_primary")["av"] == 3
    assert ev.value(p, "av_primary_with_support") == rounded_up(4 * 0.5)
    assert ev.value(p, "av_support")["av"] == 2


def test_crew_to_fire_one_removes_nobody(run: Callable[..., Any]) -> None:
    """LMG has CF 1: no assistant, so no separate 'while support fires' primary AV."""
    spec = [[(6, RIFLEMAN), (1, ("light-mg", "kevlar-vest"))]]
    ev, p, _ = run("inner-sphere", "foot", spec)
    assert ev.value(p, "av_primary")["av"] == 3
    assert ev.value(p, "av_primary_with_support") is None


def test_roster_totals(run: Callable[..., Any]) -> None:
    ev, _, _ = run("inner-sphere", "foot", uniform(7, 4))
    assert ev.value(ev.root, "troopers") == 28
    assert ev.value(ev.root, "platoons") == 1


# =========================================================================== 5. crew


# "Weapon Statistics": CF and CC per support weapon (tables above).
@pytest.mark.parametrize(
    ("weapon", "weapons", "squad_size"),
    [
        ("mg", 3, 5),  # CC 2 × 3 = 6 > 5
        ("mg", 2, 5),  # 4 <= 5
        ("heavy-mg", 1, 2),  # CC 3 > 2, CF 2 <= 2
        ("heavy-mg", 1, 3),
        ("heavy-mg", 2, 5),  # CC 6 > 5, CF 4 <= 5
        ("light-mg", 3, 5),  # CC 6 > 5, CF 3
        ("mml", 1, 2),  # CC 3, CF 3
        ("mml", 2, 6),
        ("support-ppc", 1, 3),  # CC 4, CF 1
        ("support-ppc", 1, 4),
        ("support-large-laser", 2, 5),  # CC 6
        ("heavy-mortar", 2, 7),  # CC 6, CF 6
        ("heavy-mortar", 3, 7),  # CC 9, CF 9
        ("srm1", 6, 6),
    ],
)
def test_crew_to_carry_and_fire(
    run: Callable[..., Any], weapon: str, weapons: int, squad_size: int
) -> None:
    cf, cc = WEAPONS[weapon][9], WEAPONS[weapon][10]
    spec = [[(weapons, (weapon, "kevlar-vest")), (squad_size - weapons, RIFLEMAN)]]
    if squad_size == weapons:
        spec = [[(weapons, (weapon, "kevlar-vest"))]]
    ev, _, built = run("inner-sphere", "foot", spec, squad_names=["Weapons Squad"])
    squad = node_at(ev, built.squad_locs[0])
    assert ev.value(squad, "crew_to_carry") == cc * weapons
    assert ev.value(squad, "crew_to_fire") == cf * weapons
    carry = [i for i in ev.issues if i.code == "io-crew-to-carry"]
    fire = [i for i in ev.issues if i.code == "io-crew-to-fire"]
    assert len(carry) == (1 if cc * weapons > squad_size else 0)
    assert len(fire) == (1 if cf * weapons > squad_size else 0)
    for issue in carry + fire:
        assert issue.is_error
        assert issue.path == built.squad_locs[0]
        assert "Weapons Squad" in issue.message
    assert ev.valid == (not carry and not fire)


def test_crew_counts_squad_copies_once_each(evaluate_roster: Evaluate) -> None:
    """Crew is per squad: a squad selection ×4 with one MG each is fine (CC 2 <= 7), and the
    platoon fields 4 MGs (burst in full, 2D6)."""
    roster = Roster.new(SYSTEM, "inner-sphere", "test")
    p = roster.add((), "platoon")
    roster.add(p, "foot")
    s = roster.add(p, "squad", count=4)
    t = roster.add(s, "trooper", count=6)
    for item in RIFLEMAN:
        roster.add(t, item)
    g = roster.add(s, "trooper")
    roster.add(g, "mg")
    roster.add(g, "kevlar-vest")
    ev = evaluate_roster(roster)
    assert ev.valid
    squad = node_at(ev, s)
    assert ev.value(squad, "crew_to_carry") == 2
    assert ev.value(squad, "crew_to_fire") == 2
    support = ev.value(platoon_of(ev), "av_support")
    assert (support["av"], support["burst"]) == (8, "2D6")
    assert ev.value(platoon_of(ev), "av_primary")["av"] == 12
    assert ev.value(platoon_of(ev), "av_primary_with_support") == 10
    assert ev.value(platoon_of(ev), "encumbered") == 4


# =========================================================================== 6. gun crews


def test_gun_crew_text_example(run: Callable[..., Any]) -> None:
    """Rules: "Attacks by Gunnery Crews": an AC/5 weighs 8 tons, so requires a crew of 8; a Gunnery
    Mechanised Tracked Platoon can fully crew 3 AC/5 with 24 troopers, leaving 4 unassigned.
    Towing units subtract 1 from their cruise movement (4 (6) -> 3 (6))."""
    troopers, squads = standard("inner-sphere", "mechanised-tracked")
    assert (troopers, squads) == (7, 4)
    ev, p, _ = run("inner-sphere", "mechanised-tracked", uniform(troopers, squads), guns=3)
    assert ev.issues == []
    assert ev.valid
    assert ev.value(p, "field_guns") == 3
    assert ev.value(p, "gun_crew") == 24
    assert ev.value(p, "unassigned") == 4
    assert ev.value(p, "movement") == {"mp": 3, "fast": 6, "encumbered": False}
    assert text_of(ev, p, "movement").startswith("3 (6)")


def test_gun_crew_short(run: Callable[..., Any]) -> None:
    """4 AC/5 need 32 crew; the platoon has 28."""
    ev, p, built = run("inner-sphere", "mechanised-tracked", uniform(7, 4), guns=4)
    assert codes(ev) == ["io-gun-crew-short"]
    assert ev.errors[0].path == built.platoon_loc
    assert "32" in ev.errors[0].message and "28" in ev.errors[0].message
    assert ev.value(p, "gun_crew") == 32
    assert ev.value(p, "unassigned") == 0
    assert not ev.valid


@pytest.mark.parametrize("motive", MECHANISED[:-1])  # naval: no MP printed
def test_towing_costs_one_cruise_mp(run: Callable[..., Any], motive: str) -> None:
    troopers, squads = standard("inner-sphere", motive)
    ev, p, _ = run("inner-sphere", motive, uniform(troopers, squads), guns=1)
    row = MOVEMENT_TABLE[motive]
    assert ev.value(p, "movement")["mp"] == (row.mp or 0) - 1
    assert ev.value(p, "movement")["fast"] == row.fast


def test_foot_gun_crew_does_not_tow(run: Callable[..., Any]) -> None:
    """Foot gun crews have their guns towed by other units: their own movement is unchanged;
    the 4 troopers left over "may make normal infantry attacks" (4 × 0.5 = 2)."""
    ev, p, _ = run("inner-sphere", "foot", uniform(7, 4), guns=3)
    assert ev.value(p, "movement") == {"mp": 1, "fast": 2, "encumbered": False}
    assert ev.value(p, "gun_crew") == 24
    assert ev.value(p, "unassigned") == 4
    assert ev.value(p, "av_primary")["av"] == 2
    assert ev.valid


def test_gun_crew_cannot_add_support_weapons(run: Callable[..., Any]) -> None:
    """Rules: "Gunnery crews manning field guns ... can't make infantry attacks": with every trooper
    carrying an SRM1 and 3 AC/5 crewed by 24 of the 28, only 4 SRM1 (8 AV) can fire."""
    spec = uniform(7, 4, ("srm1", "kevlar-vest"))
    ev, p, _ = run("inner-sphere", "foot", spec, guns=3)
    assert ev.value(p, "unassigned") == 4
    assert ev.value(p, "av_support")["av"] == 4 * 2


def test_gun_crew_vs_armour_excludes_crew(run: Callable[..., Any]) -> None:
    """Anti-Tank Rifles (DV 1) with 24 of 28 troopers on the guns: the AV is 4 and the part
    that hurts armour ("Anti-Personnel vs Anti-Material") cannot be larger than the AV."""
    spec = uniform(7, 4, ("anti-tank-rifle", "kevlar-vest"))
    ev, p, _ = run("inner-sphere", "foot", spec, guns=3)
    primary = ev.value(p, "av_primary")
    assert primary["av"] == 4
    assert primary["vs_armour"] == 4


# =========================================================================== 7. movement, mass


@pytest.mark.parametrize("motive", MOTIVES)
def test_movement_per_motive(run: Callable[..., Any], motive: str) -> None:
    troopers, squads = standard("inner-sphere", motive)
    ev, p, _ = run("inner-sphere", motive, uniform(troopers, squads))
    row = MOVEMENT_TABLE[motive]
    movement = ev.value(p, "movement")
    if row.mp is None:
        assert movement is None
        assert text_of(ev, p, "movement") == "not given by the rules"
        return
    expected: dict[str, Any] = {"mp": row.mp, "fast": row.fast, "encumbered": False}
    text = f"{row.mp} ({row.fast})"
    if row.jump is not None:
        expected["jump"] = row.jump
        text += f", jump {row.jump}"
    assert movement == expected
    assert text_of(ev, p, "movement") == text


@pytest.mark.parametrize(("faction", "motive"), STRUCTURE_CASES)
def test_mass_per_motive(run: Callable[..., Any], faction: str, motive: str) -> None:
    """Movement table, Mass (kg): 85 per trooper; jump +80 and motorised +110/+130/+150 per
    trooper; mechanised 6 t per squad (wheeled, tracked, naval) or 5 t (hover, VTOL)."""
    troopers, squads = standard(faction, motive)
    ev, p, _ = run(faction, motive, uniform(troopers, squads))
    row = MOVEMENT_TABLE[motive]
    kg = troopers * squads * (FOOT_KG + row.kg_per_trooper) + squads * row.kg_per_squad
    assert ev.totals["kg"] == kg
    assert ev.value(p, "mass") == kg


def test_mechanised_mass_counts_squad_copies(evaluate_roster: Evaluate) -> None:
    roster = Roster.new(SYSTEM, "inner-sphere", "test")
    p = roster.add((), "platoon")
    roster.add(p, "mechanised-hover")
    s = roster.add(p, "squad", count=4)
    t = roster.add(s, "trooper", count=5)
    for item in RIFLEMAN:
        roster.add(t, item)
    ev = evaluate_roster(roster)
    assert ev.issues == []
    assert ev.totals["kg"] == 20 * FOOT_KG + 4 * 5000
    assert ev.value(platoon_of(ev), "structure") == "5/4"


@pytest.mark.parametrize("motive", MECHANISED)
def test_vehicle_capacity(run: Callable[..., Any], motive: str) -> None:
    """Mechanised: "(Max Crew – N + Driver)": N + 1 troopers fit, N + 2 do not."""
    cap = MOVEMENT_TABLE[motive].max_crew
    assert cap is not None
    ev, _, built = run("inner-sphere", motive, [[(cap + 1, RIFLEMAN)], [(cap + 2, RIFLEMAN)]])
    over = [i for i in ev.issues if i.code == "io-vehicle-capacity"]
    assert [i.path for i in over] == [built.squad_locs[1]]
    assert over[0].is_error


# =========================================================================== 8. experience


@pytest.mark.parametrize("level", list(EXPERIENCE_TABLE))
def test_experience(run: Callable[..., Any], level: str) -> None:
    name, gunnery, tn = EXPERIENCE_TABLE[level]
    ev, p, _ = run("inner-sphere", "foot", uniform(7, 4), experience=level)
    assert ev.issues == []
    assert ev.value(p, "experience") == name
    assert ev.value(p, "gunnery") == gunnery
    assert ev.value(p, "morale_tn") == tn


def test_experience_default_is_regular(run: Callable[..., Any]) -> None:
    ev, p, _ = run("clan", "foot", uniform(5, 5))
    assert ev.value(p, "experience") == "Regular"
    assert ev.value(p, "gunnery") == "4"
    assert ev.value(p, "morale_tn") == 4


def test_unknown_experience(run: Callable[..., Any]) -> None:
    ev, _, _ = run("inner-sphere", "foot", uniform(7, 4), experience="legendary")
    assert codes(ev) == ["unknown-experience"]
    assert not ev.valid


# =========================================================================== 9. parsers


def catalog_weapons(library: Library) -> dict[str, tuple[str, dict[str, Any]]]:
    index = library.index(SYSTEM, "inner-sphere")
    out = {}
    for eid, entry in index.shared.items():
        for prof in entry.profiles:
            if prof.type == "weapon":
                out[eid] = (entry.name, dict(prof.characteristics))
    return out


def test_every_catalog_weapon_is_tabled(library: Library) -> None:
    assert sorted(catalog_weapons(library)) == sorted(WEAPONS)


@pytest.mark.parametrize("weapon", list(WEAPONS))
def test_catalog_weapon_parses(library: Library, weapon: str) -> None:
    name, chars = catalog_weapons(library)[weapon]
    stats = WeaponStats.from_profile(name, chars)
    (dv, types, burst, reach, minimum, enc, setup, fixed, load, cf, cc, ammo) = WEAPONS[weapon]
    assert stats.dv.value == dv
    assert stats.dv.types == types
    assert stats.dv.burst == (Dice.from_text(burst) if burst else None)
    assert stats.dv.anti_material == (dv is not None and dv >= 1)
    assert tuple(b.reach for b in stats.range.brackets) == reach
    assert stats.range.minimum == minimum
    assert stats.range.longest == max((r for r in reach if r is not None), default=0)
    assert (stats.enc, stats.setup, stats.fixed_mount, stats.load) == (enc, setup, fixed, load)
    assert (stats.cf, stats.cc) == (cf, cc)
    a = stats.ammo
    assert (a.shots, a.carried, a.one_shot, a.per_missile) == ammo
    assert (stats.type == "support") == (weapon in SUPPORT_WEAPONS)


def test_lrm1_range() -> None:
    r = parse_range("-/7/14/21/28 (-/0/+2/+4/+6) Min 6")
    assert r.minimum == 6
    assert r.longest == 28
    assert [(b.name, b.reach, b.modifier) for b in r.brackets] == [
        ("PB", None, None),
        ("S", 7, 0),
        ("M", 14, 2),
        ("L", 21, 4),
        ("EX", 28, 6),
    ]


def test_heavy_mg_range_three_brackets() -> None:
    r = parse_range("0/1/2/ (+2/0/+2)")
    assert [(b.name, b.reach, b.modifier) for b in r.brackets] == [
        ("PB", 0, 2),
        ("S", 1, 0),
        ("M", 2, 2),
    ]
    assert r.longest == 2


def test_thrown_grenade_point_blank_footnote() -> None:
    r = parse_range("0/1/-/- (0**/0)")
    assert [(b.reach, b.modifier) for b in r.brackets] == [
        (0, 0),
        (1, 0),
        (None, None),
        (None, None),
    ]


def test_dv_parsing() -> None:
    saw = parse_dv("0.5(DB) +1D3(BF)")
    assert (saw.value, saw.types, saw.burst) == (0.5, ("DB",), Dice(1, 3))
    mg = parse_dv("2 (DB) +2D6(BF)")
    assert (mg.value, mg.burst) == (2.0, Dice(2, 6))
    grenade = parse_dv("0.5(HE) (IF)")
    assert "IF" in grenade.types and grenade.value == 0.5
    assert not grenade.anti_material
    mml = parse_dv("Per Missile")
    assert mml.value is None and mml.types == ()
    assert parse_dv("0.50 (DB)").value == 0.5
    assert parse_dv("1(DB)").anti_material


def test_ammo_and_setup_parsing() -> None:
    srm = parse_ammo("1 (2)")
    assert (srm.shots, srm.carried) == (1, 2)
    laaw = parse_ammo("OS")
    assert laaw.one_shot and laaw.shots == 1
    assert laaw.text() == "one shot"
    assert parse_ammo("–").shots is None
    assert parse_ammo("Per Missile").per_missile
    assert parse_ammo("6").shots == 6
    assert parse_setup("1*") == (1, True)
    assert parse_setup("2") == (2, False)


@pytest.mark.parametrize(
    ("parser", "text"),
    [
        (parse_dv, "0.5(XX)"),
        (parse_dv, "abc"),
        (parse_dv, "1 DB"),
        (parse_dv, ".5(DB)"),
        (parse_dv, "1(DB) +1D1(BF)"),  # a burst of one-sided dice is not a DV either
        (parse_range, "1/2/x (0)"),
        (parse_range, "abc"),
        (parse_range, ""),
        (parse_range, "0/1/2/3/4/5"),
        (parse_range, "0/1 (a/0)"),
        (parse_range, "0/1/2 (-1/0/+2) Min x"),
        (parse_ammo, "abc"),
        (parse_ammo, "1 (x)"),
        (parse_setup, "abc"),
        (parse_setup, "*"),
    ],
)
def test_bad_profile_strings_raise(parser: Callable[[str], Any], text: str) -> None:
    with pytest.raises(ProfileSyntaxError):
        parser(text)


def test_from_profile_rejects_bad_fields() -> None:
    good = {
        "type": "primary",
        "dv": "0.5(DB)",
        "range": "0/1 (0/0)",
        "enc": 1,
        "setup": "0",
        "load": "0",
        "cf": 1,
        "cc": 1,
        "ammo": "–",
    }
    WeaponStats.from_profile("ok", good)
    for key, bad in [
        ("type", "sidearm"),
        ("enc", "1.5"),
        ("cf", True),
        ("dv", "0.5(XX)"),
        ("range", "1/2/x (0)"),
        ("ammo", "lots"),
        ("setup", "x"),
    ]:
        with pytest.raises(ProfileSyntaxError):
            WeaponStats.from_profile("bad", {**good, key: bad})


# =========================================================================== 10. driver


@pytest.mark.parametrize("faction", FACTIONS)
@pytest.mark.parametrize("motive", MECHANISED)
def test_mechanised_driver_adds_nothing(run: Callable[..., Any], faction: str, motive: str) -> None:
    """Mechanised movement: "One trooper is designated the driver, so they may not add their
    DV to their units' AV": one trooper per squad drops out of primary, secondary and melee."""
    troopers, squads = standard(faction, motive)
    kit = ("auto-rifle", "thrown-grenade", "knife-bayonet", "kevlar-vest")
    ev, p, _ = run(faction, motive, uniform(troopers, squads, kit))
    attackers = (troopers - 1) * squads
    assert ev.value(p, "av_primary")["av"] == rounded_up(attackers * 0.5)
    assert ev.value(p, "av_secondary")["av"] == rounded_up(attackers * 0.5)
    assert ev.value(p, "av_melee")["av"] == rounded_up(attackers * 0.25)


@pytest.mark.parametrize("motive", ["foot", "jump", "motorised-wheeled"])
def test_no_driver_when_not_mechanised(run: Callable[..., Any], motive: str) -> None:
    troopers, squads = standard("inner-sphere", motive)
    ev, p, _ = run("inner-sphere", motive, uniform(troopers, squads))
    assert ev.value(p, "av_primary")["av"] == rounded_up(troopers * squads * 0.5)


def test_mechanised_driver_mixed_squad(run: Callable[..., Any]) -> None:
    """IS mechanised wheeled (6/4): 4 riflemen + 2 SRM1 per squad. The driver is one of the
    riflemen: primary (16 - 4) × 0.5 = 6, SRM1 support 8 × 2 = 16."""
    spec = [[(4, RIFLEMAN), (2, ("srm1", "kevlar-vest"))] for _ in range(4)]
    ev, p, _ = run("inner-sphere", "mechanised-wheeled", spec)
    assert ev.value(p, "av_primary")["av"] == 6
    assert ev.value(p, "av_support")["av"] == 16


def test_mechanised_driver_when_every_trooper_carries_support(run: Callable[..., Any]) -> None:
    """IS mechanised wheeled (6/4), every trooper with an SRM1: one trooper per squad drives,
    so 5 SRM1 per squad fire: (24 - 4) × 2 = 40."""
    spec = uniform(6, 4, ("srm1", "kevlar-vest"))
    ev, p, _ = run("inner-sphere", "mechanised-wheeled", spec)
    assert ev.value(p, "av_support")["av"] == (24 - 4) * 2


def test_mechanised_driver_vs_armour(run: Callable[..., Any]) -> None:
    """IS mechanised tracked (7/4) with Anti-Tank Rifles (DV 1): 24 riflemen besides the
    drivers, AV 24; every point is anti-material, so vs_armour is 24 as well."""
    spec = uniform(7, 4, ("anti-tank-rifle", "kevlar-vest"))
    ev, p, _ = run("inner-sphere", "mechanised-tracked", spec)
    primary = ev.value(p, "av_primary")
    assert primary["av"] == 24
    assert primary["vs_armour"] == 24


# =========================================================================== other issues


@pytest.mark.parametrize(
    "kit", [("auto-rifle", "mg", "kevlar-vest"), ("auto-rifle", "kevlar-vest", "flak-vest")]
)
def test_one_main_weapon_one_armour(run: Callable[..., Any], kit: Kit) -> None:
    ev, _, built = run("inner-sphere", "foot", [[(7, kit)], *uniform(7, 3)])
    assert "max-exceeded" in codes(ev, "error")
    assert any(i.path == built.trooper_locs[0][0] for i in ev.errors)


def test_unknown_and_misplaced_entries(run: Callable[..., Any]) -> None:
    ev, _, built = run(
        "inner-sphere",
        "foot",
        [[(7, ("auto-rifle", "kevlar-vest", "plasma-rifle", "ac-5-field-gun"))], *uniform(7, 3)],
    )
    assert codes(ev) == ["entry-not-allowed", "unknown-entry"]
    trooper = built.trooper_locs[0][0]
    paths = {i.code: i.path for i in ev.issues}
    assert paths["unknown-entry"] == (*trooper, "selections", 2)
    assert paths["entry-not-allowed"] == (*trooper, "selections", 3)


def test_motive_required(run: Callable[..., Any]) -> None:
    ev, p, _ = run("inner-sphere", None, uniform(7, 4))
    assert codes(ev) == ["min-not-met"]
    assert ev.value(p, "movement") is None


def test_two_motives_not_allowed(evaluate_roster: Evaluate) -> None:
    built = build("inner-sphere", "foot", uniform(7, 4))
    built.roster.add(built.platoon_loc, "jump")
    ev = evaluate_roster(built.roster)
    assert "max-exceeded" in codes(ev, "error")


# =========================================================================== rules fidelity
# Fléchette weapons, reloads for every weapon with a carried ammo figure, field guns in the
# platoon's mass, the standard knife and side arm, unarmoured troopers.

Run = Callable[..., Any]


# ----------------------------------------------------------------- Fléchette (Types: FL)


@pytest.mark.parametrize(
    ("kit", "attack", "base", "unarmoured", "armoured"),
    [
        # Assault Shotgun 0.5 (DB) (FL): 7 × 0.5 = 3.5 -> 4; 7 × 0.75 = 5.25 -> 6;
        # 7 × 0.25 = 1.75 -> 2.
        (("assault-shotgun", "kevlar-vest"), "primary", 4, 6, 2),
        # Needler 0.25 (FL) alone: melee 7 × 0.25 -> 2; 7 × 0.5 -> 4; 7 × 0 -> 0.
        (("needler", "kevlar-vest"), "melee", 2, 4, 0),
        # Sawn-off shotgun 0.25 (FL) with a knife 0.25 (ML): the highest per trooper counts,
        # so against armour the knife's 0.25 is kept: 7 × 0.25 -> 2.
        (("knife-bayonet", "sawn-off-shotgun", "kevlar-vest"), "melee", 2, 4, 2),
    ],
)
def test_flechette_attack_values(
    run: Run, kit: tuple[str, ...], attack: str, base: int, unarmoured: int, armoured: int
) -> None:
    """Weapons and Equipment, Types: "FL – Fléchette +0.25 [DV] vs unarmoured targets, -0.25
    DV vs Armoured Targets"."""
    ev, p, _ = run("inner-sphere", "foot", [[(7, kit)]])
    assert ev.value(p, f"av_{attack}")["av"] == base
    assert ev.value(p, f"av_{attack}_unarmoured") == unarmoured
    assert ev.value(p, f"av_{attack}_armoured") == armoured
    assert text_of(ev, p, f"av_{attack}_unarmoured").startswith(f"{unarmoured} ")


def test_no_flechette_values_without_flechette_weapons(run: Run) -> None:
    ev, p, _ = run("inner-sphere", "foot", uniform(7, 4))
    assert ev.value(p, "av_primary_unarmoured") is None
    assert ev.value(p, "av_primary_armoured") is None


# ----------------------------------------------------------------- Reloads (Ammo)


@pytest.mark.parametrize(
    ("weapon", "reload", "shots"),
    [
        ("srm1", "srm1-ammo", 2),  # "1 (2)"
        ("lrm1", "lrm1-ammo", 2),  # "1 (2)"
        ("light-mortar", "light-mortar-ammo", 8),  # "1 (8)"
        ("heavy-mortar", "heavy-mortar-ammo", 4),  # "1 (4)"
    ],
)
def test_reloads_for_every_bracketed_ammo(run: Run, weapon: str, reload: str, shots: int) -> None:
    """Weapons and Equipment (Ammo): the bracketed figure is the shots a trooper can carry; the
    Rifle + SRM1 example gives the load encumbrance 2 ("SRM Ammo 16 x 2 Shots (E2)")."""
    bearers = (4, ("auto-rifle", reload, "kevlar-vest"))
    crew = (3, (weapon, "kevlar-vest"))
    ev, p, built = run("inner-sphere", "foot", [[bearers, crew]])
    assert "unknown-entry" not in codes(ev)
    assert "entry-not-allowed" not in codes(ev)
    ammo = ev.value(p, "ammo")
    (name,) = [n for n, t in ammo.items() if t["reloads"]]
    assert ammo[name]["reloads"] == 4 * shots
    bearer = next(n for n in ev.nodes() if n.loc == built.trooper_locs[0][0])
    assert ev.value(bearer, "encumbrance") == 1 + 2  # Auto-Rifle E1 + reload E2


def test_reload_shots_must_match_the_weapon(library: Library) -> None:
    """A reload that does not hold the bracketed number of shots is a catalog error."""
    from armybuilder.rules.systems.infantry_ops import RULES

    system = library.system("infantry-ops")
    model = system.model.model_copy(deep=True)
    for e in model.shared_entries:
        if e.id == "lrm1-ammo":
            e.data["shots"] = 3
    found = list(RULES.check_catalog(model, None, None))
    assert any("lrm1" in msg and "2 shots" in msg for _, _, msg in found), found


# ----------------------------------------------------------------- Field guns in the mass


def test_platoon_mass_counts_field_guns(run: Run) -> None:
    """Attacks by Gunnery Crews: "an AC/5 weighs 8 tons"; Movement Points: 85 kg a trooper,
    mechanised tracked 6 tons a squad."""
    ev, p, _ = run("inner-sphere", "mechanised-tracked", uniform(7, 4), guns=3)
    expected = 28 * FOOT_KG + 4 * 6000 + 3 * 8000
    assert ev.value(p, "mass") == expected
    assert ev.totals["kg"] == expected


# ----------------------------------------------------------------- Standard kit (Weaponry)


@pytest.mark.parametrize(
    ("name", "troopers"),
    [("rifle-platoon.yaml", 28), ("rifle-lmg-platoon.yaml", 28), ("rifle-srm-platoon.yaml", 24)],
)
def test_examples_keep_the_standard_knife_and_side_arm(
    evaluate_roster: Evaluate, name: str, troopers: int
) -> None:
    """Weaponry: every trooper carries a knife and a side arm; the Melee AV adds the highest
    Melee/Small Melee/Pistol DV of each trooper (Infantry Attacks): knife 0.25, AutoPistol
    0.25, so troopers × 0.25 rounded up."""
    ev = evaluate_roster(Roster.from_file(EXAMPLES / name))
    p = platoon_of(ev)
    melee = ev.value(p, "av_melee")
    assert melee["dv_total"] == pytest.approx(troopers * 0.25)
    assert melee["av"] == -(-troopers // 4)


def test_a_new_trooper_gets_the_standard_kit_and_may_drop_it(
    library: Library, evaluate_roster: Evaluate
) -> None:
    """The builder adds the knife, AutoPistol and Kevlar vest to a new trooper; removing the
    knife and side arm is legal (they are a default, not a requirement)."""
    roster = Roster.new("infantry-ops", "inner-sphere", "kit")
    index = library.index("infantry-ops", "inner-sphere")
    platoon = add_entry(roster, index, (), "platoon")
    squad = add_entry(roster, index, platoon, "squad")
    trooper = add_entry(roster, index, squad, "trooper", count=7)
    ev = evaluate_roster(roster)
    node = next(n for n in ev.nodes() if n.loc == trooper)
    assert {c.entry.id for c in node.children if c.entry} >= {
        "knife-bayonet",
        "autopistol",
        "kevlar-vest",
    }
    assert ev.value(platoon_of(ev), "av_melee")["av"] == 2  # 7 × 0.25 = 1.75 -> 2
    for child in sorted(
        (c for c in node.children if c.entry and c.entry.id in {"knife-bayonet", "autopistol"}),
        key=lambda c: c.loc,
        reverse=True,
    ):
        roster.remove(child.loc)
    ev = evaluate_roster(roster)
    assert ev.errors == []
    assert not [i for i in ev.issues if "Knife" in i.message or "Side arm" in i.message]
    assert ev.value(platoon_of(ev), "av_melee")["av"] == 0


# ----------------------------------------------------------------- Unarmoured troopers


def test_unarmoured_military_trooper_is_a_warning(run: Run) -> None:
    """Armour is the soldier's standard kit (Weapons and Equipment), but the rules know
    unarmoured targets (Advanced Damage System: "+4 if the target is unarmoured (civilian)")."""
    ev, _, built = run("inner-sphere", "foot", [[(7, ("auto-rifle",))], *uniform(7, 3)])
    assert ev.errors == []
    assert codes(ev) == ["io-no-armour"]
    assert ev.warnings[0].path == built.trooper_locs[0][0]


def test_unarmoured_civilians_are_fine(run: Run) -> None:
    """Morale, experience table: Civilian, gunnery 8, base TN 10."""
    ev, p, _ = run(
        "inner-sphere", "foot", [[(7, ("auto-rifle",))], *uniform(7, 3)], experience="civilian"
    )
    assert ev.issues == []
    assert ev.value(p, "morale_tn") == 10
    assert ev.value(p, "damage_boxes") == 28


def test_show_says_which_morale_events_have_no_modifier(capsys: pytest.CaptureFixture[str]) -> None:
    """The rules' morale table gives "Unit suffers losses" and "Unit attacked by a vehicle" no
    modifier ("–": they call for a test). ``show`` listed them bare ("Unit suffers losses;"),
    as if a number had been lost; it now says so, and the others keep their numbers."""
    from armybuilder.cli import main

    assert main(["show", str(EXAMPLES / "rifle-platoon.yaml")]) == 0
    (line,) = [x for x in capsys.readouterr().out.splitlines() if "Morale test modifiers" in x]
    items = line.split(": ", 1)[1].split("; ")
    assert "Unit suffers losses (no modifier)" in items
    assert "Attacked by a vehicle (no modifier)" in items
    assert "Unit is pinned -2" in items and "Unit is rallied +2" in items
    assert "Highest leadership rank within 3 hexes (Regular +1, Veteran +2, Elite +4)" in items
    assert all(any(ch.isdigit() for ch in i) or i.endswith("(no modifier)") for i in items)
