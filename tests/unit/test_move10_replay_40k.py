"""A removal, a copy or a move shifts the selections after it; they are replayed, not
evaluated again (issue 18), and the evaluation is exactly a fresh one's.

On the 40k Space Marines roster of ``benchmarks/bench_bsdata.py`` (read from the real data
in ``../shared/bsdata``; skipped with a message where it is absent): a random walk of
removals in the middle of the list, copies, moves up and down, their undo and redo (and a
count now and then) compares the edit session's evaluation with a fresh one after every
step: issues (with their places), values, costs, names and the parsed view itself. And the
shifted selections are replayed: a removal, a copy or a move in the middle of the list
evaluates no more subtrees than the same edit at its end, where nothing shifts (what the
evaluation replays and computes is counted: :attr:`SubtreeMemo.hits`, ``misses``).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import marines_40k

from armybuilder.catalog import Library
from armybuilder.rosters import Loc
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.session import EditError, EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def marines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    return marines_40k(tmp_path_factory.mktemp("move10"), name="marines.yaml")


def snapshot(ev: Evaluation) -> dict[str, Any]:
    """What a player is shown: every issue (with its place), every value, cost and name."""
    return {
        "issues": [i.to_json() for i in ev.issues],
        "totals": ev.totals,
        "roster": [(v.key, v.value, v.text, v.source) for v in ev.roster_values],
        "nodes": [(n.loc, ev.where(n)) for n in ev.nodes()],
        "values": {
            n.loc: [(v.key, v.label, v.value, v.text, v.source) for v in ev.values_of(n)]
            for n in ev.nodes()
        },
        "costs": {n.loc: ev.total_cost(n) for n in ev.nodes()},
    }


def same_as_fresh(s: EditSession, tried: str) -> Evaluation:
    """The session's evaluation (replaying) after an edit, checked against the document read
    again whole and evaluated without a memo."""
    ev = s.evaluate()
    fresh = copy.copy(s.roster)
    fresh.refresh()
    # (the parsed view kept up to date piece by piece: locs and findings as a fresh read's)
    assert s.roster.selections == fresh.selections, tried
    full = evaluate_roster(fresh, s.system)
    got, want = snapshot(ev), snapshot(full)
    for key in want:
        assert got[key] == want[key], f"{tried}: {key} differ"
    return ev


def _middle(s: EditSession) -> Loc:
    """A top-level selection about the middle of the list (half the list after it)."""
    return ("selections", len(s.roster.selections) // 2)


def walk_edit(s: EditSession, rng: random.Random) -> str:
    """A removal, copy or move of a top-level selection (mostly about the middle of the list),
    an undo or redo, or now and then a count inside one."""
    n = len(s.roster.selections)
    k = min(n - 1, max(0, n // 2 + rng.randint(-3, 3))) if rng.random() < 0.8 else rng.randrange(n)
    loc: Loc = ("selections", k)
    kind = rng.choice(["remove", "duplicate", "up", "down", "undo", "undo", "redo", "count"])
    try:
        if kind == "remove" and n > 4:
            s.remove(loc)
        elif kind == "duplicate":
            s.duplicate(loc)
        elif kind in ("up", "down"):
            s.move(loc, -1 if kind == "up" else 1)
        elif kind == "undo" and s.can_undo:
            s.undo()
        elif kind == "redo" and s.can_redo:
            s.redo()
        elif kind == "count":
            inside = [c.loc for c in s.roster.selections[k].children]
            if inside:
                s.set_count(rng.choice(inside), rng.randint(1, 3))
    except EditError:
        pass  # a refused edit changes nothing; the comparison still runs
    return f"{kind} at {loc}"


@pytest.mark.parametrize("seed", [1, 2])
def test_removals_copies_and_moves_replay_exactly_what_a_fresh_evaluation_finds(
    marines: tuple[Path, Library], seed: int
) -> None:
    s = EditSession.open(*marines, autosave=False, lazy=False)
    s.evaluate()
    rng = random.Random(seed)
    hits = 0
    for step in range(30):
        tried = walk_edit(s, rng)
        ev = same_as_fresh(s, f"seed {seed}, step {step} ({tried})")
        assert ev.memo_out is not None
        hits += ev.memo_out.hits
    assert hits > 0, "nothing was replayed: the comparison proves nothing"


def _edit(s: EditSession, edit: str, loc: Loc) -> None:
    if edit == "remove":
        s.remove(loc)
    elif edit == "duplicate":
        s.duplicate(loc)
    else:
        s.move(loc, -1 if edit == "up" else 1)


def _misses(s: EditSession, edit: str, loc: Loc) -> tuple[int, int]:
    """The subtrees the evaluation after ``edit`` at ``loc`` computes (checked against a
    fresh evaluation), then the same after its undo."""
    _edit(s, edit, loc)
    ev = same_as_fresh(s, f"{edit} at {loc}")
    assert ev.memo_out is not None
    done = ev.memo_out.misses
    s.undo()
    back = same_as_fresh(s, f"undo {edit} at {loc}")
    assert back.memo_out is not None
    return done, back.memo_out.misses


@pytest.mark.parametrize("edit", ["remove", "duplicate", "up", "down"])
def test_the_selections_an_edit_shifts_are_replayed_not_evaluated_again(
    marines: tuple[Path, Library], edit: str
) -> None:
    """The edit (and its undo) in the middle of the list evaluates no more subtrees than the
    same edit at the end of it (the one before the last moved down), where nothing shifts
    but the selection itself (and the one it changes places with): the half of the list
    after it, shifted, is replayed whole (counted by the memo: structural, not timed)."""
    s = EditSession.open(*marines, autosave=False, lazy=False)
    s.evaluate()
    n = len(s.roster.selections)
    middle = _middle(s)
    end: Loc = ("selections", n - 2 if edit == "down" else n - 1)
    shifted = n - 1 - int(middle[1])
    assert shifted >= 5
    at_end = _misses(s, edit, end)
    in_middle = _misses(s, edit, middle)
    assert in_middle[0] <= at_end[0], f"{edit}: {in_middle[0]} evaluated, not {at_end[0]}"
    assert in_middle[1] <= at_end[1], f"undo {edit}: {in_middle[1]} evaluated, not {at_end[1]}"
    # (each shifted top-level selection replayed, at least)
    _edit(s, edit, middle)
    ev = s.evaluate()
    assert ev.memo_out is not None and ev.memo_out.hits >= shifted - 1


def test_a_selection_moved_at_every_edit_keeps_few_copies_alive(
    marines: tuple[Path, Library],
) -> None:
    """A selection copied to a new place at each of many edits (never evaluated between them)
    remembers a few of the selections it was copied from, not all of them; evaluated then, it
    is still exactly a fresh evaluation's."""
    s = EditSession.open(*marines, autosave=False, lazy=False)
    s.evaluate()
    last = s.roster.selections[-1]
    for _ in range(20):
        s.remove(("selections", 0))
        s.undo()
    now = s.roster.selections[-1]
    assert now is not last and now == last
    chain = 0
    o = now.origin
    while o is not None:
        chain += 1
        o = o.origin
    assert 1 <= chain <= 4
    same_as_fresh(s, "after 40 shifts")


@pytest.mark.parametrize("edit", ["remove", "duplicate", "up", "down"])
def test_the_costs_of_the_selections_an_edit_shifts_are_replayed(
    marines: tuple[Path, Library], edit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The costs of what the edit shifts are replayed too (their totals, kept by selection,
    and those worked out by what they read): the edit in the middle works out no more
    selections' costs than the same edit at the end (counted calls of
    ``Evaluation._node_cost``; with the copies' costs not replayed, a removal in the middle
    worked out 49, against 1 at the end, and a copy 54 against 10)."""
    worked: list[int] = []
    node_cost = Evaluation._node_cost

    def counted(self: Evaluation, *args: Any, **kwargs: Any) -> Any:
        worked.append(1)
        return node_cost(self, *args, **kwargs)

    monkeypatch.setattr(Evaluation, "_node_cost", counted)
    s = EditSession.open(*marines, autosave=False, lazy=False)
    s.evaluate()
    n = len(s.roster.selections)
    costs = []
    for loc in [("selections", n - 2 if edit == "down" else n - 1), _middle(s)]:
        _edit(s, edit, loc)
        worked.clear()
        s.evaluate()
        costs.append(len(worked))
        same_as_fresh(s, f"{edit} at {loc}")
        s.undo()
        s.evaluate()
    assert costs[1] <= costs[0], f"{edit}: {costs[1]} costs worked out, not {costs[0]}"
