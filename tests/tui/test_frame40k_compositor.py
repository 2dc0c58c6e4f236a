"""The editor's compositor (``ChangedRegionsCompositor``) asks each widget only for the rows
where it shows a changed cell, front to back, and what the terminal is sent is still, cell for
cell and style for style, what a drawing of the whole screen shows.

A screen of overlapping widgets (columns of line widgets with borders and padding, a scrolled
list, two floating boxes on a layer above them, one of them over the edge of another) is
repainted in random places, rows of one widget or of several before one frame, whole widgets,
the list scrolled, a box moved; after every frame the cells written to a simulated terminal
(``screen.Terminal``: each partial frame written over the last in place) are compared with a
full drawing. The counts check that the cut is made: a changed row of an uncovered widget
draws that one line, a row changed under a floating box draws the box's line and nothing of
the widget under it, and no container is asked for lines its children cover.
"""

from __future__ import annotations

import random
from typing import Any

from conftest import run_async
from rich.segment import Segment
from rich.style import Style
from screen import Terminal
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from armybuilder.tui.widgets.stable import ChangedRegionsCompositor

COLOURS = ["red", "green", "blue", "yellow", "magenta", "cyan"]


class Rows(Widget):
    """A widget whose every row says its widget, row and version (and changes colour with
    the version): :meth:`bump` changes some rows and repaints only them."""

    DEFAULT_CSS = "Rows { height: auto; }"

    def __init__(self, lines: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.versions = [0] * lines
        self.asked: list[tuple[int, int]] = []  # (first row, rows) of each render_lines

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.versions)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y >= len(self.versions):
            return Strip.blank(width)
        text = f"{self.id}:{y}:{self.versions[y]}"[:width].ljust(width)
        style = Style(color=COLOURS[self.versions[y] % len(COLOURS)], bold=y % 2 == 0)
        return Strip([Segment(text, style)], width)

    def render_lines(self, crop: Region) -> list[Strip]:
        self.asked.append((crop.y, crop.height))
        return super().render_lines(crop)

    def bump(self, rows: list[int]) -> None:
        for y in rows:
            self.versions[y] += 1
            self.refresh(Region(0, y, self.size.width, 1))


class Frames(Screen[None]):
    CSS = """
    Frames { layers: base top; }
    #columns { height: 1fr; }
    #columns > Vertical { width: 1fr; }
    #left Rows { border: round white; padding: 0 1; }
    #list { height: 12; }
    .box { layer: top; width: 30; height: auto; border: heavy yellow; background: $panel; }
    #box1 { offset: 20 4; }
    #box2 { offset: 40 9; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._compositor = ChangedRegionsCompositor()

    def compose(self) -> ComposeResult:
        with Horizontal(id="columns"):
            with Vertical(id="left"):
                yield Rows(5, id="a")
                yield Rows(7, id="b")
            with Vertical(id="middle"):
                yield Rows(6, id="c")
                with VerticalScroll(id="list"):
                    yield Rows(40, id="long")
            with Vertical(id="right"):
                yield Rows(9, id="d")
                yield Rows(4, id="e")
        yield Rows(6, id="box1", classes="box")
        yield Rows(5, id="box2", classes="box")


class FramesApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Frames())


def compositor(app: App[Any]) -> ChangedRegionsCompositor:
    found = app.screen._compositor
    assert isinstance(found, ChangedRegionsCompositor)
    return found


@run_async
async def test_random_repaints_send_what_a_full_drawing_shows() -> None:
    rng = random.Random("frame40k")
    app = FramesApp()
    async with app.run_test(size=(100, 30)) as pilot:
        terminal = Terminal(app)
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        rows = list(screen.query(Rows))
        scroll = screen.query_one("#list", VerticalScroll)
        steps: list[str] = []
        partial = 0
        for _ in range(120):
            drawn = compositor(app).widgets_drawn
            what = rng.random()
            if what < 0.7:  # rows of one widget or of several, repainted in one frame
                for widget in rng.sample(rows, rng.choice([1, 1, 2, 3])):
                    lines = len(widget.versions)
                    picked = sorted(rng.sample(range(lines), rng.randint(1, min(4, lines))))
                    widget.bump(picked)
                    steps.append(f"{widget.id} {picked}")
            elif what < 0.8:  # a whole widget
                widget = rng.choice(rows)
                widget.versions = [v + 1 for v in widget.versions]
                widget.refresh()
                steps.append(f"{widget.id} whole")
            elif what < 0.9:
                scroll.scroll_to(y=rng.randrange(30), animate=False)
                steps.append("scroll")
            else:  # a floating box moved (a layout)
                box = screen.query_one(rng.choice(["#box1", "#box2"]), Rows)
                box.styles.offset = (rng.randrange(60), rng.randrange(20))
                steps.append(f"{box.id} moved")
            await pilot.pause()
            partial += compositor(app).widgets_drawn > drawn
            problems = terminal.problems()
            assert not problems, (steps[-3:], problems)
        assert partial > 60, partial  # (most frames were partial: the shortcut was taken)


@run_async
async def test_a_changed_row_draws_one_line_of_the_widget_in_front() -> None:
    app = FramesApp()
    async with app.run_test(size=(100, 30)) as pilot:
        terminal = Terminal(app)
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        every = list(screen.query(Widget))
        asked: dict[Widget, int] = {}

        def counting(widget: Widget) -> Any:
            original = widget.render_lines

            def render_lines(crop: Region) -> list[Strip]:
                asked[widget] = asked.get(widget, 0) + crop.height
                return original(crop)

            return render_lines

        for widget in every:
            widget.render_lines = counting(widget)  # type: ignore[method-assign]
        e = screen.query_one("#e", Rows)  # under no box: its one row, nothing else
        e.bump([2])
        await pilot.pause()
        assert asked == {e: 1}, {w.id or type(w).__name__: n for w, n in asked.items()}
        asked.clear()
        # Row 4 of #c, whose left part lies under box 1: the box draws its row there, #c its
        # own row (for its cells right of the box), no container anything.
        c, box = screen.query_one("#c", Rows), screen.query_one("#box1", Rows)
        row = c.region.y + 4
        assert box.region.y <= row < box.region.bottom
        assert c.region.x < box.region.right < c.region.right
        c.bump([4])
        await pilot.pause()
        assert asked == {c: 1, box: 1}, {w.id or type(w).__name__: n for w, n in asked.items()}
        # A row of #d entirely under box 1 (moved over it): the box's line only.
        d = screen.query_one("#d", Rows)
        box.styles.width = d.region.width + 2
        box.styles.offset = (d.region.x - 1, d.region.y)
        await pilot.pause()
        assert box.region.contains_region(Region(d.region.x, d.region.y + 3, d.region.width, 1))
        asked.clear()
        d.bump([3])
        await pilot.pause()
        assert asked == {box: 1}, {w.id or type(w).__name__: n for w, n in asked.items()}
        assert not terminal.problems()
