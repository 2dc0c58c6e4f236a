"""Adding a selection with what its minimums ask for (:func:`add_entry` with ``fill``, as the
opponent of ``--against`` is built from an entry id), and the quick fix of a broken minimum or
maximum, count each limit as the rules engine checks it.

A minimum counted per link (BattleScribe's default ``shared="false"``: each entry link counts
its own selections; ``shared-flag-semantics.md`` of the conformance suite's notes, "`shared`
on Constraints") is met only by selections made through its own option, and what is added for
it goes in through that option; a minimum counted across links (``shared="true"``, our
``per_link: false``) is met by a selection made through any of them, once, not once per
link. In each case the filled selection breaks no minimum."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_library import SEM_SYSTEM, tiny_library

from armybuilder.catalog import CatalogIndex, Library
from armybuilder.editing import add_entry
from armybuilder.fixes import fixes_for
from armybuilder.rosters import Roster
from armybuilder.rules import evaluate
from armybuilder.session import EditSession

ARMY = """
kind: catalog
id: army
system: sem
name: Army
shared_entries:
  - id: trooper
    name: Trooper
    type: model
    constraints:
      # At least one taken each way the entry is offered (per link).
      - {id: one-each-way, type: min, value: 1, scope: parent, per_link: true}
  - id: medic
    name: Medic
    type: model
    constraints:
      # At least one, whichever way it is taken.
      - {id: one-medic, type: min, value: 1, scope: parent}
  - {id: gun, name: Gun, type: upgrade}
  - id: sniper
    name: Sniper
    type: model
    constraints:
      # At most one taken each way the entry is offered (per link).
      - {id: one-sniper-each-way, type: max, value: 1, scope: parent, per_link: true}
entries:
  # A sniper offered plainly and as a spotter.
  - id: nest
    name: Nest
    type: unit
    entries:
      - {link: sniper}
      - {link: sniper, id: spotter, name: Spotter}
  # A trooper offered plainly and as a veteran: one of each.
  - id: squad
    name: Squad
    type: unit
    entries:
      - {link: trooper}
      - {link: trooper, id: veteran, name: Veteran}
  # The leader group's default (a trooper, through the group's link) does not meet the
  # plain trooper's own minimum.
  - id: team
    name: Team
    type: unit
    entries:
      - {link: trooper}
    groups:
      - id: lead
        name: Leader
        default: trooper
        entries:
          - {link: trooper, id: veteran-lead, name: Veteran leader}
  # One medic of either kind meets the medic's minimum: one is added, not two.
  - id: aid
    name: Aid post
    type: unit
    entries:
      - {link: medic}
      - {link: medic, id: field-medic, name: Field medic}
  # The post's own minimum of guns taken the plain way (counted per link, the gun's own id
  # counts only the guns taken through no link of their own id): not heavy guns.
  - id: post
    name: Post
    type: unit
    constraints:
      - {id: two-plain, type: min, value: 2, scope: self, child: gun, per_link: true}
    entries:
      - {link: gun}
      - {link: gun, id: heavy-gun, name: Heavy gun}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SEM_SYSTEM, ARMY)


@pytest.fixture(scope="module")
def index(lib: Library) -> CatalogIndex:
    return lib.system("sem").index("army")


def filled(index: CatalogIndex, unit: str) -> tuple[list[tuple[str, int]], list[str]]:
    """What adding ``unit`` with its minimums puts in it, and the minimums still broken."""
    roster = Roster.new("sem", "army", "T", {})
    loc = add_entry(roster, index, (), unit, fill=True)
    held = [(s["entry"], s.get("count", 1)) for s in roster.node(loc).get("selections") or []]
    ev = evaluate(roster, index, None)
    return held, [i.message for i in ev.issues if i.code == "min-not-met"]


def test_each_link_gets_its_own_minimum(index: CatalogIndex) -> None:
    assert filled(index, "squad") == ([("trooper", 1), ("veteran", 1)], [])


def test_a_minimum_met_through_another_link_is_not_met(index: CatalogIndex) -> None:
    assert filled(index, "team") == ([("veteran-lead", 1), ("trooper", 1)], [])


def test_a_minimum_across_links_is_met_once(index: CatalogIndex) -> None:
    assert filled(index, "aid") == ([("medic", 1)], [])


def test_a_units_own_minimum_per_link_adds_through_that_link(index: CatalogIndex) -> None:
    assert filled(index, "post") == ([("gun", 2)], [])


# The quick fix of a minimum counted per link reads the count the same way: the issue is the
# veteran's (none taken that way, two plain troopers), and its fix adds a veteran.


def unit(tmp_path: Path, lib: Library, selections: list[str], kind: str = "squad") -> EditSession:
    path = tmp_path / "r.yaml"
    rows = "".join(f"      - entry: {s}\n" for s in selections)
    path.write_text(
        f"system: sem\nfaction: army\nname: T\nselections:\n  - entry: {kind}\n"
        f"    selections:\n{rows}"
    )
    return EditSession.open(path, lib)


def test_the_quick_fix_adds_through_the_link_that_is_short(tmp_path: Path, lib: Library) -> None:
    session = unit(tmp_path, lib, ["trooper", "trooper"])
    ev = session.evaluate()
    [issue] = ev.issues
    assert issue.message == "Squad has 0 × Veteran; at least 1 needed"
    [fix] = fixes_for(ev, issue)
    assert fix.label == "Add 1 × Veteran"
    fix.apply(session)
    assert [s["entry"] for s in session.node(("selections", 0))["selections"]] == [
        "trooper",
        "trooper",
        "veteran",
    ]
    assert session.evaluate().issues == []


def test_the_quick_fix_removes_only_the_surplus_of_its_link(tmp_path: Path, lib: Library) -> None:
    """Two spotters and a sniper: only the spotters' limit is broken, by one."""
    session = unit(tmp_path, lib, ["sniper", "spotter", "spotter"], "nest")
    ev = session.evaluate()
    [issue] = ev.issues
    assert issue.message == "Nest has 2 × Spotter; at most 1 allowed"
    [fix] = fixes_for(ev, issue)
    assert fix.label == "Remove 1 × Spotter (the last first)"
    fix.apply(session)
    assert [s["entry"] for s in session.node(("selections", 0))["selections"]] == [
        "sniper",
        "spotter",
    ]
    assert session.evaluate().issues == []
