"""Markdown export: the roster as a document for a wiki, a forum that renders Markdown, or a
README: a header with the verdict and totals, a section per unit (its computed values as a
table, its selections as a nested list), then errors and warnings.

Roster text is untrusted: ``<``, ``>`` and ``&`` become entities and Markdown's own
characters are backslash-escaped, so a unit name can neither add HTML to a rendered page nor
change the document's structure.
"""

from __future__ import annotations

import html
import re

from ..words import number, plural, unit_after
from .context import CostView, IssueView, RosterView, UnitView, clean

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")


def md(text: object) -> str:
    """Roster text as Markdown that shows exactly that text."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(clean(text), quote=False))


def _cell(text: object) -> str:
    return md(text)


def _tree(u: UnitView, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    line = f"{pad}- **{md(u.label)}**"
    if u.name != u.entry_name:
        line += f" \\[{md(u.entry_name)}\\]"
    if not u.known:
        line += " *(unknown entry, kept)*"
    if u.experience:
        line += f" · {md(u.experience)}"
    if u.type != "upgrade" and u.cost_text:
        line += f" — {md(u.cost_text)}"
    if u.loadout:
        line += f"  \n{pad}  with: " + ", ".join(md(x) for x in u.loadout)
    out.append(line)
    for v in u.values.values():
        out.append(f"{pad}  - {md(v.label)}: {md(v.text)}")
    for c in u.branches:
        _tree(c, depth + 1, out)


def _issues(title: str, issues: list[IssueView], out: list[str]) -> None:
    if not issues:
        return
    out += ["", f"## {title} ({len(issues)})", ""]
    for i in issues:
        src = f" ({md(i.source)})" if i.source else ""
        out.append(f"1. {md(i.message)} `{i.code}`{src}")


def export_markdown(view: RosterView) -> str:
    """The roster as Markdown."""
    verdict = "Legal" if view.valid else md(view.verdict)
    out = [
        f"# {md(view.name)}",
        "",
        f"{md(view.system_name)} · {md(view.faction_name)} · {md(view.date)}  ",
        f"**{verdict}**" + (f" ({plural(len(view.warnings), 'warning')})" if view.warnings else ""),
    ]
    if view.totals:
        out += ["", "| Total | Spent | Limit |", "|---|---:|---:|"]
        for t in view.totals:

            def amount(x: float, t: CostView = t) -> str:
                # "1 Build Slot", "2 Build Slots": the unit as it reads after the amount
                shown = _num(x)
                return md(f"{shown} {unit_after(shown, t.unit)}" if t.unit else shown)

            limit = amount(t.limit) if t.limit is not None else "none"
            spent = amount(t.spent)
            if t.over:
                spent = f"**{spent}** (over)"
            out.append(f"| {md(t.name)} | {spent} | {limit} |")
    if view.values:
        out += ["", "| Roster | |", "|---|---|"]
        out += [f"| {_cell(v.label)} | {_cell(v.text)} |" for v in view.values.values()]
    if view.notes:
        out += ["", f"Notes: {md(view.notes)}"]
    if view.forces:
        # A roster of several forces: a section per force, its units one level down.
        for f in view.all_forces():
            head = f"## {md(f.title)}"
            if f.cost_text:
                head += f" — {md(f.cost_text)}"
            out += ["", head]
            if f.errors:
                out += ["", f"**{plural(len(f.errors), 'error')}**"]
            for u in f.units:
                _unit(u, "###", out)
    else:
        for u in view.units:
            _unit(u, "##", out)
    if not view.units:
        out += ["", "*No units yet: this roster is empty.*"]
    _issues("Errors", view.errors, out)
    _issues("Warnings", view.warnings, out)
    _issues("Notes from the catalog", view.notices, out)
    out += ["", f"*Made with armybuilder {md(view.version)}*"]
    return "\n".join(out) + "\n"


def _unit(u: UnitView, level: str, out: list[str]) -> None:
    """A top-level selection's section (heading ``level``)."""
    title = md(u.label)
    if u.name != u.entry_name:
        title += f" \\[{md(u.entry_name)}\\]"
    if not u.known:
        title += " *(unknown entry, kept)*"
    out += ["", f"{level} {title}", ""]
    facts = [x for x in (md(u.cost_text), md(u.experience)) if x]
    if facts:
        out.append(" · ".join(facts) + "  ")
    if u.loadout:
        out.append("with: " + ", ".join(md(x) for x in u.loadout))
    if u.values:
        out += ["", "| Value | |", "|---|---|"]
        out += [f"| {_cell(v.label)} | {_cell(v.text)} |" for v in u.values.values()]
    if u.branches:
        out.append("")
        for c in u.branches:
            _tree(c, 0, out)


def _num(x: float) -> str:
    return number(x)
