"""What Textual does around one 40k count +1 (issue 18): counts first, then CPU.

The bench's Space Marines roster (``bench_tui.py``), a Pilot app at 160x48; the ``+`` key is
posted to the app as the terminal driver posts it (no harness callbacks), on the unit
``bench_tui.py`` counts, then undone: on a roster with unsaved changes (renamed first, as
``bench_tui.py`` does), and, with ``--after-save``, on a roster with none (the first edit after
a save, which puts "*" in the title; its undo takes it away again). Per press it prints,
deterministically:

* the messages dispatched, by type (the key's trip from the focus up and back, the widgets'
  prompts, their repaint requests to the screen, the key's marker if one is sent);
* the frames painted, the widgets and lines the partial frame drew (``ChangedRegionsCompositor``)
  and the layouts (``Screen._refresh_layout``) run;
* the widgets looked at for waiting messages (``armybuilder.tui.keys``), in all and between
  the key and its edit (the look a little after a key is off that path);
* the binding chains built (``Screen._binding_chain``: the focused widget's ancestors'
  bindings, copied and filtered, for a binding lookup or the footer's keys), the times the
  footer compared its keys (``StableFooter.bindings_changed``), the message pumps' idle rounds
  (``Widget._on_idle``, which looks for repaints asked for) and the routes a key went without
  its trip through widgets that do nothing with it (``InOrderKeysApp.keys_shortcut``);

then the CPU (``time.process_time``, medians; the count +1 always validated on the event loop,
as on an idle machine) from the key to the edit, the edit, from the edit to the frame, the
frame, and from the key to the last frame.

    python benchmarks/bench_key_frame.py --presses 15 [--after-save]

Needs ``../shared/bsdata`` (as ``bench_tui.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


async def _quiet(editor: Any) -> None:
    """Until the editor shows the session's latest edit, then a tenth of a second more."""
    import bench_tui as B

    session = editor.session
    for _ in range(200):
        await asyncio.sleep(0.02)
        if (
            editor.shown_generation == session.generation
            and not editor._eval_running
            and not B._pane_busy(editor.details)
        ):
            break
    await asyncio.sleep(0.1)


async def run(presses: int, after_save: bool) -> None:
    import bench_tui as B
    from bench_bsdata import roster_text
    from textual import events
    from textual.message_pump import MessagePump
    from textual.screen import Screen

    import armybuilder.tui.keys as keys
    from armybuilder.catalog import Library
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.screens.editor import EditorScreen
    from armybuilder.tui.settings import Settings

    counts: collections.Counter[str] = collections.Counter()
    cpu: dict[str, list[float]] = collections.defaultdict(list)
    stamps: list[tuple[str, float]] = []
    on = [False]

    dispatch = MessagePump._dispatch_message

    async def counted_dispatch(self: Any, message: Any) -> None:
        if on[0]:
            counts[f"message {type(message).__name__}"] += 1
        await dispatch(self, message)

    MessagePump._dispatch_message = counted_dispatch  # type: ignore[method-assign]

    def stamped(cls: Any, name: str, label: str) -> None:
        method = getattr(cls, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if on[0]:
                counts[label] += 1
                stamps.append((label + ">", time.process_time()))
            try:
                return method(*args, **kwargs)
            finally:
                if on[0]:
                    stamps.append((label + "<", time.process_time()))

        setattr(cls, name, wrapper)

    stamped(EditorScreen, "_edit", "edit")
    edit = EditorScreen._edit

    def edit_begins(*args: Any, **kwargs: Any) -> Any:
        before_edit[0] = False
        return edit(*args, **kwargs)

    EditorScreen._edit = edit_begins  # type: ignore[method-assign]
    stamped(Screen, "_compositor_refresh", "frame")
    stamped(Screen, "_refresh_layout", "layout")
    from textual.widget import Widget

    from armybuilder.tui.widgets.stable import StableFooter

    chain = Screen._binding_chain

    def counted_chain(self: Any) -> Any:
        if on[0]:
            counts["binding chain built"] += 1
        return chain.fget(self)  # type: ignore[attr-defined]

    Screen._binding_chain = property(counted_chain)  # type: ignore[assignment]
    changed = StableFooter.bindings_changed

    def counted_changed(self: Any, screen: Any) -> None:
        if on[0]:
            counts["footer: keys compared"] += 1
        changed(self, screen)

    StableFooter.bindings_changed = counted_changed  # type: ignore[method-assign]
    widget_idle = Widget._on_idle

    async def counted_widget_idle(self: Any, event: Any) -> None:
        if on[0]:
            counts["widget idle rounds"] += 1
        await widget_idle(self, event)

    Widget._on_idle = counted_widget_idle  # type: ignore[method-assign]
    idle = keys._idle

    before_edit = [False]

    def counted_idle(node: Any) -> bool:
        if on[0]:
            counts["widget looked at for waiting messages"] += 1
            if before_edit[0]:
                counts["widget looked at ... between the key and its edit"] += 1
        return idle(node)

    keys._idle = counted_idle

    home = tempfile.mkdtemp()
    os.environ["ARMYBUILDER_HOME"] = home
    os.environ["ARMYBUILDER_STATE_DIR"] = home + "/state"
    library = Library([B.BSDATA]).scan()
    work = Path(tempfile.mkdtemp())
    path = work / "sm.yaml"
    path.write_text(roster_text(library.system("wh40k-10e")), encoding="utf-8")
    app = ArmyBuilderApp(
        path, cwd=work, settings=Settings(), catalog_poll_seconds=None, library=library
    )
    app.sync_budget_ms = 1e9  # (validated on the event loop: the split is of that path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, session = await B.loaded_editor(app, pilot, 0.05)
        while editor.shown_generation != session.generation:
            await pilot.pause(0.05)
        plan = B._plan(session)
        editor.roster_tree.focus()
        if not after_save:
            session.rename((), "x")
            editor.after_edit()
            await _quiet(editor)
        compositor = editor._compositor

        def key(name: str, char: str | None) -> None:
            event = events.Key(name, char)
            event.set_sender(app)
            app._driver.send_message(event)  # type: ignore[union-attr]

        for _ in range(presses):
            editor.jump_to(plan["count"])
            await _quiet(editor)
            widgets, lines = compositor.widgets_drawn, compositor.lines_drawn
            shortcuts = getattr(app, "keys_shortcut", 0)
            stamps.clear()
            on[0] = True
            before_edit[0] = True
            start = time.process_time()
            key("plus", "+")
            await _quiet(editor)
            on[0] = False
            counts["partial frame: widgets drawn"] += compositor.widgets_drawn - widgets
            counts["partial frame: lines drawn"] += compositor.lines_drawn - lines
            counts["key routed without its trip"] += getattr(app, "keys_shortcut", 0) - shortcuts
            first = {label: t for label, t in reversed(stamps)}
            last_frame = max(t for label, t in stamps if label == "frame<")
            cpu["key to edit"].append(first["edit>"] - start)
            cpu["edit"].append(first["edit<"] - first["edit>"])
            cpu["edit to frame"].append(first["frame>"] - first["edit<"])
            cpu["frame"].append(first["frame<"] - first["frame>"])
            cpu["key to last frame"].append(last_frame - start)
            key("ctrl+z", None)
            await _quiet(editor)
    what = "the first edit after a save" if after_save else "unsaved changes before"
    print(f"per count +1 ({presses} presses; {what}), counts:")
    for name, n in sorted(counts.items()):
        print(f"  {n / presses:6.1f}  {name}")
    total = sum(n for name, n in counts.items() if name.startswith("message "))
    print(f"  {total / presses:6.1f}  messages in all")
    print("CPU ms, medians:")
    for name, values in cpu.items():
        print(f"  {1000 * statistics.median(values):6.2f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=15)
    parser.add_argument(
        "--after-save", action="store_true", help="each count +1 the first edit after a save"
    )
    args = parser.parse_args()
    asyncio.run(run(args.presses, args.after_save))


if __name__ == "__main__":
    main()
