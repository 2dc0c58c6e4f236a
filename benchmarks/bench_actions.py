#!/usr/bin/env python3
"""The builder's edits as a person makes them, without a test harness in between (issue 18).

``bench_tui.py`` (part f.) times each action through Textual's Pilot, whose waits between
frames run on the same CPU and are counted with the action. Here each action is started as the
terminal driver starts it (a ``Key`` posted to the app, or the call a click makes), the event
loop is left alone until the app is quiet, and the CPU (``time.process_time``: every thread,
the background evaluation included) is taken from the action to the last frame handed to the
terminal, turned into the terminal's escape sequences as a terminal's driver gets it
(headless, Textual skips that step). Per action it prints the median and the lowest over the
repeats, the layouts of the screen and the frames per action (which are not noisy), beside the
baseline measured in the same run: the cursor moved to a unit of the same kind (a repaint of a
few lines).

Actions, on the bench's 40k Space Marines roster (``bench_bsdata.py``; needs
``../shared/bsdata``) and the Earther regiment of the examples:

* ``same``: the cursor to a unit of the same kind (the baseline);
* ``other``: the cursor to a unit of other choice groups (the details pane shows other rows);
* ``count``: ``+`` in the roster tree, then undone (Ctrl+Z, untimed);
* ``toggle``: another option chosen in a unit's drop-down, then undone;
* ``fix``: ``.`` on a unit whose entry id was misspelt (the quick fix), then undone; the lists
  of options the catalog keeps for other kinds of unit are forgotten before each (the fixed
  unit's list is built, as at a first fix);
* ``add``: ``a`` with the force selected and a unit of the roster's kind highlighted in the
  catalog (the unit added, with what its entry requires inside it), then undone;
* ``remove``: Delete on a unit, then undone;
* ``duplicate``: ``d`` on a unit (a copy put after it), then undone;
* ``undo``: Ctrl+Z of a count +1 (made untimed before each).

Notices are shown as in a terminal (``run_test(notifications=True)``; Textual's tests hide them):
a quick fix and an undo say what they did in a toast, which Textual mounts in frames of its own.

    python benchmarks/bench_actions.py [--repeats 12] [--roster 40k|regiment|both]
        [--size 160x48] [--without-details] [ACTION ...]

``--without-details`` is an experiment, not the product: the details pane's update does
nothing (the pane keeps the view it had), so the figures are what everything else on the
screen costs for the same actions (the quick fix: 13 - 15 ms of its 20).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ACTIONS = ("same", "other", "count", "toggle", "fix", "add", "remove", "duplicate", "undo")
FRAME_MS = 16.0


async def _roster(path: Path, library: Any, actions: Sequence[str], repeats: int,
                  size: tuple[int, int]) -> dict[str, dict[str, float]]:  # fmt: skip
    import bench_tui as B
    from bench_key_frame import _quiet
    from textual._compositor import CompositorUpdate
    from textual.app import App
    from textual.screen import Screen

    from armybuilder.session import SetKey
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.settings import Settings
    from armybuilder.tui.widgets.details import DetailsPane

    last = [0.0]
    counts: Counter[str] = Counter()
    frame, layout = Screen._compositor_refresh, Screen._refresh_layout
    shown = App._display

    def framed(self: Any) -> None:
        frame(self)
        last[0] = time.process_time()
        counts["frames"] += 1

    def written(self: Any, screen: Any, update: Any) -> None:
        # Headless, Textual hands a frame to no terminal and skips turning it into the
        # terminal's escape sequences; a person's terminal gets them, so they are made here
        # too, as the driver's frame would (within the frame's time: see framed).
        shown(self, screen, update)
        if isinstance(update, CompositorUpdate) and self.is_headless:
            update.render_segments(self.console)

    def laid_out(self: Any, *args: Any, **kwargs: Any) -> None:
        counts["layouts"] += 1
        layout(self, *args, **kwargs)

    Screen._compositor_refresh = framed  # type: ignore[method-assign]
    Screen._refresh_layout = laid_out  # type: ignore[method-assign]
    App._display = written  # type: ignore[method-assign]
    kw: dict[str, Any] = {"library": library} if library is not None else {}
    app = ArmyBuilderApp(path, cwd=path.parent, settings=Settings(), catalog_poll_seconds=None,
                         **kw)  # fmt: skip
    out: dict[str, dict[str, float]] = {}
    try:
        async with app.run_test(size=size, notifications=True) as pilot:
            editor, session, plan = await B.editor_for_actions(app, pilot)

            def key(name: str, char: str | None) -> None:
                B.send_key(app, name, char)

            for action in actions:
                if action in ("same", "other") and plan[action] is None:
                    print(f"  {path.name}: no pair of units for {action!r}", file=sys.stderr)
                    continue
                if action == "toggle" and plan["toggle"] is None:
                    print(f"  {path.name}: no drop-down to choose in", file=sys.stderr)
                    continue
                if action == "fix":
                    loc = plan["fix"]
                    good = session.node(loc)["entry"]
                    bad = good[:-1] + ("x" if good[-1] != "x" else "y")
                    session.apply("misspell", [SetKey(loc, "entry", bad)], loc, loc)
                    editor.after_edit()
                    await _quiet(editor)
                times: list[float] = []
                layouts: list[int] = []
                frames: list[int] = []
                for i in range(repeats):
                    act: Callable[[], None]
                    if action in ("same", "other"):
                        pair = plan[action]
                        editor.jump_to(pair[i % 2])
                        at = pair[(i + 1) % 2]

                        def act(at: Any = at) -> None:
                            editor.jump_to(at)
                    elif action == "add":
                        unit = plan["count"]
                        editor.jump_to(unit[:-2])  # (the selection holding it)
                        await _quiet(editor)
                        _highlight(editor, session.index.name_of(session.node(unit)["entry"]))

                        def act() -> None:
                            key("a", "a")
                    else:
                        # (remove and duplicate: the unit the count +1 takes)
                        at = plan["toggle"][0] if action == "toggle" else plan.get(action)
                        at = plan["count"] if at is None else at
                        editor.jump_to(at)
                        if action == "toggle":
                            loc, gid, value = plan["toggle"]

                            def act(loc: Any = loc, gid: str = gid, value: str = value) -> None:
                                editor.details.post_message(
                                    DetailsPane.Edit(loc, f"choice:{gid}", value)
                                )
                        elif action == "undo":
                            key("plus", "+")  # (the edit undone, made untimed)
                            await _quiet(editor)

                            def act() -> None:
                                key("ctrl+z", None)
                        else:
                            name, char = {
                                "count": ("plus", "+"),
                                "fix": ("full_stop", "."),
                                "remove": ("delete", None),
                                "duplicate": ("d", "d"),
                            }[action]

                            def act(name: str = name, char: str | None = char) -> None:
                                key(name, char)

                    if action == "fix":
                        # A unit mended by its quick fix had no list of options of its own
                        # kind shown yet, as a rule: the catalog builds it (not one it kept
                        # from the fix before this one's undo).
                        forget = getattr(editor.catalog, "forget_kept_lists", None)
                        if forget is not None:  # (a tree before 2026-11-28 keeps none)
                            forget()
                    await _quiet(editor)
                    counts.clear()
                    start = time.process_time()
                    last[0] = 0.0
                    act()
                    await _quiet(editor)
                    times.append(1000 * (last[0] - start))
                    layouts.append(counts["layouts"])
                    frames.append(counts["frames"])
                    if action not in ("same", "other", "undo"):
                        key("ctrl+z", None)
                        await _quiet(editor)
                if action == "fix":  # (the actions after it time the roster as it was)
                    session.apply("spelt again", [SetKey(loc, "entry", good)], loc, loc)
                    editor.after_edit()
                    await _quiet(editor)
                out[action] = {
                    "median": statistics.median(times),
                    "min": min(times),
                    "layouts": statistics.median(layouts),
                    "frames": statistics.median(frames),
                }
    finally:
        Screen._compositor_refresh = frame  # type: ignore[method-assign]
        Screen._refresh_layout = layout  # type: ignore[method-assign]
        App._display = shown  # type: ignore[method-assign]
    return out


def _highlight(editor: Any, name: str) -> None:
    """Put the catalog's cursor on the row of the entry named ``name`` (a unit's entry in the
    catalog may be a link of another id to the one the roster records)."""
    tree = editor.catalog.catalog_tree
    rows = [tree.root]
    while rows:
        row = rows.pop()
        label = str(row.label)  # (its cost is drawn in when idle)
        if row.data is not None and (label == name or label.startswith(f"{name} ")):
            tree.move_cursor(row)
            assert editor.catalog.highlighted() == row.data, "the catalog did not highlight it"
            return
        rows.extend(row.children)
    raise SystemExit(f"no row of {name!r} in the catalog")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("actions", nargs="*", choices=[[], *ACTIONS], default=[],
                        help=f"actions to time (default: all of {', '.join(ACTIONS)})")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=12, help="times each (default 12)")
    parser.add_argument("--roster", choices=("40k", "regiment", "both"), default="both")
    parser.add_argument("--size", default="160x48", help="terminal size (default 160x48)")
    parser.add_argument("--without-details", action="store_true",
                        help="an experiment: the details pane keeps the view it had (its "
                        "update does nothing): what the rest of the screen costs")  # fmt: skip
    args = parser.parse_args(argv)
    import bench_tui as B

    if args.without_details:
        from armybuilder.tui.widgets.details import DetailsPane

        DetailsPane.show = lambda self, ev, loc: None  # type: ignore[method-assign]

    actions = [a for a in ACTIONS if a in args.actions] or list(ACTIONS)
    if "same" not in actions:
        actions.insert(0, "same")  # (the baseline, always measured)
    width, height = (int(n) for n in args.size.split("x"))
    home = tempfile.mkdtemp()
    os.environ["ARMYBUILDER_HOME"] = home
    os.environ["ARMYBUILDER_STATE_DIR"] = os.path.join(home, "state")
    work = Path(tempfile.mkdtemp())
    rosters: list[tuple[str, Path, Any]] = []
    if args.roster in ("regiment", "both"):
        path = work / B.REGIMENT.name
        shutil.copy(B.REGIMENT, path)
        rosters.append(("Earther regiment", path, None))
    if args.roster in ("40k", "both"):
        if (B.BSDATA / "wh40k-10e").is_dir():
            from bench_bsdata import roster_text

            from armybuilder.catalog import Library

            library = Library([B.BSDATA]).scan()
            path = work / "space-marines-40k.yaml"
            path.write_text(roster_text(library.system("wh40k-10e")), encoding="utf-8")  # type: ignore[arg-type]
            rosters.append(("40k Space Marines", path, library))
        else:
            print(f"skipped the 40k roster: no {B.BSDATA / 'wh40k-10e'}", file=sys.stderr)
    print(f"CPU ms from the action to its last frame, {args.repeats} times each, {args.size};"
          f" target {FRAME_MS:g} ms; baseline: the cursor to a unit of the same kind")  # fmt: skip
    for title, path, library in rosters:
        figures = asyncio.run(_roster(path, library, actions, args.repeats, (width, height)))
        base = figures.get("same", {}).get("median", float("nan"))
        print(f"  {title}:")
        for action, f in figures.items():
            verdict = "within" if f["median"] <= FRAME_MS else "OVER"
            print(f"    {action:7s} {f['median']:6.1f} ms (lowest {f['min']:5.1f}) "
                  f"{f['median'] / base:4.1f}x baseline  [{verdict} {FRAME_MS:g} ms]  "
                  f"layouts {f['layouts']:g}, frames {f['frames']:g}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
