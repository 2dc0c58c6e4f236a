"""The plain-document writer (issue 17: saving the regiment): :func:`yamlio.dump_round_trip`
writes a plain document itself (:func:`yamlio._dump_plain`), about 25 times faster than
ruamel.yaml's emitter. Files are sacred: whatever it writes must be ruamel's text byte for
byte, else it must decline (and ruamel writes). Checked on every YAML file of the repository,
on generated documents (hypothesis: tricky strings, quoting, numbers, booleans, null, floats,
empty and nested collections, comments) and on the regiment after seeded random edits."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import regiment_roster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from armybuilder import yamlio
from armybuilder.errors import InputError

REPO = Path(__file__).resolve().parents[2]


def _regiment(companies: int = 5) -> str:
    return regiment_roster(companies)


def same_or_declined(doc: Any) -> bool:
    """The plain writer gives ruamel's text, or declines; whether it wrote."""
    mine = yamlio._dump_plain(doc)
    if mine is None:
        return False
    assert mine == yamlio._dump_round_trip_ruamel(doc)
    return True


def test_every_yaml_file_of_the_repository() -> None:
    written = []
    for path in sorted(REPO.rglob("*.yaml")):
        inside = path.relative_to(REPO).parts[:-1]
        if "node_modules" in inside or any(part.startswith(".") for part in inside):
            continue  # (.git; CI's .venv: installed copies and other packages' files)
        text = path.read_text(encoding="utf-8", errors="replace")
        for fast in (True, False):
            try:
                doc = yamlio.load_round_trip(text, str(path), fast=fast)
            except InputError:
                continue
            if same_or_declined(doc) and fast:
                written.append(path.relative_to(REPO).as_posix())
    # The examples without comments in their body, the regiment's kind of file
    assert "examples/infantry-ops/rifle-platoon.yaml" in written
    assert "examples/space-hulk/standard-squad.yaml" in written
    assert len(written) >= 7, written


def test_the_regiment_is_written_plainly_and_as_read() -> None:
    text = _regiment()
    doc = yamlio.load_round_trip(text, "regiment.yaml")
    assert same_or_declined(doc)
    assert yamlio.dump_round_trip(doc) == text  # (ruamel's own form, see ownform.py)
    # ruamel's reader keeps the header comment otherwise: declined, ruamel writes it
    doc = yamlio.load_round_trip(text, "regiment.yaml", fast=False)
    same_or_declined(doc)
    assert yamlio.dump_round_trip(doc) == text


_TRICKY = [
    "Renamed",
    "2nd Alpha",
    "First Battalion, A Company",
    "LMG gunners",
    "a-b",
    "x_y",
    "Sgt. Vos (acting)",
    "A/B & C+D",
    "it's",
    "true",
    "True",
    "FALSE",
    "yes",
    "No",
    "on",
    "off",
    "y",
    "n",
    "null",
    "Null",
    "~",
    "12",
    "012",
    "0x1F",
    "0o17",
    "1_000",
    "1e3",
    "1.5",
    ".5",
    ".inf",
    "-.inf",
    ".NaN",
    "+1",
    "-3",
    "2020-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "1:30",
    "12:30:45",
    "=",
    "<<",
    "a: b",
    "a:b",
    "a #b",
    "a#b",
    "#x",
    " x",
    "x ",
    "x  y",
    "",
    "-",
    "- x",
    "-x",
    "?x",
    ":x",
    "'q'",
    '"q"',
    "back\\slash",
    "tab\there",
    "line\nbreak",
    "Zoë",
    "日本",
    "---",
    "...",
    "--- x",
    "[x]",
    "{x}",
    "x,y",
    "!tag",
    "&anchor",
    "*alias",
    "|",
    ">",
    "%",
    "@",
    "`",
    "a" * 127,
    "b" * 129,
    "c" * 250,
    "x " * 60,
]

_texts = st.one_of(
    st.sampled_from(_TRICKY),
    st.text(alphabet="aZ09 _-.,()/&+':#\"\\!?|>%@`{}[]é\n\t", max_size=12),
)


@st.composite
def _scalars(draw: Any) -> Any:
    kind = draw(st.sampled_from(["str", "str", "str", "dq", "sq", "int", "bool", "none", "float"]))
    if kind == "int":
        return draw(st.integers(-(10**12), 10**12))
    if kind == "bool":
        return draw(st.booleans())
    if kind == "none":
        return None
    if kind == "float":
        return draw(st.floats(allow_nan=False, allow_infinity=False))
    text = draw(_texts)
    if kind == "dq":
        return DoubleQuotedScalarString(text)
    if kind == "sq":
        return SingleQuotedScalarString(text)
    return text


def _nodes() -> Any:
    keys = st.one_of(st.sampled_from(["entry", "name", "count", "selections", "a", "x y"]), _texts)

    def extend(children: Any) -> Any:
        maps = st.dictionaries(keys, children, max_size=4).map(_cmap)
        seqs = st.lists(children, max_size=4).map(CommentedSeq)
        return st.one_of(maps, seqs)

    return st.recursive(_scalars(), extend, max_leaves=20)


def _cmap(items: dict[str, Any]) -> CommentedMap:
    m = CommentedMap()
    m.update(items)
    return m


@settings(
    max_examples=150,
    derandomize=True,  # (the same documents on every run: a CI failure can be replayed)
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.dictionaries(st.sampled_from(["format", "name", "selections", "b"]), _nodes(), min_size=1)
)
def test_generated_documents(items: dict[str, Any]) -> None:
    doc = _cmap(items)
    same_or_declined(doc)
    # ... and read back by both loaders (line and column data, block styles, quotes kept)
    text = yamlio._dump_round_trip_ruamel(doc)
    for fast in (True, False):
        try:
            again = yamlio.load_round_trip(text, "g.yaml", fast=fast)
        except InputError:
            continue
        same_or_declined(again)


@settings(
    max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    st.lists(st.sampled_from(_TRICKY), min_size=1, max_size=4),
    st.sampled_from(["plain", "dq", "sq"]),
    st.booleans(),
)
def test_strings_in_a_roster_of_plain_lines(names: list[str], how: str, comment: bool) -> None:
    """Every tricky name in a roster otherwise written plainly: the writer takes it or
    declines, never writes it otherwise than ruamel."""
    head = "# a header comment\n" if comment else ""
    doc = yamlio.load_round_trip(
        head + "format: 1\nname: Patrol\nselections:\n  - entry: captain\n    count: 2\n", "p"
    )
    wrap = {"plain": str, "dq": DoubleQuotedScalarString, "sq": SingleQuotedScalarString}[how]
    for i, name in enumerate(names):
        item = CommentedMap()
        item["entry"] = "trooper"
        item["name"] = wrap(name)
        doc["selections"].append(item)
        if i % 2:
            doc["selections"][0]["name"] = wrap(name)
    same_or_declined(doc)


def test_comments_and_odd_forms_are_left_to_ruamel() -> None:
    texts = [
        "a: 1  # why\n",
        "a: 1\n# the end\n",
        "a:\n  # inside\n  b: 1\n",
        "a: [1, 2]\n",
        "a: {b: 1}\n",
        "a: []\n",
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: 1.5\n",
        "a:\n",
        "a: |\n  text\n",
        "a:\n  - - 1\n",
        "a: 2001-12-14\n",
        "a: 0x1F\n",
        "a: 1_000\n",
    ]
    for text in texts:
        for fast in (True, False):
            doc = yamlio.load_round_trip(text, "t.yaml", fast=fast)
            assert yamlio._dump_plain(doc) is None, text
            assert yamlio.dump_round_trip(doc) == yamlio._dump_round_trip_ruamel(doc)
    # (ruamel drops `---`, as the plain writer does; Roster.dumps puts it back, textmerge)
    doc = yamlio.load_round_trip("--- \na: 1\n", "t.yaml")
    assert yamlio._dump_plain(doc) == yamlio._dump_round_trip_ruamel(doc) == "a: 1\n"


def test_random_edits_of_the_regiment() -> None:
    """Seeded renames (tricky names too), counts, copies and removals of the regiment's
    selections: after each, the plain writer's text is ruamel's (or it declines)."""
    doc = yamlio.load_round_trip(_regiment(companies=1), "regiment.yaml")
    rng = random.Random(17)
    wrote = 0
    kinds: set[str] = set()
    for _ in range(20):  # (every kind of edit at least twice; 40 re-tested the same kinds)
        sels = doc["selections"]
        at = rng.randrange(len(sels))
        kind = rng.choice(["name", "name", "tricky", "count", "copy", "remove"])
        kinds.add(kind)
        if kind == "name":
            sels[at]["name"] = rng.choice(_TRICKY[:8])
        elif kind == "tricky":  # written by ruamel (declined) or the same; then undone
            before = sels[at]["name"]
            sels[at]["name"] = rng.choice(_TRICKY[8:])
            same_or_declined(doc)
            sels[at]["name"] = before
        elif kind == "count":
            sels[at]["count"] = rng.choice([1, 2, 17, -1])
        elif kind == "copy":
            sels.insert(rng.randrange(len(sels) + 1), copy.deepcopy(sels[at]))
        elif len(sels) > 1:
            del sels[at]
        wrote += same_or_declined(doc)
    assert kinds == {"name", "tricky", "count", "copy", "remove"}
    assert wrote >= 10  # (most edits keep the document plain)
    # A selection whose list is shared with another (ruamel writes `&id001` and `*id001`)
    shared = CommentedMap()
    shared.update(doc["selections"][0])
    doc["selections"].append(shared)
    assert not same_or_declined(doc)
    assert "&id001" in yamlio.dump_round_trip(doc)


@pytest.mark.parametrize("flag", [True, False])
def test_the_switch(flag: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """``DUMP_FAST = False`` (tests, benchmarks) writes through ruamel: the same text."""
    monkeypatch.setattr(yamlio, "DUMP_FAST", flag)
    calls: list[int] = []
    plain = yamlio._dump_plain

    def counted(doc: Any) -> str | None:
        calls.append(1)
        return plain(doc)

    monkeypatch.setattr(yamlio, "_dump_plain", counted)
    doc = yamlio.load_round_trip("format: 1\nname: x\n", "x.yaml")
    assert yamlio.dump_round_trip(doc) == "format: 1\nname: x\n"
    assert bool(calls) == flag
