"""Selecting a unit whose details show other rows (other choice groups, a quick fix that
gives a unit its entry back) lays the screen out once, not twice.

Textual lays the screen out again whenever a widget's virtual size changes, and the layout
that resizes a widget changes it: every layout of the details pane was followed by a second
one of the whole screen, with a frame of its own, that put every widget where the first had
(half of the ~20 ms of such a move on the 40k roster), and a frame after the layout's painted
the whole pane again. The details' text and boxes, and the pane, now ask for neither
(``SizedByLayout``).

What the person sees is checked against what could go wrong without the second layout: the
screen laid out again from scratch places every widget where it was, the terminal (every
frame, partial ones written in place) shows what a whole drawing of the screen shows, and the
panes show what the session computes for the selection.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor
from screen import Terminal
from test_screen_model import screen_problems, sent_problems, settle

from armybuilder.session import SetKey
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.details import one_of_groups

REGIMENT = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


def _units_of_other_groups(editor: EditorScreen) -> tuple[Any, Any]:
    """Two units of the roster whose entries have different choice groups (both some)."""
    session = editor.session
    assert session is not None
    ev = session.evaluate()
    units = [
        n
        for n in ev.nodes()
        if not n.is_root and n.entry is not None and n.force is None and one_of_groups(n.entry)
    ]

    def shape(n: Any) -> tuple[str, ...]:
        return tuple(g.id for g in one_of_groups(n.entry))

    first = units[0]
    other = next(n for n in units if shape(n) != shape(first))
    return first.loc, other.loc


def _placed(editor: EditorScreen) -> dict[Any, Any]:
    return {w: (g.region, g.clip) for w, g in editor._compositor.full_map.items()}


@run_async
async def test_a_unit_of_other_groups_is_laid_out_once(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    path = workdir / REGIMENT.name
    shutil.copy(REGIMENT, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        session = editor.session
        assert session is not None
        layouts: list[bool] = []
        laid_out = editor._refresh_layout

        def layout(*args: Any, **kwargs: Any) -> None:
            layouts.append(True)
            laid_out(*args, **kwargs)

        editor._refresh_layout = layout  # type: ignore[method-assign]
        # The frames (by number) in which the details pane drew its own lines (its background
        # around its rows); not the whole drawings the checks make.
        pane_frames: set[int] = set()
        frames = [0, False]
        pane_lines, frame = editor.details.render_lines, editor._compositor_refresh

        def pane_drawn(crop: Any) -> Any:
            if frames[1]:
                pane_frames.add(int(frames[0]))
            return pane_lines(crop)

        def framed() -> None:
            frames[:] = [int(frames[0]) + 1, True]
            try:
                frame()
            finally:
                frames[1] = False

        editor.details.render_lines = pane_drawn  # type: ignore[method-assign]
        editor._compositor_refresh = framed  # type: ignore[method-assign]
        a, b = _units_of_other_groups(editor)
        editor.roster_tree.focus()
        editor.jump_to(a)
        await settle(pilot, editor)
        await sent_problems(pilot, terminal)

        async def check(what: str, most: int) -> None:
            await settle(pilot, editor)
            problems = await sent_problems(pilot, terminal)
            assert not problems, (what, problems)
            assert not screen_problems(app, editor), (what, screen_problems(app, editor))
            assert 1 <= len(layouts) <= most, (what, len(layouts))
            # The frame of the layout paints the pane; no frame after it paints it again (its
            # virtual size, set by the layout, asked for a repaint of all of it).
            assert len(pane_frames) <= 1, (what, sorted(pane_frames))
            # Laid out again from scratch, every widget stays where it is.
            before = _placed(editor)
            laid_out()
            await pilot.pause()
            assert _placed(editor) == before, what
            assert not await sent_problems(pilot, terminal), what
            layouts.clear()
            pane_frames.clear()

        for step, loc in enumerate([b, a, b, a]):
            layouts.clear()
            pane_frames.clear()
            editor.jump_to(loc)
            await check(f"move {step} to {loc}", 1)
        # The quick fix of a misspelt unit: the unit gets its entry (and its groups) back.
        good = session.node(b)["entry"]
        editor.jump_to(b)
        await settle(pilot, editor)
        session.apply("misspell", [SetKey(b, "entry", good[:-1] + "x")], b, b)
        editor.after_edit()
        await settle(pilot, editor)
        await sent_problems(pilot, terminal)
        fixes = editor.issues.fixes_about(b)
        assert fixes and repr(good) in fixes[0].label, [f.label for f in fixes]
        layouts.clear()
        pane_frames.clear()
        await pilot.press("full_stop")
        await check("quick fix", 1)
        assert session.node(b)["entry"] == good
