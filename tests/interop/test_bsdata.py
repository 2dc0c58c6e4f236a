"""Real BattleScribe data (``../shared/bsdata``: 40k 10th edition with 11 catalogues,
Gaslands, Space Station Zero) in the catalog library, the commands and the engine.

The cases are written from the data's own constraints (quoted beside each); the folder is
test data without a licence, so these tests skip with a message where it is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.interop.battlescribe.rosfile import new_session, select, session_yaml
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"

pytestmark = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


def _evaluate(lib: Library, text: str) -> Evaluation:
    roster = Roster.from_text(text, "<test>")
    return evaluate_roster(roster, lib.system(roster.system))


def test_catalogs_lists_each_system_and_its_catalogues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["catalogs", "--catalogs", str(BSDATA), "--format", "json"]) == 0
    systems = {s["id"]: s for s in json.loads(capsys.readouterr().out)["systems"]}
    assert {f["name"] for f in systems["wh40k-10e"]["factions"]} >= {
        "Imperium - Adeptus Astartes - Space Marines",
        "Imperium - Adeptus Astartes - Ultramarines",
        "Xenos - Necrons",
        "Xenos - Orks",
        "Xenos - Tyranids",
    }
    assert len(systems["wh40k-10e"]["factions"]) == 11
    # library="true" catalogues are marked: entries for the others, no roster of their own
    assert {f["name"] for f in systems["wh40k-10e"]["factions"] if f["library"]} == {
        "Imperium - Imperial Knights - Library",
        "Library - Astartes Heresy Legends",
        "Library - Titans",
        "Library - Tyranids",
        "Unaligned Forces",
    }
    assert [f["id"] for f in systems["gaslands"]["factions"]] == ["gaslands"]
    assert [f["id"] for f in systems["space-station-zero"]["factions"]] == ["crew"]


@pytest.mark.parametrize("system", ["wh40k-10e", "gaslands", "space-station-zero"])
def test_every_catalogue_loads_with_no_error_of_ours(lib: Library, system: str) -> None:
    gs = lib.system(system)
    assert isinstance(gs, BattleScribeSystem)
    gs.load(set(gs.files))  # every catalogue at once
    for fid in gs.factions:
        index = gs.index(fid)
        assert index.roots, f"{fid} offers nothing at the top of a roster"
    # Problems here would be the data's (a dangling link), reported with file and element.
    assert [p for p in gs.problems if p.code != "data-reference"] == []


def _strike_force(lib: Library) -> str:
    """A legal 1,910-point Space Marines roster, as YAML."""
    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, SM)
    # A new force comes with Battle Size and Detachment (each a minimum of 1 in the roster).
    chosen = {sel.option.entry.name: sel for sel in s.forces[0].selections}
    select(s, "baf8-997f-e323-a090", chosen["Battle Size"])  # 2. Strike Force (2000 Point limit)
    select(s, "d2dc-693e-b491-b16d", chosen["Detachment"])  # Gladius Task Force
    # 15 units (Captain, Lieutenant, Librarian, 3 Intercessor Squads, Redemptor, Land Raider,
    # Terminators, Bladeguard, Rhino, Predator, Eradicators, Ballistus, Outriders) with the
    # wargear the data requires: 1910 pts by the data's costs.
    for unit in (
        "6c10-5b51-5bc0-8d2c",
        "ce15-e87e-7cff-b129",
        "78eb-9334-f5c0-6095",
        "8da0-4570-c3c-819f",
        "8da0-4570-c3c-819f",
        "8da0-4570-c3c-819f",
        "1d94-b3c8-9205-827e",
        "8cca-9318-3bec-d360",
        "4808-a80b-309a-7933",
        "7044-bf1-f949-c32d",
        "a14e-75ca-ef91-397f",
        "d4c8-dd6a-cd7a-ccc3",
        "c570-c6ba-c9dc-5a44",
        "5dc7-aa6c-7053-cede",
        "b5e8-c34b-566b-8bda",
    ):
        select(s, unit)
    return session_yaml(s, gs, SM)


def test_a_2000_point_space_marines_list_is_legal(lib: Library) -> None:
    ev = _evaluate(lib, _strike_force(lib))
    assert [i.message for i in ev.errors] == []
    assert ev.totals["pts"] == 1910


def test_seven_battleline_squads_break_the_data_s_maximum_of_six(lib: Library) -> None:
    # Intercessor Squad: <constraint type="max" value="6" field="selections" scope="roster">
    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, SM)
    for _ in range(7):
        select(s, "8da0-4570-c3c-819f")
    ev = _evaluate(lib, session_yaml(s, gs, SM))
    over = [i.message for i in ev.errors if i.code == "max-exceeded"]
    assert over == ["The roster 'New Roster' has 7 × Intercessor Squad; at most 6 allowed"]


def test_an_empty_space_marines_list_needs_what_battlescribe_asks_for(lib: Library) -> None:
    # The game system's force asks for a Character, a Battle Size and a Detachment; the
    # Imperial Knights' Code Chivalric (min 1 in force) is hidden outside their catalogue.
    text = "format: 1\nsystem: wh40k-10e\nfaction: " + SM + "\nname: Empty\n"
    ev = _evaluate(lib, text)
    assert sorted(i.message for i in ev.errors) == [
        "The roster 'Empty' has 0 × Battle Size; at least 1 needed",
        "The roster 'Empty' has 0 × Character; at least 1 needed",
        "The roster 'Empty' has 0 × Detachment; at least 1 needed",
    ]


GASLANDS = """format: 1
system: gaslands
faction: gaslands
name: Team
limits: {{cans: 4}}
selections:
  - entry: 7209-f619-ccee-874e   # Sponsor
    selections:
      - entry: {sponsor}
  - entry: b5d8-cf00-181a-b503   # Bike, 5 cans
"""


def test_gaslands_team_over_its_can_limit(lib: Library) -> None:
    ev = _evaluate(lib, GASLANDS.format(sponsor="3057-1f8e-63b6-95e6"))  # Mishkin
    assert [(i.code, i.message) for i in ev.errors] == [
        ("cost-limit-exceeded", "5 Cans is over the limit of 4 Cans by 1 Can")
    ]


def test_gaslands_cost_names_lose_the_data_s_padding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Gaslands.gst names its cost types " Cans" and " Build Slots" (a leading space): a
    # player reads "5 Cans", in every command and pane, from a fresh load and from the cache.
    for _ in ("fresh", "cached"):
        gs = Library([BSDATA]).scan().system("gaslands")
        assert sorted((ct.name, ct.unit) for ct in gs.index("gaslands").cost_types.values()) == [
            ("Build Slots", "Build Slots"),
            ("Cans", "Cans"),
        ]
    roster = tmp_path / "team.yaml"
    roster.write_text(GASLANDS.format(sponsor="3057-1f8e-63b6-95e6"), encoding="utf-8")
    assert main(["validate", "--catalogs", str(BSDATA), str(roster)]) == 1
    out = capsys.readouterr().out
    assert "— Team (Gaslands, Gaslands); 5 Cans, 0 Build Slots" in out, out
    assert main(["show", "--catalogs", str(BSDATA), str(roster)]) in (0, 1)
    shown = capsys.readouterr().out
    # (a price prints the cost types it costs something of; the totals keep every one)
    assert "Bike  — 5 Cans" in shown.splitlines(), shown
    assert "5 Cans, 0 Build Slots (limit 4 Cans)" in shown.splitlines(), shown
    assert "Cans 5" not in shown and "Cans 5 Cans" not in shown, shown


def test_a_battlescribe_cost_reads_number_then_name(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # BattleScribe names a cost type by its unit and prints a cost as the number then that
    # name ("Intercessor Squad [80pts]"): the 40k list reads "1,910 pts" and "Captain — 80
    # pts", never "pts 1,910" nor the name twice ("pts 80 pts").
    roster = tmp_path / "strike-force.yaml"
    roster.write_text(_strike_force(lib), encoding="utf-8")
    assert main(["show", "--catalogs", str(BSDATA), str(roster)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "1,910 pts", lines[:4]
    assert "Captain  — 80 pts" in lines, lines
    assert "Intercessor Squad  — 80 pts" in lines, lines
    assert not [x for x in lines if "pts " in x], lines  # no "pts 80", no "pts 80 pts"
    # ... and over a limit the roster sets, in the message and in its summary line.
    over = roster.read_text(encoding="utf-8").replace("\nname:", "\nlimits: {pts: 1000}\nname:", 1)
    roster.write_text(over, encoding="utf-8")
    assert main(["validate", "--catalogs", str(BSDATA), str(roster)]) == 1
    out = capsys.readouterr().out
    assert "error: 1,910 pts is over the limit of 1,000 pts by 910 pts" in out, out
    assert out.rstrip().endswith("; 1,910 pts"), out


def test_gaslands_bike_is_hidden_for_rutherford(lib: Library) -> None:
    # Bike: <modifier type="set" field="hidden" value="true"> when the roster holds Rutherford.
    ev = _evaluate(lib, GASLANDS.format(sponsor="6544-f65b-4420-3486"))
    assert ("hidden-entry", "Bike is not available to this roster (hidden in the catalog)") in [
        (i.code, i.message) for i in ev.errors
    ]


#: Gaslands options, each one build slot: Machine Gun, Heavy Machine Gun, Armour Plating.
MG, HMG, ARMOUR = "bbee-877e-1934-1980", "2930-d6e5-b4c6-1768", "89d7-ec4b-86b1-20fc"
CAR, WAR_RIG = "5fc8-4273-0b18-c611", "94de-e05a-c0db-5fb6"


def _gaslands_vehicle(lib: Library, vehicle: str, options: list[str]) -> Evaluation:
    """A Gaslands team of one vehicle with these options (each chosen as the adapter chooses
    it, with what it requires: a weapon's facing)."""
    gs = lib.system("gaslands")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, "gaslands")
    held = select(s, vehicle)
    for option in options:
        select(s, option, held)
    return _evaluate(lib, session_yaml(s, gs, "gaslands"))


def test_gaslands_car_over_its_build_slots(lib: Library) -> None:
    # The shared "Options" group: <constraint field="ba54-..." (Build Slots) scope="parent"
    # value="-1.0" type="max">, set to 2 by the Car's link to it (<modifier type="set"
    # field="0a0d-4ca7-dc7b-eb21" value="2.0"/>). Four one-slot options are two too many.
    ev = _gaslands_vehicle(lib, CAR, [MG, HMG, ARMOUR, ARMOUR])
    assert [(i.code, i.message) for i in ev.errors] == [
        (
            "max-exceeded",
            "Car has 4 Build Slots in its Weapons and Upgrades; at most 2 Build Slots allowed",
        )
    ]
    assert [(i.entry, i.constraint) for i in ev.errors] == [
        ("5707-6abb-7abe-9612", "0a0d-4ca7-dc7b-eb21")
    ]
    assert _gaslands_vehicle(lib, CAR, [MG, ARMOUR]).errors == []


def test_gaslands_war_rig_has_the_five_slots_its_link_sets(lib: Library) -> None:
    # The War Rig's link sets the same constraint to 5.0: five options are legal on it (and
    # would not be on a car), six are not.
    assert _gaslands_vehicle(lib, WAR_RIG, [MG, HMG, ARMOUR, ARMOUR, ARMOUR]).errors == []
    ev = _gaslands_vehicle(lib, WAR_RIG, [MG, HMG, ARMOUR, ARMOUR, ARMOUR, ARMOUR])
    assert [i.message for i in ev.errors] == [
        "War Rig has 6 Build Slots in its Weapons and Upgrades; at most 5 Build Slots allowed"
    ]


def test_space_station_zero_allows_one_chief_engineer(lib: Library) -> None:
    # Chief Engineer: max 1 in the roster (and Advanced Crew, its category: max 1).
    text = (
        "format: 1\nsystem: space-station-zero\nfaction: crew\nname: Crew\nselections:\n"
        "  - entry: 330b-fb87-d060-d287\n  - entry: 330b-fb87-d060-d287\n"
    )
    messages = [i.message for i in _evaluate(lib, text).errors if i.code == "max-exceeded"]
    assert sorted(messages) == [
        "The roster 'Crew' has 2 × Advanced Crew; at most 1 allowed",
        "The roster 'Crew' has 2 × Chief Engineer; at most 1 allowed",
    ]


def test_validate_command_on_a_bsdata_roster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = tmp_path / "team.yaml"
    roster.write_text(GASLANDS.format(sponsor="3057-1f8e-63b6-95e6"), encoding="utf-8")
    assert main(["validate", "--catalogs", str(BSDATA), str(roster)]) == 1
    out = capsys.readouterr().out
    assert f"{roster}:5:16: error: 5 Cans is over the limit of 4 Cans by 1 Can" in out
    assert "NOT LEGAL (1 error) — Team (Gaslands, Gaslands)" in out


def _gaslands_ros(lib: Library, tmp_path: Path) -> Path:
    from armybuilder.interop.battlescribe.rosfile import to_ros

    text = to_ros(Roster.from_text(GASLANDS.format(sponsor="3057-1f8e-63b6-95e6"), "t"), lib)
    # What another tool or a newer BattleScribe wrote: an attribute and elements we do not read.
    text = text.replace('name="Bike"', 'name="Bike" paintScheme="rust"', 1)
    text = text.replace(
        "<costs>\n", '<tags><tag name="campaign">Week 3</tag></tags>\n    <costs>\n', 1
    )
    at = text.index('name="Bike"')
    end = text.index(">", at) + 1
    text = text[:end] + '\n<damage hull="2"><note>rolled</note></damage>' + text[end:]
    ros = tmp_path / "team.ros"
    ros.write_text(text, encoding="utf-8")
    return ros


def test_ros_round_trip_keeps_what_we_do_not_read(lib: Library, tmp_path: Path) -> None:
    from armybuilder.interop.battlescribe.rosfile import read_roster, to_ros

    ros = _gaslands_ros(lib, tmp_path)
    yaml_text = read_roster(ros, lib)
    roster = Roster.from_text(yaml_text, "team.yaml")
    assert roster.system == "gaslands" and roster.faction == "gaslands"
    assert roster.header.limits == {"cans": 4}
    # In the player's order (Sponsor, then Bike), not BattleScribe's sorted one.
    assert [s.entry for s in roster.selections] == ["7209-f619-ccee-874e", "dcb1-8c0e-c647-a042"]
    back = to_ros(roster, lib)
    assert 'paintScheme="rust"' in back
    assert '<damage hull="2"><note>rolled</note></damage>' in back
    assert '<tags><tag name="campaign">Week 3</tag></tags>' in back
    # Instance ids survive, so BattleScribe sees the same selections.
    assert 'id="sel-4" name="Bike"' in back
    # And the round trip is stable: a second one gives the same file.
    assert to_ros(Roster.from_text(read_roster(_write(tmp_path, back), lib), "t"), lib) == back


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "again.ros"
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_opens_a_ros_and_a_save_never_overwrites_it(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ros = _gaslands_ros(lib, tmp_path)
    before = ros.read_bytes()
    assert main(["validate", "--catalogs", str(BSDATA), str(ros)]) == 1
    assert "NOT LEGAL (1 error) — Team (Gaslands, Gaslands)" in capsys.readouterr().out
    roster = Roster.from_file(ros, library=lib)
    assert roster.converted_from == ros and roster.path == tmp_path / "team.yaml"
    roster.save()
    assert ros.read_bytes() == before
    assert "x-battlescribe:" in (tmp_path / "team.yaml").read_text(encoding="utf-8")


def test_a_ros_of_two_forces_opens_as_a_roster_of_two_forces(lib: Library, tmp_path: Path) -> None:
    from armybuilder.interop.battlescribe.rosfile import read_roster

    text = _gaslands_ros(lib, tmp_path).read_text(encoding="utf-8")
    start, end = text.index("<force "), text.index("</force>") + len("</force>")
    two = tmp_path / "two.ros"
    # The second force is a copy with its own instance id (BattleScribe's ids are unique).
    copy = text[start:end].replace('id="force-', 'id="other-force-', 1)
    two.write_text(text[:end] + "\n" + copy + text[end:], encoding="utf-8")
    roster = Roster.from_text(read_roster(two, lib), "two.yaml")
    assert roster.header.format == 2
    assert [f.faction for f in roster.forces or []] == ["gaslands", "gaslands"]
    ev = evaluate_roster(roster, lib.system("gaslands"))
    # Two bikes of 5 cans each against the 4-can limit: the limit is the roster's.
    assert ev.totals["cans"] == 10
    assert [i.message for i in ev.errors if i.code == "cost-limit-exceeded"] == [
        "10 Cans is over the limit of 4 Cans by 6 Cans"
    ]


def test_a_40k_unit_prints_as_a_datasheet(lib: Library) -> None:
    from armybuilder.emphasis import plain
    from armybuilder.render.context import build_view

    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, SM)
    select(s, "6c10-5b51-5bc0-8d2c")  # Captain
    ev = _evaluate(lib, session_yaml(s, gs, SM))
    ctx = build_view(ev)
    captain = next(u for u in ctx.units if u.name == "Captain")
    abilities = [p for p in captain.profiles if p.type_name == "Abilities"]
    texts = {p.name: dict(p.columns)["Description"] for p in abilities}
    # Each ability keeps its own text (two profiles of one type are not read as the first).
    assert texts["Leader"].startswith("This model can be attached to the following units:")
    assert texts["Finest Hour"].startswith("Once per battle, at the start of the Fight phase")
    unit = next(p for p in captain.profiles if p.type_name == "Unit")
    assert dict(unit.columns) == {"M": '6"', "T": "4", "SV": "3+", "W": "5", "LD": "6+", "OC": "1"}
    rules = dict(captain.rule_texts)
    # (the data's emphasis marks kept, as its characteristics keep theirs: a card prints them
    # as bold, plain text without them; tests/render/test_bs_marks.py)
    assert rules["Oath of Moment"].startswith("If your Army Faction is **^^Adeptus Astartes^^**")
    assert plain(rules["Oath of Moment"]).startswith("If your Army Faction is Adeptus Astartes,")


def test_new_chooses_what_the_data_requires(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sm.yaml"
    argv = ["new", "wh40k-10e", SM, "--catalogs", str(BSDATA), "--name", "SM", "-o", str(out)]
    assert main(argv) == 0
    ev = _evaluate(lib, out.read_text(encoding="utf-8"))
    chosen = [n.entry.name for n in ev.root.children if n.entry is not None]
    # Battle Size and Detachment: each <constraint type="min" value="1" scope="roster">.
    assert "Battle Size" in chosen and "Detachment" in chosen
    capsys.readouterr()
    assert main(["validate", "--catalogs", str(BSDATA), str(out)]) == 1
    errors = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    # What is left is the player's to choose: a Character, which battle size, which detachment.
    assert [e.split(": error: ")[1] for e in errors] == [
        "The roster 'SM' has 0 × Character; at least 1 needed [min-not-met]",
        "Detachment has 0 choices of Detachment; at least 1 needed [min-not-met]",
        "Battle Size has 0 choices of Battle Size; at least 1 needed [min-not-met]",
    ]


def _captain_with(lib: Library, enhancement: str) -> tuple[Evaluation, Any]:
    """A Gladius Task Force Captain (his default wargear) with one enhancement."""
    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, SM)
    chosen = {sel.option.entry.name: sel for sel in s.forces[0].selections}
    select(s, "baf8-997f-e323-a090", chosen["Battle Size"])  # Strike Force
    select(s, "d2dc-693e-b491-b16d", chosen["Detachment"])  # Gladius Task Force
    captain = select(s, "6c10-5b51-5bc0-8d2c")
    if enhancement:
        select(s, enhancement, captain)
    ev = _evaluate(lib, session_yaml(s, gs, SM))
    [node] = [n for n in ev.root.children if n.entry is not None and n.entry.name == "Captain"]
    return ev, node


def _stats(ev: Evaluation, node: Any, type_name: str) -> dict[str, Any]:
    """The characteristics (by name) of the first profile of that type at or below ``node``."""
    index = ev.index
    types = {p.id: p for p in index.system.model.profile_types}
    for n in node.walk():
        for p in n.entry.profiles if n.entry is not None else []:
            if types[p.type].name == type_name:
                names = {c.id: c.name for c in types[p.type].characteristics}
                return {names[k]: ev.profile_value(n, p, k) for k in p.characteristics}
    raise AssertionError(f"no {type_name} profile")


def test_an_enhancement_changes_its_bearer_s_weapons_and_profile(lib: Library) -> None:
    # The Honour Vehement: <modifier type="increment" value="1" field="<S>" scope="model"
    # affects="self.entries.recursive.profiles.Melee Weapons"/> and the same of A
    # (position="-1"): "add 1 to the Attacks and Strength characteristics of the bearer's
    # melee weapons". Artificer Armour: <modifier type="set" value="2+" field="<SV>"
    # scope="model" affects="self.entries.recursive.<Character>.profiles.Unit"/>.
    ev, captain = _captain_with(lib, "")
    assert ev.errors == []
    ccw = _stats(ev, captain, "Melee Weapons")
    assert (ccw["A"], ccw["S"]) == (6, 4)
    assert _stats(ev, captain, "Unit")["SV"] == "3+"
    ev, captain = _captain_with(lib, "899b-69cc-2e8f-f8ea")  # The Honour Vehement
    assert ev.errors == []
    ccw = _stats(ev, captain, "Melee Weapons")
    assert (ccw["A"], ccw["S"], ccw["D"]) == (7, 5, 1)
    assert _stats(ev, captain, "Ranged Weapons")["S"] == 4  # melee weapons only
    assert _stats(ev, captain, "Unit")["SV"] == "3+"
    # What a printed datasheet shows (the record sheet's view of the roster).
    from armybuilder.render.context import build_view

    [card] = [u for u in build_view(ev).all_units() if u.name == "Close combat weapon"]
    cols = dict(card.profiles[0].columns)
    assert (cols["Range"], cols["A"], cols["S"]) == ("Melee", "7", "5")
    ev, captain = _captain_with(lib, "e57e-d55a-be75-2205")  # Artificer Armour
    assert _stats(ev, captain, "Unit")["SV"] == "2+"
    # Its info link's <modifier type="append" value="5+" field="name"> names the rule it
    # shows (Feel No Pain 5+), not the enhancement.
    assert [ev.name(n) for n in captain.children][-1] == "Artificer Armour"
    assert _stats(ev, captain, "Melee Weapons")["A"] == 6


def test_two_grenade_launchers_in_a_five_model_squad_is_battlescribe_s_error(
    lib: Library,
) -> None:
    # Intercessor Squad, its entry link to the Astartes grenade launcher of an "Intercessor w/
    # Grenade Launcher": <modifier type="add" value="Max 1 {this} per 5 models" field="error">
    # while fewer than 10 models (lessThan 10, scope unit, group Intercessors) and more than
    # one launcher in the squad (greaterThan 1, scope the squad's entry, deep).
    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, SM)
    squad = select(s, "8da0-4570-c3c-819f")
    select(s, "d735-eafd-a8de-fa80", squad)  # Intercessor w/ Grenade Launcher
    one = _evaluate(lib, session_yaml(s, gs, SM))
    assert [i for i in one.issues if i.code == "catalog-message"] == []
    select(s, "d735-eafd-a8de-fa80", squad)
    two = _evaluate(lib, session_yaml(s, gs, SM))
    said = (
        "Intercessor Squad > Intercessor w/ Grenade Launcher > Astartes grenade launcher: "
        "Max 1 Astartes grenade launcher per 5 models"
    )
    found = [(i.severity, i.message) for i in two.issues if i.code == "catalog-message"]
    assert found == [("error", said)] * 2  # on each launcher
    assert not two.valid
    assert len(two.errors) == len(one.errors) + 2


def test_the_data_s_info_on_a_unit_is_a_note_not_a_problem(lib: Library) -> None:
    # Agents of the Imperium, Inquisitor Ostromandeus [Legends]: <modifier type="add"
    # value="The point value of this unit is a guess ..." field="info"/> (no conditions).
    gs = lib.system("wh40k-10e")
    assert isinstance(gs, BattleScribeSystem)
    agents = "imperium-agents-of-the-imperium"
    s = new_session(gs, agents)
    select(s, "3084-9a99-bf3a-b663")  # the entry link to him
    ev = _evaluate(lib, session_yaml(s, gs, agents))
    said = (
        "Inquisitor Ostromandeus [Legends]: The point value of this unit is a guess as GW "
        "have not released a cost for it. Use at your own risk."
    )
    assert [(i.severity, i.code, i.message) for i in ev.notes] == [
        ("note", "catalog-message", said)
    ]
    assert all(i.code != "catalog-message" for i in [*ev.errors, *ev.warnings])


def test_a_ros_selection_of_an_unknown_entry_is_kept_and_reported(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from armybuilder.interop.battlescribe.rosfile import read_roster, to_ros

    text = _gaslands_ros(lib, tmp_path).read_text(encoding="utf-8")
    # A selection of an entry the data does not hold (a newer catalogue's, or a typo), with
    # a number, a custom name and a selection of its own.
    bad = "dcb1-8c0e-c647-a042::dead-beef-0000-0000"
    text = text.replace(
        'entryId="dcb1-8c0e-c647-a042::b5d8-cf00-181a-b503" number="1"',
        f'entryId="{bad}" number="2" customName="Rust Bucket"',
        1,
    )
    at = text.index("<costs>", text.index(bad))
    text = (
        text[:at] + '<selections><selection id="inner-1" name="Ram" entryId="ffff-0000" number="1" '
        'type="upgrade"/></selections>\n' + text[at:]
    )
    ros = tmp_path / "unknown.ros"
    ros.write_text(text, encoding="utf-8")
    assert main(["validate", "--catalogs", str(BSDATA), str(ros)]) == 1
    out = capsys.readouterr().out
    assert f"error: unknown entry '{bad}' at the top of the roster" in out
    assert "NOT LEGAL (1 error)" in out  # the rest (the sponsor) is read and checked
    roster = Roster.from_text(read_roster(ros, lib), "unknown.yaml")
    kept = next(s for s in roster.selections if s.entry == bad)
    assert (kept.count, kept.name) == (2, "Rust Bucket")
    assert [c.entry for c in kept.children] == ["ffff-0000"]
    assert [s.entry for s in roster.selections if s.entry != bad] == ["7209-f619-ccee-874e"]
    # Written back as .ros, the selection is there as the file had it, and read again it is
    # the same roster.
    back = to_ros(roster, lib)
    assert f'entryId="{bad}" number="2" customName="Rust Bucket"' in back
    assert 'id="inner-1" name="Ram" entryId="ffff-0000"' in back
    assert '<damage hull="2">' in back and 'paintScheme="rust"' in back
    again = to_ros(Roster.from_text(read_roster(_write(tmp_path, back), lib), "t"), lib)
    assert again == back


def test_issues_of_a_ros_name_its_line(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ros = _gaslands_ros(lib, tmp_path)
    text = ros.read_text(encoding="utf-8").replace(
        "dcb1-8c0e-c647-a042::b5d8-cf00-181a-b503", "dcb1-8c0e-c647-a042::dead-beef"
    )
    ros.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    bike = 1 + next(i for i, x in enumerate(lines) if "dead-beef" in x)
    assert main(["validate", "--catalogs", str(BSDATA), str(ros)]) == 1
    out = capsys.readouterr().out
    assert f"{ros}:{bike}: error: unknown entry 'dcb1-8c0e-c647-a042::dead-beef'" in out, out
    # An XML declaration over two lines: the lines counted are still the file's.
    ros.write_text(text.replace("standalone", "\nstandalone", 1), encoding="utf-8")
    assert main(["validate", "--format", "json", "--catalogs", str(BSDATA), str(ros)]) == 1
    issues = json.loads(capsys.readouterr().out)["rosters"][0]["issues"]
    assert [(i["code"], i["line"], i["column"]) for i in issues] == [
        ("unknown-entry", bike + 1, None)
    ]


def test_a_ros_over_its_limit_names_the_cost_limits_line(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ros = _gaslands_ros(lib, tmp_path)
    lines = ros.read_text(encoding="utf-8").splitlines()
    limits = 1 + next(i for i, x in enumerate(lines) if "<costLimits>" in x)
    assert main(["validate", "--catalogs", str(BSDATA), str(ros)]) == 1
    out = capsys.readouterr().out
    assert f"{ros}:{limits}: error: 5 Cans is over the limit of 4 Cans by 1 Can" in out, out


def test_a_kept_unknown_selection_is_written_back_with_its_edits(
    lib: Library, tmp_path: Path
) -> None:
    from armybuilder.interop.battlescribe.rosfile import read_roster, to_ros

    text = _gaslands_ros(lib, tmp_path).read_text(encoding="utf-8")
    bad = "dcb1-8c0e-c647-a042::dead-beef"
    text = text.replace("dcb1-8c0e-c647-a042::b5d8-cf00-181a-b503", bad, 1)
    roster = Roster.from_text(read_roster(_write(tmp_path, text), lib), "t.yaml")
    at = next(s.loc for s in roster.selections if s.entry == bad)
    # The player renames it and makes it three (the builder's edits, on the YAML).
    node = roster.node(at)
    node["count"], node["name"], node["notes"] = 3, "Rust Bucket", "painted & ready"
    roster.dirty = True
    back = to_ros(Roster.from_text(roster.dumps(), "t.yaml"), lib)
    start = back.index(f'entryId="{bad}"')
    head = back[back.rindex("<selection ", 0, start) : back.index(">", start)]
    assert 'number="3"' in head and 'customName="Rust Bucket"' in head, head
    assert "<customNotes>painted &amp; ready</customNotes>" in back
    assert '<damage hull="2">' in back and "<note>rolled</note>" in back  # the rest kept


@pytest.mark.parametrize("number", ["abc", "inf", "nan", "1e400", ""])
@pytest.mark.parametrize("entry", ["known", "unknown"])
def test_a_ros_selection_number_that_is_no_number_is_named_with_its_line(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str, entry: str
) -> None:
    text = _gaslands_ros(lib, tmp_path).read_text(encoding="utf-8")
    if entry == "unknown":
        text = text.replace("dcb1-8c0e-c647-a042::b5d8-cf00-181a-b503", "dead-beef", 1)
    at = text.index('name="Bike"')
    text = text[:at] + text[at:].replace('number="1"', f'number="{number}"', 1)
    line = text.count("\n", 0, at) + 1
    ros = _write(tmp_path, text)
    assert main(["validate", "--catalogs", str(BSDATA), str(ros)]) == 2
    captured = capsys.readouterr()
    assert (
        f"{ros}:{line}: selection 'Bike': its number '{number}' is not a number"
        in captured.out + captured.err
    ), captured


@pytest.mark.parametrize(
    ("attribute", "says"),
    [
        ("entryId", "force 'Team': unknown force entry 'nope'"),
        ("catalogueId", "force 'Team' needs the catalogue 'Gaslands', which Gaslands at"),
    ],
)
def test_a_ros_force_that_cannot_be_read_is_named_with_its_line(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str], attribute: str, says: str
) -> None:
    text = _gaslands_ros(lib, tmp_path).read_text(encoding="utf-8")
    at = text.index("<force ")
    line = text.count("\n", 0, at) + 1
    start = text.index(f' {attribute}="', at) + len(attribute) + 3
    text = text[:start] + "nope" + text[text.index('"', start) :]
    ros = _write(tmp_path, text)
    assert main(["validate", "--catalogs", str(BSDATA), str(ros)]) == 2
    captured = capsys.readouterr()
    assert f"{ros}:{line}: {says}" in captured.out + captured.err, captured


def test_a_ros_converted_beside_another_roster_asks_before_replacing_it(
    lib: Library, tmp_path: Path
) -> None:
    """A .ros saves as YAML beside it; a YAML file of that name already there (another
    roster, never read here) is not replaced unasked: the save raises ChangedOnDiskError
    and writes nothing, as a Save as over another file does; replaced once the player says
    so, it is kept as .bak; the next saves are the roster's own."""
    from armybuilder.rosters import ChangedOnDiskError

    ros = _gaslands_ros(lib, tmp_path)
    beside = tmp_path / "team.yaml"
    beside.write_text("# another roster, kept by the player\n", encoding="utf-8")
    roster = Roster.from_file(ros, library=lib)
    with pytest.raises(ChangedOnDiskError, match=r"converted from \(team.ros\)"):
        roster.save()
    assert beside.read_text(encoding="utf-8") == "# another roster, kept by the player\n"
    roster.save(overwrite=True)
    assert "x-battlescribe:" in beside.read_text(encoding="utf-8")
    kept = tmp_path / "team.yaml.bak"
    assert kept.read_text(encoding="utf-8") == "# another roster, kept by the player\n"
    roster.save()  # (now the roster's own file)


def test_a_space_station_zero_commander_prints_only_the_ability_of_the_ship_type(
    lib: Library,
) -> None:
    """Crew.cat gives the Commander one ability per ship type, each hidden unless that ship
    type is in the roster (War: Warmaster), and two more hidden until 14 and 28 XP: a War
    ship's new commander has Warmaster alone (the other seven are not printed)."""
    from armybuilder.render.context import build_view

    text = (
        "format: 1\nsystem: space-station-zero\nfaction: crew\nname: T\nselections:\n"
        "  - entry: c219-e472-b501-4304\n"  # Commander
        "  - entry: 62cb-4e43-285f-598a\n"  # Ship Type
        "    selections:\n      - entry: e566-19b3-e3dc-edc9\n"  # War
    )
    ctx = build_view(_evaluate(lib, text))
    commander = next(u for u in ctx.units if u.name == "Commander")
    abilities = [p.name for p in commander.profiles if p.type_name == "Ability"]
    assert abilities == ["Warmaster"]
    # the shared "Crewmember" stat line, named by the Commander's info link; Combat 3 (the
    # game system's) + 1 (a War ship's commander)
    (model,) = [p for p in commander.profiles if p.type_name == "Model"]
    assert model.name == "Commander"
    assert dict(model.columns)["Combat"] == "4"
