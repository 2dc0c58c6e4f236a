"""A container of the details pane draws its background line once, as Textual draws each.

Textual renders every line of a container's background (a ``Blank``) whenever it is
repainted, to give a frame the one or two rows it asks for: 45 lines for the details pane,
as many for its groups box, at each choice or move that touches a row beside them.
``SizedByLayout.render_line`` builds one line and gives it for every row. Checked against
Textual's own rendering of all the lines (``Widget._render_content``), for every such
container of the editor, as the person moves between units, focuses the pane (its colours
change) and resizes the terminal.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor
from test_screen_model import settle
from textual.widget import Widget

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.stable import SizedByLayout

REGIMENT = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


def _differences(editor: EditorScreen) -> tuple[int, list[str]]:
    """The containers compared, and the rows where a line differs from Textual's."""
    wrong: list[str] = []
    compared = 0
    for w in editor.walk_children(Widget):
        if not (isinstance(w, SizedByLayout) and w.is_container and w.size.height > 0):
            continue
        compared += 1
        box: Any = w
        box.refresh()  # (as a repaint leaves it: both build their lines again)
        mine = [list(box.render_line(y)) for y in range(w.size.height)]
        box.refresh()
        Widget._render_content(box)
        textual = [list(line) for line in box._render_cache.lines]
        if mine != textual:
            y = next(y for y, (a, b) in enumerate(zip(mine, textual, strict=False)) if a != b)
            wrong.append(f"{w!r} row {y}: {mine[y]!r}, Textual draws {textual[y]!r}")
    return compared, wrong


@run_async
async def test_a_container_s_background_line_is_textual_s(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    path = workdir / REGIMENT.name
    shutil.copy(REGIMENT, path)
    app = make_app(path, sync_budget_ms=1e9)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await settle(pilot, editor)
        session = editor.session
        assert session is not None
        units = [n.loc for n in session.evaluate().nodes() if not n.is_root][:6]
        checked = 0
        for step, loc in enumerate(units):
            editor.jump_to(loc)
            if step == 2:
                await pilot.press("f6")  # the details focused: its colours change
            if step == 4:
                await pilot.resize_terminal(100, 30)
            await settle(pilot, editor)
            compared, wrong = _differences(editor)
            assert not wrong, (loc, wrong)
            checked += compared
        assert checked >= 12, checked
