"""Decimal costs add up as a player adds them: three selections of Value 0.1 cost 0.3, which
is within a limit of 0.3 (the binary float sum 0.30000000000000004 once read as "over the
limit of 0.3 by 0"), in the terminal, the JSON report and the builder's totals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.rosters import Roster
from armybuilder.rules import evaluate_roster
from armybuilder.words import tidy_cost

HEAD = """\
format: 1
system: starship-troopers
faction: mobile-infantry
name: Fractions
limits: {value: 0.3}
custom:
  entries:
    - id: tenth
      name: Tenth
      type: upgrade
      costs: {value: 0.1}
"""
THREE = HEAD + "selections:\n  - entry: tenth\n  - entry: tenth\n  - entry: tenth\n"
COUNTED = HEAD + "selections:\n  - entry: tenth\n    count: 3\n"


@pytest.mark.parametrize("text", [THREE, COUNTED], ids=["three-selections", "count-3"])
def test_tenths_add_up_to_the_limit_not_over_it(
    library: Library, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ev = evaluate_roster(Roster.from_text(text), library.system("starship-troopers"))
    assert ev.totals["value"] == 0.3
    assert "cost-limit-exceeded" not in ev.codes()
    f = tmp_path / "frac.yaml"
    f.write_text(text)
    assert main(["validate", str(f)]) == 0
    out = capsys.readouterr().out
    assert "legal" in out and "over the limit" not in out
    main(["validate", str(f), "--format", "json"])
    raw = capsys.readouterr().out
    assert "0.30000000000000004" not in raw
    assert json.loads(raw)["rosters"][0]["totals"] == {"value": 0.3}


def test_a_fourth_tenth_is_over_by_a_tenth(library: Library) -> None:
    ev = evaluate_roster(
        Roster.from_text(THREE + "  - entry: tenth\n"), library.system("starship-troopers")
    )
    assert ev.totals["value"] == 0.4
    [issue] = [i for i in ev.issues if i.code == "cost-limit-exceeded"]
    assert issue.message == "Value 0.4 is over the limit of 0.3 by 0.1"


@given(st.integers(min_value=-(2**53), max_value=2**53))
def test_whole_numbers_are_unchanged(n: int) -> None:
    assert tidy_cost(float(n)) == float(n)
    assert tidy_cost(n) == n


def test_tidy_cost_keeps_odd_values() -> None:
    assert tidy_cost(0.1 + 0.2) == 0.3
    assert tidy_cost(0.125) == 0.125
    assert tidy_cost(float("inf")) == float("inf")
    assert tidy_cost(float("nan")) != tidy_cost(float("nan"))
