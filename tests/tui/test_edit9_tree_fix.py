"""A quick fix that gives a selection its entry back (and its undo) relabels the selection's
line of the roster tree in place.

The tree tells its lines apart by their entries' ids, so a selection whose id was corrected
looked like a line removed and another added: the sync took every row on screen before and
after to compare them (about 1 ms of a 40k quick fix's 2), and the line came back collapsed,
its selections hidden. The line is now the same line, relabelled: what the person sees is
checked against the session (every row of the tree, the details, the catalog, the issues,
the totals) and against a whole drawing of the screen, after the fix and after its undo. A
misspelt selection moved past a sibling is still a move (its sibling does not take its line).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor
from screen import Terminal
from test_screen_model import screen_problems, sent_problems, settle
from textual.pilot import Pilot

from armybuilder.session import EditSession, Loc, SetKey
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

REGIMENT = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


def _unit_with_selections(editor: EditorScreen) -> tuple[Loc, Loc]:
    """A unit below the roster's top with selections inside it, and its first selection."""
    session = editor.session
    assert session is not None
    ev = session.evaluate()
    unit = next(
        n
        for n in ev.nodes()
        if not n.is_root and n.force is None and n.entry is not None and len(n.loc) >= 4
        if n.children
    )
    return unit.loc, unit.children[0].loc


def _regiment(make_app: Callable[..., ArmyBuilderApp], workdir: Path) -> ArmyBuilderApp:
    """The builder on a copy of the Earther regiment, each edit shown at once."""
    path = workdir / REGIMENT.name
    shutil.copy(REGIMENT, path)
    return make_app(path, sync_budget_ms=1e9)


async def _ready(pilot: Pilot[Any]) -> tuple[Terminal, EditorScreen, EditSession]:
    """The terminal (from the first frame on), the editor and its session, the roster shown
    and the tree focused."""
    terminal = Terminal(pilot.app)
    editor = await wait_editor(pilot)
    await settle(pilot, editor)
    session = editor.session
    assert session is not None
    editor.roster_tree.focus()
    return terminal, editor, session


@run_async
async def test_a_fixed_entry_keeps_its_line(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    app = _regiment(make_app, workdir)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal, editor, session = await _ready(pilot)
        tree = editor.roster_tree
        unit, inside = _unit_with_selections(editor)
        editor.jump_to(inside)  # (the unit expanded, its selections shown)
        await settle(pilot, editor)
        editor.jump_to(unit)
        await settle(pilot, editor)

        async def check(what: str) -> None:
            await settle(pilot, editor)
            problems = await sent_problems(pilot, terminal)
            assert not problems, (what, problems)
            assert not screen_problems(app, editor), (what, screen_problems(app, editor))

        await check("start")
        line = tree.find(unit, reveal=False)
        assert line is not None and line.is_expanded
        shown = len(tree._tree_lines)
        good = session.node(unit)["entry"]
        session.apply("misspell", [SetKey(unit, "entry", good[:-1] + "x")], unit, unit)
        editor.after_edit()
        await check("misspelt")
        reshapes = tree.reshapes

        def kept(what: str) -> None:
            assert tree.find(unit, reveal=False) is line, what
            assert tree.reshapes == reshapes, (what, tree.reshapes, reshapes)
            assert line.is_expanded and len(tree._tree_lines) == shown, what

        kept("misspelt")
        fixes = editor.issues.fixes_about(unit)
        assert fixes and repr(good) in fixes[0].label, [f.label for f in fixes]
        await pilot.press("full_stop")
        await check("quick fix")
        assert session.node(unit)["entry"] == good
        kept("quick fix")
        await pilot.press("ctrl+z")
        await check("undo")
        assert session.node(unit)["entry"] != good
        kept("undo")
        await pilot.press("ctrl+y")
        await check("redo")
        assert session.node(unit)["entry"] == good
        kept("redo")


@run_async
async def test_a_misspelt_selection_moved_takes_its_line_along(
    make_app: Callable[..., ArmyBuilderApp], workdir: Path
) -> None:
    """A misspelt selection moved past a sibling is not taken for a fix in place: the
    sibling's line does not take its place expanded (the lines are moved, as any move)."""
    app = _regiment(make_app, workdir)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal, editor, session = await _ready(pilot)
        tree = editor.roster_tree
        unit, first = _unit_with_selections(editor)
        ev = session.evaluate()
        moved = next(c for c in ev.nodes() if c.loc[:-2] == unit and c.children and c.loc[-1] == 0)
        assert moved.loc == first
        good = session.node(first)["entry"]
        session.apply("misspell", [SetKey(first, "entry", good[:-1] + "x")], first, first)
        editor.after_edit()
        await settle(pilot, editor)
        editor.jump_to(moved.children[0].loc)  # (the misspelt selection expanded)
        await settle(pilot, editor)
        line = tree.find(first, reveal=False)
        assert line is not None and line.is_expanded
        reshapes = tree.reshapes
        to = session.move(first, 1)
        editor.selected = to
        editor.after_edit()
        await settle(pilot, editor)
        problems = await sent_problems(pilot, terminal)
        assert not problems, problems
        assert not screen_problems(app, editor), screen_problems(app, editor)
        assert tree.reshapes > reshapes
        passed = tree.find(first, reveal=False)  # (the sibling now first)
        assert passed is not None and not passed.is_expanded
        assert session.node(to)["entry"] == good[:-1] + "x"
