"""Values a rules module hands to several selections at once are frozen: the Infantry
Operations odds and to-hit tables of every platoon with the same attack values and gunnery
on one catalog (Infantry Operations, Infantry Attacks), and the weapons of every trooper of
one kit, are one object each; an edit of it in place would show in every roster on that
catalog, so any such edit is refused (armybuilder/rules/frozen.py), while the JSON and the
text printed stay as they were (compared byte for byte over the examples when this was made)."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import default_library
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.rules.frozen import FrozenDict, freeze, is_frozen

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "infantry-ops"


def _evaluate(path: Path) -> Evaluation:
    library = default_library()
    roster = Roster.from_file(path, round_trip=False)
    return evaluate_roster(roster, library.system(roster.system))


def _value(ev: Evaluation, key: str) -> Any:
    for node in ev.root.descendants():
        for v in ev.values_of(node):
            if v.key == key:
                return v.value
    raise AssertionError(f"no {key} value")


def test_two_rosters_share_one_frozen_odds_table() -> None:
    first = _evaluate(EXAMPLES / "rifle-platoon.yaml")
    second = _evaluate(EXAMPLES / "rifle-platoon.yaml")
    to_hit = _value(first, "to_hit")
    assert _value(second, "to_hit") is to_hit  # one object for both rosters
    odds = _value(first, "odds_primary")
    assert _value(second, "odds_primary") is odds
    for shared in (to_hit, odds):
        assert is_frozen(shared)
        before = json.dumps(shared, sort_keys=True)
        with pytest.raises(TypeError, match="cannot be changed"):
            shared["short"] = {"tn": 2}
        inner = next(v for v in shared.values() if isinstance(v, dict))
        with pytest.raises(TypeError):
            inner.clear()
        with pytest.raises(TypeError):
            shared.update({"x": 1})
        assert json.dumps(shared, sort_keys=True) == before
    # a copy is the reader's own to change
    mine = copy.deepcopy(to_hit)
    mine["short"] = None
    assert to_hit["short"] is not None


def test_every_value_shared_between_selections_is_frozen() -> None:
    """In each example, any dict or list value object that two selections (or two rosters)
    hold is frozen, at every depth."""
    for path in sorted(EXAMPLES.glob("*.yaml")):
        seen: dict[int, tuple[str, Any]] = {}
        for ev in (_evaluate(path), _evaluate(path)):
            for node in ev.root.walk():
                for v in ev.values_of(node) if not node.is_root else ev.roster_values:
                    if not isinstance(v.value, dict | list):
                        continue
                    if id(v.value) in seen and seen[id(v.value)][1] is v.value:
                        assert is_frozen(v.value), (path.name, v.key)
                    seen[id(v.value)] = (v.key, v.value)


def test_a_frozen_value_reads_prints_and_pickles_as_a_plain_one() -> None:
    plain = {"short": {"tn": 6, "p": "5/12"}, "by_tn": ["1", "35/36"], "pair": (1, [2])}
    frozen = freeze(plain)
    assert isinstance(frozen, dict) and isinstance(frozen["by_tn"], list)
    assert frozen == plain
    assert json.dumps(frozen) == json.dumps(plain)
    again = pickle.loads(pickle.dumps(frozen))
    assert type(again) is FrozenDict and again == plain
    with pytest.raises(TypeError):
        frozen["by_tn"].append("x")
    with pytest.raises(TypeError):
        frozen["pair"][1].append(3)
