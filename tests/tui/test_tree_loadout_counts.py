"""A unit's line in the roster tree counts an upgrade taken more than once, as the printed
roster does: "Brother Noctis (Terminator) · Lightning Claw ×2", not "Lightning Claw,
Lightning Claw" (a Space Station Zero commander's three stat points read "+1 Life, +1 Life,
+1 Life"). Pilot, headless: the painted row against the session's selections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import pane_lines, tree_label

from armybuilder.paths import bundled_dir
from armybuilder.session import unit_summary

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


@run_async
async def test_an_upgrade_taken_twice_is_counted_on_the_units_line(
    make_app: Any, tmp_path: Path
) -> None:
    text = (bundled_dir("examples") / "space-hulk" / "standard-squad.yaml").read_text("utf-8")
    assert NOCTIS in text
    roster = tmp_path / "claws.yaml"
    roster.write_text(text.replace(NOCTIS, CLAWS), encoding="utf-8")
    app = make_app(roster)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        ev = s.evaluate()
        squad = ev.root.children[0]
        noctis = next(c for c in squad.children if ev.name(c) == "Brother Noctis")
        claws = [c for c in noctis.children if ev.name(c) == "Lightning Claw"]
        assert len(claws) == 2 and all(c.count == 1 for c in claws)  # two selections of one
        assert unit_summary(ev, noctis).loadout == ("Lightning Claw ×2", "Storm Bolter")
        editor.roster_tree.root.expand_all()
        await pilot.pause()
        rows = [tree_label(r) for r in pane_lines(app, editor.roster_tree)]
        line = next(r for r in rows if "Brother Noctis" in r)
        # (the line is fitted to the pane: the loadout may be abbreviated, "LC×2,Storm Bolter")
        loadout = line.split(" · ", 1)[1]
        assert loadout in ("Lightning Claw ×2, Storm Bolter", "LC×2,Storm Bolter"), rows
        assert "Claw, Lightning" not in line and "LC,LC" not in line
