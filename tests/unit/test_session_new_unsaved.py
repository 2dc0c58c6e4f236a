"""Edits to a new roster before its first save: every edit a player can make works on it as
on a file saved and opened again, and saving gives the very same file.

A new roster of a BattleScribe system starts with what the catalogue requires (its
``starting_selections``). Those came as plain data and went into the document as they were,
so the first edit that gave one of them a ``selections:`` list (a choice in a pick-one group,
an add under it) failed with ``'dict' object has no attribute 'insert'``. The walks below edit
at random (count +1 and -1, adds at the top and under a selection, removals, duplicates, a
choice in a pick-one group, renames, undo and redo) a new roster of each of our five systems
and of the Gaslands and Space Station Zero BattleScribe data (``../shared/bsdata``; skipped
with a message where it is absent), and the same walk a copy saved and opened again first;
a refused edit (:class:`EditError`) is the only exception allowed, and after every step both
rosters write the same text.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ruamel.yaml.comments import CommentedMap

from armybuilder.catalog import Library, default_roots
from armybuilder.session import EditError, EditSession
from armybuilder.session.operations import Insert, SetKey, apply_op

REPO = Path(__file__).resolve().parents[2]
BSDATA = REPO.parent / "shared" / "bsdata"
OURS = ["infantry-ops", "space-hulk", "starmarines", "starship-marine", "starship-troopers"]
THEIRS = [("gaslands", "gaslands"), ("space-station-zero", "crew")]
KINDS = ["plus", "minus", "add", "add", "add-top", "remove", "duplicate", "choose", "choose"]
KINDS += ["rename", "undo", "redo"]


@pytest.fixture(scope="module")
def ours() -> Library:
    return Library(default_roots()).scan()


@pytest.fixture(scope="module")
def bslib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_CACHE_DIR", str(cache))
        return Library([BSDATA]).scan()


def edit(s: EditSession, rng: random.Random, step: int, top: list[str]) -> str:
    """One edit a player could make, drawn from ``rng``; returns what was tried."""
    locs = [sel.loc for sel in s.roster.walk()]
    loc = rng.choice(locs) if locs else ()
    kind = rng.choice(KINDS)
    try:
        if kind == "plus" and locs:
            s.set_count(loc, s.count_of(loc) + 1)
        elif kind == "minus" and locs and s.count_of(loc) > 1:
            s.set_count(loc, s.count_of(loc) - 1)
        elif kind == "add" and locs:
            options = [c for c in s.options(loc) if c.group is None]
            if options:
                s.add(loc, rng.choice(options).entry.id)
        elif kind == "add-top" and top:
            s.add((), rng.choice(top))
        elif kind == "remove" and locs:
            s.remove(loc)
        elif kind == "duplicate" and locs:
            s.duplicate(loc)
        elif kind == "choose" and locs:
            options = [c for c in s.options(loc) if c.group is not None and c.group.max == 1]
            if options:
                c = rng.choice(options)
                assert c.group is not None
                s.choose(loc, c.group.id, c.entry.id)
        elif kind == "rename" and locs:
            s.rename(loc, rng.choice([None, f"Renamed {step}"]))
        elif kind == "undo" and s.can_undo:
            s.undo()
        elif kind == "redo" and s.can_redo:
            s.redo()
    except EditError:
        pass  # refused: nothing changed (the comparison below still runs)
    return f"{kind} at {loc}"


def same_walk(lib: Library, system: str, faction: str, seed: int, steps: int, tmp: Path) -> None:
    """The walk of ``seed`` on a new roster and on the same roster saved and opened again."""
    new = EditSession.new(lib, system, faction, "Walk", autosave=False)
    first = new.save(tmp / f"{system}-{seed}-reopened.yaml")
    new.close()
    reopened = EditSession.open(first, lib, autosave=False)
    new = EditSession.new(lib, system, faction, "Walk", autosave=False)
    assert new.roster.dumps() == reopened.roster.dumps()
    top = [c.entry.id for c in new.options(()) if c.group is None][:10]
    a, b = random.Random(seed), random.Random(seed)
    for step in range(steps):
        tried = edit(new, a, step, top)
        assert edit(reopened, b, step, top) == tried
        assert new.roster.dumps() == reopened.roster.dumps(), f"step {step}: {tried}"
    saved = new.save(tmp / f"{system}-{seed}-new.yaml").read_bytes()
    assert saved == reopened.save().read_bytes()
    new.close()
    reopened.close()


@pytest.mark.parametrize("system", OURS)
def test_edits_to_a_new_roster_of_ours_save_as_on_a_reopened_one(
    ours: Library, system: str, tmp_path: Path
) -> None:
    factions = sorted(ours.system(system).factions)
    for seed in range(2):
        same_walk(ours, system, factions[seed % len(factions)], seed, 25, tmp_path)


@pytest.mark.parametrize(("system", "faction"), THEIRS)
def test_edits_to_a_new_battlescribe_roster_save_as_on_a_reopened_one(
    bslib: Library, system: str, faction: str, tmp_path: Path
) -> None:
    if not (BSDATA / system).is_dir():
        pytest.skip(f"the BattleScribe data of {system} is not at {BSDATA / system}")
    # (before the fix, these walks failed within a few steps: the AttributeError, or a new
    # `name:` written after a required selection's other keys, not where the file has it)
    for seed in range(3):
        same_walk(bslib, system, faction, seed, 25, tmp_path)


def test_a_new_battlescribe_roster_holds_round_trip_nodes(bslib: Library) -> None:
    """What the catalogue requires goes in as the file would read it back (block style, the
    keys in the file's order), not as plain data."""
    if not (BSDATA / "gaslands").is_dir():
        pytest.skip(f"the BattleScribe data of gaslands is not at {BSDATA / 'gaslands'}")
    s = EditSession.new(bslib, "gaslands", "gaslands", "Walk", autosave=False)
    start = s.roster.doc["selections"]
    assert len(start) > 0
    assert all(isinstance(sel, CommentedMap) for sel in start)


@pytest.mark.parametrize("kind", [dict, CommentedMap])
def test_a_new_key_goes_where_the_file_has_it_in_plain_and_round_trip_mappings(
    kind: type[dict[str, object]],
) -> None:
    """Edits on a plain mapping (data a rules module or plug-in put in the document) put a
    new key at the same place as on a mapping read from a file."""
    sel = kind()
    sel["entry"] = "a"
    sel["notes"] = "kept last"
    doc = CommentedMap(selections=[sel])
    undo = apply_op(doc, Insert(("selections", 0), 0, CommentedMap(entry="b")))
    apply_op(doc, SetKey(("selections", 0), "count", 3))
    apply_op(doc, SetKey(("selections", 0), "name", "Named"))
    assert list(sel) == ["entry", "count", "name", "notes", "selections"]
    apply_op(doc, undo)
    assert "selections" not in sel
