"""A group's default that is not one of its own entries is dropped, as BattleScribe drops it.

BattleScribe clears a ``defaultSelectionEntryId`` that is not a child of its group when it
loads the data (the suite's ``gamedata-coverage.md``, "BattleScribe auto-cleans some dangling
references at load"), so adding the unit chooses nothing in that group: the player picks one
of its options (its minimum is still reported). Before, the default was added as a selection
the unit cannot hold ("Assault Marine (…) cannot be selected under …") and the group's message
named it as the usual choice.

The first case is written in the suite's shapes; the second reads the real data in
``../shared/bsdata`` and skips with a message where it is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.editing import add_entry
from armybuilder.interop.battlescribe import checking
from armybuilder.interop.battlescribe import model as bs
from armybuilder.interop.battlescribe.translate import Translation
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate

BSDATA = Path(__file__).resolve().parents[3] / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"


def _squad_catalogue(default: str) -> dict[str, Any]:
    """A squad whose Marines group (at least 1) has ``default``; another unit has an
    Assault Marine of its own."""
    return {
        "id": "cat-1",
        "name": "C",
        "gameSystemId": "gs",
        "selectionEntries": [
            {
                "id": "se-other",
                "name": "Other Squad",
                "type": "unit",
                "selectionEntries": [
                    {"id": "se-other-marine", "name": "Assault Marine", "type": "model"}
                ],
            },
            {
                "id": "se-squad",
                "name": "Squad",
                "type": "unit",
                "selectionEntryGroups": [
                    {
                        "id": "seg-marines",
                        "name": "Marines",
                        "defaultSelectionEntryId": default,
                        "constraints": [
                            {
                                "id": "con-min",
                                "type": "min",
                                "value": 1,
                                "field": "selections",
                                "scope": "parent",
                            }
                        ],
                        "selectionEntries": [
                            {"id": "se-marine", "name": "Marine", "type": "model"}
                        ],
                    }
                ],
            },
        ],
    }


def _add_squad(default: str) -> tuple[list[tuple[str, bool]], list[str]]:
    """The squad's selections (entry id, known) once added with its minimums filled, and the
    roster's messages."""
    gsd = {"id": "gs", "name": "G", "forceEntries": [{"id": "fe-1", "name": "Army"}]}
    gs, _ = checking.validate(bs.GameSystem, gsd, "gameSystem")
    cat, _ = checking.validate(bs.Catalogue, _squad_catalogue(default), "catalogue")
    system = Translation(gs, [cat]).build()
    index = system.index("cat-1")
    roster = Roster.new(system.id, "cat-1", "T", {})
    add_entry(roster, index, (), "se-squad", fill=True)
    ev = evaluate(roster, index, None)
    squad = ev.root.children[0]
    return [(c.entry_id, c.entry is not None) for c in squad.children], [
        i.message for i in ev.issues
    ]


def test_a_default_naming_another_units_entry_is_not_added() -> None:
    children, messages = _add_squad("se-other-marine")
    assert children == []
    assert messages == ["Squad has 0 choices of Marines; at least 1 needed"]


def test_a_default_among_the_groups_entries_is_still_added() -> None:
    children, messages = _add_squad("se-marine")
    assert children == [("se-marine", True)]
    assert messages == []


@pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the 40k test data is not at {BSDATA}"
)
def test_an_assault_squad_with_jump_packs_gets_no_other_units_assault_marine() -> None:
    """Imperium - Space Marines.cat, Assault Squad with Jump Packs [Legends]
    (``bfe7-b726-9158-d5ad``): its group Assault Marines with Jump Packs
    (``220a-fd5c-42e7-2e65``) names ``da46-4e78-bf9a-6eac`` (another unit's Assault Marine)
    as its default. The squad arrives with its sergeant and nothing it cannot hold."""
    index = Library([BSDATA]).scan().system("wh40k-10e").index(SM)
    roster = Roster.new("wh40k-10e", SM, "T", {})
    add_entry(roster, index, (), "bfe7-b726-9158-d5ad", fill=True)
    ev = evaluate(roster, index, None)
    squad = ev.root.children[0]
    assert all(c.entry is not None for c in squad.children)
    assert "da46-4e78-bf9a-6eac" not in {c.entry_id for c in squad.children}
    assert "c201-cf41-47d8-7fdf" in {c.entry_id for c in squad.children}  # the sergeant
    messages = [i.message for i in ev.issues]
    assert not any("cannot be selected" in m for m in messages), messages
