"""A key handled with no key waiting behind it does not wait for the widgets to finish what it
started (the 40k count +1 walked every widget of the editor twice for that, between its edit
and its frame); the next key does, if they are still busy when it comes.

The mechanism alone, on a small app: ``x`` starts a relay of messages between two panes (a
widget's own messages, not Textual's housekeeping) that ends by moving the focus to a field.
A key that comes while the relay runs must be typed into the field, as it was when the app
waited for the widgets after every key; a key that comes when everything is done is handed on
without waiting, and the widgets are looked at once for it.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from conftest import run_async, wait_for
from screen import painted, pane_lines
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input, Static

from armybuilder.tui.keys import InOrderKeysApp

#: Messages the relay passes before it moves the focus (more turns of the event loop than a
#: key's marker takes to come back).
HOPS = 40


class Pass(Message):
    """One step of the relay."""

    def __init__(self, left: int) -> None:
        super().__init__()
        self.left = left


class Relay(Static, can_focus=True):
    def on_pass(self, message: Pass) -> None:
        message.stop()
        app = self.app
        assert isinstance(app, Relayed)
        if message.left <= 0:
            app.query_one("#field", Input).focus()
            return
        other = app.query_one("#pong" if self.id == "ping" else "#ping", Relay)
        other.post_message(Pass(message.left - 1))


class Relayed(InOrderKeysApp[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "relay", "Relay")]

    def compose(self) -> ComposeResult:
        yield Relay("ping", id="ping")
        yield Relay("pong", id="pong")
        yield Input(id="field")

    def action_relay(self) -> None:
        self.query_one("#ping", Relay).post_message(Pass(HOPS))


def send(app: InOrderKeysApp[Any], key: str) -> None:
    """Post a key as the terminal driver does."""
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    app.post_message(event)


async def marker_back(app: InOrderKeysApp[Any], keys: int) -> None:
    """Until ``keys`` keys have been handed on and the last one's marker is back (turn by
    turn: the relay may still be running)."""
    for _ in range(200):
        if app._key_token >= keys and app._key_in_flight is None and not app.keys_held:
            return
        await asyncio.sleep(0)
    raise AssertionError("the key's marker did not come back")


@run_async
async def test_a_key_during_what_the_last_one_started_waits_for_it() -> None:
    app = Relayed()
    async with app.run_test(size=(40, 6)) as pilot:
        app.query_one("#ping", Relay).focus()
        await pilot.pause()
        field = app.query_one("#field", Input)
        send(app, "x")
        await marker_back(app, 1)
        assert app.focused is not field, "the relay ended before the next key: no test"
        send(app, "a")  # while the relay still runs: typed once it has moved the focus
        await wait_for(pilot, lambda: not app.keys_pending and app.focused is field)
        await pilot.pause()
        assert field.value == "a"
        assert "a" in " ".join(pane_lines(app, field, painted(app)))


@run_async
async def test_a_key_with_nothing_behind_it_does_not_wait() -> None:
    app = Relayed()
    async with app.run_test(size=(40, 6)) as pilot:
        field = app.query_one("#field", Input)
        field.focus()
        await pilot.pause()
        walks = app.settle_walks
        send(app, "a")
        await marker_back(app, 1)
        assert app.settle_walks == walks, "the widgets were waited for after a lone key"
        await pilot.pause()
        send(app, "b")  # everything is done: one look at the widgets, then typed at once
        await marker_back(app, 2)
        assert app.settle_walks == walks + 1
        await pilot.pause()
        assert field.value == "ab"
        assert "ab" in " ".join(pane_lines(app, field, painted(app)))
