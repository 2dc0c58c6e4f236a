"""Names replayed by what their modifiers read (``Evaluation._name_by_reads``): an edit
session works out the name of each selection whose entry has modifiers of its name once the
evaluation is made (``Evaluation._known_names``), and the next evaluation takes the previous
one's name of the same selection (the same object, of the same entry) where every read its
name modifiers made from outside it (a count of the roster, say) finds the same again; a read
inside it (a count of its own models) is the same in the same selection.

40k units append their Crusade rank to their name by two such reads: the experience points
they hold, and whether the roster has a Crusade force. Here a hand-written catalog does the
same: a squad is "(veteran)" with five soldiers of its own, "(blessed)" while the roster holds
a banner (the captain's). Each edit is compared with a fresh evaluation of the same roster
(every name, issue, value and cost); the squads an edit does not touch keep their names by
replay where nothing they read changed (a count +1 in another unit), and change them where it
did (the captain's banner), in a name and in the message that names the squad. The last test
breaks the replay on purpose (reads forgotten) and shows the comparison then fails.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from test_replay_traced import same

from armybuilder.catalog import Library
from armybuilder.rules.engine import Evaluation, evaluate_roster
from armybuilder.session import EditSession
from armybuilder.session.editor import Loc

SYSTEM = """
kind: system
id: nmr
name: Name Read Wars
cost_types:
  - {id: pts, name: Points, unit: pts}
categories:
  - {id: hq, name: HQ}
  - {id: troops, name: Troops}
forces:
  - id: patrol
    name: Patrol
    slots:
      - {category: hq, max: 2}
      - {category: troops, max: 3}
"""

ARMY = """
kind: catalog
id: army
system: nmr
name: The Army
entries:
  - id: captain
    name: Captain
    type: unit
    categories: [hq]
    costs: {pts: 20}
    entries:
      - id: banner
        name: Banner
        costs: {pts: 1}
  - id: squad
    name: Squad
    type: unit
    categories: [troops]
    costs: {pts: 10}
    constraints:
      - {type: min, value: 3, scope: self, child: soldier, source: "NMR 1.1"}
    modifiers:
      - type: append
        field: name
        value: " (veteran)"
        conditions: [{type: at-least, value: 5, scope: self, child: soldier}]
      - type: append
        field: name
        value: " (blessed)"
        conditions: [{type: at-least, value: 1, scope: roster, child: banner}]
    entries:
      - id: soldier
        name: Soldier
        type: model
        costs: {pts: 5}
"""

ROSTER = """system: nmr
faction: army
name: Named
selections:
  - entry: captain
  - entry: squad
    selections:
      - {entry: soldier, count: 4}
  - entry: squad
    selections:
      - {entry: soldier, count: 5}
  - entry: squad
    selections:
      - {entry: soldier, count: 2}
"""


def session(tmp_path: Path, roster: str = ROSTER) -> EditSession:
    root = tmp_path / "catalogs"
    (root / "nmr").mkdir(parents=True)
    (root / "nmr" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "nmr" / "army.yaml").write_text(ARMY, encoding="utf-8")
    library = Library([root], use_cache=False).scan()
    path = tmp_path / "named.yaml"
    path.write_text(roster, encoding="utf-8")
    return EditSession.open(path, library, autosave=False)


def replayed_names(ev: Evaluation) -> int:
    """How many names ``ev`` took from the previous evaluation (the same record kept)."""
    assert ev.memo_out is not None
    was = ev.memo_in.names_traced if ev.memo_in is not None else {}
    return sum(1 for k, v in ev.memo_out.names_traced.items() if was.get(k) is v)


def names(ev: Evaluation) -> list[str]:
    return [ev.name(n) for n in ev.root.children]


def walk(s: EditSession) -> list[tuple[str, list[str], list[str], int]]:
    """The edits of the module's docstring; after each (compared with a fresh evaluation),
    the names of the top-level selections, the errors and how many names were replayed."""
    captain, first, _second, _third = s.children_locs(())
    soldiers: Loc = s.children_locs(first)[0]
    seen = []
    steps = ["opened", "plus", "banner", "captain+1", "undo", "undo", "redo", "rename", "minus"]
    for what in steps:
        if what == "plus":
            s.set_count(soldiers, 5)  # the first squad made veteran (its own read)
        elif what == "banner":
            s.add(captain, "banner")  # every squad blessed, the untouched two included
        elif what == "captain+1":
            s.set_count(captain, 2)  # nothing a name reads: every squad's name replayed
        elif what == "undo":
            s.undo()
        elif what == "redo":
            s.redo()
        elif what == "rename":
            s.rename(first, "Red Squad")
        elif what == "minus":
            s.set_count(soldiers, 4)  # (a name of its own stays)
        ev = s.evaluate()
        fresh = copy.copy(s.roster)
        fresh.refresh()
        same(ev, evaluate_roster(fresh, s.system), what)
        errors = sorted(i.message for i in ev.errors)
        seen.append((what, names(ev), errors, replayed_names(ev)))
    return seen


def test_names_follow_what_their_modifiers_read(tmp_path: Path) -> None:
    seen = walk(session(tmp_path))
    at = {what: (shown, errors, replayed) for what, shown, errors, replayed in seen}
    assert at["opened"][0] == ["Captain", "Squad", "Squad (veteran)", "Squad"]
    # The fifth soldier: the first squad's own read; the other two replayed.
    plus = ["Captain", "Squad (veteran)", "Squad (veteran)", "Squad"]
    assert at["plus"][0] == plus and at["plus"][2] == 2
    # The banner: nothing in the squads changed, what their names read did.
    vet = "Squad (veteran) (blessed)"
    banner = ["Captain", vet, vet, "Squad (blessed)"]
    assert at["banner"][0] == banner and at["banner"][2] == 0
    # ... and so did the message naming the third squad (checked again, not replayed).
    assert any(m.startswith("Squad (blessed)") for m in at["banner"][1]), at["banner"][1]
    assert not any("(blessed)" in m for m in at["plus"][1]), at["plus"][1]
    # Two captains: nothing a squad's name reads has changed: all three replayed.
    assert at["captain+1"][0] == banner and at["captain+1"][2] == 3
    # Undone twice (the captain's count, the banner: no squad blessed), then redone.
    assert [shown for _, shown, _, _ in seen[4:7]] == [banner, plus, banner]
    assert at["rename"][0] == ["Captain", "Red Squad", *banner[2:]]
    assert at["minus"][0] == at["rename"][0]


def test_the_check_fails_when_a_name_forgets_what_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: the squads' names are kept as if their modifiers read nothing
    outside them. The captain's banner must then leave the untouched squads' names stale."""
    traced = Evaluation._name_by_reads

    def forgetful(self: Evaluation, node: Any, entry: Any, data: Any) -> str:
        found = traced(self, node, entry, data)
        out = self.memo_out
        kept = out.names_traced.get(id(data)) if out is not None else None
        if out is not None and kept is not None:
            out.names_traced[id(data)] = (kept[0], kept[1], (), kept[3])
        return found

    monkeypatch.setattr(Evaluation, "_name_by_reads", forgetful)
    with pytest.raises(AssertionError, match="banner: names differ"):
        walk(session(tmp_path))


NESTED = """system: nmr
faction: army
name: Nested
selections:
  - entry: captain
  - entry: squad
    selections:
      - entry: soldier
        count: 4
        experience: seasoned
        selections: [{entry: stray}]
"""


def test_a_message_inside_a_unit_names_it_as_its_reads_find_it(tmp_path: Path) -> None:
    """A message about a selection inside the squad names the squad ("Squad (blessed) >
    Soldier ×4"): the squad's checks, replayed by their reads, must have read its name even
    where the breadcrumb above was worked out before they ran (here by the report of a
    selection the catalog does not know, under the soldier, made once the tree is built)."""
    s = session(tmp_path, NESTED)
    captain = s.children_locs(())[0]
    for what in ("opened", "banner", "undo"):
        if what == "banner":
            s.add(captain, "banner")
        elif what == "undo":
            s.undo()
        ev = s.evaluate()
        fresh = copy.copy(s.roster)
        fresh.refresh()
        same(ev, evaluate_roster(fresh, s.system), what)
        named = [i.message for i in ev.issues if "Soldier ×4" in i.message]
        assert named, (what, [i.message for i in ev.issues])
        blessed = what == "banner"
        assert all(("Squad (blessed) > Soldier" in m) is blessed for m in named), (what, named)


def test_the_check_fails_when_a_name_inside_a_check_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Broken on purpose: a name worked out inside a unit's traced checks (its message's
    breadcrumb) keeps none of its reads. The banner must then leave the squad's checks
    replayed with the message that names it as it was."""
    name = Evaluation.name

    def hidden(self: Evaluation, node: Any) -> str:
        self._trace_depth += 1
        try:
            return name(self, node)
        finally:
            self._trace_depth -= 1

    monkeypatch.setattr(Evaluation, "name", hidden)
    with pytest.raises(AssertionError, match="banner: issues shown"):
        test_a_message_inside_a_unit_names_it_as_its_reads_find_it(tmp_path)
