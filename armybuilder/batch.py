"""``armybuilder validate`` of many files: one roster after another, or over a process pool.

A tournament organiser validates a folder of lists in one command. Each file is loaded with the
fast (C) loader, evaluated and reported on its own, so files can be checked in parallel: with
enough files and more than one CPU free, a pool of worker processes (forked from this one, so
they share the catalogs already loaded) checks them and this process prints each file's report
in the order the files were given. What is printed, text or ``--format json``, is byte for byte
what a serial run prints (a test compares them); the exit code is the same too.

One file, or a handful, stays serial: starting workers would cost more than it saves. So does a
machine whose CPUs are busy (load average at or above the CPUs this process may use), where more
processes only wait for each other, and ``--jobs 1``. Ctrl-C stops the workers and exits with
code 130, without a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .catalog import Library
from .errors import ArmybuilderError, InputError, Problem
from .report import format_costs, load_evaluated, roster_json, unreadable_json
from .rosters import Roster
from .rules.engine import Issue
from .words import plural

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT = 0, 1, 2

#: Fewest files per worker worth a process of its own (a fork and its first file's catalog
#: index cost about as much as checking a few small rosters).
MIN_FILES_PER_WORKER = 8
#: Files a worker takes at a time (fewer round trips; small enough to keep the order flowing).
CHUNK = 4


@dataclass(frozen=True)
class Options:
    """What ``validate`` was asked for (the parts that shape one file's report)."""

    format: str = "text"  # "text" or "json"
    strict: bool = False
    quiet: bool = False


@dataclass
class FileReport:
    """One file's verdict: the text printed for it, and its JSON record."""

    text: str
    record: dict[str, Any]
    exit_code: int  # EXIT_OK, EXIT_ILLEGAL or EXIT_INPUT


def issue_text(roster: Roster, issue: Issue) -> str:
    """``file:line:col: severity: message [code] (source)``; the position is worked out only
    here, for an issue that is printed."""
    line, col = roster.position(issue.path) if issue.path else (None, None)
    where = roster.file
    if line is not None:
        where += f":{line}:{col}" if col is not None else f":{line}"
    src = f" ({issue.source})" if issue.source else ""
    return f"{where}: {issue.severity}: {issue.message} [{issue.code}]{src}"


def check_file(lib: Library, file: str, opts: Options) -> FileReport:
    """Load, evaluate and report one roster file (never raises for bad input)."""
    text = opts.format == "text"
    try:
        # (the report prints issues and totals, never a computed value)
        roster, gs, ev = load_evaluated(lib, file, values=False)
    except InputError as exc:
        lines = [f"{p}" for p in exc.problems] + [f"{file}: unreadable"] if text else []
        return FileReport(_join(lines), unreadable_json(file, exc.problems), EXIT_INPUT)
    except ArmybuilderError as exc:
        problem = Problem(file, str(exc), None, None, "unknown-catalog")
        return FileReport(
            _join([f"{problem}"] if text else []), unreadable_json(file, [problem]), EXIT_INPUT
        )
    illegal = not ev.valid or (opts.strict and ev.warnings)
    code = EXIT_ILLEGAL if illegal else EXIT_OK
    if not text:
        return FileReport("", roster_json(file, roster, ev), code)
    issues = ev.issues if not opts.quiet else ev.errors
    lines = [issue_text(roster, issue) for issue in issues]
    verdict = "legal" if ev.valid else f"NOT LEGAL ({plural(len(ev.errors), 'error')})"
    if ev.warnings and ev.valid:
        verdict += f" ({plural(len(ev.warnings), 'warning')})"
    if ev.notes:
        verdict += f" ({plural(len(ev.notes), 'note')})"
    cost = format_costs(ev.index, ev.totals)
    lines.append(
        f"{file}: {verdict} — {roster.name} ({gs.name}, {ev.index.faction.name})"
        + (f"; {cost}" if cost else "")
    )
    return FileReport(_join(lines), {"valid": ev.valid, "readable": True}, code)


def _join(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


# --------------------------------------------------------------------------- the pool


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask, where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def pool_size(files: int, jobs: int | None = None) -> int:
    """Worker processes for ``files`` files: 1 means serial.

    ``jobs`` (``--jobs``) caps it; without it, the CPUs this process may use that are not busy
    already (by the one-minute load average), and never more than the files can keep busy.
    """
    if jobs is not None and jobs >= 1:
        workers = jobs
    else:
        cpus = usable_cpus()
        try:
            busy = os.getloadavg()[0]
        except (AttributeError, OSError):
            busy = 0.0
        # this process counts in the load average already: one CPU is always ours
        workers = max(1, min(cpus, int(cpus - busy + 1)))
    workers = min(workers, files // MIN_FILES_PER_WORKER)
    if workers <= 1:
        return 1
    import multiprocessing  # only now: a serial run does without it (start-up)

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1  # spawned workers would load the catalogs again: not worth it
    return workers


# The forked workers read these (set before the pool starts; copied into each worker).
_LIB: Library | None = None
_OPTS = Options()


def _worker_init() -> None:
    import signal

    # Ctrl-C goes to the whole process group: the parent stops the workers, they say nothing.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check_in_worker(file: str) -> FileReport:
    assert _LIB is not None
    return check_file(_LIB, file, _OPTS)


def reports(
    lib: Library, files: Sequence[str], opts: Options, jobs: int | None = None
) -> Iterator[FileReport]:
    """Each file's report, in the order of ``files``, from a pool when it pays."""
    workers = pool_size(len(files), jobs)
    if workers <= 1:
        for file in files:
            yield check_file(lib, file, opts)
        return
    import multiprocessing
    import signal
    import threading

    global _LIB, _OPTS
    _LIB, _OPTS = lib, opts
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(workers, initializer=_worker_init)
    # Ctrl-C is remembered as well as raised: Python prints and drops a KeyboardInterrupt
    # raised while a finalizer runs (``Exception ignored in ...``), and the run would go on to
    # the end; the flag stops it at the next report instead.
    interrupted: list[int] = []
    installed = threading.current_thread() is threading.main_thread()
    previous: Any = None
    if installed:

        def on_interrupt(signum: int, frame: Any) -> None:
            interrupted.append(signum)
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        for report in pool.imap(_check_in_worker, files, chunksize=CHUNK):
            if interrupted:
                raise KeyboardInterrupt
            yield report
            if interrupted:
                raise KeyboardInterrupt
        pool.close()
    except BaseException:
        pool.terminate()  # Ctrl-C, a closed pipe: stop the workers now
        raise
    finally:
        if installed:
            signal.signal(signal.SIGINT, previous)
        pool.join()
        _LIB = None


def validate(lib: Library, files: Sequence[str], opts: Options, jobs: int | None = None) -> int:
    """Print the reports of ``files`` as ``armybuilder validate`` does; the exit code."""
    out = sys.stdout
    records: list[dict[str, Any]] = []
    worst = EXIT_OK
    for report in reports(lib, files, opts, jobs):
        records.append(report.record)
        if report.exit_code == EXIT_INPUT or (report.exit_code and worst == EXIT_OK):
            worst = report.exit_code
        if report.text:
            out.write(report.text)
    if opts.format == "json":
        import json

        summary = {
            "files": len(records),
            "legal": sum(1 for r in records if r["valid"]),
            "illegal": sum(1 for r in records if r["readable"] and not r["valid"]),
            "unreadable": sum(1 for r in records if not r["readable"]),
        }
        json.dump({"rosters": records, "summary": summary}, out, indent=2, ensure_ascii=False)
        print(file=out)
    elif len(files) > 1:
        legal = sum(1 for r in records if r["valid"])
        print(f"{legal} of {len(records)} rosters legal", file=out)
    return worst
