"""The command's entry point opens the builder without importing the command line first."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import armybuilder
from armybuilder.cli import _command_names, build_parser
from armybuilder.launch import COMMANDS, main, opens_builder


def test_the_entry_point_knows_every_command() -> None:
    assert sorted(COMMANDS) == sorted(_command_names(build_parser()))


@pytest.mark.parametrize(
    ("words", "builder"),
    [
        ([], True),
        (["roster.yaml"], True),  # a new file is fine: the builder offers to create it
        (["examples/infantry-ops/rifle-platoon.yaml"], True),
        (["validate", "x.yaml"], False),
        (["show"], False),
        (["--version"], False),
        (["a.yaml", "b.yaml"], False),
        (["nonsense"], False),  # the command line explains
        (["roster.yaml", "--catalogs", "mine"], True),
        (["--catalogs", "mine", "--catalogs=theirs", "roster.yaml"], True),
        (["--catalogs", "mine"], True),  # the home screen, with those catalogs
        (["--catalogs"], False),  # the command line says DIR is missing
        (["validate", "--catalogs", "mine", "x.yaml"], False),
    ],
)
def test_which_arguments_open_the_builder(words: list[str], builder: bool) -> None:
    assert opens_builder(words) is builder


def test_without_a_terminal_the_command_line_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0  # pytest's stdin is not a terminal: the help, and a hint
    assert "needs a terminal" in capsys.readouterr().out


def test_the_builder_starts_before_the_command_line_is_imported(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import sys
        import armybuilder.launch as launch
        import armybuilder.tui.app as app
        seen = {}
        def fake_run(path, catalogs=()):
            seen["path"] = path
            seen["catalogs"] = [c.name for c in catalogs]
            seen["cli"] = "armybuilder.cli" in sys.modules
            seen["pydantic"] = "pydantic" in sys.modules
            return 0
        app.run = fake_run
        sys.stdin.isatty = lambda: True
        sys.stdout.isatty = lambda: True
        assert launch.main(["my.yaml", "--catalogs", "."]) == 0
        print(seen)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(armybuilder.__file__).resolve().parents[1])}
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    ).stdout
    assert out.strip() == "{'path': 'my.yaml', 'catalogs': [''], 'cli': False, 'pydantic': False}"
