"""A catalogue whose head reads well but whose body is not well-formed XML (a hand edit that
left an attribute unclosed, a download cut short): every command that loads it says the file,
the line and the column and what is wrong, with exit code 2, never a traceback (README,
"Using BattleScribe data": a refusal names the file and says why; the charter: bad input gets
a clear message naming file, line and what is wrong). Every file is made here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.cli import main

from .test_bs_bad_values import CAT, GST

#: The Medic's entry with an attribute left unclosed (the head, with the catalogue's
#: id and name, is intact, so the folder listing still finds the catalogue).
BROKEN = CAT.replace(
    '<selectionEntry id="e3" name="Medic"', '<selectionEntry id="e3" name="Medic', 1
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(BROKEN, encoding="utf-8")
    return folder


def _line_of_medic() -> int:
    return next(i for i, ln in enumerate(BROKEN.splitlines(), 1) if 'id="e3"' in ln)


@pytest.mark.parametrize(
    "command",
    [
        ["catalogs", "tiny", "army"],
        ["validate", "ROSTER"],
        ["show", "ROSTER"],
        ["export", "ROSTER", "--to", "text"],
    ],
)
def test_a_catalogue_not_well_formed_is_named_with_its_line(
    folder: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    roster = folder / "r.yaml"
    roster.write_text("name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: e1\n")
    words = [str(roster) if w == "ROSTER" else w for w in command]
    code = main([words[0], "--catalogs", str(folder), *words[1:]])
    out = capsys.readouterr()
    assert code == 2
    text = out.out + out.err
    assert "Traceback" not in text
    assert f"{folder / 'army.cat'}:{_line_of_medic()}:" in text
    assert "not well-formed" in text


def test_validate_json_gives_the_catalogue_line(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = folder / "r.yaml"
    roster.write_text("name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: e1\n")
    code = main(["validate", "--format", "json", "--catalogs", str(folder), str(roster)])
    assert code == 2
    got = json.loads(capsys.readouterr().out)["rosters"][0]
    assert got["readable"] is False
    (issue,) = got["issues"]
    assert issue["file"] == str(folder / "army.cat")
    assert issue["line"] == _line_of_medic()
    assert "not well-formed" in issue["message"]


def test_a_game_system_with_a_doctype_is_refused_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A document type declaration (which can hide entity bombs) in the game system file,
    whose head still reads: refused at its line when a roster needs the data."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    folder.mkdir()
    gst = GST.replace("?>\n", '?>\n<!DOCTYPE g [<!ENTITY a "aaaa">]>\n', 1)
    (folder / "tiny.gst").write_text(gst, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    roster = folder / "r.yaml"
    roster.write_text("name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: e1\n")
    code = main(["validate", "--catalogs", str(folder), str(roster)])
    out = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out.out + out.err
    assert f"{folder / 'tiny.gst'}:2: a document type declaration" in out.out + out.err
