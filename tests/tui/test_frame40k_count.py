"""A count changed on the 40k Space Marines roster (issue 18's edit): the frame that shows it
draws only the lines of the rows that changed, each by the widget in front there (the tree's
rows, the totals, the details' heading and count, a catalog row: 4 to 7 lines for the first
unit; the bench's Intercessor Squad 18, where every widget met by the rectangle around the
changes drew all its lines, 431), and what the terminal was sent, frame over frame, is what a
drawing of the whole screen shows, the panes what the session computes.

Skipped with a message where ``../shared/bsdata`` is absent (as ``test_repaint_40k.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import Terminal, painted
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, sent_problems, settle

from armybuilder.catalog import Library
from armybuilder.tui.widgets.stable import ChangedRegionsCompositor

#: Lines a count +1, -1 or its undo of the roster's first unit may draw: 4 to 7 measured; 16
#: to 22 with the containers behind the changed rows drawing them too.
MOST_LINES = 12


@run_async
async def test_a_40k_count_draws_only_the_changed_rows(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        unit = next(
            n for n in ev.nodes() if not n.is_root and n.entry is not None and n.force is None
        )
        editor.jump_to(unit.loc)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        assert not await sent_problems(pilot, terminal)
        compositor = editor._compositor
        assert isinstance(compositor, ChangedRegionsCompositor)
        edits = 0
        for key in ["plus", "plus", "minus", "ctrl+z", "ctrl+z", "ctrl+y", "ctrl+z", "ctrl+z"]:
            generation = session.generation
            lines = compositor.lines_drawn
            await pilot.press(key)
            await settle(pilot, editor)
            problems = await sent_problems(pilot, terminal)
            assert not problems, (key, problems)
            problems = screen_problems(app, editor)
            assert not problems, (key, problems)
            drawn = compositor.lines_drawn - lines
            edits += session.generation != generation
            assert 0 < drawn <= MOST_LINES or session.generation == generation, (key, drawn)
        assert edits >= 4, edits  # (the counts changed: the frames above showed edits)
        before = painted(app)
        assert before == await repainted_whole(pilot)
        assert not await sent_problems(pilot, terminal)
