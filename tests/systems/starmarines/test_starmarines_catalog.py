"""Check the StarMarines catalogs against the rules text.

The YAML files are read directly and compared with the tables and sentences of the seed text
(shared/seeds/003_ceaaebfe63a96e1e.txt): the Soldier Experience Table, the Soldier Wounding
Table, the Vehicle Damage Table, the three Terrain Effects Tables, the vehicle immunities, the
build-point step, the attribute cost, the overrun figures and the race rules. Where the seed
is missing (a checkout without ../shared), the comparisons are skipped with a message.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from ruamel.yaml import YAML

from armybuilder.model.catalog import CatalogFile

REPO = Path(__file__).resolve().parents[3]
CATALOG_DIR = REPO / "catalogs" / "starmarines"
SEED = REPO.parent / "shared" / "seeds" / "003_ceaaebfe63a96e1e.txt"

RACES = {
    # faction id: (name in the catalog, heading in section III)
    "starmarines": ("StarMarines", "The StarMarines"),
    "norx": ("Norx", "The Norx"),
    "pelgari": ("Pelgari", "The Pelgari"),
    "victors": ("Victors", "The Victors"),
    "dran": ("Dran", "The Dran"),
    "ghouls": ("Ghouls", "The Ghouls"),
    "nkakk": ("N'Kakk Robots", "The N'Kakk Robots"),
    "zrutes": ("Zrutes", "The Zrutes"),
    "saurs": ("Saurs", "The Saurs"),
    "swarm": ("Swarm", "The Swarm"),
    "colonials": ("Colonials", "The Colonials"),
}
# Soldier Wounding Table column heading -> faction id.
WOUNDING_COLUMNS = {
    "StarMarine": "starmarines",
    "Norx": "norx",
    "Pelgari": "pelgari",
    "Victors": "victors",
    "Dran": "dran",
    "Ghouls": "ghouls",
    "Zrutes": "zrutes",
    "Saurs": "saurs",
    "Swarm": "swarm",
}
TERRAIN_TABLES = {
    "Open-Field Maps": "open-field",
    "Urban Maps": "urban",
    "Tech-Facility Maps": "tech-facility",
}


# --------------------------------------------------------------------------- loading


@cache
def raw(name: str) -> dict[str, Any]:
    data = YAML(typ="safe").load((CATALOG_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@cache
def seed() -> str:
    if not SEED.is_file():
        pytest.skip(f"rules text not found at {SEED} (needs ../shared/seeds beside the repo)")
    return SEED.read_text(encoding="utf-8")


def seed_flat() -> str:
    """The seed with line breaks folded into spaces (sentences run over lines)."""
    return re.sub(r"\s+", " ", seed())


def table(title: str) -> list[list[str]]:
    """The rows of a markdown table that follows a line starting with ``title``."""
    lines = seed().splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(title)), None)
    if start is None:
        pytest.skip(f"table {title!r} not found in the rules text")
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if "|" not in line or re.match(r"(Terrain Effects|Soldier|Vehicle|Scatter)\b", line):
            break  # the end of the table, or the next table's title
        if set(line.replace("|", "").strip()) <= {"-"}:
            continue
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def terrain_tables() -> dict[str, list[list[str]]]:
    """Every Terrain Effects table of the seed, as rows of four cells."""
    out: dict[str, list[list[str]]] = {}
    current: str | None = None
    for line in seed().splitlines():
        m = re.match(r"Terrain Effects Table -- (.+?) \|", line)
        if m:
            current = TERRAIN_TABLES[m.group(1).strip()]
            out[current] = []
            continue
        if current is None:
            continue
        if line.startswith("Soldier Experience Table"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or set("".join(cells)) <= {"-"} or cells[0] == "Color":
            continue
        out[current].append(cells[:4])
    if not out:
        pytest.skip("no terrain tables in the rules text")
    return out


# --------------------------------------------------------------------------- the files


@pytest.mark.parametrize("name", ["system", *RACES])
def test_file_validates(name: str) -> None:
    TypeAdapter(CatalogFile).validate_python(raw(name))


def test_eleven_races() -> None:
    files = sorted(p.stem for p in CATALOG_DIR.glob("*.yaml") if p.stem != "system")
    assert files == sorted(RACES)
    for fid, (name, _) in RACES.items():
        assert raw(fid)["id"] == fid
        assert raw(fid)["name"] == name
        assert raw(fid)["system"] == "starmarines"


def test_races_are_those_of_section_iii() -> None:
    text = seed()
    section = text[text.index("III. The Races") : text.index("IV. Creating an Army")]
    headings = [
        line.strip() for line in section.splitlines() if re.fullmatch(r"The [\w' ]+", line.strip())
    ]
    assert headings == [h for _, h in RACES.values()]


# --------------------------------------------------------------------------- experience


def _effect(text: str, word: str) -> int:
    """'+1 attack rolls, +1 morale' -> 1 for 'morale'; 'n/a' / 'none' -> 0."""
    m = re.search(rf"([+-]\d+)(?: on)? {word}", text)
    return int(m.group(1)) if m else 0


def test_experience_table() -> None:
    rows = table("Soldier Experience Table")
    assert rows[0] == ["Level", "Cost", "Soldier Effect", "Leader Benefit"]
    levels = {e["name"]: e for e in raw("system")["experience"]}
    assert [r[0] for r in rows[1:]] == list(levels) == ["Green", "Average", "Veteran", "Elite"]
    for name, cost, soldier, leader in rows[1:]:
        data = levels[name]["data"]
        m = re.fullmatch(r"(\d+) per team or individual", cost)
        assert m, cost
        assert data["cost"] == int(m.group(1))
        assert data["soldier_effect"] == soldier
        assert data["leader_benefit"] == leader
        assert data["morale"] == _effect(soldier, "morale")
        assert data["attack"] == _effect(soldier, "attack rolls")
        assert data["leadership"] == _effect(leader, "leadership range")
    # spelled out, so a broken parser cannot pass the test silently
    costs = [levels[n]["data"]["cost"] for n in ("Green", "Average", "Veteran", "Elite")]
    assert costs == [0, 1, 2, 3]
    assert [levels[n]["data"]["morale"] for n in levels] == [-1, 0, 1, 1]
    assert [levels[n]["data"]["attack"] for n in levels] == [0, 0, 0, 1]
    assert [levels[n]["data"]["leadership"] for n in levels] == [0, 0, 1, 2]


def test_units_start_green() -> None:
    # Green costs 0: a unit for which no experience is bought is Green.
    assert raw("system")["default_experience"] == "green"


# --------------------------------------------------------------------------- wounding


def test_wounding_table() -> None:
    rows = table("Soldier Wounding Table")
    header = [c for c in rows[0] if c]
    assert header[0] == "Die Roll"
    columns = header[1:]
    assert columns == list(WOUNDING_COLUMNS)
    body = rows[1:]
    assert [r[0] for r in body] == [f"-{i}-" for i in range(1, 7)]
    for j, column in enumerate(columns, start=1):
        expected = [r[j] for r in body]
        assert raw(WOUNDING_COLUMNS[column])["data"]["wounding"] == expected, column


def test_races_without_a_wounding_column() -> None:
    rows = table("Soldier Wounding Table")
    header = " ".join(rows[0])
    for fid, word in (("nkakk", "Kakk"), ("colonials", "Colonial")):
        assert word not in header
        assert raw(fid)["data"]["wounding"] is None


# --------------------------------------------------------------------------- vehicles


def test_vehicle_damage_table() -> None:
    rows = table("Vehicle Damage Table")
    assert rows[0][:2] == ["Die Roll", "Result"]
    ours = raw("system")["data"]["vehicle_damage"]
    assert [r["roll"] for r in ours] == [1, 2, 3, 4, 5, 6]
    previous: dict[str, Any] = {}
    for cells, row in zip(rows[1:], ours, strict=True):
        roll, result = cells[0], cells[1]
        assert roll == f"-{row['roll']}-"
        word = result.split(" ")[0]
        assert row["result"] == word
        m = re.search(r"Level-(\d) repair", result)
        repair = int(m.group(1)) if m else previous.get("repair") if "as above" in result else None
        assert row["repair"] == repair, result
        assert row["loses_weapon"] == ("Lose 1 weapon" in result)
        previous = row
    # the damage levels of IX-B: 1 Stunned, 2 Disarmed or Crippled, 3 Destroyed
    text = seed_flat()
    assert "Level 1 is Stunned" in text
    assert "Level 2 is Disarmed or Crippled" in text
    assert "Level 3 is destroyed" in text
    levels = {"Stunned": 1, "Disarmed": 2, "Crippled": 2, "Destroyed": 3}
    assert all(r["level"] == levels[r["result"]] for r in ours)


def test_supertank_and_walker_immunities() -> None:
    text = seed_flat()
    imm = raw("system")["data"]["immunity"]
    m = re.search(r"supertanks\..*?cannot be harmed by any weapon with an AP of (\d) or less", text)
    assert m and imm["supertank"] == int(m.group(1)) == 1
    m = re.search(r"Small walkers cannot be harmed by any weapon with an AP of (\d) or less", text)
    assert m and imm["small-walker"] == int(m.group(1)) == 1
    m = re.search(r"Large walkers are immune to weapons with an AP of (\d) or less", text)
    assert m and imm["large-walker"] == int(m.group(1)) == 2
    assert "Reduce the damage level on the Vehicle Casualty Chart by 1 (never less than 1)" in text
    assert raw("system")["data"]["supertank_damage_shift"] == 1


def test_vehicle_sizes_and_motion_types() -> None:
    text = seed_flat()
    m = re.search(
        r"by their size \((\w+) or (\w+)\) and by their motion type \((\w+) or (\w+)\)", text
    )
    assert m
    cats = {c["id"]: c for c in raw("system")["categories"]}
    for word in m.groups():
        assert word.lower() in cats
    for word in ("supertank", "walker", "leader", "hero", "doctor", "fixer"):
        assert word in cats


def test_overrun() -> None:
    text = seed_flat()
    m = re.search(r"armor-pierce rating of (\d) and does (\d) points of damage", text)
    assert m
    esc = re.search(r"If the result is (\d) or higher, the soldier got out of the way", text)
    assert esc
    assert raw("system")["data"]["overrun"] == {
        "ap": int(m.group(1)),
        "damage": int(m.group(2)),
        "escape": int(esc.group(1)),
    }


# --------------------------------------------------------------------------- terrain


def test_terrain_tables() -> None:
    ours = raw("system")["data"]["terrain"]
    theirs = terrain_tables()
    assert list(ours) == list(theirs) == ["open-field", "urban", "tech-facility"]
    for key, rows in theirs.items():
        got = [[r["color"], r["terrain"], r["movement"], r["combat"]] for r in ours[key]]
        assert got == rows, key


# --------------------------------------------------------------------------- army creation


def test_build_points_in_groups_of_25() -> None:
    assert "given in groups of twenty-five" in seed_flat()
    assert raw("system")["data"]["game_size_step"] == 25
    assert raw("system")["cost_types"] == [{"id": "bp", "name": "Build points", "unit": "BP"}]


def test_attribute_costs_half_a_point() -> None:
    text = seed_flat()
    assert "All attributes have a point cost of 1/2" in text
    assert "An individual soldier can have only one attribute." in text
    (attribute,) = [e for e in raw("system")["shared_entries"] if e["id"] == "attribute"]
    assert attribute["costs"] == {"bp": 0.5}
    assert attribute["categories"] == ["attribute"]


def test_morale_modifiers() -> None:
    text = seed_flat()
    assert "Morale is at +1 if the soldier making the check is adjacent to at least two" in text
    assert "adjacent to a friendly Hero, morale is at +2" in text
    assert raw("system")["data"]["morale_adjacent"] == {"two-friends": 1, "hero": 2}


def test_race_rules() -> None:
    text = seed_flat()
    assert "Zrute armies use no vehicles" in text
    assert "there are no Saur vehicles" in text
    assert "robots never fail their morale checks" in text
    assert "their weapons are the same" in text  # Colonials
    assert "The smallest Saurs use weapons they have adapted from other races" in text
    assert raw("zrutes")["data"]["no_vehicles"] is True
    assert raw("saurs")["data"]["no_vehicles"] is True
    assert raw("nkakk")["data"]["never_fails_morale"] is True
    assert raw("colonials")["data"]["weapon_races"] == ["starmarines"]
    assert raw("saurs")["data"]["weapon_races"] == "any"
    for fid in set(RACES) - {"zrutes", "saurs"}:
        assert not raw(fid)["data"].get("no_vehicles")
    for fid in set(RACES) - {"nkakk"}:
        assert not raw(fid)["data"].get("never_fails_morale")


def test_race_files_hold_no_invented_units() -> None:
    # The race books are not part of our sources: the bundled races define no units.
    for fid in RACES:
        assert raw(fid).get("entries", []) == []
        assert raw(fid).get("shared_entries", []) == []


# --------------------------------------------------------------------------- own words


def _texts(node: Any) -> list[str]:
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("description", "name") and isinstance(v, str):
                out.append(v)
            else:
                out.extend(_texts(v))
    elif isinstance(node, list):
        for v in node:
            out.extend(_texts(v))
    return out


@pytest.mark.parametrize("name", ["system", *RACES])
def test_descriptions_are_our_own_words(name: str) -> None:
    """No description repeats eight words in a row of the rules text."""
    words = re.findall(r"[a-z0-9']+", seed_flat().lower())
    shingles = {" ".join(words[i : i + 8]) for i in range(len(words) - 7)}
    for text in _texts(raw(name)):
        ours = re.findall(r"[a-z0-9']+", text.lower())
        for i in range(len(ours) - 7):
            assert " ".join(ours[i : i + 8]) not in shingles, text


def test_every_rule_and_category_cites_a_section() -> None:
    system = raw("system")
    for item in [*system["rules"], *system["categories"], *system["experience"]]:
        assert item.get("source", "").startswith("StarMarines "), item["id"]


@pytest.mark.parametrize(
    "path",
    [
        REPO / "docs" / "systems" / "starmarines.md",
        REPO / "armybuilder" / "rules" / "systems" / "starmarines.py",
        REPO / "examples" / "starmarines" / "starmarines-example.yaml",
        REPO / "examples" / "starmarines" / "norx-example.yaml",
    ],
    ids=lambda p: p.name,
)
def test_docs_and_messages_are_our_own_words(path: Path) -> None:
    """The user documentation, the module's messages and the examples repeat no eight words
    in a row of the rules text."""
    words = re.findall(r"[a-z0-9']+", seed_flat().lower())
    shingles = {" ".join(words[i : i + 8]) for i in range(len(words) - 7)}
    ours = re.findall(r"[a-z0-9']+", path.read_text(encoding="utf-8").lower())
    copied = {" ".join(ours[i : i + 8]) for i in range(len(ours) - 7)} & shingles
    assert not copied
