"""Units defined by the player (armybuilder.unitdef): each field checked by the system's own
parser as typed, the entry added to the roster's custom list in one undoable step, nothing of
the roster's other custom entries lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder import unitdef
from armybuilder.catalog import Library, default_roots
from armybuilder.session import EditError, EditSession

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "unitdef-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


#: An arachnid warrior's stat line as the bundled catalog has it (Starship Troopers, the
#: Arachnid army list), typed into the form as text.
WARRIOR = {
    "value": "15",
    "size": "2",
    "move": '6"',
    "close-combat": "2xD6+1 or D10",
    "target": "5+",
    "save": "4+",
    "kill": "8+",
    "traits": 'Climb/6", Piercing/1, Tunnel/6"',
}


def test_starship_troopers_traits_and_saves_are_read_by_its_parser(lib: Library) -> None:
    session = EditSession.new(lib, "starship-troopers", "arachnids", "T", autosave=False)
    draft = unitdef.Draft(
        name="Cave warrior",
        categories="bug",
        profile_type="model",
        characteristics={**WARRIOR, "traits": 'Climb/6", Piercing/1, Tunell/6"'},
        costs={"value": "15"},
    )
    assert unitdef.check(session, draft) == [
        ("traits", "unknown trait 'Tunell/6\"' (did you mean 'Tunnel/6\"'?)")
    ]
    draft.characteristics = {**WARRIOR, "save": "4"}
    ((where, message),) = unitdef.check(session, draft)
    assert where == "save" and "should read like 4+" in message
    draft.characteristics = dict(WARRIOR)
    assert unitdef.check(session, draft) == []
    entry_id = unitdef.add(session, draft)
    assert entry_id == "my-cave-warrior"
    assert session.history == ["Define Cave warrior"]
    ev = session.evaluate()
    assert not [i for i in ev.issues if i.code == "invalid-custom-entry"]
    assert ev.index.entries[entry_id].profiles[0].characteristics["save"] == "4+"
    session.undo()
    assert "custom" not in session.node(())


def test_a_refused_draft_changes_nothing(lib: Library) -> None:
    session = EditSession.new(lib, "starmarines", "starmarines", "T", autosave=False)
    draft = unitdef.Draft(
        name="Trooper",
        categories="soldier",
        profile_type="soldier",
        characteristics={"move": "two", "armor": "3", "toughness": "1", "morale": "4"},
        costs={"bp": "one"},
    )
    problems = dict(unitdef.check(session, draft))
    assert problems["cost:bp"] == "'one' is not a number"
    with pytest.raises(EditError):
        unitdef.add(session, draft)
    assert not session.history


def test_existing_custom_entries_are_kept(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "ex.yaml"
    path.write_text((EXAMPLES / "starmarines" / "starmarines-example.yaml").read_text())
    session = EditSession.open(path, lib, autosave=False)
    before = session.node(())["custom"]
    n_entries, n_shared = len(before["entries"]), len(before["shared_entries"])
    draft = unitdef.Draft(
        name="Scout bike",
        type="model",
        categories="vehicle",
        profile_type="vehicle",
        characteristics={"move": "5", "armor": "3"},
        costs={"bp": "2"},
    )
    # StarMarines IV-g: a vehicle has a size (and records experience, as every unit does).
    assert unitdef.check(session, draft) == [
        ("", "a vehicle records experience: add `experience: true`"),
        ("categories", "a vehicle needs exactly one size category (small or large); it has none"),
    ]
    draft.categories, draft.experience = "vehicle, small, skimmer", True
    assert unitdef.check(session, draft) == []
    unitdef.add(session, draft)
    after = session.node(())["custom"]
    assert len(after["entries"]) == n_entries + 1
    assert len(after["shared_entries"]) == n_shared
