"""Values the Infantry Operations module makes once and gives to every selection that
computes alike (issue 17): each selection must still get what it would get evaluated alone.

* A platoon's to-hit and odds values are kept per catalog index by gunnery (and whether it
  is assumed), attack values and burst fire: platoons that differ in any one of them (and
  only in it) must each get their own.
* A trooper selection's encumbrance, armour and weapons values are kept with its kit; a
  squad's troopers and crews with its kits; a platoon's head count, structure, guns,
  encumbrance, movement, damage track and ammunition with its make-up (kits, squads, motive
  and guns): platoons that differ in one of them get their own. A list or dict among them
  is frozen and shared (no platoon's reader can change it for the others).
* A catalog reloaded with another gunnery skill gives the new odds (the kept values go with
  the catalog index).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, Value, evaluate_roster
from armybuilder.rules.frozen import FrozenValueError, is_frozen
from armybuilder.rules.systems.infantry_ops import _shared

HEAD = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Test\nselections:\n"
CACHES = tuple(
    f"infantry-ops.{name}"
    for name in ("odds", "attacks", "kits", "squads", "heads", "levels", "survivors")
)

Kits = list[tuple[str, int, list[str]]]


def _platoon(
    name: str,
    kits: Kits,
    experience: str | None = None,
    motive: str = "foot",
    squads: int = 1,
    guns: int = 0,
) -> str:
    lines = ["  - entry: platoon", f"    name: {name}"]
    if experience is not None:
        lines.append(f"    experience: {experience}")
    lines += ["    selections:", f"      - entry: {motive}"]
    if guns:
        lines += ["      - entry: ac-5-field-gun", f"        count: {guns}"]
    lines += ["      - entry: squad", f"        count: {squads}", "        selections:"]
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


def test_a_reloaded_catalog_gives_the_odds_of_its_new_gunnery_and_movement(
    _isolated_home: None, tmp_path: Path
) -> None:
    root = tmp_path / "catalogs"
    shutil.copytree(default_roots()[0] / "infantry-ops", root / "infantry-ops")
    roster = Roster.from_text(HEAD + PLATOONS[1], "<test>")

    def figures(lib: Library) -> tuple[Evaluation, Any, Any]:
        ev = evaluate_roster(roster, lib.system("infantry-ops"))
        platoon = ev.nodes_in("platoon")[0]
        return ev, ev.value(platoon, "to_hit"), ev.value(platoon, "movement")

    ev, to_hit, movement = figures(Library([root], use_cache=False).scan())
    # Infantry Operations, Morale table: a Veteran's gunnery is 3 (TN 3 at short range);
    # Movement Points: foot 1 MP (2 fast).
    assert to_hit["short"]["tn"] == 3
    assert movement["mp"] == 1
    system = root / "infantry-ops" / "system.yaml"
    text = system.read_text(encoding="utf-8")
    changed = text.replace(
        '{id: veteran, name: Veteran, data: {gunnery: "3"',
        '{id: veteran, name: Veteran, data: {gunnery: "2"',
    ).replace("data: {mp: 1, fast: 2, encumbered: 0, mass_per_trooper: 85}", "data: {mp: 2, "
              "fast: 3, encumbered: 0, mass_per_trooper: 85}")  # fmt: skip
    assert changed.count('gunnery: "2"') == 2  # (Elite's, and now the Veteran's)
    assert "{mp: 2, fast: 3" in changed
    system.write_text(changed, encoding="utf-8")
    ev2, to_hit, movement = figures(Library([root], use_cache=False).scan())
    assert to_hit["short"]["tn"] == 2
    assert movement["mp"] == 2
    for cache in CACHES:
        assert ev2.index.memo(cache) is not ev.index.memo(cache)


SRM: Kits = [
    ("Riflemen", 3, ["auto-rifle", "srm1-ammo", "kevlar-vest"]),
    ("SRM gunner", 1, ["srm1", "kevlar-vest"]),
]

MAKE_UPS = [
    _platoon("Foot", RIFLES),
    _platoon("Jump", RIFLES, motive="jump"),
    _platoon("Wheeled", RIFLES, motive="mechanised-wheeled"),
    _platoon("Two squads", RIFLES, squads=2),
    _platoon("Guns", RIFLES, guns=1),
    _platoon("SRM", SRM),
    _platoon("SRM jump", SRM, motive="jump"),
    _platoon("Foot again", RIFLES),
    _platoon("SRM again", SRM),
    # the motive under a name of the player's (the platoon shows it)
    _platoon("Named motive", RIFLES).replace(
        "- entry: foot\n", "- entry: foot\n        name: March\n"
    ),
    _platoon("Veteran", RIFLES, "veteran"),
]


def _issues(ev: Evaluation) -> list[tuple[str, str]]:
    return [(i.code, i.message) for i in ev.issues]


def test_platoons_of_other_make_ups_get_their_own_head_values(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    ev = evaluate_text(HEAD + "".join(MAKE_UPS))
    together, issues = _values(ev), _issues(ev)
    alone: dict[str, list[tuple[str, str, Any, str, str]]] = {}
    alone_issues: list[tuple[str, str]] = []
    for text in MAKE_UPS:
        for cache in CACHES:
            ev.index.memo(cache).clear()
        one = evaluate_text(HEAD + text)
        alone.update(_values(one))
        alone_issues += _issues(one)
    assert together == alone
    assert sorted(issues) == sorted(alone_issues)  # (the engine's come first)
    assert ev.index.memo("infantry-ops.heads") and ev.index.memo("infantry-ops.squads")

    def head(name: str) -> dict[str, Any]:
        return {k: v for k, _, v, _, _ in together[f"{name}:"]}

    # Movement Points table: foot 1 (2), jump adds 3 jump MP; a mechanised platoon's squad
    # has a driver. Encumbrance: the SRM1 (Enc 3) leaves its gunner encumbered, foot
    # movement 0, jump 2.
    assert head("Foot")["movement"] == {"mp": 1, "fast": 2, "encumbered": False}
    assert head("Jump")["movement"]["jump"] == 3
    assert head("SRM")["movement"] == {"mp": 0, "fast": None, "encumbered": True}
    assert head("SRM jump")["movement"]["jump"] == 2
    assert head("Wheeled")["motive"] != head("Foot")["motive"]
    assert (head("Two squads")["troopers"], head("Two squads")["squads"]) == (8, 2)
    # Attacks by Gunnery Crews: one crewman per ton ("an AC/5 weighs 8 tons"), 8 for 4
    # troopers.
    assert head("Guns")["gun_crew"] == 8
    assert head("SRM")["ammo"] == head("SRM again")["ammo"]
    assert "field_guns" not in head("Foot")
    assert head("Named motive")["motive"] == "March"
    # Morale table: a Veteran's gunnery 3 and morale base TN 2, a Regular's 4 and 4.
    assert (head("Veteran")["gunnery"], head("Veteran")["morale_tn"]) == ("3", 2)
    assert (head("Foot")["gunnery"], head("Foot")["morale_tn"]) == ("4", 4)
    assert [c for c, _ in issues].count("io-gun-crew-short") == 1
    # The lists and dicts a make-up's platoons share are frozen: one platoon's reader (a
    # template) cannot change them for the others; a change in place is refused.
    platoons = {ev.name(p): p for p in ev.nodes_in("platoon")}
    first = ev.value(platoons["SRM"], "ammo")
    second = ev.value(platoons["SRM again"], "ammo")
    assert first == second and is_frozen(first) and is_frozen(second)
    with pytest.raises(FrozenValueError):
        next(iter(first.values()))["weapons"] = 99
    assert next(iter(second.values()))["weapons"] == 1
    moved = ev.value(platoons["Foot"], "movement")
    with pytest.raises(FrozenValueError):
        moved["mp"] = 99
    assert ev.value(platoons["Foot again"], "movement")["mp"] == 1
    for p in platoons.values():
        for v in ev.values_of(p):
            assert is_frozen(v.value), (ev.name(p), v.key)
    for sq in ev.nodes_in("squad"):
        for v in ev.values_of(sq):
            assert is_frozen(v.value), (ev.name(sq), v.key)


def _containers(value: Any) -> list[int]:
    """The ids of every list and dict in ``value`` (itself included)."""
    if isinstance(value, dict):
        return [id(value), *(i for v in value.values() for i in _containers(v))]
    if isinstance(value, list):
        return [id(value), *(i for v in value for i in _containers(v))]
    return []


_SCALARS = st.none() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=12,
)


@given(_VALUES)
def test_a_shared_value_is_frozen_as_deep_as_it_goes(value: Any) -> None:
    """A value handed to every platoon of a make-up (:func:`_shared`) equals the value, prints
    the same, and no list or dict in it can be changed; one without any is handed on as it
    is."""
    v = Value("k", "Label", value, "text", "source")
    got = _shared(v)
    assert got.value == value and repr(got.value) == repr(value) and is_frozen(got.value)
    assert (got.key, got.label, got.text, got.source) == ("k", "Label", "text", "source")
    if not _containers(value):
        assert got is v
    assert _shared(got) is got  # already frozen: the same object


def test_troopers_named_and_counted_alike_get_the_kit_of_what_they_hold(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    """A trooper's kit is kept per holdings (each item's entry, count and name): two troopers
    of the same name and count holding other weapons each get their own (Weapon Statistics:
    the light MG has burst fire, the support small laser none), the same holdings share the
    one kit, and a selection made outside the tree (no entry facts kept on it) gets the kit
    the tree's selections of those holdings got."""
    from armybuilder.rules.systems.infantry_ops import _kit

    mg = [("Gunners", 2, ["light-mg", "kevlar-vest"])]
    laser = [("Gunners", 2, ["support-small-laser", "kevlar-vest"])]
    platoons = [_platoon("MG", mg), _platoon("Laser", laser), _platoon("MG again", mg)]
    ev = evaluate_text(HEAD + "".join(platoons))
    got = _values(ev)
    weapons = {
        name: next(v[3] for v in got[f"{name}:selections/1/selections/0"] if v[0] == "weapons")
        for name in ("MG", "Laser", "MG again")
    }
    assert "Light MG (DV 1 DB +1D6 burst" in weapons["MG"]
    assert weapons["Laser"].startswith("Support Small Laser")
    assert weapons["MG again"] == weapons["MG"]
    troopers = [p.children[1].children[0] for p in ev.nodes_in("platoon")]
    kits = [_kit(ev, t) for t in troopers]
    assert kits[0].weapons is kits[2].weapons and kits[0].weapons is not kits[1].weapons
    # (a kit's memo stands for its DV cache in the attack and survivor keys: made together,
    # shared together)
    assert kits[0].memo is kits[2].memo and kits[0].dv_cache is kits[2].dv_cache
    assert kits[0].memo is not kits[1].memo and kits[0].dv_cache is not kits[1].dv_cache
    assert [w[0].name for w in kits[1].weapons] == ["Support Small Laser"], kits[1].weapons
    for item in troopers[0].children:
        item.facts = None  # (as on a node made outside the tree)
    assert _kit(ev, troopers[0]).weapons is kits[0].weapons


def test_squads_of_other_kits_alike_in_count_get_their_own_crews(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    """A squad's troopers and crews are kept per set of kits, each kit by its memo, hashed
    and compared by identity: two memos holding the same (both empty when first made) stay
    two keys, so squads of two gunners with a light MG and with a support small laser each
    get the crews their weapon asks (Weapon Statistics: crew to carry and to fire), as they
    do evaluated alone."""
    from armybuilder.rules.systems.infantry_ops import _KitMemo

    a, b = _KitMemo(), _KitMemo()
    assert a == a and a != b and len({a, b}) == 2 and hash(a) != hash(b)
    a["x"] = b["x"] = 1
    assert a != b and {a: 1}.get(b) is None

    mg = [("Gunners", 2, ["light-mg", "kevlar-vest"])]
    laser = [("Gunners", 2, ["support-small-laser", "kevlar-vest"])]
    platoons = [_platoon("MG", mg), _platoon("Laser", laser)]
    together = _values(evaluate_text(HEAD + "".join(platoons)))
    alone: dict[str, list[tuple[str, str, Any, str, str]]] = {}
    for text in platoons:
        for cache in CACHES:
            evaluate_text(HEAD).index.memo(cache).clear()
        alone.update(_values(evaluate_text(HEAD + text)))
    assert together == alone

    def crews(name: str) -> dict[str, Any]:
        return {k: v for k, _, v, _, _ in together[f"{name}:selections/1"] if "crew" in k}

    assert crews("MG") != crews("Laser")
