"""Messages about bad input name the file, line and column, in a player's words.

Control characters (NUL, BEL), alias bombs and nesting too deep for the loader used to be
reported without a position; pydantic's own wording ("faction.list[constrained-str]: Input
should be a valid list") leaked into roster, catalog and custom-entry messages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from armybuilder.cli import main

HEADER = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: X\n"
PYDANTIC_WORDS = re.compile(r"Input should|constrained-str|list\[|\bdict\[|union_tag|model_type")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err
    assert not PYDANTIC_WORDS.search(cap.out + cap.err), cap.out + cap.err
    return code, cap.out + cap.err


def alias_bomb() -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return HEADER + "\n".join(lines) + "\n"


# name -> (text, line, column, words in the message)
POSITIONED: dict[str, tuple[str, int, int, str]] = {
    "nul": (HEADER + "notes: a\x00b\n", 5, 9, "the character U+0000"),
    "bel": (HEADER + "notes: a\x07b\n", 5, 9, "the character U+0007"),
    # the alias bomb: the top-level key whose value explodes (a8, line 13)
    "alias-bomb": (alias_bomb(), 13, 5, "expands to more than 500,000 values"),
    # 5,000 levels: deeper than the loader can recurse; the 65th `[` is at column 71
    "deep-lists": (HEADER + "notes: " + "[" * 5000 + "]" * 5000 + "\n", 5, 71, "64 levels"),
    "deep-maps": (HEADER + "notes: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n", 5, 260, "64"),
}


@pytest.mark.parametrize("name", list(POSITIONED))
def test_unreadable_rosters_are_reported_at_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    text, line, col, words = POSITIONED[name]
    p = tmp_path / f"{name}.yaml"
    p.write_text(text)
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    first = out.splitlines()[0]
    assert first.startswith(f"{p}:{line}:{col}: "), first
    assert words in first
    code, out = run(capsys, "validate", "--format", "json", str(p))
    issue = json.loads(out)["rosters"][0]["issues"][0]
    assert (issue["line"], issue["column"]) == (line, col)


@pytest.mark.parametrize("name", list(POSITIONED))
def test_unreadable_catalogs_are_reported_at_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    text, line, col, words = POSITIONED[name]
    p = tmp_path / "catalogs" / "infantry-ops" / f"{name}.yaml"
    p.parent.mkdir(parents=True)
    p.write_text(text)
    code, out = run(capsys, "check-catalog", str(p))
    assert code == 2
    assert out.startswith(f"{p}:{line}:{col}: ")
    assert words in out.splitlines()[0]


# --------------------------------------------------------------------------- pydantic wording


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ("faction: 5", "4:10: faction: 5 should be text or a list"),
        ("faction: {a: 1}", "4:1: faction: a mapping should be text or a list"),
        (
            "faction: [Inner Sphere]",
            "4:11: faction.0: 'Inner Sphere' is not an id (ids are lowercase letters",
        ),
        ("faction: []", "4:1: faction: needs at least 1 item(s), not 0"),
        ("faction: inner-sphere\nlimits: [1]", "5:1: limits: a list should be a mapping"),
        ("faction: inner-sphere\nlimits: {kg: lots}", "5:14: limits.kg: 'lots' should be a number"),
    ],
    ids=["number", "mapping", "list-of-bad-ids", "no-faction", "limits-list", "limit-text"],
)
def test_roster_header_errors_in_a_players_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: str, expected: str
) -> None:
    p = tmp_path / "r.yaml"
    p.write_text("format: 1\nsystem: infantry-ops\nname: X\n" + lines + "\n")
    code, out = run(capsys, "validate", str(p))
    assert code == 2
    assert f"{p}:{expected}" in out
    assert len(out.splitlines()) == 2  # one problem, then "unreadable"


def test_catalog_errors_in_an_authors_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "catalogs" / "infantry-ops" / "extra.yaml"
    p.parent.mkdir(parents=True)
    p.write_text(
        "kind: catalog\nid: extra\nsystem: infantry-ops\nname: Extra\nentries:\n"
        "  - id: x\n    name: X\n    costs: {kg: [1]}\n"
        "  - link: y\n    costs: {kg: lots}\n"
        "  - id: z\n    name: 5\n    categories: 7\n    entries: [{id: w}]\n"
    )
    code, out = run(capsys, "check-catalog", str(p))
    assert code == 2
    for expected in (
        "8:13: entries.0.costs.kg: a list should be a number",
        "10:17: entries.1.costs.kg: 'lots' should be a number",
        "12:11: entries.2.name: 5 should be text",
        "13:17: entries.2.categories: 7 should be a list",
        "14:15: entries.2.entries.0: missing required key 'name'",
    ):
        assert f"{p}:{expected}" in out


def test_custom_entry_errors_in_a_players_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "r.yaml"
    p.write_text(
        HEADER + "custom:\n  entries:\n    - id: my-gun\n      name: My gun\n"
        "      costs: {kg: heavy}\nselections: []\n"
    )
    code, out = run(capsys, "validate", str(p))
    assert code == 1
    assert f"{p}:9:19: error: custom entries: entries.0.costs.kg: 'heavy' should be a number" in out
