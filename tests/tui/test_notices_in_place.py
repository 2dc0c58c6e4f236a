"""The editor's notices reach the screen in the frame of the edit that raised them (Pilot).

A quick fix and an undo say what they did in a notice. Textual shows a notice as a toast it
mounts, styled and laid out in frames of its own: a quick fix on the 40k roster took three
layouts and three frames (35 ms) where the edit alone took one (17 ms), and its last frame
showed the toast after the edit's own. The editor's notices are now drawn in slots made once
(``widgets/notices.py``), filled in place and painted in the edit's frame.

Checked with notices on, as in a terminal (Textual's tests hide them), at 160x48 and 80x24: the
first layout after the key shows the notice and the edit together, the terminal (every frame
written in place) shows what a whole drawing of the screen shows, and a notice put away (its
time up, or clicked) leaves the screen as a whole drawing shows it.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import Terminal, painted
from test_screen_model import screen_problems, sent_problems, settle
from textual import events

from armybuilder.session import SetKey
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.notices import NoticeRack, NoticeSlot

SQUAD = EXAMPLES / "starship-troopers" / "mi-squad.yaml"


def _key(app: Any, name: str) -> None:
    event = events.Key(name, "." if name == "full_stop" else None)
    event.set_sender(app)
    app._driver.send_message(event)


def _shown(app: Any) -> list[str]:
    """The notices the editor's slots show, oldest first."""
    return [s.notice.message for s in app.screen.query(NoticeSlot) if s.notice is not None]


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
@run_async
async def test_a_quick_fix_and_its_undo_show_their_notice_in_their_own_frame(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path, size: tuple[int, int]
) -> None:
    path = workdir / SQUAD.name
    shutil.copy(SQUAD, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=size, notifications=True) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None and editor.notice_rack is not None
        loc = ("selections", 0)
        good = session.node(loc)["entry"]
        session.apply("misspell", [SetKey(loc, "entry", good + "x")], loc, loc)
        editor.after_edit()
        editor.jump_to(loc)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        assert not await sent_problems(pilot, terminal)

        # What the terminal shows right after each layout (its frame drawn): the first one
        # after the key has the notice and the mended unit together.
        seen: list[list[str]] = []
        layout = editor._refresh_layout

        def laid_out(*args: Any, **kwargs: Any) -> None:
            layout(*args, **kwargs)
            seen.append(terminal.rows())

        editor._refresh_layout = laid_out  # type: ignore[method-assign]
        for key, says in [("full_stop", "Ctrl+Z undoes it"), ("ctrl+z", "Undone")]:
            seen.clear()
            _key(app, key)  # (as a terminal's driver hands it over: no Pilot between)
            await settle(pilot, editor)
            assert any(says in m for m in _shown(app)), (key, _shown(app))
            assert seen, f"{key}: no layout (the notice's slot is shown by one)"
            first = "\n".join(seen[0])
            assert says.split()[0] in first, (key, seen[0])
            assert not await sent_problems(pilot, terminal), key
        fixed = session.node(loc)["entry"]
        assert fixed == good + "x", fixed  # (undone: the misspelling is back)
        editor._refresh_layout = layout  # type: ignore[method-assign]

        # Both notices shown, the newest lowest; the totals bar whole under them.
        slots = [s for s in app.screen.query(NoticeSlot) if s.notice is not None]
        assert len(slots) == 2 and slots[0].region.y < slots[1].region.y, slots
        assert all(s.region.bottom <= editor.totals.region.y for s in slots)

        # A click puts a notice away; what it covered is drawn again.
        await pilot.click(slots[1])
        await settle(pilot, editor)
        assert len(_shown(app)) == 1, _shown(app)
        assert not await sent_problems(pilot, terminal)

        # A notice whose time is up goes, and so does the rack once none is left.
        app.notify("a short notice", timeout=0.2)
        await pilot.pause()
        assert "a short notice" in _shown(app)
        assert any("a short notice" in row for row in painted(app))
        app.clear_notifications()
        app.notify("another short one", timeout=0.2)
        await wait_for(pilot, lambda: not _shown(app), timeout=3)
        await settle(pilot, editor)
        rack = app.screen.query_one(NoticeRack)
        assert not rack.display
        assert not any("short" in row for row in painted(app))
        assert not await sent_problems(pilot, terminal)
        # (the panes, no longer under a notice, show what the session holds)
        assert not screen_problems(app, editor), screen_problems(app, editor)


@run_async
async def test_the_screens_next_tick_paints_the_notice_of_the_edit(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    """The notice is the screen's to lay out and paint at its next tick, whichever comes first:
    that tick, or each slot's turn to run (when the tick came first, the notice came in a
    layout and a frame of its own: two of each for a quick fix on the 40k roster)."""
    path = workdir / SQUAD.name
    shutil.copy(SQUAD, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        assert not await sent_problems(pilot, terminal)
        app.notify("said at once", timeout=5)
        editor._on_timer_update()  # (the tick, before any widget has had its turn)
        assert any("said at once" in row for row in terminal.rows()), terminal.rows()[-8:]
        await settle(pilot, editor)
        assert not await sent_problems(pilot, terminal)


@run_async
async def test_a_notice_replaced_by_one_of_its_height_is_painted_without_a_layout(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    """An undo after an undo: its notice takes the place of the one before, at the same
    height. The slot is repainted at the screen's next tick, and nothing is laid out (a
    layout of the whole screen for it took an undo of +1 on the 40k roster from 10 to 15 ms)."""
    path = workdir / SQUAD.name
    shutil.copy(SQUAD, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        app.notify("Undone: the first of two", timeout=5, group="history")
        await settle(pilot, editor)
        assert not await sent_problems(pilot, terminal)
        layouts = [0]
        layout = editor._refresh_layout

        def laid_out(*args: Any, **kwargs: Any) -> None:
            layouts[0] += 1
            layout(*args, **kwargs)

        editor._refresh_layout = laid_out  # type: ignore[method-assign]
        app.notify("Undone: the second of two", timeout=5, group="history")
        editor._on_timer_update()  # (the tick, before any widget has had its turn)
        assert _shown(app) == ["Undone: the second of two"], _shown(app)
        assert any("the second of two" in row for row in terminal.rows())
        assert not any("the first of two" in row for row in terminal.rows())
        await settle(pilot, editor)
        assert layouts[0] == 0, layouts
        assert not await sent_problems(pilot, terminal)


@run_async
async def test_a_notice_raised_from_a_worker_thread_is_shown(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    path = workdir / SQUAD.name
    shutil.copy(SQUAD, path)
    app = make_app(path)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        await asyncio.to_thread(app.notify, "from a thread", timeout=5)
        await wait_for(pilot, lambda: "from a thread" in _shown(app))
        await pilot.pause()
        assert any("from a thread" in row for row in painted(app))
