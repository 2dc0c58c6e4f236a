"""A key that no widget between the focus and the app does anything with has its bindings run
at the app at once (``InOrderKeysApp._check_bindings``), not after a trip from the focused
widget up through its boxes and the screen and back, its marker after it: the 40k count +1 in
the roster tree was 13 messages of that trip and its marker and two binding chains built (a
copy of every binding of the tree and its ancestors) before its edit; it is one message and one
chain now. Whatever a widget on the way would do with the key still happens, in its order: a
widget's ``key_`` method, a box's ``on_key``, a message waiting in a box before the key; and
keys typed ahead still go where the focus went (``/inter`` from the tree is typed into the
catalog's search; ``Home``, six ``Down`` and two ``+`` act on the Librarian).

The widgets are looked at for what a key started once a little after it (the next key used
to walk every widget of the screen for that, a few tenths of a millisecond before its edit);
a look that finds them busy leaves it to the next key, and a click counts as a key there.

The keys are posted as the terminal driver posts them (``set_sender(app)``), with every queue
empty before them (no Pilot call in between, whose callbacks would wait in every queue and
send the key on its trip).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest
from conftest import run_async, wait_editor
from screen import Terminal, catalog_view_problems, pane_lines
from test_footer import footer_problem
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import screen_problems, sent_problems, settle
from test_typeahead import burst
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from armybuilder.catalog import Library
from armybuilder.tui.keys import InOrderKeysApp, KeyMarker, _free, _idle
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.stable import StableFooter


class Counts:
    """The messages dispatched (by type) and the binding chains built, while ``on``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        self.messages: Counter[type] = Counter()
        self.chains = 0
        chain = Screen._binding_chain

        def counted(screen: Screen[Any]) -> Any:
            if self.on:
                self.chains += 1
            return chain.fget(screen)  # type: ignore[attr-defined]

        monkeypatch.setattr(Screen, "_binding_chain", property(counted))

    def hook(self, message: Message) -> None:
        if self.on:
            self.messages[type(message)] += 1

    def start(self) -> None:
        self.messages.clear()
        self.chains = 0
        self.on = True


async def keys_done(app: InOrderKeysApp[Any]) -> None:
    """Until every key posted is handled and the widgets have nothing but Textual's
    housekeeping waiting (turn by turn: no Pilot callback in any queue; the widgets looked
    at here, not by the app's own look, which a test counts)."""
    for _ in range(2000):
        await asyncio.sleep(0.001)
        if not app.keys_pending and all(_idle(n) for n in app.screen.walk_children()):
            return
    raise AssertionError("the keys were not handled")


async def until(check: Any, seconds: float = 3.0) -> None:
    """Until ``check()`` holds (the app's look a little after a key, on a busy machine)."""
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not in time")


async def quiet(pilot: Pilot[Any]) -> None:
    """Every queue empty (the Pilot's own callbacks run), before keys are posted."""
    await pilot.pause()
    await asyncio.sleep(0.05)


async def counted_burst(pilot: Pilot[Any], counts: Counts, *keys: str) -> None:
    """``keys`` posted at once once the app is quiet, counted from then until they are
    handled (:func:`keys_done`)."""
    app = pilot.app
    assert isinstance(app, InOrderKeysApp)
    await quiet(pilot)
    counts.start()
    burst(app, *keys)
    await keys_done(app)
    counts.on = False


# ----------------------------------------------------------------- the mechanism alone


class Pane(Static, can_focus=True):
    """Takes keys as any widget does."""


class Keyed(Static, can_focus=True):
    """A widget with a key method for ``x``."""

    def key_x(self) -> None:
        app = self.app
        assert isinstance(app, Boxes)
        app.seen.append("keyed x")


class Watching(Vertical):
    """A box that looks at every key going up through it."""

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, Boxes)
        app.seen.append(f"watched {event.key}")


class Slow(Message):
    """Keeps a box busy (its handler awaits) for some turns of the event loop, or until the
    app has handed the next key on (``turns=None``)."""

    def __init__(self, turns: int | None = None) -> None:
        super().__init__()
        self.turns = turns


class Mark(Message):
    """A box's own message."""


class ToField(Message):
    """Moves the focus to the field."""


class Box(Vertical):
    async def on_slow(self, message: Slow) -> None:
        message.stop()
        app = self.app
        assert isinstance(app, Boxes)
        token = app._key_token
        for _ in range(message.turns or 2000):
            await asyncio.sleep(0)
            if message.turns is None and app._key_token != token:
                break
        app.seen.append("slow done")

    def on_mark(self, message: Mark) -> None:
        message.stop()
        app = self.app
        assert isinstance(app, Boxes)
        app.seen.append("mark")

    def on_to_field(self, message: ToField) -> None:
        message.stop()
        self.app.query_one("#field", Input).focus()


class Boxes(InOrderKeysApp[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "count", "Count"),
        Binding("slash", "to_field", "Field"),
        Binding("y", "later_to_field", "Field later"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []
        self.counted = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="outer"), Box(id="inner"):
            yield Pane("0", id="pane")
            yield Keyed("keyed", id="keyed")
        with Watching(id="watching"):
            yield Pane("watched", id="watched")
        yield Input(id="field")

    def action_count(self) -> None:
        self.counted += 1
        self.seen.append("binding x")
        self.query_one("#pane", Pane).update(str(self.counted))

    def action_to_field(self) -> None:
        self.query_one("#field", Input).focus()

    def action_later_to_field(self) -> None:
        box = self.query_one("#inner", Box)
        box.post_message(Slow(10))
        box.post_message(ToField())


@run_async
async def test_a_key_nothing_on_its_way_takes_runs_its_binding_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``x`` on a pane in two boxes: its binding runs at the app when it is read (one Key
    message, no marker, one binding chain for both lookups); the pane shows the count."""
    counts = Counts(monkeypatch)
    app = Boxes()
    async with app.run_test(size=(40, 8), message_hook=counts.hook) as pilot:
        pane = app.query_one("#pane", Pane)
        pane.focus()
        for n in (1, 2):
            await counted_burst(pilot, counts, "x")
            assert app.counted == n
            assert counts.messages[events.Key] == 1, counts.messages
            assert counts.messages[KeyMarker] == 0, counts.messages
            assert counts.chains == 1
            assert app.keys_shortcut == n
            await pilot.pause()
            assert pane_lines(app, pane)[0].strip() == str(n)


@run_async
async def test_what_a_widget_on_the_way_does_with_a_key_still_happens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A widget's ``key_x``, a box's ``on_key`` and a message waiting in a box ahead of the key
    still come before the key's binding: such a key goes its trip, as it always did."""
    counts = Counts(monkeypatch)
    app = Boxes()
    async with app.run_test(size=(40, 8), message_hook=counts.hook) as pilot:
        for focus, first in (("#keyed", "keyed x"), ("#watched", "watched x")):
            app.seen.clear()
            app.query_one(focus).focus()
            await quiet(pilot)
            burst(app, "x")
            await keys_done(app)
            assert app.seen == [first, "binding x"]

        # A box busy with a message (its handler awaits), another waiting behind it: the key
        # comes after both.
        app.seen.clear()
        pane = app.query_one("#pane", Pane)
        pane.focus()
        await quiet(pilot)
        box = app.query_one("#inner", Box)
        box.post_message(Slow())
        box.post_message(Mark())
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not _idle(box), "the box must be busy for this test"
        counts.start()
        burst(app, "x")
        await keys_done(app)
        assert app.seen == ["slow done", "mark", "binding x"]
        assert counts.messages[events.Key] > 1  # (its trip, behind the box's messages)

        # A box busy with a message and nothing waiting: the key waits for it.
        app.seen.clear()
        await quiet(pilot)
        box.post_message(Slow())
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert _idle(box) and not _free(box), "the box must be in its handler for this test"
        burst(app, "x")
        await keys_done(app)
        assert app.seen == ["slow done", "binding x"]
        assert app.keys_shortcut == 0
        assert app.counted == 4
        await pilot.pause()
        assert pane_lines(app, pane)[0].strip() == "4"


@run_async
async def test_a_key_after_one_handled_at_once_waits_for_what_it_started() -> None:
    """``y`` is handled at the app when it is read, with nothing behind it (no marker): it
    keeps a box busy for some turns, with the focus move to the field waiting behind that.
    ``a``, read meanwhile, waits for the box (the message it has taken out of its queue to
    look at counts as waiting) and is typed into the field."""
    app = Boxes()
    async with app.run_test(size=(40, 8)) as pilot:
        app.query_one("#pane").focus()
        await quiet(pilot)
        burst(app, "y")
        for _ in range(100):
            await asyncio.sleep(0)
            if app._key_token == 1 and not app.keys_pending:
                break
        assert app.keys_shortcut == 1
        field = app.query_one("#field", Input)
        assert app.focused is not field, "the box finished before the next key: no test"
        burst(app, "a")
        await keys_done(app)
        assert app.focused is field
        assert field.value == "a"
        await pilot.pause()
        assert "a" in " ".join(pane_lines(app, field))


@run_async
async def test_keys_typed_behind_a_key_handled_at_once_follow_the_focus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/ab`` at once: ``/`` is handled at the app when it is read and queues the focus move
    to the field; ``a`` and ``b``, already in the app's queue, wait for it (its marker holds
    them) and are typed into the field; so is ``c`` of ``/c``, the one key behind ``/``, which
    the app has taken out of its queue to look at while it handled ``/``."""
    counts = Counts(monkeypatch)
    app = Boxes()
    async with app.run_test(size=(40, 8), message_hook=counts.hook) as pilot:
        field = app.query_one("#field", Input)
        for typed in ("ab", "c"):  # (one key behind: the one the app has looked at already)
            app.query_one("#pane").focus()
            await quiet(pilot)
            counts.start()
            shortcuts = app.keys_shortcut
            burst(app, "slash", *typed)
            await keys_done(app)
            assert app.keys_shortcut == shortcuts + 1
            assert counts.messages[KeyMarker] >= 1  # (the one after "/")
            assert app.focused is field
            assert field.value == typed  # (the field's text is selected when it is focused)
            await pilot.pause()
            assert typed in " ".join(pane_lines(app, field))


# ----------------------------------------------------------------- the 40k roster


async def open_marines(pilot: Pilot[Any]) -> EditorScreen:
    editor = await wait_editor(pilot)
    editor.roster_tree.focus()
    await settle(pilot, editor)
    return editor


@run_async
async def test_the_40k_count_runs_without_the_trip(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``+`` on the roster tree (issue 18's edit): one Key message before the edit, no marker,
    one binding chain; the frames sent show the new count, the panes what the session
    computes."""
    path, library = space_marines(workdir, marines)
    counts = Counts(monkeypatch)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48), message_hook=counts.hook) as pilot:
        terminal = Terminal(app)
        editor = await open_marines(pilot)
        session = editor.session
        assert session is not None
        librarian = ("selections", 5)
        editor.jump_to(librarian)
        await settle(pilot, editor)
        for n in (2, 3):
            await counted_burst(pilot, counts, "plus")
            await settle(pilot, editor)
            assert session.count_of(librarian) == n
            assert counts.messages[events.Key] == 1, counts.messages
            assert counts.messages[KeyMarker] == 0, counts.messages
            assert counts.chains == 1
            assert not await sent_problems(pilot, terminal)
            assert not screen_problems(app, editor)
        assert app.keys_shortcut == 2


@run_async
async def test_40k_home_six_downs_and_two_plus_act_on_the_librarian(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """``Home``, six ``Down`` and two ``+`` in one burst from the roster tree: the Librarian
    (the seventh line) is counted twice, nothing else changes, and the screen shows it."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await open_marines(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        before = {
            n.loc: session.count_of(n.loc)
            for n in ev.nodes()
            if not n.is_root and n.entry is not None and n.force is None
        }
        librarian = ("selections", 5)
        assert "Librarian" in str(editor.roster_tree._tree_lines[6].path[-1].label)
        editor.jump_to(("selections", 9))
        await settle(pilot, editor)
        await quiet(pilot)
        shortcuts = app.keys_shortcut
        burst(app, "home", *["down"] * 6, "plus", "plus")
        await keys_done(app)
        await settle(pilot, editor)
        assert app.keys_shortcut > shortcuts
        assert editor.selected == librarian
        after = {loc: session.count_of(loc) for loc in before}
        assert after == {**before, librarian: before[librarian] + 2}
        assert not await sent_problems(pilot, terminal)
        assert not screen_problems(app, editor)


@run_async
async def test_40k_slash_inter_in_one_burst_searches_the_catalog(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """``/inter`` at once from the roster tree: ``/`` is handled at the app when it is read,
    and ``inter`` is typed into the catalog's search box, which lists the matches."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await open_marines(pilot)
        await quiet(pilot)
        burst(app, "slash", *"inter")
        await keys_done(app)
        await settle(pilot, editor)
        assert app.keys_shortcut == 1
        search = editor.catalog.search
        assert app.focused is search
        assert search.value == "inter"
        assert "inter" in " ".join(pane_lines(app, search))
        assert catalog_view_problems(app, editor) == []
        assert any("Intercessor" in line for line in pane_lines(app, editor.catalog.catalog_tree))
        assert editor.session is not None and editor.session.history == []
        assert not await sent_problems(pilot, terminal)


# ----------------------------------------------------------------- the footer


@run_async
async def test_the_footer_works_its_keys_out_once_when_they_change(
    make_app: Any, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The focus moves into the catalog's search box (the letters' bindings give way to the
    field) and back: the footer compares the keys and fills them in from one look at the
    screen's bindings, and every frame shows the keys of its focus."""
    looks: list[int] = []
    active = Screen.active_bindings
    changed = StableFooter.bindings_changed

    comparing = [False]

    def counted_active(screen: Screen[Any]) -> Any:
        if comparing[0]:
            looks[-1] += 1
        return active.fget(screen)  # type: ignore[attr-defined]

    def counted_changed(footer: StableFooter, screen: Screen[Any]) -> None:
        looks.append(0)
        shown = footer._shown
        comparing[0] = True
        try:
            changed(footer, screen)
        finally:
            comparing[0] = False
        if footer._shown == shown:
            looks.pop()  # (only the comparisons that changed the keys are counted)

    monkeypatch.setattr(Screen, "active_bindings", property(counted_active))
    monkeypatch.setattr(StableFooter, "bindings_changed", counted_changed)
    app = make_app(workdir / "patrol.yaml")
    problems: list[str] = []
    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and app.screen is screen and isinstance(screen, EditorScreen):
            from screen import painted

            problem = footer_problem(app, painted(app))
            if problem is not None:
                problems.append(problem)

    monkeypatch.setattr(app, "_display", spy)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        looks.clear()
        for key in ["slash", "escape", "slash", "f3"]:
            await pilot.press(key)
            await pilot.pause(0.05)
        assert len(looks) >= 2, looks  # (the keys changed, into the field and out)
        assert looks == [1] * len(looks), looks
    assert problems == [], problems


# ----------------------------------------------------------------- the look after a key


@run_async
async def test_the_widgets_are_looked_at_after_a_key_not_when_the_next_one_comes() -> None:
    """A key done with and none behind it: the widgets are looked at once a little later;
    found done, the next key is handed on without looking at them (every widget of the
    screen, between the key and its edit)."""
    app = Boxes()
    app.KEY_LOOK_SECONDS = 0.5  # (the key done with well before the look, however busy)
    async with app.run_test(size=(40, 8)) as pilot:
        pane = app.query_one("#pane", Pane)
        pane.focus()
        await quiet(pilot)
        for n in (1, 2):
            walks = app.settle_walks
            burst(app, "x")
            await keys_done(app)
            assert app.settle_walks == walks, "the key looked at the widgets"
            assert app.counted == n
            assert app._unsettled
            await until(lambda before=walks: app.settle_walks > before)  # (the look)
            assert app.settle_walks == walks + 1
            assert not app._unsettled
        await pilot.pause()
        assert pane_lines(app, pane)[0].strip() == "2"


@run_async
async def test_a_look_that_finds_the_widgets_busy_leaves_it_to_the_next_key() -> None:
    """The look comes while a box is still busy with what ``y`` started (the focus move to
    the field waits behind it): ``a`` then waits for the box, and is typed into the field."""
    app = Boxes()
    app.KEY_LOOK_SECONDS = 0  # (the look comes on the next turn, while the box is busy)
    async with app.run_test(size=(40, 8)) as pilot:
        app.query_one("#pane").focus()
        await quiet(pilot)
        walks = app.settle_walks
        burst(app, "y")
        for _ in range(100):
            await asyncio.sleep(0)
            if app.settle_walks > walks:
                break
        assert app.settle_walks == walks + 1, "no look"
        assert app._unsettled, "the look found the box done: no test"
        field = app.query_one("#field", Input)
        assert app.focused is not field
        burst(app, "a")
        await keys_done(app)
        assert app.focused is field
        assert field.value == "a"
        await pilot.pause()
        assert "a" in " ".join(pane_lines(app, field))


class Clicked(Pane):
    """A pane whose click keeps the box busy, with the focus move to the field behind."""

    def on_click(self) -> None:
        box = self.app.query_one("#inner", Box)
        box.post_message(Slow(10))
        box.post_message(ToField())


@run_async
async def test_a_key_right_after_a_click_waits_for_what_the_click_started() -> None:
    """A click starts a box's work that ends by moving the focus to the field (the widgets
    were found done a little after the last key): a key that comes right behind the click
    waits for it, and is typed into the field."""
    app = Boxes()
    async with app.run_test(size=(40, 20)) as pilot:
        clicked = Clicked("click me", id="clicked")
        await app.query_one("#inner", Box).mount(clicked)
        clicked.focus()
        await quiet(pilot)
        burst(app, "x")
        await keys_done(app)
        await until(lambda: not app._unsettled)  # (the look after x found the widgets done)
        x, y = clicked.region.x + 1, clicked.region.y
        assert app.get_widget_at(x, y)[0] is clicked
        for kind in (events.MouseDown, events.MouseUp):
            event = kind(clicked, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
            event.set_sender(app)
            app.post_message(event)
        burst(app, "a")
        await keys_done(app)
        field = app.query_one("#field", Input)
        assert app.focused is field
        assert field.value == "a"
        await pilot.pause()
        assert "a" in " ".join(pane_lines(app, field))
