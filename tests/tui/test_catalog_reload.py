"""Catalogs are read again without a restart (Pilot, headless): a catalog author saves a file
in the user catalog folder while a roster is open, and the catalog pane shows the new entry; a
half-written file says what is wrong and the previous catalogs stay in use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import DEMO_CATALOGS, run_async, wait_editor, wait_for

from armybuilder.catalog import Library
from armybuilder.paths import user_catalog_dir

BOOK = """\
kind: catalog
id: my-book
system: demo-wars
extends: red-army
name: My army book
entries:
  - id: scout-bike
    name: Scout Bike
    type: unit
    categories: [troops]
    costs: {pts: 15}
"""


def catalog_lines(editor: Any) -> list[str]:
    tree = editor.catalog.catalog_tree
    out = []
    for y in range(tree.last_line + 1):
        node = tree.get_node_at_line(y)
        if node is not None:
            out.append(node.label.plain)
    return out


def notices(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


@run_async
async def test_a_new_catalog_file_shows_in_the_open_roster(make_app: Any, workdir: Path) -> None:
    folder = user_catalog_dir() / "demo-wars"
    folder.mkdir(parents=True)
    library = Library([DEMO_CATALOGS, user_catalog_dir()]).scan()
    app = make_app(workdir / "patrol.yaml", library=library, catalog_poll_seconds=0.1)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await wait_for(pilot, lambda: app._catalog_stamp is not None)
        assert not any("Scout Bike" in line for line in catalog_lines(editor))
        book = folder / "my-book.yaml"
        book.write_text(BOOK)
        await wait_for(pilot, lambda: any("Scout Bike" in line for line in catalog_lines(editor)))
        await wait_for(pilot, lambda: any("my-book.yaml changed" in n for n in notices(app)))
        assert editor.session is not None
        assert "scout-bike" in editor.session.index.entries
        reloaded = app.get_library()
        assert reloaded is not library
        # A broken save: its message, and the previous catalogs (Scout Bike) stay in use.
        book.write_text(BOOK.replace("costs: {pts: 15}", "costs: {pts: [15"))
        await wait_for(pilot, lambda: any("previous catalogs stay" in n for n in notices(app)))
        message = next(n for n in notices(app) if "previous catalogs stay" in n)
        assert "my-book.yaml" in message
        assert app.get_library() is reloaded
        assert any("Scout Bike" in line for line in catalog_lines(editor))
        # Fixed again, with the cost changed: the pane shows the new cost.
        book.write_text(BOOK.replace("pts: 15", "pts: 17"))
        await wait_for(
            pilot,
            lambda: any("Scout Bike" in line and "17" in line for line in catalog_lines(editor)),
        )
        # Nothing of the lists of nodes built for the catalogs before is kept: the tree's
        # table of nodes by id holds its root and the list shown.
        browser = editor.catalog
        assert not browser._kept_lists
        shown = len(browser._rows) + len(browser._sections)
        assert len(browser.catalog_tree._tree_nodes) == shown + 1


@run_async
async def test_catalog_folders_given_on_the_command_line_are_watched(
    workdir: Path, tmp_path: Path
) -> None:
    """`armybuilder FILE --catalogs DIR`: the roster's system is only in DIR (a copy of Demo
    Wars), and a book saved there while the roster is open shows in the catalog pane."""
    import shutil

    from armybuilder.tui.app import build_app
    from armybuilder.tui.settings import Settings

    mine = tmp_path / "mine"
    shutil.copytree(DEMO_CATALOGS, mine)
    app = build_app(
        workdir / "patrol.yaml",
        [mine],
        cwd=workdir,
        settings=Settings(),
        catalog_poll_seconds=0.1,
    )
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        await wait_for(pilot, lambda: app._catalog_stamp is not None)
        assert any(line.startswith("Squad") for line in catalog_lines(editor))
        (mine / "demo-wars" / "my-book.yaml").write_text(BOOK)
        await wait_for(pilot, lambda: any("Scout Bike" in line for line in catalog_lines(editor)))
        await wait_for(pilot, lambda: any("my-book.yaml changed" in n for n in notices(app)))
