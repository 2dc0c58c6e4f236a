# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""The catalog offers what the roster may take (issue 18): an entry the data's modifiers hide
where it would be added is left out of :meth:`EditSession.options`, as BattleScribe leaves it
out of its list, and comes back when what hides it changes (a "Show Legends" roster option
taken). Before, only the catalog's own ``hidden`` flag was read: a Legends unit was listed,
and once added said "... is not available to this roster (hidden in the catalog)".

Written here: a tiny game system whose Legends unit is hidden while the roster has no "Show
Legends", whose Crucible character is hidden as written and shown by a modifier once "Show
Crucible" is taken, and whose sergeant is hidden in a squad holding a veteran sergeant (a
condition on the selection it would be added to), and two relics whose modifiers are
written alike, hiding the one that is of the category "Spent" (a condition on the option
itself). The last tests read the real data in
``../shared/bsdata`` and skip with a message where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.session import EditSession, editor

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <categoryEntries><categoryEntry id="cat-spent" name="Spent"/></categoryEntries>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
  <selectionEntries>
    <selectionEntry id="showhide" name="Show/Hide Options" type="upgrade">
      <selectionEntries>
        <selectionEntry id="legends" name="Show Legends" type="upgrade"/>
        <selectionEntry id="crucible" name="Show Crucible" type="upgrade"/>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="captain" name="Captain" type="model">
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
    </selectionEntry>
    <selectionEntry id="old-captain" name="Legendary Captain" type="model" hidden="false">
      <modifiers>
        <modifier type="set" field="hidden" value="true">
          <conditions>
            <condition type="lessThan" value="1" field="selections" scope="roster" childId="legends" shared="true" includeChildSelections="true"/>
          </conditions>
        </modifier>
      </modifiers>
      <costs><cost name="pts" typeId="pts" value="90"/></costs>
    </selectionEntry>
    <selectionEntry id="champion" name="Crucible Champion" type="model" hidden="true">
      <modifiers>
        <modifier type="set" field="hidden" value="false">
          <conditions>
            <condition type="atLeast" value="1" field="selections" scope="roster" childId="crucible" shared="true" includeChildSelections="true"/>
          </conditions>
        </modifier>
      </modifiers>
    </selectionEntry>
    <selectionEntry id="relic-a" name="Relic A" type="upgrade">
      <categoryLinks><categoryLink id="cl-spent" targetId="cat-spent" primary="false"/></categoryLinks>
      <modifiers>
        <modifier type="set" field="hidden" value="true">
          <conditions>
            <condition type="instanceOf" value="1" field="selections" scope="self" childId="cat-spent" shared="true" includeChildSelections="false"/>
          </conditions>
        </modifier>
      </modifiers>
    </selectionEntry>
    <selectionEntry id="relic-b" name="Relic B" type="upgrade">
      <modifiers>
        <modifier type="set" field="hidden" value="true">
          <conditions>
            <condition type="instanceOf" value="1" field="selections" scope="self" childId="cat-spent" shared="true" includeChildSelections="false"/>
          </conditions>
        </modifier>
      </modifiers>
    </selectionEntry>
    <selectionEntry id="squad" name="Squad" type="unit">
      <selectionEntries>
        <selectionEntry id="sergeant" name="Sergeant" type="model">
          <modifiers>
            <modifier type="set" field="hidden" value="true">
              <conditions>
                <condition type="atLeast" value="1" field="selections" scope="parent" childId="veteran" shared="true" includeChildSelections="false"/>
              </conditions>
            </modifier>
          </modifiers>
        </selectionEntry>
        <selectionEntry id="veteran" name="Veteran Sergeant" type="model"/>
        <selectionEntry id="marine" name="Marine" type="model"/>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


TOP = ["Show/Hide Options", "Captain", "Relic B", "Squad"]


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("bs") / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    return Library([folder], use_cache=False).scan()


def _offered(s: EditSession, loc: tuple[str | int, ...] = ()) -> list[str]:
    return [c.entry.name for c in s.options(loc)]


def _hidden_errors(s: EditSession) -> list[str]:
    return [i.message for i in s.evaluate().issues if i.code == "hidden-entry"]


def test_an_entry_hidden_by_a_roster_option_is_offered_only_once_it_is_taken(
    lib: Library,
) -> None:
    s = EditSession.new(lib, "tiny", "army", "T", autosave=False)
    assert _offered(s) == TOP
    hide = s.add((), "showhide")
    legends = s.add(hide, "legends")
    # (no evaluation asked for: the options are those of the roster as it is now)
    assert _offered(s) == [*TOP[:2], "Legendary Captain", *TOP[2:]]
    crucible = s.add(hide, "crucible")
    assert _offered(s) == [*TOP[:2], "Legendary Captain", "Crucible Champion", *TOP[2:]]
    s.add((), "old-captain")
    s.add((), "champion")
    assert _hidden_errors(s) == []
    s.remove(crucible)
    s.remove(legends)
    assert _offered(s) == TOP
    # what was added while it was offered is reported now, as before
    assert len(_hidden_errors(s)) == 2
    s.undo()
    assert "Legendary Captain" in _offered(s)
    assert "Crucible Champion" not in _offered(s)
    s.close()


def test_a_condition_on_the_selection_added_to_decides_there(lib: Library) -> None:
    """The sergeant is hidden in a squad holding a veteran sergeant (scope `parent`: the
    squad), not in another squad."""
    s = EditSession.new(lib, "tiny", "army", "T", autosave=False)
    first = s.add((), "squad")
    second = s.add((), "squad")
    assert _offered(s, first) == ["Sergeant", "Veteran Sergeant", "Marine"]
    s.add(first, "veteran")
    assert _offered(s, first) == ["Veteran Sergeant", "Marine"]
    assert _offered(s, second) == ["Sergeant", "Veteran Sergeant", "Marine"]
    assert _hidden_errors(s) == []
    s.close()


def test_options_written_alike_that_read_themselves_are_decided_apart(lib: Library) -> None:
    """The two relics' modifiers are written alike, but each reads the relic itself: the one
    of the category "Spent" is hidden, the other not (what their modifiers find is not
    shared, ``SHARE_HIDDEN``), wherever they come in the catalogue."""
    s = EditSession.new(lib, "tiny", "army", "T", autosave=False)
    assert "Relic A" not in _offered(s)
    assert "Relic B" in _offered(s)
    s.add((), "relic-a")
    s.add((), "relic-b")
    assert [i.message for i in s.evaluate().issues if i.code == "hidden-entry"] == [
        "Relic A is not available to this roster (hidden in the catalog)"
    ]
    s.close()


def test_an_evaluation_of_an_earlier_edit_is_read_as_asked(lib: Library) -> None:
    """The builder passes the evaluation it shows (a newer one may still be running in a
    worker): the options are those it finds, and where it does not hold the selection the
    catalog's own flags decide."""
    s = EditSession.new(lib, "tiny", "army", "T", autosave=False)
    hide = s.add((), "showhide")
    before = s.evaluate()
    s.add(hide, "legends")
    assert "Legendary Captain" not in [c.entry.name for c in s.options((), before)]
    assert "Legendary Captain" in _offered(s)
    squad = s.add((), "squad")
    assert [c.entry.name for c in s.options(squad, before)] == [
        "Sergeant",
        "Veteran Sergeant",
        "Marine",
    ]
    s.close()


SM = "imperium-adeptus-astartes-space-marines"
ORKS = "xenos-orks"
SHOW_LEGENDS = "9ed-cbf4-bfe5-90bf"  # Warhammer 40,000.gst, under "Show/Hide Options"

needs_bsdata = pytest.mark.skipif(
    not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)


@pytest.fixture(scope="module")
def bslib() -> Library:
    return Library([BSDATA]).scan()


@needs_bsdata
@pytest.mark.parametrize("faction", [SM, ORKS])
def test_offered_at_the_top_is_what_can_be_added_without_being_hidden(
    bslib: Library, faction: str
) -> None:
    """Every entry at the top of a new 40k roster: offered if and only if, added, it is not
    "not available to this roster (hidden in the catalog)". Each is added alone to the new
    roster and undone (one session: a new one per entry rebuilt the same roster 123-249
    times, 90 % of the test's CPU)."""
    s = EditSession.new(bslib, "wh40k-10e", faction, "T", autosave=False)
    offered = {id(c) for c in s.options(())}
    everything = list(s.index.children(None))
    start = s.roster.dumps()
    wrong: list[str] = []
    for child in everything:
        loc = s.add((), s.option_id((), child))
        hidden = any(i.code == "hidden-entry" and i.path == loc for i in s.evaluate().issues)
        if hidden == (id(child) in offered):
            wrong.append(f"{child.entry.name}: offered {id(child) in offered}, hidden {hidden}")
        s.undo()
        assert s.roster.dumps() == start, child.entry.name  # (the new roster again)
    s.close()
    assert wrong == []
    assert 0 < len(offered) < len(everything)


@needs_bsdata
def test_show_legends_brings_the_legends_units_and_takes_them_away(bslib: Library) -> None:
    s = EditSession.new(bslib, "wh40k-10e", SM, "T", autosave=False)
    hide = next(
        loc
        for loc in s.children_locs(())
        if s.index.name_of(str(s.node(loc)["entry"])) == "Show/Hide Options"
    )
    before = {c.entry.name for c in s.options(())}
    loc = s.add(hide, SHOW_LEGENDS)
    after = {c.entry.name for c in s.options(())}
    assert before < after
    gained = after - before
    assert len(gained) > 20, gained
    assert all(name.endswith("[Legends]") for name in gained), sorted(gained)
    s.remove(loc)
    assert {c.entry.name for c in s.options(())} == before
    s.close()


@needs_bsdata
@pytest.mark.parametrize("faction", [SM, ORKS])
def test_options_hidden_alike_are_decided_as_each_alone(
    bslib: Library, faction: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Options whose modifiers of `hidden` are alike share one evaluation of them
    (``SHARE_HIDDEN``): what is offered is what evaluating each gives, at the top and in
    every unit of the catalogue's top (and in each selection it arrives with), before and
    after "Show Legends"."""
    s = EditSession.new(bslib, "wh40k-10e", faction, "T", autosave=False)
    for child in s.options(()):
        s.add((), s.option_id((), child), required=True)
    hide = next(
        loc
        for loc in s.children_locs(())
        if s.index.name_of(str(s.node(loc)["entry"])) == "Show/Hide Options"
    )
    locs = [(), *s.children_locs(())]
    locs += [sub for loc in locs if loc for sub in s.children_locs(loc)]
    shared = 0
    for _ in range(2):
        for loc in locs:
            ev = s.evaluate()
            monkeypatch.setattr(editor, "SHARE_HIDDEN", True)
            s._figures.clear()
            alike = [id(c) for c in s.options(loc, ev)]
            monkeypatch.setattr(editor, "SHARE_HIDDEN", False)
            s._figures.clear()
            each = [id(c) for c in s.options(loc, ev)]
            assert alike == each, loc
            shared += len(alike)
        s.add(hide, SHOW_LEGENDS)
    # (the options offered there, summed: about 800 for Orks once the groups the data hides,
    # such as the Crusade ones, are left out)
    assert shared > 500
    s.close()
