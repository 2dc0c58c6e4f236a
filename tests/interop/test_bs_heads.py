"""The scan of a BattleScribe folder remembers what it read of each file's head (by path, size
and time), and a changed file is read again; a broken record only costs time."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.interop.battlescribe import library as bs_library

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries></gameSystem>\n'
)
CAT = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue id="cat-1" name="{name}" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema">{links}</catalogue>\n'
)


def _names(root: Path) -> list[str]:
    # (the heads record is what a scan reads: the library snapshot, which a command after
    # the first reads instead of scanning, is not used here)
    for snapshot in (root.parent / "cache" / "library").glob("*.pickle"):
        snapshot.unlink()
    gs = Library([root]).scan().system("tiny")
    return sorted(f.model.name for f in gs.factions.values())


def test_a_changed_file_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    cat = folder / "army.cat"
    cat.write_text(CAT.format(name="Raiders", links=""), encoding="utf-8")
    assert _names(tmp_path / "data") == ["Raiders"]
    heads = list((tmp_path / "cache" / "battlescribe").glob("heads-*.json"))
    assert len(heads) == 1 and "Raiders" in heads[0].read_text(encoding="utf-8")
    # Another name (and size): the scan reads the file again, not the record.
    cat.write_text(CAT.format(name="Corsairs of the Void", links=""), encoding="utf-8")
    assert _names(tmp_path / "data") == ["Corsairs of the Void"]
    # A record that is not JSON is ignored (and written anew).
    heads[0].write_text("{not json", encoding="utf-8")
    assert _names(tmp_path / "data") == ["Corsairs of the Void"]
    assert "Corsairs" in heads[0].read_text(encoding="utf-8")


def test_links_come_from_the_record_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    folder.mkdir()
    path = folder / "army.cat"
    link = '<catalogueLinks><catalogueLink id="l1" targetId="cat-9" type="catalogue"/>'
    path.write_text(CAT.format(name="A", links=link + "</catalogueLinks>"), encoding="utf-8")
    saver = bs_library._Heads(True)
    assert saver.head(path).links == ["cat-9"] and saver.changed
    saver.save()
    again = bs_library._Heads(True)
    assert again.head(path).links == ["cat-9"] and not again.changed
