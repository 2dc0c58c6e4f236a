"""The heap settled once a roster shows (``settle_heap`` in ``tui/screens/editor.py``).

The first roster of a process collects only what is not frozen yet (the catalogs the
BattleScribe reader froze are not walked again: 0.4 s of a 40k roster's first second, now about
0.1 s; ``benchmarks/bench_settle.py``); a roster opened later thaws everything first, so a
roster shown before, garbage now, is collected. Run in a child process: the test worker's own
collector state is not the one a player's builder starts with.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_CHILD = r"""
import gc, json, weakref

from armybuilder.tui.screens import editor


class Node:
    pass


def cycle():
    a, b = Node(), Node()
    a.b, b.a = b, a
    return a


seen = {}
catalog = cycle()
gc.freeze()  # as the BattleScribe reader leaves what it read
frozen_before = gc.get_freeze_count()
read_then_dropped = weakref.ref(catalog)
del catalog  # garbage, but frozen
made_since = weakref.ref(cycle())  # garbage, not frozen
first_roster = cycle()
shown_before = weakref.ref(first_roster)
editor.settle_heap()  # the first roster of the process shows
seen["first: made since collected"] = made_since() is None
seen["first: frozen left alone"] = read_then_dropped() is not None
seen["first: nothing thawed"] = gc.get_freeze_count() >= frozen_before
del first_roster  # the roster closed: garbage, frozen with the rest
editor.settle_heap()  # another roster opened
seen["later: roster shown before collected"] = shown_before() is None
seen["later: frozen garbage collected"] = read_then_dropped() is None
seen["later: alive frozen again"] = gc.get_freeze_count() > 0
print(json.dumps(seen))
"""


def test_the_first_roster_collects_only_what_is_not_frozen_and_later_ones_thaw() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == dict.fromkeys(seen, True), seen
    assert len(seen) == 6
