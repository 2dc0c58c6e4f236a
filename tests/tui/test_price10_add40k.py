"""A unit added to the 40k force, as the builder's ``a`` adds it (issue 18, fifth session):
the catalog, still showing the force's options, is priced for the new evaluation with no copy
of the roster's tree (``Evaluation.rise_with``: 86 copies a step before, one per option some
modifier counts or whose own cost counts its models), and what it paints is what a fresh
computation gives. On the 2,000-point Space Marines roster (skipped with a message where
``../shared/bsdata`` is absent): an Intercessor Squad added, undone, added again, and a
Captain, each step's painted rows compared with the options' figures worked out afresh (one
what-if of the whole roster per option: ``row_problems`` of ``test_catalog40k_count.py``),
the panes with the session (``screen_problems``) and the terminal with the screen
(``sent_problems``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from screen import Terminal
from test_catalog40k_count import option_id, put_cursor, row_problems
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import screen_problems, sent_problems, settle

from armybuilder.catalog import Library

ROOT = Path(__file__).resolve().parents[2]


@run_async
async def test_a_unit_added_to_the_40k_force_is_priced_afresh_with_no_copy(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_prices import counted_rises  # (how many copies of the tree meanwhile)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        browser = editor.catalog
        editor.jump_to(())
        editor.roster_tree.focus()
        await settle(pilot, editor)
        await wait_for(pilot, lambda: browser.unpriced == 0)
        units = len(s.children_locs(()))
        copies = []
        for name, key, more in [
            ("Intercessor Squad", "a", 1),
            (None, "ctrl+z", 0),
            ("Intercessor Squad", "a", 1),
            ("Captain", "a", 2),
        ]:
            if name is not None:
                await put_cursor(pilot, editor, option_id(s, (), name))
            with counted_rises() as calls:
                await pilot.press(key)
                await settle(pilot, editor)
                # (every option priced: those in view, then the rest while idle)
                await wait_for(pilot, lambda: browser.unpriced == 0)
            copies.append(calls[0])
            assert len(s.children_locs(())) == units + more, key
            assert browser.target == (), browser.target
            assert not row_problems(app, editor), (name, key, row_problems(app, editor))
            assert not screen_problems(app, editor), (name, key)
            assert not await sent_problems(pilot, terminal), (name, key)
        assert copies == [0, 0, 0, 0], copies
