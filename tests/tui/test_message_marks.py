"""A catalog's note (severity ``note``) is listed with its own mark and never marks the roster
tree as a problem; errors and warnings keep theirs (docs/catalog-format.md, "Messages a
catalog raises")."""

from __future__ import annotations

from armybuilder.rules.engine import Issue
from armybuilder.tui.widgets.issues import issue_prompt
from armybuilder.tui.widgets.roster_tree import (
    ERROR_MARK,
    NOTE_MARK,
    WARNING_MARK,
    issue_mark,
)

LOC = ("selections", 0)


def test_each_severity_has_its_mark() -> None:
    marks = [
        issue_mark(Issue(sev, "catalog-message", "x", LOC))[0]
        for sev in ("error", "warning", "note")
    ]
    assert marks == [ERROR_MARK, WARNING_MARK, NOTE_MARK]
    note = Issue("note", "catalog-message", "Walker: the points are a guess", LOC)
    assert issue_prompt(note).plain == f"{NOTE_MARK} Walker: the points are a guess"


def test_a_note_leaves_the_tree_unmarked() -> None:
    from types import SimpleNamespace

    from armybuilder.tui.widgets.roster_tree import issue_marks

    where = ("selections", 0, "selections", 1)
    ev = SimpleNamespace(issues=[Issue("note", "catalog-message", "x", where)])
    assert issue_marks(ev) == ({}, {})  # type: ignore[arg-type]
    ev.issues.append(Issue("warning", "w", "y", where))
    own, inner = issue_marks(ev)  # type: ignore[arg-type]
    assert own == {("selections", 0, "selections", 1): "warning"}
    assert inner == {("selections", 0): "warning"}
