"""The what-if prices of the options under one selection share what ``Evaluation.rise_with``
works out about the roster around it (the selections to copy, those whose cost may change:
``Evaluation._rise_plan``), once per evaluation; an option that replaces a choice is priced
without that choice, whichever was priced first: here a sergeant whose cost counts the
squad's troopers, a trooper (the sergeant's cost rises with it) and a veteran that replaces
the sergeant (whose cost then no longer counts), asked for in both orders."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.session import EditSession

SYSTEM = """
kind: system
id: plan
name: Plan
cost_types:
  - {id: pts, name: Points, unit: pts}
"""

# The sergeant and the veteran cost 5 more in a squad of 3 troopers or more.
ARMY = """
kind: catalog
id: host
system: plan
name: Host
entries:
  - id: squad
    name: Squad
    type: unit
    entries:
      - {id: trooper, name: Trooper, type: model, costs: {pts: 10}}
    groups:
      - id: leader
        name: Leader
        max: 1
        entries:
          - id: sergeant
            name: Sergeant
            type: model
            costs: {pts: 15}
            modifiers:
              - {type: increment, field: "cost:pts", value: 5,
                 conditions: [{type: at-least, value: 3, scope: parent, child: trooper}]}
          - id: veteran
            name: Veteran
            type: model
            costs: {pts: 20}
            modifiers:
              - {type: increment, field: "cost:pts", value: 5,
                 conditions: [{type: at-least, value: 3, scope: parent, child: trooper}]}
"""

ROSTER = """\
format: 1
system: plan
faction: host
name: Squad
selections:
  - entry: squad
    selections:
      - entry: sergeant
      - entry: trooper
        count: 2
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("catalogs")
    (root / "plan").mkdir()
    (root / "plan" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "plan" / "host.yaml").write_text(ARMY, encoding="utf-8")
    found = Library([root], use_cache=False).scan()
    assert not found.problems, found.problems
    return found


@pytest.mark.parametrize("first", ["trooper", "veteran"])
def test_a_swap_and_an_addition_are_priced_each_as_itself(
    lib: Library, tmp_path: Path, first: str
) -> None:
    path = tmp_path / "squad.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    s = EditSession(Roster.from_text(ROSTER, str(path), None, True), lib.system("plan"))
    ev = s.evaluate()
    assert ev.total_cost(ev.root)["pts"] == 35
    squad: tuple[str | int, ...] = ("selections", 0)
    ids = {str(s.option_id(squad, c)): c.entry.id for c in s.options(squad, ev)}
    assert sorted(ids.values()) == ["sergeant", "trooper", "veteran"]
    order = sorted(ids, key=lambda i: ids[i] != first)
    price = {}
    for option in order:  # (one at a time: the first one's plan is kept for the next)
        (info,) = s.option_infos(squad, ev, ids={option})
        price[ids[option]] = info.costs["pts"]
    # A third trooper: 10, and the sergeant's 5 more. The veteran in the sergeant's place:
    # 20 less 15 (two troopers: no bonus). The sergeant is the choice already: nothing.
    assert price == {"trooper": 15, "veteran": 5, "sergeant": 0}
