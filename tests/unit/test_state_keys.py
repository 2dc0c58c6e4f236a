"""Campaign state keys (DESIGN.md, "The roster file"): each rules module declares the keys a
selection's ``state:`` may hold; the engine reports an unknown key (a typo must not silently
reset a veteran) and a value of the wrong type or out of range, at the file, line and column
the command line prints."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.plugin import SystemRules
from armybuilder.render.context import DAMAGE_STATE_KEYS
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster
from armybuilder.rules.state import (
    DEFAULT_MAXIMUM,
    INVALID,
    KINDS,
    UNKNOWN_KEY,
    StateKey,
    StateProblem,
    check_state,
    state_example,
    state_help,
    state_placeholder,
)
from armybuilder.session import EditError, EditSession

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))
SYSTEMS = sorted(p.parent.name for p in (REPO / "catalogs").glob("*/system.yaml"))

ACTIONS = StateKey("actions", "int", "Actions fought.", history=True, example="12")
WOUNDS = StateKey("wounds", "int", "Actions wounded in.", history=True, example="1")
HITS = StateKey("hits", "int", "Hits taken now.", history=False, maximum=2)
KEYS = (ACTIONS, WOUNDS, HITS)


def codes(problems: list[StateProblem]) -> list[tuple[str | None, str, str]]:
    return [(p.key, p.code, p.severity) for p in problems]


# =========================================================================== check_state


def test_a_typo_is_a_warning_that_names_the_key_meant() -> None:
    problems = check_state(KEYS, {"acitons": 31, "wounds": 2})
    assert codes(problems) == [("acitons", UNKNOWN_KEY, "warning")]
    assert problems[0].message.startswith(
        "unknown campaign state key 'acitons'; did you mean 'actions'?"
    )


def test_an_unknown_key_far_from_every_key_lists_them() -> None:
    (p,) = check_state(KEYS, {"xyzzy": 1})
    assert p.code == UNKNOWN_KEY
    assert "(known keys: actions, wounds, hits)" in p.message


def test_valid_state_has_no_problems() -> None:
    assert check_state(KEYS, {"actions": 31, "wounds": 2, "hits": 0}) == []
    assert check_state(KEYS, {}) == []


def test_no_declared_keys_means_no_checking() -> None:
    assert check_state((), {"anything": "goes"}) == []
    assert check_state((), 3) == []
    assert SystemRules().state_keys() == ()


def test_the_message_says_what_was_expected() -> None:
    (p,) = check_state(KEYS, {"actions": "x"})
    assert (p.key, p.code, p.severity) == ("actions", INVALID, "error")
    assert p.message == "state.actions must be a whole number from 0 up; got 'x'"
    (p,) = check_state(KEYS, {"hits": 3})
    assert p.message == "state.hits must be a whole number from 0 to 2; got 3"


@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        ("int", [0, 5, DEFAULT_MAXIMUM], ["x", -1, 2.5, 2.0, True, None, [1], {"a": 1}]),
        ("bool", [True, False], [1, 0, "yes", None]),
        ("str", ["text", ""], [1, True, None, ["a"]]),
        ("map-int", [{}, {"grenades": 4, "door_charges": 0}], [3, [1], {"a": -1}, {"a": True}]),
        ("list-str", [[], ["Stunned", "Disarmed"]], ["Stunned", [1], [None]]),
        ("list-int", [[], [0, 3]], [3, [True], [-1], ["1"]]),
    ],
)
def test_each_kind_accepts_its_values_and_refuses_others(
    kind: str, good: list[Any], bad: list[Any]
) -> None:
    key = StateKey("k", kind, "A key.", history=False)
    for value in good:
        assert check_state([key], {"k": value}) == [], value
    for value in bad:
        problems = check_state([key], {"k": value})
        assert problems and all(p.code == INVALID and p.severity == "error" for p in problems), (
            value
        )
        assert all(p.key == "k" for p in problems)


def test_bools_are_not_whole_numbers() -> None:
    (p,) = check_state(KEYS, {"actions": True})
    assert p.message == "state.actions must be a whole number from 0 up; got True"


def test_bounds_apply_to_every_number_a_value_holds() -> None:
    key = StateKey("m", "map-int", "Spent.", history=False, minimum=1, maximum=5)
    problems = check_state([key], {"m": {"a": 0, "b": 5, "c": 6}})
    assert [p.message for p in problems] == [
        "state.m.a must be a whole number from 1 to 5; got 0",
        "state.m.c must be a whole number from 1 to 5; got 6",
    ]
    key = StateKey("l", "list-int", "Rolls.", history=False, maximum=6)
    (p,) = check_state([key], {"l": [1, 7]})
    assert p.message == "state.l[1] must be a whole number from 0 to 6; got 7"


@pytest.mark.parametrize("digits", [8, 400, 4301, 20000])
def test_huge_numbers_are_errors_not_crashes(digits: int) -> None:
    huge = 10**digits
    (p,) = check_state(KEYS, {"actions": huge})
    assert p.code == INVALID
    assert len(p.message) < 200
    assert f"from 0 to {DEFAULT_MAXIMUM}" in p.message
    (p,) = check_state(KEYS, {"actions": -huge})
    assert p.code == INVALID
    key = StateKey("m", "map-int", "Spent.", history=False)
    (p,) = check_state([key], {"m": {"a": huge}})
    assert p.code == INVALID and len(p.message) < 200


@pytest.mark.parametrize("state", [3, "actions: 3", [{"actions": 3}], True])
def test_a_state_that_is_not_a_mapping(state: Any) -> None:
    (p,) = check_state(KEYS, state)
    assert (p.key, p.code, p.severity) == (None, INVALID, "error")
    assert p.message.startswith(
        "state must be a mapping of campaign state keys, e.g. {actions: 12, wounds: 1, hits: 1}"
    )


def test_a_long_value_is_shortened_in_the_message() -> None:
    (p,) = check_state(KEYS, {"actions": "x" * 10_000})
    assert len(p.message) < 200


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="kind 'float' is not one of"):
        StateKey("k", "float", "A key.", history=False)


def test_placeholder_and_help() -> None:
    assert state_placeholder(KEYS) == "{actions: 12, wounds: 1, hits: 1}"
    assert state_placeholder(()) == ""
    lines = state_help(KEYS)
    assert lines[0] == "actions (history; whole number from 0 up, e.g. 12): Actions fought."
    assert lines[2] == "hits (current; whole number from 0 to 2, e.g. 1): Hits taken now."


def test_the_example_fits_its_width_with_whole_keys() -> None:
    # (the campaign state field's placeholder: never cut mid-key at the field's edge)
    whole = "e.g. {actions: 12, wounds: 1, hits: 1}"
    assert state_example(KEYS) == state_example(KEYS, len(whole)) == whole
    assert state_example(KEYS, len(whole) - 1) == "e.g. {actions: 12, wounds: 1, …}"
    assert state_example(KEYS, 20) == "e.g. {wounds: 1, …}"  # (as many as fit, in order)
    assert state_example(KEYS, 17) == "e.g. {hits: 1, …}"
    assert state_example(KEYS, 8) == "e.g. {…}"
    assert state_example(KEYS, 7) == ""
    assert state_example((), 80) == ""


# =========================================================================== every system


@pytest.fixture(scope="module")
def declared(library: Library) -> dict[str, tuple[StateKey, ...]]:
    out = {}
    for sid in SYSTEMS:
        rules = library.system(sid).rules
        out[sid] = rules.state_keys() if rules is not None else ()
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_system_declares_its_keys_fully(
    system: str, declared: dict[str, tuple[StateKey, ...]]
) -> None:
    keys = declared[system]
    assert keys, f"{system} declares no campaign state keys"
    names = [k.name for k in keys]
    assert len(set(names)) == len(names)
    for k in keys:
        assert k.kind in KINDS
        assert k.meaning.endswith(".") and len(k.meaning) > 20, k.name
        assert k.source, k.name
        assert k.example, k.name
    # The example value of every key, and the placeholder the builder shows, are valid state.
    placeholder = YAML(typ="safe").load(state_placeholder(keys))
    assert isinstance(placeholder, dict) and list(placeholder) == names
    assert check_state(keys, placeholder) == []
    assert len(state_help(keys)) == len(keys)


def keys_read(system: str) -> set[str]:
    """The campaign state keys the system's sheet, its rules module and the shared printing
    code read, found in their source text."""
    found: set[str] = set()
    texts = [p.read_text() for p in (REPO / "templates" / system).glob("*.html")]
    module = system.replace("-", "_")
    texts += [p.read_text() for p in (REPO / "armybuilder/rules/systems").glob(f"{module}*.py")]
    for text in texts:
        for m in re.finditer(r"state\.get\(\s*\"(\w+)\"", text):
            found.add(m.group(1))
        for m in re.finditer(r"state_(?:int|for)\(([^)]*)\)", text):
            found.update(re.findall(r"\"(\w+)\"", m.group(1))[: 1 if "state_for" in m[0] else None])
        for m in re.finditer(r"_state_int\([^)]*?\"(\w+)\"\)", text):
            found.add(m.group(1))
        for m in re.finditer(r"\"(\w+)\" in state\b", text):
            found.add(m.group(1))
        if re.search(r"\.lost\b", text):
            found.add("lost")
    return found


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_key_read_is_declared(system: str, declared: dict[str, tuple[StateKey, ...]]) -> None:
    names = {k.name for k in declared[system]}
    read = keys_read(system)
    assert read, f"nothing found reading campaign state for {system}: the search is broken"
    assert read - names == set(), f"{system} reads undeclared campaign state keys"
    sheet = "\n".join(p.read_text() for p in (REPO / "templates" / system).glob("*.html"))
    if "damage_taken" in sheet:
        # The printed hit boxes come from the first current damage key the system declares.
        current = [k.name for k in declared[system] if not k.history and k.kind == "int"]
        assert set(DAMAGE_STATE_KEYS) & set(current), system


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_system_doc_lists_every_key(
    system: str, declared: dict[str, tuple[StateKey, ...]]
) -> None:
    doc = (REPO / "docs" / "systems" / f"{system}.md").read_text()
    section = re.split(r"^## Campaign state\s*$", doc, maxsplit=1, flags=re.M)
    assert len(section) == 2, f"docs/systems/{system}.md has no '## Campaign state' section"
    text = section[1].split("\n## ", 1)[0]
    for k in declared[system]:
        row = next((line for line in text.splitlines() if line.startswith(f"| `{k.name}` |")), "")
        assert row, f"docs/systems/{system}.md does not list state key {k.name!r}"
        assert ("history" if k.history else "current") in row, k.name
        assert k.meaning in row, f"docs/systems/{system}.md: the meaning of {k.name!r} differs"


# =========================================================================== rosters


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_rosters_have_no_state_problems(path: Path, library: Library) -> None:
    roster = Roster.from_file(path)
    ev = evaluate_roster(roster, library.system(roster.system))
    assert [i.message for i in ev.issues if i.code.startswith("state-")] == []


ROSTER = """\
format: 1
system: starship-marine
faction: earther
name: Typos
selections:
  - entry: earther-squad
    name: 1st Squad
    state: {ammo_spent: {grenades: 4}, morale_lost: {ship: 3}}
    selections:
      - entry: lieutenant
        name: Lt Hale
        state: {acitons: 31, wounds: 2}
        selections: [{entry: marine-armour}, {entry: sca-2}]
      - entry: marine
        count: 3
        state:
          actions: many
          hits: 99999999999999999999999
        selections: [{entry: marine-armour}, {entry: sca-2}]
"""


def position(text: str, needle: str) -> tuple[int, int]:
    """Line and column (from 1) of ``needle`` in ``text``."""
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def test_the_command_line_prints_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "typos.yaml"
    path.write_text(ROSTER)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-m", "armybuilder", "validate", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    lines = [line for line in out.stdout.splitlines() if "[state-" in line]
    where = "1st Squad"
    # the place of the value given for the key
    line, col = position(ROSTER, "31, wounds")
    assert lines[0] == (
        f"{path}:{line}:{col}: warning: {where} > Lt Hale: unknown campaign state key 'acitons'; "
        "did you mean 'actions'? It is kept in the file but not used. [state-unknown-key]"
    )
    line, col = position(ROSTER, "many")
    assert lines[1] == (
        f"{path}:{line}:{col}: error: {where} > Marine ×3: state.actions must be a whole number "
        "from 0 up; got 'many' [state-invalid] (Starship Marine 4.7)"
    )
    line, col = position(ROSTER, "999")
    assert lines[2].startswith(f"{path}:{line}:{col}: error: {where} > Marine ×3: state.hits ")
    assert "got a number 23 digits long" in lines[2]
    assert len(lines) == 3


def test_a_number_too_long_to_read_is_reported_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = ROSTER.replace("99999999999999999999999", "9" * 5000)
    path = tmp_path / "huge.yaml"
    path.write_text(text)
    assert main(["validate", str(path)]) != 0
    out = capsys.readouterr()
    line, col = position(text, "9" * 5000)
    assert f"{path}:{line}:{col}: " in out.out + out.err
    assert "5000 characters" in out.out + out.err


def test_a_state_that_is_not_a_mapping_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = ROSTER.replace("state: {acitons: 31, wounds: 2}", "state: 31")
    path = tmp_path / "flat.yaml"
    path.write_text(text)
    main(["validate", str(path)])
    out = capsys.readouterr().out
    line, col = position(text, "31")
    assert f"{path}:{line}:{col}: error:" in out
    assert "state must be a mapping" in out


def test_json_output_carries_the_state_issues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    path = tmp_path / "typos.yaml"
    path.write_text(ROSTER)
    main(["validate", "--format", "json", str(path)])
    issues = json.loads(capsys.readouterr().out)["rosters"][0]["issues"]
    state = [i for i in issues if i["code"].startswith("state-")]
    assert [(i["code"], i["path"], i["line"]) for i in state] == [
        ("state-unknown-key", "selections[0].selections[0].state.acitons", 12),
        ("state-invalid", "selections[0].selections[1].state.actions", 17),
        ("state-invalid", "selections[0].selections[1].state.hits", 18),
    ]
    assert state[1]["source"] == "Starship Marine 4.7"


# =========================================================================== incremental


BAD_STATES: list[dict[str, Any]] = [
    {"actions": 3},
    {"acitons": 3},
    {"actions": "many", "hits": 1},
    {"lost": 1, "ammo_used": {"heavy-flamer": 2}},
    {"psi_spent": -1},
    {"damage": ["Stunned"], "wounds": 1},
]


@pytest.mark.parametrize("path", EXAMPLES[::2], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_state_edits_evaluate_incrementally_as_in_full(path: Path, library: Library) -> None:
    s = EditSession.open(path, library, autosave=False)
    rng = random.Random(path.name)
    for step in range(12):
        locs = [sel.loc for sel in s.roster.walk()]
        try:
            if rng.random() < 0.2 and s.can_undo:
                s.undo()
            else:
                s.set(rng.choice(locs), "state", rng.choice(BAD_STATES))
        except EditError:
            pass
        ev = s.evaluate()
        full = evaluate_roster(s.roster, s.system)
        assert [i.to_json() for i in ev.issues] == [i.to_json() for i in full.issues], step


def test_fixed_ids_of_a_mapping_are_checked_like_keys() -> None:
    key = StateKey(
        "ammo_spent", "map-int", "Spent.", history=False, ids=("grenades", "door_charges")
    )
    assert check_state([key], {"ammo_spent": {"grenades": 4, "door_charges": 1}}) == []
    (p,) = check_state([key], {"ammo_spent": {"grenade": 4}})
    assert (p.key, p.code, p.severity) == ("ammo_spent", UNKNOWN_KEY, "warning")
    assert p.message.startswith(
        "unknown id 'grenade' in state.ammo_spent; did you mean 'grenades'?"
    )
    (p,) = check_state([key], {"ammo_spent": {"zzz": 1}})
    assert "(known ids: grenades, door_charges)" in p.message
    assert state_help([key])[0].startswith(
        "ammo_spent (current; mapping grenades/door_charges -> whole number from 0 up"
    )


def test_the_command_line_lists_a_systems_keys(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["catalogs", "starship-marine", "--state"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("campaign state keys (state:), e.g. {actions: 12, wounds: 1, ")
    assert ", hits: 1, " in out[0]
    assert out[1].startswith("  actions (history; whole number from 0 up, e.g. 12): Actions")
    assert out[2].startswith("  wounds (history;")
    assert any(line.startswith("  hits (current;") for line in out[3:])
    assert main(["catalogs", "space-hulk", "--state", "--format", "json"]) == 0
    keys = json.loads(capsys.readouterr().out)["state_keys"]
    assert [(k["name"], k["kind"], k["history"]) for k in keys] == [
        ("ammo_used", "map-int", False),
        ("psi_spent", "int", False),
        ("lost", "int", False),
    ]
