"""A tree line repainted (a label changed, the cursor moved) is repainted beside the tree's
scrollbar, not across it: the frame draws the line and does not ask the scrollbar for that
row (a 40k count +1 asked the catalog's scrollbar for three rows that had not changed). The
scrollbar still repaints when it changes: nodes added or removed (its thumb grows or shrinks)
or the view scrolled, alone or in the same frame as changed labels.

A small tree with the builder's mixins (``StableScroll``, ``ContentLines``) on a screen with
the editor's compositor; after every frame the cells written to a simulated terminal
(``screen.Terminal``) are compared with a drawing of the whole screen.
"""

from __future__ import annotations

import random
from typing import Any

from conftest import run_async
from screen import Terminal
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from armybuilder.tui.widgets.stable import ChangedRegionsCompositor, ContentLines, StableScroll


class LinesTree(StableScroll, ContentLines, Tree[int]):
    DEFAULT_CSS = "LinesTree { height: 12; width: 40; }"


class Lines(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self._compositor = ChangedRegionsCompositor()

    def compose(self) -> ComposeResult:
        tree = LinesTree("units")
        tree.show_root = False
        for i in range(30):
            tree.root.add_leaf(f"unit {i}", data=i)
        yield tree


class LinesApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Lines())


async def drawn_afresh(pilot: Pilot[Any]) -> list[list[tuple[str, Any]]] | None:
    """The screen's cells (character and style) once every widget has dropped its drawn
    lines and repainted all of itself: a widget that did not repaint a change of its own
    (the scrollbar's thumb) differs here, where ``Terminal.problems`` (drawn from the
    widgets' caches of lines) cannot see it."""
    app = pilot.app
    for widget in app.screen.walk_children():
        widget.notify_style_update()
        widget.refresh()
    await pilot.pause()
    fresh = Terminal.__new__(Terminal)
    fresh.app, fresh.cells, fresh.frames = app, None, 0
    fresh.write(app.screen._compositor.render_full_update())
    return fresh.cells


def compositor(app: App[Any]) -> ChangedRegionsCompositor:
    found = app.screen._compositor
    assert isinstance(found, ChangedRegionsCompositor)
    return found


@run_async
async def test_a_changed_line_is_drawn_beside_the_scrollbar() -> None:
    app = LinesApp()
    async with app.run_test(size=(60, 16)) as pilot:
        terminal = Terminal(app)
        await pilot.pause()
        await pilot.pause()
        tree = app.screen.query_one(LinesTree)
        assert tree.vertical_scrollbar.display and tree.show_vertical_scrollbar
        assert not terminal.problems()
        node = tree.root.children[3]
        lines = compositor(app).lines_drawn
        node.set_label("unit 3 changed")
        await pilot.pause()
        assert compositor(app).lines_drawn - lines == 1, "the scrollbar drew its row too"
        assert not terminal.problems()
        rows = terminal.rows()
        assert any("unit 3 changed" in row for row in rows), rows


@run_async
async def test_lines_and_the_scrollbar_repaint_as_they_change() -> None:
    rng = random.Random("tree lines")
    app = LinesApp()
    async with app.run_test(size=(60, 16)) as pilot:
        terminal = Terminal(app)
        await pilot.pause()
        await pilot.pause()
        tree = app.screen.query_one(LinesTree)
        tree.focus()
        serial = 30
        steps: list[str] = []
        for _ in range(40):
            kids: list[TreeNode[int]] = list(tree.root.children)
            what = rng.random()
            if what < 0.35:  # labels of visible lines (and maybe others) changed
                for node in rng.sample(kids, min(len(kids), rng.randint(1, 3))):
                    # (as wide as the tree, or wider: every column of the line changes)
                    node.set_label(f"unit {node.data} " + rng.choice("abcdef") * 40)
                steps.append("labels")
            elif what < 0.7:  # lines added (the thumb shrinks) or removed (it grows, or goes)
                # As the roster tree syncs: no repaint of the whole tree, the lines from the
                # first change down repainted one by one; the scrollbar repaints itself.
                syncing = rng.random() < 0.7
                tree._syncing = syncing  # type: ignore[attr-defined]
                first = len(kids)
                if what < 0.55 or len(kids) <= 3:
                    for _ in range(rng.randint(1, 6)):
                        tree.root.add_leaf(f"unit {serial}", data=serial)
                        serial += 1
                    steps.append("added")
                else:
                    gone = rng.sample(range(len(kids)), rng.randint(1, min(8, len(kids) - 1)))
                    first = min(gone)
                    for i in gone:
                        kids[i].remove()
                    steps.append("removed")
                tree._syncing = False  # type: ignore[attr-defined]
                if syncing:
                    top = tree.scroll_offset.y
                    for line in range(max(first, top), top + tree.size.height):
                        tree._refresh_line(line)
            elif what < 0.85:
                tree.scroll_to(y=rng.randrange(max(1, len(kids))), animate=False)
                steps.append("scrolled")
            else:
                tree.cursor_line = rng.randrange(len(kids))
                steps.append("cursor")
            await pilot.pause()
            await pilot.pause()
            problems = terminal.problems()
            assert not problems, (steps[-3:], problems)
            assert terminal.cells == await drawn_afresh(pilot), steps[-3:]
        assert {"labels", "added", "removed", "scrolled", "cursor"} <= set(steps)
