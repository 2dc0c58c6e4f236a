"""The builder names a cost type as ``show`` and the PDF do, where it has the room (issue 18).

On the Infantry Operations example the totals bar said "Mass 2,380 kg" and ``show`` "Mass
2,380 kg", but the details pane's head said "2,380 kg" (of the roster and of a unit), and so
did the roster's line in the tree at 160x48, with room to spare. Now the details say "Mass
2,380 kg" at 80x24 and 160x48, and the roster's line too where its name and they fit whole
(at 80x24 its name is cut already: the totals keep their short form, "2,380 kg"). Read from
the painted screen (Pilot), against ``show``'s own text.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import normal, pane_lines
from test_screen_model import settle

from armybuilder.cli import main

ROSTER = EXAMPLES / "infantry-ops" / "rifle-lmg-platoon.yaml"


def show_lines(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["show", str(path)]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_the_builder_says_mass_as_show_does(
    make_app: Any, tmp_path: Path, size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / ROSTER.name
    shutil.copy(ROSTER, path)
    shown = show_lines(path, capsys)
    assert "Mass 2,380 kg" in shown  # (show's totals)
    assert any(line.endswith("— Mass 2,380 kg") for line in shown)  # (the platoon's price)
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        details = editor.query_one("#d-head")
        await wait_for(pilot, lambda: "2,380" in " ".join(pane_lines(app, details)))
        head = normal(" ".join(pane_lines(app, details)))
        assert "Mass 2,380 kg" in head, head  # (the roster's)
        bar = normal(" ".join(pane_lines(app, editor.totals)))
        assert "Mass 2,380 kg" in bar, bar
        tree = [normal(x) for x in pane_lines(app, editor.roster_tree)]
        root = tree[0]
        if size == (160, 48):
            assert root.endswith("Rifle + Light Machine Gun platoon Mass 2,380 kg"), tree
        else:  # (no room: the name is cut, the totals as short as before)
            assert root.endswith("… 2,380 kg") and "Mass" not in root, tree
        session = editor.session
        assert session is not None
        platoon = next(n for n in session.evaluate().root.children if n.entry is not None)
        editor.jump_to(platoon.loc)
        await settle(pilot, editor)
        await wait_for(pilot, lambda: "Platoon" in " ".join(pane_lines(app, details)))
        head = normal(" ".join(pane_lines(app, details)))
        assert "Mass 2,380 kg" in head, head  # (the platoon's, as show prints it)
