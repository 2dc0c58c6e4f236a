"""The catalog pane when one entry is offered twice under a unit: plainly (a spare rifle at its
own price) and, through a link of its own, as a choice of a pick-one group (the issued rifle,
free, in place of the flamer). Each of the two lines shows its own price (what the roster's
total rises by, :meth:`EditSession.option_infos`) and adds what it shows: Enter on a line
records the option that line names, and the roster's total rises by the price it showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from textual.pilot import Pilot
from tiny_library import SEM_SYSTEM, tiny_library

from armybuilder.catalog import Library
from armybuilder.session import costs_text
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.settings import Settings

SYSTEM = (
    SEM_SYSTEM
    + """shared_entries:
  - {id: rifle, name: Rifle, type: upgrade, costs: {pts: 5}}
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
  - id: team
    name: Team
    type: unit
    costs: {pts: 10}
    entries:
      - {link: rifle, id: team-spare}
    groups:
      - id: team-weapon
        name: Team weapon
        min: 1
        max: 1
        default: rifle
        entries:
          - {link: rifle, id: team-issued, costs: {pts: 1}}
"""

ROSTER = """system: sem
faction: army
name: Twice
selections:
  - entry: squad
    selections:
      - entry: flamer
  - entry: team
    selections:
      - entry: team-issued
"""

SQUAD = ("selections", 0)
TEAM = ("selections", 1)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


def leaf_lines(editor: EditorScreen) -> list[tuple[str, str]]:
    """(id the line adds, what the screen shows on it) for every entry line of the catalog."""
    tree = editor.catalog.catalog_tree
    out = []
    for y in range(tree.last_line + 1):
        node = tree.get_node_at_line(y)
        assert node is not None
        if node.data is None:
            continue
        tree.scroll_to(y=max(0, y - 1), animate=False, immediate=True)
        shown = tree.render_line(y - int(tree.scroll_offset.y)).text
        out.append((node.data, shown))
    return out


async def press_enter_on(pilot: Pilot[Any], editor: EditorScreen, option_id: str) -> None:
    """Move the catalog's cursor to the line that adds ``option_id`` with the keyboard and
    press Enter."""
    await pilot.press("f4")
    await pilot.pause()
    catalog = editor.catalog
    for key in ["up"] * 8 + ["down"] * 8:
        if catalog.highlighted() == option_id:
            break
        await pilot.press(key)
    assert catalog.highlighted() == option_id
    await pilot.press("enter")
    await pilot.pause()


def total(editor: EditorScreen) -> float:
    session = editor.session
    assert session is not None
    return session.evaluate().totals.get("pts", 0.0)


def entries(editor: EditorScreen, loc: tuple[Any, ...]) -> list[str]:
    session = editor.session
    assert session is not None
    return [s["entry"] for s in session.node(loc).get("selections") or []]


@run_async
async def test_each_line_adds_what_it_shows_at_its_own_price(tmp_path: Path, lib: Library) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text(ROSTER)
    app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(SQUAD)
        await pilot.pause()
        lines = leaf_lines(editor)
        # Two Rifle lines, one per option: the spare rifle at its own 5 pts, the group's
        # rifle at what swapping the 3-pt flamer for the free issued rifle changes (-3).
        assert [i for i, _ in lines] == ["rifle", "issued-rifle", "flamer"]
        session = editor.session
        assert session is not None
        shown = [line.split(maxsplit=1)[1].rstrip() for _, line in lines]  # (the tree's guide)
        assert shown[0] == "Rifle  Points 5", lines
        assert shown[1] == "Rifle  Points -3", lines
        expected = [
            (5.0, ["flamer", "rifle"]),  # added beside the flamer
            (-3.0, ["issued-rifle"]),  # the group's choice: the flamer is swapped out
        ]
        for n, (rise, after) in enumerate(expected):
            before = total(editor)
            await press_enter_on(pilot, editor, lines[n][0])
            await wait_for(pilot, lambda after=after: entries(editor, SQUAD) == after)  # type: ignore[misc]
            assert total(editor) - before == rise
            # The price the line showed is that rise.
            assert shown[n] == f"Rifle  {costs_text(session.index, {'pts': rise})}", lines
            await pilot.press("ctrl+z")
            await wait_for(pilot, lambda: entries(editor, SQUAD) == ["flamer"])
            editor.jump_to(SQUAD)
            await pilot.pause()


@run_async
async def test_a_groups_line_adds_the_groups_usual_choice(tmp_path: Path, lib: Library) -> None:
    """A on a pick-one group's heading adds its default through the group's own link (1 pt),
    not the plain option of the same entry (a 5-pt spare)."""
    path = tmp_path / "twice.yaml"
    path.write_text(ROSTER.replace("    selections:\n      - entry: team-issued\n", ""))
    app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(TEAM)
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        for _ in range(4):  # to the group's option, then Shift+Left to its heading
            if editor.catalog.highlighted() == "team-issued":
                break
            await pilot.press("down")
        await pilot.press("shift+left")
        await pilot.pause()
        section = editor.catalog.highlighted_section()
        assert section is not None and section[0] == "Team weapon"
        before = total(editor)
        await pilot.press("a")
        await wait_for(pilot, lambda: entries(editor, TEAM) == ["team-issued"])
        assert total(editor) - before == 1.0
