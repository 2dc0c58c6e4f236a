"""The command line's output: `show`, `catalogs`, `new`, and the JSON shape of `show`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.paths import bundled_dir

EXAMPLES = bundled_dir("examples") / "infantry-ops"


def test_show_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(EXAMPLES / "rifle-lmg-platoon.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Infantry Operations · Inner Sphere · Legal" in out
    assert "Primary AV: 10" in out
    assert "Support AV: 8 +1D6" in out
    assert "Movement: 1 (2)" in out
    assert "Mass 2,380 kg" in out


def test_show_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--format", "json", str(EXAMPLES / "rifle-srm-platoon.yaml")]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in (
        "file",
        "system",
        "faction",
        "name",
        "valid",
        "totals",
        "issues",
        "units",
        "values",
    ):
        assert key in data
    assert data["system"] == "infantry-ops"
    assert data["valid"] is True
    assert data["totals"] == {"kg": 2040.0}
    assert {i["code"] for i in data["issues"]} == {"min-not-met", "io-encumbered"}
    (platoon,) = data["units"]
    values = platoon["values"]
    assert values["av_primary"]["value"]["av"] == 8
    assert values["av_support"]["value"]["av"] == 16
    assert values["movement"]["value"]["mp"] == 0
    assert values["movement"]["text"].startswith("0*")
    assert values["troopers"]["value"] == 24
    squad = next(u for u in platoon["children"] if u["entry"] == "squad")
    assert squad["count"] == 4
    assert squad["path"] == "selections[0].selections[1]"
    assert {c["name"] for c in squad["children"]} == {
        "Riflemen (SRM ammunition bearers)",
        "SRM1 gunners",
    }


def test_catalogs_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogs"]) == 0
    out = capsys.readouterr().out
    assert "infantry-ops: Infantry Operations" in out
    assert "inner-sphere (Inner Sphere)" in out
    assert main(["catalogs", "infantry-ops", "clan"]) == 0
    out = capsys.readouterr().out
    assert "platoon: Infantry Platoon" in out
    assert "auto-rifle: Auto-Rifle [Primary or support weapon]" in out
    assert main(["catalogs", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ids = {s["id"]: [f["id"] for f in s["factions"]] for s in data["systems"]}
    assert sorted(ids["infantry-ops"]) == ["clan", "comstar", "inner-sphere"]


def test_catalogs_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogs", "battletech"]) == 2
    assert "no game system 'battletech' is installed" in capsys.readouterr().err
    assert main(["catalogs", "infantry-ops", "draconis"]) == 2
    assert "has no faction 'draconis'" in capsys.readouterr().err


def test_new_to_stdout_and_limits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["new", "infantry-ops", "clan", "--name", "Star", "--limit", "kg=3000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# yaml-language-server: $schema=")
    assert "name: Star\n" in out
    assert "limits:\n  kg: 3000\n" in out
    assert main(["new", "infantry-ops", "clan", "--limit", "gold=3"]) == 2
    assert "unknown cost type 'gold'" in capsys.readouterr().err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["validate"])
    assert info.value.code == 2


def test_console_script_module_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "armybuilder", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0
    assert out.stdout.startswith("armybuilder ")


CUSTOM_TROOPERS = """\
kind: catalog
id: my-book
system: infantry-ops
extends: inner-sphere
name: My book
entries:
  - id: recon-team
    name: Recon team
    type: unit
    categories: [platoon]
    entries: [{link: trooper}]
"""

RECON = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: Recon
selections:
  - entry: recon-team
    selections: [{entry: trooper, count: 2, selections: [{entry: rifle}, {entry: kevlar-vest}]}]
"""


@pytest.mark.parametrize(
    "where",
    [
        lambda d, f: ["--catalogs", d, "show", f],  # the form `armybuilder --help` shows
        lambda d, f: ["show", "--catalogs", d, f],
        lambda d, f: ["--catalogs", d, "validate", f],
        # (another folder, empty: a folder that does not exist is refused, test_robust_odd_use)
        lambda d, f: ["--catalogs", f"{d}-other", "validate", "--catalogs", d, f],
        lambda d, f: ["--catalogs", d, "validate", "--catalogs", f"{d}-other", f],
    ],
)
def test_catalogs_option_before_or_after_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: object
) -> None:
    """`--catalogs DIR` is honoured wherever it is given; before the command it used to be
    dropped without a word (the roster's units were then unknown)."""
    folder = tmp_path / "user" / "infantry-ops"
    folder.mkdir(parents=True)
    (tmp_path / "user-other").mkdir()
    (folder / "mine.yaml").write_text(CUSTOM_TROOPERS, encoding="utf-8")
    roster = tmp_path / "recon.yaml"
    roster.write_text(RECON, encoding="utf-8")
    args = where(str(tmp_path / "user"), str(roster))  # type: ignore[operator]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "unknown-entry" not in out and "unknown entry" not in out


def test_options_without_a_command_are_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version-x"])
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
    # `--catalogs DIR` alone opens the builder with that folder: it needs a terminal (pytest
    # gives none), and says so; a folder that does not exist is named.
    assert main(["--catalogs", "/tmp"]) == 2
    assert "needs a terminal" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["--catalogs", "/nonexistent-folder-x", "roster.yaml"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--catalogs /nonexistent-folder-x: no such folder" in err and "Traceback" not in err
