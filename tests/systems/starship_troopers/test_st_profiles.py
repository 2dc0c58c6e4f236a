"""Starship Troopers profiles: the printed profiles reproduced, every trait read, typos caught.

Rules text: shared/seeds/000_0a053458e8c4e0e5.txt (Characteristics chapter). The catalogs are
catalogs/starship-troopers/*.yaml, the parser armybuilder/rules/systems/
starship_troopers_profiles.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.cli import main
from armybuilder.model.catalog import Entry
from armybuilder.rules.systems.starship_troopers_profiles import (
    DamageDice,
    Delivery,
    ModelProfile,
    ProfileSyntaxError,
    Save,
    Trait,
    WeaponProfile,
    WeaponRange,
    parse_damage,
    parse_model,
    parse_range,
    parse_save,
    parse_traits,
    parse_weapon,
    parse_weapon_type,
)

REPO = Path(__file__).resolve().parents[3]
SEED = REPO.parent / "shared" / "seeds" / "000_0a053458e8c4e0e5.txt"
SYSTEM = "starship-troopers"


def seed_text() -> str:
    if not SEED.is_file():
        pytest.skip(f"rules text not found at {SEED}")
    return SEED.read_text(encoding="utf-8")


def seed_profiles() -> dict[str, dict[str, list[str]]]:
    """The two printed model profiles, as {name: {label: [lines]}}.

    The extraction prints each profile as "| Label: value" cells; a label or a value may be
    broken over lines ("Close\\nCombat: D6", the Warrior's traits one per line).
    """
    text = seed_text()
    start = text.index("| MI Cap Trooper")
    end = text.index("\nSize\n", start)
    profiles: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for cell in text[start:end].split("|"):
        cell = cell.strip()
        if not cell:
            continue
        if ":" not in cell:
            current = profiles.setdefault(cell, {})
            continue
        label, value = cell.split(":", 1)
        assert current is not None
        current[" ".join(label.split())] = [x.strip() for x in value.splitlines() if x.strip()]
    return profiles


def seed_morita() -> list[str]:
    """The Morita row of the weapon table: Name, Range, Damage, Type, Traits (tab-separated)."""
    line = next(x for x in seed_text().splitlines() if "Morita Assault Rifle\t" in x)
    return [c.strip() for c in line.split("\t")]


@pytest.fixture(scope="module")
def st(library: Library) -> Any:
    return library.system(SYSTEM)


def entry(st: Any, faction: str, entry_id: str) -> Entry:
    e: Entry = st.index(faction).shared[entry_id]
    return e


def model_of(e: Entry) -> ModelProfile:
    p = next(p for p in e.profiles if p.type == "model")
    return parse_model(p.name or e.name, p.characteristics)


def weapon_of(e: Entry) -> WeaponProfile:
    p = next(p for p in e.profiles if p.type == "weapon")
    return parse_weapon(p.name or e.name, p.characteristics)


# =========================================================================== printed profiles

SEED_LABELS = {
    "Value": "value",
    "Size": "size",
    "Move": "move",
    "Close Combat": "close-combat",
    "Target": "target",
    "Save": "save",
    "Kill": "kill",
}


@pytest.mark.parametrize(
    ("seed_name", "faction", "entry_id"),
    [
        ("MI Cap Trooper", "mobile-infantry", "cap-trooper"),
        ("Arachnid Warrior", "arachnids", "arachnid-warrior"),
    ],
)
def test_model_profile_is_the_printed_one(
    st: Any, seed_name: str, faction: str, entry_id: str
) -> None:
    printed = seed_profiles()[seed_name]
    e = entry(st, faction, entry_id)
    assert e.name == seed_name
    raw = next(p for p in e.profiles if p.type == "model").characteristics
    parsed = model_of(e).printed()
    for label, key in SEED_LABELS.items():
        (value,) = printed[label]
        # the catalog holds the printed text, and it parses back to the same text
        assert str(raw[key]) == value, (label, raw[key], value)
        assert parsed[key] == value, (label, parsed[key], value)
    # traits: one per line in the book, comma separated in the catalog
    assert parsed["traits"].split(", ") == printed["Traits"]
    assert str(raw["traits"]).split(", ") == printed["Traits"]
    assert e.costs == {"value": float(printed["Value"][0])}


def test_cap_trooper_typed_values(st: Any) -> None:
    p = model_of(entry(st, "mobile-infantry", "cap-trooper"))
    assert p == ModelProfile(
        name="MI Cap Trooper",
        value=30,
        size=1,
        move=4.0,
        close_combat=(DamageDice(1, 6),),
        target=4,
        save=Save(4, None),
        kill=7,
        traits=(Trait("Jump", 12.0),),
    )
    assert p.hits == 1
    assert p.piercing == 0


def test_arachnid_warrior_typed_values(st: Any) -> None:
    p = model_of(entry(st, "arachnids", "arachnid-warrior"))
    assert p == ModelProfile(
        name="Arachnid Warrior",
        value=15,
        size=2,
        move=6.0,
        close_combat=(DamageDice(2, 6, bonus=1), DamageDice(1, 10)),
        target=5,
        save=Save(4, None),
        kill=8,
        traits=(Trait("Climb", 6.0), Trait("Piercing", 1), Trait("Tunnel", 6.0)),
    )
    assert p.piercing == 1
    assert [str(t) for t in p.movement] == ['Climb/6"', 'Tunnel/6"']


def test_morita_is_the_printed_one(st: Any) -> None:
    name, rng, damage, type_and_traits, *rest = seed_morita()
    assert rest in ([], [""])
    e = entry(st, "mobile-infantry", "morita-assault-rifle")
    assert e.name == name == "TW-203-a Morita Assault Rifle"
    w = weapon_of(e)
    printed = w.printed()
    assert printed["range"] == rng == '20"'
    assert printed["damage"] == damage == "2xD6"
    # Reading: the Type cell "Squad Auto" is type Squad plus the trait Auto.
    assert f"{printed['type']} {printed['traits']}" == type_and_traits == "Squad Auto"
    assert w == WeaponProfile(
        name="TW-203-a Morita Assault Rifle",
        range=WeaponRange((20.0,)),
        damage=(DamageDice(2, 6),),
        type="Squad",
        traits=(Trait("Auto"),),
    )


def test_values_are_the_costs(st: Any) -> None:
    assert entry(st, "mobile-infantry", "cap-trooper").costs["value"] == 30
    assert entry(st, "arachnids", "arachnid-warrior").costs["value"] == 15


# =========================================================================== every trait

MODEL_TRAITS = [
    ("Independent", Trait("Independent")),
    ("Hits/3", Trait("Hits", 3)),
    ("Hits/6", Trait("Hits", 6)),
    ('Jump/12"', Trait("Jump", 12.0)),
    ('Jump/15"', Trait("Jump", 15.0)),
    ('Climb/6"', Trait("Climb", 6.0)),
    ('Tunnel/6"', Trait("Tunnel", 6.0)),
    ('Hover/10"', Trait("Hover", 10.0)),
    ('Fly/18"', Trait("Fly", 18.0)),
    ("No Flinch", Trait("No Flinch")),
    ("Piercing/1", Trait("Piercing", 1)),
    ("Piercing/2", Trait("Piercing", 2)),
    ("Retaliate", Trait("Retaliate")),
]


@pytest.mark.parametrize(("text", "trait"), MODEL_TRAITS, ids=[t for t, _ in MODEL_TRAITS])
def test_every_model_trait_parses(text: str, trait: Trait) -> None:
    assert parse_traits(text, "model") == (trait,)
    assert str(trait) == text


WEAPON_TRAITS = [
    ("AA", Trait("AA")),
    ("Accurate", Trait("Accurate")),
    ("Auto", Trait("Auto")),
    ("Fire Arc: front 90°", Trait("Fire Arc", None, "front 90°")),
    ("Flame", Trait("Flame")),
    ("Killshot", Trait("Killshot")),
    ('LZ (3")', Trait("LZ", 3.0)),
    ('LZ (1.5")', Trait("LZ", 1.5)),
    ('LZ (5"/LOS)', Trait("LZ", 5.0, "LOS")),
    ("LZ (Stream)", Trait("LZ", None, "Stream")),
    ("Multihit", Trait("Multihit")),
    ("Parry", Trait("Parry", 1)),
    ("Parry 2", Trait("Parry", 2)),
    ("Parry 3", Trait("Parry", 3)),
    ("Persistent", Trait("Persistent")),
    ("Piercing/1", Trait("Piercing", 1)),
    ("Piercing/3", Trait("Piercing", 3)),
    ("Ready", Trait("Ready")),
    ("Remote", Trait("Remote")),
    ("Retaliate", Trait("Retaliate")),
    ("Underslung", Trait("Underslung")),
]


@pytest.mark.parametrize(("text", "trait"), WEAPON_TRAITS, ids=[t for t, _ in WEAPON_TRAITS])
def test_every_weapon_trait_parses(text: str, trait: Trait) -> None:
    assert parse_traits(text, "weapon") == (trait,)
    assert str(trait) == text


def test_trait_lists_one_per_line_or_comma_separated() -> None:
    as_printed = 'Climb/6"\nPiercing/1\nTunnel/6"'  # the Warrior's cell in the book
    assert parse_traits(as_printed, "model") == parse_traits(
        'Climb/6", Piercing/1, Tunnel/6"', "model"
    )
    every = (
        'AA, Accurate, Auto, Fire Arc: rear, Flame, Killshot, LZ (2"/LOS), Multihit, Parry 2, '
        "Persistent, Piercing/1, Ready, Remote, Retaliate, Underslung"
    )
    assert [str(t) for t in parse_traits(every, "weapon")] == every.split(", ")
    assert parse_traits("", "model") == ()
    assert parse_traits("-", "weapon") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Jmp/12", "unknown trait 'Jmp/12' (did you mean 'Jump/12\"'?)"),
        ("Jump/12", "trait 'Jump/12' needs the inch mark: 'Jump/12\"'"),
        ("Indepndent", "unknown trait 'Indepndent' (did you mean 'Independent'?)"),
        ("Hits/X", "Hits/X needs a whole number"),
        ("Piercing", "unknown trait 'Piercing' (did you mean 'Piercing/X'?)"),
        ("Flame", "'Flame' is a weapon trait, not a model trait"),
        ("Independent Retaliate", "separate traits with commas: 'Independent, Retaliate'"),
        ("Hits/2, Hits/3", "trait Hits is listed twice"),
        ('Swim/6"', "unknown trait 'Swim/6\"'"),
    ],
)
def test_bad_model_traits(text: str, message: str) -> None:
    with pytest.raises(ProfileSyntaxError) as exc:
        parse_traits(text, "model")
    assert message in str(exc.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Acurate", "unknown trait 'Acurate' (did you mean 'Accurate'?)"),
        ("LZ (3)", "needs the inch mark: 'LZ (3\")'"),
        ('LZ (3"/LOS', None),  # a missing bracket is forgiven
        ("LZ (Steam)", 'an LZ reads LZ (X"), LZ (X"/LOS) or LZ (Stream)'),
        ("LOS", "LOS is not a trait of its own"),
        ("Fire Arc", "say which arc"),
        ('Jump/12"', "is a model trait, not a weapon trait"),
        ("Independent", "is a model trait, not a weapon trait"),
        ("Piercing/0", "Piercing/X needs a whole number of 1 or more"),
        ("Auto Accurate", "separate traits with commas: 'Auto, Accurate'"),
        ("Killshot, Killshot", "listed twice"),
    ],
)
def test_bad_weapon_traits(text: str, message: str | None) -> None:
    if message is None:
        assert parse_traits(text, "weapon") == (Trait("LZ", 3.0, "LOS"),)
        return
    with pytest.raises(ProfileSyntaxError) as exc:
        parse_traits(text, "weapon")
    assert message in str(exc.value)


# =========================================================================== characteristics


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("D6", (DamageDice(1, 6),)),
        ("2xD6", (DamageDice(2, 6),)),
        ("3xD6+1", (DamageDice(3, 6, 1),)),
        ("2xD6+D6", (DamageDice(2, 6, 0, 6),)),
        ("D10+2", (DamageDice(1, 10, 2),)),
        ("2xD6+1 or D10", (DamageDice(2, 6, 1), DamageDice(1, 10))),
        ("2xD10", (DamageDice(2, 10),)),
        ("2 x D6 + 1", (DamageDice(2, 6, 1),)),
        ("2×D6", (DamageDice(2, 6),)),
    ],
)
def test_damage_dice(text: str, dice: tuple[DamageDice, ...]) -> None:
    assert parse_damage(text) == dice


@pytest.mark.parametrize("text", ["2xD6+", "D", "2x6", "D1", "2xD6+D6+D8", "2xD6+1+2", "-"])
def test_bad_damage_dice(text: str) -> None:
    with pytest.raises(ProfileSyntaxError):
        parse_damage(text)


@pytest.mark.parametrize(
    ("text", "save"),
    [
        ("4+", Save(4, None)),
        ("4+/6+", Save(4, 6)),
        ("-/4+", Save(None, 4)),
        ("2+", Save(2, None)),
        ("-", Save(None, None)),
    ],
)
def test_saves(text: str, save: Save) -> None:
    assert parse_save(text) == save
    assert str(save) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4", "save '4' should read like 4+ (armour), 4+/6+ (armour/dodge) or -/4+"),
        ("4+/6", "should read like"),
        ("7+", "2+ to 6+"),
        ("1+", "2+ to 6+"),
        ("4+/5+/6+", "should read like"),
    ],
)
def test_bad_saves(text: str, message: str) -> None:
    with pytest.raises(ProfileSyntaxError) as exc:
        parse_save(text)
    assert message in str(exc.value)


@pytest.mark.parametrize(
    ("text", "rng"),
    [
        ('20"', WeaponRange((20.0,))),
        ('12"/24"', WeaponRange((12.0, 24.0))),
        ("-", WeaponRange()),
        ('Thrown 8"', WeaponRange((), (Delivery("Thrown", 8.0),))),
        ("Dropped", WeaponRange((), (Delivery("Dropped"),))),
        ("Placed", WeaponRange((), (Delivery("Placed"),))),
        (
            'Launched 30" (Grenade launcher), Thrown 10", Placed',
            WeaponRange(
                (),
                (
                    Delivery("Launched", 30.0, "Grenade launcher"),
                    Delivery("Thrown", 10.0),
                    Delivery("Placed"),
                ),
            ),
        ),
    ],
)
def test_ranges_and_delivery_modes(text: str, rng: WeaponRange) -> None:
    assert parse_range(text) == rng
    assert str(rng) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("20", 'needs the inch mark: 20"'),
        ("Thrown", "Thrown munitions give a range"),
        ('Placed 4"', "Placed munitions have no range"),
        ('Thrown 8" (hand)', "only Launched munitions name a launcher"),
        ("Launched 20", "needs the inch mark"),
        ("far", "should be a distance in inches"),
    ],
)
def test_bad_ranges(text: str, message: str) -> None:
    with pytest.raises(ProfileSyntaxError) as exc:
        parse_range(text)
    assert message in str(exc.value)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Crew", "Crew"),
        ("Infinite", "Infinite"),
        ("Internal", "Internal"),
        ("Pack", "Pack"),
        ("One-Shot!", "One-Shot!"),
        ("one-shot", "One-Shot!"),
        ("Squad", "Squad"),
    ],
)
def test_weapon_types(text: str, kind: str) -> None:
    assert parse_weapon_type(text) == kind


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Squad Auto", "the type is 'Squad'; put 'Auto' under traits"),
        ("Sqad", "unknown weapon type 'Sqad' (did you mean 'Squad'?)"),
        ("Heavy", "unknown weapon type 'Heavy'"),
    ],
)
def test_bad_weapon_types(text: str, message: str) -> None:
    with pytest.raises(ProfileSyntaxError) as exc:
        parse_weapon_type(text)
    assert message in str(exc.value)


CAP = {
    "value": 30,
    "size": 1,
    "move": '4"',
    "close-combat": "D6",
    "target": "4+",
    "save": "4+",
    "kill": "7+",
    "traits": 'Jump/12"',
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kill": "4+"}, "Kill 4+ must be higher than Target 4+"),
        ({"kill": "3+"}, "Kill 3+ must be higher than Target 4+"),
        ({"target": "4"}, "target '4' needs its plus sign: 4+"),
        ({"move": "4"}, "move '4' needs the inch mark: 4\""),
        ({"size": "big"}, "size 'big' should be a whole number"),
        ({"size": 0}, "size 0 should be at least 1"),
        ({"value": "thirty"}, "value 'thirty' should be a whole number"),
        ({"save": 4}, "save '4' should read like"),
        ({"close-combat": "D"}, "close combat 'D' should be damage dice"),
    ],
)
def test_bad_model_characteristics(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ProfileSyntaxError) as exc:
        parse_model("Trooper", {**CAP, **change})
    assert message in str(exc.value)


def test_kill_must_be_higher_than_target() -> None:
    assert parse_model("Ok", {**CAP, "target": "6+", "kill": "7+"}).kill == 7
    with pytest.raises(ProfileSyntaxError, match="must be higher than Target 7"):
        parse_model("Bad", {**CAP, "target": "7+", "kill": "7+"})


def test_missing_characteristic() -> None:
    chars = dict(CAP)
    del chars["kill"]
    with pytest.raises(ProfileSyntaxError, match=r"missing Kill \('kill'\)"):
        parse_model("Trooper", chars)
    # a blank Traits cell may be left out
    del CAP.copy()["traits"]
    assert parse_model("Trooper", {k: v for k, v in CAP.items() if k != "traits"}).traits == ()


def test_model_without_close_combat() -> None:
    assert parse_model("Turret", {**CAP, "close-combat": "-", "move": "-"}).close_combat == ()


# =========================================================================== check-catalog

USER_CATALOG = """\
kind: catalog
id: my-book
system: starship-troopers
extends: mobile-infantry
name: My army book
entries:
  - id: my-squad
    name: My squad
    type: unit
    categories: [unit]
    entries:
      - link: my-trooper
shared_entries:
  - id: my-trooper
    name: My Trooper
    type: model
    categories: [trooper]
    costs: {value: 30}
    profiles:
      - type: model
        characteristics:
          value: 30
          size: 1
          move: 4"
          close-combat: D6
          target: 4+
          save: 4+
          kill: 7+
          traits: Jump/12"
    entries:
      - link: my-gun
  - id: my-gun
    name: My gun
    categories: [weapon]
    profiles:
      - type: weapon
        characteristics:
          range: 20"
          damage: 2xD6
          type: Squad
          traits: Auto
"""


def write_user_catalog(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "user" / SYSTEM
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "my-book.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_clean_user_catalog(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_user_catalog(tmp_path, USER_CATALOG)
    assert main(["check-catalog", str(path)]) == 0
    assert "no problems" in capsys.readouterr().out
    lib = Library([*default_roots(), tmp_path / "user"], use_cache=False).scan()
    assert lib.problems == []
    assert lib.system(SYSTEM).index("mobile-infantry").child(None, "my-squad") is not None


@pytest.mark.parametrize(
    ("line", "bad", "message"),
    [
        ("          save: 4+", "          save: 4", "My Trooper: save '4' should read like 4+"),
        (
            '          traits: Jump/12"',
            "          traits: Jmp/12",
            "My Trooper: unknown trait 'Jmp/12' (did you mean 'Jump/12\"'?)",
        ),
        ("          kill: 7+", "          kill: 4+", "Kill 4+ must be higher than Target 4+"),
        ("          target: 4+", "          target: 4", "target '4' needs its plus sign"),
        ('          move: 4"', "          move: 4", "move '4' needs the inch mark"),
        ("          close-combat: D6", "          close-combat: 2xD6+", "should be damage dice"),
        ('          range: 20"', "          range: 20", "My gun: range '20' needs the inch mark"),
        ("          damage: 2xD6", "          damage: 2xD", "My gun: damage '2xD' should be"),
        ("          type: Squad", "          type: Squad Auto", "put 'Auto' under traits"),
        ("          traits: Auto", "          traits: Auto, LZ (3)", "needs the inch mark"),
        ("          traits: Auto", "          traits: Flame, Hits/3", "is a model trait"),
        ("    costs: {value: 30}", "    costs: {value: 25}", "costs value 25 but the profile's"),
    ],
)
def test_malformed_profiles_are_reported_with_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, bad: str, message: str
) -> None:
    assert line in USER_CATALOG
    text = USER_CATALOG.replace(line, bad, 1)
    path = write_user_catalog(tmp_path, text)
    lines = text.splitlines()
    row = lines.index(bad) + 1
    value = bad.split(": ", 1)[1]
    col = bad.index(value) + 1
    if value.startswith("{"):
        col = bad.index("25") + 1  # the cost inside the flow mapping
    assert main(["check-catalog", str(path)]) == 2
    out = capsys.readouterr().out
    assert f"{path}:{row}:{col}: " in out, out
    reported = next(x for x in out.splitlines() if x.startswith(f"{path}:{row}:{col}: "))
    assert message in reported
    assert "1 problem(s)" in out


def test_missing_cost_and_characteristic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = USER_CATALOG.replace("    costs: {value: 30}\n", "").replace("          kill: 7+\n", "")
    path = write_user_catalog(tmp_path, text)
    assert main(["check-catalog", str(path)]) == 2
    out = capsys.readouterr().out
    assert "My Trooper: model profile is missing Kill ('kill')" in out
    # the characteristics block is where the author has to add it
    row = text.splitlines().index("        characteristics:") + 1
    assert re.search(
        rf"{re.escape(str(path))}:{row}:\d+: My Trooper: model profile is missing", out
    )


def test_every_problem_of_a_profile_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = USER_CATALOG.replace("save: 4+", "save: 4").replace('move: 4"', "move: 4")
    path = write_user_catalog(tmp_path, text)
    assert main(["check-catalog", str(path)]) == 2
    out = capsys.readouterr().out
    assert "save '4'" in out
    assert "move '4'" in out
    assert "2 problem(s)" in out


def test_bundled_catalogs_lint_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-catalog", str(REPO / "catalogs" / SYSTEM)]) == 0
    assert "no problems" in capsys.readouterr().out
