"""The session's option prices and limits (``EditSession.option_infos``, ``group_limits``),
which the builder's catalog and details panes show after every edit, are worked out with
shared per-evaluation figures; here they are compared with the straightforward computation
(one limit per option, each group's entries walked again; one price per option: what the
roster's total rises by with it added as the builder adds it, worked out on a copy of the
whole tree) under every selection of the native examples and of a 40k Space Marines roster
built from ``../shared/bsdata`` (skipped with a message where it is absent), before and
after edits, with the figures of the evaluation before each edit asked for first (a cache
that outlived its edit would answer with them). And the price is checked against the edit
itself: the roster's total after adding the option, less before (docs/tui.md, "What an
option costs").
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import marines_40k
from tiny_library import SEM_SYSTEM, tiny_library

from armybuilder.catalog import Child, Library, default_library
from armybuilder.rules.engine import Node
from armybuilder.session import EditSession
from armybuilder.session.editor import (
    Limit,
    Loc,
    OptionInfo,
    _ev_node,
    _scratch_node,
    _what_if,
)
from armybuilder.session.operations import Insert, build_selection

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


def plain_limit(ev: Any, node: Node, c: Child) -> Limit:
    """How many of option ``c`` are under ``node`` and its tightest limits, the entry's and
    the parent's constraints walked whole for each option (what ``_entry_limit`` finds from
    the constraints it sorts out once per entry)."""
    entry = c.entry
    counted: dict[str, int] = {}
    for n in node.children:
        for ref in (n.entry_id, n.path_ref()):
            if ref is not None:
                counted[ref] = counted.get(ref, 0) + n.count
    own_ref = c.path_ref()
    lows: list[tuple[int, int]] = []
    highs: list[tuple[int, int, int]] = []

    def note(con: Any, owner: Any, ref: str) -> None:
        value = ev.constraint_value(owner, con, node)
        if value < 0 or not float(value).is_integer():
            return
        got = counted.get(ref, 0)
        if con.type == "max":
            highs.append((int(value) - got, int(value), got))
        else:
            lows.append((int(value), got))

    for con in entry.constraints:
        if con.field != "selections" or con.child not in (None, entry.id):
            continue
        if con.scope == "parent":
            if not con.per_link:
                note(con, entry, entry.id)
            elif con.child is None or own_ref == f"path:{entry.id}":
                note(con, entry, own_ref)
    if node.entry is not None:
        link_id = c.link.id if c.link else None
        for con in node.entry.constraints:
            if con.scope != "self" or con.field != "selections" or con.child is None:
                continue
            if not con.per_link:
                if con.child == entry.id:
                    note(con, node.entry, entry.id)
            elif con.child in (entry.id, link_id) and own_ref == f"path:{con.child}":
                note(con, node.entry, own_ref)
    if highs:
        _room, maximum, selected = min(highs)
        return Limit(selected, max(lo for lo, _ in lows) if lows else 0, maximum)
    if lows:
        minimum, selected = max(lows)
        return Limit(selected, minimum, None)
    return Limit(counted.get(own_ref, 0), 0, None)


def plain_infos(s: EditSession, parent: Loc) -> list[OptionInfo]:
    ev = s.evaluate()
    node = _ev_node(ev, parent)
    options = s.options(parent)
    # Each option by the id that adds it (an entry offered twice is two options).
    ids = [s.option_id(parent, c) for c in options]
    if node is None:
        return [OptionInfo(i, Limit(0), {}) for i in ids]
    # The cost types a player is shown (hidden ones, such as a campaign's bookkeeping costs,
    # are not priced for the panes).
    shown = [ct.id for ct in s.index.cost_types.values() if not ct.hidden]
    out = []
    for c, option_id in zip(options, ids, strict=True):
        slot = s.slot_for(parent, option_id)
        if slot.chosen:
            costs = dict.fromkeys(shown, 0.0)
        else:
            drop = [node.children[i] for i in slot.replaces]

            def add(p: Node, c: Child = c) -> Node:
                return _scratch_node(s.index, s._fresh(c.entry), c.entry, c.group, p, c)

            costs = ev.rise_with(node, add, drop, shown)  # the whole tree, costs settled
        out.append(OptionInfo(option_id, plain_limit(ev, node, c), costs))
    return out


def builder_rise(s: EditSession, parent: Loc, entry_id: str) -> dict[str, float]:
    """What the roster's total rises by, per shown cost type, when the builder adds
    ``entry_id`` under ``parent`` (a pick-one group's choice swapped; where a group is full
    and the builder refuses, the selection is put in as a hand edit would), then undone."""
    shown = s.shown_cost_types
    slot = s.slot_for(parent, entry_id)
    if slot.chosen:
        return dict.fromkeys(shown, 0.0)
    before = dict(s.evaluate().totals)
    if slot.full is not None:
        child = s.index.child(s.entry_at(parent) if parent else None, entry_id)
        assert child is not None
        at = s._seq_len(parent)
        new = build_selection(s.index, child.entry)
        s.apply("hand edit", [Insert(parent, at, new)], parent, parent)
    else:
        s.add(parent, entry_id)
    after = s.evaluate().totals
    s.undo()
    return {ct: after.get(ct, 0.0) - before.get(ct, 0.0) for ct in shown}


def _kind(s: EditSession, loc: Loc) -> tuple[object, ...]:
    """The entries from the top to ``loc`` and what is under it, with counts: selections of
    one kind are priced alike (the regiment's many identical Marines are checked once)."""
    path = tuple(
        s.entry_at(loc[: i + 2]) and s.node(loc[: i + 2]).get("entry")
        for i in range(0, len(loc), 2)
    )
    kids = tuple((s.node(c).get("entry"), s.count_of(c)) for c in s.children_locs(loc) if loc)
    return (path, s.count_of(loc) if loc and loc[-2] == "selections" else 0, kids)


def check_against_edits(s: EditSession, locs: list[Loc]) -> int:
    """Every option's price under ``locs`` against the edit (once per kind of selection:
    :func:`_kind`); how many were compared."""
    seen = 0
    kinds: set[tuple[object, ...]] = set()
    for loc in locs:
        if loc == () and s.roster.forces is not None:
            continue  # (a roster of several forces: added into a force only)
        kind = _kind(s, loc)
        if kind in kinds:
            continue
        kinds.add(kind)
        for info in s.option_infos(loc):
            rise = builder_rise(s, loc, info.entry_id)
            assert info.costs == pytest.approx(rise), (loc, info.entry_id)
            seen += 1
    return seen


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
        limits = [plain_limit(ev, node, c) for c in members]
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
    path, library = marines_40k(tmp_path)
    s = EditSession.open(path, library, autosave=False)
    squad = next(
        loc
        for loc in s.children_locs(())
        if (e := s.entry_at(loc)) is not None and e.name == "Intercessor Squad"
    )
    # the roster's top, the squad and a model in it, and a unit of another kind (every
    # unit takes ~8 s: too long for a unit test); count +1 of the squad, priced per model
    others = [loc for loc in s.children_locs(()) if s.entry_at(loc) is not s.entry_at(squad)]
    locs = [(), squad, s.children_locs(squad)[0], *others[:1]]
    # (about 100 options: those the roster does not hide; Legends units, the enhancements of
    # detachments not taken and, outside a Crusade, the Crusade groups left out)
    assert check_all(s, locs) > 80
    ask_all(s, all_locs(s, 2))
    s.set_count(squad, s.count_of(squad) + 1)
    assert check_all(s, locs) > 80
    ask_all(s, all_locs(s, 2))
    s.undo()
    check_all(s, locs)
    # and against the edits themselves: the squad (a model added changes the squad's price)
    # and the first model in it (15 options once the Crusade groups are hidden)
    assert check_against_edits(s, [squad, s.children_locs(squad)[0]]) > 10


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_offered_price_is_what_adding_it_adds_to_the_roster(
    path: Path, tmp_path: Path
) -> None:
    """Under every selection of each example, each option's price is the rise of the
    roster's total in each shown cost type once the builder has added it there."""
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    s = EditSession.open(copy, default_library(), autosave=False)
    assert check_against_edits(s, all_locs(s, 4)) > 0


@pytest.mark.parametrize(
    ("example", "platoon", "option", "kg"),
    [
        # Jump infantry: 80 kg of jump packs per trooper (Infantry Operations, movement
        # table), 28 troopers; motorised hover 130 kg each: the troopers' mass rises, not
        # the motive entry's own (0 kg).
        ("infantry-ops/rifle-platoon.yaml", ("selections", 0), "jump", 28 * 80),
        ("infantry-ops/rifle-platoon.yaml", ("selections", 0), "motorised-hover", 28 * 130),
    ],
)
def test_an_infantry_transport_is_priced_by_the_mass_it_adds(
    tmp_path: Path, example: str, platoon: Loc, option: str, kg: float
) -> None:
    copy = tmp_path / "roster.yaml"
    shutil.copy(ROOT / "examples" / example, copy)
    s = EditSession.open(copy, default_library(), autosave=False)
    infos = {i.entry_id: i for i in s.option_infos(platoon)}
    assert infos[option].costs == {"kg": kg}
    assert builder_rise(s, platoon, option) == {"kg": kg}


def test_a_soldier_added_to_a_mob_of_two_is_priced_for_both(tmp_path: Path) -> None:
    """The Choppers are ``count: 2`` (two mobs alike): a warrior (1 bp) added to it is one
    in each mob, so the warband rises by 2 bp, and the builder says 2, not the warrior's own
    1 (counts multiply down the tree: docs/catalog-format.md)."""
    copy = tmp_path / "norx.yaml"
    shutil.copy(ROOT / "examples" / "starmarines" / "norx-example.yaml", copy)
    s = EditSession.open(copy, default_library(), autosave=False)
    mob = ("selections", 0, "selections", 3)
    assert s.node(mob)["entry"] == "ex-mob"
    infos = {i.entry_id: i for i in s.option_infos(mob)}
    assert builder_rise(s, mob, "ex-warrior") == {"bp": 2.0}
    assert infos["ex-warrior"].costs == {"bp": 2.0}


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
    assert any(
        e.id == "watcher" and price == {"pts": 10.0} and not counted
        for e, price, counted in kept.values()
    )


# A Beacon makes the Gunner Heavy; a Banner makes the squad's gunner Heavy; the Quartermaster
# costs 5 more while the roster holds anything Heavy, the squad's medic 2 more while a Heavy
# stands beside it, and the Herald 1 more per Banner. So a Beacon (1 pts itself) raises the
# roster by 6, a Banner (1 pts) by 9: its own point, the Herald's, the Quartermaster's 5 (a
# Heavy in the roster now) and the medic's 2 (a Heavy in its squad now).
CATEGORY_CHAIN_SYSTEM = """\
kind: system
id: demo
name: Demo
cost_types:
  - {id: pts, name: Points, unit: pts, default_limit: 500}
categories:
  - {id: heavy, name: Heavy}
forces:
  - {id: patrol, name: Patrol}
entries: []
"""
CATEGORY_CHAIN_CATALOG = """\
kind: catalog
id: red
system: demo
name: Red
entries:
  - {id: x, name: Beacon, type: unit, costs: {pts: 1}}
  - id: a
    name: Gunner
    type: unit
    costs: {pts: 10}
    modifiers:
      - {type: add, field: categories, value: heavy,
         conditions: [{type: at-least, value: 1, scope: roster, child: x}]}
  - id: b
    name: Quartermaster
    type: unit
    costs: {pts: 10}
    modifiers:
      - {type: increment, field: "cost:pts", value: 5,
         conditions: [{type: at-least, value: 1, scope: roster, child: heavy}]}
  - id: squad
    name: Squad
    type: unit
    costs: {pts: 0}
    entries:
      - id: a2
        name: Squad gunner
        costs: {pts: 3}
        modifiers:
          - {type: add, field: categories, value: heavy,
             conditions: [{type: at-least, value: 1, scope: roster, child: y}]}
      - id: b2
        name: Squad medic
        costs: {pts: 3}
        modifiers:
          - {type: increment, field: "cost:pts", value: 2,
             conditions: [{type: at-least, value: 1, scope: parent, child: heavy}]}
  - {id: y, name: Banner, type: unit, costs: {pts: 1}}
  - id: c
    name: Herald
    type: unit
    costs: {pts: 10}
    modifiers:
      - {type: increment, field: "cost:pts", value: 1,
         repeat: {value: 1, repeats: 1, scope: roster, child: y}}
"""


def test_an_option_that_gives_another_a_counted_category_is_priced_by_the_rise(
    tmp_path: Path,
) -> None:
    """A category modifier elsewhere that reads the new option changes what other cost
    modifiers count (roster-wide and within a squad): the price shown is still what the
    roster's total rises by (docs/tui.md, "What an option costs")."""
    root = tmp_path / "catalogs"
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "system.yaml").write_text(CATEGORY_CHAIN_SYSTEM)
    (root / "demo" / "red.yaml").write_text(CATEGORY_CHAIN_CATALOG)
    library = Library([root], use_cache=False).scan()
    path = tmp_path / "chain.yaml"
    path.write_text(
        "format: 1\nsystem: demo\nfaction: red\nname: Category chain\nselections:\n"
        "  - {entry: a}\n  - {entry: b}\n  - {entry: c}\n"
        "  - entry: squad\n    selections: [{entry: a2}, {entry: b2}]\n",
        encoding="utf-8",
    )
    s = EditSession.open(path, library, autosave=False)
    assert s.evaluate().totals["pts"] == 36.0
    infos = {i.entry_id: i.costs for i in s.option_infos(())}
    assert infos["x"] == {"pts": 6.0}
    assert infos["y"] == {"pts": 9.0}
    assert check_against_edits(s, all_locs(s, 2)) >= 6
    check_all(s, all_locs(s, 2))


LINKED_SYSTEM = (
    SEM_SYSTEM
    + """shared_entries:
  - id: rifle
    name: Rifle
    type: upgrade
    costs: {pts: 5}
    constraints:
      - {id: three-rifles, type: max, value: 3, scope: parent}
"""
)

LINKED_ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    costs: {pts: 10}
    constraints:
      - {id: one-spare, type: max, value: 1, scope: self, child: rifle, per_link: true}
      - {id: two-rifles, type: max, value: 2, scope: self, child: rifle}
      - {id: a-flamer, type: min, value: 1, scope: self, child: flamer, per_link: true}
    entries:
      - {link: rifle, id: spare-rifle}
      - {id: flamer, name: Flamer, type: upgrade, costs: {pts: 3}}
    groups:
      - id: weapon
        name: Weapon
        max: 2
        entries:
          - {link: rifle, id: issued-rifle, costs: {pts: 0}}
"""


def test_a_units_limits_on_a_link_and_an_entry_match_plain(tmp_path: Path) -> None:
    """A unit's own maximum on the options made through one link (counted per link), another
    on every selection of the entry, and one on an entry of its own: each option's limit is
    the plain walk's, as the options are added."""
    library = tiny_library(tmp_path / "catalogs", LINKED_SYSTEM, LINKED_ARMY)
    path = tmp_path / "linked.yaml"
    path.write_text("system: sem\nfaction: army\nname: Linked\nselections:\n  - entry: squad\n")
    s = EditSession.open(path, library, autosave=False)
    # A constraint naming a link (BattleScribe's; our own format names entries only).
    squad_entry = s.index.entries["squad"]
    con = next(c for c in squad_entry.constraints if c.id == "one-spare")
    object.__setattr__(con, "child", "spare-rifle")
    squad: Loc = ("selections", 0)
    seen: set[tuple[str, int | None]] = set()
    for add in ["", "spare-rifle", "issued-rifle", "flamer", "spare-rifle"]:
        if add:
            s.add(squad, add)
        infos = s.option_infos(squad)
        assert infos == plain_infos(s, squad), add
        assert s.group_limits(squad) == plain_groups(s, squad), add
        seen.update((i.entry_id, i.limit.maximum) for i in infos)
    # the spare rifle's own maximum (its link's), the issued one's (the entry's): both read
    assert ("rifle", 1) in seen and ("issued-rifle", 2) in seen, seen
