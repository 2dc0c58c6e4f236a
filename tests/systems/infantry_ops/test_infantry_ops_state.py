"""Infantry Operations campaign state: shots fired (``ammo_spent``) are recorded by the name of
a platoon weapon that carries ammunition (Weapons and Equipment, Ammo), since the record sheet
ticks the boxes of each weapon by name."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from armybuilder.rules import Evaluation

PLATOON = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: After the battle
selections:
  - entry: platoon
    name: Veteran Platoon
    state: {{damage: 3, ammo_spent: {spent}}}
    selections:
      - entry: foot
      - entry: squad
        count: 4
        selections:
          - entry: trooper
            count: 7
            state: {{lost: 2}}
            selections: [{{entry: auto-rifle}}, {{entry: thrown-grenade}}]
"""


def state_issues(ev: Evaluation) -> list[tuple[str, str]]:
    return [(i.code, i.message) for i in ev.issues if "state" in i.code]


def test_shots_by_weapon_name(evaluate_text: Callable[[str], Evaluation]) -> None:
    ev = evaluate_text(PLATOON.format(spent="{Thrown Grenade: 5}"))
    assert state_issues(ev) == []
    assert list(ev.value(ev.root.children[0], "ammo")) == ["Thrown Grenade"]


@pytest.mark.parametrize(
    ("spent", "hint"),
    [
        ("{thrown-grenade: 5}", "; did you mean 'Thrown Grenade'?"),  # the entry id
        ("{thrown grenade: 5}", "; did you mean 'Thrown Grenade'?"),
        ("{Auto-Rifle: 5}", "."),  # no ammunition to record (Ammo: –)
    ],
)
def test_shots_of_something_else_are_flagged(
    evaluate_text: Callable[[str], Evaluation], spent: str, hint: str
) -> None:
    ev = evaluate_text(PLATOON.format(spent=spent))
    name = spent[1:].split(":")[0]
    assert state_issues(ev) == [
        (
            "io-state",
            f"Veteran Platoon: state.ammo_spent names {name!r}, not one of the platoon's "
            f"weapons with ammunition (Thrown Grenade){hint} The record sheet cannot tick it.",
        )
    ]
    paths = [i.path[-3:] for i in ev.issues if i.code == "io-state"]
    assert paths == [("state", "ammo_spent", name)]


def test_a_single_number_is_not_a_mapping(evaluate_text: Callable[[str], Evaluation]) -> None:
    ev = evaluate_text(PLATOON.format(spent="5"))
    assert state_issues(ev) == [
        (
            "state-invalid",
            "Veteran Platoon: state.ammo_spent must be a mapping of ids to whole numbers from 0 "
            "up (e.g. {SRM1: 2}); got 5",
        )
    ]
