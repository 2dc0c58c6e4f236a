"""Merging issues reported twice returns at once where no two are alike (issue 17, an edit of
the regiment, 2026-11-27).

``_merge_repeated`` keeps one issue per problem (severity, code, message and place). An
evaluation of the benchmark's regiment carries 299 warnings, none alike; its loop over them
ran on every edit. It now first counts the different problems in one pass and returns where
there are as many as issues. Turned off (``MERGE_AT_ONCE``), the issues must be the same, and
where some are alike they must still be merged as before.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_holdings import EXAMPLES, _bench

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Issue, evaluate_roster


def _issues(lib: Library, roster: Roster) -> list[tuple[object, ...]]:
    ev = evaluate_roster(roster, lib.system(roster.system))
    return [
        (i.severity, i.code, i.message, i.path, roster.position(i.path), i.entry, i.constraint)
        for i in ev.issues
    ]


def test_the_same_issues_with_and_without_the_shortcut(
    tmp_path: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = _bench()
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
