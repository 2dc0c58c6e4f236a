"""A save in three steps (issue 17: the builder writes a large roster in a worker thread):
``start_save`` (edits refused from now on), ``SaveJob.run`` on another thread (the dump and
the atomic write), ``end_save`` (the session takes the file). The bytes are those of a
plain ``save``; no edit slips in between; a failure leaves the roster unsaved and editable."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.errors import ChangedOnDiskError
from armybuilder.rosters import Roster
from armybuilder.session import EditError, EditSession

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "examples"
REGIMENT = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "session-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


def copy_to(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / REGIMENT.name
    shutil.copy(REGIMENT, path)
    return path


def edit(s: EditSession) -> None:
    s.rename(("selections", 0), "Saved in a thread")
    s.duplicate(("selections", 1))


@pytest.mark.parametrize("lazy", [False, True])
def test_the_three_steps_write_what_save_writes(tmp_path: Path, lib: Library, lazy: bool) -> None:
    plain = EditSession.open(copy_to(tmp_path / "plain"), lib, lazy=lazy, autosave=False)
    edit(plain)
    plain.save()
    s = EditSession.open(copy_to(tmp_path / "steps"), lib, lazy=lazy)
    edit(s)
    assert s.journal.started
    job = s.start_save()
    assert s.saving
    thread = threading.Thread(target=job.run)
    thread.start()
    thread.join()
    assert s.dirty  # (until end_save)
    saved = s.end_save(job)
    assert saved == s.path and not s.saving and not s.dirty
    assert plain.path is not None and saved.read_bytes() == plain.path.read_bytes()
    assert not s.journal.started  # the edits are in the file: nothing to recover
    # The next save's merge base and conflict check follow the file written.
    assert not s.roster.changed_on_disk()
    s.rename(("selections", 0), "Again")
    plain.rename(("selections", 0), "Again")
    s.save()
    plain.save()
    assert s.path is not None and plain.path is not None
    assert s.path.read_bytes() == plain.path.read_bytes()


def test_no_edit_undo_or_redo_between_start_and_end(tmp_path: Path, lib: Library) -> None:
    path = copy_to(tmp_path)
    s = EditSession.open(path, lib, autosave=False)
    edit(s)
    s.undo()
    history, generation = s.history, s.generation
    text = s.roster.dumps()
    job = s.start_save()
    with pytest.raises(EditError, match="being saved"):
        s.rename(("selections", 0), "Slipped in")
    with pytest.raises(EditError, match="being saved"):
        s.undo()
    with pytest.raises(EditError, match="being saved"):
        s.redo()
    with pytest.raises(EditError, match="already"):
        s.start_save()
    assert s.history == history and s.generation == generation
    job.run()
    s.end_save(job)
    assert path.read_text(encoding="utf-8") == text
    s.redo()  # allowed again
    assert s.dirty and s.generation == generation + 1


def test_a_failed_run_leaves_the_roster_unsaved_and_editable(tmp_path: Path, lib: Library) -> None:
    path = copy_to(tmp_path)
    s = EditSession.open(path, lib)
    edit(s)
    theirs = path.read_text(encoding="utf-8").replace("name:", "name: Theirs", 1)
    path.write_text(theirs, encoding="utf-8")
    job = s.start_save()
    job.run()  # the conflict check, in the thread: kept for end_save
    with pytest.raises(ChangedOnDiskError):
        s.end_save(job)
    assert not s.saving and s.dirty and s.journal.started
    assert path.read_text(encoding="utf-8") == theirs
    s.rename(("selections", 0), "Still editable")
    s.save(overwrite=True)
    assert Roster.from_file(path).doc["selections"][0]["name"] == "Still editable"
