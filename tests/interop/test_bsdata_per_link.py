"""Limits counted per link in real BattleScribe data (``../shared/bsdata``, 40k 10th edition,
Space Marines with the catalogues it links): the Sisters of Battle Squad, whose Sister
Superior is offered a bolt pistol twice (plainly, and in the ranged weapon group, each
through its own link, each with a maximum of 1 counted per link: ``shared="false"``), and
whose Battle Sister must take a boltgun by two minimums of 1 counted across links (each
``shared="true"``). BattleScribe's counting: ``shared-flag-semantics.md`` of the conformance
suite's notes, "`shared` on Constraints". The folder is test data without a licence: these
tests skip with a message where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import CatalogIndex, Library
from armybuilder.editing import add_entry
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"
SQUAD = "73fc-a193-7da1-d9c4"  # Sisters of Battle Squad
SUPERIOR = "77e3-f07c-b387-8307"  # Sister Superior
SISTER = "b938-9487-0dc2-5cc3"  # Battle Sister
BOLTGUN = "491a-2bbc-b43c-b4d"
BOLT_PISTOL = "5314-726f-72ba-9014"
PISTOL_IN_GROUP = "6596-ac96-fdcf-3d28"  # the bolt pistol's link in the ranged weapon group

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(),
    reason=f"the BattleScribe 40k test data is not at {BSDATA / 'wh40k-10e'}",
)


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


@pytest.fixture(scope="module")
def index(lib: Library) -> CatalogIndex:
    return lib.system("wh40k-10e").index(SM)


def test_two_minimums_across_links_add_one_boltgun(index: CatalogIndex) -> None:
    """The Battle Sister's boltgun: minimums `ed8e-bbcd-7285-336d` and `0f98-7522-8931-6d6d`
    (1 each, shared) and a maximum of 1: the squad filled to its minimums holds one boltgun
    per Battle Sister selection, not one per minimum (two broke the maximum)."""
    roster = Roster.new("wh40k-10e", SM, "T", {})
    loc = add_entry(roster, index, (), SQUAD, fill=True)
    sisters = [s for s in roster.node(loc)["selections"] if s["entry"] == SISTER]
    [sister] = sisters
    assert [s["entry"] for s in sister["selections"]].count(BOLTGUN) == 1
    ev = evaluate(roster, index, None)
    under = [i for i in ev.issues if i.entry == BOLTGUN]
    assert under == [], under


def test_each_bolt_pistol_line_counts_its_own_link(tmp_path: Path, lib: Library) -> None:
    """The Sister Superior's two bolt pistols (maximum `8cf3-1a43-74d6-849c`, 1 per link):
    with the plain one taken, its line reads 1/1 and the group's 0/1; with both, 1/1 each and
    no maximum broken."""
    path = tmp_path / "sob.yaml"
    path.write_text(
        f"system: wh40k-10e\nfaction: {SM}\nname: T\nselections:\n"
        f"  - entry: {SQUAD}\n    selections:\n      - entry: {SUPERIOR}\n"
        f"        selections:\n          - entry: {BOLT_PISTOL}\n",
        encoding="utf-8",
    )
    session = EditSession.open(path, lib)
    superior = ("selections", 0, "selections", 0)

    def lines() -> list[str]:
        return [
            i.limit.count_text
            for i in session.option_infos(superior)
            if i.entry_id in (BOLT_PISTOL, PISTOL_IN_GROUP)
        ]

    ids = [session.option_id(superior, c) for c in session.options(superior)]
    assert ids.count(BOLT_PISTOL) == ids.count(PISTOL_IN_GROUP) == 1
    assert lines() == ["1/1", "0/1"]
    session.add(superior, PISTOL_IN_GROUP)
    assert lines() == ["1/1", "1/1"]
    broken = [i for i in session.evaluate().issues if i.code == "max-exceeded"]
    assert broken == [], broken
