"""BattleScribe rosters of several forces (with a child force) on the real 40k data, and
``.ros`` written back: opened, validated, shown and printed as our roster of several forces
(format 2), converted to YAML and back keeping what we do not read, and ``export --to ros``.

The ``.ros`` is built here, through the adapter, from ``../shared/bsdata`` (test data without a
licence: these tests skip with a message where it is absent).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.interop.battlescribe import ros
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.interop.battlescribe.rosfile import add_force, read_roster, select, to_ros
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"
NEC = "xenos-necrons"
ARMY, CRUSADE, CRUSADE_ARMY = "bb9d-299a-ed60-2d8a", "cac3-71d1-ea4b-795d", "ff7b-8f73-1756-650a"

pytestmark = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


@pytest.fixture(scope="module")
def gs(lib: Library) -> BattleScribeSystem:
    found = lib.system("wh40k-10e")
    assert isinstance(found, BattleScribeSystem)
    return found


def _session(gs: BattleScribeSystem) -> AdapterSession:
    """A Space Marines army of 2,000 points, a Necron army, and a Space Marines Crusade Force
    holding a Crusade Army (a child force): what a player builds in BattleScribe."""
    s = AdapterSession()
    s.t = gs.translation_of([SM, NEC])
    s.name = "Two fronts"
    marines = add_force(s, gs, SM, ARMY)
    chosen = {sel.option.entry.name: sel for sel in marines.selections}
    select(s, "baf8-997f-e323-a090", chosen["Battle Size"], marines)  # Strike Force
    select(s, "d2dc-693e-b491-b16d", chosen["Detachment"], marines)  # Gladius Task Force
    select(s, "6c10-5b51-5bc0-8d2c", force=marines)  # Captain
    select(s, "8da0-4570-c3c-819f", force=marines)  # Intercessor Squad
    necrons = add_force(s, gs, NEC, ARMY)
    select(s, "58e9-5212-f5a6-c12d", force=necrons)  # Necron Warriors
    select(s, "dbe5-257e-e2bd-1b40", force=necrons)  # Overlord
    crusade = add_force(s, gs, SM, CRUSADE)
    add_force(s, gs, SM, CRUSADE_ARMY, parent=crusade)
    s.limits = {"51b2-306e-1021-d207": 2000.0}  # pts
    return s


#: What another tool, or a newer BattleScribe, wrote that armybuilder does not read (an empty
#: element as Python's XML library writes it back, ``<x a="1" />``: the same element).
UNKNOWN = [
    ('<tags><tag name="league">Autumn</tag></tags>', "roster"),
    ('<paint scheme="Ultramarines" />', "force-1"),
    ('<wounds lost="2" />', "Necron Warriors"),
]


def _with_unknown(text: str) -> str:
    text = text.replace('battleScribeVersion="2.03"', 'battleScribeVersion="2.03" league="A"')
    lines = text.splitlines()
    out: list[str] = []
    for line in lines:
        out.append(line)
        for xml, where in UNKNOWN:
            if (where == "roster" and line.startswith("<roster ")) or (
                f'id="{where}"' in line or (f'name="{where}"' in line and "<selection " in line)
            ):
                out.append(" " * (len(line) - len(line.lstrip()) + 2) + xml)
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def ros_file(gs: BattleScribeSystem, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ros") / "fronts.ros"
    path.write_text(_with_unknown(ros.dumps(_session(gs))), encoding="utf-8")
    return path


def _tag(el: ET.Element) -> str:
    return el.tag.rpartition("}")[2]


def essence(text: str) -> Any:
    """What BattleScribe reads of a roster: ids, entry ids, numbers, costs, forces and
    categories (not the layout, nor the copies of profiles and rules)."""
    root = ET.fromstring(text.encode("utf-8"))

    def kids(el: ET.Element, holder: str) -> list[ET.Element]:
        return [c for h in el if _tag(h) == holder for c in h]

    def costs(el: ET.Element) -> list[tuple[str | None, str | None]]:
        return sorted((c.get("typeId"), c.get("value")) for c in kids(el, "costs"))

    def cats(el: ET.Element) -> list[tuple[str | None, str | None]]:
        return sorted((c.get("entryId"), c.get("primary")) for c in kids(el, "categories"))

    def sel(el: ET.Element) -> Any:
        return (
            el.get("id"),
            el.get("entryId"),
            el.get("entryGroupId"),
            el.get("number"),
            el.get("type"),
            el.get("customName"),
            costs(el),
            cats(el),
            [sel(c) for c in kids(el, "selections")],
        )

    def force(el: ET.Element) -> Any:
        return (
            el.get("id"),
            el.get("entryId"),
            el.get("catalogueId"),
            el.get("customName"),
            cats(el),
            [sel(c) for c in kids(el, "selections")],
            [force(c) for c in kids(el, "forces")],
        )

    limits = sorted((c.get("typeId"), c.get("value")) for c in kids(root, "costLimits"))
    return (
        root.get("gameSystemId"),
        root.get("name"),
        costs(root),
        limits,
        [force(f) for f in kids(root, "forces")],
    )


def test_a_ros_of_several_forces_reads_as_a_roster_of_several_forces(
    lib: Library, ros_file: Path
) -> None:
    text = read_roster(ros_file, lib)
    roster = Roster.from_text(text, "fronts.yaml")
    assert roster.header.format == 2 and roster.several
    assert [(f.force, f.faction) for f in roster.forces or []] == [
        (ARMY, SM),
        (ARMY, NEC),
        (CRUSADE, SM),
    ]
    crusade = (roster.forces or [])[2]
    assert [(f.force, f.faction) for f in crusade.forces] == [(CRUSADE_ARMY, SM)]
    assert roster.findings == []  # `x-battlescribe:` keys in forces are no unknown keys
    assert roster.header.limits == {"pts": 2000}


def test_validate_counts_each_force_and_the_roster_s_total(lib: Library, ros_file: Path) -> None:
    roster = Roster.from_file(ros_file, library=lib)
    ev = evaluate_roster(roster, lib.system(roster.system))
    codes = {i.code for i in ev.errors}
    # The catalogues draw on shared data (both link Unaligned Forces): no false clash.
    assert "faction-clash" not in codes
    # Captain 80 + Intercessors 80 + Necron Warriors 90 + Overlord 85 (the data's costs).
    assert ev.totals["pts"] == 80 + 80 + 90 + 85
    messages = [i.message for i in ev.errors]
    # Battle Size: <constraint type="max" value="1" scope="roster" includeChildForces="true">,
    # counted over every force (one each in the two armies and the Crusade Army).
    assert "The roster 'Two fronts' has 3 × Battle Size; at most 1 allowed" in messages
    # The child force is checked in its own right, under its parent.
    assert (
        "Crusade Force > Crusade Army > Detachment has 0 choices of Detachment; "
        "at least 1 needed" in messages
    )
    assert len(list(ev.force_nodes())) == 4


def test_validate_show_and_export_a_ros_of_several_forces(
    ros_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cats = ["--catalogs", str(BSDATA)]
    code = main(["validate", *cats, str(ros_file)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "faction-clash" not in out
    assert main(["show", *cats, "--format", "json", str(ros_file)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["totals"]["pts"] == 335
    names = [f["name"] for f in shown["forces"]]
    assert names[:2] == ["Army Roster", "Army Roster"]
    assert main(["export", *cats, "--to", "text", str(ros_file)]) == 0
    text = capsys.readouterr().out
    for unit in ("Captain", "Intercessor Squad", "Necron Warriors", "Overlord"):
        assert unit in text


def test_ros_to_yaml_to_ros_keeps_what_battlescribe_reads(lib: Library, ros_file: Path) -> None:
    original = ros_file.read_text(encoding="utf-8")
    roster = Roster.from_text(read_roster(ros_file, lib), "fronts.yaml")
    back = to_ros(roster, lib)
    assert essence(back) == essence(original)
    for xml, _ in UNKNOWN:
        assert xml in back
    assert 'league="A"' in back
    # Stable: a second round trip writes the same file.
    again = ros_file.with_name("again.ros")
    again.write_text(back, encoding="utf-8")
    assert to_ros(Roster.from_text(read_roster(again, lib), "t"), lib) == back


def test_export_to_ros_and_rosz(lib: Library, ros_file: Path, tmp_path: Path) -> None:
    cats = ["--catalogs", str(BSDATA)]
    yaml = tmp_path / "fronts.yaml"
    yaml.write_text(read_roster(ros_file, lib), encoding="utf-8")
    out = tmp_path / "out.ros"
    assert main(["export", *cats, "--to", "ros", "-o", str(out), str(yaml)]) == 0
    written = out.read_text(encoding="utf-8")
    assert essence(written) == essence(ros_file.read_text(encoding="utf-8"))
    zipped = tmp_path / "out.rosz"
    assert main(["export", *cats, "--format", "rosz", "-o", str(zipped), str(yaml)]) == 0
    with zipfile.ZipFile(zipped) as zf:
        [member] = zf.namelist()
        assert member == "out.ros"
        assert zf.read(member).decode("utf-8") == written
    # The zipped roster opens again like the plain one.
    assert essence(to_ros(Roster.from_file(zipped, library=lib), lib)) == essence(written)


NATIVE = """format: 1
system: wh40k-10e
faction: imperium-adeptus-astartes-space-marines
name: Strike
limits: {pts: 2000}
selections:
  - entry: 6c10-5b51-5bc0-8d2c   # Captain (a link of the catalogue)
  - entry: 8da0-4570-c3c-819f    # Intercessor Squad
    name: Squad Ardent
"""


def test_a_roster_of_our_own_exports_with_battlescribe_s_ids_names_and_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    yaml = tmp_path / "strike.yaml"
    yaml.write_text(NATIVE, encoding="utf-8")
    assert main(["export", "--catalogs", str(BSDATA), "--to", "ros", str(yaml)]) == 0
    root = ET.fromstring(capsys.readouterr().out.encode("utf-8"))
    ns = {"r": ros.NS}
    assert root.get("gameSystemId") == "sys-352e-adc2-7639-d6a9"  # the .gst's id
    [limit] = root.findall("r:costLimits/r:costLimit", ns)
    assert (limit.get("name"), limit.get("typeId"), limit.get("value")) == (
        "pts",
        "51b2-306e-1021-d207",
        "2000",
    )
    [force] = root.findall("r:forces/r:force", ns)
    assert (force.get("entryId"), force.get("catalogueId"), force.get("catalogueName")) == (
        ARMY,
        "e0af-67df-9d63-8fb7",
        "Imperium - Adeptus Astartes - Space Marines",
    )
    sels = force.findall("r:selections/r:selection", ns)
    # Entry ids as BattleScribe composes them through an entry link: `link::target`.
    assert [
        (s.get("name"), s.get("entryId"), s.get("type"), s.get("customName")) for s in sels
    ] == [
        ("Captain", "91e3-a419-8c58-98f5::6c10-5b51-5bc0-8d2c", "model", None),
        ("Intercessor Squad", "85b1-eb9a-17a6-e5be::8da0-4570-c3c-819f", "unit", "Squad Ardent"),
    ]
    # The data's costs (80 pts each), the primary category, the roster's total.
    assert [s.find("r:costs/r:cost", ns).get("value") for s in sels] == ["80", "80"]  # type: ignore[union-attr]
    primary = [
        c.get("name")
        for s in sels
        for c in s.findall("r:categories/r:category", ns)
        if c.get("primary") == "true"
    ]
    assert primary == ["Character", "Battleline"]
    assert root.find("r:costs/r:cost", ns).get("value") == "160"  # type: ignore[union-attr]
    ids = [el.get("id") for el in root.iter() if el.get("id") is not None]
    assert len(ids) == len(set(ids))  # instance ids are unique


def test_export_to_ros_of_a_roster_of_another_system_says_why_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.ros"
    example = ROOT / "examples" / "infantry-ops" / "rifle-srm-platoon.yaml"
    assert main(["export", "--to", "ros", "-o", str(out), str(example)]) == 2
    err = capsys.readouterr().err
    assert "is not BattleScribe data; only rosters of BattleScribe data can be written" in err
    assert not out.exists()
