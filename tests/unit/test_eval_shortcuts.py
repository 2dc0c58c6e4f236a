"""The evaluation's shortcuts (issue 17) give what the long way gives.

* :meth:`Evaluation.nodes_in` skips the selections that cannot hold one of a category (the
  catalog index works out which once per category): it must list the same selections, in the
  same order, as a walk of the whole tree, on every example roster (one has several forces)
  and on rosters with unknown entries.
* The Infantry Operations module works a trooper's kit out once per set of holdings and a
  platoon's "attack values by troopers left" table once per make-up: troopers and platoons
  that differ must still get their own figures.
* A modifier's result is kept per entry, field, value and the selection its conditions
  measure (:meth:`Evaluation.apply_modifiers`): troopers of platoons that move differently
  must still weigh differently, every modified value of the examples must be what working
  the modifiers out afresh gives, and an edit must be seen at once.
* Kits, weapon statistics and survivor tables are kept with the catalog index: a catalog
  reloaded with a changed weapon gives the new figures, and the replaced entries are let go.
"""

from __future__ import annotations

import gc
import shutil
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.rules.frozen import FrozenValueError, is_frozen

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))


def _naive(ev: Evaluation, category: str) -> list[int]:
    return [id(n) for n in ev.nodes() if n.has_category(category)]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_nodes_in_lists_what_a_full_walk_finds(library: Library, path: Path) -> None:
    roster = Roster.from_file(path, round_trip=False)
    ev = evaluate_roster(roster, library.system(roster.system))
    categories = list(ev.index.categories)
    assert categories
    found_any = False
    for category in categories:
        got = [id(n) for n in ev.nodes_in(category)]
        assert got == _naive(ev, category), category
        found_any = found_any or bool(got)
    assert found_any  # the example holds selections of some category


IO_HEAD = "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Test\nselections:\n"


def _platoon(name: str, motive: str, kits: list[tuple[str, int, list[str]]]) -> str:
    lines = [
        "  - entry: platoon",
        f"    name: {name}",
        "    selections:",
        f"      - entry: {motive}",
        "      - entry: squad",
        "        selections:",
    ]
    for kit_name, count, items in kits:
        lines += [
            "          - entry: trooper",
            f"            name: {kit_name}",
            f"            count: {count}",
            "            selections:",
            *(f"              - entry: {i}" for i in items),
        ]
    return "\n".join(lines) + "\n"


def test_nodes_in_skips_unknown_entries_but_finds_what_is_known(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    text = IO_HEAD + _platoon("A", "foot", [("R", 7, ["auto-rifle", "kevlar-vest"])])
    text += "  - entry: no-such-thing\n    selections:\n      - entry: platoon\n"
    ev = evaluate_text(text)
    assert "unknown-entry" in ev.codes() or not ev.valid
    assert [id(n) for n in ev.nodes_in("platoon")] == _naive(ev, "platoon")
    assert len(ev.nodes_in("platoon")) == 1


def _weapons(ev: Evaluation) -> dict[str, str]:
    out = {}
    for n in ev.nodes():
        if n.has_category("trooper"):
            for v in ev.values_of(n):
                if v.key == "weapons":
                    out[ev.where(n)] = v.display()
    return out


def test_troopers_with_other_kits_get_their_own_weapons(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    text = IO_HEAD + _platoon(
        "A",
        "foot",
        [
            ("Riflemen", 3, ["auto-rifle", "kevlar-vest"]),
            ("More riflemen", 2, ["auto-rifle", "kevlar-vest"]),
            ("Laser riflemen", 2, ["laser-rifle", "kevlar-vest"]),
        ],
    )
    weapons = _weapons(evaluate_text(text))
    assert set(weapons) == {"A > Squad > Riflemen ×3", "A > Squad > More riflemen ×2",
                            "A > Squad > Laser riflemen ×2"}  # fmt: skip
    assert weapons["A > Squad > Riflemen ×3"] == weapons["A > Squad > More riflemen ×2"]
    # Infantry Operations, Weapon Statistics: the auto-rifle's DV is 0.5.
    assert weapons["A > Squad > Riflemen ×3"].startswith("Auto-Rifle (DV 0.5 ")
    assert weapons["A > Squad > Laser riflemen ×2"].lower().startswith("laser rifle (dv ")


def _survivors(ev: Evaluation) -> dict[str, dict[str, list[int]]]:
    out = {}
    for p in ev.nodes_in("platoon"):
        got = ev.value(p, "av_by_survivors")
        assert isinstance(got, dict)
        out[ev.name(p)] = got
    return out


def test_platoons_of_one_make_up_share_a_table_and_others_do_not(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    kits = [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])]
    text = IO_HEAD + _platoon("Foot 1", "foot", kits) + _platoon("Foot 2", "foot", kits)
    text += _platoon("Wheeled", "mechanised-wheeled", kits)
    text += _platoon("Bigger", "foot", [("Riflemen", 6, ["auto-rifle", "kevlar-vest"])])
    tables = _survivors(evaluate_text(text))
    # Infantry Operations, Infantry Attacks: the last n troopers' DV, rounded up; a mechanised
    # squad's driver adds nothing (Mechanised movement).
    assert tables["Foot 1"] == tables["Foot 2"]
    # one table for the make-up, frozen: no platoon's reader can change it for the other
    assert tables["Foot 1"] is tables["Foot 2"] and is_frozen(tables["Foot 1"])
    assert tables["Wheeled"] != tables["Foot 1"]
    assert len(tables["Bigger"]["primary"]) == 6
    assert len(tables["Foot 1"]["primary"]) == 5
    # The driver leaves one trooper's DV out: with one trooper standing, nothing is left.
    assert tables["Wheeled"]["primary"][0] == 0
    assert tables["Foot 1"]["primary"][0] > 0


def _trooper_kg(ev: Evaluation) -> dict[str, float]:
    return {
        ev.name(p): ev.unit_cost(t, "kg")
        for p in ev.nodes_in("platoon")
        for t in p.walk()
        if t.has_category("trooper")
    }


def test_troopers_weigh_what_their_own_platoon_makes_them(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    kits = [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])]
    text = IO_HEAD + _platoon("Foot", "foot", kits) + _platoon("Jump", "jump", kits)
    text += _platoon("Bikers", "motorised-wheeled", kits) + _platoon("Foot 2", "foot", kits)
    # Infantry Operations, movement table: a trooper is 85 kg, +80 kg with a jump pack,
    # +110 kg on a bike.
    assert _trooper_kg(evaluate_text(text)) == {
        "Foot": 85.0,
        "Jump": 165.0,
        "Bikers": 195.0,
        "Foot 2": 85.0,
    }


def _base(entry: Any, field_: str) -> tuple[bool, Any]:
    """The catalog's own value of ``field_`` for ``entry`` (False: not one to compare)."""
    if field_.startswith("cost:"):
        return True, entry.costs.get(field_[5:], 0.0)
    if field_ == "hidden":
        return True, entry.hidden
    if field_ == "name":
        return True, entry.name
    if field_.startswith("characteristic:"):
        for p in entry.profiles:
            if field_[15:] in p.characteristics:
                return True, p.characteristics[field_[15:]]
        return False, None
    if field_.startswith("constraint:"):
        for con in entry.constraints:
            if con.id == field_[11:]:
                return True, con.value
    return False, None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_kept_modified_value_is_what_the_modifiers_give(library: Library, path: Path) -> None:
    roster = Roster.from_file(path, round_trip=False)
    ev = evaluate_roster(roster, library.system(roster.system))
    asked = [
        (n, n.entry, f, value)
        for n in ev.nodes()
        if n.entry is not None
        for f in dict.fromkeys(m.field for m in n.entry.modifiers)
        for ok, value in [_base(n.entry, f)]
        if ok
    ]
    kept = [ev.apply_modifiers(e, f, v, n) for n, e, f, v in asked]  # fills what is kept
    for (n, e, f, v), got in zip(asked, kept, strict=True):
        mods, _ = ev.index.modifiers_on(e, f)
        afresh = ev._apply_modifiers(e, mods, f, v, n)
        assert ev.apply_modifiers(e, f, v, n) == got == afresh, (ev.where(n), f)
        assert type(got) is type(afresh)


def test_an_edit_of_the_platoon_changes_its_troopers_weight(
    library: Library, tmp_path: Path
) -> None:
    from armybuilder.session import EditSession

    path = tmp_path / "platoons.yaml"
    kits = [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])]
    path.write_text(IO_HEAD + _platoon("A", "foot", kits) + _platoon("B", "foot", kits))
    session = EditSession.open(path, library, autosave=False, lazy=False)
    assert _trooper_kg(session.evaluate()) == {"A": 85.0, "B": 85.0}
    session.remove(("selections", 1, "selections", 0))  # B's motive: on foot
    session.add(("selections", 1), "jump")
    # Infantry Operations, movement table: the jump pack adds 80 kg to each trooper.
    assert _trooper_kg(session.evaluate()) == {"A": 85.0, "B": 165.0}
    session.undo()
    session.undo()
    assert _trooper_kg(session.evaluate()) == {"A": 85.0, "B": 85.0}


def test_a_reloaded_catalog_gives_its_new_weapon_figures_and_drops_the_old(
    _isolated_home: None, tmp_path: Path
) -> None:
    root = tmp_path / "catalogs"
    shutil.copytree(default_roots()[0] / "infantry-ops", root / "infantry-ops")
    text = IO_HEAD + _platoon("A", "foot", [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])])
    text += _platoon("B", "foot", [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])])
    roster = Roster.from_text(text, "<test>")

    def run(lib: Library) -> tuple[Evaluation, dict[str, str], dict[str, dict[str, list[int]]]]:
        ev = evaluate_roster(roster, lib.system("infantry-ops"))
        return ev, _weapons(ev), _survivors(ev)

    old_lib = Library([root], use_cache=False).scan()
    ev, weapons, survivors = run(old_lib)
    # Infantry Operations, Weapon Statistics: the auto-rifle's DV is 0.5.
    assert weapons["A > Squad > Riflemen ×5"].startswith("Auto-Rifle (DV 0.5 ")
    old_entry = weakref.ref(ev.index.entries["auto-rifle"])
    system = root / "infantry-ops" / "system.yaml"
    before = system.read_text(encoding="utf-8")
    after = before.replace('dv: "0.5(DB)", range: "0/1/2/3/4', 'dv: "1.5(DB)", range: "0/1/2/3/4')
    assert after.count('dv: "1.5(DB)"') == 1
    system.write_text(after, encoding="utf-8")

    new_lib = Library([root], use_cache=False).scan()
    assert not new_lib.problems
    ev2, weapons2, survivors2 = run(new_lib)
    assert weapons2["A > Squad > Riflemen ×5"].startswith("Auto-Rifle (DV 1.5 ")
    # Five troopers of DV 1.5 against five of DV 0.5 (rounded up): the tables differ.
    assert survivors2["A"]["primary"][-1] == 8
    assert survivors["A"]["primary"][-1] == 3
    assert ev2.index.memo("infantry-ops.kits") is not ev.index.memo("infantry-ops.kits")

    del ev, old_lib, weapons, survivors
    gc.collect()
    assert old_entry() is None  # nothing kept from the catalog that was replaced


def _figures(ev: Evaluation) -> dict[str, list[tuple[str, str, Any, str, str]]]:
    """Every value of every platoon and squad, by the platoon's name and the squad's place."""
    out = {}
    for p in ev.nodes_in("platoon"):
        for i, n in enumerate([p, *(c for c in p.children if c.has_category("squad"))]):
            out[f"{ev.name(p)}/{i}"] = [
                (v.key, v.label, v.value, v.text, v.source) for v in ev.values_of(n)
            ]
    return out


def test_platoons_of_one_make_up_get_what_each_would_get_alone(
    evaluate_text: Callable[[str], Evaluation],
) -> None:
    rifles = [("Riflemen", 5, ["auto-rifle", "kevlar-vest"])]
    support = [
        ("Riflemen", 4, ["auto-rifle", "kevlar-vest"]),
        ("Gunners", 2, ["srm1", "flak-vest"]),
    ]
    platoons = [
        _platoon("Foot 1", "foot", rifles),
        _platoon("Foot 2", "foot", rifles).replace(
            "    name: Foot 2\n", "    name: Foot 2\n    experience: veteran\n"
        ),
        _platoon("Wheeled", "mechanised-wheeled", rifles),
        _platoon("Support 1", "foot", support),
        _platoon("Support 2", "foot", support),
    ]
    ev = evaluate_text(IO_HEAD + "".join(platoons))
    together = _figures(ev)
    alone: dict[str, list[tuple[str, str, Any, str, str]]] = {}
    for text in platoons:
        ev.index.memo("infantry-ops.attacks").clear()  # nothing from another platoon
        alone.update(_figures(evaluate_text(IO_HEAD + text)))
    assert together == alone
    # The veteran platoon hits more often (Infantry Operations, Attack Roll: gunnery 3, not 4).
    assert (
        dict((k, v) for k, _, v, _, _ in together["Foot 1/0"])["to_hit"]
        != dict((k, v) for k, _, v, _, _ in together["Foot 2/0"])["to_hit"]
    )
    assert together["Support 1/0"] != together["Foot 1/0"]
    # The platoons of one make-up share its table, frozen: a change to one platoon's is
    # refused, so the other's stays as it was.
    first = ev.value(ev.nodes_in("platoon")[3], "av_by_survivors")
    second = ev.value(ev.nodes_in("platoon")[4], "av_by_survivors")
    assert first == second and is_frozen(first) and is_frozen(second)
    with pytest.raises(FrozenValueError):
        first["primary"].append(99)
    assert 99 not in second["primary"]
    again = _figures(evaluate_text(IO_HEAD + "".join(platoons)))
    assert again == alone


def test_a_reloaded_space_hulk_catalog_lets_its_parsed_weapons_go(
    _isolated_home: None, tmp_path: Path
) -> None:
    root = tmp_path / "catalogs"
    shutil.copytree(default_roots()[0] / "space-hulk", root / "space-hulk")
    roster = Roster.from_file(REPO / "examples" / "space-hulk" / "standard-squad.yaml")
    old_lib = Library([root], use_cache=False).scan()
    ev = evaluate_roster(roster, old_lib.system("space-hulk"))
    parsed = ev.index.memo("space-hulk.parsed")
    assert parsed  # the squad's weapons were parsed and kept with the index
    old_weapon = weakref.ref(next(iter(parsed.values()))[0])
    new_lib = Library([root], use_cache=False).scan()
    ev2 = evaluate_roster(roster, new_lib.system("space-hulk"))
    assert ev2.index.memo("space-hulk.parsed") is not parsed
    assert [(i.code, i.message) for i in ev2.issues] == [(i.code, i.message) for i in ev.issues]
    del ev, old_lib, parsed
    gc.collect()
    assert old_weapon() is None  # nothing kept from the catalog that was replaced
