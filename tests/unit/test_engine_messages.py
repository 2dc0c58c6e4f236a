"""A catalog's own messages (docs/catalog-format.md, "Messages a catalog raises"): a modifier
of field ``error``, ``warning`` or ``note`` adds its text when its conditions hold, and the
selection carries it as an issue of that severity: an error makes the roster illegal, a
warning flags it, a note only shows."""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest

from armybuilder.catalog import Library
from armybuilder.catalog.lint import check_paths
from armybuilder.cli import main
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate
from armybuilder.rules.engine import SubtreeMemo

SYSTEM = """
kind: system
id: msgs
name: Messages
cost_types:
  - {id: pts, name: Points}
"""

ARMY = """
kind: catalog
id: army
system: msgs
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    costs: {pts: 10}
    entries:
      - id: trooper
        name: Trooper
        type: model
      - id: launcher
        name: Launcher
        modifiers:
          # One launcher per 5 troopers: more than one in a squad of fewer than 10.
          - type: add
            field: error
            value: "Max 1 {name} per 5 troopers"
            conditions:
              - {type: less-than, value: 10, scope: parent, child: trooper}
              - {type: greater-than, value: 1, scope: parent, child: launcher}
      - id: banner
        name: Banner
        modifiers:
          - {type: add, field: warning, value: "a banner in a squad of fewer than 3 is unusual",
             conditions: [{type: less-than, value: 3, scope: parent, child: trooper}]}
    groups:
      - id: drills
        name: Drills
        entries: [{id: drill-a, name: Drill A}, {id: drill-b, name: Drill B}]
        modifiers:
          - {type: add, field: error, value: "Drill A and Drill B cannot be combined",
             conditions: [{type: at-least, value: 1, scope: self, child: drill-a},
                          {type: at-least, value: 1, scope: self, child: drill-b}]}
  - id: walker
    name: Walker
    type: unit
    costs: {pts: 65}
    modifiers:
      - {type: add, field: note, value: "the points of this unit are a guess"}
  - id: hero
    name: Hero
    type: unit
    modifiers:
      - {type: add, field: error, value: "only one Hero per roster",
         conditions: [{type: greater-than, value: 1, scope: roster, child: hero}]}
"""


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("catalogs")
    (root / "msgs").mkdir()
    (root / "msgs" / "system.yaml").write_text(SYSTEM)
    (root / "msgs" / "army.yaml").write_text(ARMY)
    return root


@pytest.fixture(scope="module")
def lib(root: Path) -> Library:
    found = Library([root], use_cache=False).scan()
    assert not found.problems, found.problems
    assert check_paths([root / "msgs"]) == []  # what `check-catalog` says
    return found


def roster(body: str) -> Roster:
    text = "system: msgs\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    return Roster.from_text(text, "t.yaml")


def run(lib: Library, body: str) -> Evaluation:
    gs = lib.system("msgs")
    return evaluate(roster(body), gs.index("army"), gs.rules)


def squad(troopers: int, launchers: int, extra: str = "") -> str:
    out = f"  - entry: squad\n    selections:\n      - {{entry: trooper, count: {troopers}}}\n"
    out += "      - {entry: launcher}\n" * launchers
    return out + extra


def test_an_error_message_holds_when_its_conditions_do(lib: Library) -> None:
    ev = run(lib, squad(5, 2))
    assert not ev.valid
    got = [(i.severity, i.code, i.message, i.path, i.entry) for i in ev.issues]
    said = "Squad > Launcher: Max 1 Launcher per 5 troopers"  # {name}: the selection's name
    assert got == [
        ("error", "catalog-message", said, ("selections", 0, "selections", 1), "launcher"),
        ("error", "catalog-message", said, ("selections", 0, "selections", 2), "launcher"),
    ]


@pytest.mark.parametrize(("troopers", "launchers"), [(5, 1), (10, 2), (9, 0)])
def test_no_message_when_its_conditions_fail(lib: Library, troopers: int, launchers: int) -> None:
    ev = run(lib, squad(troopers, launchers))
    assert ev.issues == []
    assert ev.valid


def test_a_warning_message_leaves_the_roster_legal(lib: Library) -> None:
    ev = run(lib, squad(2, 0, "      - {entry: banner}\n"))
    assert ev.valid
    assert [(i.severity, i.message) for i in ev.warnings] == [
        ("warning", "Squad > Banner: a banner in a squad of fewer than 3 is unusual")
    ]
    assert run(lib, squad(3, 0, "      - {entry: banner}\n")).issues == []


def test_a_note_shows_but_is_neither_error_nor_warning(lib: Library) -> None:
    ev = run(lib, "  - entry: walker\n")
    assert ev.valid
    assert ev.warnings == [] and ev.errors == []
    assert [(i.severity, i.message, i.entry) for i in ev.notes] == [
        ("note", "Walker: the points of this unit are a guess", "walker")
    ]


def test_a_group_message_is_on_the_selection_holding_the_group(lib: Library) -> None:
    both = "      - {entry: drill-a}\n      - {entry: drill-b}\n"
    ev = run(lib, squad(5, 0, both))
    assert [(i.severity, i.message, i.path, i.entry) for i in ev.issues] == [
        ("error", "Squad: Drill A and Drill B cannot be combined", ("selections", 0), "drills")
    ]
    assert run(lib, squad(5, 0, "      - {entry: drill-a}\n")).issues == []


def test_a_message_reading_the_roster_follows_edits_of_a_replayed_evaluation(
    lib: Library,
) -> None:
    """The first Hero's subtree is unchanged when a second is added, but its message reads
    the roster: it is worked out again, never replayed without it."""
    gs = lib.system("msgs")
    index = gs.index("army")
    one = roster("  - entry: hero\n")
    ev = evaluate(one, index, gs.rules, SubtreeMemo(index, gs.rules))
    assert ev.issues == []
    one.selections.append(roster("  - entry: hero\n").selections[0])
    two = evaluate(one, index, gs.rules, ev.memo_out)
    assert [i.message for i in two.errors] == ["Hero: only one Hero per roster"] * 2
    one.selections.pop()
    assert evaluate(one, index, gs.rules, two.memo_out).issues == []


def test_validate_prints_each_severity_and_strict_ignores_notes(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.yaml"
    notes.write_text("system: msgs\nfaction: army\nname: Walkers\nselections:\n  - entry: walker\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: msgs\nfaction: army\nname: Bad\nselections:\n" + squad(5, 2))
    args = ["validate", "--catalogs", str(root)]
    assert main([*args, "--strict", str(notes)]) == 0
    out = capsys.readouterr().out
    said = "note: Walker: the points of this unit are a guess [catalog-message]"
    assert f"{notes}:5:5: {said}" in out
    assert f"{notes}: legal (1 note)" in out
    assert main([*args, str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.count("error: Squad > Launcher: Max 1 Launcher per 5 troopers") == 2
    assert "NOT LEGAL (2 errors)" in out
    assert main([*args, "--format", "json", str(notes), str(bad)]) == 1
    walkers, squads = json.loads(capsys.readouterr().out)["rosters"]
    assert (walkers["valid"], walkers["errors"], walkers["warnings"], walkers["notes"]) == (
        True,
        0,
        0,
        1,
    )
    assert walkers["issues"][0]["severity"] == "note"
    assert walkers["issues"][0]["entry"] == "walker"
    assert [i["severity"] for i in squads["issues"]] == ["error", "error"]
    assert squads["valid"] is False


@pytest.mark.parametrize(
    ("modifier", "said"),
    [
        ("{type: set, field: error, value: oops}", "its type is `add`"),
        ("{type: add, field: warning, value: 3}", "write the message as its value"),
        ("{type: add, field: notes, value: hi}", "or error, warning, note for a message"),
    ],
)
def test_check_catalog_names_a_message_modifier_it_cannot_use(
    tmp_path: Path, modifier: str, said: str
) -> None:
    bad = ARMY.replace(
        '- {type: add, field: note, value: "the points of this unit are a guess"}',
        f"- {modifier}",
    )
    assert bad != ARMY
    (tmp_path / "msgs").mkdir()
    (tmp_path / "msgs" / "system.yaml").write_text(SYSTEM)
    (tmp_path / "msgs" / "army.yaml").write_text(bad)
    problems = [str(p) for p in check_paths([tmp_path / "msgs"])]
    assert len(problems) == 1, problems
    assert said in problems[0] and "army.yaml" in problems[0]


def test_exports_list_notes_apart_from_warnings(lib: Library) -> None:
    from armybuilder.render import export

    ev = run(lib, "  - entry: walker\n" + squad(2, 0, "      - {entry: banner}\n"))
    text = export(ev, "text").splitlines()
    assert "(1 warning: armybuilder validate lists them)" in text
    notes = text.index("Notes from the catalog:")
    assert text[notes + 1] == "- Walker: the points of this unit are a guess"
    md = export(ev, "markdown")
    assert "## Warnings (1)" in md and "## Notes from the catalog (1)" in md
    assert "1. Walker: the points of this unit are a guess `catalog-message`" in md
    html = export(ev, "html", sheets=False)
    assert "Warnings (1)" in html and "Notes from the catalog (1)" in html


def test_check_catalog_names_a_group_message_modifier_it_cannot_use(tmp_path: Path) -> None:
    bad = ARMY.replace(
        '- {type: add, field: error, value: "Drill A and Drill B cannot be combined",',
        '- {type: set, field: error, value: "Drill A and Drill B cannot be combined",',
    )
    assert bad != ARMY
    (tmp_path / "msgs").mkdir()
    (tmp_path / "msgs" / "system.yaml").write_text(SYSTEM)
    (tmp_path / "msgs" / "army.yaml").write_text(bad)
    problems = [str(p) for p in check_paths([tmp_path / "msgs"])]
    assert len(problems) == 1, problems
    assert "its type is `add`" in problems[0] and "army.yaml" in problems[0]
    # The library refuses the faction with the same words (it is never evaluated so).
    found = Library([tmp_path], use_cache=False).scan()
    assert any("its type is `add`" in str(p) for p in found.problems), found.problems


def test_the_groups_with_messages_are_kept_with_the_catalog_index(root: Path) -> None:
    """The engine works out an entry's groups with modifiers once per catalog index (not in a
    cache of its own that outlives the catalog): a catalog read again starts afresh."""
    both = "      - {entry: drill-a}\n      - {entry: drill-b}\n"
    lib = Library([root], use_cache=False).scan()
    ev = run(lib, squad(5, 0, both))
    squad_entry = ev.index.entries["squad"]
    known = ev.index.entry_checks(squad_entry)
    assert [(g.id, fields) for g, fields in known.message_groups] == [("drills", ("error",))]
    assert run(lib, squad(5, 0, both)).index.entry_checks(squad_entry) is known
    again = run(Library([root], use_cache=False).scan(), squad(5, 0, both))
    assert again.index.entry_checks(again.index.entries["squad"]) is not known
    assert [i.message for i in again.errors] == ["Squad: Drill A and Drill B cannot be combined"]
