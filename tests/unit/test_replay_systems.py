"""Subtree replay in an edit session, system by system: for every example roster of every game
system, a random walk of edits (adds, removals, counts, option choices, renames, experience,
undo and redo) is evaluated the way the builder does it (replaying what the edit did not touch) and
from scratch after every step, and the two must give the same issues, values and costs.

A rules module that opts into replay (``SystemRules.subtree_local``) promises that what it
works out for a top-level selection depends on that selection alone; the last tests show the
walk catches a module that breaks that promise.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.rules.engine import Evaluation, Node, evaluate_roster
from armybuilder.rules.systems.space_hulk import SpaceHulk, who
from armybuilder.session import EditError, EditSession

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))
#: The systems whose rules module opts into replay (StarMarines reads across the roster:
#: see benchmarks/README.md, "Issue 17: subtree replay in every system").
OPTED_IN = {"infantry-ops", "starship-marine", "space-hulk", "starship-troopers"}
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
    kind = rng.choice(
        ["add", "add", "remove", "count", "choose", "rename", "experience", "undo", "redo"]
    )
    try:
        if kind == "add":
            parent = loc if rng.random() < 0.7 else ()
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


def walk(path: Path, library: Library, seed: str, steps: int = STEPS) -> tuple[int, bool]:
    """Edit the example at random; after each step the session's evaluation (replaying)
    must equal a fresh one. Returns how many subtrees were replayed in all, and whether the
    session can replay this roster at all: not one of several forces (an edit there reads
    the whole roster again, so nothing is found untouched)."""
    s = EditSession.open(path, library, autosave=False)
    rng = random.Random(seed)
    if s.roster.forces is None:
        # A second top-level selection, so that an edit inside one leaves another to replay.
        tops = [c for c in s.options(()) if c.group is None]
        if tops:
            s.add((), tops[0].entry.id)
    s.evaluate()
    hits = 0
    for step in range(steps):
        tried = random_edit(s, rng, step)
        ev = s.evaluate()
        if ev.memo_out is not None:
            hits += ev.memo_out.hits
        full = evaluate_roster(s.roster, s.system)
        assert snapshot(ev) == snapshot(full), f"{path.name}, step {step} ({tried})"
    return hits, s.roster.forces is None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_edit_session_replays_exactly_what_a_full_evaluation_finds(
    path: Path, library: Library
) -> None:
    system = library.system(path.parent.name)
    opted = bool(getattr(system.rules, "subtree_local", False))
    assert opted == (system.id in OPTED_IN)
    hits, replayable = walk(path, library, f"replay {path.name}")
    if opted and replayable:
        assert hits > 0, "nothing was replayed: the comparison proves nothing"
    else:
        assert hits == 0


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
