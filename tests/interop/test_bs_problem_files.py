"""Which catalogue a BattleScribe data problem belongs to, and the folder listing.

A value the data's model refuses leaves its element out and is reported by whatever uses the
file it is in (docs/battlescribe.md, "Data problems"): a catalogue gets the problems of its
own file, of the catalogues it links to and of the game system file, never those of another
catalogue that happened to be loaded in the same process. The folder listing
(``catalogs --catalogs DIR``) reads only the files' heads; it says how many problems a
previous load found in a file, unchanged since, and the command that shows them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.interop.battlescribe.library import BattleScribeSystem

from .test_bs_bad_values import CAT, GST

#: A second catalogue, all good, with entries of its own.
OTHER = (
    CAT.replace('id="cat-1" name="Army"', 'id="cat-2" name="Other"')
    .replace('id="e1"', 'id="o1"')
    .replace('id="e2"', 'id="o2"')
    .replace('id="e3"', 'id="o3"')
    .replace('childId="e1"', 'childId="o1"')
    .replace('id="c1"', 'id="oc1"')
    .replace('id="l1"', 'id="ol1"')
)
#: A third that links to the first (it uses the first's entries, so its problems too).
LINKED = (
    OTHER.replace('id="cat-2" name="Other"', 'id="cat-3" name="Allies"')
    .replace('id="o', 'id="a')
    .replace('childId="o1"', 'childId="a1"')
    .replace(
        "  <selectionEntries>",
        '  <catalogueLinks><catalogueLink id="cl1" targetId="cat-1" type="catalogue"'
        ' importRootEntries="true"/></catalogueLinks>\n  <selectionEntries>',
        1,
    )
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT.replace('value="50"', 'value="nan"'), encoding="utf-8")
    (folder / "other.cat").write_text(OTHER, encoding="utf-8")
    (folder / "allies.cat").write_text(LINKED, encoding="utf-8")
    return folder


def test_a_problem_is_reported_by_the_catalogue_it_comes_from(folder: Path) -> None:
    gs = Library([folder], use_cache=False).scan().system("tiny")
    assert isinstance(gs, BattleScribeSystem)
    # loaded in turn, as a builder opening one roster then another does: each load reads
    # every catalogue loaded so far
    for fid in ("army", "other", "allies"):
        gs.index(fid)
    army, other, allies = (gs.faction(f).dropped for f in ("army", "other", "allies"))
    assert len(army) == 1 and army[0].file == str(folder / "army.cat")
    assert "'nan', not a finite number" in army[0].message
    assert other == []  # its own file is good
    assert allies == army  # it links to the army catalogue, and uses its entries


def test_a_roster_of_the_good_catalogue_is_not_warned(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = folder / "good.yaml"
    good.write_text("name: T\nsystem: tiny\nfaction: other\nselections:\n  - entry: o3\n")
    bad = folder / "bad.yaml"
    bad.write_text("name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: e3\n")
    code = main(["validate", "--catalogs", str(folder), str(bad), str(good)])
    out = capsys.readouterr().out
    assert code == 0
    left_out = [line for line in out.splitlines() if "[catalog-data-left-out]" in line]
    assert len(left_out) == 1 and left_out[0].startswith(f"{bad}: warning: ")


def test_the_folder_listing_says_what_a_load_found(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def listing() -> str:
        assert main(["catalogs", "--catalogs", str(folder)]) == 0
        return capsys.readouterr().out

    # nothing loaded yet: the heads say nothing of the data
    assert "data problem" not in listing()
    assert main(["catalogs", "--catalogs", str(folder), "tiny", "army"]) == 0
    assert "'nan', not a finite number" in capsys.readouterr().out
    out = listing()
    see = f"armybuilder catalogs --catalogs {folder} tiny army"
    line = f"    army.cat: 1 data problem (see them: {see})"
    assert line in out.splitlines(), out
    assert "other.cat" not in out and "allies.cat" not in out
    assert main(["catalogs", "--catalogs", str(folder), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    (system,) = [s for s in found["systems"] if s["id"] == "tiny"]
    counts = {f["id"]: f.get("data_problems") for f in system["factions"]}
    assert counts == {"army": 1, "other": None, "allies": None}
    assert system["data_problems"] == 0  # the game system file: read, nothing wrong
    # fixed on disk: the file changed, so what the load found is no longer known
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    assert "data problem" not in listing()


def test_the_folder_listing_counts_links_to_nothing_too(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link to an entry no file defines is a data problem that `catalogs DIR SYSTEM FACTION`
    lists (the link is left out): the folder listing counts it as well, so the count it gives
    is the number of problems the command it points to shows (before, only refused values
    were counted: `other.cat` showed nothing, or `data_problems: 0`)."""
    dangling = (
        '  <entryLinks><entryLink id="dl1" name="Ghost" targetId="dead-beef"'
        ' type="selectionEntry"/></entryLinks>\n</catalogue>'
    )
    (folder / "other.cat").write_text(OTHER.replace("</catalogue>", dangling), encoding="utf-8")
    assert main(["catalogs", "--catalogs", str(folder), "tiny", "other"]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines() if "other.cat:" in line]
    assert len(shown) == 1 and "points to 'dead-beef', which no loaded file defines" in shown[0]
    assert main(["catalogs", "--catalogs", str(folder)]) == 0
    see = f"armybuilder catalogs --catalogs {folder} tiny other"
    assert f"    other.cat: 1 data problem (see them: {see})" in capsys.readouterr().out
    assert main(["catalogs", "--catalogs", str(folder), "--format", "json"]) == 0
    (system,) = [s for s in json.loads(capsys.readouterr().out)["systems"] if s["id"] == "tiny"]
    assert {f["id"]: f.get("data_problems") for f in system["factions"]}["other"] == 1


def test_a_link_to_nothing_is_never_offered(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The link the data problem says "is left out" (docs/battlescribe.md, "Data problems")
    is left out everywhere: not listed among the catalogue's entries, not among the options
    a message offers, and a roster naming it is told the entry is unknown."""
    dangling = (
        '  <entryLinks><entryLink id="dl1" name="Ghost" targetId="dead-beef"'
        ' type="selectionEntry"/></entryLinks>\n</catalogue>'
    )
    (folder / "other.cat").write_text(OTHER.replace("</catalogue>", dangling), encoding="utf-8")
    assert main(["catalogs", "--catalogs", str(folder), "tiny", "other"]) == 0
    out = capsys.readouterr().out
    assert "which no loaded file defines; it is left out" in out
    assert [line for line in out.splitlines() if "Ghost" in line and "left out" not in line] == []
    gs = Library([folder], use_cache=False).scan().system("tiny")
    index = gs.index("other")
    assert "Ghost" not in [c.entry.name for c in index.children(None)]
    roster = folder / "r.yaml"
    roster.write_text("name: T\nsystem: tiny\nfaction: other\nselections:\n  - entry: dl1\n")
    main(["validate", "--catalogs", str(folder), str(roster)])
    out = capsys.readouterr().out
    assert "unknown entry 'dl1' at the top of the roster" in out, out
    assert "Ghost" not in out


def test_a_cost_type_no_file_defines_is_named_or_left_out(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Costs in a cost type neither the game system nor a catalogue defines (the 40k data's
    "pl", or "Honour Points" in a catalogue loaded without the one defining it): all 0, the
    type is left out of every total; not all 0, it counts under the name the costs give it,
    never under its hex id. Either way it is one data problem, listed with the catalogue's."""
    other = OTHER.replace(
        '<cost name="pts" typeId="pts" value="10"/>',
        '<cost name="pts" typeId="pts" value="10"/><cost name="Honour" typeId="ab-1" value="0"/>'
        '<cost name="Glory " typeId="ab-2" value="2"/>',
    ).replace(
        '<cost name="pts" typeId="pts" value="15"/>',
        '<cost name="pts" typeId="pts" value="15"/><cost name="Honour" typeId="ab-1" value="0"/>',
    )
    assert other.count('typeId="ab-1"') == 2
    (folder / "other.cat").write_text(other, encoding="utf-8")
    roster = folder / "r.yaml"
    roster.write_text(
        "name: T\nsystem: tiny\nfaction: other\nselections:\n  - entry: o2\n  - entry: o3\n"
    )
    assert main(["validate", "--catalogs", str(folder), "--format", "json", str(roster)]) == 0
    (result,) = json.loads(capsys.readouterr().out)["rosters"]
    assert result["totals"] == {"pts": 25, "glory": 2}
    assert main(["catalogs", "--catalogs", str(folder), "tiny", "other"]) == 0
    out = capsys.readouterr().out
    problems = [line for line in out.splitlines() if "a cost type no file defines" in line]
    assert problems == [
        f"{folder / 'other.cat'}:{_line(other, 'o2')}: <selectionEntry id='o2' name='Trooper'>"
        " has a cost in 'Honour' (ab-1), a cost type no file defines: every such cost is 0,"
        " so it is left out",
        f"{folder / 'other.cat'}:{_line(other, 'o2')}: <selectionEntry id='o2' name='Trooper'>"
        " has a cost in 'Glory' (ab-2), a cost type no file defines: it is counted as a cost"
        " type of that name",
    ], out


def _line(text: str, element_id: str) -> int:
    return text[: text.index(f'id="{element_id}"')].count("\n") + 1
