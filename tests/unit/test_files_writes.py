"""Every file armybuilder writes goes through one atomic write: no output over an input,
symbolic links written through deliberately, a ``.bak`` that is a link replaced (not written
through), unpredictable temporary names, and a sentence (exit 2) for an output that cannot be
a file (issue 14, items 4 and 6; docs/files.md)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.paths import bundled_dir
from armybuilder.rosters import Roster

EXAMPLE = bundled_dir("examples") / "infantry-ops" / "rifle-lmg-platoon.yaml"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def roster(tmp_path: Path) -> Path:
    path = tmp_path / "r.yaml"
    shutil.copy(EXAMPLE, path)
    return path


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "Error:" not in err.split(":", 1)[0]


# --------------------------------------------------------------------------- output over input


@pytest.mark.parametrize(
    "argv",
    [
        ["render", "{r}", "-o", "{r}"],
        ["export", "{r}", "--to", "text", "-o", "{r}"],
        ["export", "{r}", "--to", "json", "-o", "{link}"],
    ],
)
def test_an_output_is_never_written_over_its_input(
    roster: Path, tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to(roster)
    before = roster.read_bytes()
    args = [a.format(r=roster, link=link) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    no_traceback(err)
    assert "is the input file" in err and str(args[-1]) in err
    assert roster.read_bytes() == before
    assert not roster.with_name("r.yaml.bak").exists()


# --------------------------------------------------------------------------- symbolic links


def test_exports_and_schemas_write_through_a_link_and_keep_it(
    roster: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "elsewhere" / "out.txt"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "out.txt"
    link.symlink_to(real)
    assert main(["export", str(roster), "--to", "text", "-o", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "Rifle" in real.read_text(encoding="utf-8")
    schema_real = tmp_path / "elsewhere" / "roster.schema.json"
    schema_link = tmp_path / "roster.schema.json"
    schema_link.symlink_to(schema_real)
    assert main(["schema", "roster", "-o", str(schema_link)]) == 0
    assert schema_link.is_symlink() and schema_real.read_text(encoding="utf-8").startswith("{")
    # no temporary file is left in either folder
    leftovers = [p.name for p in tmp_path.rglob(".*.tmp")]
    assert leftovers == []


def test_a_roster_opened_through_a_link_is_saved_to_its_file(roster: Path, tmp_path: Path) -> None:
    link = tmp_path / "shortcut.yaml"
    link.symlink_to(roster)
    before = roster.read_text(encoding="utf-8")
    r = Roster.from_file(link)
    r.set((), "name", "Renamed through the link")
    r.save()
    assert link.is_symlink(), "the link was replaced by a file"
    assert Roster.from_file(roster).name == "Renamed through the link"
    assert roster.with_name("r.yaml.bak").read_text(encoding="utf-8") == before
    assert not tmp_path.joinpath("shortcut.yaml.bak").exists()


def test_a_backup_that_is_a_link_is_replaced_not_written_through(
    roster: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    bak = roster.with_name("r.yaml.bak")
    bak.symlink_to(victim)
    before = roster.read_bytes()
    r = Roster.from_file(roster)
    r.set((), "name", "Saved")
    r.save()
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not bak.is_symlink() and bak.read_bytes() == before


def test_temporary_names_cannot_be_planted(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    target = tmp_path / "out.pdf"
    # the name render used to write to, planted as a link to someone else's file
    (tmp_path / f".out.pdf.{os.getpid()}.tmp").symlink_to(victim)
    from armybuilder.fileio import atomic_write

    atomic_write(target, b"%PDF-1.7 ...")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert target.read_bytes() == b"%PDF-1.7 ..."


def test_render_writes_through_the_atomic_write(
    roster: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("weasyprint", reason="rendering a PDF needs WeasyPrint")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    out = tmp_path / "out.pdf"
    (tmp_path / f".out.pdf.{os.getpid()}.tmp").symlink_to(victim)
    assert main(["render", str(roster), "-o", str(out), "--no-sheets", "--jobs", "1"]) == 0
    assert victim.read_text(encoding="utf-8") == "precious"
    assert out.read_bytes().startswith(b"%PDF")


# ------------------------------------------------------------- outputs that are not files


def _bad_outputs(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    plain = tmp_path / "a-file"
    plain.write_text("x", encoding="utf-8")
    fifo = tmp_path / "a-fifo"
    os.mkfifo(fifo)
    return {
        "is a folder": folder,
        "part of its folder path is a file": plain / "x.yaml",
        "not a regular file": fifo,
    }


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize(
    "command",
    [
        ["new", "infantry-ops", "inner-sphere", "--force", "-o"],
        ["export", str(EXAMPLE), "--to", "markdown", "-o"],
        ["schema", "catalog", "-o"],
        ["render", str(EXAMPLE), "-o"],
    ],
)
def test_outputs_that_cannot_be_files_get_a_sentence(
    tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for words, out in _bad_outputs(tmp_path).items():
        assert main([*command, str(out)]) == 2, out
        err = capsys.readouterr().err
        no_traceback(err)
        assert words in err and str(out) in err, err
        assert not out.is_file() or out.read_text(encoding="utf-8") == "x"
    shutil.rmtree(tmp_path / "a-folder")


def test_atomic_write_refuses_with_output_errors(tmp_path: Path) -> None:
    from armybuilder.fileio import OutputError, atomic_write

    with pytest.raises(OutputError, match="is a folder"):
        atomic_write(tmp_path, "x")
    assert isinstance(OutputError(tmp_path, "x"), OSError)


def test_keep_aside_never_replaces_and_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file a Replace drops is kept under a name of its own: a second one in the same
    second gets -2 (the first is untouched), and without hard links it is a full copy."""
    from armybuilder.fileio import keep_aside

    target = tmp_path / "team.yaml"
    target.write_text("first\n", encoding="utf-8")
    one = keep_aside(target, when=0)
    target.unlink()  # (a save renames a new file over it: the kept link is not written to)
    target.write_text("second\n", encoding="utf-8")
    two = keep_aside(target, when=0)
    assert one.name.startswith("team.yaml.replaced-") and two.name == one.name + "-2"
    assert one.read_text(encoding="utf-8") == "first\n"
    assert two.read_text(encoding="utf-8") == "second\n"

    def no_links(*args: object) -> None:
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    three = keep_aside(target, when=0)
    assert three.name == one.name + "-3" and three.read_text(encoding="utf-8") == "second\n"
