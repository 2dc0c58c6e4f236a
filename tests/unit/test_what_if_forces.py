"""The builder's what-if prices (``EditSession.option_infos``) in a roster of several forces:
a cost modifier whose condition counts the selections of its ``force`` (docs/catalog-format.md,
condition scopes) is read in the force the option would join, as the evaluation of the roster
with that selection added prices it."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.session import EditSession

SYSTEM = """
kind: system
id: wif
name: What-if
cost_types:
  - {id: pts, name: Points}
forces:
  - {id: army, name: Army}
"""

ARMY = """
kind: catalog
id: host
system: wif
name: Host
entries:
  - id: marshal
    name: Marshal
    type: unit
    costs: {pts: 30}
  - id: lancers
    name: Lancers
    type: unit
    costs: {pts: 15}
    modifiers:
      # Lancers in a force led by a marshal cost 10 more.
      - {type: increment, field: "cost:pts", value: 10,
         conditions: [{type: at-least, value: 1, scope: force, child: marshal}]}
"""

ROSTER = """\
format: 2
system: wif
faction: host
name: Two armies
forces:
  - force: army
    name: First
    selections:
      - entry: marshal
  - force: army
    name: Second
    selections: []
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("catalogs")
    (root / "wif").mkdir()
    (root / "wif" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "wif" / "host.yaml").write_text(ARMY, encoding="utf-8")
    found = Library([root], use_cache=False).scan()
    assert not found.problems, found.problems
    return found


def test_a_what_if_price_counts_the_force_the_option_joins(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "two.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    roster = Roster.from_text(ROSTER, str(path), None, True)
    s = EditSession(roster, lib.system("wif"), autosave=False)
    ev = s.evaluate()
    assert ev.total_cost(ev.root)["pts"] == 30
    first: tuple[str | int, ...] = ("forces", 0)
    second: tuple[str | int, ...] = ("forces", 1)
    price = {loc: {i.entry_id: i.costs for i in s.option_infos(loc)} for loc in (first, second)}
    # The first force has a marshal: 15 + 10; the second has none: 15 (not the roster's
    # marshal, counted where the force is the whole roster).
    assert price[first]["lancers"] == {"pts": 25}
    assert price[second]["lancers"] == {"pts": 15}
