#!/usr/bin/env python3
"""What the catalog's prices cost the session after an edit (issue 18, fifth session).

After each edit the builder's catalog shows the options of the selected selection, each with
its price: what the roster's total would rise by with it added. On the bench's 40k Space
Marines roster (``bench_bsdata.py``; needs ``../shared/bsdata``), per edit, it times
``EditSession.option_infos`` for every option of the selection edited under the new
evaluation (CPU ms, the session only: no Textual) and counts the copies of the roster's tree
(``Evaluation.rise_with``) it makes, beside the baseline measured in the same run: every option
priced on a copy of the tree (``rise_with`` with the cost fields, as an option some modifier
counts was priced before). The edits:

* ``add``: a unit of the roster's kind added to the force (the force's options), then undone;
* ``count``: +1 on that unit (its own options), then undone.

    python benchmarks/bench_prices.py [--repeats 12]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@contextmanager
def counted_rises() -> Iterator[list[int]]:
    """How many times ``Evaluation.rise_with`` runs meanwhile."""
    from armybuilder.rules.engine import Evaluation

    calls = [0]
    original = Evaluation.rise_with

    def counted(self: Evaluation, *args: Any, **kw: Any) -> dict[str, float]:
        calls[0] += 1
        return original(self, *args, **kw)

    Evaluation.rise_with = counted  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        Evaluation.rise_with = original  # type: ignore[method-assign]


def each_on_a_copy(s: Any, loc: Any) -> None:
    """The baseline: every option under ``loc`` priced on a copy of the tree."""
    from armybuilder.session.editor import _ev_node, _scratch_node

    ev = s.evaluate()
    node = _ev_node(ev, loc)
    fields = s._cost_fields()
    replaced = s._replaced_by(node, ev)
    for c in s.options(loc, ev):
        drop = replaced(c) or []

        def add(p: Any, c: Any = c) -> Any:
            return _scratch_node(s.index, s._fresh(c.entry), c.entry, c.group, p, c)

        ev.rise_with(node, add, drop, s.shown_cost_types, fields)


def timed(
    s: Any, edit: Callable[[], None], loc: Any, price: Callable[[Any, Any], object], repeats: int
) -> tuple[float, int, int]:
    """Median CPU ms of ``price`` after ``edit`` (undone after each), copies per edit, and
    how many options."""
    times, copies = [], []
    for _ in range(repeats):
        edit()
        s.evaluate()
        with counted_rises() as calls:
            start = time.process_time()
            price(s, loc)
            times.append(1000 * (time.process_time() - start))
        copies.append(calls[0])
        s.undo()
        s.evaluate()
        s.option_infos(loc)  # (as the panes ask before the next edit)
    return statistics.median(times), max(copies), len(s.options(loc))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--repeats", type=int, default=12)
    args = parser.parse_args(argv)
    import bench_tui as B
    from bench_bsdata import BSDATA, roster_text

    from armybuilder.catalog import Library
    from armybuilder.session import EditSession

    if not BSDATA.is_dir():
        print(f"the BattleScribe data is not at {BSDATA}", file=sys.stderr)
        return 1
    os.environ.setdefault("ARMYBUILDER_HOME", tempfile.mkdtemp())
    library = Library([BSDATA]).scan()
    path = Path(tempfile.mkdtemp()) / "space-marines.yaml"
    path.write_text(roster_text(library.system("wh40k-10e")), encoding="utf-8")  # type: ignore[arg-type]
    s = EditSession.open(path, library, autosave=False)
    unit = B._plan(s)["count"]
    force = unit[:-2]
    entry = s.node(unit)["entry"]
    edits: list[tuple[str, Callable[[], None], Any]] = [
        ("add", lambda: s.add(force, entry), force),
        ("count", lambda: s.set_count(unit, s.count_of(unit) + 1), unit),
    ]
    print(
        f"CPU ms to price every option of the selection edited, {args.repeats} edits each "
        "(median); copies of the tree per edit"
    )
    for name, edit, loc in edits:
        s.option_infos(loc)
        ms, copies, n = timed(s, edit, loc, lambda s, loc: s.option_infos(loc), args.repeats)
        base, base_copies, _ = timed(s, edit, loc, each_on_a_copy, args.repeats)
        print(
            f"  {name:6s} {n:3d} options  session {ms:6.2f} ms, {copies:3d} copies   "
            f"baseline (each on a copy) {base:6.2f} ms, {base_copies:3d} copies"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
