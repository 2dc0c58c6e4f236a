"""Saving a roster opened from a BattleScribe .ros (Pilot, headless): it saves as YAML beside
the .ros, and a YAML file of that name already there is not replaced unasked. Needs the
BattleScribe test data (../shared/bsdata); skips with a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for, wait_screen
from screen import painted

from armybuilder.catalog import Library

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)

TEAM = """format: 1
system: gaslands
faction: gaslands
name: Team
limits: {cans: 4}
selections:
  - entry: 7209-f619-ccee-874e   # Sponsor
    selections:
      - entry: 3057-1f8e-63b6-95e6
  - entry: b5d8-cf00-181a-b503   # Bike, 5 cans
"""


@run_async
async def test_ctrl_s_on_a_ros_asks_before_replacing_the_yaml_beside_it(
    make_app: Any, tmp_path: Path
) -> None:
    """Opening team.ros and pressing Ctrl+S wrote team.yaml over the player's other roster
    of that name without a word (only a .bak kept it, until the next save). Now the editor
    asks, as Save as does; Cancel writes nothing, Replace keeps the old file as .bak."""
    from armybuilder.interop.battlescribe.rosfile import to_ros
    from armybuilder.rosters import Roster

    lib = Library([BSDATA]).scan()
    ros = tmp_path / "team.ros"
    ros.write_text(to_ros(Roster.from_text(TEAM, "t"), lib), encoding="utf-8")
    beside = tmp_path / "team.yaml"
    beside.write_text("# another roster, kept by the player\n", encoding="utf-8")
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        assert editor.session is not None
        await pilot.press("ctrl+s")
        await wait_screen(pilot, "confirm-overwrite")
        await pilot.press("escape")
        await pilot.pause()
        assert beside.read_text(encoding="utf-8") == "# another roster, kept by the player\n"
        await pilot.press("ctrl+s")
        await wait_screen(pilot, "confirm-overwrite")
        await pilot.click("#overwrite")
        await pilot.pause()
    assert "x-battlescribe:" in beside.read_text(encoding="utf-8")
    assert (tmp_path / "team.yaml.bak").read_text(encoding="utf-8").startswith("# another")


@run_async
async def test_a_ros_names_the_file_opened_and_the_yaml_it_saves_to(
    make_app: Any, tmp_path: Path
) -> None:
    """The sub-title of team.ros said only "team.yaml" (the file Ctrl+S writes), so a player
    could think another file had opened; it says both until the YAML is written."""
    from armybuilder.interop.battlescribe.rosfile import to_ros
    from armybuilder.rosters import Roster

    lib = Library([BSDATA]).scan()
    ros = tmp_path / "team.ros"
    ros.write_text(to_ros(Roster.from_text(TEAM, "t"), lib), encoding="utf-8")
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        await pilot.pause()
        assert editor.sub_title == "team.ros → saves as team.yaml"
        assert "team.ros → saves as team.yaml" in painted(app)[0]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: (tmp_path / "team.yaml").exists())
        await pilot.pause()
        assert editor.sub_title == "team.yaml"
        assert "team.yaml" in painted(app)[0] and "team.ros" not in painted(app)[0]
