"""Where several rules of the data report the same problem at the same place, a player reads
it once (Space Station Zero asks for a Ship Type on the force's category slot and twice on
the root link to the Ship Type entry: "0 × Ship Type; at least 1 needed" was shown three
times). Written in the suite's shapes and driven through the adapter as the suite drives it."""

from __future__ import annotations

from typing import Any

from armybuilder.interop.battlescribe.adapter import AdapterSession


def _min(cid: str, scope: str) -> dict[str, Any]:
    return {
        "id": cid,
        "type": "min",
        "value": 1,
        "field": "selections",
        "scope": scope,
        "shared": True,
        "includeChildSelections": True,
    }


SETUP: dict[str, Any] = {
    "gameSystem": {
        "id": "gs",
        "categoryEntries": [{"id": "cat-ship", "name": "Ship Type"}],
        "forceEntries": [
            {
                "id": "fe-1",
                "name": "Crew",
                "categoryLinks": [
                    {
                        "id": "cl-ship",
                        "name": "Ship Type",
                        "targetId": "cat-ship",
                        "constraints": [_min("con-slot", "roster")],
                    }
                ],
            }
        ],
        "sharedSelectionEntries": [
            {
                "id": "se-ship",
                "name": "Ship Type",
                "type": "upgrade",
                "categoryLinks": [
                    {"id": "cl-1", "name": "x", "targetId": "cat-ship", "primary": True}
                ],
            }
        ],
        "entryLinks": [
            {
                "id": "el-ship",
                "name": "Ship Type",
                "targetId": "se-ship",
                "type": "selectionEntry",
                "constraints": [_min("con-parent", "parent"), _min("con-roster", "roster")],
            }
        ],
    },
    "catalogues": [{"id": "cat-1", "name": "Crews", "gameSystemId": "gs"}],
}


def _errors(ship: bool) -> list[dict[str, Any]]:
    """The roster's errors, the Ship Type the new force is given kept or taken away."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **SETUP})
    assert got["type"] == "setupResult", got
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    assert force["ok"], force
    if not ship:
        fid = force["outputs"]["forceId"]
        (sel,) = force["outputs"]["selections"].values()
        kw = {"forceId": fid, "selectionId": sel}
        assert s.handle({"type": "action", "action": "deselectSelection", **kw})["ok"]
    return list(s.handle({"type": "getErrors"})["errors"])


def test_a_missing_ship_type_is_reported_once_per_place() -> None:
    # The slot's limit and the link's limit in scope roster say the same of the roster: one
    # message (before: two). The link's limit in scope parent reads the force (in the
    # adapter's rosters, a force holds the link's selections): a message of its own.
    assert sorted(e["message"] for e in _errors(ship=False)) == [
        "Crew has 0 × Ship Type; at least 1 needed",
        "The roster 'New Roster' has 0 × Ship Type; at least 1 needed",
    ]


def test_a_ship_type_leaves_no_message() -> None:
    assert _errors(ship=True) == []
