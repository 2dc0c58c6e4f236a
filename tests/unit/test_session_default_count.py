"""A group's default comes with its parent in the number the catalog gives
(``default_count``), whichever way the parent is added: the builder's plain add, its
standard loadout, or the roster-level helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.building import add_standard
from armybuilder.catalog import Library, default_roots
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.session import EditSession


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


@pytest.fixture
def session(tmp_path: Path, lib: Library, monkeypatch: pytest.MonkeyPatch) -> EditSession:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_STATE_DIR", str(tmp_path / "state"))
    path = tmp_path / "r.yaml"
    path.write_text("system: space-hulk\nfaction: terminators\nname: T\nselections: []\n")
    return EditSession.open(path, lib)


def guns(node: dict[str, object]) -> list[tuple[object, object]]:
    return [(s["entry"], s.get("count", 1)) for s in node["selections"]]  # type: ignore[attr-defined]


def test_a_tarantula_comes_with_its_twin_heavy_bolters(session: EditSession) -> None:
    # Space Hulk house rules, Special Units (Tarantula Turret): twin heavy bolters, the
    # catalog's default of two of its gun group.
    techmarine = session.add((), "techmarine")
    turret = session.add(techmarine, "tarantula")
    assert guns(session.node(turret)) == [("heavy-bolter", 2)]
    assert [i.message for i in session.evaluate().errors] == []


def test_every_way_of_adding_gives_the_same_turret(session: EditSession, lib: Library) -> None:
    techmarine = session.add((), "techmarine")
    plain = session.node(session.add(techmarine, "tarantula"))
    standard = session.node(add_standard(session, techmarine, "tarantula"))
    roster = Roster.from_text(
        "system: space-hulk\nfaction: terminators\nname: T\nselections:\n  - entry: techmarine\n",
        "t.yaml",
    )
    index = lib.system("space-hulk").index("terminators")
    helper = roster.node(add_entry(roster, index, ("selections", 0), "tarantula"))
    assert guns(plain) == guns(standard) == guns(helper) == [("heavy-bolter", 2)]
