"""Tests never leave their rosters in a player's "Unsaved work to recover" or recent files.

A builder test that edits a roster and ends without saving (as a crash does) leaves a
recovery journal behind; the suite's fixtures keep it in a temporary state folder
(``ARMYBUILDER_STATE_DIR``, docs/tui.md "Recovery"). Checked by running such a test in a
fresh pytest whose "user" is a throwaway home folder, and looking into that user's folders.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_async, wait_editor

from armybuilder.catalog import Library
from armybuilder.session import EditSession, RecentFiles, list_recoveries
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.settings import Settings

REPO = Path(__file__).resolve().parents[2]
PROBE = "ARMYBUILDER_TEST_LEAK_PROBE"


@pytest.mark.skipif(not os.environ.get(PROBE), reason=f"run by the test below ({PROBE}=1)")
@run_async
async def test_probe_edit_and_leave_without_saving(demo_library: Library, workdir: Path) -> None:
    path = workdir / "patrol.yaml"
    app = ArmyBuilderApp(path, library=demo_library, cwd=workdir, settings=Settings())
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert editor.session is not None and editor.session.dirty
        # Left as a crash leaves it: the journal stays for "Unsaved work to recover".
        assert [r.path for r in list_recoveries()] == [path]
        editor.session.journal.close_quietly()
        app.exit()


def test_a_builder_test_leaves_nothing_in_the_user_s_folders(tmp_path: Path) -> None:
    user = tmp_path / "user"
    env = {
        "HOME": str(user),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO),
        PROBE: "1",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{Path(__file__).name}::test_probe_edit_and_leave_without_saving",
        ],
        cwd=Path(__file__).parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    left = sorted(str(p.relative_to(user)) for p in user.rglob("*") if p.is_file())
    assert not [p for p in left if "recovery" in p or p.endswith("recent.json")], left


def test_the_state_folder_holds_journals_and_recent_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_library: Library, workdir: Path
) -> None:
    state = tmp_path / "elsewhere"
    monkeypatch.setenv("ARMYBUILDER_STATE_DIR", str(state))
    session = EditSession.open(workdir / "patrol.yaml", demo_library)
    session.set_count(("selections", 0), 2)
    assert [j.parent for j in state.glob("recovery/*.jsonl")] == [state / "recovery"]
    assert [r.path for r in list_recoveries()] == [workdir / "patrol.yaml"]
    session.journal.close_quietly()
    RecentFiles().add(workdir / "patrol.yaml", "Patrol", "demo-wars", "red-army")
    assert (state / "recent.json").is_file()
    home = Path(os.environ["ARMYBUILDER_HOME"])
    assert not list(home.rglob("*.jsonl")) and not list(home.rglob("recent.json"))
