"""A catalog line is fitted to the width it is drawn at when the list's scrollbar comes or
goes (Pilot, 80x24, where the list shows its scrollbar only when needed): Textual's own cache
of drawn tree lines is keyed by the widget's width, which counts the scrollbar's column, so a
line fitted without the bar came back from it under the bar, its count cut two columns short
("Campaign…  1 chos")."""

from __future__ import annotations

from collections.abc import Callable

from conftest import EXAMPLES, run_async, wait_editor
from screen import check_catalog_lines, expected_catalog
from textual.widget import Widget

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.catalog import CatalogTree

MakeApp = Callable[..., ArmyBuilderApp]


def drawn(tree: CatalogTree) -> list[str]:
    """The tree's lines as drawn now, cut where the pane shows them (beside the scrollbar)."""
    width = tree.scrollable_content_region.width
    return [
        tree._render_line(y, 0, tree.size.width, tree.rich_style).text[:width].rstrip()
        for y in range(len(tree._tree_lines))
    ]


@run_async
async def test_lines_are_fitted_again_when_the_scrollbar_comes_and_goes(make_app: MakeApp) -> None:
    app = make_app(EXAMPLES / "starship-marine" / "earther-regiment.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.pause()
        session = editor.session
        assert session is not None
        tree = editor.catalog.catalog_tree
        assert not tree.show_vertical_scrollbar  # (the list fits: no bar)
        options = expected_catalog(session, editor.selected)
        assert check_catalog_lines(drawn(tree), options, tree.scrollable_content_region.width) == []
        assert any("…" in line for line in drawn(tree)), (
            "no line was fitted: the test shows nothing"
        )
        wide = tree.scrollable_content_region.width
        for show in (True, False):  # the bar arrives, then goes, with the tree unchanged
            tree.set_reactive(Widget.show_vertical_scrollbar, show)
            width = tree.scrollable_content_region.width
            assert width == (wide - tree.styles.scrollbar_size_vertical if show else wide)
            assert check_catalog_lines(drawn(tree), options, width) == [], show
