"""The generic engine on a small synthetic game system (no real system involved).

The catalog below exercises every structural concept: entries and links, groups with min/max,
constraints in parent / self / roster / ancestor scope, constraints on categories and costs,
modifiers with conditions, condition groups and repeats, hidden entries, cost limits, force
slots and experience.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate

SYSTEM = """
kind: system
id: demo
name: Demo Wars
cost_types:
  - {id: pts, name: Points, unit: pts}
categories:
  - {id: hq, name: HQ}
  - {id: troops, name: Troops}
  - {id: model, name: Model}
  - {id: heavy, name: Heavy weapon}
  - {id: elite, name: Elite}
forces:
  - id: patrol
    name: Patrol
    slots:
      - {category: hq, min: 1, max: 1, source: "Demo 1.1"}
      - {category: troops, max: 3}
experience:
  - {id: green, name: Green}
  - {id: veteran, name: Veteran}
default_experience: green
shared_entries:
  - id: rifle
    name: Rifle
    costs: {pts: 1}
  - id: cannon
    name: Cannon
    categories: [heavy]
    costs: {pts: 10}
  - id: soldier
    name: Soldier
    type: model
    categories: [model]
    costs: {pts: 5}
    groups:
      - id: weapon
        name: Weapon
        min: 1
        max: 1
        default: rifle
        entries: [{link: rifle}, {link: cannon}]
"""

ARMY = """
kind: catalog
id: army
system: demo
name: The Army
entries:
  - id: captain
    name: Captain
    type: unit
    categories: [hq]
    costs: {pts: 20}
    experience: true
    constraints:
      - {type: max, value: 1, scope: roster, source: "Demo 2.1"}
    modifiers:
      - type: increment
        field: "cost:pts"
        value: 5
        conditions: [{type: at-least, value: 1, scope: self, child: sword}]
    entries:
      - id: sword
        name: Sword
        costs: {pts: 2}
        constraints: [{type: max, value: 1, scope: parent}]
  - id: squad
    name: Squad
    type: unit
    categories: [troops]
    experience: true
    constraints:
      - {id: members-min, type: min, value: 3, scope: self, child: model}
      - {id: members, type: max, value: 5, scope: self, child: model, source: "Demo 3.1"}
      - {type: max, value: 1, scope: self, child: heavy, message: one heavy weapon per squad}
      - {type: max, value: 60, scope: self, field: pts}
    modifiers:
      - type: set
        field: constraint:members
        value: 10
        groups:
          - type: or
            conditions:
              - {type: at-least, value: 1, scope: self, child: banner}
              - {type: instance-of, scope: self, child: elite}
      - type: append
        field: name
        value: " (with banner)"
        conditions: [{type: at-least, value: 1, scope: self, child: banner}]
    entries:
      - {link: soldier}
      - id: banner
        name: Banner
        costs: {pts: 3}
        modifiers:
          - type: decrement
            field: "cost:pts"
            value: 1
            repeat: {value: 2, repeats: 1, scope: parent, child: model}
  - id: secret-weapon
    name: Secret weapon
    hidden: true
"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY, folder="demo")


def run(lib: Library, body: str, header: str = "") -> Evaluation:
    text = "system: demo\nfaction: army\nname: Test\n" + dedent(header) + dedent(body)
    roster = Roster.from_text(text, "t.yaml")
    gs = lib.system("demo")
    return evaluate(roster, gs.index("army"), gs.rules)


CAPTAIN = """
  - entry: captain
"""


def squad(n: int, weapon: str = "rifle", extra: str = "", count: int = 1) -> str:
    return f"""
  - entry: squad
    count: {count}
    selections:
      - entry: soldier
        count: {n}
        selections:
          - entry: {weapon}
{extra}"""


def test_legal_patrol(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(4))
    assert ev.issues == []
    assert ev.valid
    # captain 20 + squad (4 soldiers x (5 + rifle 1))
    assert ev.totals == {"pts": 44.0}


def test_force_slot_min(demo: Library) -> None:
    ev = run(demo, "selections:" + squad(4))
    assert ev.codes() == ["min-not-met"]
    assert "Patrol has 0 × HQ; at least 1 needed" in ev.issues[0].message
    assert ev.issues[0].source == "Demo 1.1"


def test_force_slot_max(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(4) * 4)
    assert ev.codes() == ["max-exceeded"]
    assert "4 × Troops; at most 3" in ev.issues[0].message


def test_counts_multiply(demo: Library) -> None:
    # Two copies of a squad: the force slot counts them both.
    ev = run(demo, "selections:" + CAPTAIN + squad(4, count=2) + squad(4, count=2))
    assert ev.codes() == ["max-exceeded"]
    assert ev.totals["pts"] == 20 + 4 * 24


def test_constraint_self_scope_on_category(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(6))
    assert ev.codes() == ["max-exceeded"]
    issue = ev.issues[0]
    assert issue.message == "Squad has 6 × Model; at most 5 allowed"
    assert issue.path == ("selections", 1)
    assert issue.source == "Demo 3.1"


def test_min_constraint(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(2))
    assert ev.codes() == ["min-not-met"]
    assert "at least 3 needed" in ev.issues[0].message


def test_modifier_on_constraint_with_or_group(demo: Library) -> None:
    banner = "      - entry: banner\n"
    ev = run(demo, "selections:" + CAPTAIN + squad(8, extra=banner))
    assert ev.valid, ev.issues
    ev = run(demo, "selections:" + CAPTAIN + squad(11, extra=banner))
    assert ev.codes() == ["max-exceeded", "max-exceeded"]  # members and the 60 pts cap
    assert "at most 10 allowed" in ev.issues[0].message


def test_name_modifier(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(4, extra="      - entry: banner\n"))
    node = ev.root.children[1]
    assert ev.name(node) == "Squad (with banner)"


def test_cost_modifier_with_condition(demo: Library) -> None:
    ev = run(demo, "selections:\n  - entry: captain\n    selections:\n      - entry: sword\n")
    # captain 20 + 5 (has a sword) + sword 2
    assert ev.totals["pts"] == 27


def test_repeat_modifier(demo: Library) -> None:
    # Banner costs 3, minus 1 per two models in its squad: 5 models -> 3 - 2 = 1.
    ev = run(demo, "selections:" + CAPTAIN + squad(5, extra="      - entry: banner\n"))
    squad_node = ev.root.children[1]
    banner = squad_node.children[1]
    assert ev.unit_cost(banner, "pts") == 1
    assert ev.totals["pts"] == 20 + 5 * 6 + 1


def test_max_in_parent_scope(demo: Library) -> None:
    body = """selections:
  - entry: captain
    selections:
      - entry: sword
      - entry: sword
"""
    ev = run(demo, body)
    assert ev.codes() == ["max-exceeded"]
    assert ev.issues[0].message == "Captain has 2 × Sword; at most 1 allowed"


def test_roster_scope_constraint(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + CAPTAIN + squad(4))
    codes = ev.codes()
    assert codes.count("max-exceeded") == 2  # the entry's roster-wide max and the HQ slot
    assert any(i.source == "Demo 2.1" for i in ev.issues)


def test_category_constraint_with_message(demo: Library) -> None:
    body = (
        "selections:"
        + CAPTAIN
        + """
  - entry: squad
    selections:
      - entry: soldier
        count: 2
        selections: [{entry: cannon}]
      - entry: soldier
        count: 2
"""
    )
    ev = run(demo, body)
    # two cannons (one heavy max) and the second soldier group lacks its weapon
    assert sorted(ev.codes()) == ["max-exceeded", "min-not-met"]
    msgs = " | ".join(i.message for i in ev.issues)
    assert "2 × Heavy weapon; at most 1 allowed (one heavy weapon per squad)" in msgs
    assert "Points 60 pts in Squad; at most 60" not in msgs  # 2x(5+10) + 2x5 = 40
    assert "has 0 choices of Weapon; at least 1 needed (the usual choice is Rifle)" in msgs


def test_cost_constraint(demo: Library) -> None:
    body = (
        "selections:"
        + CAPTAIN
        + """
  - entry: squad
    selections:
      - entry: soldier
        count: 5
        selections: [{entry: cannon}]
"""
    )
    ev = run(demo, body)
    msgs = [i.message for i in ev.issues]
    assert "Squad has Points 75 pts in Squad; at most 60 pts allowed" in msgs


def test_group_max(demo: Library) -> None:
    body = (
        "selections:"
        + CAPTAIN
        + """
  - entry: squad
    selections:
      - entry: soldier
        count: 3
        selections: [{entry: rifle}, {entry: rifle}]
"""
    )
    ev = run(demo, body)
    assert ev.codes() == ["max-exceeded"]
    assert "Squad > Soldier ×3 has 2 choices of Weapon; at most 1 allowed" in ev.issues[0].message


def test_hidden_entry(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(3) + "  - entry: secret-weapon\n")
    assert ev.codes() == ["hidden-entry"]


def test_unknown_entry_is_kept_and_reported(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(3) + "  - entry: squadd\n")
    assert ev.codes() == ["unknown-entry"]
    assert "did you mean 'squad'" in ev.issues[0].message
    assert ev.issues[0].path == ("selections", 2)


def test_entry_in_wrong_place(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(3) + "  - entry: rifle\n")
    assert ev.codes() == ["entry-not-allowed"]
    assert "Rifle (rifle) cannot be selected at the top of the roster" in ev.issues[0].message


def test_cost_limit(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(4), header="limits: {pts: 40}\n")
    assert ev.codes() == ["cost-limit-exceeded"]
    assert ev.issues[0].message == "Points 44 pts is over the limit of 40 pts by 4 pts"
    assert ev.issues[0].path == ("limits", "pts")


def test_limit_on_unknown_cost_type(demo: Library) -> None:
    ev = run(demo, "selections:" + CAPTAIN + squad(4), header="limits: {gold: 40}\n")
    assert ev.codes() == ["unknown-cost-type"]


def test_experience(demo: Library) -> None:
    body = "selections:\n  - entry: captain\n    experience: veteran\n" + squad(3)
    ev = run(demo, body)
    assert ev.valid
    captain, sq = ev.root.children
    assert ev.experience(captain).name == "Veteran"  # type: ignore[union-attr]
    assert ev.experience(sq).name == "Green"  # type: ignore[union-attr]  # the default
    ev = run(demo, "selections:\n  - entry: captain\n    experience: heroic\n" + squad(3))
    assert ev.codes() == ["unknown-experience"]
    assert ev.issues[0].path == ("selections", 0, "experience")


def test_experience_on_entry_without_it(demo: Library) -> None:
    body = (
        "selections:"
        + CAPTAIN
        + squad(3).replace(
            "      - entry: soldier\n", "      - entry: soldier\n        experience: veteran\n"
        )
    )
    ev = run(demo, body)
    assert ev.codes() == ["experience-ignored"]
    assert ev.valid  # a warning only


def test_children_of_unknown_entry_are_not_judged(demo: Library) -> None:
    body = (
        "selections:"
        + CAPTAIN
        + """
  - entry: mystery
    selections:
      - entry: whatever
"""
    )
    ev = run(demo, body)
    assert ev.codes() == ["unknown-entry"]
    mystery = ev.root.children[1]
    assert mystery.children[0].entry_id == "whatever"


def test_values_do_not_leak_between_evaluations(demo: Library) -> None:
    a = run(demo, "selections:" + CAPTAIN + squad(4))
    b = run(demo, "selections:" + CAPTAIN + squad(5))
    assert a.totals["pts"] == 44 and b.totals["pts"] == 50


def write_catalog(root: Path, system: str, faction: str) -> Library:
    (root / "demo").mkdir(parents=True, exist_ok=True)
    (root / "demo" / "system.yaml").write_text(system)
    (root / "demo" / "army.yaml").write_text(faction)
    return Library([root], use_cache=False).scan()


def test_link_overrides_merge(tmp_path: Path) -> None:
    army = ARMY.replace(
        "      - {link: soldier}",
        "      - {link: soldier, name: Trooper, costs: {pts: 7}}",
    )
    lib = write_catalog(tmp_path, SYSTEM, army)
    assert not lib.problems
    roster = Roster.from_text(
        "system: demo\nfaction: army\nname: T\nselections:" + CAPTAIN + squad(3), "t.yaml"
    )
    gs = lib.system("demo")
    ev = evaluate(roster, gs.index("army"), gs.rules)
    soldier = ev.root.children[1].children[0]
    assert ev.name(soldier) == "Trooper"
    assert ev.totals["pts"] == 20 + 3 * (7 + 1)


def test_entry_id_equal_to_its_category_counts_once(tmp_path: Path) -> None:
    system = SYSTEM.replace(
        "  - {id: elite, name: Elite}",
        "  - {id: elite, name: Elite}\n  - {id: squad, name: Squad category}",
    )
    army = ARMY.replace(
        "    categories: [troops]\n    experience: true",
        "    categories: [troops, squad]\n    experience: true",
    )
    army = army.replace(
        '      - {type: max, value: 1, scope: roster, source: "Demo 2.1"}',
        '      - {type: max, value: 1, scope: roster, source: "Demo 2.1"}\n'
        "      - {type: max, value: 2, scope: roster, child: squad}",
    )
    lib = write_catalog(tmp_path, system, army)
    assert not lib.problems, lib.problems
    gs = lib.system("demo")
    roster = Roster.from_text(
        "system: demo\nfaction: army\nname: T\nselections:" + CAPTAIN + squad(3, count=2),
        "t.yaml",
    )
    assert evaluate(roster, gs.index("army"), gs.rules).valid  # 2 squads, not 4
