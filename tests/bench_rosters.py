"""The benchmarks' rosters for tests, and what an evaluation shows, in one place.

* :func:`bench_module`: ``benchmarks/bench_validate.py`` loaded as the module ``bench_validate``
  (its ``regiment_roster``, ``random_roster``, ``generate``, ``sel``, ``roster_yaml``);
* :func:`regiment_roster`: the benchmark's Infantry Operations regiment, as YAML text;
* :func:`marines_40k_text`, :func:`marines_40k`: ``benchmarks/bench_bsdata.py``'s 2,000-point
  Space Marines roster (on the shared BattleScribe data, :data:`BSDATA`), as text or as a file
  with its library;
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

from armybuilder.catalog import Library
from armybuilder.rules.engine import Evaluation

REPO = Path(__file__).resolve().parents[1]
#: The shared BattleScribe data (beside the repository; tests that need it skip without it).
BSDATA = REPO.parent / "shared" / "bsdata"


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


def marines_40k_text(library: Library) -> str:
    """``benchmarks/bench_bsdata.py``'s roster (15 units, 1,910 points of the data's wargear)
    for the 40k game system of ``library``, as roster YAML."""
    bench = str(REPO / "benchmarks")
    sys.path.insert(0, bench)
    try:
        from bench_bsdata import roster_text
    finally:
        sys.path.remove(bench)
    return str(roster_text(library.system("wh40k-10e")))  # type: ignore[arg-type]


def marines_40k(
    folder: Path, library: Library | None = None, name: str = "space-marines.yaml"
) -> tuple[Path, Library]:
    """:func:`marines_40k_text` written to ``folder / name``, and the library it was made
    from (:data:`BSDATA` scanned, unless given)."""
    library = library if library is not None else Library([BSDATA]).scan()
    path = folder / name
    path.write_text(marines_40k_text(library), encoding="utf-8")
    return path, library


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
