"""The count and limit each catalog option shows when one entry is offered twice under a
selection (plainly through one link and, through another, as a pick-one group's choice) and
its maximum is counted per link (BattleScribe's default ``shared="false"``: each link counts
its own selections; ``shared-flag-semantics.md`` of the conformance suite's notes,
"`shared` on Constraints").

Each option's "n/max" is what that option's own constraint counts, as the rules engine counts
it (:meth:`Evaluation.query` per link): a rifle taken in the group leaves the spare rifle's
line at 0/1, and a second spare breaks only the spare's limit (2/1, and the engine's
max-exceeded) while the group's line stays at 1/1. A maximum counted across links (``per_link:
false``) still counts every selection of the entry on every line that it limits."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiny_library import SEM_SYSTEM, tiny_library

from armybuilder.catalog import Library
from armybuilder.session import EditSession

SYSTEM = (
    SEM_SYSTEM
    + """shared_entries:
  - id: rifle
    name: Rifle
    type: upgrade
    costs: {pts: 5}
    constraints:
      - {id: one-rifle, type: max, value: 1, scope: parent, per_link: true}
  - id: grenade
    name: Grenade
    type: upgrade
    costs: {pts: 1}
    constraints:
      - {id: two-grenades, type: max, value: 2, scope: parent}
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
      - {link: grenade, id: frag}
      - {link: grenade, id: smoke, name: Smoke grenade}
    groups:
      - id: weapon
        name: Weapon
        min: 1
        max: 1
        entries:
          - {link: rifle, id: issued-rifle, costs: {pts: 0}}
          - {id: flamer, name: Flamer, type: upgrade, costs: {pts: 3}}
"""

SQUAD = ("selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY)


@pytest.fixture
def session(tmp_path: Path, lib: Library) -> EditSession:
    path = tmp_path / "r.yaml"
    path.write_text(
        "system: sem\nfaction: army\nname: T\nselections:\n"
        "  - entry: squad\n    selections:\n      - entry: issued-rifle\n"
    )
    return EditSession.open(path, lib)


def shown(session: EditSession) -> dict[str, str]:
    return {i.entry_id: i.limit.count_text for i in session.option_infos(SQUAD)}


def maxed(session: EditSession) -> list[str]:
    return [i.message for i in session.evaluate().issues if i.code == "max-exceeded"]


def test_each_line_counts_what_its_own_per_link_limit_counts(session: EditSession) -> None:
    # The rifle taken in the group: its line is full, the spare's line has room.
    assert shown(session)["rifle"] == "0/1"
    assert shown(session)["issued-rifle"] == "1/1"
    assert maxed(session) == []
    session.add(SQUAD, "rifle")  # the spare: legal, each link holds one
    assert shown(session)["rifle"] == "1/1"
    assert shown(session)["issued-rifle"] == "1/1"
    assert maxed(session) == []
    session.add(SQUAD, "rifle")  # a second spare breaks the spare's limit, and only it
    assert shown(session)["rifle"] == "2/1"
    assert shown(session)["issued-rifle"] == "1/1"
    assert maxed(session) == ["Squad has 2 × Rifle; at most 1 allowed"]


def test_a_limit_counted_across_links_counts_every_line(session: EditSession) -> None:
    session.add(SQUAD, "frag")
    session.add(SQUAD, "smoke")
    # Two grenades of either kind: both lines are at the shared limit of 2.
    assert shown(session)["grenade"] == "2/2"
    assert shown(session)["smoke"] == "2/2"
    assert maxed(session) == []
    session.add(SQUAD, "smoke")
    assert shown(session)["grenade"] == shown(session)["smoke"] == "3/2"
    # (one limit, broken once: the engine reports it under the first link's name)
    assert maxed(session) == ["Squad has 3 × Grenade; at most 2 allowed"]


def test_each_line_agrees_with_the_engine_at_every_count(session: EditSession) -> None:
    """A line shows more than its maximum exactly when the engine reports that limit broken."""
    for option in ["rifle", "rifle", "frag", "smoke", "smoke", "frag"]:
        session.add(SQUAD, option)
        issues = session.evaluate().issues
        broken = {i.constraint for i in issues if i.code == "max-exceeded"}
        for info in session.option_infos(SQUAD):
            lim = info.limit
            over = lim.maximum is not None and lim.selected > lim.maximum
            constraint = {"rifle": "one-rifle", "issued-rifle": "one-rifle"}.get(
                info.entry_id, "two-grenades"
            )
            if info.entry_id == "flamer":
                continue
            if over:
                assert constraint in broken, (option, info)
        # (and every broken limit is over on some line)
        overs = [
            i.entry_id
            for i in session.option_infos(SQUAD)
            if i.limit.maximum is not None and i.limit.selected > i.limit.maximum
        ]
        assert bool(overs) == bool(broken), (option, overs, broken)
