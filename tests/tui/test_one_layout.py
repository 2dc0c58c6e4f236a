"""Selecting a unit whose details show other rows (other choice groups, a quick fix that
gives a unit its entry back) lays the screen out once, not twice.

Textual lays the screen out again whenever a widget's virtual size changes, and the layout
that resizes a widget changes it: every layout of the details pane was followed by a second
one of the whole screen, with a frame of its own, that put every widget where the first had
(half of the ~20 ms of such a move on the 40k roster), and a frame after the layout's painted
the whole pane again. The details' text and boxes, and the pane, now ask for neither
(``SizedByLayout``); nor do the text fields, whose text sets their scrollable width
(``SteadyInput``), nor the catalog's preview box: at 80x24, where the details scroll, those
asked for the second layout.

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

import pytest
from conftest import EXAMPLES, run_async, wait_editor
from screen import Terminal, counted_layouts
from test_screen_model import screen_problems, sent_problems, settle
from textual.widgets import Input

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


#: Layouts a move may take, by terminal size. At 80x24 the campaign state field is narrower
#: than a unit's state, and a move between a unit with state and one without shows or hides
#: the field's horizontal scrollbar (no row tall: Textual's text fields have none), which
#: Textual lays out for; everything else there is laid out once too.
MOST = {(160, 48): 1, (80, 24): 2}
#: Arrangements of the whole screen a move may take beside one per layout. At 80x24 the second
#: layout (above) comes after a hidden widget's repaint marked the map stale, and the catalog's
#: preview, padded to its box's height, reads the box's region while that layout arranges it.
EXTRA_ARRANGED = {(160, 48): 0, (80, 24): 1}


@pytest.mark.parametrize("size", list(MOST))
@run_async
async def test_a_unit_of_other_groups_is_laid_out_once(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path, size: tuple[int, int]
) -> None:
    path = workdir / REGIMENT.name
    shutil.copy(REGIMENT, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=size) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        session = editor.session
        assert session is not None
        layouts, laid_out = counted_layouts(editor)
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
        # The arrangements of the whole screen (every widget placed again).
        arranged: list[bool] = []
        compositor: Any = editor._compositor
        arrange = compositor._arrange_root

        def arranged_whole(root: Any, size: Any, visible_only: bool = True) -> Any:
            if not visible_only:
                arranged.append(True)
            return arrange(root, size, visible_only)

        compositor._arrange_root = arranged_whole
        a, b = _units_of_other_groups(editor)
        editor.roster_tree.focus()
        editor.jump_to(a)
        await settle(pilot, editor)
        await sent_problems(pilot, terminal)

        async def check(what: str, most: int) -> None:
            await settle(pilot, editor)
            # Each layout arranges the screen once: not again when the first widget it
            # resized reads its region (a slot shown again had marked the map stale).
            extra = len(arranged) - len(layouts)
            assert 0 <= extra <= EXTRA_ARRANGED[size], (what, len(arranged), len(layouts))
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
            arranged.clear()

        for step, loc in enumerate([b, a, b, a]):
            layouts.clear()
            pane_frames.clear()
            arranged.clear()
            editor.jump_to(loc)
            await check(f"move {step} to {loc}", MOST[size])
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
        arranged.clear()
        await pilot.press("full_stop")
        await check("quick fix", MOST[size])
        assert session.node(b)["entry"] == good


@run_async
async def test_fields_of_other_lengths_lay_nothing_out(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    """Two units of the same kind whose name, notes and count differ in length: moving
    between them refills the text fields and lays nothing out (Textual's field lays the screen
    out whenever its text's width changes; ``SteadyInput``)."""
    path = workdir / REGIMENT.name
    shutil.copy(REGIMENT, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        by_entry: dict[str, list[Any]] = {}
        for n in ev.nodes():
            if not n.is_root and n.entry is not None and n.force is None:
                by_entry.setdefault(n.entry.id, []).append(n)
        a, b = next(v[:2] for v in by_entry.values() if len(v) > 1)
        ops = [
            SetKey(a.loc, "name", "A name much longer than the other unit's"),
            SetKey(a.loc, "notes", "Notes that the other unit does not have at all"),
            SetKey(a.loc, "count", 12),
        ]
        session.apply("lengths", ops, a.loc, a.loc)
        editor.after_edit()
        await settle(pilot, editor)
        layouts, _ = counted_layouts(editor)
        editor.roster_tree.focus()
        editor.jump_to(a.loc)  # (from the roster's own fields: laid out)
        await settle(pilot, editor)
        await sent_problems(pilot, terminal)
        layouts.clear()
        for step, loc in enumerate([b.loc, a.loc, b.loc, a.loc]):
            editor.jump_to(loc)
            await settle(pilot, editor)
            problems = await sent_problems(pilot, terminal)
            assert not problems, (step, problems)
            assert not screen_problems(app, editor), (step, screen_problems(app, editor))
            name = editor.details.query_one("#d-name", Input).value
            assert name == (session.node(loc).get("name") or ""), (step, name)
            assert not layouts, (step, "laid out")
