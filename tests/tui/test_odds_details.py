"""The odds of every attack reach the builder's details pane (Pilot, headless): the pane shows
the text the session computes for the selected unit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import run_async, wait_editor

from armybuilder.paths import bundled_dir
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.stable import LiveStatic

MakeApp = Callable[..., ArmyBuilderApp]


def _copy(folder: Path, system: str, name: str) -> Path:
    path = folder / name
    path.write_bytes((bundled_dir("examples") / system / name).read_bytes())
    return path


@run_async
async def test_infantry_platoon_odds_in_the_details_pane(make_app: MakeApp, tmp_path: Path) -> None:
    # Infantry Operations, Infantry Attacks: the Regular platoon (gunnery 4) hits on 4+ at
    # short range, 33/36 = 11/12; long range TN 8: 15/36 = 5/12.
    app = make_app(_copy(tmp_path, "infantry-ops", "rifle-lmg-platoon.yaml"))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 0))
        await pilot.pause()
        shown = " ".join(editor.details.query_one("#d-values", LiveStatic).plain.split())
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        platoon = ev.root.children[0]
        for key in ("to_hit", "odds_primary", "odds_support"):
            text = next(v.display() for v in ev.values_of(platoon) if v.key == key)
            assert " ".join(text.split()) in shown, key
        assert "short TN 4: 11/12 (91.7%)" in shown
        assert "long TN 8: 5/12 (41.7%)" in shown


@run_async
async def test_marine_fire_odds_in_the_details_pane(make_app: MakeApp, tmp_path: Path) -> None:
    # Starship Marine 3.5: an SCA II needs 4 against an unarmoured target up to 15 cm: 3/5;
    # the first figure, Major Okonkwo, is a Veteran (4.7: +1 on all die rolls): 7/10, and in
    # hand to hand (3.15) +3 +1 against a crewman's +0 he wins 79 of 100.
    app = make_app(_copy(tmp_path, "starship-marine", "martian-boarding-group.yaml"))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        figure = next(n for n in ev.nodes() if any(v.key == "odds_fire" for v in ev.values_of(n)))
        editor.jump_to(figure.loc)
        await pilot.pause()
        shown = " ".join(editor.details.query_one("#d-values", LiveStatic).plain.split())
        assert "SCA II (Veteran: SCA fire +1;" in shown
        assert "unarmoured 4+ 7/10 (70.0%)" in shown
        assert "+4 (Veteran +1): vs marine: wins 11/20 (55.0%)" in shown
        assert "vs crewman: wins 79/100 (79.0%)" in shown
