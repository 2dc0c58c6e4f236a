"""Changing a roster's faction in the builder (`F`): each selection is looked for in the new
faction's catalog by id, then by name; those found keep their name, count, state and
children, those not found stay in the roster as unknown entries (reported, never dropped);
one undoable step. The panes are compared with what the session computes after the change.

The catalogs are Demo Wars (tests/tui/fixtures) plus a second faction written here: its
HQ is the same "Captain" under another id (found by name), without the captain's sword
(which no longer fits), and its squad keeps the id `squad`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import DEMO_CATALOGS, DEMO_ROSTERS, run_async, wait_editor, wait_for
from screen import normal, painted, pane_lines
from test_screen_model import screen_problems, settle
from textual.widgets import Input, Select

from armybuilder.catalog import Library
from armybuilder.session import EditSession, change_faction, plan_faction_change
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.dialogs import FactionScreen
from armybuilder.tui.settings import Settings

BLUE = """\
kind: catalog
id: blue-army
system: demo-wars
name: Blue Army
entries:
  - id: commander
    name: Captain
    type: unit
    categories: [hq]
    costs: {pts: 25}
    experience: true
    profiles:
      - {type: trooper, characteristics: {move: 6, skill: 3, armour: 2}}
  - id: squad
    name: Squad
    type: unit
    categories: [troops]
    experience: true
    constraints:
      - {type: max, value: 5, scope: self, child: model, source: "Demo Wars 3.1"}
    entries:
      - {link: soldier}
"""

SWORD = ("selections", 0, "selections", 0)


@pytest.fixture(scope="module")
def two_factions(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("two-factions")
    shutil.copytree(DEMO_CATALOGS, root, dirs_exist_ok=True)
    (root / "demo-wars" / "blue-army.yaml").write_text(BLUE, encoding="utf-8")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(root / ".cache"))
    lib = Library([root]).scan()
    mp.undo()
    assert not lib.problems, lib.problems
    return lib


def test_selections_kept_by_id_by_name_or_as_unknown(two_factions: Library, tmp_path: Path) -> None:
    path = tmp_path / "patrol.yaml"
    shutil.copy(DEMO_ROSTERS / "patrol.yaml", path)
    s = EditSession.open(path, two_factions, autosave=False)
    before = s.roster.doc["selections"][0]
    plan = plan_faction_change(s, "blue-army")
    assert s.roster.faction == "red-army"  # a plan changes nothing
    assert [(r.label, r.new) for r in plan.by_name] == [("Captain Vos", "commander")]
    assert [(r.label, r.old, r.loc) for r in plan.unfit] == [("Sword", "sword", SWORD)]
    # The two squads, their four soldiers and their weapons keep their ids.
    assert len(plan.by_id) == 2 + 3 + 3
    done = change_faction(s, "blue-army")
    assert done.summary("Blue Army") == plan.summary("Blue Army")
    doc = s.roster.doc
    assert doc["faction"] == "blue-army"
    captain = doc["selections"][0]
    assert captain is before  # the same mapping: name, experience, children kept
    assert (captain["entry"], captain["name"], captain["experience"]) == (
        "commander",
        "Captain Vos",
        "veteran",
    )
    assert captain["selections"][0]["entry"] == "sword"  # kept, unknown now
    ev = s.evaluate()
    unknown = [i for i in ev.issues if i.code == "unknown-entry"]
    assert [i.path for i in unknown] == [SWORD]
    assert s.undo_label == "Change faction to Blue Army"
    s.undo()  # one step back: faction and entry ids as they were
    assert s.roster.doc["faction"] == "red-army"
    assert s.roster.doc["selections"][0]["entry"] == "captain"
    assert not [i for i in s.evaluate().issues if i.code == "unknown-entry"]


def test_a_force_changes_alone(two_factions: Library, tmp_path: Path) -> None:
    path = tmp_path / "patrol.yaml"
    shutil.copy(DEMO_ROSTERS / "patrol.yaml", path)
    s = EditSession.open(path, two_factions, autosave=False)
    s.add_force("patrol", "red-army", "Reserve")
    s.add(("forces", 1), "captain")
    change_faction(s, "blue-army", ("forces", 1))
    forces = s.roster.doc["forces"]
    assert forces[1]["faction"] == "blue-army"
    assert forces[1]["selections"][0]["entry"] == "commander"
    assert forces[0]["selections"][0]["entry"] == "captain"  # the other force is untouched
    assert s.roster.faction == "red-army"


@run_async
async def test_the_panes_show_the_roster_of_the_new_faction(
    two_factions: Library, tmp_path: Path
) -> None:
    path = tmp_path / "patrol.yaml"
    shutil.copy(DEMO_ROSTERS / "patrol.yaml", path)
    app = ArmyBuilderApp(path, library=two_factions, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await settle(pilot, editor)
        await pilot.press("F")
        await wait_for(pilot, lambda: isinstance(app.screen, FactionScreen))
        dialog = app.screen
        dialog.query_one("#faction-choice", Select).value = "blue-army"
        await pilot.pause()
        # The dialog says what would happen, before anything changes.
        said = normal(" ".join(pane_lines(app, dialog.query_one("#faction-preview"))))
        assert said == normal(plan_faction_change(s, "blue-army").summary("Blue Army"))
        assert "Captain Vos → commander" in said and "Sword" in said
        assert s.roster.faction == "red-army"
        await pilot.click("#ok")
        await wait_for(pilot, lambda: s.roster.faction == "blue-army")
        await settle(pilot, editor)
        editor.roster_tree.expand_loc(("selections", 0))
        await settle(pilot, editor)
        assert screen_problems(app, editor) == []
        listed = normal(" ".join(pane_lines(app, editor.issues.issue_list, painted(app))))
        assert "unknown entry 'sword' under Captain Vos" in listed
        tree = normal(" ".join(pane_lines(app, editor.roster_tree)))
        assert "Captain Vos" in tree and "sword" in tree
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: s.roster.faction == "red-army")
        await settle(pilot, editor)
        assert screen_problems(app, editor) == []
        listed = normal(" ".join(pane_lines(app, editor.issues.issue_list, painted(app))))
        assert "unknown entry" not in listed


@pytest.mark.parametrize("pane", ["f3", "f4", "search", "f6", "f7"])
@run_async
async def test_ctrl_t_changes_faction_from_every_pane(
    two_factions: Library, tmp_path: Path, pane: str
) -> None:
    """Ctrl+T opens the faction dialog wherever the focus is: the roster tree (F3), the
    catalog's tree (F4), its search box (/), the details' fields (F6), the issues list (F7).
    In the search box Shift+F still types a capital F (search as you type); Ctrl+T types
    nothing there, and Esc on the dialog leaves the roster and the search as they were."""
    path = tmp_path / "patrol.yaml"
    shutil.copy(DEMO_ROSTERS / "patrol.yaml", path)
    app = ArmyBuilderApp(path, library=two_factions, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await settle(pilot, editor)
        search = editor.catalog.search
        if pane == "search":
            await pilot.press("slash", "C", "F")
            await pilot.pause()
            assert search.value == "CF"  # capitals are typed, no dialog
            assert not isinstance(app.screen, FactionScreen)
            shown = normal(" ".join(pane_lines(app, search)))
            assert "CF" in shown, shown
        else:
            await pilot.press(pane)
            await pilot.pause()
        focused = app.focused
        assert focused is not None
        if pane in ("search", "f6"):  # a text field: a printable key would be typed
            assert isinstance(focused, Input), focused
        before = search.value
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, FactionScreen))
        said = normal(" ".join(painted(app)))
        assert "Change the faction of the roster" in said, said
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is editor)
        assert s.roster.faction == "red-army" and s.history == []
        assert search.value == before
