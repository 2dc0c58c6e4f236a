"""A group's limit on a cost of its choices in the builder (``docs/catalog-format.md``, "A
group's limits on a cost"; Gaslands's build slots): the issues pane shows the over-built
car's issue as the session computes it, with its quick fix; the key applies the fix and the
pane then reads that the roster is legal."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_async, wait_editor, wait_for
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.settings import Settings
from armybuilder.tui.widgets.stable import LiveStatic

SYSTEM = """
kind: system
id: sem
name: Semantics
cost_types:
  - {id: slots, name: Slots, unit: slots}
forces:
  - {id: team, name: Team}
"""

ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: car
    name: Car
    type: model
    groups:
      - id: options
        name: Options
        constraints:
          - {id: slot-limit, type: max, value: -1, field: slots, scope: parent}
        modifiers:
          - {type: set, field: 'constraint:slot-limit', value: 2}
        entries:
          - {id: gun, name: Gun, costs: {slots: 1}}
          - {id: armour, name: Armour, costs: {slots: 1}}
"""

OVER = "Car has 4 slots in Options; at most 2 slots allowed"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


def test_the_over_built_car_is_in_the_issues_pane_and_its_fix_applies(
    tmp_path: Path, lib: Library
) -> None:
    @run_async
    async def run() -> None:
        path = tmp_path / "team.yaml"
        path.write_text(
            "system: sem\nfaction: army\nname: T\nselections:\n  - entry: car\n"
            "    selections:\n      - {entry: gun, count: 2}\n      - {entry: armour, count: 2}\n"
        )
        app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
        async with app.run_test(size=(160, 48)) as pilot:
            editor = await wait_editor(pilot)
            session = editor.session
            assert session is not None
            assert [i.message for i in session.evaluate().issues] == [OVER]
            texts = editor.issues.texts()
            (line,) = [t for t in texts if OVER in t]
            fix = "[.] Remove the last 2 choices of Options that cost Slots (to at most 2 slots)"
            assert fix in line
            await pilot.press("f7")
            editor.issues.issue_list.highlighted = texts.index(line)
            await pilot.press("full_stop")
            await wait_for(pilot, lambda: editor.shown_generation == session.generation)
            await wait_for(pilot, lambda: editor.issues.texts() == [])
            title = editor.issues.query_one("#issues-title", LiveStatic)
            assert title.plain == "No issues: the roster is legal"
            # The two armour plates were the last choices: the guns stay.
            assert session.node(("selections", 0))["selections"] == [{"entry": "gun", "count": 2}]

    run()
