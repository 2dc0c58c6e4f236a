"""The StarMarines rules, checked with numbers from the rules text.

Rules text: shared/seeds/003_ceaaebfe63a96e1e.txt ("StarMarines", 2003). The race books with
the real units are not part of our sources, so the rosters here use test units typed in
through a roster's ``custom:`` key, exactly as a player would; every figure the builder must
produce comes from the main rules (the section is named beside it).

Each check is shown to fire alone: the base roster is legal with no issue at all, and each
test breaks one rule and expects exactly that issue. The library holds only the StarMarines
catalogs (so other systems' work in progress cannot disturb these tests).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from armybuilder.catalog import GameSystem, Library, check_paths
from armybuilder.model.catalog import CustomCatalog
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate, evaluate_roster
from armybuilder.rules.engine import Node
from armybuilder.rules.systems.starmarines import (
    ProfileSyntaxError,
    VehicleStats,
    damage_results,
    immunity,
    parse_range,
    parse_whole,
    pass_range,
    soldier_stats,
    vehicle_stats,
    weapon_stats,
)

REPO = Path(__file__).resolve().parents[3]
CATALOGS = REPO / "catalogs" / "starmarines"


# --------------------------------------------------------------------------- test units

UNITS = """
shared_entries:
  # weapons: size (light / medium / heavy) and AP rating
  - {id: pistol, name: Pistol, categories: [weapon, light], costs: {bp: 0},
     profiles: [{type: weapon, characteristics: {ap: 0, damage: 1, range: 3}}]}
  - {id: rifle, name: Rifle, categories: [weapon, light], costs: {bp: 0.5},
     profiles: [{type: weapon, characteristics: {ap: 1, damage: 1, range: 6}}]}
  - {id: blade, name: Blade, categories: [weapon, light], costs: {bp: 0.5},
     profiles: [{type: weapon, characteristics: {ap: 2, damage: 2, range: 1}}]}
  - {id: autocannon, name: Autocannon, categories: [weapon, medium], costs: {bp: 1},
     profiles: [{type: weapon, characteristics: {ap: 2, damage: 2, range: 8}}]}
  - {id: launcher, name: Launcher, categories: [weapon, medium, frag], costs: {bp: 1},
     profiles: [{type: weapon, characteristics: {ap: 0, damage: 1, range: "2-5"}}]}
  - {id: cannon, name: Cannon, categories: [weapon, heavy, armor-piercing], costs: {bp: 2},
     profiles: [{type: weapon, characteristics: {ap: 3, damage: 3, range: 10}}]}
  - {id: choppa, name: Choppa, categories: [weapon, light], costs: {bp: 0}, data: {race: norx},
     profiles: [{type: weapon, characteristics: {ap: 1, range: 1}}]}
  - {id: marine-rifle, name: Marine rifle, categories: [weapon, light], costs: {bp: 0},
     data: {race: starmarines},
     profiles: [{type: weapon, characteristics: {ap: 1, range: 6}}]}
  # soldiers
  - id: trooper
    name: Trooper
    type: model
    categories: [soldier]
    experience: true
    costs: {bp: 1}
    profiles: [{type: soldier, characteristics: {move: 2, morale: 4, aim: 0, weapon: "[Pistol]"}}]
    entries: [{link: attribute}, {link: pistol}, {link: rifle}, {link: blade},
              {link: autocannon}, {link: cannon}, {link: choppa}, {link: marine-rifle}]
  - id: gunner
    name: Gunner
    type: model
    categories: [soldier]
    experience: true
    costs: {bp: 2}
    profiles: [{type: soldier, characteristics: {move: 2, morale: 4, carries: heavy}}]
    entries: [{link: attribute}, {link: pistol}, {link: rifle}, {link: autocannon},
              {link: launcher}, {link: cannon}]
  - id: heavy-trooper
    name: Heavy trooper
    type: model
    categories: [soldier]
    experience: true
    costs: {bp: 1.5}
    profiles: [{type: soldier, characteristics: {move: 2, morale: 4, carries: medium}}]
    entries: [{link: pistol}, {link: rifle}, {link: autocannon}, {link: cannon}]
  - id: slowpoke
    name: Slowpoke
    type: model
    categories: [soldier]
    experience: true
    costs: {bp: 1}
    profiles: [{type: soldier, characteristics: {move: 1, morale: 4}}]
  - id: sergeant
    name: Sergeant
    type: model
    categories: [soldier, leader]
    experience: true
    costs: {bp: 3}
    profiles: [{type: soldier, characteristics: {move: 2, morale: 5, leadership: 2}}]
    entries: [{link: attribute}, {link: rifle}]
  - id: hero
    name: Hero
    type: model
    categories: [soldier, hero]
    experience: true
    costs: {bp: 4}
    profiles: [{type: soldier, characteristics: {move: 2, aim: 1}}]
    entries: [{link: attribute}, {link: rifle}]
  - id: medic
    name: Medic
    type: model
    categories: [soldier, doctor]
    experience: true
    costs: {bp: 2}
    profiles: [{type: soldier, characteristics: {move: 2, morale: 4}}]
  # vehicles: size, motion type, supertank / walker; mounts with a size and a side
  - id: tank
    name: Tank
    type: model
    categories: [vehicle, large, ground, supertank]
    experience: true
    costs: {bp: 10}
    profiles: [{type: vehicle, characteristics: {move: 2, armor: 6, transport: 4}}]
    entries:
      - id: tank-turret
        name: Turret
        categories: [mount, heavy]
        entries: [{link: cannon}, {link: autocannon}, {link: rifle}, {link: blade}]
      - id: tank-left
        name: Left sponson
        categories: [mount, medium, left]
        entries: [{link: autocannon}, {link: launcher}, {link: cannon}]
      - id: tank-right
        name: Right sponson
        categories: [mount, medium, right]
        entries: [{link: autocannon}, {link: launcher}]
  - id: truck
    name: Truck
    type: model
    categories: [vehicle, large, ground]
    experience: true
    costs: {bp: 5}
    profiles: [{type: vehicle, characteristics: {move: 3, carries: medium}}]
    entries: [{link: rifle}, {link: autocannon}, {link: cannon}]
  - id: small-walker
    name: Small walker
    type: model
    categories: [vehicle, small, ground, walker]
    experience: true
    costs: {bp: 6}
    profiles: [{type: vehicle, characteristics: {move: 2}}]
    entries: [{link: autocannon}]
  - id: large-walker
    name: Large walker
    type: model
    categories: [vehicle, large, ground, walker]
    experience: true
    costs: {bp: 12}
    profiles: [{type: vehicle, characteristics: {move: 1}}]
    entries: [{link: cannon}]
  - id: skimmer
    name: Skimmer
    type: model
    categories: [vehicle, small, skimmer]
    experience: true
    costs: {bp: 4}
    profiles: [{type: vehicle, characteristics: {move: 5, carries: medium}}]
    entries: [{link: autocannon}]
  # groupings
  - id: squad
    name: Squad
    type: unit
    categories: [team, formation]
    experience: true
    entries: [{link: trooper}, {link: gunner}, {link: medic}]
  - id: platoon
    name: Platoon
    type: unit
    categories: [formation]
    experience: true
    data: {level: 2}
    entries: [{link: squad}, {link: sergeant}, {link: hero}, {link: trooper}, {link: tank},
              {link: truck}, {link: small-walker}, {link: large-walker}, {link: skimmer}]
  - id: company
    name: Company
    type: unit
    categories: [formation]
    experience: true
    entries: [{link: platoon}]
entries:
  - {link: company}
  - {link: platoon}
  - {link: squad}
  - {link: trooper}
  - {link: gunner}
  - {link: heavy-trooper}
  - {link: slowpoke}
  - {link: sergeant}
  - {link: hero}
  - {link: medic}
  - {link: tank}
  - {link: truck}
  - {link: small-walker}
  - {link: large-walker}
  - {link: skimmer}
"""
CUSTOM: dict[str, Any] = YAML(typ="safe").load(UNITS)


def sel(entry: str, *children: dict[str, Any], **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"entry": entry, **kw}
    if children:
        out["selections"] = list(children)
    return out


# The legal base roster: Sergeant (veteran) 3 + 2; Squad (veteran, one team) of 4 Troopers 4
# and a Gunner with a Cannon 2 + 2, experience 2; Tank 10, Cannon 2, two Autocannons 2.
# 3 + 2 + 4 + 2 + 2 + 2 + 10 + 2 + 2 = 29 BP of 50.
BASE = [
    sel(
        "platoon",
        sel("sergeant", experience="veteran"),
        sel(
            "squad",
            sel("trooper", count=4),
            sel("gunner", sel("cannon")),
            experience="veteran",
        ),
        sel(
            "tank",
            sel("tank-turret", sel("cannon")),
            sel("tank-left", sel("autocannon")),
            sel("tank-right", sel("autocannon")),
        ),
    )
]


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> GameSystem:
    """The bundled StarMarines catalogs alone."""
    root = tmp_path_factory.mktemp("bundled")
    (root / "starmarines").symlink_to(CATALOGS)
    lib = Library([root], use_cache=False).scan()
    assert lib.problems == []
    return lib.system("starmarines")


def roster_text(
    selections: list[dict[str, Any]],
    faction: str = "starmarines",
    limit: float | None = 50,
    custom: dict[str, Any] | None = None,
) -> str:
    doc: dict[str, Any] = {"format": 1, "system": "starmarines", "faction": faction}
    doc["name"] = "Test"
    if limit is not None:
        doc["limits"] = {"bp": limit}
    doc["custom"] = CUSTOM if custom is None else custom
    doc["selections"] = selections
    return json.dumps(doc, indent=1)


@pytest.fixture
def run(system: GameSystem) -> Any:
    def _run(
        selections: list[dict[str, Any]] | None = None,
        faction: str = "starmarines",
        limit: float | None = 50,
        custom: dict[str, Any] | None = None,
    ) -> Evaluation:
        sels = copy.deepcopy(BASE if selections is None else selections)
        text = roster_text(sels, faction, limit, custom)
        return evaluate_roster(Roster.from_text(text, "<test>", round_trip=False), system)

    return _run


def find(ev: Evaluation, entry: str, nth: int = 0) -> Node:
    nodes = [n for n in ev.nodes() if n.entry_id == entry]
    return nodes[nth]


def walk_sel(sels: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for s in sels:
        yield s
        yield from walk_sel(s.get("selections", []))


def base_with(entry: str, change: dict[str, Any]) -> list[dict[str, Any]]:
    """The base roster with the first selection of ``entry`` updated."""
    sels = copy.deepcopy(BASE)
    target = next(s for s in walk_sel(sels) if s["entry"] == entry)
    target.update(change)
    return sels


# --------------------------------------------------------------------------- the base


def test_base_roster_is_legal_with_no_issue(run: Any) -> None:
    ev = run()
    assert ev.issues == []
    assert ev.totals["bp"] == 29
    assert ev.value(ev.root, "game_size") == 50
    assert ev.value(ev.root, "bp_left") == 21


# --------------------------------------------------------------------------- IV-a, VI: game size


@pytest.mark.parametrize("size", [25, 50, 75, 250])
def test_game_size_multiple_of_25(run: Any, size: int) -> None:
    ev = run(limit=size)
    assert "smr-game-size-not-multiple-of-25" not in ev.codes()
    assert ev.value(ev.root, "game_size") == size


@pytest.mark.parametrize("size", [30, 60, 99, 260, 0])
def test_game_size_not_multiple_of_25(run: Any, size: int) -> None:
    ev = run(limit=size)
    codes = [c for c in ev.codes() if c != "cost-limit-exceeded"]
    assert codes == ["smr-game-size-not-multiple-of-25"]
    issue = ev.issues[ev.codes().index("smr-game-size-not-multiple-of-25")]
    assert issue.path == ("limits", "bp")
    assert "groups of 25" in issue.message


def test_no_game_size_is_a_warning_that_says_what_is_needed(run: Any) -> None:
    ev = run(limit=None)
    assert ev.codes() == ["smr-no-game-size"]
    assert ev.valid
    assert "bp: 50" in ev.issues[0].message  # 29 BP spent: the next multiple of 25 is 50


def test_spend_over_the_game_size(run: Any) -> None:
    ev = run(limit=25)  # 29 BP spent
    assert ev.codes() == ["cost-limit-exceeded"]
    assert ev.issues[0].message == "Build points 29 BP is over the limit of 25 BP by 4 BP"


def test_experience_counts_against_the_game_size(run: Any) -> None:
    # 25 BP of units; Elite for the lone trooper (3 BP, X) takes it to 28: over 25.
    sels = [sel("tank", sel("tank-turret", sel("cannon"))), sel("trooper", count=13)]
    assert run(sels, limit=25).codes() == []  # 10 + 2 + 13 = 25
    sels[1]["experience"] = "elite"
    ev = run(sels, limit=25)
    assert ev.totals["bp"] == 25 + 13 * 3  # thirteen individuals, 3 BP each
    assert ev.codes() == ["cost-limit-exceeded"]
    assert "by 39 BP" in ev.issues[0].message


# --------------------------------------------------------------------------- IV-d, X: experience


@pytest.mark.parametrize(
    ("level", "cost", "morale", "attack"),
    # Soldier Experience Table: cost per team or individual; soldier effect
    [("green", 0, -1, 0), ("average", 1, 0, 0), ("veteran", 2, 1, 0), ("elite", 3, 1, 1)],
)
def test_experience_per_team(run: Any, level: str, cost: int, morale: int, attack: int) -> None:
    sels = [sel("squad", sel("trooper", count=5), experience=level)]
    ev = run(sels)
    assert ev.issues == []
    assert ev.totals["bp"] == 5 + cost  # once for the team, not per trooper
    squad = find(ev, "squad")
    assert ev.value(squad, "cost")["experience"] == cost
    trooper = find(ev, "trooper")
    assert ev.value(trooper, "experience") == level.capitalize()
    assert ev.value(trooper, "morale")["value"] == 4 + morale  # the team's level, every member
    assert ev.value(trooper, "attack") == attack


@pytest.mark.parametrize(
    ("level", "cost"), [("green", 0), ("average", 1), ("veteran", 2), ("elite", 3)]
)
def test_experience_per_individual(run: Any, level: str, cost: int) -> None:
    ev = run([sel("trooper", count=3, experience=level), sel("tank", experience=level)])
    assert ev.totals["bp"] == 3 + 10 + 4 * cost  # three individuals and a vehicle
    assert ev.value(find(ev, "trooper"), "cost")["experience"] == 3 * cost
    assert ev.value(find(ev, "tank"), "cost")["experience"] == cost


def test_no_experience_bought_is_green_at_no_cost(run: Any) -> None:
    ev = run([sel("trooper")])
    assert ev.totals["bp"] == 1
    assert ev.value(find(ev, "trooper"), "experience") == "Green"
    assert ev.value(find(ev, "trooper"), "morale")["value"] == 3  # 4, Green -1


def test_experience_for_several_teams(run: Any) -> None:
    ev = run([sel("squad", sel("trooper", count=4), count=3, experience="veteran")])
    assert ev.totals["bp"] == 3 * (4 + 2)
    assert ev.value(find(ev, "squad"), "cost") == {
        "base": 12,
        "experience": 6,
        "attributes": 0,
        "weapons": 0,
        "total": 18,
    }


def test_experience_on_a_formation_covers_each_team_and_individual(run: Any) -> None:
    # The platoon is not bought as one: its squad (a team) and sergeant each pay.
    sels = [
        sel(
            "platoon",
            sel("sergeant"),
            sel("squad", sel("trooper", count=4)),
            sel("tank"),
            experience="elite",
        )
    ]
    ev = run(sels)
    assert ev.issues == []
    assert ev.totals["bp"] == 3 + 4 + 10 + 3 * 3
    assert ev.value(find(ev, "trooper"), "experience") == "Elite"


def test_a_unit_in_a_team_cannot_have_its_own_level(run: Any) -> None:
    sels = base_with("trooper", {"experience": "elite"})
    ev = run(sels)
    assert ev.codes() == ["smr-experience-split"]
    issue = ev.issues[0]
    assert "Elite" in issue.message and "Veteran" in issue.message
    assert issue.path[-1] == "experience"
    # nothing extra is charged for the member's level
    assert ev.totals["bp"] == 29


def test_a_team_member_may_repeat_the_teams_level(run: Any) -> None:
    assert run(base_with("trooper", {"experience": "veteran"})).issues == []


def test_a_team_member_cannot_buy_experience_for_a_green_team(run: Any) -> None:
    ev = run([sel("squad", sel("trooper", count=2), sel("gunner", experience="veteran"))])
    assert ev.codes() == ["smr-experience-split"]


# --------------------------------------------------------------------------- IV-e: attributes


def test_one_attribute_per_soldier_at_half_a_point(run: Any) -> None:
    sels = [sel("trooper", sel("attribute", name="Sharpshooter"), count=3)]
    ev = run(sels)
    assert ev.issues == []
    assert ev.totals["bp"] == 3 * 1.5
    assert ev.value(find(ev, "trooper"), "cost")["attributes"] == 1.5


def test_two_attributes_for_one_soldier(run: Any) -> None:
    sels = base_with("sergeant", {"selections": [sel("attribute", count=2)]})
    ev = run(sels)
    assert ev.codes() == ["smr-two-attributes"]
    assert "2 attributes" in ev.issues[0].message


def test_two_attribute_selections_for_one_soldier(run: Any) -> None:
    sels = base_with(
        "sergeant",
        {"selections": [sel("attribute", name="Tactician"), sel("attribute", name="Tough")]},
    )
    ev = run(sels)
    assert ev.codes() == ["smr-two-attributes"]
    assert "Tactician, Tough" in ev.issues[0].message


def test_attributes_for_different_soldiers(run: Any) -> None:
    sels = [sel("sergeant", sel("attribute")), sel("trooper", sel("attribute"))]
    ev = run(sels)
    assert ev.issues == []
    assert ev.totals["bp"] == 3 + 1 + 2 * 0.5  # two attributes: one point


def test_an_attribute_must_cost_half_a_point(run: Any) -> None:
    custom = copy.deepcopy(CUSTOM)
    custom["shared_entries"].append(
        {"id": "pricey", "name": "Pricey", "categories": ["attribute"], "costs": {"bp": 1}}
    )
    ev = run(custom=custom)
    assert ev.codes()[0] == "invalid-custom-entry"
    assert "costs 1/2 build point" in ev.issues[0].message


# --------------------------------------------------------------------------- IV-h: weapon sizes


@pytest.mark.parametrize(
    ("entry", "weapon", "ok"),
    [
        ("trooper", "pistol", True),  # carries light (the default)
        ("trooper", "autocannon", False),
        ("trooper", "cannon", False),
        ("heavy-trooper", "rifle", True),  # medium carrier, smaller weapon
        ("heavy-trooper", "autocannon", True),
        ("heavy-trooper", "cannon", False),
        ("gunner", "pistol", True),  # heavy carrier, smaller weapons
        ("gunner", "launcher", True),
        ("gunner", "cannon", True),
        ("truck", "rifle", True),  # vehicle carries medium
        ("truck", "cannon", False),
    ],
)
def test_weapon_sizes(run: Any, entry: str, weapon: str, ok: bool) -> None:
    ev = run([sel(entry, sel(weapon))])
    assert ev.codes() == ([] if ok else ["smr-weapon-too-heavy"])
    if not ok:
        assert ev.issues[0].path == ("selections", 0, "selections", 0)


def test_mount_size(run: Any) -> None:
    # the medium left sponson may take a smaller weapon, not a heavy one
    ev = run([sel("tank", sel("tank-left", sel("cannon")), sel("tank-right", sel("autocannon")))])
    assert "smr-weapon-too-heavy" in ev.codes()
    ev = run([sel("tank", sel("tank-turret", sel("rifle")))])
    assert ev.issues == []  # a heavy mount takes a light weapon


def test_default_weapon(run: Any) -> None:
    ev = run([sel("trooper")])
    assert ev.value(find(ev, "trooper"), "weapons").startswith("Pistol (light, AP 0")
    assert "default weapon" in ev.value(find(ev, "trooper"), "weapons")
    ev = run([sel("medic")])
    assert ev.value(find(ev, "medic"), "weapons") == "none (disarmed)"


def test_a_soldier_fires_one_weapon(run: Any) -> None:
    ev = run([sel("gunner", sel("pistol"), sel("cannon"))])
    assert ev.issues == []
    assert ev.value(find(ev, "gunner"), "weapons").endswith("(fires one weapon a turn)")


# --------------------------------------------------------------------------- IV-g: pairs


def test_paired_weapons_must_match(run: Any) -> None:
    sels = base_with("tank-right", {"selections": [sel("launcher")]})
    ev = run(sels)
    assert ev.codes() == ["smr-weapon-pair-mismatch"]
    assert ev.issues[0].message == (
        "Platoon > Tank: the Left sponson holds Autocannon but the Right sponson holds "
        "Launcher; weapons set up as a left / right pair must be the same kind"
    )


def test_a_pair_with_one_side_empty(run: Any) -> None:
    sels = copy.deepcopy(BASE)
    tank = next(s for s in walk_sel(sels) if s["entry"] == "tank")
    tank["selections"] = [s for s in tank["selections"] if s["entry"] != "tank-right"]
    ev = run(sels)
    assert ev.codes() == ["smr-weapon-pair-mismatch"]
    assert "holds nothing" in ev.issues[0].message


def test_a_pair_left_empty_is_fine(run: Any) -> None:
    ev = run([sel("tank", sel("tank-turret", sel("cannon")))])
    assert ev.issues == []


def test_one_weapon_per_mount(run: Any) -> None:
    sels = base_with("tank-turret", {"selections": [sel("cannon"), sel("autocannon")]})
    ev = run(sels)
    assert ev.codes() == ["smr-mount-overloaded"]


# --------------------------------------------------------------------------- VIII-I: own weapons


def test_no_weapons_from_another_army(run: Any) -> None:
    ev = run([sel("trooper", sel("choppa"))])
    assert ev.codes() == ["smr-foreign-weapon"]
    assert "Norx" in ev.issues[0].message
    assert run([sel("trooper", sel("choppa"))], faction="norx").issues == []
    # a weapon tagged with the roster's own race is its own
    assert run([sel("trooper", sel("marine-rifle"))]).issues == []


def test_colonials_use_starmarine_weapons(run: Any) -> None:
    assert run([sel("trooper", sel("marine-rifle"))], faction="colonials").issues == []
    assert run([sel("trooper", sel("choppa"))], faction="colonials").codes() == [
        "smr-foreign-weapon"
    ]
    assert run([sel("trooper", sel("marine-rifle"))], faction="norx").codes() == [
        "smr-foreign-weapon"
    ]


def test_saurs_adapt_other_races_weapons(run: Any) -> None:
    ev = run([sel("trooper", sel("choppa")), sel("trooper", sel("marine-rifle"))], "saurs")
    assert ev.issues == []


# --------------------------------------------------------------------------- race rules


@pytest.mark.parametrize("race", ["saurs", "zrutes"])
def test_saurs_and_zrutes_field_no_vehicles(run: Any, race: str) -> None:
    ev = run([sel("trooper"), sel("truck")], faction=race)
    assert ev.codes() == ["smr-vehicles-not-allowed"]
    assert ev.issues[0].path == ("selections", 1)
    assert run([sel("trooper")], faction=race).issues == []


@pytest.mark.parametrize(
    "race",
    ["starmarines", "norx", "pelgari", "victors", "dran", "ghouls", "nkakk", "swarm", "colonials"],
)
def test_other_races_field_vehicles(run: Any, race: str) -> None:
    assert run([sel("truck")], faction=race).issues == []


def test_nkakk_robots_never_fail_morale(run: Any) -> None:
    ev = run([sel("trooper")], faction="nkakk")
    morale = ev.value(find(ev, "trooper"), "morale")
    assert morale == {"checks": True, "never_fails": True}


@pytest.mark.parametrize(
    ("race", "text"),
    [
        ("starmarines", "wounded on 1–3, dead on 4–6"),
        ("norx", "wounded on 1–4, dead on 5–6"),
        ("pelgari", "wounded on 1–2, dead on 3–6"),
        ("victors", "wounded on 1–4, dead on 5–6"),
        ("dran", "wounded on 1–3, dead on 4–6"),
        ("ghouls", "wounded on 1–5, dead on 6"),
        ("zrutes", "wounded on 1–3, dead on 4–6"),
        ("saurs", "wounded on 1–4, dead on 5–6"),
        ("swarm", "wounded on 1–2, dead on 3–6"),
        ("nkakk", "no column in the main rules' table (see the race book)"),
        ("colonials", "no column in the main rules' table (see the race book)"),
    ],
)
def test_wounding_column(run: Any, race: str, text: str) -> None:
    ev = run([sel("trooper")], faction=race)
    (v,) = [v for v in ev.roster_values if v.key == "wounding"]
    assert v.display() == text


# --------------------------------------------------------------------------- IX-D: morale


def test_morale_with_its_modifiers(run: Any) -> None:
    ev = run()
    trooper = ev.value(find(ev, "trooper"), "morale")
    # base 4, Veteran +1 (team), +1 beside two unbroken friends; no Hero in the army
    assert trooper["base"] == 4
    assert trooper["experience"] == 1
    assert trooper["value"] == 5
    assert trooper["two_friends"] == 6
    assert trooper["hero"] is None
    assert trooper["leader_range"] == 3  # the Veteran sergeant's range, 2 + 1
    text = next(v for v in ev.values_of(find(ev, "trooper")) if v.key == "morale").display()
    assert text.startswith("5 (base 4, Veteran +1): passes on 1–5; 6 beside two")


def test_a_hero_steadies_soldiers_and_never_checks(run: Any) -> None:
    ev = run([sel("hero"), sel("trooper")])
    assert ev.value(find(ev, "trooper"), "morale")["hero"] == 3 + 2  # Green 3, +2 beside a Hero
    assert ev.value(find(ev, "hero"), "morale") == {"checks": False}
    assert ev.value(ev.root, "heroes") == 1


def test_vehicles_never_check_morale(run: Any) -> None:
    ev = run([sel("truck")])
    assert ev.value(find(ev, "truck"), "morale") == {"checks": False}


@pytest.mark.parametrize(
    ("level", "morale", "passes"),
    [
        ("green", 3, "passes on 1–3"),
        ("average", 4, "passes on 1–4"),
        ("veteran", 5, "passes on 1–5"),
        ("elite", 5, "passes on 1–5"),
    ],
)
def test_morale_by_experience(run: Any, level: str, morale: int, passes: str) -> None:
    ev = run([sel("trooper", experience=level)])
    value = ev.value(find(ev, "trooper"), "morale")
    assert value["value"] == morale
    assert passes in next(v for v in ev.values_of(find(ev, "trooper")) if v.key == "morale").text


def test_pass_range() -> None:
    # a check fails when the roll is greater than the adjusted morale (IX-D)
    assert pass_range(0) == "fails on any roll"
    assert pass_range(1) == "passes on 1"
    assert pass_range(4) == "passes on 1–4"
    assert pass_range(6) == "passes on any roll"
    assert pass_range(8) == "passes on any roll"


@pytest.mark.parametrize(
    ("level", "reach"), [("green", 2), ("average", 2), ("veteran", 3), ("elite", 4)]
)
def test_leadership_range(run: Any, level: str, reach: int) -> None:
    # Leader Benefit: n/a, none, +1 and +2 leadership range
    ev = run([sel("sergeant", experience=level)])
    assert ev.value(find(ev, "sergeant"), "leadership") == reach


def test_attack_rolls(run: Any) -> None:
    ev = run([sel("hero", experience="elite"), sel("truck", experience="elite")])
    assert ev.value(find(ev, "hero"), "attack") == 2  # aim +1, Elite +1
    assert ev.value(find(ev, "truck"), "attack") == 1


# --------------------------------------------------------------------------- vehicles


@pytest.mark.parametrize(
    ("entry", "max_ap", "kind"),
    [
        ("tank", 1, "large ground supertank"),  # IV-g: AP 1 or less
        ("small-walker", 1, "small ground walker"),
        ("large-walker", 2, "large ground walker"),
        ("truck", None, "large ground vehicle"),
        ("skimmer", None, "small skimmer vehicle"),
    ],
)
def test_immunities(run: Any, entry: str, max_ap: int | None, kind: str) -> None:
    ev = run([sel(entry)])
    node = find(ev, entry)
    assert ev.value(node, "immunity")["max_ap"] == max_ap
    assert ev.value(node, "type") == kind


def test_vehicle_damage(run: Any) -> None:
    ev = run([sel("tank"), sel("truck")])
    tank = ev.value(find(ev, "tank"), "damage")
    truck = ev.value(find(ev, "truck"), "damage")
    # Vehicle Damage Table: 5 and 6 destroy. IV-g / IX-A: a supertank subtracts 1 from the
    # damage *level* (never less than 1): Destroyed (3) becomes level 2 (Disarmed or
    # Crippled), level 2 becomes Stunned, Stunned stays; one hit never destroys it.
    assert truck["destroyed_on"] == [5, 6]
    assert tank["destroyed_on"] == []
    assert tank["supertank_reading"] == "level"
    assert tank["results"] == {
        1: "Stunned",
        2: "Stunned",
        3: "Stunned",
        4: "Stunned",
        5: "Disarmed or Crippled",
        6: "Disarmed or Crippled",
    }
    text = next(v for v in ev.values_of(find(ev, "tank")) if v.key == "damage").text
    assert text.startswith("never destroyed by one hit (supertank: the damage level is lowered")


def test_supertank_damage_roll_as_a_house_rule(run: Any) -> None:
    """The other reading (the roll, not the level, reduced by 1) is a roster-wide house rule."""
    ev = run([sel("tank"), sel("truck"), sel("supertank-roll-house-rule")])
    assert "entry-not-allowed" not in ev.codes()
    tank = ev.value(find(ev, "tank"), "damage")
    truck = ev.value(find(ev, "truck"), "damage")
    assert truck["destroyed_on"] == [5, 6]  # only supertanks change
    assert tank["supertank_reading"] == "roll"
    assert tank["destroyed_on"] == [6]
    assert truck["results"] == {
        1: "Stunned",
        2: "Stunned",
        3: "Disarmed",
        4: "Crippled",
        5: "Destroyed",
        6: "Destroyed",
    }
    assert tank["results"] == {
        1: "Stunned",
        2: "Stunned",
        3: "Stunned",
        4: "Disarmed",
        5: "Crippled",
        6: "Destroyed",
    }


def test_a_close_combat_weapon_cannot_go_in_a_turret(run: Any) -> None:
    """IV-h: "a battle-axe can never misfire, but you can't mount it in a turret, either": a
    close-combat weapon (range 1) in a vehicle's weapon mount is an error."""
    ev = run([sel("tank", sel("tank-turret", sel("blade")))])
    assert ev.codes() == ["smr-close-combat-weapon-mounted"]
    issue = ev.issues[0]
    assert issue.path == ("selections", 0, "selections", 0, "selections", 0)
    assert "Blade is a close-combat weapon" in issue.message
    assert issue.source == "StarMarines IV-h"
    assert run([sel("trooper", sel("blade"))]).issues == []  # a soldier may carry it


@pytest.mark.parametrize(
    ("modifier", "roll", "text"),
    [(0, 3, "on 3+"), (1, 2, "on 2+"), (-1, 4, "on 4+"), (2, 1, "always"), (-4, None, "never")],
)
def test_overrun_escape_adds_the_race_initiative_modifier(
    run: Any,
    system: GameSystem,
    monkeypatch: pytest.MonkeyPatch,
    modifier: int,
    roll: int | None,
    text: str,
) -> None:
    """IX-F: "If his race has a modifier for dicing for initiative, add or subtract that
    modifier. If the result is 3 or higher, the soldier got out of the way"."""
    monkeypatch.setitem(system.factions["norx"].model.data, "initiative", modifier)
    ev = run([sel("trooper", sel("choppa"))], faction="norx")
    value = ev.value(ev.root, "overrun_escape")
    assert (value["initiative"], value["roll"]) == (modifier, roll)
    shown = next(v for v in ev.values_of(ev.root) if v.key == "overrun_escape").text
    assert shown.startswith(text)


def test_overrun_escape_without_a_stated_modifier(run: Any) -> None:
    ev = run([sel("trooper")])
    shown = next(v for v in ev.values_of(ev.root) if v.key == "overrun_escape").text
    assert "initiative modifier" in shown
    ev = run([sel("truck")])
    overrun = next(v for v in ev.values_of(find(ev, "truck")) if v.key == "overrun").text
    assert "initiative modifier" in overrun


def test_zero_game_size_suggests_one_size(run: Any) -> None:
    """IV-a: build points come in groups of 25; 0 BP used to suggest "e.g. 25 or 25"."""
    ev = run(limit=0)
    issue = ev.issues[ev.codes().index("smr-game-size-not-multiple-of-25")]
    assert "25 or 25" not in issue.message
    assert issue.message.endswith("e.g. 25)")
    ev = run(limit=60)
    issue = ev.issues[ev.codes().index("smr-game-size-not-multiple-of-25")]
    assert issue.message.endswith("e.g. 50 or 75)")


def test_suggested_game_sizes_can_be_typed_back(run: Any) -> None:
    """IV-a: the sizes a bad game size suggests are YAML a player can paste: "5,025" once read
    as a text (the roster unreadable); each suggestion, typed back, is a game size."""
    ev = run(limit=5010)
    issue = ev.issues[ev.codes().index("smr-game-size-not-multiple-of-25")]
    assert "game size 5,010 BP" in issue.message  # (the prose keeps its separators)
    assert issue.message.endswith("e.g. 5000 or 5025)")
    for typed in issue.message.rsplit("e.g. ", 1)[1].rstrip(")").split(" or "):
        size = YAML(typ="safe").load(f"limits: {{bp: {typed}}}")["limits"]["bp"]
        assert isinstance(size, int)
        assert "smr-game-size-not-multiple-of-25" not in run(limit=size).codes()


def test_overrun(run: Any) -> None:
    ev = run([sel("truck"), sel("skimmer"), sel("small-walker")])
    # IX-F: large ground vehicles only; AP 3, 5 points of damage, a 3 or more escapes
    assert ev.value(find(ev, "truck"), "overrun") == {"ap": 3, "damage": 5, "escape": 3}
    assert ev.value(find(ev, "skimmer"), "overrun") is None
    assert ev.value(find(ev, "small-walker"), "overrun") is None


def test_terrain_from_the_tables(run: Any) -> None:
    ev = run([sel("truck"), sel("skimmer")])
    truck = ev.value(find(ev, "truck"), "terrain")
    skimmer = ev.value(find(ev, "skimmer"), "terrain")
    assert truck == "cannot enter Shallow Water, Deep water, River, Buildings, Equipment"
    assert skimmer == "cannot enter Buildings, Equipment"
    # X says any damage; IX-B spares a Disarmed skimmer in a river or water hex: say both
    assert ev.value(find(ev, "skimmer"), "skimmer") == (
        "cannot move backwards; destroyed if damaged in Swamp, Shallow Water, Deep water, River"
        " (the terrain tables say any damage; IX-B spares a Disarmed skimmer in a river or "
        "water hex, and that is the reading used)"
    )


# --------------------------------------------------------------------------- cost breakdowns


def test_cost_breakdown(run: Any) -> None:
    sels = [
        sel(
            "platoon",
            sel("sergeant", sel("attribute"), sel("rifle"), experience="elite"),
            sel(
                "squad",
                sel("trooper", sel("rifle"), sel("attribute"), count=4),
                sel("gunner", sel("cannon")),
                experience="veteran",
            ),
        )
    ]
    ev = run(sels, limit=25)
    assert ev.issues == []
    assert ev.value(find(ev, "sergeant"), "cost") == {
        "base": 3,
        "experience": 3,
        "attributes": 0.5,
        "weapons": 0.5,
        "total": 7,
    }
    assert ev.value(find(ev, "trooper"), "cost") == {
        "base": 4,
        "experience": 0,
        "attributes": 2,
        "weapons": 2,
        "total": 8,
    }
    assert ev.value(find(ev, "squad"), "cost") == {
        "base": 6,
        "experience": 2,
        "attributes": 2,
        "weapons": 4,
        "total": 14,
    }
    assert ev.value(find(ev, "platoon"), "cost") == {
        "base": 9,
        "experience": 5,
        "attributes": 2.5,
        "weapons": 4.5,
        "total": 21,
    }
    assert ev.totals["bp"] == 21
    text = next(v for v in ev.values_of(find(ev, "trooper")) if v.key == "cost").display()
    # (a group of 4 troopers bought together, IV-d: the price of the 4, then of one)
    assert text == "8 BP for 4 (2 BP each): base 4, attributes 2, weapons 2"


def test_shown_costs_include_experience(run: Any) -> None:
    ev = run()
    for node in ev.nodes():
        cost = ev.value(node, "cost")
        if cost is not None:
            assert ev.total_cost(node)["bp"] == cost["total"]


# --------------------------------------------------------------------------- IV: formations


def test_formation_levels(run: Any) -> None:
    sels = [
        sel(
            "company",
            sel("platoon", sel("squad", sel("trooper", count=4)), count=2),
            sel("platoon", sel("squad", sel("trooper", count=4)), sel("sergeant")),
        )
    ]
    ev = run(sels)
    assert ev.issues == []
    assert ev.value(find(ev, "squad"), "formation_level") == 1
    assert ev.value(find(ev, "platoon"), "formation_level") == 2
    assert ev.value(find(ev, "company"), "formation_level") == 3
    assert ev.value(ev.root, "formations") == {
        "highest": 3,
        "levels": {"1": 3, "2": 3, "3": 1},
    }


def test_declared_formation_level_not_reached(run: Any) -> None:
    # the platoon entry says level 2; built of units only it is level 1
    ev = run([sel("platoon", sel("sergeant"))])
    assert ev.codes() == ["smr-formation-level"]
    assert not ev.issues[0].is_error


# --------------------------------------------------------------------------- VI: game length


def test_slow_basic_soldiers_double_the_turns(run: Any) -> None:
    ev = run([sel("trooper")])
    assert ev.value(ev.root, "game_length") is None
    ev = run([sel("slowpoke")])
    assert ev.value(ev.root, "game_length") == "double"


# --------------------------------------------------------------------------- catalog checks


def vehicle(*categories: str) -> dict[str, Any]:
    """A made-up vehicle entry (one move characteristic) in the categories given."""
    return {
        "id": "x",
        "name": "X",
        "categories": ["vehicle", *categories],
        "experience": True,
        "profiles": [{"type": "vehicle", "characteristics": {"move": 2}}],
    }


BAD_UNITS = [
    # (entry, what the message says)
    ({"id": "x", "name": "X", "categories": ["soldier"], "experience": True}, "`soldier` profile"),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": "fast"}}],
        },
        "move should be a whole number",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "profiles": [{"type": "soldier", "characteristics": {"move": 2}}],
        },
        "experience: true",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2, "carries": "huge"}}],
        },
        "'huge' is not a weapon size",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier", "leader"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2}}],
        },
        "a leader needs a leadership range",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2, "leadership": 2}}],
        },
        "only leaders have a leadership range",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2, "weapon": "[Lance]"}}],
        },
        "default weapon 'Lance' is no weapon",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2, "weapon": "[Cannon]"}}],
        },
        "default weapon Cannon is a heavy weapon",
    ),
    (
        vehicle("ground"),
        "exactly one size category (small or large)",
    ),
    (
        vehicle("small"),
        "exactly one motion type",
    ),
    (
        vehicle("small", "ground", "supertank"),
        "only large ground vehicles can be supertanks",
    ),
    (
        vehicle("large", "skimmer", "walker"),
        "walkers are ground vehicles",
    ),
    (
        vehicle("large", "ground", "hero"),
        "special soldier type hero belongs on a soldier",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["vehicle", "large", "ground"],
            "experience": True,
            "profiles": [{"type": "vehicle", "characteristics": {"move": 2}}],
            "entries": [
                {"id": "x-l", "name": "Left gun", "categories": ["mount", "light", "left"]}
            ],
        },
        "left mount Left gun has no right partner",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["vehicle", "large", "ground"],
            "experience": True,
            "profiles": [{"type": "vehicle", "characteristics": {"move": 2}}],
            "entries": [{"link": "attribute"}],
        },
        "only soldiers have attributes",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["weapon"],
            "profiles": [{"type": "weapon", "characteristics": {"ap": 1}}],
        },
        "exactly one size",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["weapon", "light"],
            "data": {"race": "norks"},
            "profiles": [{"type": "weapon", "characteristics": {"ap": 1}}],
        },
        "data.race 'norks' is no race of this game",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2}}],
            "entries": [{"id": "x-m", "name": "Backpack gun", "categories": ["mount", "light"]}],
        },
        "offers the weapon mount Backpack gun; mounts belong on vehicles",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["weapon", "light", "heavy"],
            "profiles": [{"type": "weapon", "characteristics": {"ap": 1}}],
        },
        "exactly one size",
    ),
    ({"id": "x", "name": "X", "categories": ["weapon", "light"]}, "AP rating"),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["weapon", "light"],
            "profiles": [{"type": "weapon", "characteristics": {"ap": -1}}],
        },
        "AP cannot be negative",
    ),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["weapon", "light"],
            "profiles": [{"type": "weapon", "characteristics": {"ap": 1, "range": "far"}}],
        },
        "range should be a whole number",
    ),
    (
        {"id": "x", "name": "X", "categories": ["mount", "left"]},
        "a weapon mount needs exactly one size",
    ),
    ({"id": "x", "name": "X", "categories": ["soldier", "vehicle"]}, "an entry is one of"),
    ({"id": "x", "name": "X", "categories": ["team"]}, "a team records experience"),
    ({"id": "x", "name": "X", "categories": ["trooper-ish", "light"]}, None),
    (
        {
            "id": "x",
            "name": "X",
            "categories": ["formation"],
            "experience": True,
            "data": {"level": 0},
        },
        "formation level should be 1 or more",
    ),
]


@pytest.mark.parametrize(("entry", "message"), BAD_UNITS, ids=lambda v: str(v)[:40])
def test_bad_custom_units_are_reported(
    run: Any, entry: dict[str, Any], message: str | None
) -> None:
    custom = copy.deepcopy(CUSTOM)
    custom["shared_entries"].append(entry)
    ev = run(custom=custom)
    assert ev.codes()[0] == "invalid-custom-entry"
    if message is not None:
        assert any(message in i.message for i in ev.issues), [i.message for i in ev.issues]


def test_a_weapon_size_category_on_a_soldier(run: Any) -> None:
    custom = copy.deepcopy(CUSTOM)
    custom["shared_entries"].append(
        {
            "id": "x",
            "name": "X",
            "categories": ["soldier", "heavy"],
            "experience": True,
            "profiles": [{"type": "soldier", "characteristics": {"move": 2}}],
        }
    )
    ev = run(custom=custom)
    # the custom entries are left out, so the roster's selections are unknown too
    assert ev.codes()[0] == "invalid-custom-entry"
    assert ev.codes().count("invalid-custom-entry") == 1
    assert "weapon size heavy belongs on a weapon or a weapon mount" in ev.issues[0].message


def test_the_test_units_are_clean(system: GameSystem, tmp_path: Path) -> None:
    # the same units as a user catalog: no problems, and check-catalog finds none
    folder = tmp_path / "user" / "starmarines"
    folder.mkdir(parents=True)
    path = folder / "mine.yaml"
    path.write_text(
        "kind: catalog\nid: mine\nsystem: starmarines\nextends: starmarines\nname: Mine\n" + UNITS,
        encoding="utf-8",
    )
    lib = Library([system.path.parent.parent, tmp_path / "user"], use_cache=False).scan()
    assert lib.problems == []
    assert check_paths([path], lib) == []


def test_check_catalog_reports_file_and_line(system: GameSystem, tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        "kind: catalog\n"
        "id: mine\n"
        "system: starmarines\n"
        "extends: norx\n"
        "name: Mine\n"
        "entries:\n"
        "  - id: trike\n"
        "    name: Trike\n"
        "    experience: true\n"
        "    categories: [vehicle, small, ground, supertank]\n"
        "    profiles: [{type: vehicle, characteristics: {move: 3}}]\n",
        encoding="utf-8",
    )
    lib = Library([system.path.parent.parent], use_cache=False).scan()
    (problem,) = check_paths([path], lib)
    assert problem.line == 10
    assert "Trike: only large ground vehicles can be supertanks" in problem.message


BAD_BIKE = """\
kind: catalog
id: mine
system: starmarines
extends: starmarines
name: Mine
entries:
  - id: bike
    name: Bike
    experience: true
    categories: [vehicle, small]
    profiles: [{type: vehicle, characteristics: {move: 3}}]
    entries: [{link: attribute}]
"""


def test_bad_units_in_an_extension_are_never_silent(system: GameSystem, tmp_path: Path) -> None:
    folder = tmp_path / "user" / "starmarines"
    folder.mkdir(parents=True)
    (folder / "mine.yaml").write_text(BAD_BIKE, encoding="utf-8")
    lib = Library([system.path.parent.parent, tmp_path / "user"], use_cache=False).scan()
    gs = lib.system("starmarines")
    if lib.problems:
        # the library runs the rules module over extensions and leaves a broken one out
        assert {p.line for p in lib.problems} == {10, 12}
        assert any("exactly one motion type" in p.message for p in lib.problems)
        assert gs.index("starmarines").child(None, "bike") is None
    else:
        # a library that does not lint extensions: the roster reports the unit's problems
        text = roster_text([sel("bike", sel("attribute"))], custom={})
        ev = evaluate_roster(Roster.from_text(text), gs)
        assert "smr-invalid-unit-data" in ev.codes()


def test_bad_unit_data_reaching_a_roster_is_reported(system: GameSystem) -> None:
    # Evaluated without the catalog lint (the engine's plain `evaluate`), as data from a
    # catalog that was never checked would be: the module reports it itself.
    custom = CustomCatalog.model_validate(YAML(typ="safe").load(BAD_BIKE.split("name: Mine\n")[1]))
    text = roster_text([sel("bike", sel("attribute"))], custom={})
    roster = Roster.from_text(text, round_trip=False)
    ev = evaluate(roster, system.index_with("starmarines", custom), system.rules)
    assert ev.codes() == [
        "smr-invalid-unit-data",
        "smr-invalid-unit-data",
        "smr-attribute-not-soldier",
    ]
    messages = [i.message for i in ev.issues]
    assert "Bike (bike): a vehicle needs exactly one motion type" in messages[0] + messages[1]
    assert any("only soldiers have attributes" in m for m in messages)
    assert (
        messages[2]
        == "Bike > Soldier attribute: attributes are bought for individual soldiers only"
    )


# --------------------------------------------------------------------------- enemy weapons


NORX_BOOK = """\
kind: catalog
id: my-norx
system: starmarines
extends: norx
name: My Norx book
shared_entries:
  - {id: nx-pistol, name: Norx pistol, categories: [weapon, light],
     profiles: [{type: weapon, characteristics: {ap: 0}}]}
  - {id: nx-choppa, name: Choppa, categories: [weapon, light],
     profiles: [{type: weapon, characteristics: {ap: 1, range: 1}}]}
  - {id: nx-big-gun, name: Big gun, categories: [weapon, medium],
     profiles: [{type: weapon, characteristics: {ap: 2}}]}
  - {id: nx-cannon, name: Heavy cannon, categories: [weapon, heavy],
     profiles: [{type: weapon, characteristics: {ap: 3}}]}
"""


def test_immunity_lists_the_installed_enemy_weapons(system: GameSystem, tmp_path: Path) -> None:
    folder = tmp_path / "user" / "starmarines"
    folder.mkdir(parents=True)
    (folder / "norx-book.yaml").write_text(NORX_BOOK, encoding="utf-8")
    lib = Library([system.path.parent.parent, tmp_path / "user"], use_cache=False).scan()
    assert lib.problems == []
    gs = lib.system("starmarines")
    text = roster_text([sel("tank"), sel("large-walker"), sel("truck")])
    ev = evaluate_roster(Roster.from_text(text), gs)
    assert ev.value(find(ev, "tank"), "immunity") == {
        "max_ap": 1,
        "weapons": {"Norx": ["Norx pistol", "Choppa"]},
    }
    assert ev.value(find(ev, "large-walker"), "immunity") == {
        "max_ap": 2,
        "weapons": {"Norx": ["Norx pistol", "Choppa", "Big gun"]},
    }
    text = next(v for v in ev.values_of(find(ev, "tank")) if v.key == "immunity").display()
    assert text == (
        "weapons of AP 1 or less — installed enemy weapons it ignores: "
        "Norx: Norx pistol (AP 0), Choppa (AP 1)"
    )
    # a Norx army's own vehicles are not immune to their own weapons by this list
    text = roster_text([sel("tank")], faction="norx")
    ev = evaluate_roster(Roster.from_text(text), gs)
    assert ev.value(find(ev, "tank"), "immunity")["weapons"] == {}


# --------------------------------------------------------------------------- parsing units


def test_parsers() -> None:
    assert parse_whole("+1", "aim", signed=True) == 1
    assert parse_whole("−1", "aim", signed=True) == -1
    assert parse_whole(3.0, "move") == 3
    with pytest.raises(ProfileSyntaxError):
        parse_whole(True, "move")
    with pytest.raises(ProfileSyntaxError):
        parse_whole("-1", "move")
    assert parse_range("2-5") == (2, 5)
    assert parse_range(1) == (0, 1)
    assert parse_range("–") is None
    with pytest.raises(ProfileSyntaxError):
        parse_range("5-2")
    w = weapon_stats("Axe", ["weapon", "light"], {"ap": 1, "range": 1}, {})
    assert w.close_combat and w.size == 0
    s = soldier_stats({"move": 2, "carries": "Medium", "weapon": "[Autogun]"}, False)
    assert (s.carries, s.weapon) == (1, "Autogun")
    assert soldier_stats({"move": 2}, False).carries == 0  # light unless told
    assert soldier_stats({"move": 2, "carries": "none"}, False).carries == -1
    assert vehicle_stats(["vehicle", "small", "ground"], {"move": 3}).carries == 2  # heavy


def test_immunity_and_damage_functions() -> None:
    def v(size: str, kind: str | None) -> VehicleStats:
        return VehicleStats(size, "ground", kind, 2, 2)

    assert immunity(v("large", "supertank")) == 1
    assert immunity(v("small", "walker")) == 1
    assert immunity(v("large", "walker")) == 2
    assert immunity(v("large", None)) is None
    rows = [
        {"roll": i, "result": r}
        for i, r in enumerate(
            ["Stunned", "Stunned", "Disarmed", "Crippled", "Destroyed", "Destroyed"], start=1
        )
    ]
    assert damage_results(rows, 1)[1] == "Stunned"  # never below 1
    assert damage_results(rows, 1)[6] == "Destroyed"
    assert damage_results(rows, 1)[5] == "Crippled"
