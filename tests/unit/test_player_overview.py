"""The list at a glance (`g`) on a system with no costs: no column of zeros after each
category (Starship Marine counts heads, not points)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.building import add_standard
from armybuilder.catalog import Library, default_roots
from armybuilder.overview import overview
from armybuilder.session import EditSession


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "overview-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


def test_a_system_without_costs_shows_categories_without_a_cost(lib: Library) -> None:
    s = EditSession.new(lib, "starship-marine", "earther", "Group", autosave=False)
    add_standard(s, (), "earther-group")
    lines = overview(s).lines()
    assert lines[0] == "Totals: —"
    assert "Category: chosen (allowed)" in lines
    assert "  Formation: 1 (any number)" in lines, lines
    assert not any(line.endswith("· 0") for line in lines), lines


def test_a_system_with_costs_keeps_its_cost_column(lib: Library) -> None:
    s = EditSession.new(lib, "starmarines", "norx", "Band", autosave=False)
    lines = overview(s).lines()
    assert lines[0] == "Totals: 0 BP", lines
    assert "Category: chosen (allowed) · cost" in lines
