"""Replay by what a unit's checks read, with the reads that look only inside the unit left out
(``Evaluation._mods_inside``, ``Evaluation._queries_inside``): a modified value, a category
or a condition whose every modifier condition and repeat counts (or tests) selections inside
the unit alone is the same wherever the same unit stands, so it is not kept in the unit's
trace nor read again after an edit elsewhere. A value whose modifiers look at the roster is
kept, and read again: whole where it is kept per scope selection, else by its conditions that
look outside alone (``Evaluation._reads_alone``). A unit's points are kept by what its costs
read (``Evaluation._costs_by_reads``).

Directed cases on a hand-written catalog where a unit's category is given by a modifier (so
that its checks are replayed by their reads, not by the catalog alone), each edit compared
with a fresh evaluation of the same roster, and each check that must change seen to change:
a limit of one squad that the captain's sword raises, and the points of every squad it
raises (an edit in the captain, the squads untouched); a minimum of another squad that the
captain's banner lowers, by a modifier that reads both the roster and the squad; a category
limit of the roster crossed by a count +1 (a squad made veteran by its fifth soldier), the
points limit crossed by the same count +1, and a relic allowed once per roster taken twice.
The tests after it break each shortcut on purpose and show the comparison then fails; the
last counts, on the 40k roster of benchmarks/bench_bsdata.py (``../shared/bsdata``; skipped
with a message where it is absent), how many reads the replayed units keep.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import marines_40k_text
from test_replay_traced import same

from armybuilder.catalog import Library
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.session import EditSession
from armybuilder.session.editor import Loc

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

SYSTEM = """
kind: system
id: evr
name: Eval Roster Wars
cost_types:
  - {id: pts, name: Points, unit: pts}
categories:
  - {id: hq, name: HQ}
  - {id: troops, name: Troops}
  - {id: model, name: Model}
  - {id: heavy, name: Heavy weapon}
  - {id: veteran, name: Veteran}
forces:
  - id: patrol
    name: Patrol
    slots:
      - {category: hq, min: 1, max: 2}
      - {category: troops, max: 3}
shared_entries:
  - id: cannon
    name: Cannon
    categories: [heavy]
    costs: {pts: 10}
  - id: soldier
    name: Soldier
    type: model
    categories: [model]
    costs: {pts: 5}
  - id: relic
    name: Relic
    costs: {pts: 5}
    constraints:
      - {type: max, value: 1, scope: roster, deep: true, source: "EVR 4.1"}
"""

ARMY = """
kind: catalog
id: army
system: evr
name: The Army
entries:
  - id: captain
    name: Captain
    type: unit
    categories: [hq]
    costs: {pts: 20}
    constraints: [{type: max, value: 1, scope: parent, source: "EVR 1.1"}]
    entries:
      - id: sword
        name: Sword
        costs: {pts: 2}
        constraints: [{type: max, value: 1, scope: parent}]
      - id: banner
        name: Banner
        costs: {pts: 1}
      - {link: relic}
  - id: squad
    name: Squad
    type: unit
    categories: [troops]
    costs: {pts: 10}
    constraints:
      - {id: members-min, type: min, value: 3, scope: self, child: model}
      - {id: heavy-max, type: max, value: 1, scope: self, child: heavy, source: "EVR 2.1"}
      - {type: max, value: 1, scope: roster, child: veteran, source: "EVR 2.2"}
    modifiers:
      - type: add
        field: categories
        value: veteran
        conditions: [{type: at-least, value: 5, scope: self, child: model}]
      - type: append
        field: name
        value: " (full)"
        conditions: [{type: at-least, value: 5, scope: self, child: model}]
      - type: set
        field: constraint:heavy-max
        value: 2
        conditions: [{type: at-least, value: 1, scope: roster, child: sword}]
      - type: set
        field: constraint:members-min
        value: 2
        conditions:
          - {type: at-least, value: 1, scope: roster, child: banner}
          - {type: at-least, value: 1, scope: self, child: heavy}
      - type: increment
        field: "cost:pts"
        value: 3
        conditions: [{type: at-least, value: 1, scope: roster, child: sword}]
    entries:
      - {link: soldier}
      - {link: cannon}
      - {link: relic}
"""

ROSTER = """system: evr
faction: army
name: Directed
limits: {pts: 150}
selections:
  - entry: captain
  - entry: squad
    selections:
      - {entry: soldier, count: 4}
  - entry: squad
    selections:
      - {entry: soldier, count: 5}
      - {entry: cannon, count: 2}
  - entry: squad
    selections:
      - {entry: soldier, count: 2}
      - {entry: cannon}
"""


def session(tmp_path: Path) -> EditSession:
    root = tmp_path / "catalogs"
    (root / "evr").mkdir(parents=True)
    (root / "evr" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "evr" / "army.yaml").write_text(ARMY, encoding="utf-8")
    library = Library([root], use_cache=False).scan()
    path = tmp_path / "directed.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    return EditSession.open(path, library, autosave=False)


def checked(s: EditSession, what: str) -> tuple[Evaluation, list[str]]:
    """The session's evaluation, compared with a fresh one, and its errors."""
    ev = s.evaluate()
    fresh = copy.copy(s.roster)
    fresh.refresh()
    same(ev, evaluate_roster(fresh, s.system), what)
    return ev, sorted(i.message for i in ev.errors)


def child(s: EditSession, loc: Loc, entry_id: str) -> Loc:
    return next(c for c in s.children_locs(loc) if (e := s.entry_at(c)) and e.id == entry_id)


def directed(s: EditSession) -> list[tuple[list[str], int, float]]:
    """The edits of the module's docstring; after each, the errors, how many units were
    replayed by their reads and the roster's points."""
    ev, _ = checked(s, "opened")
    captain, first, _second, _third = s.children_locs(())
    seen = []
    soldiers = child(s, first, "soldier")
    for what in ["sword", "banner", "plus", "undo", "redo", "relic", "relic2", "undo", "captain"]:
        if what == "sword":
            s.add(captain, "sword")  # the second squad (untouched) may now hold 2 cannons
        elif what == "banner":
            s.add(captain, "banner")  # the third (untouched) may now hold 2 soldiers
        elif what == "plus":
            s.set_count(soldiers, 5)  # the first squad made veteran, and over the points
        elif what == "undo":
            s.undo()
        elif what == "redo":
            s.redo()
        elif what == "relic":
            s.add(captain, "relic")
        elif what == "captain":
            s.add((), "captain")  # a second captain: at most one in the roster
        else:
            s.add(first, "relic")  # a second relic: at most one per roster
        ev, errors = checked(s, what)
        seen.append((errors, ev.traced_hits, ev.totals["pts"]))
    return seen


def test_roster_level_checks_follow_an_edit_to_one_unit(tmp_path: Path) -> None:
    s = session(tmp_path)
    _, before = checked(s, "opened")
    assert [m for m in before if "2 × Heavy weapon; at most 1 allowed" in m]
    assert [m for m in before if "2 × Model; at least 3 needed" in m]
    seen = directed(s)
    sword, banner, plus, undone, redone, relic, relic2, undone2, captain = (e for e, _, _ in seen)
    # The captain's sword raises the second squad's limit of heavy weapons: the squad is
    # untouched, its error goes; and each squad's points rise by 3 (what their costs read
    # from the roster: read again).
    assert [m for m in sword if "2 × Model; at least 3 needed" in m] == sword
    assert seen[0][2] == 20 + 2 + (30 + 3) + (55 + 3) + (30 + 3)
    # The captain's banner lowers the third squad's minimum of models (a limit whose
    # modifier reads both the roster and the squad itself): untouched, its error goes.
    assert banner == []
    # The fifth soldier makes a second veteran squad, and the roster 2 pts over.
    assert [m for m in plus if "× Veteran; at most 1 allowed" in m]
    assert [m for m in plus if "over the limit of 150 pts by 2 pts" in m]
    assert undone == [] and redone == plus
    assert len(relic) == len(plus)
    assert [m for m in relic2 if "2 × Relic; at most 1 allowed" in m]
    assert undone2 == relic
    assert [m for m in captain if "2 × Captain; at most 1 allowed" in m]
    # Units were replayed by their reads on the way (the captain at the count +1).
    assert seen[2][1] >= 1


def test_the_check_fails_when_every_read_is_taken_as_inside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the squad's limit, whose modifier counts swords in the roster, is
    left out of its trace as if it read the squad alone. The captain's sword must then leave
    a stale error on the untouched squad."""
    monkeypatch.setattr(Evaluation, "_queries_inside", lambda self, *a: True)
    with pytest.raises(AssertionError, match="sword"):
        directed(session(tmp_path))


def test_the_check_fails_when_a_value_kept_per_scope_is_traced_by_its_conditions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: a limit whose modifiers all look at the roster is kept per scope
    selection (the first squad works it out, the second finds it kept): traced by its
    conditions alone, the second squad's trace would hold none of them, and the captain's
    sword would leave a stale error on it. Such a value is read whole
    (``Evaluation._reads_alone`` answers so for values worked out afresh only)."""
    monkeypatch.setattr(Evaluation, "_reads_alone", lambda self, *a: self._in_trace(a[3]))
    with pytest.raises(AssertionError, match="sword"):
        directed(session(tmp_path))


def test_the_check_fails_when_a_condition_traced_alone_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the conditions of a value traced by its conditions
    (``Evaluation._reads_alone``) are read without being kept. The captain's banner
    must then leave a stale error on the third squad, which no other read of it sees."""
    traced = Evaluation._traced

    def dropping(self: Evaluation, fn: Any, at: int, args: tuple[Any, ...]) -> Any:
        if fn is Evaluation.condition_holds:
            self._trace_depth += 1
            try:
                return fn(self, *args)
            finally:
                self._trace_depth -= 1
        return traced(self, fn, at, args)

    monkeypatch.setattr(Evaluation, "_traced", dropping)
    with pytest.raises(AssertionError, match="banner"):
        directed(session(tmp_path))


def test_the_check_fails_when_a_cost_forgets_what_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the squads' totals are kept as if their costs read nothing from
    outside them (``Evaluation._costs_by_reads``). The captain's sword, which makes each squad
    3 pts dearer, must then leave stale totals."""
    traced = Evaluation._costs_by_reads

    def forgetful(self: Evaluation, node: Any, data: Any, out: Any) -> dict[str, float]:
        found = traced(self, node, data, out)
        kept = out.costs_traced.get(id(data))
        if kept is not None:
            out.costs_traced[id(data)] = (kept[0], kept[1], (), kept[3])
        return found

    monkeypatch.setattr(Evaluation, "_costs_by_reads", forgetful)
    with pytest.raises(AssertionError, match=r"sword: (totals|costs) differ"):
        directed(session(tmp_path))


def test_with_the_shortcut_off_the_same_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on = directed(session(tmp_path / "on"))
    # every shortcut off: each read kept whole, each unit's totals worked out again
    for name in ("_mods_inside", "_queries_inside", "_reads_alone"):
        monkeypatch.setattr(Evaluation, name, lambda self, *a: False)
    monkeypatch.setattr(Evaluation, "_costs_read_costs", lambda self: True)
    off = directed(session(tmp_path))
    assert [(e, pts) for e, _, pts in on] == [(e, pts) for e, _, pts in off]


def test_limits_held_under_the_roster_found_in_one_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entries under a selection found in one walk before their limits are looked at
    (``engine.HELD_BY_ONE_WALK``, here for every selection): the same errors and points as
    each entry looked for on its own (the second captain reported); and, broken on purpose
    (the walk finding nothing, at the roster too, where it is each top-level selection's
    part: Evaluation.entry_ids_under), the second captain goes unseen."""
    monkeypatch.setattr(engine, "HELD_BY_ONE_WALK", 10**9)
    alone = [(e, pts) for e, _, pts in directed(session(tmp_path / "alone"))]
    monkeypatch.setattr(engine, "HELD_BY_ONE_WALK", 0)
    assert [(e, pts) for e, _, pts in directed(session(tmp_path / "walked"))] == alone
    assert [m for m in alone[-1][0] if "2 × Captain; at most 1 allowed" in m]
    monkeypatch.setattr(engine, "_entry_ids_under", lambda node: set())
    monkeypatch.setattr(Evaluation, "entry_ids_under", lambda self, node: set())
    broken = [(e, pts) for e, _, pts in directed(session(tmp_path / "broken"))]
    assert broken[:-1] == alone[:-1] and broken[-1] != alone[-1]


def kept_reads(ev: Evaluation) -> int:
    memo = ev.memo_out
    assert memo is not None
    return sum(len(r.reads or ()) for r in memo.records.get("check-traced", {}).values())


def test_40k_replayed_units_keep_fewer_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the 1,910-point Space Marines roster, a count +1 in the first Intercessor Squad
    replays the other units; the reads they keep (and make again at every edit) are fewer
    than half of those kept with the shortcut off, and the evaluation is a fresh one's."""
    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    library = Library([BSDATA]).scan()
    text = marines_40k_text(library)
    kept = {}
    for on in (False, True):
        if not on:  # (every read kept, those that look only inside the unit too)
            for name in ("_mods_inside", "_queries_inside"):
                monkeypatch.setattr(Evaluation, name, lambda self, *a: False)
        else:
            monkeypatch.undo()
        path = tmp_path / f"sm-{on}.yaml"
        path.write_text(text, encoding="utf-8")
        s = EditSession.open(path, library, autosave=False)
        ev = s.evaluate()
        squad = next(n for n in ev.root.children if ev.name(n) == "Intercessor Squad")
        soldiers = next(c for c in squad.children if c.count > 1)
        s.set_count(soldiers.loc, soldiers.count + 1)
        ev, _ = checked(s, f"count +1 (shortcut {'on' if on else 'off'})")
        assert ev.traced_hits >= 15
        kept[on] = kept_reads(ev)
    assert kept[True] * 2 < kept[False], kept
