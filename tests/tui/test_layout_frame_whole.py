"""The frame of a layout shows the details pane whole: its rows and its scrollbar.

A move to a unit of other option groups, a removal that selects such a unit, or a quick fix
gives the details pane content of another height, and the layout that sizes it fits the
pane's scrollbar to it (``fit_scrollbars``). The scrollbar's changed cells were asked for
after the layout had arranged the screen, so they reached the screen only at its next tick: the
layout's frame showed the new rows beside the old thumb, and a second frame (about 30 ms later)
drew the thumb. Now the layout's frame paints them (``ChangedRegionsCompositor.paint_now``).

Checked on the Starship Marine regiment, whose details pane scrolls: right after each
layout's frame, the terminal (every frame written in place) shows in the details pane's
region what a whole drawing of the screen shows there, and the action took one frame.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor
from screen import Terminal, cells_slice
from test_screen_model import screen_problems, sent_problems, settle

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.details import one_of_groups

REGIMENT = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


def _pane_rows(editor: EditorScreen, rows: list[str]) -> list[str]:
    region = editor.details.region
    return [cells_slice(row, region.x, region.right) for row in rows[region.y : region.bottom]]


def _units(editor: EditorScreen) -> list[Any]:
    """The regiment's units with choice groups, one per shape of groups (in roster order)."""
    session = editor.session
    assert session is not None
    shapes: dict[tuple[str, ...], Any] = {}
    for n in session.evaluate().nodes():
        if not n.is_root and n.entry is not None and n.force is None and one_of_groups(n.entry):
            shapes.setdefault(tuple(g.id for g in one_of_groups(n.entry)), n.loc)
    return list(shapes.values())


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
@run_async
async def test_the_frame_of_a_layout_shows_the_details_pane_whole(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path, size: tuple[int, int]
) -> None:
    path = workdir / REGIMENT.name
    shutil.copy(REGIMENT, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=size) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        units = _units(editor)
        assert len(units) >= 3, units
        # After each layout's frame (the layout draws it before it returns): the pane as the
        # terminal shows it, and as a whole drawing of the screen shows it, then and there.
        seen: list[tuple[list[str], list[str]]] = []
        frames = [0]
        layout, frame = editor._refresh_layout, editor._compositor_refresh

        def laid_out(*args: Any, **kwargs: Any) -> None:
            layout(*args, **kwargs)
            whole = Terminal.drawing(app).rows()
            seen.append((_pane_rows(editor, terminal.rows()), _pane_rows(editor, whole)))

        def framed() -> None:
            frames[0] += 1
            frame()

        editor._refresh_layout = laid_out  # type: ignore[method-assign]
        editor._compositor_refresh = framed  # type: ignore[method-assign]
        editor.roster_tree.focus()
        moves = 0
        for loc in [*units, *reversed(units), *units]:
            if loc == editor.selected:
                continue
            await settle(pilot, editor)
            await sent_problems(pilot, terminal)
            seen.clear()
            frames[0] = 0
            editor.jump_to(loc)
            await settle(pilot, editor)
            assert not await sent_problems(pilot, terminal), loc
            assert not screen_problems(app, editor), (loc, screen_problems(app, editor))
            for shown, whole in seen:
                differ = [(a, b) for a, b in zip(shown, whole, strict=True) if a != b]
                assert shown == whole, (loc, differ)
            if seen:
                moves += 1
                # One frame: the layout's (at 80x24 a move may take a second layout for a
                # text field's scrollbar: see test_one_layout.py).
                assert frames[0] == len(seen), (loc, frames[0], len(seen))
        assert moves >= 3, moves
