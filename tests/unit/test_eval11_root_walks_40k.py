"""The builder's +1 and quick fix on the 40k roster: the evaluation after them walks only the
top-level selection the edit changed, and finds exactly what a fresh evaluation finds
(issue 18).

The walks over the whole roster (what every selection can be counted as, the entry ids under
the roster, and the counts of the roster's selections by entry and category that its
constraints and conditions read) are made of each top-level selection's part, kept for the
next evaluation while the selection is the same object (:meth:`Evaluation._unit_walk`). On the
Space Marines roster of ``benchmarks/bench_bsdata.py`` (real data in ``../shared/bsdata``;
skipped with a message where it is absent): a random walk of counts set on top-level
selections and inside them (the builder's +1 and -1), entries misspelt and put right by the
issue's quick fix (as the builder's ``.`` does), undos and redos compares the session's
evaluation with a fresh one after every step: issues (with their places), values, costs,
names, and those three walks' results themselves. And after a +1 or a quick fix, one
top-level selection is walked (:attr:`SubtreeMemo.walked`), not the eighteen.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import BSDATA, marines_40k
from test_move10_replay_40k import snapshot as shown

from armybuilder.catalog import Library
from armybuilder.fixes import Fix, fixes_for
from armybuilder.rosters import Loc
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.session import EditError, EditSession, SetKey

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def marines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    return marines_40k(tmp_path_factory.mktemp("eval11"), name="marines.yaml")


def snapshot(ev: Evaluation) -> dict[str, Any]:
    """What a player is shown (test_move10_replay_40k's), and what the whole-roster walks
    found: the roster's counts, its present references, its entry ids."""
    return {
        **shown(ev),
        "counts": ev._ref_counts(ev.root, True),
        "present": ev.present_refs(),
        "ids": set(ev.entry_ids_under(ev.root)),
    }


def same_as_fresh(s: EditSession, tried: str) -> Evaluation:
    """The session's evaluation (replaying) after an edit, checked against the document read
    again whole and evaluated without a memo (every walk made whole)."""
    ev = s.evaluate()
    fresh = copy.copy(s.roster)
    fresh.refresh()
    full = evaluate_roster(fresh, s.system)
    assert full.memo_out is None
    got, want = snapshot(ev), snapshot(full)
    for key in want:
        assert got[key] == want[key], f"{tried}: {key} differ"
    return ev


def quick_fix(ev: Evaluation, loc: Loc) -> Fix | None:
    """The first quick fix of an issue at ``loc`` (what the builder's ``.`` applies there)."""
    for issue in ev.issues:
        if tuple(issue.path[: len(loc)]) == loc:
            found = fixes_for(ev, issue)
            if found:
                return found[0]
    return None


def misspelt_with_fix(s: EditSession, rng: random.Random) -> Loc | None:
    """A selection whose entry id, misspelt, has a quick fix (the real one among the close
    ids): misspelt, and its loc returned; ``None`` where the one tried has none (undone)."""
    ev = s.evaluate()
    nodes = [n for n in ev.nodes() if n.entry is not None]
    n = rng.choice(nodes)
    loc = n.loc
    good = n.entry.id
    wrong = good[:-1] + ("y" if good[-1] == "x" else "x")
    s.apply("misspell", [SetKey(loc, "entry", wrong)], loc, loc)
    if quick_fix(s.evaluate(), loc) is None:
        s.undo()
        return None
    return loc


def walk_edit(s: EditSession, rng: random.Random) -> str:
    """A count set on a top-level selection or one inside it, a misspelt entry (compared)
    then put right by its quick fix, an undo or a redo."""
    units = s.roster.selections
    k = rng.randrange(len(units))
    loc: Loc = ("selections", k)
    kind = rng.choice(["count", "count", "inner", "fix", "fix", "undo", "redo"])
    try:
        if kind == "count":
            s.set_count(loc, max(1, units[k].count + rng.choice([-1, 1])))
        elif kind == "inner":
            inside = [c.loc for c in units[k].children]
            if inside:
                s.set_count(rng.choice(inside), rng.randint(1, 3))
        elif kind == "fix":
            at = misspelt_with_fix(s, rng)
            if at is not None:
                same_as_fresh(s, f"misspelt at {at}")
                fix = quick_fix(s.evaluate(), at)
                assert fix is not None
                fix.apply(s)
                return f"quick fix at {at}"
        elif kind == "undo" and s.can_undo:
            s.undo()
        elif kind == "redo" and s.can_redo:
            s.redo()
    except EditError:
        pass  # a refused edit changes nothing; the comparison still runs
    return f"{kind} at {loc}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_counts_and_quick_fixes_walk_exactly_what_a_fresh_evaluation_walks(
    marines: tuple[Path, Library], seed: int
) -> None:
    s = EditSession.open(*marines, autosave=False, lazy=False)
    s.evaluate()
    rng = random.Random(seed)
    kept = 0
    for step in range(30):
        tried = walk_edit(s, rng)
        ev = same_as_fresh(s, f"seed {seed}, step {step} ({tried})")
        assert ev.memo_out is not None
        kept += len(ev.memo_out.walks) - ev.memo_out.walked
    assert kept > 0, "no top-level selection's walk was kept: the comparison proves nothing"


def _walked_after(s: EditSession, edit: Any) -> int:
    """The top-level selections walked after ``edit``; the roster's counts are the previous
    evaluation's with one selection's taken off and one's added (of eighteen)."""
    edit()
    ev = same_as_fresh(s, "edit")
    assert ev.memo_out is not None
    assert ev.memo_out.counted == 2
    return ev.memo_out.walked


def test_a_count_or_a_quick_fix_walks_the_one_top_level_selection_it_changed(
    marines: tuple[Path, Library],
) -> None:
    """+1 on a squad, its undo, a misspelt entry inside a unit and its quick fix: each
    evaluation walks one top-level selection (the one edited), of the roster's eighteen, and
    counts the roster by two of them (counted by the memo: structural, not timed)."""
    s = EditSession.open(*marines, autosave=False, lazy=False)
    first = s.evaluate()
    assert first.memo_out is not None
    units = len(s.roster.selections)
    assert units >= 15 and first.memo_out.walked == first.memo_out.counted == units
    squad = next(n for n in first.root.children if first.name(n) == "Intercessor Squad")
    assert _walked_after(s, lambda: s.set_count(squad.loc, squad.count + 1)) == 1
    assert _walked_after(s, s.undo) == 1
    inner = next(n for n in first.nodes() if n.loc == ("selections", 0, "selections", 0))
    assert inner.entry is not None
    good = inner.entry.id
    misspell = [SetKey(inner.loc, "entry", good[:-1] + "x")]
    assert _walked_after(s, lambda: s.apply("misspell", misspell, inner.loc, inner.loc)) == 1
    fix = quick_fix(s.evaluate(), inner.loc)
    assert fix is not None and good in fix.label
    assert _walked_after(s, lambda: fix.apply(s)) == 1
    assert s.node(inner.loc)["entry"] == good
