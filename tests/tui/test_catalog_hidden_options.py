"""The catalog pane lists what the roster may take (issue 18): an entry a modifier hides
(a Legends unit while the roster has no "Show Legends") is neither shown nor found by the
search, and appears once the roster option is taken, goes again when it is undone. After
each step the rows the catalog paints are compared line by line with the session's options
(:meth:`EditSession.options`, through ``expected_catalog_rows``), and the hidden unit's row
is looked for by name: a catalog listing the catalogue's entries, or the options of the
roster before the option changed, fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import catalog_view_problems, painted, pane_lines
from textual.pilot import Pilot
from tiny_library import SEM_SYSTEM, tiny_library

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.settings import Settings

ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - {id: legends, name: Show Legends, type: upgrade}
  - id: captain
    name: Captain
    type: model
    costs: {pts: 80}
  - id: old-captain
    name: Legendary Captain
    type: model
    costs: {pts: 90}
    modifiers:
      - type: set
        field: hidden
        value: true
        conditions: [{type: less-than, value: 1, scope: roster, child: legends}]
  - id: squad
    name: Squad
    type: unit
    entries:
      - {id: trooper, name: Trooper, type: model}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, ARMY)


async def settled(pilot: Pilot[Any], editor: EditorScreen) -> None:
    s = editor.session
    assert s is not None
    await pilot.pause()
    await wait_for(
        pilot,
        lambda: editor.shown_generation == s.generation and not editor._eval_running,
        timeout=30,
    )
    await pilot.pause()


def catalog_text(app: ArmyBuilderApp, editor: EditorScreen) -> str:
    return "\n".join(pane_lines(app, editor.catalog.catalog_tree, painted(app)))


def offered(editor: EditorScreen) -> list[str]:
    s = editor.session
    assert s is not None
    return [c.entry.name for c in s.options(())]


def test_the_catalog_shows_a_hidden_entry_only_while_the_roster_option_is_taken(
    tmp_path: Path, lib: Library
) -> None:
    @run_async
    async def run() -> None:
        path = tmp_path / "army.yaml"
        path.write_text("system: sem\nfaction: army\nname: T\nselections:\n  - entry: captain\n")
        app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
        async with app.run_test(size=(160, 48)) as pilot:
            editor = await wait_editor(pilot)
            editor.jump_to(())
            await settled(pilot, editor)
            assert offered(editor) == ["Show Legends", "Captain", "Squad"]
            assert catalog_view_problems(app, editor) == []
            assert "Captain" in catalog_text(app, editor)
            assert "Legendary" not in catalog_text(app, editor)

            # the search finds no hidden entry
            editor.catalog.search.focus()
            for key in "legendary":
                await pilot.press(key)
            await settled(pilot, editor)
            assert catalog_view_problems(app, editor) == []
            assert "Legendary Captain" not in catalog_text(app, editor)
            assert "No entry matches" in "\n".join(painted(app))
            await pilot.press("escape")
            await settled(pilot, editor)

            # the roster option taken: the Legends unit is listed, and found
            editor.add_entry("legends", ())
            await settled(pilot, editor)
            editor.jump_to(())
            await settled(pilot, editor)
            assert offered(editor) == ["Show Legends", "Captain", "Legendary Captain", "Squad"]
            assert catalog_view_problems(app, editor) == []
            assert "Legendary Captain" in catalog_text(app, editor)
            editor.catalog.search.focus()
            for key in "legendary":
                await pilot.press(key)
            await settled(pilot, editor)
            assert catalog_view_problems(app, editor) == []
            assert "Legendary Captain" in catalog_text(app, editor)
            await pilot.press("escape")
            await settled(pilot, editor)

            # undone: gone again
            editor.roster_tree.focus()
            editor.action_undo()
            await settled(pilot, editor)
            editor.jump_to(())
            await settled(pilot, editor)
            assert offered(editor) == ["Show Legends", "Captain", "Squad"]
            assert catalog_view_problems(app, editor) == []
            assert "Legendary" not in catalog_text(app, editor)

    run()
