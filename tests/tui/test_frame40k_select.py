"""A drop-down's choice changed (``SteadySelect``, the details pane's drop-downs): the label is
repainted in place, and the screen laid out again only when the label's height changes (a
label too long for the width wraps onto a second row, and the drop-down grows; back to a short
one, it shrinks). After every choice the terminal (each frame written over the last) shows what
a full drawing shows, the label's rows show the choice, and the drop-down is as tall as its
label. Textual's own label laid the whole screen out at every choice (about 10 ms on the 40k
editor)."""

from __future__ import annotations

from typing import Any

from conftest import run_async
from screen import Terminal, normal, painted
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from armybuilder.tui.widgets.stable import ChangedRegionsCompositor, SteadyLabel, SteadySelect

SHORT = [("Bolt rifle +5", "a"), ("Plasma gun +10", "b"), ("Heavy bolter +15", "c")]
LONG = ("Auto bolt rifle with a very long name indeed +25", "d")


class Form(Screen[None]):
    CSS = """
    #column { width: 30; height: auto; }
    SteadySelect > SelectCurrent { border: none; height: auto; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._compositor = ChangedRegionsCompositor()

    def compose(self) -> ComposeResult:
        with Vertical(id="column"):
            yield Static("above", id="above")
            yield SteadySelect[str]([*SHORT, LONG], id="pick", allow_blank=True, prompt="(none)")
            yield Static("below", id="below")


class FormApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Form())


@run_async
async def test_a_choice_lays_out_only_when_the_labels_height_changes() -> None:
    app = FormApp()
    async with app.run_test(size=(60, 20)) as pilot:
        terminal = Terminal(app)
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        select = screen.query_one("#pick", SteadySelect)
        label = select.query_one("#label", SteadyLabel)
        layouts = 0
        relayout = screen._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            nonlocal layouts
            layouts += 1
            relayout(*args, **kwargs)

        screen._refresh_layout = counted  # type: ignore[method-assign]
        labels = dict((v, text) for text, v in [*SHORT, LONG])
        for value, lays_out in [
            ("a", False),
            ("b", False),
            ("d", True),  # wraps: two rows
            ("c", True),  # one row again
            ("b", False),
            ("d", True),
            ("d", False),
            ("a", True),
        ]:
            layouts = 0
            select.value = value
            await pilot.pause()
            await pilot.pause()
            assert bool(layouts) == lays_out, (value, layouts)
            assert not terminal.problems(), value
            rows = painted(app)
            region = label.region
            shown = normal(" ".join(rows[y][region.x : region.right] for y in region.line_range))
            assert shown == normal(labels[value]), (value, shown)
            assert region.height == (2 if value == "d" else 1), (value, region)
            assert select.region.height == region.height, (value, select.region)
            below = screen.query_one("#below", Static).region
            assert below.y == select.region.bottom, (value, below, select.region)
