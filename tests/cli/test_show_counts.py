"""``armybuilder show`` counts an upgrade taken in several selections once, as the printed
roster and the builder's tree do: "with: Lightning Claw ×2, Storm Bolter", not "Lightning
Claw, Storm Bolter, Lightning Claw" (a Space Station Zero commander's three stat points read
"+1 Life, +1 Life, +1 Life" where the PDF said "+1 Life ×3")."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.paths import bundled_dir

NOCTIS = """\
        name: Brother Noctis
        selections:
          - entry: storm-bolter
          - entry: power-fist
"""
CLAWS = """\
        name: Brother Noctis
        selections:
          - entry: lightning-claw
          - entry: storm-bolter
          - entry: lightning-claw
"""


def test_show_counts_an_upgrade_taken_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (bundled_dir("examples") / "space-hulk" / "standard-squad.yaml").read_text("utf-8")
    assert NOCTIS in text
    roster = tmp_path / "claws.yaml"
    roster.write_text(text.replace(NOCTIS, CLAWS), encoding="utf-8")
    main(["show", str(roster)])
    out = capsys.readouterr().out
    lines = out.splitlines()
    noctis = lines.index("  Brother Noctis  [Terminator]")
    assert lines[noctis + 1] == "      with: Lightning Claw ×2, Storm Bolter", out
    assert out.count("Lightning Claw,") == 0
