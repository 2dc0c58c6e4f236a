"""``validate`` reads no computed value, so it evaluates with ``values=False`` (issue 17:
one-off rosters at the parser's pace): a rules module may then leave out the values that no
issue depends on (Infantry Operations leaves out a platoon's attack values, odds and survivor
tables, most of the cost of a platoon seen for the first time). Every issue (with its line
and column), every total and every selection's cost must be what the full evaluation gives,
and the values that are computed must be the same ones, in the same order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bench_rosters import bench_module

from armybuilder import batch, report
from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, SubtreeMemo, evaluate, evaluate_roster
from armybuilder.rules.systems.infantry_ops import InfantryOperations

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").rglob("*.yaml"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library().scan()


@pytest.fixture(scope="module")
def rosters(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("corpus")
    generated = bench_module().generate(folder, 30, 17)
    # illegal ones too: the generator breaks about one in five in one of eleven ways
    assert sum(1 for p in generated.files if not generated.expected_legal[p]) >= 4
    return [*EXAMPLES, *generated.files]


def _checked(ev: Evaluation) -> dict[str, Any]:
    """What ``validate`` reports and the costs: every issue with its position, the totals,
    every selection's costs."""
    cts = list(ev.index.cost_types)
    return {
        "issues": [
            (i.to_json(), ev.roster.position(i.path) if i.path else None) for i in ev.issues
        ],
        "valid": ev.valid,
        "totals": ev.totals,
        "costs": [
            (n.loc, ev.total_cost(n), [ev.unit_cost(n, ct) for ct in cts]) for n in ev.nodes()
        ],
    }


def _values(ev: Evaluation) -> list[tuple[Any, list[Any]]]:
    return [(n.loc, list(ev.values_of(n))) for n in [ev.root, *ev.nodes()]]


def _is_subsequence(part: list[Any], whole: list[Any]) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def _compare(lib: Library, path: Path) -> tuple[int, int]:
    """Checks one roster both ways; returns (values left out, values kept)."""
    roster = Roster.from_file(path, round_trip=False)
    gs = lib.system(roster.system)
    full = evaluate_roster(roster, gs)
    lean = evaluate_roster(roster, gs, values=False)
    assert not lean.values_wanted and full.values_wanted
    assert _checked(lean) == _checked(full), path.name
    left_out = kept = 0
    for (loc, got), (loc2, want) in zip(_values(lean), _values(full), strict=True):
        assert loc == loc2
        assert _is_subsequence(got, want), (path.name, loc)
        left_out += len(want) - len(got)
        kept += len(got)
    return left_out, kept


def test_validate_s_evaluation_reports_what_the_full_one_does(
    lib: Library, rosters: list[Path]
) -> None:
    left_out = kept = 0
    for path in rosters:
        a, b = _compare(lib, path)
        left_out += a
        kept += b
    # the shortcut is taken (an Infantry Operations platoon's attack values are left out)...
    assert left_out > 1000
    # ...and the values that decide issues or are cheap are kept
    assert kept > 1000


def test_an_infantry_platoon_keeps_its_checked_values_and_drops_its_attack_figures(
    lib: Library,
) -> None:
    roster = Roster.from_file(REPO / "examples/infantry-ops/rifle-srm-platoon.yaml")
    gs = lib.system(roster.system)
    full = evaluate_roster(roster, gs)
    lean = evaluate_roster(roster, gs, values=False)
    platoon = next(n for n in lean.nodes() if n.has_category("platoon"))
    keys = {v.key for v in lean.values_of(platoon)}
    full_platoon = next(n for n in full.nodes() if n.has_category("platoon"))
    full_keys = {v.key for v in full.values_of(full_platoon)}
    assert "av_primary" in full_keys and "av_primary" not in keys
    assert not any(k.startswith(("av_", "odds")) for k in keys)
    assert {"troopers", "mass"} <= keys  # (the head count and mass are kept)


def test_a_module_that_leaves_out_an_issue_is_caught(
    lib: Library, rosters: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparison above fails for a module that drops more than values."""
    original = InfantryOperations._squad

    def careless(self: InfantryOperations, ev: Evaluation, sq: Any, motive: Any) -> int:
        if ev.values_wanted:
            return original(self, ev, sq, motive)
        n = len(ev.issues)
        got = original(self, ev, sq, motive)
        del ev.issues[n:]  # its squads' warnings (encumbered, unarmoured...) are lost
        return got

    monkeypatch.setattr(InfantryOperations, "_squad", careless)
    caught = 0
    for path in rosters:
        try:
            _compare(lib, path)
        except AssertionError:
            caught += 1
            if caught == 5:
                break
    assert caught == 5


def test_validate_evaluates_without_values_and_show_with(
    lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[bool] = []
    real = report.evaluate_roster

    def spy(*args: Any, **kw: Any) -> Evaluation:
        asked.append(kw.get("values", True))
        return real(*args, **kw)

    monkeypatch.setattr(report, "evaluate_roster", spy)
    example = str(REPO / "examples/infantry-ops/rifle-platoon.yaml")
    batch.check_file(lib, example, batch.Options(format="json"))
    batch.check_file(lib, example, batch.Options(format="text"))
    assert asked == [False, False]
    _, _, ev = report.load_evaluated(lib, example)  # show, print, the record sheet
    assert asked[-1] is True and ev.values_wanted
    assert any(v.key == "av_primary" for n in ev.nodes() for v in ev.values_of(n))


def test_an_evaluation_without_values_is_not_a_memo(lib: Library) -> None:
    roster = Roster.from_file(EXAMPLES[0], round_trip=False)
    gs = lib.system(roster.system)
    ev = evaluate(roster, gs.index(roster.faction), gs.rules, SubtreeMemo(), values=False)
    assert ev.memo_out is None and ev.memo_in is None
