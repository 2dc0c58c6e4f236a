"""Every command used oddly, as a person sees it: a ``--catalogs`` that is no folder, Ctrl+C
while a command starts, ``check-catalog`` on BattleScribe data cut short or beside broken
YAML. Each was silent, wrong or a traceback (cli13); none is any more. Every file is made here
(the BattleScribe data: ``tests/interop/test_bs_bad_values.py``'s tiny system)."""

from __future__ import annotations

from pathlib import Path

import pytest
from interop.test_bs_bad_values import CAT, GST

from armybuilder import launch
from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[2]
PLATOON = REPO / "examples" / "infantry-ops" / "rifle-platoon.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err
    return code, cap.out, cap.err


# --------------------------------------------------------------------------- --catalogs


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "ROSTER"],
        ["validate", "--format", "json", "ROSTER"],
        ["show", "ROSTER"],
        ["export", "ROSTER", "--to", "text"],
        ["catalogs"],
        ["new", "infantry-ops", "inner-sphere"],
        ["check-catalog", "ROSTER"],
    ],
)
@pytest.mark.parametrize("kind", ["missing", "file"])
def test_a_catalogs_folder_that_is_no_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], kind: str
) -> None:
    """A mistyped ``--catalogs`` was dropped without a word: the roster then "legal" against
    the installed catalogs only, or "no game system ... is installed" about a roster whose
    data the folder held (the builder already refused it)."""
    roster = tmp_path / "platoon.yaml"
    roster.write_text(PLATOON.read_text())
    given = tmp_path / "no-such-folder" if kind == "missing" else roster
    words = [str(roster) if w == "ROSTER" else w for w in command]
    code, out, err = run(capsys, words[0], "--catalogs", str(given), *words[1:])
    assert code == 2
    said = "no such folder" if kind == "missing" else "is a file, not a folder"
    assert err.strip() == f"armybuilder: --catalogs {given}: {said}" + (
        " (give its folder)" if kind == "file" else ""
    )
    assert out == ""
    # before the command too
    assert main(["--catalogs", str(given), *words]) == 2
    assert said in capsys.readouterr().err


def test_a_real_catalogs_folder_still_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").mkdir()
    code, out, _ = run(capsys, "validate", "--catalogs", str(tmp_path / "empty"), str(PLATOON))
    assert code == 0
    assert "legal" in out


# --------------------------------------------------------------------------- Ctrl+C


def test_ctrl_c_while_a_command_starts_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl+C while the command's parser was built (before the command's own handling, which
    exits 130) ended in a KeyboardInterrupt traceback."""
    import armybuilder.cli as cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    try:
        code = launch.main(["show", str(PLATOON)])
    except KeyboardInterrupt:  # (let out, it would stop the whole test run)
        pytest.fail("Ctrl+C while the command started came out as a KeyboardInterrupt")
    assert code == 130


# --------------------------------------------------------------------------- check-catalog


def _tiny(tmp_path: Path, gst: str = GST, cat: str | None = CAT) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(gst, encoding="utf-8")
    if cat is not None:
        (folder / "army.cat").write_text(cat, encoding="utf-8")
    return folder


#: The game system file cut short (a download stopped half way): its head still reads.
CUT = GST[: len(GST) * 2 // 3]
CUT_AT = f"{CUT.count(chr(10)) + 1}:"


def test_a_game_system_file_cut_short_is_a_problem_alone_and_with_its_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Given alone (or its folder without a catalogue) it was "no problems", exit 0; with its
    catalogue, reported only under the catalogue's name."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = _tiny(tmp_path, CUT)
    gst, cat = folder / "tiny.gst", folder / "army.cat"
    for given in (gst, folder, cat):
        code, out, _ = run(capsys, "check-catalog", str(given))
        assert code == 2, (given, out)
        if given != cat:
            assert f"{gst}:{CUT_AT}" in out and "not well-formed XML" in out, out
    # the catalogue alone: not checked, and said so (never "no problems")
    assert f"{cat}: not checked: a file it needs cannot be read ({gst}:{CUT_AT}" in out, out
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "tiny.gst").write_text(CUT, encoding="utf-8")
    code, out, _ = run(capsys, "check-catalog", str(alone))
    assert code == 2
    assert f"{alone / 'tiny.gst'}:{CUT_AT}" in out
    assert out.rstrip().endswith("1 file(s) checked: 1 problem(s)"), out


def test_a_sound_game_system_file_alone_has_no_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = _tiny(tmp_path, cat=None)
    code, out, _ = run(capsys, "check-catalog", str(folder / "tiny.gst"))
    assert code == 0, out
    code, out, _ = run(capsys, "check-catalog", str(folder))
    assert code == 0, out


def test_a_broken_yaml_file_beside_battlescribe_data_is_reported_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder read as BattleScribe data scans the YAML files under it too (a system of
    ours in a folder of its own): each problem of one was printed twice, and counted twice."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = _tiny(tmp_path)
    (folder / "mine").mkdir()
    mine = folder / "mine" / "system.yaml"
    mine.write_text("id: [\n", encoding="utf-8")
    code, out, _ = run(capsys, "check-catalog", str(folder))
    assert code == 2
    lines = [ln for ln in out.splitlines() if ln.startswith(f"{mine}:")]
    assert len(lines) == 1, out
    assert out.rstrip().endswith("3 file(s) checked: 1 problem(s)"), out


# --------------------------------------------------------------------------- .ros files


@pytest.mark.parametrize("suffix", [".ros", ".rosz"])
def test_a_battlescribe_roster_that_is_a_pipe_or_a_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    """A named pipe called ``list.ros`` was read, waiting for a writer: the command hung (a
    roster of ours is refused); a folder was "cannot read: Is a directory", a missing file
    "cannot read: No such file or directory" (ours: "is a folder, not a file", "no such
    file")."""
    import os
    import threading

    pipe = tmp_path / f"pipe{suffix}"
    os.mkfifo(pipe)
    got: list[int] = []
    worker = threading.Thread(target=lambda: got.append(main(["validate", str(pipe)])))
    worker.daemon = True
    worker.start()
    worker.join(timeout=20)
    if worker.is_alive():  # let it go: a writer opened and closed ends its read
        with open(pipe, "wb"):
            pass
        worker.join(timeout=20)
        pytest.fail(f"validate of a named pipe {pipe.name} hung")
    assert got == [2]
    err = capsys.readouterr().out
    assert f"{pipe}: is not a regular file (a pipe or a device); refused" in err, err
    folder = tmp_path / f"folder{suffix}"
    folder.mkdir()
    missing = tmp_path / f"missing{suffix}"
    for command in (["validate"], ["show"], ["export", "--to", "text"]):
        code, out, err = run(capsys, command[0], str(folder), *command[1:])
        assert code == 2
        assert f"{folder}: is a folder, not a file" in out + err
        code, out, err = run(capsys, command[0], str(missing), *command[1:])
        assert code == 2
        assert f"{missing}: no such file" in out + err
