"""Odd values a player types (names, notes, campaign state) through the edit session's save,
the file read back, and the commands: every value comes back as it was set (issue 18, "files
are sacred": an odd value never loses an edit).

ruamel's writer put a next-line character (U+0085, which a paste from a Windows-1252 text can
hold) into a name as it is, between single quotes, and read it back as a line break: the
saved "a\\x85b" opened as "a b". The values here are the ones that trip YAML writers (words
YAML 1.1 reads as booleans or null, numbers in other notations, marks that start a comment,
a mapping or a document, quotes, line breaks of every kind, control characters, right-to-left
text, very long text)."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from armybuilder.catalog import Library, default_roots
from armybuilder.cli import main
from armybuilder.rosters import Roster
from armybuilder.session import EditSession
from armybuilder.yamlio import dump_round_trip, load_round_trip, load_safe, to_plain

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"
HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Border patrol\nselections:\n"
BODY = "  - entry: captain\n  - entry: squad\n"

ODD_TEXT = [
    "yes",
    "no",
    "null",
    "~",
    "1e3",
    "0x10",
    "0o17",
    "1.50",
    "-0",
    "100000000000000000000",
    ".inf",
    "  lead and trail  ",
    "#",
    "a # b",
    ": ",
    "a: b",
    "- x",
    "? x",
    "---",
    "...",
    "a\tb",
    "a\nb",
    "a\r\nb",
    "a\rb",
    "line\n",
    "\n\nblank lines\n\n",
    "a\x85b",
    "\x85",
    "a\u2028b\u2029c",
    "\x01\x02\x1f",
    "\x7f",
    "\ufeff",
    "漢字のなまえ",
    "😀 Ærø",
    "שלום עולם",
    "\u202eRTL override",
    "x" * 5000,
    "&",
    "&amp;",
    "<",
    "]]>",
    "'",
    '"',
    "\\",
    "{a: 1}",
    "[1, 2]",
    "*alias",
    "&anchor",
    "!tag",
    "%YAML",
    "@",
    "`",
    "|",
    ">",
    "",
]
ODD_NUMBERS: list[Any] = [1.5, -0.0, 10**20, -(10**20), 0, 1e-300, 1.0]


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "files-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


def same(a: Any, b: Any) -> bool:
    """Equal, with the sign of a zero and the type of a number told apart."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*argv, "--catalogs", str(DEMO / "catalogs")])
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue()


def save_and_read(lib: Library, path: Path, edit: Any) -> dict[str, Any]:
    """Open ``path``, make ``edit`` in the session, save; the file read back (both loaders
    must agree), and the session's own roster compared with it."""
    session = EditSession.open(path, lib)
    edit(session)
    session.save()
    session.close()
    text = path.read_text(encoding="utf-8")
    doc = to_plain(Roster.from_file(path).doc)
    assert same(load_safe(text, str(path)), doc)
    return doc  # type: ignore[no-any-return]


@pytest.mark.parametrize("value", ODD_TEXT, ids=[repr(v)[:24] for v in ODD_TEXT])
def test_an_odd_name_notes_and_state_save_and_read_back_as_set(
    lib: Library, tmp_path: Path, value: str
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + BODY, encoding="utf-8")

    def edit(session: EditSession) -> None:
        session.set(("selections", 0), "name", value)
        session.set(("selections", 1), "notes", value)
        session.set(("selections", 1), "state", {"scar": value, value or "k": 1})
        if value:
            session.set((), "name", value)

    doc = save_and_read(lib, path, edit)
    assert doc["selections"][0]["name"] == value
    assert doc["selections"][1]["notes"] == value
    assert same(doc["selections"][1]["state"], {"scar": value, value or "k": 1})
    if value:
        assert doc["name"] == value
    # The commands read the saved file without a traceback, and show the name as set.
    code, out = cli("export", str(path), "--to", "json")
    assert code in (0, 1)
    report = json.loads(out)
    assert report["name"] == (value or "Border patrol")
    assert report["units"][0]["name"] == (value or "Captain")
    assert cli("validate", str(path))[0] in (0, 1)
    assert cli("show", str(path))[0] in (0, 1)


@pytest.mark.parametrize("value", ODD_TEXT[:30], ids=[repr(v)[:24] for v in ODD_TEXT[:30]])
def test_the_builders_rename_and_notes_keep_what_was_typed(
    lib: Library, tmp_path: Path, value: str
) -> None:
    """The builder's own edits (they trim the ends, and an empty name clears it)."""
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + BODY, encoding="utf-8")

    def edit(session: EditSession) -> None:
        session.rename(("selections", 0), value)
        session.set_notes(("selections", 1), value)

    doc = save_and_read(lib, path, edit)
    typed = value.strip() or None
    assert doc["selections"][0].get("name") == typed
    assert doc["selections"][1].get("notes") == typed


@pytest.mark.parametrize("number", ODD_NUMBERS, ids=[repr(v) for v in ODD_NUMBERS])
def test_an_odd_number_in_campaign_state_keeps_its_value_and_type(
    lib: Library, tmp_path: Path, number: Any
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + BODY, encoding="utf-8")
    doc = save_and_read(
        lib, path, lambda s: s.set(("selections", 0), "state", {"n": number, "list": [number]})
    )
    assert same(doc["selections"][0]["state"], {"n": number, "list": [number]})


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.text(
        alphabet=st.characters(blacklist_categories=["Cs"]),
        max_size=40,
    )
    | st.sampled_from(ODD_TEXT).flatmap(
        lambda v: st.builds(lambda a, b: a + v + b, st.text(max_size=3), st.text(max_size=3))
    )
)
@example("name\x85with a next line")
def test_any_text_dumps_and_reads_back_as_itself(value: str) -> None:
    """The writer every save goes through, on any text (a key too): read back by both
    loaders as the same text."""
    doc = load_round_trip("a: 1\n", "t")
    want = {"a": 1}
    for d in (doc, want):
        d["name"] = value
        d[value] = [value]
    text = dump_round_trip(doc)
    assert to_plain(load_round_trip(text, "t")) == want
    assert load_safe(text, "t") == want


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


ESCAPES = HEAD + (
    '  - entry: captain\n    name: "Vos\\e]0;owned\\a\\e[2J\\x9b31m\\x7f\\rover\\tok"\n'
    '    notes: "n\\e[5m"\n'
)


def test_a_terminal_is_shown_control_characters_not_sent_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A roster is other people's file: a name holding ``ESC ] 0 ;`` retitled the terminal
    the command printed it to, ``ESC [ 2 J`` cleared it. Shown as pictures on a terminal;
    to a file or a pipe, every character as it is (the roster's data, unchanged). (The
    text export already leaves them out: render/context.py.)"""
    path = tmp_path / "r.yaml"
    path.write_text(ESCAPES, encoding="utf-8")
    name = "Vos\x1b]0;owned\x07\x1b[2J\x9b31m\x7f\rover\tok"
    for out, want in (
        (_Terminal(), "Vos\u241b]0;owned\u2407\u241b[2J<U+009B>31m\u2421\u240dover\tok"),
        (io.StringIO(), name),
    ):
        monkeypatch.setattr("sys.stdout", out)
        assert main(["show", str(path), "--catalogs", str(DEMO / "catalogs")]) == 0
        seen = out.getvalue()
        assert want in seen, repr(seen)
        if isinstance(out, _Terminal):
            assert not any(c in seen for c in "\x1b\x07\x9b\x7f\r"), repr(seen)
