"""Notices never cover the field or drop-down being used (issue 18).

At 80x24 a Gaslands Machine Gun's Mounting drop-down is the last line of the details pane,
where the notices show (bottom right, above the totals): Ctrl+S pressed on it put "Saved
road-team.yaml" over it and its heading, in tmux. The notices now take the bottom left while
at the right they would cover the focused field or drop-down. Needs the BattleScribe
Gaslands data (../shared/bsdata); skipped with a message where it is absent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import Terminal, normal, painted, pane_lines
from test_screen_model import sent_problems, settle
from test_walk_bsdata import BSDATA, GASLANDS, go_to
from textual.widgets import Select

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.notices import NoticeSlot

MakeApp = Callable[..., ArmyBuilderApp]
GUN = ("selections", 1, "selections", 0)

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(),
    reason=f"the Gaslands BattleScribe data is not at {BSDATA / 'gaslands'}",
)


def drop_down(editor: EditorScreen) -> Select[Any]:
    selects = [s for s in editor.details.query(Select) if s.display and s.region]
    assert selects, "the Machine Gun shows no drop-down"
    return selects[-1]


def covered(app: ArmyBuilderApp, editor: EditorScreen, select: Select[Any]) -> list[str]:
    """How the painted drop-down differs from its label (a notice drawn over it)."""
    rows = painted(app)
    shown = normal(" ".join(pane_lines(app, select, rows)))
    want = normal(next(str(label) for label, value in select._options if value == select.value))
    out = []
    if not shown.startswith(want[:12]) or "▼" not in shown:
        out.append(f"the drop-down is painted {shown!r}, its label is {want!r}")
    for slot in slots(editor):
        if slot.region.overlaps(select.region):
            out.append(f"a notice at {slot.region} covers the drop-down at {select.region}")
    return out


def slots(editor: EditorScreen) -> list[NoticeSlot]:
    """The notices shown."""
    return [s for s in editor.query(NoticeSlot) if s.notice is not None and s.display]


@pytest.mark.parametrize("how", ["saved on it", "tabbed to it"])
@run_async
async def test_a_notice_leaves_the_drop_down_shown(
    make_app: MakeApp, tmp_path: Path, how: str
) -> None:
    path = tmp_path / "road-team.yaml"
    path.write_text(GASLANDS, encoding="utf-8")
    app = make_app(path, library=Library([BSDATA / "gaslands"]).scan(), cwd=tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot, timeout=30)
        await go_to(pilot, editor, GUN)
        await pilot.press("plus")  # an edit, to be saved
        await settle(pilot, editor)
        select = drop_down(editor)
        if how == "saved on it":
            select.focus()
            await pilot.pause()
            await pilot.press("ctrl+s")
        else:
            await pilot.press("ctrl+s")
            await pilot.pause()
            select.focus()
        await wait_for(pilot, lambda: any(s.region for s in slots(editor)))
        await pilot.pause()
        assert app.focused is select
        problems = covered(app, editor, select)
        assert not problems, problems
        assert any("Saved" in line for line in painted(app)), "the notice is not shown"
        problems = await sent_problems(pilot, terminal)
        assert not problems, problems
