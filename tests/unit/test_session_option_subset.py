"""Pricing some of the options under a selection (``EditSession.option_infos(..., ids=...)``,
what a pane asks for the rows it shows) gives exactly what the whole list gives for them, in
the whole list's order, whatever was priced before under the same evaluation and after an
edit (a price kept from the evaluation before would be an old price on screen).

Seeded random subsets, asked in random order, under every selection of the native examples
(our own systems) and under the top, an Intercessor Squad and a model of a 40k Space Marines
roster built from ``../shared/bsdata`` (skipped with a message where it is absent); each is
compared with the whole list worked out afresh (``_option_infos``: nothing kept from an earlier
call) by a second session of the same file that never priced a subset, so nothing the subsets
left behind can answer for it. (``test_session_option_infos.py`` checks the whole list against
the plain computation and against the edits themselves.)
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from bench_rosters import marines_40k

from armybuilder.catalog import Library, default_library
from armybuilder.session import EditSession
from armybuilder.session.editor import Loc

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
EXAMPLES = sorted((ROOT / "examples").glob("*/*.yaml"))


def all_locs(s: EditSession, depth: int) -> list[Loc]:
    out: list[Loc] = [(), *s.force_locs()]
    frontier: list[Loc] = list(out)
    for _ in range(depth):
        frontier = [c for loc in frontier for c in s.children_locs(loc)]
        out += frontier
    return out


def check_subsets(s: EditSession, plain: EditSession, locs: list[Loc], rng: random.Random) -> int:
    """Ask random subsets under each of ``locs`` (in random order, some twice), then compare
    each answer with ``plain``'s whole list; how many options were compared."""
    ev = s.evaluate()
    asked: list[tuple[Loc, set[str], list[object]]] = []
    order = list(locs)
    rng.shuffle(order)
    for loc in order:
        ids = [s.option_id(loc, c) for c in s.options(loc)]
        # a few random subsets, and then every option (through the subset path)
        subsets = [set(rng.sample(ids, rng.randint(0, len(ids)))) for _ in range(rng.randint(1, 3))]
        for some in [*subsets, set(ids)]:
            if rng.random() < 0.3:
                some.add("no-such-option")
            asked.append((loc, some, list(s.option_infos(loc, ev, ids=some))))
    seen = 0
    whole_ev = plain.evaluate()
    # the whole list worked out afresh (no pricing kept from any earlier call)
    wholes = {loc: plain._option_infos(loc, whole_ev) for loc in locs}
    for loc, some, got in asked:
        assert got == [i for i in wholes[loc] if i.entry_id in some], (loc, sorted(some))
        seen += len(got)
    # and the whole list after the subsets, from the same session
    for loc in locs:
        assert s.option_infos(loc, ev) == wholes[loc], loc
    return seen


def edit_both(s: EditSession, plain: EditSession, locs: list[Loc], rng: random.Random) -> None:
    """The same count +1 of a selection in both sessions (the subsets' session has priced
    under the evaluation before)."""
    units = [loc for loc in locs if loc and loc[-2] == "selections"]
    if not units:
        return
    unit = rng.choice(units)
    for x in (s, plain):
        x.set_count(unit, x.count_of(unit) + 1)


def two_sessions(path: Path, tmp_path: Path, library: Library) -> tuple[EditSession, EditSession]:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    shutil.copy(path, a)
    shutil.copy(path, b)
    return (
        EditSession.open(a, library, autosave=False),
        EditSession.open(b, library, autosave=False),
    )


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_some_options_priced_as_the_whole_list_prices_them(path: Path, tmp_path: Path) -> None:
    rng = random.Random(f"subset:{path.name}")
    s, plain = two_sessions(path, tmp_path, default_library())
    locs = all_locs(s, 3)
    assert check_subsets(s, plain, locs, rng) > 0
    for _ in range(2):
        edit_both(s, plain, locs, rng)
        locs = all_locs(s, 3)
        check_subsets(s, plain, locs, rng)


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
def test_some_40k_options_priced_as_the_whole_list_prices_them(tmp_path: Path) -> None:
    source, library = marines_40k(tmp_path)
    s, plain = two_sessions(source, tmp_path, library)
    squad = next(
        loc
        for loc in s.children_locs(())
        if (e := s.entry_at(loc)) is not None and e.name == "Intercessor Squad"
    )
    locs = [(), squad, s.children_locs(squad)[0]]
    rng = random.Random("subset:40k")
    assert check_subsets(s, plain, locs, rng) > 50
    for x in (s, plain):  # count +1 of the squad: every option's price per model changes
        x.set_count(squad, x.count_of(squad) + 1)
    assert check_subsets(s, plain, locs, rng) > 50
    for x in (s, plain):
        x.undo()
    check_subsets(s, plain, locs, rng)
