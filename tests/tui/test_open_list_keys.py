"""Keys pressed while a drop-down's list is open (issue 18): they go to the list, not to the
roster behind it.

In tmux at 80x24, on a Gaslands car's Machine Gun with its Mounting list open (the footer
saying "esc Dismiss menu  insert Add  del Remove"): Insert swapped the mounting for the
catalog's highlighted one and Delete removed the Machine Gun, while the list stayed open,
now as the Mini-Gun's Mounting list, where Enter would have chosen for the Mini-Gun. Needs
the BattleScribe Gaslands data (../shared/bsdata); skipped with a message where it is
absent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_async, wait_editor, wait_for
from test_screen_model import settle
from test_walk_bsdata import BSDATA, GASLANDS, go_to
from textual.widgets import Select
from textual.widgets._select import SelectOverlay

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(),
    reason=f"the Gaslands BattleScribe data is not at {BSDATA / 'gaslands'}",
)

GUN = ("selections", 1, "selections", 0)  # the car's Machine Gun
#: Keys bound to editor actions that change the roster or the selection, none of them typed
#: into the list (printable keys search it).
KEYS = ["insert", "delete", "ctrl+z", "ctrl+y", "ctrl+up", "ctrl+down", "f8", "shift+f8"]


@run_async
async def test_editing_keys_wait_while_a_list_is_open(make_app: MakeApp, tmp_path: Path) -> None:
    path = tmp_path / "car.yaml"
    path.write_text(GASLANDS, encoding="utf-8")
    app = make_app(path, library=Library([BSDATA]).scan(), cwd=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        editor._edit(lambda s: s.set_notes(GUN, "x"))  # something to undo and redo
        await go_to(pilot, editor, GUN)
        assert editor.selected == GUN
        selects = [sel for sel in editor.details.query(Select) if sel.display and sel.region]
        assert selects, "the Machine Gun shows no drop-down"
        select = selects[0]
        select.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: select.expanded)
        overlay = select.query_one(SelectOverlay)
        lines = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
        history = list(s.history)
        for key in KEYS:
            await pilot.press(key)
            await settle(pilot, editor)
            assert s.history == history, (key, s.history)
            assert editor.selected == GUN, key
            assert select.expanded and app.focused is overlay, key
            now = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
            assert now == lines, key
        # The footer does not offer them while the list is open.
        keys = {k for k, b in app.screen.active_bindings.items() if b.enabled}
        assert not keys & {"insert", "delete"}, keys
        await pilot.press("escape")
        await pilot.pause()
        assert not select.expanded
        # Closed, the keys act on the roster again: Delete removes the Machine Gun.
        await pilot.press("delete")
        await settle(pilot, editor)
        assert len(s.history) == len(history) + 1, s.history
