"""Roster files (armybuilder.rosters): round trip, atomic saves, tolerant loading, bad input."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from armybuilder import yamlio
from armybuilder.errors import Problem, RosterError
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").rglob("*.yaml"))
RIFLE = REPO / "examples" / "infantry-ops" / "rifle-platoon.yaml"

HEADER = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: X\n"

# A hand-edited roster: comments everywhere, keys out of the usual order, quoted strings,
# flow-style lists and mappings, unknown keys at the top and in selections, an unknown entry.
ODD = """\
# yaml-language-server: $schema=../../armybuilder/schemas/roster.schema.json
# A hand-edited roster.
name: "Odd order platoon"   # quoted name
faction: 'inner-sphere'
system: infantry-ops
format: 1
house-rules: {fog: true, turns: [1, 2, 3]}   # unknown top-level key
selections:
  # the platoon
  - experience: regular
    entry: platoon
    painted: yes          # unknown selection key
    tags: [alpha, "bravo"]
    selections:
      - {entry: foot}
      - entry: squad
        count: 4
        selections:
          - entry: trooper
            count: 7
            selections: [{entry: auto-rifle}, {entry: thrown-grenade}, {entry: kevlar-vest}]
          - entry: plasma-cannon-9000   # unknown entry, kept
            count: 2
            mystery: {a: 1}
# trailing comment
"""

SQUAD = ("selections", 0, "selections", 1)
TROOPER = (*SQUAD, "selections", 0)


def line_changes(before: str, after: str) -> tuple[list[str], list[str]]:
    """Lines removed from and added to ``before`` to give ``after`` (difflib)."""
    removed, added = [], []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        if line.startswith("-"):
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
    return removed, added


def comments(text: str) -> list[str]:
    """Every comment in a text, from the ``#`` to the end of its line."""
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


def plain(roster_or_text: Roster | str) -> Any:
    if isinstance(roster_or_text, Roster):
        return yamlio.to_plain(roster_or_text.doc)
    return yamlio.load_safe(roster_or_text, "<expected>")


def problem(exc: pytest.ExceptionInfo[RosterError]) -> Problem:
    assert len(exc.value.problems) == 1, exc.value.problems
    return exc.value.problems[0]


def line_of(text: str, needle: str) -> int:
    """1-based number of the (single) line containing ``needle``."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


# --------------------------------------------------------------------------- round trip


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_dumps_identical_text(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    roster = Roster.from_file(path, round_trip=True)
    assert roster.dumps() == text
    assert not roster.dirty


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_saved_unchanged_gives_same_bytes(path: Path, tmp_path: Path) -> None:
    roster = Roster.from_file(path, round_trip=True)
    out = roster.save(tmp_path / path.name)
    assert out == tmp_path / path.name
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_reserialised_after_edit_and_undo_keeps_text(path: Path) -> None:
    # An edit that is undone makes the roster dirty: the dumper must give back the same text.
    text = path.read_text(encoding="utf-8")
    roster = Roster.from_file(path)
    # (a roster of several forces holds its selections in its forces)
    loc = roster.add(("forces", 0) if roster.several else (), "platoon")
    roster.remove(loc)
    assert roster.dirty
    assert roster.dumps() == text


def test_odd_roster_unchanged_round_trip_is_identical(tmp_path: Path) -> None:
    roster = Roster.from_text(ODD, "odd.yaml")
    assert roster.dumps() == ODD
    target = tmp_path / "odd.yaml"
    roster.save(target)
    assert target.read_bytes() == ODD.encode()


def test_odd_roster_add_selection_keeps_everything_else(tmp_path: Path) -> None:
    target = tmp_path / "odd.yaml"
    target.write_text(ODD, encoding="utf-8")
    roster = Roster.from_file(target)
    loc = roster.add(SQUAD, "trooper", count=2, name="Extra")
    assert loc == (*SQUAD, "selections", 2)
    roster.save()
    saved = target.read_text(encoding="utf-8")

    # Reloaded, the document is the original plus the new selection, nothing else.
    expected = plain(ODD)
    expected["selections"][0]["selections"][1]["selections"].append(
        {"entry": "trooper", "count": 2, "name": "Extra"}
    )
    assert plain(Roster.from_file(target)) == expected
    # Every comment, unknown key and the unknown entry is still written in the file.
    for c in comments(ODD):
        assert c in saved, c
    for kept in ("house-rules:", "painted: yes", 'tags: [alpha, "bravo"]', "mystery: {a: 1}"):
        assert kept in saved
    assert "entry: plasma-cannon-9000   # unknown entry, kept" in saved
    # As lines: only the new selection is added, nothing removed or rewritten.
    removed, added = line_changes(ODD, saved)
    assert removed == []
    assert added == [
        "          - entry: trooper",
        "            count: 2",
        "            name: Extra",
    ]


def test_odd_roster_set_name_changes_one_line(tmp_path: Path) -> None:
    target = tmp_path / "odd.yaml"
    target.write_text(ODD, encoding="utf-8")
    roster = Roster.from_file(target)
    roster.set((), "name", "Renamed platoon")
    roster.save()
    saved = target.read_text(encoding="utf-8")

    reloaded = Roster.from_file(target)
    assert reloaded.name == "Renamed platoon"
    expected = plain(ODD)
    expected["name"] = "Renamed platoon"
    assert plain(reloaded) == expected
    for c in comments(ODD):
        assert c in saved, c
    removed, added = line_changes(ODD, saved)
    assert removed == ['name: "Odd order platoon"   # quoted name']
    assert len(added) == 1
    assert re.fullmatch(r'name: "?Renamed platoon"?\s+# quoted name', added[0]), added


def test_set_name_on_a_selection_adds_one_line() -> None:
    text = HEADER + (
        "selections:\n"
        "  - entry: platoon   # the platoon\n"
        "    selections:\n"
        "      - entry: squad\n"
        "        count: 4     # four squads\n"
        "      - entry: foot\n"
    )
    roster = Roster.from_text(text, "r.yaml")
    roster.set(("selections", 0, "selections", 0), "name", "1st Squad")
    out = roster.dumps()
    assert line_changes(text, out) == ([], ["        name: 1st Squad"])
    assert roster.selections[0].children[0].name == "1st Squad"


def test_edit_keeps_flow_mappings_inside_flow_lists() -> None:
    # `[{entry: a}, {entry: b}]` is a common way to write short lists of selections; an
    # unrelated edit elsewhere must not rewrite it (e.g. to `[entry: a, entry: b]`).
    text = HEADER + "selections: [{entry: platoon}, {entry: foot}]\n"
    roster = Roster.from_text(text, "r.yaml")
    roster.set((), "name", "Y")
    assert line_changes(text, roster.dumps()) == (["name: X"], ["name: Y"])


def test_remove_selection_removes_only_its_lines() -> None:
    roster = Roster.from_text(ODD, "odd.yaml")
    removed_node = roster.remove((*SQUAD, "selections", 1))
    assert removed_node["entry"] == "plasma-cannon-9000"
    removed, added = line_changes(ODD, roster.dumps())
    assert added == []
    assert removed == [
        "          - entry: plasma-cannon-9000   # unknown entry, kept",
        "            count: 2",
        "            mystery: {a: 1}",
    ]


def test_add_creates_missing_selections_list() -> None:
    roster = Roster.from_text(HEADER, "r.yaml")
    assert roster.add((), "platoon", experience="green") == ("selections", 0)
    assert plain(roster)["selections"] == [{"entry": "platoon", "experience": "green"}]
    assert [s.entry for s in roster.walk()] == ["platoon"]
    assert roster.selections[0].experience == "green"


def test_set_none_deletes_key() -> None:
    text = HEADER + "notes: hello\n"
    roster = Roster.from_text(text, "r.yaml")
    roster.set((), "notes", None)
    assert "notes" not in plain(roster)
    assert line_changes(text, roster.dumps()) == (["notes: hello"], [])


def test_saving_an_utf8_bom_file_unchanged_keeps_its_bytes(tmp_path: Path) -> None:
    original = b"\xef\xbb\xbf" + HEADER.encode()
    target = tmp_path / "bom.yaml"
    target.write_bytes(original)
    Roster.from_file(target).save()
    assert target.read_bytes() == original


def test_edit_keeps_utf8_bom(tmp_path: Path) -> None:
    target = tmp_path / "bom.yaml"
    target.write_bytes(b"\xef\xbb\xbf" + HEADER.encode())
    roster = Roster.from_file(target)
    roster.set((), "name", "Y")
    roster.save()
    assert target.read_bytes() == b"\xef\xbb\xbf" + HEADER.replace("name: X", "name: Y").encode()
    assert Roster.from_file(target).name == "Y"


def test_crlf_file_saved_unchanged_keeps_bytes(tmp_path: Path) -> None:
    original = HEADER.replace("\n", "\r\n").encode()
    target = tmp_path / "crlf.yaml"
    target.write_bytes(original)
    Roster.from_file(target).save()
    assert target.read_bytes() == original


def test_edit_keeps_crlf_line_endings(tmp_path: Path) -> None:
    target = tmp_path / "crlf.yaml"
    target.write_bytes(HEADER.replace("\n", "\r\n").encode())
    roster = Roster.from_file(target)
    roster.set((), "name", "Y")
    roster.save()
    expected = HEADER.replace("name: X", "name: Y").replace("\n", "\r\n")
    assert target.read_bytes() == expected.encode()


def test_read_only_roster_refuses_edits_but_dumps_original() -> None:
    roster = Roster.from_text(ODD, "odd.yaml", round_trip=False)
    assert roster.dumps() == ODD
    with pytest.raises(RuntimeError):
        roster.add((), "platoon")
    with pytest.raises(RuntimeError):
        roster.set((), "name", "Y")


def test_position_is_the_same_with_either_loader() -> None:
    rt = Roster.from_text(ODD, "odd.yaml", round_trip=True)
    safe = Roster.from_text(ODD, "odd.yaml", round_trip=False)
    for loc in [("name",), (*SQUAD, "count"), (*SQUAD, "selections", 1), ("house-rules",)]:
        assert rt.position(loc) == safe.position(loc)
    assert rt.position((*SQUAD, "count")) == (line_of(ODD, "count: 4"), 16)
    assert rt.position((*SQUAD, "selections", 1)) == (line_of(ODD, "plasma-cannon"), 13)


# --------------------------------------------------------------------------- atomic writes


def test_save_over_existing_file_keeps_backup_and_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "r.yaml"
    target.write_text(ODD, encoding="utf-8")
    roster = Roster.from_file(target)
    roster.set((), "name", "First edit")
    roster.save()
    assert (tmp_path / "r.yaml.bak").read_bytes() == ODD.encode()
    first = target.read_bytes()
    assert b"First edit" in first
    assert sorted(os.listdir(tmp_path)) == ["r.yaml", "r.yaml.bak"]

    roster.set((), "name", "Second edit")
    roster.save()
    assert (tmp_path / "r.yaml.bak").read_bytes() == first
    assert b"Second edit" in target.read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["r.yaml", "r.yaml.bak"]


def test_save_new_file_creates_no_backup(tmp_path: Path) -> None:
    roster = Roster.from_text(ODD, "<text>")
    target = tmp_path / "sub" / "new.yaml"
    assert roster.save(target) == target
    assert target.read_bytes() == ODD.encode()
    assert os.listdir(target.parent) == ["new.yaml"]
    assert roster.path == target
    assert roster.file == str(target)


def test_save_without_backup(tmp_path: Path) -> None:
    target = tmp_path / "r.yaml"
    target.write_text("old", encoding="utf-8")
    Roster.from_text(HEADER, "<text>").save(target, backup=False, overwrite=True)
    assert os.listdir(tmp_path) == ["r.yaml"]
    assert target.read_text(encoding="utf-8") == HEADER


def test_save_without_a_path_is_refused() -> None:
    with pytest.raises(ValueError):
        Roster.from_text(HEADER, "<text>").save()


def test_failed_save_leaves_original_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "r.yaml"
    target.write_text(ODD, encoding="utf-8")
    roster = Roster.from_file(target)
    roster.set((), "name", "Never written")

    def fail(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        roster.save()
    monkeypatch.undo()
    assert target.read_bytes() == ODD.encode()
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


def test_save_keeps_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "r.yaml"
    target.write_text(HEADER, encoding="utf-8")
    target.chmod(0o640)
    roster = Roster.from_file(target)
    roster.set((), "name", "Y")
    roster.save()
    assert target.stat().st_mode & 0o777 == 0o640


# --------------------------------------------------------------------------- Roster.new


def test_new_roster_loads_back_with_same_header() -> None:
    schema = "https://example.org/roster.schema.json"
    new = Roster.new(
        "infantry-ops",
        "inner-sphere",
        "My platoon",
        limits={"kg": 3000.0, "bp": 12.5},
        schema=schema,
        comment="first line\nsecond line",
    )
    text = new.dumps()
    assert text.splitlines()[0] == f"# yaml-language-server: $schema={schema}"
    assert text.splitlines()[1:3] == ["# first line", "# second line"]
    assert text.endswith("\n")
    back = Roster.from_text(text, "new.yaml")
    assert back.header == new.header
    assert (back.system, back.faction, back.name) == ("infantry-ops", "inner-sphere", "My platoon")
    assert back.header.format == 1
    assert back.header.limits == {"kg": 3000, "bp": 12.5}
    assert back.selections == []
    assert back.dumps() == text
    assert "kg: 3000\n" in text  # a whole number is written without ".0"


def test_new_roster_without_schema_or_comment_starts_with_format() -> None:
    text = Roster.new("infantry-ops", "inner-sphere", "N").dumps()
    assert text.splitlines()[0] == "format: 1"
    assert plain(text) == {
        "format": 1,
        "system": "infantry-ops",
        "faction": "inner-sphere",
        "name": "N",
        "selections": [],
    }


# --------------------------------------------------------------------------- tolerance

RIFLE_TEXT = RIFLE.read_text(encoding="utf-8")

# (id, text replaced in the rifle platoon, replacement, code, path of the issue, marker line)
TOLERATED = [
    (
        "count-many",
        "        count: 4\n",
        "        count: many\n",
        "invalid-value",
        (*SQUAD, "count"),
        "count: many",
    ),
    (
        "count-zero",
        "        count: 4\n",
        "        count: 0\n",
        "invalid-value",
        (*SQUAD, "count"),
        "count: 0",
    ),
    (
        "count-true",
        "        count: 4\n",
        "        count: true\n",
        "invalid-value",
        (*SQUAD, "count"),
        "count: true",
    ),
    (
        "name-list",
        "    name: Foot Platoon (Rifle)\n",
        "    name: [a]\n",
        "invalid-value",
        ("selections", 0, "name"),
        "name: [a]",
    ),
    (
        "state-number",
        "        count: 4\n",
        "        count: 4\n        state: 3\n",
        "invalid-value",
        (*SQUAD, "state"),
        "state: 3",
    ),
    (
        "plain-string",
        "      - entry: foot\n",
        "      - foot\n",
        "invalid-selection",
        ("selections", 0, "selections", 0),
        "- foot",
    ),
    (
        "no-entry",
        "      - entry: foot\n",
        "      - name: On foot\n",
        "invalid-selection",
        ("selections", 0, "selections", 0),
        "- name: On foot",
    ),
    (
        "selections-mapping",
        "            selections:\n              - entry: knife-bayonet\n"
        "              - entry: autopistol\n              - entry: auto-rifle\n"
        "              - entry: thrown-grenade\n              - entry: kevlar-vest\n",
        "            selections: {entry: auto-rifle}\n",
        "invalid-value",
        (*TROOPER, "selections"),
        "selections: {entry: auto-rifle}",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "code", "path", "marker"),
    [pytest.param(*case[1:], id=case[0]) for case in TOLERATED],
)
def test_bad_values_are_tolerated(
    old: str,
    new: str,
    code: str,
    path: tuple[str | int, ...],
    marker: str,
    evaluate_text: Callable[[str], Evaluation],
    tmp_path: Path,
) -> None:
    assert old in RIFLE_TEXT
    text = RIFLE_TEXT.replace(old, new)
    ev = evaluate_text(text)
    hits = [i for i in ev.issues if i.code == code]
    assert [(i.path, i.severity) for i in hits] == [(path, "error")]
    assert not ev.valid
    # The path points at the offending key's line.
    assert ev.roster.position(path)[0] == line_of(text, marker)
    # The file is saved back unchanged.
    target = tmp_path / "r.yaml"
    ev.roster.save(target)
    assert target.read_bytes() == text.encode()


def test_top_level_selections_not_a_list(
    evaluate_text: Callable[[str], Evaluation], tmp_path: Path
) -> None:
    text = HEADER + "selections:\n  entry: platoon\n"
    ev = evaluate_text(text)
    assert [(i.code, i.path, i.severity) for i in ev.issues] == [
        ("invalid-value", ("selections",), "error")
    ]
    assert ev.roster.position(("selections",))[0] == 5
    target = tmp_path / "r.yaml"
    ev.roster.save(target)
    assert target.read_text(encoding="utf-8") == text


def test_bad_count_is_counted_as_one() -> None:
    roster = Roster.from_text(RIFLE_TEXT.replace("count: 4", "count: many"), "r.yaml")
    squad = roster.selections[0].children[1]
    assert squad.entry == "squad"
    assert squad.count == 1
    assert [(f.code, f.loc) for f in squad.findings] == [("invalid-value", (*SQUAD, "count"))]


def test_selection_findings_of_a_clean_roster_are_empty() -> None:
    roster = Roster.from_text(RIFLE_TEXT, "r.yaml")
    assert roster.findings == []
    assert all(s.findings == [] for s in roster.walk())
    assert [s.entry for s in roster.walk()] == [
        "platoon",
        "foot",
        "squad",
        "trooper",
        "knife-bayonet",
        "autopistol",
        "auto-rifle",
        "thrown-grenade",
        "kevlar-vest",
    ]
    assert [s.count for s in roster.walk()] == [1, 1, 4, 7, 1, 1, 1, 1, 1]


def test_unknown_keys_are_findings_and_warnings(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    text = RIFLE_TEXT.replace("selections:\n", "colour: red\nselections:\n", 1).replace(
        "        count: 4\n", "        count: 4\n        paint: blue\n"
    )
    roster = Roster.from_text(text, "r.yaml")
    assert [(f.code, f.loc, f.severity) for f in roster.findings] == [
        ("unknown-key", ("colour",), "warning")
    ]
    squad = roster.selections[0].children[1]
    assert [(f.code, f.loc, f.severity) for f in squad.findings] == [
        ("unknown-key", (*SQUAD, "paint"), "warning")
    ]
    ev = evaluate_text(text)
    assert sorted((i.code, i.path, i.severity) for i in ev.issues) == [
        ("unknown-key", ("colour",), "warning"),
        ("unknown-key", (*SQUAD, "paint"), "warning"),
    ]
    assert ev.valid  # warnings only
    assert ev.roster.position((*SQUAD, "paint"))[0] == line_of(text, "paint: blue")


def test_unknown_entry_is_one_error_and_the_rest_evaluates(
    evaluate_text: Callable[[str], Evaluation], tmp_path: Path
) -> None:
    clean = evaluate_text(RIFLE_TEXT)
    assert clean.issues == []
    text = RIFLE_TEXT.replace(
        "          - entry: trooper\n",
        "          - entry: troper\n            count: 3\n          - entry: trooper\n",
    )
    ev = evaluate_text(text)
    assert [(i.code, i.path, i.severity) for i in ev.issues] == [
        ("unknown-entry", (*SQUAD, "selections", 0), "error")
    ]
    assert "'troper'" in ev.issues[0].message
    assert "did you mean 'trooper'" in ev.issues[0].message
    platoon = next(ev.nodes())
    before = next(clean.nodes())
    for key in ("av_primary", "av_secondary", "troopers", "mass"):
        assert ev.value(platoon, key) == clean.value(before, key), key
    assert ev.value(platoon, "av_primary")["av"] == 14
    assert ev.totals == clean.totals == {"kg": 2380.0}
    # The unknown selection is kept, in the document and in the saved file.
    target = tmp_path / "r.yaml"
    ev.roster.save(target)
    assert target.read_text(encoding="utf-8") == text


def test_known_entry_in_the_wrong_place(evaluate_text: Callable[[str], Evaluation]) -> None:
    text = RIFLE_TEXT.replace(
        "          - entry: trooper\n",
        "          - entry: kevlar-vest\n          - entry: trooper\n",
    )
    ev = evaluate_text(text)
    assert [(i.code, i.path, i.severity) for i in ev.issues] == [
        ("entry-not-allowed", (*SQUAD, "selections", 0), "error")
    ]
    assert "kevlar-vest" in ev.issues[0].message
    assert "Trooper" in ev.issues[0].message


# --------------------------------------------------------------------------- refused input


@pytest.mark.parametrize("round_trip", [True, False], ids=["round-trip", "safe"])
class TestRefused:
    def test_unclosed_bracket(self, round_trip: bool) -> None:
        text = HEADER + "selections: [\n  - entry: platoon\n"
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.file, p.line, p.column, p.code) == ("r.yaml", 6, 3, "yaml-syntax")

    def test_bad_indentation(self, round_trip: bool) -> None:
        text = HEADER + "selections:\n  - entry: platoon\n   count: 2\n"
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.line, p.column, p.code) == (7, 4, "yaml-syntax")

    def test_duplicate_key(self, round_trip: bool) -> None:
        with pytest.raises(RosterError) as exc:
            Roster.from_text(HEADER + "name: Y\n", "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.line, p.column) == (5, 1)
        assert '"name"' in p.message

    @pytest.mark.parametrize("text", ["", "\n", "# only a comment\n"], ids=repr)
    def test_empty_file(self, round_trip: bool, text: str) -> None:
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.file, p.line, p.column, p.code) == ("r.yaml", 1, 1, "roster-invalid")
        assert "empty" in p.message

    @pytest.mark.parametrize("text", ["- a\n- b\n", "just text\n", "42\n"])
    def test_not_a_mapping(self, round_trip: bool, text: str) -> None:
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.line, p.column, p.code) == (1, 1, "roster-invalid")
        assert "mapping" in p.message

    @pytest.mark.parametrize("key", ["system", "faction", "name"])
    def test_missing_header_key(self, round_trip: bool, key: str) -> None:
        text = "".join(line + "\n" for line in HEADER.splitlines() if not line.startswith(key))
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert p.code == "roster-invalid"
        assert f"missing `{key}:`" in p.message
        assert (p.line, p.column) == (1, 1)

    def test_missing_everything_names_each_key(self, round_trip: bool) -> None:
        with pytest.raises(RosterError) as exc:
            Roster.from_text("format: 1\n", "r.yaml", round_trip=round_trip)
        messages = " ".join(p.message for p in exc.value.problems)
        for key in ("system", "faction", "name"):
            assert f"`{key}:`" in messages

    def test_unsupported_format(self, round_trip: bool) -> None:
        text = HEADER.replace("format: 1", "format: 3")
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert p.code == "roster-invalid"
        assert p.message == (
            "unsupported roster format 3; this version reads format 1 (one force) and "
            "format 2 (several forces)"
        )
        assert (p.line, p.column) == (1, 9)

    def test_system_not_an_id(self, round_trip: bool) -> None:
        text = HEADER.replace("system: infantry-ops", "system: Infantry Ops")
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert p.code == "roster-invalid"
        assert "'Infantry Ops' is not an id" in p.message
        assert (p.line, p.column) == (2, 9)

    def test_python_tag(self, round_trip: bool) -> None:
        text = HEADER + "notes: !!python/object/apply:os.system ['echo pwned']\n"
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.line, p.column, p.code) == (5, 8, "yaml-tag")

    def test_custom_tag(self, round_trip: bool) -> None:
        with pytest.raises(RosterError) as exc:
            Roster.from_text(HEADER + "notes: !foo bar\n", "r.yaml", round_trip=round_trip)
        p = problem(exc)
        assert (p.line, p.column, p.code) == (5, 8, "yaml-tag")
        assert "!foo" in p.message

    def test_alias_bomb(self, round_trip: bool) -> None:
        lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
        for i in range(1, 9):
            lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
        with pytest.raises(RosterError) as exc:
            Roster.from_text(HEADER + "\n".join(lines) + "\n", "r.yaml", round_trip=round_trip)
        assert problem(exc).code == "yaml-too-large"

    def test_depth_200(self, round_trip: bool) -> None:
        text = HEADER + "notes: " + "[" * 200 + "]" * 200 + "\n"
        with pytest.raises(RosterError) as exc:
            Roster.from_text(text, "r.yaml", round_trip=round_trip)
        assert problem(exc).code == "yaml-too-deep"

    def test_explicit_standard_tag_is_plain_text(self, round_trip: bool) -> None:
        # `!!str` is a standard tag (allowed); the name is the text "1234" with either loader.
        roster = Roster.from_text(
            HEADER.replace("name: X", "name: !!str 1234"), "r.yaml", round_trip=round_trip
        )
        assert roster.name == "1234"


def test_from_file_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "latin1.yaml"
    p.write_bytes(HEADER.replace("name: X", "name: caf\xe9").encode("latin-1"))
    with pytest.raises(RosterError) as exc:
        Roster.from_file(p)
    e = problem(exc)
    assert (e.file, e.line, e.column, e.code) == (str(p), 4, 10, "not-utf8")


def test_from_file_too_large(tmp_path: Path) -> None:
    p = tmp_path / "huge.yaml"
    with p.open("wb") as fh:
        fh.truncate(yamlio.MAX_FILE_BYTES + 1)
    with pytest.raises(RosterError) as exc:
        Roster.from_file(p)
    e = problem(exc)
    assert (e.file, e.code) == (str(p), "file-too-large")


def test_from_file_missing(tmp_path: Path) -> None:
    with pytest.raises(RosterError) as exc:
        Roster.from_file(tmp_path / "nope.yaml")
    assert problem(exc).code == "file-not-found"


def test_from_file_syntax_error_names_the_file(tmp_path: Path) -> None:
    p = tmp_path / "broken.yaml"
    p.write_text(HEADER + "selections: [\n", encoding="utf-8")
    with pytest.raises(RosterError) as exc:
        Roster.from_file(p)
    e = problem(exc)
    assert e.file == str(p)
    assert str(e).startswith(f"{p}:{e.line}:{e.column}: YAML syntax error")
