"""What the engine works out once per catalog entry gives what working it out per selection
gives (issues 17 and 18).

* The constraints of an entry's possible children are sorted once per entry
  (:meth:`CatalogIndex.child_checks`): the check of a selection looks only at the rows that
  can break there. Skipped: a maximum counting only the child's own selections where no
  selection of the child is under the checked one, or (scope `roster`, `force` or any
  other) where none is anywhere in the roster; a `roster` or `force` constraint already
  checked. Every issue must come out as the long way (every row, in catalog order) gives it,
  in the same order, on the examples and on a synthetic catalog whose modifiers add a
  category named like an entry (a selection then counts as that entry).
* Per entry, once: its constraints of scope `self`, the message fields and `hidden` its
  modifiers change (none: nothing to work out per selection), its costs where no modifier
  changes them (:meth:`CatalogIndex.static_costs`), the fields its modifiers change
  (:meth:`CatalogIndex.modified_fields`, which tells category counts and costs whether to
  work modifiers out). With every shortcut taken out (the long way), every issue, total,
  cost, name and value of the examples must be the same.
* The plans are kept with the catalog index by entry, the entry object kept beside them: a
  changed entry (a new object, even at a reused ``id()``) or a reloaded catalog is worked
  out afresh.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.catalog.index import (
    CatalogIndex,
    ChildChecks,
    EntryChecks,
    _groups_level_by_level,
)
from armybuilder.model.plain import MESSAGE_FIELDS
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, Node, evaluate, evaluate_roster

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def _long_way(ev: Evaluation, node: Node, plan: ChildChecks, seen_global: set[Any]) -> None:
    """The check of the constraints of ``node``'s children before the plans: every row."""
    for child, con, only_held in ev.index.marked_child_constraints(node.entry):
        if only_held and child.entry.id not in engine._entry_ids_under(node):
            continue
        if con.scope in {"roster", "force"}:
            key = (id(con), id(ev.force_of(node))) if con.scope == "force" else id(con)
            if key in seen_global:
                continue
            seen_global.add(key)
        engine._check_constraint(ev, con, child.entry, node, True, child.link)


def _issues(ev: Evaluation) -> list[tuple[Any, ...]]:
    return [(i.severity, i.code, i.message, i.path, i.entry, i.constraint) for i in ev.issues]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_plans_find_every_issue_the_long_way_finds(
    library: Library, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster.from_file(path, round_trip=False)
    system = library.system(roster.system)
    short = _issues(evaluate_roster(roster, system))
    monkeypatch.setattr(engine, "_check_children", _long_way)
    assert short == _issues(evaluate_roster(roster, system))


SYSTEM = """
kind: system
id: plans
name: Plans
cost_types:
  - {id: pts, name: Points}
categories:
  - {id: troops, name: Troops}
  - {id: scout, name: Scouts}
forces:
  - {id: patrol, name: Patrol}
"""

ARMY = """
kind: catalog
id: army
system: plans
name: The Army
entries:
  - id: scout
    name: Scout
    constraints:
      - {type: max, value: 1, scope: roster, source: "one scout"}
  - id: ranger
    name: Ranger
    categories: [troops]
    modifiers:
      # Every ranger counts as a scout too.
      - {type: add, field: categories, value: scout}
  - id: squad
    name: Squad
    entries:
      - id: gunner
        name: Gunner
        costs: {pts: 5}
        constraints:
          - {type: max, value: 2, scope: parent}
          - {type: max, value: 10, scope: parent, field: pts}
          - {type: max, value: 3, scope: roster, deep: true}
"""


@pytest.fixture
def plans_lib(tmp_path: Path, _isolated_home: None) -> Library:
    return tiny_library(tmp_path / "catalogs", SYSTEM, ARMY, folder="plans")


def _run(lib: Library, body: str) -> Evaluation:
    text = "system: plans\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    roster = Roster.from_text(text, "t.yaml")
    gs = lib.system("plans")
    return evaluate(roster, gs.index("army"), gs.rules)


def _squads(*gunners: int) -> str:
    return "".join(
        f"  - entry: squad\n    selections:\n      - {{entry: gunner, count: {n}}}\n"
        for n in gunners
    )


def test_a_category_a_modifier_adds_counts_toward_the_entry_of_that_id(
    plans_lib: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No scout is selected, but two rangers count as scouts (their modifier adds the
    # category `scout`): the scout's maximum of 1 in the roster is broken.
    ev = _run(plans_lib, "  - entry: ranger\n  - entry: ranger\n")
    assert [(i.code, i.message) for i in ev.errors] == [
        ("max-exceeded", "The roster 'Test' has 2 × Scout; at most 1 allowed")
    ]
    assert "scout" in ev.present_refs()
    monkeypatch.setattr(engine, "_check_children", _long_way)
    assert _issues(_run(plans_lib, "  - entry: ranger\n  - entry: ranger\n")) == _issues(ev)


@pytest.mark.parametrize(
    "gunners",
    [(), (1,), (3,), (2, 2), (1, 1, 1, 1), (3, 2)],
    ids=lambda g: "+".join(map(str, g)) or "none",
)
def test_maxima_in_a_parent_and_the_roster_as_the_long_way_finds_them(
    plans_lib: Library, monkeypatch: pytest.MonkeyPatch, gunners: tuple[int, ...]
) -> None:
    body = _squads(*gunners) or "  - entry: squad\n"
    short = _issues(_run(plans_lib, body))
    monkeypatch.setattr(engine, "_check_children", _long_way)
    assert short == _issues(_run(plans_lib, body))
    # (max 2 gunners and 10 pts in a squad, max 3 in the roster)
    expected_over = sum(1 for n in gunners if n > 2) * 2 + (sum(gunners) > 3)
    assert len([i for i in short if i[1] == "max-exceeded"]) == expected_over


def test_a_changed_entry_gets_its_own_plan(plans_lib: Library) -> None:
    index = plans_lib.system("plans").index("army")
    squad = index.entries["squad"]
    plan = index.child_checks(squad)
    assert index.child_checks(squad) is plan  # kept
    assert [con.value for _, con, _ in plan.rows] == [2, 10, 3]
    # A changed entry is a new object; one that took over the old one's id() (as a freed
    # object's id is reused) must not be given the old plan.
    gunner = squad.entries[0]
    changed = squad.model_copy(
        update={
            "entries": [
                gunner.model_copy(
                    update={"constraints": [gunner.constraints[0].model_copy(update={"value": 7})]}
                )
            ]
        }
    )
    index._child_checks[id(changed)] = index._child_checks[id(squad)]  # a stale row at its id
    fresh = index.child_checks(changed)
    assert fresh is not plan
    assert [con.value for _, con, _ in fresh.rows] == [7]


def test_a_reloaded_catalog_is_checked_with_its_new_constraints(
    tmp_path: Path, _isolated_home: None
) -> None:
    root = tmp_path / "catalogs"
    (root / "plans").mkdir(parents=True)
    (root / "plans" / "system.yaml").write_text(SYSTEM)
    (root / "plans" / "army.yaml").write_text(ARMY)
    old = Library([root], use_cache=False).scan()
    assert [i.code for i in _run(old, _squads(2)).errors] == []
    (root / "plans" / "army.yaml").write_text(
        ARMY.replace("{type: max, value: 2, scope: parent}", "{type: max, value: 1, scope: parent}")
    )
    new = Library([root], use_cache=False).scan()
    assert [i.message for i in _run(new, _squads(2)).errors] == [
        "Squad has 2 × Gunner; at most 1 allowed"
    ]
    assert [i.code for i in _run(old, _squads(2)).errors] == []  # the old index as it was


# --------------------------------------------------------------------------- per-entry shortcuts


class _Everything:
    """A container holding every field: the engine then takes no shortcut for any."""

    def __contains__(self, item: object) -> bool:
        return True


def _full_checks(self: CatalogIndex, entry: Any) -> EntryChecks:
    """An entry's checks the long way: every message field of it and of each group with
    modifiers, its `hidden` through its modifiers, its groups' limits."""
    found = _plain_entry_checks(self, entry)
    return EntryChecks(
        found.self_constraints,
        True,
        MESSAGE_FIELDS,
        tuple((g, MESSAGE_FIELDS) for g in _groups_level_by_level(entry.groups) if g.modifiers),
        True,
    )


_plain_entry_checks = CatalogIndex.entry_checks


def _everything(ev: Evaluation) -> list[Any]:
    """Issues, totals and, per selection, its name, costs and values."""
    out: list[Any] = [*_issues(ev), sorted(ev.totals.items())]
    cost_types = list(ev.index.cost_types)
    for n in ev.nodes():
        out.append(
            (
                n.loc,
                ev.where(n),
                sorted(ev.total_cost(n).items()),
                [ev.unit_cost(n, ct) for ct in cost_types],
                [(v.key, v.label, repr(v.value), v.text) for v in ev.values_of(n)],
            )
        )
    return out


def _every_ref(ev: Evaluation, scope_node: Node, ref: str) -> float:
    """A deep count of one reference the long way: everything under the scope counted."""
    return ev._ref_counts(scope_node, True).get(ref, 0.0)


def _the_long_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_check_children", _long_way)
    monkeypatch.setattr(CatalogIndex, "entry_checks", _full_checks)
    monkeypatch.setattr(CatalogIndex, "static_costs", lambda self, entry: None)
    monkeypatch.setattr(CatalogIndex, "modified_fields", lambda self, owner: _Everything())
    # (issue 17, the regiment: leaves with nothing to check are checked; counts of one
    # reference walk everything under their scope)
    monkeypatch.setattr(CatalogIndex, "quiet_leaf", lambda self, entry: False)
    monkeypatch.setattr(CatalogIndex, "held_refs", lambda self, entry: _Everything())
    monkeypatch.setattr(CatalogIndex, "deep_refs", lambda self, entry: _Everything())
    monkeypatch.setattr(CatalogIndex, "group_maxima", lambda self, entry: None)
    monkeypatch.setattr(Evaluation, "_ref_count", _every_ref)
    # (issue 17, 2026-11-27: one copy's costs once per entry and scope selection)
    monkeypatch.setattr(Evaluation, "_scoped_costs", lambda self, node, entry: None)
    # (issue 17, 2026-11-27: what modifiers find, once per evaluation and counts they read)
    monkeypatch.setattr(CatalogIndex, "count_refs", lambda self, owner, field_: None)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shortcut_gives_what_the_long_way_gives(
    library: Library, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster.from_file(path, round_trip=False)
    system = library.system(roster.system)
    short = _everything(evaluate_roster(roster, system))
    _the_long_way(monkeypatch)
    assert short == _everything(evaluate_roster(roster, system))


def _module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shortcuts_on_the_engine_s_own_test_catalogs(
    tmp_path: Path, _isolated_home: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The catalogs of tests/unit/test_engine.py (hidden entries, cost modifiers, repeats,
    # constraint modifiers) and test_engine_messages.py (messages on entries and groups).
    demo, msgs = _module("test_engine"), _module("test_engine_messages")
    for name, module in (("demo", demo), ("msgs", msgs)):
        (tmp_path / "c" / name).mkdir(parents=True)
        (tmp_path / "c" / name / "system.yaml").write_text(module.SYSTEM)
        (tmp_path / "c" / name / "army.yaml").write_text(module.ARMY)
    lib = Library([tmp_path / "c"], use_cache=False).scan()
    assert not lib.problems, lib.problems
    rosters = [
        demo.run(
            lib, "selections:" + demo.CAPTAIN + demo.squad(4, extra="      - entry: banner\n")
        ),
        demo.run(
            lib, "selections:" + demo.squad(6, "cannon", count=2) + "  - entry: secret-weapon\n"
        ),
        demo.run(lib, "selections:" + demo.CAPTAIN + demo.CAPTAIN + demo.squad(2)),
        msgs.run(lib, msgs.squad(5, 2, "      - {entry: drill-a}\n      - {entry: drill-b}\n")),
        msgs.run(lib, msgs.squad(2, 0, "      - {entry: banner}\n") + "  - entry: walker\n"),
        msgs.run(lib, "  - entry: hero\n  - entry: hero\n"),
    ]
    short = [_everything(ev) for ev in rosters]
    codes = {i.code for ev in rosters for i in ev.issues}
    assert {"hidden-entry", "catalog-message", "max-exceeded"} <= codes
    assert {i.severity for ev in rosters for i in ev.issues} == {"error", "warning", "note"}
    _the_long_way(monkeypatch)
    again = [_everything(engine.evaluate(ev.roster, ev.index, ev.rules)) for ev in rosters]
    assert short == again


def test_a_changed_entry_gets_its_own_costs_and_checks(plans_lib: Library) -> None:
    index = plans_lib.system("plans").index("army")
    gunner = index.entries["squad"].entries[0]
    assert index.static_costs(gunner) == {"pts": 5.0}
    checks = index.entry_checks(gunner)
    assert index.entry_checks(gunner) is checks
    dearer = gunner.model_copy(update={"costs": {"pts": 7.0}, "hidden": True, "constraints": []})
    # Stale rows at the new object's id() (as when a freed entry's id is reused).
    index._static_costs[id(dearer)] = index._static_costs[id(gunner)]
    index._entry_checks[id(dearer)] = index._entry_checks[id(gunner)]
    assert index.static_costs(dearer) == {"pts": 7.0}
    assert index.entry_checks(dearer).self_constraints == ()
    # An entry whose cost a modifier changes has no fixed cost.
    ranger = index.entries["ranger"]
    changed = ranger.model_copy(
        update={
            "modifiers": [
                *ranger.modifiers,
                ranger.modifiers[0].model_copy(
                    update={"type": "increment", "field": "cost:pts", "value": 1}
                ),
            ]
        }
    )
    assert index.static_costs(ranger) == {"pts": 0.0}
    assert index.static_costs(changed) is None
    assert "cost:pts" in index.modified_fields(changed)
    assert "cost:pts" not in index.modified_fields(ranger)


def test_a_reloaded_catalog_is_costed_with_its_new_costs(
    tmp_path: Path, _isolated_home: None
) -> None:
    root = tmp_path / "catalogs"
    (root / "plans").mkdir(parents=True)
    (root / "plans" / "system.yaml").write_text(SYSTEM)
    (root / "plans" / "army.yaml").write_text(ARMY)
    old = Library([root], use_cache=False).scan()
    assert _run(old, _squads(2, 1)).totals == {"pts": 15.0}
    (root / "plans" / "army.yaml").write_text(ARMY.replace("costs: {pts: 5}", "costs: {pts: 6}"))
    new = Library([root], use_cache=False).scan()
    assert _run(new, _squads(2, 1)).totals == {"pts": 18.0}
    assert _run(old, _squads(2, 1)).totals == {"pts": 15.0}
