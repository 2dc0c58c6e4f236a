"""Starship Troopers rosters: examples, Value limits, trait interactions, user content.

Rules text: shared/seeds/000_0a053458e8c4e0e5.txt (Characteristics: Value; Type (Crew);
Weapon Traits (Underslung); Munition Delivery Modes). The code under test is
armybuilder/rules/systems/starship_troopers.py with catalogs/starship-troopers/.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.cli import main
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate_roster
from armybuilder.rules.engine import Node

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "starship-troopers"
DOC = REPO / "docs" / "systems" / "starship-troopers.md"
SYSTEM = "starship-troopers"


def run(library: Library, text: str) -> Evaluation:
    roster = Roster.from_text(text, "<test>")
    return evaluate_roster(roster, library.system(roster.system))


def example(library: Library, name: str) -> Evaluation:
    roster = Roster.from_file(EXAMPLES / name)
    return evaluate_roster(roster, library.system(roster.system))


def value_text(ev: Evaluation, node: Node, key: str) -> str:
    return next(v.display() for v in ev.values_of(node) if v.key == key)


# =========================================================================== examples


def test_example_mi_squad(library: Library) -> None:
    ev = example(library, "mi-squad.yaml")
    assert ev.issues == []
    assert ev.totals["value"] == 6 * 30
    squad = ev.root.children[0]
    assert ev.value(squad, "models") == 6
    trooper = squad.children[0]
    assert value_text(ev, trooper, "profile") == (
        'Value 30, Size 1, Move 4", Close Combat D6, Target 4+, Save 4+, Kill 7+; Jump/12"'
    )
    assert ev.value(ev.root, "opponents")["profiles"] == ["arachnid-warrior"]
    keys = [v.key for v in ev.values_of(squad) if v.key.startswith("damage.")]
    assert keys == [
        "damage.cap-trooper.close-combat.arachnid-warrior",
        "damage.morita-assault-rifle.arachnid-warrior",
    ]


def test_example_arachnid_swarm(library: Library) -> None:
    ev = example(library, "arachnid-swarm.yaml")
    assert ev.issues == []
    assert ev.totals["value"] == 10 * 15
    assert ev.value(ev.root, "models") == 10
    first = ev.root.children[0]
    keys = [v.key for v in ev.values_of(first) if v.key.startswith("damage.")]
    assert keys == [
        "damage.arachnid-warrior.close-combat-1.cap-trooper",
        "damage.arachnid-warrior.close-combat-2.cap-trooper",
    ]


def test_example_with_own_units(library: Library) -> None:
    ev = example(library, "mi-with-own-units.yaml")
    assert ev.issues == []
    assert ev.totals["value"] == 40 + 35 + 35 + 2 * 30
    team = ev.root.children[0]
    assert ev.value(team, "models") == 5
    sergeant = team.children[0]
    assert ev.value(sergeant, "traits") == ["Independent", 'Jump/12"']
    rules = ev.value(sergeant, "weapon_rules")
    assert set(rules) >= {"Squad", "Auto", "Pack", "Underslung", 'LZ (2")'}


@pytest.mark.parametrize("name", ["mi-squad.yaml", "arachnid-swarm.yaml", "mi-with-own-units.yaml"])
def test_examples_validate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLES / name)]) == 0


def test_show_reads_well(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(EXAMPLES / "mi-squad.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Starship Troopers · Mobile Infantry · Legal" in out
    assert "Value 180 (Value limit 200)" in out
    assert (
        "TW-203-a Morita Assault Rifle vs Arachnid Warrior: 2xD6: hits 0/1/2 = 44.4/44.4/11.1%; "
        "casualties avg 0.333 (≥1 30.6%, ≥2 2.8%); 6 firing: avg 2 (≥1 88.8%" in out
    )
    assert "Saves: armour 4+ against a hit; no save against a Kill result" in out
    assert 'Traits: Jump/12": special Jump move of up to 12"' in out
    assert "Traceback" not in out


def test_show_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--format", "json", str(EXAMPLES / "arachnid-swarm.yaml")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["value"] == 150
    values = data["units"][0]["values"]
    claws = values["damage.arachnid-warrior.close-combat-1.cap-trooper"]["value"]
    assert claws["expected_kills"] == {"p": 1.0, "exact": "1"}
    assert [x["exact"] for x in claws["at_least"]] == ["3/4", "1/4"]


# =========================================================================== Value


def test_total_value_against_the_limit(library: Library) -> None:
    roster = Roster.new(SYSTEM, "mobile-infantry", "Too big", limits={"value": 150})
    index = library.system(SYSTEM).index("mobile-infantry")
    squad = add_entry(roster, index, (), "mi-squad")
    add_entry(roster, index, squad, "cap-trooper", count=6)
    ev = evaluate_roster(roster, library.system(SYSTEM))
    assert ev.codes() == ["cost-limit-exceeded"]
    assert ev.issues[0].message == "Value 180 is over the limit of 150 by 30"
    # the trooper came with its default Morita
    trooper = ev.root.children[0].children[0]
    assert [c.entry_id for c in trooper.children] == ["morita-assault-rifle"]


def test_empty_unit(library: Library) -> None:
    ev = run(
        library,
        "format: 1\nsystem: starship-troopers\nfaction: arachnids\nname: x\n"
        "selections:\n  - entry: warrior-bugs\n",
    )
    assert ev.codes() == ["min-not-met"]


# =========================================================================== trait interactions

HEADER = """\
format: 1
system: starship-troopers
faction: mobile-infantry
name: Checks
custom:
  shared_entries:
    - id: t-trooper
      name: Test Trooper
      type: model
      categories: [trooper]
      costs: {value: 30}
      profiles:
        - type: model
          characteristics: {value: 30, size: 1, move: 4", close-combat: D6, target: 4+,
                            save: 4+, kill: 7+}
      entries:
        - link: morita-assault-rifle
        - link: t-crew-gun
        - link: t-ugl
        - link: t-ugl-morita
        - link: t-rifle
        - link: t-grenade
        - link: t-grenade-or-thrown
        - link: t-launcher
    - id: t-crew-gun
      name: Test crew gun
      categories: [weapon]
      profiles:
        - {type: weapon, characteristics: {range: 30", damage: 3xD6, type: Crew}}
    - id: t-ugl
      name: Test underslung launcher
      categories: [weapon]
      profiles:
        - {type: weapon, characteristics: {range: 20", damage: 2xD6, type: Pack,
                                           traits: Underslung}}
    - id: t-ugl-morita
      name: Test Morita launcher
      categories: [weapon]
      data: {attached_to: [morita-assault-rifle]}
      profiles:
        - {type: weapon, characteristics: {range: 20", damage: 2xD6, type: Pack,
                                           traits: Underslung}}
    - id: t-rifle
      name: Test rifle
      categories: [weapon]
      profiles:
        - {type: weapon, characteristics: {range: 20", damage: 2xD6, type: Squad}}
      entries:
        - link: t-ugl
        - link: t-ugl-morita
    - id: t-grenade
      name: Test rocket
      categories: [weapon]
      profiles:
        - {type: weapon, characteristics: {range: Launched 30" (Test launcher), damage: 2xD6,
                                           type: One-Shot!}}
    - id: t-grenade-or-thrown
      name: Test grenade
      categories: [weapon]
      profiles:
        - {type: weapon, characteristics: {range: "Launched 30\\" (Test launcher), Thrown 8\\"",
                                           damage: 2xD6, type: Pack}}
    - id: t-launcher
      name: Test launcher
      categories: [weapon]
      profiles:
        - {type: weapon, characteristics: {range: 30", damage: D6, type: Pack}}
  entries:
    - id: t-unit
      name: Test unit
      type: unit
      categories: [unit]
      entries:
        - link: t-trooper
selections:
"""


def trooper(*weapons: str, count: int = 1, nested: dict[str, list[str]] | None = None) -> str:
    lines = ["      - entry: t-trooper", f"        count: {count}", "        selections:"]
    for w in weapons:
        lines.append(f"          - entry: {w}")
        for sub in (nested or {}).get(w, []):
            lines.append(f"            selections: [{{entry: {sub}}}]")
    return "\n".join(lines) + "\n"


def unit(*troopers: str) -> str:
    return "  - entry: t-unit\n    selections:\n" + "".join(troopers)


def codes(ev: Evaluation) -> list[str]:
    return [i.code for i in ev.issues]


def test_crew_weapon_alone_counts_as_pack(library: Library) -> None:
    ev = run(library, HEADER + unit(trooper("t-crew-gun")))
    assert codes(ev) == ["st-crew-as-pack"]
    issue = ev.issues[0]
    assert issue.severity == "warning"
    assert issue.message == (
        "Test unit has no second model to help with its Crew weapon (Test crew gun): it counts "
        "as a Pack weapon (fires once per turn, not in Shoot reactions)"
    )
    assert "Crew" in issue.source


def test_crew_weapon_with_a_helper(library: Library) -> None:
    ev = run(library, HEADER + unit(trooper("t-crew-gun"), trooper("morita-assault-rifle")))
    assert codes(ev) == []


def test_two_crew_weapons_and_two_models(library: Library) -> None:
    ev = run(library, HEADER + unit(trooper("t-crew-gun", count=2)))
    assert codes(ev) == ["st-crew-as-pack"]
    assert "2 Crew weapon(s) (Test crew gun) but only 0 other model(s) to help" in (
        ev.issues[0].message
    )
    ev = run(library, HEADER + unit(trooper("t-crew-gun", count=2), trooper("t-launcher", count=1)))
    assert "1 count(s) as a Pack weapon" in ev.issues[0].message


def test_underslung_without_main_weapon(library: Library) -> None:
    ev = run(library, HEADER + unit(trooper("t-ugl")))
    assert codes(ev) == ["st-underslung-without-weapon"]
    assert ev.issues[0].message == (
        "Test unit > Test Trooper > Test underslung launcher is an Underslung weapon, but "
        "Test Trooper has no main weapon for it to be fitted to"
    )
    assert ev.issues[0].severity == "error"


def test_underslung_beside_a_main_weapon(library: Library) -> None:
    assert codes(run(library, HEADER + unit(trooper("morita-assault-rifle", "t-ugl")))) == []


def test_underslung_fitted_to_its_main_weapon(library: Library) -> None:
    text = HEADER + unit(trooper("t-rifle", nested={"t-rifle": ["t-ugl"]}))
    assert codes(run(library, text)) == []


def test_underslung_needs_the_weapon_it_fits(library: Library) -> None:
    # data.attached_to names the main weapons it fits: a Test rifle is not a Morita.
    ev = run(library, HEADER + unit(trooper("t-rifle", "t-ugl-morita")))
    assert codes(ev) == ["st-underslung-without-weapon"]
    assert ev.issues[0].message.endswith("(it fits: TW-203-a Morita Assault Rifle)")
    ev = run(library, HEADER + unit(trooper("t-rifle", nested={"t-rifle": ["t-ugl-morita"]})))
    assert codes(ev) == ["st-underslung-without-weapon"]
    assert codes(run(library, HEADER + unit(trooper("morita-assault-rifle", "t-ugl-morita")))) == []


def test_launched_munition_needs_its_launcher(library: Library) -> None:
    ev = run(library, HEADER + unit(trooper("t-grenade")))
    assert codes(ev) == ["st-launcher-missing"]
    assert ev.issues[0].severity == "error"
    assert "can only be launched from a Test launcher" in ev.issues[0].message
    ev = run(library, HEADER + unit(trooper("t-grenade-or-thrown")))
    assert codes(ev) == ["st-launcher-missing"]
    assert ev.issues[0].severity == "warning"
    assert ev.issues[0].message.endswith('it can still be used as Thrown 8"')
    assert codes(run(library, HEADER + unit(trooper("t-grenade", "t-launcher")))) == []


def test_weapon_not_carried_by_a_model(library: Library) -> None:
    text = (
        HEADER.replace(
            "      entries:\n        - link: t-trooper\n",
            "      entries:\n        - link: t-trooper\n        - link: t-launcher\n",
        )
        + "  - entry: t-unit\n    selections:\n      - entry: t-launcher\n"
    )
    ev = run(library, text)
    assert codes(ev) == ["st-weapon-without-model"]


def test_parry_size_limit(library: Library) -> None:
    text = HEADER.replace(
        "type: Pack}}\n  entries:",
        "type: Pack, traits: Parry}}\n  entries:",
    )
    ev = run(library, text + unit(trooper("t-launcher")))
    row = ev.value(ev.root.children[0], "damage.t-launcher.arachnid-warrior")
    # a Size 1 trooper parries models up to Size 2: the Warrior (Size 2) is within reach
    assert "Parry works against it" in row["notes"]


# =========================================================================== custom mistakes


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("save: 4+,", "Test Trooper: save '4' should read like"),
        ("costs: {value: 30}", "Test Trooper: costs value 35 but the profile's Value is 30"),
        ("damage: 3xD6, type: Crew", "Test crew gun: unknown weapon type 'Crw'"),
    ],
)
def test_bad_custom_profiles_are_issues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, message: str
) -> None:
    bad = {
        "save: 4+,": "save: 4,",
        "costs: {value: 30}": "costs: {value: 35}",
        "damage: 3xD6, type: Crew": "damage: 3xD6, type: Crw",
    }[change]
    text = (HEADER + unit(trooper("morita-assault-rifle"))).replace(change, bad, 1)
    path = tmp_path / "roster.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    row = next(i for i, x in enumerate(text.splitlines(), 1) if bad in x)
    assert re.search(rf"{re.escape(str(path))}:{row}:\d+: .*\[invalid-custom-entry\]", out), out
    assert message in out


# =========================================================================== user catalogs

BUG_BOOK = """\
kind: catalog
id: my-bugs
system: starship-troopers
extends: arachnids
name: My bug book
entries:
  - id: big-bugs
    name: Big bugs
    type: unit
    categories: [unit]
    entries:
      - link: big-bug
shared_entries:
  - id: big-bug
    name: Example Big Bug
    type: model
    categories: [bug]
    costs: {value: 100}
    profiles:
      - type: model
        characteristics:
          value: 100
          size: 4
          move: 6"
          close-combat: 3xD6+2
          target: 4+
          save: 5+
          kill: 7+
          traits: Hits/3, No Flinch, Retaliate
"""


def user_library(tmp_path: Path, text: str, name: str = "my-bugs.yaml") -> Library:
    folder = tmp_path / "user" / SYSTEM
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return Library([*default_roots(), tmp_path / "user"], use_cache=False).scan()


def test_user_bugs_join_the_damage_table(tmp_path: Path) -> None:
    lib = user_library(tmp_path, BUG_BOOK)
    assert lib.problems == []
    roster = Roster.from_file(EXAMPLES / "mi-squad.yaml")
    ev = evaluate_roster(roster, lib.system(SYSTEM))
    assert ev.value(ev.root, "opponents")["profiles"] == ["arachnid-warrior", "big-bug"]
    squad = ev.root.children[0]
    row = ev.value(squad, "damage.morita-assault-rifle.big-bug")
    # 2xD6 vs Target 4+, Kill 7+ (out of reach), armour 5+: a die costs a hit with
    # 3/6 · 4/6 = 1/3. Two dice lose at most 2 of its 3 hits: never removed by one attack.
    c = F(1, 3)
    lost = {int(x["n"]): F(x["exact"]) for x in row["hits_lost"]}
    assert lost == {0: (1 - c) ** 2, 1: 2 * c * (1 - c), 2: c**2}
    assert {int(x["n"]): F(x["exact"]) for x in row["kills"]} == {0: F(1)}
    # six Moritas at the one Big Bug: 12 dice, removed once 3 hits are lost
    removed = 1 - sum(
        F(12 * 11 // 2 if k == 2 else (12 if k == 1 else 1)) * c**k * (1 - c) ** (12 - k)
        for k in (0, 1, 2)
    )
    vol = {int(x["n"]): F(x["exact"]) for x in row["volley"]["kills"]}
    assert vol[1] == removed
    assert "it retaliates if a Kill result removes it" in row["notes"]
    assert "Hits/3: all dice into one model" in row["notes"]
    text = value_text(ev, squad, "damage.morita-assault-rifle.big-bug")
    assert "hits lost avg 0.667, removes it 0%; 6 firing at one: hits lost avg 4" in text
    # and the bugs' own rosters see them too
    bugs = lib.system(SYSTEM).index("arachnids")
    assert bugs.child(None, "big-bugs") is not None


def test_broken_enemy_profile_is_left_out(tmp_path: Path) -> None:
    # An extension whose profile the rules module rejects is left out when the library loads
    # (its problem is listed with file and line); the damage table only shows sound profiles.
    lib = user_library(tmp_path, BUG_BOOK.replace("save: 5+", "save: 5"))
    assert len(lib.problems) == 1
    assert lib.problems[0].line is not None
    ev = evaluate_roster(Roster.from_file(EXAMPLES / "mi-squad.yaml"), lib.system(SYSTEM))
    assert ev.value(ev.root, "opponents")["profiles"] == ["arachnid-warrior"]


# =========================================================================== the docs' example


def doc_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL)


def test_docs_worked_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocks = doc_blocks()
    catalog = next(b for b in blocks if "extends: mobile-infantry" in b)
    roster_text = next(b for b in blocks if "format: 1" in b and "my-" in b)
    lib = user_library(tmp_path, catalog, "my-army-book.yaml")
    assert lib.problems == []
    path = tmp_path / "user" / SYSTEM / "my-army-book.yaml"
    assert main(["check-catalog", str(path)]) == 0
    ev = evaluate_roster(Roster.from_text(roster_text), lib.system(SYSTEM))
    assert ev.issues == []
    assert any(v.key.startswith("damage.") for n in ev.nodes() for v in ev.values_of(n))


def test_docs_list_every_issue_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    src = (REPO / "armybuilder" / "rules" / "systems" / "starship_troopers.py").read_text()
    used = set(re.findall(r'"(st-[a-z-]+)"', src))
    assert used
    missing = sorted(c for c in used if c not in text)
    assert not missing, missing


def test_broken_own_extension_is_reported(tmp_path: Path) -> None:
    # The docs' army book with a typo in a trait: the library lists the problem with its line
    # and leaves the book out; a roster using its units says they are unknown (kept in the
    # file), instead of reading the typo as a silent string.
    catalog = next(b for b in doc_blocks() if "extends: mobile-infantry" in b)
    lib = user_library(tmp_path, catalog.replace('traits: Jump/12"', "traits: Jmp/12"))
    (problem,) = lib.problems
    assert "unknown trait 'Jmp/12' (did you mean 'Jump/12\"'?)" in problem.message
    assert problem.line is not None
    roster_text = next(b for b in doc_blocks() if "format: 1" in b and "my-" in b)
    ev = evaluate_roster(Roster.from_text(roster_text), lib.system(SYSTEM))
    # ... and why: the extension of its own faction was left out
    assert set(codes(ev)) == {"unknown-entry", "catalog-extension-dropped"}


def test_a_broken_enemy_extension_is_reported_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Characteristics: a profile that does not read cannot join the damage tables. An
    extension of the enemy faction with such a profile is left out when the catalogs load; an
    MI roster whose damage tables therefore lack that enemy must say so (it used to validate
    clean), in validate and in show."""
    broken = BUG_BOOK.replace("target: 4+", "target: four")
    lib = user_library(tmp_path, broken)
    assert lib.problems  # the catalog problem itself, with its file
    ev = evaluate_roster(Roster.from_file(EXAMPLES / "mi-squad.yaml"), lib.system(SYSTEM))
    assert ev.value(ev.root, "opponents")["profiles"] == ["arachnid-warrior"]
    warnings = [i for i in ev.warnings if i.code == "st-enemy-profile-unreadable"]
    assert len(warnings) == 1
    assert "my-bugs.yaml" in warnings[0].message
    user = str(tmp_path / "user")
    for command in (["validate"], ["show"]):
        main([*command, "--catalogs", user, str(EXAMPLES / "mi-squad.yaml")])
        out = capsys.readouterr().out
        assert "st-enemy-profile-unreadable" in out and "my-bugs.yaml" in out, command


def test_a_broken_extension_of_the_roster_faction_is_reported(tmp_path: Path) -> None:
    """A roster of the faction the broken file extends is warned that its units are missing."""
    broken = BUG_BOOK.replace("target: 4+", "target: four")
    lib = user_library(tmp_path, broken)
    ev = evaluate_roster(Roster.from_file(EXAMPLES / "arachnid-swarm.yaml"), lib.system(SYSTEM))
    (issue,) = [i for i in ev.warnings if i.code == "catalog-extension-dropped"]
    assert "my-bugs.yaml" in issue.message and "Arachnids" in issue.message


def test_an_enemy_extension_that_does_not_even_parse_is_reported(tmp_path: Path) -> None:
    """A YAML mistake in the bug book: the file never loads, and the MI damage tables say that
    an Arachnids extension is missing (with the file and line of the mistake)."""
    broken = BUG_BOOK.replace("    entries:\n      - link: big-bug", "    entries: [\n")
    lib = user_library(tmp_path, broken)
    assert lib.problems and lib.problems[0].line is not None
    ev = evaluate_roster(Roster.from_file(EXAMPLES / "mi-squad.yaml"), lib.system(SYSTEM))
    (issue,) = [i for i in ev.warnings if i.code == "st-enemy-profile-unreadable"]
    assert "my-bugs.yaml" in issue.message
    own = evaluate_roster(Roster.from_file(EXAMPLES / "arachnid-swarm.yaml"), lib.system(SYSTEM))
    assert "catalog-extension-dropped" in [i.code for i in own.warnings]
