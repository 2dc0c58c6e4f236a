"""A drop-down's open list at 80x24 shows each option on one line (issue 18).

The open list was as wide as the details pane's drop-down, 18 columns at 80x24: Space Station
Zero's Edge list (in tmux) wrapped "Shapeshifters" as "Shapeshifter" / "s" and "Armored
Force" over two lines. It is now as wide as its longest option (up to most of the screen),
moved left where the room to its right is short, and whole on the screen. Needs the
BattleScribe Space Station Zero data (../shared/bsdata); skipped with a message where it is
absent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import Terminal, painted, pane_lines
from test_screen_model import sent_problems, settle
from test_walk_bsdata import BSDATA, CREW, go_to
from textual.geometry import Region
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]
SHIP = ("selections", 1)

pytestmark = pytest.mark.skipif(
    not (BSDATA / "space-station-zero").is_dir(),
    reason=f"the Space Station Zero BattleScribe data is not at {BSDATA / 'space-station-zero'}",
)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_the_open_list_shows_each_option_whole(
    make_app: MakeApp, tmp_path: Path, size: tuple[int, int]
) -> None:
    path = tmp_path / "crew.yaml"
    path.write_text(CREW, encoding="utf-8")
    app = make_app(path, library=Library([BSDATA / "space-station-zero"]).scan(), cwd=tmp_path)
    async with app.run_test(size=size) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot, timeout=30)
        await go_to(pilot, editor, SHIP)
        selects = [s for s in editor.details.query(Select) if s.display and s.region]
        assert len(selects) == 2, selects  # Ship Type, Edge
        select = selects[-1]
        select.focus()
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: select.expanded)
        await settle(pilot, editor)
        overlay = select.query_one(SelectOverlay)
        assert Region(0, 0, *size).contains_region(overlay.region), overlay.region
        assert overlay.region.width >= select.region.width
        labels = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
        rows = painted(app)
        lines = [line.strip() for line in pane_lines(app, overlay, rows)]
        shown = overlay.scrollable_content_region.height
        assert lines == labels[:shown], (lines, labels)
        assert "Shapeshifters" in labels
        problems = await sent_problems(pilot, terminal)
        assert not problems, problems
