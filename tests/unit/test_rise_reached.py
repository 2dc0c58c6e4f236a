"""The what-if price of an option (what the catalog shows for adding it: ``EditSession.
option_infos``, from ``Evaluation.rise_with``) where the only selection whose cost moves is
one that a modifier of ANOTHER selection reaches (docs/catalog-format.md, "Modifiers that reach
other selections"): the Relic makes every Squad in the roster cost 5 more while the roster holds
a Banner. The Squad's own entry has no modifier: only the Relic's reaches it.

The session prices every option of such a catalog on a copy of the whole tree: a cost modifier
that reaches other selections makes ``CatalogIndex.cost_counts`` unknown (``None``), so
``_Pricer.whole`` is set and no price is kept per entry. The narrower path, which copies and
prices again only the selections whose cost may change from outside their subtree
(``rise_with`` given ``fields``), counts a selection reached by another's modifier among them
(``Evaluation._context_nodes``), not as one that reads only its own subtree and parent (the
Squad stands in a Platoon, so that the roster's top, where the Banner is added, is neither):
it gives the same price.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate
from armybuilder.rules.engine import Node
from armybuilder.session import EditSession
from armybuilder.session.editor import Loc, _scratch_node

SYSTEM = """
kind: system
id: relic
name: Relic
cost_types:
  - {id: pts, name: Points, unit: pts}
"""

ARMY = """
kind: catalog
id: army
system: relic
name: Army
entries:
  - id: relic
    name: Relic
    type: upgrade
    costs: {pts: 5}
    modifiers:
      - {type: increment, field: "cost:pts", value: 5, scope: roster, reach: descendants,
         child: squad, conditions: [{type: at-least, value: 1, scope: roster, child: banner}]}
  - {id: banner, name: Banner, type: unit, costs: {pts: 1}}
  - id: platoon
    name: Platoon
    type: unit
    entries:
      - {id: squad, name: Squad, type: unit, costs: {pts: 10}}
"""

ROSTER = """\
format: 1
system: relic
faction: army
name: Relic
selections:
  - entry: relic
  - entry: platoon
    selections: [{entry: squad}]
"""

PLATOON: Loc = ("selections", 1)
SQUAD: Loc = ("selections", 1, "selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY, folder="relic")


def fresh(lib: Library, text: str) -> Evaluation:
    """The roster of ``text`` evaluated from nothing (no memo, no what-if copy)."""
    gs = lib.system("relic")
    return evaluate(Roster.from_text(text, "fresh.yaml"), gs.index("army"), gs.rules, memo=None)


def session(lib: Library, tmp_path: Path, text: str) -> EditSession:
    path = tmp_path / "relic.yaml"
    path.write_text(text, encoding="utf-8")
    return EditSession(Roster.from_text(text, str(path), None, True), lib.system("relic"))


def costs_by_name(ev: Evaluation) -> dict[str, float]:
    return {ev.name(n): ev.unit_cost(n, "pts") for n in ev.root.descendants()}


def test_adding_a_banner_is_priced_with_the_reached_squads_rise(
    lib: Library, tmp_path: Path
) -> None:
    before = fresh(lib, ROSTER)
    after = fresh(lib, ROSTER + "  - entry: banner\n")
    # The Squad is the only selection already there whose cost moves (10 -> 15), and only a
    # modifier of the Relic reaches it.
    assert costs_by_name(before) == {"Relic": 5, "Platoon": 0, "Squad": 10}
    assert costs_by_name(after) == {"Relic": 5, "Platoon": 0, "Squad": 15, "Banner": 1}
    squad = before.root.children[1].children[0]
    assert squad.entry is not None and not squad.entry.modifiers
    assert id(squad) in before._reached
    s = session(lib, tmp_path, ROSTER)
    # (a cost modifier reaches other selections: every option is priced on a whole copy)
    assert s._cost_counts() is None
    infos = {i.entry_id: i.costs for i in s.option_infos(())}
    # its own point and the Squad's 5
    assert infos["banner"] == {"pts": 6.0}
    assert infos["banner"]["pts"] == after.totals["pts"] - before.totals["pts"]


@pytest.mark.parametrize("banner", [False, True], ids=["no-banner", "banner"])
def test_every_offered_price_is_the_fresh_rise(lib: Library, tmp_path: Path, banner: bool) -> None:
    """Every option under the roster, the Platoon and the Squad: its price is the roster's
    total evaluated fresh with it added, less without (with a Banner in the roster, a
    second Relic raises the Squad 5 more, and a second Squad costs 15)."""
    text = ROSTER + ("  - entry: banner\n" if banner else "")
    s = session(lib, tmp_path, text)
    base = fresh(lib, text).totals["pts"]
    seen: dict[tuple[Loc, str], float] = {}
    for loc in [(), PLATOON, SQUAD]:
        for info in s.option_infos(loc):
            s.add(loc, info.entry_id)
            rise = fresh(lib, s.roster.dumps()).totals["pts"] - base
            s.undo()
            assert info.costs == {"pts": pytest.approx(rise)}, (loc, info.entry_id)
            seen[loc, info.entry_id] = info.costs["pts"]
    extra = 5.0 if banner else 0.0
    assert seen == {
        ((), "relic"): 5.0 + extra,
        ((), "banner"): 1.0 if banner else 6.0,
        ((), "platoon"): 0.0,
        (PLATOON, "squad"): 10.0 + extra,
    }


def test_the_narrow_what_if_reprices_a_reached_selection(lib: Library) -> None:
    """``rise_with`` given the cost fields copies and prices again only the selections whose
    cost may change from outside their subtree (``Evaluation._context_nodes``): the Squad,
    whose entry has no modifier, is one because the Relic's modifier reaches it. Its price
    is the whole tree's and the fresh rise. (The session takes this path only where no cost
    modifier reaches other selections, so it is asked for here directly: removing the
    reached case of ``_context_nodes`` prices the Banner at its own 1 point.)"""
    ev = fresh(lib, ROSTER)
    index = lib.system("relic").index("army")
    child = index.child(None, "banner")
    assert child is not None
    data = Roster.from_text(ROSTER + "  - entry: banner\n", "b.yaml").selections[-1]
    made: list[Node] = []  # (what-if nodes live as long as their prices are read)

    def add(parent: Node) -> Node:
        made.append(_scratch_node(index, data, child.entry, child.group, parent, child))
        return made[-1]

    whole = ev.rise_with(ev.root, add, (), ["pts"])
    narrow = ev.rise_with(ev.root, add, (), ["pts"], fields=frozenset({"cost:pts"}))
    after = fresh(lib, ROSTER + "  - entry: banner\n").totals["pts"]
    assert whole == narrow == {"pts": after - ev.totals["pts"]} == {"pts": 6.0}
