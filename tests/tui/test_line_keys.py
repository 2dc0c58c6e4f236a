"""The catalog and the roster tree reuse a drawn line where the same content is drawn again, by
one key of everything a line's drawing reads (`ContentLines.line_key`). The catalog looks the
widget's own state up once per drawing pass; the key must be the same one, so that a change
to what the key holds reaches both trees (two copies of it could drift apart, and a line
drawn for another state would be shown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import run_async, wait_editor

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.catalog import CatalogTree
from armybuilder.tui.widgets.roster_tree import RosterTree
from armybuilder.tui.widgets.stable import ContentLines

MakeApp = Callable[..., ArmyBuilderApp]


def test_both_trees_key_their_lines_alike() -> None:
    assert CatalogTree.line_key is ContentLines.line_key
    assert RosterTree.line_key is ContentLines.line_key


@run_async
async def test_the_catalogs_pass_state_is_the_trees_state(make_app: MakeApp, workdir: Any) -> None:
    """Each row's key, with the state looked up once for the pass, is the key with the state
    read afresh for that row, as the focus and the cursor move."""
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        tree = editor.query_one(CatalogTree)
        for keys in ([], ["f4"], ["down", "down"], ["f3"]):
            await pilot.press(*keys)
            await pilot.pause()
            passed = tree.row_keys()
            assert passed is not None and any(k is not None for k in passed[1:])
            tree.line_state = lambda: ContentLines.line_state(tree)  # type: ignore[method-assign]
            try:
                fresh = tree.row_keys()
            finally:
                del tree.line_state
            assert passed == fresh, keys
