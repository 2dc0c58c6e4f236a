"""The selections a removal, a copy or a move shifts are copied to their new places, not read
from the document again (issue 18): every place in them rewritten, the problems found in
them reported where they now are, and what the evaluation found in them replayed with its
places rewritten, or computed again where it holds a place it cannot rewrite.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Finding, Loc, SelectionData, relocated
from armybuilder.rules import engine
from armybuilder.rules.engine import Issue, Value, evaluate_roster
from armybuilder.rules.systems.space_hulk import SpaceHulk
from armybuilder.session import EditSession

REPO = Path(__file__).resolve().parents[2]

#: The Space Hulk squad of the examples with problems in its last two Terminators: an
#: unknown key in one, a count out of bounds in the other's weapon.
SQUAD = (REPO / "examples" / "space-hulk" / "standard-squad.yaml").read_text(encoding="utf-8")
BROKEN = SQUAD.replace(
    "        name: Brother Goriel\n", "        name: Brother Goriel\n        colour: red\n"
).replace(
    "        name: Brother Noctis\n        selections:\n          - entry: storm-bolter\n",
    "        name: Brother Noctis\n        selections:\n          - entry: storm-bolter\n"
    "            count: 0\n",
)


def _issues(ev: engine.Evaluation) -> list[tuple[Loc, str, str]]:
    return sorted((i.path, i.code, i.message) for i in ev.issues)


def _fresh(s: EditSession) -> engine.Evaluation:
    fresh = copy.copy(s.roster)
    fresh.refresh()
    assert s.roster.selections == fresh.selections  # (locs and findings as a fresh read's)
    return evaluate_roster(fresh, s.system)


@pytest.mark.parametrize(
    "edit", ["remove", "duplicate", "up", "down", "undo remove", "redo remove"]
)
def test_the_problems_of_a_shifted_selection_are_reported_where_it_now_is(
    library: Library, tmp_path: Path, edit: str
) -> None:
    assert BROKEN.count("colour: red") == 1 and BROKEN.count("count: 0") == 1
    path = tmp_path / "squad.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    s = EditSession.open(path, library, autosave=False)
    before = _issues(s.evaluate())
    assert any(p[-1] == "colour" for p, _, _ in before)
    assert any(p[-1] == "count" for p, _, _ in before)
    squad: Loc = ("selections", 0)
    first: Loc = (*squad, "selections", 0)
    if edit == "remove":
        s.remove(first)
    elif edit == "duplicate":
        s.duplicate(first)
    elif edit in ("up", "down"):
        s.move((*squad, "selections", 4), -1 if edit == "up" else 1)
    else:
        s.remove(first)
        s.evaluate()
        s.undo()
        if edit == "redo remove":
            s.evaluate()
            s.redo()
    ev = s.evaluate()
    assert _issues(ev) == _issues(_fresh(s))
    # The Terminators the change shifted are copies of what was there, not read again
    # (Brother Goriel, moved up or down, or the last, Brother Noctis).
    at = {"up": 3, "down": 5}.get(edit, -1)
    shifted = s.roster.selections[0].children[at]
    assert shifted.origin is not None and shifted.origin.loc != shifted.loc
    found = [f.loc for d in shifted.walk() for f in d.findings]
    assert found and all(loc[: len(shifted.loc)] == shifted.loc for loc in found)
    assert ev.memo_out is not None and ev.memo_out.hits > 0


def test_a_copy_is_the_selection_at_its_new_place() -> None:
    child = SelectionData(
        ("selections", 3, "selections", 0),
        "b",
        findings=[Finding(("selections", 3, "selections", 0, "count"), "invalid-value", "m")],
    )
    sel = SelectionData(("selections", 3), "a", 2, "Named", children=[child])
    sel.findings.append(Finding(("selections", 3, "odd"), "unknown-key", "k", "warning"))
    moved = relocated(sel, ("selections", 1))
    assert moved.loc == ("selections", 1) and moved.origin is sel
    assert moved.children[0].loc == ("selections", 1, "selections", 0)
    assert moved.children[0].origin is child
    assert moved.findings[0].loc == ("selections", 1, "odd")
    assert moved.children[0].findings[0].loc == ("selections", 1, "selections", 0, "count")
    assert (moved.entry, moved.count, moved.name) == ("a", 2, "Named")
    # (the original is left as it is: a snapshot being evaluated may hold it)
    assert sel.loc == ("selections", 3) and child.loc == ("selections", 3, "selections", 0)


def test_what_a_replay_holds_has_its_places_rewritten_or_it_is_not_replayed() -> None:
    old, new = ("selections", 3), ("selections", 2)
    rewrite = engine._relocated_value
    issue = Issue("error", "c", "m", (*old, "selections", 1))
    got = rewrite((issue,), old, new)
    assert got[0].path == (*new, "selections", 1) and got[0].message == "m"
    assert rewrite(((*old, "count"), 3, "x"), old, new) == ((*new, "count"), 3, "x")
    plain = (1, 2.0, "x", None, {"a": [1, 2]}, Value("k", "K", 1))
    assert rewrite(plain, old, new) is plain  # (nothing to rewrite: the same object)
    assert rewrite({"where": old}, old, new) == {"where": new}
    assert rewrite(Issue("note", "c", "m", ("faction",)), old, new).path == ("faction",)
    # A place outside the subtree, or an object that may hold one: not replayed.
    assert rewrite((("selections", 4),), old, new) is engine._CANNOT
    assert rewrite(Issue("error", "c", "m", ("selections", 0)), old, new) is engine._CANNOT
    assert rewrite(object(), old, new) is engine._CANNOT


class _ShowsItsPlace(SpaceHulk):
    """Space Hulk as it would be if a squad showed where it stands in the file (a value
    holding its place): a squad shifted by a removal must show its new place."""

    def _unit(self, ev: engine.Evaluation, unit: engine.Node) -> tuple[int, int, int]:
        got = super()._unit(ev, unit)
        ev.set_value(unit, "place", "Place", unit.loc)
        return got


def test_a_value_holding_a_place_is_not_replayed_at_another(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = library.system("space-hulk")
    monkeypatch.setattr(system, "rules", _ShowsItsPlace())
    path = tmp_path / "squads.yaml"
    path.write_text(SQUAD, encoding="utf-8")
    s = EditSession.open(path, library, autosave=False)
    squad = s.roster.selections[0].entry
    assert squad is not None
    for _ in range(3):
        s.add((), squad)
    s.evaluate()
    for edit in ("remove", "undo", "duplicate", "up", "down"):
        loc: Loc = ("selections", 1)
        if edit == "remove":
            s.remove(loc)
        elif edit == "undo":
            s.undo()
        elif edit == "duplicate":
            s.duplicate(loc)
        else:
            s.move(loc, -1 if edit == "up" else 1)
        ev = s.evaluate()
        fresh = _fresh(s)
        assert [ev.values_of(n) for n in ev.root.children] == [
            fresh.values_of(n) for n in fresh.root.children
        ], edit
        assert [ev.values_of(n)[-1].value for n in ev.root.children] == [
            n.loc for n in ev.root.children
        ], edit
