"""A count changed on the 40k Space Marines roster (issue 18, second round of the panes): the
catalog keeps its rows and relabels only those in view with the new figures, and the details
pane fills its slots in place, so a count that changes what an option costs must still repaint
that option's price. On a Captain and an Intercessor Squad (whose options' what-if prices rise
with the unit's count), +1, -1 and their undo and redo: after each, the catalog's rows and
headings as painted are the session's (prices included), the details pane's group headings and
drop-downs are the session's, and the painted catalog did change with the count (the test sees
a price move, so it cannot pass with every row left as it was).

The details pane's head (third session): where the price says the same with its cost type's
name and without (40k's "80 pts"), the head is one text that the pane draws line by line and
keeps, by what each line says (styles too) and the width, so a count +1 draws only the lines
that changed and its undo none. After each count edit, undo, redo and a resize, the head as
painted is what the session computes (the unit's name; its type, ``×count`` and categories;
its price and, for several, the price of each), the terminal (every frame written in place) is
a drawing of the whole screen, and every pane (the roster tree's lines too) is the session's;
the test sees lines kept (an undo drew none) and the head change with the count. (Where the
two forms differ, the head chooses at drawing: test_cost_named.py.)

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
from textual.widgets import Select

from armybuilder.catalog import Library
from armybuilder.session.text import costs_text
from armybuilder.tui.widgets.details import group_label, one_of_groups, option_label
from armybuilder.tui.widgets.stable import LiveStatic


def details_headings(editor: Any) -> list[str]:
    """The group headings the details pane shows now (its slots' labels, as set)."""
    pane = editor.details
    return [str(s.label_text) for s in pane._slots if s.label.display]


def session_headings(session: Any, loc: Any) -> list[str]:
    """The headings the session computes for the unit at ``loc`` (its groups that offer
    something or hold a choice, in the catalog's order)."""
    ev = session.evaluate()
    node = next(n for n in ev.nodes() if n.loc == loc)
    limits = session.group_limits(loc, ev)
    offered = {c.group.id for c in session.options(loc, ev) if c.group is not None}
    held = {c.group.id for c in node.children if c.group is not None}
    return [
        str(group_label(g, limits.get(g.id)))
        for g in one_of_groups(node.entry)
        if g.id in offered or g.id in held
    ]


def chosen_labels(editor: Any) -> list[str]:
    """The label each drop-down of the details pane shows for its choice, as it holds it."""
    out = []
    for slot in editor.details._slots:
        select = slot.select
        if select.display and select.value is not Select.NULL:
            out.append(next(label for label, value in select.held if value == select.value))
    return out


def session_chosen(session: Any, loc: Any) -> list[str]:
    """What the session says each drop-down's choice is and costs (the name with the rise of
    the roster's total, as :func:`option_label` writes it), in the order of the groups."""
    ev = session.evaluate()
    node = next(n for n in ev.nodes() if n.loc == loc)
    offered = {c.group.id for c in session.options(loc, ev) if c.group is not None}
    out = []
    for g in one_of_groups(node.entry):
        chosen = [c for c in node.children if c.group is not None and c.group.id == g.id]
        if g.id not in offered or g.max != 1 or len(chosen) != 1:
            continue
        child = next(c for c in session.options(loc, ev) if c.entry.id == chosen[0].entry_id)
        oid = str(session.option_id(loc, child))
        infos = session.option_infos(loc, ev, ids={oid})
        cost = costs_text(ev.index, infos[0].costs) if infos else ""
        out.append(option_label(child.entry.name, cost))
    return out


@pytest.mark.parametrize("unit", ["Captain", "Intercessor Squad"])
@run_async
async def test_a_40k_count_repaints_the_prices_it_changes(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
    unit: str,
) -> None:
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        loc = next(
            n.loc
            for n in ev.root.children
            if n.entry is not None and n.entry.name == unit and n.force is None
        )
        editor.jump_to(loc)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        tree = editor.catalog.catalog_tree
        seen: set[tuple[str, ...]] = set()
        for key in ["plus", "plus", "minus", "ctrl+z", "ctrl+z", "ctrl+y", "ctrl+z", "ctrl+z"]:
            await pilot.press(key)
            await settle(pilot, editor)
            await pilot.pause()
            assert editor.selected == loc, key
            problems = screen_problems(app, editor)
            assert not problems, (key, problems)
            assert details_headings(editor) == session_headings(session, loc), key
            assert chosen_labels(editor) == session_chosen(session, loc), key
            rows = painted(app)
            assert rows == await repainted_whole(pilot), key
            seen.add(tuple(pane_lines(app, tree, rows)))
        # The counts 1, 2 and 3 were shown: the catalog's prices moved with them.
        assert len(seen) >= 2, seen


HEAD_UNIT = "Intercessor Squad"


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
        loc = next(
            n.loc for n in ev.root.children if n.entry is not None and n.entry.name == HEAD_UNIT
        )
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
