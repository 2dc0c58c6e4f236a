"""CPU time of an edit in an edit session, per example roster: what the builder pays per
keystroke that changes a roster (the edit itself plus the evaluation, which replays the
parts the edit did not touch where the rules module allows it).

    PYTHONPATH=. python benchmarks/bench_replay.py [--edits N] [ROSTER ...]

Without rosters: the largest example of each game system (by file size) and, where it is
not the same, its largest roster of several forces.
Each edit sets the count of the first selection under the first top-level selection to 2
and back (each change timed with its evaluation, ``time.process_time``), after
``gc.collect()``; prints the median and the minimum in ms, and how many subtrees the last
evaluation replayed.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import tempfile
import time
from pathlib import Path

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.session import EditSession

#: The examples are read from this checkout; the code is whatever ``armybuilder`` imports
#: (``PYTHONPATH=TREE`` measures another tree on the same rosters).
REPO = Path(__file__).resolve().parents[1]


def default_rosters() -> list[Path]:
    out: list[Path] = []
    for folder in sorted((REPO / "examples").iterdir()):
        files = sorted(folder.glob("*.yaml"), key=lambda p: -p.stat().st_size)
        if not files:
            continue
        out.append(files[0])
        several = [p for p in files if Roster.from_file(p, round_trip=False).forces is not None]
        if several and several[0] != files[0]:
            out.append(several[0])
    return out


def measure(path: Path, library: Library, edits: int) -> tuple[float, float, int]:
    s = EditSession.open(path, library, autosave=False)
    s.evaluate()
    top = s.roster.walk()
    locs = [sel.loc for sel in top]
    target = locs[1] if len(locs) > 1 else locs[0]
    before = s.count_of(target)
    times: list[float] = []
    hits = 0
    for i in range(edits):
        gc.collect()
        t0 = time.process_time()
        s.set_count(target, 2 if i % 2 == 0 else before)
        ev = s.evaluate()
        times.append(time.process_time() - t0)
        hits = ev.memo_out.hits if ev.memo_out is not None else 0
    return statistics.median(times) * 1000, min(times) * 1000, hits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rosters", nargs="*", type=Path)
    ap.add_argument("--edits", type=int, default=40)
    args = ap.parse_args()
    library = Library().scan()
    # Journals and recent files of the rosters it edits stay out of the player's lists.
    with tempfile.TemporaryDirectory(prefix="armybuilder-bench-state-") as state:
        os.environ["ARMYBUILDER_STATE_DIR"] = state
        for path in args.rosters or default_rosters():
            median, low, hits = measure(path, library, args.edits)
            name = f"{path.parent.name}/{path.name}"
            print(f"{name:50} median {median:7.2f} ms  min {low:7.2f} ms  replayed {hits}")


if __name__ == "__main__":
    main()
