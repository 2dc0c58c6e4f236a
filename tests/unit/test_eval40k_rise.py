"""What an option costs, worked out without pricing again the selections it cannot change
(``engine.RISE_BY_READS``): :meth:`Evaluation.rise_with` works out again the cost of a
selection whose cost modifiers read counts only where one of those counts is of something
the option adds (or the choices it replaces), in a scope holding the place it is added to.
A 40k Intercessor Squad's points count its own models: adding a model to one squad leaves
the other squads' points as they are, and a vehicle whose modifiers change its categories
only is never priced again.

Checked against the edit itself (the roster's total after adding the option, less before)
and against the same prices with the shortcut off, on a hand-written catalog where a unit's
cost counts squads across the roster, and on the 40k roster of benchmarks/bench_bsdata.py
(``../shared/bsdata``; skipped with a message where it is absent), and on a Gaslands team and
a Space Station Zero crew against the prices with the shortcut off.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from bench_rosters import marines_40k
from test_session_option_infos import builder_rise, plain_infos

from armybuilder.catalog import Library
from armybuilder.rules import engine
from armybuilder.session import EditSession
from armybuilder.session.editor import Loc

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"


@pytest.fixture
def skipped() -> Iterator[list[int]]:
    """How many selections :meth:`Evaluation.rise_with` found it need not price again."""
    seen = [0]
    reads = engine.Evaluation._cost_reads
    may = engine.Evaluation._may_count

    def counting_reads(self: engine.Evaluation, *args: object) -> frozenset[str] | None:
        got = reads(self, *args)  # type: ignore[arg-type]
        if got is not None and not got:
            seen[0] += 1
        return got

    def counting_may(self: engine.Evaluation, *args: object) -> bool:
        got = may(self, *args)  # type: ignore[arg-type]
        if not got:
            seen[0] += 1
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine.Evaluation, "_cost_reads", counting_reads)
        mp.setattr(engine.Evaluation, "_may_count", counting_may)
        yield seen


def fresh_prices(s: EditSession, loc: Loc) -> dict[str, dict[str, float]]:
    """The session's prices under ``loc``, worked out anew (no figures kept)."""
    s._figures.clear()
    s._fixed_prices.clear()
    return {i.entry_id: i.costs for i in s.option_infos(loc)}


def demo_session(tmp_path: Path, roster: str) -> EditSession:
    from test_engine import ARMY, SYSTEM
    from test_incremental_eval import WATCHER

    root = tmp_path / "catalogs"
    (root / "demo").mkdir(parents=True)
    (root / "demo" / "system.yaml").write_text(SYSTEM)
    (root / "demo" / "army.yaml").write_text(ARMY + WATCHER)
    library = Library([root], use_cache=False).scan()
    path = tmp_path / "demo.yaml"
    path.write_text(
        "system: demo\nfaction: army\nname: Test\nselections:\n" + roster, encoding="utf-8"
    )
    return EditSession.open(path, library, autosave=False)


def test_a_squad_added_prices_the_watcher_that_counts_squads_again(
    tmp_path: Path, skipped: list[int]
) -> None:
    """A Watcher in the roster costs 7 more once the roster holds two squads: the price of
    the second squad is its own and the Watcher's 7; of a captain, its own (the Watcher
    counts no captain: not priced again)."""
    s = demo_session(tmp_path, "  - entry: captain\n  - entry: watcher\n  - entry: squad\n")
    prices = fresh_prices(s, ())
    assert skipped[0] > 0  # (the captain's price left the Watcher alone)
    for entry_id in ("squad", "captain", "watcher"):
        assert prices[entry_id] == pytest.approx(builder_rise(s, (), entry_id)), entry_id
    alone = fresh_prices(s, ())
    s.add((), "squad")
    assert alone["squad"]["pts"] - 7 == pytest.approx(fresh_prices(s, ())["squad"]["pts"])
    s.undo()
    assert s.option_infos(()) == plain_infos(s, ())


def test_the_watcher_at_two_squads_is_priced_again_when_one_is_replaced(tmp_path: Path) -> None:
    """Adding under a squad (what it holds) changes no count the Watcher reads; the squad's
    own price follows its models."""
    s = demo_session(
        tmp_path,
        "  - entry: watcher\n  - entry: squad\n  - entry: squad\n",
    )
    squad = s.children_locs(())[1]
    for loc in ((), squad):
        prices = fresh_prices(s, loc)
        for entry_id, costs in prices.items():
            assert costs == pytest.approx(builder_rise(s, loc, entry_id)), (loc, entry_id)
        assert s.option_infos(loc) == plain_infos(s, loc)


@pytest.fixture(scope="module")
def marines(tmp_path_factory: pytest.TempPathFactory) -> EditSession:
    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    path, library = marines_40k(tmp_path_factory.mktemp("sm"))
    return EditSession.open(path, library, autosave=False)


def squads(s: EditSession) -> list[Loc]:
    return [
        loc
        for loc in s.children_locs(())
        if (e := s.entry_at(loc)) is not None and e.name == "Intercessor Squad"
    ]


def test_a_40k_model_added_to_one_squad_prices_that_squad_alone(
    marines: EditSession, skipped: list[int]
) -> None:
    """An Intercessor added to the first squad (5 models, 80 pts; 10 models cost 160) rises
    the roster by what the edit rises it by, at ×1 and ×2; the other two squads, whose
    points count their own models, are not priced again."""
    s = marines
    first = squads(s)[0]
    for count in (1, 2):
        if count == 2:
            s.set_count(first, 2)
        before = skipped[0]
        prices = fresh_prices(s, first)
        assert skipped[0] > before
        for entry_id, costs in prices.items():
            assert costs == pytest.approx(builder_rise(s, first, entry_id)), (count, entry_id)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(engine, "RISE_BY_READS", False)
            assert fresh_prices(s, first) == prices
    s.undo()
    assert s.count_of(first) == 1


def test_every_40k_units_prices_match_the_prices_worked_out_whole(marines: EditSession) -> None:
    """Under the roster's top and every unit, and the first selection in each: every
    offered option's price with the shortcut equals the price without it (every selection
    whose cost reads the roster priced again)."""
    s = marines
    locs: list[Loc] = [()]
    for unit in s.children_locs(()):
        locs.append(unit)
        locs.extend(s.children_locs(unit)[:1])
    compared = 0
    for loc in locs:
        fast = fresh_prices(s, loc)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(engine, "RISE_BY_READS", False)
            slow = fresh_prices(s, loc)
        assert fast == slow, loc
        compared += len(fast)
    assert compared > 150


@pytest.mark.parametrize(
    ("system", "faction"), [("gaslands", "gaslands"), ("space-station-zero", "crew")]
)
def test_small_battlescribe_systems_prices_match_the_prices_worked_out_whole(
    system: str, faction: str, tmp_path: Path
) -> None:
    """A Gaslands team and a Space Station Zero crew of six units with an option each:
    under the top, every unit and everything in it, the prices with the shortcut equal
    those without it."""
    from test_replay_traced import with_units

    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    s = with_units(Library([BSDATA]).scan(), system, faction, 6, tmp_path)
    locs: list[Loc] = [()]
    for unit in s.children_locs(()):
        locs.append(unit)
        locs.extend(s.children_locs(unit))
    compared = 0
    for loc in locs:
        fast = fresh_prices(s, loc)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(engine, "RISE_BY_READS", False)
            assert fresh_prices(s, loc) == fast, loc
        compared += len(fast)
    assert compared > 100
