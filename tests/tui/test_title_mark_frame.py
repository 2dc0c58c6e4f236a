"""The first edit after a save puts "*" in the title, and its undo takes it away: the title is
repainted in place, in the one frame that shows the edit, without laying the editor out or
painting every pane again (that edit laid the whole screen out, painted it all, and the
title in a frame of its own: three frames, a dozen containers arranged).

The header shows the new title in that frame (the terminal, frame over frame, is read), and
the panes what the session computes.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor
from screen import Terminal, counted_layouts
from test_screen_model import screen_problems, sent_problems, settle

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.stable import ChangedRegionsCompositor

ROSTER = EXAMPLES / "space-hulk" / "squad-with-librarian.yaml"
SQUAD = ("selections", 0)
#: Widgets the frame of a count +1 here may draw (the tree's rows, the totals, the details'
#: heading, count and buttons, catalog rows, the title): 8 to 10; every pane and container
#: on the screen is about 40.
MOST_WIDGETS = 14


@run_async
async def test_the_unsaved_mark_is_painted_with_the_edit(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    path = workdir / ROSTER.name
    shutil.copy(ROSTER, path)
    app = make_app(path, sync_budget_ms=1e9)  # (validated at once, on a busy machine too)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        sent: list[str] = []
        display = app._display

        def shown(screen: Any, update: Any) -> None:
            display(screen, update)
            if update is not None:
                sent.append(type(update).__name__)

        app._display = shown  # type: ignore[method-assign]
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        layouts, _ = counted_layouts(editor)
        editor.jump_to(SQUAD)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        assert not await sent_problems(pilot, terminal)
        compositor = editor._compositor
        assert isinstance(compositor, ChangedRegionsCompositor)
        for key, dirty in [("plus", True), ("ctrl+z", False), ("plus", True)]:
            sent.clear()
            layouts.clear()
            widgets = compositor.widgets_drawn
            await pilot.press(key)
            await settle(pilot, editor)
            problems = await sent_problems(pilot, terminal)
            assert not problems, (key, problems)
            assert not screen_problems(app, editor), (key, screen_problems(app, editor))
            assert session.dirty is dirty
            title = terminal.rows()[0]
            assert session.name in title and ("*" in title) is dirty, (key, title)
            assert ("unsaved changes" in title) is dirty, (key, title)
            assert sent == ["ChopsUpdate"], (key, sent)  # one frame, a partial one
            assert not layouts, (key, "the editor was laid out")
            drawn = compositor.widgets_drawn - widgets
            assert 0 < drawn <= MOST_WIDGETS, (key, drawn)
