"""BattleScribe constructs newer editors write (NewRecruit's, found in the 40k data): modifier
types ``replace``, ``floor`` and ``ceil``, ``join`` of an append, the scopes ``unit``, ``model``,
``upgrade``, ``model-or-unit`` and ``root-entry``, and what is still reported as not supported
(modifiers of another selection, ``affects`` reaching into what a selection holds).

The conformance suite in ``../shared/battlescribe-spec`` has no roster spec for these (they
are NewRecruit's additions to the format, in its game-data specs): the setups below are written
in the suite's shapes and driven through the adapter as the suite drives it. The 40k data
writes them as, e.g. ``<modifier type="ceil" value="9" field="<M>" affects="...profiles.Unit">``
(Boarding Actions caps a unit's Move at 9") and ``<modifier type="replace" field="name"
value="Fist" arg="weapon">`` (Space Marines).
"""

from __future__ import annotations

from typing import Any

from armybuilder.interop.battlescribe.adapter import AdapterSession


def _unit(modifiers: list[dict[str, Any]], gear_modifiers: list[dict[str, Any]]) -> Any:
    return {
        "gameSystem": {
            "id": "gs",
            "costTypes": [{"id": "pts", "name": "pts"}],
            "profileTypes": [
                {
                    "id": "pt-unit",
                    "name": "Unit",
                    "characteristicTypes": [
                        {"id": "m", "name": "M"},
                        {"id": "ws", "name": "WS"},
                        {"id": "kw", "name": "Keywords"},
                    ],
                }
            ],
            "forceEntries": [{"id": "fe-1", "name": "Army"}],
        },
        "catalogues": [
            {
                "id": "cat-1",
                "selectionEntries": [
                    {
                        "id": "se-squad",
                        "name": "Assault Squad",
                        "type": "unit",
                        "profiles": [
                            {
                                "id": "p-1",
                                "name": "Assault Squad",
                                "typeId": "pt-unit",
                                "characteristics": [
                                    {"name": "M", "typeId": "m", "value": '12"'},
                                    {"name": "WS", "typeId": "ws", "value": "3+"},
                                    {"name": "Keywords", "typeId": "kw", "value": "Infantry"},
                                ],
                            }
                        ],
                        "modifiers": modifiers,
                        "selectionEntries": [
                            {
                                "id": "se-model",
                                "name": "Trooper",
                                "type": "model",
                                "selectionEntries": [
                                    {
                                        "id": "se-blade",
                                        "name": "Blade weapon",
                                        "type": "upgrade",
                                        "modifiers": gear_modifiers,
                                    }
                                ],
                            },
                            {"id": "se-banner", "name": "Banner", "type": "upgrade"},
                        ],
                    }
                ],
            }
        ],
    }


def _run(setup: Any, banner: bool = False) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """(the squad's state, its blade's state, the setup's warnings)."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **setup})
    assert got["type"] == "setupResult", got
    warnings = list(got.get("warnings") or [])
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    fid = force["outputs"]["forceId"]

    def act(action: str, **kw: Any) -> str:
        out = s.handle({"type": "action", "action": action, "forceId": fid, **kw})
        assert out["ok"], out
        return str(out["outputs"]["selectionId"])

    squad = act("selectEntry", entryId="se-squad")
    model = act("selectChildEntry", selectionId=squad, entryId="se-model")
    act("selectChildEntry", selectionId=model, entryId="se-blade")
    if banner:
        act("selectChildEntry", selectionId=squad, entryId="se-banner")
    state = s.handle({"type": "getState"})
    [unit] = state["forces"][0]["selections"]
    trooper = next(c for c in unit["children"] if c["name"] != "Banner")
    return unit, trooper["children"][0], warnings


def _chars(unit: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: c["value"] for c in unit["profiles"][0]["characteristics"]}


def test_ceil_and_floor_keep_a_characteristic_within_a_bound_and_its_unit() -> None:
    unit, _, warnings = _run(
        _unit(
            [
                # Move at most 9" (written on the unit's own profile, as the data does).
                {"type": "ceil", "field": "m", "value": "9", "affects": "profiles.Unit"},
                # WS at least 4+ (a number with a unit after it keeps the unit).
                {"type": "floor", "field": "ws", "value": "4"},
            ],
            [],
        )
    )
    assert _chars(unit)["M"] == '9"'
    assert _chars(unit)["WS"] == "4+"
    assert warnings == []


def test_floor_and_ceil_leave_a_value_already_within_the_bound() -> None:
    unit, _, _ = _run(
        _unit(
            [
                {"type": "ceil", "field": "m", "value": "14"},
                {"type": "floor", "field": "ws", "value": "2"},
            ],
            [],
        )
    )
    assert _chars(unit)["M"] == '12"' and _chars(unit)["WS"] == "3+"


def test_replace_changes_the_text_it_names_and_append_joins_with_join() -> None:
    unit, blade, warnings = _run(
        _unit(
            [{"type": "append", "field": "kw", "value": "Jump Pack", "join": ", "}],
            [{"type": "replace", "field": "name", "value": "Fist", "arg": "weapon"}],
        )
    )
    assert blade["name"] == "Blade Fist"
    assert _chars(unit)["Keywords"] == "Infantry, Jump Pack"
    assert warnings == []


def _when_banner(scope: str) -> list[dict[str, Any]]:
    """Rename the blade while the enclosing selection of ``scope`` holds a Banner."""
    return [
        {
            "type": "set",
            "field": "name",
            "value": "Banner blade",
            "conditions": [
                {
                    "type": "atLeast",
                    "value": 1,
                    "field": "selections",
                    "scope": scope,
                    "childId": "se-banner",
                    "includeChildSelections": True,
                }
            ],
        }
    ]


def test_unit_and_root_entry_scopes_count_in_the_enclosing_unit() -> None:
    for scope in ("unit", "root-entry", "model-or-unit"):
        # model-or-unit: the nearest is the Trooper, which holds no Banner.
        expected = "Blade weapon" if scope == "model-or-unit" else "Banner blade"
        _, without, warnings = _run(_unit([], _when_banner(scope)))
        _, blade, _ = _run(_unit([], _when_banner(scope)), banner=True)
        assert (without["name"], blade["name"]) == ("Blade weapon", expected), scope
        assert warnings == [], scope


def test_model_and_upgrade_scopes_count_in_the_enclosing_model_or_upgrade() -> None:
    # The Banner is the squad's, not the Trooper's or the blade's: neither scope sees it.
    for scope in ("model", "upgrade"):
        _, blade, warnings = _run(_unit([], _when_banner(scope)), banner=True)
        assert blade["name"] == "Blade weapon", scope
        assert warnings == [], scope


def test_a_modifier_reaches_the_selections_below_its_own() -> None:
    # Written on the squad: every profile of type Unit below it gains 2" of Move, the
    # blade (by its entry id) is renamed; the squad's own profile is not below it.
    unit, blade, warnings = _run(
        _unit(
            [
                {
                    "type": "increment",
                    "field": "m",
                    "value": "2",
                    "affects": "self.entries.recursive.profiles.Unit",
                },
                {
                    "type": "set",
                    "field": "name",
                    "value": "Great blade",
                    "affects": "self.entries.recursive.se-blade",
                },
            ],
            [],
        )
    )
    assert _chars(unit)["M"] == '12"' and blade["name"] == "Great blade"
    assert warnings == []


def test_what_the_engine_cannot_do_yet_is_reported_not_misapplied() -> None:
    # A profile's annotation (NewRecruit's note beside a weapon) has no counterpart.
    unit, _, warnings = _run(
        _unit(
            [
                {
                    "type": "append",
                    "field": "annotation",
                    "value": "Relic",
                    "affects": "self.entries.recursive.profiles.Unit",
                },
                {"type": "set", "field": "name", "value": "Renamed", "scope": "primary-catalogue"},
            ],
            [],
        )
    )
    assert unit["name"] == "Assault Squad"
    assert sorted(warnings) == [
        "not supported: modifier of a profile's annotation (affects profiles)",
        "not supported: modifier of another selection (scope primary-catalogue)",
    ]


def _relic(n: int) -> dict[str, Any]:
    """The 40k data's "+1 Attacks to the bearer's melee weapons" as it writes it (Space
    Marines' Honour Vehement and the game system's Heirloom): a Dx Attacks gets "+0" appended,
    then 1 added to its last number, and only then the category that makes the next such
    modifier drop a leftover "+0" first."""
    path = "self.entries.recursive.{}profiles.Melee Weapons"
    return {
        "id": f"se-relic-{n}",
        "name": f"Relic {n}",
        "type": "upgrade",
        "modifiers": [
            {"type": "append", "field": "a", "value": "+0", "join": "", "arg": "+0",
             "scope": "model", "affects": path.format("cat-dx.")},
            {"type": "replace", "field": "a", "arg": "+0",
             "scope": "model", "affects": path.format("cat-dx-plus.")},
            {"type": "increment", "field": "a", "value": "1", "position": "-1",
             "scope": "model", "affects": path.format("")},
            {"type": "replace", "field": "a", "arg": "+0",
             "scope": "model", "affects": path.format("")},
            {"type": "add", "field": "category", "value": "cat-dx-plus",
             "scope": "model", "affects": "self.entries.recursive.cat-dx"},
        ],
    }  # fmt: skip


def _champion(relics: int) -> tuple[list[str], list[str]]:
    """(the Attacks of the champion's flail and sword, the setup's warnings)."""
    setup = {
        "gameSystem": {
            "id": "gs",
            "profileTypes": [
                {"id": "pt-melee", "name": "Melee Weapons",
                 "characteristicTypes": [{"id": "a", "name": "A"}]},
            ],
            "categoryEntries": [
                {"id": "cat-dx", "name": "Attacks Dx Weapon"},
                {"id": "cat-dx-plus", "name": "Attacks Dx+0 Modifier"},
            ],
            "forceEntries": [{"id": "fe-1", "name": "Army"}],
        },
        "catalogues": [{
            "id": "cat-1",
            "selectionEntries": [{
                "id": "se-champion", "name": "Champion", "type": "model",
                "selectionEntries": [
                    {"id": "se-flail", "name": "Flail", "type": "upgrade",
                     "categoryLinks": [{"id": "cl-1", "targetId": "cat-dx"}],
                     "profiles": [{"id": "p-flail", "name": "Flail", "typeId": "pt-melee",
                                   "characteristics": [{"typeId": "a", "value": "D6"}]}]},
                    {"id": "se-sword", "name": "Sword", "type": "upgrade",
                     "profiles": [{"id": "p-sword", "name": "Sword", "typeId": "pt-melee",
                                   "characteristics": [{"typeId": "a", "value": "4"}]}]},
                    _relic(1),
                    _relic(2),
                ],
            }],
        }],
    }  # fmt: skip
    s = AdapterSession()
    got = s.handle({"type": "setup", **setup})
    fid = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})["outputs"][
        "forceId"
    ]

    def act(action: str, **kw: Any) -> str:
        out = s.handle({"type": "action", "action": action, "forceId": fid, **kw})
        assert out["ok"], out
        return str(out["outputs"]["selectionId"])

    champion = act("selectEntry", entryId="se-champion")
    for entry in ["se-flail", "se-sword", *[f"se-relic-{n + 1}" for n in range(relics)]]:
        act("selectChildEntry", selectionId=champion, entryId=entry)
    [unit] = s.handle({"type": "getState"})["forces"][0]["selections"]
    attacks = {
        c["name"]: c["profiles"][0]["characteristics"][0]["value"]
        for c in unit["children"]
        if c["profiles"]
    }
    return [attacks["Flail"], attacks["Sword"]], list(got.get("warnings") or [])


def test_the_data_s_plus_one_attack_to_dx_weapons_adds_up_in_order() -> None:
    assert _champion(0) == (["D6", "4"], [])
    assert _champion(1) == (["D6+1", "5"], [])
    # The second relic sees the category the first added: D6+1 -> D6+1+0 -> D6+1 -> D6+2.
    assert _champion(2) == (["D6+2", "6"], [])
