"""The engine evaluates every catalog `check-catalog` accepts, and `check-catalog` rejects
what the engine cannot evaluate.

* A modifier that adds to a name, appends to a cost or hides with a number is a catalog error
  at its line (it used to pass the check and crash `validate` with a TypeError).
* A cost modifier whose condition or repeat sums the same cost type over a scope holding the
  entry (its own cost counts) used to recurse until RecursionError. Costs that depend on costs
  now reach a fixed point by iteration (each round reads the previous round's costs), as
  BattleScribe and New Recruit resolve them; a catalog whose costs never settle is reported
  as an error (`cost-not-settled`), never a crash.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from armybuilder.cli import main

SYSTEM = """\
kind: system
id: mini
name: Mini Wars
cost_types:
  - {id: pts, name: Points, unit: pts}
profile_types:
  - id: model
    name: Model
    characteristics:
      - {id: move, name: Move}
      - {id: save, name: Save}
categories:
  - {id: hq, name: HQ}
  - {id: unit, name: Unit}
forces:
  - {id: band, name: Band}
"""

FACTION = """\
kind: catalog
id: band
system: mini
name: The Band
entries:
  - id: captain
    name: Captain
    type: unit
    categories: [hq, unit]
    costs: {pts: 20}
    profiles:
      - {type: model, characteristics: {move: 6, save: 4+}}
    modifiers:
MODIFIER
  - id: squad
    name: Squad
    type: unit
    categories: [unit]
    costs: {pts: 50}
"""

ROSTER = """\
format: 1
system: mini
faction: band
name: Test
selections:
  - entry: captain
  - entry: squad
"""


def setup(tmp_path: Path, modifier: str) -> tuple[Path, Path, Path]:
    root = tmp_path / "catalogs"
    (root / "mini").mkdir(parents=True)
    (root / "mini" / "system.yaml").write_text(SYSTEM)
    faction = root / "mini" / "band.yaml"
    faction.write_text(FACTION.replace("MODIFIER", modifier))
    roster = tmp_path / "roster.yaml"
    roster.write_text(ROSTER)
    return root, faction, roster


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err
    return code, cap.out, cap.err


def totals(capsys: pytest.CaptureFixture[str], root: Path, roster: Path) -> dict[str, object]:
    code, out, _ = run(capsys, "show", "--format", "json", "--catalogs", str(root), str(roster))
    assert code == 0, out
    data: dict[str, object] = json.loads(out)
    return data


# --------------------------------------------------------------------------- modifier types


@pytest.mark.parametrize(
    ("modifier", "column", "says"),
    [
        (
            "      - {type: increment, field: name, value: 1}",
            16,
            "a modifier of 'name' cannot increment text; use set or append",
        ),
        (
            '      - {type: append, field: "cost:pts", value: 1}',
            16,
            "a modifier of 'cost:pts' changes a number: use set, increment or decrement",
        ),
        (
            '      - {type: set, field: "cost:pts", value: lots}',
            47,
            "a modifier of 'cost:pts' needs a number as its value, not 'lots'",
        ),
        (
            "      - {type: set, field: hidden, value: 3}",
            43,
            "a modifier of 'hidden' sets hidden to true or false, not 3",
        ),
        (
            '      - {type: decrement, field: "characteristic:save", value: 1}',
            16,
            "a modifier of 'characteristic:save' cannot decrement '4+' (not a number)",
        ),
        (
            # accepted before, and applied nowhere: the catalog pane prints the entry's text
            "      - {type: set, field: description, value: Changed}",
            28,
            "a modifier cannot change an entry's description: armybuilder shows the catalog's "
            "text as written (change the text, or use `name`)",
        ),
    ],
    ids=[
        "increment-name",
        "append-cost",
        "set-cost-text",
        "hidden-number",
        "decrement-save",
        "description",
    ],
)
def test_check_catalog_rejects_what_the_engine_cannot_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], modifier: str, column: int, says: str
) -> None:
    root, faction, roster = setup(tmp_path, modifier)
    code, out, _ = run(capsys, "check-catalog", str(faction.parent / "system.yaml"), str(faction))
    assert code == 2
    assert f"{faction}:14:{column}: {says}" in out
    # and validate, which leaves the faction out, says why instead of crashing
    code, out, err = run(capsys, "validate", "--catalogs", str(root), str(roster))
    assert code == 2
    assert says in err


def test_a_sound_characteristic_modifier_still_applies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = '      - {type: increment, field: "characteristic:move", value: 2}'
    root, faction, roster = setup(tmp_path, mod)
    assert run(capsys, "check-catalog", str(faction.parent / "system.yaml"), str(faction))[0] == 0
    assert run(capsys, "validate", "--catalogs", str(root), str(roster))[0] == 0


# --------------------------------------------------------------------------- costs of costs


def test_a_cost_that_depends_on_the_roster_cost_settles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # +10 pts while the roster (captain included) costs at least 50: 20 + 50 = 70 >= 50, so
    # the captain costs 30 and the roster 80, which still holds: the fixed point is 80.
    mod = (
        '      - {type: increment, field: "cost:pts", value: 10,\n'
        "         conditions: [{type: at-least, value: 50, field: pts, scope: roster,"
        " child: unit}]}"
    )
    root, faction, roster = setup(tmp_path, mod)
    assert run(capsys, "check-catalog", str(faction.parent / "system.yaml"), str(faction))[0] == 0
    data = totals(capsys, root, roster)
    assert data["totals"] == {"pts": 80.0}
    # with no child named, the condition sums the captain's own cost: 20 < 50, never applies
    root, faction, roster = setup(tmp_path / "b", mod.replace(" child: unit", ""))
    assert totals(capsys, root, roster)["totals"] == {"pts": 70.0}


def test_a_repeat_over_the_roster_cost_settles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # +1 pt per full 10 pts of the whole roster (the captain's own cost counts):
    # c = 20 + floor((c + 50) / 10): 20 -> 27 -> 27, so 27 + 50 = 77.
    mod = (
        '      - {type: increment, field: "cost:pts", value: 1,\n'
        "         repeat: {value: 10, repeats: 1, field: pts, scope: roster, child: unit}}"
    )
    root, faction, roster = setup(tmp_path, mod)
    assert run(capsys, "check-catalog", str(faction.parent / "system.yaml"), str(faction))[0] == 0
    assert totals(capsys, root, roster)["totals"] == {"pts": 77.0}


def test_costs_that_never_settle_are_a_catalog_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # +100 pts while the roster costs at most 100: 70 -> 170 -> 70 -> ... never settles.
    mod = (
        '      - {type: increment, field: "cost:pts", value: 100,\n'
        "         conditions: [{type: at-most, value: 100, field: pts, scope: roster,"
        " child: unit}]}"
    )
    root, _faction, roster = setup(tmp_path, mod)
    code, out, _ = run(capsys, "validate", "--catalogs", str(root), str(roster))
    assert code == 1
    assert (
        "error: the costs of Captain depend on costs and never settle on one value (20 "
        "rounds): a catalog error; check the conditions and repeats of their cost modifiers "
        "(they are left out of the costs shown) [cost-not-settled]"
    ) in out
    # The costs shown are the base costs (captain 20 + squad 50), not a round's.
    assert totals(capsys, root, roster)["totals"] == {"pts": 70.0}


def test_costs_that_grow_without_end_are_a_catalog_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # +100 pts per 10 pts of the roster (the captain's own cost counts): the cost grows each
    # round until the repeat's cap of a million; that is no value either.
    mod = (
        '      - {type: increment, field: "cost:pts", value: 100,\n'
        "         repeat: {value: 10, repeats: 1, field: pts, scope: roster, child: unit}}"
    )
    root, _faction, roster = setup(tmp_path, mod)
    code, out, _ = run(capsys, "validate", "--catalogs", str(root), str(roster))
    assert code == 1 and "[cost-not-settled]" in out
    assert totals(capsys, root, roster)["totals"] == {"pts": 70.0}
