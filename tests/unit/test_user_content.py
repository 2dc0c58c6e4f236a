"""A player's own content: faction files that extend a bundled faction, and entries defined
inside a roster (``custom:``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library, check_paths
from armybuilder.cli import main
from armybuilder.paths import bundled_dir
from armybuilder.rosters import Roster
from armybuilder.rules import evaluate_roster

EXTENSION = """\
kind: catalog
id: my-army-book
system: infantry-ops
extends: inner-sphere
name: My army book
entries:
  - id: recon-team
    name: Recon team
    type: unit
    categories: [platoon]
    costs: {kg: 100}
    entries:
      - {link: trooper}
    constraints:
      - {type: max, value: 4, scope: self, child: trooper}
"""

ROSTER = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: Mixed
selections:
  - entry: recon-team
    selections:
      - entry: trooper
        count: 5
        selections: [{entry: rifle}, {entry: kevlar-vest}]
"""


def library_with(tmp_path: Path, text: str) -> Library:
    folder = tmp_path / "user" / "infantry-ops"
    folder.mkdir(parents=True)
    (folder / "mine.yaml").write_text(text)
    return Library([bundled_dir("catalogs"), tmp_path / "user"], use_cache=False).scan()


def test_extension_adds_entries_to_the_faction(tmp_path: Path) -> None:
    lib = library_with(tmp_path, EXTENSION)
    assert lib.problems == []
    gs = lib.system("infantry-ops")
    assert "my-army-book" not in gs.factions  # it is not a faction of its own
    ev = evaluate_roster(Roster.from_text(ROSTER), gs)
    assert ev.codes() == ["max-exceeded"]
    assert ev.issues[0].message == "Recon team has 5 × Trooper; at most 4 allowed"
    # the bundled entries are all still there
    assert gs.index("inner-sphere").child(None, "platoon") is not None
    # and other factions are untouched
    assert gs.index("clan").child(None, "recon-team") is None


def test_broken_extension_is_left_out_with_its_line(tmp_path: Path) -> None:
    lib = library_with(tmp_path, EXTENSION.replace("{link: trooper}", "{link: troper}"))
    assert len(lib.problems) == 1
    problem = lib.problems[0]
    assert problem.file.endswith("mine.yaml")
    assert problem.line == 13
    assert "troper" in problem.message
    assert lib.system("infantry-ops").index("inner-sphere").child(None, "recon-team") is None


def test_extension_of_unknown_faction(tmp_path: Path) -> None:
    lib = library_with(tmp_path, EXTENSION.replace("extends: inner-sphere", "extends: nobody"))
    assert [p.code for p in lib.problems] == ["unknown-faction"]


def test_extension_duplicate_id_is_reported(tmp_path: Path) -> None:
    lib = library_with(tmp_path, EXTENSION.replace("id: recon-team", "id: platoon"))
    assert len(lib.problems) == 1
    assert "duplicate entry id 'platoon'" in lib.problems[0].message


def test_check_catalog_on_extension(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(EXTENSION)
    assert check_paths([path]) == []
    path.write_text(EXTENSION.replace("categories: [platoon]", "categories: [platon]"))
    (problem,) = check_paths([path])
    assert problem.line == 10
    assert "unknown category 'platon'" in problem.message


CUSTOM = """\
format: 1
system: infantry-ops
faction: clan
name: Custom
custom:
  entries:
    - id: militia-band
      name: Militia band
      type: unit
      categories: [platoon]
      entries: [{link: trooper}]
      constraints:
        - {type: max, value: 10, scope: self, child: trooper}
selections:
  - entry: militia-band
    selections:
      - entry: trooper
        count: 12
        selections: [{entry: rifle}, {entry: kevlar-vest}]
"""


def test_custom_entries_in_a_roster(library: Library) -> None:
    gs = library.system("infantry-ops")
    ev = evaluate_roster(Roster.from_text(CUSTOM), gs)
    assert ev.codes() == ["max-exceeded"]
    assert ev.totals["kg"] == 12 * 85
    # the shared catalog is not changed by one roster's entries
    assert gs.index("clan").child(None, "militia-band") is None


def test_custom_entries_round_trip(library: Library) -> None:
    roster = Roster.from_text(CUSTOM)
    roster.set(("selections", 0), "name", "The band")
    assert "custom:\n  entries:\n    - id: militia-band" in roster.dumps()


@pytest.mark.parametrize(
    ("change", "message", "line"),
    [
        ("{link: trooper}", "{link: nobody}", 11),
        ("categories: [platoon]", "categories: [nothing]", 10),
        ("type: unit", "type: monster", 9),
    ],
)
def test_bad_custom_entries_are_issues_not_crashes(
    library: Library, change: str, message: str, line: int, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(CUSTOM.replace(change, message))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:{line}:" in out
    assert "[invalid-custom-entry]" in out
    assert "Traceback" not in out


def test_extension_with_data_the_rules_module_rejects_is_left_out(tmp_path: Path) -> None:
    weapon = """shared_entries:
  - id: gyrojet-rifle
    name: Gyrojet rifle
    categories: [weapon, primary]
    profiles:
      - type: weapon
        characteristics: {type: primary, dv: "0.5(ZZ)", range: "0/1/2/3/4 (-1/0/+2/+4/+6)",
                          enc: 1, setup: "0", load: "0", cf: 1, cc: 1, ammo: "–"}
"""
    lib = library_with(tmp_path, EXTENSION + weapon)
    assert len(lib.problems) == 1
    problem = lib.problems[0]
    assert problem.file.endswith("mine.yaml")
    assert (problem.line, problem.column) == (22, 46)  # the dv value
    assert "unknown damage type 'ZZ'" in problem.message
    assert lib.system("infantry-ops").index("inner-sphere").child(None, "recon-team") is None


TWO_CUSTOM = """\
format: 1
system: infantry-ops
faction: clan
name: Two bands
custom:
  entries:
    - id: militia-band
      name: Militia band
      type: unit
      categories: [platoon]
      entries: [{link: trooper}]
    - id: bandit-gang
      name: Bandit gang
      type: unit
      categories: [platoon]
      entries: [{link: nobody}]
    - id: guard-post
      name: Guard post
      type: unit
      categories: [platoon]
      entries: [{link: trooper}]
selections:
  - entry: militia-band
    selections: [{entry: trooper, count: 3, selections: [{entry: rifle}, {entry: kevlar-vest}]}]
  - entry: bandit-gang
  - entry: guard-post
    selections: [{entry: trooper, selections: [{entry: rifle}, {entry: kevlar-vest}]}]
"""


def test_one_bad_custom_entry_leaves_the_others_usable(
    library: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistake in one custom entry is reported with its line; the other custom entries stay
    selectable (they used to be unknown entries, as if the whole ``custom:`` had failed)."""
    ev = evaluate_roster(Roster.from_text(TWO_CUSTOM), library.system("infantry-ops"))
    errors = [(i.code, i.path) for i in ev.errors]
    (bad,) = [p for c, p in errors if c == "invalid-custom-entry"]
    assert bad[:3] == ("custom", "entries", 1)  # the Bandit gang, at its place in the roster
    unknown = [p for c, p in errors if c == "unknown-entry"]
    assert unknown == [("selections", 1)]  # only the bad one's selection
    assert ev.totals["kg"] == 4 * 85  # the two good entries' troopers count
    path = tmp_path / "r.yaml"
    path.write_text(TWO_CUSTOM)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:16:" in out and "[invalid-custom-entry]" in out  # the bad link's line
    assert out.count("[unknown-entry]") == 1
