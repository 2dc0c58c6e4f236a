"""Standard formations from catalog data, names in series, split and merge
(armybuilder.building): each one undoable step, nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder import building
from armybuilder.catalog import Library, default_roots
from armybuilder.session import EditError, EditSession
from armybuilder.yamlio import to_plain


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "building-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


def new(lib: Library, system: str, faction: str) -> EditSession:
    return EditSession.new(lib, system, faction, "Test", autosave=False)


def test_every_bundled_standard_names_options(lib: Library) -> None:
    """Every `standard:` in the bundled catalogs names options of its entry (at any depth)."""
    seen = 0
    for system in lib.systems.values():
        for faction in system.factions:
            index = system.index(faction)
            for entry in [*index.entries.values(), *index.shared.values()]:
                seen += bool(entry.standard)
                assert building.standard_problems(index, entry) == [], (faction, entry.id)
    assert seen >= 20


def test_ordinals() -> None:
    assert [building.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("system", "faction", "entry", "figures"),
    [
        # Starship Marine 5.1: a group is its HQ (major, captain, corporal, 3 marines, 2 combat
        # robots, 4 close support robots, 2 TRUCs) and 3 squads (lieutenant, sergeant,
        # corporal, 6 marines, 2 combat robots).
        ("starship-marine", "earther", "earther-group", 3 * (9 + 2) + 14),
        # Space Hulk, Space Marines Units and Weapons: six Terminators.
        ("space-hulk", "terminators", "terminator-squad", 6),
        # Infantry Operations, The Infantry Platoon: Inner Sphere on foot 7/4, Clan 5/5.
        ("infantry-ops", "inner-sphere", "platoon", 28),
        ("infantry-ops", "clan", "platoon", 25),
    ],
)
def test_standard_formation_is_legal_and_one_step(
    lib: Library, system: str, faction: str, entry: str, figures: int
) -> None:
    s = new(lib, system, faction)
    loc = building.add_standard(s, (), entry)
    ev = s.evaluate()
    assert [i.message for i in ev.issues if i.is_error] == []
    node = ev.root.children[0]
    assert node.loc == loc
    models = sum(n.count for n in node.walk() if n.entry is not None and n.entry.type == "model")
    assert models == figures
    assert s.undo_label is not None and s.undo_label.startswith("Add standard")
    s.undo()
    assert s.evaluate().root.children == []


def test_terminator_squad_loadout(lib: Library) -> None:
    """The basic squad: Sergeant with power sword, two heavy weapons (in place of the storm
    bolter), three with storm bolter and power fist (Space Hulk, Space Marines Units)."""
    s = new(lib, "space-hulk", "terminators")
    loc = building.add_standard(s, (), "terminator-squad")
    plain = to_plain(s.node(loc))
    kits = [
        (c["entry"], c.get("count", 1), sorted(w["entry"] for w in c["selections"]))
        for c in plain["selections"]
    ]
    assert kits == [
        ("sergeant", 1, ["power-sword", "storm-bolter"]),
        ("terminator", 1, ["assault-cannon", "power-fist"]),
        ("terminator", 1, ["heavy-flamer", "power-fist"]),
        ("terminator", 3, ["power-fist", "storm-bolter"]),
    ]
    assert sum(1 for i in s.evaluate().issues if i.is_error) == 0


def test_entry_without_standard_is_a_plain_add(lib: Library) -> None:
    s = new(lib, "space-hulk", "terminators")
    a = building.add_standard(s, (), "librarian")
    b = s.add((), "librarian")
    assert to_plain(s.node(a)) == to_plain(s.node(b))


def test_duplicate_takes_the_next_name_in_the_series(lib: Library) -> None:
    s = new(lib, "starship-marine", "earther")
    group = building.add_standard(s, (), "earther-group")
    third = (*group, "selections", 3)
    assert s.node(third)["name"] == "3rd Marine Squad"
    copy = building.duplicate(s, third)
    assert s.node(copy)["name"] == "4th Marine Squad"
    # From the first of the series, the next number free among its siblings.
    copy2 = building.duplicate(s, (*group, "selections", 1))
    assert s.node(copy2)["name"] == "5th Marine Squad"
    # An unnamed unit: the copy is the 2nd of its name; the original keeps its own.
    hq = (*group, "selections", 0)
    copy3 = building.duplicate(s, hq)
    assert s.node(copy3)["name"] == "2nd Group HQ"
    assert "name" not in s.node(hq)
    # Among three unnamed units of a name, the copy is the 4th: each unnamed one is a member
    # of the series (a second "2nd Group HQ" would name two units alike).
    s.undo()
    for _ in range(2):
        s.add(group, s.node(hq)["entry"])
    hq_entry = s.node(hq)["entry"]
    unnamed = [n for n in s.node(group)["selections"] if n["entry"] == hq_entry]
    assert len(unnamed) == 3 and not any("name" in n for n in unnamed)
    copy4 = building.duplicate(s, hq)
    assert s.node(copy4)["name"] == "4th Group HQ"
    # Models keep their name (a copy of a marine is a marine).
    marines = (*group, "selections", 1, "selections", 3)
    assert building.next_in_series(s, marines) is None


def test_split_and_merge_round_trip(lib: Library) -> None:
    s = new(lib, "starship-marine", "earther")
    squad = building.add_standard(s, (), "earther-squad")
    marines = (*squad, "selections", 3)
    s.set_notes(marines, "boarding team")
    before = to_plain(s.node(squad))
    first = building.split(s, marines)
    assert first == marines
    kids = to_plain(s.node(squad))["selections"]
    assert [k["entry"] for k in kids] == [
        "lieutenant",
        "sergeant",
        "corporal",
        *["marine"] * 6,
        "combat-robot",
    ]
    assert all(k.get("notes") == "boarding team" and "count" not in k for k in kids[3:9])
    assert s.undo_label == "Split Marine ×6"
    # They can now differ: one takes an SCA III; the five identical others merge back.
    s.choose((*squad, "selections", 4), "personal-weapon", "sca-3")
    merged = building.merge(s, marines)
    kids = to_plain(s.node(squad))["selections"]
    assert [(k["entry"], k.get("count", 1)) for k in kids[3:5]] == [("marine", 5), ("marine", 1)]
    assert s.node(merged).get("count") == 5
    # One undo each way.
    s.undo()
    s.undo()
    s.undo()
    assert to_plain(s.node(squad)) == before
    with pytest.raises(EditError):
        building.split(s, (*squad, "selections", 0))
    with pytest.raises(EditError):
        building.merge(s, (*squad, "selections", 0))


def test_sort_by_catalog_order_and_by_name(lib: Library) -> None:
    s = new(lib, "starship-marine", "earther")
    squad = building.add_standard(s, (), "earther-squad")
    entries = [str(s.node(c)["entry"]) for c in s.children_locs(squad)]
    assert building.sort(s, squad, "catalog") is False  # the standard is in catalog order
    assert building.sort(s, squad, "name") is True
    names = [building.display_name(s, s.node(c)) for c in s.children_locs(squad)]
    assert names == sorted(names, key=str.casefold)
    assert s.undo_label == "Sort Marine Squad by name"
    assert building.sort(s, squad, "catalog") is True
    assert [str(s.node(c)["entry"]) for c in s.children_locs(squad)] == entries
    s.undo()
    assert [building.display_name(s, s.node(c)) for c in s.children_locs(squad)] == names


def test_counts_stay_within_what_a_roster_file_holds(lib: Library, tmp_path: Path) -> None:
    """A file holds at most 10,000 copies of a selection (model/bounds.py; above it the file
    reads back as 1 with an error): neither a count nor a merge goes past it, and the squads
    keep the counts they had."""
    s = new(lib, "starship-troopers", "mobile-infantry")
    first = s.add((), "mi-squad")
    with pytest.raises(EditError, match="at most 10,000"):
        s.set_count(first, 10_001)
    s.set_count(first, 6_000)
    second = s.add((), "mi-squad")
    s.set_count(second, 6_000)
    assert building.mergeable(s, first) == [0, 1]
    with pytest.raises(EditError, match="12,000: more than the 10,000"):
        building.merge(s, first)
    assert [s.count_of(first), s.count_of(second)] == [6_000, 6_000]
    s.set_count(second, 4_000)
    assert s.count_of(building.merge(s, first)) == 10_000


def test_an_add_stays_within_what_a_roster_file_holds(lib: Library) -> None:
    """Adding 10,001 copies at once (a script, a quick fix) is refused as a count is, and the
    roster is untouched; 10,000 is added (model/bounds.py)."""
    from armybuilder.session.operations import build_selection

    s = new(lib, "starship-troopers", "mobile-infantry")
    for bad in (10_001, 0, -3):
        with pytest.raises(EditError, match="count must be"):
            s.add((), "mi-squad", count=bad)
    assert s.children_locs(()) == [] and s.history == []
    squad = s.index.entries["mi-squad"]
    with pytest.raises(EditError, match="at most 10,000, not 20,000"):
        build_selection(s.index, squad, 20_000)
    assert s.count_of(s.add((), "mi-squad", count=10_000)) == 10_000


def test_a_split_makes_at_most_100_selections(lib: Library) -> None:
    """Split (`x`) of a squad ×10,000 would make 10,000 selections: the builder froze for
    minutes drawing them. It is refused with what to do; ×100 still splits."""
    s = new(lib, "starship-troopers", "mobile-infantry")
    horde = s.add((), "mi-squad")
    s.set_count(horde, 10_000)
    with pytest.raises(EditError, match="×10,000 would become 10,000 selections; a split makes"):
        building.split(s, horde)
    assert s.count_of(horde) == 10_000 and len(s.roster.doc["selections"]) == 1
    s.set_count(horde, 100)
    building.split(s, horde)
    assert len(s.roster.doc["selections"]) == 100
