"""The evaluation's shortcuts (issue 17) give what the long way gives.

* :meth:`Evaluation.nodes_in` skips the selections that cannot hold one of a category (the
  catalog index works out which once per category): it must list the same selections, in the
  same order, as a walk of the whole tree, on every example roster (one has several forces)
  and on rosters with unknown entries.
* The Infantry Operations module works a trooper's kit out once per set of holdings and a
  platoon's "attack values by troopers left" table once per make-up: troopers and platoons
  that differ must still get their own figures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def _naive(ev: Evaluation, category: str) -> list[int]:
    return [id(n) for n in ev.nodes() if n.has_category(category)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_nodes_in_lists_what_a_full_walk_finds(library: Library, path: Path) -> None:
    roster = Roster.from_file(path, round_trip=False)
    ev = evaluate_roster(roster, library.system(roster.system))
    categories = list(ev.index.categories)
    assert categories
    found_any = False
    for category in categories:
        got = [id(n) for n in ev.nodes_in(category)]
        assert got == _naive(ev, category), category
        found_any = found_any or bool(got)
    assert found_any  # the example holds selections of some category


IO_HEAD = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Test\nselections:\n"


def _platoon(name: str, motive: str, kits: list[tuple[str, int, list[str]]]) -> str:
    lines = [
        "  - entry: platoon",
        f"    name: {name}",
        "    selections:",
        f"      - entry: {motive}",
        "      - entry: squad",
        "        selections:",
    ]
    for kit_name, count, items in kits:
        lines += [
            "          - entry: trooper",
            f"            name: {kit_name}",
            f"            count: {count}",
            "            selections:",
            *(f"              - entry: {i}" for i in items),
        ]
    return "\n".join(lines) + "\n"


def test_nodes_in_skips_unknown_entries_but_finds_what_is_known(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    text = IO_HEAD + _platoon("A", "foot", [("R", 7, ["auto-rifle", "kevlar-vest"])])
    text += "  - entry: no-such-thing\n    selections:\n      - entry: platoon\n"
    ev = evaluate_text(text)
    assert "unknown-entry" in ev.codes() or not ev.valid
    assert [id(n) for n in ev.nodes_in("platoon")] == _naive(ev, "platoon")
    assert len(ev.nodes_in("platoon")) == 1


def _weapons(ev: Evaluation) -> dict[str, str]:
    out = {}
    for n in ev.nodes():
        if n.has_category("trooper"):
            for v in ev.values_of(n):
                if v.key == "weapons":
                    out[ev.where(n)] = v.display()
    return out


def test_troopers_with_other_kits_get_their_own_weapons(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    text = IO_HEAD + _platoon(
        "A",
        "foot",
        [
            ("Riflemen", 3, ["auto-rifle", "kevlar-vest"]),
            ("More riflemen", 2, ["auto-rifle", "kevlar-vest"]),
            ("Laser riflemen", 2, ["laser-rifle", "kevlar-vest"]),
        ],
    )
    weapons = _weapons(evaluate_text(text))
    assert set(weapons) == {"A > Squad > Riflemen ×3", "A > Squad > More riflemen ×2",
                            "A > Squad > Laser riflemen ×2"}  # fmt: skip
    assert weapons["A > Squad > Riflemen ×3"] == weapons["A > Squad > More riflemen ×2"]
    # Infantry Operations, Weapon Statistics: the auto-rifle's DV is 0.5.
    assert weapons["A > Squad > Riflemen ×3"].startswith("Auto-Rifle (DV 0.5 ")
    assert weapons["A > Squad > Laser riflemen ×2"].lower().startswith("laser rifle (dv ")


def _survivors(ev: Evaluation) -> dict[str, dict[str, list[int]]]:
    out = {}
    for p in ev.nodes_in("platoon"):
        got = ev.value(p, "av_by_survivors")
        assert isinstance(got, dict)
        out[ev.name(p)] = got
    return out


def test_platoons_of_one_make_up_share_a_table_and_others_do_not(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    kits = [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])]
    text = IO_HEAD + _platoon("Foot 1", "foot", kits) + _platoon("Foot 2", "foot", kits)
    text += _platoon("Wheeled", "mechanised-wheeled", kits)
    text += _platoon("Bigger", "foot", [("Riflemen", 6, ["auto-rifle", "kevlar-vest"])])
    tables = _survivors(evaluate_text(text))
    # Infantry Operations, Infantry Attacks: the last n troopers' DV, rounded up; a mechanised
    # squad's driver adds nothing (Mechanised movement).
    assert tables["Foot 1"] == tables["Foot 2"]
    assert tables["Foot 1"] is not tables["Foot 2"]  # each platoon's own copy
    assert tables["Wheeled"] != tables["Foot 1"]
    assert len(tables["Bigger"]["primary"]) == 6
    assert len(tables["Foot 1"]["primary"]) == 5
    # The driver leaves one trooper's DV out: with one trooper standing, nothing is left.
    assert tables["Wheeled"]["primary"][0] == 0
    assert tables["Foot 1"]["primary"][0] > 0
