"""Editing the forces of a roster: add (a roster of one force becomes format 2), remove,
reorder and rename, each one undoable step, journaled and replayed by recovery exactly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.session import EditError, EditSession, find_recovery

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures" / "catalogs" / "demo-wars"

ONE = """\
# yaml-language-server: $schema=x.json
format: 1
system: demo-wars
faction: red-army
name: Border patrol
selections:
  # the boss
  - entry: captain
    name: Captain Vos
  - entry: squad
    selections:
      - {entry: soldier, count: 3, selections: [{entry: rifle}]}
"""

BLUE = """\
kind: catalog
id: blue-league
system: demo-wars
name: Blue League
entries:
  - {id: marshal, name: Marshal, type: unit, categories: [hq], costs: {pts: 30}}
  - {id: lancers, name: Lancers, type: unit, categories: [troops], costs: {pts: 15}}
"""


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "forces-cache"))


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("catalogs")
    shutil.copytree(DEMO, root / "demo-wars")
    (root / "demo-wars" / "blue-league.yaml").write_text(BLUE, encoding="utf-8")
    return Library([root], use_cache=False).scan()


def _open(lib: Library, tmp_path: Path, text: str = ONE) -> tuple[Path, EditSession]:
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    return path, EditSession.open(path, lib)


def test_adding_a_second_force_writes_format_2_and_undo_gives_the_file_back(
    lib: Library, tmp_path: Path
) -> None:
    _, session = _open(lib, tmp_path)
    assert session.roster.dumps() == ONE  # one force: nothing changes until a force is added
    loc = session.add_force("patrol", "blue-league", "Blue patrol")
    assert loc == ("forces", 1)
    text = session.roster.dumps()
    assert text.startswith("# yaml-language-server: $schema=x.json\nformat: 2\n")
    assert "\nselections:" not in text  # the selections moved into the first force
    assert "  - force: patrol\n    faction: red-army\n    selections:\n" in text
    assert "# the boss\n      - entry: captain\n" in text  # its comment went with it
    assert text.endswith("  - force: patrol\n    faction: blue-league\n    name: Blue patrol\n")
    roster = session.roster
    assert roster.forces is not None and [f.name for f in roster.forces] == [None, "Blue patrol"]
    ev = session.evaluate()
    assert [ev.name(f) for f in ev.force_nodes()] == ["Patrol", "Blue patrol"]
    # One step: undo gives back the format 1 file exactly, redo the two forces.
    assert session.history[-1] == "Add force Blue patrol"
    session.undo()
    assert session.roster.forces is None and session.roster.dumps() == ONE
    session.redo()
    assert session.roster.dumps() == text


def test_force_edits_are_single_undoable_steps(lib: Library, tmp_path: Path) -> None:
    _, session = _open(lib, tmp_path)
    session.add_force("patrol", "blue-league", "Blue")
    third = session.add_force("patrol", name="Reserve")
    assert third == ("forces", 2)
    inner = session.add_force("patrol", parent=("forces", 1), name="Outriders")
    assert inner == ("forces", 1, "forces", 0)
    # Adding to a force: only its faction's entries.
    unit = session.add(("forces", 1), "lancers")
    assert unit == ("forces", 1, "selections", 0)
    with pytest.raises(EditError, match="not in the catalog this force draws on"):
        session.add(("forces", 1), "captain")
    assert [c.entry.id for c in session.options(("forces", 1))] == ["marshal", "lancers"]
    session.add(inner, "marshal")
    names = lambda: [session.evaluate().name(f) for f in session.evaluate().force_nodes()]  # noqa: E731
    assert names() == ["Patrol", "Blue", "Outriders", "Reserve"]
    before = session.roster.dumps()
    assert session.move_force(("forces", 2), -2) == ("forces", 0)
    assert names() == ["Reserve", "Patrol", "Blue", "Outriders"]
    session.rename_force(("forces", 1), "Red")
    assert names() == ["Reserve", "Red", "Blue", "Outriders"]
    assert session.remove_force(("forces", 2)) == ("forces", 1)
    assert names() == ["Reserve", "Red"]
    assert session.history[-3:] == [
        "Move force Reserve up",
        "Rename force to Red",
        "Remove force Blue",
    ]
    for _ in range(3):
        session.undo()
    assert session.roster.dumps() == before
    # The Blue force's own selections came back with it (Demo Wars 1.1: one HQ per patrol).
    ev = session.evaluate()
    assert [i.message for i in ev.issues if i.code == "min-not-met"] == [
        "Blue has 0 × HQ; at least 1 needed",
        "Reserve has 0 × HQ; at least 1 needed",
    ]


def test_force_edits_are_replayed_by_recovery(lib: Library, tmp_path: Path) -> None:
    path, session = _open(lib, tmp_path)
    session.add_force("patrol", "blue-league", "Blue")
    session.add(("forces", 1), "lancers")
    session.add_force("patrol", parent=("forces", 1))
    session.move_force(("forces", 1), -1)
    session.rename_force(("forces", 0), "Vanguard")
    session.remove_force(("forces", 1))
    session.undo()
    expected = session.roster.dumps()
    info = find_recovery(path)
    assert info is not None, "the force edits were not journaled"
    recovered = EditSession.recover(info, lib, autosave=False)
    assert recovered.roster.dumps() == expected
    assert [f.name for f in recovered.roster.all_forces()] == ["Vanguard", None, None]


def test_what_cannot_be_added_is_refused_with_a_reason(lib: Library, tmp_path: Path) -> None:
    _, session = _open(lib, tmp_path)
    with pytest.raises(EditError, match="unknown force entry 'raid'"):
        session.add_force("raid")
    with pytest.raises(EditError, match="no faction 'green'"):
        session.add_force("patrol", "green")
    with pytest.raises(EditError, match="select a force first"):
        session.remove_force(("selections", 0))
    assert session.roster.dumps() == ONE and not session.can_undo
    session.add_force("patrol")
    with pytest.raises(EditError, match="choose the force"):
        session.add((), "captain")
