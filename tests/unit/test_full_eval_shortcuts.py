"""Two shortcuts of the full evaluation (issue 17, the regiment, 2026-11-27) give what the
long way gives.

* **A selection's own cost, once per scope** (:meth:`Evaluation._scoped_costs`): where every
  cost modifier of an entry looks at one scope (a trooper's mass reads its platoon's
  motive), the cost of one copy is worked out for the first selection of that entry in
  that scope's selection and copied for the others. Troopers of platoons that move
  differently must still weigh what the movement table gives each (Infantry Operations,
  movement table: foot 85 kg, jump +80, motorised wheeled +110, tracked +150), and every
  node's costs must equal those worked out node by node.
* **Leaves share one empty list of children** (:data:`engine.NO_CHILDREN`): it must refuse
  to be changed, and a what-if price of adding under a leaf (which copies the leaf) must
  still work.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import engine
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.rules.frozen import FrozenValueError

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))

IO_HEAD = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Test\nselections:\n"

#: Kits as the benchmark's regiment carries them (Infantry Operations, Weaponry).
KITS = [
    ("Riflemen", 3, ["auto-rifle", "kevlar-vest"]),
    ("Laser riflemen", 2, ["laser-rifle", "flak-vest", "thrown-grenade"]),
    ("Gunner", 1, ["light-mg", "kevlar-vest"]),
]


def _platoon(name: str, motive: str, squads: int = 2) -> str:
    lines = [
        "  - entry: platoon",
        f"    name: {name}",
        "    selections:",
        f"      - entry: {motive}",
    ]
    for s in range(squads):
        lines += ["      - entry: squad", f"        name: Squad {s + 1}", "        selections:"]
        for kit_name, count, items in KITS:
            lines += [
                "          - entry: trooper",
                f"            name: {kit_name}",
                f"            count: {count}",
                "            selections:",
                *(f"              - entry: {i}" for i in items),
            ]
    return "\n".join(lines) + "\n"


MOTIVES = ["foot", "jump", "motorised-wheeled", "mechanised-tracked", "foot", "jump"]
REGIMENT = IO_HEAD + "".join(_platoon(f"Platoon {i + 1}", m) for i, m in enumerate(MOTIVES))


def _costs(ev: Evaluation) -> list[Any]:
    """Every node's total and unit costs, and the roster's totals and issues."""
    out: list[Any] = [sorted(ev.totals.items())]
    out += [(i.severity, i.code, i.message, i.path) for i in ev.issues]
    for n in ev.nodes():
        out.append(
            (
                n.loc,
                n.entry_id,
                sorted(ev.total_cost(n).items()),
                [ev.unit_cost(n, ct) for ct in ev.index.cost_types],
            )
        )
    return out


def _no_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Evaluation, "_scoped_costs", lambda self, node, entry: None)


def test_troopers_weigh_what_their_own_platoon_s_motive_gives(
    evaluate_text: Callable[[str], Evaluation], monkeypatch: pytest.MonkeyPatch
) -> None:
    ev = evaluate_text(REGIMENT)
    assert ev._scoped, "the shortcut was not taken: this test would prove nothing"
    weights: dict[str, set[float]] = {}
    for platoon in ev.nodes_in("platoon"):
        motive = platoon.children[0].entry_id
        assert motive is not None
        for n in platoon.descendants():
            if n.entry_id == "trooper":
                weights.setdefault(motive, set()).add(ev.unit_cost(n, "kg"))
    # Infantry Operations, movement table (a trooper's mass by motive)
    assert weights == {
        "foot": {85.0},
        "jump": {165.0},
        "motorised-wheeled": {195.0},
        "mechanised-tracked": {85.0},
    }
    short = _costs(ev)
    _no_shortcut(monkeypatch)
    assert short == _costs(evaluate_text(REGIMENT))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_costs_what_it_costs_node_by_node(
    library: Library, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster.from_file(path, round_trip=False)
    system = library.system(roster.system)
    short = _costs(evaluate_roster(roster, system))
    _no_shortcut(monkeypatch)
    assert short == _costs(evaluate_roster(roster, system))


def test_each_selection_owns_its_costs(evaluate_text: Callable[[str], Evaluation]) -> None:
    ev = evaluate_text(REGIMENT)
    troopers = [n for n in ev.nodes() if n.entry_id == "trooper"]
    totals = [ev.total_cost(n) for n in troopers]
    assert len({id(t) for t in totals}) == len(totals)


def test_leaves_share_one_empty_list_that_refuses_changes(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    ev = evaluate_text(REGIMENT)
    leaves = [n for n in ev.nodes() if not n.children and n.entry is not None]
    assert len(leaves) > 50
    assert all(n.children is engine.NO_CHILDREN for n in leaves)
    assert engine.NO_CHILDREN == [] and not engine.NO_CHILDREN
    with pytest.raises(FrozenValueError):
        leaves[0].children.append(leaves[1])
    with pytest.raises(FrozenValueError):
        leaves[0].children += [leaves[1]]
    assert engine.NO_CHILDREN == []
    # A node made by hand (what-if nodes) has a list of its own.
    assert engine.Node(None, None, None, None).children is not engine.NO_CHILDREN


def test_a_price_under_a_leaf_is_still_worked_out(tmp_path: Path, library: Library) -> None:
    from armybuilder.session import EditSession

    path = tmp_path / "bare.yaml"
    path.write_text(
        IO_HEAD
        + "  - entry: platoon\n    name: P\n    selections:\n      - entry: jump\n"
        + "      - entry: squad\n",
        encoding="utf-8",
    )
    s = EditSession.open(path, library, autosave=False, lazy=False)
    ev = s.evaluate()
    squad = next(n for n in ev.nodes() if n.entry_id == "squad")
    assert squad.children is engine.NO_CHILDREN  # a leaf
    infos = {i.entry_id: i for i in s.option_infos(("selections", 0, "selections", 1))}
    # Infantry Operations, movement table: a trooper of a jump platoon, 85 + 80 kg
    assert infos["trooper"].costs["kg"] == 165.0
    assert squad.children is engine.NO_CHILDREN  # the price did not add to the leaf
    s.add(("selections", 0, "selections", 1), "trooper")
    ev = s.evaluate()
    trooper = next(n for n in ev.nodes() if n.entry_id == "trooper")
    assert ev.total_cost(trooper)["kg"] == 165.0
