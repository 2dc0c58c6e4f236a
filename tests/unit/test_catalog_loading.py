"""Catalog loading: error positions for catalog authors, cross-references, the cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.catalog import Library, check_paths, load_catalog_file
from armybuilder.catalog import files as catalog_files
from armybuilder.cli import main
from armybuilder.errors import CatalogError

SYSTEM = """\
kind: system
id: demo
name: Demo
cost_types:
  - {id: pts, name: Points}
categories:
  - {id: troops, name: Troops}
shared_entries:
  - id: rifle
    name: Rifle
    costs: {pts: 1}
"""

FACTION = """\
kind: catalog
id: army
system: demo
name: Army
entries:
  - id: squad
    name: Squad
    categories: [troops]
    entries:
      - {link: rifle}
"""


def lint(tmp_path: Path, system: str = SYSTEM, faction: str = FACTION) -> list[str]:
    folder = tmp_path / "demo"
    folder.mkdir(exist_ok=True)
    (folder / "system.yaml").write_text(system)
    (folder / "army.yaml").write_text(faction)
    return [str(p) for p in check_paths([folder], Library([], use_cache=False))]


def test_clean_catalog_has_no_problems(tmp_path: Path) -> None:
    assert lint(tmp_path) == []


def test_yaml_syntax_error_position(tmp_path: Path) -> None:
    bad = FACTION.replace("      - {link: rifle}", "      - {link: rifle")
    (problem,) = lint(tmp_path, faction=bad)
    assert problem.startswith(f"{tmp_path / 'demo' / 'army.yaml'}:")
    assert "YAML syntax error" in problem
    assert ":10:" in problem or ":11:" in problem


def test_unknown_key_is_reported_with_line(tmp_path: Path) -> None:
    bad = FACTION.replace("    categories: [troops]", "    categories: [troops]\n    colour: red")
    (problem,) = lint(tmp_path, faction=bad)
    assert "army.yaml:9:13: unknown key 'colour'" in problem


def test_wrong_type(tmp_path: Path) -> None:
    bad = SYSTEM.replace("costs: {pts: 1}", "costs: {pts: lots}")
    problem, faction_problem = lint(tmp_path, system=bad)
    assert "not checked: its game system file system.yaml has errors" in faction_problem
    assert "system.yaml:11:" in problem
    assert "shared_entries.0.costs.pts" in problem
    assert "'lots'" in problem


def test_bad_id(tmp_path: Path) -> None:
    bad = FACTION.replace("id: squad", "id: Big Squad")
    (problem,) = lint(tmp_path, faction=bad)
    assert "army.yaml:6:" in problem
    assert "'Big Squad' is not an id" in problem


def test_bad_link(tmp_path: Path) -> None:
    bad = FACTION.replace("{link: rifle}", "{link: rilfe}")
    (problem,) = lint(tmp_path, faction=bad)
    assert "army.yaml:10:" in problem
    assert "link to 'rilfe', which is not a shared entry" in problem


def test_unknown_category_and_cost_type(tmp_path: Path) -> None:
    bad = FACTION.replace("categories: [troops]", "categories: [troop]\n    costs: {gold: 1}")
    problems = lint(tmp_path, faction=bad)
    assert len(problems) == 2
    assert any("army.yaml:8:" in p and "unknown category 'troop'" in p for p in problems)
    assert any("army.yaml:9:" in p and "unknown cost type 'gold'" in p for p in problems)


def test_duplicate_id(tmp_path: Path) -> None:
    bad = FACTION + "  - id: squad\n    name: Another squad\n"
    (problem,) = lint(tmp_path, faction=bad)
    assert "army.yaml:11:" in problem
    assert "duplicate entry id 'squad'" in problem


def test_bad_constraint_reference(tmp_path: Path) -> None:
    bad = FACTION.replace(
        "    categories: [troops]",
        "    categories: [troops]\n    constraints:\n"
        "      - {type: max, value: 1, scope: platoon, child: rilfe}",
    )
    problems = lint(tmp_path, faction=bad)
    assert any("counts 'rilfe'" in p for p in problems)
    assert any("scope 'platoon'" in p for p in problems)


def test_bad_modifier_field(tmp_path: Path) -> None:
    bad = FACTION.replace(
        "    categories: [troops]",
        "    categories: [troops]\n    modifiers:\n"
        "      - {type: set, field: 'constraint:nope', value: 3}",
    )
    (problem,) = lint(tmp_path, faction=bad)
    assert "modifier field 'constraint:nope'" in problem


def test_faction_of_unknown_system(tmp_path: Path) -> None:
    folder = tmp_path / "lonely"
    folder.mkdir()
    (folder / "army.yaml").write_text(FACTION.replace("system: demo", "system: nowhere"))
    problems = check_paths([folder], Library([], use_cache=False))
    assert len(problems) == 1
    assert "nowhere" in problems[0].message


def test_check_catalog_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lint(tmp_path)
    assert main(["check-catalog", str(tmp_path / "demo")]) == 0
    assert "no problems" in capsys.readouterr().out
    (tmp_path / "demo" / "army.yaml").write_text(FACTION.replace("{link: rifle}", "{link: x}"))
    assert main(["check-catalog", "--format", "json", str(tmp_path / "demo")]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False
    assert out["problems"][0]["line"] == 10


def test_bundled_catalogs_lint_clean(capsys: pytest.CaptureFixture[str]) -> None:
    from armybuilder.paths import bundled_dir

    assert main(["check-catalog", str(bundled_dir("catalogs"))]) == 0


def test_broken_user_catalog_does_not_break_the_rest(tmp_path: Path) -> None:
    lint(tmp_path, faction=FACTION.replace("{link: rifle}", "{link: x}"))
    lib = Library([tmp_path], use_cache=False).scan()
    assert "army" not in lib.system("demo").factions
    assert len(lib.problems) == 1


def test_user_catalog_adds_a_faction(tmp_path: Path) -> None:
    from armybuilder.paths import bundled_dir

    user = tmp_path / "user"
    (user / "infantry-ops").mkdir(parents=True)
    src = (bundled_dir("catalogs") / "infantry-ops" / "clan.yaml").read_text()
    (user / "infantry-ops" / "my-merc.yaml").write_text(
        src.replace("id: clan", "id: my-merc", 1).replace("name: Clan", "name: My Mercs", 1)
    )
    lib = Library([bundled_dir("catalogs"), user], use_cache=False).scan()
    assert not lib.problems
    assert "my-merc" in lib.system("infantry-ops").factions


def test_cache_is_used_and_invalidated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "system.yaml"
    path.write_text(SYSTEM)
    first = load_catalog_file(path)
    cached = list((tmp_path / "cache" / "catalogs").glob("*.json"))
    assert len(cached) == 1
    parses: list[str] = []
    real = catalog_files.load_safe
    monkeypatch.setattr(catalog_files, "load_safe", lambda t, f: parses.append(f) or real(t, f))
    again = load_catalog_file(path)
    assert parses == []  # served from the cache
    assert again.model == first.model
    path.write_text(SYSTEM.replace("name: Demo", "name: Demo 2"))
    changed = load_catalog_file(path)
    assert parses == [str(path)]
    assert changed.model.name == "Demo 2"


def test_corrupt_cache_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "system.yaml"
    path.write_text(SYSTEM)
    load_catalog_file(path)
    (cache,) = (tmp_path / "cache" / "catalogs").glob("*.json")
    cache.write_text("{not json")
    assert load_catalog_file(path).model.id == "demo"


def test_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("- just\n- a list\n")
    with pytest.raises(CatalogError) as info:
        load_catalog_file(path, use_cache=False)
    assert "must be a mapping" in str(info.value)


def test_wrong_kind(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("kind: army\nid: x\nname: X\n")
    with pytest.raises(CatalogError) as info:
        load_catalog_file(path, use_cache=False)
    assert "kind must be 'system'" in str(info.value)
    assert info.value.problems[0].line == 1
