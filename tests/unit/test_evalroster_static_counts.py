"""The counts of one scope share what every one of them finds alike
(``engine.STATIC_COUNTS_SHARED``): the selections whose categories no modifier changes are
counted once per scope and evaluation, and only the others are looked at again for each
count (deep or not, with or without child forces, in full or partial while the same count is
being made), in the order a walk reaches them, so that their modifiers' conditions read what
they read before.

Each roster is evaluated with the sharing on and off, and must show the same (every issue,
value, total and cost): two units whose categories hang on each other's (a case where the
order the categories are worked out in matters), in both orders; the directed roster of
test_evalroster_inside_reads.py; an example of each of our systems; and the 40k roster of
benchmarks/bench_bsdata.py, a Gaslands team and a Space Station Zero crew
(``../shared/bsdata``; skipped with a message where absent). The last test breaks the order on
purpose and shows the comparison then fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from test_evalroster_inside_reads import ARMY, ROSTER, SYSTEM
from test_replay_traced import BSDATA, REPO, same, space_marines, with_units

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, evaluate_roster

LINKED = """
kind: catalog
id: linked
system: evr
name: Linked
entries:
  - id: alpha
    name: Alpha
    type: unit
    costs: {pts: 10}
    modifiers:
      - type: add
        field: categories
        value: marked
        conditions: [{type: at-least, value: 1, scope: roster, child: alpha}]
  - id: beta
    name: Beta
    type: unit
    costs: {pts: 10}
    constraints:
      - {type: max, value: 0, scope: roster, child: crowned, deep: true}
    modifiers:
      - type: add
        field: categories
        value: crowned
        conditions: [{type: at-least, value: 1, scope: roster, child: marked}]
"""

CATEGORIES = "  - {id: marked, name: Marked}\n  - {id: crowned, name: Crowned}\n"


@pytest.fixture(scope="module")
def evr(tmp_path_factory: pytest.TempPathFactory) -> Library:
    root = tmp_path_factory.mktemp("catalogs")
    (root / "evr").mkdir()
    system = SYSTEM.replace("categories:\n", "categories:\n" + CATEGORIES, 1)
    (root / "evr" / "system.yaml").write_text(system, encoding="utf-8")
    (root / "evr" / "army.yaml").write_text(ARMY, encoding="utf-8")
    (root / "evr" / "linked.yaml").write_text(LINKED, encoding="utf-8")
    return Library([root], use_cache=False).scan()


def both_ways(roster: Roster, system: object, what: str) -> Evaluation:
    """The roster evaluated with the sharing on, compared with the walk of every count."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "STATIC_COUNTS_SHARED", False)
        walked = evaluate_roster(roster, system)  # type: ignore[arg-type]
    shared = evaluate_roster(roster, system)  # type: ignore[arg-type]
    same(shared, walked, what)
    return shared


def linked(order: tuple[str, ...]) -> Roster:
    lines = "".join(f"  - entry: {e}\n" for e in order)
    return Roster.from_text(f"system: evr\nfaction: linked\nname: Linked\nselections:\n{lines}")


@pytest.mark.parametrize(
    "order", [("alpha", "beta"), ("beta", "alpha"), ("alpha", "beta", "beta", "alpha")]
)
def test_categories_that_hang_on_each_other(evr: Library, order: tuple[str, ...]) -> None:
    both_ways(linked(order), evr.system("evr"), f"order {order}")


def test_the_directed_roster(evr: Library) -> None:
    ev = both_ways(Roster.from_text(ROSTER), evr.system("evr"), "directed")
    assert ev.errors  # (the second squad's two cannons)


@pytest.mark.parametrize(
    "example",
    [
        "infantry-ops/rifle-srm-platoon.yaml",
        "starmarines/starmarines-example.yaml",
        "space-hulk/squad-with-librarian.yaml",
        "starship-troopers/arachnid-swarm.yaml",
        "starship-marine/earther-regiment.yaml",
    ],
)
def test_our_systems(library: Library, example: str) -> None:
    path = REPO / "examples" / example
    roster = Roster.from_text(path.read_text(encoding="utf-8"), str(path), path)
    both_ways(roster, library.system(roster.system), example)


@pytest.fixture(scope="module")
def bslib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_CACHE_DIR", str(cache))
        yield Library([BSDATA]).scan()


def test_the_40k_roster(bslib: Library, tmp_path: Path) -> None:
    s = space_marines(bslib, tmp_path)
    both_ways(s.roster, s.system, "40k")
    # and with a squad one model larger, and a second character made Warlord
    ev = s.evaluate()
    squad = next(n for n in ev.root.children if ev.name(n) == "Intercessor Squad")
    s.set_count(squad.loc, squad.count + 1)
    both_ways(s.roster, s.system, "40k count +1")


@pytest.mark.parametrize(
    ("system", "faction"), [("gaslands", "gaslands"), ("space-station-zero", "crew")]
)
def test_small_battlescribe_systems(
    bslib: Library, system: str, faction: str, tmp_path: Path
) -> None:
    s = with_units(bslib, system, faction, 4, tmp_path)
    both_ways(s.roster, s.system, system)


def test_the_check_fails_when_the_order_is_broken(
    evr: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the selections whose categories a modifier changes are looked at
    in the reverse of the walk's order. Two units whose categories hang on each other then
    show something else than the walk shows (in one order or the other)."""
    counts = Evaluation._static_counts

    def reversed_order(self: Evaluation, *args: object) -> object:
        static, others = counts(self, *args)  # type: ignore[arg-type]
        return static, others[::-1]

    monkeypatch.setattr(Evaluation, "_static_counts", reversed_order)
    with pytest.raises(AssertionError, match="order"):
        for order in [("alpha", "beta"), ("beta", "alpha")]:
            both_ways(linked(order), evr.system("evr"), f"order {order}")
