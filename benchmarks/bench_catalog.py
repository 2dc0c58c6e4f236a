#!/usr/bin/env python3
"""The catalog pane's share of an edit: CPU time in ``EditorScreen._update_catalog`` (issue 18).

``bench_actions.py`` times an action to its last frame; here only the catalog's update inside
it is timed (``time.process_time`` around the call, the rest of the action untimed), with
what it did, which is not noisy: the lists of nodes built and hung again, the nodes made, and
the rows compared (``CatalogTree.view_keys``). On the bench's 40k Space Marines roster
(``bench_bsdata.py``; needs ``../shared/bsdata``), the actions of ``bench_actions.py``:

* ``same``: the cursor to a unit of the same kind (the same list, relabelled: the baseline);
* ``other``: the cursor to a unit of other choice groups (the other unit's list);
* ``count``: ``+`` in the roster tree, then undone (Ctrl+Z, untimed): the unit's rows priced
  for the new evaluation;
* ``fix``: ``.`` on a choice whose entry id was misspelt (its unit's list, then its own).

    python benchmarks/bench_catalog.py [--repeats 15] [ACTION ...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ACTIONS = ("same", "other", "count", "fix")


async def _run(path: Path, library: Any, actions: Sequence[str], repeats: int) -> dict[str, Any]:
    import bench_tui as B
    from bench_key_frame import _quiet
    from textual.widgets import Tree

    from armybuilder.session import SetKey
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.screens.editor import EditorScreen
    from armybuilder.tui.settings import Settings
    from armybuilder.tui.widgets.catalog import CatalogTree

    spent = [0.0]
    counts: Counter[str] = Counter()
    update, view_keys, add_node = (
        EditorScreen._update_catalog,
        CatalogTree.view_keys,
        Tree._add_node,
    )

    def timed_update(self: Any) -> None:
        start = time.process_time()
        try:
            update(self)
        finally:
            spent[0] += time.process_time() - start

    def counted_keys(self: Any) -> Any:
        counts["rows compared"] += 1
        return view_keys(self)

    def counted_node(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["nodes made"] += 1
        return add_node(self, *args, **kwargs)

    EditorScreen._update_catalog = timed_update  # type: ignore[method-assign]
    CatalogTree.view_keys = counted_keys  # type: ignore[method-assign]
    Tree._add_node = counted_node  # type: ignore[method-assign]
    app = ArmyBuilderApp(path, cwd=path.parent, settings=Settings(), catalog_poll_seconds=None,
                         library=library)  # fmt: skip
    out: dict[str, Any] = {}
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            editor, session, plan = await B.editor_for_actions(app, pilot)
            browser = editor.catalog

            def key(name: str, char: str | None) -> None:
                B.send_key(app, name, char)

            for action in actions:
                good = None
                if action == "fix":
                    loc = plan["fix"]
                    good = session.node(loc)["entry"]
                    bad = good[:-1] + ("x" if good[-1] != "x" else "y")
                    session.apply("misspell", [SetKey(loc, "entry", bad)], loc, loc)
                    editor.after_edit()
                    await _quiet(editor)
                times: list[float] = []
                did: Counter[str] = Counter()
                for i in range(repeats):
                    if action in ("same", "other"):
                        pair = plan[action]
                        editor.jump_to(pair[i % 2])
                    else:
                        editor.jump_to(plan[action])
                    await _quiet(editor)
                    spent[0] = 0.0
                    counts.clear()
                    built, reused = browser.rebuilds, getattr(browser, "lists_reused", 0)
                    if action in ("same", "other"):
                        editor.jump_to(plan[action][(i + 1) % 2])
                    else:
                        key(*{"count": ("plus", "+"), "fix": ("full_stop", ".")}[action])
                    await _quiet(editor)
                    times.append(1000 * spent[0])
                    did["lists built"] += browser.rebuilds - built
                    did["lists hung again"] += getattr(browser, "lists_reused", 0) - reused
                    did.update(counts)
                    if action in ("count", "fix"):
                        key("ctrl+z", None)
                        await _quiet(editor)
                if good is not None:
                    loc = plan["fix"]
                    session.apply("spelt again", [SetKey(loc, "entry", good)], loc, loc)
                    editor.after_edit()
                    await _quiet(editor)
                out[action] = {
                    "median": statistics.median(times),
                    "min": min(times),
                    **{k: v / repeats for k, v in did.items()},
                }
    finally:
        EditorScreen._update_catalog = update  # type: ignore[method-assign]
        CatalogTree.view_keys = view_keys  # type: ignore[method-assign]
        Tree._add_node = add_node  # type: ignore[method-assign]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("actions", nargs="*", choices=[[], *ACTIONS], default=[],
                        help=f"actions to time (default: all of {', '.join(ACTIONS)})")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=15, help="times each (default 15)")
    args = parser.parse_args(argv)
    import bench_tui as B

    if not (B.BSDATA / "wh40k-10e").is_dir():
        print(f"no 40k data at {B.BSDATA / 'wh40k-10e'}", file=sys.stderr)
        return 1
    from bench_bsdata import roster_text

    from armybuilder.catalog import Library

    actions = [a for a in ACTIONS if a in args.actions] or list(ACTIONS)
    if "same" not in actions:
        actions.insert(0, "same")  # (the baseline, always measured)
    home = tempfile.mkdtemp()
    os.environ["ARMYBUILDER_HOME"] = home
    os.environ["ARMYBUILDER_STATE_DIR"] = os.path.join(home, "state")
    library = Library([B.BSDATA]).scan()
    path = Path(tempfile.mkdtemp()) / "space-marines-40k.yaml"
    path.write_text(roster_text(library.system("wh40k-10e")), encoding="utf-8")  # type: ignore[arg-type]
    figures = asyncio.run(_run(path, library, actions, args.repeats))
    base = figures["same"]["median"]
    print(f"CPU ms in the catalog's update, {args.repeats} times each, 160x48, 40k Space "
          f"Marines; baseline: the cursor to a unit of the same kind")  # fmt: skip
    for action, f in figures.items():
        did = ", ".join(
            f"{k} {f.get(k, 0):g}"
            for k in ("lists built", "lists hung again", "nodes made", "rows compared")
        )
        print(f"  {action:6s} {f['median']:5.2f} ms (lowest {f['min']:5.2f}) "
              f"{f['median'] / base:4.1f}x baseline  per action: {did}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
