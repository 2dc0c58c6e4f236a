"""The garbage collector paused while a roster is evaluated (issue 17, the regiment,
2026-11-27 afternoon, round 3).

:func:`~armybuilder.rules.engine.evaluate` turns Python's collector off while it runs
(:data:`~armybuilder.rules.engine.HOLD_COLLECTOR`) and starts, as it ends, the collection
the collector would have started at its next allocation. What it must keep: the same
issues, values and costs with the pause as without it; the collector on after it (also when
the evaluation fails) and off where it was off; and a loop of evaluations that allocates
nothing between them still freeing the trees it drops.
"""

from __future__ import annotations

import gc
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, evaluate, evaluate_roster

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_validate", REPO / "benchmarks" / "bench_validate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_validate"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _lines(ev: Evaluation) -> list[str]:
    roster = ev.roster
    out = [
        f"I {i.severity}|{i.code}|{i.message}|{i.path}|{roster.position(i.path)}|{i.entry}"
        for i in ev.issues
    ]
    out.append(f"T {ev.totals!r}")
    out += [f"R {v.key}|{v.value!r}|{v.text}" for v in ev.roster_values]
    for n in ev.nodes():
        out.append(f"N {n.loc} {ev.where(n)} {ev.total_cost(n)!r}")
        out += [f"V {v.key}|{v.value!r}|{v.text}" for v in ev.values_of(n)]
    return out


@pytest.fixture
def regiment(library: Library, tmp_path: Path) -> Roster:
    text = _bench().regiment_roster(companies=1)
    return Roster.from_text(text, str(tmp_path / "regiment.yaml"))


@pytest.fixture
def thresholds() -> Iterator[None]:
    """Young passes every 50 allocations (so an evaluation would see many), restored after."""
    was = gc.get_threshold()
    gc.set_threshold(50, 2, 2)
    try:
        yield
    finally:
        gc.set_threshold(*was)
        gc.enable()


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The collections that start while :func:`engine._evaluate` runs (by generation)."""
    inside = [False]
    seen: list[int] = []
    real = engine._evaluate

    def tracked(*args: Any) -> Evaluation:
        inside[0] = True
        try:
            return real(*args)
        finally:
            inside[0] = False

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and inside[0]:
            seen.append(info["generation"])

    monkeypatch.setattr(engine, "_evaluate", tracked)
    gc.callbacks.append(callback)  # (the list the collector reads: not to be replaced)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)


def test_the_pause_gives_what_the_collector_running_gives(
    library: Library, tmp_path: Path, regiment: Roster, monkeypatch: pytest.MonkeyPatch
) -> None:
    rosters = [regiment, *(Roster.from_file(p, round_trip=False) for p in EXAMPLES)]

    def everything() -> list[str]:
        out: list[str] = []
        for roster in rosters:
            gs = library.system(roster.system)
            out += _lines(evaluate_roster(roster, gs))
            out += _lines(evaluate_roster(roster, gs, values=False))
        return out

    held = everything()
    monkeypatch.setattr(engine, "HOLD_COLLECTOR", False)
    assert held == everything()


def test_no_collection_runs_inside_an_evaluation(
    library: Library,
    regiment: Roster,
    thresholds: None,
    watched: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gs = library.system(regiment.system)
    seen = watched
    evaluate_roster(regiment, gs)
    assert seen == []
    assert gc.isenabled()
    monkeypatch.setattr(engine, "HOLD_COLLECTOR", False)  # (the test can see them)
    evaluate_roster(regiment, gs)
    assert len(seen) > 10


def test_the_collector_is_on_after_and_off_where_it_was_off(
    library: Library, regiment: Roster, monkeypatch: pytest.MonkeyPatch
) -> None:
    gs = library.system(regiment.system)
    index = gs.index(regiment.faction)
    try:
        gc.disable()
        evaluate(regiment, index, gs.rules)
        assert not gc.isenabled()  # (left as the caller had it)
        gc.enable()

        def fails(*args: Any) -> None:
            raise KeyError("a failure inside")

        monkeypatch.setattr(engine, "_build", fails)
        with pytest.raises(KeyError):
            evaluate(regiment, index, gs.rules)
        assert gc.isenabled()
    finally:
        gc.enable()


def test_a_loop_of_evaluations_frees_the_trees_it_drops(
    library: Library, regiment: Roster, thresholds: None
) -> None:
    gs = library.system(regiment.system)
    index = gs.index(regiment.faction)
    rules = gs.rules
    gc.collect()
    for _ in range(40):  # nothing between them that the collector tracks
        evaluate(regiment, index, rules)
        assert gc.get_count()[0] <= gc.get_threshold()[0]  # (no collection owed)
    alive = sum(type(o) is Evaluation for o in gc.get_objects())  # (which collects nothing)
    assert alive <= 8, alive  # (the trees are cyclic: the collector frees them)
