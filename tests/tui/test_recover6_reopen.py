"""Unsaved edits are offered back whichever way the player comes back to the roster (DESIGN.md,
"Files are sacred"; docs/files.md, "Recovery"): a process editing a roster is killed
(SIGKILL), then the roster is reopened in the builder (Pilot, headless) the way a player does:
``armybuilder FILE``, ``armybuilder --catalogs DIR FILE``, the home screen's recent list, its
"Unsaved work to recover" list, the Open dialog. The recovery dialog's painted text offers the
edits, Recover brings them back, and saving writes the bytes the killed session would have.

A BattleScribe ``.ros``/``.rosz`` saves as the YAML beside it, and its journal was filed under
that YAML: reopening the ``.ros`` (on the command line, with the Open dialog) offered nothing,
the recent list did not list it, and the home screen's list reopened the YAML, which does not
exist: "The file itself cannot be read", and "the file has changed on disk" though nothing had.
A second builder on the same roster recovering the edits of the first (still running) deleted
the first's journal: killed in turn, its edits were gone.

A tiny BattleScribe system made here (one unit the data does not hold, kept in the ``.ros``
as BattleScribe wrote it), so the tests need no shared data and take about a second each.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for, wait_screen
from screen import pane_lines
from textual.widgets import Input, OptionList

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.session import EditSession, find_recoveries
from armybuilder.session.journal import list_recoveries

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-r6" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries><categoryEntry id="troops" name="Troops"/></categoryEntries>
  <forceEntries>
    <forceEntry id="f1" name="Army">
      <categoryLinks><categoryLink id="fl1" targetId="troops"/></categoryLinks>
    </forceEntry>
  </forceEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-r6" name="Army" gameSystemId="sys-r6" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="u-squad" name="Squad" type="unit">
      <categoryLinks><categoryLink id="c1" targetId="troops" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="10"/></costs>
    </selectionEntry>
    <selectionEntry id="u-walker" name="Walker" type="model">
      <costs><cost name="pts" typeId="pts" value="30"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

TEAM = """format: 1
system: tiny
faction: army
name: Team
selections:
  - entry: u-squad
  - entry: u-walker
"""

#: The terminal's size (the smallest the builder is laid out for: the least to paint).
SIZE = (80, 24)

#: A selection of an entry the data does not hold: the converted roster keeps it as written.
GHOST = '<selection id="odd-1" name="Ghost" entryId="nowhere" number="1" type="unit"/>'


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("data") / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def lib(tiny: Path) -> Library:
    found = Library([tiny], use_cache=False).scan()
    assert not found.problems, found.problems
    return found


def roster_file(lib: Library, folder: Path, kind: str) -> Path:
    """The roster the killed process edits: ``team.yaml``, or ``team.ros`` / ``team.rosz``
    (with a selection the data does not hold)."""
    from armybuilder.interop.battlescribe.rosfile import to_ros, to_rosz

    if kind == ".yaml":
        path = folder / "team.yaml"
        path.write_text(TEAM, encoding="utf-8")
        return path
    xml = to_ros(Roster.from_text(TEAM, "team"), lib)
    lines = xml.splitlines()
    at = next(i for i, line in enumerate(lines) if 'name="Walker"' in line)
    lines.insert(at, " " * (len(lines[at]) - len(lines[at].lstrip())) + GHOST)
    xml = "\n".join(lines) + "\n"
    path = folder / f"team{kind}"
    if kind == ".ros":
        path.write_text(xml, encoding="utf-8")
    else:
        rosz = to_rosz(Roster.from_text(TEAM, "team"), lib, "team.ros")
        import io
        import zipfile

        with zipfile.ZipFile(io.BytesIO(rosz)) as z:
            name = z.namelist()[0]
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(name, xml)
        path.write_bytes(buf.getvalue())
    return path


def edit(s: EditSession) -> None:
    """What the player did before the crash: a unit added, a count, a rename."""
    s.add((), "u-walker")
    s.set_count(("selections", 0), 3)
    s.rename((), "Team after the crash")


def killed_while_editing(
    lib: Library, opener: Callable[[], EditSession], expected: Path, *, kill: bool = True
) -> int:
    """A process (forked) opens a session, edits it, writes what it would save to
    ``expected`` and waits; it is then killed with SIGKILL (unless ``kill``: left running,
    the caller kills it). Returns its pid."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the editing process
        os.close(read)
        try:
            session = opener()
            edit(session)
            expected.write_text(session.roster.dumps(), encoding="utf-8")
            os.write(write, b"edited\n")
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        line = pipe.readline()
    if kill or line != b"edited\n":
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert line == b"edited\n", "the editing process failed before its edits were made"
    return pid


def dialog_text(app: Any) -> str:
    """The recovery dialog's message as painted (its rows joined, spaces folded)."""
    message = app.screen.query_one(".dialog-message")
    return " ".join(" ".join(r.split()) for r in pane_lines(app, message) if r.strip())


def list_text(app: Any, listed: OptionList) -> str:
    """A list's rows as painted (joined, spaces folded)."""
    return " ".join(" ".join(r.split()) for r in pane_lines(app, listed) if r.strip())


async def open_by(way: str, app: Any, pilot: Any, path: Path) -> None:
    """Reopen ``path`` on the running ``app`` (started without a file) the way a player does."""
    await wait_screen(pilot, "home")
    await pilot.pause()
    if way == "open-dialog":
        await pilot.press("o")
        await wait_screen(pilot, "open")
        field = app.screen.query_one("#path-input", Input)
        field.value = str(path)
        field.focus()
        await pilot.press("enter")
    elif way in ("recent", "recover-list"):
        listed = app.screen.query_one(
            "#recent-list" if way == "recent" else "#recover-list", OptionList
        )
        rows = list_text(app, listed)
        assert path.name in rows, rows  # (the file opened, not the YAML it saves as)
        index = next(
            i
            for i in range(listed.option_count)
            if path.name in str(listed.get_option_at_index(i).prompt)
        )
        listed.focus()
        listed.highlighted = index
        await pilot.pause()
        await pilot.press("enter")
    else:
        raise AssertionError(way)


def make(way: str, path: Path, tiny: Path, lib: Library, cwd: Path) -> Any:
    from armybuilder.tui.app import ArmyBuilderApp, build_app
    from armybuilder.tui.settings import Settings

    if way == "argv":  # armybuilder FILE
        return ArmyBuilderApp(path, library=lib, cwd=cwd, settings=Settings())
    if way == "catalogs":  # armybuilder --catalogs DIR FILE
        return build_app(path, [tiny], cwd=cwd, settings=Settings())
    return ArmyBuilderApp(None, library=lib, cwd=cwd, settings=Settings())


async def recover_and_save(app: Any, pilot: Any, expected: str, saved: Path) -> str:
    """Recover on the dialog shown, check the roster is the one lost, save it (Ctrl+S; a
    converted roster to the YAML beside it): returns the dialog's painted text."""
    await wait_screen(pilot, "recover")
    shown = dialog_text(app)
    await pilot.click("#recover")
    editor = await wait_editor(pilot, timeout=20)
    s = editor.session
    assert s is not None and s.dirty
    assert s.name == "Team after the crash"
    assert s.roster.dumps() == expected
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: not s.dirty, timeout=10)
    assert saved.read_bytes() == expected.encode("utf-8")
    return shown


WAYS = [
    (".ros", "argv"),
    (".ros", "catalogs"),
    (".rosz", "open-dialog"),
    (".rosz", "recover-list"),
    (".ros", "recent"),
]


@pytest.mark.parametrize(("kind", "way"), WAYS)
@run_async
async def test_the_edits_are_offered_whichever_way_the_roster_is_reopened(
    tiny: Path, lib: Library, tmp_path: Path, kind: str, way: str
) -> None:
    path = roster_file(lib, tmp_path, kind)
    before = path.read_bytes()
    if way == "recent":  # opened in the builder before (which lists it as recent)
        first = make("argv", path, tiny, lib, tmp_path)
        async with first.run_test(size=SIZE) as pilot:
            await wait_editor(pilot, timeout=20)
    expected = tmp_path / "expected.txt"
    killed_while_editing(lib, lambda: EditSession.open(path, lib), expected)
    want = expected.read_text(encoding="utf-8")
    if kind != ".yaml":
        assert GHOST.split()[0] in want and "name: Ghost" in want  # (kept as BattleScribe wrote it)
    app = make(way, path, tiny, lib, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        if way not in ("argv", "catalogs"):
            await open_by(way, app, pilot, path)
        shown = await recover_and_save(app, pilot, want, path.with_suffix(".yaml"))
    assert "Team has 3 unsaved edits from" in shown, shown
    assert "changed on disk" not in shown and "cannot be read" not in shown, shown
    if kind != ".yaml":
        assert path.read_bytes() == before  # (a .ros is never written)
    assert list_recoveries() == []


@pytest.mark.parametrize("kind", [".yaml", ".ros"])
@run_async
async def test_a_file_changed_on_disk_since_is_said_and_neither_is_lost(
    tiny: Path, lib: Library, tmp_path: Path, kind: str
) -> None:
    """Another program saved the roster after the edits began (BattleScribe the .ros, a text
    editor the YAML): the offer names the file that changed; the edits recovered save as
    they were, and the other program's version is not written over unasked (a .ros never;
    a YAML is kept aside once the player says to replace it)."""
    path = roster_file(lib, tmp_path, kind)
    expected = tmp_path / "expected.txt"
    killed_while_editing(lib, lambda: EditSession.open(path, lib), expected)
    want = expected.read_text(encoding="utf-8")
    theirs = path.read_bytes().replace(b"Team", b"Their team")
    path.write_bytes(theirs)
    app = make("argv", path, tiny, lib, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_screen(pilot, "recover")
        shown = dialog_text(app)
        assert f"{path.name} has changed on disk since" in shown, shown
        await pilot.click("#recover")
        editor = await wait_editor(pilot, timeout=20)
        s = editor.session
        assert s is not None and s.dirty and s.roster.dumps() == want
        await pilot.press("ctrl+s")
        if kind == ".yaml":
            await wait_screen(pilot, "changed-on-disk")
            assert path.read_bytes() == theirs
            await pilot.click("#overwrite")
        await wait_for(pilot, lambda: not s.dirty, timeout=10)
    assert path.with_suffix(".yaml").read_bytes() == want.encode("utf-8")
    if kind == ".yaml":
        kept = sorted(tmp_path.glob("team.yaml.replaced-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == theirs
    else:
        assert path.read_bytes() == theirs


@pytest.mark.parametrize("kind", [".yaml", ".ros"])
@run_async
async def test_a_second_builder_does_not_take_the_journal_of_one_still_running(
    tiny: Path, lib: Library, tmp_path: Path, kind: str
) -> None:
    """Builder A edits the roster and still runs; builder B opens the roster: the offer says A
    still runs. B recovering A's edits (a copy) leaves A's journal in place: A killed later,
    its edits are offered again."""
    path = roster_file(lib, tmp_path, kind)
    expected = tmp_path / "expected.txt"
    pid = killed_while_editing(lib, lambda: EditSession.open(path, lib), expected, kill=False)
    try:
        want = expected.read_text(encoding="utf-8")
        (journal,) = [i.journal for i in list_recoveries() if i.pid == pid]
        app = make("argv", path, tiny, lib, tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await wait_screen(pilot, "recover")
            shown = dialog_text(app)
            assert f"process {pid} that wrote them still runs" in shown, shown
            await pilot.click("#recover")
            editor = await wait_editor(pilot, timeout=20)
            assert editor.session is not None and editor.session.roster.dumps() == want
            editor.session.close()  # (B is closed without saving: its own copy goes)
        assert journal.exists()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    (info,) = find_recoveries(path)
    assert info.journal == journal and not info.other_process_alive
    again = EditSession.recover(info, Library([tiny], use_cache=False).scan())
    assert again.roster.dumps() == want


@run_async
async def test_a_ros_saved_as_yaml_and_edited_again_is_offered_on_reopening_the_ros(
    tiny: Path, lib: Library, tmp_path: Path
) -> None:
    """The player opened team.ros, saved it (team.yaml), edited more and the builder was
    killed; ``armybuilder team.ros`` again (the command in their shell's history) offers
    those edits, which come back on team.yaml and save there."""
    path = roster_file(lib, tmp_path, ".ros")
    before = path.read_bytes()
    expected = tmp_path / "expected.txt"

    def saved_then_edited() -> EditSession:
        s = EditSession.open(path, lib)
        s.save()
        return s

    killed_while_editing(lib, saved_then_edited, expected)
    want = expected.read_text(encoding="utf-8")
    yaml = path.with_suffix(".yaml")
    assert yaml.read_bytes() != want.encode("utf-8")
    app = make("argv", path, tiny, lib, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        shown = await recover_and_save(app, pilot, want, yaml)
        assert app.screen.sub_title == "team.yaml"  # (the roster lost was team.yaml's)
    assert "Team has 3 unsaved edits from" in shown, shown
    assert "changed on disk" not in shown, shown
    assert path.read_bytes() == before
    assert list_recoveries() == []


def test_a_journal_whose_pid_another_program_got_since_is_not_taken_as_running(
    lib: Library, tmp_path: Path
) -> None:
    """The builder was killed and its pid given to another program since (after a restart,
    a pid comes round again): the journal was taken as one of a builder still running, left
    out of the home screen's list and offered with "still runs" (which, as the journal of a
    running builder, recovering no longer removes: offered forever). The running builder
    holds a lock on its journal; a process of that pid without it is another program."""
    import json
    import subprocess
    import sys

    path = roster_file(lib, tmp_path, ".yaml")
    killed_while_editing(lib, lambda: EditSession.open(path, lib), tmp_path / "expected.txt")
    (info,) = list_recoveries()
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        head, rest = info.journal.read_text(encoding="utf-8").split("\n", 1)
        data = json.loads(head)
        data["pid"] = other.pid
        info.journal.write_text(json.dumps(data) + "\n" + rest, encoding="utf-8")
        (again,) = list_recoveries()
        assert again.pid == other.pid
        assert not again.other_process_alive
    finally:
        other.kill()
        other.wait()
