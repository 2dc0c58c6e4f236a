"""The details pane's field labels read whole on a small terminal: a label longer than the
pane ("Build points limit (BP)" on a StarMarines roster at 80x24, 19 cells of text) wraps
instead of being cut at the pane's edge to "Build points limit (", which hid the unit the
limit is typed in. Read from the painted screen (Pilot)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor
from screen import pane_lines
from textual.widgets import Label, Select
from textual.widgets._select import SelectCurrent

from armybuilder.tui.widgets.details import DetailsPane
from armybuilder.tui.widgets.stable import LiveStatic


@run_async
async def test_a_long_limit_label_wraps_whole_in_the_roster_details(
    make_app: Any, workdir: Path
) -> None:
    path = workdir / "norx.yaml"
    shutil.copy(EXAMPLES / "starmarines" / "norx-example.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(())  # the roster itself: its name and its cost limits
        await pilot.pause()
        details = app.screen.query_one(DetailsPane)
        labels = [
            str(w.render()) for w in details.query(".field-label").results(Label) if w.display
        ]
        want = "Build points limit (BP)"
        assert want in labels, labels
        shown = " ".join(line.strip() for line in pane_lines(app, details))
        shown = " ".join(shown.split())
        assert want in shown, shown


@run_async
async def test_a_closed_drop_down_shows_its_whole_label_on_a_small_terminal(
    make_app: Any, workdir: Path
) -> None:
    """A closed drop-down of the details pane reads whole at 80x24: the Norx warband's
    experience, inherited from the roster, is "(inherited: Green)", not "(inherited:" with
    the level on a second line the one-row drop-down did not show."""
    path = workdir / "norx.yaml"
    shutil.copy(EXAMPLES / "starmarines" / "norx-example.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 0))  # Gorrak's warband
        await pilot.pause()
        details = app.screen.query_one(DetailsPane)
        select = details.query_one("#d-exp", Select)
        want = " ".join(str(select.prompt).split())
        assert want.startswith("(inherited: "), want
        details.scroll_to_widget(select, animate=False)
        await pilot.pause()
        current = select.query_one(SelectCurrent)
        shown = " ".join(line.replace("▼", " ") for line in pane_lines(app, current))
        assert want in " ".join(shown.split()), shown


@run_async
async def test_the_issues_heading_reads_whole_beside_the_widened_catalog(
    make_app: Any, workdir: Path
) -> None:
    """At 80x24 the catalog widens while it has the focus and the issues pane narrows to 24
    columns: its heading wraps whole ("No issues: the roster is legal", "Issues: 2 errors,
    0 warnings") instead of being cut to "No issues: the roster" or "Issues: 2 errors, 0"."""
    path = workdir / "norx.yaml"
    shutil.copy(EXAMPLES / "starmarines" / "norx-example.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("f4")
        await pilot.pause()
        title = editor.issues.query_one("#issues-title", LiveStatic)
        assert title.plain == "No issues: the roster is legal"
        assert title.size.width < len(title.plain), title.size  # (the case: narrower)
        shown = " ".join(" ".join(pane_lines(app, title)).split())
        assert shown == title.plain, shown
