"""Starship Troopers damage tables stay small however many models a unit has.

Rules: shared/seeds/000_0a053458e8c4e0e5.txt, Characteristics (Damage, Target, Save, Kill).
A volley's exact odds are tabulated up to ``VOLLEY_MAX_DICE`` damage dice; a bigger unit gets
its expected casualties (exact: the sum of the attacks' expectations) and no distributions,
so `count: 400` validates as fast as `count: 6`. Profiles with absurd dice are catalog errors.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from armybuilder.cli import main
from armybuilder.rules.systems.starship_troopers_profiles import (
    ProfileSyntaxError,
    parse_damage,
    weapon_field_errors,
)

REPO = Path(__file__).resolve().parents[2]
MI_SQUAD = REPO / "examples" / "starship-troopers" / "mi-squad.yaml"


def squad_of(tmp_path: Path, count: int) -> Path:
    p = tmp_path / f"squad-{count}.yaml"
    p.write_text(MI_SQUAD.read_text().replace("count: 6", f"count: {count}"))
    return p


def show_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    code = main(["show", "--format", "json", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    data: dict[str, Any] = json.loads(out)
    return data


def damage_rows(roster: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}

    def walk(units: list[dict[str, Any]]) -> None:
        for u in units:
            for key, v in u["values"].items():
                if key.startswith("damage."):
                    found[key] = v["value"]
            walk(u["children"])

    walk(roster["units"])
    return found


def test_a_huge_squad_gets_expected_casualties_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 400 Cap Troopers, each Morita attack 2xD6 at Arachnid Warriors (Target 5+, armour 4+):
    # a die removes a Warrior with 2/6 · 3/6 = 1/6, so one attack 1/3 and 400 attacks 400/3.
    # Close combat D6 (Target 5+, armour 4+) removes one with 1/6: 400 attacks 200/3.
    rows = damage_rows(show_json(capsys, squad_of(tmp_path, 400)))
    rifle = rows["damage.morita-assault-rifle.arachnid-warrior"]
    assert rifle["attacks"] == 400
    assert F(rifle["expected_kills"]["exact"]) == F(1, 3)
    assert rifle["volley"] == {
        "exact_odds": False,
        "expected_kills": {"p": float(F(400, 3)), "exact": "400/3"},
    }
    cc = next(v for k, v in rows.items() if k.endswith("close-combat.arachnid-warrior"))
    assert F(cc["volley"]["expected_kills"]["exact"]) == F(200, 3)
    assert "kills" not in cc["volley"]


def test_the_text_says_why_the_odds_are_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", str(squad_of(tmp_path, 10000))]) == 0
    out = capsys.readouterr().out
    assert "10000 firing: avg 3333.33 (exact odds only for volleys of up to 100 dice)" in out


def test_the_volley_is_exact_up_to_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 50 Moritas roll exactly 100 dice, the bound: every die removes a Warrior with 1/6.
    rows = damage_rows(show_json(capsys, squad_of(tmp_path, 50)))
    vol = rows["damage.morita-assault-rifle.arachnid-warrior"]["volley"]
    assert F(vol["at_least"][0]["exact"]) == 1 - F(5, 6) ** 100
    assert F(vol["expected_kills"]["exact"]) == F(50, 3)
    assert len(vol["kills"]) == 101
    # one more trooper is past the bound: expectation only, and the JSON does not grow.
    rows51 = damage_rows(show_json(capsys, squad_of(tmp_path, 51)))
    big = rows51["damage.morita-assault-rifle.arachnid-warrior"]["volley"]
    assert F(big["expected_kills"]["exact"]) == 17
    key = "damage.morita-assault-rifle.arachnid-warrior"
    assert len(json.dumps(rows51[key])) < len(json.dumps(rows[key])) // 10


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("200xD6", "at most 20 dice"),
        ("2xD1000", "at most 100 faces"),
        ("2xD6+500", "at most +20"),
        ("2xD6+D500", "at most 20 faces"),
    ],
)
def test_absurd_damage_dice_are_profile_errors(text: str, says: str) -> None:
    with pytest.raises(ProfileSyntaxError, match=re.escape(says)):
        parse_damage(text)


def test_a_stream_weapon_fired_directly_has_a_bounded_pool() -> None:
    # LZ (Stream) fired directly rolls dice × damage bonus dice (Weapon Traits, LZ):
    # 20xD6+20 would be 400 dice.
    chars = {"range": '12"', "damage": "20xD6+20", "type": "Crew", "traits": "LZ (Stream)"}
    errors = weapon_field_errors(chars)
    assert errors and "rolls up to 400 dice; at most 60" in errors[0][1]
    chars["damage"] = "3xD6+2"
    assert weapon_field_errors(chars) == []
