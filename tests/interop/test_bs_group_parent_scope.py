"""Scope `parent` in a condition of a group's modifier (or of the modifier of an entry link to
a group) is the selection holding the group, not that selection's own parent.

A group stands between the selection holding it and what is chosen in it: its own
constraints in scope `parent` count in the holding selection (the suite's
``battlescribe-data-model.md``, "SelectionEntryGroup": min / max on what is chosen in it), and
NewRecruit makes the group a node of the roster whose parent is that selection (the suite's
``nr-export-internals.md``: a selection's parent ``isGroup()``). So a group modifier reading
`parent` reads the holding selection: Gaslands gives a car one more build slot "where its
parent holds a middleweight trailer" (a modifier of the car's link to its Options group), and
that is the car's own trailer, not one anywhere in the team.

The first cases are written in the suite's shapes and driven through the adapter as the suite
drives it (no spec of the suite covers it); the last read the real data in ``../shared/bsdata``
and skip with a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library, walk_groups
from armybuilder.editing import add_entry
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.render.context import build_view
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate

BSDATA = Path(__file__).resolve().parents[3] / "shared" / "bsdata"


def _condition(scope: str, child: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "atLeast",
            "value": 1,
            "field": "selections",
            "scope": scope,
            "childId": child,
            "shared": True,
            "includeChildSelections": True,
        }
    ]


def _setup(scope: str) -> Any:
    """Vehicles whose Options group allows 2 build slots, one more where the condition (in
    ``scope``) finds a trailer; and special weapons at most 1, 2 where it finds a banner."""
    slots = [{"name": "Build Slots", "typeId": "ct-slots", "value": 1}]
    return {
        "gameSystem": {
            "id": "gs",
            "costTypes": [{"id": "ct-slots", "name": "Build Slots"}],
            "forceEntries": [{"id": "fe-1", "name": "Team"}],
        },
        "catalogues": [
            {
                "id": "cat-1",
                "sharedSelectionEntryGroups": [
                    {
                        "id": "seg-options",
                        "name": "Options",
                        "constraints": [
                            {
                                "id": "con-slots",
                                "type": "max",
                                "value": 2,
                                "field": "ct-slots",
                                "scope": "parent",
                            }
                        ],
                        "selectionEntries": [
                            {
                                "id": "se-mg",
                                "name": "Machine Gun",
                                "type": "upgrade",
                                "costs": slots,
                            },
                            {"id": "se-trailer", "name": "Trailer", "type": "upgrade"},
                        ],
                    }
                ],
                "selectionEntries": [
                    {
                        "id": "se-car",
                        "name": "Car",
                        "type": "model",
                        "selectionEntries": [
                            {"id": "se-banner", "name": "Banner", "type": "upgrade"}
                        ],
                        "entryLinks": [
                            {
                                "id": "link-options",
                                "name": "Options",
                                "targetId": "seg-options",
                                "type": "selectionEntryGroup",
                                "modifiers": [
                                    {
                                        "type": "increment",
                                        "field": "con-slots",
                                        "value": 1,
                                        "conditions": _condition(scope, "se-trailer"),
                                    }
                                ],
                            }
                        ],
                        "selectionEntryGroups": [
                            {
                                "id": "seg-crew",
                                "name": "Crew",
                                "constraints": [
                                    {
                                        "id": "con-crew-max",
                                        "type": "max",
                                        "value": 1,
                                        "field": "selections",
                                        "scope": "parent",
                                    }
                                ],
                                "modifiers": [
                                    {
                                        "type": "increment",
                                        "field": "con-crew-max",
                                        "value": 1,
                                        "conditions": _condition(scope, "se-banner"),
                                    }
                                ],
                                "selectionEntries": [
                                    {"id": "se-gunner", "name": "Gunner", "type": "upgrade"},
                                    {"id": "se-driver", "name": "Driver", "type": "upgrade"},
                                ],
                            }
                        ],
                    }
                ],
            }
        ],
    }


def _messages(scope: str, cars: list[list[str]]) -> list[str]:
    """The error messages of a team of cars, each with these options."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **_setup(scope)})
    assert got["type"] == "setupResult", got
    assert not got.get("warnings")
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    fid = force["outputs"]["forceId"]

    def act(action: str, **kw: Any) -> str:
        out = s.handle({"type": "action", "action": action, "forceId": fid, **kw})
        assert out["ok"], out
        return str(out["outputs"]["selectionId"])

    for options in cars:
        car = act("selectEntry", entryId="se-car")
        for option in options:
            act("selectChildEntry", selectionId=car, entryId=option)
    return [e["message"] for e in s.handle({"type": "getErrors"})["errors"]]


def test_a_trailer_gives_its_own_car_the_extra_slot_and_no_other() -> None:
    three = ["se-mg", "se-mg", "se-mg"]
    # The car with the trailer: 3 slots. The other: its own 2.
    assert _messages("parent", [[*three, "se-trailer"], three]) == [
        "Team > Car has 3 Build Slots in Options; at most 2 Build Slots allowed"
    ]
    assert _messages("parent", [[*three, "se-trailer"], [*three, "se-trailer"]]) == []


def test_a_banner_raises_the_group_maximum_of_its_own_car_only() -> None:
    crew = ["se-gunner", "se-driver"]
    assert _messages("parent", [[*crew, "se-banner"], crew]) == [
        "Team > Car has 2 choices of Crew; at most 1 allowed"
    ]
    assert _messages("parent", [[*crew, "se-banner"]]) == []


def test_scope_roster_still_counts_the_whole_team() -> None:
    # (the data's other way of saying "anywhere": unchanged)
    three = ["se-mg", "se-mg", "se-mg"]
    assert _messages("roster", [[*three, "se-trailer"], three]) == []


@pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the Gaslands test data is not at {BSDATA}"
)
def test_gaslands_a_middleweight_trailer_is_one_more_build_slot_for_its_own_car() -> None:
    """Gaslands.gst, Car (``5fc8-4273-0b18-c611``): its link to Options sets the build-slot
    constraint ``0a0d-4ca7-dc7b-eb21`` to 2 and increments it by 1 where scope `parent` holds
    a Middleweight Trailer (``e44a-e5fc-d07b-86c5``). Car A tows one, car B has 3 machine
    guns (1 slot each): B is over its 2, A may take 3."""
    index = Library([BSDATA]).scan().system("gaslands").index("gaslands")
    roster = Roster.new("gaslands", "gaslands", "T", {})
    sponsor = add_entry(roster, index, (), "9318-eb03-9bdd-ec00")
    add_entry(roster, index, sponsor, "e91f-341e-63b4-6539")  # Rusty's Bootleggers: trailers
    a = add_entry(roster, index, (), "5fc8-4273-0b18-c611", name="A")
    add_entry(roster, index, a, "e44a-e5fc-d07b-86c5")
    b = add_entry(roster, index, (), "5fc8-4273-0b18-c611", name="B")
    for car in (a, b):
        for _ in range(3):
            add_entry(roster, index, car, "bbee-877e-1934-1980")  # Machine Gun
    ev = evaluate(roster, index, None)
    assert [i.message for i in ev.issues if i.code == "max-exceeded"] == [
        # (Options, as the player sees it: its subgroups, Trailers shown for Rusty's)
        "B has 3 Build Slots in its Weapons, Upgrades and Trailers; at most 2 Build Slots allowed"
    ]


@pytest.fixture(scope="module")
def lib40k() -> Library:
    if not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"the BattleScribe 40k test data is not at {BSDATA / 'wh40k-10e'}")
    return Library([BSDATA]).scan()


def test_a_knight_with_chivalric_points_must_choose_a_mastery(lib40k: Library) -> None:
    """Imperium - Imperial Knights - Library.cat, group "Masteries" (``3ac2-3c01-db7a-48cb``,
    min 1 / max 1): hidden, and its minimum set to 0, where its `parent` holds fewer than 1
    "Allocated Chivalric Points" (``e7fb-9519-7cd7-9c10``, children only). The knight holding
    the group is that parent: with the points allocated to it, a mastery is needed (read from
    the force, which holds the knight and not the points, the group stayed hidden)."""
    faction = "imperium-imperial-knights-library"
    index = lib40k.system("wh40k-10e").index(faction)
    roster = Roster.new("wh40k-10e", faction, "T", {})
    knight = add_entry(roster, index, (), "10d8-d702-f556-5d3c", fill=True)  # Knight Destrier

    def masteries() -> list[str]:
        ev = evaluate(roster, index, None)
        return [i.message for i in ev.issues if i.entry == "3ac2-3c01-db7a-48cb"]

    assert masteries() == []  # no points: hidden, nothing needed
    add_entry(roster, index, knight, "e7fb-9519-7cd7-9c10")
    assert masteries() == ["Knight Destrier has 0 choices of Masteries; at least 1 needed"]
    add_entry(roster, index, knight, "32b3-12f5-c2bc-22f5")  # Master of Obduracy
    assert masteries() == []


def test_a_character_is_offered_vermillion_level_assets(lib40k: Library) -> None:
    """Imperium - Agents of the Imperium.cat, group "Vermillion-level Assets"
    (``731a-6069-5afb-247f``): hidden where its `parent` is not a Character
    (``9cfd-1c32-585f-7d5c``). An Inquisitor holding it is a Character: shown (read from the
    force, which is no Character, it was hidden from every unit)."""
    faction = "imperium-agents-of-the-imperium"
    index = lib40k.system("wh40k-10e").index(faction)
    roster = Roster.new("wh40k-10e", faction, "T", {})
    add_entry(roster, index, (), "3e57-b15c-5580-1de1", fill=True)  # Inquisitor
    ev = evaluate(roster, index, None)
    inquisitor = ev.root.children[0]
    assert inquisitor.entry is not None
    [assets] = [g for g in walk_groups(inquisitor.entry.groups) if g.id == "731a-6069-5afb-247f"]
    assert ev.is_group_hidden(assets, inquisitor) is False


@pytest.mark.skipif(
    not (BSDATA / "space-station-zero").is_dir(),
    reason=f"the Space Station Zero test data is not at {BSDATA}",
)
def test_ssz_five_xp_ask_an_advancement_of_their_own_crew_member_only() -> None:
    """Crew.cat, group "05 XP Total" (``bbf3-8285-42e6-12e7``, in "Crew Experience"): shown,
    and its minimum (``bbb1-8cd1-30c6-b2dc``) set to 1, where its `parent` holds at least 5
    XP (``d5f4-349d-8e78-07c8``, deep). 5 XP on the Chief Engineer ask him for an
    advancement; the Soldier beside him, with none, is asked for nothing (read from the
    crew, every member was)."""
    index = Library([BSDATA]).scan().system("space-station-zero").index("crew")
    roster = Roster.new("space-station-zero", "crew", "T", {})
    engineer = add_entry(roster, index, (), "330b-fb87-d060-d287", fill=True)  # Chief Engineer
    add_entry(roster, index, (), "29c1-a82a-1972-389a", fill=True)  # Soldier
    add_entry(roster, index, engineer, "d5f4-349d-8e78-07c8", count=5)  # XP
    ev = evaluate(roster, index, None)
    assert [i.message for i in ev.issues if i.entry == "bbf3-8285-42e6-12e7"] == [
        "Chief Engineer has 0 choices of 05 XP Total; at least 1 needed"
    ]


def test_a_grot_tanks_unit_of_eight_may_take_two_additional_weapons(lib40k: Library) -> None:
    """Orks.cat, group "Grot Tank w/ additional weapon" (``ecdf-ba8b-e77f-cd26``, max 2 by
    ``a0ac-5f6a-bc4e-c05b``) in Grot Tanks [Legends]: the maximum is decremented by 1 where
    its `parent` holds fewer than 8 models. The unit is that parent: with 6 Grot Tanks and 2
    with an additional weapon (8 models) both are allowed, with 4 and 2 (6) one is. (Read
    from the force, whose top level holds the unit and no model, it was always 1; in a
    roster with eight models of other units at the top it was always 2.)"""
    index = lib40k.system("wh40k-10e").index("xenos-orks")

    def verdict(tanks: int) -> list[str]:
        roster = Roster.new("wh40k-10e", "xenos-orks", "T", {})
        unit = add_entry(roster, index, (), "6cc1-586e-5d7c-9a34", fill=True)
        [at] = [
            i
            for i, s in enumerate(roster.node(unit)["selections"])
            if s["entry"] == "d98a-6d3b-b2ef-96ae"  # Grot Tank
        ]
        roster.set((*unit, "selections", at), "count", tanks)
        add_entry(roster, index, unit, "8754-700f-73fd-23a9", count=2, fill=True)
        ev = evaluate(roster, index, None)
        return [i.message for i in ev.issues if i.entry == "ecdf-ba8b-e77f-cd26"]

    assert verdict(6) == []
    assert verdict(4) == [
        "Grot Tanks [Legends] has 2 choices of Grot Tank w/ additional weapon; at most 1 allowed"
    ]


# A profile's (or rule's) modifiers are read as the selection's own, unlike a group's: their
# scope `parent` is the parent of the selection showing the profile. The 40k data relies on it
# (an Imperial Knight's Mastery shows the ability its Knight's Chivalric Points earn), so a
# Gaslands car's stat line, whose "Build Slots" goes up where its `parent` holds a
# Middleweight Trailer, reads the team, as BattleScribe reads it: a data defect (the same
# condition on the car's link to Options reads the car, a group's parent being the car).

SLOTS_CHAR = "2e81-f353-ccec-4cb9"  # Gaslands.gst, characteristic type "Build Slots"


def _profile_setup(scope: str) -> Any:
    """Cars whose stat line shows 2 build slots, one more where the condition of the
    profile's modifier (in ``scope``) finds a trailer."""
    return {
        "gameSystem": {
            "id": "gs",
            "forceEntries": [{"id": "fe-1", "name": "Team"}],
            "profileTypes": [
                {
                    "id": "pt-vehicle",
                    "name": "Vehicle",
                    "characteristicTypes": [{"id": "char-slots", "name": "Build Slots"}],
                }
            ],
        },
        "catalogues": [
            {
                "id": "cat-1",
                "selectionEntries": [
                    {
                        "id": "se-car",
                        "name": "Car",
                        "type": "model",
                        "profiles": [
                            {
                                "id": "prof-car",
                                "name": "Car",
                                "typeId": "pt-vehicle",
                                "typeName": "Vehicle",
                                "characteristics": [
                                    {"name": "Build Slots", "typeId": "char-slots", "value": "2"}
                                ],
                                "modifiers": [
                                    {
                                        "type": "increment",
                                        "field": "char-slots",
                                        "value": 1,
                                        "conditions": _condition(scope, "se-trailer"),
                                    }
                                ],
                            }
                        ],
                        "selectionEntries": [
                            {"id": "se-trailer", "name": "Trailer", "type": "upgrade"}
                        ],
                    }
                ],
            }
        ],
    }


def _slots(scope: str, trailers: list[bool]) -> list[str]:
    """The Build Slots each car of a team shows (the conformance suite's view of profiles)."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **_profile_setup(scope)})
    assert got["type"] == "setupResult", got
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    fid = force["outputs"]["forceId"]
    for trailer in trailers:
        out = s.handle(
            {"type": "action", "action": "selectEntry", "forceId": fid, "entryId": "se-car"}
        )
        assert out["ok"], out
        if trailer:
            car = out["outputs"]["selectionId"]
            kw = {"forceId": fid, "selectionId": car, "entryId": "se-trailer"}
            assert s.handle({"type": "action", "action": "selectChildEntry", **kw})["ok"]
    state = s.handle({"type": "getState"})
    cars = state["forces"][0]["selections"]
    return [
        c["value"]
        for car in cars
        for p in car["profiles"]
        for c in p["characteristics"]
        if c["name"] == "Build Slots"
    ]


def test_a_profiles_parent_is_the_parent_of_the_selection_showing_it() -> None:
    # Cars at the top of the force: their parent is the force, holding both.
    assert _slots("parent", [True, False]) == ["3", "3"]
    assert _slots("parent", [False, False]) == ["2", "2"]
    assert _slots("self", [True, False]) == ["3", "2"]  # (what the car itself holds)


def test_a_knights_mastery_shows_the_ability_its_chivalric_points_earn(lib40k: Library) -> None:
    """Imperium - Imperial Knights - Library.cat, Master of the Joust (``be50-fbad-4816-636c``,
    an upgrade of a Knight): its profiles Aspiring (``d65a-c3c3-c381-6eb1``), Esteemed
    (``1ee1-6509-1539-ad61``) and Virtuous (``34ac-f8d3-aa41-cb37``) are hidden by the count of
    Allocated Chivalric Points (``e7fb-9519-7cd7-9c10``) in scope `parent`: the Knight holding
    the Mastery (more than 3: not Aspiring; 4 to 6: Esteemed; more than 6: Virtuous)."""
    faction = "imperium-imperial-knights-library"
    index = lib40k.system("wh40k-10e").index(faction)

    def shown(points: int) -> list[str]:
        roster = Roster.new("wh40k-10e", faction, "T", {})
        knight = add_entry(roster, index, (), "10d8-d702-f556-5d3c", fill=True)
        for _ in range(points):
            add_entry(roster, index, knight, "e7fb-9519-7cd7-9c10")
        add_entry(roster, index, knight, "be50-fbad-4816-636c")
        ev = evaluate(roster, index, None)
        (m,) = [n for n in _descendants(ev.root) if n.entry_id == "be50-fbad-4816-636c"]
        return [ev.profile_name(m, p) for p in ev.visible_profiles(m)]

    assert shown(1) == ["Aspiring - Landstridr"]
    assert shown(4) == ["Esteemed - Lance of Terra"]
    assert shown(7) == ["Virtuous - Foe's Bane"]


def _descendants(node: Any) -> list[Any]:
    out = [node]
    for c in node.children:
        out += _descendants(c)
    return out


@pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the Gaslands test data is not at {BSDATA}"
)
def test_gaslands_a_cars_stat_line_counts_trailers_in_the_team_as_battlescribe_does() -> None:
    """Gaslands.gst, Car (``5fc8-4273-0b18-c611``): its profile's Build Slots is 2, and 1 more
    where scope `parent` holds a Middleweight Trailer (``e44a-e5fc-d07b-86c5``, children
    counted): the car's parent is the team, so with A towing one, both cards read 3, as in
    BattleScribe (a data defect: the data's link to Options, not the card, is the car's
    own limit; the test above shows B is still held to 2 slots)."""
    index = Library([BSDATA]).scan().system("gaslands").index("gaslands")
    roster = Roster.new("gaslands", "gaslands", "T", {})
    sponsor = add_entry(roster, index, (), "9318-eb03-9bdd-ec00")
    add_entry(roster, index, sponsor, "e91f-341e-63b4-6539")  # Rusty's Bootleggers: trailers
    a = add_entry(roster, index, (), "5fc8-4273-0b18-c611", name="A")
    add_entry(roster, index, a, "e44a-e5fc-d07b-86c5")
    add_entry(roster, index, (), "5fc8-4273-0b18-c611", name="B")
    ev = evaluate(roster, index, None)
    cars = [n for n in ev.root.children if n.entry_id == "5fc8-4273-0b18-c611"]  # A, then B
    assert [ev.characteristic(n, SLOTS_CHAR) for n in cars] == [3, 3]
    # What the printed card (and the details pane, reading the same profile values) shows.
    units = {u.name: u for u in build_view(ev, date="2026-01-01").units}
    shown = {
        name: [v for p in units[name].profiles for k, v in p.columns if k == "Build Slots"]
        for name in ("A", "B")
    }
    assert shown == {"A": ["3"], "B": ["3"]}
