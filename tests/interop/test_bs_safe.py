"""Hostile BattleScribe files are refused with a message naming the file (safe.py): entity
bombs, external entities, zip bombs, archives of several members or with paths, deep nesting.
Every file here is made by the test."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.errors import RosterError
from armybuilder.interop.battlescribe import safe
from armybuilder.interop.battlescribe.rosfile import read_roster

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    '<costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>'
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries>'
    "</gameSystem>\n"
)
LAUGHS = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">'
        for i in range(1, 10)
    )
    + ']>\n<catalogue id="c" name="&lol9;" gameSystemId="sys-1"/>'
)
EXTERNAL = (
    '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
    '<roster id="r" name="&x;"/>'
)


def test_billion_laughs_is_refused_before_parsing() -> None:
    with pytest.raises(safe.UnsafeFileError, match=r"bomb\.cat:2: a document type declaration"):
        safe.parse(LAUGHS, "bomb.cat")


def test_external_entity_is_refused(tmp_path: Path) -> None:
    ros = tmp_path / "x.ros"
    ros.write_text(EXTERNAL, encoding="utf-8")
    with pytest.raises(RosterError) as exc:
        read_roster(ros, Library([]))
    assert str(ros) in str(exc.value) and "document type declaration" in str(exc.value)
    assert "root:" not in str(exc.value)  # nothing of /etc/passwd


def test_utf16_doctype_is_refused_too() -> None:
    data = EXTERNAL.replace('<?xml version="1.0"?>\n', "").encode("utf-16")
    with pytest.raises(safe.UnsafeFileError, match="document type"):
        safe.parse(safe.decode(data, "u.ros"), "u.ros")


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def test_zip_bomb_is_refused_by_its_unzipped_size(tmp_path: Path) -> None:
    bomb = _zip(tmp_path / "bomb.catz", {"bomb.cat": b"<" + b" " * (2 * 1024 * 1024)})
    assert bomb.stat().st_size < 20_000
    with pytest.raises(safe.UnsafeFileError, match=r"bomb\.catz: unzips to 2\.0 MiB, more"):
        safe.read_bytes(bomb, limit=1024 * 1024)


def test_zip_whose_declared_size_lies_is_still_bounded(tmp_path: Path) -> None:
    path = _zip(tmp_path / "liar.rosz", {"a.ros": b"x" * 5000})
    data = bytearray(path.read_bytes())
    # Patch the declared uncompressed size (central directory, offset 24 of its record).
    at = data.rfind(b"PK\x01\x02")
    data[at + 24 : at + 28] = (10).to_bytes(4, "little")
    lie = tmp_path / "lie.rosz"
    lie.write_bytes(bytes(data))
    with pytest.raises(safe.UnsafeFileError, match=r"lie\.rosz"):
        safe.read_bytes(lie, limit=1000)


def test_zip_with_two_members_is_refused(tmp_path: Path) -> None:
    two = _zip(tmp_path / "two.gstz", {"a.gst": GST.encode(), "b.gst": GST.encode()})
    with pytest.raises(
        safe.UnsafeFileError, match=r"two\.gstz: .*exactly one file; this one holds 2"
    ):
        safe.read_bytes(two)


def test_zip_member_path_is_never_used(tmp_path: Path) -> None:
    evil = _zip(tmp_path / "evil.gstz", {"../../escaped.gst": GST.encode()})
    data = safe.read_bytes(evil)
    assert data.startswith(b"<?xml")
    assert not (tmp_path.parent / "escaped.gst").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evil.gstz"]


def test_zipped_game_system_loads_in_the_library(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    _zip(folder / "Tiny.gstz", {"Tiny.gst": GST.encode()})
    cat = (
        '<catalogue id="c1" name="Red" gameSystemId="sys-1" '
        'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
        '<selectionEntries><selectionEntry id="u1" name="Squad" type="unit">'
        '<costs><cost name="pts" typeId="pts" value="10"/></costs></selectionEntry>'
        "</selectionEntries></catalogue>"
    )
    _zip(folder / "Red.catz", {"Red.cat": cat.encode()})
    lib = Library([tmp_path], use_cache=False).scan()
    gs = lib.system("tiny")
    index = gs.index("red")
    assert [c.entry.name for c in index.roots] == ["Squad"]
    assert gs.problems == []


def test_not_a_zip_and_deep_nesting_are_refused(tmp_path: Path) -> None:
    fake = tmp_path / "fake.catz"
    fake.write_bytes(b"not a zip at all")
    with pytest.raises(safe.UnsafeFileError, match=r"fake\.catz: not a readable zip archive"):
        safe.read_bytes(fake)
    deep = "<a>" * 300 + "</a>" * 300
    with pytest.raises(safe.UnsafeFileError, match=r"deep\.cat: elements nest more than 256"):
        safe.parse(deep, "deep.cat")
    with pytest.raises(safe.UnsafeFileError, match=r"bad\.cat: not well-formed XML"):
        safe.parse("<a><b></a>", "bad.cat")
