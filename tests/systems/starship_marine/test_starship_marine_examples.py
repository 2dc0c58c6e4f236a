"""The Starship Marine example rosters (examples/starship-marine/) as shipped.

Each must be legal without warnings, and its computed values must be the figures worked out
from the rules (the arithmetic is written next to each expectation).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "starship-marine"
FILES = [
    "earther-regiment.yaml",
    "martian-boarding-group.yaml",
    "sirian-platoon.yaml",
    "ships-company.yaml",
]
Evaluate = Callable[[Roster], Evaluation]
HEAD_KEYS = (
    "officers",
    "other_ranks",
    "non_marines",
    "combat_robots",
    "close_support_robots",
    "trucs",
)


def load(name: str, evaluate_roster: Evaluate) -> Evaluation:
    return evaluate_roster(Roster.from_file(EXAMPLES / name))


def heads(ev: Evaluation) -> tuple[int, ...]:
    h = ev.value(ev.root, "head_count")
    return tuple(h[k] for k in HEAD_KEYS)


def test_the_examples_are_all_there() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.yaml")) == sorted(FILES)


@pytest.mark.parametrize("name", FILES)
def test_example_is_legal_without_warnings(name: str, evaluate_roster: Evaluate) -> None:
    ev = load(name, evaluate_roster)
    assert ev.issues == [], [i.message for i in ev.issues]
    assert ev.roster.system == "starship-marine"


@pytest.mark.parametrize("name", FILES)
def test_example_round_trips(name: str) -> None:
    path = EXAMPLES / name
    roster = Roster.from_file(path)
    assert roster.dumps() == path.read_text(encoding="utf-8")
    roster.set((), "notes", "x")
    roster.set((), "notes", None)
    assert roster.dumps() == path.read_text(encoding="utf-8")


def test_earther_regiment(evaluate_roster: Evaluate) -> None:
    ev = load("earther-regiment.yaml", evaluate_roster)
    assert ev.roster.faction == "earther"
    assert heads(ev) == (18, 88, 11, 26, 16, 32)
    # 106 marines x 3 + Lt Cdr 2 + 10 naval logs; 106 x 2 + 11
    assert ev.value(ev.root, "ship_morale")["strength"] == 330
    assert ev.value(ev.root, "attacker_morale")["strength"] == 223
    # 117 men x 4, 106 marines x 2
    assert ev.value(ev.root, "ammunition") == {"grenades": 468, "door_charges": 212}
    assert ev.value(ev.root, "apgw")["missiles"] == 160  # 16 launchers x 10
    logistics = ev.value(ev.root, "logistics")
    loads = {d["item"]: (d["pallets"], d["items"]) for d in logistics["loads"]}
    assert loads == {
        "grenades": (6, 144),
        "door charges": (4, 48),
        "APGW missiles": (6, 60),
        "SuperCharges": (2, 2),
    }
    assert (logistics["trucs"], logistics["free_trucs"], logistics["casualty_lift"]) == (32, 14, 28)
    # Lt Col: 31 actions, 2 wounded = 33 (veteran); RSM: 22 (seasoned)
    assert ev.value(ev.root, "experience") == {
        "marine": {"Novice": 104, "Seasoned": 1, "Veteran": 1},
        "non-marine": {"Raw": 11},
    }
    groups = [n for n in ev.nodes() if n.entry_id == "earther-group"]
    assert [ev.name(g) for g in groups] == [
        "1st Marine Group",
        "2nd Marine Group",
        "3rd Marine Group",
    ]


def test_martian_boarding_group(evaluate_roster: Evaluate) -> None:
    ev = load("martian-boarding-group.yaml", evaluate_roster)
    assert heads(ev) == (5, 36, 0, 0, 4, 0)
    assert ev.value(ev.root, "ship_morale")["strength"] == 123  # 41 marines x 3
    assert ev.value(ev.root, "attacker_morale")["strength"] == 82
    # one close support marine draws no grenades or door charges: 40 x 4, 40 x 2
    assert ev.value(ev.root, "ammunition") == {"grenades": 160, "door_charges": 80}
    # 4 close support robots x 10 + 6 in the close support marine's pack
    assert ev.value(ev.root, "apgw") == {
        "launchers": 5,
        "close_support_marines": 1,
        "missiles": 46,
        "callers": 40,
    }
    assert ev.value(ev.root, "experience") == {
        "marine": {"Novice": 34, "Experienced": 2, "Seasoned": 4, "Veteran": 1}
    }
    by_name = {ev.name(n): n for n in ev.nodes()}
    assert ev.value(by_name["Major Okonkwo"], "experience")["class"] == "Veteran"  # 34
    assert ev.value(by_name["Pte Harlan"], "experience")["counted"] == 15  # 14 + 1 wounded
    assert ev.value(by_name["Sgt Kowalski"], "experience")["class"] == "Seasoned"  # 29
    assert ev.value(by_name["Pte Ibarra"], "close_support") == {"missiles": 6}


def test_sirian_platoon(evaluate_roster: Evaluate) -> None:
    ev = load("sirian-platoon.yaml", evaluate_roster)
    assert heads(ev) == (1, 18, 0, 16, 4, 0)  # 4 + 3 x 4 combat robots
    assert ev.value(ev.root, "ship_morale")["strength"] == 57
    assert ev.value(ev.root, "attacker_morale")["strength"] == 38
    assert ev.value(ev.root, "ammunition") == {"grenades": 76, "door_charges": 38}
    hq = next(n for n in ev.nodes() if n.entry_id == "sirian-platoon-hq")
    names = [ev.name(n) for n in hq.children if n.entry_id == "combat-robot"]
    assert names == ["Comrade Anvil", "Comrade Spark", "Comrade Bolt", "Comrade Gear"]


def test_ships_company(evaluate_roster: Evaluate) -> None:
    ev = load("ships-company.yaml", evaluate_roster)
    h = ev.value(ev.root, "head_count")
    assert heads(ev) == (0, 6, 19, 3, 1, 0)
    assert (h["clankers"], h["armoured_robots"]) == (8, 1)
    # 4 ship's officers x 2 + 15 crewmen + 6 marines x 3; as attackers 6 x 2 + 19
    assert ev.value(ev.root, "ship_morale") == {
        "strength": 41,
        "below": {"60": 24, "40": 16, "20": 8},
    }
    assert ev.value(ev.root, "attacker_morale")["strength"] == 31
    assert ev.value(ev.root, "ammunition") == {"grenades": 100, "door_charges": 12}
    # no campaign rules in play: everyone at the baseline class (4.7)
    assert ev.value(ev.root, "experience") == {
        "marine": {"Experienced": 6},
        "non-marine": {"Experienced": 19},
    }


def test_show_reads_well(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(EXAMPLES / "martian-boarding-group.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Starship Marine · Martian Marines · Legal" in out
    assert "Head count: marines: 5 officers, 36 other ranks; robots: 4 close support" in out
    assert "Attacker morale strength: 82; below 50% at 40 or less (-1)" in out
    assert "Pte Ibarra  [Marine]" in out
    assert "Close support marine: APGW pack with 6 missiles" in out


def test_the_documentation_example_is_legal(evaluate_roster: Evaluate) -> None:
    doc = (REPO / "docs" / "systems" / "starship-marine.md").read_text(encoding="utf-8")
    block = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    ev = evaluate_roster(Roster.from_text(block, "<docs>"))
    assert ev.issues == []
    assert ev.value(ev.root, "apgw")["close_support_marines"] == 1
    moss = next(n for n in ev.nodes() if ev.name(n) == "Pte Moss")
    assert ev.value(moss, "experience")["counted"] == 15


def test_validate_all_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *(str(EXAMPLES / f) for f in FILES)]) == 0
    assert "4 of 4 rosters legal" in capsys.readouterr().out
