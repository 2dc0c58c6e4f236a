"""Incremental evaluation: after an edit, replaying the untouched subtrees from the previous
evaluation gives exactly what evaluating the roster from scratch gives.

Random edit walks (adds, removals, counts, renames, campaign state, moves, undo and redo) on
every example roster compare the session's evaluation, which uses the memo, with a fresh
evaluation of the same roster, issue by issue and value by value.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalogs import Library
from armybuilder.rules.engine import Evaluation, SubtreeMemo, evaluate_roster
from armybuilder.session import EditError, EditSession, Loc

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def snapshot(ev: Evaluation) -> dict[str, Any]:
    return {
        "issues": [i.to_json() for i in ev.issues],
        "totals": ev.totals,
        "roster": [(v.key, v.value, v.text) for v in ev.roster_values],
        "values": {
            n.loc: [(v.key, v.value, v.text, v.source) for v in ev.values_of(n)] for n in ev.nodes()
        },
        "costs": {n.loc: ev.total_cost(n) for n in ev.nodes()},
    }


def all_locs(s: EditSession) -> list[Loc]:
    return [sel.loc for sel in s.roster.walk()]


def random_edit(s: EditSession, rng: random.Random, step: int) -> None:
    locs = all_locs(s)
    loc: Loc = rng.choice(locs) if locs else ()
    kind = rng.choice(
        ["add", "add", "add", "remove", "count", "rename", "state", "move", "undo", "redo"]
    )
    try:
        if kind == "add":
            parent = loc if rng.random() < 0.8 else ()
            options = s.options(parent)
            if options:
                s.add(parent, rng.choice(options).entry.id)
        elif kind == "remove" and locs:
            s.remove(loc)
        elif kind == "count" and locs:
            s.set_count(loc, rng.randint(1, 4))
        elif kind == "rename" and locs:
            s.rename(loc, rng.choice([None, f"Renamed {step}"]))
        elif kind == "state" and locs:
            s.set(loc, "state", {"actions": rng.randint(0, 40), "wounds": rng.randint(0, 3)})
        elif kind == "move" and locs:
            s.move(loc, rng.choice([-1, 1]))
        elif kind == "undo" and s.can_undo:
            s.undo()
        elif kind == "redo" and s.can_redo:
            s.redo()
    except EditError:
        pass  # a refused edit changes nothing; the comparison still runs


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_replaying_untouched_subtrees_matches_a_full_evaluation(
    path: Path, library: Library
) -> None:
    s = EditSession.open(path, library, autosave=False)
    rng = random.Random(path.name)
    for step in range(40):
        random_edit(s, rng, step)
        ev = s.evaluate()
        full = evaluate_roster(s.roster, s.system)
        assert snapshot(ev) == snapshot(full), f"step {step}: {s.history[-1:]}"


def test_an_edit_deep_in_a_regiment_replays_the_rest(library: Library) -> None:
    s = EditSession.open(
        REPO / "examples" / "starship-marine" / "earther-regiment.yaml", library, autosave=False
    )
    first = s.evaluate()
    assert first.memo_out is not None and first.memo_out.hits == 0
    logistics = ("selections", 0, "selections", 4)
    s.add(logistics, "truc")
    ev = s.evaluate()
    memo = ev.memo_out
    assert memo is not None
    # Only the regiment and its logistics group are on the path of the edit; the HQ and the
    # three marine groups are replayed whole, and so are the logistics group's other parts.
    assert memo.hits >= 4
    assert memo.misses <= 12
    assert snapshot(ev) == snapshot(evaluate_roster(s.roster, s.system))


def test_a_renamed_formation_renames_the_issues_inside_it(library: Library) -> None:
    s = EditSession.open(
        REPO / "examples" / "starship-marine" / "earther-regiment.yaml", library, autosave=False
    )
    squad = ("selections", 0, "selections", 1, "selections", 1)
    first_leader = ("selections", 0, "selections", 1, "selections", 1, "selections", 0)
    s.remove(first_leader)
    before = [i.message for i in s.evaluate().issues]
    s.rename(("selections", 0, "selections", 1), "Blue Group")
    after = [i.message for i in s.evaluate().issues]
    assert before != after and any("Blue Group" in m for m in after)
    assert snapshot(s.evaluate()) == snapshot(evaluate_roster(s.roster, s.system))
    assert s.entry_at(squad) is not None


def test_names_above_an_untouched_subtree_are_part_of_what_it_found(library: Library) -> None:
    # A formation whose label changes while the selections under it stay the same objects
    # (as when a catalog modifier renames it by what it holds): the messages inside name it.
    s = EditSession.open(
        REPO / "examples" / "starship-marine" / "earther-regiment.yaml", library, autosave=False
    )
    s.remove(("selections", 0, "selections", 1, "selections", 1, "selections", 0))
    ev = s.evaluate()
    assert any("291st Marine Regiment > " in i.message for i in ev.issues)
    roster = copy.copy(s.roster)
    top = roster.selections[0]
    roster.selections = [dataclasses.replace(top, name="Renamed Regiment"), *roster.selections[1:]]
    again = evaluate_roster(roster, s.system, ev.memo_out)
    assert again.memo_in is ev.memo_out
    assert any("Renamed Regiment > " in i.message for i in again.issues)
    assert snapshot(again) == snapshot(evaluate_roster(roster, s.system))


def test_catalogs_that_look_outside_a_subtree_are_evaluated_whole(library: Library) -> None:
    # Infantry Operations scopes constraints to the platoon around a selection.
    gs = library.system("infantry-ops")
    index = gs.index("inner-sphere")
    assert not index.subtree_local
    s = EditSession.open(REPO / "examples" / "infantry-ops" / "rifle-platoon.yaml", library,
                         autosave=False)  # fmt: skip
    assert s.evaluate().memo_out is None
    assert library.system("starship-marine").index("earther").subtree_local


def test_a_memo_from_another_catalog_is_not_used(library: Library) -> None:
    s = EditSession.open(
        REPO / "examples" / "starship-marine" / "earther-regiment.yaml", library, autosave=False
    )
    stranger = SubtreeMemo()
    ev = evaluate_roster(s.roster, s.system, stranger)
    assert ev.memo_in is None and ev.memo_out is not None and ev.memo_out.hits == 0
