"""Limits are finite and not negative, and the JSON printed is always JSON.

`limits: {kg: .nan}` used to switch the limit off (every comparison with NaN is false) and
print `NaN` in `--format json` (not JSON: no parser reads it); `new --limit kg=nan` and
`kg=-5` were accepted. A limit is a number from 0 to 1,000,000,000 (docs/catalog-format.md,
Bounds on numbers).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))
HEADER = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: X\n"


def strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err
    return code, cap.out, cap.err


@pytest.mark.parametrize(
    ("limit", "says"),
    [
        (".nan", "limits.kg: must be a finite number, not nan"),
        (".inf", "limits.kg: must be a finite number, not inf"),
        ("-5", "limits.kg: -5 is out of range; it must be at least 0"),
        ("2e9", "limits.kg: 2000000000.0 is out of range; it must be at most 1,000,000,000"),
    ],
    ids=["nan", "inf", "negative", "too-big"],
)
def test_a_limit_that_is_no_limit_is_refused_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], limit: str, says: str
) -> None:
    p = tmp_path / "r.yaml"
    p.write_text(HEADER + f"limits: {{kg: {limit}}}\nselections: []\n")
    code, out, _ = run(capsys, "validate", str(p))
    assert code == 2
    assert f"{p}:5:14: {says}" in out
    code, out, _ = run(capsys, "validate", "--format", "json", str(p))
    assert code == 2
    issue = strict_json(out)["rosters"][0]["issues"][0]
    assert (issue["line"], issue["column"], issue["message"]) == (5, 14, says)


@pytest.mark.parametrize("limit", ["kg=nan", "kg=-5", "kg=inf", "kg=1e10"])
def test_new_refuses_a_limit_that_is_no_limit(
    capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    code, out, err = run(capsys, "new", "infantry-ops", "inner-sphere", "--limit", limit)
    assert code == 2
    assert out == ""
    assert f"--limit {limit!r}: a limit is a number from 0 to 1,000,000,000" in err


def test_new_takes_a_sound_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "infantry-ops", "inner-sphere", "--limit", "kg=3000")
    assert code == 0
    assert "limits:" in out and "kg: 3000" in out


def test_a_cost_types_default_limit_is_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (REPO / "catalogs" / "infantry-ops" / "system.yaml").read_text()
    old = "  - {id: kg, name: Mass, unit: kg}"
    assert old in text
    p = tmp_path / "system.yaml"
    p.write_text(text.replace(old, "  - {id: kg, name: Mass, unit: kg, default_limit: .nan}"))
    code, out, _ = run(capsys, "check-catalog", str(p))
    assert code == 2
    assert "cost_types.0.default_limit: must be a finite number, not nan" in out


def test_json_never_carries_nan() -> None:
    from armybuilder.report import finite

    data = {"a": float("nan"), "b": [1.5, float("inf")], "c": {"d": -float("inf")}, "e": 2}
    assert finite(data) == {"a": None, "b": [1.5, None], "c": {"d": None}, "e": 2}


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in EXAMPLES])
def test_every_example_prints_strict_json(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    for argv in (["show", "--format", "json"], ["export", "--to", "json"]):
        code, out, _ = run(capsys, *argv, str(path))
        assert code == 0
        strict_json(out)
