#!/usr/bin/env python3
"""The heap settled after a roster's first frame: how long the builder is held.

Once a roster shows, the builder collects the heap and freezes what is alive
(``armybuilder/tui/screens/editor.py``, ``settle_heap``), so that the collector's later passes
skip the catalogs. Keys pressed meanwhile wait. This opens the bench's 40k Space Marines roster
(``bench_bsdata.roster_text``, data from ``../shared/bsdata``) in the builder, headless at
160x48, in a fresh process per run, and times that one call two ways, the runs interleaved:

* ``builder``: ``settle_heap`` as the builder has it (the first roster of a process collects
  only what is not frozen yet);
* ``thaw first`` (the baseline, the way before 2026-11-28): everything thawed, then one full
  pass over the heap, the catalogs the BattleScribe reader froze included.

Run from the repository root (wall and CPU milliseconds, medians of ``--runs`` each)::

    python benchmarks/bench_settle.py --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BSDATA = ROOT.parent / "shared" / "bsdata"

#: One run, in a child process: open the roster, time the settle once the first frame is up.
_CHILD = r"""
import asyncio, gc, json, sys, time
from pathlib import Path

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens import editor

real = editor.settle_heap
out = []


def timed() -> None:
    objects = len(gc.get_objects())
    wall, cpu = time.perf_counter(), time.process_time()
    if sys.argv[2] == "thaw first":
        gc.unfreeze()
        gc.collect()
        gc.freeze()
    else:
        real()
    out.append({"wall_ms": 1000 * (time.perf_counter() - wall),
                "cpu_ms": 1000 * (time.process_time() - cpu),
                "unfrozen": objects, "frozen": gc.get_freeze_count()})


editor.settle_heap = timed


async def main() -> None:
    app = ArmyBuilderApp(Path(sys.argv[1]))
    async with app.run_test(size=(160, 48)) as pilot:
        for _ in range(1500):
            await pilot.pause(0.02)
            if out:
                break


asyncio.run(main())
print(json.dumps(out[0] if out else None))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not (BSDATA / "wh40k-10e").is_dir():
        print(f"skipped: no {BSDATA / 'wh40k-10e'} (the 40k data)")
        return 0
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT))
    from bench_bsdata import roster_text

    from armybuilder.catalog import Library

    env = dict(os.environ, ARMYBUILDER_CATALOGS=str(BSDATA))
    env.setdefault("PYTHONPATH", str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        env["ARMYBUILDER_HOME"] = str(Path(tmp) / "home")
        env["ARMYBUILDER_STATE_DIR"] = str(Path(tmp) / "state")
        env["ARMYBUILDER_CACHE_DIR"] = str(Path(tmp) / "cache")
        os.environ["ARMYBUILDER_CACHE_DIR"] = env["ARMYBUILDER_CACHE_DIR"]  # (written once)
        system = Library([BSDATA]).scan().system("wh40k-10e")
        path = Path(tmp) / "space-marines-40k.yaml"
        path.write_text(roster_text(system), encoding="utf-8")  # type: ignore[arg-type]
        ways = ("builder", "thaw first")
        got: dict[str, list[dict[str, float]]] = {way: [] for way in ways}
        for _ in range(args.runs):
            for way in ways:
                done = subprocess.run(
                    [sys.executable, "-c", _CHILD, str(path), way],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                result = json.loads(done.stdout.strip().splitlines()[-1])
                if result is None:
                    print(f"{way}: the roster never settled", file=sys.stderr)
                    return 1
                got[way].append(result)
    load = os.getloadavg()[0]
    print(f"settle_heap after the 40k roster's first frame, {args.runs} runs, load {load:.1f}")
    for way in ways:
        runs = got[way]
        wall = statistics.median(r["wall_ms"] for r in runs)
        cpu = statistics.median(r["cpu_ms"] for r in runs)
        unfrozen = statistics.median(r["unfrozen"] for r in runs)
        print(
            f"  {way:<11} wall {wall:7.1f} ms  cpu {cpu:7.1f} ms"
            f"  (objects not frozen before: {unfrozen:,.0f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
