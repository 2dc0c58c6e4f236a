"""A notification never covers the totals bar (Pilot).

(The editor shows its notices in slots drawn as toasts: see ``widgets/notices.py``.)

Textual shows notifications at the bottom right, just above the key bar: on the editor that
is the totals bar's row, and the toast's left edge fell inside it, so that after a save at 80
columns the bar read "Value 630 / 200 │ ✖ 1 error │ Models 2" (21 models, the "1" under the
toast) for the toast's five seconds. The painted totals row is checked while a toast shows.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import painted, totals_problems

from armybuilder.tui.widgets.notices import NoticeSlot


def _notices(app: Any) -> list[NoticeSlot]:
    """The editor's notices shown (its slots holding one)."""
    return [s for s in app.screen.query(NoticeSlot) if s.notice is not None]


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_a_toast_leaves_the_totals_bar_whole(
    make_app: Any, workdir: Path, size: tuple[int, int]
) -> None:
    path = workdir / "mi-squad.yaml"
    shutil.copy(EXAMPLES / "starship-troopers" / "mi-squad.yaml", path)
    app = make_app(path)
    async with app.run_test(size=size, notifications=True) as pilot:
        editor = await wait_editor(pilot)
        assert editor.session is not None
        editor.jump_to(("selections", 0))
        for key in ["plus", "plus", "ctrl+s"]:  # three squads, saved: "Saved …" shows
            await pilot.press(key)
            await pilot.pause()
        await wait_for(pilot, lambda: bool(_notices(app)))
        await wait_for(pilot, lambda: all(t.region for t in _notices(app)))
        await pilot.pause()
        rows = painted(app)
        bar = editor.totals.region
        row = rows[bar.y][bar.x : bar.right].strip()
        assert totals_problems(editor.session.evaluate(), [row]) == [], row
        # (the toast is there, above the bar)
        toasts = [t.region for t in _notices(app)]
        assert toasts and all(t.bottom <= bar.y for t in toasts), (toasts, bar)
