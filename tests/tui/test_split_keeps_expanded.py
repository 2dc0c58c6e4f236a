"""Splitting or moving a unit leaves the roster tree's lines open or closed as they were.

Found at 160x48 in a real terminal on the StarMarines example: in Alpha team, "StarMarine ×3"
split (``x``) into three StarMarines closed the Marksman after them, a StarMarine too (the
same entry, with a name), whose Sharpshooter line had shown:

    before                                         after x
    ├ StarMarine ×3 · Veteran  3 BP                ├ StarMarine · Veteran  1 BP
    ├ ▼ Marksman (StarMarine) · Veteran · Sha…     ├ StarMarine · Veteran  1 BP
    │ └ Sharpshooter (Soldier attribute)  0.5 BP   ├ StarMarine · Veteran  1 BP
                                                   ├ ▶ Marksman (StarMarine) · Veteran · Sha…

The tree matched the lines before and after by entry, from both ends: the Marksman's open
line was kept for the second StarMarine, and the Marksman got a new, closed, line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_async, wait_editor
from screen import pane_lines
from test_panes_say import copy_example
from test_screen_model import screen_problems, settle

from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]

ALPHA = ("selections", 0, "selections", 2)


@run_async
async def test_a_split_keeps_the_next_siblings_open(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "starmarines", "starmarines-example.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        tree = editor.roster_tree
        await pilot.press("e")  # every unit open
        await settle(pilot, editor)
        alpha = session.node(ALPHA)
        assert alpha["name"] == "Alpha team"
        marksman = (*ALPHA, "selections", 1)
        assert session.node(marksman)["name"] == "Marksman"
        editor.jump_to((*ALPHA, "selections", 0))
        await settle(pilot, editor)
        shown = "\n".join(pane_lines(app, tree))
        assert "StarMarine ×3" in shown and "Sharpshooter" in shown
        await pilot.press("x")
        await settle(pilot, editor)
        after = (*ALPHA, "selections", 3)
        assert session.node(after)["name"] == "Marksman"
        line = tree.find(after, reveal=False)
        assert line is not None and line.is_expanded
        shown = "\n".join(pane_lines(app, tree))
        assert "StarMarine ×3" not in shown
        assert "▼ Marksman (StarMarine)" in shown and "Sharpshooter" in shown, shown
        assert screen_problems(app, editor) == []
        # Undone: the lines as they were, the Marksman still open.
        await pilot.press("ctrl+z")
        await settle(pilot, editor)
        shown = "\n".join(pane_lines(app, tree))
        assert "StarMarine ×3" in shown
        assert "▼ Marksman (StarMarine)" in shown and "Sharpshooter" in shown, shown
        assert screen_problems(app, editor) == []


SQUAD = ("selections", 1)


@run_async
async def test_a_unit_moved_up_stays_open(make_app: MakeApp, workdir: Path) -> None:
    """Found at 160x48 on Space Hulk's squad with a Librarian: Ctrl+Up on Brother Leon (open,
    his Assault Cannon and Power Fist shown) put him above Sergeant Gideon with both lines
    closed ("▶ Brother Leon", "▶ Sergeant Gideon"): the tree took them out and put in new,
    closed, lines."""
    path = copy_example(workdir, "space-hulk", "squad-with-librarian.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        tree = editor.roster_tree
        await pilot.press("e")
        await settle(pilot, editor)
        leon = (*SQUAD, "selections", 1)
        assert session.node(leon)["name"] == "Brother Leon"
        editor.jump_to(leon)
        await settle(pilot, editor)
        await pilot.press("ctrl+up")
        await settle(pilot, editor)
        moved = (*SQUAD, "selections", 0)
        assert session.node(moved)["name"] == "Brother Leon"
        for loc in (moved, (*SQUAD, "selections", 1)):
            line = tree.find(loc, reveal=False)
            assert line is not None and line.is_expanded, line
        shown = pane_lines(app, tree)
        text = "\n".join(shown)
        assert "▼ Brother Leon" in text and "▼ Sergeant Gideon" in text, text
        at = next(i for i, row in enumerate(shown) if "Brother Leon" in row)
        assert "Assault Cannon" in shown[at + 1] and "Power Fist" in shown[at + 2], shown
        assert screen_problems(app, editor) == []
        # Down again (Ctrl+Down): both still open.
        await pilot.press("ctrl+down")
        await settle(pilot, editor)
        text = "\n".join(pane_lines(app, tree))
        assert "▼ Brother Leon" in text and "▼ Sergeant Gideon" in text, text
        assert screen_problems(app, editor) == []
