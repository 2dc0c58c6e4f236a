"""Adding entries with their default choices."""

from __future__ import annotations

import pytest

from armybuilder.catalog import Library
from armybuilder.editing import NotAnOptionError, add_entry
from armybuilder.rosters import Roster
from armybuilder.rules import evaluate


def test_add_platoon_squads_and_troopers_with_defaults(library: Library) -> None:
    gs = library.system("infantry-ops")
    index = gs.index("inner-sphere")
    roster = Roster.new("infantry-ops", "inner-sphere", "Built")
    platoon = add_entry(roster, index, (), "platoon")
    # the motive group's default (foot) came with it
    assert [s["entry"] for s in roster.node(platoon)["selections"]] == ["foot"]
    squad = add_entry(roster, index, platoon, "squad", count=4)
    trooper = add_entry(roster, index, squad, "trooper", count=7)
    add_entry(roster, index, trooper, "auto-rifle")
    kit = [s["entry"] for s in roster.node(trooper)["selections"]]
    assert kit == ["knife-bayonet", "autopistol", "kevlar-vest", "auto-rifle"]
    ev = evaluate(roster, index, gs.rules)
    assert ev.valid, ev.issues
    node = ev.root.children[0]
    assert ev.value(node, "av_primary")["av"] == 14
    # knife 0.25 and autopistol 0.25: melee uses the highest per trooper, 28 x 0.25 = 7
    assert ev.value(node, "av_melee")["av"] == 7
    text = roster.dumps()
    assert Roster.from_text(text).dumps() == text


def test_add_refuses_what_is_not_an_option(library: Library) -> None:
    index = library.system("infantry-ops").index("clan")
    roster = Roster.new("infantry-ops", "clan", "X")
    # (each id with the name it stands for: a player types the id, and reads the name)
    with pytest.raises(
        NotAnOptionError,
        match=r"'auto-rifle' \(Auto-Rifle\) cannot be selected at the top level "
        r"\(options: platoon \(Infantry Platoon\)\)",
    ):
        add_entry(roster, index, (), "auto-rifle")


def test_group_default_count(library: Library) -> None:
    gs = library.system("space-hulk")
    index = gs.index("terminators")
    roster = Roster.new("space-hulk", "terminators", "T")
    tech = add_entry(roster, index, (), "techmarine")
    turret = add_entry(roster, index, tech, "tarantula")
    (guns,) = roster.node(turret)["selections"]
    assert guns["entry"] == "heavy-bolter" and guns["count"] == 2
    ev = evaluate(roster, index, gs.rules)
    assert ev.valid, ev.issues


@pytest.mark.parametrize(
    ("faction", "motive", "squads", "troopers"),
    [
        ("inner-sphere", "foot", 4, 7),
        ("inner-sphere", "jump", 3, 7),
        ("clan", "foot", 5, 5),
        ("comstar", "mechanised-hover", 6, 5),
    ],
)
def test_fill_adds_the_standard_structure(
    library: Library, faction: str, motive: str, squads: int, troopers: int
) -> None:
    gs = library.system("infantry-ops")
    index = gs.index(faction)
    roster = Roster.new("infantry-ops", faction, "Filled")
    platoon = add_entry(roster, index, (), "platoon")
    if motive != "foot":
        roster.set((*platoon, "selections", 0), "entry", motive)
    from armybuilder.editing import fill_minimums

    fill_minimums(roster, index, platoon)
    ev = evaluate(roster, index, gs.rules)
    node = ev.root.children[0]
    assert ev.value(node, "squads") == squads
    assert ev.value(node, "troopers") == squads * troopers
    # only what the player must still choose is missing: no structure issues
    assert not [
        i
        for i in ev.issues
        if i.code in ("min-not-met", "max-exceeded")
        and "Trooper" in i.message
        and "choices" not in i.message
    ]


def test_setting_a_header_key_updates_the_header() -> None:
    roster = Roster.new("infantry-ops", "clan", "Old name")
    roster.set((), "name", "New name")
    roster.set((), "limits", {"kg": 3000})
    assert roster.name == "New name"
    assert roster.header.limits == {"kg": 3000}
    roster.set((), "faction", "Not An Id")  # invalid: the header stays as it was
    assert roster.faction == "clan"
