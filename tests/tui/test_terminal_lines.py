"""The roster tree's lines in a real terminal (tmux), at 80x24 and 160x48: each unit's line
says what it is (name, entry, experience) and is not cut off at the pane's edge."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "starship-marine" / "martian-boarding-group.yaml"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


#: A tmux server of this test module's own (not the user's, nor another test run's).
SOCKET = f"tui-b-lines-{uuid.uuid4().hex[:8]}"


def _tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", SOCKET, "-f", "/dev/null", *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=20,
    ).stdout


def _wait_for(session: str, text: str, timeout: float = 60.0) -> str:
    end = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < end:
        screen = _tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.3)
    raise AssertionError(f"{text!r} never showed; the screen:\n{screen}")


@pytest.mark.parametrize(
    ("size", "major", "marines"),
    [
        # Starship Marine 4.7: 33 actions fought with one wound make the Major a Veteran.
        ((160, 48), "Major Okonkwo (Major) · Veteran · ", "Marine ×5 · Novice · "),
        # At 80x24 the tree has 34 columns: names give way before the experience.
        ((80, 24), "Major Okonk… (Maj…) · Vet", "Marine ×5 · Nov · MA,SI"),
    ],
)
def test_tree_lines_in_a_real_terminal(
    tmp_path: Path, size: tuple[int, int], major: str, marines: str
) -> None:
    roster = tmp_path / EXAMPLE.name
    shutil.copy(EXAMPLE, roster)
    session = "lines"
    env = {
        "ARMYBUILDER_HOME": str(tmp_path / "home"),
        "ARMYBUILDER_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": str(REPO),
        "TERM": "xterm-256color",
        # shutil.get_terminal_size() reads these before asking the terminal; pytest's may
        # be inherited.
        "COLUMNS": str(size[0]),
        "LINES": str(size[1]),
    }
    command = " ".join(
        [*(f"{k}={v}" for k, v in env.items()), sys.executable, "-m", "armybuilder", str(roster)]
    )
    width, height = size
    _tmux("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height), command)
    try:
        _wait_for(session, "B Group, 4th Mart")
        _wait_for(session, "No issues")  # validated: the editor takes keys
        # The tree has the focus on the roster's line: down to the group, open it, into its
        # HQ, open that.
        for key in ("Down", "Right"):
            _tmux("send-keys", "-t", session, key)
            time.sleep(0.5)
        _wait_for(session, "Group HQ")
        for key in ("Right", "Right"):
            _tmux("send-keys", "-t", session, key)
            time.sleep(0.5)
        _wait_for(session, major)
        # tmux can catch a frame half painted: read the screen again until the line below
        # is drawn too (a timeout fails the test with the screen).
        screen = _wait_for(session, marines)
        if width == 160:
            screen = _wait_for(session, "Major Okonkwo (Major) · Veteran · MA,SCA II")
        # Each unit's line ends before the tree pane's right border (▏): nothing is cut off
        # at the edge; at 160 columns the loadout is there too (abbreviated to fit).
        for line in screen.splitlines():
            if "▶ " not in line and "▼ " not in line:
                continue
            tree_part = line.split("▕", 1)[-1].split("▏", 1)[0]
            assert tree_part.endswith(" "), line
        assert major in screen and marines in screen
    finally:
        subprocess.run(
            ["tmux", "-L", SOCKET, "kill-server"], capture_output=True, timeout=20, check=False
        )
        folder = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (folder / SOCKET).unlink(missing_ok=True)
