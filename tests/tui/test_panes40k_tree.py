"""The roster tree after an edit that changes *another* unit's line (issue 18, the 40k roster):
a sync that keeps the tree's shape repaints only the lines it relabels, so a line whose
selection was not edited must still be repainted when what the session computes for it
changed: a roster-wide 0-1 enhancement taken by a second character marks the first one ✖,
the undo takes the mark away, a points limit crossed marks the roster's line. After each
edit every row of the tree is the label the session computes for its selection, the terminal
(every frame written in place) equals a drawing of the whole screen, and that equals a repaint
from scratch. Skipped with a message where the shared 40k data is absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from screen import Terminal, painted, pane_lines
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, settle

from armybuilder.catalog import Library
from armybuilder.tui.widgets.roster_tree import ERROR_MARK

ENHANCEMENT = "Artificer Armour"


def unit_loc(session: Any, name: str) -> Any:
    ev = session.evaluate()
    return next(n.loc for n in ev.root.children if n.entry is not None and n.entry.name == name)


def option_id(session: Any, loc: Any, name: str) -> str:
    ev = session.evaluate()
    child = next(c for c in session.options(loc, ev) if c.entry.name == name)
    return str(session.option_id(loc, child))


def add(session: Any, loc: Any) -> None:
    """The enhancement added to the unit at ``loc``, the selection left where it is (on the
    unit, its line collapsed: the tree keeps its shape)."""
    session.add(loc, option_id(session, loc, ENHANCEMENT))


async def checked(pilot: Any, editor: Any, terminal: Terminal, where: str) -> list[str]:
    """The screen after an edit: the terminal, the panes against the session, a repaint
    from scratch; the tree's rows as painted (for the caller's own checks)."""
    await settle(pilot, editor)
    await pilot.pause()
    problems = terminal.problems()  # (first: the checks below draw the whole screen)
    assert not problems, (where, problems)
    problems = screen_problems(pilot.app, editor)
    assert not problems, (where, problems)
    rows = painted(pilot.app)
    again = await repainted_whole(pilot)
    stale = [(y, a, b) for y, (a, b) in enumerate(zip(rows, again, strict=True)) if a != b]
    assert not stale, (where, stale)
    return pane_lines(pilot.app, editor.roster_tree, rows)


def row_of(editor: Any, loc: Any, rows: list[str]) -> str:
    tree = editor.roster_tree
    tnode = tree.find(loc, reveal=False)
    assert tnode is not None and tnode._line >= tree.scroll_offset.y
    return rows[tnode._line - tree.scroll_offset.y]


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
@run_async
async def test_another_units_mark_and_the_roster_line_repaint_after_an_edit(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
    size: tuple[int, int],
) -> None:
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=size) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        editor.roster_tree.focus()
        captain = unit_loc(s, "Captain")
        lieutenant = unit_loc(s, "Lieutenant")
        raider = unit_loc(s, "Land Raider")
        await checked(pilot, editor, terminal, "opened")

        # The Captain takes the enhancement (his own line changes), then the Lieutenant the
        # same one: the Captain's line (not edited) gets its ✖.
        editor.jump_to(captain)
        await settle(pilot, editor)
        editor._edit(lambda x: add(x, captain))
        rows = await checked(pilot, editor, terminal, "captain's enhancement")
        assert ERROR_MARK not in row_of(editor, captain, rows)
        editor.jump_to(lieutenant)
        await settle(pilot, editor)
        labels = editor.roster_tree.labels_set
        editor._edit(lambda x: add(x, lieutenant))
        rows = await checked(pilot, editor, terminal, "lieutenant's enhancement")
        assert ERROR_MARK in row_of(editor, captain, rows), rows
        assert editor.roster_tree.labels_set >= 2, labels  # (the Captain's, the Lieutenant's)

        # A count edit on the Lieutenant: the Captain keeps his mark.
        await pilot.press("plus")
        rows = await checked(pilot, editor, terminal, "lieutenant +1")
        assert ERROR_MARK in row_of(editor, captain, rows)
        # Both undone: the Captain's mark goes, his line not edited by the undo.
        await pilot.press("ctrl+z")
        await checked(pilot, editor, terminal, "undo +1")
        await pilot.press("ctrl+z")
        rows = await checked(pilot, editor, terminal, "undo the lieutenant's enhancement")
        assert ERROR_MARK not in row_of(editor, captain, rows), rows
        await pilot.press("ctrl+y")
        rows = await checked(pilot, editor, terminal, "redo")
        assert ERROR_MARK in row_of(editor, captain, rows), rows

        # The Captain's line expanded (its children listed), then the enhancement taken
        # away from the Lieutenant: lines go from the tree beside a mark that goes.
        tnode = editor.roster_tree.find(captain)
        assert tnode is not None
        tnode.expand()
        await checked(pilot, editor, terminal, "captain expanded")
        editor.jump_to(captain)
        await settle(pilot, editor)
        await pilot.press("ctrl+z")
        rows = await checked(pilot, editor, terminal, "undo with the captain expanded")
        assert ERROR_MARK not in row_of(editor, captain, rows), rows
        await pilot.press("ctrl+y")
        await checked(pilot, editor, terminal, "redo with the captain expanded")

        # A points limit, then crossed by a count edit on another unit: the roster's line.
        ev = s.evaluation
        assert ev is not None
        limit = ev.totals["pts"]  # (just met: a unit more is over it)
        editor._edit(lambda x: x.set_limit("pts", limit))
        await checked(pilot, editor, terminal, "limit")
        editor.jump_to(raider)
        await settle(pilot, editor)
        await pilot.press("plus")
        await checked(pilot, editor, terminal, "land raider +1")
        editor.roster_tree.scroll_to(y=0, animate=False)  # (the roster's line, into view)
        rows = await checked(pilot, editor, terminal, "land raider +1, the tree at its top")
        assert ERROR_MARK in row_of(editor, (), rows), rows
        await pilot.press("ctrl+z")
        await checked(pilot, editor, terminal, "land raider +1 undone")
        editor.roster_tree.scroll_to(y=0, animate=False)
        rows = await checked(pilot, editor, terminal, "undone, the tree at its top")
        assert ERROR_MARK not in row_of(editor, (), rows), rows
