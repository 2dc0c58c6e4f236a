"""The fast (C) loader that `validate` uses and the round-trip loader the builder uses give the
same verdicts, issues and line:col positions, over the examples and a generated corpus of legal
and illegal rosters (the benchmark's generator). `validate` works positions out only for the
issues it prints, from the C parser's node graph; the builder reads them off its document."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation
from armybuilder.yamlio import iter_paths, to_plain

REPO = Path(__file__).resolve().parents[2]


def _corpus(folder: Path) -> list[Path]:
    spec = importlib.util.spec_from_file_location(
        "bench_validate", REPO / "benchmarks" / "bench_validate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_validate"] = module
    spec.loader.exec_module(module)
    generated = module.generate(folder, 8, 4242)
    return [p for p in generated.files if p != generated.regiment]


def test_fast_and_round_trip_loaders_agree(
    tmp_path: Path, evaluate_roster: Callable[[Roster], Evaluation]
) -> None:
    files = sorted((REPO / "examples").rglob("*.yaml")) + _corpus(tmp_path)
    positioned = 0
    for path in files:
        fast = Roster.from_file(path, round_trip=False)
        rt = Roster.from_file(path)
        assert fast.doc == to_plain(rt.doc), path
        ev_fast, ev_rt = evaluate_roster(fast), evaluate_roster(rt)
        assert ev_fast.valid == ev_rt.valid, path
        assert [i.to_json() for i in ev_fast.issues] == [i.to_json() for i in ev_rt.issues]
        for issue in ev_fast.issues:
            if issue.path:
                assert fast.position(issue.path) == rt.position(issue.path), (path, issue)
                positioned += 1
        # every place in the file, not only where issues are today
        for loc in list(iter_paths(fast.doc))[:200]:
            assert fast.position(loc) == rt.position(loc), (path, loc)
    assert positioned > 20  # the corpus has issues to place (warnings and errors)


@pytest.mark.parametrize("loc", [("selections", 99), ("nope",), ("selections", 0, "x", 3)])
def test_missing_places_fall_back_alike(loc: tuple[str | int, ...]) -> None:
    path = REPO / "examples" / "infantry-ops" / "rifle-platoon.yaml"
    fast = Roster.from_file(path, round_trip=False)
    assert fast.position(loc) == Roster.from_file(path).position(loc)
