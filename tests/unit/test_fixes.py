"""Quick fixes (armybuilder.fixes): the remedy an issue offers, applied as one undoable edit,
and what the fixed roster validates to (`armybuilder validate`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.cli import main
from armybuilder.fixes import fixes_for
from armybuilder.rules.engine import Evaluation, Issue
from armybuilder.session import EditSession
from armybuilder.yamlio import to_plain

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SQUAD = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text()
DEINO = ("selections", 0, "selections", 3)
DEINO_KIT = "          - entry: storm-bolter\n          - entry: power-fist\n" + (
    "      - entry: terminator\n        name: Brother Goriel"
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "fixes-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


def open_text(lib: Library, tmp_path: Path, text: str) -> EditSession:
    path = tmp_path / "roster.yaml"
    path.write_text(text)
    return EditSession.open(path, lib, autosave=False)


def issue(ev: Evaluation, code: str, loc: tuple[object, ...]) -> Issue:
    return next(i for i in ev.issues if i.code == code and i.path == loc)


def validate(session: EditSession, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = session.save()
    capsys.readouterr()
    code = main(["validate", str(path)])
    return code, capsys.readouterr().out


def test_unknown_entry_is_replaced_keeping_the_rest(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SQUAD.replace(
        "entry: terminator\n        name: Brother Deino",
        "entry: termintor\n        name: Brother Deino\n        notes: left flank",
    )
    session = open_text(lib, tmp_path, text)
    code, out = validate(session, capsys)
    assert code == 1 and "unknown entry 'termintor'" in out
    before = to_plain(session.node(DEINO))
    ev = session.evaluate()
    (fix,) = fixes_for(ev, issue(ev, "unknown-entry", DEINO))
    assert fix.label == "Replace 'termintor' by 'terminator' (Terminator), keeping the rest"
    assert fix.apply(session) == DEINO
    after = to_plain(session.node(DEINO))
    assert after == {**before, "entry": "terminator"}
    assert after["name"] == "Brother Deino" and after["notes"] == "left flank"
    assert [s["entry"] for s in after["selections"]] == ["storm-bolter", "power-fist"]
    assert len(session.history) == 1
    # The squad is whole again: legal, as the example is (Space Hulk, the Terminator squad).
    code, out = validate(session, capsys)
    assert code == 0, out
    session.undo()
    assert to_plain(session.node(DEINO)) == before


def test_a_second_ranged_weapon_goes(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SQUAD.replace(
        DEINO_KIT, DEINO_KIT.replace("power-fist", "heavy-flamer\n          - entry: power-fist", 1)
    )
    session = open_text(lib, tmp_path, text)
    ev = session.evaluate()
    found = issue(ev, "max-exceeded", DEINO)
    assert "2 choices of Ranged weapon; at most 1" in found.message
    (fix,) = fixes_for(ev, found)
    assert fix.label == "Remove the last 1 choice of Ranged weapon"
    fix.apply(session)
    assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
        "storm-bolter",
        "power-fist",
    ]
    assert len(session.history) == 1
    code, out = validate(session, capsys)
    assert code == 0, out


def test_a_platoon_short_of_squads_gets_them(lib: Library, tmp_path: Path) -> None:
    """An Inner Sphere platoon needs four squads (Infantry Operations, The Infantry Platoon):
    the fix adds the missing ones in one step."""
    session = EditSession.new(lib, "infantry-ops", "inner-sphere", "Test", autosave=False)
    platoon = session.add((), "platoon")
    ev = session.evaluate()
    short = [i for i in ev.issues if i.code == "min-not-met" and i.constraint == "squads"]
    assert short, [i.message for i in ev.issues]
    (fix,) = fixes_for(ev, short[0])
    assert fix.label == "Add 4 × Squad"
    steps = len(session.history)
    fix.apply(session)
    assert len(session.history) == steps + 1
    squads = [s for s in session.node(platoon)["selections"] if s["entry"] == "squad"]
    assert sum(s.get("count", 1) for s in squads) == 4
    ev = session.evaluate()
    assert not [i for i in ev.issues if i.code == "min-not-met" and i.constraint == "squads"]


def test_issues_without_a_known_remedy_offer_none(lib: Library, tmp_path: Path) -> None:
    text = SQUAD.replace(DEINO_KIT, DEINO_KIT.replace("storm-bolter", "heavy-flamer", 1))
    # Three heavy weapons in the squad: which one goes is the player's choice.
    session = open_text(lib, tmp_path, text)
    ev = session.evaluate()
    heavy = next(i for i in ev.issues if "Heavy weapon" in i.message)
    assert fixes_for(ev, heavy) == []


def test_a_headquarters_over_its_order_of_battle_loses_the_surplus(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Group HQ holds at most 3 Marines (Starship Marine 5.1, a maximum its own entry puts
    on its children): split and duplicated to 4, the error offers to remove the last one, and
    the list is legal again. Before, the builder said "No quick fix for this issue"."""
    from armybuilder.building import add_standard, duplicate, split

    session = EditSession.new(lib, "starship-marine", "earther", "HQ", autosave=False)
    hq = add_standard(session, (), "earther-group-hq")
    marines = next(
        i for i, s in enumerate(session.node(hq)["selections"]) if s["entry"] == "marine"
    )
    first = split(session, (*hq, "selections", marines))
    duplicate(session, first)
    ev = session.evaluate()
    (over,) = [i for i in ev.issues if i.code == "max-exceeded"]
    assert "has 4 × Marine; at most 3" in over.message
    (fix,) = fixes_for(ev, over)
    assert fix.label == "Remove 1 × Marine (the last first)"
    steps = len(session.history)
    fix.apply(session)
    assert len(session.history) == steps + 1
    kept = [s for s in session.node(hq)["selections"] if s["entry"] == "marine"]
    assert sum(s.get("count", 1) for s in kept) == 3
    session.save(tmp_path / "hq.yaml")
    code, out = validate(session, capsys)
    assert code == 0, out


def test_a_headquarters_short_of_its_order_of_battle_gets_each_missing_rank(
    lib: Library, tmp_path: Path
) -> None:
    """An empty Group HQ is below its order of battle (Starship Marine 5.1: 1 Major, 1
    Captain, 1 Corporal, 3 Marines, 2 combat robots, 4 close support robots, 2 TRUCs); each
    warning offers to add what it names, and applying them all leaves none."""
    session = EditSession.new(lib, "starship-marine", "earther", "HQ", autosave=False)
    hq = session.add((), "earther-group-hq")
    ev = session.evaluate()
    short = [i for i in ev.issues if i.code == "min-not-met" and i.path == hq]
    labels = [fixes_for(ev, i)[0].label for i in short]
    assert labels == [
        "Add 1 × Major",
        "Add 1 × Captain",
        "Add 1 × Corporal",
        "Add 3 × Marine",
        "Add 2 × Combat Robot",
        "Add 4 × Close Support Robot",
        "Add 2 × TRUC",
    ]
    for _ in labels:
        ev = session.evaluate()
        first = next(i for i in ev.issues if i.code == "min-not-met" and i.path == hq)
        fixes_for(ev, first)[0].apply(session)
    ev = session.evaluate()
    assert not [i for i in ev.issues if i.code == "min-not-met" and i.path == hq]


def test_a_squad_without_a_model_gets_the_one_model_it_can_take(lib: Library) -> None:
    """A Mobile Infantry squad needs at least one model of the Trooper category (Starship
    Troopers, Characteristics), and the MI Cap Trooper is the only one it can take: the fix
    adds it, and the squad is complete."""
    session = EditSession.new(lib, "starship-troopers", "mobile-infantry", "MI", autosave=False)
    squad = session.add((), "mi-squad")
    ev = session.evaluate()
    (empty,) = [i for i in ev.issues if i.code == "min-not-met" and i.path == squad]
    assert "has 0 × Trooper; at least 1 needed" in empty.message
    (fix,) = fixes_for(ev, empty)
    assert fix.label == "Add 1 × MI Cap Trooper"
    fix.apply(session)
    assert [s["entry"] for s in session.node(squad)["selections"]] == ["cap-trooper"]
    assert not [i for i in session.evaluate().issues if i.path == squad]


TOY_SYSTEM = "kind: system\nid: toy\nname: Toy\nforces: []\n"
TOY_ARMY = """kind: catalog
id: army
system: toy
name: Army
shared_entries:
  - {id: marine, name: Marine, type: model}
entries:
  - id: hq
    name: HQ
    type: unit
    constraints:
CONSTRAINTS
    entries:
      - {link: marine}
      - id: squad
        name: Squad
        type: unit
        entries:
          - {link: marine}
"""
TOY_ROSTER = """format: 1
system: toy
faction: army
name: Toy roster
selections:
  - entry: hq
    selections:
DIRECT      - entry: squad
        selections:
          - entry: marine
            count: 10
"""


def toy_session(tmp_path: Path, constraints: str, direct: int) -> EditSession:
    """An HQ (of a small catalog written here) with ``constraints`` on the Marines it holds,
    ``direct`` Marines of its own and 10 in its squad."""
    root = tmp_path / "cats"
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "system.yaml").write_text(TOY_SYSTEM)
    (root / "toy" / "army.yaml").write_text(TOY_ARMY.replace("CONSTRAINTS", constraints))
    own = f"      - entry: marine\n        count: {direct}\n" if direct else ""
    lib = Library([*default_roots(), root]).scan()
    return open_text(lib, tmp_path, TOY_ROSTER.replace("DIRECT", own))


def test_a_deep_minimum_adds_only_what_is_missing_at_every_depth(tmp_path: Path) -> None:
    """At least 12 Marines anywhere in the HQ, 10 in its squad, none directly: the fix adds 2
    (before, "0 × Marine;" matched inside the message's "10 × Marine;" and it added 12)."""
    session = toy_session(tmp_path, "      - {type: min, value: 12, scope: self, child: marine}", 0)
    ev = session.evaluate()
    (short,) = ev.issues
    assert short.message == "HQ has 10 × Marine; at least 12 needed"
    (fix,) = fixes_for(ev, short)
    assert fix.label == "Add 2 × Marine"
    fix.apply(session)
    assert session.evaluate().issues == []


def test_a_deep_maximum_gets_its_own_fix_not_the_shallow_ones(tmp_path: Path) -> None:
    """At most 3 Marines directly and at most 10 at any depth, with 4 directly and 10 in the
    squad: each issue gets its own remedy (before, the deep one, "14 × Marine;", matched the
    shallow one's "4 × Marine;" and removed 1, leaving 13)."""
    session = toy_session(
        tmp_path,
        "      - {type: max, value: 3, scope: self, child: marine, deep: false}\n"
        "      - {type: max, value: 10, scope: self, child: marine}",
        4,
    )
    ev = session.evaluate()
    shallow, deep = ev.issues
    assert shallow.message == "HQ has 4 × Marine; at most 3 allowed"
    assert deep.message == "HQ has 14 × Marine; at most 10 allowed"
    assert [f.label for f in fixes_for(ev, shallow)] == ["Remove 1 × Marine (the last first)"]
    (fix,) = fixes_for(ev, deep)
    assert fix.label == "Remove 4 × Marine (the last first)"
    fix.apply(session)
    assert session.evaluate().issues == []


def test_a_deep_maximum_beyond_the_direct_children_offers_no_fix(tmp_path: Path) -> None:
    """At most 5 Marines at any depth, 2 directly and 10 in the squad: removing the direct
    ones cannot settle it, and which of the squad's go is the player's call: no fix."""
    session = toy_session(tmp_path, "      - {type: max, value: 5, scope: self, child: marine}", 2)
    ev = session.evaluate()
    (over,) = ev.issues
    assert over.message == "HQ has 12 × Marine; at most 5 allowed"
    assert fixes_for(ev, over) == []


def test_a_minimum_above_what_a_file_holds_adds_at_most_that(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A catalog minimum of 20,000 Grunts: the fix adds 10,000, the most one selection of a
    roster file holds (model/bounds.py), and says so; the saved file reads back as 10,000, not
    as 1 with an error (before, it offered "Add 20000 × Grunt" and saved `count: 20000`)."""
    root = tmp_path / "cats"
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "system.yaml").write_text(TOY_SYSTEM)
    (root / "toy" / "army.yaml").write_text(
        "kind: catalog\nid: army\nsystem: toy\nname: Army\nentries:\n"
        "  - id: horde\n    name: Horde\n    type: unit\n    constraints:\n"
        "      - {type: min, value: 20000, scope: self, child: grunt, deep: false}\n"
        "    entries:\n      - {id: grunt, name: Grunt, type: model}\n"
    )
    lib = Library([*default_roots(), root]).scan()
    roster = "format: 1\nsystem: toy\nfaction: army\nname: Horde\nselections:\n  - entry: horde\n"
    session = open_text(lib, tmp_path, roster)
    ev = session.evaluate()
    (short,) = ev.issues
    (fix,) = fixes_for(ev, short)
    assert fix.label == (
        "Add 10,000 × Grunt (of the 20,000 missing: one selection holds at most 10,000)"
    )
    fix.apply(session)
    assert session.node(("selections", 0, "selections", 0))["count"] == 10_000
    path = session.save()
    capsys.readouterr()
    code = main(["--catalogs", str(root), "validate", str(path)])
    out = capsys.readouterr().out
    assert code == 1 and "invalid-value" not in out, out
    assert "Horde has 10,000 × Grunt; at least 20,000 needed" in out


def test_a_deep_maximum_of_the_parent_counts_what_the_rules_count(tmp_path: Path) -> None:
    """At most 10 Marines in whatever holds them, counted at every depth (scope parent,
    deep): the HQ holds 4 directly and 10 in its squad, so 4 go (counting only the direct
    children, the fix would have removed none, or too few)."""
    session = toy_session(tmp_path, "      []", 4)
    root = tmp_path / "cats" / "toy" / "army.yaml"
    root.write_text(
        root.read_text().replace(
            "  - {id: marine, name: Marine, type: model}",
            "  - id: marine\n    name: Marine\n    type: model\n    constraints:\n"
            "      - {id: most, type: max, value: 10, scope: parent, deep: true}",
        )
    )
    lib = Library([*default_roots(), tmp_path / "cats"]).scan()
    session = EditSession.open(session.path, lib, autosave=False)
    ev = session.evaluate()
    (over,) = ev.issues
    assert over.message == "HQ has 14 × Marine; at most 10 allowed"
    (fix,) = fixes_for(ev, over)
    assert fix.label == "Remove 4 × Marine (the last first)"
    fix.apply(session)
    assert session.evaluate().issues == []


HOUSE_RULE = "supertank-roll-house-rule"


@pytest.mark.parametrize("shape", ["counted", "separate"])
def test_a_roster_wide_maximum_loses_the_surplus(
    lib: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str
) -> None:
    """The supertank house rule is selected once per roster (StarMarines IX-A, house rule:
    `scope: roster`, at most 1): three of it, as one selection counted ×3 or as separate
    selections, offer the fix that brings it down to one (it offered none), in one step;
    the roster then validates as the example does."""
    path = tmp_path / "roster.yaml"
    path.write_text((EXAMPLES / "starmarines" / "starmarines-example.yaml").read_text())
    session = EditSession.open(path, lib, autosave=False)
    if shape == "counted":
        session.set_count(session.add((), HOUSE_RULE), 3)
    else:
        for _ in range(3):
            session.add((), HOUSE_RULE)
    code, out = validate(session, capsys)
    assert code == 1 and "has 3 × House rule" in out and "at most 1 allowed" in out
    ev = session.evaluate()
    over = issue(ev, "max-exceeded", ())
    (fix,) = fixes_for(ev, over)
    assert fix.label == f"Remove 2 × {ev.index.name_of(HOUSE_RULE)} (the last first)"
    steps = len(session.history)
    fix.apply(session)
    assert len(session.history) == steps + 1
    kept = [s for s in session.node(())["selections"] if s["entry"] == HOUSE_RULE]
    assert [s.get("count", 1) for s in kept] == [1]
    code, out = validate(session, capsys)
    assert code == 0, out


def test_a_roster_wide_maximum_that_reaches_child_forces_loses_the_surplus(
    tmp_path: Path,
) -> None:
    """At most 1 HQ in the roster, counting child forces too (`child_forces: true`, as
    BattleScribe's data marks its Battle Size): the quick fix skipped every such constraint,
    although from the roster scope the flag reaches nothing more. Two HQs: remove one."""
    root = tmp_path / "cats"
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "system.yaml").write_text(TOY_SYSTEM)
    con = "      - {type: max, value: 1, scope: roster, child_forces: true}"
    (root / "toy" / "army.yaml").write_text(TOY_ARMY.replace("CONSTRAINTS", con))
    lib = Library([*default_roots(), root]).scan()
    text = "format: 1\nsystem: toy\nfaction: army\nname: Two\nselections:\n"
    session = open_text(lib, tmp_path, text + "  - entry: hq\n  - entry: hq\n")
    ev = session.evaluate()
    over = issue(ev, "max-exceeded", ())
    assert over.message == "The roster 'Two' has 2 × HQ; at most 1 allowed"
    (fix,) = fixes_for(ev, over)
    assert fix.label == "Remove 1 × HQ (the last first)"
    fix.apply(session)
    assert [s["entry"] for s in session.node(())["selections"]] == ["hq"]
    assert session.evaluate().issues == []


BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
def test_a_second_battle_size_on_the_40k_data_gets_its_fix(tmp_path: Path) -> None:
    """Warhammer 40,000's data: Battle Size at most once per roster (a constraint that also
    counts child forces). Two of them offered no fix; now "Remove 1 × Battle Size"."""
    lib = Library([BSDATA]).scan()
    text = (
        "format: 1\nsystem: wh40k-10e\nfaction: imperium-adeptus-astartes-space-marines\n"
        "name: Sizes\nforce: bb9d-299a-ed60-2d8a\nselections:\n"
        "  - entry: 564e-fbc6-5266-3ea4   # Battle Size\n"
    )
    session = open_text(lib, tmp_path, text + "  - entry: 564e-fbc6-5266-3ea4\n")
    ev = session.evaluate()
    over = issue(ev, "max-exceeded", ())
    assert over.message == "The roster 'Sizes' has 2 × Battle Size; at most 1 allowed"
    (fix,) = fixes_for(ev, over)
    assert fix.label == "Remove 1 × Battle Size (the last first)"
    fix.apply(session)
    assert len(session.node(())["selections"]) == 1
    assert not [i for i in session.evaluate().issues if i.code == "max-exceeded"]


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
def test_a_misspelt_link_id_on_the_40k_data_is_offered_the_link(tmp_path: Path) -> None:
    """Warhammer 40,000's data: a roster converted from BattleScribe names a linked entry by
    its link's id (the Lieutenant, `9770-3a56-619e-f390`, an entryLink to the shared entry
    `ce15-e87e-7cff-b129`). Misspelt in its last character, it was offered no close id, as
    only the entries' own ids were compared; now the link's id is, in the issue and its fix."""
    lib = Library([BSDATA]).scan()
    text = (
        "format: 1\nsystem: wh40k-10e\nfaction: imperium-adeptus-astartes-space-marines\n"
        "name: Lieutenant\nforce: bb9d-299a-ed60-2d8a\nselections:\n"
        "  - entry: 9770-3a56-619e-f39x   # Lieutenant, misspelt\n"
    )
    session = open_text(lib, tmp_path, text)
    ev = session.evaluate()
    unknown = issue(ev, "unknown-entry", ("selections", 0))
    assert "(did you mean '9770-3a56-619e-f390'?)" in unknown.message
    (fix,) = fixes_for(ev, unknown)
    assert fix.label == (
        "Replace '9770-3a56-619e-f39x' by '9770-3a56-619e-f390' (Lieutenant), keeping the rest"
    )
    fix.apply(session)
    assert session.node(("selections", 0))["entry"] == "9770-3a56-619e-f390"
    after = session.evaluate()
    assert not [i for i in after.issues if i.code == "unknown-entry"]
    assert after.name(after.root.children[0]) == "Lieutenant"
