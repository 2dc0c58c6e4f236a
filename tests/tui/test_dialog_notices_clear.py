"""A notice raised in a dialog never covers the field being typed in.

Found at 80x24 in a real terminal (tmux) on a new Starship Troopers roster: in the Define a
unit form (``u``), which fills the screen there, Ctrl+S with a Move of ``x`` said "Not added
yet: move: move 'x' should be a distance in inches" in a toast at the bottom right, over the
right half of the Close Combat field the cursor was in:

     u█   Damage dice rolled at point blank▌
     T█▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▌ Not added yet: move: move 'x' should
      Infantry's          ▕                 ▌ be a distance in inches, such as 4"

A dialog's notices now show at the top where at the bottom they would cover the focused
field (the editor's own notices take the other side, ``test_notices_clear_of_field.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_async, wait_editor, wait_for
from screen import painted
from test_panes_say import copy_example
from textual.widgets import Input
from textual.widgets._toast import Toast

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.unitform import UnitFormScreen

MakeApp = Callable[..., ArmyBuilderApp]


@run_async
async def test_a_dialog_notice_leaves_the_focused_field_clear(
    make_app: MakeApp, workdir: Path
) -> None:
    path = copy_example(workdir, "starship-troopers", "mi-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_editor(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, UnitFormScreen))
        form = app.screen
        assert isinstance(form, UnitFormScreen)
        await pilot.press(*"Scout")
        fields = [
            i
            for i in form.query(Input)
            if (i.name or "").startswith("char:") and i.display and i.parent.display  # type: ignore[union-attr]
        ]
        move = next(i for i in fields if i.name and i.name.endswith(":move"))
        move.value = "x"
        # Tab on from Move, as a player does, to a field the form scrolls into its last rows,
        # where the notices show.
        move.focus()
        await pilot.pause()
        height = app.screen.size.height
        for _ in range(12):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            if isinstance(focused, Input) and focused.region.bottom >= height - 5:
                break
        focused = app.focused
        assert isinstance(focused, Input) and focused.region.bottom >= height - 5
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(form.query(Toast)))
        await wait_for(pilot, lambda: all(t.region for t in form.query(Toast)))
        await pilot.pause()
        assert isinstance(app.screen, UnitFormScreen)  # refused: the form stays
        toasts = list(form.query(Toast))
        assert any("Not added yet" in str(t.render()) for t in toasts)
        field = focused.region
        for toast in toasts:
            assert not toast.region.overlaps(field), (toast.region, field)
        # As painted: the focused field's rows show none of the notice.
        rows = painted(app)
        for y in range(field.y, field.bottom):
            assert "Not added yet" not in rows[y] and "distance in inches" not in rows[y], rows[y]
        assert any("Not added yet" in row for row in rows)
        # The focus going back up to the name (the form scrolled to its top): the notice
        # shown moves back to the bottom, clear of the name field.
        name = form.query_one("#u-name", Input)
        name.focus()
        await pilot.pause()
        await pilot.pause()
        assert app.focused is name and name.region.y < 5
        for toast in form.query(Toast):
            assert not toast.region.overlaps(name.region), (toast.region, name.region)
