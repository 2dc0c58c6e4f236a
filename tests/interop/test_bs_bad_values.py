"""A BattleScribe data file holding a value our models refuse (issue 18: "a data error in a
catalogue is reported with the file and the element, never a traceback, and the rest of the
data still loads"): a cost of ``nan`` or out of range, a count that is no whole number, a flag
that is neither true nor false, an unknown entry type, a cost without its type, an id with a
trailing newline. Each leaves out its element with a problem naming the file, the line and
the element; ``catalogs``, ``validate`` and ``show`` report it; the lossless model of the
conformance adapter reads the same files without a traceback. Every file is made here."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.batch import Options, check_file
from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.errors import ArmybuilderError
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.report import load_evaluated

ROOT = Path(__file__).resolve().parents[2]

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries><categoryEntry id="hq" name="HQ"/></categoryEntries>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""

#: Three entries: the Captain and the Trooper hold the values the cases spoil; the Medic is
#: never touched, and must load whatever happens to the others.
CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="e1" name="Captain" type="unit" hidden="false">
      <categoryLinks><categoryLink id="l1" targetId="hq" primary="true"/></categoryLinks>
      <costs><cost name="pts" typeId="pts" value="50"/></costs>
      <constraints>
        <constraint id="c1" type="max" value="1" field="selections" scope="roster"/>
      </constraints>
    </selectionEntry>
    <selectionEntry id="e2" name="Trooper" type="model">
      <costs><cost name="pts" typeId="pts" value="10"/></costs>
      <modifiers><modifier type="set" field="hidden" value="true">
        <repeats>
          <repeat value="1" repeats="1" field="selections" scope="parent" childId="e1"/>
        </repeats>
      </modifier></modifiers>
    </selectionEntry>
    <selectionEntry id="e3" name="Medic" type="model">
      <costs><cost name="pts" typeId="pts" value="15"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

#: (case, the text replaced, its replacement, what the problem must say, the element named)
CASES = [
    ("nan-cost", 'value="50"', 'value="nan"', "'nan', not a finite number", "e1"),
    (
        "huge-cost",
        'value="50"',
        'value="2e6"',
        "'2e6', out of range (it must be at most 1,000,000)",
        "e1",
    ),
    ("word-cost", 'value="10"', 'value="ten"', "'ten', not a number", "e2"),
    ("constraint-nan", 'value="1" field', 'value="inf" field', "not a finite number", "e1"),
    (
        "count-not-whole",
        'repeats="1"',
        'repeats="1.5"',
        "'1.5', not a whole number",
        "e2",
    ),
    ("flag", 'hidden="false"', 'hidden="maybe"', "hidden is 'maybe', not true or false", "e1"),
    (
        "entry-type",
        'type="model">\n      <costs><cost name="pts" typeId="pts" value="10"',
        'type="banana">\n      <costs><cost name="pts" typeId="pts" value="10"',
        "type is 'banana', not one of",
        "e2",
    ),
    (
        "constraint-type",
        'type="max" value="1"',
        'type="most" value="1"',
        "'most', not one of",
        "e1",
    ),
    ("cost-without-type", 'typeId="pts" value="10"', 'value="10"', "without its typeId", "e2"),
]


def _folder(tmp: Path, name: str, cat: str) -> Path:
    folder = tmp / name
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(cat, encoding="utf-8")
    (folder / "list.yaml").write_text(
        f"name: Test\nsystem: {name}\nfaction: army\nselections:\n  - entry: e3\n",
        encoding="utf-8",
    )
    return folder


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command line in this process (what ``python -m armybuilder`` runs)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _where(folder: Path, element: str) -> str:
    cat = folder / "army.cat"
    line = next(
        i for i, text in enumerate(cat.read_text().splitlines(), 1) if f'id="{element}"' in text
    )
    return f"{cat}:{line}: <selectionEntry id='{element}'"


@pytest.mark.parametrize(
    ("case", "old", "new", "says", "element"), CASES, ids=[c[0] for c in CASES]
)
def test_a_bad_value_is_a_data_problem_through_the_command_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    old: str,
    new: str,
    says: str,
    element: str,
) -> None:
    assert CAT.count(old) == 1, case
    folder = _folder(tmp_path, "tiny", CAT.replace(old, new))
    where = _where(folder, element)

    code, out, err = _run(capsys, "catalogs", "--catalogs", str(folder), "tiny", "army")
    assert code == 0, err
    assert "e3: Medic" in out  # the rest still loads
    assert f"  {element}: " not in out  # the element is left out...
    problems = out.split("Problems in this catalog's data (the rest is listed above):\n")[1]
    assert problems.startswith(where) and says in problems and "it is left out" in problems

    code, out, err = _run(capsys, "validate", "--catalogs", str(folder), str(folder / "list.yaml"))
    assert code == 0, out + err  # a warning, not an error: the Medic is legal
    (warning,) = [line for line in out.splitlines() if "[catalog-data-left-out]" in line]
    assert warning.startswith(f"{folder / 'list.yaml'}: warning: {where}") and says in warning
    assert "legal (1 warning) — Test" in out

    code, out, err = _run(capsys, "show", "--catalogs", str(folder), str(folder / "list.yaml"))
    assert code == 0 and where in out and "Medic" in out


def test_no_traceback_from_the_command(tmp_path: Path) -> None:
    """The same through ``python -m armybuilder`` itself, in a process of its own."""
    folder = _folder(tmp_path, "tiny", CAT.replace('value="50"', 'value="nan"'))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARMYBUILDER_CACHE_DIR": str(tmp_path / "c")}
    for args in (
        ["catalogs", "--catalogs", str(folder), "tiny", "army"],
        ["validate", "--catalogs", str(folder), str(folder / "list.yaml")],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "armybuilder", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr and done.stderr == ""
        assert _where(folder, "e1") in done.stdout and "'nan', not a finite number" in done.stdout


def test_a_good_catalogue_has_no_data_problem(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "tiny", CAT)
    gs = Library([folder]).scan().system("tiny")
    assert isinstance(gs, BattleScribeSystem)
    index = gs.index("army")
    assert sorted(e.entry.id for e in index.roots) == ["e1", "e2", "e3"]
    assert gs.problems == []


def test_an_id_with_a_trailing_newline_is_mapped_not_refused(tmp_path: Path) -> None:
    """BattleScribe's ids are any text: one that is not ours (here with a trailing newline,
    which a pattern ending in ``$`` used to let through) is mapped to one of ours."""
    folder = _folder(tmp_path, "tiny", CAT.replace('id="e1"', 'id="e1&#10;"'))
    gs = Library([folder]).scan().system("tiny")
    assert isinstance(gs, BattleScribeSystem)
    roots = {e.entry.name: e.entry.id for e in gs.index("army").roots}
    assert roots["Medic"] == "e3" and roots["Trooper"] == "e2"
    assert roots["Captain"] in ("e1", "e1-x2")  # (the repeat's childId "e1" is another id)
    assert gs.problems == []


def test_a_modifier_by_a_number_out_of_bounds_is_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cost modifier of ``1e400`` (infinite once read) used to make the roster's total
    ``inf`` and legal; now the modifier is left out, with a problem naming its entry."""
    spoilt = CAT.replace(
        '<selectionEntry id="e3" name="Medic" type="model">',
        '<selectionEntry id="e3" name="Medic" type="model">'
        '<modifiers><modifier type="increment" field="pts" value="1e400"/></modifiers>',
    )
    folder = _folder(tmp_path, "tiny", spoilt)
    code, out, _ = _run(capsys, "validate", "--catalogs", str(folder), str(folder / "list.yaml"))
    assert code == 0
    assert (
        f"{_where(folder, 'e3')} name='Medic'> has a <modifier> of pts whose value is '1e400', "
        "not a finite number within ±1,000,000,000; the modifier is left out (in the data of "
        "Army) [catalog-data-left-out]"
    ) in out
    assert "legal (1 warning) — Test (Tiny, Army); 15 pts" in out


def test_a_bad_attribute_of_the_root_keeps_its_default(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "tiny", CAT.replace('revision="1"', 'library="perhaps"'))
    gs = Library([folder]).scan().system("tiny")
    assert isinstance(gs, BattleScribeSystem)
    assert len(gs.index("army").roots) == 3
    (problem,) = gs.problems
    assert problem.file.endswith("army.cat")
    assert problem.message == (
        "<catalogue id='cat-1' name='Army'> library is 'perhaps', not true or false; "
        "the default is used"
    )


@pytest.mark.parametrize(
    ("case", "old", "new", "says", "element"), CASES, ids=[c[0] for c in CASES]
)
def test_the_conformance_adapter_reads_the_same_files(
    case: str, old: str, new: str, says: str, element: str
) -> None:
    s = AdapterSession()
    got = s.handle(
        {
            "type": "setupFromFiles",
            "files": [
                {"fileName": "tiny.gst", "content": GST},
                {"fileName": "army.cat", "content": CAT.replace(old, new)},
            ],
        }
    )
    assert got["type"] == "setupResult", got
    (error,) = got["errors"]
    assert f"<selectionEntry id='{element}'" in error and says in error
    assert s.t is not None and s.t.system is not None
    ids = {e.id for f in s.t.system.factions.values() for e in f.model.entries}
    assert "e3" in ids and element not in ids


# ----------------------------------------------------------------------------- fuzz

ET.register_namespace("", "http://www.battlescribe.net/schema/catalogueSchema")  # (no ns0:)
_BASE = ET.fromstring(CAT.split("\n", 1)[1])
_ATTRS = [
    (i, name) for i, el in enumerate(_BASE.iter()) for name in el.attrib if name not in ("xmlns",)
]
#: The elements a change may spoil with the Medic still loading: not the Medic and its cost,
#: nor the catalogue itself (its id and system decide whether it loads at all).
_MEDIC = next(el for el in _BASE.iter() if el.get("id") == "e3")
_SPOILABLE = {
    i for i, el in enumerate(_BASE.iter()) if i > 0 and el is not _MEDIC and el not in list(_MEDIC)
} - {i for i, el in enumerate(_BASE.iter()) if el in list(_MEDIC.iter())}
_VALUES = st.one_of(
    st.sampled_from(
        [
            "nan",
            "inf",
            "-inf",
            "2e6",
            "1e400",
            "-1",
            "0",
            "1.5",
            "9" * 400,
            "true",
            "false",
            "maybe",
            "",
            " ",
            "e1\n",
            "e1",
            "e3",
            "hq",
            "pts",
            "unit",
            "banana",
            "selectionEntryGroup",
            "roster",
            "ancestor",
        ]
    ),
    st.text(max_size=12),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats().map(str),
)


@settings(
    max_examples=int(os.environ.get("ARMYBUILDER_FUZZ_EXAMPLES", "60")),
    deadline=None,
    derandomize="ARMYBUILDER_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.tuples(st.sampled_from(_ATTRS), _VALUES), min_size=1, max_size=4))
def test_no_mutated_value_escapes_the_loader(
    tmp_path_factory: pytest.TempPathFactory, changes: list[tuple[tuple[int, str], str]]
) -> None:
    root = ET.fromstring(CAT.split("\n", 1)[1])
    elements = list(root.iter())
    for (i, name), value in changes:
        elements[i].set(name, "".join(c for c in value if c.isprintable() or c == "\n"))
    text = ET.tostring(root, encoding="unicode")
    folder = _folder(tmp_path_factory.mktemp("fuzz"), "tiny", text)
    lib = Library([folder], use_cache=False).scan()
    gs = lib.system("tiny")
    assert isinstance(gs, BattleScribeSystem)
    for fid in list(gs.factions):  # (a changed root may rename the catalogue, or move it)
        index = gs.index(fid)  # loads and translates: data problems, never an exception
        if {i for (i, _), _ in changes} <= _SPOILABLE and fid == "army":
            assert "e3" in {e.entry.id for e in index.roots}  # the Medic, untouched, loads
    # (a changed root may have the scan refuse or leave out the file: "data", "unknown-system")
    codes = {"data-value", "data-reference", "data", "unknown-system"}
    assert all(p.code in codes for p in gs.problems), gs.problems
    assert all(p.file.endswith(("army.cat", "tiny.gst")) for p in gs.problems)
    # A roster of everything validates to a verdict (the engine on what was translated).
    full = folder / "full.yaml"
    full.write_text(
        "name: All\nsystem: tiny\nfaction: army\nselections:\n"
        "  - entry: e1\n    count: 2\n  - entry: e2\n  - entry: e3\n",
        encoding="utf-8",
    )
    assert check_file(lib, str(full), Options()).exit_code in (0, 1, 2)
    try:
        _, _, ev = load_evaluated(lib, str(full))
    except ArmybuilderError:
        pass  # (the faction left out: an error the command line reports)
    else:
        assert all(math.isfinite(v) for v in ev.totals.values()), ev.totals
    # The lossless model of the conformance adapter reads it too.
    s = AdapterSession()
    got = s.handle(
        {
            "type": "setupFromFiles",
            "files": [
                {"fileName": "tiny.gst", "content": GST},
                {"fileName": "army.cat", "content": text},
            ],
        }
    )
    assert got["type"] == "setupResult", got


@pytest.mark.parametrize(
    ("kind", "value"),
    # (a negative maximum is BattleScribe's "no limit", not an error: no ("max", "-3") case)
    [("min", "-3"), *((k, v) for k in ("min", "max") for v in ("20000", "2.5", "nan"))],
)
def test_a_group_count_out_of_bounds_leaves_the_group_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, value: str
) -> None:
    """A group's count of selections (``min`` / ``max``, scope parent) that is no whole number
    from 0 to 10,000 is a data problem naming the group; the group is left out (as an entry
    with a bad limit is) and the rest loads: found by review, it used to end in a traceback."""
    spoilt = CAT.replace(
        "  </selectionEntries>\n</catalogue>",
        '    <selectionEntry id="e4" name="Sergeant" type="model">\n'
        "      <selectionEntryGroups>\n"
        '        <selectionEntryGroup id="g1" name="Weapon">\n'
        f'          <constraints><constraint id="c9" type="{kind}" value="{value}"'
        ' field="selections" scope="parent"/></constraints>\n'
        "          <selectionEntries>"
        '<selectionEntry id="w1" name="Pistol" type="upgrade"/></selectionEntries>\n'
        "        </selectionEntryGroup>\n"
        "      </selectionEntryGroups>\n"
        "    </selectionEntry>\n"
        "  </selectionEntries>\n</catalogue>",
    )
    assert spoilt != CAT
    folder = _folder(tmp_path, "tiny", spoilt)
    code, out, err = _run(capsys, "validate", "--catalogs", str(folder), str(folder / "list.yaml"))
    assert code == 0, out + err
    (warning,) = [line for line in out.splitlines() if "[catalog-data-left-out]" in line]
    assert "<selectionEntryGroup id='g1' name='Weapon'>" in warning
    if value == "nan":  # (refused as the file is read, as any constraint of nan is)
        assert "whose value is nan, not a finite number; it is left out" in warning
    else:
        assert f"({kind} selections) whose value is {float(value)!r}" in warning
        assert "not a whole number from 0 to 10,000; the group is left out" in warning
    code, out, err = _run(capsys, "catalogs", "--catalogs", str(folder), "tiny", "army")
    assert code == 0 and "e3: Medic" in out and "e4: Sergeant" in out, out + err
