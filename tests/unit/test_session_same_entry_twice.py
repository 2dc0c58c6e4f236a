"""One entry offered twice under a selection: as a plain option and, through a link of its
own, as a choice of a pick-one group (a free issued rifle, or a spare rifle at its price).

BattleScribe tells the two apart by the link a selection was made through (its entry id is
the link's path; the conformance suite's ``entry-id-construction.md``), so the choice made in
the group is priced as the group's link says and counts in the group. A roster of ours names
the link by its own id where the entry's id would name the other option; adding, choosing in
the group and a group's default all record it so, and the file reads back the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_library import SEM_SYSTEM, tiny_library

from armybuilder.catalog import Library
from armybuilder.session import EditSession

SYSTEM = (
    SEM_SYSTEM
    + """shared_entries:
  - {id: rifle, name: Rifle, type: upgrade, costs: {pts: 5}}
"""
)

ARMY = """
kind: catalog
id: army
system: sem
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    costs: {pts: 10}
    entries:
      - {link: rifle, id: spare-rifle}
    groups:
      - id: weapon
        name: Weapon
        min: 1
        max: 1
        entries:
          - {link: rifle, id: issued-rifle, costs: {pts: 0}}
          - {id: flamer, name: Flamer, type: upgrade, costs: {pts: 3}}
  - id: team
    name: Team
    type: unit
    costs: {pts: 10}
    entries:
      - {link: rifle, id: team-spare}
    groups:
      - id: team-weapon
        name: Team weapon
        min: 1
        max: 1
        default: rifle
        entries:
          - {link: rifle, id: team-issued, costs: {pts: 1}}
"""

SQUAD = ("selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


@pytest.fixture
def session(tmp_path: Path, lib: Library, monkeypatch: pytest.MonkeyPatch) -> EditSession:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "r.yaml"
    path.write_text(
        "system: sem\nfaction: army\nname: T\nselections:\n"
        "  - entry: squad\n    selections:\n      - entry: flamer\n"
    )
    return EditSession.open(path, lib)


def kinds(session: EditSession) -> list[tuple[str | None, str | None, float]]:
    ev = session.evaluate()
    return [
        (
            n.link.id if n.link else None,
            n.group.id if n.group else None,
            ev.total_cost(n).get("pts", 0.0),
        )
        for n in ev.root.children[0].children
    ]


def test_the_group_choice_is_priced_and_counted_as_the_group_offers_it(
    session: EditSession, lib: Library
) -> None:
    session.add(SQUAD, "issued-rifle")  # in the place of the flamer (pick one)
    assert kinds(session) == [("issued-rifle", "weapon", 0.0)]
    ev = session.evaluate()
    assert ev.errors == []
    assert ev.totals["pts"] == 10.0
    session.add(SQUAD, "spare-rifle")
    assert kinds(session) == [("issued-rifle", "weapon", 0.0), ("spare-rifle", None, 5.0)]
    assert session.evaluate().totals["pts"] == 15.0
    # Saved and opened again: the same.
    session.save()
    again = EditSession.open(session.path, lib)
    assert kinds(again) == kinds(session)


def test_choosing_in_the_group_and_the_groups_default(session: EditSession) -> None:
    session.add(SQUAD, "spare-rifle")
    session.add(SQUAD, "issued-rifle")
    assert sorted(kinds(session), key=str) == [
        ("issued-rifle", "weapon", 0.0),
        ("spare-rifle", None, 5.0),
    ]
    loc = session.add((), "team")
    assert kinds_at(session, loc[-1]) == [("team-issued", "team-weapon", 1.0)]
    assert session.evaluate().errors == []


def kinds_at(session: EditSession, i: int | str) -> list[tuple[str | None, str | None, float]]:
    ev = session.evaluate()
    return [
        (
            n.link.id if n.link else None,
            n.group.id if n.group else None,
            ev.total_cost(n).get("pts", 0.0),
        )
        for n in ev.root.children[int(i)].children
    ]


def test_choose_names_the_groups_option_by_its_link(session: EditSession) -> None:
    session.add(SQUAD, "spare-rifle")
    session.choose(SQUAD, "weapon", "issued-rifle")
    assert sorted(kinds(session), key=str) == [
        ("issued-rifle", "weapon", 0.0),
        ("spare-rifle", None, 5.0),
    ]
    # Choosing the flamer replaces only the group's choice, not the spare rifle.
    session.choose(SQUAD, "weapon", "flamer")
    assert sorted(kinds(session), key=str) == [("spare-rifle", None, 5.0), (None, "weapon", 3.0)]


def test_the_quick_fix_for_an_empty_group_fills_the_group(
    tmp_path: Path, lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The team's weapon group (default: its issued rifle) left empty, with a spare rifle
    taken: the fix adds the issued rifle, in the group."""
    from armybuilder.fixes import fixes_for

    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    path = tmp_path / "r.yaml"
    path.write_text(
        "system: sem\nfaction: army\nname: T\nselections:\n"
        "  - entry: team\n    selections:\n      - entry: rifle\n"
    )
    session = EditSession.open(path, lib)
    assert kinds_at(session, 0) == [("team-spare", None, 5.0)]
    ev = session.evaluate()
    [issue] = ev.errors
    [fix] = fixes_for(ev, issue)
    assert fix.label == "Add 1 × Rifle"
    fix.apply(session)
    assert sorted(kinds_at(session, 0), key=str) == [
        ("team-issued", "team-weapon", 1.0),
        ("team-spare", None, 5.0),
    ]
    assert session.evaluate().errors == []


def test_the_roster_level_helper_adds_the_groups_default_as_the_session_does(
    lib: Library, session: EditSession
) -> None:
    from armybuilder.editing import add_entry
    from armybuilder.rosters import Roster

    roster = Roster.from_text("system: sem\nfaction: army\nname: T\nselections: []\n", "t.yaml")
    index = lib.system("sem").index("army")
    loc = add_entry(roster, index, (), "team")
    added = session.node(session.add((), "team"))
    assert roster.node(loc)["selections"] == added["selections"] == [{"entry": "team-issued"}]


def test_the_standard_add_records_the_groups_option_too(session: EditSession) -> None:
    from armybuilder.building import add_standard

    add_standard(session, SQUAD, "issued-rifle")
    assert kinds(session) == [("issued-rifle", "weapon", 0.0)]
    team = add_standard(session, (), "team")
    assert session.node(team)["selections"] == [{"entry": "team-issued"}]


def test_each_option_is_priced_and_added_by_the_id_that_names_it(session: EditSession) -> None:
    """The panes key an option by :meth:`EditSession.option_id` (the catalog pane's lines,
    the command palette, the group drop-downs): the plain rifle and the group's rifle are two
    options, each priced at what adding it raises the total by, each added as itself."""
    options = session.options(SQUAD)
    ids = [session.option_id(SQUAD, c) for c in options]
    assert ids == ["rifle", "issued-rifle", "flamer"]
    infos = session.option_infos(SQUAD)
    assert [(i.entry_id, i.costs["pts"]) for i in infos] == [
        ("rifle", 5.0),
        ("issued-rifle", -3.0),  # the free rifle in the place of the 3-pt flamer
        ("flamer", 0.0),  # already the group's choice
    ]
    for info, link in zip(infos[:2], ["spare-rifle", "issued-rifle"], strict=True):
        before = session.evaluate().totals["pts"]
        session.add(SQUAD, info.entry_id)
        assert session.evaluate().totals["pts"] - before == info.costs["pts"]
        assert link in [k[0] for k in kinds(session)]
        session.undo()
