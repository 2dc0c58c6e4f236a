"""Two shortcuts of the full evaluation that read counts straight (issue 17, the regiment,
2026-11-27) give what the long way gives.

* **Modifiers found by the counts they read** (:meth:`Evaluation._by_counts`,
  :meth:`CatalogIndex.count_refs`): where every condition of an entry's modifiers on a
  field compares a count of selections in their one scope, what they find is worked out
  once per evaluation for each set of those counts (a trooper's mass and a squad's
  standard strength read the platoon's motive: 75 platoons, four motives), not once per
  scope selection.
* **A selection's own count constraints read straight** (:attr:`EntryChecks.self_counts`):
  a squad's "troopers" minimum and maximum count its troopers from the tally of its
  children, not through a full query each.

Turned off, every issue (with its line and column), value and cost must be the same, on the
benchmark's regiment (one company per battalion: foot, jump, motorised and mechanised
platoons), on 40 rosters of the benchmark's corpus (of every faction and motive, some with
squads over or under their standard strength) and on every example.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest
from bench_rosters import bench_module, evaluation_lines

from armybuilder.catalog import CatalogIndex, Library
from armybuilder.catalog.library import default_roots
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def _over(bench: ModuleType) -> str:
    """Platoons of each motive whose squads hold 2 to 9 troopers, in 2 to 5 squads: over
    and under every standard of the structure table."""
    sel = bench.sel
    platoons = [
        sel(
            "platoon",
            name=f"{motive} {n}",
            selections=[
                sel(motive),
                *(
                    sel("squad", selections=[sel("trooper", n, selections=[sel("auto-rifle")])])
                    for _ in range(2 + n % 4)
                ),
            ],
        )
        for motive in ("foot", "jump", "mechanised-hover", "mechanised-wheeled")
        for n in range(2, 10, 3)
    ]
    return str(bench.roster_yaml({"faction": "inner-sphere", "name": "Over"}, platoons, "test"))


def _all(lib: Library, rosters: list[Roster]) -> list[str]:
    out: list[str] = []
    for roster in rosters:
        out += evaluation_lines(evaluate_roster(roster, lib.system(roster.system)))
    return out


def test_counts_read_straight_give_what_the_long_way_gives(
    tmp_path: Path, _isolated_home: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = bench_module()
    rng = random.Random(20240601)
    rosters = [
        Roster.from_text(bench.regiment_roster(companies=1), str(tmp_path / "regiment.yaml")),
        *(
            Roster.from_text(bench.random_roster(rng, i)[0], str(tmp_path / f"r{i}.yaml"))
            for i in range(1, 41)
        ),
        *(Roster.from_file(p, round_trip=False) for p in EXAMPLES),
        Roster.from_text(_over(bench), str(tmp_path / "over.yaml")),
    ]
    short = _all(Library(default_roots(), use_cache=False).scan(), rosters)
    # (squads over and under their standard strength: the catalog's "troopers" maximum and
    # minimum, each broken somewhere)
    own = {line.split("|")[1] for line in short if line.endswith("|squad|troopers")}
    assert own == {"min-not-met", "max-exceeded"}
    monkeypatch.setattr(CatalogIndex, "count_refs", lambda self, owner, field_: None)
    monkeypatch.setattr(CatalogIndex, "_own_count", lambda self, entry, con: None)
    assert short == _all(Library(default_roots(), use_cache=False).scan(), rosters)


def test_what_is_read_as_counts(library: Library) -> None:
    index = library.system("infantry-ops").index("inner-sphere")
    trooper = index.shared["trooper"]
    squad = index.entries["platoon"].entries[0]
    assert squad.id == "squad"
    # a trooper's mass: four motives of its platoon, counted deep (none below its children)
    assert index.count_refs(trooper, "cost:kg") == (
        ("jump", True),
        ("motorised-wheeled", True),
        ("motorised-hover", True),
        ("motorised-tracked", True),
    )
    assert index.count_refs(squad, "constraint:troopers") == (
        ("motive-mech-hover-vtol", True),
        ("motive-mech-wheeled-naval", True),
    )
    assert index.count_refs(trooper, "name") is None  # (no modifier on it)
    assert index.entry_checks(squad).self_counts == ("trooper", "trooper")
