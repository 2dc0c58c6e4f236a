"""A process killed (SIGKILL) while it writes a BattleScribe roster (``export --to ros`` or
``--to rosz``) leaves the file it replaces whole: the old version or the new one, never a
torn file; the temporary file it was writing is removed by the next write there (issue 18,
"files are sacred"; the YAML roster's save has the same in ``tests/unit/test_files_kill.py``).

The writing process is a fork of the test; its disk is made slow in the middle of each write
of the roster file (half the bytes, a pause, the rest), and each such moment is reported
through a pipe, so that a kill lands inside a write as often as between two."""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from armybuilder.cli import main

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
ROUNDS = 8
PAUSE = 0.05

ROSTER = """\
format: 1
system: gaslands
faction: gaslands
name: {name}
force: 60bf-0f00-db63-fb4e
selections:
  - entry: dcb1-8c0e-c647-a042
    notes: {notes}
  - entry: ebb5-bde6-e221-9acc
"""

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()"),
    pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd"),
    pytest.mark.skipif(
        not (BSDATA / "gaslands").is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
    ),
]


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "ros-kill-cache"))


def export(source: Path, target: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(
            [
                "export",
                str(source),
                "--to",
                target.suffix[1:],
                "-o",
                str(target),
                "--catalogs",
                str(BSDATA / "gaslands"),
            ]
        )
    assert code == 0, out.getvalue()


def content(path: Path) -> bytes:
    """The roster a file holds (a zipped one's single member: the archive's own bytes hold
    the time it was written)."""
    if path.suffix != ".rosz":
        return path.read_bytes()
    with zipfile.ZipFile(path) as zf:
        (member,) = zf.infolist()
        return zf.read(member)


def slow_disk(target: Path, report: Callable[[str], None]) -> None:
    """In this (the child) process: each write of a file named for ``target`` (its
    temporary file) writes half, says ``w``, pauses, then writes the rest."""
    real = os.fdopen

    def fdopen(fd: int, *args: Any, **kw: Any) -> Any:
        fh = real(fd, *args, **kw)
        with contextlib.suppress(OSError):
            if target.name in Path(os.readlink(f"/proc/self/fd/{fd}")).name:
                write = fh.write

                def slow(data: bytes) -> int:
                    half = len(data) // 2
                    write(data[:half])
                    fh.flush()
                    report("w")
                    time.sleep(PAUSE)
                    write(data[half:])
                    return len(data)

                fh.write = slow
        return fh

    os.fdopen = fdopen  # type: ignore[assignment]


@pytest.mark.parametrize("suffix", [".ros", ".rosz"])
def test_killed_while_writing_a_battlescribe_roster(tmp_path: Path, suffix: str) -> None:
    sources = []
    for name, notes in (("Team A", "short"), ("The second team", "x" * 3000)):
        path = tmp_path / f"{len(sources)}.yaml"
        path.write_text(ROSTER.format(name=name, notes=notes), encoding="utf-8")
        sources.append(path)
    versions = []
    for i, source in enumerate(sources):
        (tmp_path / f"expected{i}").mkdir()
        export(source, tmp_path / f"expected{i}" / f"team{suffix}")
        versions.append(content(tmp_path / f"expected{i}" / f"team{suffix}"))
    assert versions[0] != versions[1]
    rng = random.Random(18)
    torn = 0
    for round_ in range(ROUNDS):
        folder = tmp_path / f"round{round_}"
        folder.mkdir()
        target = folder / f"team{suffix}"
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the writing process: the two versions in turn, for ever
            os.close(read)
            try:

                def report(event: str, fd: int = write) -> None:
                    os.write(fd, event.encode() + b"\n")

                slow_disk(target, report)
                n = 0
                while True:
                    export(sources[n % 2], target)
                    report(f"d{n % 2}")
                    n += 1
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            writes = rng.randint(1, 4)
            events: list[str] = []
            while events.count("w") < writes:
                line = pipe.readline()
                assert line, "the writing process ended"
                events.append(line.decode().strip())
            if round_ % 2:
                time.sleep(rng.uniform(0, PAUSE))  # inside the write
                torn += 1
            else:
                time.sleep(rng.uniform(0, 0.5))  # anywhere
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            events += pipe.read().decode().split()
        where = f"round {round_}: killed after {events}"
        done = [e for e in events if e.startswith("d")]
        if target.exists():
            assert content(target) in versions, where  # whole: one version or the other
        else:
            assert not done, where
        # The next write there removes what the killed one left, and writes a whole file.
        export(sources[0], target)
        assert content(target) == versions[0], where
        assert sorted(p.name for p in folder.iterdir()) == [target.name], where
    assert torn == ROUNDS // 2
