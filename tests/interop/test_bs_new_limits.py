"""A new roster of BattleScribe data is asked a limit per cost type of its game system, as
BattleScribe's New Roster dialog asks one, under the ids the translation gives the cost types
(``pts``, ``cans``), known from the game system file's head before any catalogue is read; a
``defaultCostLimit`` of 0 or more is the limit a new roster starts with (-1, the usual: none).

The first cases are written in BattleScribe's shapes; the others read the real data in
``../shared/bsdata`` and skip with a message where it is absent."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.cli import main

BSDATA = Path(__file__).resolve().parents[3] / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-1" name="Tiny" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">'
    "<costTypes>"
    '<costType id="ct-pts" name=" Points" defaultCostLimit="-1" hidden="false"/>'
    '<costType id="ct-gold" name="Gold &amp; Gems" defaultCostLimit="500.0" hidden="false"/>'
    '<costType id="ct-secret" name="Secret" defaultCostLimit="7" hidden="true"/>'
    "</costTypes>"
    '<forceEntries><forceEntry id="f1" name="Army"/></forceEntries></gameSystem>\n'
)
CAT = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<catalogue id="cat-1" name="Raiders" gameSystemId="sys-1" '
    'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
    "<costTypes>"
    '<costType id="ct-honour" name="Honour" defaultCostLimit="3" hidden="false"/>'
    "</costTypes>"
    '<selectionEntries><selectionEntry id="se-1" name="Warband" type="unit">'
    '<costs><cost name="Points" typeId="ct-pts" value="60"/>'
    '<cost name="Gold" typeId="ct-gold" value="600"/></costs>'
    "</selectionEntry></selectionEntries></catalogue>\n"
)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "raiders.cat").write_text(CAT, encoding="utf-8")
    return tmp_path / "data"


def test_the_system_offers_its_shown_cost_types_before_a_catalogue_is_read(tiny: Path) -> None:
    """The game system's cost types, a catalogue's own (Honour) not offered (BattleScribe's
    dialog lists the game system's), ids as the translation's; a hidden one with a limit
    (Secret, 7) is among them, marked hidden (it is not asked, but it applies)."""
    for _ in range(2):  # the scan's record of the file's head gives the same
        gs = Library([tiny]).scan().system("tiny")
        offered = [(ct.id, ct.name, ct.hidden, start) for ct, start in gs.limit_types()]
        assert offered == [
            ("points", "Points", False, None),
            ("gold-gems", "Gold & Gems", False, 500.0),
            ("secret", "Secret", True, 7.0),
        ]
    index = gs.index("raiders")
    assert {"points", "gold-gems", "secret"} <= set(index.cost_types)
    # once read, the same ids
    assert [ct.id for ct, _ in gs.limit_types()] == ["points", "gold-gems", "secret"]
    assert [ct.hidden for ct, _ in gs.limit_types()] == [False, False, True]


def test_new_starts_with_the_default_limit_and_takes_others(tiny: Path) -> None:
    code, out, err = _run("new", "tiny", "raiders", "--catalogs", str(tiny), "--limit", "points=50")
    assert code == 0, err
    assert "limits:\n  points: 50\n  gold-gems: 500\n  secret: 7\n" in out
    # a limit given replaces the default
    code, out, _ = _run("new", "tiny", "raiders", "--catalogs", str(tiny), "--limit", "gold-gems=9")
    assert code == 0 and "limits:\n  gold-gems: 9\n  secret: 7\n" in out
    code, _, err = _run("new", "tiny", "raiders", "--catalogs", str(tiny), "--limit", "pts=50")
    assert code == 2 and "unknown cost type 'pts'" in err and "points" in err


def test_a_roster_over_its_limit_says_so(tiny: Path, tmp_path: Path) -> None:
    """The Warband costs 60 Points and 600 Gold & Gems: over the new roster's 50 and 500."""
    path = tmp_path / "r.yaml"
    code, _, err = _run(
        "new", "tiny", "raiders", "--catalogs", str(tiny), "--limit", "points=50", "-o", str(path)
    )
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("selections: []", "selections:\n  - entry: se-1"), "utf-8")
    code, out, _ = _run("validate", "--catalogs", str(tiny), str(path))
    assert code == 1
    assert out.count("over the limit") == 2, out


def test_a_hidden_cost_types_default_limit_applies(tiny: Path, tmp_path: Path) -> None:
    """BattleScribe applies a cost type's defaultCostLimit though the cost type is hidden
    (Secret, 7): a new roster gets it unasked, and 9 Secret is over it, in validate and
    show. A hidden cost type with no limit (-1) is not given one."""
    folder = tiny / "tiny"
    gst = (folder / "tiny.gst").read_text(encoding="utf-8")
    (folder / "tiny.gst").write_text(
        gst.replace(
            "</costTypes>", '<costType id="ct-x" name="Unlimited" hidden="true"/></costTypes>'
        ),
        encoding="utf-8",
    )
    cat = (folder / "raiders.cat").read_text(encoding="utf-8")
    (folder / "raiders.cat").write_text(
        cat.replace("</costs>", '<cost name="Secret" typeId="ct-secret" value="9"/></costs>'),
        encoding="utf-8",
    )
    path = tmp_path / "r.yaml"
    code, _, err = _run("new", "tiny", "raiders", "--catalogs", str(tiny), "-o", str(path))
    assert code == 0, err
    text = path.read_text(encoding="utf-8")
    assert "limits:\n  gold-gems: 500\n  secret: 7\n" in text, text
    assert "unlimited" not in text, text
    path.write_text(text.replace("selections: []", "selections:\n  - entry: se-1"), "utf-8")
    code, out, _ = _run("validate", "--catalogs", str(tiny), str(path))
    assert code == 1
    assert "9 Secret is over the limit of 7 Secret by 2 Secret" in out, out
    code, out, _ = _run("show", "--catalogs", str(tiny), str(path))
    assert code == 0 and "9 Secret is over the limit of 7 Secret by 2 Secret" in out, out


needs_data = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)


@needs_data
@pytest.mark.parametrize(
    ("system", "faction", "offered"),
    [
        # Warhammer 40,000.gst: costType 51b2-306e-1021-d207 "pts", defaultCostLimit -1; the
        # Crusade ones (b03b-c239-15a5-da55 ...) hidden
        ("wh40k-10e", SM, [("51b2-306e-1021-d207", "pts", "pts")]),
        # Gaslands.gst: " Cans" and " Build Slots", defaultCostLimit -1.0
        (
            "gaslands",
            "gaslands",
            [
                ("91a9-beed-6d55-d7ea", "cans", "Cans"),
                ("ba54-acdf-648d-86c5", "build-slots", "Build Slots"),
            ],
        ),
        # Space Station Zero.gst declares no cost types
        ("space-station-zero", "crew", []),
    ],
)
def test_the_data_offers_its_cost_types_by_the_translations_ids(
    system: str, faction: str, offered: list[tuple[str, str, str]]
) -> None:
    gs = Library([BSDATA]).scan().system(system)
    before = [(ct.id, ct.name, start) for ct, start in gs.limit_types()]
    assert before == [(ours, name, None) for _, ours, name in offered]
    index = gs.index(faction)
    ids = gs.translation_for(faction).ids  # type: ignore[attr-defined]
    for bs_id, ours, name in offered:
        assert ids.ours(bs_id) == ours
        assert index.cost_types[ours].name == name and not index.cost_types[ours].hidden
    assert [(ct.id, ct.name, start) for ct, start in gs.limit_types()] == before


@needs_data
def test_a_space_marines_roster_over_its_points_limit_says_so(tmp_path: Path) -> None:
    """A 100-point roster with two Intercessor Squads (80 pts each: entry
    ``8da0-4570-c3c-819f``, link ``85b1-eb9a-17a6-e5be``): over its limit in validate, show."""
    path = tmp_path / "sm.yaml"
    data = str(BSDATA)
    code, _, err = _run(
        "new", "wh40k-10e", SM, "--catalogs", data, "--limit", "pts=100", "-o", str(path)
    )
    assert code == 0, err
    gs = Library([BSDATA]).scan().system("wh40k-10e")
    index = gs.index(SM)
    squad = next(c for c in index.roots if c.entry.name == "Intercessor Squad")
    text = path.read_text(encoding="utf-8")
    assert "limits:\n  pts: 100\n" in text
    path.write_text(text + f"  - entry: {index.recorded_id(None, squad)}\n" * 2, "utf-8")
    code, out, _ = _run("validate", "--catalogs", data, str(path))
    assert code == 1 and "over the limit of 100 pts" in out, out
    code, out, _ = _run("show", "--catalogs", data, str(path))
    assert code == 0 and "over the limit of 100 pts" in out, out


def test_a_record_of_the_head_from_before_cost_types_is_read_again(tiny: Path) -> None:
    """The scan's record of a file's head made before it kept cost types (the same stamp, no
    ``cost_types``): the file is read again, not taken as having none."""
    Library([tiny]).scan()
    (record,) = (tiny.parent / "cache" / "battlescribe").glob("heads-*.json")
    known = json.loads(record.read_text(encoding="utf-8"))
    for value in known.values():
        value.pop("cost_types")
    record.write_text(json.dumps(known), encoding="utf-8")
    # (what a scan reads: the library snapshot, which a second library reads instead of
    # scanning while no file changed, goes)
    for snapshot in (tiny.parent / "cache" / "library").glob("*.pickle"):
        snapshot.unlink()
    gs = Library([tiny]).scan().system("tiny")
    assert [ct.id for ct, _ in gs.limit_types()] == ["points", "gold-gems", "secret"]
    assert all("cost_types" in v for v in json.loads(record.read_text("utf-8")).values())
