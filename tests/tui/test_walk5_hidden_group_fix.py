"""A choice kept in a group the data now hides offers its remedy in the builder (issue 18):
a 40k Captain holds The Honour Vehement, a Gladius Task Force enhancement, in a roster whose
detachment is the Anvil Siege Force. Its warning (`hidden-group-choice`) ends with the quick
fix "[.] Remove The Honour Vehement"; the key takes it off the Captain, the issues pane says
the roster is clean of it and the tree no longer lists it; Ctrl+Z gives it back. Before,
the warning had no fix: the player had to find the line in the tree (Pilot, headless, on
the real data in ``../shared/bsdata``; skipped with a message where it is absent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import expected_issue_text, pane_lines

from armybuilder.catalog import Library

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)

ROSTER = """format: 1
system: wh40k-10e
faction: imperium-adeptus-astartes-space-marines
name: Walk
limits:
  pts: 2000
selections:
  - entry: e9ed-6763-ea0d-39fe
    selections:
      - entry: b7d2-99c0-a2ed-3dce
  - entry: 7380-3e40-6ed6-b7cc
    selections:
      - entry: baf8-997f-e323-a090
  - entry: 6c10-5b51-5bc0-8d2c
    selections:
      - entry: c6aa-b3a5-4ff3-e0d3
        selections:
          - entry: 6e7b-4796-0ba3-a2d0
          - entry: b273-b85e-4018-a0cd
          - entry: c3bc-26b4-6fa0-bd39
      - entry: 899b-69cc-2e8f-f8ea
"""
CAPTAIN = ("selections", 2)
HONOUR = "899b-69cc-2e8f-f8ea"


@run_async
async def test_the_enhancement_of_a_detachment_not_taken_is_removed_by_its_fix(
    make_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "walk.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    app = make_app(path, library=Library([BSDATA]).scan())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        s = editor.session
        assert s is not None and s.evaluation is not None
        await wait_for(pilot, lambda: editor.shown_generation == s.generation)
        want = expected_issue_text(s.evaluation)
        (line,) = [t for t in want if "Honour Vehement" in t]
        assert line.startswith("⚠ Captain > The Honour Vehement is in Gladius Task Force")
        assert line.endswith("  [.] Remove The Honour Vehement"), line
        # (as the pane paints it; it wraps the long line wherever it must)
        painted = "".join(pane_lines(app, editor.issues.issue_list)).replace(" ", "")
        assert line.replace(" ", "") in painted
        await pilot.press("f7")
        editor.issues.issue_list.highlighted = editor.issues.texts().index(line)
        await pilot.press("full_stop")

        def held() -> list[str]:
            return [c["entry"] for c in s.node(CAPTAIN)["selections"]]

        await wait_for(pilot, lambda: HONOUR not in held())
        assert held() == ["c6aa-b3a5-4ff3-e0d3"]  # (the Captain's wargear stays)
        await wait_for(pilot, lambda: editor.shown_generation == s.generation)
        assert not any("Honour Vehement" in t for t in editor.issues.texts())
        painted = "".join(pane_lines(app, editor.issues.issue_list))
        assert "Honour Vehement" not in painted
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: HONOUR in held())
