"""A save never silently overwrites a file changed on disk since it was read (issue 14,
item 2; docs/files.md "Conflicts")."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.errors import ArmybuilderError
from armybuilder.rosters import ChangedOnDiskError, Roster
from armybuilder.session import EditSession

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"
HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Border patrol\nselections:\n"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "files-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


@pytest.fixture
def roster_file(tmp_path: Path) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(HEAD + "  - entry: captain\n  - entry: squad\n", encoding="utf-8")
    return path


def test_the_error_is_part_of_the_contract() -> None:
    assert issubclass(ChangedOnDiskError, ArmybuilderError)


def test_two_windows_the_second_save_is_refused(lib: Library, roster_file: Path) -> None:
    a = EditSession.open(roster_file, lib)
    b = EditSession.open(roster_file, lib)
    a.rename(("selections", 0), "From A")
    a.save()
    b.rename(("selections", 1), "From B")
    with pytest.raises(ChangedOnDiskError) as caught:
        b.save()
    assert caught.value.path == roster_file
    # nothing was written: A's change is on disk, B's edits are still in B (and its journal)
    assert [s.name for s in Roster.from_file(roster_file).selections] == ["From A", None]
    assert b.dirty
    # the user chose "overwrite": B's version wins, A's is kept as the backup
    b.save(overwrite=True)
    assert [s.name for s in Roster.from_file(roster_file).selections] == [None, "From B"]
    backup = Roster.from_file(roster_file.with_name("r.yaml.bak"))
    assert [s.name for s in backup.selections] == ["From A", None]
    # B saved last: B can save again without a question; A now cannot
    b.rename(("selections", 1), "From B again")
    b.save()
    a.rename(("selections", 0), "A again")
    with pytest.raises(ChangedOnDiskError):
        a.save()


def test_a_text_editor_changed_the_file(roster_file: Path) -> None:
    roster = Roster.from_file(roster_file)
    roster.set(("selections", 0), "name", "Vos")
    roster_file.write_text(HEAD + "  - entry: captain  # edited by hand\n", encoding="utf-8")
    with pytest.raises(ChangedOnDiskError, match="changed on disk"):
        roster.save()
    assert "edited by hand" in roster_file.read_text(encoding="utf-8")


def test_save_as_over_another_file_asks_first(lib: Library, roster_file: Path) -> None:
    other = roster_file.with_name("other.yaml")
    other.write_text("# keep me\n", encoding="utf-8")
    session = EditSession.open(roster_file, lib)
    with pytest.raises(ChangedOnDiskError, match="already exists"):
        session.save(other)
    assert other.read_text(encoding="utf-8") == "# keep me\n"
    session.save(other, overwrite=True)
    assert Roster.from_file(other).name == "Border patrol"
    assert other.with_name("other.yaml.bak").read_text(encoding="utf-8") == "# keep me\n"


def test_saving_to_a_new_file_and_again(lib: Library, roster_file: Path) -> None:
    session = EditSession.open(roster_file, lib)
    new = roster_file.with_name("copy.yaml")
    session.save(new)
    session.rename(("selections", 0), "Vos")
    session.save()  # the file this session wrote: no question
    assert Roster.from_file(new).selections[0].name == "Vos"


def test_recovered_edits_do_not_overwrite_a_newer_file(lib: Library, roster_file: Path) -> None:
    from armybuilder.session import find_recovery

    crashed = EditSession.open(roster_file, lib)
    crashed.rename(("selections", 0), "Unsaved")
    roster_file.write_text(HEAD + "  - entry: captain\n    name: Newer\n", encoding="utf-8")
    info = find_recovery(roster_file)
    assert info is not None and info.file_changed
    recovered = EditSession.recover(info, lib)
    with pytest.raises(ChangedOnDiskError):
        recovered.save()
    assert "Newer" in roster_file.read_text(encoding="utf-8")
