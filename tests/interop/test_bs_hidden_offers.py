"""What the data hides is not offered (real BattleScribe data, ../shared/bsdata; skips with a
message where it is absent).

Gaslands' Helicopter and Tank are ``hidden="true"`` until their sponsor is chosen: a new
roster's header comment, which says what can be selected at the top level, does not name them
(it named them, among the Car and the Bike). 40k's "Boarding Actions" force entry is hidden
with nothing that shows it: the builder's Add force dialog does not offer it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.session.operations import new_roster

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA]).scan()
    mp.undo()


def test_a_new_gaslands_roster_names_no_hidden_vehicle(lib: Library) -> None:
    gs = lib.system("gaslands")
    index = gs.index("gaslands")
    hidden = {c.entry.name for c in index.roots if c.entry.hidden}
    assert {"Helicopter", "Tank"} <= hidden  # (hidden="true" in Gaslands.gst)
    text = new_roster(gs, "gaslands", "Road Warriors").dumps()
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    assert "at the top level you can select:" in header
    assert "(Car)" in header and "(Bike)" in header
    for name in hidden:
        assert f"({name})" not in header, (name, header)


def test_the_40k_add_force_dialog_offers_no_hidden_force(lib: Library) -> None:
    s = EditSession.new(
        lib, "wh40k-10e", "imperium-adeptus-astartes-space-marines", "X", autosave=False
    )
    names = [f.name for f in s.force_entries()]
    s.close()
    assert "Army Roster" in names
    assert "Boarding Actions" not in names  # (hidden="true" in the .gst, nothing unhides it)
    assert any(f.name == "Boarding Actions" and f.hidden for f in s.system.model.forces)
