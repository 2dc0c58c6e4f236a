"""The catalog pane under the keyboard (Pilot, headless, 80x24): the highlighted entry is
always on screen, and its painted row says which entry it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import painted, pane_lines, tree_label

#: A soldier of the rifle platoon's first squad: 44 options, more than the pane's 13 rows.
SOLDIER = ("selections", 0, "selections", 1, "selections", 0)


@run_async
async def test_the_highlighted_entry_stays_on_screen(make_app: Any, workdir: Path) -> None:
    """Down and Up step from entry to entry; the pane scrolls with them (it kept still, the
    highlighted entry below its last row, so Enter added an entry the player could not
    see)."""
    app = make_app(workdir / "rifle-platoon.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(SOLDIER)
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        tree = editor.catalog.catalog_tree
        height = tree.scrollable_content_region.height
        assert tree.last_line >= 2 * height  # (the test needs a list longer than the pane)
        seen = set()
        steps = 2 * height + 2
        for key in ["down"] * steps + ["up"] * (steps + 2):
            await pilot.press(key)
            await pilot.pause()
            top = int(tree.scroll_offset.y)
            row = tree.cursor_line - top
            assert 0 <= row < height, (key, tree.cursor_line, top)
            node = tree.cursor_node
            assert node is not None
            if node.data is None:  # (Up from the first entry at the top: its heading)
                assert tree.cursor_line == 0 and key == "up"
                continue
            name = editor.session.index.name_of(node.data)  # type: ignore[union-attr]
            shown = tree_label(pane_lines(app, tree, painted(app))[row])
            assert name.startswith(shown.split("  ")[0].rstrip("…")), (shown, name)
            seen.add(node.data)
        assert len(seen) > height


@run_async
async def test_a_narrow_catalog_cuts_names_not_prices(make_app: Any, workdir: Path) -> None:
    """At 80x24 the catalog has 19 columns while the roster tree has the focus: an entry's
    name gives way ("Assault r…  8 kg"), never its price or count, which were cut at the
    pane's edge (a 115-point squad read "11"). With the focus, the pane widens and the names
    come back whole."""
    from screen import check_catalog_lines, expected_catalog

    app = make_app(workdir / "rifle-platoon.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(SOLDIER)
        await pilot.pause()
        await pilot.press("f3")
        await pilot.pause()
        tree = editor.catalog.catalog_tree
        options = expected_catalog(session, editor.selected)
        cut = 0
        for y in range(0, tree.last_line + 1, tree.scrollable_content_region.height):
            tree.scroll_to(y=y, animate=False, immediate=True)
            await pilot.pause()
            lines = pane_lines(app, tree, painted(app))
            width = tree.scrollable_content_region.width
            assert check_catalog_lines(lines, options, width) == [], y
            cut += sum("…  " in line for line in lines)
        assert cut  # (names were cut: the test saw the narrow pane)
        await pilot.press("f4")
        await pilot.pause()
        lines = pane_lines(app, tree, painted(app))
        assert check_catalog_lines(lines, options, tree.scrollable_content_region.width) == []
