"""The validation benchmark's parse yardstick (benchmarks/bench_validate.py, benchmarks/README.md,
2026-11-27): the bare C YAML parse is measured in a fresh interpreter that has none of
armybuilder loaded (so it no longer pays full collections of the benchmark's own heap), with
the varied rosters and the regiment timed apart, so that a figure of the regiment alone is set
against the parse per file of the default corpus whatever ``--rosters`` was; every ratio is
printed with its range over the yardstick's samples."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import bench_module


def test_the_parse_is_measured_in_a_fresh_process_of_its_own(tmp_path: Path) -> None:
    bench = bench_module()
    corpus = bench.generate(tmp_path / "corpus", 4, 20240601)
    yard = bench.ParseYardstick(4)
    env = {**os.environ, "PYTHONPATH": ""}
    bench.probe_parse(yard, corpus, env, 2)
    bench.probe_parse(yard, corpus, env, 2)
    assert yard.probes == 2
    assert len(yard.roster_s) == len(yard.regiment_s) == 4
    assert all(s > 0 for s in yard.roster_s + yard.regiment_s)
    # the benchmark's process has armybuilder and its catalogs loaded; the probe's must not
    assert "armybuilder" in sys.modules
    figures = bench.yardstick_figures(yard, corpus)
    assert figures["parse_passes"] == 4
    assert figures["parse_ms_per_file_min"] <= figures["parse_ms_per_file"]
    assert figures["parse_ms_per_file"] <= figures["parse_ms_per_file_max"]


def test_a_probe_that_loads_armybuilder_is_refused(tmp_path: Path) -> None:
    bench = bench_module()
    corpus = bench.generate(tmp_path / "corpus", 2, 20240601)
    # a sitecustomize that imports armybuilder, as a stray start-up hook could
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text("import armybuilder\n", encoding="utf-8")
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), str(repo)])}
    with pytest.raises(RuntimeError, match="imported armybuilder"):
        bench.probe_parse(bench.ParseYardstick(2), corpus, env, 1)


def test_the_default_corpus_weighs_the_regiment_as_one_file_of_301() -> None:
    bench = bench_module()
    # 10 varied rosters parsed in 20 ms (2 ms each), the regiment in 200 ms
    yard = bench.ParseYardstick(10, roster_s=[0.020, 0.030], regiment_s=[0.200, 0.250])
    assert yard.per_file_ms() == pytest.approx([220 / 11, 280 / 11])
    assert yard.per_file_ms(300) == pytest.approx([(600 + 200) / 301, (900 + 250) / 301])


def _results(**over: float) -> dict[str, Any]:
    r: dict[str, Any] = {
        "parse_ms_per_file": 6.0,
        "parse_ms_per_file_min": 5.0,
        "parse_ms_per_file_max": 8.0,
        "parse_files_per_s": 1000 / 6.0,
        "parse_default_ms_per_file": 4.0,
        "parse_default_ms_per_file_min": 3.2,
        "parse_default_ms_per_file_max": 5.0,
        "python_startup_s": 0.020,
        "python_startup_min_s": 0.016,
        "python_startup_max_s": 0.025,
        "cli_rosters_per_cpu_s": 100.0,
        "cli_rosters_per_wall_s": 150.0,
        "inproc_load_ms_per_roster": 1.5,
        "inproc_eval_ms_per_roster": 1.5,
        "inproc_cold_load_ms_per_roster": 2.0,
        "inproc_cold_eval_ms_per_roster": 4.0,
        "cli_startup_s": 0.200,
        "reval_median_ms": 40.0,
        "reval_p95_ms": 90.0,
        "reval_settled_median_ms": 38.0,
        "reval_settled_p95_ms": 50.0,
        "session_add_ms": 2.0,
        "session_rename_ms": 1.8,
        "regiment_load_lazy_ms": 40.0,
        "session_open_lazy_ms": 200.0,
        "regiment_lazy_first_edit_ms": 1500.0,
        "regiment_load_round_trip_ms": 1200.0,
    }
    r.update(over)
    return r


def test_each_ratio_uses_its_yardstick_and_shows_its_range() -> None:
    bench = bench_module()
    table = bench.targets_table(_results())
    row = {x.strip().split("  ")[0]: x for x in table.splitlines()[2:]}
    # the corpus's figures: over this corpus's parse, 6 ms (5-8)
    assert "1.00 (0.75-1.20)" in row["the same, each roster's first pass"]
    assert "0.50 (0.38-0.60)" in row["load + evaluate per roster"]
    # a rate: 100/s over 166.7/s, at the parse's extremes 100 x 5 / 1000 and 100 x 8 / 1000
    assert "0.60 (0.50-0.80)" in row["validate of the corpus, CLI"]
    # the regiment's: over the default corpus's parse, 4 ms (3.2-5), not this corpus's 6 ms
    assert "10.00 (8.00-12.50)" in row["regiment full evaluation, median"]
    assert "parse 4.00 ms (301 files)" in row["regiment full evaluation, median"]
    assert "0.50 (0.40-0.62)" in row["edit in an edit session (add + evaluate)"]
    # start-up over python -c pass, 20 ms (16-25)
    assert "10.00 (8.00-12.50)" in row["CLI start, validate 1 small roster"]
    assert "10.00 met" in row["regiment full evaluation, median"]
    assert "NOT met" in row["the same, each roster's first pass"]


def test_a_json_file_of_an_earlier_version_still_prints() -> None:
    bench = bench_module()
    old = _results()
    for key in [k for k in old if k.startswith("parse_default") or k.endswith(("_min", "_max"))]:
        del old[key]
    for key in ("python_startup_min_s", "python_startup_max_s"):
        del old[key]
    table = bench.targets_table(old)
    row = {x.strip().split("  ")[0]: x for x in table.splitlines()[2:]}
    assert "6.67 (6.67-6.67)" in row["regiment full evaluation, median"]
