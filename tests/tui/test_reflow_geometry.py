"""What a layout marks for repainting, on a small screen built to show each way it could miss
a cell (issue 18; ``ChangedRegionsCompositor.reflow``, ``paints_the_same``).

A container whose content grew or shrank, and that covers the same cells, is not repainted;
everything else is, as Textual marks it. The screen here has a scrolling pane (a
``SizedByLayout`` container, as the details pane) holding a text whose height changes, a
bordered box with a background of its own below it (moved by the text: its border moves
into rows where only the pane's background was), a fixed-height box drawing keylines around
its child (the child grows beyond it: the box's geometry changes only in its virtual size,
and its keylines follow the child), and a box hidden and shown again. After every change the
terminal (every frame, partial ones written in place) shows what a drawing of the whole
screen shows, and that drawing is what every widget drawn from scratch shows.
"""

from __future__ import annotations

from typing import Any

from conftest import run_async
from screen import Terminal
from test_reflow_dirty import quiet, scratch_problems
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen

from armybuilder.tui.widgets.stable import Box, ChangedRegionsCompositor, LiveStatic, SizedByLayout


class Pane(SizedByLayout, VerticalScroll):
    """A scrolling pane whose size only the layout sets (as the details pane)."""


class Demo(Screen[None]):
    DEFAULT_CSS = """
    #pane { height: 1fr; padding: 0 1; background: $surface; }
    #framed { height: auto; border: round red; background: darkblue; margin: 1 2; }
    #keyed { height: 4; keyline: thin green; background: darkgreen; }
    #keyed > LiveStatic { margin: 1 2; }
    #hidden { height: 2; background: purple; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._compositor = ChangedRegionsCompositor()

    def compose(self) -> ComposeResult:
        with Pane(id="pane"):
            yield LiveStatic("one line", id="text")
            with Box(id="keyed"):
                yield LiveStatic("in the keylines", id="keyed-text")
            yield Box(id="hidden")
            with Box(id="framed"):
                yield LiveStatic("in the frame", id="framed-text")


class DemoApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Demo())


def lines(n: int, word: str = "line") -> str:
    return "\n".join(f"{word} {i}" for i in range(n))


@run_async
async def test_a_layout_repaints_every_cell_it_changed() -> None:
    app = DemoApp()
    async with app.run_test(size=(60, 30)) as pilot:
        terminal = Terminal(app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Demo)
        compositor = screen._compositor
        assert isinstance(compositor, ChangedRegionsCompositor)
        text = screen.query_one("#text", LiveStatic)
        keyed = screen.query_one("#keyed-text", LiveStatic)
        hidden = screen.query_one("#hidden", Box)
        pane = screen.query_one("#pane", Pane)
        problems: list[str] = []

        async def check(what: str) -> None:
            await quiet(pilot)
            problems.extend(f"{what}: {p}" for p in terminal.problems())
            problems.extend(f"{what}: {p}" for p in await scratch_problems(pilot, terminal))

        async def change(what: str, act: Any) -> None:
            act()
            await check(what)

        await check("first frame")
        kept = compositor.regions_kept_clean
        # The framed box moves down, then up, into rows of the pane's background only.
        await change("text grows", lambda: text.set_content(lines(3)))
        await change("text shrinks", lambda: text.set_content("one line"))
        # The child of the keylines grows beyond its fixed box, then shrinks: the box's
        # geometry changes in its virtual size only, and its keylines follow the child.
        # (Keylines around a child that moves within the box, whose geometry then does not
        # change at all, are left as they were: Textual's own marking, not this one's.)
        await change("keyed grows", lambda: keyed.set_content(lines(5, "keyed")))
        await change("keyed shrinks", lambda: keyed.set_content("in the keylines"))
        # A box hidden and shown again.
        await change("hidden", lambda: setattr(hidden, "display", False))
        await change("shown", lambda: setattr(hidden, "display", True))
        # The content outgrows the pane (its scrollbar's thumb appears), then grows and
        # shrinks while scrolled to its end (the offset is brought back within it).
        await change("beyond the pane", lambda: text.set_content(lines(40)))
        await change("scrolled to the end", lambda: pane.scroll_end(animate=False))
        await change("longer", lambda: text.set_content(lines(45)))
        await change("shorter, scrolled", lambda: text.set_content(lines(30)))
        # (the pane's content grew and shrank beyond it: the pane itself was not repainted)
        assert compositor.regions_kept_clean > kept, "the pane was repainted whole"
        await change("fits again", lambda: text.set_content(lines(2)))
        await change("back to the top", lambda: pane.scroll_home(animate=False))
    assert not problems, problems[:10]
