"""One loader verdict: what `validate` (the safe loader) refuses, the builder (the round-trip
loader) refuses too, with the same message and position (issue 14, item 9; docs/files.md
"What each bad input gets")."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.errors import RosterError
from armybuilder.rosters import Roster

HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: P\n"

BAD = {
    "duplicate-anchor": (
        HEAD + "selections:\n  - &a {entry: captain}\n  - &a {entry: squad}\n  - *a\n",
        7,
        "duplicate anchor &a",
    ),
    "lone-surrogate": (HEAD + 'selections:\n  - entry: captain\n    name: "\\ud83d"\n', 7, "half"),
    "surrogate-pair": (
        HEAD + 'selections:\n  - entry: captain\n    notes: "\\ud83d\\ude00"\n',
        7,
        "half",
    ),
    "surrogate-key": (HEAD + 'selections:\n  - entry: captain\n    "\\udc00": 1\n', 7, "half"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_both_loaders_give_the_same_verdict(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, line, words = BAD[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(text, encoding="utf-8")
    problems = []
    for round_trip in (True, False):
        with pytest.raises(RosterError) as caught:
            Roster.from_file(path, round_trip=round_trip)
        (problem,) = caught.value.problems
        problems.append(problem)
    editing, validating = problems
    assert editing == validating
    assert editing.line == line and words in editing.message
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr()
    assert f"{path}:{line}:" in out.out + out.err and "Traceback" not in out.err


def test_an_alias_used_twice_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "alias.yaml"
    path.write_text(HEAD + "selections:\n  - &a {entry: captain}\n  - *a\n  - *a\n", "utf-8")
    for round_trip in (True, False):
        assert len(Roster.from_file(path, round_trip=round_trip).selections) == 3
