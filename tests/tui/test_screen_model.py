"""The screen against the model: what the panes paint is what the session computes.

The panes are read from the compositor (``screen.painted``), i.e. the rows the terminal
receives, stale rows included; the expectations come from the session (``screen.expected_*``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import EXAMPLES, run_async, wait_editor
from screen import check_catalog_lines, expected_catalog, pane_lines

from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]


def catalog_problems(app: ArmyBuilderApp) -> list[str]:
    editor = app.screen
    session = editor.session  # type: ignore[attr-defined]
    tree = editor.catalog.catalog_tree  # type: ignore[attr-defined]
    lines = pane_lines(app, tree)
    return check_catalog_lines(
        lines,
        expected_catalog(session, editor.selected),
        tree.content_region.width,  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(
    "roster",
    ["space-hulk/standard-squad.yaml", "starship-marine/earther-regiment.yaml"],
)
@run_async
async def test_catalog_follows_the_tree_without_focus(make_app: MakeApp, roster: str) -> None:
    """Issue 12, item 1: moving through the roster tree (the catalog not focused) must not
    leave lines of another unit's options in the catalog pane."""
    app = make_app(EXAMPLES / roster)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        tree = editor.roster_tree
        tree.focus()
        await pilot.pause()
        seen = 0
        for _ in range(40):
            await pilot.press(
                "right"
                if tree.cursor_node
                and tree.cursor_node.allow_expand
                and not tree.cursor_node.is_expanded
                else "down"
            )
            await pilot.pause()
            problems = catalog_problems(app)
            assert not problems, (editor.selected, problems)
            seen += 1
        assert seen


@run_async
async def test_details_group_list_after_another_unit(make_app: MakeApp) -> None:
    """Issue 12, item 1: a unit's "Weapons (any number)" list is painted again after another
    kind of unit was shown (it stayed blank: the new widget was taken for the old one)."""
    app = make_app(EXAMPLES / "starship-troopers/mi-squad.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        for key in ["down", "right", "down"]:  # the squad, expanded, its troopers
            await pilot.press(key)
            await pilot.pause()
        assert editor.selected == ("selections", 0, "selections", 0)
        for key in ["up", "down", "up", "down"]:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
        text = "\n".join(pane_lines(app, editor.details))
        assert "Weapons (any number)" in text
        after = text.split("Weapons (any number)", 1)[1].lstrip("\n").splitlines()[0]
        assert "Morita Assault Rifle" in after, text
