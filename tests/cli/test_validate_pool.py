"""`armybuilder validate` over many files: the process pool prints what a serial run prints.

The pool (armybuilder/batch.py) checks files in worker processes and prints each report in the
order the files were given; its text and JSON output must be byte for byte the serial run's, with
the same exit code, over the bundled examples, a generated corpus of legal and illegal rosters
(the benchmark's generator) and files that cannot be read. Ctrl-C stops it without a traceback.
A warm start (catalogs from the library snapshot, no pydantic) prints what a cold one prints.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bench_rosters import bench_module

from armybuilder import batch
from armybuilder.catalog import Library

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").rglob("*.yaml"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("corpus")
    generated = bench_module().generate(folder, 16, 17)
    varied = [p for p in generated.files if p != generated.regiment]
    broken = folder / "broken.yaml"
    broken.write_text("system: infantry-ops\nfaction: [unclosed\n", encoding="utf-8")
    stranger = folder / "stranger.yaml"
    stranger.write_text("system: no-such-game\nfaction: x\nname: X\n", encoding="utf-8")
    files = [*EXAMPLES, *varied, broken, stranger, folder / "missing.yaml", *EXAMPLES[:3]]
    assert sum(1 for p in varied if not generated.expected_legal[p]) >= 3  # illegal ones too
    return [str(p) for p in files]


def _run(*args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        **extra_env,
    }
    return subprocess.run(
        [sys.executable, "-m", "armybuilder", "validate", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=300,
    )


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_pool_output_is_the_serial_output(corpus: list[str], fmt: str) -> None:
    extra = ["--strict"] if fmt == "text" else []  # warnings count as errors: more verdicts
    serial = _run("--format", fmt, *extra, "--jobs", "1", *corpus)
    pooled = _run("--format", fmt, *extra, "--jobs", "2", *corpus)
    assert serial.returncode == pooled.returncode == 2  # an unreadable file is in the list
    assert "Traceback" not in serial.stderr + pooled.stderr
    assert pooled.stdout == serial.stdout
    assert pooled.stderr == serial.stderr
    # what was compared is a real report: every file, the illegal and unreadable ones included
    if fmt == "text":
        assert serial.stdout.count(": unreadable\n") == 3  # syntax, unknown system, missing
        assert "NOT LEGAL" in serial.stdout
        assert "no-such-game" in serial.stdout
        assert serial.stdout.rstrip().endswith("rosters legal")
    else:
        assert f'"files": {len(corpus)}' in serial.stdout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_warm_start_prints_what_a_cold_one_prints(
    corpus: list[str], fmt: str, tmp_path: Path
) -> None:
    # Cold: every catalog checked by pydantic; warm: the catalogs read from the library
    # snapshot as plain objects (armybuilder/model/plain.py), no pydantic. The same verdicts,
    # messages, positions, totals and values, byte for byte (issue 17).
    cache = {"ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache")}
    cold = _run("--format", fmt, "--jobs", "1", *corpus, ARMYBUILDER_NO_CACHE="1")
    _run("--quiet", corpus[0], **cache)  # writes the snapshot
    assert list((tmp_path / "cache" / "library").glob("*.pickle"))
    warm = _run("--format", fmt, "--jobs", "1", *corpus, **cache)
    assert "Traceback" not in cold.stderr + warm.stderr
    assert (warm.returncode, warm.stdout, warm.stderr) == (
        cold.returncode,
        cold.stdout,
        cold.stderr,
    )
    assert "NOT LEGAL" in cold.stdout if fmt == "text" else '"line"' in cold.stdout


def test_few_files_stay_serial() -> None:
    assert batch.pool_size(1) == 1
    assert batch.pool_size(1, jobs=8) == 1
    assert batch.pool_size(batch.MIN_FILES_PER_WORKER * 2 - 1, jobs=8) == 1
    assert batch.pool_size(1000, jobs=1) == 1
    assert batch.pool_size(batch.MIN_FILES_PER_WORKER * 2, jobs=8) == 2
    assert 1 <= batch.pool_size(1000) <= batch.usable_cpus()


def test_ctrl_c_stops_cleanly(corpus: list[str]) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    # Enough files that the run lasts well beyond the signal, even on an idle machine with the
    # fast loader (1,500 files once finished within the test's 0.2 s on a busy one).
    proc = subprocess.Popen(
        [sys.executable, "-m", "armybuilder", "validate", "--jobs", "2", *(corpus * 300)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    assert proc.stdout is not None
    proc.stdout.readline()  # the pool is at work
    time.sleep(0.2)
    assert proc.poll() is None, "finished before the signal: the test needs more files"
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (err[-3000:], out[-500:])
    assert "Traceback" not in err
    assert "rosters legal" not in out  # stopped, not finished


def test_an_interrupt_dropped_by_python_still_stops_the_pool(corpus: list[str]) -> None:
    """Python prints and drops a KeyboardInterrupt raised while a finalizer runs; the pool
    remembers the Ctrl-C and stops at the next report (CI once saw a Ctrl-C run to the end)."""
    before = signal.getsignal(signal.SIGINT)  # (ignored in a pytest-xdist worker)
    lib = Library().scan()
    files = corpus * 4
    assert batch.pool_size(len(files), jobs=2) == 2
    got = batch.reports(lib, files, batch.Options(), jobs=2)
    next(got)
    handler = signal.getsignal(signal.SIGINT)
    assert callable(handler) and handler is not signal.default_int_handler
    with contextlib.suppress(KeyboardInterrupt):  # dropped, as in a finalizer
        handler(signal.SIGINT, None)
    with pytest.raises(KeyboardInterrupt):
        next(got)
    assert signal.getsignal(signal.SIGINT) == before  # put back
