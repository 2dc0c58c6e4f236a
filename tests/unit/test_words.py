"""The one plural every report uses (terminal, exports, builder panes)."""

from __future__ import annotations

from armybuilder.words import named_amount, plural, unit_after


def test_one_is_singular_every_other_count_plural() -> None:
    assert plural(1, "warning") == "1 warning"
    assert plural(0, "warning") == "0 warnings"
    assert plural(2, "error") == "2 errors"
    assert plural(11, "note") == "11 notes"


def test_a_unit_is_singular_after_exactly_one() -> None:
    """Gaslands counts cans ("1 Can", "2 Cans", "1 Build Slot"); abbreviations and words
    that are not plurals stay as they are."""
    assert unit_after("1", "Cans") == "Can"
    assert unit_after("2", "Cans") == "Cans"
    assert unit_after("1 / 4", "Cans") == "Cans"
    assert unit_after("1.5", "Cans") == "Cans"
    assert unit_after("1", "Build Slots") == "Build Slot"
    assert unit_after("1", "pts") == "pts"
    assert unit_after("1", "kg") == "kg"
    assert unit_after("1", "Mass") == "Mass"
    assert unit_after("1", "") == ""
    assert named_amount("Cans", "Cans", "1") == "1 Can"
    assert named_amount("Cans", "Cans", "5") == "5 Cans"
    assert named_amount("Slots", "Build Slots", "1") == "Slots 1 Build Slot"
