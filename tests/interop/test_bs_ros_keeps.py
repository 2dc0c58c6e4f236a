"""A BattleScribe roster (``.ros``, ``.rosz``) converted to our YAML roster and written back
keeps every value and everything we do not read; what a ``.ros`` cannot hold is refused at
its place, never written changed (issue 18, "files are sacred").

Defects these found: a name or notes with a tab or a line break came back with spaces (the
writer left them bare in attributes, where XML turns them into spaces) and a carriage return
as a line feed; a control character was written into a file neither BattleScribe nor we
could open; an attribute in another namespace (``xml:lang``, ``o:flag``) was written back as
``{uri}flag``, which is no XML; comments and processing instructions were dropped; a count
that is no whole number (``2.5``, ``yes``, empty) was written as 1 without a word; a cost
limit that is no number (``abc``) ended every command in a traceback, one that is ``NaN``
was dropped; a problem of the converted roster was reported at a line of the YAML text
(which the player never sees) under the ``.ros``'s name; an empty roster name came back as
"New Roster"; a file declaring another encoding than UTF-8 was refused without a line; a
3 GiB file was read whole before its size was looked at; a .rosz with damaged compressed
data ended in a zlib.error traceback.

Every file here is made by the test from the Gaslands data (``../shared/bsdata``; skipped
with a message where it is absent)."""

from __future__ import annotations

import contextlib
import io
import json
import xml.etree.ElementTree as ET
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.errors import RosterError
from armybuilder.interop.battlescribe import ros
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.interop.battlescribe.rosfile import (
    add_force,
    read_roster,
    select,
    to_ros,
    to_rosz,
)
from armybuilder.interop.battlescribe.safe import keeping_parser
from armybuilder.rosters import Roster
from armybuilder.session import EditSession
from armybuilder.yamlio import to_plain

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
TEAM, BIKE, CAR = "60bf-0f00-db63-fb4e", "dcb1-8c0e-c647-a042", "ebb5-bde6-e221-9acc"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)

#: Text a player types that XML or YAML writers trip on (each one a .ros can hold).
ODD_TEXT = [
    "yes",
    "null",
    "1e3",
    "0x10",
    "1.50",
    "-0",
    "100000000000000000000",
    "  lead and trail  ",
    "#",
    ": ",
    "---",
    "a\tb",
    "a\nb",
    "a\r\nb",
    "a\rb",
    "\ttabbed\n",
    "a\x85b",
    "a\u2028b",
    "\x7f",
    "漢字",
    "😀",
    "שלום עולם",
    "x" * 5000,
    "&",
    "&amp;",
    "<",
    "]]>",
    '"quoted"',
    "'",
    "\ufeff",
]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_CACHE_DIR", str(cache))
        yield Library([BSDATA / "gaslands"]).scan()


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))


def gaslands(lib: Library) -> BattleScribeSystem:
    gs = lib.system("gaslands")
    assert isinstance(gs, BattleScribeSystem)
    return gs


def team_ros(lib: Library, value: str) -> str:
    """A .ros as BattleScribe would write it with ``value`` as the roster's name and every
    custom name and notes."""
    gs = gaslands(lib)
    s = AdapterSession()
    s.t = gs.translation_of(["gaslands"])
    s.name = value
    force = add_force(s, gs, "gaslands", TEAM)
    force.custom_name = force.custom_notes = value
    bike = select(s, BIKE, force=force)
    bike.custom_name = bike.custom_notes = value
    select(s, CAR, force=force)
    return ros.dumps(s, roster_order=True)


def cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*argv, "--catalogs", str(BSDATA / "gaslands")])
    said = out.getvalue() + err.getvalue()
    assert "Traceback" not in said, said
    return code, said


def values(doc: dict[str, object]) -> tuple[object, ...]:
    """The roster's name and the force's and the bike's custom name and notes."""
    keep = doc["x-battlescribe"]
    sel = next(s for s in doc["selections"] if s["entry"] == BIKE)  # type: ignore[attr-defined]
    return (
        doc["name"],
        doc.get("notes"),
        keep["force"].get("customName"),  # type: ignore[index]
        sel.get("name"),
        sel.get("notes"),
    )


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.sampled_from(ODD_TEXT)
    | st.text(
        alphabet=st.characters(
            blacklist_categories=["Cs"], blacklist_characters=[chr(c) for c in range(32)]
        )
        | st.sampled_from("\t\n\r"),
        min_size=1,
        max_size=30,
    )
)
@example("a\tb\nc\rd")
def test_a_value_survives_ros_to_yaml_and_back_byte_for_byte(
    lib: Library, tmp_path_factory: pytest.TempPathFactory, value: str
) -> None:
    tmp = tmp_path_factory.mktemp("odd")
    text = team_ros(lib, value)
    path = tmp / "team.ros"
    path.write_bytes(text.encode("utf-8"))
    yaml_text = read_roster(path, lib)
    roster = Roster.from_text(str(yaml_text), str(tmp / "team.yaml"), tmp / "team.yaml")
    assert values(to_plain(roster.doc)) == (value,) * 5
    assert to_ros(roster, lib) == text
    zipped = tmp / "team.rosz"
    zipped.write_bytes(to_rosz(roster, lib, zipped.name))
    assert str(read_roster(zipped, lib)) == str(yaml_text).replace("team.ros", "team.rosz")


@pytest.mark.parametrize("value", ODD_TEXT[:16], ids=[repr(v)[:20] for v in ODD_TEXT[:16]])
def test_a_value_through_the_commands_and_an_edit_session(
    lib: Library, tmp_path: Path, value: str
) -> None:
    """``export --to ros/rosz`` of the converted roster writes the .ros it came from; the
    builder's session saves it as YAML with the values as they were."""
    text = team_ros(lib, value)
    path = tmp_path / "team.ros"
    path.write_bytes(text.encode("utf-8"))
    assert cli("validate", str(path))[0] in (0, 1)
    assert cli("show", str(path))[0] in (0, 1)
    code, out = cli("export", str(path), "--to", "json")
    assert json.loads(out)["name"] == value
    assert cli("export", str(path), "--to", "ros", "-o", str(tmp_path / "out.ros"))[0] == 0
    assert (tmp_path / "out.ros").read_bytes() == text.encode("utf-8")
    assert cli("export", str(path), "--to", "rosz", "-o", str(tmp_path / "out.rosz"))[0] == 0
    with zipfile.ZipFile(tmp_path / "out.rosz") as zf:
        assert zf.read(zf.namelist()[0]) == text.encode("utf-8")
    session = EditSession.open(path, lib)
    session.set(("selections", 1), "notes", value)  # an edit of the player's
    saved = session.save()
    session.close()
    doc = to_plain(Roster.from_file(saved).doc)
    assert values(doc) == (value,) * 5
    assert doc["selections"][1]["notes"] == value  # (a .ros keeps what BattleScribe had)
    assert path.read_bytes() == text.encode("utf-8")  # the .ros never written over
    code, _ = cli("export", str(saved), "--to", "ros", "-o", str(tmp_path / "again.ros"))
    again = (tmp_path / "again.ros").read_text(encoding="utf-8")
    assert code == 0
    assert ET.fromstring(again).get("name") == value


HEAD = """\
format: 1
system: gaslands
faction: gaslands
name: Team
force: 60bf-0f00-db63-fb4e
x-battlescribe:
  force:
    id: force-1
{keep}selections:
  - entry: dcb1-8c0e-c647-a042
{bike}  - entry: ebb5-bde6-e221-9acc
"""
UNWRITABLE = {
    "a control character": ("", '    name: "a\\x01b"\n', 11, "selections[0].name", "U+0001"),
    "a date as notes": ("", "    notes: 2024-05-01\n", 11, "selections[0].notes", "not date"),
    "a list as a name": ("", "    name: [a]\n", 11, "selections[0].name", "not a list"),
    "half a count": ("", "    count: 2.5\n", 11, "selections[0].count", "2.5 is not a whole"),
    "a word as a count": ("", "    count: 'yes'\n", 11, "selections[0].count", "'yes' is not"),
    "an empty count": ("", "    count:\n", 11, "selections[0].count", "an empty value is"),
    "true as a count": ("", "    count: true\n", 11, "selections[0].count", "true is not"),
    "a kept attribute no XML": (
        "",
        "    x-battlescribe:\n      attributes: {'a b': c}\n",
        12,
        "selections[0].x-battlescribe.attributes",
        "'a b' is not an XML attribute name",
    ),
    "a kept attribute written anew": (
        "",
        "    x-battlescribe:\n      attributes: {number: '3'}\n",
        12,
        "selections[0].x-battlescribe.attributes",
        "'number' is written from the roster, not kept",
    ),
    "a kept element no XML": (
        "  roster:\n    elements: ['<tags>']\n",
        "",
        10,
        "x-battlescribe.roster.elements[0]",
        "is not XML",
    ),
}


@pytest.mark.parametrize("case", list(UNWRITABLE), ids=list(UNWRITABLE))
def test_what_a_ros_cannot_hold_is_refused_at_its_line(
    lib: Library, tmp_path: Path, case: str
) -> None:
    keep, bike, line, where, said = UNWRITABLE[case]
    path = tmp_path / "team.yaml"
    path.write_text(HEAD.format(keep=keep, bike=bike), encoding="utf-8")
    assert cli("validate", str(path))[0] in (0, 1)  # an illegal list is still a list
    for suffix in ("ros", "rosz"):
        out = tmp_path / f"out.{suffix}"
        code, message = cli("export", str(path), "--to", suffix, "-o", str(out))
        assert code == 2
        assert message.startswith(f"{path}:{line}:"), message
        assert f": {where}: " in message and said in message, message
        assert "cannot be written as .ros" in message
        assert not out.exists()


def test_a_kept_element_is_refused_where_it_stands(lib: Library, tmp_path: Path) -> None:
    """(The place of a kept element under the roster's own key, as the message names it.)"""
    path = tmp_path / "team.yaml"
    path.write_text(HEAD.format(keep="  roster:\n    elements: ['<a>&bogus;</a>']\n", bike=""))
    code, message = cli("export", str(path), "--to", "ros", "-o", str(tmp_path / "o.ros"))
    assert code == 2 and "not XML" in message and f"{path}:" in message, message


UNKNOWN = """\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- written by a tool of the league -->
<roster id="r1" name="Team" battleScribeVersion="2.03" gameSystemId="55c7-45e5-b4ec-d17c" \
gameSystemName="Gaslands" gameSystemRevision="25" \
xmlns="http://www.battlescribe.net/schema/rosterSchema" \
xmlns:o="urn:league" o:season="autumn" xml:lang="de">
  <!-- a note of the player -->
  <?league sync="yes"?>
  <o:standing o:rank="3">Third &amp; rising<![CDATA[ <raw> ]]></o:standing>
  <tags><tag name="league"><![CDATA[Autumn <cup> & more]]></tag><!-- inside kept -->\
<tag name="cr">one&#13;two</tag></tags>
  <forces>
    <force id="force-1" name="Team" entryId="60bf-0f00-db63-fb4e" \
catalogueId="0139-7751-4542-5c90" catalogueRevision="4" catalogueName="Gaslands" o:colour="red">
      <customNotes><![CDATA[Notes <with> & marks]]><!-- in the notes --> and more</customNotes>
      <selections>
        <!-- between selections -->
        <selection id="sel-3" name="Bike" entryId="dcb1-8c0e-c647-a042::b5d8-cf00-181a-b503" \
number="1" type="model" o:nickname="Zippy" tint="blue">
          <?league painted?>
          <o:decal>skull</o:decal>
          <costs><!-- in costs --></costs>
        </selection>
        <selection id="sel-9" name="Hovercraft" entryId="zz-not-in-the-data" number="2" \
type="model">
          <!-- inside an unknown entry -->
          <customNotes>kept&#13;whole</customNotes>
        </selection>
      </selections>
    </force>
  </forces>
</roster>
<?league end="here"?>
"""


def _parts(text: str) -> tuple[set[str], set[tuple[str, str, str]], dict[str, str]]:
    """(comments and processing instructions, (element id, attribute, value) of attributes
    in another namespace, text of every element in another namespace or unknown to us)."""
    body = text.split("?>", 1)[1]
    root = ET.fromstring(f"<all>{body}</all>", keeping_parser())
    marks: set[str] = set()
    attrs: set[tuple[str, str, str]] = set()
    texts: dict[str, str] = {}
    for el in root.iter():
        if el.tag is ET.Comment:
            marks.add(f"<!--{el.text}-->")
        elif el.tag is ET.ProcessingInstruction:
            marks.add(f"<?{el.text}?>")
        else:
            for k, v in el.attrib.items():
                if k.startswith("{") or k == "tint":
                    attrs.add((el.get("id", el.tag), k, v))
            if el.tag != "all" and not str(el.tag).startswith("{http://www.battlescribe.net/"):
                texts[str(el.tag)] = "".join(el.itertext())
    return marks, attrs, texts


def test_what_we_do_not_read_is_kept_on_a_round_trip(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "team.ros"
    path.write_text(UNKNOWN, encoding="utf-8")
    # (Comments kept in the tree do not move the lines issues name.)
    line = UNKNOWN.split("\n").index(next(x for x in UNKNOWN.split("\n") if "Hovercraft" in x))
    assert f"{path}:{line + 1}: error: unknown entry" in cli("validate", str(path))[1]
    code, out = cli("export", str(path), "--to", "ros", "-o", str(tmp_path / "back.ros"))
    assert code == 0, out
    back = (tmp_path / "back.ros").read_text(encoding="utf-8")
    marks, attrs, texts = _parts(UNKNOWN)
    assert _parts(back)[0] == marks
    assert back.split("\n")[1:2] == ["<!-- written by a tool of the league -->"]
    assert back.split("\n")[-3:] == ["</roster>", '<?league end="here"?>', ""]
    assert back.count("<!-- inside kept -->") == 1
    assert _parts(back)[1] == attrs
    assert _parts(back)[2] == texts
    notes = ET.fromstring(back.split("?>", 1)[1]).find(".//{*}force/{*}customNotes")
    assert notes is not None and notes.text == "Notes <with> & marks and more"
    # It reads again, and another round trip writes the same file.
    again = tmp_path / "again.ros"
    assert cli("export", str(tmp_path / "back.ros"), "--to", "ros", "-o", str(again))[0] == 0
    assert again.read_text(encoding="utf-8") == back


@pytest.mark.parametrize("value", ["abc", "NaN", "1e400"])
def test_a_cost_limit_that_is_no_number_is_reported_at_its_line(
    lib: Library, tmp_path: Path, value: str
) -> None:
    text = team_ros(lib, "Team")
    text = text.replace(
        "</roster>",
        '  <costLimits>\n    <costLimit name="Cans" typeId="91a9-beed-6d55-d7ea" '
        f'value="{value}"/>\n  </costLimits>\n</roster>',
    )
    line = text.split("\n").index("  <costLimits>") + 1
    path = tmp_path / "team.ros"
    path.write_text(text, encoding="utf-8")
    for command in ("validate", "show"):
        code, said = cli(command, str(path))
        assert code == 2
        assert said.startswith(f"{path}:{line}: limits.cans: "), said
    assert (cli("export", str(path), "--to", "json")[0]) == 2


def test_an_empty_roster_name_is_kept(lib: Library, tmp_path: Path) -> None:
    text = team_ros(lib, "Team").replace('name="Team" battleScribe', 'name="" battleScribe')
    path = tmp_path / "team.ros"
    path.write_text(text, encoding="utf-8")
    assert to_plain(Roster.from_file(path, library=lib).doc)["name"] == ""
    assert cli("export", str(path), "--to", "ros", "-o", str(tmp_path / "o.ros"))[0] == 0
    assert (tmp_path / "o.ros").read_text(encoding="utf-8") == text


def test_another_encoding_is_refused_with_its_line(lib: Library, tmp_path: Path) -> None:
    text = team_ros(lib, "Café").replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
    path = tmp_path / "team.ros"
    path.write_bytes(text.encode("latin-1"))
    code, said = cli("validate", str(path))
    assert code == 2
    assert said.startswith(f"{path}:2:"), said
    assert "not UTF-8 text: byte 0xe9" in said and "says it is ISO-8859-1" in said
    # The same text as UTF-8, whatever its declaration says, reads as it is.
    path.write_bytes(text.encode("utf-8"))
    assert json.loads(cli("export", str(path), "--to", "json")[1])["name"] == "Café"


@pytest.mark.parametrize("suffix", [".ros", ".rosz"])
def test_a_file_too_large_is_refused_before_it_is_read(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    """(Its fingerprint was taken first, reading all of it: a 3 GiB file ended in a
    MemoryError; and a zipped one was read whole before its size was looked at.)"""
    path = tmp_path / f"huge{suffix}"
    with path.open("wb") as fh:
        fh.truncate(3 * 1024**3)  # (sparse: no disk used)
    reads: list[Path] = []
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        reads.append(self)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    for command in ("validate", "show"):
        code, said = cli(command, str(path))
        assert code == 2
        assert said.startswith(f"{path}: 3072.0 MiB is more than the 64 MiB"), said
    with pytest.raises(RosterError):
        EditSession.open(path, lib)
    assert path not in reads


def test_a_damaged_rosz_is_refused_with_a_message(lib: Library, tmp_path: Path) -> None:
    """Damaged compressed data (a download corrupted in the middle, not cut at its end)
    ended every command in a zlib.error traceback."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("team.ros", team_ros(lib, "Team"))
    data = buf.getvalue()
    # The first damage that makes the decompressor itself fail (not only the CRC check).
    for at in range(40, len(data) // 2):
        damaged = data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]
        try:
            with zipfile.ZipFile(io.BytesIO(damaged)) as zf:
                zf.read("team.ros")
        except zlib.error:
            break
        except zipfile.BadZipFile:
            continue
    else:
        pytest.fail("no damage found that the decompressor fails on")
    path = tmp_path / "team.rosz"
    path.write_bytes(damaged)
    for command in ("validate", "show"):
        code, said = cli(command, str(path))
        assert code == 2
        assert said.startswith(f"{path}: the zipped file is damaged: "), said
    with pytest.raises(RosterError):
        EditSession.open(path, lib)
