"""What a player reads about real BattleScribe data (``../shared/bsdata``; the tests skip
with a message where it is absent): no false verdict, no raw id, one message per limit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"
SISTERS_SQUAD = "73fc-a193-7da1-d9c4"  # Sisters of Battle Squad (in the Space Marines data)
BATTLE_SISTER = "b938-9487-0dc2-5cc3"
ID = r"[0-9a-f]{3,4}-[0-9a-f]{3,4}-[0-9a-f]{3,4}-[0-9a-f]{3,4}"

pytestmark = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


def test_a_squad_whose_default_is_defined_nowhere_counts_its_six_battle_sisters(
    lib: Library,
) -> None:
    # The squad's default choice of its Battle Sisters group names an entry the data does
    # not define: BattleScribe drops such a default, so nothing unknown is added
    # (tests/interop/test_bs_group_default.py). The squad's constraint (min 6 Battle Sister,
    # scope parent) must read the six that are there.
    index = lib.system("wh40k-10e").index(SM)
    roster = Roster.new("wh40k-10e", SM, "T", {})
    add_entry(roster, index, (), SISTERS_SQUAD, fill=True)
    ev = evaluate(roster, index, None)
    squad = ev.root.children[0]
    sisters = [c for c in squad.children if c.entry_id == BATTLE_SISTER]
    assert sum(c.count for c in sisters) == 6
    assert all(c.entry is not None for c in squad.children)
    msgs = [i.message for i in ev.issues]
    assert not any("× Battle Sister;" in m for m in msgs), msgs


def test_no_message_about_the_squad_prints_an_id(lib: Library) -> None:
    # The same squad: its Battle Sisters group's default (ae8a-…) is defined nowhere, so it
    # is no choice to suggest (and, dropped, it adds no unknown selection to name by its id).
    index = lib.system("wh40k-10e").index(SM)
    roster = Roster.new("wh40k-10e", SM, "T", {})
    add_entry(roster, index, (), SISTERS_SQUAD, fill=True)
    ev = evaluate(roster, index, None)
    msgs = [i.message for i in ev.issues]
    assert any("choices of Battle Sisters" in m for m in msgs), msgs
    assert not any(re.search(ID, m) for m in msgs), msgs


def test_a_sergeant_without_his_pistol_is_told_to_take_a_bolt_pistol(lib: Library) -> None:
    # The sergeant's "Weapon 1" group: defaultSelectionEntryId="206f-d005-75c8-2fe5", the id
    # of its entry link to the Bolt pistol (Imperium - Space Marines.cat).
    index = lib.system("wh40k-10e").index(SM)
    roster = Roster.new("wh40k-10e", SM, "T", {})
    squad = add_entry(roster, index, (), "c09a-6504-d25f-477", fill=True)  # Tactical Squad
    [at] = [
        i
        for i, s in enumerate(roster.node(squad)["selections"])
        if s["entry"] == "a3e6-65a5-763f-4ac"  # Tactical Marine Sergeant
    ]
    sergeant = (*squad, "selections", at)
    assert roster.node((*sergeant, "selections", 0))["entry"] == "18b0-8c2-173f-5"
    roster.remove((*sergeant, "selections", 0))  # his bolt pistol
    ev = evaluate(roster, index, None)
    msgs = [i.message for i in ev.issues]
    assert (
        "Tactical Squad > Tactical Marine Sergeant has 0 choices of Weapon 1; at least 1 needed"
        " (the usual choice is Bolt pistol)"
    ) in msgs


def test_totals_name_every_cost_type_the_data_defines(lib: Library) -> None:
    # "Honour Points" and "Relic Fragments" are cost types the Space Marines catalogue
    # defines itself (<costType id="8135-9a2f-6627-09e2" ...>), not the game system: the
    # totals name them as they name the system's ("pts"), never by a hex id; and the "pl"
    # costs no file defines (all 0) are left out of them.
    index = lib.system("wh40k-10e").index(SM)
    roster = Roster.new("wh40k-10e", SM, "T", {})
    add_entry(roster, index, (), "c09a-6504-d25f-477", fill=True)  # Tactical Squad
    ev = evaluate(roster, index, None)
    assert "honour-points" in ev.totals and "relic-fragments" in ev.totals
    assert [k for k in ev.totals if re.search(ID, k)] == []
    assert ev.totals["pts"] > 0


SSZ = BSDATA / "space-station-zero"


@pytest.mark.skipif(not SSZ.is_dir(), reason=f"the Space Station Zero test data is not at {SSZ}")
def test_a_crew_without_a_ship_type_is_told_once(lib: Library) -> None:
    # Space Station Zero.gst asks for a Ship Type three times: the force entry's category
    # link "Ship Type" (min 1, scope roster) and the root entry link to the Ship Type entry
    # (min 1 in scope parent, min 1 in scope roster). All three read the same "0 × Ship
    # Type" at the roster: the player reads it once, pointing at the Ship Type entry
    # (``f29d-d46d-a874-0e17``), which is what they add to fix it.
    roster = Roster.new("space-station-zero", "crew", "T", {})
    ev = evaluate(roster, lib.system("space-station-zero").index("crew"), None)
    ship = [i for i in ev.issues if "Ship Type" in i.message]
    assert [(i.message, i.entry) for i in ship] == [
        ("The roster 'T' has 0 × Ship Type; at least 1 needed", "f29d-d46d-a874-0e17")
    ]
