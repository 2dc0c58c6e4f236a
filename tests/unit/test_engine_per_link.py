"""Counting per link (BattleScribe's ``shared="false"``) where a constraint names what it
counts (``child``): the constraint counts what a condition with the same query counts.

BattleScribe identifies a selection made through a link by the link (its composite id), so
a count per link of an entry's own id sees only the selections made without a link (or
through a link without an id of its own); ``shared-flag-semantics.md`` of the conformance
suite's notes. A category is not an entry: it is counted the same way whether per link or
not (NewRecruit leaves categories alone; BattleScribe's force slots are counted so); nor is a
group: everything chosen in it counts, whichever link it came through."""

from __future__ import annotations

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate

SYSTEM = """
kind: system
id: sem
name: Semantics
cost_types:
  - {id: pts, name: Points}
categories:
  - {id: elite, name: Elite}
forces:
  - {id: patrol, name: Patrol}
"""

ARMY = """
kind: catalog
id: army
system: sem
name: Army
shared_entries:
  - id: trooper
    name: Trooper
    type: model
    categories: [elite]
  - {id: gun, name: Gun, type: upgrade}
entries:
  - id: squad
    name: Squad
    type: unit
    constraints:
      # Troopers taken the plain way (not as veterans): at most one.
      - {id: one-plain, type: max, value: 1, scope: self, child: trooper, per_link: true}
      # Elite models, whichever way they were taken: at most three.
      - {id: three-elite, type: max, value: 3, scope: self, child: elite, per_link: true}
      # Guns of the group, whichever link: at most one.
      - {id: one-gun, type: max, value: 1, scope: self, child: guns, per_link: true}
    modifiers:
      # The same query as `one-plain`, as a condition: "(2+ plain)" in the name.
      - type: append
        field: name
        value: (2+ plain)
        separator: " "
        conditions:
          - {type: at-least, value: 2, scope: self, child: trooper, per_link: true}
      # The same query as `three-elite`, as a condition: "(elite)" in the name.
      - type: append
        field: name
        value: (elite)
        separator: " "
        conditions:
          - {type: greater-than, value: 3, scope: self, child: elite, per_link: true}
      # The same query as `one-gun`, as a condition: "(2+ guns)" in the name.
      - type: append
        field: name
        value: (2+ guns)
        separator: " "
        conditions:
          - {type: at-least, value: 2, scope: self, child: guns, per_link: true}
    entries:
      - {link: trooper}
      - {link: trooper, id: veteran, name: Veteran}
    groups:
      - id: guns
        name: Guns
        entries:
          - {link: gun}
          - {link: gun, id: heavy-gun, name: Heavy gun}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


def run(lib: Library, children: str) -> Evaluation:
    text = (
        "system: sem\nfaction: army\nname: Test\nselections:\n  - entry: squad\n"
        "    selections:\n" + children
    )
    gs = lib.system("sem")
    return evaluate(Roster.from_text(text, "t.yaml"), gs.index("army"), gs.rules)


def test_veterans_are_not_counted_as_plain_troopers(lib: Library) -> None:
    ev = run(lib, "      - {entry: veteran, count: 2}\n      - {entry: trooper}\n")
    squad = ev.root.children[0]
    # The condition counts one plain trooper; so does the constraint (no issue).
    assert ev.name(squad) == "Squad"
    assert [i.constraint for i in ev.errors] == []


def test_two_plain_troopers_break_the_limit_and_the_condition_sees_them(lib: Library) -> None:
    ev = run(lib, "      - {entry: trooper, count: 2}\n      - {entry: veteran}\n")
    squad = ev.root.children[0]
    assert ev.name(squad) == "Squad (2+ plain)"
    assert [i.constraint for i in ev.errors] == ["one-plain"]
    assert "2" in ev.errors[0].message


def test_a_category_counts_every_link(lib: Library) -> None:
    ev = run(lib, "      - {entry: veteran, count: 3}\n      - {entry: trooper}\n")
    assert [i.constraint for i in ev.errors] == ["three-elite"]
    # The condition counts the four elite models too.
    assert ev.name(ev.root.children[0]) == "Squad (elite)"


def test_a_group_counts_every_link_in_it(lib: Library) -> None:
    """A group belongs to no link: the constraint and the condition both count the two guns
    chosen in it (one plain, one through the heavy-gun link) (docs/catalog-format.md, Links:
    identity, counting and costs)."""
    ev = run(lib, "      - {entry: gun}\n      - {entry: heavy-gun}\n")
    assert [i.constraint for i in ev.errors] == ["one-gun"]
    assert "2" in ev.errors[0].message
    assert ev.name(ev.root.children[0]) == "Squad (2+ guns)"
    one = run(lib, "      - {entry: heavy-gun}\n")
    assert [i.constraint for i in one.errors] == []
    assert one.name(one.root.children[0]) == "Squad"
