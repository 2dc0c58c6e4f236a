"""Keys typed ahead go where the focus went: one key at a time, in order.

Textual hands each key to the widget focused at the moment the app *reads* the key; the
bindings of that widget and of its screen run only once the key has bubbled back up to the
app, and ``Widget.focus()`` moves the focus a step later still. Keys that arrive in one burst
(a paste without bracketed paste, tmux ``send-keys``, a busy machine) are all read before
the first one's binding has run, so ``/gr`` typed at once sent the ``g`` to the roster tree
(the summary) instead of to the search box that ``/`` was opening.

:class:`InOrderKeysApp` serialises keys (and pastes). The app hands one key to the focused
widget (or lets a priority binding consume it) and sends a :class:`KeyMarker` right behind
it, along the same route: to the same widget (each message queue keeps its order along the
bubble chain, so the marker reaches the app only after the key has bubbled back and run its
bindings, or was stopped) or, for a key a priority binding took, to the app itself (so the
marker comes after the focus changes the binding queued). Keys that arrive meanwhile wait in
a queue. When the marker is back, the app lets the widgets of the screen on top finish what
the key started (a dialog being built and focusing its field, a message from a tree to its
screen) and then posts the next waiting key to its own queue, behind any focus change queued
meanwhile. When no key waits, that is left to the next key: it is handed on at once if the
widgets are done by then (as they are when a person types), else it waits for them. (Waiting
for them after every key walked every widget of the screen twice, between the edit a key
made and its frame.) They are looked at once a little after the key, when what it started
is usually done, so that the next key usually need not look (a click counts as a key here).
A key whose marker never comes back (its widget was removed) holds the others up for at most
:attr:`InOrderKeysApp.KEY_FALLBACK_SECONDS`.

A key that no widget between the focus and the app does anything with (no handler of keys
but Textual's default, no ``key_`` method for it, not busy with a message nor with one
waiting that the key would have to come after) is not sent on that trip: its bindings are
looked up and run at the app at once, as they would have been when it came back, with the
bindings of the focused widget and its ancestors worked out once for both lookups (priority
bindings first, then the others) instead of twice (:meth:`InOrderKeysApp._check_bindings`).
Such a key, with no key waiting behind it, needs no marker either: it is done with once its
bindings have run. (The 40k count +1 in the roster tree went to the tree, up through three
boxes and the screen and back to the app, its marker after it: twelve messages more, and
eight idle rounds of the widgets on the way, around its edit.)

Mouse events are not held: a click acts at once, as it always did.

:meth:`InOrderKeysApp.hold_input` holds every key while a slow job must not be disturbed (a
large roster written in a worker thread): the screen keeps painting, the keys typed meanwhile
wait in order and go on once :meth:`InOrderKeysApp.release_input` is called (as keys typed
while the app was busy always did), and a click (a mouse button pressed) is refused with
:meth:`InOrderKeysApp.click_refused` (a click cannot wait: what is under the pointer may
have moved by then). Scrolling with the wheel still acts.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from time import monotonic
from typing import Any

from textual import events, messages
from textual.app import App, ReturnType
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget

#: How many turns of the event loop the app gives the widgets to finish what a key started,
#: at most (a widget waiting on a worker must not hold the keys up)...
SETTLE_TURNS = 50
#: ... and how long (seconds).
SETTLE_SECONDS = 0.3
#: Textual's housekeeping messages: painting, layout, scrolling, idle prompts. None of them
#: moves the focus, and waiting for them would repaint the screen after each key of a burst.
_HOUSEKEEPING = (
    messages.Update,
    messages.Layout,
    messages.UpdateScroll,
    messages.ScrollToRegion,
    messages.Prompt,
    events.Idle,
    events.Resize,
    events.Show,
    events.Hide,
)


class KeyMarker(Message, bubble=True, verbose=True, namespace="armybuilder"):
    """Follows a key handed to a widget; back at the app, the key is done with."""

    def __init__(self, token: int) -> None:
        super().__init__()
        self.token = token


#: Keys that move a cursor: a run of one of them (a key held down) goes on to the same widget
#: without waiting for what each step started (the details of each unit passed over).
_STEPS = frozenset({"up", "down", "left", "right", "pageup", "pagedown", "home", "end"})


@dataclass
class _InFlight:
    token: int
    key: str
    target: MessagePump | None
    since: float


class InOrderKeysApp(App[ReturnType]):
    """An app that hands keys (and pastes) to the focused widget one at a time: each key goes
    where the focus is once the keys before it have been handled."""

    #: A key whose marker has not come back after this long lets the next key go (seconds).
    KEY_FALLBACK_SECONDS = 1.0
    #: ... or after this long, when the widget the key went to is gone from the screen.
    KEY_GONE_SECONDS = 0.05
    #: While keys wait, the screen is painted at most this often (seconds): a burst of keys
    #: is painted once, as Textual paints keys it reads at once, not once per key.
    KEY_PAINT_SECONDS = 0.5
    #: A key done with and none behind it: the widgets are looked at this much later
    #: (seconds), once what it started is usually done (see :meth:`_unsettle`).
    KEY_LOOK_SECONDS = 0.1

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keys_waiting: deque[events.Key | events.Paste] = deque()
        self._key_in_flight: _InFlight | None = None
        #: Keys let go and posted to the app's own queue, not handed on yet.
        self._keys_released: deque[events.Key | events.Paste] = deque()
        self._key_token = 0
        self._key_watchdog: Timer | None = None
        #: When the repaints held back for waiting keys began (None: not held back).
        self._key_batch_since: float | None = None
        #: How many keys were let go by the fallback (a marker that never came back).
        self.key_fallbacks = 0
        #: The last key's marker came back with no key waiting, and the widgets were not
        #: waited for: the next key waits for them first (see :meth:`_settled_now`).
        self._unsettled = False
        #: The look at the widgets a little after a key (see :meth:`_unsettle`).
        self._key_look: asyncio.TimerHandle | None = None
        #: Times the widgets of the screen were looked at for messages still waiting (a
        #: test reads it).
        self.settle_walks = 0
        #: How many :meth:`hold_input` calls wait for their :meth:`release_input`.
        self._input_holds = 0
        #: A mouse button pressed while input was held: its release is not a click either.
        self._mouse_down_refused = False
        #: The key being handed on, until its priority bindings have been looked up (see
        #: :meth:`_check_bindings`).
        self._key_handing: events.Key | None = None
        #: The binding chain worked out for the key handed on at the app, kept for its second
        #: lookup (the bindings that are not priority ones).
        self._key_chain: list[tuple[DOMNode, Any]] | None = None
        #: The key being handed on had its bindings run at the app, without its trip.
        self._key_kept = False
        #: How many keys had their bindings run without the trip through the widgets (a
        #: test reads it).
        self.keys_shortcut = 0

    @property
    def input_held(self) -> bool:
        """Keys wait and clicks are refused (:meth:`hold_input`)."""
        return self._input_holds > 0

    def hold_input(self) -> None:
        """Hold keys (in order) and refuse clicks until :meth:`release_input`; the screen
        keeps painting meanwhile."""
        self._input_holds += 1
        self._paint_keys()  # (a burst of keys held the repaints back: not now)

    def release_input(self) -> None:
        """End a :meth:`hold_input`: the keys held go on, in order."""
        self._input_holds = max(0, self._input_holds - 1)
        if self._input_holds or self._key_in_flight is not None or self._keys_released:
            return
        if self._keys_waiting:
            self._watch_keys()
            self._release_key()

    def click_refused(self) -> None:
        """A mouse button was pressed while input was held (and ignored): say so."""

    @property
    def keys_held(self) -> int:
        """How many keys (and pastes) wait for the one before them to be handled."""
        return len(self._keys_waiting) + len(self._keys_released)

    @property
    def keys_pending(self) -> bool:
        """A key is being handled or waits to be."""
        return self._key_in_flight is not None or bool(self.keys_held)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded:
            if self._key_look is not None:  # (this key looks for itself, if it has to)
                self._key_look.cancel()
                self._key_look = None
            if self._keys_released and event is self._keys_released[0]:
                self._keys_released.popleft()
                if self._input_holds:  # let go before the hold: first in line after it
                    self._keys_waiting.appendleft(event)
                    return
            elif self._input_holds:
                self._keys_waiting.append(event)
                return
            elif self._key_in_flight is not None or self._keys_waiting or self._keys_released:
                self._keys_waiting.append(event)
                self._watch_keys()
                self._hold_paint()
                return
            elif not self._settled_now():
                # The widgets are still busy with what the last key started: this key waits
                # for them, as it would have had it come while the last one was handled.
                self._keys_waiting.append(event)
                await self._settle()
                if self._key_in_flight is None and not self._keys_released:
                    self._release_key()
                return
            await self._deliver_key(event)
            return
        if isinstance(event, (events.MouseDown, events.MouseUp)) and not event.is_forwarded:
            if isinstance(event, events.MouseDown) and self._input_holds:
                self._mouse_down_refused = True
                self.click_refused()
                return
            if isinstance(event, events.MouseUp) and self._mouse_down_refused:
                self._mouse_down_refused = False
                return
            # A click may start what the next key must wait for, as a key does.
            self._unsettle()
        await super().on_event(event)

    async def _deliver_key(self, event: events.Key | events.Paste) -> None:
        """Hand one key on as Textual does, and send a marker after it (unless it was handled
        at the app with no key waiting behind it: then it is done with now)."""
        try:
            target: MessagePump | None = self.focused or self.screen
        except Exception:  # no screen (yet, or any more)
            target = None
        self._key_handing = event if isinstance(event, events.Key) else None
        self._key_kept = False
        try:
            await super().on_event(event)
        finally:
            kept = self._key_kept
            self._key_handing = None
            self._key_chain = None
            self._key_kept = False
        self._key_token += 1
        key = event.key if isinstance(event, events.Key) else ""
        if kept and not self.keys_held and not _keys_in(self):
            # Its bindings have run, and no key is behind it: a key read later comes after
            # the focus changes they queued on the app, so what its marker would do is done
            # now (and the next key waits for the widgets, if they are still busy with what
            # this one started). A key typed ahead, already in the app's queue, would be read
            # before those focus changes: the marker, posted behind them, holds it until then.
            self._key_in_flight = None
            self._unsettle()
            self._release_key()
            return
        marker = KeyMarker(self._key_token)
        self._key_in_flight = _InFlight(self._key_token, key, target, monotonic())
        sent = (
            event.is_forwarded and not kept and target is not None and target.post_message(marker)
        )
        if not sent:
            # Taken by a priority binding or by the app (or not handed on): the marker comes
            # after the callbacks (focus changes) the binding queued on the app.
            self.post_message(marker)

    async def _check_bindings(self, key: str, priority: bool = False) -> bool:
        """Look up and run the bindings of a key, as Textual does; for a key being handed on
        that no widget on its way up from the focus would do anything with
        (:meth:`_passes_by`), run the others too, here and now, as the app would when the key
        came back from that trip, with the same binding chain (built once, not twice: a copy
        of every binding of the focused widget and its ancestors, filtered by what each
        consumes)."""
        chain = self._key_chain
        if chain is not None and not priority:
            self._key_chain = None  # (once: the bindings run may move the focus)
            return (await self._run_bindings(key, _up_to_modal(chain), priority=False))[1]
        event = self._key_handing
        if not priority or event is None or event.key != key:
            return await super()._check_bindings(key, priority)
        self._key_handing = None
        chain = self.screen._binding_chain
        found, handled = await self._run_bindings(key, reversed(chain), priority=True)
        if found or not self._passes_by(event):
            return handled  # (Textual's way from here on: the key is sent on its trip)
        self._key_kept = True
        self.keys_shortcut += 1
        self._key_chain = chain
        event._set_forwarded()
        # What the app does with a key back from its trip: its bindings (App._on_key, which
        # comes back here for them), then its own key methods.
        await self._on_message(event)
        return True

    async def _run_bindings(
        self, key: str, chain: Iterable[tuple[DOMNode, Any]], *, priority: bool
    ) -> tuple[bool, bool]:
        """Run the first binding of ``key`` along ``chain`` whose action runs, as Textual's
        ``App._check_bindings`` does: whether a binding of that priority was found, and
        whether one ran."""
        found = False
        for namespace, bindings in chain:
            for binding in bindings.key_to_bindings.get(key, ()):
                if binding.priority == priority:
                    found = True
                    if await self.run_action(binding.action, namespace):
                        return True, True
        return found, False

    def _passes_by(self, event: events.Key) -> bool:
        """Whether the key, sent from the focused widget up to the app, would come back having
        done nothing on its way but wait its turn: every node on the way takes keys as any
        widget does (:func:`_passes_keys`) and has no ``key_`` method for this one, passes it
        on to its parent, is not in the middle of handling a message and has nothing waiting
        that the key would come after (but Textual's housekeeping); nor has the app (but keys,
        which come after this one anyway)."""
        try:
            return self._route_passes(event)
        except Exception:  # no screen (yet, or any more), or a Textual that differs here
            return False

    def _route_passes(self, event: events.Key) -> bool:
        """:meth:`_passes_by`, with a screen on top (Textual's attributes read here are its
        own: a Textual without one of them sends every key on its trip)."""
        screen = self.screen
        node: DOMNode | None = self.focused or screen
        target = node
        sender = event._sender
        names = [f"{prefix}key_{name}" for name in event.name_aliases for prefix in ("", "_")]
        while node is not None and node is not self:
            if (
                not _passes_keys(type(node))
                or (node is sender and node is not target)  # (the key would stop above it)
                or node._closing
                or node._closed
                or not node.check_message_enabled(event)
                or node._next_callbacks
                or not _free(node)
                or not _idle(node)
                or any(getattr(node, name, None) is not None for name in names)
            ):
                return False
            if node is screen:
                break
            node = node._parent  # type: ignore[assignment]
        if node is not screen or screen._parent is not self or screen._callbacks:
            return False
        waiting = _waiting(self._message_queue)
        return waiting is not None and all(
            m is None or isinstance(m, (*_HOUSEKEEPING, events.Key, events.Paste))
            for m in (getattr(self, "_pending_message", None), *waiting)
        )

    async def on_armybuilder_key_marker(self, marker: KeyMarker) -> None:
        marker.stop()
        flight = self._key_in_flight
        if flight is None or flight.token != marker.token:
            return  # the fallback let the next key go already
        run = self._run_of(flight)
        if not run:
            if self._keys_waiting or self._keys_released:
                await self._settle()
            else:  # (the next key waits for the widgets, if they are still busy then)
                self._unsettle()
        if self._key_in_flight is flight:
            self._key_in_flight = None
            self._release_key(run)

    def _run_of(self, flight: _InFlight) -> int:
        """How many of the waiting keys repeat the cursor key just handled, which left the
        focus where it was (a key held down): they go on together, as Textual hands on keys
        read at once, without waiting for what each step started (the details of each unit
        passed over)."""
        if flight.key not in _STEPS:
            return 0
        try:
            if (self.focused or self.screen) is not flight.target:
                return 0
        except Exception:
            return 0
        run = 0
        for event in self._keys_waiting:
            if not isinstance(event, events.Key) or event.key != flight.key:
                break
            run += 1
        return run

    async def _settle(self) -> None:
        """Let the widgets of the screen on top finish what the last key started: a screen
        it pushed being composed and mounted, a message one of them posted to another."""
        self._unsettled = False
        start = monotonic()
        for _ in range(SETTLE_TURNS):
            if self._screen_idle() or monotonic() - start > SETTLE_SECONDS:
                return
            await asyncio.sleep(0)

    def _unsettle(self) -> None:
        """What the last key (or click) started may still be going on: the next key waits
        for it, if the widgets are still busy then. They are looked at once a little later
        (:attr:`KEY_LOOK_SECONDS`), unless a key comes first: found idle, the next key is
        handed on without looking at every widget of the screen (about 0.4 ms between the
        40k count +1 and its edit, the widgets' objects being cold in memory by then)."""
        self._unsettled = True
        if self._key_look is None:
            with contextlib.suppress(RuntimeError):  # (no event loop: the next key looks)
                loop = asyncio.get_running_loop()
                self._key_look = loop.call_later(self.KEY_LOOK_SECONDS, self._look_settled)

    def _look_settled(self) -> None:
        """A little after a key: the widgets done with what it started, the next key need not
        look at them."""
        self._key_look = None
        if (
            self._unsettled
            and self._key_in_flight is None
            and not self.keys_held
            and self._screen_idle()
        ):
            self._unsettled = False

    def _settled_now(self) -> bool:
        """Whether a key can be handed on now: the widgets have finished what the last key
        started (checked only if its marker came back without waiting for them, and no look
        a little after it found them done)."""
        if not self._unsettled:
            return True
        if self._screen_idle():
            self._unsettled = False
            return True
        return False

    def _screen_idle(self) -> bool:
        """The widgets of the screen on top have only Textual's housekeeping waiting (looked
        at until one is busy, parents before their children)."""
        self.settle_walks += 1
        try:
            stack: list[DOMNode] = [self.screen]
        except Exception:  # no screen (yet, or any more)
            return True
        while stack:
            node = stack.pop()
            if not _idle(node):
                return False
            stack.extend(node._nodes)
        return True

    def _release_key(self, run: int = 0) -> None:
        """Post the next waiting key (or a run of one cursor key) to the app's own queue,
        behind any focus change queued there (none while input is held)."""
        if self._input_holds:
            self._keys_done()  # (release_input lets them go)
            return
        if not self._keys_waiting:
            self._keys_done()
            return
        for _ in range(max(run, 1)):
            event = self._keys_waiting.popleft()
            self._keys_released.append(event)
            if not self.post_message(event):  # the app is closing
                self._keys_waiting.clear()
                self._keys_released.clear()
                self._keys_done()
                return

    def _watch_keys(self) -> None:
        if self._key_watchdog is None:
            self._key_watchdog = self.set_interval(self.KEY_GONE_SECONDS, self._check_keys)

    def _keys_done(self) -> None:
        """No key waits any more: stop the watchdog, paint the screen."""
        if self._key_watchdog is not None:
            self._key_watchdog.stop()
            self._key_watchdog = None
        self._paint_keys()

    def _hold_paint(self) -> None:
        """Hold repaints back while keys wait (Textual paints keys read at once once)."""
        if self._key_batch_since is None:
            self._begin_batch()
            self._key_batch_since = monotonic()

    def _paint_keys(self) -> None:
        """End the repaints held back while keys waited."""
        if self._key_batch_since is None:
            return
        self._key_batch_since = None
        self._end_batch()
        with contextlib.suppress(Exception):  # no screen
            self.screen.check_idle()  # (its Idle event resumes the painting)

    def _check_keys(self) -> None:
        """The fallback: a key whose marker is lost must not hold the keyboard up."""
        if self._input_holds:
            self._keys_done()  # (release_input lets the keys go, and watches them again)
            return
        since = self._key_batch_since
        if since is not None and monotonic() - since > self.KEY_PAINT_SECONDS:
            self._paint_keys()  # a long burst (a paste) shows how it goes: one frame
        elif since is None and self.keys_held:
            self._hold_paint()  # (the frame is painted by now)
        flight = self._key_in_flight
        if flight is None:
            if not self._keys_waiting and not self._keys_released:
                self._keys_done()
            return
        waited = monotonic() - flight.since
        target = flight.target
        gone = isinstance(target, Widget) and not _alive(target)
        if waited > self.KEY_FALLBACK_SECONDS or (gone and waited > self.KEY_GONE_SECONDS):
            self.key_fallbacks += 1
            self._key_in_flight = None
            self._release_key()


def _up_to_modal(chain: list[tuple[DOMNode, Any]]) -> list[tuple[DOMNode, Any]]:
    """A binding chain up to its first modal screen (as ``Screen._modal_binding_chain``)."""
    for index, (node, _) in enumerate(chain, 1):
        if node.is_modal:
            return chain[:index]
    return chain


#: Textual's methods that carry a key from the focused widget up to the app: a widget with any
#: of them changed may do something with the key on its way.
_KEY_ROUTE = (
    "on_event",
    "_on_message",
    "_dispatch_message",
    "_get_dispatch_methods",
    "_forward_event",
    "post_message",
    "check_message_enabled",
    "handle_key",
    "_on_key",
)
_PASSES_KEYS: dict[type, bool] = {}


def _passes_keys(cls: type) -> bool:
    """A widget (or screen) of this class takes keys as any widget does: by Textual's default
    handler, which only calls its ``key_`` methods (no ``on_key`` handler of its own, no
    handler of keys by ``@on``, none of Textual's methods on the key's way changed)."""
    found = _PASSES_KEYS.get(cls)
    if found is None:
        base: type = Screen if issubclass(cls, Screen) else Widget
        found = (
            issubclass(cls, Widget)
            and all(getattr(cls, name, None) is getattr(base, name, None) for name in _KEY_ROUTE)
            and not any(
                "on_key" in klass.__dict__
                or ("_on_key" in klass.__dict__ and klass is not Widget)
                or any(
                    isinstance(kind, type) and issubclass(events.Key, kind)
                    for kind in (klass.__dict__.get("_decorated_handlers") or ())
                )
                for klass in cls.__mro__
            )
        )
        _PASSES_KEYS[cls] = found
    return found


def _idle(node: DOMNode) -> bool:
    """Mounted, with nothing but Textual's housekeeping waiting in its message queue (nor in
    the message its loop took out of the queue to look at, behind the one it handles)."""
    if isinstance(node, Widget) and not node.is_mounted:
        return False
    pending = getattr(node, "_pending_message", None)
    if pending is not None and not isinstance(pending, _HOUSEKEEPING):
        return False
    queue: Any = node._message_queue
    waiting = _waiting(queue)
    if waiting is None:
        return bool(queue.empty())
    return not waiting or all(isinstance(m, _HOUSEKEEPING) for m in waiting)


def _free(node: DOMNode) -> bool:
    """Not in the middle of handling a message: its loop waits for the next one (or was woken
    by one and has not run yet). A widget whose handler awaits something (a box being
    mounted, a worker) has none of its messages waiting, yet a key sent to it would wait for
    that handler; ``False`` where the installed Textual's queue does not show its wait."""
    event = getattr(node._message_queue, "ready_event", None)
    waiters = getattr(event, "_waiters", None)
    return bool(waiters)


def _waiting(queue: Any) -> Iterable[object] | None:
    """The messages waiting in a message pump's queue, oldest first: Textual's own queue
    (``textual._queue.Queue``, Textual 8) keeps them in ``values``, an ``asyncio.Queue`` in
    ``_queue``; ``None`` for a queue that shows neither (then only an empty queue is idle,
    and a key waits for Textual's housekeeping too)."""
    for name in ("values", "_queue"):
        found = getattr(queue, name, None)
        if isinstance(found, deque):
            return found
    return None


def _keys_in(pump: MessagePump) -> bool:
    """A key or a paste waits for a message pump: in its queue or as the message its loop
    took out to look at (the next key of a burst, while the app handles a key); ``True`` if
    its queue does not show what waits in it."""
    waiting = _waiting(pump._message_queue)
    if waiting is None:
        return True
    pending = getattr(pump, "_pending_message", None)
    return any(isinstance(m, (events.Key, events.Paste)) for m in (pending, *waiting))


def _alive(node: Widget) -> bool:
    return node.is_attached and not (node._closing or node._closed)
