"""A :class:`SteadyButton` restyled from a state kept has the styles the stylesheet gives it
(issue 18: the count's − and + keep their styles per state instead of Textual matching the
whole stylesheet against them at each count that reaches or leaves a bound).

A small screen whose rules read the button's own state (disabled, focus, a class) and its
ancestors' (a class, an id, disabled): after each of many random steps (a button disabled or
enabled, a class set on it or on a container, its row disabled, the focus moved, the theme
changed), the styles the button has are those a full match of the stylesheet gives it
(Textual's own ``Stylesheet.apply``), and the terminal (each frame written over the last)
shows the whole screen as drawn now, colours included: a restyle kept is repainted."""

from __future__ import annotations

import random
from typing import Any

from conftest import run_async
from screen import Terminal
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input

from armybuilder.tui.widgets.stable import SteadyButton

CSS = """
#outer.warm Button { background: red; }
#outer.warm Button:disabled { background: darkred; color: grey; }
Horizontal.wide Button { width: 12; }
Horizontal:disabled .step { text-style: underline; }
Button.hot:disabled { color: yellow; }
#row > .step { border: none; }
.step:focus { background: blue; }
"""


class Buttons(App[None]):
    CSS = CSS

    def compose(self) -> ComposeResult:
        with Vertical(id="outer"), Horizontal(id="row"):
            yield SteadyButton("−", id="minus", classes="step")
            yield Input(id="field")  # (its cursor does not blink: see below)
            yield SteadyButton("+", id="plus", classes="step")


def _rules(button: Button) -> dict[str, Any]:
    return dict(button.styles.base._rules)


def _fresh(app: App[Any], button: Button) -> dict[str, Any]:
    """The button's styles after Textual's full match of the stylesheet."""
    app.stylesheet.apply(button, animate=False)
    return _rules(button)


@run_async
async def test_steady_buttons_take_the_styles_of_their_state() -> None:
    app = Buttons()
    rng = random.Random(18)
    async with app.run_test(size=(60, 12)) as pilot:
        minus, plus = app.query_one("#minus", SteadyButton), app.query_one("#plus", SteadyButton)
        outer, row = app.query_one("#outer"), app.query_one("#row")
        field = app.query_one("#field", Input)
        field.cursor_blink = False  # (a blink between two frames is no stale cell)
        terminal = Terminal(app)
        await pilot.pause()
        app.refresh()  # (a full frame, for the terminal to start from)
        await pilot.pause()
        problems: list[str] = []
        for step in range(160):
            what = rng.choice(("disable",) * 8 + ("class", "outer", "wide", "row", "focus"))
            if step % 50 == 49:
                what = "theme"
            button = rng.choice((minus, plus))
            if what == "disable":
                button.disabled = rng.random() < 0.5
            elif what == "class":
                button.toggle_class("hot")
            elif what == "outer":
                outer.toggle_class("warm")
            elif what == "wide":
                row.toggle_class("wide")
            elif what == "row":
                row.disabled = rng.random() < 0.3
            elif what == "focus":
                if rng.random() < 0.5:
                    field.focus()
                else:
                    app.set_focus(None)
            else:
                app.theme = rng.choice(("textual-dark", "textual-light"))
            await pilot.pause()
            for b in (minus, plus):
                kept = _rules(b)
                fresh = _fresh(app, b)
                if kept != fresh:
                    diff = {k: (kept.get(k), fresh.get(k)) for k in kept.keys() | fresh.keys()
                            if kept.get(k) != fresh.get(k)}  # fmt: skip
                    problems.append(f"step {step} ({what}): {b.id} has {diff} (kept, Textual's)")
            # (drawn now with Textual's styles, and the caches they clear: what was sent
            # must be that)
            problems += [f"step {step} ({what}): {p}" for p in terminal.problems()]
        assert problems == []
        # The states were kept and served again (the test went through the shortcut).
        assert minus.restyles_kept + plus.restyles_kept > 15
