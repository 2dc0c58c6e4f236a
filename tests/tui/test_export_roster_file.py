"""The builder writes a roster of BattleScribe data back as BattleScribe's ``.ros`` (issue 18:
"save it as our YAML roster, or back as .ros that BattleScribe opens"): Ctrl+G (Export roster
file), and Save as (F12) with a name ending ``.ros`` or ``.rosz``. Before, only the command
line's ``export --to ros`` could, and Save as ``team.ros`` wrote YAML to ``team.ros.yaml``.

What is written is the roster as the screen shows it (unsaved edits included), the same
bytes as ``to_ros`` of that roster; a file already there is replaced only once the player
says so and is kept aside; the roster itself stays YAML and keeps its unsaved state. Needs
the BattleScribe test data (../shared/bsdata); skips with a message where it is absent.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for, wait_screen
from test_ros_save import BIKE, BSDATA
from test_ros_save import TEAM as ROS_TEAM
from textual.widgets import Input

from armybuilder.catalog import Library
from armybuilder.tui.screens.dialogs import PathScreen

pytestmark = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)
#: The Gaslands team of test_ros_save.py, with room for a second Bike.
TEAM = ROS_TEAM.replace("limits: {cans: 4}", "limits: {cans: 20}")


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


def _ros_of(text: str, lib: Library) -> str:
    """What ``export --to ros`` writes for a roster of this text."""
    from armybuilder.interop.battlescribe.rosfile import to_ros
    from armybuilder.rosters import Roster

    return to_ros(Roster.from_text(text, "team.yaml", round_trip=False), lib)


def _bikes(ros_text: str) -> int:
    """Selections of the Bike in a .ros (its entryId names its link, then the entry)."""
    return ros_text.count(f'::{BIKE}" number="1" type="model"')


async def _answer(pilot: Any, path: Path | None = None) -> None:
    """Confirm the file dialog (with ``path`` typed in, or its default)."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PathScreen))
    await pilot.pause()
    if path is not None:
        pilot.app.screen.query_one("#path-input", Input).value = str(path)
    await pilot.press("enter")


@run_async
async def test_ctrl_g_writes_the_roster_on_screen_as_a_ros(
    make_app: Any, tmp_path: Path, lib: Library
) -> None:
    """A duplicated Bike, not saved: Ctrl+G and Enter write team.ros beside team.yaml with
    two Bikes, the bytes `export --to ros` writes for the roster on screen; team.yaml is
    untouched and the roster stays unsaved."""
    yaml_path = tmp_path / "team.yaml"
    yaml_path.write_text(TEAM, encoding="utf-8")
    app = make_app(yaml_path, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        editor.roster_tree.focus()
        editor.jump_to(("selections", 1))  # the Bike
        await pilot.pause()
        await pilot.press("d")
        await wait_for(pilot, lambda: s.dirty and len(s.node(())["selections"]) == 3)
        await pilot.press("ctrl+g")
        await wait_screen(pilot, "export-roster")
        field = app.screen.query_one("#path-input", Input)
        assert field.value == str(tmp_path / "team.ros")
        on_screen = s.roster.dumps()
        await _answer(pilot)
        out = tmp_path / "team.ros"
        await wait_for(pilot, lambda: editor.last_export is not None, timeout=30)
        assert editor.last_export == (out, None)
        assert s.dirty  # (an export: the roster itself is not saved by it)
        await pilot.pause()
        assert "Wrote " in "".join(str(n.message) for n in app._notifications)
    written = out.read_text(encoding="utf-8")
    assert _bikes(written) == 2
    assert written == _ros_of(on_screen, lib)
    assert yaml_path.read_text(encoding="utf-8") == TEAM


@run_async
async def test_over_the_ros_it_came_from_it_asks_and_keeps_the_old_one(
    make_app: Any, tmp_path: Path, lib: Library
) -> None:
    """Opened from team.ros, the export's default is that file: Cancel leaves it as it was;
    Replace writes it and keeps the old one as team.ros.replaced-<date>-<time>."""
    ros = tmp_path / "team.ros"
    original = _ros_of(TEAM, lib).replace("<roster ", "<!-- the player's -->\n<roster ", 1)
    ros.write_text(original, encoding="utf-8")
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        s.rename((), "Renamed team")
        editor.after_edit()
        await pilot.press("ctrl+g")
        await _answer(pilot)
        await wait_screen(pilot, "confirm-overwrite")
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert ros.read_text(encoding="utf-8") == original
        assert editor.last_export is None
        await pilot.press("ctrl+g")
        await _answer(pilot)
        await wait_screen(pilot, "confirm-overwrite")
        await pilot.click("#overwrite")
        await wait_for(pilot, lambda: editor.last_export is not None, timeout=30)
        assert editor.last_export == (ros, None)
    assert 'name="Renamed team"' in ros.read_text(encoding="utf-8")
    (kept,) = tmp_path.glob("team.ros.replaced-*")
    assert kept.read_text(encoding="utf-8") == original


@run_async
async def test_save_as_a_ros_name_writes_a_ros_not_yaml(
    make_app: Any, tmp_path: Path, lib: Library
) -> None:
    """F12 and `out.ros` wrote YAML to out.ros.yaml; now it writes the .ros (and `.rosz` the
    zipped one, a single .ros inside), and the roster itself is not saved by it."""
    yaml_path = tmp_path / "team.yaml"
    yaml_path.write_text(TEAM, encoding="utf-8")
    app = make_app(yaml_path, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        for name in ("out.ros", "out.rosz"):
            editor.last_export = None
            await pilot.press("f12")
            await _answer(pilot, tmp_path / name)
            await wait_for(pilot, lambda: editor.last_export is not None, timeout=30)
            assert editor.last_export == (tmp_path / name, None)
        assert not s.dirty
    assert not list(tmp_path.glob("out.ros*.yaml"))
    written = (tmp_path / "out.ros").read_text(encoding="utf-8")
    assert written == _ros_of(TEAM, lib)
    with zipfile.ZipFile(io.BytesIO((tmp_path / "out.rosz").read_bytes())) as z:
        (member,) = z.namelist()
        assert z.read(member).decode("utf-8") == written


@run_async
async def test_not_offered_for_a_roster_of_our_own_catalogs(make_app: Any, tmp_path: Path) -> None:
    """A roster of armybuilder's own catalogs has no other program's roster file: Ctrl+G
    opens nothing, and the palette's and footer's check says the action is not there."""
    app = make_app(EXAMPLES / "space-hulk" / "standard-squad.yaml", cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        assert editor.check_action("export_roster", ()) is False
        await pilot.press("ctrl+g")
        await pilot.pause(0.2)
        assert app.screen is editor
        assert editor.last_export is None
