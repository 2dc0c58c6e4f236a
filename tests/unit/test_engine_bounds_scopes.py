"""Modifier types `floor`, `ceil` and `replace`, and the query scopes `top` and `type:<type>`,
in armybuilder's own catalog terms (docs/catalog-format.md); the BattleScribe translation maps
NewRecruit's `floor` / `ceil` / `replace` and `root-entry` / `unit` / `model` / `upgrade` /
`model-or-unit` onto them (tests/interop/test_bs_modifiers.py)."""

from __future__ import annotations

from textwrap import dedent

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate

SYSTEM = """
kind: system
id: bnd
name: Bounds
cost_types:
  - {id: pts, name: Points}
profile_types:
  - id: stats
    name: Stats
    characteristics: [{id: move, name: Move}, {id: skill, name: Skill}]
"""

ARMY = """
kind: catalog
id: army
system: bnd
name: Army
entries:
  - id: squad
    name: Assault squad
    type: unit
    profiles:
      - {name: Squad, type: stats, characteristics: {move: '12"', skill: 3+}}
    modifiers:
      - {type: ceil, field: "characteristic:move", value: 9}
      - {type: floor, field: "characteristic:skill", value: 4}
      - {type: replace, field: name, find: Assault, value: Storm}
    entries:
      - id: trooper
        name: Trooper
        type: model
        entries:
          - id: blade
            name: Blade
            modifiers:
              - type: set
                field: cost:pts
                value: 5
                conditions: [{type: at-least, value: 1, scope: top, child: banner}]
              - type: set
                field: name
                value: Trooper's blade
                conditions:
                  - {type: at-least, value: 1, scope: "type:model", child: medal}
          - {link: medal}
      - {id: banner, name: Banner}
      - {link: medal}
shared_entries:
  - {id: medal, name: Medal}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("catalogs")
    (root / "bnd").mkdir()
    (root / "bnd" / "system.yaml").write_text(SYSTEM)
    (root / "bnd" / "army.yaml").write_text(ARMY)
    found = Library([root], use_cache=False).scan()
    assert not found.problems, found.problems  # check-catalog accepts them
    return found


def run(lib: Library, body: str) -> Evaluation:
    text = "system: bnd\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    gs = lib.system("bnd")
    return evaluate(Roster.from_text(text, "t.yaml"), gs.index("army"), gs.rules)


def test_ceil_floor_and_replace(lib: Library) -> None:
    ev = run(lib, "  - entry: squad\n")
    squad = ev.root.children[0]
    assert ev.name(squad) == "Storm squad"
    assert ev.characteristic(squad, "move") == '9"'
    assert ev.characteristic(squad, "skill") == "4+"


def test_scope_top_counts_in_the_top_level_selection(lib: Library) -> None:
    body = (
        "  - entry: squad\n    selections:\n"
        "      - {entry: trooper, selections: [{entry: blade}]}\n"
    )
    assert run(lib, body).totals == {"pts": 0.0}
    # The banner is the squad's, two levels above the blade: `top` reaches it.
    assert run(lib, body + "      - entry: banner\n").totals == {"pts": 5.0}


def test_scope_type_counts_in_the_nearest_selection_of_that_type(lib: Library) -> None:
    plain = "  - entry: squad\n    selections:\n      - entry: trooper\n        selections:\n"
    ev = run(lib, plain + "          - entry: blade\n")
    blade = ev.root.children[0].children[0].children[0]
    assert ev.name(blade) == "Blade"
    # A medal carried by the squad is not the trooper's (nearest model); one in the trooper is.
    ev = run(lib, plain + "          - entry: blade\n      - entry: medal\n")
    assert ev.name(ev.root.children[0].children[0].children[0]) == "Blade"
    ev = run(lib, plain + "          - entry: blade\n          - entry: medal\n")
    assert ev.name(ev.root.children[0].children[0].children[0]) == "Trooper's blade"


def test_check_catalog_refuses_what_these_cannot_do(tmp_path: object) -> None:
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "bnd").mkdir()
    (root / "bnd" / "system.yaml").write_text(SYSTEM)
    bad = ARMY.replace(
        "{type: replace, field: name, find: Assault, value: Storm}",
        "{type: replace, field: name, value: Storm}",
    ).replace("scope: top,", "scope: 'type:vehicle',")
    (root / "bnd" / "army.yaml").write_text(bad)
    found = Library([root], use_cache=False).scan()
    messages = " | ".join(p.message for p in found.problems)
    assert "replaces text: say which with `find:`" in messages
    assert "scope 'type:vehicle' is not self, parent" in messages
