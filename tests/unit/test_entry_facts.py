"""What the engine reads of an entry at each of its selections is gathered once per entry and
catalog index (:meth:`CatalogIndex.facts`, issue 17) and kept on every node it builds
(``Node.facts``), so that costs and checks read it without looking the entry up again.

So is what a selection counts as where selections are counted (``Node.refs``: its entry,
categories, group, link...), per option of its parent.

The facts must be exactly what the index's own methods give for the node's entry (a fact
of another entry would give a selection another entry's costs or checks), a reused ``id()``
must not hand over another entry's facts, and an evaluation with no facts on its nodes (the
engine then asks the index, the long way) must find the same issues, costs and values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import CatalogIndex, Library
from armybuilder.catalog.index import Child, EntryFacts
from armybuilder.model.plain import Entry
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster, format_loc

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library().scan()


def _seen(ev: Evaluation) -> list[Any]:
    """Every issue, the totals, every node's costs and values: what a player is shown."""
    out: list[Any] = [sorted(ev.totals.items())]
    out += [(i.severity, i.code, i.message, i.path, i.entry, i.constraint) for i in ev.issues]
    out += [(v.key, repr(v.value), v.text) for v in ev.roster_values]
    for n in ev.nodes():
        out.append((format_loc(n.loc), n.entry_id, sorted(ev.total_cost(n).items())))
        out += [(v.key, repr(v.value), v.text) for v in ev.values_of(n)]
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_node_holds_the_facts_of_its_own_entry(lib: Library, path: Path) -> None:
    roster = Roster.from_file(path, library=lib)
    ev = evaluate_roster(roster, lib.system(roster.system))
    index = ev.index
    built = 0
    for n in ev.nodes():
        if n.entry is None:
            assert n.facts is None
            continue
        facts = n.facts
        assert facts is not None, n
        built += 1
        assert facts is index.facts(n.entry) and facts.entry is n.entry
        assert facts.static == index.static_costs(n.entry)
        assert facts.quiet == index.quiet_leaf(n.entry)
        assert facts.checks == index.entry_checks(n.entry)
        assert facts.child_checks == index.child_checks(n.entry)
        assert facts.group_checks == index.group_checks(n.entry)
        assert facts.group_maxima == index.group_maxima(n.entry)
        kids = facts.kids()
        assert {k: c for k, (c, _, _) in kids.items()} == index.child_map(n.entry)
        assert all(f is index.facts(c.entry) for c, f, _ in kids.values())
        assert facts.cost_scopes == index.cost_scopes(n.entry)
        # what the selection counts as: entry, categories, group, link, type, path, "*"
        assert n.refs == Evaluation._node_refs(n, n.entry.categories)
    assert built, "no node of a catalog entry in this example"


def test_a_reused_id_does_not_hand_over_another_entry_s_facts(lib: Library) -> None:
    index = lib.system("infantry-ops").index("inner-sphere")
    squad, trooper = index.entries["squad"], index.entries["trooper"]
    # As if the squad's facts had been kept under the id the trooper now has.
    index._facts[id(trooper)] = EntryFacts(index, squad)
    try:
        got = index.facts(trooper)
        assert got.entry is trooper
        assert got.child_checks == index.child_checks(trooper)
        assert set(got.kids()) == set(index.child_map(trooper))
    finally:
        index._facts.pop(id(trooper), None)
    # (an entry the index has never seen gets facts of its own too)
    stray = Entry(id="stray", name="Stray")
    assert index.facts(stray).entry is stray and index.facts(stray).kids() == {}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_long_way_without_facts_finds_the_same(
    lib: Library, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster.from_file(path, library=lib)
    gs = lib.system(roster.system)
    short = _seen(evaluate_roster(roster, gs))

    def no_facts(
        self: CatalogIndex, entry: Entry | None
    ) -> dict[str, tuple[Child, EntryFacts | None, frozenset[str] | None]]:
        return {k: (c, None, None) for k, c in self.child_map(entry).items()}

    monkeypatch.setattr(CatalogIndex, "child_facts", no_facts)
    monkeypatch.setattr(EntryFacts, "kids", lambda self: no_facts(self._index, self.entry))
    ev = evaluate_roster(roster, gs)
    assert all(n.facts is None and n.refs is None for n in ev.nodes())
    assert _seen(ev) == short
