"""Replay on the benchmark's regiment (benchmarks/bench_validate.py, issue 17): seeded random
walks of the edits a player makes in a large Infantry Operations roster (troopers added and
removed, counts, weapon and motive choices, renames, experience, platoons duplicated, moved
and removed, undo and redo). After every step the edit session's evaluation, which replays
the platoons the edit did not touch, must be byte for byte what a fresh evaluation of the
document read again whole finds: every issue with its line and column, every value (key,
label, value, text, source, in order, compared by ``repr``) and every selection's cost.

A deliberately wrong module (a platoon's figures that read how many platoons the roster
has) must be caught by the same walk, so that a replay shortcut that goes stale fails.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import regiment_roster

from armybuilder.catalog import Library
from armybuilder.rosters import Loc
from armybuilder.rules.engine import Evaluation, Node, evaluate_roster
from armybuilder.rules.systems.infantry_ops import InfantryOperations
from armybuilder.session import EditError, EditSession


@pytest.fixture(scope="module")
def regiment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The benchmark's regiment with one company per battalion: 15 platoons, every motive
    the benchmark uses (foot, jump, motorised, mechanised), several experience levels."""
    path = tmp_path_factory.mktemp("regiment") / "regiment.yaml"
    path.write_text(regiment_roster(companies=1), encoding="utf-8")
    return path


def exact(ev: Evaluation) -> list[str]:
    """What a player is shown, as text to compare byte for byte."""
    roster = ev.roster
    out = [
        f"I {i.severity}|{i.code}|{i.message}|{i.path}|{roster.position(i.path)}|{i.source}|"
        f"{i.entry}|{i.constraint}"
        for i in ev.issues
    ]
    out.append(f"T {ev.totals!r}")
    out += [f"R {v.key}|{v.label}|{v.value!r}|{v.text}|{v.source}" for v in ev.roster_values]
    for n in ev.nodes():
        out.append(f"N {n.loc} {ev.where(n)} {ev.total_cost(n)!r}")
        out += [f"V {v.key}|{v.label}|{v.value!r}|{v.text}|{v.source}" for v in ev.values_of(n)]
    return out


def _pick(s: EditSession, rng: random.Random, entry: str) -> Loc | None:
    locs = [sel.loc for sel in s.roster.walk() if sel.entry == entry]
    return rng.choice(locs) if locs else None


def regiment_edit(s: EditSession, rng: random.Random, step: int) -> str:
    """One edit of a kind a player makes in a regiment; returns what was tried."""
    kind = rng.choice(
        [
            "add trooper",
            "add trooper",
            "remove trooper",
            "remove item",
            "count",
            "choose",
            "motive",
            "rename",
            "experience",
            "duplicate",
            "move",
            "remove platoon",
            "undo",
            "undo",
            "redo",
        ]
    )
    loc: Loc | None = None
    try:
        if kind == "add trooper":
            loc = _pick(s, rng, "squad")
            if loc is not None:
                s.add(loc, "trooper", name=rng.choice([None, "Replacement"]))
        elif kind == "remove trooper":
            loc = _pick(s, rng, "trooper")
            if loc is not None:
                s.remove(loc)
        elif kind == "remove item":
            locs = [sel.loc for sel in s.roster.walk() if len(sel.loc) == 8]
            loc = rng.choice(locs) if locs else None
            if loc is not None:
                s.remove(loc)
        elif kind == "count":
            locs = [sel.loc for sel in s.roster.walk() if len(sel.loc) >= 4]
            loc = rng.choice(locs) if locs else None
            if loc is not None:
                s.set_count(loc, rng.randint(1, 3))
        elif kind in ("choose", "motive"):
            loc = _pick(s, rng, "trooper" if kind == "choose" else "platoon")
            if loc is not None:
                options = [c for c in s.options(loc) if c.group is not None]
                if kind == "motive":
                    options = [c for c in options if c.group is not None and "motive" in c.group.id]
                if options:
                    c = rng.choice(options)
                    assert c.group is not None
                    s.choose(loc, c.group.id, c.entry.id)
        elif kind == "rename":
            loc = _pick(s, rng, rng.choice(["platoon", "squad"]))
            if loc is not None:
                s.rename(loc, rng.choice([None, f"Renamed {step}", "Renamed"]))
        elif kind == "experience":
            loc = _pick(s, rng, rng.choice(["platoon", "squad"]))
            if loc is not None:
                s.set_experience(loc, rng.choice([None, *s.index.experience]))
        elif kind == "duplicate":
            loc = _pick(s, rng, "platoon")
            if loc is not None:
                s.duplicate(loc)
        elif kind == "move":
            loc = _pick(s, rng, "platoon")
            if loc is not None:
                s.move(loc, rng.choice([-1, 1, 2]))
        elif kind == "remove platoon":
            loc = _pick(s, rng, "platoon")
            if loc is not None:
                s.remove(loc)
        elif kind == "undo" and s.can_undo:
            s.undo()
        elif kind == "redo" and s.can_redo:
            s.redo()
    except EditError:
        pass  # a refused edit changes nothing; the comparison still runs
    return f"{kind} at {loc}"


def walk(path: Path, library: Library, seed: int, steps: int) -> int:
    """Edit the regiment at random; after each step the session's evaluation must equal a
    fresh one of the document read again. Returns the subtrees replayed in all."""
    s = EditSession.open(path, library, autosave=False, lazy=False)
    s.evaluate()
    rng = random.Random(seed)
    hits = 0
    for step in range(steps):
        tried = regiment_edit(s, rng, step)
        ev = s.evaluate()
        assert ev.memo_out is not None
        hits += ev.memo_out.hits
        fresh = copy.copy(s.roster)
        fresh.refresh()
        full = evaluate_roster(fresh, s.system)
        got, want = exact(ev), exact(full)
        if got != want:
            diff = next(i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b)
            raise AssertionError(
                f"seed {seed}, step {step} ({tried}): line {diff}\n  session {got[diff]}\n"
                f"  fresh   {want[diff]}"
                if diff < min(len(got), len(want))
                else f"seed {seed}, step {step} ({tried}): {len(got)} lines, not {len(want)}"
            )
    return hits


@pytest.mark.parametrize("seed", [1, 2])
def test_an_edit_session_on_the_regiment_replays_exactly_what_a_fresh_evaluation_finds(
    regiment: Path, library: Library, seed: int
) -> None:
    # Most of the roster is replayed at every step (15 platoons, one or two edited).
    assert walk(regiment, library, seed, steps=30) > 30 * 8


class _CountsThePlatoons(InfantryOperations):
    """Infantry Operations as it would be if a platoon's figures said how many platoons the
    roster has (still opting into replay): a platoon added or removed elsewhere changes what
    every platoon shows, which a replay of the untouched ones would miss."""

    def _platoon(self, ev: Evaluation, platoon: Node) -> Any:
        got = super()._platoon(ev, platoon)
        assert platoon.parent is not None
        ev.set_value(platoon, "of", "Platoons beside it", len(platoon.parent.children))
        return got


def test_the_regiment_walk_catches_a_platoon_that_reads_the_roster(
    regiment: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = library.system("infantry-ops")
    monkeypatch.setattr(system, "rules", _CountsThePlatoons())
    with pytest.raises(AssertionError, match="Platoons beside it"):
        walk(regiment, library, 1, steps=30)


# --------------------------------------------------------------------------- squads by counts


def test_a_squad_is_replayed_by_the_counts_of_its_platoon(regiment: Path, library: Library) -> None:
    """A squad is not closed (its costs and structure read the platoon's motive:
    Infantry Operations, The Infantry Platoon, structure table; movement table), but what it
    reads there is counts. The platoon's motive removed, then chosen again (jump, so a
    trooper weighs 80 kg more and a platoon fields three squads: Infantry Operations,
    movement table and structure table), leaves the squads the same selections; they must
    be worked out again with the new counts, and the same counts must replay them."""
    s = EditSession.open(regiment, library, autosave=False, lazy=False)
    s.evaluate()
    platoon = next(sel.loc for sel in s.roster.walk() if sel.entry == "platoon")
    motive = s.roster.selections[platoon[1]].children[0]
    assert motive.entry == "foot"
    s.remove(motive.loc)
    s.evaluate()
    squads = [c for c in s.roster.selections[platoon[1]].children if c.entry == "squad"]
    s.choose(platoon, "motive", "jump")
    ev = s.evaluate()
    # The squads are the same selections, their costs and checks those of a jump platoon.
    assert [c for c in s.roster.selections[platoon[1]].children if c.entry == "squad"] == squads
    assert all(
        a is b
        for a, b in zip(
            [c for c in s.roster.selections[platoon[1]].children if c.entry == "squad"],
            squads,
            strict=True,
        )
    )
    assert exact(ev) == exact(evaluate_roster(s.roster, s.system))
    node = next(n for n in ev.root.children if n.loc == platoon)
    trooper = next(n for n in node.walk() if n.entry_id == "trooper")
    assert ev.unit_cost(trooper, "kg") == 85 + 80
    # An edit elsewhere in the platoon: the squads it did not touch are replayed.
    s.rename(squads[0].loc, "First squad")
    again = s.evaluate()
    assert again.memo_out is not None and again.memo_out.keyed
    assert exact(again) == exact(evaluate_roster(s.roster, s.system))


def test_a_squad_replayed_without_the_counts_above_it_is_caught(
    regiment: Path, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same steps with the counts left out of the replay's key (so a squad is replayed
    whenever it is the same selection): the squads keep a foot platoon's costs, and the
    comparison with a fresh evaluation fails."""
    real = Evaluation._outside_key

    def blind(self: Evaluation, node: Node) -> tuple[float, ...] | None:
        return None if real(self, node) is None else ()

    monkeypatch.setattr(Evaluation, "_outside_key", blind)
    with pytest.raises(AssertionError) as caught:
        test_a_squad_is_replayed_by_the_counts_of_its_platoon(regiment, library)
    assert "T {'kg'" in str(caught.value)  # (the roster's mass: the squads' stale costs)


def test_a_renamed_platoon_keeps_its_squads_and_shows_the_new_name_in_them(
    regiment: Path, library: Library
) -> None:
    """A rename reads the renamed selection again, not what lies under it (the same
    selections: their costs are replayed); the squads' messages, which name the platoon, are
    worked out again and show the new name."""
    s = EditSession.open(regiment, library, autosave=False, lazy=False)
    s.evaluate()
    i = next(k for k, sel in enumerate(s.roster.selections) if sel.entry == "platoon")
    before = s.roster.selections[i].children
    s.rename(("selections", i), "Renamed platoon")
    ev = s.evaluate()
    assert s.roster.selections[i].children is before
    assert s.roster.selections[i].name == "Renamed platoon"
    assert exact(ev) == exact(evaluate_roster(s.roster, s.system))
    fresh = copy.copy(s.roster)
    fresh.refresh()
    assert exact(ev) == exact(evaluate_roster(fresh, s.system))
    assert any("Renamed platoon > " in i.message for i in ev.issues)
