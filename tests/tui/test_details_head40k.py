"""The details pane's head on the 40k Space Marines roster (issue 18, third session): where the
price says the same with its cost type's name and without (40k's "80 pts"), the head is one
text that the pane draws line by line and keeps, by what each line says (styles too) and the
width, so a count +1 draws only the lines that changed and its undo none. After each count
edit, undo, redo and a resize, the head as painted is what the session computes (the unit's
name; its type, ``×count`` and categories; its price and, for several, the price of each),
the terminal (every frame written in place) is a drawing of the whole screen, and every pane
is the session's; the test sees lines kept (an undo drew none) and the head change with the
count. (Where the two forms differ, the head chooses at drawing: test_cost_named.py.)

Skipped with a message where ``../shared/bsdata`` is absent (as ``test_repaint_40k.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from rich.text import Text
from screen import Terminal, node_at, normal, painted, pane_lines
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, sent_problems, settle

from armybuilder.catalog import Library
from armybuilder.session import costs_text
from armybuilder.tui.widgets.stable import LiveStatic

UNIT = "Intercessor Squad"


def expected_head(session: Any, loc: Any) -> str:
    """The head of the unit at ``loc`` as the session computes it, its lines joined."""
    ev = session.evaluation
    node = node_at(ev, loc)
    entry = node.entry
    sub = entry.name if node.data is not None and node.data.name else ""
    kind = f"{sub + ' · ' if sub else ''}{entry.type}"
    if node.count != 1:
        kind += f" ×{node.count}"
    cats = ", ".join(ev.index.name_of(c) for c in entry.categories)
    if cats:
        kind += f" · {cats}"
    costs = ev.total_cost(node)
    price = costs_text(ev.index, costs)
    if node.count != 1:
        each = {k: v / node.count for k, v in costs.items()}
        price += f" ({costs_text(ev.index, each)} each)"
    return normal(" ".join([ev.name(node), kind, price]))


@run_async
async def test_the_40k_head_keeps_its_lines_and_shows_each_count(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    drawn: list[str] = []
    draw = LiveStatic._draw

    def counted(self: LiveStatic, renderable: Any, width: int, style: Any) -> Any:
        if self.id == "d-head":
            drawn.append(str(getattr(renderable, "plain", renderable)))
        return draw(self, renderable, width, style)

    monkeypatch.setattr(LiveStatic, "_draw", counted)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        loc = next(n.loc for n in ev.root.children if n.entry is not None and n.entry.name == UNIT)
        editor.jump_to(loc)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        head = editor.details.query_one("#d-head", LiveStatic)
        assert isinstance(head.content, Text)  # (one text: "80 pts" either way)
        shown: list[str] = []
        draws: list[int] = []
        counts: list[int] = []
        for key in ["plus", "ctrl+z", "ctrl+y", "plus", "ctrl+z", "ctrl+z", "resize"]:
            drawn.clear()
            if key == "resize":
                await pilot.resize_terminal(80, 24)
            else:
                await pilot.press(key)
            await settle(pilot, editor)
            await pilot.pause()
            problems = await sent_problems(pilot, terminal)
            assert not problems, (key, problems)
            rows = painted(app)
            got = normal(" ".join(pane_lines(app, head, rows)))
            want = expected_head(session, loc)
            # (at 80x24 the pane shows the head's first lines only: those must be the start)
            assert got == want or (key == "resize" and got and want.startswith(got)), (
                key,
                got,
                want,
            )
            problems = screen_problems(app, editor)
            assert not problems, (key, problems)
            shown.append(got)
            draws.append(len(drawn))
            counts.append(node_at(session.evaluation, loc).count)
        assert counts == [2, 1, 2, 3, 2, 1, 1], counts
        # The head changed with the count (its price moved): the lines drawn were the new ones.
        assert len(set(shown[:6])) == 3, shown
        # An undo to a count shown before draws none of the head's lines (kept); a count not
        # shown before draws its own (the unit's name line is kept); a new width draws anew.
        assert draws[1] == 0 and draws[2] == 0 and draws[4] == 0 and draws[5] == 0, draws
        assert 0 < draws[0] < 4 and 0 < draws[3] < 4, draws
        assert draws[6] > 0, draws
        assert painted(app) == await repainted_whole(pilot)
