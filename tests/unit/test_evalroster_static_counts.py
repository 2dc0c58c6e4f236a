"""The counts of a scope (``Evaluation._ref_counts``) and the categories modifiers give.

The counts of one scope share one walk: the selections whose categories no modifier changes
are counted once per scope and evaluation (``Evaluation._static_counts``), and only the
others are added for each count, with their categories as they settle for the whole roster
(``Evaluation._settled_categories``). Every count an evaluation made is compared here with a
plain count of the same scope (every selection under it, its copies multiplied down the
tree, counted as its entry, link, group, type and the categories ``Evaluation.categories``
gives it): two units whose categories hang on each other's, in every order; the directed
roster of test_evalroster_inside_reads.py; an example of each of our systems; and the 40k
roster of benchmarks/bench_bsdata.py (and after a count +1), a Gaslands team and a Space
Station Zero crew (``../shared/bsdata``; skipped with a message where absent). A test drops
one selection from the shared counts on purpose and shows the comparison then fails.

Categories that hang on each other settle to the same whatever the order of the units
(docs/battlescribe.md, "Categories a modifier gives"): an Alpha is marked while the roster
holds an Alpha, a Beta crowned while it holds a marked selection, so Beta is crowned, and
the roster's limit of no crowned unit is broken, in every order of the units.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from test_evalroster_inside_reads import ARMY, ROSTER, SYSTEM
from test_replay_traced import BSDATA, REPO, space_marines, with_units

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, Node, evaluate_roster

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
  - id: gamma
    name: Gamma
    type: unit
    costs: {pts: 10}
    modifiers:
      - type: add
        field: categories
        value: marked
        conditions: [{type: at-least, value: 1, scope: roster, child: crowned}]
      - type: set
        field: name
        value: Gamma (crowned roster)
        conditions: [{type: at-least, value: 2, scope: roster, child: crowned}]
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


def plain_counts(ev: Evaluation, scope: Node, deep: bool, child_forces: bool) -> dict[str, float]:
    """What ``ev._ref_counts`` should find: every selection under ``scope`` walked and
    counted as what it is, with the categories ``ev`` gives it."""
    counts: dict[str, float] = {}
    stack: list[tuple[Node, int]] = [(c, c.count) for c in scope.children]
    while stack:
        n, mult = stack.pop()
        if n.entry is None:
            if n.force is not None and (scope.is_root or child_forces):
                stack.extend((c, c.count) for c in n.children)
            continue
        for ref in Evaluation._node_refs(n, ev.categories(n)):
            counts[ref] = counts.get(ref, 0.0) + mult
        if deep:
            stack.extend((c, mult * c.count) for c in n.children)
    return counts


def counts_checked(roster: Roster, system: object, what: str) -> Evaluation:
    """The roster evaluated; every count its evaluation made, and those of every scope
    asked afresh, compared with a plain count."""
    ev = evaluate_roster(roster, system)  # type: ignore[arg-type]
    made = dict(ev._counts)
    scopes = {id(n): n for n in ev.root.walk()}
    for (scope_id, deep, child_forces), counts in made.items():
        if scope_id not in scopes:
            continue  # (a selection outside the tree, where an option was tried)
        want = plain_counts(ev, scopes[scope_id], deep, child_forces)
        assert counts == want, f"{what}: counts of {ev.name(scopes[scope_id])} {deep=}"
    for n in scopes.values():
        for deep, child_forces in itertools.product((False, True), repeat=2):
            got = ev._ref_counts(n, deep, child_forces)
            assert got == plain_counts(ev, n, deep, child_forces), f"{what}: {ev.name(n)}"
    return ev


def linked(order: tuple[str, ...]) -> Roster:
    lines = "".join(f"  - entry: {e}\n" for e in order)
    return Roster.from_text(f"system: evr\nfaction: linked\nname: Linked\nselections:\n{lines}")


def shown(ev: Evaluation) -> tuple[Any, ...]:
    """What a player is shown, whatever the order of the units: each selection's name and
    categories, every issue's message and severity, the totals."""
    units = sorted((ev.name(n), tuple(sorted(ev.categories(n)))) for n in ev.nodes())
    issues = sorted((i.severity, i.message) for i in ev.issues)
    return tuple(units), tuple(issues), tuple(sorted(ev.totals.items()))


@pytest.mark.parametrize(
    "units", [("alpha", "beta"), ("alpha", "beta", "gamma"), ("alpha", "beta", "beta", "gamma")]
)
def test_categories_that_hang_on_each_other_in_every_order(
    evr: Library, units: tuple[str, ...]
) -> None:
    seen: set[tuple[Any, ...]] = set()
    for order in set(itertools.permutations(units)):
        ev = counts_checked(linked(order), evr.system("evr"), f"order {order}")
        seen.add(shown(ev))
        crowned = [n for n in ev.nodes() if "crowned" in ev.categories(n)]
        assert [ev.name(n) for n in crowned] == ["Beta"] * units.count("beta"), order
        assert any("Crowned; at most 0" in i.message for i in ev.errors), order
    assert len(seen) == 1, f"{units}: the orders show {len(seen)} different rosters"


def test_a_gamma_reads_the_settled_categories(evr: Library) -> None:
    """Gamma is marked while a crowned unit stands (it is: Beta, once Alpha marks the
    roster), and renamed where two are crowned (two Betas)."""
    ev = counts_checked(linked(("gamma", "beta", "alpha", "beta")), evr.system("evr"), "gamma")
    names = {ev.name(n): sorted(ev.categories(n)) for n in ev.nodes()}
    assert names["Gamma (crowned roster)"] == ["marked"]


def test_without_alpha_nothing_is_crowned(evr: Library) -> None:
    ev = counts_checked(linked(("gamma", "beta")), evr.system("evr"), "no alpha")
    assert all(not ev.categories(n) for n in ev.nodes())
    assert not any("Crowned" in i.message for i in ev.errors)


def test_the_directed_roster(evr: Library) -> None:
    ev = counts_checked(Roster.from_text(ROSTER), evr.system("evr"), "directed")
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
    counts_checked(roster, library.system(roster.system), example)


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
    ev = counts_checked(s.roster, s.system, "40k")
    assert any(ev._static_counts(ev.root, True, True)[1]), "no unit with category modifiers"
    squad = next(n for n in ev.root.children if ev.name(n) == "Intercessor Squad")
    s.set_count(squad.loc, squad.count + 1)
    counts_checked(s.roster, s.system, "40k count +1")


def test_the_40k_roster_in_another_order(bslib: Library, tmp_path: Path) -> None:
    """The same 40k units, the roster's top in reverse order: the same is shown."""
    s = space_marines(bslib, tmp_path)
    before = shown(s.evaluate())
    yaml = YAML()
    doc = yaml.load(s.roster.dumps())
    doc["selections"].reverse()
    out = io.StringIO()
    yaml.dump(doc, out)
    reversed_roster = Roster.from_text(out.getvalue())
    assert [x.entry for x in reversed_roster.selections] == [
        x.entry for x in reversed(s.roster.selections)
    ]
    assert shown(evaluate_roster(reversed_roster, s.system)) == before


@pytest.mark.parametrize(
    ("system", "faction"), [("gaslands", "gaslands"), ("space-station-zero", "crew")]
)
def test_small_battlescribe_systems(
    bslib: Library, system: str, faction: str, tmp_path: Path
) -> None:
    s = with_units(bslib, system, faction, 4, tmp_path)
    counts_checked(s.roster, s.system, system)


def test_the_check_fails_when_a_count_is_taken_wrong(
    evr: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the shared counts leave out the first selection whose categories
    a modifier changes. The comparison with the plain count then fails."""
    counts = Evaluation._static_counts

    def one_left_out(self: Evaluation, *args: object) -> object:
        static, others = counts(self, *args)  # type: ignore[arg-type]
        return static, others[1:]

    monkeypatch.setattr(Evaluation, "_static_counts", one_left_out)
    with pytest.raises(AssertionError, match=r"^broken: "):
        counts_checked(linked(("alpha", "beta")), evr.system("evr"), "broken")
