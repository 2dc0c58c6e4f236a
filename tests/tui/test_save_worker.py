"""Saving a large roster without freezing the builder (issue 17): the file is written in a
worker thread, the screen goes on (timers, painting, its title says "saving…"), keys typed
meanwhile wait and then go on in order (never applied to a roster half written), and what
comes after the save (quitting) waits for the file.

Each test holds the save in its thread at a gate (:class:`Gate`) until it has looked at the
app, so nothing here depends on how fast the machine is."""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import regiment_roster
from conftest import run_async, wait_editor, wait_for, wait_screen
from screen import painted
from textual import events
from textual.pilot import Pilot

from armybuilder import rosters
from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.session import EditSession
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


@pytest.fixture(scope="module")
def regiment() -> str:
    """The benchmark's regiment with two companies per battalion (30 platoons, about
    60 KB): large enough to be saved in the background."""
    text = regiment_roster(companies=2)
    assert len(text) > EditorScreen.BACKGROUND_SAVE_CHARS
    return text


class Gate:
    """Holds :meth:`Roster.write_save` (the dump and the write) until :attr:`go` is set."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.go = threading.Event()
        self.threads: list[threading.Thread] = []


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    g = Gate()
    write = Roster.write_save

    def held(self: Roster, *args: Any, **kwargs: Any) -> Any:
        g.threads.append(threading.current_thread())
        g.entered.set()
        assert g.go.wait(30)
        return write(self, *args, **kwargs)

    monkeypatch.setattr(Roster, "write_save", held)
    yield g
    g.go.set()  # (a test that failed must not leave a thread waiting)


async def open_regiment(
    pilot: Pilot[Any], path: Path, regiment: str
) -> tuple[EditorScreen, EditSession]:
    """The editor of the regiment written to ``path``, once its roster is loaded."""
    editor = await wait_editor(pilot, timeout=30)
    s = editor.session
    assert s is not None and s.path == path
    return editor, s


def notices(app: Any) -> list[str]:
    """Every message ``app`` notifies from now on (a notice may have gone from the screen
    by the time a busy machine lets the test look)."""
    said: list[str] = []
    notify = app.notify

    def spy(message: str, *args: Any, **kwargs: Any) -> None:
        said.append(str(message))
        notify(message, *args, **kwargs)

    app.notify = spy
    return said


def rename(editor: EditorScreen, loc: tuple[str | int, ...], name: str) -> None:
    assert editor._edit(lambda s: s.rename(loc, name))


def saved_synchronously(
    folder: Path, regiment: str, library: Library, edit: Callable[[EditSession], object]
) -> bytes:
    """The bytes a plain ``EditSession.save`` writes for the regiment after ``edit``."""
    folder.mkdir()
    path = folder / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")
    s = EditSession.open(path, library, lazy=False, autosave=False)
    edit(s)
    s.save()
    s.close()
    return path.read_bytes()


@run_async
async def test_the_app_goes_on_while_the_regiment_is_written(
    make_app: MakeApp,
    workdir: Path,
    tmp_path: Path,
    full_library: Library,
    regiment: str,
    gate: Gate,
) -> None:
    path = workdir / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, s = await open_regiment(pilot, path, regiment)
        rename(editor, ("selections", 7), "Renamed in the builder")
        await pilot.pause()
        assert s.dirty
        said = notices(app)
        await pilot.press("ctrl+s")
        await wait_for(pilot, gate.entered.is_set, timeout=30)
        # The save waits at the gate, in a thread of its own; meanwhile the app goes on.
        assert gate.threads[0] is not threading.current_thread()
        assert s.saving and editor.sub_title == "regiment.yaml — saving…"
        ticks: list[int] = []
        app.set_timer(0.01, lambda: ticks.append(1))
        await wait_for(pilot, lambda: bool(ticks), timeout=30)
        await pilot.pause()
        assert "regiment.yaml — saving…" in painted(app)[0]  # the header says so
        assert path.read_text(encoding="utf-8") == regiment  # nothing written yet
        gate.go.set()
        await wait_for(pilot, lambda: not s.saving, timeout=30)
        assert not s.dirty
        assert editor.sub_title == "regiment.yaml"
        assert f"Saved {path}" in said
    expected = saved_synchronously(
        tmp_path / "sync",
        regiment,
        full_library,
        lambda s: s.rename(("selections", 7), "Renamed in the builder"),
    )
    assert path.read_bytes() == expected
    assert "Renamed in the builder" in path.read_text(encoding="utf-8")
    assert path.with_name("regiment.yaml.bak").read_text(encoding="utf-8") == regiment


@run_async
async def test_keys_typed_during_the_save_go_on_after_it_in_order(
    make_app: MakeApp, workdir: Path, regiment: str, gate: Gate
) -> None:
    path = workdir / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, s = await open_regiment(pilot, path, regiment)
        rename(editor, ("selections", 0), "Saved name")
        editor.jump_to(("selections", 0))
        editor.roster_tree.focus()
        await pilot.pause()
        top = len(s.roster.doc["selections"])
        history = s.history
        await pilot.press("ctrl+s")
        await wait_for(pilot, gate.entered.is_set)
        await pilot.press("down", "d")  # to the next platoon, and duplicate it
        await pilot.pause(0.1)
        # Held: the roster being written is not touched, the cursor has not moved.
        assert len(s.roster.doc["selections"]) == top and s.history == history
        assert editor.selected == ("selections", 0)
        gate.go.set()
        await wait_for(pilot, lambda: len(s.roster.doc["selections"]) == top + 1, timeout=30)
        await pilot.pause()
        assert s.history == [*history, s.history[-1]]
        assert s.undo_label is not None and s.undo_label.startswith("Duplicate")
        doc = s.roster.doc["selections"]
        assert doc[2]["entry"] == doc[1]["entry"] != doc[0].get("name")  # the second's copy
        assert s.dirty  # the duplicate came after the save: not in the file
        assert not s.saving
    on_disk = Roster.from_file(path).doc["selections"]
    assert len(on_disk) == top and on_disk[0]["name"] == "Saved name"


@run_async
async def test_quit_after_save_waits_for_the_file(
    make_app: MakeApp, workdir: Path, regiment: str, gate: Gate
) -> None:
    path = workdir / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, _ = await open_regiment(pilot, path, regiment)
        rename(editor, ("selections", 3), "Saved on the way out")
        await pilot.press("ctrl+q")
        await wait_screen(pilot, "confirm-close")
        await pilot.click("#save")
        await wait_for(pilot, gate.entered.is_set)
        await pilot.pause(0.1)
        assert app.is_running and not editor.closed  # not before the file is written
        assert path.read_text(encoding="utf-8") == regiment
        gate.go.set()
        await wait_for(pilot, lambda: not app.is_running, timeout=30)
    assert Roster.from_file(path).doc["selections"][3]["name"] == "Saved on the way out"


@run_async
async def test_a_failed_background_save_says_so_and_keeps_the_edits(
    make_app: MakeApp, workdir: Path, regiment: str, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = workdir / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(rosters, "_atomic_write", full)
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, s = await open_regiment(pilot, path, regiment)
        rename(editor, ("selections", 3), "Not saved")
        quits: list[int] = []
        editor.save(lambda: quits.append(1))
        await wait_for(pilot, gate.entered.is_set)
        gate.go.set()
        await wait_for(pilot, lambda: not s.saving, timeout=30)
        await pilot.pause()
        assert any("Could not save" in str(n.message) for n in app._notifications)
        assert not quits  # (the quit after the save does not happen)
        assert s.dirty and s.roster.doc["selections"][3]["name"] == "Not saved"
        assert editor.sub_title == "regiment.yaml — unsaved changes"
        editor.jump_to(("selections", 0))
        editor.roster_tree.focus()
        await pilot.press("d")  # the keys are not held any more
        await wait_for(pilot, lambda: (s.undo_label or "").startswith("Duplicate"))
    assert path.read_text(encoding="utf-8") == regiment


@run_async
async def test_a_file_changed_on_disk_still_asks_first(
    make_app: MakeApp, workdir: Path, regiment: str
) -> None:
    path = workdir / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, s = await open_regiment(pilot, path, regiment)
        rename(editor, ("selections", 3), "Mine")
        theirs = regiment.replace("\nname: ", "\nname: Theirs ", 1)
        assert theirs != regiment
        path.write_text(theirs, encoding="utf-8")
        await pilot.press("ctrl+s")
        await wait_screen(pilot, "changed-on-disk")
        assert not s.saving and s.dirty
        assert path.read_text(encoding="utf-8") == theirs
        await pilot.click("#overwrite")
        await wait_for(pilot, lambda: app.screen is editor and not s.dirty, timeout=30)
    assert Roster.from_file(path).doc["selections"][3]["name"] == "Mine"
    assert any(p.name.startswith("regiment.yaml.replaced-") for p in workdir.iterdir())


async def click_as_terminal(pilot: Pilot[Any], x: int, y: int) -> None:
    """A click as the terminal reports it: a button pressed and let go, read by the app
    (Pilot's ``click`` hands its events to the screen, past the app)."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for cls in (events.MouseDown, events.MouseUp):
        event = cls(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y)
        event.set_sender(app)
        driver.send_message(event)
        await pilot.pause()


@run_async
async def test_a_click_during_the_save_is_refused_with_a_notice(
    make_app: MakeApp, workdir: Path, regiment: str, gate: Gate
) -> None:
    path = workdir / "regiment.yaml"
    path.write_text(regiment, encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor, s = await open_regiment(pilot, path, regiment)
        rename(editor, ("selections", 3), "Mine")
        editor.jump_to(("selections", 0))
        await pilot.pause()
        tree = editor.roster_tree.region
        rows = [tree.y + 2, tree.y + 4]
        await click_as_terminal(pilot, tree.x + 6, rows[0])
        await wait_for(pilot, lambda: editor.selected != ("selections", 0))
        picked = editor.selected  # (a click acts, outside a save)
        await pilot.press("ctrl+s")
        await wait_for(pilot, gate.entered.is_set)
        await click_as_terminal(pilot, tree.x + 6, rows[1])
        await pilot.pause(0.1)
        assert any("click again" in str(n.message) for n in app._notifications)
        assert editor.selected == picked
        gate.go.set()
        await wait_for(pilot, lambda: not s.saving, timeout=30)
        await pilot.pause(0.1)
        assert editor.selected == picked  # refused, not kept for later
        await click_as_terminal(pilot, tree.x + 6, rows[1])
        await wait_for(pilot, lambda: editor.selected != picked)
