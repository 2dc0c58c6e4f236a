"""Several squads sharing one ``selections:`` list through an anchor and aliases: an edit
inside one squad changes that squad only (docs/files.md: anchors and aliases are kept; an
edited selection gets its own copy, its twins keep the shared original).

ruamel does not keep an anchor of its own form (``&id001``, what it writes for a node used
twice) on the node it names, so the sharing is found by where the node is, not by its anchor.
After each edit the session's view and its evaluation are those of a fresh read of the text
it would save, and the saved file reads back the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster
from armybuilder.session import EditSession

DEMO = Path(__file__).resolve().parent.parent / "tui" / "fixtures" / "catalogs"

HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Border patrol\nselections:\n"


def squads(anchor: str) -> str:
    return HEAD + (
        f"  - entry: squad\n    name: A\n    selections: &{anchor}\n"
        "      - entry: soldier\n        count: 3\n"
        "        selections:\n          - entry: rifle\n"
        f"  - entry: squad\n    name: B\n    selections: *{anchor}\n"
        f"  - entry: squad\n    name: C\n    selections: *{anchor}\n"
    )


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_STATE_DIR", str(tmp_path / "state"))


@pytest.fixture(scope="module")
def lib() -> Library:
    found = Library([DEMO], use_cache=False).scan()
    assert not found.problems, found.problems
    return found


def picture(roster: Roster, lib: Library) -> list[Any]:
    """What a player is shown of a roster: each selection's name, count, cost and issues."""
    ev = evaluate_roster(roster, lib.system(roster.system))
    out: list[Any] = [ev.totals, sorted(i.message for i in ev.issues)]
    out += [(n.loc, ev.name(n), n.count, ev.total_cost(n)) for n in ev.nodes()]
    return out


def soldiers(roster: Roster) -> list[tuple[int, list[str]]]:
    """Each squad's soldier count and the soldier's weapons."""
    out = []
    for squad in roster.selections:
        soldier = squad.children[0]
        out.append((soldier.count, [w.entry for w in soldier.children]))
    return out


def agrees(session: EditSession, lib: Library) -> None:
    """The session shows what a fresh read of the text it saves shows."""
    fresh = Roster.from_text(session.roster.dumps(), "fresh.yaml")
    assert soldiers(session.roster) == soldiers(fresh)
    assert picture(session.roster, lib) == picture(fresh, lib)
    ev = session.evaluate()
    assert ev.totals == evaluate_roster(fresh, lib.system("demo-wars")).totals


@pytest.mark.parametrize("anchor", ["id001", "men"])
def test_an_edit_in_one_squad_leaves_its_alias_twins(
    anchor: str, lib: Library, tmp_path: Path
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(squads(anchor))
    session = EditSession.open(path, lib)
    assert soldiers(session.roster) == [(3, ["rifle"])] * 3
    b_soldier = ("selections", 1, "selections", 0)
    session.set_count(b_soldier, 5)
    assert soldiers(session.roster) == [(3, ["rifle"]), (5, ["rifle"]), (3, ["rifle"])]
    agrees(session, lib)
    # Deeper, in another squad: C's soldier takes the cannon (a pick-one group swaps).
    c_soldier = ("selections", 2, "selections", 0)
    session.choose(c_soldier, "weapon", "cannon")
    assert soldiers(session.roster) == [(3, ["rifle"]), (5, ["rifle"]), (3, ["cannon"])]
    agrees(session, lib)
    # Saved and read again: the same; A (the anchor's own place) still shares nothing it
    # should not, and the file still reads as a roster.
    session.save()
    again = Roster.from_file(path)
    assert soldiers(again) == [(3, ["rifle"]), (5, ["rifle"]), (3, ["cannon"])]
    # Undo gives back the shared squads' look, C first, then B.
    session.undo()
    assert soldiers(session.roster) == [(3, ["rifle"]), (5, ["rifle"]), (3, ["rifle"])]
    agrees(session, lib)
    session.undo()
    assert soldiers(session.roster) == [(3, ["rifle"])] * 3
    agrees(session, lib)


def test_an_edit_of_the_anchors_own_place_leaves_the_aliases(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(squads("id001"))
    session = EditSession.open(path, lib)
    session.add(("selections", 0, "selections", 0), "cannon")  # in place of A's rifle
    assert soldiers(session.roster) == [(3, ["cannon"]), (3, ["rifle"]), (3, ["rifle"])]
    agrees(session, lib)
    session.save()
    assert soldiers(Roster.from_file(path)) == soldiers(session.roster)
    # B and C still share their list in the file written.
    assert "*id001" in path.read_text()


def test_a_roster_without_aliases_is_not_walked(lib: Library, tmp_path: Path) -> None:
    """No ``*`` in the text, no alias: the check costs nothing (a regiment's edits stay fast)."""
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + "  - entry: squad\n    name: A\n")
    session = EditSession.open(path, lib)
    assert session.roster.may_share is False
    aliased = tmp_path / "a.yaml"
    aliased.write_text(squads("id001"))
    assert EditSession.open(aliased, lib).roster.may_share is True
