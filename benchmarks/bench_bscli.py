#!/usr/bin/env python3
"""``armybuilder validate --catalogs ../shared/bsdata ROSTER``: the command's CPU time, cold (an
empty cache folder) and warm (the cache a first command wrote), for a 40k Space Marines roster
(bench_bsdata.py's 15 units) and a Gaslands team; and, counted in process, what a second command
scans and checks again (data file heads looked at, catalog files read, systems checked).

Each run is a fresh process (``sys.executable -m armybuilder``), its CPU the children's user
+ system time (``resource.getrusage``). With ``--before TREE``, the same runs are made with
``PYTHONPATH=TREE`` too, interleaved (before, after, before, ...) so that both see the same load.
Run from the repository root::

    PYTHONPATH=$PWD python benchmarks/bench_bscli.py [--runs 5] [--cold-runs 3] [--before ../main]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BSDATA = ROOT.parent / "shared" / "bsdata"
GASLANDS = """format: 1
system: gaslands
faction: gaslands
name: Team
limits: {cans: 4}
selections:
  - entry: 7209-f619-ccee-874e   # Sponsor
    selections:
      - entry: 3057-1f8e-63b6-95e6
  - entry: b5d8-cf00-181a-b503   # Bike, 5 cans
"""


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run(tree: Path, cache: Path, roster: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "ARMYBUILDER_CACHE_DIR": str(cache)}
    env.pop("ARMYBUILDER_NO_CACHE", None)
    cmd = [sys.executable, "-m", "armybuilder", "validate", "--catalogs", str(BSDATA)]
    t0 = children_cpu()
    # (run from the roster's folder: ``-m`` puts the working folder first on sys.path)
    done = subprocess.run(
        [*cmd, str(roster)], env=env, cwd=roster.parent, capture_output=True, text=True
    )
    if done.returncode not in (0, 1) or "Traceback" in done.stderr:
        raise SystemExit(f"{tree}: {done.stderr}")
    return children_cpu() - t0


def rosters(scratch: Path) -> dict[str, Path]:
    """The two rosters (the 40k one made as bench_bsdata.py makes it)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_bsdata import load, roster_text

    os.environ["ARMYBUILDER_CACHE_DIR"] = str(scratch / "make")
    out = {"40k Space Marines": scratch / "sm.yaml", "Gaslands": scratch / "gl.yaml"}
    out["40k Space Marines"].write_text(roster_text(load(True)), encoding="utf-8")
    out["Gaslands"].write_text(GASLANDS, encoding="utf-8")
    return out


def counts() -> None:
    """What a second library on the same roots scans and checks (in this process)."""
    import argparse as ap

    from armybuilder.catalog import library as catalog_library
    from armybuilder.cli.common import library_for
    from armybuilder.interop.battlescribe import library as bs_library

    seen = {"data file heads": 0, "catalog files read": 0, "systems checked": 0}
    heads, read, check = (
        bs_library._Heads.head,
        catalog_library.load_catalog_file,
        catalog_library.Library._check_system,
    )

    def count(name: str, fn):  # type: ignore[no-untyped-def]
        def wrapped(*a, **k):  # type: ignore[no-untyped-def]
            seen[name] += 1
            return fn(*a, **k)

        return wrapped

    bs_library._Heads.head = count("data file heads", heads)  # type: ignore[method-assign]
    catalog_library.load_catalog_file = count("catalog files read", read)
    catalog_library.Library._check_system = count("systems checked", check)  # type: ignore[method-assign]
    args = ap.Namespace(catalogs=[str(BSDATA)])
    for label in ("first command", "second command"):
        for k in seen:
            seen[k] = 0
        library_for(args)
        print(f"{label:<16}" + ", ".join(f"{k}: {v}" for k, v in seen.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="warm runs of each (default 5)")
    parser.add_argument("--cold-runs", type=int, default=3, help="cold runs (default 3)")
    parser.add_argument("--before", type=Path, help="another tree, measured interleaved")
    opts = parser.parse_args()
    trees = {"after": ROOT}
    if opts.before:
        trees = {"before": opts.before.resolve(), "after": ROOT}
    print(f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        os.environ["ARMYBUILDER_CACHE_DIR"] = str(scratch / "counts")
        counts()
        for label, roster in rosters(scratch).items():
            cold: dict[str, list[float]] = {t: [] for t in trees}
            warm: dict[str, list[float]] = {t: [] for t in trees}
            for i in range(opts.cold_runs):
                for name, tree in trees.items():
                    cold[name].append(run(tree, scratch / f"cold-{name}-{label}-{i}", roster))
            for name, tree in trees.items():  # (the first writes the warm runs' cache)
                run(tree, scratch / f"warm-{name}-{label}", roster)
            for _ in range(opts.runs):
                for name, tree in trees.items():
                    warm[name].append(run(tree, scratch / f"warm-{name}-{label}", roster))
            for name in trees:
                for kind, runs in (("cold", cold[name]), ("warm", warm[name])):
                    print(
                        f"{label:<18} {name:<7} {kind}  median {statistics.median(runs):6.2f} s CPU"
                        f"  (min {min(runs):.2f}, max {max(runs):.2f}, n={len(runs)})"
                    )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
