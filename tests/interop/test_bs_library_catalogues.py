"""A BattleScribe catalogue whose root says ``library="true"`` holds entries other catalogues
link to; BattleScribe does not offer it as a roster's catalogue, and neither does a new
roster here. It still loads as a link of the catalogues that use it, and a roster naming it
still opens. The 40k check needs the BattleScribe test data (../shared/bsdata) and skips
with a message where it is absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.cli import LIBRARIES_HEADING, main
from armybuilder.interop.battlescribe import library as bs_library

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    '<costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>'
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries></gameSystem>\n'
)
ARMY = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue id="cat-army" name="Raiders" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
    '<catalogueLinks><catalogueLink id="l1" name="Shared" targetId="cat-lib" type="catalogue" '
    'importRootEntries="true"/></catalogueLinks></catalogue>\n'
)
SHARED = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue library="true" id="cat-lib" name="Library - Shared" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
    '<selectionEntries><selectionEntry id="e-walker" name="Walker" type="unit" '
    'import="true"/></selectionEntries></catalogue>\n'
)


def write_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(ARMY, encoding="utf-8")
    (folder / "shared.cat").write_text(SHARED, encoding="utf-8")
    return folder


def test_the_head_scan_reads_the_library_flag(tmp_path: Path) -> None:
    folder = write_folder(tmp_path)
    assert bs_library.head(folder / "shared.cat").library
    assert not bs_library.head(folder / "army.cat").library
    assert not bs_library.head(folder / "tiny.gst").library


@pytest.mark.parametrize("use_cache", [False, True])
def test_a_new_roster_is_not_offered_a_library_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_cache: bool
) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    write_folder(tmp_path)
    # (twice with the caches: the second scan reads the heads record / library snapshot)
    for _ in range(2 if use_cache else 1):
        gs = Library([tmp_path / "data"], use_cache=use_cache).scan().system("tiny")
        assert [f.name for f in gs.offered_factions()] == ["Raiders"]
        # still installed: a roster naming it opens, a catalogue linking it loads it
        assert sorted(f.name for f in gs.factions.values()) == ["Library - Shared", "Raiders"]
    names = {c.entry.name for c in gs.index("raiders").children(None)}
    assert "Walker" in names
    # loading keeps the flag (the factions are made again from the translation)
    assert [f.name for f in gs.offered_factions()] == ["Raiders"]
    assert gs.index("library-shared").faction.name == "Library - Shared"
    assert [f.name for f in gs.offered_factions()] == ["Raiders"]
    # a force already of the library catalogue keeps it among its choices
    assert [f.id for f in gs.offered_factions(keep="library-shared")] == [
        "library-shared",
        "raiders",
    ]


@pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(),
    reason=f"the 40k BattleScribe data is not at {BSDATA / 'wh40k-10e'}",
)
def test_40k_offers_its_armies_and_not_its_library_catalogues() -> None:
    lib = Library([BSDATA]).scan()
    gs = next(g for g in lib.systems.values() if g.path.parent.name == "wh40k-10e")
    offered = {f.name for f in gs.offered_factions()}
    libraries = {
        "Library - Titans",
        "Library - Tyranids",
        "Library - Astartes Heresy Legends",
        "Imperium - Imperial Knights - Library",
        "Unaligned Forces",
    }
    assert not offered & libraries
    assert {
        "Imperium - Adeptus Astartes - Space Marines",
        "Xenos - Tyranids",
        "Xenos - Orks",
    } <= offered
    assert libraries <= {f.name for f in gs.factions.values()}


def test_the_catalogs_command_lists_a_library_catalogue_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a player reads in ``armybuilder catalogs``: the factions a roster is built from,
    then the library catalogues on their own line, named as such (text and JSON)."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    write_folder(tmp_path)
    folder = str(tmp_path / "data")
    assert main(["catalogs", "--catalogs", folder]) == 0
    lines = capsys.readouterr().out.splitlines()
    tiny = lines.index("tiny: Tiny")
    assert lines[tiny + 1 : tiny + 3] == [
        "    factions: raiders (Raiders)",
        f"    {LIBRARIES_HEADING}: library-shared (Library - Shared)",
    ]
    assert main(["catalogs", "--catalogs", folder, "tiny"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "tiny: Tiny",
        "  raiders: Raiders",
        f"  {LIBRARIES_HEADING}:",
        "    library-shared: Library - Shared",
    ]
    assert main(["catalogs", "--catalogs", folder, "--format", "json"]) == 0
    systems = {s["id"]: s for s in json.loads(capsys.readouterr().out)["systems"]}
    assert {f["id"]: f["library"] for f in systems["tiny"]["factions"]} == {
        "raiders": False,
        "library-shared": True,
    }
    assert "library catalogues" in LIBRARIES_HEADING


def test_the_new_command_refuses_a_library_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``armybuilder new`` builds a roster from a faction, as the New roster dialog does: a
    library catalogue is refused, saying what it is and which factions there are, and no file
    is written; a real faction's roster is written as before."""
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    write_folder(tmp_path)
    folder = str(tmp_path / "data")
    out = tmp_path / "shared.yaml"
    assert main(["new", "--catalogs", folder, "tiny", "library-shared", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "library-shared (Library - Shared) is a library catalogue of Tiny" in err
    assert "(factions: raiders)" in err
    assert not out.exists()
    army = tmp_path / "raiders.yaml"
    assert main(["new", "--catalogs", folder, "tiny", "raiders", "-o", str(army)]) == 0
    assert "faction: raiders" in army.read_text(encoding="utf-8")
