"""A roster written as ``.ros`` keeps the player's order (QA of printing and exports, item 6).

BattleScribe writes a roster's selections sorted (by primary category in the force entry's
order, then by name) and sorts what it shows whatever a file's order; a roster of ours written
as ``.ros`` and converted back must list its forces, units and their options as the player did,
not in that sorted order. Here on a small catalogue made in the test (hypothesis over random
orders) and once on the Gaslands data (``../shared/bsdata``, skipped with a message where it is
absent). The conformance adapter's own ``.ros`` export keeps BattleScribe's order (the suite
compares it with BattleScribe's files)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.catalog import Library
from armybuilder.interop.battlescribe import ros
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.interop.battlescribe.rosfile import add_force, read_roster, select, to_ros
from armybuilder.rosters import Roster
from armybuilder.yamlio import to_plain

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries>
    <categoryEntry id="hq" name="HQ"/>
    <categoryEntry id="troops" name="Troops"/>
  </categoryEntries>
  <forceEntries>
    <forceEntry id="f1" name="Army">
      <categoryLinks>
        <categoryLink id="fl1" targetId="hq"/>
        <categoryLink id="fl2" targetId="troops"/>
      </categoryLinks>
    </forceEntry>
  </forceEntries>
</gameSystem>
"""

#: Units whose sorted order (HQ first, then Troops, then by name) differs from most orders a
#: player gives them; the Squad's options likewise.
CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="u-zulu" name="Zulu Captain" type="unit">
      <categoryLinks><categoryLink id="c1" targetId="hq" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="50"/></costs>
    </selectionEntry>
    <selectionEntry id="u-alpha" name="Alpha Squad" type="unit">
      <categoryLinks><categoryLink id="c2" targetId="troops" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="10"/></costs>
      <selectionEntries>
        <selectionEntry id="o-rifle" name="Rifle" type="upgrade"/>
        <selectionEntry id="o-axe" name="Axe" type="upgrade"/>
        <selectionEntry id="o-mine" name="Mine" type="upgrade"/>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="u-bravo" name="Bravo Walker" type="model">
      <costs><cost name="pts" typeId="pts" value="30"/></costs>
    </selectionEntry>
    <selectionEntry id="u-mike" name="Mike Medic" type="model">
      <categoryLinks><categoryLink id="c3" targetId="hq" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="15"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

UNITS = ["u-zulu", "u-alpha", "u-bravo", "u-mike"]
OPTIONS = ["o-rifle", "o-axe", "o-mine"]
NAMES = {
    "u-zulu": "Zulu Captain",
    "u-alpha": "Alpha Squad",
    "u-bravo": "Bravo Walker",
    "u-mike": "Mike Medic",
    "o-rifle": "Rifle",
    "o-axe": "Axe",
    "o-mine": "Mine",
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("data") / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_CACHE_DIR", str(folder.parent / "cache"))
        return Library([folder]).scan()


def _yaml(units: list[tuple[str, list[str]]]) -> str:
    lines = ["name: Order\nsystem: tiny\nfaction: army\nselections:\n"]
    for unit, options in units:
        lines.append(f"  - entry: {unit}\n")
        if options:
            lines.append("    selections:\n")
            lines.extend(f"      - entry: {o}\n" for o in options)
    return "".join(lines)


def _written(xml: str) -> list[tuple[int, str]]:
    """The selections of a ``.ros``, in the file's order, with their depth."""
    return [
        (len(m.group(1)), m.group(2))
        for m in re.finditer(r'^( *)<selection id="[^"]*" name="([^"]*)"', xml, re.M)
    ]


def _entries(doc: object, out: list[str]) -> list[str]:
    """The entry ids of a roster document's selections, depth first, in order."""
    if isinstance(doc, dict):
        if "entry" in doc:
            out.append(str(doc["entry"]))
        for item in doc.get("selections") or []:
            _entries(item, out)
    return out


ROSTERS = st.lists(
    st.tuples(
        st.sampled_from(UNITS),
        st.permutations(OPTIONS).flatmap(lambda p: st.integers(0, 3).map(lambda n: p[:n])),
    ),
    min_size=1,
    max_size=6,
).map(lambda units: [(u, list(o) if u == "u-alpha" else []) for u, o in units])


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(units=ROSTERS)
def test_ros_keeps_the_rosters_order_both_ways(
    tiny: Library, tmp_path_factory: pytest.TempPathFactory, units: list[tuple[str, list[str]]]
) -> None:
    lib = tiny
    work = tmp_path_factory.mktemp("order")
    src = work / "order.yaml"
    src.write_text(_yaml(units), encoding="utf-8")
    xml = to_ros(Roster.from_file(src, library=lib), lib)
    want: list[tuple[int, str]] = []
    for unit, options in units:
        want.append((0, NAMES[unit]))
        want.extend((1, NAMES[o]) for o in options)
    got = _written(xml)
    depths = sorted({d for d, _ in got})
    assert [(depths.index(d), n) for d, n in got] == want
    # Converted back, the YAML lists them as the player did; and again as .ros, the same file.
    ros_file = work / "order.ros"
    ros_file.write_text(xml, encoding="utf-8")
    back = work / "back.yaml"
    back.write_text(read_roster(ros_file, lib), encoding="utf-8")
    roster = Roster.from_file(back, library=lib)
    first = Roster.from_file(src, library=lib)
    assert _entries(to_plain(roster.doc), []) == _entries(to_plain(first.doc), [])
    assert to_ros(roster, lib) == xml


def test_an_unknown_entry_stays_at_its_place(tiny: Library, tmp_path: Path) -> None:
    """A selection of an entry the data does not hold, read from a ``.ros``, is written back
    where it was among the player's selections, not at the end."""
    lib = tiny
    src = tmp_path / "order.yaml"
    src.write_text(_yaml([("u-bravo", []), ("u-zulu", []), ("u-mike", [])]), encoding="utf-8")
    xml = to_ros(Roster.from_file(src, library=lib), lib)
    odd = '<selection id="odd-1" name="Ghost" entryId="nowhere" number="1" type="unit"/>'
    lines = xml.splitlines()
    at = next(i for i, line in enumerate(lines) if 'name="Zulu Captain"' in line)
    lines.insert(at, " " * (len(lines[at]) - len(lines[at].lstrip())) + odd)
    ros_file = tmp_path / "odd.ros"
    ros_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    back = tmp_path / "back.yaml"
    back.write_text(read_roster(ros_file, lib), encoding="utf-8")
    again = to_ros(Roster.from_file(back, library=lib), lib)
    names = [n for _, n in _written(again)]
    assert names == ["Bravo Walker", "Ghost", "Zulu Captain", "Mike Medic"]


def test_the_adapters_export_keeps_battlescribes_order(tiny: Library) -> None:
    """What the conformance suite compares with BattleScribe's own files: HQ first (the force
    entry's first category), then Troops, then the uncategorised; by name within each."""
    lib = tiny
    gs = lib.system("tiny")
    assert isinstance(gs, BattleScribeSystem)
    s = AdapterSession()
    s.t = gs.translation_of(["army"])
    force = add_force(s, gs, "army", auto=False)
    for unit in ["u-bravo", "u-alpha", "u-zulu", "u-mike"]:
        select(s, unit, force=force)
    assert [n for _, n in _written(ros.dumps(s))] == [
        "Mike Medic",
        "Zulu Captain",
        "Alpha Squad",
        "Bravo Walker",
    ]


@pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)
def test_a_gaslands_team_keeps_its_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The QA case: Sponsor, Car, Bike, War Rig (ids from Gaslands.gst and Gaslands.cat) came
    out as Bike, Car, War Rig, Sponsor."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    lib = Library([BSDATA / "gaslands"]).scan()
    sponsor, car, bike, rig = (
        "7209-f619-ccee-874e",
        "ebb5-bde6-e221-9acc",
        "dcb1-8c0e-c647-a042",
        "d654-0e96-f231-fcd8",
    )
    src = tmp_path / "team.yaml"
    src.write_text(
        "name: Team\nsystem: gaslands\nfaction: gaslands\nforce: 60bf-0f00-db63-fb4e\n"
        f"selections:\n  - entry: {sponsor}\n  - entry: {car}\n  - entry: {bike}\n"
        f"  - entry: {rig}\n",
        encoding="utf-8",
    )
    xml = to_ros(Roster.from_file(src, library=lib), lib)
    top = min(d for d, _ in _written(xml))
    assert [n for d, n in _written(xml) if d == top] == ["Sponsor", "Car", "Bike", "War Rig"]
    ros_file = tmp_path / "team.ros"
    ros_file.write_text(xml, encoding="utf-8")
    back = tmp_path / "back.yaml"
    back.write_text(read_roster(ros_file, lib), encoding="utf-8")
    doc = to_plain(Roster.from_file(back, library=lib).doc)
    assert [str(s["entry"]) for s in doc["selections"]] == [sponsor, car, bike, rig]
