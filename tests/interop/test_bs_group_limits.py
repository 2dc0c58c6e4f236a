"""A BattleScribe modifier of a group's own `max` (or `min`) constraint: the value of the
constraint changes where its conditions hold (the 40k data has 76 of them, e.g. "increment the
Fist weapons' maximum by 1"). The translation keeps it as a modifier of the group's `max` /
`min` (``docs/battlescribe.md``), so the engine checks the group against the modified value,
as BattleScribe does (the suite's ``battlescribe-data-model.md``: a modifier's field may be a
constraint's id). The setup is written in the suite's shapes and driven through the adapter
as the suite drives it; no spec of the suite covers it."""

from __future__ import annotations

from typing import Any

from armybuilder.interop.battlescribe.adapter import AdapterSession

WHEN_BANNER = [
    {
        "type": "atLeast",
        "value": 1,
        "field": "selections",
        "scope": "roster",
        "childId": "se-banner",
        "shared": True,
        "includeChildSelections": True,
    }
]

SETUP: Any = {
    "gameSystem": {"id": "gs", "forceEntries": [{"id": "fe-1", "name": "Army"}]},
    "catalogues": [
        {
            "id": "cat-1",
            "selectionEntries": [
                {
                    "id": "se-squad",
                    "name": "Squad",
                    "type": "unit",
                    "selectionEntries": [{"id": "se-banner", "name": "Banner", "type": "upgrade"}],
                    "selectionEntryGroups": [
                        {
                            "id": "seg-special",
                            "name": "Special weapons",
                            "constraints": [
                                {
                                    "id": "con-special-max",
                                    "type": "max",
                                    "value": 1,
                                    "field": "selections",
                                    "scope": "parent",
                                },
                                {
                                    "id": "con-special-min",
                                    "type": "min",
                                    "value": 0,
                                    "field": "selections",
                                    "scope": "parent",
                                },
                            ],
                            "modifiers": [
                                {
                                    "type": "increment",
                                    "field": "con-special-max",
                                    "value": 1,
                                    "conditions": WHEN_BANNER,
                                },
                                {
                                    "type": "set",
                                    "field": "con-special-min",
                                    "value": 3,
                                    "conditions": WHEN_BANNER,
                                },
                            ],
                            "selectionEntries": [
                                {"id": "se-flamer", "name": "Flamer", "type": "upgrade"},
                                {"id": "se-melta", "name": "Melta", "type": "upgrade"},
                            ],
                        }
                    ],
                }
            ],
        }
    ],
}


def _errors(banner: bool) -> tuple[list[str], list[str]]:
    """The errors with two special weapons chosen (and a banner if asked), and the setup's
    warnings."""
    s = AdapterSession()
    got = s.handle({"type": "setup", **SETUP})
    assert got["type"] == "setupResult", got
    force = s.handle({"type": "action", "action": "addForce", "forceEntryId": "fe-1"})
    fid = force["outputs"]["forceId"]

    def act(action: str, **kw: Any) -> str:
        out = s.handle({"type": "action", "action": action, "forceId": fid, **kw})
        assert out["ok"], out
        return str(out["outputs"]["selectionId"])

    squad = act("selectEntry", entryId="se-squad")
    act("selectChildEntry", selectionId=squad, entryId="se-flamer")
    act("selectChildEntry", selectionId=squad, entryId="se-melta")
    if banner:
        act("selectChildEntry", selectionId=squad, entryId="se-banner")
    errors = s.handle({"type": "getErrors"})["errors"]
    return [e["message"] for e in errors], list(got.get("warnings") or [])


def test_the_groups_maximum_follows_its_modifier() -> None:
    messages, warnings = _errors(banner=False)
    assert messages == ["Army > Squad has 2 choices of Special weapons; at most 1 allowed"]
    assert warnings == []
    # With the banner, at most 2 (and at least 3: the minimum's own modifier).
    messages, _ = _errors(banner=True)
    assert messages == ["Army > Squad has 2 choices of Special weapons; at least 3 needed"]


def test_the_40k_sergeant_with_twin_claws_needs_no_other_weapon() -> None:
    """Real data (``../shared/bsdata``, skipped where absent): a Tactical Marine Sergeant's
    "Weapon 1" and "Weapon 2" groups each ask for exactly one choice, and the data sets both
    limits to 0 when the sergeant takes Twin lightning claws (a `set` of each group's `min`
    and `max` constraint with that condition). With the claws, neither group is short."""
    from pathlib import Path

    import pytest

    from armybuilder.catalog import Library
    from armybuilder.rosters import Roster
    from armybuilder.rules.engine import evaluate_roster

    bsdata = Path(__file__).resolve().parents[3] / "shared" / "bsdata"
    if not (bsdata / "wh40k-10e").is_dir():
        pytest.skip(f"the BattleScribe 40k test data is not at {bsdata / 'wh40k-10e'}")
    sm = "imperium-adeptus-astartes-space-marines"
    system = Library([bsdata]).scan().system("wh40k-10e")
    groups = {"1f93-c6ec-b867-84dc", "8c57-42-22df-ed09"}  # Weapon 1, Weapon 2

    def short(loadout: str) -> list[str]:
        text = (
            f"system: wh40k-10e\nfaction: {sm}\nname: T\nselections:\n"
            "  - entry: c09a-6504-d25f-477\n"  # Tactical Squad
            "    selections:\n      - entry: a3e6-65a5-763f-4ac\n"  # Tactical Marine Sergeant
            f"        selections: {loadout}\n"
        )
        ev = evaluate_roster(Roster.from_text(text, "t.yaml"), system)
        return [i.code for i in ev.issues if i.entry in groups]

    assert short("[]") == ["min-not-met", "min-not-met"]
    assert short("[{entry: 8bd8-a0de-a0b9-a72e}]") == []  # Twin lightning claws
