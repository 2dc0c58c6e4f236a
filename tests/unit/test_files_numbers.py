"""A number as a player wrote it in a roster (a custom key, a campaign state, notes) saves
back with its value, whatever its form: ruamel's writer keeps the written form of a float
(its exponent, its zeros) and failed on some forms a file can hold (``-1e-400``, ``0.e+308``:
a traceback on every save, and when the builder opened the file)."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from armybuilder import yamlio
from armybuilder.rosters import Roster

HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Patrol\n"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return bool(a == b)


_DIGITS = st.text(alphabet="0123456789_", max_size=4)
_FLOATS = st.builds(
    lambda sign, whole, dot, part, exp: f"{sign}{whole}{dot}{part}{exp}",
    st.sampled_from(["", "-", "+"]),
    _DIGITS,
    st.sampled_from([".", ""]),
    _DIGITS,
    st.sampled_from(["", "e", "E"]).flatmap(
        lambda e: (
            st.just("")
            if not e
            else st.builds(
                lambda s, n: f"{e}{s}{n}",
                st.sampled_from(["", "+", "-"]),
                st.sampled_from(["0", "1", "5", "17", "300", "308", "309", "324", "325", "400"]),
            )
        )
    ),
)


@settings(max_examples=300, deadline=None, database=None)
@given(_FLOATS)
@example("-1e-400")
@example("0.E+308")
@example("+4.e-325")
@example("-.2E-324")
def test_a_float_of_any_written_form_saves_with_its_value(form: str) -> None:
    text = f"{HEAD}x: {form}\nselections: []\n"
    try:
        want = yamlio.load_safe(text, "r.yaml")["x"]
    except Exception:
        return  # not a number YAML reads (`_._`): not this test's matter
    roster = Roster.from_text(text, "r.yaml")
    roster.set((), "name", "Renamed")  # an edit: the roster is written by ruamel
    saved = roster.dumps()
    again = yamlio.load_safe(saved, "r.yaml")
    assert _same(again["x"], want), (form, saved)
    assert again["name"] == "Renamed"


@settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(_FLOATS)
@example("-1e-400")
def test_a_float_of_any_written_form_in_a_new_selection(form: str) -> None:
    # A selection copied (duplicated) is written whole by ruamel: no line of the user's is kept.
    text = f"{HEAD}selections:\n  - entry: captain\n    state: {{x: {form}}}\n"
    try:
        want = yamlio.load_safe(text, "r.yaml")["selections"][0]["state"]["x"]
    except Exception:
        return
    roster = Roster.from_text(text, "r.yaml")
    from armybuilder.session.operations import Insert, apply_op, detached_copy

    apply_op(roster.doc, Insert((), 1, detached_copy(roster.node(("selections", 0)))))
    roster.dirty = True
    saved = roster.dumps()
    got = yamlio.load_safe(saved, "r.yaml")["selections"]
    assert len(got) == 2
    assert all(_same(s["state"]["x"], want) for s in got), (form, saved)


def test_a_roster_holding_nan_keeps_the_players_own_lines_on_save() -> None:
    # A save keeps the player's own text (a comment above `---`, spacing) where the merge of
    # it with ruamel's text reads back as the edited roster; `.nan` is not equal to itself,
    # so that check used to fail and the plain ruamel text was written instead.
    for value in (".nan", "[1, .NaN]", "{a: -.inf, b: .nan}"):
        text = f"# kept above the marker\n---\n{HEAD.replace('name: ', 'name:   ')}x: {value}\n"
        roster = Roster.from_text(text + "selections: []\n", "r.yaml")
        roster.set((), "faction", "blue-army")
        saved = roster.dumps()
        assert saved.startswith("# kept above the marker\n---\n"), (value, saved)
        assert "name:   Patrol\n" in saved and "faction: blue-army\n" in saved


def test_the_merge_check_tells_apart_what_equality_would_not() -> None:
    from armybuilder.rosters import _same_data

    nan = float("nan")
    assert _same_data({"a": [nan, 1.5]}, {"a": [float("nan"), 1.5]})
    assert not _same_data({"a": 1, "b": 2}, {"a": 1, "c": 2})
    assert not _same_data({"a": True}, {"a": 1})
    assert not _same_data({"a": 1}, {"a": 1.0})
    assert not _same_data([0.0], [-0.0])
    assert not _same_data({"a": 1.5}, {"a": "1.5"})
    assert not _same_data({"a": [1]}, {"a": {1: 1}})
    assert _same_data([None, "x", {"k": []}], [None, "x", {"k": []}])


def test_an_anchored_boolean_reads_as_a_boolean_and_keeps_the_players_lines() -> None:
    # ruamel gives a boolean with an anchor (`&t true`) as a number-like ScalarBoolean: the
    # plain view must say True (as validate's loader does), and a save keep the player's text.
    text = f"# kept above the marker\n---\n{HEAD}a: &t true\nb: *t\nselections: []\n"
    roster = Roster.from_text(text, "r.yaml")
    plain = yamlio.to_plain(roster.doc)
    assert plain["a"] is True and plain["b"] is True
    roster.set((), "faction", "blue-army")
    assert roster.dumps().startswith("# kept above the marker\n---\n")
