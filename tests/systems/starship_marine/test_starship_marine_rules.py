"""The numbers the Starship Marine rules produce, and the issues they raise.

Rules text: shared/seeds/001_aee7d77e3f7a5af7.txt (Starship Marine, Streamline 2005). Expected
figures are worked out by hand from the units the text lists (part 5) and the rules of the
sections named; the printed summary tables are deliberately *not* used as expectations (several
are wrong, see the seeds README) except to show where they agree. The implementation under test
is armybuilder/rules/systems/starship_marine.py with catalogs/starship-marine/.

Rosters are built with the module's ``add_standard`` (a formation with its whole order of
battle) and edited with the Roster API, then evaluated with the bundled catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from fractions import Fraction as F
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.editing import add_entry
from armybuilder.rosters import Loc, Roster
from armybuilder.rules import Evaluation, evaluate
from armybuilder.rules.engine import Node
from armybuilder.rules.systems.starship_marine import (
    RULES,
    Tables,
    add_standard,
    below_threshold,
    counted_actions,
    experience_class,
    ordinal,
    standard_contents,
)

SYSTEM = "starship-marine"
Evaluate = Callable[[Roster], Evaluation]

# --------------------------------------------------------------------------- helpers


def new(library: Library, faction: str, entry_id: str | None = None) -> tuple[Roster, Loc]:
    """A roster of ``faction`` holding ``entry_id`` at full strength (its location)."""
    roster = Roster.new(SYSTEM, faction, "test")
    if entry_id is None:
        return roster, ()
    loc = add_standard(roster, library.system(SYSTEM).index(faction), (), entry_id)
    return roster, loc


def child(roster: Roster, loc: Loc, entry_id: str, nth: int = 0) -> Loc:
    """The location of the ``nth`` selection of ``entry_id`` directly under ``loc``."""
    sels = roster.node(loc)["selections"] if loc else roster.doc["selections"]
    hits = [i for i, s in enumerate(sels) if s["entry"] == entry_id]
    return (*loc, "selections", hits[nth])


def kit(roster: Roster, loc: Loc) -> list[str]:
    return [s["entry"] for s in roster.node(loc).get("selections", [])]


def remove_kit(roster: Roster, loc: Loc, entry_id: str) -> None:
    roster.remove(child(roster, loc, entry_id))


def nodes(ev: Evaluation, entry_id: str) -> Iterator[Node]:
    return (n for n in ev.nodes() if n.entry_id == entry_id)


def node(ev: Evaluation, entry_id: str) -> Node:
    return next(nodes(ev, entry_id))


def codes(ev: Evaluation) -> tuple[list[str], list[str]]:
    """(error codes, warning codes)."""
    return [i.code for i in ev.errors], [i.code for i in ev.warnings]


@pytest.fixture
def run(library: Library, evaluate_roster: Evaluate) -> Callable[..., Any]:
    return evaluate_roster


# --------------------------------------------------------------------------- head counts

# (officers, other ranks, non-marines, combat robots, close support robots, TRUCs), worked out
# from the units listed in part 5 (the catalog header of each corps explains the readings).
HEADS: dict[str, dict[str, tuple[int, int, int, int, int, int]]] = {
    "earther": {  # 5.1
        "earther-regimental-hq": (3, 4, 0, 2, 4, 6),  # Lt Col, Staff Capt, Staff Maj; RSM + 3
        "earther-group-hq": (2, 4, 0, 2, 4, 2),  # Major, Captain; Corporal + 3 marines
        "earther-squad": (1, 8, 0, 2, 0, 0),  # Lieutenant; Sergeant, Corporal, 6 marines
        "earther-group": (5, 28, 0, 8, 4, 2),  # HQ + 3 squads
        "earther-logistics-group": (0, 0, 11, 0, 0, 20),  # Lt Cdr + 10 naval logs
        "earther-regiment": (18, 88, 11, 26, 16, 32),  # RHQ + 3 groups + logistics
    },
    "martian": {  # 5.2
        "martian-regimental-hq": (3, 6, 0, 0, 4, 2),
        "martian-group-hq": (2, 6, 0, 0, 4, 0),
        "martian-squad": (1, 10, 0, 0, 0, 0),
        "martian-group": (5, 36, 0, 0, 4, 0),
        "martian-logistics-group": (0, 0, 17, 0, 0, 10),
        "martian-regiment": (18, 114, 17, 0, 16, 12),
    },
    "esteeler": {  # 5.3
        "esteeler-regimental-hq": (3, 4, 0, 0, 0, 2),  # Lt Col, Lieutenant, Staff Major
        "esteeler-company-hq": (1, 0, 0, 2, 0, 0),
        "esteeler-platoon-hq": (1, 2, 0, 0, 0, 0),
        "esteeler-section": (0, 6, 0, 2, 0, 0),
        "esteeler-platoon": (1, 26, 0, 8, 0, 0),
        "esteeler-company": (3, 52, 0, 18, 0, 0),
        "esteeler-logistics-platoon": (1, 4, 0, 0, 0, 14),  # Marine Captain + 4 specialists
        "esteeler-regiment": (10, 112, 0, 36, 0, 16),
    },
    "sirian": {  # 5.4, squads with their 4 combat robots, logistics with 16 TRUCs
        "sirian-company-hq": (2, 2, 0, 4, 6, 4),
        "sirian-platoon-hq": (1, 3, 0, 4, 4, 0),
        "sirian-squad": (0, 5, 0, 4, 0, 0),
        "sirian-platoon": (1, 18, 0, 16, 4, 0),
        "sirian-logistics-platoon": (0, 0, 5, 0, 0, 16),
        "sirian-company": (5, 56, 5, 52, 18, 20),
    },
}
HEAD_KEYS = (
    "officers",
    "other_ranks",
    "non_marines",
    "combat_robots",
    "close_support_robots",
    "trucs",
)
CASES = [(f, e) for f, table in HEADS.items() for e in table]
TOP = {
    "earther": "earther-regiment",
    "martian": "martian-regiment",
    "esteeler": "esteeler-regiment",
    "sirian": "sirian-company",
}


def heads(ev: Evaluation, n: Node) -> tuple[int, ...]:
    h = ev.value(n, "head_count")
    return tuple(h[k] for k in HEAD_KEYS)


@pytest.mark.parametrize(("faction", "entry_id"), CASES)
def test_head_counts_per_formation(
    library: Library, run: Evaluate, faction: str, entry_id: str
) -> None:
    roster, _ = new(library, faction, entry_id)
    ev = run(roster)
    assert ev.issues == []
    top = ev.root.children[0]
    assert heads(ev, top) == HEADS[faction][entry_id]
    assert heads(ev, ev.root) == HEADS[faction][entry_id]  # the whole force


@pytest.mark.parametrize("faction", list(HEADS))
def test_head_counts_of_every_level_inside_the_top_formation(
    library: Library, run: Evaluate, faction: str
) -> None:
    ev = run(new(library, faction, TOP[faction])[0])
    for entry_id, expected in HEADS[faction].items():
        found = list(nodes(ev, entry_id))
        assert found, entry_id
        for n in found:
            assert heads(ev, n) == expected, (entry_id, ev.where(n))


def test_venerian_fields_the_earther_regiment(library: Library, run: Evaluate) -> None:
    ev = run(new(library, "venerian", "earther-regiment")[0])
    assert ev.issues == []
    assert heads(ev, ev.root) == HEADS["earther"]["earther-regiment"]


# The summary tables printed at the end of each order of battle (officers, other ranks,
# non-marines, combat robots, close support robots, TRUC); None where nothing legible is printed.
PRINTED = {
    "earther-regiment": (18, None, 11, 26, 16, 32),  # other ranks printed as "XX"
    "martian-regiment": (18, 104, 17, 0, 16, 18),
    "esteeler-regiment": (9, 105, 0, 40, 16, 14),
    "sirian-company": (5, 57, 5, 52, 18, 20),
}
# Where the printed summary disagrees with the units listed above it.
PRINTED_WRONG = {
    "earther-regiment": set(),
    "martian-regiment": {"other_ranks", "trucs"},
    "esteeler-regiment": {
        "officers",
        "other_ranks",
        "combat_robots",
        "close_support_robots",
        "trucs",
    },
    "sirian-company": {"other_ranks"},
}


@pytest.mark.parametrize("entry_id", list(PRINTED))
def test_computed_counts_versus_printed_summaries(
    library: Library, run: Evaluate, entry_id: str
) -> None:
    faction = entry_id.split("-")[0]
    ev = run(new(library, faction, entry_id)[0])
    computed = dict(zip(HEAD_KEYS, heads(ev, ev.root), strict=True))
    printed = dict(zip(HEAD_KEYS, PRINTED[entry_id], strict=True))
    differ = {k for k in HEAD_KEYS if printed[k] is not None and printed[k] != computed[k]}
    assert differ == PRINTED_WRONG[entry_id]


def test_head_counts_follow_the_structure(library: Library, run: Evaluate) -> None:
    """Counts are computed from what is in the roster, not copied from anywhere."""
    roster, reg = new(library, "earther", "earther-regiment")
    group = child(roster, reg, "earther-group", 1)
    roster.remove(child(roster, group, "earther-squad", 2))  # one squad fewer
    ev = run(roster)
    assert heads(ev, ev.root) == (17, 80, 11, 24, 16, 32)
    assert codes(ev) == ([], ["min-not-met"])  # the group is under strength

    squad = child(roster, child(roster, reg, "earther-group", 0), "earther-squad", 0)
    marines = child(roster, squad, "marine")
    roster.set(marines, "count", 7)  # one marine too many
    add_entry(roster, library.system(SYSTEM).index("earther"), squad, "fusilier-robot")
    ev = run(roster)
    assert heads(ev, ev.root) == (17, 81, 11, 25, 16, 32)
    errors, _ = codes(ev)
    assert errors == ["max-exceeded", "max-exceeded"]  # marines 7 > 6, combat robots 3 > 2
    assert ev.value(ev.root, "head_count")["armoured_robots"] == 1


def test_counted_selections_multiply(library: Library, run: Evaluate) -> None:
    roster, grp = new(library, "earther", "earther-group")
    squads = [child(roster, grp, "earther-squad", i) for i in range(3)]
    for loc in reversed(squads[1:]):
        roster.remove(loc)
    roster.set(squads[0], "count", 3)  # "Marine Squad ×3" instead of three selections
    ev = run(roster)
    assert ev.issues == []
    assert heads(ev, ev.root) == HEADS["earther"]["earther-group"]


# --------------------------------------------------------------------------- morale

# (ship morale, attacker morale) at the start: marines 3 / 2, non-marine officers 2 / 1,
# crewmen 1 / 1, robots 0 (3.12, 3.13).
MORALE = {
    ("earther", "earther-squad"): (27, 18),  # 9 marines
    ("earther", "earther-group"): (99, 66),  # 33 marines
    ("earther", "earther-logistics-group"): (12, 11),  # Lt Cdr 2 + 10 ratings
    ("earther", "earther-regiment"): (330, 223),  # 106 marines, 1 officer, 10 ratings
    ("martian", "martian-squad"): (33, 22),
    ("martian", "martian-regiment"): (414, 281),  # 132 marines, 1 officer, 16 ratings
    ("esteeler", "esteeler-section"): (18, 12),
    ("esteeler", "esteeler-regiment"): (366, 244),  # 122 marines
    ("sirian", "sirian-squad"): (15, 10),
    ("sirian", "sirian-company"): (189, 127),  # 61 marines, 1 officer, 4 ratings
}


@pytest.mark.parametrize(("faction", "entry_id"), list(MORALE))
def test_morale_strength(library: Library, run: Evaluate, faction: str, entry_id: str) -> None:
    ev = run(new(library, faction, entry_id)[0])
    ship, attacker = MORALE[(faction, entry_id)]
    for n in (ev.root.children[0], ev.root):
        assert ev.value(n, "ship_morale")["strength"] == ship
        assert ev.value(n, "attacker_morale")["strength"] == attacker


def test_morale_thresholds_of_a_squad(library: Library, run: Evaluate) -> None:
    ev = run(new(library, "earther", "earther-squad")[0])
    ship = ev.value(ev.root, "ship_morale")
    # 27: below 60% = under 16.2, below 40% = under 10.8, below 20% = under 5.4
    assert ship["below"] == {"60": 16, "40": 10, "20": 5}
    attacker = ev.value(ev.root, "attacker_morale")
    # 18: below 50% = under 9, below 25% = under 4.5
    assert attacker["below"] == {"50": 8, "25": 4}
    text = next(v for v in ev.roster_values if v.key == "ship_morale").text
    assert text == (
        "27; below 60% at 16 or less (-1), below 40% at 10 or less (-2), "
        "below 20% at 5 or less (-4)"
    )


def test_morale_thresholds_of_a_regiment(library: Library, run: Evaluate) -> None:
    ev = run(new(library, "earther", "earther-regiment")[0])
    assert ev.value(ev.root, "ship_morale")["below"] == {"60": 197, "40": 131, "20": 65}
    assert ev.value(ev.root, "attacker_morale")["below"] == {"50": 111, "25": 55}


@pytest.mark.parametrize(
    ("strength", "percent", "at"),
    [
        (100, 60, 59),  # exactly 60 is not below 60%
        (100, 50, 49),
        (10, 25, 2),  # 2.5
        (5, 60, 2),
        (5, 40, 1),
        (5, 20, 0),
        (1, 20, 0),
        (4, 25, 0),  # 25% of 4 is 1: only 0 is below it
        (0, 60, None),
    ],
)
def test_below_threshold(strength: int, percent: int, at: int | None) -> None:
    assert below_threshold(strength, percent) == at


def test_robots_count_nothing_for_morale(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    party = add_entry(roster, idx, (), "crew-party")
    for entry_id in ("combat-robot", "armoured-robot", "clanker", "truc", "close-support-robot"):
        add_entry(roster, idx, party, entry_id, count=3)
    ev = run(roster)
    assert ev.value(ev.root, "ship_morale") == {
        "strength": 0,
        "below": {"60": None, "40": None, "20": None},
    }
    assert ev.value(ev.root, "attacker_morale")["strength"] == 0


def test_ship_morale_of_a_ships_company(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    co = add_entry(roster, idx, (), "ships-company")
    add_entry(roster, idx, co, "ships-officer", count=3)  # 3 x 2
    add_entry(roster, idx, co, "crewman", count=10)  # 10 x 1
    det = add_entry(roster, idx, co, "ships-marine-detachment")
    add_entry(roster, idx, det, "sergeant")
    add_entry(roster, idx, det, "marine", count=3)  # 4 marines x 3
    add_entry(roster, idx, co, "clanker", count=20)  # 0
    ev = run(roster)
    assert ev.issues == []
    assert ev.value(ev.root, "ship_morale")["strength"] == 6 + 10 + 12
    assert ev.value(ev.root, "attacker_morale")["strength"] == 3 + 10 + 8


# --------------------------------------------------------------------------- ammunition

# (grenades, door charges): 4 per man, 2 per marine (3.16)
AMMO = {
    ("earther", "earther-squad"): (36, 18),
    ("martian", "martian-squad"): (44, 22),
    ("esteeler", "esteeler-section"): (24, 12),
    ("sirian", "sirian-squad"): (20, 10),
    ("earther", "earther-logistics-group"): (44, 0),  # 11 naval men, no marines
    ("esteeler", "esteeler-logistics-platoon"): (20, 10),
    ("earther", "earther-regiment"): (468, 212),  # 117 men, 106 marines
}


@pytest.mark.parametrize(("faction", "entry_id"), list(AMMO))
def test_ammunition_issue(library: Library, run: Evaluate, faction: str, entry_id: str) -> None:
    ev = run(new(library, faction, entry_id)[0])
    grenades, charges = AMMO[(faction, entry_id)]
    assert ev.value(ev.root.children[0], "ammunition") == {
        "grenades": grenades,
        "door_charges": charges,
    }


def test_robots_draw_no_ammunition(library: Library, run: Evaluate) -> None:
    ev = run(new(library, "earther", "earther-group-hq")[0])  # 6 marines and 8 robots
    assert ev.value(ev.root, "ammunition") == {"grenades": 24, "door_charges": 12}


# --------------------------------------------------------------------------- APGW


def test_apgw_missiles_per_launcher(library: Library, run: Evaluate) -> None:
    ev = run(new(library, "earther", "earther-regiment")[0])
    apgw = ev.value(ev.root, "apgw")
    assert apgw == {"launchers": 16, "close_support_marines": 0, "missiles": 160, "callers": 106}
    assert ev.value(node(ev, "earther-group-hq"), "apgw")["missiles"] == 40
    assert ev.value(node(ev, "earther-squad"), "apgw") is None  # no launchers in a squad


def close_support_squad(library: Library) -> tuple[Roster, Loc, Loc]:
    """An Earther squad with one of its marines converted into a close support marine."""
    roster, squad = new(library, "earther", "earther-squad")
    marines = child(roster, squad, "marine")
    roster.set(marines, "count", 5)
    idx = library.system(SYSTEM).index("earther")
    cs = add_entry(roster, idx, squad, "marine")  # comes with armour and SCA II
    remove_kit(roster, cs, "sca-2")
    add_entry(roster, idx, cs, "apgw-pack")
    return roster, squad, cs


def test_close_support_marine(library: Library, run: Evaluate) -> None:
    roster, _, _ = close_support_squad(library)
    ev = run(roster)
    assert ev.issues == []
    squad = ev.root.children[0]
    assert ev.value(squad, "apgw") == {
        "launchers": 1,
        "close_support_marines": 1,
        "missiles": 6,
        "callers": 8,
    }
    # he gives up grenades and demolition charges: 8 men draw them
    assert ev.value(squad, "ammunition") == {"grenades": 32, "door_charges": 16}
    cs = next(n for n in nodes(ev, "marine") if ev.value(n, "close_support"))
    assert ev.value(cs, "close_support") == {"missiles": 6}
    assert heads(ev, squad) == (1, 8, 0, 2, 0, 0)  # still a marine private


# --------------------------------------------------------------------------- logistics


def test_pallets_and_truc_capacity(library: Library, run: Evaluate) -> None:
    roster, logs = new(library, "earther", "earther-logistics-group")
    idx = library.system(SYSTEM).index("earther")
    trucs = child(roster, logs, "truc")
    roster.set(trucs, "count", 12)
    for n, pallet in ((3, "pallet-grenades"), (4, "pallet-apgw"), (1, "pallet-wirepod")):
        loc = add_entry(roster, idx, logs, "truc", count=n)
        add_entry(roster, idx, loc, pallet)
    ev = run(roster)
    assert ev.issues == []
    logistics = ev.value(ev.root, "logistics")
    assert logistics["trucs"] == 20
    assert logistics["pallet_capacity"] == 20
    assert logistics["pallets"] == 8
    assert logistics["free_trucs"] == 12
    assert logistics["casualty_lift"] == 24  # 2 per TRUC (3.17)
    loads = {d["pallet"]: (d["pallets"], d["items"]) for d in logistics["loads"]}
    assert loads == {
        "Pallet: grenades": (3, 72),
        "Pallet: APGW missiles": (4, 40),
        "Pallet: WirePod": (1, 1),
    }


def test_a_truc_carries_one_pallet(library: Library, run: Evaluate) -> None:
    roster, logs = new(library, "earther", "earther-logistics-group")
    idx = library.system(SYSTEM).index("earther")
    truc = child(roster, logs, "truc")
    add_entry(roster, idx, truc, "pallet-grenades")
    add_entry(roster, idx, truc, "pallet-door-charges")
    ev = run(roster)
    assert codes(ev) == (["max-exceeded"], [])


# --------------------------------------------------------------------------- experience

MARINE_CLASSES = [
    (0, "Novice", "Green"),
    (1, "Experienced", "No sticker"),
    (14, "Experienced", "No sticker"),
    (15, "Seasoned", "Yellow"),
    (29, "Seasoned", "Yellow"),
    (30, "Veteran", "Red"),
    (100, "Veteran", "Red"),
]
NON_MARINE_CLASSES = [
    (0, "Raw", "White"),
    (1, "Novice", "Green"),
    (4, "Novice", "Green"),
    (5, "Experienced", "No sticker"),
    (19, "Experienced", "No sticker"),
    (20, "Seasoned", "Yellow"),
    (39, "Seasoned", "Yellow"),
    (40, "Veteran", "Red"),
]


def with_state(
    library: Library,
    state: dict[str, Any] | None,
    figure: str = "lieutenant",
    campaign: bool = True,
) -> Roster:
    """An Earther squad (or, for a naval figure, a logistics group) with ``state`` on one figure;
    the roster plays the campaign rules of part 4 unless ``campaign`` is False."""
    if figure == "lieutenant":
        roster, top = new(library, "earther", "earther-squad")
    else:
        roster, top = new(library, "earther", "earther-logistics-group")
    loc = child(roster, top, figure)
    if state is not None:
        roster.set(loc, "state", state)
    if campaign:
        play_campaign(roster)
    return roster


def play_campaign(roster: Roster) -> None:
    """Select the campaign rules option at the top of the roster (part 4)."""
    roster.add((), "campaign-rules")


def experience_of(ev: Evaluation, figure: str) -> dict[str, Any]:
    value = ev.value(node(ev, figure), "experience")
    assert value is not None
    return dict(value)


@pytest.mark.parametrize(("actions", "name", "sticker"), MARINE_CLASSES)
def test_marine_experience(
    library: Library, run: Evaluate, actions: int, name: str, sticker: str
) -> None:
    ev = run(with_state(library, {"actions": actions}))
    assert ev.issues == []
    xp = experience_of(ev, "lieutenant")
    assert (xp["class"], xp["sticker"], xp["counted"]) == (name, sticker, actions)


@pytest.mark.parametrize(("actions", "name", "sticker"), NON_MARINE_CLASSES)
def test_non_marine_experience(
    library: Library, run: Evaluate, actions: int, name: str, sticker: str
) -> None:
    ev = run(with_state(library, {"actions": actions}, "naval-lt-commander"))
    assert ev.issues == []
    xp = experience_of(ev, "naval-lt-commander")
    assert (xp["class"], xp["sticker"], xp["scale"]) == (name, sticker, "non-marine")


@pytest.mark.parametrize(
    ("state", "counted", "name"),
    [
        ({"actions": 13, "wounds": 1}, 14, "Experienced"),
        ({"actions": 14, "wounds": 1}, 15, "Seasoned"),  # the wounded action counts twice
        ({"actions": 28, "wounds": 1}, 29, "Seasoned"),
        ({"actions": 29, "wounds": 1}, 30, "Veteran"),
        ({"actions": 26, "wounds": 2}, 28, "Seasoned"),
        ({"actions": 28, "wounds": 2}, 30, "Veteran"),
        ({"actions": 1, "wounds": 1}, 2, "Experienced"),
    ],
)
def test_wounded_counts_as_two_actions(
    library: Library, run: Evaluate, state: dict[str, int], counted: int, name: str
) -> None:
    ev = run(with_state(library, state))
    assert ev.issues == []
    xp = experience_of(ev, "lieutenant")
    assert (xp["counted"], xp["class"]) == (counted, name)


def test_non_marine_wounds(library: Library, run: Evaluate) -> None:
    ev = run(with_state(library, {"actions": 4, "wounds": 1}, "naval-lt-commander"))
    assert experience_of(ev, "naval-lt-commander")["class"] == "Experienced"  # 5


def test_experience_text_and_summary(library: Library, run: Evaluate) -> None:
    ev = run(with_state(library, {"actions": 14, "wounds": 1}))
    lt = node(ev, "lieutenant")
    text = next(v for v in ev.values_of(lt) if v.key == "experience").text
    assert text.startswith("Seasoned (15 actions: 14 fought, 1 wounded; yellow sticker): +1 on")
    assert ev.value(ev.root, "experience") == {"marine": {"Novice": 8, "Seasoned": 1}}


def test_robots_have_no_experience(library: Library, run: Evaluate) -> None:
    ev = run(new(library, "earther", "earther-squad")[0])
    assert ev.value(node(ev, "combat-robot"), "experience") is None


def test_state_on_counted_figures_applies_to_each(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    roster.set(child(roster, squad, "marine"), "state", {"actions": 15})
    play_campaign(roster)
    ev = run(roster)
    assert ev.value(ev.root, "experience") == {"marine": {"Novice": 3, "Seasoned": 6}}


def test_more_wounds_than_actions_is_flagged(library: Library, run: Evaluate) -> None:
    ev = run(with_state(library, {"actions": 1, "wounds": 3}))
    assert codes(ev) == ([], ["sm-state"])
    assert experience_of(ev, "lieutenant")["counted"] == 6  # 3 actions, each wounded
    # 4.7: "Being wounded in action counts as 2 actions": 3 wounded actions count 6, and the
    # message says so (it used to say 3).
    assert "6 actions are counted" in ev.warnings[0].message


@pytest.mark.parametrize("bad", ["many", -1, 2.5, True])
def test_bad_state_values(library: Library, run: Evaluate, bad: Any) -> None:
    ev = run(with_state(library, {"actions": bad}))
    assert codes(ev) == (["state-invalid"], [])  # the engine's check against STATE_KEYS
    assert ev.errors[0].path[-2:] == ("state", "actions")
    assert experience_of(ev, "lieutenant")["class"] == "Novice"


def test_experience_pure_functions(library: Library) -> None:
    tables = Tables.from_data(library.system(SYSTEM).model.data)
    for actions, name, _ in MARINE_CLASSES:
        assert experience_class(tables.marine_classes, actions).name == name
    for actions, name, _ in NON_MARINE_CLASSES:
        assert experience_class(tables.non_marine_classes, actions).name == name
    assert counted_actions(14, 1) == 15
    assert counted_actions(0, 0) == 0
    assert counted_actions(0, 2) == 4


# --------------------------------------------------------------------------- equipment rules


def test_sca_needs_marine_armour(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    lt = child(roster, squad, "lieutenant")
    remove_kit(roster, lt, "marine-armour")
    add_entry(roster, idx, lt, "spacesuit")
    ev = run(roster)
    assert codes(ev) == (["sm-sca-needs-armour"], [])
    assert "Lieutenant carries an SCA II but wears a spacesuit" in ev.errors[0].message
    assert ev.errors[0].source == "Starship Marine 2.4"
    # with an SCA I he is fine
    remove_kit(roster, lt, "sca-2")
    add_entry(roster, idx, lt, "sca-1")
    assert run(roster).issues == []


def test_crewman_with_sca_iii(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    party = add_entry(roster, idx, (), "crew-party")
    crewman = add_entry(roster, idx, party, "crewman")
    remove_kit(roster, crewman, "sca-1")
    add_entry(roster, idx, crewman, "sca-3")
    assert codes(run(roster)) == (["sm-sca-needs-armour"], [])
    # 2.2: crew "are not trained to operate Marine Armour": a crewman in it is flagged
    remove_kit(roster, crewman, "spacesuit")
    add_entry(roster, idx, crewman, "marine-armour")
    ev = run(roster)
    assert codes(ev) == ([], ["sm-crew-marine-armour"])
    assert "SCA III" in ev.warnings[0].message
    # armoured combat crew wear substandard armour (4.3): armoured, but no SCA II / III
    remove_kit(roster, crewman, "marine-armour")
    add_entry(roster, idx, crewman, "substandard-armour")
    ev = run(roster)
    assert codes(ev) == (["sm-sca-needs-armour"], [])
    assert ev.value(node(ev, "crewman"), "target") == "Armoured"


def test_combat_robot_with_sca_ii(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    robots = child(roster, squad, "combat-robot")
    remove_kit(roster, robots, "sca-1")
    add_entry(roster, idx, robots, "sca-2")
    ev = run(roster)
    assert codes(ev) == (["sm-sca-needs-armour"], [])
    assert "robot" in ev.errors[0].message


def test_fusilier_robot_stands_in_for_a_combat_robot(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    roster.set(child(roster, squad, "combat-robot"), "count", None)  # 1 combat robot
    fusilier = add_entry(roster, idx, squad, "fusilier-robot")
    assert kit(roster, fusilier) == ["sca-3"]
    ev = run(roster)
    assert ev.issues == []  # an armoured robot may use the SCA III (4.9)
    h = ev.value(ev.root, "head_count")
    assert (h["combat_robots"], h["armoured_robots"]) == (2, 1)


def test_robots_cannot_use_grenades(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    add_entry(roster, idx, child(roster, squad, "combat-robot"), "grenades", count=2)
    ev = run(roster)
    assert codes(ev) == (["sm-robot-grenades"], [])
    assert ev.errors[0].source == "Starship Marine 3.6"


def test_grenades_recorded_on_marines(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    add_entry(roster, idx, child(roster, squad, "marine"), "grenades", count=4)  # 6 x 4 = 24
    ev = run(roster)
    assert ev.issues == []
    assert ev.value(ev.root, "ammunition")["grenades_carried"] == 24


def test_more_ammunition_than_the_issue(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    add_entry(roster, idx, child(roster, squad, "marine"), "grenades", count=7)  # 42 > 36
    ev = run(roster)
    assert codes(ev) == (["sm-ammo-over-issue"], [])
    assert "42 grenades (issue 36)" in ev.errors[0].message


def test_close_support_marine_keeps_his_sca(library: Library, run: Evaluate) -> None:
    roster, _, cs = close_support_squad(library)
    idx = library.system(SYSTEM).index("earther")
    add_entry(roster, idx, cs, "sca-2")
    ev = run(roster)
    assert codes(ev) == (["sm-close-support-kit"], [])
    assert "also carries an SCA II" in ev.errors[0].message


@pytest.mark.parametrize("item", ["grenades", "door-charges"])
def test_close_support_marine_with_grenades_or_charges(
    library: Library, run: Evaluate, item: str
) -> None:
    roster, _, cs = close_support_squad(library)
    idx = library.system(SYSTEM).index("earther")
    add_entry(roster, idx, cs, item, count=2)
    assert codes(run(roster)) == (["sm-close-support-kit"], [])


def test_apgw_pack_needs_a_marine_in_armour(library: Library, run: Evaluate) -> None:
    roster, _, cs = close_support_squad(library)
    idx = library.system(SYSTEM).index("earther")
    remove_kit(roster, cs, "marine-armour")
    add_entry(roster, idx, cs, "spacesuit")
    assert codes(run(roster)) == (["sm-close-support-kit"], [])
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    det = add_entry(roster, idx, (), "ships-marine-detachment")
    add_entry(roster, idx, det, "sergeant")
    crewman_party = add_entry(roster, idx, (), "crew-party")
    crewman = add_entry(roster, idx, crewman_party, "crewman")
    remove_kit(roster, crewman, "sca-1")
    add_entry(roster, idx, crewman, "apgw-pack")
    ev = run(roster)
    assert codes(ev) == (["sm-close-support-kit"], [])
    assert "is not a marine" in ev.errors[0].message


def test_apgw_needs_a_marine_to_call_it(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    party = add_entry(roster, idx, (), "crew-party")
    add_entry(roster, idx, party, "ships-officer")
    add_entry(roster, idx, party, "crewman", count=4)
    add_entry(roster, idx, party, "close-support-robot", count=2)
    add_entry(roster, idx, party, "fusilier-robot")  # an SCA III, but robots cannot call
    ev = run(roster)
    assert codes(ev) == ([], ["sm-apgw-caller"])
    assert ev.warnings[0].source == "Starship Marine 2.5, 3.10"
    assert "2 close support robots" in ev.warnings[0].message
    # a marine NCO with an SCA III can call them
    det = add_entry(roster, idx, (), "ships-marine-detachment")
    add_entry(roster, idx, det, "sergeant")
    assert run(roster).issues == []


def test_a_close_support_marine_cannot_call_apgw(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    det = add_entry(roster, idx, (), "ships-marine-detachment")
    sgt = add_entry(roster, idx, det, "sergeant")
    remove_kit(roster, sgt, "sca-3")
    add_entry(roster, idx, sgt, "apgw-pack")
    assert codes(run(roster)) == ([], ["sm-apgw-caller"])


# --------------------------------------------------------------------------- command


def test_privates_need_an_officer_or_nco(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    det = add_entry(roster, idx, (), "ships-marine-detachment")
    add_entry(roster, idx, det, "marine", count=4)
    ev = run(roster)
    # 3.3: privates "should not normally" be more than 20 cm from an officer or NCO; 3.14: those
    # that are take the full morale rules. A warning that says so, not an error.
    assert codes(ev) == ([], ["sm-no-leader"])
    message = ev.warnings[0].message
    assert message.startswith("Ship's Marine Detachment has 4 marine privates")
    assert "individual morale tests" in message
    assert ev.warnings[0].source == "Starship Marine 3.3, 3.14"
    add_entry(roster, idx, det, "corporal")
    assert run(roster).issues == []


def test_squad_that_lost_its_leaders(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    for rank in ("corporal", "sergeant", "lieutenant"):
        roster.remove(child(roster, squad, rank))
    ev = run(roster)
    errors, warnings = codes(ev)
    assert errors == []
    # under strength against the order of battle, and no leader for the privates
    assert sorted(warnings) == ["min-not-met"] * 3 + ["sm-no-leader"]


# --------------------------------------------------------------------------- order of battle


def test_under_strength_is_a_warning(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    roster.set(child(roster, squad, "marine"), "count", 5)
    ev = run(roster)
    assert ev.valid
    assert codes(ev) == ([], ["min-not-met"])
    assert ev.warnings[0].message == (
        "Marine Squad has 5 × Marine; at least 6 needed "
        "(below the order of battle, e.g. after losses)"
    )
    assert ev.warnings[0].source == "Starship Marine 5.1"
    assert heads(ev, ev.root) == (1, 7, 0, 2, 0, 0)


def test_over_strength_is_an_error(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "martian", "martian-squad")
    roster.set(child(roster, squad, "marine"), "count", 9)
    ev = run(roster)
    assert codes(ev) == (["max-exceeded"], [])
    assert ev.errors[0].source == "Starship Marine 5.2"


def test_group_with_four_squads(library: Library, run: Evaluate) -> None:
    roster, grp = new(library, "earther", "earther-group")
    add_standard(roster, library.system(SYSTEM).index("earther"), grp, "earther-squad")
    assert codes(run(roster)) == (["max-exceeded"], [])


def test_combat_robots_where_the_order_of_battle_has_none(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "martian", "martian-squad")
    sels = roster.node(squad)["selections"]
    sels.append({"entry": "combat-robot"})
    roster.refresh()
    ev = run(roster)
    assert codes(ev) == (["entry-not-allowed"], [])
    # the message says why, in the order of battle's terms (5.2)
    issue = ev.errors[0]
    assert issue.message.startswith("Marine Squad cannot hold a Combat Robot (combat-robot): ")
    assert "order of battle (Starship Marine 5.2)" in issue.message
    assert issue.source == "Starship Marine 5.2"


def test_another_corps_formation_is_not_allowed(library: Library, run: Evaluate) -> None:
    roster, grp = new(library, "earther", "earther-group")
    roster.add(grp, "martian-squad")
    ev = run(roster)
    assert "unknown-entry" in codes(ev)[0] or "entry-not-allowed" in codes(ev)[0]


def test_another_corps_formation_says_whose_it_is(library: Library, run: Evaluate) -> None:
    """Part 5: each corps fields its own order of battle; the message names both."""
    roster, _ = new(library, "martian")
    roster.doc["selections"].append({"entry": "earther-squad"})
    roster.refresh()
    ev = run(roster)
    assert codes(ev) == (["entry-not-allowed"], [])
    message = ev.errors[0].message
    assert "another order of battle (Starship Marine 5.1)" in message
    assert "Martian Marines field their own (Starship Marine 5.2)" in message


def test_ships_company_needs_an_officer(library: Library, run: Evaluate) -> None:
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    co = add_entry(roster, idx, (), "ships-company")
    add_entry(roster, idx, co, "crewman", count=5)
    assert codes(run(roster)) == ([], ["min-not-met"])
    party = add_entry(roster, idx, co, "crew-party")
    add_entry(roster, idx, party, "ships-officer")  # anywhere in the company
    assert run(roster).issues == []


@pytest.mark.parametrize(
    ("faction", "entry_id"),
    [
        ("earther", "earther-regiment"),
        ("venerian", "earther-regiment"),
        ("martian", "martian-regiment"),
        ("esteeler", "esteeler-regiment"),
        ("sirian", "sirian-company"),
    ],
)
def test_add_standard_builds_the_whole_order_of_battle(
    library: Library, run: Evaluate, faction: str, entry_id: str
) -> None:
    roster, loc = new(library, faction, entry_id)
    assert run(roster).issues == []
    # sub-formations are one selection each, named in order
    names = [s.get("name") for s in roster.node(loc)["selections"]]
    assert names[0] is None  # the HQ: only one
    assert {"1st Marine Group", "1st Marine Company", "1st Marine Platoon"} & set(names)


def test_standard_contents(library: Library) -> None:
    idx = library.system(SYSTEM).index("earther")
    squad = idx.entries["earther-squad"]
    assert [(e.id, n) for e, n in standard_contents(idx, squad)] == [
        ("lieutenant", 1),
        ("sergeant", 1),
        ("corporal", 1),
        ("marine", 6),
        ("combat-robot", 2),
    ]


def test_ordinal() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
    ]


# --------------------------------------------------------------------------- catalog checks


def test_check_catalog_accepts_the_bundled_catalogs(library: Library) -> None:
    gs = library.system(SYSTEM)
    assert list(RULES.check_catalog(gs.model, None, None)) == []
    for faction in gs.factions.values():
        assert list(RULES.check_catalog(gs.model, faction.model, gs.index(faction.id))) == []


def test_check_catalog_reports_bad_data(library: Library) -> None:
    gs = library.system(SYSTEM)
    data = dict(gs.model.data)
    data["ammunition"] = {"grenades_per_man": "four"}
    bad_figure = gs.model.shared_entries[0].model_copy(
        update={"id": "odd", "type": "model", "categories": ["robot"], "profiles": []}
    )
    bad_sca = gs.model.shared_entries[0].model_copy(
        update={"id": "sca-9", "categories": ["sca"], "data": {"mod": 9}}
    )
    model = gs.model.model_copy(update={"data": data, "shared_entries": [bad_figure, bad_sca]})
    findings = list(RULES.check_catalog(model, None, None))
    messages = [m for _, _, m in findings]
    assert any("door_charges_per_marine is missing" in m for m in messages)
    assert any("cannot be read" in m for m in messages)
    assert any(m.startswith("Marine armour: a figure needs a troop profile") for m in messages)
    assert any("data.mod 1, 2 or 3" in m for m in messages)
    locs = [loc for _, loc, m in findings if "troop profile" in m]
    assert locs == [["shared_entries", 0, "profiles"]]


# --------------------------------------------------------------------------- speed


def test_a_regiment_evaluates_the_same_every_time(library: Library) -> None:
    """Evaluating a full regiment again (with every per-evaluation cache warm) gives the same
    issues and values: the speed-ups never show a stale figure. How fast it is is measured in
    benchmarks/ (bench_validate.py), not asserted here."""
    gs = library.system(SYSTEM)
    roster, _ = new(library, "earther", "earther-regiment")
    idx = gs.index("earther")
    first = evaluate(roster, idx, gs.rules)
    for _ in range(3):
        again = evaluate(roster, idx, gs.rules)
        assert [i.message for i in again.issues] == [i.message for i in first.issues]
        assert [repr(again.values_of(n)) for n in again.nodes()] == [
            repr(first.values_of(n)) for n in first.nodes()
        ]


# --------------------------------------------------------------------------- rules fidelity


def test_without_the_campaign_rules_everyone_is_experienced(
    library: Library, run: Evaluate
) -> None:
    """Part 4 is optional, and 4.7's Experienced class ("All standard rules apply. This is the
    baseline") is what every figure is without it: no Novice -1 to fire, no Raw crew."""
    roster = with_state(library, {"actions": 40}, campaign=False)
    ev = run(roster)
    assert ev.issues == []
    assert ev.value(ev.root, "experience") == {"marine": {"Experienced": 9}}
    xp = experience_of(ev, "lieutenant")
    assert (xp["class"], xp["campaign"]) == ("Experienced", False)
    crew = run(with_state(library, None, "naval-lt-commander", campaign=False))
    assert crew.value(crew.root, "experience") == {"non-marine": {"Experienced": 11}}


def test_with_the_campaign_rules_a_figure_without_a_record_starts_at_the_bottom(
    library: Library, run: Evaluate
) -> None:
    """4.7: a marine with no combat experience is a Novice, a non-marine a Raw."""
    ev = run(with_state(library, None))
    assert ev.value(ev.root, "experience") == {"marine": {"Novice": 9}}
    crew = run(with_state(library, None, "naval-lt-commander"))
    assert crew.value(crew.root, "experience") == {"non-marine": {"Raw": 11}}


def test_turning_the_campaign_rules_on_re_evaluates_untouched_formations(
    library: Library, tmp_path: Any
) -> None:
    """The option sits outside every formation: an edit session that replays untouched
    formations must not keep their old classes."""
    from armybuilder.session import EditSession

    roster = with_state(library, None, campaign=False)
    path = tmp_path / "squad.yaml"
    roster.save(path)
    s = EditSession.open(path, library, autosave=False)
    first = s.evaluate()
    assert first.value(first.root, "experience") == {"marine": {"Experienced": 9}}
    s.add((), "campaign-rules")
    again = s.evaluate()
    assert again.value(again.root, "experience") == {"marine": {"Novice": 9}}
    squad = next(nodes(again, "earther-squad"))
    assert again.value(squad, "experience") == {"marine": {"Novice": 9}}


def test_an_all_robot_unit_is_flagged(library: Library, run: Evaluate) -> None:
    """2.3: combat robots "are not programmed to function independently in all-robot units"."""
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    party = add_entry(roster, idx, (), "crew-party")
    add_entry(roster, idx, party, "combat-robot", count=3)
    ev = run(roster)
    assert codes(ev) == ([], ["sm-robots-alone"])
    assert ev.warnings[0].source == "Starship Marine 2.3"
    assert "3 combat robots" in ev.warnings[0].message
    add_entry(roster, idx, party, "crewman")
    assert run(roster).issues == []


def test_a_squad_reduced_to_its_robots(library: Library, run: Evaluate) -> None:
    roster, squad = new(library, "earther", "earther-squad")
    for rank in ("marine", "corporal", "sergeant", "lieutenant"):
        roster.remove(child(roster, squad, rank))
    _, warnings = codes(run(roster))
    assert "sm-robots-alone" in warnings


def test_a_marine_may_carry_a_pallet(library: Library, run: Evaluate) -> None:
    """3.18: "A marine can carry 1 pallet at half speed (or 2 marines at normal speed)"; 4.8:
    in gravity or underwater two men at half speed, four at normal speed. Marines move 15 / 30
    cm (3.2), so 7.5 / 15 cm alone."""
    roster, squad = new(library, "earther", "earther-squad")
    idx = library.system(SYSTEM).index("earther")
    marine = child(roster, squad, "marine")
    roster.set(marine, "count", 5)
    bearer = add_entry(roster, idx, squad, "marine")
    add_entry(roster, idx, bearer, "pallet-grenades")
    ev = run(roster)
    assert ev.issues == []
    carrier = next(n for n in nodes(ev, "marine") if n.loc == bearer)
    text = next(v for v in ev.values_of(carrier) if v.key == "pallet_carrier").text
    assert text.startswith("alone at half speed (7.5 / 15 cm), two men at normal speed")
    assert "four at normal speed" in text
    logistics = ev.value(ev.root, "logistics")
    assert logistics["pallets"] == 1
    assert logistics["loads"] == [
        {"pallet": "Pallet: grenades", "item": "grenades", "pallets": 1, "items": 24}
    ]
    add_entry(roster, idx, bearer, "pallet-apgw")
    assert codes(run(roster)) == (["max-exceeded"], [])  # one pallet a man


@pytest.mark.parametrize(
    ("faction", "figure", "formation"),
    [
        ("earther", "marine", "earther-squad"),
        ("earther", "combat-robot", "earther-squad"),
        ("earther", "naval-logs-personnel", "earther-logistics-group"),
    ],
)
def test_ecm_pack(
    library: Library, run: Evaluate, faction: str, figure: str, formation: str
) -> None:
    """3.5 and the quick reference: APGW fire at a target with an ECM pack, or within 10 cm of
    one, is at -1."""
    roster, top = new(library, faction, formation)
    idx = library.system(SYSTEM).index(faction)
    add_entry(roster, idx, child(roster, top, figure), "ecm-pack")
    assert run(roster).issues == []
    assert idx.entries["ecm-pack"].profiles[0].characteristics["notes"].endswith("-1")


def test_survival_suit_and_target_types(library: Library, run: Evaluate) -> None:
    """3.5: "Unarmoured. Includes crew in spacesuits or survival suits"; marines in armour are
    armoured."""
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    party = add_entry(roster, idx, (), "crew-party")
    crewman = add_entry(roster, idx, party, "crewman")
    remove_kit(roster, crewman, "spacesuit")
    add_entry(roster, idx, crewman, "survival-suit")
    det = add_entry(roster, idx, (), "ships-marine-detachment")
    add_entry(roster, idx, det, "lieutenant")
    ev = run(roster)
    assert ev.issues == []
    assert ev.value(node(ev, "crewman"), "target") == "Unarmoured"
    assert ev.value(node(ev, "lieutenant"), "target") == "Armoured"


def test_attacker_morale_rule_text_reads_the_40_cm_condition_right(library: Library) -> None:
    """3.13: "Below 50% Morale strength and not more than 40cm from point of entry -1": the
    penalty applies close to the entry point, not far from it."""
    rule = library.system(SYSTEM).model.rules
    text = next(r.description for r in rule if r.id == "attacker-morale")
    assert "within 40 cm of the point of entry" in text
    assert "far from" not in text


# --------------------------------------------------------------------------- campaign 4.3 - 4.6


def test_casualty_odds_of_an_armoured_marine(library: Library, run: Evaluate) -> None:
    """4.3, armoured marine casualty (1d6): in atmosphere 1 no injury, 2-3 scratch, 4 minor,
    5 serious, 6 killed; in vacuum 1, 2, 3, -, 4-6. 4.5: a killed casualty at a hospital ship
    dies on 5-6, a serious one never."""
    ev = run(with_state(library, {"actions": 3}))
    odds = ev.value(node(ev, "lieutenant"), "casualty_odds")
    assert odds["table"] == "marine-armour"
    assert {k: F(v) for k, v in odds["atmosphere"].items()} == {
        "No injury": F(1, 6),
        "Just a scratch": F(1, 3),
        "Minor wound": F(1, 6),
        "Serious wound": F(1, 6),
        "Killed": F(1, 6),
    }
    assert {k: F(v) for k, v in odds["vacuum"].items()} == {
        "No injury": F(1, 6),
        "Just a scratch": F(1, 6),
        "Minor wound": F(1, 6),
        "Killed": F(1, 2),
    }
    saved = {k: F(v) for k, v in odds["vacuum_hospital_ship"].items()}
    # killed 1/2 rerolled: dead 2/6, serious 1/6, minor x2 1/6, minor 1/6, scratch 1/6
    assert saved == {
        "No injury": F(1, 6),
        "Just a scratch": F(1, 6) + F(1, 12),
        "Minor wound": F(1, 6) + F(1, 12),
        "Killed": F(1, 6),
        "Serious wound": F(1, 12),
        "Minor wound (double recovery)": F(1, 12),
    }
    assert sum(saved.values()) == 1


@pytest.mark.parametrize(
    ("suit", "atmosphere_killed", "vacuum_killed"),
    [("spacesuit", F(1, 6), F(5, 6)), ("substandard-armour", F(1, 6), F(1, 2))],
)
def test_casualty_tables_by_suit(
    library: Library,
    run: Evaluate,
    suit: str,
    atmosphere_killed: Fraction,
    vacuum_killed: Fraction,
) -> None:
    """4.3: space suited casualties die in vacuum on 2-6, substandard armour on 4-6."""
    roster = with_state(library, None, "naval-lt-commander")
    ev0 = run(roster)
    lt = node(ev0, "naval-lt-commander")
    if suit != "spacesuit":
        idx = library.system(SYSTEM).index("earther")
        remove_kit(roster, lt.loc, "spacesuit")
        add_entry(roster, idx, lt.loc, suit)
    ev = run(roster)
    odds = ev.value(node(ev, "naval-lt-commander"), "casualty_odds")
    assert F(odds["atmosphere"]["Killed"]) == atmosphere_killed
    assert F(odds["vacuum"]["Killed"]) == vacuum_killed


@pytest.mark.parametrize(
    ("figure", "trashed", "no_damage"),
    [("lieutenant", F(1, 6), F(1, 6)), ("combat-robot", F(1, 6), F(1, 3))],
)
def test_lost_equipment_odds(
    library: Library, run: Evaluate, figure: str, trashed: Fraction, no_damage: Fraction
) -> None:
    """4.4: marine armour trashed on 6, minor failure on 1; a combat robot trashed on 6,
    rebooted on 1-2."""
    ev = run(with_state(library, None))
    odds = ev.value(node(ev, figure), "equipment_odds")
    assert F(odds["Trashed beyond repair"]) == trashed
    assert F(odds["Reboot only (no damage)"]) == no_damage
    assert sum(F(v) for v in odds.values()) == 1


def test_minor_wound_recovery(library: Library, run: Evaluate) -> None:
    """4.3: 3d10 days, each d10 reading 0-9 (3.0); 4.6: fewer than 15 days to go to fight.
    Sums 0..27; P(sum <= 14) = (500 + 75) / 1000 = 23/40."""
    ev = run(with_state(library, None))
    rec = ev.value(ev.root, "recovery")
    assert F(rec["fit_to_fight"]) == F(23, 40)
    assert F(rec["mean"]) == F(27, 2)
    assert min(int(k) for k in rec["days"]) == 0 and max(int(k) for k in rec["days"]) == 27


@pytest.mark.parametrize(
    ("state", "errors", "warnings"),
    [
        ({"recovery_days": 14}, [], ["sm-fighting-wounded"]),  # 4.6: fewer than 15 to go
        ({"recovery_days": 15}, ["sm-not-fit"], []),
        ({"invalided": True}, ["sm-not-fit"], []),  # 4.3: serious wound
        ({"repair_days": 2}, ["sm-not-fit"], []),  # 4.4: armour in repair
    ],
)
def test_fitness_for_battle(
    library: Library, run: Evaluate, state: dict[str, Any], errors: list[str], warnings: list[str]
) -> None:
    ev = run(with_state(library, state))
    assert codes(ev) == (errors, warnings)
    if warnings:
        assert "half speed" in ev.warnings[0].message
        assert ev.value(node(ev, "lieutenant"), "wounded") is not None


def test_a_recovering_crewman_cannot_fight(library: Library, run: Evaluate) -> None:
    """4.6 lets wounded marines fight; nobody else."""
    ev = run(with_state(library, {"recovery_days": 3}, "naval-lt-commander"))
    assert codes(ev) == (["sm-not-fit"], [])


def test_campaign_state_without_the_campaign_rules(library: Library, run: Evaluate) -> None:
    ev = run(with_state(library, {"recovery_days": 20}, campaign=False))
    assert codes(ev) == ([], ["sm-campaign-state-unused"])
    assert ev.value(node(ev, "lieutenant"), "casualty_odds") is None


def test_a_misplaced_formation_of_the_same_side_keeps_the_generic_message(
    library: Library, run: Evaluate
) -> None:
    """A crew party inside a ship's marine detachment is misplaced, not another corps'."""
    roster, _ = new(library, "ships-company")
    idx = library.system(SYSTEM).index("ships-company")
    det = add_entry(roster, idx, (), "ships-marine-detachment")
    roster.node(det).setdefault("selections", []).append({"entry": "crew-party"})
    roster.refresh()
    ev = run(roster)
    (issue,) = [i for i in ev.errors if i.code == "entry-not-allowed"]
    assert "another order of battle" not in issue.message
