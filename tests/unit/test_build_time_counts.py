"""Counts read while the roster's tree is still being built (reference: the BattleScribe
data format's constraints and conditions count the selections *in the roster*, never a part
of it: ../shared/battlescribe-spec, "constraints" and "conditions").

Building reports some problems as it goes: a selection the catalog does not know, or does
not allow where it stands, is reported under its parent's name. A name may come from a
modifier that counts the parent's selections ("Squad (full)" with three sisters), and that
count used to be kept and read again by the parent's constraints after the tree was
complete: a squad of three sisters and one unknown selection was told it "has 0 × Sister;
at least 3 needed". Every count is now made on the finished tree.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate

SYSTEM = """
kind: system
id: counted
name: Counted
cost_types:
  - {id: pts, name: Points}
forces:
  - {id: patrol, name: Patrol}
shared_entries:
  - {id: pistol-profile, name: Bolt pistol, costs: {pts: 1}}
  - id: shield
    name: Shield
    # One limit for every way of taking it (BattleScribe: shared="true"): not per link.
    constraints: [{type: max, value: 1, scope: parent}]
"""

ARMY = """
kind: catalog
id: army
system: counted
name: The Army
entries:
  - id: squad
    name: Squad
    type: unit
    modifiers:
      - type: append
        field: name
        value: (full)
        separator: " "
        conditions: [{type: at-least, value: 3, scope: self, child: sister, deep: true}]
      - type: increment
        field: cost:pts
        value: 5
        conditions: [{type: at-least, value: 3, scope: self, child: sister}]
    entries:
      - id: sister
        name: Sister
        type: model
        costs: {pts: 10}
        constraints: [{type: min, value: 3, scope: parent}]
      - id: banner
        name: Banner
  - id: sergeant
    name: Sergeant
    type: unit
    groups:
      - id: sidearm
        name: Sidearm
        min: 1
        max: 1
        default: sidearm-pistol   # a link's id, as BattleScribe data names its defaults
        entries:
          - {link: pistol-profile, id: sidearm-pistol}
      - id: gear
        name: Gear
        entries:
          - {link: shield, id: gear-shield}
    entries:
      - {link: shield, id: spare-shield, name: Spare shield}
"""


@pytest.fixture
def counted_lib(tmp_path: Path, _isolated_home: None) -> Library:
    return tiny_library(tmp_path / "catalogs", SYSTEM, ARMY, folder="counted")


def _run(lib: Library, body: str) -> Evaluation:
    text = "system: counted\nfaction: army\nname: Test\nselections:\n" + dedent(body)
    gs = lib.system("counted")
    return evaluate(Roster.from_text(text, "t.yaml"), gs.index("army"), gs.rules)


@pytest.mark.parametrize("first", ["no-such-thing", "banner-typo"])
def test_an_unknown_selection_first_in_a_squad_does_not_hide_the_squad_s_models(
    counted_lib: Library, first: str
) -> None:
    ev = _run(
        counted_lib,
        f"""\
        - entry: squad
          selections:
            - {{entry: {first}}}
            - {{entry: sister, count: 3}}
        """,
    )
    squad = ev.root.children[0]
    # The one problem is the unknown selection, named under the squad as the player sees it.
    assert ev.codes() == ["unknown-entry"], [i.message for i in ev.issues]
    assert "under Squad (full)" in ev.issues[0].message
    assert ev.name(squad) == "Squad (full)"
    # Three sisters at 10 pts and the squad's +5 (three sisters or more).
    assert ev.totals["pts"] == 35
    # Every count reads the finished tree.
    assert ev.query(squad, "self", "sister", "selections", False, None) == 3


def test_a_squad_short_of_models_is_still_told_so(counted_lib: Library) -> None:
    ev = _run(
        counted_lib,
        """\
        - entry: squad
          selections:
            - {entry: no-such-thing}
            - {entry: sister, count: 2}
        """,
    )
    msgs = [i.message for i in ev.issues]
    assert sorted(ev.codes()) == ["min-not-met", "unknown-entry"], msgs
    assert any("has 2 × Sister; at least 3 needed" in m for m in msgs), msgs


def test_a_missing_choice_names_the_usual_one_by_name(counted_lib: Library) -> None:
    """The default of a group may be a link's id (BattleScribe's ``defaultSelectionEntryId``
    names the entry link): the message names what the player would pick, never the id (a
    default nothing defines is not suggested at all: tests/interop/test_bs_player_messages.py).
    """
    ev = _run(counted_lib, "- entry: sergeant\n")
    msgs = sorted(i.message for i in ev.issues)
    assert msgs == [
        "Sergeant has 0 choices of Sidearm; at least 1 needed (the usual choice is Bolt pistol)"
    ]
    index = counted_lib.system("counted").index("army")
    assert index.name_of("sidearm-pistol") == "Bolt pistol"
    assert index.name_of("path:sidearm-pistol") == "Bolt pistol"
    assert not index.knows("no-such-relic")
    assert index.name_of("no-such-relic") == "no-such-relic"


def test_a_limit_two_links_share_is_reported_once(counted_lib: Library) -> None:
    """Two links to one entry whose constraint is not counted per link (BattleScribe's
    ``shared="true"``; docs/catalog-format.md, links): both links' selections count against
    the one limit, and breaking it is one problem, not one per link (named as the first of
    them in the catalog names it)."""
    ev = _run(
        counted_lib,
        """\
        - entry: sergeant
          selections:
            - {entry: sidearm-pistol}
            - {entry: gear-shield}
            - {entry: spare-shield}
        """,
    )
    msgs = [i.message for i in ev.issues]
    assert msgs == ["Sergeant has 2 × Spare shield; at most 1 allowed"], msgs
