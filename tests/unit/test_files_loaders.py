"""One loader verdict: what `validate` (the safe loader) refuses, the builder (the round-trip
loader) refuses too, with the same message and position (issue 14, item 9; docs/files.md
"What each bad input gets")."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder import yamlio
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
    "lone-surrogate": (
        HEAD + 'selections:\n  - entry: captain\n    name: "\\ud83d"\n',
        7,
        "\\ud83d is the first half of a character (a surrogate) without its second half",
    ),
    "low-before-high": (
        HEAD + 'selections:\n  - entry: captain\n    notes: "\\ude00\\ud83d"\n',
        7,
        "\\ude00 is the second half of a character (a surrogate) without its first half",
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


@pytest.mark.parametrize(
    ("field", "written"),
    [
        ("notes", '"Fast \\ud83d\\ude00"'),  # (as JSON writes a character beyond U+FFFF)
        ("name", '"\\ud83d\\ude00 \\uD83C\\uDFC1 Vos"'),
    ],
)
def test_a_surrogate_pair_escape_is_the_character_it_encodes(
    field: str, written: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A JSON-style pair of escapes (``"\\ud83d\\ude00"``: valid YAML, two halves of one
    emoji) was refused as "half of a character (a lone surrogate)". Both loaders (the
    builder's round-trip one, fast or not, and validate's safe one) now read it as the
    character, and a document written again holds the character itself."""
    path = tmp_path / "pair.yaml"
    path.write_text(HEAD + f"selections:\n  - entry: captain\n    {field}: {written}\n", "utf-8")
    want = written.replace("\\ud83d\\ude00", "😀").replace("\\uD83C\\uDFC1", "🏁")
    read = []
    for round_trip in (True, False):
        roster = Roster.from_file(path, round_trip=round_trip)
        read.append(getattr(roster.selections[0], field))
    assert read == [want.strip('"')] * 2
    main(["validate", str(path)])  # (read, to find no system "demo-wars")
    out = capsys.readouterr()
    assert "no game system 'demo-wars'" in out.out and "half" not in out.out + out.err, out
    doc = yamlio.load_round_trip(path.read_text("utf-8"), str(path), fast=False)
    saved = yamlio.dump_round_trip(doc)
    assert want in saved and "\\ud8" not in saved.lower(), saved
