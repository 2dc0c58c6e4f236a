"""Adding from the catalog (Enter, `a`) brings what the catalog requires inside the entry, as
BattleScribe adds it: an Infantry Operations platoon arrives with its four squads (a minimum
of 4 in the platoon, each its own selection), a 40k Intercessor Squad with its Sergeant and
four Intercessors, each with its weapons, and no "at least ... needed" error. `A` (add bare)
still adds the entry with its default choices only. Pilot, headless: the painted roster tree
and issues against the session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from screen import normal, pane_lines, tree_label
from test_building_keys import empty_roster
from test_repaint_40k import BSDATA, space_marines
from test_screen_model import screen_problems, settle

from armybuilder.catalog import Library
from armybuilder.rules.engine import Evaluation
from armybuilder.session import Loc


def unit_issues(ev: Evaluation, loc: Loc) -> list[str]:
    return [i.message for i in ev.issues if i.path[: len(loc)] == loc and i.is_error]


def painted_issues(app: Any, editor: Any) -> str:
    return normal(" ".join(pane_lines(app, editor.issues)))


async def highlight(pilot: Any, editor: Any, entry_id: str) -> None:
    await pilot.press("f4")
    for _ in range(200):
        if editor.catalog.highlighted() == entry_id:
            return
        await pilot.press("down")
    raise AssertionError(f"{entry_id} not reached in the catalog")


@run_async
async def test_enter_adds_a_platoon_with_its_squads(
    make_app: Any, workdir: Path, full_library: Library
) -> None:
    """Infantry Operations: an Inner Sphere platoon requires four squads (a minimum of 4 in
    the platoon): Enter adds them with it; `A` adds the platoon bare, with only its default
    motive, and the issues list says it has no squads."""
    path = empty_roster(workdir, full_library, "infantry-ops", "inner-sphere")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await highlight(pilot, editor, "platoon")
        await pilot.press("enter")
        await settle(pilot, editor)
        ev = s.evaluation
        assert ev is not None
        platoon = ev.root.children[0]
        got = [(c.entry_id, c.count) for c in platoon.children]
        assert got == [("foot", 1), *[("squad", 1)] * 4]
        assert not unit_issues(ev, platoon.loc), unit_issues(ev, platoon.loc)
        editor.roster_tree.root.expand_all()
        await settle(pilot, editor)
        rows = [tree_label(r) for r in pane_lines(app, editor.roster_tree) if r.strip()]
        squads = [r for r in rows if r.lstrip("✖⚠ ").startswith(ev.label(platoon.children[1]))]
        assert len(squads) == 4, rows
        assert painted_issues(app, editor).startswith("Issues: 0 errors")
        assert not screen_problems(app, editor)
        # The other way: `A` adds the platoon bare; the issues list says what it lacks.
        await pilot.press("ctrl+z")
        await settle(pilot, editor)
        assert s.evaluation is not None and s.evaluation.root.children == []
        await highlight(pilot, editor, "platoon")
        await pilot.press("A")
        await settle(pilot, editor)
        ev = s.evaluation
        assert ev is not None
        platoon = ev.root.children[0]
        assert [c.entry_id for c in platoon.children] == ["foot"]
        missing = unit_issues(ev, platoon.loc)
        assert missing, "a bare platoon lacks its squads"
        assert normal(missing[0])[:40] in painted_issues(app, editor)
        assert not screen_problems(app, editor)


@run_async
async def test_enter_adds_an_intercessor_squad_legal(make_app: Any, tmp_path: Path) -> None:
    """40k (BattleScribe data): the squad arrives as BattleScribe adds it, legal."""
    path, library = space_marines(tmp_path)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await settle(pilot, editor)
        await pilot.press("f4", "slash")
        await pilot.press(*"Intercessor Squad")
        await settle(pilot, editor)
        await pilot.press("down")
        want = next(
            c.entry.id for c in s.index.children(None) if c.entry.name == "Intercessor Squad"
        )
        while editor.catalog.highlighted() != want:
            await pilot.press("down")
        before = len(s.evaluation.root.children) if s.evaluation else 0
        await pilot.press("enter")
        await settle(pilot, editor)
        ev = s.evaluation
        assert ev is not None and len(ev.root.children) == before + 1
        squad = ev.root.children[-1]
        assert [(ev.name(c), c.count) for c in squad.children] == [
            ("Intercessor Sergeant", 1),
            ("Intercessor", 4),
        ]
        assert not unit_issues(ev, squad.loc), unit_issues(ev, squad.loc)
        assert "Intercessor Squad has 0" not in painted_issues(app, editor)
        await pilot.press("escape")  # (the search cleared: the catalog as the model expects)
        await settle(pilot, editor)
        assert not screen_problems(app, editor)


@run_async
async def test_enter_adds_a_deff_dread_with_its_loadout(make_app: Any, tmp_path: Path) -> None:
    """40k Orks (BattleScribe data): a Deff Dread's Wargear Options (exactly 4, no default)
    are filled by its options' minimums as written, two Dread klaws and two Big shootas,
    though a modifier sets the Big shootas' minimum to 0 (Orks.cat, constraint
    86a1-844d-1d2b-66df): the data relies on it, as BattleScribe adds by the written
    minimum. The painted panes against the session."""
    if not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"no 40k data at {BSDATA / 'wh40k-10e'} (the shared BattleScribe data)")
    library = Library([BSDATA]).scan()
    path = empty_roster(tmp_path, library, "wh40k-10e", "xenos-orks")
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await settle(pilot, editor)
        await pilot.press("f4", "slash")
        await pilot.press(*"Deff Dread")
        await settle(pilot, editor)
        await pilot.press("down")
        while editor.catalog.highlighted() != "1594-b986-e77e-d89d":
            await pilot.press("down")
        before = len(s.evaluation.root.children) if s.evaluation else 0
        await pilot.press("enter")
        await settle(pilot, editor)
        ev = s.evaluation
        assert ev is not None and len(ev.root.children) == before + 1
        unit = ev.root.children[-1]
        assert [(ev.name(c), c.count) for c in unit.children] == [
            ("Stompy feet", 1),
            ("Dread klaw", 2),
            ("Big shoota", 2),
        ]
        assert not unit_issues(ev, unit.loc), unit_issues(ev, unit.loc)
        assert "Wargear Options; at least 4" not in painted_issues(app, editor)
        editor.jump_to(unit.loc)
        await pilot.press("escape")
        await settle(pilot, editor)
        assert not screen_problems(app, editor)
