"""A count changed on the 40k Space Marines roster (issue 18, second round of the panes): the
catalog keeps its rows and relabels only those in view with the new figures, and the details
pane fills its slots in place, so a count that changes what an option costs must still repaint
that option's price. On a Captain and an Intercessor Squad (whose options' what-if prices rise
with the unit's count), +1, -1 and their undo and redo: after each, the catalog's rows and
headings as painted are the session's (prices included), the details pane's group headings and
drop-downs are the session's, and the painted catalog did change with the count (the test sees
a price move, so it cannot pass with every row left as it was).

Skipped with a message where ``../shared/bsdata`` is absent (as ``test_repaint_40k.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from screen import painted, pane_lines
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, settle
from textual.widgets import Select

from armybuilder.catalog import Library
from armybuilder.session.text import costs_text
from armybuilder.tui.widgets.details import group_label, one_of_groups, option_label


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
