"""The library snapshot (armybuilder/libcache.py) is trusted only while it is the library's.

A start reads the scanned library from one pickle in the cache folder, the catalogs in the
engine's form (plain objects, no pydantic). It must never give an answer the catalogs on disk
would not: an edited catalog file (even one whose size and modification time were kept), a
snapshot cut short or damaged, or one written by another version of armybuilder or for another
key is detected, the catalogs are scanned again and the snapshot is written anew.
"""

from __future__ import annotations

import os
import pickle
import shutil
from pathlib import Path

import pytest

from armybuilder import __version__, libcache
from armybuilder.catalog import Library
from armybuilder.model.plain import is_plain
from armybuilder.paths import bundled_dir

SYSTEM = "infantry-ops"


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A search path of one bundled system, with a cache folder of its own."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ARMYBUILDER_NO_CACHE", raising=False)
    folder = tmp_path / "catalogs"
    shutil.copytree(bundled_dir("catalogs") / SYSTEM, folder / SYSTEM)
    return folder


def _snapshot(root: Path) -> Path:
    key = libcache.fingerprint([root])
    assert key is not None
    return libcache._file(key)


def _names(lib: Library) -> dict[str, str]:
    gs = lib.system(SYSTEM)
    return {e.id: e.name for e in gs.model.shared_entries}


def test_a_second_start_reads_the_snapshot_as_plain_objects(root: Path) -> None:
    cold = Library([root]).scan()
    assert not is_plain(cold.system(SYSTEM).model)  # checked by pydantic
    assert _snapshot(root).is_file()
    warm = Library([root]).scan()
    assert is_plain(warm.system(SYSTEM).model)  # from the snapshot
    assert warm.system(SYSTEM).model.model_dump() == cold.system(SYSTEM).model.model_dump()
    assert sorted(warm.system(SYSTEM).factions) == sorted(cold.system(SYSTEM).factions)
    assert [str(p) for p in warm.problems] == [str(p) for p in cold.problems]


def _rename_keeping_size_and_time(path: Path, old: str, new: str) -> None:
    assert len(old) == len(new)
    st = path.stat()
    text = path.read_text(encoding="utf-8")
    assert text.count(f"name: {old}\n") == 1
    path.write_text(text.replace(f"name: {old}\n", f"name: {new}\n"), encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def test_an_edited_catalog_file_is_read_again(root: Path) -> None:
    system_file = root / SYSTEM / "system.yaml"
    before = _names(Library([root]).scan())
    entry_id, old = next((i, n) for i, n in before.items() if n.isascii() and len(n) > 3)
    new = old[:-1] + ("X" if old[-1] != "X" else "Y")
    text = system_file.read_text(encoding="utf-8")
    if text.count(f"name: {old}\n") != 1:
        pytest.skip(f"{old!r} is not written once on a line of its own")
    _rename_keeping_size_and_time(system_file, old, new)
    after = _names(Library([root]).scan())
    assert after[entry_id] == new  # not the snapshot's (nor the file cache's) old name
    # and an ordinary edit (a new modification time) too
    system_file.write_text(text, encoding="utf-8")
    assert _names(Library([root]).scan())[entry_id] == old


def test_a_snapshot_cut_short_is_scanned_again_and_rewritten(root: Path) -> None:
    cold = Library([root]).scan()
    snapshot = _snapshot(root)
    data = snapshot.read_bytes()
    snapshot.write_bytes(data[: len(data) // 2])
    again = Library([root]).scan()
    assert not is_plain(again.system(SYSTEM).model)  # scanned, not read from the bad file
    assert again.system(SYSTEM).model == cold.system(SYSTEM).model
    key = libcache.fingerprint([root])
    assert key is not None and libcache.load(key) is not None  # written whole again
    snapshot.write_bytes(b"\x80\x05not a pickle at all")
    assert sorted(Library([root]).scan().systems) == [SYSTEM]


@pytest.mark.parametrize("which", ["version", "format", "key"])
def test_a_snapshot_of_another_version_or_key_is_not_trusted(root: Path, which: str) -> None:
    Library([root]).scan()
    snapshot = _snapshot(root)
    head, _, files = pickle.loads(snapshot.read_bytes())
    fmt, version, key = head
    other = {
        "version": (fmt, __version__ + ".other", key),
        "format": ("library-0", version, key),
        "key": (fmt, version, "0" * len(key)),
    }[which]
    # a snapshot that says there are no systems at all: trusted, it would hide them
    snapshot.write_bytes(pickle.dumps((other, ({}, []), files)))
    assert sorted(Library([root]).scan().systems) == [SYSTEM]
    # the same with the right head is read (so the test above is about the head)
    snapshot.write_bytes(pickle.dumps((head, ({}, []), files)))
    assert Library([root]).scan().systems == {}


@pytest.fixture
def every_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A search path of every bundled system, with a cache folder of its own."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ARMYBUILDER_NO_CACHE", raising=False)
    folder = tmp_path / "catalogs"
    shutil.copytree(bundled_dir("catalogs"), folder)
    return folder


def test_a_warm_library_unpacks_only_the_systems_asked_for(every_root: Path) -> None:
    cold = Library([every_root]).scan()
    assert len(cold.systems) > 1, "needs several systems"
    warm = Library([every_root]).scan()
    assert warm._packed and not warm._systems  # nothing unpacked by the scan itself
    gs = warm.system(SYSTEM)
    assert list(warm._systems) == [SYSTEM]  # only the roster's system
    assert gs.model.model_dump() == cold.system(SYSTEM).model.model_dump()
    assert warm.system(SYSTEM) is gs  # unpacked once
    # all of them, in the order a scan finds them, the one unpacked kept
    assert list(warm.systems) == list(cold.systems)
    assert warm.systems[SYSTEM] is gs
    for sid, system in cold.systems.items():
        assert warm.systems[sid].model.model_dump() == system.model.model_dump()
        assert sorted(warm.systems[sid].factions) == sorted(system.factions)


def test_a_system_damaged_inside_the_snapshot_means_a_new_scan(every_root: Path) -> None:
    cold = Library([every_root]).scan()
    snapshot = _snapshot(every_root)
    head, (packed, problems), files = pickle.loads(snapshot.read_bytes())
    packed[SYSTEM] = packed[SYSTEM][: len(packed[SYSTEM]) // 2]
    snapshot.write_bytes(pickle.dumps((head, (packed, problems), files)))
    again = Library([every_root]).scan()
    gs = again.system(SYSTEM)
    assert not is_plain(gs.model)  # scanned again, not read from the bad part
    assert gs.model == cold.system(SYSTEM).model
    assert list(again.systems) == list(cold.systems)
    assert [str(p) for p in again.problems] == [str(p) for p in cold.problems]
    # and the snapshot is written whole again
    warm = Library([every_root]).scan()
    assert is_plain(warm.system(SYSTEM).model)
    assert warm.system(SYSTEM).model.model_dump() == cold.system(SYSTEM).model.model_dump()
