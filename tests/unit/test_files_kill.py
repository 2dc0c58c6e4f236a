"""A process killed (SIGKILL) at random moments while it edits and saves a roster leaves the
roster whole, a whole backup, no stray temporary file after the next save, and a journal
that recovers exactly the last edit it recorded (issue 14, item 5; docs/files.md).

The editing process is a fork of the test (the catalogs are already loaded, so it starts at
once); it edits and saves in a loop, reporting each finished step through a pipe, until it
is killed. The same steps are replayed in the test to know every state the roster went
through."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import regiment_roster

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.session import EditSession, find_recovery

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"
ROUNDS = 12
EDITS_PER_SAVE = 3
STEPS = 60

START = (
    "\ufeff# A patrol, hand-written\r\n---\r\n"
    "format: 1\r\nsystem: demo-wars\r\nfaction: red-army\r\nname: Patrol\r\n"
    "selections:\r\n  # the captain\r\n  - entry: captain  # leads\r\n"
    "  - entry: squad\r\n    notes: 2024-05-01\r\n"
)

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "kill-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


def step(session: EditSession, k: int) -> None:
    """Edit number ``k`` (1-based): a mix of the edits a player makes."""
    kind = k % 5
    if kind == 0:
        session.rename(("selections", 0), f"Captain {k}")
    elif kind == 1:
        session.set_count(("selections", 1), k % 4 + 2)
    elif kind == 2:
        session.duplicate(("selections", 1))  # carries the date in its notes
    elif kind == 3:
        session.set_state(("selections", 0), f"since: 2024-05-{k % 28 + 1:02d}, actions: {k}")
    else:
        session.remove(("selections", len(session.roster.selections) - 1))


def run_steps(session: EditSession, report: Callable[[str], None]) -> None:
    for k in range(1, STEPS + 1):
        step(session, k)
        report(f"e{k}")
        if k % EDITS_PER_SAVE == 0:
            session.save()
            report(f"s{k}")


def expected(lib: Library, folder: Path) -> tuple[list[str], dict[int, bytes]]:
    """The text of the roster after each step, and the file after each save."""
    folder.mkdir()
    path = folder / "r.yaml"
    path.write_bytes(START.encode("utf-8"))
    session = EditSession.open(path, lib, autosave=False)
    states = [session.roster.dumps()]
    saved = {0: path.read_bytes()}

    def report(event: str) -> None:
        if event.startswith("e"):
            states.append(session.roster.dumps())
        else:
            saved[int(event[1:])] = path.read_bytes()

    run_steps(session, report)
    return states, saved


def test_killed_while_editing_and_saving(lib: Library, tmp_path: Path) -> None:
    # How long the whole loop takes here (the reference run): kills are spread over it.
    t0 = time.perf_counter()
    states, saved = expected(lib, tmp_path / "expected")
    span = time.perf_counter() - t0
    rng = random.Random(14)
    for round_ in range(ROUNDS):
        folder = tmp_path / f"round{round_}"
        folder.mkdir()
        path = folder / "r.yaml"
        path.write_bytes(START.encode("utf-8"))
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the editing process
            os.close(read)
            try:
                session = EditSession.open(path, lib)
                os.write(write, b"ready\n")
                run_steps(session, lambda event, fd=write: os.write(fd, event.encode() + b"\n"))
                time.sleep(60)
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            assert pipe.readline() == b"ready\n"
            # one kill in each of ROUNDS equal slices of the loop: spread over all of it
            time.sleep(span * (round_ + rng.random()) / ROUNDS)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            events = pipe.read().decode().split()
        edits = max([int(e[1:]) for e in events if e.startswith("e")], default=0)
        last_save = max([int(e[1:]) for e in events if e.startswith("s")], default=0)
        next_save = (edits // EDITS_PER_SAVE) * EDITS_PER_SAVE
        where = f"round {round_}: killed after {edits} edits, last save at {last_save}"
        # the roster is one whole version: the last saved, or the one being saved
        data = path.read_bytes()
        assert data in (saved[last_save], saved.get(next_save)), where
        # the backup is one whole earlier version
        bak = path.with_name("r.yaml.bak")
        if bak.exists():
            assert bak.read_bytes() in saved.values(), where
        # recovery gives the last edit journaled: the last reported, or the one in flight
        info = find_recovery(path)
        on_disk = saved[last_save] if data == saved[last_save] else saved[next_save]
        if info is None:
            text = on_disk.decode("utf-8-sig")
            assert text in (states[edits], states[min(edits + 1, STEPS)]), where
            Roster.from_file(path).save()
        else:
            recovered = EditSession.recover(info, lib, autosave=False)
            got = recovered.roster.dumps()
            assert got in (states[edits], states[min(edits + 1, STEPS)]), where
            # and it saves over the file (unchanged since the journal began, or the save
            # that was cut short: then the user is asked, as for any other change)
            recovered.save(overwrite=True)
        # the next save leaves no temporary file behind
        assert [p.name for p in folder.glob(".*.tmp")] == [], where


# ------------------------------------------------------- a large roster on the fast paths
#
# The regiment of the benchmarks is a plain file (no comment below its opening lines): the
# builder reads it with the fast round-trip loader (libyaml's events, yamlio.py), lazily (the
# document built in a worker thread), and takes its merge base from the record of texts that
# are their own base (ownform.py), which the killed process also appends to. Killed at any
# moment, the roster is the last saved version or the one being saved, never a mix; the
# record, torn or not, never changes what a later save writes. Every other round is killed
# within a write (on a slow disk: see _SlowDisk), the moment a write in place would tear the
# file (this test fails when atomic_write writes the roster in place).

BIG_ROUNDS = 4
BIG_STEPS = 8
BIG_EVERY = 2


def _big_steps(session: EditSession, report: Callable[[str], None]) -> None:
    for k in range(1, BIG_STEPS + 1):
        step(session, k)
        report(f"e{k}")
        if k % BIG_EVERY == 0:
            session.save()
            report(f"s{k}")


def _big_text() -> str:
    # One company (about 30 KB: four 8 KiB writes on the slow disk, 80 ms a save) spreads the
    # kills over the saves and within a write as well as two did, for half the CPU.
    return regiment_roster(companies=1)


class _SlowDisk:
    """A disk that takes :attr:`DELAY` seconds per 8 KiB written to the roster's files
    (``r.yaml``: the temporary file a save writes, and its backup), in the editing process
    only: so that the moments a kill can tear a file last long enough to be hit. Each write
    of a new version of the roster is reported (``w``) through ``report`` as it begins."""

    DELAY = 0.02

    def __init__(self, report: Callable[[str], None] | None = None) -> None:
        self.report = report
        self.real = os.fdopen

    def fdopen(self, fd: int, *args: Any, **kw: Any) -> Any:
        fh = self.real(fd, *args, **kw)
        try:
            name = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return fh
        if "r.yaml" not in Path(name).name:
            return fh
        disk, write = self, fh.write
        is_save = ".bak." not in Path(name).name

        def slow(data: bytes) -> int:
            if is_save and disk.report is not None:
                disk.report("w")
            for i in range(0, len(data), 8192):
                write(data[i : i + 8192])
                fh.flush()
                time.sleep(disk.DELAY)
            return len(data)

        fh.write = slow
        return fh

    def __enter__(self) -> _SlowDisk:
        os.fdopen = self.fdopen  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        os.fdopen = self.real


def _reference(lib: Library, folder: Path, text: str, ruamel: bool = True) -> dict[int, bytes]:
    """The file after each save, without the record (``ruamel``: by ruamel's own loader,
    eagerly; else as the builder opens it, on the slow disk)."""
    from armybuilder import yamlio

    folder.mkdir()
    path = folder / "r.yaml"
    path.write_bytes(text.encode("utf-8"))
    saved = {0: path.read_bytes()}
    fast, os.environ["ARMYBUILDER_NO_CACHE"] = yamlio.ROUND_TRIP_FAST, "1"
    yamlio.ROUND_TRIP_FAST = not ruamel
    try:
        with _SlowDisk() if not ruamel else contextlib.nullcontext():
            session = EditSession.open(path, lib, lazy=not ruamel, autosave=False)

            def report(event: str) -> None:
                if event.startswith("s"):
                    saved[int(event[1:])] = path.read_bytes()

            _big_steps(session, report)
            session.close()
    finally:
        yamlio.ROUND_TRIP_FAST = fast
        del os.environ["ARMYBUILDER_NO_CACHE"]
    return saved


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd")
def test_killed_while_saving_a_large_plain_roster(lib: Library, tmp_path: Path) -> None:
    from armybuilder import yamlio

    text = _big_text()
    assert yamlio._load_round_trip_fast(text, "r.yaml") is not yamlio._DECLINED
    saved = _reference(lib, tmp_path / "expected", text)
    assert len(set(saved.values())) == len(saved)  # every save wrote something new
    t0 = time.perf_counter()
    assert _reference(lib, tmp_path / "timing", text, ruamel=False) == saved
    span = time.perf_counter() - t0  # (the child's way: kills are spread over its steps)
    writing = (len(text) // 8192 + 1) * _SlowDisk.DELAY  # how long one write of it lasts
    rng = random.Random(17)
    torn_window = 0
    for round_ in range(BIG_ROUNDS):
        folder = tmp_path / f"big{round_}"
        folder.mkdir()
        path = folder / "r.yaml"
        path.write_bytes(text.encode("utf-8"))
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the editing process: the builder's way of opening (lazy, fast, record)
            os.close(read)
            try:

                def report(event: str, fd: int = write) -> None:
                    os.write(fd, event.encode() + b"\n")

                with _SlowDisk(report):
                    session = EditSession.open(path, lib)
                    report("ready")
                    _big_steps(session, report)
                time.sleep(60)
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            assert pipe.readline() == b"ready\n"
            read_so_far: list[str] = []
            if round_ % 2 == 0:
                # killed while a save writes: after the n-th write began, within it
                target = rng.randint(1, BIG_STEPS // BIG_EVERY)
                seen = 0
                while seen < target:
                    line = pipe.readline()
                    assert line, "the editing process ended before its saves"
                    read_so_far.append(line.decode().strip())
                    seen += line == b"w\n"
                time.sleep(rng.uniform(0, writing))
                torn_window += 1
            else:
                time.sleep(rng.uniform(0, span))
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            events = read_so_far + pipe.read().decode().split()
        edits = max([int(e[1:]) for e in events if e[0] == "e"], default=0)
        last_save = max([int(e[1:]) for e in events if e[0] == "s"], default=0)
        next_save = min(BIG_STEPS, (edits // BIG_EVERY + 1) * BIG_EVERY)
        where = f"round {round_}: killed after {edits} edits, last save at {last_save}"
        data = path.read_bytes()
        assert data in (saved[last_save], saved[next_save]), where
        bak = path.with_name("r.yaml.bak")
        if bak.exists():
            assert bak.read_bytes() in saved.values(), where
        # Opened again (the record as the killed process left it) and saved after an edit:
        # the bytes saved without the record.
        again = EditSession.open(path, lib, autosave=False)
        again.rename(("selections", 0), "After the crash")
        again.save(overwrite=True)
        again.close()
        check = folder / "check.yaml"
        check.write_bytes(data)
        os.environ["ARMYBUILDER_NO_CACHE"] = "1"
        try:
            ref = EditSession.open(check, lib, lazy=False, autosave=False)
            ref.rename(("selections", 0), "After the crash")
            ref.save()
            ref.close()
        finally:
            del os.environ["ARMYBUILDER_NO_CACHE"]
        assert path.read_bytes() == check.read_bytes(), where
        assert [p.name for p in folder.glob(".*.tmp")] == [], where
    assert torn_window >= BIG_ROUNDS // 2
