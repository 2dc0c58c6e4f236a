"""The catalog pane's "n/max" when one entry is offered twice under a unit (plainly, through
one link, and as a pick-one group's choice, through another) and its maximum is counted per
link (BattleScribe's default ``shared="false"``; ``shared-flag-semantics.md`` of the
conformance suite's notes, "`shared` on Constraints"): each line shows its own option's count
against its own limit, the numbers the session computes (:meth:`EditSession.option_infos`),
never the count of every selection of the entry ("2/1" on a line whose limit one meets)."""

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

SYSTEM = (
    SEM_SYSTEM
    + """shared_entries:
  - id: rifle
    name: Rifle
    type: upgrade
    costs: {pts: 5}
    constraints:
      - {id: one-rifle, type: max, value: 1, scope: parent, per_link: true}
"""
)

ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    costs: {pts: 10}
    entries:
      - {link: rifle, id: spare-rifle}
    groups:
      - id: weapon
        name: Weapon
        min: 1
        max: 1
        entries:
          - {link: rifle, id: issued-rifle, costs: {pts: 0}}
          - {id: flamer, name: Flamer, type: upgrade, costs: {pts: 3}}
"""

ROSTER = """system: sem
faction: army
name: Twice
selections:
  - entry: squad
    selections:
      - entry: issued-rifle
"""

SQUAD = ("selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


def leaf_lines(editor: EditorScreen) -> dict[str, str]:
    """What the screen shows on the catalog line of each option, by the id it adds."""
    tree = editor.catalog.catalog_tree
    out = {}
    for y in range(tree.last_line + 1):
        node = tree.get_node_at_line(y)
        assert node is not None
        if node.data is None:
            continue
        tree.scroll_to(y=max(0, y - 1), animate=False, immediate=True)
        text = tree.render_line(y - int(tree.scroll_offset.y)).text
        out[node.data] = text.split(maxsplit=1)[1].rstrip()  # (the tree's guide dropped)
    return out


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


def rifles(editor: EditorScreen) -> int:
    session = editor.session
    assert session is not None
    return len(session.node(SQUAD).get("selections") or [])


@run_async
async def test_each_rifle_line_counts_its_own_link(tmp_path: Path, lib: Library) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(ROSTER)
    app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(SQUAD)
        await pilot.pause()
        session = editor.session
        assert session is not None
        # (spare rifle line, group's rifle line) after 0, 1 and 2 spare rifles added.
        expected = [("0/1", "1/1"), ("1/1", "1/1"), ("2/1", "1/1")]
        for added, (spare, issued) in enumerate(expected):
            if added:
                await press_enter_on(pilot, editor, "rifle")
                await wait_for(pilot, lambda n=added: rifles(editor) == n + 1)  # type: ignore[misc]
                editor.jump_to(SQUAD)
                await pilot.pause()
            lines = leaf_lines(editor)
            assert lines["rifle"] == f"Rifle  Points 5  {spare}", lines
            assert lines["issued-rifle"].endswith(f"  {issued}"), lines
            # The same figures the session computes for each option.
            for info in session.option_infos(SQUAD):
                if info.limit.count_text:
                    assert lines[info.entry_id].endswith(f"  {info.limit.count_text}"), lines
