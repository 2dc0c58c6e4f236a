"""Counts of one reference deep in a selection, and leaves with nothing to check (issue 17,
the regiment's full evaluation).

* A condition or constraint counting one reference at any depth under a selection ("has my
  platoon a jump pack?") walks only into the selections whose entry can hold that reference
  (:meth:`CatalogIndex.held_refs`, what any selection under one of the entry can count as),
  instead of counting everything under the scope. The count must be what counting
  everything gives, for every selection and every reference, through nested entries, links,
  groups and categories.
* Whether a selection of an entry sits anywhere under a selection (the maxima only such a
  selection can break) is found the same way.
* The groups of a selection whose limits are maxima only (no subgroups, no minimum) are
  looked at one by one only when one holds more than its maximum.
* A selection with nothing under it, of an entry with nothing to check there
  (:meth:`CatalogIndex.quiet_leaf`), is not checked: what is its own (its count against the
  entry's maximum, its experience) still is.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, evaluate, evaluate_roster

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))

SYSTEM = """
kind: system
id: deep
name: Deep
cost_types:
  - {id: pts, name: Points}
categories:
  - {id: heavy, name: Heavy weapons}
  - {id: crew, name: Crew}
forces:
  - {id: patrol, name: Patrol}
shared_entries:
  - id: cannon
    name: Cannon
    categories: [heavy]
    costs: {pts: 7}
"""

ARMY = """
kind: catalog
id: army
system: deep
name: The Army
entries:
  - id: company
    name: Company
    costs: {pts: 100}
    modifiers:
      # A company with two heavy weapons anywhere in it (two levels down) costs 50 more.
      - type: increment
        field: "cost:pts"
        value: 50
        conditions: [{type: at-least, value: 2, scope: self, child: heavy, deep: true}]
      # And 1000 more with a gunner chosen through the weapons group, three levels down.
      - type: increment
        field: "cost:pts"
        value: 1000
        conditions: [{type: at-least, value: 1, scope: self, child: weapons, deep: true}]
    entries:
      - id: squad
        name: Squad
        entries:
          - id: gunner
            name: Gunner
            categories: [crew]
            costs: {pts: 5}
            groups:
              - id: weapons
                name: Weapons
                max: 1
                entries:
                  - link: cannon
          - id: loader
            name: Loader
            max_count: 2
            costs: {pts: 1}
  - id: lone
    name: Lone gunner
    costs: {pts: 3}
    hidden: true
"""


@pytest.fixture
def deep_lib(tmp_path: Path, _isolated_home: None) -> Library:
    return tiny_library(tmp_path / "catalogs", SYSTEM, ARMY, folder="deep")


def _run(lib: Library, body: str) -> Evaluation:
    text = "system: deep\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    roster = Roster.from_text(text, "t.yaml")
    gs = lib.system("deep")
    return evaluate(roster, gs.index("army"), gs.rules)


def _company(*squads: str) -> str:
    return "  - entry: company\n    selections:\n" + "".join(squads)


def _squad(gunners: int, cannons: int, count: int = 1, loaders: int = 0) -> str:
    out = f"      - entry: squad\n        count: {count}\n        selections:\n"
    out += f"          - entry: gunner\n            count: {gunners}\n"
    if cannons:
        out += "            selections:\n"
        out += f"              - {{entry: cannon, count: {cannons}}}\n"
    if loaders:
        out += f"          - {{entry: loader, count: {loaders}}}\n"
    return out


def _check_every_count(ev: Evaluation) -> int:
    """Every deep count of one reference, and every "is a selection of this entry under it",
    against counting everything; returns how many counts were not 0."""
    refs = sorted(ev.present_refs() | {"nothing-of-the-kind", "*"})
    entry_ids = sorted({*ev.index.entries, *ev.index.shared})
    found = 0
    for n in ev.nodes():
        if n.entry is None:
            continue
        everything = ev._ref_counts(n, True)
        for ref in refs:
            got = ev._ref_count(n, ref)
            assert got == everything.get(ref, 0.0), (ev.where(n), ref)
            assert type(got) is float
            # As a condition or constraint asks it (the scope's children alone where
            # nothing deeper can be of it: CatalogIndex.deep_refs).
            asked = ev.query(n, "self", ref, "selections", True, None)
            assert asked == got and type(asked) is float, (ev.where(n), ref)
            found += got != 0
        under = engine._entry_ids_under(n)
        for k in entry_ids:
            assert engine._holds_entry(ev, n, k) == (k in under), (ev.where(n), k)
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_count_of_one_reference_is_what_counting_everything_gives(
    library: Library, path: Path
) -> None:
    roster = Roster.from_file(path, round_trip=False)
    ev = evaluate_roster(roster, library.system(roster.system))
    if ev.index.category_modifiers or ev._reached:
        pytest.skip("modifiers change categories here: every count counts everything")
    assert _check_every_count(ev) > 0


def test_counts_through_nested_entries_links_and_groups(deep_lib: Library) -> None:
    ev = _run(deep_lib, _company(_squad(2, 1, count=2), _squad(1, 0, loaders=1)))
    # Rules of the test catalog: a company costs 100, +50 with two heavy weapons in it at
    # any depth (two squads of a gunner with a cannon each: 2 cannons), +1000 with a choice
    # of the weapons group three levels down; gunners 5, cannons 7, loaders 1.
    assert _check_every_count(ev) > 0
    company = ev.root.children[0]
    assert ev._ref_count(company, "heavy") == 4.0  # 2 squads × 2 gunners × 1 cannon
    assert ev._ref_count(company, "weapons") == 4.0
    assert ev._ref_count(company, "path:cannon") == 4.0
    assert ev._ref_count(company, "crew") == 5.0
    assert ev.unit_cost(company, "pts") == 1150.0
    assert ev.totals == {"pts": 1150.0 + 2 * (2 * (5 + 7)) + 5 + 1}
    none = _run(deep_lib, _company(_squad(3, 0)))
    assert none.unit_cost(none.root.children[0], "pts") == 100.0


def test_a_leaf_with_nothing_to_check_still_has_its_own_count_checked(
    deep_lib: Library,
) -> None:
    assert (
        deep_lib.system("deep")
        .index("army")
        .quiet_leaf(deep_lib.system("deep").index("army").entries["squad"].entries[1])
    )
    ev = _run(deep_lib, _company(_squad(1, 0, loaders=3)))
    assert [(i.code, i.message) for i in ev.errors] == [
        ("max-exceeded", "Company > Squad > Loader ×3: count 3 is more than 2")
    ]
    # A hidden entry is not quiet: its selection is still refused.
    hidden = _run(deep_lib, "  - entry: lone\n")
    assert [i.code for i in hidden.errors] == ["hidden-entry"]
    # Experience on a leaf is still looked at (this system has no levels to pick).
    text = _company(_squad(1, 0)) + "          - {entry: loader, experience: veteran}\n"
    assert [i.code for i in _run(deep_lib, text).issues] == ["unknown-experience"]


def test_a_group_over_its_maximum_is_reported_where_only_maxima_are_checked(
    deep_lib: Library,
) -> None:
    index = deep_lib.system("deep").index("army")
    gunner = index.entries["squad"].entries[0]
    assert index.group_maxima(gunner) == {id(gunner.groups[0]): 1}
    ev = _run(deep_lib, _company(_squad(1, 2)))
    assert [(i.code, i.message) for i in ev.errors] == [
        ("max-exceeded", "Company > Squad > Gunner has 2 choices of Weapons; at most 1 allowed")
    ]
    assert not _run(deep_lib, _company(_squad(1, 1))).errors


def test_the_shortcuts_taken_out_give_the_same_issues_and_costs(
    deep_lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    bodies = [
        _company(_squad(2, 1, count=2), _squad(1, 0, loaders=1)),
        _company(_squad(1, 0, loaders=3)) + "  - entry: lone\n",
        _company(_squad(1, 2)),
    ]
    short = [(_issues(ev), ev.totals) for ev in (_run(deep_lib, b) for b in bodies)]
    monkeypatch.setattr(type(deep_lib.system("deep").index("army")), "quiet_leaf", _never)
    monkeypatch.setattr(
        Evaluation, "_ref_count", lambda ev, n, ref: ev._ref_counts(n, True).get(ref, 0.0)
    )
    monkeypatch.setattr(
        type(deep_lib.system("deep").index("army")), "deep_refs", lambda self, entry: _ALL
    )
    monkeypatch.setattr(
        type(deep_lib.system("deep").index("army")), "group_maxima", lambda self, entry: None
    )
    assert short == [(_issues(ev), ev.totals) for ev in (_run(deep_lib, b) for b in bodies)]


class _All:
    def __contains__(self, item: object) -> bool:
        return True


_ALL = _All()


def _never(self: object, entry: object) -> bool:
    return False


def _issues(ev: Evaluation) -> list[tuple[str, str, str, tuple[str | int, ...]]]:
    return [(i.severity, i.code, i.message, i.path) for i in ev.issues]


def test_a_value_made_in_one_step_is_the_frozen_value_it_was() -> None:
    import dataclasses
    import pickle

    v = engine.Value("mass", "Mass", [85.0], text="85 kg", source="movement table")
    assert v == engine.Value(key="mass", label="Mass", value=[85.0], text="85 kg", source=v.source)
    assert repr(v) == (
        "Value(key='mass', label='Mass', value=[85.0], text='85 kg', source='movement table')"
    )
    assert dataclasses.astuple(v) == ("mass", "Mass", [85.0], "85 kg", "movement table")
    assert engine.Value("a", "A", 1).text == "" and engine.Value("a", "A", 1).source == ""
    assert hash(engine.Value("a", "A", 1)) == hash(engine.Value("a", "A", 1))
    assert pickle.loads(pickle.dumps(v)) == v
    assert dataclasses.replace(v, value=[90.0]).value == [90.0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.value = [0.0]  # type: ignore[misc]
