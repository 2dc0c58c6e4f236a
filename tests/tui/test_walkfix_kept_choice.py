"""The details pane lists a choice the unit keeps in a group the data now hides (issue 18): a
40k Captain holds The Honour Vehement, a Gladius Task Force enhancement, in a roster whose
detachment is the Anvil Siege Force. The group offers nothing there, so the pane left it out:
only the tree (and the issues pane) said the Captain held it. Now the Captain's details show
the group's heading with the choice kept, its warning and its quick fix; "." on the Captain
applies it (the enhancement goes, and its heading with it), Ctrl+Z brings both back.
Before, the pane showed the Anvil Siege Force's enhancements "(none)" and nothing else.

Pilot, headless, on the real data in ``../shared/bsdata`` (skipped with a message where it is
absent); what is checked is the pane as painted against what the session computes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import pane_lines
from test_walk5_hidden_group_fix import BSDATA, CAPTAIN, HONOUR, ROSTER

from armybuilder.catalog import Library
from armybuilder.fixes import fixes_for
from armybuilder.tui.widgets.details import group_label
from armybuilder.tui.widgets.roster_tree import node_at

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)


def squeezed(lines: list[str]) -> str:
    """The pane's text without its spaces (it wraps long lines wherever it must)."""
    return "".join(lines).replace(" ", "")


@run_async
async def test_the_captain_s_details_show_the_enhancement_kept(
    make_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "walk.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    app = make_app(path, library=Library([BSDATA]).scan())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        s = editor.session
        assert s is not None
        await wait_for(pilot, lambda: editor.shown_generation == s.generation)
        editor.roster_tree.focus()
        editor.jump_to(CAPTAIN)
        await wait_for(pilot, lambda: editor.details.loc == CAPTAIN)
        await pilot.pause()
        await pilot.pause()

        ev = s.evaluate()
        captain = node_at(ev, CAPTAIN)
        assert captain is not None
        (kept,) = [c for c in captain.children if c.entry_id == HONOUR]
        assert kept.group is not None
        (issue,) = [i for i in ev.issues if tuple(i.path) == kept.loc]
        (fix,) = fixes_for(ev, issue)
        heading = group_label(kept.group, s.group_limits(CAPTAIN, ev).get(kept.group.id))
        assert heading == "Gladius Task Force Enhancements (0-1): 1/1"
        line = f"⚠ {ev.name(kept)}: no longer offered, the data hides this group  [.] {fix.label}"
        pane = squeezed(pane_lines(app, editor.details))
        assert squeezed([heading, line]) in pane, pane
        assert editor.details.kept_locs() == [kept.loc]

        await pilot.press("full_stop")  # the fix, from the Captain's line in the tree

        def held() -> list[str]:
            return [c["entry"] for c in s.node(CAPTAIN)["selections"]]

        await wait_for(pilot, lambda: HONOUR not in held())
        await wait_for(pilot, lambda: editor.shown_generation == s.generation)
        await pilot.pause()
        pane = squeezed(pane_lines(app, editor.details))
        assert "GladiusTaskForceEnhancements" not in pane, pane
        assert "HonourVehement" not in pane, pane

        await pilot.press("ctrl+z")  # (the enhancement given back is selected: back up)
        await wait_for(pilot, lambda: HONOUR in held())
        await wait_for(pilot, lambda: editor.shown_generation == s.generation)
        editor.jump_to(CAPTAIN)
        await wait_for(pilot, lambda: editor.details.loc == CAPTAIN)
        await pilot.pause()
        await pilot.pause()
        pane = squeezed(pane_lines(app, editor.details))
        assert squeezed([heading, line]) in pane, pane
