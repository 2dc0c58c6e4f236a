#!/usr/bin/env python3
"""Real BattleScribe data: how fast the 40k game system with Space Marines loads and validates.

Data: ``../shared/bsdata/wh40k-10e`` (the game system and Space Marines with every catalogue it
links: six files, 7.6 MB of XML). Measured in CPU time (``time.process_time``), the median of
``--runs`` runs, each in a fresh process state where it matters:

a. baseline: a bare XML parse of the same files (``xml.etree.ElementTree.fromstring``);
b. cold load: scan the folder, then parse, translate and index Space Marines (no cache);
c. warm load: the same with the cache file written by a cold load (as a new process does: the
   loads this process already made are forgotten first);
d. validate: a 15-unit, 1,910-point Space Marines roster (the data's wargear) evaluated again,
   after a first evaluation (the command line's case is (b) or (c) plus one of these);
e. an edit in an edit session (the builder's +1): the count of the first Intercessor Squad set
   one higher and back, each change timed with the session's evaluation after it (which
   replays the units the edit did not change), after ``gc.collect()``; its ratio to (d), a
   full evaluation of the same roster in the same run, is printed beside it;
f. and g. the same squad (the 7th of 18) removed, and a copy of it put after it, each with the
   evaluation after it (the units after it only shifted: replayed too) and undone untimed.

Targets (issue 18) are printed beside each figure, and each measure's ratio to the bare parse of
the same run (a busy machine slows both alike, so the ratio moves less than the seconds). Run
from the repository root::

    python benchmarks/bench_bsdata.py --runs 5

With ``PYTHONPATH`` set, the code measured is the ``armybuilder`` it names (another tree, for
a before/after pair on the same data); without it, this checkout's.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(ROOT))

from armybuilder.catalog import Library  # noqa: E402
from armybuilder.interop.battlescribe import library as bs_library  # noqa: E402
from armybuilder.interop.battlescribe.library import BattleScribeSystem  # noqa: E402
from armybuilder.interop.battlescribe.rosfile import new_session, select, session_yaml  # noqa: E402
from armybuilder.rosters import Roster  # noqa: E402
from armybuilder.rules.engine import evaluate_roster  # noqa: E402
from armybuilder.session import EditSession  # noqa: E402

BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"
UNITS = (
    "6c10-5b51-5bc0-8d2c",
    "ce15-e87e-7cff-b129",
    "78eb-9334-f5c0-6095",
    "8da0-4570-c3c-819f",
    "8da0-4570-c3c-819f",
    "8da0-4570-c3c-819f",
    "1d94-b3c8-9205-827e",
    "8cca-9318-3bec-d360",
    "4808-a80b-309a-7933",
    "7044-bf1-f949-c32d",
    "a14e-75ca-ef91-397f",
    "d4c8-dd6a-cd7a-ccc3",
    "c570-c6ba-c9dc-5a44",
    "5dc7-aa6c-7053-cede",
    "b5e8-c34b-566b-8bda",
)


def cpu(fn: Callable[[], object]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def load(use_cache: bool) -> BattleScribeSystem:
    bs_library._RECENT.clear()  # a fresh process: nothing loaded yet (warm reads the cache file)
    lib = Library([BSDATA], use_cache=use_cache).scan()
    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    gs.index(SM)
    return gs


def roster_text(gs: BattleScribeSystem) -> str:
    s = new_session(gs, SM)
    chosen = {sel.option.entry.name: sel for sel in s.forces[0].selections}
    select(s, "baf8-997f-e323-a090", chosen["Battle Size"])
    select(s, "d2dc-693e-b491-b16d", chosen["Detachment"])
    for unit in UNITS:
        select(s, unit)
    return session_yaml(s, gs, SM)


def line(
    label: str,
    runs: list[float],
    target: float | None,
    unit: str = "s",
    baseline: float | None = None,
) -> float:
    """Print one measure (median, spread, its ratio to the same run's bare XML parse, the
    target) and return its median."""
    med = statistics.median(runs)
    scale = 1000.0 if unit == "ms" else 1.0
    digits = 2 if unit == "s" else 1  # (a tenth of a second is the change being measured)
    shown = f"{med * scale:8.{digits}f} {unit}"
    goal = f"target {target:g} {unit}" if target is not None else ""
    verdict = "" if target is None else ("  ok" if med * scale <= target else "  OVER")
    spread = f"(min {min(runs) * scale:.{digits}f}, max {max(runs) * scale:.{digits}f})"
    ratio = f"{med / baseline:5.2f} x parse" if baseline else ""
    print(f"{label:<44}{shown}  {spread:<26}{ratio:<15}{goal}{verdict}")
    return med


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if not BSDATA.is_dir():
        print(f"the BattleScribe data is not at {BSDATA}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as home:
        os.environ["ARMYBUILDER_HOME"] = home
        os.environ.pop("ARMYBUILDER_CACHE_DIR", None)
        gs = load(use_cache=True)  # writes the cache, warms imports
        files = [gs.system_file, *gs.wanted({gs.bs_id(SM)})]
        texts = [f.read_text() for f in files if f is not None]
        size = sum(len(t.encode()) for t in texts) / 1e6
        print(f"40k game system + Space Marines and its links: {len(texts)} files, {size:.1f} MB")
        print(f"CPU time, median of {args.runs} runs\n")
        parse = line(
            "a. baseline: bare XML parse",
            [cpu(lambda: [ET.fromstring(t) for t in texts]) for _ in range(args.runs)],
            None,
        )
        line(
            "b. cold load (scan, parse, translate, index)",
            [cpu(lambda: load(use_cache=False)) for _ in range(args.runs)],
            1.5,
            baseline=parse,
        )
        line(
            "c. warm load (from the cache)",
            [cpu(lambda: load(use_cache=True)) for _ in range(args.runs)],
            150,
            "ms",
            baseline=parse,
        )
        text = roster_text(gs)
        roster = Roster.from_text(text, "bench")
        ev = evaluate_roster(roster, gs)
        units = sum(1 for s in roster.selections)
        print(
            f"\nroster: {units} selections at the top, {ev.totals.get('pts', 0):g} pts, "
            f"{len(ev.errors)} errors"
        )
        full = line(
            "d. validate the roster (evaluate again)",
            [cpu(lambda: evaluate_roster(roster, gs)) for _ in range(args.runs)],
            20,
            "ms",
            baseline=parse,
        )
        for kind, title in (
            ("count", "e. +1 in an edit session (edit, evaluate)"),
            ("remove", "f. a unit in the middle removed (edit, evaluate)"),
            ("duplicate", "g. a copy put after it (edit, evaluate)"),
        ):
            edits, replayed = edit_times(text, home, max(args.runs, 20), kind)
            med = line(title, edits, 16, "ms", baseline=parse)
            print(f"{'':44}{med / full:5.2f} x (d), {replayed} subtrees replayed after the edit")
    return 0


def edit_times(text: str, home: str, edits: int, kind: str = "count") -> tuple[list[float], int]:
    """CPU time of each edit of the first Intercessor Squad with the session's evaluation
    after it, and how many subtrees the last one replayed. ``kind``: ``count`` (one higher,
    then back, each timed); ``remove`` or ``duplicate`` (the squad removed, or a copy put
    after it, shifting the units after it; each undone untimed)."""
    path = Path(home) / "space-marines.yaml"
    path.write_text(text, encoding="utf-8")
    os.environ["ARMYBUILDER_STATE_DIR"] = home  # (journals out of the player's lists)
    s = EditSession.open(path, Library([BSDATA]).scan(), autosave=False)
    ev = s.evaluate()
    squad = next(n for n in ev.root.children if ev.name(n) == "Intercessor Squad")
    times: list[float] = []
    hits = 0
    for i in range(edits + 2):
        gc.collect()
        t0 = time.process_time()
        if kind == "count":
            s.set_count(squad.loc, squad.count + 1 if i % 2 == 0 else squad.count)
        elif kind == "remove":
            s.remove(squad.loc)
        else:
            s.duplicate(squad.loc)
        ev = s.evaluate()
        if i >= 2:  # (the first two fill the memo both ways)
            times.append(time.process_time() - t0)
        hits = ev.memo_out.hits if ev.memo_out is not None else 0
        if kind != "count":
            s.undo()
            s.evaluate()
    return times, hits


if __name__ == "__main__":
    sys.exit(main())
