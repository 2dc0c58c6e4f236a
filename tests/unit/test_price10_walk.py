"""The catalog's prices after an edit (issue 18, fifth session): an option's price is worked
out on a copy of the roster's tree (:meth:`Evaluation.rise_with`) only where what it depends
on may have changed; otherwise it is the option's own price, kept per entry across
evaluations, less what it replaces, times the copies of the selection it goes under. Three
rules make that so on the 40k Space Marines roster, and none may show a price that a fresh
computation would not:

* an own price is kept where every modifier on a shown cost in the new selection counts
  only inside it (a squad's cost by its own models: ``_counts_inside``);
* a catalog modifier counting what an option holds (models) makes it "counted", but the
  copy is skipped where no cost whose modifiers count it does so in a scope holding the
  place it is added at (:meth:`Evaluation.rise_is_own`);
* a modifier reaching a selection's characteristics, name or categories (a 40k enhancement's,
  on its bearer's models) leaves that selection's cost to its own modifiers
  (``Evaluation._cost_reads``): no longer a copy for every option.

A seeded random walk of edits (units and upgrades added, selections removed, counts, choices
of a pick-one group, undo and redo) checks after every step that the prices the session
gives for the edited selection's options, and the roster's top's, equal the plain ones (one
whole-tree what-if per option, :func:`plain_infos`) and those of a fresh session opened on
the roster's text; and counts the what-ifs, so that losing the shortcuts fails too.
"""

from __future__ import annotations

import random
import shutil
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from bench_rosters import marines_40k
from test_engine import ARMY, SYSTEM
from test_session_option_infos import free_options, plain_infos

from armybuilder.catalog import Library, default_library
from armybuilder.session import EditError, EditSession
from armybuilder.session.editor import Loc
from armybuilder.yamlio import dump_round_trip

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))
#: A walk of the 40k roster that takes every kind of step.
SEED_40K = 20

#: Entries whose prices test the shortcuts' edges (added to the demo army of test_engine):
#: a mob priced by its own models (a fixed own price though its models are counted), a
#: spotter that costs more in an elite's retinue (a chief's) than in a warband (a test of
#: where it stands: never a fixed price), and a chief who costs 1 more per model of the
#: warband he joins (a count in the nearest warband: above him, never a fixed price).
EDGES = """
  - id: mob
    name: Mob
    type: unit
    categories: [troops]
    costs: {pts: 10}
    modifiers:
      - type: increment
        field: "cost:pts"
        value: 2
        repeat: {value: 1, repeats: 1, scope: self, child: model}
    entries:
      - link: soldier
        constraints: [{type: min, value: 2, scope: parent}]
  - id: warband
    name: Warband
    type: unit
    costs: {pts: 15}
    entries:
      - {link: spotter}
      - {link: soldier}
      - id: chief
        name: Chief
        categories: [elite]
        costs: {pts: 6}
        modifiers:
          - type: increment
            field: "cost:pts"
            value: 1
            repeat: {value: 1, repeats: 1, scope: warband, child: model}
        entries:
          - {link: spotter}
"""

#: A drill squad priced by the elite among its recruits, a category a recruit takes only with
#: a captain in the roster. (A category a modifier may give, counted by a cost, makes every
#: price the roster's whole rise: :meth:`CatalogIndex.cost_counts` is ``None``; kept apart
#: from :data:`EDGES` so that the shortcuts are tried there.)
DRILL = """
  - id: drill
    name: Drill squad
    type: unit
    categories: [troops]
    costs: {pts: 12}
    modifiers:
      - type: increment
        field: "cost:pts"
        value: 5
        conditions: [{type: at-least, value: 1, scope: self, child: elite}]
    entries:
      - id: recruit
        name: Recruit
        type: model
        costs: {pts: 4}
        constraints: [{type: min, value: 1, scope: parent}]
        modifiers:
          - type: add
            field: categories
            value: elite
            conditions: [{type: at-least, value: 1, scope: roster, child: captain}]
      - {link: spotter}
"""

#: A standard whose modifier reaches the names of its bearer's retinue (as a 40k
#: enhancement's reach its bearer's models' characteristics): it changes no cost.
BEARER = """
  - id: bearer
    name: Standard bearer
    type: unit
    costs: {pts: 9}
    entries:
      - id: standard
        name: Standard
        costs: {pts: 2}
        modifiers:
          - {type: append, field: name, value: " (inspired)", scope: parent, reach: children}
      - id: aide
        name: Aide
        costs: {pts: 1}
"""

SPOTTER = """
  - id: spotter
    name: Spotter
    costs: {pts: 3}
    modifiers:
      - type: increment
        field: "cost:pts"
        value: 4
        conditions: [{type: instance-of, scope: parent, child: elite}]
"""


def counting_rises() -> AbstractContextManager[list[int]]:
    """How many times :meth:`Evaluation.rise_with` runs meanwhile (a copy of the tree each
    time): ``counted_rises`` of benchmarks/bench_prices.py."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_prices import counted_rises
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    found: AbstractContextManager[list[int]] = counted_rises()
    return found


def tops(s: EditSession) -> list[Loc]:
    """Where units are added: the roster's top, or each force of a roster of several."""
    return [()] if s.roster.forces is None else s.force_locs()


def selections(s: EditSession, depth: int) -> list[Loc]:
    """Every selection down to ``depth`` levels under the tops."""
    out: list[Loc] = []
    frontier = tops(s)
    for _ in range(depth):
        frontier = [c for loc in frontier for c in s.children_locs(loc)]
        out += frontier
    return out


#: The steps of a walk (:func:`one_step`), an add inside a unit drawn twice as often.
KINDS = ("add-unit", "add-inside", "add-inside", "remove", "count", "choose", "undo", "redo")


def one_step(s: EditSession, rng: random.Random, kind: str) -> Loc | None:
    """One edit of ``kind``; the selection whose options it changes (``None``: none was
    possible)."""
    units = selections(s, 1)
    inside = selections(s, 2)
    if kind == "add-unit":
        top = rng.choice(tops(s))
        offered = free_options(s, top)
        if not offered:
            return None
        s.add(top, rng.choice(offered))
        return top
    if kind == "add-inside":
        at = [loc for loc in units if free_options(s, loc)]
        if not at:
            return None
        loc = rng.choice(at)
        s.add(loc, rng.choice(free_options(s, loc)))
        return loc
    if kind == "remove" and inside:
        loc = rng.choice(inside)
        s.remove(loc)
        return loc[:-2]
    if kind == "count" and inside:
        loc = rng.choice(inside)
        s.set_count(loc, max(1, s.count_of(loc) + rng.choice((1, 1, -1))))
        return loc[:-2]
    if kind == "choose":
        for loc in rng.sample(inside, len(inside)):
            entry = s.entry_at(loc)
            offered = s.options(loc)
            for g in entry.groups if entry is not None else ():
                ids = [c.entry.id for c in offered if c.group is g and not c.entry.hidden]
                chosen = [s.node(c).get("entry") for c in s.children_locs(loc)]
                others = [i for i in ids if i not in chosen]
                if g.max == 1 and len(ids) > 1 and others:
                    s.choose(loc, g.id, rng.choice(others))
                    return loc
        return None
    if kind == "undo" and s.can_undo:
        return s.parent_of(s.undo() or ())
    if kind == "redo" and s.can_redo:
        return s.parent_of(s.redo() or ())
    return None


def fresh_session(s: EditSession, library: Library, folder: Path) -> EditSession:
    """A session opened on the roster's text as it is now (no figure of ``s`` kept)."""
    path = folder / "fresh.yaml"
    path.write_text(dump_round_trip(s.roster.doc), encoding="utf-8")
    return EditSession.open(path, library, autosave=False)


def walk(
    s: EditSession,
    library: Library,
    folder: Path,
    seed: int,
    steps: int,
    kinds: tuple[str, ...] = KINDS,
    after: Callable[[str, Loc, int], None] | None = None,
) -> int:
    """``steps`` edits picked by ``seed``, each checked (see the module's docstring); how
    many option prices were compared. ``after``: told each step's kind, and per selection
    checked (the tops, and the one the step changed), how many what-ifs the session worked
    out to price its options."""
    rng = random.Random(seed)
    compared = 0
    done = 0
    for _ in range(steps * 20):  # (a step with nothing to do is drawn again)
        if done == steps:
            break
        kind = rng.choice(kinds)
        # the previous evaluation's figures asked first, as the panes ask them
        for top in tops(s):
            s.option_infos(top)
        try:
            changed = one_step(s, rng, kind)
        except EditError:
            continue  # (a choice the data refuses: no edit)
        if changed is None:
            continue
        done += 1
        fresh = fresh_session(s, library, folder)
        for loc in dict.fromkeys([*tops(s), changed]):
            if not s.exists(loc) and loc not in tops(s):
                continue
            with counting_rises() as calls:
                got = s.option_infos(loc)
            if after is not None:
                after(kind, loc, calls[0])
            where = (seed, done, kind, loc)
            assert got == plain_infos(s, loc), where
            assert [i.costs for i in got] == [i.costs for i in fresh.option_infos(loc)], where
            compared += len(got)
    assert done == steps, f"only {done} of {steps} steps could be taken"
    return compared


def demo_library(root: Path, extra: str = "") -> Library:
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "system.yaml").write_text(SYSTEM + SPOTTER)
    (root / "demo" / "army.yaml").write_text(ARMY + EDGES + extra)
    library = Library([root], use_cache=False).scan()
    assert not library.problems, library.problems
    return library


def demo_session(tmp_path: Path, text: str, extra: str = "") -> tuple[EditSession, Library]:
    library = demo_library(tmp_path / "catalogs", extra)
    path = tmp_path / "demo.yaml"
    path.write_text(
        "system: demo\nfaction: army\nname: Test\nselections:\n" + text, encoding="utf-8"
    )
    return EditSession.open(path, library, autosave=False), library


def prices(s: EditSession, loc: Loc) -> dict[str, float]:
    return {i.entry_id: i.costs["pts"] for i in s.option_infos(loc)}


def test_a_mob_priced_by_its_own_models_keeps_its_price_and_is_not_copied(
    tmp_path: Path,
) -> None:
    """The Mob's cost counts its own models (soldiers, which the squad's limits count too):
    its price, 10 + 2 per soldier + the soldiers' own, is the same wherever it is added,
    priced with no copy of the tree however many squads or mobs the roster holds."""
    s, _ = demo_session(tmp_path, "  - entry: captain\n  - entry: squad\n")
    with counting_rises() as calls:
        assert prices(s, ())["mob"] == 10 + 2 * 2 + 2 * (5 + 1)
    assert calls[0] == 0
    s.add((), "mob")
    with counting_rises() as calls:
        assert prices(s, ())["mob"] == 26
    assert calls[0] == 0
    assert s.option_infos(()) == plain_infos(s, ())


def test_a_price_reading_where_it_stands_is_worked_out_where_it_is_added(
    tmp_path: Path,
) -> None:
    """The spotter costs 4 more in a chief's retinue than in a warband (a condition testing
    what its parent is): a price kept per entry would show one of them in the other place."""
    s, _ = demo_session(tmp_path, "  - entry: squad\n  - entry: warband\n")
    band = s.children_locs(())[-1]
    s.add(band, "chief")
    chief = s.children_locs(band)[-1]
    assert prices(s, band)["spotter"] == 3
    assert prices(s, chief)["spotter"] == 7
    s.set_count(band, 2)
    assert prices(s, band)["spotter"] == 6
    assert prices(s, chief)["spotter"] == 14
    for loc in ((), band, chief):
        assert s.option_infos(loc) == plain_infos(s, loc), loc


def test_a_price_counting_in_the_selection_above_follows_it(tmp_path: Path) -> None:
    """A chief costs 6 and 1 per model of the warband he joins: 6 in an empty one, 8 in one
    of two soldiers (a count in the nearest warband, which is above the new chief)."""
    s, _ = demo_session(
        tmp_path,
        "  - entry: warband\n  - entry: warband\n    selections:\n"
        "      - entry: soldier\n      - entry: soldier\n",
    )
    empty, full = s.children_locs(())
    assert prices(s, empty)["chief"] == 6
    assert prices(s, full)["chief"] == 8
    for loc in (empty, full):
        assert s.option_infos(loc) == plain_infos(s, loc), loc


def test_a_price_counting_a_given_category_follows_the_roster(tmp_path: Path) -> None:
    """The drill squad's price follows the captain who makes its recruit elite (12 + 4, or
    5 more), through every edit of a walk."""
    s, library = demo_session(tmp_path, "  - entry: squad\n", DRILL)
    assert prices(s, ())["drill"] == 16
    s.add((), "captain")
    assert prices(s, ())["drill"] == 21
    s.undo()
    assert prices(s, ())["drill"] == 16
    assert walk(s, library, tmp_path, seed=5, steps=15) > 50


def test_a_banner_priced_by_its_squads_models_follows_the_squad(tmp_path: Path) -> None:
    """The banner costs 3, 1 less per two models in the squad it goes in (a repeat counting
    in its parent): its price is worked out per squad, never kept from another."""
    soldiers = "".join(["      - entry: soldier\n"] * 4)
    s, _ = demo_session(
        tmp_path,
        "  - entry: squad\n    selections:\n"
        + soldiers[: len(soldiers) // 2]
        + "  - entry: squad\n    selections:\n"
        + soldiers,
    )
    first, second = s.children_locs(())
    assert prices(s, first)["banner"] == 2
    assert prices(s, second)["banner"] == 1
    s.remove(s.children_locs(second)[0])
    assert prices(s, second)["banner"] == 2
    for loc in (first, second):
        assert s.option_infos(loc) == plain_infos(s, loc), loc


def test_a_modifier_reaching_a_name_leaves_the_prices_without_a_copy(tmp_path: Path) -> None:
    """A standard's modifier reaches its bearer's retinue (their names): no cost changes
    with it, so the roster's top is still priced with no copy of the tree, and rightly."""
    s, library = demo_session(
        tmp_path,
        "  - entry: captain\n  - entry: squad\n  - entry: bearer\n    selections:\n"
        "      - entry: standard\n      - entry: aide\n",
        BEARER,
    )
    assert s.evaluate()._reached  # (the standard and the aide: reached)
    with counting_rises() as calls:
        got = s.option_infos(())
    assert calls[0] == 0
    assert got == plain_infos(s, ())
    assert walk(s, library, tmp_path, seed=8, steps=12) > 40


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_walk_of_edits_on_the_demo_army_prices_as_a_fresh_session(
    tmp_path: Path, seed: int
) -> None:
    s, library = demo_session(
        tmp_path, "  - entry: captain\n  - entry: squad\n  - entry: mob\n  - entry: warband\n"
    )
    assert walk(s, library, tmp_path, seed, steps=25) > 100


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_walk_of_edits_on_an_example_prices_as_a_fresh_session(
    tmp_path: Path, example: Path
) -> None:
    copy = tmp_path / "roster.yaml"
    shutil.copy(example, copy)
    library = default_library()
    s = EditSession.open(copy, library, autosave=False)
    assert walk(s, library, tmp_path, seed=7, steps=12) > 10


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
def test_a_walk_of_edits_on_the_40k_roster_prices_as_a_fresh_session(tmp_path: Path) -> None:
    """On the 2,000-point Space Marines roster of benchmarks/bench_bsdata.py, each step's
    prices equal the plain ones, and the roster's top (about 90 options: units, each with
    models some squad's cost counts) is priced after every edit with no copy of the tree,
    also once an enhancement reaches its bearer's models: before these shortcuts, 86 copies
    (64 units counted, 22 priced by their own models)."""
    path, library = marines_40k(tmp_path)
    s = EditSession.open(path, library, autosave=False)
    rises: list[tuple[str, Loc, int]] = []
    reached: list[int] = []

    def after(kind: str, loc: Loc, calls: int) -> None:
        rises.append((kind, loc, calls))
        # (selections some modifier of another reaches: an enhancement's, on its bearer)
        reached.append(len(s.evaluate()._reached))

    compared = walk(s, library, tmp_path, seed=SEED_40K, steps=16, after=after)
    assert compared > 800
    assert {kind for kind, _, _ in rises} == set(KINDS)
    assert max(reached) > 0  # (the reach changes no cost: no copy for that either)
    at_top = [(kind, calls) for kind, loc, calls in rises if loc == ()]
    assert len(at_top) == 16
    assert all(calls == 0 for _, calls in at_top), at_top
