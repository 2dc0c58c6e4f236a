"""The catalog's title keeps the search's filter whole (a player walk: at 160x48 a roster
named "New Xenos - Orks roster" showed "Add to: New Xenos - Orks roster · filter", the
typed 'Warboss' lost past the edge): on a line too narrow for the whole title, the
``Add to: <name>`` part is cut with "…", never the filter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from rich.text import Text
from screen import painted, pane_lines
from textual.pilot import Pilot

from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.catalog import TitleStatic, _cut, fit_title

PLATOON = EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"
LONG_NAME = "Rifle platoon of the Ninth Lowland Regiment, Second Company"


async def settled(pilot: Pilot[Any], editor: EditorScreen) -> None:
    s = editor.session
    assert s is not None
    await pilot.pause()
    await wait_for(
        pilot,
        lambda: editor.shown_generation == s.generation and not editor._eval_running,
        timeout=30,
    )
    await pilot.pause()


def wanted(name: str, query: str, width: int) -> str:
    """What the title must say in ``width`` cells: whole if it fits, else the name cut
    with "…" before the whole filter."""
    tail = f" · filter '{query}'" if query else ""
    whole = f"Add to: {name}{tail}"
    if len(whole) <= width:
        return whole
    if not tail:
        return whole[: width - 1].rstrip() + "…"
    head = f"Add to: {name}"[: width - len(tail) - 1].rstrip() + "…"
    return head + tail


@run_async
async def test_the_filter_typed_shows_whole_in_the_title(make_app: Any, tmp_path: Path) -> None:
    path = tmp_path / PLATOON.name
    path.write_text(
        PLATOON.read_text(encoding="utf-8").replace("name: Rifle platoon", f"name: {LONG_NAME}"),
        encoding="utf-8",
    )
    for size in [(160, 48), (80, 24), (120, 40)]:
        app = make_app(path)
        async with app.run_test(size=size) as pilot:
            editor = await wait_editor(pilot)
            await settled(pilot, editor)
            catalog = editor.catalog
            title = catalog.query_one("#catalog-title", TitleStatic)
            assert catalog.title_text.startswith("Add to: "), catalog.title_text
            name = catalog._target_name
            assert name == LONG_NAME, name
            catalog.search.focus()
            typed = ""
            for key in [*"Rifle", "space", *"man", "backspace", "escape"]:
                await pilot.press(key)
                typed = "" if key == "escape" else typed[:-1] if key == "backspace" else typed
                if key not in ("escape", "backspace"):
                    typed += " " if key == "space" else key
                await settled(pilot, editor)
                rows = pane_lines(app, title, painted(app))
                width = title.size.width  # (the catalog widens with the focus at 80x24)
                want = wanted(name, typed.strip(), width)
                assert rows[0].rstrip() == want, (size, key, rows[0], want)
                assert catalog.title_text == want, (size, key)
                if typed.strip():
                    assert f"filter '{typed.strip()}'" in rows[0], (size, key, rows[0])


def test_a_title_is_cut_before_its_kept_end() -> None:
    text = Text("Add to: New Xenos - Orks roster")
    text.append(" · filter 'Warboss'", "yellow")
    keep = len(" · filter 'Warboss'")
    assert fit_title(text, 60, keep) is text
    assert fit_title(text, 44, keep).plain == "Add to: New Xenos - Orks… · filter 'Warboss'"
    assert fit_title(text, 29, keep).plain == "Add to: N… · filter 'Warboss'"
    cut = fit_title(text, 44, keep)
    assert [(cut.plain[s.start : s.end], s.style) for s in cut.spans] == [
        (" · filter 'Warboss'", "yellow")
    ]
    # No room for even a cell of the name: the filter alone, whole where it fits.
    assert fit_title(text, 20, keep).plain == "filter 'Warboss'"
    assert fit_title(text, 10, keep).plain == "filter 'W…"
    # No filter: cut at the edge, with "…".
    assert fit_title(Text("Add to: New Xenos - Orks roster"), 20, 0).plain == "Add to: New Xenos -…"


def test_a_cut_keeps_the_longest_head_that_fits() -> None:
    """``_cut`` (a title, a line at the pane's edge) finds the head to keep by halves: the
    same head as measuring one more character at a time, with wide characters, joiners,
    variation selectors and combining marks among them, at every room."""
    import random

    from rich.cells import cell_len

    def one_at_a_time(text: Text, room: int) -> Text:
        plain = text.plain
        if cell_len(plain) <= room:
            return text
        end = 0
        while end < len(plain) and cell_len(plain[: end + 1]) <= room - 1:
            end += 1
        cut = text.copy()
        cut.plain = plain[:end].rstrip() + "…"
        return cut

    rng = random.Random(18)
    alphabet = [*"abc XYZ·'…", "界", "é", "\u200d", "\ufe0f", "👍", "❤", "\u0301", "\t"]
    for _ in range(2000):
        plain = "".join(rng.choice(alphabet) for _ in range(rng.randrange(30)))
        text = Text(plain)
        text.stylize("bold", 0, rng.randrange(len(plain) + 1))
        for room in range(-1, 33):
            want, got = one_at_a_time(text, room), _cut(text, room)
            assert (got.plain, got.spans) == (want.plain, want.spans), (plain, room)
