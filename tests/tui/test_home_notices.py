"""The home screen opens what it highlights (issue 12, item 6), and repeated notices are
coalesced (item 7)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import EXAMPLES, run_async, wait_editor, wait_for, wait_screen
from textual.widgets import OptionList

from armybuilder.catalog import Library
from armybuilder.session import EditSession, RecentFiles
from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]


@run_async
async def test_enter_on_home_opens_the_highlighted_recovery(
    make_app: MakeApp, full_library: Library, tmp_path: Path
) -> None:
    """With unsaved work listed first, Enter opens that work (it opened the first recent
    roster, listed below it)."""
    recent = tmp_path / "recent.yaml"
    recent.write_bytes((EXAMPLES / "space-hulk/standard-squad.yaml").read_bytes())
    RecentFiles().add(recent, "Recent squad", "space-hulk", "terminators")
    lost = EditSession.new(full_library, "demo-wars", "red-army", "Lost patrol")
    lost.add((), "captain")
    lost.journal.close()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, "home")
        await pilot.pause()
        focused = app.focused
        assert isinstance(focused, OptionList) and focused.id == "recover-list"
        await pilot.press("enter")
        editor = await wait_editor(pilot)
        assert editor.session is not None
        assert editor.session.name == "Lost patrol" and editor.session.is_new


@run_async
async def test_twenty_undos_leave_one_notice(make_app: MakeApp, tmp_path: Path) -> None:
    path = tmp_path / "squad.yaml"
    path.write_bytes((EXAMPLES / "space-hulk/standard-squad.yaml").read_bytes())
    app = make_app(path)
    # (notices shown, as in a terminal: Textual's tests hide them, and the count of those on
    # screen below read none)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.press("down")
        for _ in range(20):
            await pilot.press("d")
        await pilot.pause()
        for _ in range(20):
            await pilot.press("ctrl+z")
        await pilot.pause()
        assert editor.session is not None and not editor.session.can_undo
        await wait_for(pilot, lambda: len(app._notifications) > 0)
        texts = [str(n.message) for n in app._notifications]
        undone = [t for t in texts if t.startswith("Undone")]
        assert len(undone) == 1, texts
        # each duplicate is named next in its series, so each undo names another edit: the
        # notice counts the run and names the last one undone
        assert undone[0] == "Undone 20 edits in a row, the last: Duplicate 1st Squad", undone
        # The notices on screen (the editor's slots, see widgets/notices.py): one for the undos.
        shown = app.screen.notice_rack.shown
        assert shown and len(shown) <= 2, [n.message for n in shown]
        assert sum(n.message.startswith("Undone") for n in shown) == 1, [n.message for n in shown]
