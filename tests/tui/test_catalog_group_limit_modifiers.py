"""The catalog pane when a modifier raises a group's maximum (one more special weapon where
the squad has five troopers; ``docs/catalog-format.md``, "Modifiers of a group's limits"):
the group's heading shows the raised limit the session computes
(:meth:`EditSession.group_limits`), and Enter on a second weapon adds it beside the first
instead of swapping the first out, as it does while the limit is 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
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
  - id: squad
    name: Squad
    type: unit
    entries:
      - {id: trooper, name: Trooper, type: model}
    groups:
      - id: special
        name: Special weapon
        max: 1
        modifiers:
          - type: increment
            field: max
            value: 1
            conditions: [{type: at-least, value: 5, scope: self, child: trooper}]
        entries:
          - {id: flamer, name: Flamer}
          - {id: melta, name: Melta}
"""

SQUAD = ("selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, ARMY)


def heading(editor: EditorScreen) -> str:
    """What the screen shows on the catalog's Special weapon heading."""
    tree = editor.catalog.catalog_tree
    for y in range(tree.last_line + 1):
        tree.scroll_to(y=max(0, y - 1), animate=False, immediate=True)
        text = tree.render_line(y - int(tree.scroll_offset.y)).text
        if "Special weapon" in text:
            return text.strip(" ▼▶-└├│")
    raise AssertionError("no Special weapon heading")


async def press_enter_on(pilot: Pilot[Any], editor: EditorScreen, option_id: str) -> None:
    await pilot.press("f4")
    await pilot.pause()
    for key in ["up"] * 8 + ["down"] * 8:
        if editor.catalog.highlighted() == option_id:
            break
        await pilot.press(key)
    assert editor.catalog.highlighted() == option_id
    await pilot.press("enter")
    await pilot.pause()


def chosen(editor: EditorScreen) -> list[str]:
    session = editor.session
    assert session is not None
    return sorted(s["entry"] for s in session.node(SQUAD).get("selections") or [])


@pytest.mark.parametrize(("troopers", "after"), [(4, ["melta", "trooper"]), (5, None)])
def test_the_raised_maximum_is_shown_and_takes_one_more(
    tmp_path: Path, lib: Library, troopers: int, after: list[str] | None
) -> None:
    @run_async
    async def run() -> None:
        path = tmp_path / "squad.yaml"
        path.write_text(
            "system: sem\nfaction: army\nname: T\nselections:\n  - entry: squad\n"
            f"    selections:\n      - {{entry: trooper, count: {troopers}}}\n"
            "      - {entry: flamer}\n"
        )
        app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
        async with app.run_test(size=(160, 48)) as pilot:
            editor = await wait_editor(pilot)
            editor.jump_to(SQUAD)
            await pilot.pause()
            session = editor.session
            assert session is not None
            limit = session.group_limits(SQUAD)["special"]
            most = 1 if troopers < 5 else 2
            assert (limit.maximum, limit.selected) == (most, 1)
            assert heading(editor).endswith(f"Special weapon ({limit.range_text}) 1/{most}")
            await press_enter_on(pilot, editor, "melta")
            want = after or ["flamer", "melta", "trooper"]
            await wait_for(pilot, lambda: chosen(editor) == want)
            editor.jump_to(SQUAD)
            await pilot.pause()
            assert heading(editor).endswith(f"1/{most}" if troopers < 5 else "2/2")

    run()
