# ruff: noqa: E501  (the tiny data is written as BattleScribe writes it: one element a line)
"""A choice kept in a group the data now hides is reported, naming it (issue 18): a 40k
Captain takes an enhancement of the Gladius Task Force, then the player changes the roster's
detachment to the Anvil Siege Force. The data hides the Gladius enhancements group (a
modifier of the group itself: hidden while the roster holds no Gladius Task Force), so the
catalog and the details pane no longer offer them; before, the one kept went unmentioned
(``validate``: "legal", the builder: "No issues"), and the player took a Gladius enhancement
to the table in an Anvil Siege Force. Now a warning on it says so, in ``validate`` and in the
session the builder shows. A warning, not an error: the data itself keeps choices in such
groups (a new roster's "content is enabled" options of Show/Hide Options, in the Crusade
group a roster outside a Crusade hides), added with their parent as BattleScribe adds them;
those are not reported.

Read from the real data in ``../shared/bsdata`` (skipped with a message where it is absent).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_rosters import marines_40k

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.rules.engine import evaluate_roster
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)

SM = "imperium-adeptus-astartes-space-marines"
DETACHMENT = "e9ed-6763-ea0d-39fe"  # the roster's Detachment selection (Warhammer 40,000.gst)
BATTLE_SIZE, STRIKE_FORCE = "7380-3e40-6ed6-b7cc", "baf8-997f-e323-a090"
CAPTAIN = "6c10-5b51-5bc0-8d2c"
HONOUR = "899b-69cc-2e8f-f8ea"  # The Honour Vehement, a Gladius Task Force enhancement

ROSTER = f"""format: 1
system: wh40k-10e
faction: {SM}
name: Walk
limits:
  pts: 2000
selections:
  - entry: {DETACHMENT}
    selections:
      - entry: {{detachment}}
  - entry: {BATTLE_SIZE}
    selections:
      - entry: {STRIKE_FORCE}
  - entry: {CAPTAIN}
    selections:
      - entry: c6aa-b3a5-4ff3-e0d3
        selections:
          - entry: 6e7b-4796-0ba3-a2d0
          - entry: b273-b85e-4018-a0cd
          - entry: c3bc-26b4-6fa0-bd39
      - entry: {HONOUR}
"""

WANT = (
    "Captain > The Honour Vehement is in Gladius Task Force Enhancements, which the data hides"
    " for this roster: it is no longer offered"
)
CODE = "hidden-group-choice"


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


def _hidden(s: EditSession) -> list[str]:
    return [i.message for i in s.evaluate().issues if i.code == CODE]


def test_validate_names_an_enhancement_of_a_detachment_not_taken(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = EditSession.new(lib, "wh40k-10e", SM, "Walk", autosave=False)
    ev = s.evaluate()
    det = next(n for n in ev.nodes() if n.entry is not None and n.entry.name == "Detachment")
    ids = {c.entry.name: s.option_id(det.loc, c) for c in s.options(det.loc)}
    s.close()
    for name, legal in (("Gladius Task Force", True), ("Anvil Siege Force", False)):
        path = tmp_path / f"{name}.yaml"
        path.write_text(ROSTER.format(detachment=ids[name]), encoding="utf-8")
        code = main(["--catalogs", str(BSDATA), "validate", str(path)])
        out = capsys.readouterr().out
        assert (WANT in out) is not legal, out
        assert ("warning" in out) is not legal, out
        assert code == 0, out  # (a warning: the roster is still legal)


def test_changing_the_detachment_reports_the_enhancement_kept(lib: Library) -> None:
    """In an edit session (the builder's): no issue with the Gladius Task Force (nor for the
    Show/Hide Options' choices a new roster starts with); the detachment changed, the
    enhancement kept is a warning on it (the evaluation after the edit, and one
    afresh, agree); undone, it is gone."""
    s = EditSession.new(lib, "wh40k-10e", SM, "Walk", autosave=False)
    ev = s.evaluate()
    det = next(n for n in ev.nodes() if n.entry is not None and n.entry.name == "Detachment")
    by_name = {c.entry.name: c for c in s.options(det.loc)}
    group = by_name["Gladius Task Force"].group
    assert group is not None
    s.choose(det.loc, group.id, s.option_id(det.loc, by_name["Gladius Task Force"]))
    captain = s.add((), CAPTAIN)
    offered = {c.entry.name: c for c in s.options(captain)}
    assert "The Honour Vehement" in offered
    honour = s.add(captain, s.option_id(captain, offered["The Honour Vehement"]))
    assert _hidden(s) == []
    s.choose(det.loc, group.id, s.option_id(det.loc, by_name["Anvil Siege Force"]))
    assert "The Honour Vehement" not in {c.entry.name for c in s.options(captain)}
    found = [i for i in s.evaluate().issues if i.code == CODE]
    assert [i.path for i in found] == [honour], [i.message for i in found]
    assert WANT in found[0].message and found[0].severity == "warning"
    # (the same as an evaluation of the roster from scratch)
    afresh = evaluate_roster(s.roster, s.system)
    assert [(i.path, i.message) for i in afresh.issues if i.code == CODE] == [
        (i.path, i.message) for i in found
    ]
    s.undo()
    assert _hidden(s) == []
    s.close()


GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
  <selectionEntries>
    <selectionEntry id="plan" name="Plan" type="upgrade">
      <selectionEntryGroups>
        <selectionEntryGroup id="plans" name="Plans" minSelections="0" maxSelections="1">
          <selectionEntries>
            <selectionEntry id="raid" name="Raid" type="upgrade"/>
            <selectionEntry id="siege" name="Siege" type="upgrade"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </selectionEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="squad" name="Squad" type="unit">
      <selectionEntries>
        <selectionEntry id="marine" name="Marine" type="model"/>
      </selectionEntries>
      <selectionEntryGroups>
        <selectionEntryGroup id="raid-kit" name="Raid Kit">
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditions>
                <condition type="lessThan" value="1" field="selections" scope="roster" childId="raid" shared="true" includeChildSelections="true"/>
              </conditions>
            </modifier>
          </modifiers>
          <selectionEntries>
            <selectionEntry id="ladder" name="Ladder" type="upgrade"/>
            <selectionEntry id="banner" name="Banner" type="upgrade">
              <constraints>
                <constraint type="min" value="1" field="selections" scope="parent" shared="true" id="need-banner"/>
              </constraints>
            </selectionEntry>
          </selectionEntries>
          <selectionEntryGroups>
            <selectionEntryGroup id="grapnels" name="Grapnels">
              <selectionEntries>
                <selectionEntry id="grapnel" name="Grapnel" type="upgrade"/>
              </selectionEntries>
            </selectionEntryGroup>
          </selectionEntryGroups>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry id="scouts" name="Scouts" type="unit">
      <selectionEntryGroups>
        <selectionEntryGroup id="scout-kit" name="Scout Raid Kit">
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditions>
                <condition type="lessThan" value="1" field="selections" scope="roster" childId="raid" shared="true" includeChildSelections="true"/>
              </conditions>
            </modifier>
          </modifiers>
          <selectionEntries>
            <selectionEntry id="rope" name="Rope" type="upgrade"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def _tiny_roster(plan: str) -> str:
    return f"""format: 1
system: tiny
faction: army
name: Tiny
selections:
  - entry: plan
    selections:
      - entry: {plan}
  - entry: squad
    selections:
      - entry: marine
      - entry: ladder
      - entry: banner
      - entry: grapnel
  - entry: scouts
    selections:
      - entry: rope
"""


@pytest.mark.parametrize("plan", ["raid", "siege"])
def test_choices_in_a_group_hidden_by_another_choice_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plan: str
) -> None:
    """A squad whose "Raid Kit" group (with a subgroup) is hidden unless the roster's plan is
    the raid: with the siege, the ladder and the grapnel (in the subgroup) are named; the
    banner, which the data requires there (BattleScribe adds it with the squad), is not. The
    scouts hold nothing but a plain choice: the evaluation's shortcut for a selection with
    nothing to check (``Holding.quiet``) must not skip them."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    path = tmp_path / "list.yaml"
    path.write_text(_tiny_roster(plan), encoding="utf-8")
    code = main(["--catalogs", str(tmp_path), "validate", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    named = [line for line in out.splitlines() if CODE in line]
    if plan == "raid":
        assert named == [], out
        return
    assert [line.split(": warning: ", 1)[1] for line in named] == [
        f"{name} is in {group}, which the data hides for this roster: it is no longer "
        f"offered (remove it, or take back what hides the group) [{CODE}]"
        for name, group in (
            ("Squad > Ladder", "Raid Kit"),
            ("Squad > Grapnel", "Raid Kit"),
            ("Scouts > Rope", "Scout Raid Kit"),
        )
    ], out


def test_the_builder_s_evaluations_after_detachment_changes_agree_with_fresh_ones(
    lib: Library, tmp_path: Path
) -> None:
    """The bench's 2,000-point roster (Gladius Task Force): its Captain, Lieutenant and
    Librarian each take an enhancement, then the detachment changes back and forth (and is
    undone, redone). After each edit, the session's evaluation (which replays the subtrees
    an edit leaves alone) reports the same issues as an evaluation from scratch, and the
    three enhancements are named exactly while the detachment is another."""
    path, _ = marines_40k(tmp_path, lib, "bench.yaml")
    s = EditSession.open(path, lib, autosave=False)
    ev = s.evaluate()
    det = next(n for n in ev.nodes() if n.entry is not None and n.entry.name == "Detachment")
    detachments = {c.entry.name: c for c in s.options(det.loc)}
    group = detachments["Gladius Task Force"].group
    assert group is not None
    taken = 0
    for node in ev.nodes():
        if node.entry is None or node.entry.name not in ("Captain", "Lieutenant", "Librarian"):
            continue
        offered = [
            c for c in s.options(node.loc) if c.group is not None and "Enhancements" in c.group.name
        ]
        s.add(node.loc, s.option_id(node.loc, offered[taken]))
        taken += 1
    assert taken == 3

    def named() -> int:
        mine = sorted((i.path, i.code, i.message) for i in s.evaluate().issues)
        fresh = evaluate_roster(s.roster, s.system)
        assert mine == sorted((i.path, i.code, i.message) for i in fresh.issues)
        return sum(1 for i in mine if i[1] == CODE)

    assert named() == 0
    for name, want in [
        ("Anvil Siege Force", 3),
        ("Ironstorm Spearhead", 3),
        ("Gladius Task Force", 0),
        ("Firestorm Assault Force", 3),
    ]:
        s.choose(det.loc, group.id, s.option_id(det.loc, detachments[name]))
        assert named() == want, name
    s.undo()
    assert named() == 0
    s.undo()
    assert named() == 3
    s.redo()
    assert named() == 0
    s.close()
