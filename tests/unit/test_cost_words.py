"""Costs as the builder words them: a cost type without a unit (Starship Troopers' Value) is
named, never printed as a bare number; one named by its unit (BattleScribe's "pts", Gaslands'
Cans) reads number then unit, the name not said twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.paths import bundled_dir
from armybuilder.render import load
from armybuilder.session.text import cost_text, costs_text, plain_text
from armybuilder.words import named_amount

EXAMPLES = bundled_dir("examples")


def test_a_cost_without_a_unit_is_named(library: Library) -> None:
    # mi-squad: six Cap Troopers of Value 30 each in a 200-Value engagement (Starship
    # Troopers, Value); the builder once showed "180 / 200" and "30", numbers of nothing.
    ev = load(Path(EXAMPLES / "starship-troopers" / "mi-squad.yaml"), library)[2]
    assert cost_text(ev, ev.totals, limits=True) == "Value 180 / 200"
    squad = ev.root.children[0]
    assert cost_text(ev, ev.total_cost(squad)) == "Value 180"
    assert costs_text(ev.index, {"value": 30.0}) == "Value 30"
    assert "Total: Value 180 / 200" in plain_text(ev).splitlines()


def test_a_cost_with_a_unit_keeps_it(library: Library) -> None:
    # The rules' rifle platoon: 2,380 kg (Infantry Operations, platoon mass).
    ev = load(Path(EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"), library)[2]
    assert cost_text(ev, ev.totals) == "2,380 kg"
    assert costs_text(ev.index, {"kg": 85.0}) == "85 kg"


def test_the_catalog_pane_names_a_cost_without_a_unit(library: Library) -> None:
    from armybuilder.tui.widgets.catalog import entry_cost

    ev = load(Path(EXAMPLES / "starship-troopers" / "mi-squad.yaml"), library)[2]
    trooper = ev.index.entries["cap-trooper"]
    assert entry_cost(ev.index, trooper) == "Value 30"


def test_a_total_names_its_cost_type_once() -> None:
    # A total names its kind unless the unit already does: "Mass 2,380 kg" (Infantry
    # Operations), "Value 180" (Starship Troopers), "1,910 / 2,000 pts" and "5 Cans" for
    # BattleScribe cost types, whose unit is their name (never "pts 1,910 pts").
    assert named_amount("Mass", "kg", "2,380") == "Mass 2,380 kg"
    assert named_amount("Value", "", "180") == "Value 180"
    assert named_amount("pts", "pts", "1,910 / 2,000") == "1,910 / 2,000 pts"
    assert named_amount("Cans", "Cans", "5") == "5 Cans"
    assert named_amount("PL", "pl", "12") == "12 pl"


# One rule for a quantity everywhere (the builder once kept 2 decimals, the reports 6).
SAME = [(0.125, "0.125"), (0.0005, "0.0005"), (-1e-7, "0"), (-0.0, "0"), (2380.0, "2,380")]


@pytest.mark.parametrize(("value", "shown"), SAME, ids=[s for _, s in SAME])
def test_the_builder_words_a_quantity_as_the_reports_do(
    library: Library, value: float, shown: str
) -> None:
    from armybuilder.words import number

    ev = load(Path(EXAMPLES / "starship-troopers" / "mi-squad.yaml"), library)[2]
    assert number(value) == shown
    # (a price that reads "0" is no price: the builder printed "Value 0" for -1e-7)
    assert costs_text(ev.index, {"value": value}) == ("" if shown == "0" else f"Value {shown}")
    assert cost_text(ev, {"value": value}) == f"Value {shown}"
