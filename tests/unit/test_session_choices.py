"""Choosing in groups (armybuilder.session, no Textual): a group whose maximum is 1 behaves like
radio buttons (adding a second choice replaces the first, in one undoable step); a group with a
larger maximum that is full refuses with a message naming the group and its limit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.session import EditError, EditSession

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "choices-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


@pytest.fixture
def squad(tmp_path: Path, lib: Library) -> EditSession:
    path = tmp_path / "standard-squad.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "standard-squad.yaml", path)
    return EditSession.open(path, lib)


#: Brother Deino: storm bolter and power fist (Space Hulk house rules, Space Marines Units and
#: Weapons: the standard kit). "Ranged weapon" is a pick-one group (max 1) in the catalog.
DEINO = ("selections", 0, "selections", 3)


def weapons(session: EditSession, loc: tuple[str | int, ...]) -> list[str]:
    return [s["entry"] for s in session.node(loc)["selections"]]


def test_adding_into_a_pick_one_group_swaps(squad: EditSession) -> None:
    assert weapons(squad, DEINO) == ["storm-bolter", "power-fist"]
    before = squad.evaluate()
    assert not [i for i in before.issues if "choices of" in i.message]
    loc = squad.add(DEINO, "assault-cannon")
    assert loc == (*DEINO, "selections", 0)  # in the place of the storm bolter
    assert weapons(squad, DEINO) == ["assault-cannon", "power-fist"]
    ev = squad.evaluate()
    # No "2 choices of Ranged weapon": the only error is the squad's third heavy weapon
    # (at most 2 per squad: Space Hulk house rules, Space Marines Units and Weapons).
    assert not [i for i in ev.issues if "choices of Ranged weapon" in i.message]
    assert [i.message for i in ev.errors] == [
        "1st Squad has 3 × Heavy weapon; at most 2 allowed "
        "(a Terminator squad may take at most 2 heavy weapons)"
    ]
    assert squad.history == ["Swap Storm Bolter for Assault Cannon"]
    # One undo gives the storm bolter back.
    squad.undo()
    assert weapons(squad, DEINO) == ["storm-bolter", "power-fist"]
    assert not squad.can_undo


def test_adding_the_current_choice_again_changes_nothing(squad: EditSession) -> None:
    with pytest.raises(EditError, match="already the choice of Ranged weapon"):
        squad.add(DEINO, "storm-bolter")
    assert weapons(squad, DEINO) == ["storm-bolter", "power-fist"]
    assert not squad.history


def test_choose_in_a_pick_one_group_is_one_step(squad: EditSession) -> None:
    squad.choose(DEINO, "terminator-melee", "thunder-hammer")
    assert weapons(squad, DEINO) == ["storm-bolter", "thunder-hammer"]
    assert squad.history == ["Choose Thunder Hammer"]
    squad.undo()
    assert weapons(squad, DEINO) == ["storm-bolter", "power-fist"]


def test_starship_marine_sca_one_replaces_sca_two(lib: Library) -> None:
    # A Martian marine carries SCA II by default; SCA I, II and III are one "Personal weapon"
    # (at most 1: Starship Marine 2.4).
    session = EditSession.new(lib, "starship-marine", "martian", "Test")
    squad = session.add((), "martian-squad")
    marine = session.add(squad, "marine")
    assert "sca-2" in weapons(session, marine)
    session.add(marine, "sca-1")
    chosen = weapons(session, marine)
    assert "sca-1" in chosen and "sca-2" not in chosen
    ev = session.evaluate()
    assert not [i for i in ev.issues if "Personal weapon" in i.message]
    session.undo()
    assert "sca-2" in weapons(session, marine) and "sca-1" not in weapons(session, marine)


TINY_SYSTEM = """\
kind: system
id: tiny
name: Tiny
cost_types: [{id: pts, name: Points, unit: pts}]
shared_entries:
  - {id: grenade, name: Grenade, costs: {pts: 1}}
  - {id: mine, name: Mine, costs: {pts: 2}}
"""

TINY_FACTION = """\
kind: catalog
id: side
system: tiny
name: Side
entries:
  - id: trooper
    name: Trooper
    type: model
    groups:
      - id: kit
        name: Kit
        max: 2
        entries: [{link: grenade}, {link: mine}]
"""


def test_a_full_group_says_so_instead_of_adding(tmp_path: Path) -> None:
    folder = tmp_path / "catalogs" / "tiny"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(TINY_SYSTEM, encoding="utf-8")
    (folder / "side.yaml").write_text(TINY_FACTION, encoding="utf-8")
    lib = Library([tmp_path / "catalogs"]).scan()
    assert not lib.problems, lib.problems
    session = EditSession.new(lib, "tiny", "side", "Test")
    trooper = session.add((), "trooper")
    session.add(trooper, "grenade")
    session.add(trooper, "mine")
    with pytest.raises(EditError) as exc:
        session.add(trooper, "grenade")
    assert str(exc.value) == (
        "Kit is full: 2 chosen, at most 2 allowed; remove one before adding Grenade"
    )
    assert weapons(session, trooper) == ["grenade", "mine"]
    assert session.history == ["Add Trooper", "Add Grenade", "Add Mine"]


def test_limits_and_costs_where_the_player_chooses(lib: Library, tmp_path: Path) -> None:
    from armybuilder.session import Limit, costs_text, limit_text

    assert [limit_text(*r) for r in ((1, 1), (0, 2), (0, None), (3, None))] == [
        "exactly 1",
        "0-2",
        "any number",
        "at least 3",
    ]
    assert Limit(6, 0, 7).count_text == "6/7"
    path = tmp_path / "rifle-platoon.yaml"
    shutil.copy(EXAMPLES / "infantry-ops" / "rifle-platoon.yaml", path)
    session = EditSession.open(path, lib)
    squad = ("selections", 0, "selections", 1)
    # Seven troopers to a foot squad, four squads to the platoon (Infantry Operations, The
    # Infantry Platoon, structure table); a rifleman with auto-rifle, grenades and vest weighs
    # 85 kg (the platoon's 2,380 kg over 28 troopers), and one added to this line of four
    # squads alike (`count: 4`) is one in each: the platoon's mass rises by 340 kg.
    trooper = next(i for i in session.option_infos(squad) if i.entry_id == "trooper")
    assert trooper.limit == Limit(7, 7, 7)
    assert costs_text(session.index, trooper.costs) == "340 kg"
    assert session.evaluate().totals["kg"] == 28 * 85
    squads = next(i for i in session.option_infos(("selections", 0)) if i.entry_id == "squad")
    assert squads.limit == Limit(4, 4, 4)


# --------------------------------------------------------------------------- campaign state

MAJOR = ("selections", 0, "selections", 0, "selections", 0)


@pytest.fixture
def boarding(tmp_path: Path, lib: Library) -> EditSession:
    path = tmp_path / "martian-boarding-group.yaml"
    shutil.copy(EXAMPLES / "starship-marine" / "martian-boarding-group.yaml", path)
    return EditSession.open(path, lib)


def test_state_without_a_colon_is_refused(boarding: EditSession) -> None:
    from armybuilder.rules.state import state_placeholder

    keys = boarding.state_keys
    assert {"actions", "wounds"} <= {k.name for k in keys}
    with pytest.raises(EditError) as exc:
        boarding.set_state(MAJOR, "wounds 2")
    assert "write key: value, e.g. " + state_placeholder(keys) in str(exc.value)
    with pytest.raises(EditError, match="not a mapping: write key: value"):
        boarding.set_state(MAJOR, "[1, 2]")
    assert boarding.node(MAJOR)["state"] == {"actions": 33, "wounds": 1}
    assert not boarding.history


def test_state_of_the_wrong_type_or_range_is_refused(boarding: EditSession) -> None:
    for typed in ("actions: many", "actions: -3", "wounds: 1.5"):
        with pytest.raises(EditError, match="campaign state: state"):
            boarding.set_state(MAJOR, typed)
    assert not boarding.history


def test_an_unknown_state_key_is_stored_with_a_warning(boarding: EditSession) -> None:
    # Starship Marine 4.9: experience comes from actions fought; a misspelt key must not
    # silently make a veteran a novice.
    warnings = boarding.set_state(MAJOR, "acitons: 31")
    assert len(warnings) == 1 and "did you mean 'actions'?" in warnings[0]
    assert boarding.node(MAJOR)["state"] == {"acitons": 31}
    issues = [i for i in boarding.evaluate().issues if i.code == "state-unknown-key"]
    assert issues and not issues[0].is_error
    assert boarding.set_state(MAJOR, "actions: 31, wounds: 2") == []
    assert boarding.node(MAJOR)["state"] == {"actions": 31, "wounds": 2}
