"""Merging issues reported twice returns at once where no two are alike (issue 17, an edit of
the regiment, 2026-11-27).

``_merge_repeated`` keeps one issue per problem (severity, code, message and place). An
evaluation of the benchmark's regiment carries 299 warnings, none alike; its loop over them
ran on every edit. It now first counts the different problems in one pass and returns where
there are as many as issues; the keys of issues replayed with a subtree are read off its
record (worked out once, when it was first replayed), so that an edit does not touch the
hundreds of warnings it replays. Turned off (``MERGE_AT_ONCE``), the issues must be the same,
and where some are alike (also to a replayed one, or where the list changed after a replay)
they must still be merged as before.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bench_rosters import bench_module
from test_holdings import EXAMPLES

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, Issue, SubtreeMemo, evaluate_roster


def _issues(lib: Library, roster: Roster) -> list[tuple[object, ...]]:
    ev = evaluate_roster(roster, lib.system(roster.system))
    return [
        (i.severity, i.code, i.message, i.path, roster.position(i.path), i.entry, i.constraint)
        for i in ev.issues
    ]


def test_the_same_issues_with_and_without_the_shortcut(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = bench_module()
    rng = random.Random(11)
    rosters = [
        Roster.from_text(bench.regiment_roster(companies=1), str(tmp_path / "regiment.yaml")),
        *(
            Roster.from_text(bench.random_roster(rng, i)[0], str(tmp_path / f"r{i}.yaml"))
            for i in range(1, 21)
        ),
        *(Roster.from_file(p, round_trip=False) for p in EXAMPLES),
    ]
    fast = [_issues(library, r) for r in rosters]
    assert sum(map(len, fast)) > 100  # (the regiment's warnings, the corpus's errors)
    monkeypatch.setattr(engine, "MERGE_AT_ONCE", False)
    assert [_issues(library, r) for r in rosters] == fast


@pytest.mark.parametrize("at_once", [True, False])
def test_issues_alike_are_still_merged(
    library: Library, monkeypatch: pytest.MonkeyPatch, at_once: bool
) -> None:
    monkeypatch.setattr(engine, "MERGE_AT_ONCE", at_once)
    roster = Roster.from_file(EXAMPLES[0], round_trip=False)
    gs = library.system(roster.system)
    ev = evaluate_roster(roster, gs)
    entry = next(iter(gs.index(roster.faction).entries))
    kept = list(ev.issues)
    one = Issue("error", "too-few", "The roster has 0 × Thing", ("selections", 0), "", "", "x")
    # the same problem from another rule, which names an entry the player can add: kept
    # instead of the first, where the first stood
    again = Issue("error", "too-few", "The roster has 0 × Thing", ("selections", 0), "", entry, "y")
    # one rule reported for two selections at one place: both kept
    twice = Issue("error", "too-few", "The roster has 0 × Thing", ("selections", 0), "", entry, "y")
    other = Issue("warning", "too-few", "The roster has 0 × Thing", ("selections", 0))
    ev.issues[:] = [*kept, one, other, again, twice]
    engine._merge_repeated(ev)
    assert ev.issues == [*kept, again, other, twice]


def _replayed(tmp_path: Path, library: Library) -> Evaluation:
    """The one-company regiment evaluated a second time from the first's memo: every platoon
    replayed, its warnings with it."""
    bench = bench_module()
    roster = Roster.from_text(bench.regiment_roster(companies=1), str(tmp_path / "reg.yaml"))
    gs = library.system(roster.system)
    first = evaluate_roster(roster, gs, SubtreeMemo())
    ev = evaluate_roster(roster, gs, first.memo_out, take_nodes=True)
    assert len(ev._replayed) > 5 and len(ev.issues) > 20
    return ev


def _alike(issue: Issue, constraint: str) -> Issue:
    return Issue(issue.severity, issue.code, issue.message, issue.path, "", "", constraint)


@pytest.mark.parametrize("where", ["after", "inside"])
def test_replayed_issues_alike_to_another_are_merged(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # The keys of replayed issues are read off their records; an issue alike to one of them
    # must still be found, whether added after them or put in their place in the list (as a
    # rules module may change the list: the record's keys then no longer hold).
    ev = _replayed(tmp_path, library)
    start, _end, record = ev._replayed[1]
    record.issue_keys()  # (worked out before the list changes)
    if where == "after":
        ev.issues.append(_alike(ev.issues[start], "again"))
    else:
        ev.issues[start] = _alike(ev.issues[0], "again")
    before = list(ev.issues)
    engine._merge_repeated(ev)
    assert len(ev.issues) == len(before) - 1
    fast = list(ev.issues)
    monkeypatch.setattr(engine, "MERGE_AT_ONCE", False)
    ev.issues[:] = before
    engine._merge_repeated(ev)
    assert ev.issues == fast
