"""A worker's result never leaves the details pane stale or half-built (Pilot, headless).

The races are forced, not waited for: the evaluation a worker thread would deliver is handed to
the editor at the exact moment that used to go wrong (while the pane's drop-downs are being
mounted; after a newer evaluation has already been shown).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from textual.widget import AwaitMount, Widget
from textual.widgets import Input, Select

from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.stable import LiveStatic

#: Brother Deino of the standard squad: storm bolter and power fist.
DEINO = ("selections", 0, "selections", 3)
#: Brother Valencio, the squad's sergeant (other choice groups than a trooper).
SERGEANT = ("selections", 0, "selections", 0)


def choices(editor: EditorScreen) -> dict[str, Any]:
    return {s.name: s.value for s in editor.details.query(Select) if s.name}


@run_async
async def test_an_evaluation_arriving_while_drop_downs_mount(make_app: Any, workdir: Path) -> None:
    """The old pane filled a drop-down that was added but not yet mounted (it crashed with
    ``NoMatches`` inside the Select, intermittently on a busy machine); here the worker's
    result is delivered right between the drop-downs being added and their mounting."""
    path = workdir / "standard-squad.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "standard-squad.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        box = editor.details.query_one("#d-groups")
        original = box.mount_all
        delivered: list[bool] = []
        hidden: list[bool] = []

        def mount_all(widgets: list[Widget], **kw: Any) -> AwaitMount:
            waiting = original(widgets, **kw)  # added to the box, not mounted yet
            if not delivered:
                delivered.append(True)
                # A worker's evaluation arrives now (as call_from_thread would deliver it).
                editor._evaluated(session.generation, session.evaluate())
                # Nothing of the half-built drop-downs shows meanwhile.
                hidden.append(not box.display)
            return waiting

        box.mount_all = mount_all  # type: ignore[method-assign]
        editor.jump_to(DEINO)
        await wait_for(pilot, lambda: bool(delivered) and box.display)
        await pilot.pause()
        assert hidden == [True]
        assert choices(editor) == {
            "grp:terminator-ranged": "storm-bolter",
            "grp:terminator-melee": "power-fist",
            "grp:terminator-missiles": Select.NULL,
            "grp:terminator-shield": Select.NULL,
        }
        assert editor.details.query_one("#d-name", Input).placeholder == "Terminator"


@run_async
async def test_an_older_evaluation_never_replaces_a_newer_one(make_app: Any, workdir: Path) -> None:
    """An edit validated at once overtakes a slow worker: the worker's older result, arriving
    afterwards, must not put the count back."""
    path = workdir / "standard-squad.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "standard-squad.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        old_generation, old_ev = session.generation, session.evaluate()
        totals = editor.totals
        before = totals.plain
        editor.jump_to(DEINO)
        await pilot.press("delete")  # Brother Deino goes, validated at once
        await wait_for(pilot, lambda: totals.plain != before)
        assert editor.shown_generation == session.generation > old_generation
        after = totals.plain
        names = [c.get("name") for c in session.node(("selections", 0))["selections"]]
        assert "Brother Deino" not in names
        editor._evaluated(old_generation, old_ev)  # the slow worker's result, late
        assert totals.plain == after, (before, after, totals.plain)
        await pilot.pause()
        assert totals.plain == after, (before, after, totals.plain)
        assert "validating" not in totals.plain
        assert editor.shown_generation == session.generation


@run_async
async def test_a_build_for_a_node_left_is_dropped(make_app: Any, workdir: Path) -> None:
    """Moving on before a unit's drop-downs are mounted: the pane ends with the drop-downs of
    the unit shown now, filled from it, and the earlier build never shows."""
    path = workdir / "standard-squad.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "standard-squad.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        box = editor.details.query_one("#d-groups")
        editor.jump_to(DEINO)  # the build for Deino is scheduled...
        editor.jump_to(SERGEANT)  # ...and superseded before it runs
        await wait_for(pilot, lambda: box.display and bool(box.children))
        await pilot.pause()
        head = editor.details.query_one("#d-head", LiveStatic)
        assert head.plain.splitlines()[0] == "Sergeant Lorenzo"
        shown = choices(editor)
        assert sorted(v for v in shown.values() if v is not Select.NULL) == [
            "power-sword",
            "storm-bolter",
        ], shown
