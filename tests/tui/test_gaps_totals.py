"""The totals bar is painted again when only its costs and verdict change, and when only the
roster's short values change (Pilot, the painted row against the session's evaluation).

The bar repaints when what it would show differs from what it shows (``TotalsBar.show``
compares the parts). Two breaks of that comparison (leaving out the costs and verdict; leaving
out the short values) were caught by none of the screen-against-model walks kept in CI
(citrim5): in those rosters each edit that changes the one changes the other too. Here each
edit changes one part only: in the Space Hulk squad with its Librarian, one more squad
changes "Models 7" to "Models 8" and the squad stays legal; one more sergeant makes the roster
not legal and leaves the values alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import expected_totals, normal, pane_lines, totals_problems
from textual.pilot import Pilot

from armybuilder.rules.engine import Evaluation
from armybuilder.session import format_number
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.words import named_amount, plural

MakeApp = Callable[..., ArmyBuilderApp]
ROSTER = EXAMPLES / "space-hulk" / "squad-with-librarian.yaml"
#: The squad (one more: its models' count changes, nothing else the bar shows).
SQUAD = ("selections", 0)
#: The squad's sergeant (one more: an error, the values the same).
SERGEANT = ("selections", 0, "selections", 0)


def expected_row(ev: Evaluation) -> str:
    """The whole row the bar must show when everything fits: each cost against its limit,
    the verdict, the warnings, then every roster value short enough, " │ " between."""
    parts = []
    limits = dict(ev.roster.header.limits)
    for ct in ev.index.cost_types.values():
        if ct.hidden:
            continue
        amount = format_number(ev.totals.get(ct.id, 0.0))
        limit = limits.get(ct.id, ct.default_limit)
        if limit is not None:
            amount += f" / {format_number(limit)}"
        parts.append(named_amount(ct.name, ct.unit, amount))
    errors = sum(1 for i in ev.issues if i.is_error)
    warnings = sum(1 for i in ev.issues if i.severity == "warning")
    parts.append(f"✖ {plural(errors, 'error')}" if errors else "✔ legal")
    if warnings:
        parts.append(f"⚠ {plural(warnings, 'warning')}")
    _, values, longer = expected_totals(ev)
    assert not longer, "a long value: the row would say '+N more'"
    return " │ ".join([*parts, *values])


async def shown(pilot: Pilot[Any], editor: EditorScreen) -> tuple[Evaluation, str]:
    """Once the latest edit is evaluated and shown: the evaluation and the painted row."""
    s = editor.session
    assert s is not None
    await wait_for(
        pilot,
        lambda: (
            s.evaluation_generation == s.generation
            and editor.shown_generation == s.generation
            and not editor._eval_running
        ),
    )
    await pilot.pause()
    ev = s.evaluation
    assert ev is not None
    rows = pane_lines(pilot.app, editor.totals)
    assert not totals_problems(ev, rows), totals_problems(ev, rows)
    assert len(rows) == 1
    assert normal(rows[0]) == normal(expected_row(ev)), (rows[0], expected_row(ev))
    return ev, rows[0]


@run_async
async def test_the_totals_bar_shows_a_change_of_its_values_or_of_its_verdict_alone(
    make_app: MakeApp,
) -> None:
    app = make_app(ROSTER)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        ev, row = await shown(pilot, editor)
        assert "Models 7" in row and "legal" in row, row
        steps: list[tuple[str, Any, list[str]]] = [
            # only the short values change (the costs and verdict do not)
            ("values", SQUAD, ["plus"]),
            ("values", SQUAD, ["ctrl+z"]),
            # only the verdict changes (the values do not)
            ("essential", SERGEANT, ["plus"]),
            ("essential", SERGEANT, ["ctrl+z"]),
        ]
        for what, loc, keys in steps:
            editor.jump_to(loc)
            editor.roster_tree.focus()
            await pilot.pause()
            assert editor.selected == loc
            before = expected_totals(ev)
            for key in keys:
                await pilot.press(key)
            ev, after_row = await shown(pilot, editor)
            after = expected_totals(ev)
            # (the edit changes what the step says, and only that)
            values_changed = after[1:] != before[1:]
            assert after[0] != before[0] or values_changed, (what, keys)
            assert values_changed == (what == "values"), (what, keys, before, after)
            assert (after[0] != before[0]) == (what == "essential"), (what, keys, before, after)
            assert after_row != row, (what, keys, row)
            row = after_row
