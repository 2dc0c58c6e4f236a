"""The Space Hulk checks and computed values, against the rules text.

Rules text: shared/seeds/002_1ab427bfcca8a42b.txt (Space Hulk house rules). Expected numbers
are worked out here from the text's figures (Table 2 dice and kills-on, "Sustain": +1 per die
for each further shot, "Jam": doubles on overwatch, "Assault Cannon": triples on overwatch), as
fractions, and where useful re-derived by brute-force enumeration of every roll, independently
of the module. Squads are built programmatically (Roster.new + Roster.add) and evaluated with
the bundled catalogs; the example rosters are evaluated as shipped.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from ruamel.yaml import YAML

from armybuilder.catalog import CatalogIndex, Faction, GameSystem, Library
from armybuilder.cli import main
from armybuilder.editing import add_entry
from armybuilder.model.catalog import CatalogFile, FactionFile, SystemFile
from armybuilder.rosters import Loc, Roster
from armybuilder.rules import Evaluation
from armybuilder.rules.engine import Node
from armybuilder.rules.systems.space_hulk import (
    RULES,
    ProfileSyntaxError,
    any_of,
    die_chance,
    kill_chance,
    overwatch_odds,
    parse_assault,
    parse_chance,
    parse_kills_on,
    parse_notes,
    parse_range,
    salvo_kill_chance,
    sustained_fire,
)

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "space-hulk"
CATALOG_DIR = REPO / "catalogs" / "space-hulk"
SYSTEM = "space-hulk"
FACTION = "terminators"

Evaluate = Callable[[Roster], Evaluation]
# A model: (entry id, custom name, [weapon id or (weapon id, count)], optional state)
Weapon = str | tuple[str, int]
Model = tuple[str, str | None, list[Weapon]]

STANDARD: list[Model] = [
    ("sergeant", "Sergeant Lorenzo", ["storm-bolter", "power-sword"]),
    ("terminator", "Brother Leon", ["assault-cannon", "power-fist"]),
    ("terminator", "Brother Zael", ["heavy-flamer", "power-fist"]),
    ("terminator", "Brother Deino", ["storm-bolter", "power-fist"]),
    ("terminator", "Brother Goriel", ["storm-bolter", "power-fist"]),
    ("terminator", "Brother Noctis", ["storm-bolter", "power-fist"]),
]
GORIEL = 4  # index of a plain storm bolter / power fist Terminator in STANDARD


# --------------------------------------------------------------------------- building


def new_roster() -> Roster:
    return Roster.new(SYSTEM, FACTION, "Test")


def add_models(roster: Roster, parent: Loc, models: Sequence[Model]) -> list[Loc]:
    locs = []
    for entry, name, weapons in models:
        loc = roster.add(parent, entry, name=name)
        for w in weapons:
            wid, count = (w, 1) if isinstance(w, str) else w
            roster.add(loc, wid, count=count)
        locs.append(loc)
    return locs


def squad_roster(
    models: Sequence[Model] = STANDARD, squad: str = "terminator-squad", name: str = "2nd Squad"
) -> Roster:
    roster = new_roster()
    loc = roster.add((), squad, name=name)
    add_models(roster, loc, models)
    return roster


def with_weapons(
    index: int, weapons: list[Weapon], models: Sequence[Model] = STANDARD
) -> list[Model]:
    out = list(models)
    entry, name, _ = out[index]
    out[index] = (entry, name, weapons)
    return out


def find(ev: Evaluation, name: str) -> Node:
    for n in ev.nodes():
        if ev.name(n) == name:
            return n
    raise KeyError(name)


def codes(ev: Evaluation) -> list[str]:
    return [i.code for i in ev.issues]


def F(text: Any) -> Fraction:
    return Fraction(str(text))


def enumerate_kill(dice: int, kills_on: int, bonus: int = 0) -> Fraction:
    """Brute force: the share of all rolls in which some die + bonus reaches kills_on."""
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return Fraction(sum(any(d + bonus >= kills_on for d in r) for r in rolls), len(rolls))


# =========================================================================== probabilities


def test_storm_bolter_one_shot() -> None:
    # Table 2: Storm Bolter 2d6, kills on 6+ -> 1 - (5/6)^2
    assert kill_chance(2, 6) == 1 - Fraction(5, 6) ** 2 == Fraction(11, 36)
    assert enumerate_kill(2, 6) == Fraction(11, 36)


def test_assault_cannon_one_shot() -> None:
    # Table 2: Assault Cannon 3d6, kills on 5+ -> 1 - (2/3)^3
    assert kill_chance(3, 5) == 1 - Fraction(2, 3) ** 3 == Fraction(19, 27)
    assert enumerate_kill(3, 5) == Fraction(19, 27)


@pytest.mark.parametrize(
    ("dice", "kills_on", "expected"),
    [
        (1, 6, Fraction(1, 6)),  # bolt gun
        (1, 2, Fraction(5, 6)),  # cyclone missile, flamers
        (2, 6, Fraction(11, 36)),  # heavy bolter
    ],
)
def test_other_weapons_one_shot(dice: int, kills_on: int, expected: Fraction) -> None:
    assert kill_chance(dice, kills_on) == expected == enumerate_kill(dice, kills_on)


def test_sustained_fire_storm_bolter() -> None:
    """ "Sustain": each shot after the first adds a cumulative +1 on all dice; 2d6 needing 6
    then needs 5, 4, 3, 2, and from the sixth shot any roll kills."""
    expected = [
        1 - Fraction(5, 6) ** 2,  # 11/36
        1 - Fraction(4, 6) ** 2,  # 5/9
        1 - Fraction(3, 6) ** 2,  # 3/4
        1 - Fraction(2, 6) ** 2,  # 8/9
        1 - Fraction(1, 6) ** 2,  # 35/36
        Fraction(1),
    ]
    assert sustained_fire(2, 6) == expected
    assert [str(p) for p in expected] == ["11/36", "5/9", "3/4", "8/9", "35/36", "1"]
    assert expected == [enumerate_kill(2, 6, bonus) for bonus in range(6)]


def test_sustained_fire_bolt_gun() -> None:
    assert sustained_fire(1, 6) == [Fraction(k, 6) for k in range(1, 7)]


def test_die_chance_is_bounded() -> None:
    assert die_chance(6, 0) == Fraction(1, 6)
    assert die_chance(6, 5) == 1
    assert die_chance(6, 9) == 1
    assert die_chance(8, 0) == 0


def test_storm_bolter_overwatch_jam() -> None:
    """ "Jam": doubles on the to-hit dice during overwatch; a double 6 still kills first."""
    odds = overwatch_odds(2, 6, stops_on=2)
    assert odds.stop == Fraction(6, 36) == Fraction(1, 6)
    assert odds.kill == Fraction(11, 36)
    assert odds.kill_and_stop == Fraction(1, 36)  # double 6
    assert odds.kill_without_stop == Fraction(10, 36)
    assert odds.stop_without_kill == Fraction(5, 36)


def test_assault_cannon_overwatch_explosion() -> None:
    """Assault Cannon: triples on overwatch jam and blow it up."""
    odds = overwatch_odds(3, 5, stops_on=3)
    assert odds.stop == Fraction(6, 216) == Fraction(1, 36)
    assert odds.kill == Fraction(19, 27)
    assert odds.kill_and_stop == Fraction(2, 216) == Fraction(1, 108)  # triple 5 or triple 6


def test_weapons_that_never_stop() -> None:
    odds = overwatch_odds(1, 6, stops_on=None)  # bolt gun: one die, no Jam
    assert (odds.kill, odds.stop) == (Fraction(1, 6), Fraction(0))
    assert overwatch_odds(1, 6, stops_on=2).stop == 0  # one die cannot roll doubles


def test_cyclone_salvo() -> None:
    """Salvo: any number of missiles at one target, one die each at 2+."""
    assert [salvo_kill_chance(n) for n in (1, 2, 3)] == [
        Fraction(5, 6),
        Fraction(35, 36),
        Fraction(215, 216),
    ]
    assert salvo_kill_chance(12) == 1 - Fraction(1, 6) ** 12


def test_tarantula_two_guns() -> None:
    """Twin heavy bolters: two separate storm-bolter shots on overwatch."""
    assert any_of(Fraction(11, 36), 2) == 1 - Fraction(25, 36) ** 2 == Fraction(671, 1296)
    assert any_of(Fraction(1, 6), 2) == Fraction(11, 36)


# =========================================================================== parsing


def test_parse_range() -> None:
    assert parse_range("Unlimited *").squares is None
    assert parse_range("Unlimited *").overwatch_limited
    assert not parse_range("Unlimited").overwatch_limited
    assert parse_range("12 Squares").squares == 12


def test_parse_dice_and_kills_on() -> None:
    assert parse_chance("2d6").count == 2
    assert parse_kills_on("5+") == 5
    claws = parse_assault("2d6+1")
    assert claws is not None and (claws.dice.count, claws.dice.modifier, claws.psi) == (2, 1, False)
    axe = parse_assault("1d6+1+X")
    assert axe is not None and (axe.dice.count, axe.dice.modifier, axe.psi) == (1, 1, True)
    assert parse_assault("-") is None


def test_parse_notes() -> None:
    notes = parse_notes("Flamer, Limited Ammo (6), 2x2 Template")
    assert notes.rules == ("flamer", "limited-ammo", "template-2x2")
    assert notes.ammo == 6
    assert parse_notes("Overwatch, Jam, Sustain, Move & Shoot").rules == (
        "overwatch",
        "jam",
        "sustain",
        "move-and-shoot",
    )
    assert parse_notes("-").rules == ()


@pytest.mark.parametrize(
    ("parser", "text"),
    [
        (parse_range, "far"),
        (parse_chance, "2d6+1"),
        (parse_chance, "two"),
        (parse_kills_on, "6"),
        (parse_assault, "1d6+Y"),
        (parse_notes, "Overwatch, Teleport"),
    ],
)
def test_parse_errors(parser: Callable[[str], Any], text: str) -> None:
    with pytest.raises(ProfileSyntaxError):
        parser(text)


# =========================================================================== the standard squad


def test_standard_squad_is_legal(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(squad_roster())
    assert ev.issues == []
    squad = find(ev, "2nd Squad")
    assert ev.value(squad, "models") == 6
    assert ev.value(squad, "heavy_weapons") == 2
    assert ev.value(ev.root, "squads") == 1
    assert ev.value(ev.root, "models") == 6


def test_standard_squad_values(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(squad_roster())
    sgt = find(ev, "Sergeant Lorenzo")
    weapon = ev.value(sgt, "weapon-storm-bolter")
    assert weapon == {
        "range": None,
        "overwatch_range": 12,
        "dice": "2D6",
        "kills_on": 6,
        "attributes": ["overwatch", "jam", "sustain", "move-and-shoot"],
        "ammo": None,
        "ammo_unit": None,
    }
    assert F(ev.value(sgt, "kill-storm-bolter")) == Fraction(11, 36)
    assert [F(p) for p in ev.value(sgt, "sustained-storm-bolter")] == sustained_fire(2, 6)
    ow = ev.value(sgt, "overwatch-storm-bolter")
    assert (F(ow["kill"]), F(ow["jam"]), F(ow["kill_and_jam"]), ow["range"]) == (
        Fraction(11, 36),
        Fraction(1, 6),
        Fraction(1, 36),
        12,
    )
    assert ev.value(sgt, "melee-power-sword")["attributes"] == [
        "on-guard",
        "parry",
        "sergeant-only",
    ]

    leon = find(ev, "Brother Leon")
    assert F(ev.value(leon, "kill-assault-cannon")) == Fraction(19, 27)
    assert ev.value(leon, "sustained-assault-cannon") is None  # "unable to use sustained fire"
    ac = ev.value(leon, "overwatch-assault-cannon")
    assert (F(ac["kill"]), F(ac["explode"]), F(ac["kill_and_explode"])) == (
        Fraction(19, 27),
        Fraction(1, 36),
        Fraction(1, 108),
    )

    zael = find(ev, "Brother Zael")
    assert ev.value(zael, "ammo-heavy-flamer") == {
        "capacity": 6,
        "used": 0,
        "left": 6,
        "unit": "bursts",
    }
    assert F(ev.value(zael, "kill-heavy-flamer")) == Fraction(5, 6)
    assert ev.value(zael, "weapon-heavy-flamer")["range"] == 12
    assert ev.value(zael, "overwatch-heavy-flamer") is None  # flamers cannot overwatch
    squad = find(ev, "2nd Squad")
    assert ev.value(squad, "ammo") == {
        "Heavy Flamer": {"weapons": 1, "capacity": 6, "left": 6, "unit": "bursts"}
    }


def test_standard_squad_built_with_add_entry(library: Library, evaluate_roster: Evaluate) -> None:
    """Adding entries with their defaults: a Sergeant arrives with storm bolter and power
    sword, a Terminator with storm bolter and power fist."""
    index = library.index(SYSTEM, FACTION)
    roster = new_roster()
    squad = add_entry(roster, index, (), "terminator-squad", name="1st Squad")
    for _ in range(5):
        add_entry(roster, index, squad, "terminator")
    ev = evaluate_roster(roster)
    assert ev.issues == []
    sgt = find(ev, "Sergeant")
    assert sorted(c.entry_id or "" for c in sgt.children) == ["power-sword", "storm-bolter"]
    assert ev.value(find(ev, "1st Squad"), "heavy_weapons") == 0


# =========================================================================== restrictions

# (case, models, expected codes, words the message must contain)
RESTRICTION_CASES: list[tuple[str, list[Model], list[str], list[str]]] = [
    (
        "power sword on a Terminator",
        with_weapons(GORIEL, ["storm-bolter", "power-sword"]),
        ["entry-not-allowed"],
        ["Brother Goriel", "Power Sword", "only by a Sergeant"],
    ),
    (
        "force axe on a Terminator",
        with_weapons(GORIEL, ["storm-bolter", "force-axe"]),
        ["entry-not-allowed"],
        ["Brother Goriel", "Force Axe", "only by a Librarian"],
    ),
    (
        "heavy bolter on a Terminator",
        with_weapons(GORIEL, ["heavy-bolter", "power-fist"]),
        ["entry-not-allowed"],
        ["Brother Goriel", "Heavy Bolter", "only on a Tarantula"],
    ),
    (
        "a single lightning claw",
        with_weapons(GORIEL, ["lightning-claw"]),
        ["sh-lightning-claws-pair"],
        ["Brother Goriel", "1 lightning claw", "pair"],
    ),
    (
        "three lightning claws",
        with_weapons(GORIEL, [("lightning-claw", 3)]),
        ["sh-lightning-claws-pair"],
        ["Brother Goriel", "3 lightning claws"],
    ),
    (
        "lightning claws with a storm bolter",
        with_weapons(GORIEL, [("lightning-claw", 2), "storm-bolter"]),
        ["sh-lightning-claws-alone"],
        ["Brother Goriel", "a Storm Bolter", "no other weapon"],
    ),
    (
        "lightning claws with a power fist",
        with_weapons(GORIEL, [("lightning-claw", 2), "power-fist"]),
        ["sh-lightning-claws-alone"],
        ["Brother Goriel", "a Power Fist"],
    ),
    (
        "thunder hammer without a storm shield",
        with_weapons(GORIEL, ["thunder-hammer"]),
        ["sh-thunder-hammer-needs-shield"],
        ["Brother Goriel", "thunder hammer", "storm shield"],
    ),
    (
        "cyclone without a storm bolter",
        with_weapons(2, ["cyclone-missile-launcher", "power-fist"]),
        ["sh-cyclone-needs-storm-bolter"],
        ["Brother Zael", "cyclone missile launcher", "storm bolter"],
    ),
    (
        "cyclone with a flamer instead of the storm bolter",
        with_weapons(  # Leon gives up his assault cannon to stay within two heavy weapons
            1,
            ["storm-bolter", "power-fist"],
            with_weapons(2, ["cyclone-missile-launcher", "hand-flamer", "power-fist"]),
        ),
        ["sh-cyclone-needs-storm-bolter"],
        ["Brother Zael", "a Hand Flamer instead"],
    ),
    (
        "three heavy weapons",
        with_weapons(GORIEL, ["hand-flamer", "power-fist"]),
        ["max-exceeded"],
        ["2nd Squad has 3 × Heavy weapon; at most 2 allowed", "at most 2 heavy weapons"],
    ),
    (
        "seven models",
        [*STANDARD, ("terminator", "Brother Valencio", ["storm-bolter", "power-fist"])],
        ["max-exceeded"],
        ["2nd Squad has 7 × Model; at most 6 allowed", "six models"],
    ),
    (
        "two sergeants",
        [*STANDARD[:5], ("sergeant", "Sergeant Gideon", ["storm-bolter", "power-sword"])],
        ["max-exceeded"],
        ["2nd Squad has 2 × Sergeant; at most 1 allowed", "one Sergeant"],
    ),
    (
        "no sergeant",
        [("terminator", "Brother Omnio", ["storm-bolter", "power-fist"]), *STANDARD[1:]],
        ["min-not-met"],
        ["2nd Squad has 0 × Sergeant; at least 1 needed"],
    ),
]


@pytest.mark.parametrize(
    ("models", "expected", "words"),
    [c[1:] for c in RESTRICTION_CASES],
    ids=[c[0] for c in RESTRICTION_CASES],
)
def test_each_restriction_alone(
    evaluate_roster: Evaluate, models: list[Model], expected: list[str], words: list[str]
) -> None:
    ev = evaluate_roster(squad_roster(models))
    assert codes(ev) == expected, [i.message for i in ev.issues]
    issue = ev.issues[0]
    assert issue.is_error
    for w in words:
        assert w in issue.message, issue.message
    assert issue.source.startswith("Space Hulk house rules"), issue


def test_restriction_messages_read_well(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(squad_roster(with_weapons(GORIEL, ["storm-bolter", "power-sword"])))
    assert ev.issues[0].message == (
        "2nd Squad > Brother Goriel cannot take a Power Sword: a power sword is carried only "
        "by a Sergeant"
    )
    assert ev.issues[0].path == ("selections", 0, "selections", GORIEL, "selections", 1)


def test_unnamed_models_are_numbered(evaluate_roster: Evaluate) -> None:
    models = [(e, None, w) for e, _, w in STANDARD]
    models[GORIEL] = ("terminator", None, ["thunder-hammer"])
    ev = evaluate_roster(squad_roster(models))
    assert codes(ev) == ["sh-thunder-hammer-needs-shield"]
    assert ev.issues[0].message.startswith("2nd Squad > Terminator #4 carries a thunder hammer")


def test_under_strength_squad_is_a_warning(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(squad_roster(STANDARD[:5]))
    assert codes(ev) == ["min-not-met"]
    assert ev.valid and ev.issues[0].severity == "warning"
    assert ev.value(find(ev, "2nd Squad"), "models") == 5


def test_legal_close_combat_kits(evaluate_roster: Evaluate) -> None:
    models = with_weapons(GORIEL, [("lightning-claw", 2)])
    models = with_weapons(5, ["thunder-hammer", "storm-shield"], models)
    models = with_weapons(3, ["storm-bolter", "chainfist"], models)
    ev = evaluate_roster(squad_roster(models))
    assert ev.issues == []
    claws = ev.value(find(ev, "Brother Goriel"), "melee-lightning-claw")
    assert claws["dice"] == "2D6+1"


def test_cyclone_with_storm_bolter(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(
        squad_roster(with_weapons(2, ["cyclone-missile-launcher", "storm-bolter", "power-fist"]))
    )
    assert ev.issues == []
    zael = find(ev, "Brother Zael")
    assert ev.value(zael, "ammo-cyclone-missile-launcher")["capacity"] == 12
    salvo = ev.value(zael, "salvo-cyclone-missile-launcher")
    assert {k: F(v) for k, v in salvo.items()} == {
        "1": Fraction(5, 6),
        "2": Fraction(35, 36),
        "3": Fraction(215, 216),
    }
    # Mixed shot: storm bolter overwatch plus one krak missile at the same target.
    mixed = ev.value(zael, "mixed-shot")
    assert F(mixed["kill"]) == 1 - Fraction(25, 36) * Fraction(1, 6) == Fraction(191, 216)
    assert F(mixed["jam"]) == Fraction(1, 6)
    assert ev.value(zael, "overwatch-cyclone-missile-launcher") is None


def test_hand_flamer_ammo(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(squad_roster(with_weapons(2, ["hand-flamer", "power-fist"])))
    assert ev.issues == []
    ammo = ev.value(find(ev, "Brother Zael"), "ammo-hand-flamer")
    assert (ammo["capacity"], ammo["unit"]) == (12, "shots")


def test_identical_models_as_one_selection_with_a_count(evaluate_roster: Evaluate) -> None:
    """``count: 3`` stands for three identical Terminators: they count three times toward
    the squad's size, heavy weapons and ammunition."""
    roster = new_roster()
    squad = roster.add((), "terminator-squad", name="2nd Squad")
    add_models(roster, squad, STANDARD[:1])
    flamers = roster.add(squad, "terminator", count=2, name="Flamers")
    roster.add(flamers, "hand-flamer")
    roster.add(flamers, "power-fist")
    riflemen = roster.add(squad, "terminator", count=3)
    roster.add(riflemen, "storm-bolter")
    roster.add(riflemen, "power-fist")
    ev = evaluate_roster(roster)
    assert ev.issues == []
    node = find(ev, "2nd Squad")
    assert (ev.value(node, "models"), ev.value(node, "heavy_weapons")) == (6, 2)
    assert ev.value(node, "ammo")["Hand Flamer"] == {
        "weapons": 2,
        "capacity": 24,
        "left": 24,
        "unit": "shots",
    }
    roster.set(flamers, "count", 3)
    ev = evaluate_roster(roster)
    assert codes(ev) == ["max-exceeded", "max-exceeded"]  # 7 models and 3 heavy weapons


def test_model_without_close_combat_weapon_is_flagged(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(squad_roster(with_weapons(GORIEL, ["storm-bolter"])))
    assert codes(ev) == ["sh-no-close-combat-weapon"]
    assert ev.valid


@pytest.mark.parametrize("squad", ["grey-knight-squad", "legion-of-the-damned-squad"])
def test_grey_knights_and_legion_are_built_like_a_squad(
    evaluate_roster: Evaluate, squad: str
) -> None:
    ev = evaluate_roster(squad_roster(squad=squad))
    assert ev.issues == []
    node = find(ev, "2nd Squad")
    assert "future rules version" in ev.value(node, "rules_pending")
    ev = evaluate_roster(squad_roster(with_weapons(GORIEL, ["hand-flamer", "power-fist"]), squad))
    assert codes(ev) == ["max-exceeded"]


def test_grey_knight_names(evaluate_roster: Evaluate) -> None:
    models = [(e, None, w) for e, _, w in STANDARD]
    models[GORIEL] = ("terminator", None, ["lightning-claw"])
    ev = evaluate_roster(squad_roster(models, "grey-knight-squad"))
    assert codes(ev) == ["sh-lightning-claws-pair"]
    assert "2nd Squad > Grey Knight #4 has 1 lightning claw" in ev.issues[0].message


# =========================================================================== special units


def librarian_roster(weapons: list[Weapon], state: dict[str, Any] | None = None) -> Roster:
    roster = new_roster()
    loc = roster.add((), "librarian", name="Librarian Calistarius", state=state)
    for w in weapons:
        wid, count = (w, 1) if isinstance(w, str) else w
        roster.add(loc, wid, count=count)
    return roster


def techmarine_roster(weapons: list[Weapon], guns: int | None = 2) -> Roster:
    roster = new_roster()
    loc = roster.add((), "techmarine", name="Techmarine Ferro")
    for w in weapons:
        wid, count = (w, 1) if isinstance(w, str) else w
        roster.add(loc, wid, count=count)
    if guns is not None:
        t = roster.add(loc, "tarantula")
        if guns:
            roster.add(t, "heavy-bolter", count=guns)
    return roster


def test_librarian(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(librarian_roster(["storm-bolter", "force-axe"]))
    assert ev.issues == []
    lib = find(ev, "Librarian Calistarius")
    assert ev.value(lib, "psi") == {"points": 20, "spent": 0, "left": 20}
    axe = ev.value(lib, "melee-force-axe")
    assert (axe["dice"], axe["psi"]) == ("1D6+1", True)


def test_librarian_needs_force_axe(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(librarian_roster(["storm-bolter"]))
    assert codes(ev) == ["min-not-met"]
    assert "Librarian Calistarius" in ev.issues[0].message


def test_power_sword_on_librarian(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(librarian_roster(["storm-bolter", "force-axe", "power-sword"]))
    assert codes(ev) == ["entry-not-allowed"]
    assert ev.issues[0].message == (
        "Librarian Calistarius cannot take a Power Sword: a power sword is carried only by a "
        "Sergeant"
    )


def test_techmarine_with_tarantula(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(techmarine_roster(["bolt-gun"]))
    assert ev.issues == []
    tech = find(ev, "Techmarine Ferro")
    assert F(ev.value(tech, "kill-bolt-gun")) == Fraction(1, 6)
    assert F(ev.value(tech, "overwatch-bolt-gun")["jam"]) == 0
    turret = find(ev, "Tarantula Turret")
    assert ev.value(turret, "melee") == 3
    both = ev.value(turret, "guns-overwatch")
    assert (both["guns"], F(both["kill"]), F(both["jam"]), F(both["all_jam"])) == (
        2,
        Fraction(671, 1296),
        Fraction(11, 36),
        Fraction(1, 36),
    )
    assert ev.value(ev.root, "tarantulas") == 1
    assert ev.value(ev.root, "models") == 1


def test_techmarine_with_heavy_weapon(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(techmarine_roster(["bolt-gun", "assault-cannon"]))
    assert codes(ev) == ["entry-not-allowed"]
    assert ev.issues[0].message == (
        "Techmarine Ferro cannot take an Assault Cannon: a Techmarine carries only a bolt gun, "
        "no heavy or Terminator weapon"
    )


def test_techmarine_without_bolt_gun(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(techmarine_roster([]))
    assert codes(ev) == ["min-not-met"]
    assert ev.issues[0].message == (
        "Techmarine Ferro has 0 × Bolt Gun; at least 1 needed (a Techmarine carries a bolt gun)"
    )


def test_techmarine_with_storm_bolter_instead(evaluate_roster: Evaluate) -> None:
    """Two rules broken at once (a weapon he may not carry, and no bolt gun): two issues."""
    ev = evaluate_roster(techmarine_roster(["storm-bolter"]))
    assert sorted(codes(ev)) == ["entry-not-allowed", "min-not-met"]


@pytest.mark.parametrize(("guns", "code"), [(1, "min-not-met"), (3, "max-exceeded")])
def test_tarantula_has_twin_heavy_bolters(evaluate_roster: Evaluate, guns: int, code: str) -> None:
    ev = evaluate_roster(techmarine_roster(["bolt-gun"], guns=guns))
    assert codes(ev) == [code]
    assert "Tarantula Turret" in ev.issues[0].message
    assert "twin heavy bolters" in ev.issues[0].message


def test_second_tarantula_is_a_warning(evaluate_roster: Evaluate) -> None:
    roster = techmarine_roster(["bolt-gun"])
    t = roster.add(("selections", 0), "tarantula")
    roster.add(t, "heavy-bolter", count=2)
    ev = evaluate_roster(roster)
    assert codes(ev) == ["max-exceeded"]
    assert ev.valid


def test_tarantula_without_techmarine(evaluate_roster: Evaluate) -> None:
    roster = new_roster()
    roster.add((), "tarantula")
    ev = evaluate_roster(roster)
    assert codes(ev) == ["entry-not-allowed"]
    assert ev.issues[0].message == (
        "The roster cannot take a Tarantula Turret: a Tarantula turret is built by a "
        "Techmarine (select it under one)"
    )


# =========================================================================== campaign state


def test_spent_ammunition(evaluate_roster: Evaluate) -> None:
    roster = squad_roster()
    roster.set(("selections", 0, "selections", 2), "state", {"ammo_used": {"heavy-flamer": 4}})
    ev = evaluate_roster(roster)
    assert ev.issues == []
    assert ev.value(find(ev, "Brother Zael"), "ammo-heavy-flamer")["left"] == 2
    assert ev.value(find(ev, "2nd Squad"), "ammo")["Heavy Flamer"]["left"] == 2


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ({"ammo_used": {"heavy-flamer": 7}}, "sh-ammo-overspent"),
        ({"ammo_used": {"heavy-flamer": -1}}, "state-invalid"),  # the engine's state check
        ({"ammo_used": {"storm-bolter": 1}}, "sh-state-invalid"),
        ({"ammo_used": 3}, "state-invalid"),
        ({"psi_spent": 2}, "sh-state-invalid"),
    ],
)
def test_bad_ammunition_state(evaluate_roster: Evaluate, state: dict[str, Any], code: str) -> None:
    roster = squad_roster()
    roster.set(("selections", 0, "selections", 2), "state", state)
    ev = evaluate_roster(roster)
    assert codes(ev) == [code]
    assert "Brother Zael" in ev.issues[0].message


def test_spent_psi_points(evaluate_roster: Evaluate) -> None:
    ev = evaluate_roster(librarian_roster(["storm-bolter", "force-axe"], {"psi_spent": 5}))
    assert ev.value(find(ev, "Librarian Calistarius"), "psi")["left"] == 15
    ev = evaluate_roster(librarian_roster(["storm-bolter", "force-axe"], {"psi_spent": 21}))
    assert codes(ev) == ["sh-psi-overspent"]
    ev = evaluate_roster(librarian_roster(["storm-bolter", "force-axe"], {"psi_spent": "lots"}))
    assert codes(ev) == ["state-invalid"]


# =========================================================================== examples


def example(evaluate_roster: Evaluate, name: str) -> Evaluation:
    return evaluate_roster(Roster.from_file(EXAMPLES / name))


def test_example_standard_squad(evaluate_roster: Evaluate) -> None:
    ev = example(evaluate_roster, "standard-squad.yaml")
    assert ev.issues == []
    squad = find(ev, "1st Squad")
    assert (ev.value(squad, "models"), ev.value(squad, "heavy_weapons")) == (6, 2)
    assert F(ev.value(find(ev, "Brother Leon"), "kill-assault-cannon")) == Fraction(19, 27)
    assert F(ev.value(find(ev, "Sergeant Lorenzo"), "kill-storm-bolter")) == Fraction(11, 36)
    assert ev.value(find(ev, "Brother Zael"), "ammo-heavy-flamer")["capacity"] == 6


def test_example_squad_with_librarian(evaluate_roster: Evaluate) -> None:
    ev = example(evaluate_roster, "squad-with-librarian.yaml")
    assert ev.issues == []
    assert ev.value(find(ev, "Librarian Calistarius"), "psi") == {
        "points": 20,
        "spent": 5,
        "left": 15,
    }
    omnio = find(ev, "Brother Omnio")
    assert ev.value(omnio, "ammo-cyclone-missile-launcher") == {
        "capacity": 12,
        "used": 3,
        "left": 9,
        "unit": "missiles",
    }
    assert F(ev.value(omnio, "mixed-shot")["kill"]) == Fraction(191, 216)
    assert ev.value(ev.root, "models") == 7


def test_example_techmarine_tarantula(evaluate_roster: Evaluate) -> None:
    ev = example(evaluate_roster, "techmarine-tarantula.yaml")
    assert ev.issues == []
    turret = find(ev, "Tarantula Turret")
    assert F(ev.value(turret, "kill-heavy-bolter")) == Fraction(11, 36)
    assert F(ev.value(turret, "overwatch-heavy-bolter")["jam"]) == Fraction(1, 6)
    assert F(ev.value(turret, "guns-overwatch")["kill"]) == Fraction(671, 1296)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_examples_validate_on_the_command_line(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(EXAMPLES / name)]) == 0
    assert "legal" in capsys.readouterr().out
    assert main(["show", str(EXAMPLES / name)]) == 0
    out = capsys.readouterr().out
    assert "Space Hulk (house rules)" in out


def test_show_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", str(EXAMPLES / "standard-squad.yaml")]) == 0
    out = capsys.readouterr().out
    assert "Storm Bolter kill chance: 11/36 (30.6%) per shot" in out
    assert "Storm Bolter sustained fire: 11/36 → 5/9 → 3/4 → 8/9 → 35/36 → 1" in out
    assert "jams on doubles 1/6 (16.7%)" in out
    assert "explodes on triples 1/36 (2.8%)" in out
    assert "Heavy Flamer ammunition: 6 bursts" in out


# =========================================================================== catalog checks


def _load(name: str) -> dict[str, Any]:
    data = YAML(typ="safe").load((CATALOG_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _findings(system: dict[str, Any], faction: dict[str, Any] | None = None) -> list[str]:
    sf = TypeAdapter(CatalogFile).validate_python(system)
    assert isinstance(sf, SystemFile)
    if faction is None:
        return [m for _, _, m in RULES.check_catalog(sf, None, None)]
    ff = TypeAdapter(CatalogFile).validate_python(faction)
    assert isinstance(ff, FactionFile)
    index = CatalogIndex(GameSystem(CATALOG_DIR / "system.yaml", sf), Faction(CATALOG_DIR, ff))
    return [m for _, _, m in RULES.check_catalog(sf, ff, index)]


def _weapon(system: dict[str, Any], wid: str) -> dict[str, Any]:
    return next(e for e in system["shared_entries"] if e["id"] == wid)


def test_shipped_catalog_is_clean() -> None:
    assert _findings(_load("system")) == []
    assert _findings(_load("system"), _load("terminators")) == []


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("kills-on", "6", "kills on '6'"),
        ("range", "far", "range 'far'"),
        ("chance", "2d6+1", "plain dice"),
        ("notes", "Overwatch, Teleport", "unknown attribute 'Teleport'"),
    ],
)
def test_check_catalog_reports_bad_profiles(key: str, value: str, expected: str) -> None:
    system = _load("system")
    _weapon(system, "storm-bolter")["profiles"][0]["characteristics"][key] = value
    found = _findings(system)
    assert len(found) == 1 and expected in found[0] and found[0].startswith("Storm Bolter")


def test_check_catalog_rules_must_match_notes() -> None:
    system = _load("system")
    _weapon(system, "storm-bolter")["rules"] = ["overwatch"]
    found = _findings(system)
    assert len(found) == 1 and "do not match its Table 2 notes" in found[0]


def test_check_catalog_restriction_needs_reason() -> None:
    system = _load("system")
    del _weapon(system, "power-sword")["data"]
    found = _findings(system)
    assert len(found) == 1 and "data.restriction" in found[0]


def test_check_catalog_sergeant_only_placement() -> None:
    faction = _load("terminators")
    terminator = next(e for e in faction["shared_entries"] if e["id"] == "terminator")
    melee = next(g for g in terminator["groups"] if g["id"] == "terminator-melee")
    melee["entries"].append({"link": "power-sword"})
    found = _findings(_load("system"), faction)
    assert found == [
        "Terminator offers Power Sword, which is sergeant only (give Terminator the "
        "'sergeant' category or remove the option)"
    ]
