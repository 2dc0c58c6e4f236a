"""The catalog's preview shows the highlighted entry from the first frame of a loaded roster.

A roster named on the command line is read in a worker while the editor shows "loading" (the
panes hidden, so not laid out). When it arrived, the catalog tree had no size yet: the cursor
and the preview waited for the next refresh, so the first frame that showed the roster had a
blank preview box under the catalog (in a real terminal it stayed blank for a moment, longer on
a busy machine, until the cursor moved). Every frame that shows the roster is compared here with
the preview of the entry the catalog highlights without a key, as the session words it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from rich.console import Console
from screen import catalog_target, painted, pane_lines, search_hits

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.catalog import preview


def expected_preview(app: ArmyBuilderApp, editor: EditorScreen, width: int) -> list[str]:
    """The preview of the entry highlighted without a key (the first option the catalog
    lists for the selection), with the session's costs and limits, wrapped at ``width``."""
    session = editor.session
    assert session is not None
    target = catalog_target(session, editor.selected)
    ev = session.evaluation or session.evaluate()
    options = search_hits(session, target)
    first = editor.catalog.first_match()
    # (the catalog lists by section: its first row is an option of the session's)
    child = next(c for c in options if c.entry.id == first)
    infos = {i.entry_id: i for i in session.option_infos(target, ev)}
    groups = session.group_limits(target, ev)
    group = groups.get(child.group.id) if child.group is not None else None
    console = Console(width=width, color_system=None, legacy_windows=False)
    options_ = console.options.update(width=width)
    lines = console.render_lines(
        preview(session.index, child, infos.get(child.entry.id), group), options_, pad=False
    )
    return ["".join(seg.text for seg in line).rstrip() for line in lines]


@pytest.mark.parametrize(
    ("roster", "size"),
    [
        ("starship-marine/earther-regiment.yaml", (80, 24)),
        ("starship-marine/earther-regiment.yaml", (160, 48)),
        ("space-hulk/standard-squad.yaml", (80, 24)),
    ],
)
@run_async
async def test_the_first_frame_shows_the_highlighted_entrys_preview(
    make_app: Any,
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    roster: str,
    size: tuple[int, int],
) -> None:
    path = workdir / Path(roster).name
    shutil.copy(EXAMPLES / roster, path)
    app = make_app(path)
    frames: list[tuple[list[str], list[str]]] = []

    def record() -> None:
        screen = app.screen
        if (
            isinstance(screen, EditorScreen)
            and screen.session is not None
            and not screen.query_one("#editor-body").loading
            and screen.roster_tree.region
        ):
            box = screen.query_one("#catalog-preview-scroll")
            rows = painted(app)
            frames.append((rows, pane_lines(app, box, rows)))

    display = app._display

    def spy(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            record()
        display(screen, renderable)

    monkeypatch.setattr(app, "_display", spy)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        await wait_for(pilot, lambda: bool(frames))
        await pilot.pause()
        box = editor.query_one("#catalog-preview-scroll")
        width = box.scrollable_content_region.width
        want = expected_preview(app, editor, width)
        assert want and want[0], "no preview for the highlighted entry"
        # The entry highlighted is the first the catalog lists, without any key.
        assert editor.catalog.highlighted() == editor.catalog.first_match()
    assert frames
    # Every frame shows the highlighted entry's preview, from the first: its words, in order
    # (the first frame may wrap them a column wider: the box's scrollbar, for a preview
    # taller than the box, comes with the layout after it) ...
    words = " ".join(want).split()
    for n, (rows, shown) in enumerate(frames):
        seen = " ".join(shown).split()
        assert seen and seen == words[: len(seen)], (
            f"frame {n}: preview {shown!r}, want {want!r}\n" + "\n".join(rows)
        )
    # ... and the settled frame shows its lines as the session words them.
    rows, shown = frames[-1]
    assert shown[: len(want)] == want[: len(shown)], "\n".join(rows)
    assert not any(shown[len(want) :]), "\n".join(rows)  # (blank below a short preview)
