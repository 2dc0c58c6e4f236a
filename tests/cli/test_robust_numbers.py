"""Big, broken and hostile numbers: every command reports them with file:line:col, none crashes.

Bounds (armybuilder/model/bounds.py, documented in docs/catalog-format.md): a selection's
count is 1 to 10,000; a catalog cost at most 1,000,000 either way; a roster limit 0 to
1,000,000,000 and finite. A YAML scalar that is not a value (``!!int abc``, an integer longer
than Python reads) is a YAML error at its position; a bad user catalog is reported and left
out while the other catalogs and every roster still work.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[2]
PLATOON = REPO / "examples" / "infantry-ops" / "rifle-platoon.yaml"
REGIMENT = REPO / "examples" / "starship-marine" / "earther-regiment.yaml"

COMMANDS = (["validate"], ["show"], ["export", "--to", "json"], ["validate", "--format", "json"])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err + cap.out
    return code, cap.out, cap.err


#: The line the platoon's `count:` goes on: the one after `  - entry: platoon`.
LINE = PLATOON.read_text().splitlines().index("  - entry: platoon") + 2


def with_count(tmp_path: Path, count: str) -> Path:
    # The platoon's `count:` goes on line LINE, after `  - entry: platoon` (column 12).
    text = PLATOON.read_text().replace(
        "  - entry: platoon\n", f"  - entry: platoon\n    count: {count}\n", 1
    )
    p = tmp_path / "platoon.yaml"
    p.write_text(text)
    assert text.splitlines()[LINE - 1] == f"    count: {count}"
    return p


@pytest.mark.parametrize(
    ("count", "shown"),
    [
        ("100001", "not 100001"),
        ("1" + "0" * 100, "not a number of 101 digits"),
        ("9" * 310, "not a number of 310 digits"),
    ],
    ids=["100001", "10**100", "310-digits"],
)
def test_a_count_out_of_bounds_is_an_error_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], count: str, shown: str
) -> None:
    path = with_count(tmp_path, count)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    assert (
        f"{path}:{LINE}:12: error: count must be a whole number from 1 to 10,000, {shown}; "
        "counted as 1 [invalid-value]"
    ) in out
    # counted as 1: the platoon's mass is the example's own 2380 kg
    assert "Mass 2,380 kg" in out
    for argv in COMMANDS[1:]:
        code, out, _ = run(capsys, *argv, str(path))
        assert code in (0, 1)
        if "json" in argv:
            data = json.loads(out)
            roster = data["rosters"][0] if "rosters" in data else data
            assert roster["totals"] == {"kg": 2380.0}


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("!!int abc", "'abc' is not a valid int value"),
        ("9" * 4400, "'99999999999999999999… (4400 characters)' is not a valid int value"),
        ("!!float x", "'x' is not a valid float value"),
    ],
    ids=["int-abc", "4400-digits", "float-x"],
)
def test_a_value_yaml_cannot_read_is_reported_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, says: str
) -> None:
    path = with_count(tmp_path, value)
    for argv in COMMANDS:
        code, out, err = run(capsys, *argv, str(path))
        assert code == 2, argv
        if "json" in argv and argv[0] == "validate":
            issue = json.loads(out)["rosters"][0]["issues"][0]
            assert (issue["line"], issue["column"], issue["message"]) == (LINE, 12, says)
        else:
            assert f"{path}:{LINE}:12: {says}" in out + err


def user_catalog(tmp_path: Path, costs: str) -> Path:
    root = tmp_path / "catalogs"
    (root / "infantry-ops").mkdir(parents=True)
    (root / "infantry-ops" / "extra.yaml").write_text(
        "kind: catalog\nid: extra\nsystem: infantry-ops\nname: Extra\nentries:\n"
        f"  - id: x\n    name: X\n    costs: {costs}\n"
    )
    return root


def test_a_broken_user_catalog_is_reported_and_the_rest_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = user_catalog(tmp_path, "{kg: !!int abc}")
    bad = root / "infantry-ops" / "extra.yaml"
    for argv in COMMANDS:
        code, out, err = run(capsys, *argv, "--catalogs", str(root), str(PLATOON))
        assert code == 0, (argv, out, err)
    # validate and show name the catalog they left out, with its place
    code, out, err = run(capsys, "validate", "--catalogs", str(root), str(PLATOON))
    assert f"{bad}:8:17: 'abc' is not a valid int value" in err
    assert "legal — Rifle platoon" in out
    code, out, _ = run(capsys, "check-catalog", str(bad))
    assert code == 2
    assert f"{bad}:8:17: 'abc' is not a valid int value" in out


@pytest.mark.parametrize(
    ("costs", "column"),
    [("{kg: " + "9" * 400 + "}", 17), ("{kg: .nan}", 17), ("{kg: 2000000}", 17)],
    ids=["400-digits", "nan", "two-million"],
)
def test_catalog_costs_are_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], costs: str, column: int
) -> None:
    bad = user_catalog(tmp_path, costs) / "infantry-ops" / "extra.yaml"
    code, out, _ = run(capsys, "check-catalog", str(bad))
    assert code == 2
    assert f"{bad}:8:{column}:" in out


def test_a_huge_campaign_value_is_no_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Starship Marine 4.7: experience from actions fought. 4,300 digits is the most Python
    # reads as a number; the roster still validates and shows (the value is reported).
    huge = "9" * 4300
    p = tmp_path / "regiment.yaml"
    p.write_text(
        REGIMENT.read_text().replace(
            "state: {actions: 31, wounds: 2}", f"state: {{actions: {huge}, wounds: 2}}"
        )
    )
    for argv in COMMANDS:
        code, out, _ = run(capsys, *argv, str(p))
        assert code in (0, 1), argv
        if "json" in argv:
            json.loads(out)


EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def every_count(text: str, count: int) -> str:
    """The roster with `count: N` on every selection."""
    from ruamel.yaml import YAML

    yaml = YAML()
    doc = yaml.load(text)

    def walk(sels: list[dict[str, object]] | None) -> None:
        for s in sels or []:
            s["count"] = count
            walk(s.get("selections"))  # type: ignore[arg-type]

    walk(doc.get("selections"))
    for force in doc.get("forces") or []:
        walk(force.get("selections"))
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in EXAMPLES])
def test_the_largest_counts_everywhere_are_shown_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    # 10,000 copies at every level (10,000**4 models and more): computed values must not grow
    # with the count (a list of every heavy weapon carried used to take minutes in Space Hulk).
    p = tmp_path / path.name
    p.write_text(every_count(path.read_text(), 10_000))
    code, out, _ = run(capsys, "show", "--format", "json", str(p))
    assert code == 0
    # the rules module worked its values out (it did not give up on a MemoryError or a
    # number too long to print)
    assert "rules-module-failed" not in out

    def refuse(constant: str) -> object:
        raise AssertionError(constant)

    json.loads(out, parse_constant=refuse)
