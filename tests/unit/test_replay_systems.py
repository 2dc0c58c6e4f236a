"""Subtree replay in an edit session, system by system: for every example roster of every game
system, a random walk of edits (adds, removals, copies, moves, counts, option choices, renames,
experience, undo and redo) is evaluated the way the builder does it (replaying what the edit
did not touch) and from scratch after every step, and the two must give the same issues,
values and costs.

A rules module that opts into replay (``SystemRules.subtree_local``) promises that what it
works out for a top-level selection depends on that selection alone; the last tests show the
walk catches a module that breaks that promise.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Loc
from armybuilder.rules.engine import Evaluation, Node, evaluate_roster
from armybuilder.rules.systems.space_hulk import SpaceHulk, who
from armybuilder.rules.systems.starmarines import StarMarines
from armybuilder.rules.systems.starship_troopers import StarshipTroopers
from armybuilder.session import EditError, EditSession, operations

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))
#: The systems whose rules module opts into replay (all; StarMarines replays the engine's
#: checks and cost totals only, its analysis reads across the roster: see
#: benchmarks/README.md, "Issue 17: replay, fourth round").
OPTED_IN = {"infantry-ops", "starship-marine", "space-hulk", "starship-troopers", "starmarines"}
STEPS = 25


def snapshot(ev: Evaluation) -> dict[str, Any]:
    """What a player is shown: every issue, every value (in order) and every cost."""
    return {
        "issues": [i.to_json() for i in ev.issues],
        "totals": ev.totals,
        "roster": [(v.key, v.value, v.text, v.source) for v in ev.roster_values],
        "values": {
            n.loc: [(v.key, v.label, v.value, v.text, v.source) for v in ev.values_of(n)]
            for n in ev.nodes()
        },
        "costs": {n.loc: ev.total_cost(n) for n in ev.nodes()},
    }


def random_edit(s: EditSession, rng: random.Random, step: int) -> str:
    """One edit a player could make; returns what was tried (for the failure message)."""
    locs = [sel.loc for sel in s.roster.walk()]
    loc = rng.choice(locs) if locs else ()
    kinds = ["add", "add", "remove", "count", "choose", "rename", "experience", "undo", "redo"]
    # (a copy put after a selection, and a move: the selections after it shift, replayed)
    kinds += ["duplicate", "move"]
    forces = s.force_locs() if s.roster.forces is not None else []
    if forces:
        kinds += ["force"]
    kind = rng.choice(kinds)
    try:
        if kind == "force":
            return force_edit(s, rng, forces, step)
        if kind == "add":
            parent = loc if rng.random() < 0.7 else rng.choice(forces) if forces else ()
            options = [c for c in s.options(parent) if c.group is None]
            if options:
                s.add(parent, rng.choice(options).entry.id)
        elif kind == "choose":
            parent = loc if rng.random() < 0.8 else ()
            options = [c for c in s.options(parent) if c.group is not None]
            if parent and options:
                c = rng.choice(options)
                assert c.group is not None
                s.choose(parent, c.group.id, c.entry.id)
        elif kind == "remove" and locs:
            s.remove(loc)
        elif kind == "duplicate" and locs:
            s.duplicate(loc)
        elif kind == "move" and locs:
            s.move(loc, rng.choice([-2, -1, 1, 2]))
        elif kind == "count" and locs:
            s.set_count(loc, rng.randint(1, 3))
        elif kind == "rename" and locs:
            s.rename(loc, rng.choice([None, f"Renamed {step}", "Renamed"]))
        elif kind == "experience" and locs:
            # (inherited by what lies under the selection: replayed parts below must see it)
            levels = [None, *s.index.experience]
            s.set_experience(loc, rng.choice(levels))
        elif kind == "undo" and s.can_undo:
            s.undo()
        elif kind == "redo" and s.can_redo:
            s.redo()
    except EditError:
        pass  # a refused edit changes nothing; the comparison still runs
    return f"{kind} at {loc}"


def force_edit(s: EditSession, rng: random.Random, forces: list[Loc], step: int) -> str:
    """An edit of the forces of a roster of several: one added (of another faction at
    times), renamed, moved or removed (at least two are kept)."""
    loc = rng.choice(forces)
    kind = rng.choice(["add", "rename", "move", "remove"])
    try:
        if kind == "add":
            entry = rng.choice(s.force_entries()).id
            faction = rng.choice([None, *s.system.factions])
            added = s.add_force(entry, faction, rng.choice([None, f"Force {step}"]))
            tops = [c for c in s.options(added) if c.group is None]
            if tops:
                s.add(added, rng.choice(tops).entry.id)
        elif kind == "rename":
            s.rename_force(loc, rng.choice([None, f"Renamed force {step}"]))
        elif kind == "move":
            s.move_force(loc, rng.choice([-1, 1]))
        elif kind == "remove" and len(forces) > 2:
            s.remove_force(loc)
    except EditError:
        pass
    return f"force {kind} at {loc}"


def several_forces(s: EditSession) -> None:
    """Make the roster one of several forces (if its system has force entries): a second
    force of another faction, with a top-level selection of its own."""
    if s.roster.forces is not None or not s.force_entries():
        return
    other = next((f for f in s.system.factions if f != s.roster.faction), None)
    added = s.add_force(s.force_entries()[0].id, other, "Second front")
    tops = [c for c in s.options(added) if c.group is None]
    if tops:
        s.add(added, tops[0].entry.id)


def walk(path: Path, library: Library, seed: str, steps: int = STEPS, forces: bool = False) -> int:
    """Edit the example at random; after each step the session's evaluation (replaying)
    must equal a fresh one. ``forces``: first make the roster one of several forces (its
    edits then include the forces'). Returns how many subtrees were replayed in all."""
    s = EditSession.open(path, library, autosave=False)
    rng = random.Random(seed)
    if forces:
        several_forces(s)
    if s.roster.forces is None:
        # A second top-level selection, so that an edit inside one leaves another to replay.
        tops = [c for c in s.options(()) if c.group is None]
        if tops:
            s.add((), tops[0].entry.id)
    else:
        # A second top-level selection in each force, likewise.
        for where in s.force_locs():
            tops = [c for c in s.options(where) if c.group is None]
            if tops:
                s.add(where, tops[0].entry.id)
    s.evaluate()
    hits = 0
    for step in range(steps):
        tried = random_edit(s, rng, step)
        ev = s.evaluate()
        if ev.memo_out is not None:
            hits += ev.memo_out.hits
        # From scratch: the document read again whole (what the session re-read after the
        # edit must be what a fresh read gives) and evaluated without a memo.
        fresh = copy.copy(s.roster)
        fresh.refresh()
        full = evaluate_roster(fresh, s.system)
        assert snapshot(ev) == snapshot(full), f"{path.name}, step {step} ({tried})"
    return hits


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_edit_session_replays_exactly_what_a_full_evaluation_finds(
    path: Path, library: Library
) -> None:
    system = library.system(path.parent.name)
    opted = bool(getattr(system.rules, "subtree_local", False))
    assert opted == (system.id in OPTED_IN)
    hits = walk(path, library, f"replay {path.name}")
    if opted:
        assert hits > 0, "nothing was replayed: the comparison proves nothing"
    else:
        assert hits == 0


#: The examples of the systems with force entries (those whose rosters may be several forces).
SEVERAL = [p for p in EXAMPLES if p.parent.name == "starship-troopers"]


@pytest.mark.parametrize("path", SEVERAL, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_roster_of_several_forces_replays_the_forces_an_edit_did_not_touch(
    path: Path, library: Library
) -> None:
    """The same walk on the example made a roster of several forces (one of them of another
    faction), with forces added, renamed, moved and removed along the way."""
    assert walk(path, library, f"forces {path.name}", forces=True) > 0


def test_an_edit_in_one_force_replays_the_other(library: Library) -> None:
    """A trooper added to the Mobile Infantry force of a roster of two: the Arachnid force's
    selections are the same objects, its nodes are taken over and what was found in it is
    replayed, not computed again; the result is a fresh evaluation's."""
    path = REPO / "examples" / "starship-troopers" / "two-fronts.yaml"
    s = EditSession.open(path, library, autosave=False)
    s.evaluate()
    hive = s.roster.forces[1].selections[0]  # type: ignore[index]
    hive_node = next(n for n in s.evaluate().nodes() if n.data is hive)
    squad = s.roster.forces[0].selections[0].loc  # type: ignore[index]
    s.set_count((*squad, "selections", 0), 7)
    ev = s.evaluate()
    assert s.roster.forces[1].selections[0] is hive  # type: ignore[index]
    assert next(n for n in ev.nodes() if n.data is hive) is hive_node
    assert ev.memo_out is not None and ev.memo_out.hits >= 1
    assert snapshot(ev) == snapshot(evaluate_roster(s.roster, s.system))
    # A force renamed: the roster is read again whole, nothing stale is replayed.
    s.rename_force(("forces", 1), "The nest")
    again = s.evaluate()
    assert s.roster.forces[1].selections[0] is not hive  # type: ignore[index]
    assert snapshot(again) == snapshot(evaluate_roster(s.roster, s.system))
    assert "The nest" in {again.name(n) for n in again.root.children}


# --------------------------------------------------------------------------- a broken promise


class _ReadsTheRoster(SpaceHulk):
    """Space Hulk as it would be if a squad's own figures read the roster around it: each
    top-level selection is told how many models the whole roster has, but still opts in."""

    def _unit(self, ev: Evaluation, unit: Node) -> tuple[int, int, int]:
        got = super()._unit(ev, unit)
        everyone = sum(n.multiplicity() for n in ev.nodes() if n.entry is not None)
        ev.set_value(unit, "share", "Share of the roster", everyone)
        return got


class _ForgetsItsTwins(SpaceHulk):
    """Space Hulk replaying a top-level selection without its name as the key: the number it
    gets among unnamed twins (``Squad #2``) depends on the squads beside it."""

    def analyse(self, ev: Evaluation) -> None:
        for u in ev.units():
            if u.entry is not None:
                ev.subtree(u, "space-hulk", lambda u=u: self._called(ev, u))  # type: ignore[misc]

    def _called(self, ev: Evaluation, unit: Node) -> None:
        ev.set_value(unit, "called", "Called", who(ev, unit))


@pytest.mark.parametrize("module", [_ReadsTheRoster, _ForgetsItsTwins])
def test_the_walk_catches_a_module_that_reads_outside_its_subtree(
    module: type[SpaceHulk], library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = library.system("space-hulk")
    broken = module()
    monkeypatch.setattr(system, "rules", broken)
    found = False
    for path in sorted((REPO / "examples" / "space-hulk").glob("*.yaml")):
        for seed in range(3):
            try:
                walk(path, library, f"broken {seed}", steps=15)
            except AssertionError:
                found = True
                break
        if found:
            break
    assert found, f"{module.__name__} reads outside its subtree, and no walk noticed"


class _CountsEveryForce(StarshipTroopers):
    """Starship Troopers as it would be if a top-level selection's figures counted the
    selections of every force (still opting in): an edit in one force changes what the
    others' show, which a replay of them would miss."""

    def _top(self, ev: Evaluation, top: Node, *args: Any) -> Any:
        got = super()._top(ev, top, *args)
        everyone = sum(1 for n in ev.nodes() if n.entry is not None)
        ev.set_value(top, "everyone", "Selections in the roster", everyone)
        return got


def _stale_forces(
    roster: Any, lists: Any, roots: Any, shallow: bool = False, shift: Any = None
) -> None:
    """A re-read of an edited force that forgets to replace the force (its old selections
    stay in the parsed view)."""


@pytest.mark.parametrize("broken", ["module", "re-read"])
def test_the_forces_walk_catches_a_replay_across_forces_that_is_wrong(
    broken: str, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = library.system("starship-troopers")
    if broken == "module":
        monkeypatch.setattr(system, "rules", _CountsEveryForce())
    else:
        monkeypatch.setattr(operations, "_reparse_forces", _stale_forces)
    found = False
    for path in SEVERAL:
        for seed in range(3):
            try:
                walk(path, library, f"broken forces {seed}", steps=15, forces=True)
            except AssertionError:
                found = True
                break
        if found:
            break
    assert found, f"a wrong replay across forces ({broken}) went unnoticed"


class _ChargesPerArmy(StarMarines):
    """StarMarines as it would be if a top-level selection's charge depended on the rest of
    the roster (one more build point per other top-level selection), still opting in: the
    cost totals of the untouched selections, replayed, would be stale."""

    def extra_cost(self, ev: Evaluation, node: Node, cost_type: str) -> float:
        got = super().extra_cost(ev, node, cost_type)
        if cost_type == "bp" and node.parent is not None and node.parent.is_root:
            got += len(node.parent.children) - 1
        return got


def test_the_walk_catches_starmarines_costs_that_read_the_roster(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = library.system("starmarines")
    monkeypatch.setattr(system, "rules", _ChargesPerArmy())
    found = False
    for path in sorted((REPO / "examples" / "starmarines").glob("*.yaml")):
        for seed in range(3):
            try:
                walk(path, library, f"broken starmarines {seed}", steps=15)
            except AssertionError:
                found = True
                break
        if found:
            break
    assert found, "a StarMarines cost read across the roster, and no walk noticed"


def test_a_roster_with_its_own_entries_replays_until_they_change(library: Library) -> None:
    """The catalog made with a roster's ``custom:`` entries is kept from one evaluation to
    the next while they stay the same (so untouched squads are replayed), and made again the
    moment they change: a custom model's cost edited in the file's ``custom:`` is at once
    the cost of every selection of it (Starship Troopers, Characteristics, Value)."""
    path = REPO / "examples" / "starship-troopers" / "mi-with-own-units.yaml"
    s = EditSession.open(path, library, autosave=False)
    first = s.evaluate()
    top = s.roster.selections[0].loc
    s.rename(top, "Renamed")
    again = s.evaluate()
    assert again.index is first.index
    assert snapshot(again) == snapshot(evaluate_roster(s.roster, s.system))

    custom = s.roster.custom
    sergeant = next(e for e in custom["shared_entries"] if e["id"] == "example-sergeant")
    assert sergeant["costs"] == {"value": 40}
    sergeant["costs"] = {"value": 55}
    sergeant["profiles"][0]["characteristics"]["value"] = 55  # (they must agree)
    s.set((), "custom", custom)
    changed = s.evaluate()
    assert changed.index is not again.index
    assert snapshot(changed) == snapshot(evaluate_roster(s.roster, s.system))
    held = [n for n in changed.nodes() if n.data is not None and n.data.entry == "example-sergeant"]
    assert held and all(changed.unit_cost(n, "value") == 55 for n in held)
    assert changed.totals["value"] - again.totals["value"] == 15 * sum(
        n.multiplicity() for n in held
    )
