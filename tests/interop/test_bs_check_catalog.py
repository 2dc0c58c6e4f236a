"""``armybuilder check-catalog`` on BattleScribe data (QA of printing and commands, item 7).

It linted our YAML catalogs only, so a folder of ``.gst`` / ``.cat`` files came out as
"0 file(s) checked: no problems" whatever it held. It now reads such a folder as the library
does, translates each faction, and reports the data problems ``catalogs SYSTEM FACTION``
reports (a value refused, a link to nothing), each with its file and line, saying which folder
it read as BattleScribe data; a ``.cat`` given alone is checked with its folder and its own
problems reported. Every data file is made here (the values spoilt as in
``test_bs_bad_values.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.cli import main
from interop.test_bs_bad_values import CAT, GST


def _folder(tmp: Path, cat: str) -> Path:
    folder = tmp / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(cat, encoding="utf-8")
    return folder


def test_a_problem_in_a_catalogue_is_reported_with_its_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path, CAT.replace('value="50"', 'value="nan"'))
    line = 1 + CAT[: CAT.index('<selectionEntry id="e1"')].count("\n")  # the element's line
    assert main(["check-catalog", str(folder)]) == 2
    out = capsys.readouterr().out
    assert f"{folder / 'army.cat'}:{line}: " in out, out
    assert "'nan', not a finite number" in out
    assert f"{folder}: BattleScribe data (2 file(s))" in out
    assert out.rstrip().endswith("2 file(s) checked: 1 problem(s)"), out
    # the .cat alone: the same problem; the game system file alone: none of its own
    assert main(["check-catalog", str(folder / "army.cat")]) == 2
    assert "'nan', not a finite number" in capsys.readouterr().out
    assert main(["check-catalog", str(folder / "tiny.gst")]) == 0
    assert "1 file(s) checked: no problems" in capsys.readouterr().out
    assert main(["check-catalog", "--format", "json", str(folder)]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is False
    assert [(p["file"], p["line"], p["code"]) for p in doc["problems"]] == [
        (str(folder / "army.cat"), line, "data-value")
    ]


def test_clean_data_is_counted_and_said_to_be_battlescribe_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _folder(tmp_path, CAT)
    assert main(["check-catalog", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"{folder}: BattleScribe data (2 file(s))" in out
    assert out.rstrip().endswith("2 file(s) checked: no problems"), out
