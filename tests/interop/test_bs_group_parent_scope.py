"""Scope `parent` in a condition of a group's modifier (or of the modifier of an entry link to
a group) is the selection holding the group, not that selection's own parent.

A group stands between the selection holding it and what is chosen in it: its own
constraints in scope `parent` count in the holding selection (the suite's
``battlescribe-data-model.md``, "SelectionEntryGroup": min / max on what is chosen in it), and
NewRecruit makes the group a node of the roster whose parent is that selection (the suite's
``nr-export-internals.md``: a selection's parent ``isGroup()``). So a group modifier reading
`parent` reads the holding selection: Gaslands gives a car one more build slot "where its
parent holds a middleweight trailer" (a modifier of the car's link to its Options group), and
that is the car's own trailer, not one anywhere in the team.

The first cases are written in the suite's shapes and driven through the adapter as the suite
drives it (no spec of the suite covers it); the last read the real data in ``../shared/bsdata``
and skip with a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.editing import add_entry
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate

BSDATA = Path(__file__).resolve().parents[3] / "shared" / "bsdata"


def _condition(scope: str, child: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "atLeast",
            "value": 1,
            "field": "selections",
            "scope": scope,
            "childId": child,
            "shared": True,
            "includeChildSelections": True,
        }
    ]


def _setup(scope: str) -> Any:
    """Vehicles whose Options group allows 2 build slots, one more where the condition (in
    ``scope``) finds a trailer; and special weapons at most 1, 2 where it finds a banner."""
    slots = [{"name": "Build Slots", "typeId": "ct-slots", "value": 1}]
    return {
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
                                "value": 2,
                                "field": "ct-slots",
                                "scope": "parent",
                            }
                        ],
                        "selectionEntries": [
                            {
                                "id": "se-mg",
                                "name": "Machine Gun",
                                "type": "upgrade",
                                "costs": slots,
                            },
                            {"id": "se-trailer", "name": "Trailer", "type": "upgrade"},
                        ],
                    }
                ],
                "selectionEntries": [
                    {
                        "id": "se-car",
                        "name": "Car",
                        "type": "model",
                        "selectionEntries": [
                            {"id": "se-banner", "name": "Banner", "type": "upgrade"}
                        ],
                        "entryLinks": [
                            {
                                "id": "link-options",
                                "name": "Options",
                                "targetId": "seg-options",
                                "type": "selectionEntryGroup",
                                "modifiers": [
                                    {
                                        "type": "increment",
                                        "field": "con-slots",
                                        "value": 1,
                                        "conditions": _condition(scope, "se-trailer"),
                                    }
                                ],
                            }
                        ],
                        "selectionEntryGroups": [
                            {
                                "id": "seg-crew",
                                "name": "Crew",
                                "constraints": [
                                    {
                                        "id": "con-crew-max",
                                        "type": "max",
                                        "value": 1,
                                        "field": "selections",
                                        "scope": "parent",
                                    }
                                ],
                                "modifiers": [
                                    {
                                        "type": "increment",
                                        "field": "con-crew-max",
                                        "value": 1,
                                        "conditions": _condition(scope, "se-banner"),
                                    }
                                ],
                                "selectionEntries": [
                                    {"id": "se-gunner", "name": "Gunner", "type": "upgrade"},
                                    {"id": "se-driver", "name": "Driver", "type": "upgrade"},
                                ],
                            }
                        ],
                    }
                ],
            }
        ],
    }


def _messages(scope: str, cars: list[list[str]]) -> list[str]:
    """The error messages of a team of cars, each with these options."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **_setup(scope)})
    assert got["type"] == "setupResult", got
    assert not got.get("warnings")
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    fid = force["outputs"]["forceId"]

    def act(action: str, **kw: Any) -> str:
        out = s.handle({"type": "action", "action": action, "forceId": fid, **kw})
        assert out["ok"], out
        return str(out["outputs"]["selectionId"])

    for options in cars:
        car = act("selectEntry", entryId="se-car")
        for option in options:
            act("selectChildEntry", selectionId=car, entryId=option)
    return [e["message"] for e in s.handle({"type": "getErrors"})["errors"]]


def test_a_trailer_gives_its_own_car_the_extra_slot_and_no_other() -> None:
    three = ["se-mg", "se-mg", "se-mg"]
    # The car with the trailer: 3 slots. The other: its own 2.
    assert _messages("parent", [[*three, "se-trailer"], three]) == [
        "Team > Car has 3 Build Slots in Options; at most 2 Build Slots allowed"
    ]
    assert _messages("parent", [[*three, "se-trailer"], [*three, "se-trailer"]]) == []


def test_a_banner_raises_the_group_maximum_of_its_own_car_only() -> None:
    crew = ["se-gunner", "se-driver"]
    assert _messages("parent", [[*crew, "se-banner"], crew]) == [
        "Team > Car has 2 choices of Crew; at most 1 allowed"
    ]
    assert _messages("parent", [[*crew, "se-banner"]]) == []


def test_scope_roster_still_counts_the_whole_team() -> None:
    # (the data's other way of saying "anywhere": unchanged)
    three = ["se-mg", "se-mg", "se-mg"]
    assert _messages("roster", [[*three, "se-trailer"], three]) == []


@pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the Gaslands test data is not at {BSDATA}"
)
def test_gaslands_a_middleweight_trailer_is_one_more_build_slot_for_its_own_car() -> None:
    """Gaslands.gst, Car (``5fc8-4273-0b18-c611``): its link to Options sets the build-slot
    constraint ``0a0d-4ca7-dc7b-eb21`` to 2 and increments it by 1 where scope `parent` holds
    a Middleweight Trailer (``e44a-e5fc-d07b-86c5``). Car A tows one, car B has 3 machine
    guns (1 slot each): B is over its 2, A may take 3."""
    index = Library([BSDATA]).scan().system("gaslands").index("gaslands")
    roster = Roster.new("gaslands", "gaslands", "T", {})
    sponsor = add_entry(roster, index, (), "9318-eb03-9bdd-ec00")
    add_entry(roster, index, sponsor, "e91f-341e-63b4-6539")  # Rusty's Bootleggers: trailers
    a = add_entry(roster, index, (), "5fc8-4273-0b18-c611", name="A")
    add_entry(roster, index, a, "e44a-e5fc-d07b-86c5")
    b = add_entry(roster, index, (), "5fc8-4273-0b18-c611", name="B")
    for car in (a, b):
        for _ in range(3):
            add_entry(roster, index, car, "bbee-877e-1934-1980")  # Machine Gun
    ev = evaluate(roster, index, None)
    assert [i.message for i in ev.issues if i.code == "max-exceeded"] == [
        "B has 3 Build Slots in Options; at most 2 Build Slots allowed"
    ]
