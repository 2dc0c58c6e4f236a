"""Saving a roster opened from a BattleScribe .ros (Pilot, headless): it saves as YAML beside
the .ros, and a YAML file of that name already there is not replaced unasked. Needs the
BattleScribe test data (../shared/bsdata); skips with a message where it is absent."""

from __future__ import annotations

import re
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


OTHER = TEAM.replace("name: Team", "name: Other team").replace(
    "  - entry: b5d8-cf00-181a-b503   # Bike, 5 cans\n", ""
)
BIKE = "b5d8-cf00-181a-b503"


def _team_beside_other(tmp_path: Path, lib: Library) -> tuple[Path, Path, str]:
    from armybuilder.interop.battlescribe.rosfile import to_ros
    from armybuilder.rosters import Roster

    ros = tmp_path / "team.ros"
    ros.write_text(to_ros(Roster.from_text(TEAM, "t"), lib), encoding="utf-8")
    beside = tmp_path / "team.yaml"
    beside.write_text(OTHER, encoding="utf-8")
    return ros, beside, OTHER


def _bikes(text: str) -> int:
    from armybuilder.rosters import Roster

    sels = Roster.from_text(text, "t").doc["selections"]
    return sum(int(s.get("count", 1)) for s in sels if s["entry"] == BIKE)


@pytest.mark.parametrize("keys", [("f12", "enter", "enter"), ("ctrl+s", "enter")])
@run_async
async def test_save_as_over_the_yaml_beside_a_ros_never_reloads_it(
    make_app: Any, tmp_path: Path, keys: tuple[str, ...]
) -> None:
    """Opening team.ros (with another roster saved as team.yaml beside it), adding a Bike and
    pressing F12, Enter (the proposed team.yaml) showed "Changed on disk" with Reload focused:
    a second Enter read the other roster in and dropped the converted one and its edit. Now
    it asks to replace the file, Cancel focused: Enter writes nothing and keeps the edit."""
    lib = Library([BSDATA]).scan()
    ros, beside, other = _team_beside_other(tmp_path, lib)
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        bikes = _bikes(s.roster.dumps())
        assert editor._edit(lambda sess: sess.add((), BIKE))
        await pilot.pause()
        before = s.roster.dumps()
        assert _bikes(before) == bikes + 1
        for key in keys[:-1]:
            await pilot.press(key)
            await pilot.pause()
        await wait_screen(pilot, "confirm-overwrite")
        assert app.focused is not None and app.focused.id == "cancel"
        await pilot.press(keys[-1])  # Enter on the focused button: Cancel
        await wait_for(pilot, lambda: app.screen is editor)
        await pilot.pause()
        assert editor.session is s and s.dirty
        assert s.roster.dumps() == before
        assert beside.read_text(encoding="utf-8") == other
        # Asked again, Replace writes this roster (with the added Bike) there.
        await pilot.press(keys[0])
        await pilot.pause()
        if keys[0] == "f12":
            await pilot.press("enter")
        await wait_screen(pilot, "confirm-overwrite")
        await pilot.click("#overwrite")
        await wait_for(pilot, lambda: not s.dirty)
    assert _bikes(beside.read_text(encoding="utf-8")) == bikes + 1


@run_async
async def test_the_file_replaced_is_kept_after_the_next_save(make_app: Any, tmp_path: Path) -> None:
    """Replace kept the other roster only as team.yaml.bak, which the next Ctrl+S overwrote
    with this roster's previous version: the other roster was gone. Now it is kept as
    team.yaml.replaced-<date>-<time> (the dialog and the notice say so) and later saves
    leave it alone."""
    lib = Library([BSDATA]).scan()
    ros, _beside, other = _team_beside_other(tmp_path, lib)
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        await pilot.press("ctrl+s")
        await wait_screen(pilot, "confirm-overwrite")
        assert "team.yaml.replaced-" in str(app.screen.query_one(".dialog-message").render())
        await pilot.click("#overwrite")
        await wait_for(pilot, lambda: not s.dirty)
        kept = sorted(tmp_path.glob("team.yaml.replaced-*"))
        assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == other
        assert any(kept[0].name in n.message for n in app._notifications)
        # A second save (after another edit) replaces the .bak, not the kept file.
        assert editor._edit(lambda sess: sess.add((), BIKE))
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not s.dirty)
        await pilot.pause()
        assert app.screen is editor
    assert "x-battlescribe:" in (tmp_path / "team.yaml.bak").read_text(encoding="utf-8")
    assert sorted(tmp_path.glob("team.yaml.replaced-*")) == kept
    assert kept[0].read_text(encoding="utf-8") == other


@run_async
async def test_at_80x24_the_roster_line_keeps_its_totals_whole(
    make_app: Any, tmp_path: Path
) -> None:
    """Gaslands team.ros at 80x24: the roster's line read "✖ Team  Cans 5 / 4, Build Slots"
    (the build slots' numbers cut at the pane's edge), and after adding a Bike "Cans 10 / 4, ".
    Now the totals take a shorter form that keeps every number ("Cans 5/4, Build Slots 0"),
    names and all where they fit: the painted line
    is exactly the label the session's totals make, with no cut."""
    from screen import expected_tree_label, pane_lines, tree_label

    from armybuilder.session import cost_text

    lib = Library([BSDATA]).scan()
    ros, _beside, _other = _team_beside_other(tmp_path, lib)
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        tree = editor.roster_tree
        for _ in range(2):
            await pilot.pause()
            ev = s.evaluate()
            width = tree.scrollable_content_region.width
            row = pane_lines(app, tree)[0]
            want = expected_tree_label(ev, (), max(8, width - 2))
            assert tree_label(row) == want, (row, want)
            full = cost_text(ev, ev.totals, limits=True)
            assert full.count(",") >= 1 and full not in want  # (too long at this width)
            number = re.compile(r"\d+(?:[.,]\d+)*")
            assert number.findall(want) == number.findall(full)  # every number, whole
            assert editor._edit(lambda sess: sess.add((), BIKE))


@run_async
async def test_quit_and_save_over_the_yaml_beside_a_ros_asks_first(
    make_app: Any, tmp_path: Path
) -> None:
    """Quitting with unsaved changes and choosing Save, on a roster converted from team.ros
    with another roster as team.yaml beside it: the replace question comes (Cancel focused);
    Enter there writes nothing and the builder stays open with the edits."""
    lib = Library([BSDATA]).scan()
    ros, beside, other = _team_beside_other(tmp_path, lib)
    app = make_app(ros, library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        assert editor._edit(lambda sess: sess.add((), BIKE))
        await pilot.pause()
        assert s.dirty
        await app.action_quit()
        await wait_screen(pilot, "confirm-close")
        await pilot.click("#save")
        await wait_screen(pilot, "confirm-overwrite")
        assert app.focused is not None and app.focused.id == "cancel"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is editor)
        assert app.is_running and editor.session is s and s.dirty and not editor.closed
        assert beside.read_text(encoding="utf-8") == other


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
