"""Emphasis marks in a catalog's texts (``armybuilder.emphasis``): which marks count, and
what plain text and HTML make of them. The cases are the 40k data's (issue 18) and our own
catalogs' footnotes, which must print as written."""

from __future__ import annotations

import pytest

from armybuilder.emphasis import EMPHASIS, KEYWORD, STRONG, html, plain, runs


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Each time a **^^Psyker^^** unit", "Each time a Psyker unit"),
        ("one ^^**Imperium Battleline^^** unit", "one Imperium Battleline unit"),  # (crossed)
        ("**Designer’s Note**: *Place a token.*", "Designer’s Note: Place a token."),
        ("targets a **Monster**or **Vehicle**unit", "targets a Monsteror Vehicleunit"),
        ("Save (5+*) and *this*", "Save (5+*) and this"),
    ],
)
def test_marks_in_pairs_are_taken_out(text: str, shown: str) -> None:
    assert plain(text) == shown
    assert "".join(piece for piece, _ in runs(text)) == shown


@pytest.mark.parametrize(
    "text",
    [
        "0/1/-/- (0**/0)",  # Infantry Operations' footnote
        "1*",
        "Turns to set up; * = fixed mount",
        "2 * 3 * 4",
        "a**b**c",
        "a ** b ** c",
        "**Titanic* unit",  # (a mistake of the data: no pair)
        "^^Abominant ^^ or",
        "plain",
        "",
    ],
)
def test_marks_out_of_pairs_print_as_written(text: str) -> None:
    assert plain(text) == text
    assert runs(text) == [(text, frozenset())]


def test_runs_say_the_kinds() -> None:
    assert runs("a **^^B^^** *c* ^^d^^") == [
        ("a ", frozenset()),
        ("B", frozenset({STRONG, KEYWORD})),
        (" ", frozenset()),
        ("c", frozenset({EMPHASIS})),
        (" ", frozenset()),
        ("d", frozenset({KEYWORD})),
    ]


def test_html_escapes_everything_but_the_tags_it_writes() -> None:
    assert html("<b>&**x** ^^<k>^^") == (
        '&lt;b&gt;&amp;<strong>x</strong> <span class="keyword">&lt;k&gt;</span>'
    )
    assert html('"q" *e*', str.upper) == "&quot;Q&quot; <em>E</em>"
    assert html("0**/0 <i>") == "0**/0 &lt;i&gt;"


def test_our_catalogs_texts_print_as_written() -> None:
    """No text of the bundled catalogs holds a pair of marks by accident (their footnotes,
    ``0**/0``, ``1*``, ``* = fixed mount``, stay as written on every surface)."""
    from pathlib import Path

    import yaml

    changed: list[str] = []

    def walk(x: object, key: object = None) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and plain(x) != x:
            changed.append(f"{key}: {x!r}")

    files = sorted((Path(__file__).resolve().parents[2] / "catalogs").glob("*/*.yaml"))
    assert files
    for f in files:
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    assert changed == []
