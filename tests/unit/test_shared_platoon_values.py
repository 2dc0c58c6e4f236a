"""Platoons of one make-up share their computed lists and dicts (issue 17, the regiment).

The Infantry Operations module works a platoon make-up's figures out once (attack values,
survivor tables, burst totals, movement, ammunition) and gives the same frozen objects to
every platoon of that make-up, where it used to copy them for each platoon. What each
platoon shows must still be what it shows evaluated alone, with every cache empty; a platoon
of another make-up must get its own figures; and a shared list or dict must refuse a change,
so that no reader of one platoon can change what another shows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation
from armybuilder.rules.frozen import FrozenValueError, is_frozen

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "infantry-ops"
CACHES = tuple(
    f"infantry-ops.{name}"
    for name in ("odds", "attacks", "kits", "squads", "heads", "levels", "survivors")
)


def _platoon(example: str, name: str, **changes: Any) -> dict[str, Any]:
    data = yaml.safe_load((EXAMPLES / example).read_text(encoding="utf-8"))
    platoon: dict[str, Any] = data["selections"][0]
    return {**platoon, "name": name, **changes}


def _roster(platoons: list[dict[str, Any]]) -> Roster:
    text = yaml.safe_dump(
        {
            "format": 1,
            "system": "infantry-ops",
            "faction": "inner-sphere",
            "name": "Shared values",
            "selections": platoons,
        },
        sort_keys=False,
    )
    return Roster.from_text(text, "<test>")


def _shown(ev: Evaluation, node: Any) -> list[tuple[str, str, str, str, str]]:
    return [(v.key, v.label, repr(v.value), v.text, v.source) for v in ev.values_of(node)]


def _every_value(ev: Evaluation, platoon: Any) -> list[list[tuple[str, str, str, str, str]]]:
    return [_shown(ev, n) for n in platoon.walk()]


PLATOONS = [
    _platoon("rifle-lmg-platoon.yaml", "LMG one"),
    _platoon("rifle-srm-platoon.yaml", "SRM"),
    _platoon("rifle-lmg-platoon.yaml", "LMG two"),
    _platoon("rifle-lmg-platoon.yaml", "LMG veteran", experience="veteran"),
    _platoon("rifle-platoon.yaml", "Rifles"),
]


def test_each_platoon_shows_what_it_shows_alone(
    evaluate_roster: Callable[[Roster], Evaluation],
) -> None:
    ev = evaluate_roster(_roster(PLATOONS))
    together = {ev.name(p): _every_value(ev, p) for p in ev.nodes_in("platoon")}
    assert len(together) == len(PLATOONS)
    for platoon in PLATOONS:
        for cache in CACHES:
            ev.index.memo(cache).clear()
        one = evaluate_roster(_roster([platoon]))
        (node,) = one.nodes_in("platoon")
        assert together[platoon["name"]] == _every_value(one, node), platoon["name"]
    # the make-ups differ where they should: the SRM platoon's attack values are its own
    assert together["SRM"][0] != together["LMG one"][0]


def test_a_make_up_s_platoons_share_frozen_values(
    evaluate_roster: Callable[[Roster], Evaluation],
) -> None:
    ev = evaluate_roster(_roster(PLATOONS))
    by_name = {ev.name(p): p for p in ev.nodes_in("platoon")}
    one, two, srm = by_name["LMG one"], by_name["LMG two"], by_name["SRM"]
    shared = 0
    for a, b in zip(ev.values_of(one), ev.values_of(two), strict=True):
        assert (a.key, a.value) == (b.key, b.value)
        assert is_frozen(a.value) and is_frozen(b.value), a.key
        if isinstance(a.value, dict | list):
            if a.key not in ("to_hit", "odds"):  # (kept per gunnery: the same objects too)
                assert a.value is b.value, a.key
            shared += 1
    assert shared >= 5  # attack values, survivors, movement, ... (not a vacuous loop)
    table = ev.value(one, "av_by_survivors")
    before = repr(ev.value(two, "av_by_survivors"))
    with pytest.raises(FrozenValueError):
        table["primary"].append(0)
    with pytest.raises(FrozenValueError):
        ev.value(one, "av_primary")["av"] = 0
    assert repr(ev.value(two, "av_by_survivors")) == before
    # another make-up: its own figures, not the LMG platoons'
    assert ev.value(srm, "av_by_survivors") != table
    assert ev.value(srm, "av_by_survivors") is not table
