"""What a selection holds, worked out once per make-up (issue 17, the regiment, 2026-11-27
afternoon), gives what working it out for each selection gives.

Where everything a selection holds is a plain selection with nothing under it (a trooper's
kit), the tree keeps what it holds as one :class:`~armybuilder.catalog.index.Holding` per
make-up (the options chosen, their counts and names, under a selection of one entry), and
three things are worked out once per holding instead of once per selection:

* its totals (:meth:`Evaluation._node_cost`), by the holding, its own costs and its count;
* its checks (``_check_node``): skipped where the holding can break nothing
  (:attr:`Holding.quiet`: only group maxima to check, kept) and nothing of the selection's
  own can (its count, experience, state);
* the Infantry Operations kit (``_kit``).

Turned off (no holding made), every issue with its line and column, every value and every
cost must be the same: on the benchmark's regiment (one company per battalion), 40 rosters
of its corpus, every example, and troopers made to break what the shortcut must not hide
(two main weapons, experience or campaign state on a trooper or on what it carries, an
unknown item, the same kit with items named or counted differently).
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest
from bench_rosters import bench_module, evaluation_lines

from armybuilder.catalog import CatalogIndex, Library
from armybuilder.catalog.library import default_roots
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def _odd(bench: ModuleType) -> str:
    """Platoons of each motive whose troopers carry the same kits in ways the shortcut must
    tell apart, and break what it must not hide."""
    sel = bench.sel
    kit = ["auto-rifle", "srm1-ammo", "kevlar-vest"]

    def trooper(name: str, items: list[dict[str, object]], count: int = 1, **extra: object):
        return sel("trooper", count, name, selections=items, **extra)

    def squad(motive: str) -> dict[str, object]:
        return sel(
            "squad",
            selections=[
                trooper("Plain", [sel(i) for i in kit], 2),
                trooper("Plain again", [sel(i) for i in kit], 2),
                # the same entries, an item named (its name is in the encumbrance message)
                trooper(
                    "Named",
                    [sel("auto-rifle"), sel("srm1-ammo", name="Reload"), sel("kevlar-vest")],
                ),
                # the same entries, one counted twice (mass, encumbrance)
                trooper(
                    "Two reloads", [sel("auto-rifle"), sel("srm1-ammo", 2), sel("kevlar-vest")]
                ),
                # two main weapons: over the group's maximum of one
                trooper("Two rifles", [sel("auto-rifle"), sel("rifle"), sel("kevlar-vest")]),
                trooper(
                    "Twice two rifles", [sel("auto-rifle"), sel("rifle"), sel("kevlar-vest")], 2
                ),
                # experience and campaign state, on the trooper and on what it carries
                trooper("Veteran", [sel(i) for i in kit], experience="veteran"),
                trooper("Hurt", [sel(i) for i in kit], state={"damage": 1}),
                trooper("Odd state", [sel(i) for i in kit], state={"wounds": "x"}),
                trooper("Vest", [sel("auto-rifle"), sel("kevlar-vest", experience="green")]),
                trooper("Rifle", [sel("auto-rifle", state={"damage": 2}), sel("kevlar-vest")]),
                # an item the catalog does not know
                trooper("Typo", [sel("auto-rifel"), sel("kevlar-vest")]),
                # nothing worn: no armour
                trooper("Bare", [sel("auto-rifle")]),
            ],
        )

    platoons = [
        sel("platoon", name=f"{motive} platoon", selections=[sel(motive), squad(motive)])
        for motive in ("foot", "jump", "motorised-wheeled", "mechanised-tracked", "foot")
    ]
    return str(bench.roster_yaml({"faction": "inner-sphere", "name": "Odd"}, platoons, "test"))


def _all(lib: Library, rosters: list[Roster]) -> list[str]:
    out: list[str] = []
    for roster in rosters:
        gs = lib.system(roster.system)
        out += evaluation_lines(evaluate_roster(roster, gs))
        out += evaluation_lines(evaluate_roster(roster, gs, values=False))
    return out


def test_holdings_give_what_each_selection_gives(
    tmp_path: Path, _isolated_home: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = bench_module()
    rng = random.Random(7)
    rosters = [
        Roster.from_text(bench.regiment_roster(companies=1), str(tmp_path / "regiment.yaml")),
        *(
            Roster.from_text(bench.random_roster(rng, i)[0], str(tmp_path / f"r{i}.yaml"))
            for i in range(1, 41)
        ),
        *(Roster.from_file(p, round_trip=False) for p in EXAMPLES),
        Roster.from_text(_odd(bench), str(tmp_path / "odd.yaml")),
    ]
    made: list[object] = []
    real = CatalogIndex.holding

    def counted(self: CatalogIndex, key: tuple[object, ...]) -> object:
        made.append(key)
        return real(self, key)

    monkeypatch.setattr(CatalogIndex, "holding", counted)
    short = _all(Library(default_roots(), use_cache=False).scan(), rosters)
    assert len(made) > 1000  # (the shortcut is taken)
    # what the odd roster must show, with the shortcut as without it
    codes = {line.split("|")[1] for line in short if line.startswith("I ")}
    assert {"max-exceeded", "experience-ignored", "io-encumbered", "io-no-armour"} <= codes
    assert any("Reload 2)" in line for line in short)  # (the named item's encumbrance)
    monkeypatch.setattr(CatalogIndex, "holding", lambda self, key: None)
    assert short == _all(Library(default_roots(), use_cache=False).scan(), rosters)


def test_a_holding_is_one_object_per_make_up(library: Library, tmp_path: Path) -> None:
    bench = bench_module()
    roster = Roster.from_text(_odd(bench), str(tmp_path / "odd.yaml"))
    ev = evaluate_roster(roster, library.system("infantry-ops"))
    by_name: dict[str, list[object]] = {}
    for n in ev.nodes():
        if n.entry_id == "trooper" and n.data is not None and n.data.name:
            by_name.setdefault(n.data.name, []).append(n.holding)
    # one holding for the same kit in every platoon, and for two trooper selections of it
    plain = by_name["Plain"]
    assert plain[0] is not None and all(h is plain[0] for h in plain + by_name["Plain again"])
    # a name or a count of an item held makes another make-up
    assert by_name["Named"][0] is not plain[0] and by_name["Two reloads"][0] is not plain[0]
    # not made where what is held has experience, state or an entry the catalog lacks
    assert by_name["Vest"] == [None] * 5 and by_name["Rifle"] == [None] * 5
    assert by_name["Typo"] == [None] * 5
    two = by_name["Two rifles"][0]
    assert two is not None and not two.quiet  # (two main weapons: over the group's maximum)
    assert plain[0].quiet


SCOPED_SYSTEM = """
kind: system
id: sib
name: Siblings
cost_types:
  - {id: pts, name: Points}
"""

SCOPED_ARMY = """
kind: catalog
id: army
system: sib
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    entries:
      - id: trooper
        name: Trooper
        type: model
        costs: {pts: 10}
        modifiers:
          # scope: its own entry, the nearest trooper: the trooper itself
          - type: increment
            field: cost:pts
            value: 10
            conditions: [{type: at-least, value: 1, scope: trooper, child: medal}]
        entries:
          - {link: medal}
      - id: guard
        name: Guard
        type: model
        costs: {pts: 5}
        modifiers:
          - type: increment
            field: cost:pts
            value: 1
            conditions: [{type: at-least, value: 1, scope: self, child: medal}]
        entries:
          - {link: medal}
      - id: scout
        name: Scout
        type: model
        costs: {pts: 3}
        modifiers:
          # scope: the squad above it, the same for every scout of the squad
          - type: increment
            field: cost:pts
            value: 2
            conditions: [{type: at-least, value: 1, scope: squad, child: banner}]
        entries:
          - {link: medal}
      - {id: banner, name: Banner}
shared_entries:
  - {id: medal, name: Medal}
"""


def test_siblings_share_their_own_costs_only_where_their_scopes_are_above(
    tmp_path: Path,
) -> None:
    """The costs of a selection's own are reused for the next sibling of the same entry only
    where every scope its cost modifiers look at lies above the parent
    (:attr:`EntryFacts.scopes_above`): not where a scope is the selection itself."""
    from armybuilder.rules.engine import evaluate

    (tmp_path / "sib").mkdir()
    (tmp_path / "sib" / "system.yaml").write_text(SCOPED_SYSTEM)
    (tmp_path / "sib" / "army.yaml").write_text(SCOPED_ARMY)
    lib = Library([tmp_path], use_cache=False).scan()
    assert not lib.problems, lib.problems
    index = lib.system("sib").index("army")
    squad = index.entries["squad"]
    facts = {e.id: index.facts(e) for e in squad.entries}
    assert facts["scout"].scopes_above
    assert not facts["trooper"].scopes_above and not facts["guard"].scopes_above
    text = (
        "system: sib\nfaction: army\nname: T\nselections:\n"
        "  - entry: squad\n    selections:\n"
        + "".join(
            f"      - {{entry: {e}, selections: [{{entry: medal}}]}}\n      - entry: {e}\n"
            f"      - {{entry: {e}, selections: [{{entry: medal}}]}}\n"
            for e in ("trooper", "guard", "scout")
        )
        + "      - entry: banner\n"
    )
    ev = evaluate(Roster.from_text(text, "t.yaml"), index, None)
    got = [(n.entry_id, ev.total_cost(n)["pts"]) for n in ev.root.children[0].children]
    assert got == [
        ("trooper", 20.0),
        ("trooper", 10.0),
        ("trooper", 20.0),
        ("guard", 6.0),
        ("guard", 5.0),
        ("guard", 6.0),
        ("scout", 5.0),
        ("scout", 5.0),
        ("scout", 5.0),
        ("banner", 0.0),
    ]
