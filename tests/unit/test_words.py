"""The one plural every report uses (terminal, exports, builder panes)."""

from __future__ import annotations

from armybuilder.words import plural


def test_one_is_singular_every_other_count_plural() -> None:
    assert plural(1, "warning") == "1 warning"
    assert plural(0, "warning") == "0 warnings"
    assert plural(2, "error") == "2 errors"
    assert plural(11, "note") == "11 notes"
