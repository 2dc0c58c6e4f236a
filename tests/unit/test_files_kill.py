"""A process killed (SIGKILL) at random moments while it edits and saves a roster leaves the
roster whole, a whole backup, no stray temporary file after the next save, and a journal
that recovers exactly the last edit it recorded (issue 14, item 5; docs/files.md).

The editing process is a fork of the test (the catalogs are already loaded, so it starts at
once); it edits and saves in a loop, reporting each finished step through a pipe, until it
is killed. The same steps are replayed in the test to know every state the roster went
through."""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.session import EditSession, find_recovery

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"
ROUNDS = 30
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
    states, saved = expected(lib, tmp_path / "expected")
    # How long the whole loop takes here: kills are spread over it.
    t0 = time.perf_counter()
    expected(lib, tmp_path / "timing")
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
            time.sleep(rng.uniform(0, span))
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
