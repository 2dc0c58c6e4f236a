"""A group the data hides where it would be chosen hides every option in it (issue 18): the
40k data hides each detachment's enhancements group by a modifier of the group itself
(``hidden`` set while the roster holds no selection of that detachment), so a Captain of a
roster whose detachment is the Gladius Task Force is offered the Gladius enhancements only,
as BattleScribe lists them. Before, only the options' own ``hidden`` modifiers were read,
and the details pane listed the enhancements groups of every detachment.

Read from the real data in ``../shared/bsdata`` (skipped with a message where it is absent):
the roster is the benchmark's 2,000-point Space Marines one (its detachment: Gladius Task
Force)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_rosters import marines_40k

from armybuilder.catalog import Library, walk_groups
from armybuilder.session import EditSession, editor

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def marines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    return marines_40k(tmp_path_factory.mktemp("hidden-groups"), name="marines.yaml")


def _enhancement_groups(s: EditSession, name: str) -> dict[str, int]:
    """Each enhancements group of the unit called ``name`` with how many options it offers."""
    ev = s.evaluate()
    node = next(n for n in ev.nodes() if n.entry is not None and n.entry.name == name)
    out: dict[str, int] = {}
    for c in s.options(node.loc, ev):
        if c.group is not None and c.group.name.endswith("Enhancements"):
            out[c.group.name] = out.get(c.group.name, 0) + 1
    return out


def test_a_captain_is_offered_the_enhancements_of_the_detachment_taken(
    marines: tuple[Path, Library], monkeypatch: pytest.MonkeyPatch
) -> None:
    session = EditSession.open(*marines, autosave=False)
    ev = session.evaluate()
    taken = {
        n.entry.name
        for n in ev.nodes()
        if n.entry is not None
        and n.parent is not None
        and n.parent.entry is not None
        and n.parent.entry.name == "Detachment"
    }
    assert taken == {"Gladius Task Force"}, taken
    groups = _enhancement_groups(session, "Captain")
    # (the Gladius Task Force's four enhancements: Artificer Armour, The Honour Vehement,
    # Adept of the Codex, Fire Discipline)
    assert groups == {"Gladius Task Force Enhancements": 4}, groups
    # With the groups' own modifiers not read, the others come back (what was listed before).
    monkeypatch.setattr(editor, "HIDE_GROUPS", False)
    before = _enhancement_groups(EditSession.open(*marines, autosave=False), "Captain")
    assert "Black Spear Task Force Enhancements" in before and len(before) > 20, before


def test_an_option_offered_is_in_no_group_the_engine_finds_hidden(
    marines: tuple[Path, Library],
) -> None:
    """For every unit of the roster: no option offered sits in a group (or a group inside one)
    that the evaluation finds hidden in the unit's selection; and some are so hidden."""
    session = EditSession.open(*marines, autosave=False)
    ev = session.evaluate()
    found = 0
    wrong: list[str] = []
    for node in ev.nodes():
        entry = node.entry
        if entry is None or node.is_root or node.force is not None or not entry.groups:
            continue
        hidden: set[int] = set()
        for g in walk_groups(entry.groups):
            if id(g) in hidden or ev.is_group_hidden(g, node):
                hidden.update(id(x) for x in walk_groups([g]))
        found += len(hidden)
        for c in session.options(node.loc, ev):
            if c.group is not None and id(c.group) in hidden:
                wrong.append(f"{ev.name(node)}: {c.entry.name} ({c.group.name})")
    assert wrong == []
    assert found > 0, "no group of the roster's units is hidden: the test proves nothing"
