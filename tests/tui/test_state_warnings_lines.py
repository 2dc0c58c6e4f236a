"""The campaign state's warnings under its field, as a person reads them: one a line.

Found at 160x48 in a real terminal on the Starship Marine regiment: Lt Col Hale's state typed
as ``{acitons: 3, foo: 1}`` showed, under the field,

    unknown campaign state key 'acitons'; did you mean
    'actions'? It is kept in the file but not used.;
    unknown campaign state key 'foo' (known keys: ...

each warning a sentence of its own run into the next with "; " (".;"), the second one's start
lost in the middle of a line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_async, wait_editor
from screen import pane_lines
from test_panes_say import copy_example, type_text
from test_screen_model import screen_problems, settle
from textual.widgets import Input

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.stable import LiveStatic

MakeApp = Callable[..., ArmyBuilderApp]


@run_async
async def test_each_state_warning_starts_its_own_line(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "starship-marine", "earther-regiment.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        hale = ("selections", 0, "selections", 0, "selections", 0)
        assert session.node(hale)["name"] == "Lt Col Hale"
        editor.jump_to(hale)
        await pilot.pause()
        field = editor.query_one("#d-state", Input)
        field.focus()
        await pilot.pause()
        field.value = ""
        await type_text(pilot, "{acitons: 3, foo: 1}")
        await pilot.press("enter")
        await settle(pilot, editor)
        assert session.node(hale)["state"] == {"acitons": 3, "foo": 1}
        why = editor.query_one("#d-state-why", LiveStatic)
        shown = pane_lines(app, why)
        text = " ".join(line.strip() for line in shown)
        assert "did you mean 'actions'?" in text and "unknown campaign state key 'foo'" in text
        # No sentence runs into the next: each warning begins a line of its own.
        assert ".;" not in text, shown
        starts = [line for line in shown if line.lstrip().startswith("unknown campaign state")]
        assert len(starts) == 2, shown
        assert screen_problems(app, editor) == []
