"""Limits are clear errors, said before the work (issue 14, items 7 and 8; docs/files.md
"Limits")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.errors import InputError, RosterError
from armybuilder.rosters import Roster
from armybuilder.yamlio import MAX_ROSTER_BYTES, check_limits, load_round_trip

HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Big\nselections:\n"


def test_a_huge_plain_roster_is_refused_by_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.yaml"
    unit = "  - entry: soldier\n    name: Trooper with a long name\n    count: 3\n"
    with big.open("w", encoding="utf-8") as fh:
        fh.write(HEAD)
        fh.write(unit * (int(7.9 * 1048576) // len(unit)))
    with pytest.raises(RosterError) as caught:
        Roster.from_file(big)
    (problem,) = caught.value.problems
    assert problem.code == "file-too-large"
    assert "7.9 MiB" in problem.message and "2 MiB" in problem.message
    assert "alias" not in problem.message
    assert main(["validate", str(big)]) == 2
    err = capsys.readouterr()
    assert "file-too-large" in err.out + err.err or "7.9 MiB" in err.out + err.err
    assert "Traceback" not in err.err


def test_the_limit_is_far_above_a_regiment() -> None:
    assert MAX_ROSTER_BYTES >= 10 * 150_000  # the 75-platoon regiment of benchmarks/ is 150 kB


def test_too_many_values_names_the_right_reason() -> None:
    plain = load_round_trip("a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n", "plain.yaml")
    with pytest.raises(InputError, match="holds more than 5 values") as caught:
        check_limits(plain, "plain.yaml", max_nodes=5)
    assert "alias" not in str(caught.value)
    bomb = load_round_trip("a: &x [1, 2]\nb: [*x, *x, *x, *x]\n", "bomb.yaml")
    with pytest.raises(InputError, match="through its aliases"):
        check_limits(bomb, "bomb.yaml", max_nodes=8)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_refused_not_waited_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "roster.yaml"
    os.mkfifo(fifo)
    assert main(["validate", str(fifo)]) == 2
    out = capsys.readouterr()
    assert "not a regular file" in out.out + out.err


def test_crlf_roster_is_not_changed_on_disk_for_recovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from armybuilder.catalog import Library, default_roots
    from armybuilder.session import EditSession, find_recovery

    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    demo = Path(__file__).resolve().parent.parent / "tui" / "fixtures"
    lib = Library([*default_roots(), demo / "catalogs"]).scan()
    path = tmp_path / "crlf.yaml"
    path.write_bytes((HEAD + "  - entry: captain\n").replace("\n", "\r\n").encode())
    session = EditSession.open(path, lib)
    session.rename(("selections", 0), "Vos")
    info = find_recovery(path)
    assert info is not None and not info.file_changed
    path.write_bytes(path.read_bytes().replace(b"captain", b"squad"))
    info = find_recovery(path)
    assert info is not None and info.file_changed
    session.close()
