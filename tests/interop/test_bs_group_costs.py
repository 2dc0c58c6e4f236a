"""A BattleScribe constraint on a group whose field is a cost type: "at most N build slots
among the options" (the suite's ``battlescribe-data-model.md``, "Constraint": a constraint's
``field`` may be a cost type's id, a sum of costs; the reference summary's "Queries": field "a
cost type id (a sum of costs)"). Gaslands writes its vehicles' build slots this way: one shared
"Options" group with a `max` on the build-slot cost of -1 (no limit), and each vehicle's link to
it setting that constraint's value by a modifier (2 for a car, 3 for a bus...).

The translation keeps such a constraint as the group's own (``docs/catalog-format.md``, "A
group's limits on a cost") with the modifiers of its value, so the engine checks the cost of
what is chosen in the group under each vehicle against that vehicle's number. The setup is
written in the suite's shapes and driven through the adapter as the suite drives it; no spec of
the suite covers it. Real data (``../shared/bsdata``, skipped with a message where absent):
tests/interop/test_bsdata.py."""

from __future__ import annotations

from typing import Any

from armybuilder.interop.battlescribe.adapter import AdapterSession


def _costs(slots: float) -> list[dict[str, Any]]:
    return [{"name": "Build Slots", "typeId": "ct-slots", "value": slots}]


def _vehicle(ident: str, name: str, link_modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": ident,
        "name": name,
        "type": "model",
        "costs": _costs(0),
        "entryLinks": [
            {
                "id": f"link-{ident}",
                "name": "Options",
                "targetId": "seg-options",
                "type": "selectionEntryGroup",
                "modifiers": link_modifiers,
            }
        ],
    }


WHEN_TRAILER = [
    {
        "type": "atLeast",
        "value": 1,
        "field": "selections",
        "scope": "roster",
        "childId": "se-trailer",
        "shared": True,
        "includeChildSelections": True,
    }
]

SETUP: Any = {
    "gameSystem": {
        "id": "gs",
        "costTypes": [{"id": "ct-slots", "name": "Build Slots"}],
        "forceEntries": [{"id": "fe-1", "name": "Team"}],
    },
    "catalogues": [
        {
            "id": "cat-1",
            "sharedSelectionEntryGroups": [
                {
                    "id": "seg-options",
                    "name": "Options",
                    "constraints": [
                        {
                            "id": "con-slots",
                            "type": "max",
                            "value": -1,
                            "field": "ct-slots",
                            "scope": "parent",
                        }
                    ],
                    "selectionEntryGroups": [
                        {
                            "id": "seg-weapons",
                            "name": "Weapons",
                            "selectionEntries": [
                                {
                                    "id": "se-mg",
                                    "name": "Machine Gun",
                                    "type": "upgrade",
                                    "costs": _costs(1),
                                },
                                {
                                    "id": "se-hmg",
                                    "name": "Heavy Machine Gun",
                                    "type": "upgrade",
                                    "costs": _costs(1),
                                },
                            ],
                        }
                    ],
                    "selectionEntries": [
                        {
                            "id": "se-armour",
                            "name": "Armour Plating",
                            "type": "upgrade",
                            "costs": _costs(1),
                        },
                        {"id": "se-nitro", "name": "Nitro", "type": "upgrade", "costs": _costs(0)},
                        {
                            "id": "se-trailer",
                            "name": "Trailer",
                            "type": "upgrade",
                            "costs": _costs(0),
                        },
                    ],
                }
            ],
            "selectionEntries": [
                _vehicle("se-car", "Car", [{"type": "set", "field": "con-slots", "value": 2}]),
                _vehicle(
                    "se-bus",
                    "Bus",
                    [
                        {"type": "set", "field": "con-slots", "value": 3},
                        {
                            "type": "increment",
                            "field": "con-slots",
                            "value": 1,
                            "conditions": WHEN_TRAILER,
                        },
                    ],
                ),
                # No modifier: the group's own -1, no limit.
                _vehicle("se-sled", "Sled", []),
            ],
        }
    ],
}


def _errors(vehicle: str, options: list[str]) -> tuple[list[dict[str, Any]], list[str]]:
    """The errors of a team of one vehicle with these options, and the setup's warnings."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **SETUP})
    assert got["type"] == "setupResult", got
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    fid = force["outputs"]["forceId"]

    def act(action: str, **kw: Any) -> str:
        out = s.handle({"type": "action", "action": action, "forceId": fid, **kw})
        assert out["ok"], out
        return str(out["outputs"]["selectionId"])

    held = act("selectEntry", entryId=vehicle)
    for option in options:
        act("selectChildEntry", selectionId=held, entryId=option)
    errors = s.handle({"type": "getErrors"})["errors"]
    return errors, list(got.get("warnings") or [])


def test_a_car_over_its_build_slots_is_an_error() -> None:
    errors, warnings = _errors("se-car", ["se-mg", "se-hmg", "se-armour", "se-armour"])
    assert [e["message"] for e in errors] == [
        "Team > Car has 4 Build Slots in Options; at most 2 Build Slots allowed"
    ]
    # Reported as the group's constraint, as the suite names an error's origin.
    assert [(e.get("entryId"), e.get("constraintId")) for e in errors] == [
        ("seg-options", "con-slots")
    ]
    # Nothing of the group's constraint or its modifiers is left out of the translation.
    assert warnings == []


def test_a_car_within_its_build_slots_is_legal() -> None:
    # Two slots, and options that cost none do not count.
    errors, _ = _errors("se-car", ["se-mg", "se-armour", "se-nitro", "se-nitro"])
    assert errors == []


def test_each_vehicle_is_checked_against_the_number_its_link_sets() -> None:
    four = ["se-mg", "se-hmg", "se-armour", "se-armour"]
    errors, _ = _errors("se-bus", four)
    assert [e["message"] for e in errors] == [
        "Team > Bus has 4 Build Slots in Options; at most 3 Build Slots allowed"
    ]
    # The increment where the team has a trailer: four is within the bus's four.
    errors, _ = _errors("se-bus", [*four, "se-trailer"])
    assert errors == []
    # A link that sets nothing leaves the group's own -1: no limit.
    errors, _ = _errors("se-sled", [*four, *four])
    assert errors == []
