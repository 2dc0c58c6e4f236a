"""A group's limit on a cost of its choices (``docs/catalog-format.md``, "A group's limits on
a cost"): at most two build slots among a car's options, three on a bus, one more where the
roster holds a garage. The BattleScribe data model writes it as a constraint on the group whose
field is a cost type (the suite's ``battlescribe-data-model.md``, "Constraint"); Gaslands's
build slots are made so.

The engine checks the sum of the cost over what is chosen in the group (its subgroups included)
under each vehicle against that vehicle's value; the session's evaluation after an edit is a
fresh one's (a vehicle whose limit reads the roster follows an edit elsewhere); the quick fix
removes the last choices that cost slots; check-catalog refuses what it cannot apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.fixes import fixes_for
from armybuilder.rules.engine import evaluate_roster
from armybuilder.session import EditSession

SYSTEM = """
kind: system
id: sem
name: Semantics
cost_types:
  - {id: slots, name: Slots, unit: slots}
  - {id: pts, name: Points}
forces:
  - {id: team, name: Team}
"""

OPTIONS = """
    groups:
      - id: options
        name: Options
        constraints:
          - {id: slot-limit, type: max, value: -1, field: slots, scope: parent}
        modifiers: MODIFIERS
        groups:
          - id: weapons
            name: Weapons
            entries: [{link: gun}, {link: cannon}]
        entries: [{link: armour}, {link: nitro}]
"""

ARMY = (
    """
kind: catalog
id: army
system: sem
name: Army
shared_entries:
  - {id: gun, name: Gun, costs: {slots: 1, pts: 2}}
  - {id: cannon, name: Cannon, costs: {slots: 2, pts: 5}}
  - {id: armour, name: Armour, costs: {slots: 1, pts: 4}}
  - {id: nitro, name: Nitro, costs: {pts: 6}}
entries:
  - {id: garage, name: Garage, type: unit}
  - id: car
    name: Car
    type: model"""
    + OPTIONS.replace("MODIFIERS", "[{type: set, field: 'constraint:slot-limit', value: 2}]")
    + """
  - id: bus
    name: Bus
    type: model"""
    + OPTIONS.replace(
        "MODIFIERS",
        "[{type: set, field: 'constraint:slot-limit', value: 3}, {type: increment, "
        "field: 'constraint:slot-limit', value: 1, conditions: [{type: at-least, value: 1, "
        "scope: roster, child: garage}]}]",
    )
)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


def open_team(tmp_path: Path, lib: Library, vehicles: dict[str, list[str]]) -> EditSession:
    text = "system: sem\nfaction: army\nname: T\nselections:\n"
    for vehicle, options in vehicles.items():
        text += f"  - entry: {vehicle.split('#')[0]}\n"
        if options:
            text += "    selections:\n" + "".join(f"      - {{entry: {o}}}\n" for o in options)
    path = tmp_path / "t.yaml"
    path.write_text(text)
    return EditSession.open(path, lib, autosave=False)


def messages(session: EditSession) -> list[str]:
    ev = session.evaluate()
    # (the session's evaluation is the one a fresh evaluation of the roster gives)
    fresh = evaluate_roster(session.roster, session.system)
    assert [i.message for i in ev.issues] == [i.message for i in fresh.issues]
    return [i.message for i in ev.issues]


def test_each_vehicle_is_checked_against_its_own_number(tmp_path: Path, lib: Library) -> None:
    # Car: gun 1 + cannon 2 + armour 1 = 4 slots of 2; nitro costs no slot.
    session = open_team(
        tmp_path,
        lib,
        {"car": ["gun", "cannon", "armour", "nitro"], "bus#2": ["gun", "cannon"]},
    )
    assert messages(session) == ["Car has 4 slots in Options; at most 2 slots allowed"]
    [issue] = session.evaluate().issues
    assert (issue.code, issue.entry, issue.constraint, issue.path) == (
        "max-exceeded",
        "options",
        "slot-limit",
        ("selections", 0),
    )
    # The bus's three slots hold what the car's two do not.
    assert messages(open_team(tmp_path, lib, {"bus": ["gun", "cannon"]})) == []
    assert messages(open_team(tmp_path, lib, {"bus": ["cannon", "cannon"]})) == [
        "Bus has 4 slots in Options; at most 3 slots allowed"
    ]


def test_a_limit_that_reads_the_roster_follows_an_edit_elsewhere(
    tmp_path: Path, lib: Library
) -> None:
    """Adding a garage (not the bus) gives the bus a fourth slot: the builder's evaluation
    after the edit is a fresh one's, and undo takes it back."""
    session = open_team(tmp_path, lib, {"bus": ["cannon", "cannon"]})
    over = ["Bus has 4 slots in Options; at most 3 slots allowed"]
    assert messages(session) == over
    session.add((), "garage")
    assert messages(session) == []
    session.undo()
    assert messages(session) == over
    # An edit inside: one more gun, one more slot.
    session.add((), "garage")
    session.add(("selections", 0), "gun")
    assert messages(session) == ["Bus has 5 slots in Options; at most 4 slots allowed"]


def test_the_quick_fix_removes_the_last_choices_that_cost_slots(
    tmp_path: Path, lib: Library
) -> None:
    session = open_team(tmp_path, lib, {"car": ["armour", "cannon", "gun", "nitro"]})
    ev = session.evaluate()
    [issue] = ev.issues
    [fix] = fixes_for(ev, issue)
    assert fix.label == "Remove the last 2 choices of Options that cost Slots (to at most 2 slots)"
    fix.apply(session)
    assert messages(session) == []
    # The gun and the cannon went (the last that cost a slot); the nitro, costing none, stays.
    assert [s["entry"] for s in session.node(("selections", 0))["selections"]] == [
        "armour",
        "nitro",
    ]


def test_check_catalog_names_a_group_constraint_it_cannot_apply(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = tmp_path_factory.mktemp("bad")
    (root / "sem").mkdir()
    (root / "sem" / "system.yaml").write_text(SYSTEM)
    bad = ARMY.replace(
        "{id: slot-limit, type: max, value: -1, field: slots, scope: parent}",
        "{id: slot-limit, type: max, value: -1, field: selections, scope: roster}",
        1,
    ).replace("field: 'constraint:slot-limit', value: 3", "field: 'constraint:nope', value: 3")
    (root / "sem" / "army.yaml").write_text(bad)
    found = Library([root], use_cache=False).scan()
    assert [p.message for p in found.problems] == [
        "a group's constraint bounds a cost of its choices: its field 'selections' is no cost "
        "type (pts, slots); a count of choices is the group's min / max",
        "a group's modifier field 'constraint:nope' names nothing a group has (use hidden, min, "
        "max, constraint:<id of one of its constraints>, or error, warning, note for a message)",
    ]
