"""Modifiers that change other selections than their own (docs/catalog-format.md, "Modifiers
that reach other selections"): ``scope`` (where the modifier works from), ``reach`` (that
selection, its children or every selection below it), ``child`` (only selections of an entry,
category or type), ``profile_type`` and ``position`` (a number inside a text)."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.catalog.lint import check_paths
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate
from armybuilder.rules.engine import Node, SubtreeMemo

SYSTEM = """
kind: system
id: reach
name: Reach
cost_types:
  - {id: pts, name: Points}
profile_types:
  - id: stats
    name: Stats
    characteristics: [{id: move, name: Move}, {id: attacks, name: Attacks}]
  - id: weapon
    name: Weapon
    characteristics: [{id: attacks, name: Attacks}, {id: damage, name: Damage}]
categories:
  - {id: heavy, name: Heavy}
  - {id: boosted, name: Boosted}
  - {id: squad-cat, name: Squad}
"""

ARMY = """
kind: catalog
id: army
system: reach
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    costs: {pts: 10}
    categories: [squad-cat]
    constraints:
      - {id: three-troopers, type: max, value: 3, scope: self, child: trooper}
    entries:
      - id: trooper
        name: Trooper
        type: model
        costs: {pts: 5}
        profiles:
          - {type: stats, characteristics: {move: 6, attacks: 1}}
        entries:
          - id: blade
            name: Blade
            profiles: [{type: weapon, characteristics: {attacks: 2, damage: D6}}]
          - id: cannon
            name: Cannon
            categories: [heavy]
            profiles: [{type: weapon, characteristics: {attacks: 1, damage: D6+1}}]
      - id: drill
        name: Battle drill
        modifiers:
          # From the squad (the nearest unit), on everything below it:
          - {type: increment, field: "characteristic:attacks", value: 1,
             scope: "type:unit", reach: descendants, profile_type: weapon}
          - {type: increment, field: "cost:pts", value: 2,
             scope: "type:unit", reach: descendants, child: "type:model"}
          - {type: add, field: categories, value: boosted,
             scope: "type:unit", reach: descendants, child: heavy}
          # Read after the category above was added: only boosted weapons.
          - {type: increment, field: "characteristic:damage", value: 1, position: -1,
             scope: "type:unit", reach: descendants, child: boosted}
          # The squad itself may hold one more trooper.
          - {type: increment, field: "constraint:three-troopers", value: 1, scope: parent}
      - id: banner
        name: Banner
        modifiers:
          # Only the squad's direct children, and only while the squad is large.
          - type: set
            field: name
            value: Standard bearer
            scope: parent
            reach: children
            child: trooper
            conditions: [{type: at-least, value: 3, scope: parent, child: trooper}]
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("catalogs")
    found = tiny_library(root, SYSTEM, ARMY, folder="reach")
    assert check_paths([root / "reach"]) == []  # what `check-catalog` says
    return found


def roster(body: str) -> Roster:
    text = "system: reach\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    return Roster.from_text(text, "t.yaml")


def run(lib: Library, body: str) -> Evaluation:
    gs = lib.system("reach")
    return evaluate(roster(body), gs.index("army"), gs.rules)


def weapons(ev: Evaluation, trooper: Node) -> dict[str, tuple[object, object]]:
    out = {}
    for n in trooper.children:
        assert n.entry is not None
        p = n.entry.profiles[0]
        out[n.entry.id] = (ev.profile_value(n, p, "attacks"), ev.profile_value(n, p, "damage"))
    return out


SQUAD = """\
  - entry: squad
    selections:
      - {entry: trooper, count: 2, selections: [{entry: blade}, {entry: cannon}]}
"""


def test_without_the_upgrade_nothing_below_changes(lib: Library) -> None:
    ev = run(lib, SQUAD)
    squad = ev.root.children[0]
    trooper = squad.children[0]
    assert weapons(ev, trooper) == {"blade": (2, "D6"), "cannon": (1, "D6+1")}
    assert ev.total_cost(squad)["pts"] == 10 + 2 * 5
    assert ev.categories(trooper.children[1]) == ["heavy"]


def test_an_upgrade_changes_the_weapons_costs_and_categories_below_its_unit(
    lib: Library,
) -> None:
    ev = run(lib, SQUAD + "      - {entry: drill}\n")
    squad = ev.root.children[0]
    trooper, drill = squad.children
    # +1 Attacks to every weapon profile below the squad; the cannon (heavy) becomes boosted,
    # and boosted weapons add 1 to the last number of their Damage: D6+1 -> D6+2.
    assert weapons(ev, trooper) == {"blade": (3, "D6"), "cannon": (2, "D6+2")}
    assert ev.categories(trooper.children[1]) == ["heavy", "boosted"]
    # Profile type Weapon only: the trooper's own Stats keep their Attacks.
    assert ev.characteristic(trooper, "attacks") == 1
    # +2 pts per model (type model only; the drill and the weapons cost nothing more).
    assert ev.unit_cost(trooper, "pts") == 7
    assert ev.unit_cost(drill, "pts") == 0
    assert ev.total_cost(squad)["pts"] == 10 + 2 * 7


def test_scope_parent_reach_self_changes_the_parent_constraint(lib: Library) -> None:
    four = "  - entry: squad\n    selections:\n      - {entry: trooper, count: 4}\n"
    assert [i.constraint for i in run(lib, four).errors] == ["three-troopers"]
    assert run(lib, four + "      - {entry: drill}\n").errors == []


def test_children_reach_with_a_condition_read_from_the_modifier_own_selection(
    lib: Library,
) -> None:
    few = "  - entry: squad\n    selections:\n      - {entry: trooper, count: 2}\n"
    many = "  - entry: squad\n    selections:\n      - {entry: trooper, count: 3}\n"
    for body, expected in ((few, "Trooper"), (many, "Standard bearer")):
        ev = run(lib, body + "      - {entry: banner}\n")
        assert ev.name(ev.root.children[0].children[0]) == expected


def test_a_replayed_evaluation_sees_an_upgrade_added_or_removed(lib: Library) -> None:
    """The trooper's subtree is unchanged between edits, but the drill above it changes its
    cost: it is worked out again, never replayed from the previous evaluation."""
    gs = lib.system("reach")
    index = gs.index("army")
    plain = roster(SQUAD)
    first = evaluate(plain, index, gs.rules, memo=None)
    ev = evaluate(plain, index, gs.rules, SubtreeMemo(index, gs.rules))
    squad_data = plain.selections[0]
    squad_data.children.append(roster("  - entry: drill\n").selections[0])
    drilled = evaluate(plain, index, gs.rules, ev.memo_out)
    assert drilled.total_cost(drilled.root.children[0])["pts"] == 10 + 2 * 7
    squad_data.children.pop()
    again = evaluate(plain, index, gs.rules, drilled.memo_out)
    assert again.total_cost(again.root.children[0])["pts"] == 10 + 2 * 5
    assert first.total_cost(first.root.children[0])["pts"] == 10 + 2 * 5


def test_check_catalog_names_what_a_reaching_modifier_gets_wrong(tmp_path: Path) -> None:
    bad = ARMY.replace(
        'scope: "type:unit", reach: descendants, profile_type: weapon}',
        'scope: "type:squadron", reach: descendants, profile_type: gun}',
    )
    bad = bad.replace("reach: descendants, child: heavy}", "reach: descendants, child: hevy}")
    (tmp_path / "reach").mkdir()
    (tmp_path / "reach" / "system.yaml").write_text(SYSTEM)
    (tmp_path / "reach" / "army.yaml").write_text(bad)
    found = sorted(str(p) for p in check_paths([tmp_path / "reach"]))
    assert len(found) == 3, found
    assert any("scope 'type:squadron'" in p and "army.yaml:" in p for p in found), found
    assert any("modifier reaches 'hevy', which is no entry" in p for p in found), found
    assert any("unknown profile type 'gun'" in p for p in found), found
