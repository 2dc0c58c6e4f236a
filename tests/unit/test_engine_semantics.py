"""Engine semantics added for the BattleScribe conformance suite, in armybuilder's own terms:
issues that name their origin, `type:` child filters, append separators, and constraint values
modified from a selection of their entry. (The suite's specs themselves run in
tests/interop/.)"""

from __future__ import annotations

from textwrap import dedent

import pytest
from tiny_library import SEM_SYSTEM, tiny_library, write_tiny_system

from armybuilder.catalog import Library
from armybuilder.rosters import Roster, SelectionData
from armybuilder.rules import Evaluation, evaluate
from armybuilder.rules.engine import ForceData

ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    constraints:
      - {id: one-squad, type: max, value: 1, scope: parent}
    modifiers:
      # A second squad is allowed once a leader is there (counted from a squad's parent).
      - type: increment
        field: constraint:one-squad
        value: 1
        conditions: [{type: at-least, value: 1, scope: parent, child: leader}]
      - {type: append, field: name, value: Alpha, separator: " "}
      - type: set
        field: cost:pts
        value: 7
        conditions: [{type: at-least, value: 2, scope: self, child: "type:model"}]
    entries:
      - {id: trooper, name: Trooper, type: model}
      - {id: medkit, name: Medkit}
  - id: leader
    name: Leader
    type: unit
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, ARMY)


def run(lib: Library, body: str) -> Evaluation:
    text = "system: sem\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    gs = lib.system("sem")
    return evaluate(Roster.from_text(text, "t.yaml"), gs.index("army"), gs.rules)


def test_an_issue_names_the_entry_and_constraint_it_comes_from(lib: Library) -> None:
    ev = run(lib, "  - entry: squad\n  - entry: squad\n")
    assert [(i.code, i.entry, i.constraint) for i in ev.errors] == [
        ("max-exceeded", "squad", "one-squad")
    ]


def test_constraint_value_modified_from_a_selection_of_its_entry(lib: Library) -> None:
    # With a leader beside them, the squads' parent holds one: the limit rises to 2.
    ev = run(lib, "  - entry: squad\n  - entry: squad\n  - entry: leader\n")
    assert ev.errors == []


def test_append_joins_with_its_separator(lib: Library) -> None:
    ev = run(lib, "  - entry: squad\n")
    assert ev.name(ev.root.children[0]) == "Squad Alpha"


def test_type_filter_counts_entries_of_a_type(lib: Library) -> None:
    one = run(lib, "  - entry: squad\n    selections: [{entry: trooper}, {entry: medkit}]\n")
    two = run(lib, "  - entry: squad\n    selections: [{entry: trooper, count: 2}]\n")
    # Only models count: a trooper and a medkit are one model, two troopers are two.
    assert one.totals == {"pts": 0.0}
    assert two.totals == {"pts": 7.0}


# --------------------------------------------------------------------------- several forces

FORCES_SYSTEM = """
kind: system
id: fs
name: Forces
cost_types:
  - {id: pts, name: Points}
categories:
  - {id: troops, name: Troops}
forces:
  - id: patrol
    name: Patrol
    constraints:
      # At most one patrol in the roster; a patrol holds at least one squad.
      - {id: one-patrol, type: max, value: 1, field: forces, scope: roster}
      - {id: a-squad, type: min, value: 1, scope: parent, child: troops}
  - {id: wing, name: Wing}
"""

FORCES_ARMY = """
kind: catalog
id: army
system: fs
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    categories: [troops]
    costs: {pts: 10}
    modifiers:
      - type: set
        field: name
        value: Crowded force
        conditions: [{type: at-least, value: 2, scope: force, child: squad}]
      - type: set
        field: name
        value: Crowded with wings
        conditions:
          - {type: at-least, value: 2, scope: force, child: squad, child_forces: true}
      - type: set
        field: cost:pts
        value: 20
        conditions: [{type: at-least, value: 3, scope: roster, child: squad}]
"""


@pytest.fixture(scope="module")
def forces_lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(
        tmp_path_factory.mktemp("catalogs"), FORCES_SYSTEM, FORCES_ARMY, folder="fs"
    )


def run_forces(lib: Library, forces: list[ForceData]) -> Evaluation:
    roster = Roster.from_text("system: fs\nfaction: army\nname: Test\n", "t.yaml")
    gs = lib.system("fs")
    return evaluate(roster, gs.index("army"), gs.rules, forces=forces)


def squads(loc: tuple[str | int, ...], n: int) -> list[SelectionData]:
    return [SelectionData((*loc, "selections", i), "squad") for i in range(n)]


def test_each_force_holds_its_own_selections(forces_lib: Library) -> None:
    patrol = ForceData("patrol", squads(("forces", 0), 1), loc=("forces", 0))
    wing = ForceData("wing", squads(("forces", 0, "forces", 0), 1), loc=("forces", 0, "forces", 0))
    patrol.forces.append(wing)
    ev = run_forces(forces_lib, [patrol])
    p_node = ev.root.children[0]
    squad_p = p_node.children[0]
    # One squad in the patrol itself; with its wing, two.
    assert ev.name(squad_p) == "Crowded with wings"
    # Two squads in the roster: under three, each costs 10.
    assert ev.totals == {"pts": 20.0}
    assert ev.errors == []


def test_roster_scope_reaches_every_force(forces_lib: Library) -> None:
    a = ForceData("wing", squads(("forces", 0), 2), loc=("forces", 0))
    b = ForceData("wing", squads(("forces", 1), 1), loc=("forces", 1))
    ev = run_forces(forces_lib, [a, b])
    assert ev.totals == {"pts": 60.0}  # three squads in the roster: 20 each
    # Two squads in the first force (both conditions hold; the later modifier wins), one in
    # the second: the force scope does not reach into the other force.
    assert [ev.name(n) for n in ev.root.children[0].children] == ["Crowded with wings"] * 2
    assert ev.name(ev.root.children[1].children[0]) == "Squad"


def test_force_constraints_are_checked_per_force(forces_lib: Library) -> None:
    one = ForceData("patrol", squads(("forces", 0), 1), loc=("forces", 0))
    two = ForceData("patrol", [], loc=("forces", 1))
    ev = run_forces(forces_lib, [one, two])
    found = sorted((i.constraint, i.path) for i in ev.errors)
    # Two patrols break the roster's limit; the empty one lacks its squad.
    assert ("a-squad", ("forces", 1)) in found
    assert [c for c, _ in found].count("one-patrol") >= 1
    assert ("a-squad", ("forces", 0)) not in found


# --------------------------------------------------------------------------- categories, repeats

CATS_ARMY = """
kind: catalog
id: army
system: sem
name: Army
categories:
  - {id: hq, name: HQ}
  - {id: elite, name: Elite}
entries:
  - id: hero
    name: Hero
    type: unit
    categories: [hq]
    primary_category: hq
    costs: {pts: 10}
    modifiers:
      # A hero with a banner becomes elite (and elite first of all).
      - type: add
        field: categories
        value: elite
        conditions: [{type: at-least, value: 1, scope: self, child: banner}]
      - type: set
        field: primary-category
        value: elite
        conditions: [{type: at-least, value: 1, scope: self, child: banner}]
      # +1 pt per banner and +2 per medal: the repeats add up.
      - type: increment
        field: cost:pts
        value: 1
        repeats:
          - {value: 1, repeats: 1, scope: self, child: banner}
          - {value: 1, repeats: 2, scope: self, child: medal}
    entries:
      - {id: banner, name: Banner}
      - {id: medal, name: Medal}
  - id: elite-count
    name: Elite count
    constraints:
      - {id: no-elite, type: max, value: 0, scope: roster, child: elite}
"""


@pytest.fixture(scope="module")
def cats_lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, CATS_ARMY)


def test_categories_modified_and_counted(cats_lib: Library) -> None:
    plain = run(cats_lib, "  - entry: hero\n  - entry: elite-count\n")
    hero = plain.root.children[0]
    assert (plain.categories(hero), plain.primary_category(hero)) == (["hq"], "hq")
    assert plain.errors == []
    decked = run(
        cats_lib, "  - entry: hero\n    selections: [{entry: banner}]\n  - entry: elite-count\n"
    )
    hero = decked.root.children[0]
    assert (decked.categories(hero), decked.primary_category(hero)) == (["hq", "elite"], "elite")
    # The roster now holds an elite: the category counts as modified.
    assert [i.constraint for i in decked.errors] == ["no-elite"]


def test_several_repeats_add_up(cats_lib: Library) -> None:
    ev = run(
        cats_lib,
        "  - entry: hero\n    selections: [{entry: banner}, {entry: medal, count: 2}]\n",
    )
    # 10 + 1 (one banner) + 2 x 2 (two medals) = 15
    assert ev.unit_cost(ev.root.children[0], "pts") == 15.0


PERCENT_ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: elite
    name: Elite
    constraints:
      # Elites may be at most half of what the roster holds.
      - {id: half, type: max, value: 50, scope: roster, percent: true}
  - id: line
    name: Line
"""


def test_percent_constraint(tmp_path_factory: pytest.TempPathFactory) -> None:
    lib = tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, PERCENT_ARMY)
    # One elite of one selection: 100 % > 50 %; one of two: 50 %, at the limit.
    assert [i.constraint for i in run(lib, "  - entry: elite\n").errors] == ["half"]
    assert run(lib, "  - entry: elite\n  - entry: line\n").errors == []


LINKS_ARMY = """
kind: catalog
id: army
system: sem
name: Army
shared_entries:
  - id: trooper
    name: Trooper
entries:
  # Two ways to take troopers, each limited on its own, and all of them together.
  - link: trooper
    id: veterans
    name: Veteran
    constraints: [{id: two-veterans, type: max, value: 2, scope: roster, per_link: true}]
  - link: trooper
    id: recruits
    name: Recruit
    constraints: [{id: four-troopers, type: max, value: 4, scope: roster}]
"""


def test_links_keep_their_identity(tmp_path_factory: pytest.TempPathFactory) -> None:
    lib = tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, LINKS_ARMY)
    # A roster selects a link by its id; the selection remembers it.
    ev = run(lib, "  - entry: veterans\n  - entry: recruits\n  - entry: recruits\n")
    assert [n.link.id if n.link else None for n in ev.root.children] == [
        "veterans",
        "recruits",
        "recruits",
    ]
    assert ev.errors == []  # one veteran (of 2), three troopers (of 4)
    ev = run(lib, "  - entry: veterans\n" * 3 + "  - entry: recruits\n" * 2)
    # Three veterans break their own limit; five troopers in all break the shared one.
    assert sorted(i.constraint for i in ev.errors) == ["four-troopers", "two-veterans"]


ANCESTOR_ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: squad
    name: Squad
    entries:
      - id: team
        name: Team
        entries:
          - id: gear
            name: Gear
            modifiers:
              - type: append
                field: name
                value: (squad kit)
                separator: " "
                conditions: [{type: instance-of, scope: ancestor, child: squad}]
              - type: append
                field: name
                value: (deep)
                separator: " "
                conditions: [{type: at-least, value: 2, scope: ancestor, child: "*"}]
  - id: team-alone
    name: Lone team
    entries: [{id: kit, name: Kit}]
"""


def test_ancestor_scope(tmp_path_factory: pytest.TempPathFactory) -> None:
    lib = tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, ANCESTOR_ARMY)
    ev = run(
        lib,
        "  - entry: squad\n    selections:\n"
        "      - entry: team\n        selections: [{entry: gear}]\n",
    )
    gear = ev.root.children[0].children[0].children[0]
    # A squad above it, and two selections above it (squad, team).
    assert ev.name(gear) == "Gear (squad kit) (deep)"


def test_issue_origin_in_json(lib: Library) -> None:
    ev = run(lib, "  - entry: squad\n  - entry: squad\n")
    out = ev.errors[0].to_json()
    assert (out["entry"], out["constraint"]) == ("squad", "one-squad")
    assert "entry" not in run(lib, "  - entry: nothing-like-it\n").errors[0].to_json()


def test_a_force_hidden_by_its_modifiers(tmp_path_factory: pytest.TempPathFactory) -> None:
    system = FORCES_SYSTEM.replace(
        "  - {id: wing, name: Wing}",
        """  - id: wing
    name: Wing
    modifiers:
      - type: set
        field: hidden
        value: true
        conditions: [{type: at-least, value: 2, scope: roster, child: troops}]""",
    )
    lib = tiny_library(tmp_path_factory.mktemp("catalogs"), system, FORCES_ARMY, folder="fs")
    one = run_forces(lib, [ForceData("wing", squads(("forces", 0), 1), loc=("forces", 0))])
    two = run_forces(lib, [ForceData("wing", squads(("forces", 0), 2), loc=("forces", 0))])
    assert one.force_hidden(one.root.children[0]) is False
    assert two.force_hidden(two.root.children[0]) is True


def test_a_force_modifier_of_anything_but_hidden_is_reported(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    system = FORCES_SYSTEM.replace(
        "  - {id: wing, name: Wing}",
        "  - id: wing\n    name: Wing\n    modifiers: [{type: set, field: name, value: X}]",
    )
    root = write_tiny_system(tmp_path_factory.mktemp("catalogs"), system, FORCES_ARMY, folder="fs")
    lib = Library([root], use_cache=False).scan()
    assert any("changes `hidden` only" in p.message for p in lib.problems)
