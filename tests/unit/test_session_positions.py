"""Where an issue is in the file (``line``/``column`` of the JSON export, the builder's
export of the roster being edited): a roster with edits not saved gives none (its file does
not hold them yet, a selection added has no line there); once saved, the lines of the file
written, as a fresh read of it gives them."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.render.jsondata import roster_data
from armybuilder.report import load_evaluated
from armybuilder.session import EditSession

DEMO = Path(__file__).resolve().parent.parent / "tui" / "fixtures" / "catalogs"

TEXT = (
    "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Border patrol\nselections:\n"
    "  - entry: captain\n"
    "  - entry: squad\n    name: Alpha\n    selections:\n      - entry: soldier\n"
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_STATE_DIR", str(tmp_path / "state"))


@pytest.fixture(scope="module")
def lib() -> Library:
    found = Library([DEMO], use_cache=False).scan()
    assert not found.problems, found.problems
    return found


def places(data: dict[str, object]) -> dict[str, tuple[object, object]]:
    issues = data["issues"]
    assert isinstance(issues, list)
    return {f"{i['path']} {i['message']}": (i["line"], i["column"]) for i in issues}


def test_an_unsaved_edit_has_no_line_and_a_saved_one_the_files(
    lib: Library, tmp_path: Path
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(TEXT)
    session = EditSession.open(path, lib)
    before = places(roster_data(session.evaluate()))
    # Read as it is: the squad's under-strength warning is at its line in the file (7).
    assert any(where == (7, 5) for where in before.values()), before
    # A squad added at the top (before the others): nothing in the file says where it is.
    session.add((), "squad")
    session.move(("selections", 2), -1)
    session.move(("selections", 1), -1)
    unsaved = places(roster_data(session.evaluate()))
    assert unsaved and all(where == (None, None) for where in unsaved.values()), unsaved
    session.save()
    saved = places(roster_data(session.evaluate()))
    _, _, fresh_ev = load_evaluated(lib, str(path))
    fresh = places(roster_data(fresh_ev, str(path)))
    assert saved == fresh
    assert all(where[0] is not None for where in saved.values()), saved
