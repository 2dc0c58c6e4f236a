"""The benchmarks' rosters for tests, and what an evaluation shows, in one place.

* :func:`bench_module`: ``benchmarks/bench_validate.py`` loaded as the module ``bench_validate``
  (its ``regiment_roster``, ``random_roster``, ``generate``, ``sel``, ``roster_yaml``);
* :func:`regiment_roster`: the benchmark's Infantry Operations regiment, as YAML text;
* :func:`evaluation_lines`: every issue (with its line and column), total, roster value,
  selection cost and value of an evaluation, one per line, to compare two ways of working
  a roster out.

Tests in any folder import it as ``from bench_rosters import bench_module`` (tests/ is on
``sys.path`` as the folder of tests/conftest.py, also when CI runs pytest from the
repository's root without PYTHONPATH), as they import ``screen`` or ``render_helpers``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from armybuilder.rules.engine import Evaluation

REPO = Path(__file__).resolve().parents[1]


def bench_module() -> ModuleType:
    """``benchmarks/bench_validate.py`` as the module ``bench_validate``, loaded once (kept
    in ``sys.modules``: its dataclasses look their module up)."""
    loaded = sys.modules.get("bench_validate")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(
        "bench_validate", REPO / "benchmarks" / "bench_validate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_validate"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["bench_validate"]
        raise
    return module


def regiment_roster(companies: int) -> str:
    """The benchmark's regiment (5 battalions) with ``companies`` companies of three platoons
    per battalion (one: 15 platoons; two: 30, about 60 KB), as roster YAML."""
    return str(bench_module().regiment_roster(companies=companies))


def evaluation_lines(ev: Evaluation) -> list[str]:
    """What ``ev`` shows a player, one fact a line: each issue with where it is (path, line
    and column), the totals, the roster's values, and each selection's breadcrumb, cost and
    values."""
    roster = ev.roster
    out = [
        f"I {i.severity}|{i.code}|{i.message}|{i.path}|{roster.position(i.path)}|{i.entry}|"
        f"{i.constraint}"
        for i in ev.issues
    ]
    out.append(f"T {ev.totals!r}")
    out += [f"R {v.key}|{v.value!r}|{v.text}" for v in ev.roster_values]
    for n in ev.nodes():
        out.append(f"N {n.loc} {ev.where(n)} {ev.total_cost(n)!r}")
        out += [f"V {v.key}|{v.value!r}|{v.text}" for v in ev.values_of(n)]
    return out
