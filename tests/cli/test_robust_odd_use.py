"""Every command used oddly, as a person sees it: a ``--catalogs`` that is no folder, Ctrl+C
while a command starts, ``check-catalog`` on BattleScribe data cut short or beside broken
YAML. Each was silent, wrong or a traceback (cli13); none is any more. Every file is made here
(the BattleScribe data: ``tests/interop/test_bs_bad_values.py``'s tiny system)."""

from __future__ import annotations

import io
import sys
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


# --------------------------------------------------------------------------- --format json


def test_catalogs_prints_json_whenever_asked(capsys: pytest.CaptureFixture[str]) -> None:
    """``catalogs SYSTEM``, ``catalogs SYSTEM FACTION`` and ``catalogs --paths`` printed their
    text, exit 0, to a script asking ``--format json``: it could not read it."""
    import json

    code, out, _ = run(capsys, "catalogs", "--format", "json", "infantry-ops")
    assert code == 0
    system = json.loads(out)
    assert (system["id"], system["name"]) == ("infantry-ops", "Infantry Operations")
    assert {f["id"] for f in system["factions"]} >= {"inner-sphere", "clan"}
    code, out, _ = run(capsys, "catalogs", "--format", "json", "infantry-ops", "inner-sphere")
    assert code == 0
    doc = json.loads(out)
    assert (doc["system"], doc["faction"], doc["problems"]) == ("infantry-ops", "inner-sphere", [])
    platoon = next(e for e in doc["entries"] if e["id"] == "platoon")
    squad = next(e for e in platoon["children"] if e["id"] == "squad")
    trooper = next(e for e in squad["children"] if e["id"] == "trooper")
    assert trooper["costs"] == {"kg": 85.0}
    # the text lists the same entries, each once with its children
    code, text, _ = run(capsys, "catalogs", "infantry-ops", "inner-sphere")
    assert "      trooper: Trooper  (kg 85)" in text.splitlines()
    code, out, _ = run(capsys, "catalogs", "--format", "json", "--paths")
    assert code == 0
    paths = json.loads(out)
    assert paths["roots"] and all(set(r) == {"path", "exists"} for r in paths["roots"])
    assert paths["user_catalogs"]


# --------------------------------------------------------------------------- stdin


@pytest.mark.parametrize(
    "command", [["validate"], ["show"], ["export", "--to", "text"], ["render", "-o", "OUT"]]
)
def test_a_dash_for_standard_input_is_told_it_is_not_read(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    """``armybuilder validate - < list.yaml`` said "-: no such file", which reads as if the
    file of the roster piped in were missing."""
    monkeypatch.chdir(tmp_path)
    words = [str(tmp_path / "out.pdf") if w == "OUT" else w for w in command]
    code, out, err = run(capsys, words[0], "-", *words[1:])
    assert code == 2
    assert (
        "-: no such file; a roster is read from a file, not from standard input: save it to a file"
    ) in out + err
    assert not list(tmp_path.iterdir())


# --------------------------------------------------------------------------- a terminal


class _Terminal(io.TextIOWrapper):
    """Standard output as a terminal: what is written, text and bytes, is kept."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8")

    def isatty(self) -> bool:
        return True

    def sent(self) -> bytes:
        self.flush()
        raw = self.buffer
        assert isinstance(raw, io.BytesIO)
        return raw.getvalue()


def test_a_pdf_or_a_zip_is_never_sent_to_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render -o -`` and ``export --to rosz`` (which writes to standard output by default)
    sent a PDF's and a zip's bytes to the terminal, escape sequences and all; a .ros, which is
    text, is still shown."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = _tiny(tmp_path)
    roster = tmp_path / "r.yaml"
    roster.write_text("name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: e1\n")
    runs = {
        "render": ["render", str(PLATOON), "-o", "-"],
        "rosz": ["export", "--catalogs", str(folder), str(roster), "--to", "rosz"],
        "ros": ["export", "--catalogs", str(folder), str(roster), "--to", "ros"],
    }
    for name, words in runs.items():
        terminal = _Terminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        code = main(words)
        monkeypatch.undo()
        err = capsys.readouterr().err
        sent = terminal.sent()
        if name == "ros":
            assert code == 0, err
            assert sent.startswith(b"<?xml") and b"\x1b" not in sent
            continue
        assert code == 2, (name, err)
        assert sent == b"", name
        what = "a PDF" if name == "render" else "a zipped file"
        assert f"{what} is not written to a terminal (its bytes would garble it)" in err, err
    # to a file they are written as ever
    out = tmp_path / "r.rosz"
    assert main([*runs["rosz"], "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"PK")


# --------------------------------------------------------------------------- new


def test_new_refuses_one_limit_given_twice(capsys: pytest.CaptureFixture[str]) -> None:
    """``--limit kg=1 --limit kg=2`` wrote 2 without a word; the same value twice is fine."""
    code, out, err = run(
        capsys, "new", "infantry-ops", "inner-sphere", "--limit", "kg=1", "--limit", "kg=2.5"
    )
    assert code == 2
    assert out == ""
    assert err.strip() == "armybuilder new: --limit kg given twice (1 and 2.5); give it once"
    code, out, _ = run(
        capsys, "new", "infantry-ops", "inner-sphere", "--limit", "kg=1", "--limit", "kg=1.0"
    )
    assert code == 0
    assert "limits:\n  kg: 1\n" in out


def test_new_to_a_ros_name_writes_a_ros_file_or_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``new ... -o list.ros`` wrote the roster's YAML under that name, which neither
    armybuilder nor BattleScribe read back ("not well-formed XML"); it now writes the .ros (or
    .rosz) as the builder's Save as does, and refuses it for data that is not BattleScribe's."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = _tiny(tmp_path)
    for name in ("list.ros", "list.rosz"):
        out = tmp_path / name
        code, said, err = run(
            capsys, "new", "--catalogs", str(folder), "tiny", "army", "-o", str(out)
        )
        assert code == 0, err
        assert said.strip() == f"wrote {out}"
        code, said, err = run(capsys, "validate", "--catalogs", str(folder), str(out))
        assert code == 0, said + err
        assert f"{out}: legal (1 warning) — New Army roster (Tiny, Army)" in said, said
    assert (tmp_path / "list.ros").read_bytes().startswith(b"<?xml")
    # replaced only with --force, the old one kept as .bak
    before = (tmp_path / "list.ros").read_bytes()
    code, _, _ = run(
        capsys, "new", "--catalogs", str(folder), "tiny", "army", "-o", str(tmp_path / "list.ros")
    )
    assert code == 2
    code, _, _ = run(
        capsys,
        "new",
        "--catalogs",
        str(folder),
        "tiny",
        "army",
        "--force",
        "-o",
        str(tmp_path / "list.ros"),
    )
    assert code == 0
    assert (tmp_path / "list.ros.bak").read_bytes() == before
    out = tmp_path / "platoon.ros"
    code, said, err = run(capsys, "new", "infantry-ops", "inner-sphere", "-o", str(out))
    assert code == 2
    assert said == ""
    assert err.strip() == (
        f"armybuilder new: cannot write {out}: Infantry Operations is not BattleScribe data; only "
        "rosters of BattleScribe data can be written as .ros (a name ending .yaml is written as "
        "armybuilder's own roster)"
    )
    assert not out.exists()


# --------------------------------------------------------------------------- closed output


class _GoneReader(io.StringIO):
    """Standard output whose reader went away after the first line (``| head -1``)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines = 0

    def write(self, text: str) -> int:
        if self.lines >= 1:
            raise BrokenPipeError(32, "Broken pipe")
        self.lines += text.count("\n")
        return super().write(text)

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no file descriptor here")


def test_a_reader_gone_leaves_the_exit_code_of_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``validate lists/*.yaml | head -1``: the pipe broke after the first line and the command
    stopped with exit 0, "all legal" to a script, with an illegal roster among them."""
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(
        PLATOON.read_text().replace("  - entry: platoon\n", "  - entry: platoon\n    count: 0\n", 1)
    )
    files = [str(PLATOON), str(PLATOON), str(illegal)]
    for words in (["validate", *files], ["validate", "--format", "json", *files]):
        gone = _GoneReader()
        monkeypatch.setattr(sys, "stdout", gone)
        code = main(words)
        monkeypatch.undo()
        assert code == 1, words
        assert gone.lines == 1
    assert "Traceback" not in capsys.readouterr().err


def test_a_closed_standard_output_is_said_and_the_exit_code_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``armybuilder show FILE >&-``: Python has no standard output then; every command that
    printed was an AttributeError traceback (``show`` printed nothing, exit 0, silently)."""
    illegal = tmp_path / "illegal.yaml"
    illegal.write_text(
        PLATOON.read_text().replace("  - entry: platoon\n", "  - entry: platoon\n    count: 0\n", 1)
    )
    runs = {
        ("validate", str(illegal)): 1,
        ("validate", "--format", "json", str(PLATOON)): 0,
        ("show", str(PLATOON)): 0,
        ("show", "--format", "json", str(PLATOON)): 0,
        ("export", str(PLATOON), "--to", "json"): 0,
        ("schema", "roster"): 0,
        ("catalogs", "--format", "json"): 0,
        ("new", "infantry-ops", "inner-sphere"): 0,
    }
    for words, expected in runs.items():
        monkeypatch.setattr(sys, "stdout", None)
        code = main(list(words))
        monkeypatch.undo()
        err = capsys.readouterr().err
        assert code == expected, (words, err)
        assert err.strip() == "armybuilder: standard output is closed; what it prints is lost", (
            words,
            err,
        )
