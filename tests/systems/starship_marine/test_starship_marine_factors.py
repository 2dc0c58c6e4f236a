"""Starship Marine: the experience classes (4.7) and fighting wounded (4.6) change the odds,
as die-roll factors read from the catalog (`modifiers`, `campaign.wounded_modifiers`), in
`show`, JSON and `show --against`. Without the campaign rules everyone is Experienced.

Rules text: shared/seeds/001_aee7d77e3f7a5af7.txt. The d10 reads 0-9 ("0 = 0", 3.5).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation
from armybuilder.rules.systems.starship_marine import Tables
from armybuilder.rules.systems.starship_marine_odds import fire_hits, good_throw, grenade_hit

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples" / "starship-marine"
SYSTEM = "starship-marine"


def squad(library: Library, state: dict[str, Any] | None, campaign: bool = True) -> Roster:
    """An Earther squad at full strength, ``state`` on its lieutenant."""
    gs = library.system(SYSTEM)
    roster = Roster.new(SYSTEM, "earther", "Test", {})
    loc = add_entry(roster, gs.index("earther"), (), "earther-squad", fill=True)
    if state is not None:
        kids = roster.node(loc)["selections"]
        i = next(i for i, s in enumerate(kids) if s["entry"] == "lieutenant")
        roster.set((*loc, "selections", i), "state", state)
    if campaign:
        roster.add((), "campaign-rules")
    return roster


def lieutenant(ev: Evaluation, key: str) -> Any:
    n = next(n for n in ev.nodes() if n.entry_id == "lieutenant")
    return ev.value(n, key)


def test_the_catalog_gives_each_class_its_factors(library: Library) -> None:
    tables = Tables.from_data(library.system(SYSTEM).model.data)
    by = {c.name: c.modifiers for c in tables.marine_classes}
    # 4.7 marines: Novice -1 on direct fire and grenade accuracy; Experienced the baseline;
    # Seasoned +1 on both (not APGW); Veteran +1 on all die rolls and always a disappearing
    # target (-1 on fire at him, 3.5)
    assert (by["Novice"].fire, by["Novice"].grenade, by["Novice"].apgw) == (-1, -1, 0)
    assert by["Experienced"].names == () and by["Experienced"].fire == 0
    assert (by["Seasoned"].fire, by["Seasoned"].apgw) == (1, 0)
    vet = by["Veteran"]
    assert (vet.fire, vet.apgw, vet.grenade, vet.hand_to_hand, vet.incoming) == (1, 1, 1, 1, -1)
    raw = next(c for c in tables.non_marine_classes if c.name == "Raw").modifiers
    assert raw.non_combatant  # 4.7: counts as a non-combatant
    assert tables.campaign is not None
    w = tables.campaign.wounded
    # 4.6: -2 on any outgoing fire, +1 on incoming fire, all grenades indirect
    assert (w.fire, w.apgw, w.incoming, w.out_of_sight) == (-2, -2, 1, True)


def test_factors_on_the_dice() -> None:
    # 3.5 SCA II up to 15 cm unarmoured needs 4: at -1 a roll of 5-9 hits (5 of 10); the
    # roll of 8 is itself a multiple of 4 ("the score rolled on the die"): two hits
    assert fire_hits(4, -1) == {0: F(1, 2), 1: F(2, 5), 2: F(1, 10)}
    # at +1 a 3 hits; the roll of 8 itself is a multiple of 4: two hits (secondary, 3.5)
    assert fire_hits(4, 1) == {0: F(3, 10), 1: F(3, 5), 2: F(1, 10)}
    # 3.6 Good Throw up to 40 cm in sight on 3-6; a Novice's -1 makes it 4-6
    assert good_throw("up to 40 cm", -1) == F(1, 2)
    # 4.6 a wounded marine throws as out of sight: up to 40 cm is prohibited, up to 15 cm a
    # Good Throw on 4-6: unarmoured hit 1/2 * 6/10 + 1/2 * 4/10 = 1/2
    assert grenade_hit("up to 40 cm", "Unarmoured", 0, True) is None
    assert grenade_hit("up to 15 cm", "Unarmoured", 0, True) == F(1, 2)


def test_a_veteran_fires_and_fights_better(
    library: Library, evaluate_roster: Callable[[Roster], Evaluation]
) -> None:
    ev = evaluate_roster(squad(library, {"actions": 30}))
    fire = lieutenant(ev, "odds_fire")
    # 4.7 Veteran +1: SCA II up to 15 cm unarmoured needs 4, a roll of 3-9 hits: 7/10
    assert fire["factor"] == 1 and fire["up to 15 cm"]["Unarmoured"]["hit"] == "7/10"
    # over 40 cm armoured needs 10: with +1, a 9 hits (1/10)
    assert fire["over 40 cm"]["Armoured"]["hit"] == "1/10"
    h2h = lieutenant(ev, "odds_hand_to_hand")
    # 3.15 marine +3, Veteran +1: against a crewman he wins 79 of 100
    assert h2h["bonus"] == 4 and h2h["crewman"]["win"] == "79/100"
    assert lieutenant(ev, "odds_factors")["from"] == ["Veteran"]


def test_without_the_campaign_rules_the_base_table(
    library: Library, evaluate_roster: Callable[[Roster], Evaluation]
) -> None:
    ev = evaluate_roster(squad(library, {"actions": 30}, campaign=False))
    fire = lieutenant(ev, "odds_fire")
    assert fire["factor"] == 0 and fire["up to 15 cm"]["Unarmoured"]["hit"] == "3/5"
    assert lieutenant(ev, "odds_hand_to_hand")["bonus"] == 3
    assert lieutenant(ev, "odds_factors") is None


def test_a_wounded_marine(
    library: Library, evaluate_roster: Callable[[Roster], Evaluation]
) -> None:
    # 4.6: fewer than 15 days to go; 1 action fought: Experienced, so only the wound counts
    ev = evaluate_roster(squad(library, {"actions": 1, "recovery_days": 10}))
    fire = lieutenant(ev, "odds_fire")
    # -2: SCA II up to 15 cm unarmoured needs 4, a roll of 6-9 hits: 2/5
    assert fire["factor"] == -2 and fire["up to 15 cm"]["Unarmoured"]["hit"] == "2/5"
    gren = lieutenant(ev, "odds_grenade")
    assert gren["over 40 cm"]["good_throw"] is None  # indirect beyond 15 cm: prohibited
    assert gren["up to 15 cm"]["Unarmoured"] == "1/2"
    assert lieutenant(ev, "odds_factors")["from"] == ["wounded"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "armybuilder", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_show_text_names_the_factors() -> None:
    out = _run("show", str(EXAMPLES / "martian-boarding-group.yaml"))
    assert out.returncode == 0, out.stderr
    assert (
        "SCA II fire odds: SCA II (Novice: SCA fire -1; grenade accuracy -1), one shot hits "
        "(1d10) ≤15 cm: unarmoured 4+ 1/2 (50.0%)"
    ) in out.stdout


@pytest.mark.parametrize("direction", ["attacker", "target"])
def test_against_applies_both_sides_factors(direction: str) -> None:
    me, them = "martian-boarding-group.yaml", "ships-company.yaml"
    if direction == "target":
        me, them = them, me
    out = _run("show", str(EXAMPLES / me), "--against", str(EXAMPLES / them), "--format", "json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["against"]["matchups"]
    keys = {r["key"] for r in rows}
    if direction == "attacker":
        # the Martians' novices fire SCA II at -1: a crewman up to 15 cm on 5-9
        assert {"fire.sca-ii", "fire.sca-ii.novice", "grenades.novice"} <= keys
        row = next(r for r in rows if r["key"] == "fire.sca-ii.novice")
        assert row["value"]["targets"]["crewman (unarmoured)"]["hit"]["up to 15 cm"] == "1/2"
    else:
        # the ship's SCA I at a Veteran (always a disappearing target, -1): armoured up to
        # 15 cm needs 6, at -1 a 7-9: 3/10 (an Experienced marine: 6-9, 2/5)
        row = next(r for r in rows if r["key"] == "fire.sca-i")
        targets = row["value"]["targets"]
        assert targets["marine veteran (armoured)"]["hit"]["up to 15 cm"] == "3/10"
        assert targets["marine (armoured)"]["hit"]["up to 15 cm"] == "2/5"
