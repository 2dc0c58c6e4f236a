"""The command line with bad input: exit codes, file:line:col messages, no tracebacks, JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from armybuilder import yamlio
from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "infantry-ops"
LEGAL = EXAMPLES / "rifle-platoon.yaml"

HEADER = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: X\n"
ILLEGAL = HEADER + "selections:\n  - entry: platoon\n    count: many\n"


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return HEADER + "\n".join(lines) + "\n"


# name -> (file content, line, column, code) of files `validate` must refuse with a position.
BAD_FILES: dict[str, tuple[bytes, int, int, str]] = {
    "unclosed-bracket": (
        (HEADER + "selections: [\n  - entry: platoon\n").encode(),
        6,
        3,
        "yaml-syntax",
    ),
    "bad-indentation": (
        (HEADER + "selections:\n  - entry: platoon\n   count: 2\n").encode(),
        7,
        4,
        "yaml-syntax",
    ),
    "not-utf8": (HEADER.replace("name: X", "name: caf\xe9").encode("latin-1"), 4, 10, "not-utf8"),
    "python-tag": (
        (HEADER + "notes: !!python/object/apply:os.system ['echo pwned']\n").encode(),
        5,
        8,
        "yaml-tag",
    ),
    "custom-tag": ((HEADER + "notes: !foo bar\n").encode(), 5, 8, "yaml-tag"),
    "duplicate-key": ((HEADER + "name: Y\n").encode(), 5, 1, "yaml-syntax"),
    "empty": (b"", 1, 1, "roster-invalid"),
    "list-at-top": (b"- system: infantry-ops\n- faction: inner-sphere\n", 1, 1, "roster-invalid"),
    "missing-system": (b"format: 1\nfaction: inner-sphere\nname: X\n", 1, 1, "roster-invalid"),
    "format-3": (HEADER.replace("format: 1", "format: 3").encode(), 1, 9, "roster-invalid"),
    "format-2-no-forces": (
        HEADER.replace("format: 1", "format: 2").encode(),
        1,
        9,
        "roster-invalid",
    ),
}

# Lists nested 200 deep, starting on line 5.
TOO_DEEP = HEADER + "notes: " + "[" * 200 + "]" * 200 + "\n"


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    out = cap.out + cap.err
    assert "Traceback" not in out
    return code, out


# --------------------------------------------------------------------------- one bad file


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_validate_bad_file_names_file_line_column(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, line, col, _ = BAD_FILES[name]
    p = write(tmp_path, f"{name}.yaml", data)
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    assert f"{p}:{line}:{col}: " in out
    assert f"{p}: unreadable" in out


def test_validate_too_deep_file_names_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = write(tmp_path, "too-deep.yaml", TOO_DEEP)
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    assert "nested more than" in out
    # The nesting starts on line 5 ("notes: [[[..."); the message must say where.
    assert f"{p}:5:" in out


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_validate_json_bad_file(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, line, col, code_ = BAD_FILES[name]
    p = write(tmp_path, f"{name}.yaml", data)
    code, out = run(capsys, "validate", "--format", "json", str(p))
    assert code == 2
    result = json.loads(out)
    (roster,) = result["rosters"]
    assert roster["file"] == str(p)
    assert roster["valid"] is False
    assert roster["readable"] is False
    assert result["summary"] == {"files": 1, "legal": 0, "illegal": 0, "unreadable": 1}
    issue = roster["issues"][0]
    assert issue["severity"] == "error"
    assert (issue["line"], issue["column"], issue["code"]) == (line, col, code_)


def test_validate_json_too_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "too-deep.yaml", TOO_DEEP)
    code, out = run(capsys, "validate", "--format", "json", str(p))
    assert code == 2
    (roster,) = json.loads(out)["rosters"]
    assert roster["readable"] is False
    assert roster["issues"][0]["code"] == "yaml-too-deep"


def test_validate_alias_bomb(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "bomb.yaml", alias_bomb())
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    # the position is the top-level key whose value explodes (a8, the last line)
    assert out.startswith(f"{p}:13:5: document expands to more than 500,000 values")


def test_validate_file_too_large(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "huge.yaml"
    with p.open("wb") as fh:
        fh.truncate(yamlio.MAX_ROSTER_BYTES + 1)
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    assert out.startswith(f"{p}: file is 2.0 MiB; the limit is 2 MiB")


def test_validate_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "nope.yaml"
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    assert f"{p}: no such file" in out


def test_validate_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "validate", str(tmp_path))
    assert code == 2
    assert f"{tmp_path}: is a folder" in out


def test_validate_unknown_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "r.yaml", HEADER.replace("infantry-ops", "space-hulk-x"))
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    line = HEADER.splitlines().index("system: infantry-ops") + 1
    assert out.startswith(f"{p}:{line}:9: ")  # points at the value of `system:`
    assert "'space-hulk-x'" in out
    assert "infantry-ops" in out  # says what is installed


def test_validate_unknown_faction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "r.yaml", HEADER.replace("inner-sphere", "wolf-clan-x"))
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    line = HEADER.splitlines().index("faction: inner-sphere") + 1
    assert out.startswith(f"{p}:{line}:10: ")  # points at the value of `faction:`
    assert "'wolf-clan-x'" in out
    assert "inner-sphere" in out


def test_validate_unknown_system_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "r.yaml", HEADER.replace("infantry-ops", "space-hulk-x"))
    code, out = run(capsys, "validate", "--format", "json", str(p))
    assert code == 2
    (roster,) = json.loads(out)["rosters"]
    assert roster["readable"] is False
    assert "'space-hulk-x'" in roster["issues"][0]["message"]


# --------------------------------------------------------------------------- several files


def test_validate_all_legal_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in EXAMPLES.glob("*.yaml"))
    code, out = run(capsys, "validate", *files)
    assert code == 0
    assert f"{len(files)} of {len(files)} rosters legal" in out


def test_validate_one_illegal_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "illegal.yaml", ILLEGAL)
    code, out = run(capsys, "validate", str(LEGAL), str(bad))
    assert code == 1
    assert f"{bad}:7:12: error: " in out
    assert "[invalid-value]" in out
    assert f"{bad}: NOT LEGAL" in out
    assert "1 of 2 rosters legal" in out


@pytest.mark.parametrize("order", ["unreadable-first", "unreadable-last"])
def test_validate_unreadable_wins_over_illegal(
    order: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    illegal = str(write(tmp_path, "illegal.yaml", ILLEGAL))
    broken = str(write(tmp_path, "broken.yaml", HEADER + "selections: [\n"))
    files = (
        [broken, str(LEGAL), illegal]
        if order == "unreadable-first"
        else [str(LEGAL), illegal, broken]
    )
    code, out = run(capsys, "validate", *files)
    assert code == 2
    assert f"{broken}: unreadable" in out
    assert f"{illegal}: NOT LEGAL" in out  # the other files are still checked


def test_validate_strict_counts_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    srm = str(EXAMPLES / "rifle-srm-platoon.yaml")  # legal with warnings
    assert run(capsys, "validate", srm)[0] == 0
    assert run(capsys, "validate", "--strict", srm)[0] == 1


def test_validate_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "illegal.yaml", ILLEGAL)
    code, out = run(capsys, "validate", "--format", "json", str(LEGAL), str(bad))
    assert code == 1
    data = json.loads(out)
    assert data["summary"] == {"files": 2, "legal": 1, "illegal": 1, "unreadable": 0}
    rosters = data["rosters"]
    assert [r["file"] for r in rosters] == [str(LEGAL), str(bad)]
    for r in rosters:
        for key in ("file", "system", "faction", "name", "valid", "totals", "issues"):
            assert key in r, key
        assert r["system"] == "infantry-ops"
        assert r["faction"] == "inner-sphere"
        assert isinstance(r["totals"], dict)
        for issue in r["issues"]:
            for key in ("severity", "code", "message", "path", "source", "line", "column"):
                assert key in issue, key
    legal, illegal = rosters
    assert legal["valid"] is True
    assert legal["name"] == "Rifle platoon"
    assert legal["totals"] == {"kg": 2380.0}
    assert legal["issues"] == []
    assert illegal["valid"] is False
    first = illegal["issues"][0]
    assert first == {
        "severity": "error",
        "code": "invalid-value",
        "message": first["message"],
        "path": "selections[0].count",
        "source": "",
        "line": 7,
        "column": 12,
    }
    assert "'many'" in first["message"]


def test_validate_without_files_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# --------------------------------------------------------------------------- new


def test_new_writes_a_roster_that_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "mine.yaml"
    code, out = run(capsys, "new", "infantry-ops", "inner-sphere", "-o", str(out_file))
    assert code == 0
    assert f"wrote {out_file}" in out
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert "system: infantry-ops\n" in text
    assert "faction: inner-sphere\n" in text
    assert os.listdir(tmp_path) == ["mine.yaml"]
    code, out = run(capsys, "validate", str(out_file))
    assert code == 0
    assert f"{out_file}: legal" in out


def test_new_refuses_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = write(tmp_path, "mine.yaml", "precious: true\n")
    code, out = run(capsys, "new", "infantry-ops", "inner-sphere", "-o", str(out_file))
    assert code == 2
    assert "--force" in out
    assert str(out_file) in out
    assert out_file.read_text(encoding="utf-8") == "precious: true\n"
    assert os.listdir(tmp_path) == ["mine.yaml"]


def test_new_force_overwrites_and_keeps_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = write(tmp_path, "mine.yaml", "precious: true\n")
    code, _ = run(
        capsys,
        "new",
        "infantry-ops",
        "inner-sphere",
        "-o",
        str(out_file),
        "--force",
        "--name",
        "Forced",
    )
    assert code == 0
    assert "name: Forced\n" in out_file.read_text(encoding="utf-8")
    assert (tmp_path / "mine.yaml.bak").read_text(encoding="utf-8") == "precious: true\n"
    assert sorted(os.listdir(tmp_path)) == ["mine.yaml", "mine.yaml.bak"]


def test_new_unknown_faction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "mine.yaml"
    code, out = run(capsys, "new", "infantry-ops", "wolf-clan-x", "-o", str(out_file))
    assert code == 2
    assert "'wolf-clan-x'" in out
    assert not out_file.exists()


def test_new_unknown_system(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "new", "space-hulk-x", "inner-sphere")
    assert code == 2
    assert "'space-hulk-x'" in out


def test_new_to_stdout_round_trips(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "new", "infantry-ops", "clan", "--name", "Star", "--limit", "kg=3000")
    assert code == 0
    doc = yamlio.load_safe(out, "<stdout>")
    assert doc == {
        "format": 1,
        "system": "infantry-ops",
        "faction": "clan",
        "name": "Star",
        "limits": {"kg": 3000},
        "selections": [],
    }


def test_new_bad_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "new", "infantry-ops", "inner-sphere", "--limit", "kg=lots")
    assert code == 2
    assert "COST=NUMBER" in out
    code, out = run(capsys, "new", "infantry-ops", "inner-sphere", "--limit", "gold=5")
    assert code == 2
    assert "'gold'" in out


# --------------------------------------------------------------------------- show


def test_show_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, "broken.yaml", HEADER + "selections: [\n")
    code, out = run(capsys, "show", str(p))
    assert code == 2
    assert out.startswith(f"{p}:6:1: YAML syntax error")


def test_show_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "show", str(tmp_path / "nope.yaml"))
    assert code == 2
    assert "no such file" in out
