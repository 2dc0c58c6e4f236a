"""The session's option prices and limits (``EditSession.option_infos``, ``group_limits``),
which the builder's catalog and details panes show after every edit, are worked out with
shared per-evaluation figures; here they are compared with the straightforward computation
(one what-if price and one limit per option, each group's entries walked again) under every
selection of the native examples and of a 40k Space Marines roster built from
``../shared/bsdata`` (skipped with a message where it is absent), before and after edits,
with the figures of the evaluation before each edit asked for first (a cache that outlived
its edit would answer with them).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_library
from armybuilder.session import EditSession
from armybuilder.session.editor import (
    Limit,
    Loc,
    OptionInfo,
    _ev_node,
    _scratch_node,
    _what_if,
)

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


def plain_infos(s: EditSession, parent: Loc) -> list[OptionInfo]:
    ev = s.evaluate()
    node = _ev_node(ev, parent)
    options = s.options(parent)
    if node is None:
        return [OptionInfo(c.entry.id, Limit(0), {}) for c in options]
    what_if = _what_if(ev)
    keep = []
    out = []
    for c in options:
        scratch = _scratch_node(s.index, s._fresh(c.entry), c.entry, c.group, node)
        keep.append(scratch)
        # The engine's full price, of the cost types a player is shown (hidden ones, such as
        # a campaign's bookkeeping costs, are not priced for the panes).
        full = what_if.total_cost(scratch)
        costs = {ct.id: full.get(ct.id, 0.0) for ct in s.index.cost_types.values() if not ct.hidden}
        out.append(OptionInfo(c.entry.id, s._entry_limit(ev, node, c), costs))
    return out


def plain_groups(s: EditSession, parent: Loc) -> dict[str, Limit]:
    from armybuilder.catalog import walk_groups

    ev = s.evaluate()
    node = _ev_node(ev, parent)
    entry = node.entry if node is not None else None
    if node is None or entry is None:
        return {}
    children = s.index.children(entry)
    out = {}
    for g in walk_groups(entry.groups):
        inside = {id(x) for x in walk_groups([g])}
        members = [c for c in children if c.group is not None and id(c.group) in inside]
        chosen = sum(
            n.count for n in node.children if n.group is not None and id(n.group) in inside
        )
        lo, hi = g.min, g.max
        limits = [s._entry_limit(ev, node, c) for c in members]
        if hi is None and limits and all(lim.maximum is not None for lim in limits):
            hi = sum(lim.maximum or 0 for lim in limits)
        lo = max(lo, sum(lim.minimum for lim in limits))
        if hi is not None:
            lo = min(lo, hi)
        out[g.id] = Limit(chosen, lo, hi)
    return out


def all_locs(s: EditSession, depth: int) -> list[Loc]:
    out: list[Loc] = [(), *s.force_locs()]
    frontier: list[Loc] = list(out)
    for _ in range(depth):
        frontier = [c for loc in frontier for c in s.children_locs(loc)]
        out += frontier
    return out


def ask_all(s: EditSession, locs: list[Loc]) -> None:
    for loc in locs:
        s.option_infos(loc)
        s.group_limits(loc)


def check_all(s: EditSession, locs: list[Loc]) -> int:
    """Compare every loc's figures with the plain ones; how many options were compared."""
    seen = 0
    for loc in locs:
        fast = s.option_infos(loc)
        assert fast == plain_infos(s, loc), loc
        assert s.group_limits(loc) == plain_groups(s, loc), loc
        seen += len(fast)
    return seen


def free_options(s: EditSession, loc: Loc) -> list[str]:
    return [c.entry.id for c in s.options(loc) if s.slot_for(loc, c.entry.id).full is None]


def first_with_options(s: EditSession, locs: list[Loc]) -> Loc:
    return next(
        loc
        for loc in locs
        if loc and loc[-2] == "selections" and free_options(s, loc) and s.count_of(loc) >= 1
    )


def edit_and_check(s: EditSession, depth: int) -> None:
    locs = all_locs(s, depth)
    assert check_all(s, locs) > 0
    unit = first_with_options(s, locs)
    # count +1 of a unit: the figures of the evaluation before are cached, then edited
    ask_all(s, locs)
    s.set_count(unit, s.count_of(unit) + 1)
    check_all(s, all_locs(s, depth))
    # an option added under it (a group's count changes), then undone twice
    ask_all(s, all_locs(s, depth))
    s.add(unit, free_options(s, unit)[0])
    check_all(s, all_locs(s, depth))
    for _ in range(2):
        ask_all(s, all_locs(s, depth))
        s.undo()
        check_all(s, all_locs(s, depth))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_native_examples_figures_match_plain(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    s = EditSession.open(copy, default_library(), autosave=False)
    edit_and_check(s, depth=3)


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
def test_40k_roster_figures_match_plain(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_bsdata import roster_text
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    library = Library([BSDATA]).scan()
    system = library.system("wh40k-10e")
    path = tmp_path / "space-marines.yaml"
    path.write_text(roster_text(system), encoding="utf-8")  # type: ignore[arg-type]
    s = EditSession.open(path, library, autosave=False)
    squad = next(
        loc
        for loc in s.children_locs(())
        if (e := s.entry_at(loc)) is not None and e.name == "Intercessor Squad"
    )
    # every unit (and the models in it): count +1 of a squad priced per model
    locs = all_locs(s, 2)
    assert check_all(s, locs) > 1000
    ask_all(s, locs)
    s.set_count(squad, s.count_of(squad) + 1)
    assert check_all(s, all_locs(s, 2)) > 1000
    ask_all(s, all_locs(s, 2))
    s.undo()
    check_all(s, all_locs(s, 2))


def test_a_price_that_counts_the_roster_follows_each_edit(tmp_path: Path) -> None:
    """The Watcher costs 10 points, 7 more in a roster of two squads or more (a modifier on
    its cost counting the roster): the price the catalog shows for adding one follows the
    squads added and removed; a price kept per entry (as those of entries without such a
    modifier are) would not."""
    from test_engine import ARMY, SYSTEM
    from test_incremental_eval import WATCHER

    root = tmp_path / "catalogs"
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "system.yaml").write_text(SYSTEM)
    (root / "demo" / "army.yaml").write_text(ARMY + WATCHER)
    library = Library([root], use_cache=False).scan()
    path = tmp_path / "demo.yaml"
    path.write_text(
        "system: demo\nfaction: army\nname: Test\nselections:\n  - entry: captain\n",
        encoding="utf-8",
    )
    s = EditSession.open(path, library, autosave=False)

    def watcher_price() -> float:
        infos = {i.entry_id: i for i in s.option_infos(())}
        assert s.option_infos(()) == plain_infos(s, ())
        return infos["watcher"].costs["pts"]

    seen = [watcher_price()]
    for _ in range(2):
        s.add((), "squad")
        seen.append(watcher_price())
    s.undo()
    seen.append(watcher_price())
    base = seen[0]
    assert seen == [base, base, base + 7, base]
    edit_and_check(s, depth=2)


@pytest.mark.parametrize(
    ("example", "adds"),
    [("starmarines/starmarines-example.yaml", True), ("infantry-ops/rifle-platoon.yaml", False)],
)
def test_rules_add_costs_says_whether_prices_may_be_kept(
    tmp_path: Path, example: str, adds: bool
) -> None:
    """Option prices are kept per entry only where the rules module adds no costs of its own
    (a what-if evaluation asks :attr:`Evaluation.rules_add_costs`)."""
    copy = tmp_path / "roster.yaml"
    shutil.copy(ROOT / "examples" / example, copy)
    s = EditSession.open(copy, default_library(), autosave=False)
    ev = s.evaluate()
    assert _what_if(ev).rules_add_costs is adds
    s.option_infos(())
    assert bool(s._fixed_prices) is not adds


def test_hidden_cost_types_are_not_priced_and_do_not_unfix_a_price(tmp_path: Path) -> None:
    """Options are priced in the cost types a player is shown only. A modifier on a hidden
    cost type (a campaign's bookkeeping, as the 40k data's Crusade points on every option)
    changes nothing that is shown, so the Watcher's shown price is kept per entry, and stays
    right (10 pts whatever the roster holds); a modifier on a shown cost keeps a price from
    being kept (the Watcher case above)."""
    from test_engine import ARMY, SYSTEM

    system = SYSTEM.replace(
        "  - {id: pts, name: Points, unit: pts}\n",
        "  - {id: pts, name: Points, unit: pts}\n  - {id: crusade, name: Crusade, hidden: true}\n",
    )
    assert system != SYSTEM
    watcher = """
  - id: watcher
    name: Watcher
    type: unit
    costs: {pts: 10, crusade: 1}
    modifiers:
      - type: increment
        field: "cost:crusade"
        value: 7
        conditions: [{type: at-least, value: 2, scope: roster, child: squad}]
"""
    root = tmp_path / "catalogs"
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "system.yaml").write_text(system)
    (root / "demo" / "army.yaml").write_text(ARMY + watcher)
    library = Library([root], use_cache=False).scan()
    path = tmp_path / "demo.yaml"
    path.write_text(
        "system: demo\nfaction: army\nname: Test\nselections:\n  - entry: captain\n",
        encoding="utf-8",
    )
    s = EditSession.open(path, library, autosave=False)
    assert s.shown_cost_types == ("pts",)
    for _ in range(3):
        infos = {i.entry_id: i for i in s.option_infos(())}
        assert infos["watcher"].costs == {"pts": 10.0}
        assert s.option_infos(()) == plain_infos(s, ())
        s.add((), "squad")
    # the engine does count the hidden cost (3 squads): it is simply not asked for
    ev = s.evaluate()
    watcher = s.add((), "watcher")
    assert s.evaluate().total_cost(_ev_node(s.evaluate(), watcher))["crusade"] == 8.0
    del ev
    kept = s._fixed_prices
    assert any(e.id == "watcher" and price == {"pts": 10.0} for e, price in kept.values())
