"""Values the Infantry Operations module makes once and gives to every selection that
computes alike (issue 17): each selection must still get what it would get evaluated alone.

* A platoon's to-hit and odds values are kept per catalog index by gunnery (and whether it
  is assumed), attack values and burst fire: platoons that differ in any one of them (and
  only in it) must each get their own.
* A trooper selection's encumbrance, armour and weapons values are kept with its kit.
* A catalog reloaded with another gunnery skill gives the new odds (the kept values go with
  the catalog index).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster

HEAD = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Test\nselections:\n"
CACHES = ("infantry-ops.odds", "infantry-ops.attacks", "infantry-ops.kits")

Kits = list[tuple[str, int, list[str]]]


def _platoon(name: str, kits: Kits, experience: str | None = None) -> str:
    lines = ["  - entry: platoon", f"    name: {name}"]
    if experience is not None:
        lines.append(f"    experience: {experience}")
    lines += ["    selections:", "      - entry: foot", "      - entry: squad"]
    lines.append("        selections:")
    for kit_name, count, items in kits:
        lines += [
            "          - entry: trooper",
            f"            name: {kit_name}",
            f"            count: {count}",
            "            selections:",
            *(f"              - entry: {i}" for i in items),
        ]
    return "\n".join(lines) + "\n"


RIFLES: Kits = [("Riflemen", 4, ["auto-rifle", "kevlar-vest"])]
#: Two light MGs (DV 1 +1D6 burst each) against one support small laser (DV 2, no burst):
#: the same support AV of 2, burst fire or none (Infantry Operations, Burst fire).
LMGS: Kits = [*RIFLES, ("LMG gunners", 2, ["light-mg", "kevlar-vest"])]
LASER: Kits = [*RIFLES, ("Laser gunner", 1, ["support-small-laser", "kevlar-vest"])]

PLATOONS = [
    _platoon("Regular", RIFLES, "regular"),
    _platoon("Veteran", RIFLES, "veteran"),  # gunnery 3, not 4
    _platoon("Unknown level", RIFLES, "no-such-level"),  # gunnery 4 assumed
    _platoon("Bigger", [("Riflemen", 6, ["auto-rifle", "kevlar-vest"])], "regular"),
    _platoon("LMGs", LMGS, "regular"),
    _platoon("Laser", LASER, "regular"),
    _platoon("Regular again", RIFLES, "regular"),
]


def _values(ev: Evaluation) -> dict[str, list[tuple[str, str, Any, str, str]]]:
    """Every value of every selection of each platoon, by the platoon's name and place."""
    out = {}
    for p in ev.nodes_in("platoon"):
        for n in p.walk():
            where = ev.name(p) + ":" + "/".join(str(x) for x in n.loc[len(p.loc) :])
            out[where] = [(v.key, v.label, v.value, v.text, v.source) for v in ev.values_of(n)]
    return out


def _odds(values: dict[str, list[tuple[str, str, Any, str, str]]], name: str) -> dict[str, Any]:
    return {k: (v, t) for k, _, v, t, _ in values[f"{name}:"] if k == "to_hit" or "odds" in k}


def test_platoons_get_their_own_odds_and_troopers_their_own_values(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    ev = evaluate_text(HEAD + "".join(PLATOONS))
    together = _values(ev)
    alone: dict[str, list[tuple[str, str, Any, str, str]]] = {}
    for text in PLATOONS:
        for cache in CACHES:
            ev.index.memo(cache).clear()  # nothing from another platoon
        alone.update(_values(evaluate_text(HEAD + text)))
    assert together == alone
    assert ev.index.memo("infantry-ops.odds")  # (the odds were kept)

    odds = {name: _odds(together, name) for name in ("Regular", "Veteran", "Unknown level")}
    # Infantry Operations, Attack Roll: a Veteran's gunnery is 3, a Regular's 4; a level the
    # catalog lacks is read as gunnery 4, and the text says it is assumed.
    assert odds["Regular"]["to_hit"] != odds["Veteran"]["to_hit"]
    assert odds["Regular"]["to_hit"][0] == odds["Unknown level"]["to_hit"][0]
    assert "assumed" in odds["Unknown level"]["to_hit"][1]
    assert "assumed" not in odds["Regular"]["to_hit"][1]
    # Infantry Attacks: four auto-rifles (DV 0.5) give a primary AV of 2, six of 3.
    assert odds["Regular"]["odds_primary"][0]["av"] == 2
    assert _odds(together, "Bigger")["odds_primary"][0]["av"] == 3
    # Burst fire: the same support AV of 2, with the LMGs' 1D6 in the open or without.
    lmg = _odds(together, "LMGs")["odds_support"][0]
    laser = _odds(together, "Laser")["odds_support"][0]
    assert lmg["av"] == laser["av"] == 2
    assert (lmg["burst"], laser["burst"]) == ("1D6", None)
    assert lmg["open_short"] != laser["open_short"]

    # Troopers: the riflemen's kit is worked out once, and every platoon's riflemen get the
    # auto-rifle (DV 0.5, Weapon Statistics) and the Kevlar vest (armour 0, Armour table).
    rifles = together["Regular:selections/1/selections/0"]
    assert together["Veteran:selections/1/selections/0"] == rifles
    assert dict((k, v) for k, _, v, _, _ in rifles)["armour"] == 0
    assert next(v[3] for v in rifles if v[0] == "weapons").startswith("Auto-Rifle (DV 0.5 ")
    gunner = together["Laser:selections/1/selections/1"]
    assert next(v[3] for v in gunner if v[0] == "weapons").startswith("Support Small Laser")


def test_a_reloaded_catalog_gives_the_odds_of_its_new_gunnery(
    _isolated_home: None, tmp_path: Path
) -> None:
    root = tmp_path / "catalogs"
    shutil.copytree(default_roots()[0] / "infantry-ops", root / "infantry-ops")
    roster = Roster.from_text(HEAD + PLATOONS[1], "<test>")

    def to_hit(lib: Library) -> tuple[Evaluation, Any]:
        ev = evaluate_roster(roster, lib.system("infantry-ops"))
        return ev, ev.value(ev.nodes_in("platoon")[0], "to_hit")

    ev, before = to_hit(Library([root], use_cache=False).scan())
    # Infantry Operations, Morale table: a Veteran's gunnery is 3 (TN 3 at short range).
    assert before["short"]["tn"] == 3
    system = root / "infantry-ops" / "system.yaml"
    text = system.read_text(encoding="utf-8")
    changed = text.replace('{id: veteran, name: Veteran, data: {gunnery: "3"', '{id: veteran, '
                           'name: Veteran, data: {gunnery: "2"')  # fmt: skip
    assert changed != text
    system.write_text(changed, encoding="utf-8")
    ev2, after = to_hit(Library([root], use_cache=False).scan())
    assert after["short"]["tn"] == 2
    assert ev2.index.memo("infantry-ops.odds") is not ev.index.memo("infantry-ops.odds")
