"""Check the Infantry Operations catalogs against the tables of the rules text.

The YAML files are read directly (no engine involved) and every figure the catalogs reproduce
is compared with the seed text's markdown tables. Numbers are compared as token lists, so
spacing or parenthesis glitches of the extraction do not matter but every number does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from armybuilder.model.catalog import FactionFile, SystemFile

REPO = Path(__file__).resolve().parents[3]
CATALOG_DIR = REPO / "catalogs" / "infantry-ops"
SEED = REPO.parent / "shared" / "seeds" / "004_305487a09ab214d9.txt"

FACTION_FILES = ["inner-sphere", "clan", "comstar"]
ALL_FILES = ["system", *FACTION_FILES]

# Seed weapon names (as printed, whitespace collapsed) -> catalog ids.
WEAPON_IDS = {
    "Knife/ Bayonet": "knife-bayonet",
    "AutoPistol": "autopistol",
    "Heavy Revolver": "heavy-revolver",
    "Machine Pistol": "machine-pistol",
    "Laser Pistol": "laser-pistol",
    "Needler": "needler",
    "Sawn off Shotgun": "sawn-off-shotgun",
    "Auto-Rifle": "auto-rifle",
    "SMG": "smg",
    "Assault Shotgun": "assault-shotgun",
    "Rifle": "rifle",
    "Sniper Rifle": "sniper-rifle",
    "Anti-Tank Rifle": "anti-tank-rifle",
    "Laser Rifle": "laser-rifle",
    "Katana": "katana",
    "No Dachi": "no-dachi",
    "Squad Assault Weapon": "squad-assault-weapon",
    "Man portable Light MG": "light-mg",
    "MG": "mg",
    "Heavy MG": "heavy-mg",
    "LAAW": "laaw",
    "SRM1": "srm1",
    "LRM1": "lrm1",
    "MML": "mml",
    "Light Mortar": "light-mortar",
    "Heavy Mortar": "heavy-mortar",
    "Auto-Grenade": "auto-grenade",
    "Grenade Launcher": "grenade-launcher",
    "Heavy Grenade Launcher": "heavy-grenade-launcher",
    "Thrown Grenade": "thrown-grenade",
    "Support Small Laser": "support-small-laser",
    "Support Medium Laser": "support-medium-laser",
    "Support Large Laser": "support-large-laser",
    "Support PPC": "support-ppc",
}

# Our slot classification (not a column of the tables; see the system.yaml header).
WEAPON_TYPES = {
    "small-melee": ["knife-bayonet"],
    "pistol": [
        "autopistol",
        "heavy-revolver",
        "machine-pistol",
        "laser-pistol",
        "needler",
        "sawn-off-shotgun",
    ],
    "primary": [
        "auto-rifle",
        "smg",
        "assault-shotgun",
        "rifle",
        "sniper-rifle",
        "anti-tank-rifle",
        "laser-rifle",
    ],
    "melee": ["katana", "no-dachi"],
    "secondary": ["thrown-grenade", "laaw", "auto-grenade", "grenade-launcher"],
    "support": [
        "squad-assault-weapon",
        "light-mg",
        "mg",
        "heavy-mg",
        "srm1",
        "lrm1",
        "mml",
        "light-mortar",
        "heavy-mortar",
        "heavy-grenade-launcher",
        "support-small-laser",
        "support-medium-laser",
        "support-large-laser",
        "support-ppc",
    ],
}

# Weapon table column -> profile characteristic id.
WEAPON_COLUMNS = {
    "DV": "dv",
    "Range PB/S/M/L/EX": "range",
    "Enc.": "enc",
    "Set Up Time": "setup",
    "Load Time": "load",
    "CF": "cf",
    "CC": "cc",
    "Ammo": "ammo",
}

ARMOUR_IDS = {
    "Kevlar Vest and Helmet": "kevlar-vest",
    "Flak Vest and Helmet": "flak-vest",
    "Full body armour": "full-body-armour",
    "Fire Proof Suit": "fire-proof-suit",
    "Ghillie Camo Suit": "ghillie-suit",
    "Sneak Suit": "sneak-suit",
}

EXPERIENCE_IDS = {
    "Elite": "elite",
    "Veteran": "veteran",
    "Regular": "regular",
    "Green": "green",
    "Very Green": "very-green",
    "Civilian": "civilian",
}

MOTIVE_IDS = {
    "Foot": "foot",
    "Jump": "jump",
    "Motorised – Biker": "motorised-wheeled",
    "Motorised – Hover": "motorised-hover",
    "Motorised – Tracked": "motorised-tracked",
    "Mechanised – Wheeled": "mechanised-wheeled",
    "Mechanised – Tracked": "mechanised-tracked",
    "Mechanised – Hover": "mechanised-hover",
    "Mechanised – VTOL": "mechanised-vtol",
    "Mechanised – Naval": "mechanised-naval",
}

AFFILIATION_IDS = {"InnerSphere": "inner-sphere", "Clan": "clan", "Comstar": "comstar"}

# Structure table column -> the motives it covers.
STRUCTURE_COLUMNS = [
    ("Foot", ["foot"]),
    ("Motorised (All)", ["motorised-wheeled", "motorised-hover", "motorised-tracked"]),
    ("Jump", ["jump"]),
    ("Mech: (Hover/ VTOL)", ["mechanised-hover", "mechanised-vtol"]),
    ("Mech: Wheeled/ Naval)", ["mechanised-wheeled", "mechanised-naval"]),
    ("Mech: (Tracked)", ["mechanised-tracked"]),
]

TOKEN = re.compile(r"[+-]?\d+(?:\.\d+)?|[A-Za-z]+|\*|[–-]")


def tokens(value: Any) -> list[Any]:
    """Numbers as floats, words lowercased, '*' and dashes ('–' == '-') kept."""
    out: list[Any] = []
    for tok in TOKEN.findall("" if value is None else str(value)):
        if tok[-1].isdigit():
            out.append(float(tok))
        elif tok in "–-":
            out.append("-")
        else:
            out.append(tok.lower())
    return out


# ---------------------------------------------------------------------------- loading


@cache
def raw(name: str) -> dict[str, Any]:
    data = YAML(typ="safe").load((CATALOG_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def walk_entries(entries: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every entry (not link) defined in a list, with its nested entries and group entries."""
    for item in entries:
        if "link" in item:
            continue
        yield item
        yield from walk_entries(item.get("entries", []))
        yield from walk_groups(item.get("groups", []))


def walk_groups(groups: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for group in groups:
        yield from walk_entries(group.get("entries", []))
        yield from walk_groups(group.get("groups", []))


def all_entries(name: str) -> list[dict[str, Any]]:
    data = raw(name)
    return [
        *walk_entries(data.get("entries", [])),
        *walk_entries(data.get("shared_entries", [])),
    ]


def shared(entry_id: str) -> dict[str, Any]:
    for entry in raw("system")["shared_entries"]:
        if entry["id"] == entry_id:
            return entry
    raise AssertionError(f"no shared entry {entry_id!r} in system.yaml")


def profile(entry: dict[str, Any], profile_type: str) -> dict[str, Any]:
    found = [p for p in entry.get("profiles", []) if p["type"] == profile_type]
    assert len(found) == 1, f"{entry['id']}: expected one {profile_type} profile"
    return found[0]["characteristics"]


def platoon(faction: str) -> dict[str, Any]:
    (entry,) = [e for e in raw(faction)["entries"] if e.get("id") == "platoon"]
    return entry


def squad(faction: str) -> dict[str, Any]:
    (entry,) = [e for e in platoon(faction).get("entries", []) if e.get("id") == "squad"]
    return entry


# ---------------------------------------------------------------------------- the seed


def split_row(line: str) -> list[str]:
    return [" ".join(cell.split()) for cell in line.strip().strip("|").split("|")]


@cache
def seed_tables() -> list[tuple[list[str], list[list[str]]]]:
    """Every markdown table of the seed: (header cells, rows of cells)."""
    tables: list[tuple[list[str], list[list[str]]]] = []
    current: list[list[str]] | None = None
    for line in SEED.read_text(encoding="utf-8").splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append((split_row(line), current))
            else:
                current.append(split_row(line))
        else:
            current = None
    return tables


@pytest.fixture(scope="module")
def seed() -> list[tuple[list[str], list[list[str]]]]:
    if not SEED.is_file():
        pytest.skip(f"rules text not found at {SEED} (the shared seeds sit beside the repo)")
    return seed_tables()


def tables_headed(
    tables: list[tuple[list[str], list[list[str]]]], first: str
) -> list[tuple[list[str], list[list[str]]]]:
    found = [t for t in tables if t[0][0] == first]
    assert found, f"no table headed {first!r} in the seed"
    return found


def weapon_rows(tables: list[tuple[list[str], list[list[str]]]]) -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    for header, body in tables_headed(tables, "Weapon"):
        for cells in body:
            row = dict(zip(header, cells, strict=False))
            assert row["Weapon"] not in rows
            rows[row["Weapon"]] = row
    return rows


# ---------------------------------------------------------------------------- files


@pytest.mark.parametrize("name", ALL_FILES)
def test_file_validates(name: str) -> None:
    model = SystemFile if name == "system" else FactionFile
    model.model_validate(raw(name))


@pytest.mark.parametrize("name", ALL_FILES)
def test_schema_comment_first(name: str) -> None:
    first = (CATALOG_DIR / f"{name}.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../armybuilder/schemas/catalog.schema.json"


@pytest.mark.parametrize("name", ALL_FILES)
def test_every_entry_has_source(name: str) -> None:
    missing = [e["id"] for e in all_entries(name) if not str(e.get("source", "")).strip()]
    assert not missing


@pytest.mark.parametrize("name", ALL_FILES)
def test_ids_unique(name: str) -> None:
    data = raw(name)
    entry_ids = [e["id"] for e in all_entries(name)]
    assert len(entry_ids) == len(set(entry_ids)), entry_ids
    for key in ("cost_types", "profile_types", "categories", "experience", "rules"):
        ids = [item["id"] for item in data.get(key, [])]
        assert len(ids) == len(set(ids)), key


@pytest.mark.parametrize("name", ALL_FILES)
def test_references_resolve(name: str) -> None:
    system = raw("system")
    data = raw(name)
    entries = {e["id"] for e in all_entries("system")} | {e["id"] for e in all_entries(name)}
    links = {e["id"] for e in system["shared_entries"]} | {
        e["id"] for e in data.get("shared_entries", [])
    }
    categories = {c["id"] for c in system["categories"]} | {
        c["id"] for c in data.get("categories", [])
    }
    rules = {r["id"] for r in system["rules"]} | {r["id"] for r in data.get("rules", [])}

    def check_children(children: list[dict[str, Any]]) -> set[str]:
        ids = set()
        for child in children:
            if "link" in child:
                assert child["link"] in links, child["link"]
                ids.add(child["link"])
            else:
                ids.add(child["id"])
        return ids

    def check_groups(groups: list[dict[str, Any]]) -> None:
        for group in groups:
            ids = check_children(group.get("entries", []))
            if group.get("default"):
                assert group["default"] in ids, (group["id"], group["default"])
            check_groups(group.get("groups", []))

    for entry in all_entries(name):
        assert set(entry.get("categories", [])) <= categories, entry["id"]
        assert set(entry.get("rules", [])) <= rules, entry["id"]
        check_children(entry.get("entries", []))
        check_groups(entry.get("groups", []))
        for modifier in entry.get("modifiers", []):
            for condition in modifier.get("conditions", []):
                child = condition.get("child")
                assert child is None or child in entries | categories, (entry["id"], child)


# ---------------------------------------------------------------------------- weapons


def test_weapon_count_and_rows_matched(seed: list[tuple[list[str], list[list[str]]]]) -> None:
    rows = weapon_rows(seed)
    assert len(rows) == 34
    assert set(rows) == set(WEAPON_IDS)
    weapons = [e["id"] for e in raw("system")["shared_entries"] if "weapon" in e["categories"]]
    assert sorted(weapons) == sorted(WEAPON_IDS.values())


@pytest.mark.parametrize(("seed_name", "weapon_id"), sorted(WEAPON_IDS.items()), ids=str)
def test_weapon_matches_table(
    seed: list[tuple[list[str], list[list[str]]]], seed_name: str, weapon_id: str
) -> None:
    row = weapon_rows(seed)[seed_name]
    entry = shared(weapon_id)
    chars = profile(entry, "weapon")
    for column, char in WEAPON_COLUMNS.items():
        printed = row.get(column)
        if printed is None:
            # The No Dachi row has no Ammo cell; the catalog uses "–" like other melee weapons.
            assert (weapon_id, column) == ("no-dachi", "Ammo")
            printed = "–"
        assert tokens(chars[char]) == tokens(printed), (weapon_id, column, chars[char], printed)
    for key in ("enc", "cf", "cc"):
        assert isinstance(chars[key], int), (weapon_id, key)
    for key in ("dv", "range", "setup", "load", "ammo"):
        assert isinstance(chars[key], str), (weapon_id, key)


@pytest.mark.parametrize("weapon_type", sorted(WEAPON_TYPES))
def test_weapon_classification(weapon_type: str) -> None:
    for weapon_id in WEAPON_TYPES[weapon_type]:
        entry = shared(weapon_id)
        assert entry["categories"] == ["weapon", weapon_type], weapon_id
        assert profile(entry, "weapon")["type"] == weapon_type, weapon_id
    assert sum(len(v) for v in WEAPON_TYPES.values()) == 34


def test_fixed_mount_rule_matches_asterisk() -> None:
    for weapon_id in WEAPON_IDS.values():
        entry = shared(weapon_id)
        fixed = "*" in profile(entry, "weapon")["setup"]
        assert fixed == ("fix-mounted" in entry.get("rules", [])), weapon_id


def test_trooper_groups() -> None:
    trooper = shared("trooper")
    assert trooper["costs"] == {"kg": 85}
    groups = {g["id"]: g for g in trooper["groups"]}

    def linked(group: str) -> set[str]:
        return {c["link"] for c in groups[group]["entries"]}

    assert linked("small-melee") == set(WEAPON_TYPES["small-melee"])
    assert linked("pistol") == set(WEAPON_TYPES["pistol"])
    assert linked("main-weapon") == set(WEAPON_TYPES["primary"]) | set(WEAPON_TYPES["support"])
    assert linked("secondary") == set(WEAPON_TYPES["secondary"]) | set(WEAPON_TYPES["melee"])
    assert linked("armour") == {"kevlar-vest", "flak-vest", "full-body-armour"}
    assert linked("suit") == {"fire-proof-suit", "ghillie-suit", "sneak-suit"}
    # a reload for every weapon whose ammo has a bracketed carried figure (Ammo)
    assert linked("ammunition") == {
        "srm1-ammo",
        "lrm1-ammo",
        "light-mortar-ammo",
        "heavy-mortar-ammo",
    }
    # armour is the default, not compulsory: civilians wear none (Morale, Civilian)
    assert (groups["armour"]["min"], groups["armour"]["max"]) == (0, 1)
    for group, default in (("small-melee", "knife-bayonet"), ("pistol", "autopistol")):
        # Weaponry: the standard trooper carries a knife and a side arm; a player may drop them
        assert (groups[group]["min"], groups[group]["default"]) == (0, default)
    assert groups["armour"]["default"] == "kevlar-vest"


def test_srm1_ammo() -> None:
    ammo = shared("srm1-ammo")
    assert ammo["categories"] == ["ammunition"]
    assert ammo["data"] == {"weapon": "srm1", "shots": 2, "enc": 2}
    # "1 (2)": the bracketed figure is the number of shots a trooper can carry.
    assert tokens(profile(shared("srm1"), "weapon")["ammo"]) == [1.0, 2.0]


@pytest.mark.parametrize(
    ("reload", "weapon", "printed"),
    [
        ("lrm1-ammo", "lrm1", [1.0, 2.0]),  # LRM1 "1 (2)"
        ("light-mortar-ammo", "light-mortar", [1.0, 8.0]),  # Light Mortar "1 (8)"
        ("heavy-mortar-ammo", "heavy-mortar", [1.0, 4.0]),  # Heavy Mortar "1 (4)"
    ],
)
def test_other_reloads(reload: str, weapon: str, printed: list[float]) -> None:
    """Weapons and Equipment (Ammo): a reload holds the bracketed figure, at the encumbrance
    the Rifle + SRM1 example gives its reload (E2)."""
    ammo = shared(reload)
    assert tokens(profile(shared(weapon), "weapon")["ammo"]) == printed
    assert ammo["data"] == {"weapon": weapon, "shots": int(printed[1]), "enc": 2}


def test_ac5_field_gun_mass() -> None:
    """Attacks by Gunnery Crews: "an AC/5 weighs 8 tons, so requires a crew of 8"."""
    gun = shared("ac-5-field-gun")
    assert gun["data"]["tons"] == 8
    assert gun["costs"] == {"kg": 8000}


# ---------------------------------------------------------------------------- armour


def test_armour_rows_matched(seed: list[tuple[list[str], list[list[str]]]]) -> None:
    ((header, body),) = tables_headed(seed, "Armour type")
    assert header == ["Armour type", "Armour Points", "Encumbrance Points"]
    assert {cells[0] for cells in body} == set(ARMOUR_IDS)


@pytest.mark.parametrize(("seed_name", "armour_id"), sorted(ARMOUR_IDS.items()), ids=str)
def test_armour_matches_table(
    seed: list[tuple[list[str], list[list[str]]]], seed_name: str, armour_id: str
) -> None:
    ((_, body),) = tables_headed(seed, "Armour type")
    (row,) = [cells for cells in body if cells[0] == seed_name]
    _, points, enc = row
    entry = shared(armour_id)
    chars = profile(entry, "armour")
    shown = f"{chars['armour']} ({chars['notes']})" if chars["notes"] else chars["armour"]
    assert tokens(shown) == tokens(points)
    assert tokens(chars["enc"]) == tokens(enc)
    assert entry["data"] == {"armour": chars["armour"], "enc": chars["enc"]}
    assert all(isinstance(v, int) for v in entry["data"].values())
    expected_category = "suit" if enc.startswith("+") else "armour"
    assert entry["categories"] == [expected_category]


# ---------------------------------------------------------------------------- experience


def test_experience_matches_table(seed: list[tuple[list[str], list[list[str]]]]) -> None:
    ((header, body),) = tables_headed(seed, "Experience Level")
    assert header == ["Experience Level", "Average Gunnery Skill", "Base TN"]
    levels = {level["id"]: level for level in raw("system")["experience"]}
    assert [EXPERIENCE_IDS[cells[0]] for cells in body] == list(levels)
    for name, gunnery, base_tn in body:
        level = levels[EXPERIENCE_IDS[name]]
        assert level["name"] == name
        assert isinstance(level["data"]["gunnery"], str)
        assert tokens(level["data"]["gunnery"]) == tokens(gunnery)
        assert level["data"]["morale_tn"] == int(base_tn)
    assert raw("system")["default_experience"] == "regular"


# ---------------------------------------------------------------------------- movement


def movement_rows(tables: list[tuple[list[str], list[list[str]]]]) -> dict[str, dict[str, str]]:
    ((header, body),) = tables_headed(tables, "Infantry")
    assert header == [
        "Infantry",
        "Motive type",
        "Mass (kg)",
        "MP",
        "Terrain Rules",
        "Restricted Terrain",
    ]
    rows = {}
    for cells in body:
        if len(cells) == 5 and cells[3].startswith("(Max Crew"):
            # Mechanised – Naval: the MP cell is missing in the text.
            cells = [*cells[:3], "", *cells[3:]]
        rows[cells[0]] = dict(zip(header, cells, strict=False))
    return rows


def test_movement_rows_matched(seed: list[tuple[list[str], list[list[str]]]]) -> None:
    assert set(movement_rows(seed)) == set(MOTIVE_IDS)
    motives = [e["id"] for e in raw("system")["shared_entries"] if "motive" in e["categories"]]
    assert sorted(motives) == sorted(MOTIVE_IDS.values())


@pytest.mark.parametrize(("seed_name", "motive_id"), sorted(MOTIVE_IDS.items()), ids=str)
def test_motive_matches_table(
    seed: list[tuple[list[str], list[list[str]]]], seed_name: str, motive_id: str
) -> None:
    row = movement_rows(seed)[seed_name]
    entry = shared(motive_id)
    chars = profile(entry, "motive")
    assert tokens(chars["motive"]) == tokens(row["Motive type"])
    assert tokens(chars["mass"]) == tokens(row["Mass (kg)"])
    assert tokens(chars["mp"]) == tokens(row["MP"])
    assert tokens(chars["terrain"]) == tokens(row.get("Terrain Rules", ""))
    assert tokens(chars["restricted"]) == tokens(row.get("Restricted Terrain", ""))

    data = entry["data"]
    assert all(isinstance(v, int) for v in data.values())
    mass = tokens(row["Mass (kg)"])[0]
    if "tons" in tokens(row["Mass (kg)"]):
        assert data["mass_per_squad"] == mass * 1000
        assert "mechanised" in entry["categories"]
        crew = re.search(r"Max Crew – (\d+)", row["Terrain Rules"])
        assert crew is not None
        assert data["max_crew"] == int(crew.group(1))
    else:
        assert data["mass_per_trooper"] == mass
        assert "mechanised" not in entry["categories"]
    mp = re.fullmatch(r"(\d+)j? (?:\[(\d+)\*?E\] )?\((\d+)\)|(\d+)j \[(\d+)E\]|", row["MP"])
    assert mp is not None, row["MP"]
    if mp.group(1):
        assert (data["mp"], data["fast"]) == (int(mp.group(1)), int(mp.group(3)))
        if mp.group(2):
            assert data["encumbered"] == int(mp.group(2))
    elif mp.group(4):
        # Jump: jump MP [encumbered]; the walking figures are those of foot movement.
        assert (data["jump"], data["encumbered_jump"]) == (int(mp.group(4)), int(mp.group(5)))
        foot = shared("foot")["data"]
        assert (data["mp"], data["fast"], data["encumbered"]) == (
            foot["mp"],
            foot["fast"],
            foot["encumbered"],
        )
    else:
        assert "mp" not in data and chars["mp"] == ""


def test_trooper_mass_modifiers() -> None:
    """The trooper's kg cost grows by the per-trooper mass of jump packs and bikes."""
    added = {}
    for modifier in shared("trooper")["modifiers"]:
        assert (modifier["type"], modifier["field"]) == ("increment", "cost:kg")
        (condition,) = modifier["conditions"]
        assert (condition["type"], condition["value"], condition["scope"]) == (
            "at-least",
            1,
            "platoon",
        )
        added[condition["child"]] = modifier["value"]
    expected = {
        e["id"]: e["data"]["mass_per_trooper"]
        for e in raw("system")["shared_entries"]
        if "mass_per_trooper" in e.get("data", {}) and e["id"] != "foot"
    }
    assert added == expected
    assert shared("foot")["data"]["mass_per_trooper"] == shared("trooper")["costs"]["kg"]


@pytest.mark.parametrize("faction", FACTION_FILES)
def test_squad_vehicle_mass(faction: str) -> None:
    entry = squad(faction)
    assert entry["costs"] == {"kg": 0}
    added = {}
    for modifier in entry["modifiers"]:
        if modifier["field"] != "cost:kg":
            continue
        assert modifier["type"] == "increment"
        (condition,) = modifier["conditions"]
        added[condition["child"]] = modifier["value"]
    expected = {
        e["id"]: e["data"]["mass_per_squad"]
        for e in raw("system")["shared_entries"]
        if "mass_per_squad" in e.get("data", {})
    }
    assert added == expected


# ---------------------------------------------------------------------------- structure


def effective(faction: str, constraint_id: str, motive_id: str) -> int:
    """Value of a squad constraint once the platoon has selected `motive_id`."""
    entry = squad(faction)
    values = {c["value"] for c in entry["constraints"] if c.get("id") == constraint_id}
    assert len(values) == 1, (faction, constraint_id, values)
    value = values.pop()
    motive = shared(motive_id)
    selected = {motive_id, *motive["categories"]}
    for modifier in entry.get("modifiers", []):
        if modifier["field"] != f"constraint:{constraint_id}":
            continue
        assert modifier["type"] == "set"
        assert not modifier.get("groups")
        if all(
            c["type"] == "at-least"
            and c["value"] == 1
            and c["scope"] == "platoon"
            and c["child"] in selected
            for c in modifier["conditions"]
        ):
            value = modifier["value"]
    return int(value)


@pytest.mark.parametrize("faction", FACTION_FILES)
def test_squad_constraints_shape(faction: str) -> None:
    entry = squad(faction)
    assert entry["categories"] == ["squad"]
    assert entry["entries"] == [{"link": "trooper"}]
    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for c in entry["constraints"]:
        by_id.setdefault(c["id"], {})[c["type"]] = c
    assert set(by_id) == {"squads", "troopers"}
    for cid, pair in by_id.items():
        assert set(pair) == {"min", "max"}
        assert pair["max"].get("severity", "error") == "error"
        assert pair["min"]["severity"] == "warning"
        if cid == "squads":
            assert pair["max"]["scope"] == pair["min"]["scope"] == "parent"
        else:
            for c in pair.values():
                assert (c["scope"], c["child"], c["deep"]) == ("self", "trooper", False)
    motive_group = {g["id"]: g for g in platoon(faction)["groups"]}["motive"]
    assert {c["link"] for c in motive_group["entries"]} == set(MOTIVE_IDS.values())
    assert (motive_group["min"], motive_group["max"], motive_group["default"]) == (1, 1, "foot")


def test_structure_rows_matched(seed: list[tuple[list[str], list[list[str]]]]) -> None:
    ((header, body),) = tables_headed(seed, "Affiliation")
    assert header[1:] == [name for name, _ in STRUCTURE_COLUMNS]
    assert {cells[0] for cells in body} == set(AFFILIATION_IDS)


@pytest.mark.parametrize(
    ("affiliation", "column"),
    [(a, c) for a in AFFILIATION_IDS for c, _ in STRUCTURE_COLUMNS],
    ids=str,
)
def test_structure_matches_table(
    seed: list[tuple[list[str], list[list[str]]]], affiliation: str, column: str
) -> None:
    ((header, body),) = tables_headed(seed, "Affiliation")
    (row,) = [dict(zip(header, cells, strict=True)) for cells in body if cells[0] == affiliation]
    troopers, squads = (int(n) for n in row[column].split("/"))
    faction = AFFILIATION_IDS[affiliation]
    for motive_id in dict(STRUCTURE_COLUMNS)[column]:
        got = (effective(faction, "troopers", motive_id), effective(faction, "squads", motive_id))
        assert got == (troopers, squads), (faction, motive_id)
