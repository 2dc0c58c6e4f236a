"""Safe YAML reading (armybuilder.yamlio): size and encoding limits, tags, aliases, positions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from armybuilder import yamlio
from armybuilder.errors import InputError, Problem

Loader = Callable[[str, str], Any]
LOADERS = [
    pytest.param(yamlio.load_safe, id="safe"),
    pytest.param(yamlio.load_round_trip, id="round-trip"),
]

HEADER = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: X\n"


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" document: ``levels`` lists of ``width`` aliases of the list above."""
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def nested_flow(depth: int) -> str:
    return "x: " + "[" * depth + "]" * depth + "\n"


def single_problem(exc: pytest.ExceptionInfo[InputError]) -> Problem:
    assert len(exc.value.problems) == 1, exc.value.problems
    return exc.value.problems[0]


# --------------------------------------------------------------------------- read_text / decode


def test_read_text_returns_utf8_text(tmp_path: Path) -> None:
    p = tmp_path / "r.yaml"
    p.write_bytes("name: Café ☕\n".encode())
    assert yamlio.read_text(p) == "name: Café ☕\n"


def test_read_text_strips_utf8_bom(tmp_path: Path) -> None:
    p = tmp_path / "bom.yaml"
    p.write_bytes(b"\xef\xbb\xbfname: x\n")
    assert yamlio.read_text(p) == "name: x\n"


def test_read_text_not_utf8_names_file_line_and_column(tmp_path: Path) -> None:
    p = tmp_path / "latin1.yaml"
    p.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(InputError) as exc:
        yamlio.read_text(p)
    prob = single_problem(exc)
    assert prob.code == "not-utf8"
    assert prob.file == str(p)
    assert (prob.line, prob.column) == (1, 10)
    assert "0xe9" in prob.message
    assert str(prob).startswith(f"{p}:1:10: ")


def test_decode_not_utf8_on_a_later_line() -> None:
    with pytest.raises(InputError) as exc:
        yamlio.decode(b"format: 1\nsystem: x\nname: caf\xe9 au lait\n", "f.yaml")
    prob = single_problem(exc)
    assert (prob.file, prob.line, prob.column, prob.code) == ("f.yaml", 3, 10, "not-utf8")


def test_decode_not_utf8_column_counts_characters_not_bytes() -> None:
    # "name: ét" is 8 characters but 9 bytes ("é" takes two): the bad byte after it is
    # character 9 of the line, which is what an editor shows and how YAML errors count.
    with pytest.raises(InputError) as exc:
        yamlio.decode("name: ét".encode() + b"\xe9\n", "f.yaml")
    prob = single_problem(exc)
    assert (prob.line, prob.column) == (1, 9)


def test_decode_allows_bom_and_returns_text_without_it() -> None:
    assert yamlio.decode(b"\xef\xbb\xbfa: 1\n", "f") == "a: 1\n"


def test_read_text_refuses_file_larger_than_max_bytes(tmp_path: Path) -> None:
    p = tmp_path / "r.yaml"
    p.write_bytes(b"a: 1\n" * 10)  # 50 bytes
    with pytest.raises(InputError) as exc:
        yamlio.read_text(p, max_bytes=49)
    prob = single_problem(exc)
    assert prob.code == "file-too-large"
    assert prob.file == str(p)


def test_read_text_accepts_file_of_exactly_max_bytes(tmp_path: Path) -> None:
    p = tmp_path / "r.yaml"
    p.write_bytes(b"a: 1\n" * 10)
    assert yamlio.read_text(p, max_bytes=50) == "a: 1\n" * 10


def test_read_text_refuses_sparse_file_over_default_limit(tmp_path: Path) -> None:
    p = tmp_path / "huge.yaml"
    with p.open("wb") as fh:
        fh.truncate(yamlio.MAX_FILE_BYTES + 1)
    with pytest.raises(InputError) as exc:
        yamlio.read_text(p)
    prob = single_problem(exc)
    assert prob.code == "file-too-large"
    assert "MiB" in prob.message


def test_read_text_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "nope.yaml"
    with pytest.raises(InputError) as exc:
        yamlio.read_text(p)
    prob = single_problem(exc)
    assert prob.code == "file-not-found"
    assert prob.file == str(p)


def test_read_text_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        yamlio.read_text(tmp_path)
    assert single_problem(exc).code == "unreadable"


# --------------------------------------------------------------------------- syntax errors


@pytest.mark.parametrize("load", LOADERS)
def test_unclosed_flow_sequence_reports_position(load: Loader) -> None:
    text = "format: 1\nname: [a, b\nsystem: x\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-syntax"
    assert prob.file == "r.yaml"
    # The parser notices the missing "]" at the ":" after "system" on line 3.
    assert (prob.line, prob.column) == (3, 7)
    assert prob.message.startswith("YAML syntax error: ")
    assert "flow sequence" in prob.message


@pytest.mark.parametrize("load", LOADERS)
def test_bad_indentation_reports_position(load: Loader) -> None:
    text = "format: 1\nsystem: infantry-ops\n  faction: inner-sphere\nname: X\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-syntax"
    assert (prob.line, prob.column) == (3, 10)
    assert "mapping values are not allowed" in prob.message


@pytest.mark.parametrize("load", LOADERS)
def test_bad_indentation_in_a_selection_reports_position(load: Loader) -> None:
    text = HEADER + "selections:\n  - entry: platoon\n   count: 2\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-syntax"
    assert (prob.line, prob.column) == (7, 4)


@pytest.mark.parametrize("load", LOADERS)
def test_duplicate_key_reports_line_of_duplicate(load: Loader) -> None:
    text = HEADER + "selections: []\nname: Y\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-syntax"
    assert (prob.line, prob.column) == (6, 1)
    assert 'duplicate key "name"' in prob.message
    assert "with value" not in prob.message


@pytest.mark.parametrize("load", LOADERS)
def test_duplicate_key_in_nested_mapping(load: Loader) -> None:
    text = HEADER + "selections:\n  - entry: platoon\n    count: 2\n    entry: squad\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.line == 8
    assert 'duplicate key "entry"' in prob.message


# --------------------------------------------------------------------------- tags


@pytest.mark.parametrize("load", LOADERS)
def test_python_object_tag_is_refused(load: Loader) -> None:
    text = HEADER + "notes: !!python/object/apply:os.system ['echo pwned']\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-tag"
    assert "python/object/apply:os.system" in prob.message
    assert "tags are not allowed" in prob.message
    assert (prob.line, prob.column) == (5, 8)


@pytest.mark.parametrize("load", LOADERS)
def test_custom_tag_is_refused(load: Loader) -> None:
    text = HEADER + "selections:\n  - !foo {entry: platoon}\n"
    with pytest.raises(InputError) as exc:
        load(text, "r.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-tag"
    assert "'!foo'" in prob.message
    assert (prob.line, prob.column) == (6, 5)


@pytest.mark.parametrize("load", LOADERS)
def test_standard_tags_are_allowed(load: Loader) -> None:
    # Explicit standard tags are legal YAML; the data they give is plain text and numbers.
    doc = load("a: !!str 12\nb: !!int '7'\n", "r.yaml")
    assert yamlio.to_plain(doc) == {"a": "12", "b": 7}
    assert type(yamlio.to_plain(doc)["a"]) is str


# --------------------------------------------------------------------------- size and depth


@pytest.mark.parametrize("load", LOADERS)
def test_billion_laughs_is_refused(load: Loader) -> None:
    with pytest.raises(InputError) as exc:
        load(HEADER + alias_bomb(), "bomb.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-too-large"
    assert prob.file == "bomb.yaml"
    assert "500,000" in prob.message


@pytest.mark.parametrize("load", LOADERS)
def test_a_few_aliases_are_fine(load: Loader) -> None:
    doc = load("a: &x [1, 2]\nb: *x\nc: *x\n", "r.yaml")
    assert list(doc["c"]) == [1, 2]


@pytest.mark.parametrize("load", LOADERS)
def test_nesting_depth_200_is_refused_without_recursion_error(load: Loader) -> None:
    with pytest.raises(InputError) as exc:
        load(HEADER + nested_flow(200), "deep.yaml")
    prob = single_problem(exc)
    assert prob.code == "yaml-too-deep"
    assert prob.file == "deep.yaml"


@pytest.mark.parametrize("load", LOADERS)
def test_deep_block_mappings_are_refused(load: Loader) -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v\n"
    with pytest.raises(InputError) as exc:
        load(text, "deep.yaml")
    assert single_problem(exc).code == "yaml-too-deep"


def test_very_deep_nesting_hitting_python_recursion_limit_is_refused() -> None:
    with pytest.raises(InputError) as exc:
        yamlio.load_safe(nested_flow(5000), "deep.yaml")
    assert single_problem(exc).code == "yaml-too-deep"


def test_nesting_up_to_max_depth_is_accepted() -> None:
    # The top mapping is depth 0, "x"'s list depth 1 ... the innermost list depth MAX_DEPTH.
    doc = yamlio.load_safe(nested_flow(yamlio.MAX_DEPTH), "ok.yaml")
    assert "x" in doc


def test_check_limits_counts_every_value() -> None:
    doc = {"a": [1, 2], "b": {"c": 3}}  # dict, list, 1, 2, dict, 3 = 6 values
    yamlio.check_limits(doc, "f", max_nodes=6)
    with pytest.raises(InputError) as exc:
        yamlio.check_limits(doc, "f", max_nodes=5)
    assert single_problem(exc).code == "yaml-too-large"


def test_check_limits_follows_shared_aliases_each_time() -> None:
    inner = list(range(10))
    doc = {"a": [inner] * 10}  # 1 + 1 + 10 * (1 + 10) = 112 values
    yamlio.check_limits(doc, "f", max_nodes=112)
    with pytest.raises(InputError):
        yamlio.check_limits(doc, "f", max_nodes=111)


# --------------------------------------------------------------------------- loaded data


def test_load_safe_gives_plain_python_data() -> None:
    doc = yamlio.load_safe("a: [1, 2.5, x, true, null]\nb: {c: d}\n", "f")
    assert doc == {"a": [1, 2.5, "x", True, None], "b": {"c": "d"}}
    assert type(doc) is dict
    assert type(doc["a"]) is list


def test_round_trip_dump_gives_back_the_text() -> None:
    text = "# c\nb: 'q'   # why\na: [1, 2]\nc:\n  - {x: 1, y: 2}\n"
    assert yamlio.dump_round_trip(yamlio.load_round_trip(text, "f")) == text


def test_to_plain_converts_round_trip_types() -> None:
    doc = yamlio.load_round_trip("a: [1, 'x']\nb: {c: 1.5}\nd: true\n", "f")
    plain = yamlio.to_plain(doc)
    assert plain == {"a": [1, "x"], "b": {"c": 1.5}, "d": True}
    assert type(plain) is dict
    assert type(plain["a"]) is list
    assert type(plain["a"][1]) is str
    assert type(plain["b"]["c"]) is float


# --------------------------------------------------------------------------- locate

LOCATE_TEXT = """\
name: X
limits:
  kg: 3000
selections:
  - entry: platoon
    count: 2
    selections:
      - entry: foot
"""


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        (("name",), (1, 7)),
        (("limits", "kg"), (3, 7)),
        (("limits",), (2, 1)),  # a nested block: its key
        (("selections",), (4, 1)),
        (("selections", 0), (5, 5)),
        (("selections", 0, "count"), (6, 12)),
        (("selections", 0, "selections", 0, "entry"), (8, 16)),
        (("selections", 0, "missing"), (5, 5)),  # deepest existing parent
        (("selections", 7), (4, 1)),  # index past the end
        (("nothing", "here"), (1, 1)),
        ((), (1, 1)),
    ],
)
def test_locate(loc: tuple[str | int, ...], expected: tuple[int, int]) -> None:
    doc = yamlio.load_round_trip(LOCATE_TEXT, "f")
    assert yamlio.locate(doc, loc) == expected


def test_iter_paths_lists_every_path() -> None:
    assert list(yamlio.iter_paths({"a": [1, {"b": 2}]})) == [
        (),
        ("a",),
        ("a", 0),
        ("a", 1),
        ("a", 1, "b"),
    ]
