"""The StarMarines example rosters and the worked example of docs/systems/starmarines.md.

The examples are built from made-up units (the race books are not part of our sources); the
figures checked here are the main rules' arithmetic on them: experience per team or
individual (X), attributes at 1/2 (IV-e), supertank and walker immunities (IV-g), the vehicle
damage table (X), formation levels (IV).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from armybuilder.catalog import GameSystem, Library, check_paths
from armybuilder.cli import main
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate_roster
from armybuilder.rules.engine import Node

REPO = Path(__file__).resolve().parents[3]
CATALOGS = REPO / "catalogs" / "starmarines"
EXAMPLES = REPO / "examples" / "starmarines"
DOC = REPO / "docs" / "systems" / "starmarines.md"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bundled")
    (root / "starmarines").symlink_to(CATALOGS)
    return root


@pytest.fixture(scope="module")
def system(bundled: Path) -> GameSystem:
    lib = Library([bundled], use_cache=False).scan()
    assert lib.problems == []
    return lib.system("starmarines")


def evaluate(path: Path, system: GameSystem) -> Evaluation:
    return evaluate_roster(Roster.from_file(path, round_trip=False), system)


def node(ev: Evaluation, name: str) -> Node:
    return next(n for n in ev.nodes() if ev.name(n) == name)


def value(ev: Evaluation, name: str, key: str) -> Any:
    return ev.value(node(ev, name), key)


# --------------------------------------------------------------------------- the examples


def test_there_are_two_examples_clearly_marked() -> None:
    files = sorted(p.name for p in EXAMPLES.glob("*.yaml"))
    assert files == ["norx-example.yaml", "starmarines-example.yaml"]
    for name in files:
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        assert "EXAMPLE ONLY" in text and "NOT official" in text
        data = YAML(typ="safe").load(text)
        assert data["name"].startswith("Example: ")
        assert data["custom"]  # built from custom units
        assert all(e.get("link", "").startswith("ex-") for e in data["custom"]["entries"])
        assert all(e["id"].startswith("ex-") for e in data["custom"]["shared_entries"])


def test_starmarines_example(system: GameSystem) -> None:
    ev = evaluate(EXAMPLES / "starmarines-example.yaml", system)
    assert ev.issues == []
    assert ev.index.faction.id == "starmarines"
    assert ev.totals["bp"] == 50
    assert ev.value(ev.root, "game_size") == 50
    assert ev.value(ev.root, "bp_left") == 0
    # experience: Lt. Kane Veteran 2, Alpha team Veteran 2 (once for 6 soldiers), Bravo team
    # Average 1, the Mauler Elite 3; the hero is Green (0)
    assert value(ev, "1st Platoon", "cost") == {
        "base": 27.5,
        "experience": 8,
        "attributes": 1,
        "weapons": 8.5,
        "total": 45,
    }
    assert value(ev, "Alpha team", "cost")["experience"] == 2
    assert value(ev, "Marksman", "morale")["value"] == 5  # 4, Veteran +1
    assert value(ev, "Marksman", "morale")["hero"] == 7  # +2 beside Sgt. Menkovich
    assert value(ev, "Lt. Kane", "leadership") == 3  # 2, Veteran +1
    assert value(ev, "Sgt. Menkovich", "morale") == {"checks": False}
    assert value(ev, "Mauler", "immunity")["max_ap"] == 1  # supertank
    # IX-A: a supertank's damage level is lowered by one: one hit never destroys it
    assert value(ev, "Mauler", "damage")["destroyed_on"] == []
    assert value(ev, "Mauler", "damage")["supertank_reading"] == "level"
    assert value(ev, "Mauler", "attack") == 1  # Elite
    assert value(ev, "Hover scout", "damage")["destroyed_on"] == [5, 6]
    assert value(ev, "Hover scout", "overrun") is None
    assert ev.value(ev.root, "formations")["highest"] == 2


def test_norx_example(system: GameSystem) -> None:
    ev = evaluate(EXAMPLES / "norx-example.yaml", system)
    assert ev.issues == []
    assert ev.index.faction.id == "norx"
    assert ev.totals["bp"] == 65
    assert ev.value(ev.root, "bp_left") == 10
    # two mobs at Average: 1 BP per team, two teams
    assert value(ev, "Choppers", "cost")["experience"] == 2
    # the trike squadron is one team of two trikes: Veteran once, 2 BP
    assert value(ev, "Trike squadron", "cost")["experience"] == 2
    assert value(ev, "Gorrak", "leadership") == 3  # 1, Elite +2
    assert value(ev, "Gorrak", "attack") == 0  # aim -1, Elite +1
    assert value(ev, "Combat walker", "immunity")["max_ap"] == 2  # large walker
    assert value(ev, "Halftrack", "immunity")["max_ap"] is None
    assert value(ev, "Halftrack", "overrun") == {"ap": 3, "damage": 5, "escape": 3}
    assert value(ev, "Battle trike", "overrun") is None  # small
    wounding = next(v for v in ev.roster_values if v.key == "wounding")
    assert wounding.display() == "wounded on 1–4, dead on 5–6"


@pytest.mark.parametrize("name", ["starmarines-example.yaml", "norx-example.yaml"])
def test_examples_show_and_validate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLES / name)]) == 0
    assert main(["show", str(EXAMPLES / name)]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "Legal" in out and "Weapon immunity:" in out


# --------------------------------------------------------------------------- the docs


def doc_blocks(kind: str) -> dict[str, str]:
    """Code blocks of the doc marked ``<!-- kind: name -->``."""
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(rf"<!-- {kind}: ([^>]+?) -->\n```\w+\n(.*?)```", text, re.DOTALL)
    return {name.strip(): body for name, body in found}


@pytest.fixture(scope="module")
def worked(bundled: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, Path]:
    blocks = doc_blocks("example")
    assert set(blocks) == {"my-starmarines.yaml", "patrol.yaml", "patrol-inline.yaml"}
    tmp = tmp_path_factory.mktemp("worked")
    user = tmp / "user"
    (user / "starmarines").mkdir(parents=True)
    (user / "starmarines" / "my-starmarines.yaml").write_text(
        blocks["my-starmarines.yaml"], encoding="utf-8"
    )
    for name in ("patrol.yaml", "patrol-inline.yaml"):
        (tmp / name).write_text(blocks[name], encoding="utf-8")
    lib = Library([bundled, user], use_cache=False).scan()
    return lib, tmp


def test_doc_user_catalog_is_clean(worked: tuple[Library, Path]) -> None:
    lib, tmp = worked
    assert lib.problems == []
    path = tmp / "user" / "starmarines" / "my-starmarines.yaml"
    assert check_paths([path], lib) == []


def test_doc_roster(worked: tuple[Library, Path]) -> None:
    lib, tmp = worked
    ev = evaluate(tmp / "patrol.yaml", lib.system("starmarines"))
    assert ev.issues == []
    # fire team: 5 soldiers 5, Veteran once 2, autocannon 1, attribute 0.5; Mauler 10 + 2 + 2
    assert ev.totals["bp"] == 22.5
    assert value(ev, "Fire team", "cost")["experience"] == 2


def test_doc_inline_roster_gives_the_same(worked: tuple[Library, Path], system: GameSystem) -> None:
    lib, tmp = worked
    a = evaluate(tmp / "patrol.yaml", lib.system("starmarines"))
    b = evaluate(tmp / "patrol-inline.yaml", system)
    assert b.issues == []
    assert a.totals == b.totals

    def values(ev: Evaluation) -> list[Any]:
        return [[(v.key, v.display()) for v in ev.values_of(n)] for n in ev.nodes()]

    assert values(a) == values(b)


def test_doc_show_output(
    worked: tuple[Library, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, tmp = worked
    (expected,) = doc_blocks("output").values()
    command, _, output = expected.partition("\n")
    assert command == "$ armybuilder show patrol.yaml"
    monkeypatch.chdir(tmp)
    assert main(["show", "--catalogs", str(tmp / "user"), "patrol.yaml"]) == 0
    assert capsys.readouterr().out == output


def test_a_group_bought_together_prints_its_price_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``show`` of the Norx example: the two Choppers mobs (a group bought together, IV-d) are
    priced for the group and then one by one, in words; the game size in groups of 25
    build points (IV-a); the formations by level. No bare "(2 × 9)" to puzzle out."""
    assert main(["show", str(EXAMPLES / "norx-example.yaml")]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "Cost: 18 BP for 2 (9 BP each): base 14, experience 2, weapons 2" in lines
    assert "Cost: 6 BP for 6 (1 BP each): base 6" in lines
    assert "Game size: 75 BP (3 groups of 25)" in lines
    assert "Formations: highest level 2 (1 at level 2, 3 at level 1)" in lines
    assert not [line for line in lines if line.startswith("Cost:") and "×" in line]
