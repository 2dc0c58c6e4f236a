"""A finished evaluation works some values out on demand with their reads traced (a unit's
costs after an edit: ``Evaluation._replay_by_reads``), and the trace is the evaluation's own.
Two threads may ask at once: the builder's panes and a PDF export in a worker read the same
evaluation. A second traced computation must wait for the first, else it swaps the trace
under it and the first is kept with reads missing (and replayed by them later: a stale cost).

Here the first computation is held inside its trace while a second thread asks for another
one: the second must not run (nor clear the trace) until the first is done; both are then
kept with their own results.
"""

from __future__ import annotations

import threading
from pathlib import Path

from armybuilder.catalog import Library, default_roots
from armybuilder.session import EditSession

ROSTER = (
    Path(__file__).resolve().parents[2] / "examples" / "infantry-ops" / "rifle-lmg-platoon.yaml"
)


def test_traced_computations_on_one_evaluation_wait_for_each_other() -> None:
    session = EditSession.open(ROSTER, Library(default_roots()), autosave=False)
    ev = session.evaluate()
    nodes = [n for n in ev.nodes() if not n.is_root and n.data is not None]
    a, b = nodes[0], nodes[1]
    assert a.data is not None and b.data is not None
    kept: dict[int, tuple[object, ...]] = {}
    inside = threading.Event()
    go = threading.Event()
    seen: list[object] = []

    def held() -> str:
        inside.set()
        assert go.wait(10)
        seen.append(ev._trace)  # (still this computation's trace)
        return "first"

    first = threading.Thread(
        target=lambda: ev._replay_by_reads(None, kept, a, a.data, held)  # type: ignore[arg-type]
    )
    first.start()
    assert inside.wait(10)
    mine = ev._trace
    assert mine is not None
    second = threading.Thread(
        target=lambda: ev._replay_by_reads(None, kept, b, b.data, lambda: "second")  # type: ignore[arg-type]
    )
    second.start()
    second.join(0.3)
    # The second waits: it has not replaced or cleared the first one's trace.
    assert second.is_alive()
    assert ev._trace is mine
    go.set()
    first.join(10)
    second.join(10)
    assert not first.is_alive() and not second.is_alive()
    assert seen == [mine]
    assert kept[id(a.data)][3] == "first"
    assert kept[id(b.data)][3] == "second"
    assert ev._trace is None
