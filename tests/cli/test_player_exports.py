"""What a player reads from `armybuilder export` on rosters with something wrong: one error
is "1 error", and a refusal names the file once."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_text_export_of_a_roster_with_one_error_says_1_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text()
    path = tmp_path / "typo.yaml"
    path.write_text(text.replace("entry: terminator-squad", "entry: zzterminator-squad", 1))
    assert main(["export", str(path), "--to", "text"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head.endswith("— NOT LEGAL (1 error)"), head


def test_a_ros_export_refused_names_the_file_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Space Hulk is not BattleScribe data: the refusal said `squad.yaml: squad.yaml: ...`."""
    path = tmp_path / "squad.yaml"
    path.write_text((EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text())
    assert main(["export", str(path), "--to", "ros", "-o", str(tmp_path / "out.ros")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        f"armybuilder export: {path}: Space Hulk (house rules) is not BattleScribe data; "
        "only rosters of BattleScribe data can be written as .ros"
    )
    assert not (tmp_path / "out.ros").exists()


def test_text_and_markdown_exports_say_which_entry_is_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A squad whose entry id is misspelt: the Markdown heading said nothing of it (only the
    models under it were marked), and the text lines of the models did not say which id."""
    text = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text()
    path = tmp_path / "typo.yaml"
    path.write_text(text.replace("entry: terminator-squad", "entry: zzterminator-squad", 1))
    assert main(["export", str(path), "--to", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "## 1st Squad \\[zzterminator-squad\\] *(unknown entry, kept)*" in out, out
    assert main(["export", str(path), "--to", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "1st Squad [zzterminator-squad] (unknown entry)" in lines
    assert "  Sergeant Lorenzo (unknown entry sergeant)" in lines, lines


def test_show_says_a_roster_limit_with_its_unit_not_the_cost_types_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Norx warband's limit of 75 build points reads "limit 75 BP" after its total, in
    the unit the total and the builder's "65 / 75 BP" use; it read "(bp limit 75)", the cost
    type's id, which the player sees nowhere else. A cost type without a unit is named."""
    assert main(["show", str(EXAMPLES / "starmarines" / "norx-example.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "Build points 65 BP (limit 75 BP)", lines[:4]
    assert main(["show", str(EXAMPLES / "starship-troopers" / "mi-squad.yaml")]) == 0
    line = capsys.readouterr().out.splitlines()[2]
    assert line.startswith("Value ") and line.endswith(" (Value limit 200)"), line
