"""A command on a folder of BattleScribe data (``--catalogs DIR``) reads the folder's scan from
the library snapshot when no file changed, and scans again when one did: a touched, replaced,
added (``.cat``, ``.catz``) or removed file is seen by the very next command. A damaged snapshot
is written anew without a traceback, and nothing is ever written into the data folder."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.interop.battlescribe import library as bs_library

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries></gameSystem>\n'
)
CAT = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue id="{id}" name="{name}" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema"></catalogue>\n'
)
ROSTER = "format: 1\nsystem: tiny\nfaction: raiders\nname: R\nforce: f1\n"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ARMYBUILDER_NO_CACHE", raising=False)
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT.format(id="cat-1", name="Raiders"), encoding="utf-8")
    (tmp_path / "r.yaml").write_text(ROSTER, encoding="utf-8")
    return tmp_path


@pytest.fixture
def heads_read(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every data file a folder scan looks at (from the heads record or the file)."""
    seen: list[Path] = []
    real = bs_library._Heads.head

    def counting(self: bs_library._Heads, path: Path) -> bs_library.DataFile:
        seen.append(path)
        return real(self, path)

    monkeypatch.setattr(bs_library._Heads, "head", counting)
    return seen


def _factions(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["catalogs", "--catalogs", str(root / "data"), "tiny"]) == 0
    return capsys.readouterr().out


def _validate(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["validate", "--catalogs", str(root / "data"), str(root / "r.yaml")])
    got = capsys.readouterr()
    assert "Traceback" not in got.err
    return code, got.out


def test_a_second_command_does_not_scan_the_folder(
    data: Path, heads_read: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    first = _validate(data, capsys)
    assert first[0] == 0 and "legal" in first[1] and "Raiders" in first[1]
    assert len(heads_read) == 2  # the .gst and the .cat
    heads_read.clear()
    assert _validate(data, capsys) == first
    assert "raiders: Raiders" in _factions(data, capsys)
    assert heads_read == []  # both answered from the snapshot


def test_a_changed_added_or_removed_file_is_seen_at_once(
    data: Path, heads_read: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = data / "data" / "tiny"
    cat = folder / "army.cat"
    assert "raiders: Raiders" in _factions(data, capsys)
    # The same size, another name: only the time tells (as an editor saving it would).
    stat = cat.stat()
    cat.write_text(CAT.format(id="cat-1", name="Reavers"), encoding="utf-8")
    assert cat.stat().st_size == stat.st_size
    heads_read.clear()
    assert "reavers: Reavers" in _factions(data, capsys)
    assert heads_read  # scanned again
    # Replaced by a file of another size and name.
    cat.write_text(CAT.format(id="cat-1", name="Raiders of Tiny"), encoding="utf-8")
    assert "raiders-of-tiny: Raiders of Tiny" in _factions(data, capsys)
    # Touched only (the same bytes): scanned again, the same answer.
    heads_read.clear()
    cat.touch()
    assert "raiders-of-tiny: Raiders of Tiny" in _factions(data, capsys)
    assert heads_read
    # A catalogue added, plain and zipped.
    (folder / "more.cat").write_text(CAT.format(id="cat-2", name="Pirates"), encoding="utf-8")
    assert "pirates: Pirates" in _factions(data, capsys)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("zipped.cat", CAT.format(id="cat-3", name="Zipped Horde"))
    (folder / "zipped.catz").write_bytes(buf.getvalue())
    out = _factions(data, capsys)
    assert "pirates: Pirates" in out and "zipped-horde: Zipped Horde" in out
    # ... and the zipped one loads from the snapshot's scan (its text is read again).
    (data / "z.yaml").write_text(ROSTER.replace("raiders", "zipped-horde"), encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", "--catalogs", str(data / "data"), str(data / "z.yaml")]) == 0
    assert "Zipped Horde" in capsys.readouterr().out
    # Removed: gone from the next command's answer, and a roster on it says so.
    (folder / "zipped.catz").unlink()
    cat.unlink()
    out = _factions(data, capsys)
    assert "pirates: Pirates" in out and "Zipped" not in out and "Raiders" not in out
    code, _ = _validate(data, capsys)
    assert code != 0


def test_a_damaged_snapshot_is_written_anew(
    data: Path, heads_read: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    first = _validate(data, capsys)
    snapshots = list((data / "cache" / "library").glob("*.pickle"))
    assert len(snapshots) == 1
    good = snapshots[0].read_bytes()
    for damaged in (b"", b"not a pickle", good[: len(good) // 2]):
        snapshots[0].write_bytes(damaged)
        heads_read.clear()
        assert _validate(data, capsys) == first
        assert heads_read  # scanned again...
        assert snapshots[0].read_bytes() != damaged  # ... and kept again


def test_nothing_is_written_into_the_data_folder(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sorted(p.name for p in (data / "data").rglob("*"))
    for _ in range(2):
        _validate(data, capsys)
        _factions(data, capsys)
    assert sorted(p.name for p in (data / "data").rglob("*")) == before
    assert list((data / "cache" / "library").glob("*.pickle"))


PRICED_GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    '<costTypes><costType id="ct-pts" name="pts" defaultCostLimit="-1" hidden="false"/></costTypes>'
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries></gameSystem>\n'
)
PRICED_CAT = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue id="cat-1" name="{name}" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
    '<selectionEntries><selectionEntry id="se-1" name="Raider" type="unit">'
    '<costs><cost name="pts" typeId="ct-pts" value="{pts}"/></costs>'
    "</selectionEntry></selectionEntries></catalogue>\n"
)


def _rewrite_keeping_size_and_time(path: Path, text: str) -> None:
    """Write ``text`` (of the file's size) into ``path`` and set its times back, as a tool
    that restores them would (a copy with ``cp -p``, an editor, a sync)."""
    st = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (st.st_size, st.st_mtime_ns)


def test_an_edit_that_keeps_size_and_time_is_seen(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``.cat`` rewritten with the same size, its modification time set back: the next
    command reads the new text (the snapshot, the files' heads and the translation kept
    were keyed on size and time only, and went on showing the old price and name)."""
    folder = data / "data" / "tiny"
    (folder / "tiny.gst").write_text(PRICED_GST, encoding="utf-8")
    cat = folder / "army.cat"
    cat.write_text(PRICED_CAT.format(name="Raiders", pts=5), encoding="utf-8")
    roster = data / "r.yaml"
    roster.write_text(ROSTER + "selections:\n  - entry: se-1\n", encoding="utf-8")

    def show() -> str:
        capsys.readouterr()
        assert main(["show", "--catalogs", str(data / "data"), str(roster)]) == 0
        return capsys.readouterr().out

    assert "Raider  — 5 pts" in show()
    assert "Raider  — 5 pts" in show()  # (now from the snapshot and the translation kept)
    _rewrite_keeping_size_and_time(cat, PRICED_CAT.format(name="Raiders", pts=7))
    assert "Raider  — 7 pts" in show()
    assert "raiders: Raiders" in _factions(data, capsys)
    _rewrite_keeping_size_and_time(cat, PRICED_CAT.format(name="Reavers", pts=7))
    out = _factions(data, capsys)
    assert "reavers: Reavers" in out and "Raiders" not in out, out
