"""The roster at a glance counts its errors and warnings in words a player reads."""

from __future__ import annotations

import pytest

from armybuilder.overview import Overview


@pytest.mark.parametrize(
    ("errors", "warnings", "line"),
    [
        (0, 0, "0 errors, 0 warnings"),
        (1, 0, "1 error, 0 warnings"),
        (2, 1, "2 errors, 1 warning"),
    ],
)
def test_counts_are_worded_by_number(errors: int, warnings: int, line: str) -> None:
    assert Overview(errors=errors, warnings=warnings).lines()[1] == line
