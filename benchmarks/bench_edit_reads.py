#!/usr/bin/env python3
"""A 40k count +1, the engine's part: the savings of names and what-if prices kept by what
they read, against the same engine with them switched off, press by press in one process.

On the 1,910-point Space Marines roster of ``bench_bsdata.py`` (``../shared/bsdata``), each
round sets the Librarian's count to 2 and undoes it; after the count +1 it times (CPU,
``time.process_time``) what the builder asks the engine for on that press:

- ``evaluate``: ``EditSession.evaluate`` (with the names worked out once the evaluation is
  made, ``Evaluation._known_names``, where the savings are on);
- ``tree``: what the roster tree reads per line, twice (``unit_summary`` of every top-level
  selection, as ``RosterTree.sync`` works out a line's facts, then its label): each unit's
  name, its upgrades' names, its cost;
- ``prices``: the catalog's what-if prices of the unit's options
  (``EditSession.option_infos``, whose ``Evaluation.rise_with`` reads what each entry's cost
  modifiers count).

"Off" is this engine with the savings switched off: no names worked out by the evaluation
(each reader works a name out, as before), every whole-tree walk made (not only under the
selections that can hold what it looks for), and what the cost modifiers count worked out at
each price. The two alternate press by press (``on`` first in even rounds), so the load of the
machine weighs on both alike; each mode's timed press follows one untimed press and its undo
in that mode (the evaluation it takes over is of the same mode). Then, per count +1, the
deterministic counts of condition checks, counts, modifier applications and names asked for,
on and off.

    python benchmarks/bench_edit_reads.py [rounds]
"""

from __future__ import annotations

import collections
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_bsdata import BSDATA, roster_text  # noqa: E402

import armybuilder.rules.engine as E  # noqa: E402
from armybuilder.catalog import Library  # noqa: E402
from armybuilder.session import EditSession  # noqa: E402
from armybuilder.session.editor import unit_summary  # noqa: E402

ON = {
    "_known_names": E.Evaluation._known_names,
    "_walk_holding": E._walk_holding,
    "_cost_counts": E._cost_counts,
    "_cost_context": E._cost_context,
}


def _context_afresh(index: Any, entry: Any, fields: frozenset[str]) -> tuple[bool, bool]:
    index.memo("engine.cost_context").clear()
    return ON["_cost_context"](index, entry, fields)  # type: ignore[no-any-return]


OFF: dict[str, Callable[..., Any]] = {
    "_known_names": lambda self: None,
    "_walk_holding": lambda ev, what: ev.root.descendants(),
    "_cost_counts": lambda index, entry, fields: E._counted(entry, fields),
    "_cost_context": _context_afresh,
}


def switch(on: bool) -> None:
    for name, fn in (ON if on else OFF).items():
        if name == "_known_names":
            E.Evaluation._known_names = fn  # type: ignore[method-assign]
        else:
            setattr(E, name, fn)


def press(s: EditSession, loc: Any) -> tuple[float, float, float]:
    """The engine's part of one press, after the edit: CPU ms of each step."""
    t0 = time.process_time()
    ev = s.evaluate()
    t1 = time.process_time()
    for _ in range(2):
        for n in ev.root.children:
            unit_summary(ev, n)
    t2 = time.process_time()
    s.option_infos(loc, ev)
    t3 = time.process_time()
    return 1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2)


def counted(s: EditSession, loc: Any) -> dict[str, int]:
    """How many condition checks, counts, modifier applications and names one count +1 asks
    the engine for (evaluation, tree, prices)."""
    calls: collections.Counter[str] = collections.Counter()
    kept = {}
    for name in ("condition_holds", "query", "apply_modifiers", "name"):
        fn = getattr(E.Evaluation, name)
        kept[name] = fn

        def counting(*a: Any, _fn: Any = fn, _name: str = name, **k: Any) -> Any:
            calls[_name] += 1
            return _fn(*a, **k)

        setattr(E.Evaluation, name, counting)
    try:
        s.set_count(loc, 2)
        press(s, loc)
    finally:
        for name, fn in kept.items():
            setattr(E.Evaluation, name, fn)
        s.undo()
        s.evaluate()
    return dict(sorted(calls.items()))


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    if not (BSDATA / "wh40k-10e").is_dir():
        print(f"no 40k data at {BSDATA / 'wh40k-10e'}", file=sys.stderr)
        return 2
    os.environ.setdefault("ARMYBUILDER_HOME", tempfile.mkdtemp())
    library = Library([BSDATA]).scan()
    work = Path(tempfile.mkdtemp())
    path = work / "sm.yaml"
    path.write_text(roster_text(library.system("wh40k-10e")), encoding="utf-8")  # type: ignore[arg-type]
    s = EditSession.open(path, library, autosave=False)
    ev = s.evaluate()
    loc = next(
        n.loc for n in ev.root.children if n.entry is not None and n.entry.name == "Librarian"
    )
    times: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    for i in range(rounds):
        for on in (True, False) if i % 2 == 0 else (False, True):
            switch(on)
            s.set_count(loc, 2)  # (a first press in this mode: what the next one reads)
            press(s, loc)
            s.undo()
            press(s, loc)
            s.set_count(loc, 2)
            times[on].append(press(s, loc))
            s.undo()
            press(s, loc)
    med = statistics.median
    for on in (True, False):
        got = times[on]
        print(
            f"{'on ' if on else 'off'}  evaluate {med(t[0] for t in got):5.2f}  "
            f"tree {med(t[1] for t in got):5.2f}  prices {med(t[2] for t in got):5.2f}  "
            f"all three {med(sum(t) for t in got):5.2f} ms CPU (medians of {len(got)})"
        )
    for on in (True, False):
        switch(on)
        s.evaluate()
        print(f"{'on ' if on else 'off'}  per count +1: {counted(s, loc)}")
    switch(True)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
