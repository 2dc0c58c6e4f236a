"""Whether the builder validates an edit on its event loop or in a worker thread: by the CPU
time the last validation took in its own thread, not by the clock. A validation run in a
worker also waits, on the clock, for the interpreter while the event loop paints beside it
(about twice its CPU time for the 40k Space Marines roster), so by the clock an 8 ms
validation never came back to the event loop, and each edit cost an extra frame (the totals
marked pending) and the hand-over."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from test_screen_model import screen_problems, settle
from textual.pilot import Pilot

from armybuilder.rules import engine
from armybuilder.tui.app import SYNC_BUDGET_MS, ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


def _slowed(
    editor: EditorScreen, monkeypatch: pytest.MonkeyPatch, wait: Callable[[], None]
) -> list[int]:
    """Every evaluation of a roster does ``wait()`` first (within what the session times);
    the list that gets an item each time the editor hands an evaluation to a worker."""
    s = editor.session
    assert s is not None
    evaluate = engine.evaluate_roster

    def slowed(*args: Any, **kw: Any) -> Any:
        wait()
        return evaluate(*args, **kw)

    monkeypatch.setattr(engine, "evaluate_roster", slowed)
    handed: list[int] = []
    request = editor._request_evaluation

    def requested() -> None:
        handed.append(s.generation)
        request()

    editor._request_evaluation = requested  # type: ignore[method-assign]
    return handed


async def _counts_up(pilot: Pilot[Any], editor: EditorScreen, times: int) -> None:
    """``+`` on the first squad ``times`` times, each shown and painted before the next."""
    s = editor.session
    assert s is not None
    editor.jump_to(("selections", 1))
    editor.roster_tree.focus()
    await settle(pilot, editor)
    for _ in range(times):
        before = s.node(("selections", 1)).get("count", 1)
        await pilot.press("plus")
        await settle(pilot, editor)
        assert s.node(("selections", 1)).get("count", 1) == before + 1


@run_async
async def test_a_validation_slow_on_the_clock_only_stays_on_the_event_loop(
    make_app: MakeApp, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Validations that wait 60 ms (asleep: no CPU) are still done on the event loop: the
    panes show each edit in the frame after its key, with nothing handed to a worker."""
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await wait_for(pilot, lambda: s.evaluation_is_current and not editor._eval_running)
        handed = _slowed(editor, monkeypatch, lambda: time.sleep(0.06))
        await _counts_up(pilot, editor, 3)
        assert s.last_eval_ms > 60 > SYNC_BUDGET_MS >= s.last_eval_cpu_ms
        assert handed == []
        assert screen_problems(app, editor) == []


@run_async
async def test_a_validation_slow_on_the_cpu_goes_to_a_worker(
    make_app: MakeApp, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Validations that take 30 ms of CPU go to a worker (from the edit after the first of
    them), and the panes show each edit once it is done."""

    def busy() -> None:
        end = time.thread_time() + 0.03
        while time.thread_time() < end:
            pass

    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await wait_for(pilot, lambda: s.evaluation_is_current and not editor._eval_running)
        handed = _slowed(editor, monkeypatch, busy)
        await _counts_up(pilot, editor, 3)
        assert s.last_eval_cpu_ms > 30 > SYNC_BUDGET_MS
        assert len(handed) >= 2
        assert screen_problems(app, editor) == []
