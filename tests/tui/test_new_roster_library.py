"""The New roster dialog offers the factions a roster can be built from: a BattleScribe
catalogue marked ``library="true"`` (entries other catalogues link to, which BattleScribe
does not offer as a roster's catalogue) is left out of its faction list (Pilot, headless).
The 40k check needs the BattleScribe test data (../shared/bsdata) and skips with a message
where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_for
from interop.test_bs_library_catalogues import BSDATA, write_folder
from screen import painted as screen_rows
from textual.widgets import Select

from armybuilder.catalog import Library
from armybuilder.tui.screens.dialogs import NewRosterScreen


async def _offered(pilot: Any, system: str) -> tuple[list[str], str]:
    """The faction choices of the New roster dialog for ``system``, and what the faction
    drop-down paints when opened."""
    app = pilot.app
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
    dialog = app.screen
    dialog.query_one("#new-system", Select).value = system
    await pilot.pause()
    faction = dialog.query_one("#new-faction", Select)
    values = [str(v) for _, v in faction._options if v is not Select.NULL]
    faction.focus()
    await pilot.press("enter")  # opens the drop-down
    await pilot.pause()
    painted = "\n".join(screen_rows(app))
    return values, painted


@run_async
async def test_the_new_dialog_leaves_out_a_library_catalogue(make_app: Any, tmp_path: Path) -> None:
    write_folder(tmp_path)
    lib = Library([tmp_path / "data"], use_cache=False).scan()
    app = make_app(library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        values, painted = await _offered(pilot, "tiny")
    assert values == ["raiders"]
    assert "Raiders" in painted and "Library - Shared" not in painted


@pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(),
    reason=f"the 40k BattleScribe data is not at {BSDATA / 'wh40k-10e'}",
)
@run_async
async def test_the_new_dialog_for_40k_offers_armies_not_libraries(
    make_app: Any, tmp_path: Path
) -> None:
    lib = Library([BSDATA]).scan()
    app = make_app(library=lib, cwd=tmp_path)
    async with app.run_test(size=(120, 50)) as pilot:
        values, painted = await _offered(pilot, "wh40k-10e")
    assert "xenos-tyranids" in values and "imperium-adeptus-astartes-space-marines" in values
    for gone in ("library-titans", "library-tyranids", "unaligned-forces"):
        assert gone not in values
    assert "Xenos - Necrons" in painted
    assert "Library - Titans" not in painted and "Unaligned Forces" not in painted
