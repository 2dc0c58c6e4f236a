"""A modifier of a group's limits: one more choice of special weapon where the squad has
grown to five troopers, and one more again where the roster holds an armoury (BattleScribe
writes these as modifiers of the group's `max` constraint, `increment` with a condition:
the suite's ``battlescribe-data-model.md``, modifiers of a constraint's value).

The engine checks the group against its modified maximum; the builder allows the extra
choice (adding a second weapon goes beside the first instead of replacing it) and shows the
modified limit; and a squad whose group limit reads the roster is not judged on its own when
something else in the roster changes (:meth:`CatalogIndex.closed`): adding the armoury lifts
the limit of a squad the edit did not touch."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_library import SEM_SYSTEM, tiny_library, write_tiny_system

from armybuilder.catalog import Library
from armybuilder.fixes import fixes_for
from armybuilder.rules.engine import evaluate_roster
from armybuilder.session import EditSession

ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - {id: armoury, name: Armoury, type: unit}
  - id: team
    name: Team
    type: unit
    entries:
      - {id: knife, name: Knife}
    groups:
      - id: heavy
        name: Heavy weapon
        min: 1
        hidden: true
        modifiers:
          - type: set
            field: hidden
            value: false
            conditions: [{type: at-least, value: 1, scope: roster, child: armoury}]
        entries:
          - {id: cannon, name: Cannon}
  - id: squad
    name: Squad
    type: unit
    entries:
      - {id: trooper, name: Trooper, type: model}
    groups:
      - id: special
        name: Special weapon
        max: 1
        modifiers:
          - type: increment
            field: max
            value: 1
            conditions: [{type: at-least, value: 5, scope: self, child: trooper}]
          - type: increment
            field: max
            value: 1
            conditions: [{type: at-least, value: 1, scope: roster, child: armoury}]
        entries:
          - {id: flamer, name: Flamer}
          - {id: melta, name: Melta}
      - id: sergeant
        name: Sergeant
        modifiers:
          - type: set
            field: min
            value: 1
            conditions: [{type: at-least, value: 1, scope: self, child: trooper}]
        entries:
          - {id: sergeant-model, name: Sergeant, type: model}
"""

SQUAD = ("selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, ARMY)


def open_squad(tmp_path: Path, lib: Library, troopers: int, weapons: list[str]) -> EditSession:
    rows = [f"      - {{entry: trooper, count: {troopers}}}\n"] if troopers else []
    rows += [f"      - {{entry: {w}}}\n" for w in weapons]
    if troopers:
        rows.append("      - {entry: sergeant-model}\n")
    path = tmp_path / "r.yaml"
    path.write_text(
        "system: sem\nfaction: army\nname: T\nselections:\n  - entry: squad\n"
        + ("    selections:\n" + "".join(rows) if rows else "")
    )
    return EditSession.open(path, lib, autosave=False)


def messages(session: EditSession) -> list[str]:
    ev = session.evaluate()
    # (the session's evaluation is the one a fresh evaluation of the roster gives)
    fresh = evaluate_roster(session.roster, session.system)
    assert [i.message for i in ev.issues] == [i.message for i in fresh.issues]
    return [i.message for i in ev.issues]


def test_the_engine_checks_the_modified_maximum(tmp_path: Path, lib: Library) -> None:
    assert messages(open_squad(tmp_path, lib, 4, ["flamer", "melta"])) == [
        "Squad has 2 choices of Special weapon; at most 1 allowed"
    ]
    assert messages(open_squad(tmp_path, lib, 5, ["flamer", "melta"])) == []
    assert messages(open_squad(tmp_path, lib, 5, ["flamer", "melta", "flamer"])) == [
        "Squad has 3 choices of Special weapon; at most 2 allowed"
    ]


def test_a_modified_minimum_is_checked(tmp_path: Path, lib: Library) -> None:
    """The sergeant group asks for one choice once the squad has a trooper."""
    session = open_squad(tmp_path, lib, 0, [])
    assert messages(session) == []
    session.add(SQUAD, "trooper")
    assert messages(session) == ["Squad has 0 choices of Sergeant; at least 1 needed"]
    assert session.group_limits(SQUAD)["sergeant"].range_text == "at least 1"


def test_the_builder_allows_one_more_where_the_maximum_is_raised(
    tmp_path: Path, lib: Library
) -> None:
    # Four troopers: one special weapon; adding the melta swaps out the flamer.
    session = open_squad(tmp_path, lib, 4, ["flamer"])
    assert session.group_limits(SQUAD)["special"].count_text == "1/1"
    session.add(SQUAD, "melta")
    assert sorted(s["entry"] for s in session.node(SQUAD)["selections"]) == [
        "melta",
        "sergeant-model",
        "trooper",
    ]
    # Five: two; the melta goes in beside the flamer, and the limit shown says 2/2.
    session = open_squad(tmp_path, lib, 5, ["flamer"])
    assert session.group_limits(SQUAD)["special"].count_text == "1/2"
    info = {i.entry_id: i for i in session.option_infos(SQUAD)}
    assert info["melta"].costs == {"pts": 0.0}  # (priced as added, nothing swapped out)
    session.add(SQUAD, "melta")
    assert sorted(s["entry"] for s in session.node(SQUAD)["selections"]) == [
        "flamer",
        "melta",
        "sergeant-model",
        "trooper",
    ]
    assert session.group_limits(SQUAD)["special"].count_text == "2/2"
    assert messages(session) == []


def test_a_limit_that_reads_the_roster_follows_an_edit_elsewhere(
    tmp_path: Path, lib: Library
) -> None:
    """The squad is untouched by adding the armoury, yet its limit rises to 3 (five troopers
    and an armoury): the builder's evaluation after the edit is a fresh one's."""
    session = open_squad(tmp_path, lib, 5, ["flamer", "melta", "flamer"])
    assert not session.index.closed(session.index.entries["squad"])
    assert messages(session) == ["Squad has 3 choices of Special weapon; at most 2 allowed"]
    session.add((), "armoury")
    assert messages(session) == []
    session.undo()
    assert messages(session) == ["Squad has 3 choices of Special weapon; at most 2 allowed"]


def test_the_quick_fix_removes_down_to_the_modified_maximum(tmp_path: Path, lib: Library) -> None:
    session = open_squad(tmp_path, lib, 5, ["flamer", "melta", "flamer", "melta"])
    ev = session.evaluate()
    [issue] = ev.issues
    [fix] = fixes_for(ev, issue)
    assert fix.label == "Remove the last 2 choices of Special weapon"
    fix.apply(session)
    assert messages(session) == []


def test_a_group_shown_by_the_roster_follows_an_edit_elsewhere(
    tmp_path: Path, lib: Library
) -> None:
    """The team's heavy weapon group is hidden (nothing to choose, its minimum not asked)
    until the roster holds an armoury: adding one elsewhere asks the untouched team for its
    heavy weapon at once, as a fresh evaluation does."""
    path = tmp_path / "team.yaml"
    path.write_text(
        "system: sem\nfaction: army\nname: T\nselections:\n"
        "  - entry: team\n    selections: [{entry: knife}]\n"
    )
    session = EditSession.open(path, lib, autosave=False)
    assert not session.index.closed(session.index.entries["team"])
    assert messages(session) == []
    session.add((), "armoury")
    assert messages(session) == ["Team has 0 choices of Heavy weapon; at least 1 needed"]
    session.undo()
    assert messages(session) == []


def test_check_catalog_names_a_group_modifier_it_cannot_apply(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    bad = ARMY.replace(
        "          - type: increment\n            field: max\n            value: 1\n"
        "            conditions: [{type: at-least, value: 5, scope: self, child: trooper}]\n",
        "          - {type: append, field: max, value: 1}\n"
        "          - {type: set, field: 'cost:pts', value: 1}\n"
        "          - {type: set, field: min, value: lots}\n",
    )
    assert bad != ARMY
    root = write_tiny_system(tmp_path_factory.mktemp("bad"), SEM_SYSTEM, bad)
    found = Library([root], use_cache=False).scan()
    assert [p.message for p in found.problems] == [
        "a modifier of a group's 'max' changes a number: use set, increment or decrement",
        "a group's modifier field 'cost:pts' names nothing a group has (use hidden, min, max, "
        "constraint:<id of one of its constraints>, or error, warning, note for a message)",
        "a modifier of a group's 'min' needs a number as its value, not 'lots'",
    ]
