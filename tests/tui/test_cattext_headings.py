"""A catalog heading too wide for the pane says its limit in fewer words before cutting the
group's name (a player walk: a Gaslands Car's weapons at 80x24 read "Wea… (any number)";
now "Weapons (any)"); the name is cut with "…" only where even the shortest words leave no
room for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from rich.text import Text
from screen import painted, pane_lines, tree_label
from textual.pilot import Pilot

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.settings import Settings
from armybuilder.tui.widgets.catalog import CatalogTree, heading_tail_forms

BSDATA = Path(__file__).resolve().parents[3] / "shared" / "bsdata"
CAR = "5fc8-4273-0b18-c611"


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


def test_heading_tails_in_fewer_words() -> None:
    tail = Text(" (any number)")
    tail.append(" 3 chosen", "cyan")
    forms = heading_tail_forms(tail)
    assert [f.plain for f in forms] == [" (any) 3 chosen", " (any) ×3"]
    last = forms[-1]
    assert "".join(last.plain[s.start : s.end] for s in last.spans) == " ×3"
    assert {s.style for s in last.spans} == {"cyan"}
    assert [f.plain for f in heading_tail_forms(Text(" (at least 2) 1, at least 2"))] == [
        " (≥2) 1, at least 2",
        " (≥2) 1, ≥2",
    ]
    assert [f.plain for f in heading_tail_forms(Text(" (exactly 1)"))] == [" (=1)"]
    assert heading_tail_forms(Text(" (0-2) 1/2")) == []


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
@run_async
async def test_a_gaslands_cars_weapons_heading_reads_whole_at_80x24(tmp_path: Path) -> None:
    from armybuilder.interop.battlescribe.rosfile import new_session, session_yaml

    library = Library([BSDATA]).scan()
    system = library.system("gaslands")
    path = tmp_path / "g.yaml"
    text = session_yaml(new_session(system, "gaslands"), system, "gaslands")
    path.write_text(text + f"  - entry: {CAR}\n", encoding="utf-8")
    app = ArmyBuilderApp(
        path, cwd=tmp_path, settings=Settings(), catalog_poll_seconds=None, library=library
    )
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        car = next(
            i for i, sel in enumerate(s.roster.selections) if getattr(sel, "entry", "") == CAR
        )
        editor.jump_to(("selections", car))
        await settled(pilot, editor)
        tree = editor.catalog.query_one(CatalogTree)
        assert not tree.has_focus  # (the catalog is narrow beside the focused roster)
        rows = pane_lines(app, tree, painted(app))
        headings = [tree_label(r) for r in rows if r.lstrip()[:1] in set("▼▶▾▸")]
        weapons = [h for h in headings if h.startswith("Wea")]
        assert weapons, (headings, rows)
        room = tree.scrollable_content_region.width - (len(rows[0]) - len(rows[0].lstrip()))
        assert room < len("▼ Weapons (any number)")  # (the case the walk found)
        assert weapons[0] == "Weapons (any)", headings
        assert not any(h.endswith("…") or "… (" in h for h in headings), headings
