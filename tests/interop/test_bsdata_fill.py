"""A unit added with its minimums filled (:func:`armybuilder.editing.add_entry` with ``fill``)
from real BattleScribe data (``../shared/bsdata``: 40k Space Marines with the catalogues it
links, Gaslands, Space Station Zero) arrives legal as far as its own counts go, as BattleScribe
fills it: each entry's minimum in its parent, then each group's minimum topped up with the
group's default choice (``defaultSelectionEntryId``; the conformance suite's
``selection-entry-group-default-with-max``: a group's minimum of 2 brings its default with a
number of 2). The folder is test data without a licence: these tests skip with a message
where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import CatalogIndex, Library, walk_groups
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Node, evaluate

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"
TACTICAL_SQUAD = "c09a-6504-d25f-477"
TACTICAL_MARINE = "fc38-382c-98c1-9b3d"
TACTICAL_SERGEANT = "a3e6-65a5-763f-4ac"
BOLT_PISTOL = "18b0-8c2-173f-5"
COUNT_CODES = ("min-not-met", "max-exceeded")

pytestmark = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


def _index(lib: Library, system: str) -> tuple[str, CatalogIndex]:
    gs = lib.system(system)
    faction = SM if system == "wh40k-10e" else next(iter(gs.factions))
    return faction, gs.index(faction)


def test_a_tactical_squad_arrives_with_nine_marines_and_its_sergeant(lib: Library) -> None:
    """Imperium - Space Marines.cat, Tactical Squad: its group "Tactical Marines" (default
    Tactical Marine) asks for 10 choices at least (constraint ``de29-1995-913a-8ea0``), the
    Tactical Marine for 7 to 9 (``bf86-6005-80d1-e554`` / ``1a10-2f1d-5108-12aa``), the
    Sergeant for 1. Filled: 1 sergeant and 7 marines, then 2 more of the default to make 10,
    in one selection of 9, each with its bolt pistol, close combat weapon and boltgun."""
    faction, index = _index(lib, "wh40k-10e")
    roster = Roster.new("wh40k-10e", faction, "T", {})
    loc = add_entry(roster, index, (), TACTICAL_SQUAD, fill=True)
    squad = roster.node(loc)["selections"]
    marines = [s for s in squad if s["entry"] == TACTICAL_MARINE]
    assert [s.get("count", 1) for s in marines] == [9]
    assert [s["entry"] for s in marines[0]["selections"]].count(BOLT_PISTOL) == 1
    assert [s.get("count", 1) for s in squad if s["entry"] == TACTICAL_SERGEANT] == [1]
    ev = evaluate(roster, index, None)
    own = [i.message for i in ev.issues if i.code in COUNT_CODES and i.path[: len(loc)] == loc]
    assert own == []


def _unexplained(index: CatalogIndex, node: Node, group_id: str) -> bool:
    """Whether a group's unmet minimum at ``node`` is one the data leaves to the player: the
    group has no default, or its default is none of the options there (a default that is not
    a child of its group: BattleScribe clears it at load, the suite's
    ``gamedata-coverage.md``, so it fills nothing either)."""
    if node.entry is None:
        return True
    group = next((g for g in walk_groups(node.entry.groups) if g.id == group_id), None)
    if group is None:
        return True  # not a group's minimum: always a failure
    return bool(group.default) and index.default_child(node.entry, group) is not None


@pytest.mark.parametrize("system", ["wh40k-10e", "gaslands", "space-station-zero"])
def test_every_unit_added_with_fill_has_no_count_error_of_its_own(
    lib: Library, system: str
) -> None:
    """Every top-level entry of the catalogue, each in a roster of its own. What may remain
    is a group's minimum the data gives no usable default for (a choice for the player);
    every other count error under the unit is a failure."""
    faction, index = _index(lib, system)
    failures: list[str] = []
    left_to_player = 0
    for option in index.roots:
        roster = Roster.new(system, faction, "T", {})
        loc = add_entry(roster, index, (), index.recorded_id(None, option), fill=True)
        ev = evaluate(roster, index, None)
        nodes = {n.loc: n for n in ev.root.walk()}
        for issue in ev.issues:
            if issue.code not in COUNT_CODES or issue.path[: len(loc)] != loc:
                continue
            node = nodes[issue.path]
            if issue.code == "max-exceeded" or _unexplained(index, node, issue.entry):
                failures.append(f"{option.entry.name}: {issue.message}")
            else:
                left_to_player += 1
    assert failures == []
    # (what is left is the data's: 40k has groups with no default, and defaults that name
    # an entry of another group or unit; Gaslands fills completely)
    assert (left_to_player > 0) == (system != "gaslands")
