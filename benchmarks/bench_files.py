#!/usr/bin/env python3
"""What keeping the user's own text costs when a roster is opened and saved (docs/files.md).

Measures, on the 75-platoon regiment of ``bench_validate.py`` (as armybuilder writes it, and
hand-formatted: a comment on every tenth line, a comment block above ``---``):

a. opening for editing: the round-trip load alone (the baseline) and with
   ``Roster.prepare_merge_base`` (what ``EditSession.open`` does);
b. the text of one edit: ruamel.yaml's dump alone (the baseline, which drops what it cannot
   keep) and ``Roster.dumps`` (the dump merged with the user's lines, and checked);
c. a whole save (``Roster.save``: conflict check, merge, atomic write with a backup).

Run from the repository root::

    python benchmarks/bench_files.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_validate import regiment_roster  # noqa: E402

from armybuilder.rosters import Roster  # noqa: E402
from armybuilder.yamlio import dump_round_trip, load_round_trip  # noqa: E402


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``repeat`` runs."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(1000 * (time.perf_counter() - t0))
    return statistics.median(runs)


def hand_formatted(text: str) -> str:
    lines = text.splitlines(keepends=True)
    out = ["# Regiment, kept by hand\n", "# (a comment block above the document marker)\n", "---\n"]
    for i, line in enumerate(lines):
        if i % 10 == 5 and not line.strip().startswith("#"):
            line = line.rstrip("\n") + "   # checked\n"
        out.append(line)
    return "".join(out)


def measure(label: str, text: str, repeat: int) -> None:
    size = len(text.encode()) / 1024
    print(f"\n{label} ({size:.0f} KiB, {text.count(chr(10))} lines)")
    load = timed(lambda: load_round_trip(text, "r.yaml"), repeat)

    def open_for_editing() -> Roster:
        roster = Roster.from_text(text, "r.yaml")
        roster.prepare_merge_base()
        return roster

    opened = timed(open_for_editing, repeat)
    print(f"a. open: round-trip load {load:.0f} ms (baseline); with merge base {opened:.0f} ms")

    def edited() -> Roster:
        roster = open_for_editing()
        roster.set(("selections", 0), "name", "Renamed")
        return roster

    samples = [edited() for _ in range(repeat)]
    plain = timed(lambda: dump_round_trip(samples[0].doc), repeat)
    merged = statistics.median(
        [1000 * _time(lambda r=r: r.dumps()) for r in samples]  # type: ignore[misc]
    )
    kept = "# checked" not in text or samples[0].dumps().count("# checked") == text.count(
        "# checked"
    )
    print(
        f"b. one edit's text: ruamel dump {plain:.0f} ms (baseline); kept the user's text "
        f"{merged:.0f} ms (every comment kept: {kept})"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.yaml"
        path.write_text(text, encoding="utf-8")
        saves = []
        for _ in range(repeat):
            roster = Roster.from_file(path)
            roster.prepare_merge_base()
            roster.set(("selections", 0), "name", "Renamed")
            saves.append(1000 * _time(roster.save))
        print(f"c. save (check, merge, atomic write, backup): {statistics.median(saves):.0f} ms")


def _time(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    text = regiment_roster()
    measure("The regiment as armybuilder writes it", text, args.repeat)
    measure("The regiment formatted by hand", hand_formatted(text), args.repeat)


if __name__ == "__main__":
    main()
