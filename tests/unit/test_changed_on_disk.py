"""A save never silently overwrites a roster file changed on disk since it was read (DESIGN,
"Files are sacred"): the minimal contract the builder's conflict prompt relies on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from armybuilder.errors import ArmybuilderError
from armybuilder.rosters import ChangedOnDiskError, Roster

EXAMPLE = Path(__file__).resolve().parents[2] / "examples/space-hulk/standard-squad.yaml"


@pytest.fixture
def roster_file(tmp_path: Path) -> Path:
    path = tmp_path / "squad.yaml"
    shutil.copy(EXAMPLE, path)
    return path


def rename(roster: Roster, name: str) -> None:
    roster.doc["name"] = name
    roster.dirty = True


def test_unchanged_file_saves(roster_file: Path) -> None:
    roster = Roster.from_file(roster_file)
    rename(roster, "Mine")
    roster.save()
    rename(roster, "Mine again")
    roster.save()  # its own save does not count as a change on disk
    assert "Mine again" in roster_file.read_text(encoding="utf-8")


def test_changed_file_is_not_overwritten(roster_file: Path) -> None:
    roster = Roster.from_file(roster_file)
    other = roster_file.read_text(encoding="utf-8").replace("name:", "name: Theirs #", 1)
    roster_file.write_text(other, encoding="utf-8")
    rename(roster, "Mine")
    with pytest.raises(ChangedOnDiskError) as caught:
        roster.save()
    assert isinstance(caught.value, ArmybuilderError)
    assert caught.value.path == roster_file
    assert roster_file.read_text(encoding="utf-8") == other  # nothing written
    roster.save(overwrite=True)
    assert "Mine" in roster_file.read_text(encoding="utf-8")
    assert (roster_file.with_name(roster_file.name + ".bak")).read_text(encoding="utf-8") == other


def test_save_as_elsewhere_is_not_a_conflict(roster_file: Path, tmp_path: Path) -> None:
    roster = Roster.from_file(roster_file)
    roster_file.write_text(roster_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert roster.save(tmp_path / "copy.yaml") == tmp_path / "copy.yaml"


def test_one_error_class_under_every_name() -> None:
    from armybuilder import errors, fileio, rosters

    assert errors.ChangedOnDiskError is rosters.ChangedOnDiskError is fileio.ChangedOnDiskError
    assert issubclass(errors.ChangedOnDiskError, OSError)
    exc = errors.ChangedOnDiskError(Path("a.yaml"))
    assert exc.path == Path("a.yaml") and "changed on disk" in str(exc)


def test_changed_on_disk_reads_the_file_without_saving(roster_file: Path) -> None:
    roster = Roster.from_file(roster_file)
    assert not roster.changed_on_disk()
    roster_file.write_bytes(roster_file.read_bytes() + b"\n")  # one byte is enough
    assert roster.changed_on_disk()
    roster.save(overwrite=True)
    assert not roster.changed_on_disk()
