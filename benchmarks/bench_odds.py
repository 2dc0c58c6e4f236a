"""The cost of the exact attack odds in an evaluation: the benchmark regiment (75 Infantry
Operations platoons, see README) evaluated with the odds values and with them switched off,
alternately in one process, so that both figures share the machine's load.

    python benchmarks/bench_odds.py [--runs N]

"Cold" is the first evaluation after the odds caches are emptied (a fresh process: the
distributions of each distinct attack value are computed once, then shared).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_validate  # noqa: E402

from armybuilder.catalog import Library  # noqa: E402
from armybuilder.rosters import Roster  # noqa: E402
from armybuilder.rules.engine import evaluate_roster  # noqa: E402
from armybuilder.rules.systems import infantry_ops, infantry_ops_odds  # noqa: E402

CACHES = (
    infantry_ops_odds.attack_value_odds,
    infantry_ops_odds.to_hit_value,
    infantry_ops_odds.damage,
    infantry_ops_odds._points,
    infantry_ops_odds._kernel,
    infantry_ops_odds.cluster_hits,
    infantry_ops_odds.columns,
)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "regiment.yaml"
        path.write_text(bench_validate.regiment_roster(), encoding="utf-8")
        roster = Roster.from_file(str(path), round_trip=False)
    gs = Library().system(roster.system)
    real = infantry_ops.InfantryOperations._odds

    def off(self: object, *a: object, **k: object) -> None:
        return None

    def run(odds: bool, cold: bool = False) -> float:
        infantry_ops.InfantryOperations._odds = real if odds else off  # type: ignore[method-assign]
        if cold:
            for c in CACHES:
                c.cache_clear()
        t = time.perf_counter()
        evaluate_roster(roster, gs)
        return time.perf_counter() - t

    run(True)
    warm: dict[bool, list[float]] = {True: [], False: []}
    cold: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(args.runs):
        for odds in (True, False):
            warm[odds].append(run(odds))
            cold[odds].append(run(odds, cold=True))
    infantry_ops.InfantryOperations._odds = real  # type: ignore[method-assign]

    def ms(xs: list[float]) -> str:
        return f"{statistics.median(xs) * 1000:7.1f} ms"

    print(f"regiment evaluate, median of {args.runs}   with odds   without   (same run)")
    print(f"  warm (odds cached)             {ms(warm[True])}  {ms(warm[False])}")
    print(f"  cold (odds caches emptied)     {ms(cold[True])}  {ms(cold[False])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
