"""Rosters of several forces (format 2, top-level ``forces:``): every format 1 file stays one
force and saves back unchanged; a format 2 file gives the engine its tree of forces, each
checked on its own (force scope, slots) and named in messages and JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.errors import RosterError
from armybuilder.model.roster import RosterFile
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "tests" / "tui" / "fixtures" / "catalogs" / "demo-wars"


def _roster_files() -> list[Path]:
    out = []
    for folder in (REPO / "examples", REPO / "tests"):
        for p in sorted(folder.rglob("*.yaml")):
            text = p.read_text(encoding="utf-8")
            if "\nsystem:" in text and "\nkind:" not in text and not text.startswith("kind:"):
                out.append(p)
    return out


ROSTER_FILES = _roster_files()


def test_the_shipped_rosters_are_found() -> None:
    assert len(ROSTER_FILES) >= 18
    assert sum(Roster.from_file(p).several for p in ROSTER_FILES) >= 1


@pytest.mark.parametrize("path", ROSTER_FILES, ids=lambda p: p.name)
def test_shipped_rosters_save_back_unchanged(path: Path) -> None:
    roster = Roster.from_file(path)
    # A format 1 file is one force (no `forces`); a format 2 file lists its forces.
    assert roster.several == (roster.header.format == 2)
    assert (roster.forces is None) == (roster.header.format == 1)
    text = path.read_text(encoding="utf-8")
    assert roster.dumps() == text
    # Written again through the dumper (as after an edit that was undone): the same bytes.
    roster.dirty = True
    assert roster.dumps() == text


BLUE = """\
kind: catalog
id: blue-league
system: demo-wars
name: Blue League
entries:
  - id: marshal
    name: Marshal
    type: unit
    categories: [hq]
    costs: {pts: 30}
  - id: lancers
    name: Lancers
    type: unit
    categories: [troops]
    costs: {pts: 15}
"""


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """Demo Wars (a Patrol force: exactly 1 HQ, at most 4 troops, Demo Wars 1.1) with a
    second faction."""
    root = tmp_path_factory.mktemp("catalogs")
    shutil.copytree(DEMO, root / "demo-wars")
    (root / "demo-wars" / "blue-league.yaml").write_text(BLUE, encoding="utf-8")
    lib = Library([root], use_cache=False).scan()
    assert not lib.problems, lib.problems
    return lib


TWO = """\
# Two patrols
format: 2
system: demo-wars
faction: red-army
name: Joint patrol
limits: {pts: 200}
forces:
  - force: patrol
    name: Red patrol
    selections:
      - entry: captain
        name: Captain Vos
      - entry: squad
        selections:
          - {entry: soldier, count: 3, selections: [{entry: rifle}]}
  - force: patrol   # no HQ yet
    faction: blue-league
    name: Blue patrol
    selections:
      - entry: lancers
    forces:
      - force: patrol
        selections:
          - entry: marshal
"""


def test_a_format_2_file_loads_its_forces_and_saves_back_unchanged() -> None:
    roster = Roster.from_text(TWO, "two.yaml")
    assert roster.several and roster.forces is not None
    red, blue = roster.forces
    assert (red.force, red.faction, red.name) == ("patrol", "red-army", "Red patrol")
    assert (blue.faction, blue.name) == ("blue-league", "Blue patrol")
    # A child force draws on its parent's faction unless it names its own.
    assert blue.forces[0].faction == "blue-league"
    assert [s.entry for s in red.selections] == ["captain", "squad"]
    assert red.selections[1].children[0].loc == (
        "forces",
        0,
        "selections",
        1,
        "selections",
        0,
    )
    assert [s.entry for s in roster.walk()] == [
        "captain",
        "squad",
        "soldier",
        "rifle",
        "lancers",
        "marshal",
    ]
    assert roster.factions() == ["red-army", "blue-league"]
    assert roster.dumps() == TWO
    roster.dirty = True
    assert roster.dumps() == TWO
    RosterFile.model_validate(YAML(typ="safe").load(TWO))


def test_each_force_is_checked_on_its_own(demo: Library) -> None:
    roster = Roster.from_text(TWO, "two.yaml")
    ev = evaluate_roster(roster, demo.system("demo-wars"))
    forces = ev.force_nodes()
    assert [ev.name(f) for f in forces] == ["Red patrol", "Blue patrol", "Patrol"]
    # Demo Wars 1.1: a patrol has exactly one HQ. The red one has its captain; the blue one
    # has none (its marshal is in the force inside it, which has its own slots).
    missing = [i for i in ev.issues if i.code == "min-not-met"]
    assert [(i.message, i.path) for i in missing] == [
        ("Blue patrol has 0 × HQ; at least 1 needed", ("forces", 1))
    ]
    # Totals: captain 20 + squad of 3 soldiers at 5 for red, lancers 15 + marshal 30 for blue.
    red, blue, inner = (ev.total_cost(f)["pts"] for f in forces)
    assert (red, blue, inner) == (35.0, 45.0, 30.0)
    assert ev.totals["pts"] == red + blue
    assert [ev.name(u) for u in ev.units()] == ["Captain Vos", "Squad", "Lancers", "Marshal"]


def test_a_force_takes_only_its_factions_entries(demo: Library) -> None:
    text = TWO.replace(
        "      - entry: lancers\n", "      - entry: lancers\n      - entry: captain\n"
    )
    ev = evaluate_roster(Roster.from_text(text, "two.yaml"), demo.system("demo-wars"))
    wrong = [i for i in ev.issues if i.code == "wrong-faction"]
    assert [i.message for i in wrong] == [
        "Blue patrol > Captain is not in the Blue League catalog this force draws on"
    ]
    assert wrong[0].path == ("forces", 1, "selections", 1)


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "r.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def _cli(demo: Library, args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    root = demo.roots[0]
    code = main(["--catalogs", str(root), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_validate_json_names_the_force_of_each_issue(
    demo: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _cli(demo, ["validate", "--format", "json", str(_write(tmp_path, TWO))], capsys)
    assert code == 1
    data = json.loads(out)["rosters"][0]
    issue = next(i for i in data["issues"] if i["code"] == "min-not-met")
    assert (issue["force"], issue["force_path"], issue["line"]) == ("Blue patrol", "forces[1]", 16)
    names = [(f["name"], f["valid"], f["totals"]["pts"]) for f in data["forces"]]
    assert names[1] == ("Blue patrol", False, 45.0)
    assert data["forces"][1]["forces"][0]["name"] == "Patrol"


def test_show_has_a_section_per_force(
    demo: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _cli(demo, ["show", str(_write(tmp_path, TWO))], capsys)
    assert code == 0
    lines = out.splitlines()
    heads = [line.strip() for line in lines if line.lstrip().startswith("==")]
    assert heads == [
        "=== Red patrol (Patrol, Red Army)  — Points 35 pts",
        "=== Blue patrol (Patrol, Blue League)  — Points 45 pts",
        "== Patrol (Blue League)  — Points 30 pts",
    ]
    assert lines.index(next(x for x in lines if "Lancers" in x)) > lines.index(
        next(x for x in lines if "Blue patrol" in x)
    )


BAD = {
    "both-format-1": (
        TWO.replace("format: 2", "format: 1").replace("\nforces:\n", "\nselections: []\nforces:\n"),
        "both `selections:` and `forces:`",
        (8, 1),
    ),
    "both-format-2": (
        TWO.replace("\nforces:\n", "\nselections: []\nforces:\n"),
        "top-level `selections:` in a roster with `format: 2`",
        (7, 1),
    ),
    "forces-in-format-1": (
        TWO.replace("format: 2", "format: 1"),
        "`forces:` (a roster of several forces) write `format: 2`",
        (7, 1),
    ),
    "format-2-without-forces": (
        "format: 2\nsystem: demo-wars\nfaction: red-army\nname: X\n",
        "lists its forces under `forces:`",
        (1, 9),
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_mixed_forms_are_refused_with_the_line(
    case: str, demo: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, words, (line, col) = BAD[case]
    with pytest.raises(RosterError) as exc:
        Roster.from_text(text, "r.yaml")
    problem = exc.value.problems[0]
    assert words in problem.message
    assert (problem.line, problem.column) == (line, col)
    code, out = _cli(demo, ["validate", str(_write(tmp_path, text))], capsys)
    assert code == 2
    assert f"r.yaml:{line}:{col}: " in out and "Traceback" not in out


def test_unknown_force_entry_and_faction_name_the_line(
    demo: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = TWO.replace("  - force: patrol   # no HQ", "  - force: raid   # no HQ")
    code, out = _cli(demo, ["validate", str(_write(tmp_path, text))], capsys)
    assert code == 1
    assert (
        "r.yaml:16:12: error: force 'Blue patrol': unknown force entry 'raid' "
        "(force entries: patrol) [unknown-force]"
    ) in out
    text = TWO.replace("faction: blue-league", "faction: green-horde")
    code, out = _cli(demo, ["validate", str(_write(tmp_path, text))], capsys)
    assert code == 2
    assert "r.yaml:17:14: " in out and "no faction 'green-horde'" in out


# --------------------------------------------------------------------------- fuzz

_names = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12
)
_selection = st.fixed_dictionaries(
    {"entry": st.sampled_from(["captain", "squad", "lancers", "nothing-known"])},
    optional={"count": st.integers(1, 9), "name": _names},
)


def _with_children(inner: st.SearchStrategy[dict]) -> st.SearchStrategy[dict]:  # type: ignore[type-arg]
    return st.fixed_dictionaries(
        {"force": st.just("patrol"), "forces": st.lists(inner, min_size=1, max_size=2)},
        optional={"selections": st.lists(_selection, max_size=2)},
    )


_force = st.recursive(
    st.fixed_dictionaries(
        {"force": st.sampled_from(["patrol", "raid"])},
        optional={
            "faction": st.sampled_from(["red-army", "blue-league"]),
            "name": _names,
            "selections": st.lists(_selection, max_size=3),
        },
    ),
    _with_children,
    max_leaves=5,
)


def _shape(forces: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    return [
        (
            f["force"],
            f.get("name"),
            [(s["entry"], s.get("count", 1), s.get("name")) for s in f.get("selections", [])],
            _shape(f.get("forces", [])),
        )
        for f in forces
    ]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_force, max_size=3))
def test_fuzzed_force_trees_load_as_written_and_save_back(forces: list[dict]) -> None:  # type: ignore[type-arg]
    import io

    doc = {"format": 2, "system": "demo-wars", "faction": "red-army", "name": "F", "forces": forces}
    buf = io.StringIO()
    YAML().dump(doc, buf)
    text = buf.getvalue()
    roster = Roster.from_text(text, "f.yaml")
    assert roster.forces is not None

    def shape(fs: list) -> list[tuple]:  # type: ignore[type-arg]
        return [
            (
                f.force,
                f.name,
                [(s.entry, s.count, s.name) for s in f.selections],
                shape(f.forces),
            )
            for f in fs
        ]

    assert shape(roster.forces) == _shape(forces)
    roster.dirty = True
    assert roster.dumps() == text
