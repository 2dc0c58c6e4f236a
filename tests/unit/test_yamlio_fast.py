"""The fast loader of `load_safe` (issue 17): libyaml's events read into plain data.

It must give exactly what the ruamel path gives (the same values of the same types) or decline,
and then the ruamel path reads the file with every message, line and column as before. Checked
on YAML 1.1/1.2 look-alikes one by one, on generated texts (hypothesis), on the bundled examples
and a generated corpus through `armybuilder validate --format json`; and `validate` must really
take the fast path (it is what makes it fast).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import bench_module
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder import yamlio
from armybuilder.errors import InputError

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").rglob("*.yaml"))
DECLINED = yamlio._DECLINED


def _ruamel(text: str) -> Any:
    """What the ruamel path says: the data, or ("error", its problems)."""
    try:
        return yamlio._load_safe_ruamel(text, "f.yaml")
    except InputError as exc:
        return ("error", [(p.message, p.line, p.column) for p in exc.problems])


def same(a: Any, b: Any) -> bool:
    """Equal data of the same types all the way down (NaN equals NaN; -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return len(a) == len(b) and all(
            same(ka, kb) and same(a[ka], b[kb]) for ka, kb in zip(a, b, strict=True)
        )
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    return bool(a == b)


def check(text: str) -> bool:
    """The fast loader agrees with the ruamel path on ``text``; True when it did not decline."""
    fast = yamlio.load_fast(text)
    if fast is DECLINED:
        return False
    ref = _ruamel(text)
    assert not (isinstance(ref, tuple) and ref and ref[0] == "error"), (text, fast, ref)
    assert same(fast, ref), (text, fast, ref)
    return True


BINDINGS = ["PyYAML", "ruamel.yaml.clib"]


@pytest.fixture(params=BINDINGS)
def binding(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The fast loader on one of libyaml's two bindings (a process uses both, in turn)."""
    parsers = yamlio._FastParser(pyyaml_after=0 if request.param == "PyYAML" else 10**9)
    found = parsers.binding(request.param)
    if found is None:
        pytest.skip(f"{request.param} is not installed")
    monkeypatch.setattr(yamlio, "_FAST_PARSER", parsers)
    assert yamlio._fast_parser() is found
    return str(request.param)


# --------------------------------------------------------------------------- the schema

#: YAML 1.1 forms that YAML 1.2 (and so `load_safe`) reads otherwise, and other look-alikes.
TRICKY = [
    "yes",
    "Yes",
    "YES",
    "no",
    "No",
    "on",
    "On",
    "off",
    "OFF",
    "y",
    "n",
    "Y",
    "N",
    "true",
    "True",
    "TRUE",
    "false",
    "False",
    "FALSE",
    "tRue",
    "truee",
    "~",
    "null",
    "Null",
    "NULL",
    "nULL",
    "",
    "none",
    "None",
    "0",
    "-0",
    "+0",
    "00",
    "007",
    "0777",
    "0o17",
    "0o8",
    "0x1F",
    "0X1F",
    "0xg",
    "0b101",
    "0b2",
    "1_000",
    "_1",
    "1__",
    "+12",
    "-12",
    "12e3",
    "12E+3",
    "1.5",
    "-1.5",
    "+.5",
    ".5",
    "1.",
    "1.5e-3",
    "1e3",
    "6.02e23",
    "._5",
    "1_2.3_4",
    "0.1e",
    "1:30",
    "12:30:00",
    "-1:30",
    "190:20:30",
    ".inf",
    ".Inf",
    ".INF",
    "-.inf",
    "+.inf",
    ".nan",
    ".NaN",
    ".NAN",
    "-.nan",
    "inf",
    "nan",
    "2024-01-01",
    "2024-1-1",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10",
    "<<",
    "=",
    "-",
    "--",
    "+",
    ".",
    "...",
    "1.2.3",
    "1,000",
    "0x",
    "0b",
    "0o",
    "12345678901234567890123",
    "3.14159265358979323846",
    "1e400",
    "-1e400",
    "Ω",
    "é1",
    "日本",
    "a b",
    "a#b",
    "a: b",
    "🎲",
    "1 2",
]


@pytest.mark.parametrize("value", TRICKY)
def test_each_tricky_scalar_reads_as_ruamel_reads_it(value: str, binding: str) -> None:
    styles = [value, f"'{value}'", json.dumps(value, ensure_ascii=False)]
    for shown in styles:
        for text in (
            f"a: {shown}\n",
            f"- {shown}\n- x\n",
            f"[{shown}, x]\n",
            f"{{k: {shown}}}\n",
            f"{shown}: v\nother: 1\n",
            f"a: |\n  {value}\n",
        ):
            check(text)


def test_the_yaml_1_1_forms_read_as_yaml_1_2(binding: str) -> None:
    items = ["yes", "on", "no", "0777", "0o17", "1:30", ".inf", "~", "0x1F", "1_000"]
    assert yamlio.load_fast("a:\n" + "".join(f"  - {x}\n" for x in items)) == {
        "a": ["yes", "on", "no", 777, 15, "1:30", math.inf, None, 31, 1000]
    }
    doc = yamlio.load_fast("a: 1.0\nb: 1\nc: '1'\nd: true\ne:\n")
    assert [type(v) for v in doc.values()] == [float, int, str, bool, type(None)]


@pytest.mark.parametrize(
    "text",
    [
        "a: 2024-01-01\n",  # a timestamp: ruamel makes a date
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 12\n",  # tags
        "a: !custom 12\n",
        "base: &b {x: 1}\nc:\n  <<: *b\n",  # merge keys
        "<<: 1\n",
        "a: =\n",
        "a: 1\na: 2\n",  # duplicate keys
        "1: a\n1.0: b\n",
        "? [a, b]\n: c\n",  # a collection as a key
        "a: 1\n---\nb: 2\n",  # several documents
        "%YAML 1.1\n---\na: yes\n",  # directives
        "%TAG !e! tag:example.com,2000:\n---\na: 1\n",
        "\ufeffa: 1\n",  # a byte order mark
        "a: [1, 2\n",  # parse errors
        "a: 'x\n",
        "a:\tb: c\n",
        'a: "\\ud83d"\n',  # a lone surrogate escape
        "a: 0b_\n",  # ints Python cannot read
        "a: " + "9" * 5000 + "\n",
        "[" * 70 + "]" * 70 + "\n",  # deeper than the limit
        # libyaml 0.2.5 reads a bare `?` in a flow collection as an empty key; ruamel's
        # libyaml refuses it (found by review: the verdict changed after 64 reads)
        "[?]\n",
        "[? ]\n",
        "a: [?]\n",
        "- [a, ?]\n",
        "[? a, ?]\n",
        "{a: }\n",
    ],
)
def test_what_the_fast_path_leaves_to_ruamel(text: str, binding: str) -> None:
    assert yamlio.load_fast(text) is DECLINED
    ref = _ruamel(text)
    # load_safe gives ruamel's answer, message and place included
    try:
        got: Any = yamlio.load_safe(text, "f.yaml")
    except InputError as exc:
        got = ("error", [(p.message, p.line, p.column) for p in exc.problems])
    assert same(got, ref) or got == ref


def test_limits_hold_on_the_fast_path(monkeypatch: pytest.MonkeyPatch, binding: str) -> None:
    deep = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 70))
    assert yamlio.load_fast(deep) is DECLINED
    with pytest.raises(InputError) as exc:
        yamlio.load_safe("[" * 80 + "]" * 80, "f.yaml")
    assert exc.value.problems[0].code == "yaml-too-deep"
    # the value budget (ruamel's refusal of a document too large: tests/unit/test_files_limits)
    monkeypatch.setattr(yamlio, "MAX_NODES", 1000)
    assert yamlio.load_fast("[" + ",".join(["1"] * 998) + "]\n") == [1] * 998
    assert yamlio.load_fast("[" + ",".join(["1"] * 1001) + "]\n") is DECLINED
    assert yamlio.load_fast("a:\n" + "".join(f"  - {{b: {i}}}\n" for i in range(600))) is DECLINED


def test_the_resolvers_are_still_ruamels() -> None:
    """The fast path's copies of ruamel's YAML 1.2 patterns, and its constants."""
    from ruamel.yaml.resolver import implicit_resolvers

    ours = {
        "tag:yaml.org,2002:float": yamlio._FLOAT_PATTERN,
        "tag:yaml.org,2002:int": yamlio._INT_PATTERN,
        "tag:yaml.org,2002:timestamp": yamlio._TIMESTAMP_PATTERN,
    }
    tags12 = set()
    for versions, tag, regexp, first in implicit_resolvers:
        if (1, 2) not in versions:
            continue
        tags12.add(tag)
        if tag in ours:
            assert regexp.pattern == ours[tag], tag
            assert set(first) <= yamlio._NUMBER_START
    assert tags12 == {
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:merge",
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:timestamp",
        "tag:yaml.org,2002:value",
        "tag:yaml.org,2002:yaml",
    }


# --------------------------------------------------------------------------- fuzz

PLAIN_WORDS = [*TRICKY, "entry", "trooper", "x", "a-b", "a_b", "A", "10 kg", "a'b", 'a"b']
SCALAR_CHARS = st.sampled_from(list("ab01-+._:#'\"&*!|>?,[]{}~ %@`\\\t\nΩé🎲\u2028\x85"))


@st.composite
def scalars(draw: st.DrawFn, flow: bool) -> str:
    word = draw(st.sampled_from(PLAIN_WORDS)) if draw(st.integers(0, 3)) else ""
    word += draw(st.text(SCALAR_CHARS, max_size=3)) if draw(st.integers(0, 3)) == 0 else ""
    style = draw(st.sampled_from(["plain"] * 4 + ["single", "double", "raw"]))
    if style == "single":
        return "'" + word.replace("'", "''").replace("\n", " ") + "'"
    if style == "double":
        return json.dumps(word, ensure_ascii=draw(st.booleans()))
    if style == "raw":
        return word  # anything: often not YAML at all
    if flow:
        return word.replace(",", "").replace("]", "").replace("}", "").replace("\n", " ")
    return word.replace("\n", " ")


@st.composite
def flows(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 2 or draw(st.integers(0, 2)) == 0:
        return draw(scalars(True))
    if draw(st.booleans()):
        items = draw(st.lists(flows(depth + 1), max_size=3))
        return "[" + ", ".join(items) + "]"
    pairs = draw(st.lists(st.tuples(scalars(True), flows(depth + 1)), max_size=3))
    return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"


@st.composite
def blocks(draw: st.DrawFn, indent: int = 0, depth: int = 0) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    kind = draw(st.sampled_from(["map", "seq"]))
    for _ in range(draw(st.integers(1, 3))):
        head = f"{pad}- " if kind == "seq" else f"{pad}{draw(scalars(False))}:"
        choice = draw(st.integers(0, 5)) if depth < 3 else 0
        if choice <= 1:
            lines.append(f"{head} {draw(scalars(False))}".rstrip())
        elif choice == 2:
            lines.append(f"{head} {draw(flows())}")
        elif choice == 3:
            lines.append(f"{head} {draw(st.sampled_from(['|', '>', '|-', '>+', '|2']))}")
            for word in draw(st.lists(st.sampled_from(PLAIN_WORDS), min_size=1, max_size=3)):
                lines.append(f"{pad}  {word}")
        else:
            step = draw(st.sampled_from([2, 4]))
            lines.append(head.rstrip())
            lines.extend(draw(blocks(indent + step, depth + 1)))
        if draw(st.integers(0, 5)) == 0:
            lines.append(f"{pad}# {draw(st.sampled_from(PLAIN_WORDS))}")
    return lines


@st.composite
def documents(draw: st.DrawFn) -> str:
    text = "\n".join(draw(blocks())) + draw(st.sampled_from(["\n", "", "\n\n", "\n...\n"]))
    if draw(st.integers(0, 4)) == 0:  # a cut or a stray character somewhere
        i = draw(st.integers(0, len(text)))
        text = (
            text[:i] + draw(st.sampled_from(["", ":", "-", "'", '"', "\t", "&a ", "*a"])) + text[i:]
        )
    if draw(st.integers(0, 6)) == 0:
        text = draw(st.sampled_from(["---\n", "--- ", "# c\n"])) + text
    return text


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=documents())
def test_fuzz_fast_loader_agrees_with_ruamel(text: str, binding: str) -> None:
    check(text)


def test_fuzz_is_not_vacuous(binding: str) -> None:
    """Most generated documents that ruamel reads, the fast path reads too (so the fuzz above
    compares data, not only refusals)."""
    accepted = loaded = 0

    @settings(max_examples=100, deadline=None, database=None)
    @given(documents())
    def run(text: str) -> None:
        nonlocal accepted, loaded
        loaded += check(text)
        accepted += not isinstance(_ruamel(text), tuple)

    run()
    assert loaded >= 15 and loaded >= accepted // 2, (loaded, accepted)


# --------------------------------------------------------------------------- validate


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("corpus")
    generated = bench_module().generate(folder, 8, 11)
    varied = [p for p in generated.files if p != generated.regiment]
    odd = folder / "odd.yaml"  # read by ruamel: an anchor, and a date
    odd.write_text(
        "system: infantry-ops\nfaction: &f clan\nname: Odd\nnotes: 2024-01-01\n", "utf-8"
    )
    broken = folder / "broken.yaml"
    broken.write_text("system: infantry-ops\nfaction: [unclosed\n", encoding="utf-8")
    return [str(p) for p in [*EXAMPLES, *varied, odd, broken]]


def _validate(files: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    from armybuilder.cli import main

    code = main(["validate", "--format", "json", "--jobs", "1", *files])
    return code, json.loads(capsys.readouterr().out)


def test_validate_reports_the_same_with_and_without_the_fast_path(
    corpus: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(EXAMPLES) >= 16
    before = dict(yamlio.fast_stats)
    fast = _validate(corpus, capsys)
    loaded = yamlio.fast_stats["loaded"] - before["loaded"]
    declined = yamlio.fast_stats["declined"] - before["declined"]
    # every roster but the two made to be left to ruamel goes the fast way
    assert loaded >= len(corpus) - 2 and declined >= 2, (loaded, declined)
    # PyYAML missing (and no other C binding): everything through ruamel, as before
    absent = yamlio._FastParser()
    absent._found = {name: None for name in BINDINGS}
    monkeypatch.setattr(yamlio, "_FAST_PARSER", absent)
    before = dict(yamlio.fast_stats)
    slow = _validate(corpus, capsys)
    assert yamlio.fast_stats["loaded"] == before["loaded"]
    assert fast == slow
    assert fast[0] == 2  # a file cannot be read, some rosters are illegal: all compared


def test_without_pyyaml_the_loader_uses_ruamels_c_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML not installed: ruamel.yaml.clib's parser feeds the same loop (or, without it too,
    everything goes through ruamel)."""
    monkeypatch.setitem(sys.modules, "yaml", None)
    monkeypatch.setitem(sys.modules, "yaml._yaml", None)
    monkeypatch.setitem(sys.modules, "yaml.events", None)
    monkeypatch.setattr(yamlio, "_FAST_PARSER", yamlio._FastParser(pyyaml_after=0))
    fp = yamlio._fast_parser()
    if importlib.util.find_spec("_ruamel_yaml") is None:
        assert fp is None
    else:
        assert fp is not None and fp.source == "ruamel.yaml.clib"
    for path in EXAMPLES:
        text = path.read_text("utf-8")
        assert check(text) == (fp is not None)
    assert yamlio.load_safe("a: [yes, 0777]\n", "f.yaml") == {"a": ["yes", 777]}


def test_a_process_moves_to_pyyaml_after_its_first_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """ruamel.yaml.clib's parser first (no import to pay for one roster), then PyYAML's."""
    if importlib.util.find_spec("_ruamel_yaml") is None:
        pytest.skip("ruamel.yaml.clib is not installed")
    pytest.importorskip("yaml._yaml")
    parsers = yamlio._FastParser()
    monkeypatch.setattr(yamlio, "_FAST_PARSER", parsers)
    text = EXAMPLES[0].read_text("utf-8")
    used = []
    pick = parsers.pick

    def spy() -> Any:
        fp = pick()
        used.append(fp.source if fp else None)
        return fp

    monkeypatch.setattr(parsers, "pick", spy)
    for _ in range(parsers.pyyaml_after + 3):
        assert yamlio.load_fast(text) is not DECLINED
    assert used == ["ruamel.yaml.clib"] * parsers.pyyaml_after + ["PyYAML"] * 3


def test_without_ruamels_c_parser_there_is_no_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """ruamel.yaml.clib missing: ruamel reads with its Python parser, whose verdicts are not
    libyaml's (`|-#c` is one), so no text goes the fast way, even with PyYAML installed."""
    parsers = yamlio._FastParser(pyyaml_after=0)
    parsers._found["ruamel.yaml.clib"] = None
    monkeypatch.setattr(yamlio, "_FAST_PARSER", parsers)
    assert yamlio._fast_parser() is None
    assert yamlio.load_fast("a: 1\n") is DECLINED


def test_a_broken_binding_is_a_fallback_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("a broken install")

    monkeypatch.setattr(yamlio, "_fast_parser", broken)
    assert yamlio.load_fast("a: 1\n") is DECLINED
    assert yamlio.load_safe("a: 1\n", "f.yaml") == {"a": 1}
