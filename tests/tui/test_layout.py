"""Small terminals (issue 12, item 8): every screen and dialog usable at 80x24; the totals bar
one row at any width, its costs and verdict in full and "+N more" for the values it leaves out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, TUI_ALL, run_async, wait_editor, wait_for, wait_screen
from screen import normal, painted, pane_lines, totals_problems
from textual.screen import ModalScreen
from textual.widgets import Button

from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]
ROSTERS = sorted(str(p.relative_to(EXAMPLES)) for p in EXAMPLES.glob("*/*.yaml"))


def assert_usable(app: ArmyBuilderApp) -> None:
    """Every button of the dialog on top is inside the screen and inside the dialog."""
    screen = app.screen
    assert isinstance(screen, ModalScreen), screen
    area = screen.region
    buttons = list(screen.query(Button))
    assert buttons, f"{screen.id} has no buttons"
    dialog = screen.query_one(".dialog")
    for button in buttons:
        region = button.region
        assert region.area > 0, (screen.id, button.id, "not shown")
        assert area.contains_region(region), (screen.id, button.id, region, area)
        assert dialog.region.contains_region(region), (screen.id, button.id, region, dialog.region)


#: At 80 columns the roster with the longest totals per system; at 120 every other example
#: roster (every one with ARMYBUILDER_TUI_ALL=1).
NARROW_TOTALS = [
    "infantry-ops/rifle-srm-platoon.yaml",
    "space-hulk/techmarine-tarantula.yaml",
    "starmarines/norx-example.yaml",
    "starship-marine/earther-regiment.yaml",
    "starship-troopers/arachnid-swarm.yaml",
]
TOTALS_CASES = [(r, (120, 40)) for r in ROSTERS if TUI_ALL or r not in NARROW_TOTALS] + [
    (r, (80, 24)) for r in NARROW_TOTALS
]


@pytest.mark.parametrize(("roster", "size"), TOTALS_CASES)
@run_async
async def test_totals_one_row(make_app: MakeApp, roster: str, size: tuple[int, int]) -> None:
    app = make_app(EXAMPLES / roster)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        assert editor.session is not None and editor.session.evaluation is not None
        assert editor.totals.region.height == 1, editor.totals.region
        rows = pane_lines(app, editor.totals)
        problems = totals_problems(editor.session.evaluation, rows)
        assert not problems, problems


@run_async
async def test_totals_refit_on_resize(make_app: MakeApp) -> None:
    """The boarding group's bar wrapped onto a second row at 80x24 ("+10 more:" / "the
    roster's details"); now each width shows one row with what fits, fitted again when the
    terminal is resized, and the row above it (the panes) keeps its place."""
    app = make_app(EXAMPLES / "starship-marine/martian-boarding-group.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        ev = editor.session.evaluation if editor.session else None
        assert ev is not None
        seen = set()
        for size in [(80, 24), (160, 48), (60, 24), (100, 30), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            rows = painted(app)
            assert editor.totals.region.y == size[1] - 2, (size, editor.totals.region)
            shown = pane_lines(app, editor.totals, rows)
            problems = totals_problems(ev, shown)
            assert not problems, (size, problems)
            seen.add(shown[0])
            # Nothing of the bar spills onto the footer's row.
            assert "roster's details" not in rows[-1], rows[-1]
        # Wider terminals show more: the texts differ between 60, 80 and 160 columns.
        assert len(seen) >= 3, seen


@run_async
async def test_editor_panes_at_80x24(make_app: MakeApp) -> None:
    """The roster tree gets room for a unit's name and cost; every pane shows."""
    app = make_app(EXAMPLES / "starship-marine/earther-regiment.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        tree = editor.roster_tree
        await pilot.press("f3")
        await pilot.pause()
        assert tree.scrollable_content_region.width >= 33, tree.region
        for widget in (editor.catalog.catalog_tree, tree, editor.issues.issue_list, editor.details):
            assert widget.region.height >= 3, (widget, widget.region)
        rows = painted(app)
        assert any("Earther" in r or "Regiment" in r for r in rows)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_dialogs_fit(make_app: MakeApp, tmp_path: Path, size: tuple[int, int]) -> None:
    path = tmp_path / "squad.yaml"
    path.write_bytes((EXAMPLES / "space-hulk/standard-squad.yaml").read_bytes())
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, "home")
        for key, dialog in (("o", "open"), ("n", "new-roster-dialog")):
            await pilot.press(key)
            await wait_for(pilot, lambda d=dialog: app.screen.id == d)  # type: ignore[misc]
            await pilot.pause()
            assert_usable(app)
            await pilot.press("escape")
            await wait_screen(pilot, "home")
        app.open_roster(path)
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.press("down", "d")
        for key, dialog in (
            ("f12", "save-as"),
            ("ctrl+e", "export-text"),
            ("ctrl+r", "export-pdf"),
            ("ctrl+w", "confirm-close"),
        ):
            await pilot.press(key)
            await wait_for(pilot, lambda d=dialog: app.screen.id == d)  # type: ignore[misc]
            await pilot.pause()
            assert_usable(app)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is editor)
        # The save conflict prompt.
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen.id == "changed-on-disk")
        await pilot.pause()
        assert_usable(app)


@run_async
async def test_at_80x24_the_catalog_shows_whole_names_while_it_has_the_focus(
    make_app: MakeApp,
) -> None:
    """The catalog pane widens while it has the focus (and gives the room back to the roster
    tree after): every entry line painted shows its name in full, as the session names the
    options (Starship Marine's formations: 'Marine Regiment', 'Logistics Group')."""
    from screen import check_catalog_lines, expected_catalog, tree_label

    app = make_app(EXAMPLES / "starship-marine/earther-regiment.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("f3")
        await pilot.pause()
        narrow = editor.catalog.catalog_tree.scrollable_content_region.width
        await pilot.press("f4")
        await pilot.pause()
        await pilot.pause()
        tree = editor.catalog.catalog_tree
        width = tree.scrollable_content_region.width
        assert width >= 30 > narrow, (width, narrow)
        lines = pane_lines(app, tree)
        options = expected_catalog(s, editor.selected)
        assert check_catalog_lines(lines, options, width) == []
        names = {c.entry.name for c in s.options(())}
        leaves = [tree_label(r) for r in lines if r.lstrip(" ")[:1] in set("├└│")]
        assert leaves
        room = width - 2  # (the guide before an entry)
        for leaf in leaves:
            # A name is cut only where it and the price or count after it cannot both fit
            # ("Campaign rules (pa…  1 chosen"): the figures always show whole.
            if "…" in leaf:
                full = next(o for o in options if o.startswith(leaf.split("…")[0]))
                assert len(full) > room, (leaf, full)
            else:
                assert any(leaf.startswith(n) for n in names), (leaf, names)
        assert sum("…" not in leaf for leaf in leaves) >= len(leaves) - 1
        await pilot.press("f3")
        await pilot.pause()
        assert editor.roster_tree.scrollable_content_region.width >= 33


@run_async
async def test_at_80x24_a_long_issue_is_read_from_its_start(
    make_app: MakeApp, workdir: Path
) -> None:
    """An issue taller than the issues pane (wrapped at 80 columns) shows its first lines
    when highlighted, not its last: the painted pane starts with its mark and message."""
    from screen import expected_issue_text

    text = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text()
    path = workdir / "squad.yaml"
    for name in ("Deino", "Zael"):  # two misspelt entries: two long errors, one after the other
        text = text.replace(
            f"entry: terminator\n        name: Brother {name}",
            f"entry: termintor\n        name: Brother {name}",
        )
    path.write_text(text)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None and s.evaluation is not None
        items = expected_issue_text(s.evaluation)
        assert len(items) == 3
        box = editor.issues.issue_list
        await pilot.press("f7")
        for key, index in (("down", 1), ("down", 2), ("up", 1), ("up", 0)):
            await pilot.press(key)
            await pilot.pause()
            assert box.highlighted == index
            rows = [r.strip() for r in pane_lines(app, box)]
            if index < 2:  # each error is taller than the pane: it shows its start
                assert len(normal(" ".join(rows))) < len(normal(items[index])), rows
            assert normal(items[index]).startswith(normal(" ".join(rows[:2]))), (rows, items)
