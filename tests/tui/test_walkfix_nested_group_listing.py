"""A group's heading and the choices listed under it agree (issue 18): a 40k Ork Warboss's
details showed "Wargear (at least 2): 3, at least 2" over two items, Kombi-weapon and Twin
slugga; the third was the Big choppa, chosen in the "Big Choppa" group nested inside Wargear,
which the heading counts (as BattleScribe counts a group's subgroups) but the list left out.
Now the list names every choice the heading counts.

Pilot, headless, on the real data in ``../shared/bsdata`` (skipped with a message where it is
absent): the pane as painted against the session's figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import pane_lines

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.tui.widgets.details import group_label
from armybuilder.tui.widgets.roster_tree import node_at

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
WARBOSS = "2efc-c4b3-2ecc-5a37"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)


@run_async
async def test_the_warboss_s_wargear_lists_what_its_heading_counts(
    make_app: Any, tmp_path: Path
) -> None:
    lib = Library([BSDATA]).scan()
    path = tmp_path / "waaagh.yaml"
    s = EditSession.new(lib, "wh40k-10e", "xenos-orks", "Waaagh", autosave=False)
    boss = s.add((), WARBOSS)
    offered = {c.entry.name: c for c in s.options(boss)}
    for name in ("Kombi-weapon", "Twin slugga"):
        s.add(boss, s.option_id(boss, offered[name]))
    s.save(path)
    s.close()

    app = make_app(path, library=lib)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        session = editor.session
        assert session is not None
        await wait_for(pilot, lambda: editor.shown_generation == session.generation)
        editor.jump_to(boss)
        await wait_for(pilot, lambda: editor.details.loc == boss)
        await pilot.pause()
        await pilot.pause()

        ev = session.evaluate()
        node = node_at(ev, boss)
        assert node is not None and node.entry is not None
        (wargear,) = [g for g in node.entry.groups if g.name == "Wargear"]
        limit = session.group_limits(boss, ev)[wargear.id]
        heading = group_label(wargear, limit)
        assert heading == "Wargear (at least 2): 3, at least 2"
        lines = pane_lines(app, editor.details)
        at = lines.index(heading)
        listed = " ".join(lines[at + 1 : at + 4]).split("  (add from")[0].split(", ")
        assert sorted(listed) == ["Big choppa", "Kombi-weapon", "Twin slugga"], lines[at : at + 3]
        assert len(listed) == limit.selected
