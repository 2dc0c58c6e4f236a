"""Keys typed ahead (issue 19): keys that arrive in one burst (a paste without bracketed
paste, tmux ``send-keys``, a busy machine) go where the focus is by the time each is read,
in order: ``/gr`` types ``gr`` into the catalog's search box (the ``g`` used to go to the
roster tree, which opened the summary), and ``F4 /gro`` leaves ``gro`` in the search box.

The keys are posted as the terminal driver posts them (``set_sender(app)``), all at once,
without letting the app run in between: that is what a burst looks like to Textual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import painted, pane_lines
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.pilot import Pilot
from textual.widgets import Input, Static

from armybuilder.session import EditSession
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.keys import InOrderKeysApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.roster_tree import RosterTree

MakeApp = Callable[..., ArmyBuilderApp]
#: Seven entries at the top level, three of them with "gro" in their name.
REGIMENT = EXAMPLES / "starship-marine/earther-regiment.yaml"
SQUAD = EXAMPLES / "starship-troopers/mi-squad.yaml"

CHARS = {"slash": "/", "space": " ", "full_stop": "."}
KEYS = {" ": "space", "/": "slash", ".": "full_stop"}


def burst(app: App[Any], *keys: str) -> None:
    """Post ``keys`` to the app at once, as the driver does for keys read in one go."""
    for key in keys:
        key = KEYS.get(key, key)
        char = CHARS.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)  # what Driver.process_message does to every event it reads
        app.post_message(event)


def copy_of(path: Path, folder: Path) -> Path:
    out = folder / path.name
    out.write_bytes(path.read_bytes())
    return out


def filtered_catalog(session: EditSession, query: str) -> list[str]:
    """The names of the top level's options that a search for ``query`` keeps."""
    return [
        c.entry.name
        for c in session.options(())
        if query in c.entry.name.lower() or query in c.entry.id
    ]


async def settle(pilot: Pilot[Any]) -> None:
    """Until every key of the burst is handled, and what they started is done."""
    app = pilot.app
    assert isinstance(app, InOrderKeysApp)
    await pilot.pause()  # the app reads the burst (and holds all but the first key)
    await wait_for(pilot, lambda: not app.keys_pending, timeout=30)
    for _ in range(3):
        await pilot.pause(0.02)


def search_problems(app: ArmyBuilderApp, editor: EditorScreen, query: str) -> list[str]:
    """Problems with what the catalog pane shows after typing ``query`` into its search:
    the editor on top, the focus in the search box, its row showing the text, and the tree
    listing exactly the entries whose name has it."""
    problems = []
    if app.screen is not editor:
        problems.append(f"screen on top: {app.screen!r}")
        return problems
    search = editor.catalog.search
    if app.focused is not search:
        problems.append(f"focus on {app.focused!r}")
    if search.value != query:
        problems.append(f"search box holds {search.value!r}")
    rows = painted(app)
    shown = " ".join(pane_lines(app, search, rows))
    if query not in shown:
        problems.append(f"search row shows {shown!r}")
    s = editor.session
    assert s is not None
    want = filtered_catalog(s, query)
    assert 0 < len(want) < len(s.options(())), "the query must filter"
    tree = editor.catalog.catalog_tree
    lines = pane_lines(app, tree, rows)
    leaves = [ln for ln in lines if ln.lstrip(" ")[:1] in set("├└│")]
    if len(leaves) != len(want):
        problems.append(f"catalog shows {lines!r}; the matches are {want!r}")
    labels = [
        label for label in (ln.lstrip("│├└─ ").split("  ")[0] for ln in leaves) if label not in want
    ]
    if labels:
        problems.append(f"catalog shows {labels!r}, which do not match {query!r}")
    return problems


@run_async
async def test_slash_then_letters_in_one_burst_go_to_the_search(
    make_app: MakeApp, workdir: Path
) -> None:
    """``/gr`` typed at once from the roster tree: ``/`` moves the focus to the search box,
    and ``g`` and ``r`` are typed there (``g`` is the summary's key in the tree)."""
    app = make_app(copy_of(REGIMENT, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        assert isinstance(app.focused, RosterTree)
        burst(app, "slash", "g", "r")
        await settle(pilot)
        assert search_problems(app, editor, "gr") == []
        assert editor.session is not None and editor.session.history == []


@run_async
async def test_f4_then_search_in_one_burst(make_app: MakeApp, workdir: Path) -> None:
    """``F4 /gro`` at once (tmux send-keys): the catalog takes the focus, ``/`` its search
    box, and ``gro`` filters the catalog to the groups."""
    app = make_app(copy_of(REGIMENT, workdir))
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        burst(app, "f4", "slash", "g", "r", "o")
        await settle(pilot)
        assert search_problems(app, editor, "gro") == []


@run_async
async def test_burst_into_a_dialog_and_back(make_app: MakeApp, workdir: Path) -> None:
    """A key that opens a dialog, then what is typed into it, then Esc and a pane key, all
    at once: the dialog's field gets the text, and the keys after Esc are the editor's."""
    app = make_app(copy_of(REGIMENT, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        # g: the summary (a modal screen); g again closes it; / and "gro" go to the search.
        burst(app, "g", "g", "slash", "g", "r", "o")
        await settle(pilot)
        assert search_problems(app, editor, "gro") == []


@run_async
async def test_paste_after_keys_keeps_its_place(make_app: MakeApp, workdir: Path) -> None:
    """A bracketed paste that arrives behind keys still being handled lands after them, in
    the field the keys moved the focus to."""
    app = make_app(copy_of(REGIMENT, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        burst(app, "slash", "g")
        paste = events.Paste("ro")
        paste.set_sender(app)
        app.post_message(paste)
        await settle(pilot)
        assert search_problems(app, editor, "gro") == []


# ----------------------------------------------------------------- the mechanism alone


class Vanishing(Static, can_focus=True):
    """A pane whose box is removed while it handles its first key: the key's marker then
    bubbles up to a box that is closing, so the marker never comes back to the app."""

    async def on_key(self, event: events.Key) -> None:
        event.stop()
        assert self.parent is not None
        self.parent.remove()
        await asyncio.sleep(0.05)  # the box starts closing meanwhile


class Probe(InOrderKeysApp[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "to_field", "Field")]

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Vanishing("gone on a key", id="vanishing")
        yield Input(id="field")

    def action_to_field(self) -> None:
        self.query_one("#field", Input).focus()


@run_async
async def test_keys_behind_a_lost_key_are_delivered() -> None:
    """The pane a key went to is removed before the key's marker comes back: the keys held
    behind it are let go after the fallback delay, in order, not kept for ever."""
    app = Probe()
    async with app.run_test(size=(40, 6)) as pilot:
        app.query_one("#vanishing").focus()
        await pilot.pause()
        burst(app, "x", "f2", "a", "b")
        field = app.query_one("#field", Input)
        await wait_for(pilot, lambda: field.value == "ab", timeout=10)
        assert not app.query("#vanishing")
        assert app.focused is field
        assert field.value == "ab"
        assert not app.keys_held
        assert app.key_fallbacks == 1, "the marker after x must be lost for this test"


@run_async
async def test_only_housekeeping_waiting_is_idle() -> None:
    """A widget with only Textual's housekeeping waiting in its queue (a prompt to paint, a
    layout) lets the next key go; one with any other message (a widget's own) holds it. The
    app reads the installed Textual's queue: were its messages out of reach, every key would
    wait for the frames of the one before it."""
    from textual import messages
    from textual.message import Message

    from armybuilder.tui.keys import _idle, _waiting

    class Ping(Message):
        """A widget's own message."""

    app = Probe()
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        field = app.query_one("#field", Input)
        assert _waiting(field._message_queue) is not None, "Textual's queue not read"
        assert _idle(field)
        field.post_message(messages.Prompt())
        field.post_message(messages.Layout(field))
        assert _idle(field), "housekeeping alone holds the next key"
        field.post_message(Ping())
        assert not _idle(field)
        await pilot.pause()
        assert _idle(field)


@run_async
async def test_pilot_press_and_the_mouse_still_work() -> None:
    """Keys pressed one at a time (Pilot waits after each) and a click are not held up."""
    app = Probe()
    async with app.run_test(size=(40, 6)) as pilot:
        field = app.query_one("#field", Input)
        await pilot.press("f2", *"hello")
        assert field.value == "hello"
        assert not app.keys_pending
        app.set_focus(None)
        await pilot.pause()
        assert await pilot.click("#field")
        assert app.focused is field
        burst(app, "end", *" you")
        await settle(pilot)
        assert field.value == "hello you"


@run_async
async def test_burst_through_a_field_and_back(make_app: MakeApp, workdir: Path) -> None:
    """``r`` (the Name field), a new name, Enter (back to the tree) and ``d`` (duplicate),
    all at once: the name is typed into the field, and ``d`` is the editor's again."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.press("down")
        await pilot.pause()
        assert editor.selected == ("selections", 0)
        burst(app, "r", "ctrl+u", *"Bravo", "enter", "d")
        await settle(pilot)
        s = editor.session
        assert s is not None
        assert s.history[0] == "Rename to Bravo", s.history
        assert len(s.history) == 2 and s.history[1].startswith("Duplicate"), s.history
        assert isinstance(app.focused, RosterTree)
        ev = s.evaluate()
        assert [ev.name(n) for n in ev.root.children[:2]] == ["Bravo", "2nd Bravo"]


@run_async
async def test_burst_into_the_find_palette(make_app: MakeApp, workdir: Path) -> None:
    """``f`` opens "find anywhere" (a screen pushed on top, its search field focused once
    it is built); the letters typed with it land in that field."""
    from textual.command import CommandInput

    app = make_app(copy_of(REGIMENT, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        burst(app, "f", "g", "r", "o")
        await settle(pilot)
        assert app.screen.id == "find-everywhere"
        field = app.screen.query_one(CommandInput)
        assert field.value == "gro"
        assert editor.session is not None and editor.session.history == []


@run_async
async def test_search_as_you_type_repaints_without_a_layout(
    make_app: MakeApp, workdir: Path, monkeypatch: Any
) -> None:
    """Each key typed into the catalog's search shows the filter and exactly its matches
    (issue 18: search as you type within a frame); a key that leaves the matches as they
    are (``gro`` → ``grou``) repaints the box and the tree without laying out the screen
    (Textual's input asked for a layout of every widget of the editor at each key)."""
    from textual.screen import Screen

    layouts: list[str] = []
    original = Screen._refresh_layout

    def counted(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(type(self).__name__)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    app = make_app(copy_of(REGIMENT, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        editor.catalog.search.focus()
        await pilot.pause()
        assert filtered_catalog(s, "gro") == filtered_catalog(s, "grou")
        for typed in ("g", "gr", "gro", "grou"):
            layouts.clear()
            await pilot.press(typed[-1])
            for _ in range(3):
                await pilot.pause(0.02)
            if len(typed) > 1:
                assert search_problems(app, editor, typed) == [], typed
        assert layouts == [], "a key that changes no match laid out the screen"
