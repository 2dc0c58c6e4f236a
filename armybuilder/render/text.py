"""Plain-text export: the compact style players paste into forums and chats.

One header line (name, system, faction, totals, verdict), then each unit with its cost, its
key computed values on one line, and its selections indented below it, plain upgrades folded
into the line of what carries them. Errors are listed at the end, so a list posted for
comments says whether it is legal. Control characters in roster text are dropped (a roster
is untrusted: nothing it holds can move a terminal's cursor or change its colours).
"""

from __future__ import annotations

from ..words import plural
from .context import RosterView, UnitView, clean

#: Computed values longer than this are left out of the compact one-line summaries.
SHORT_VALUE = 48


def short_values(unit: UnitView, limit: int = SHORT_VALUE) -> list[str]:
    """``Label text`` for each computed value short enough for a one-line summary."""
    out = []
    for v in unit.values.values():
        text = clean(v.text)
        if not text or text in ("—", "-") or len(text) > limit:
            continue
        out.append(f"{clean(v.label)} {text}")
    return out


def _count_name(u: UnitView) -> str:
    """The name with its count as ``show``, the builder and the PDF print it: ``Squad ×4``."""
    return clean(u.label)


def _lines(u: UnitView, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    head = _count_name(u)
    if depth == 0 and u.name != u.entry_name:
        head += f" [{clean(u.entry_name)}]"
    if not u.known:
        # Which id is unknown: a top-level line names it above, a line inside does here.
        shown = depth == 0 or u.name == u.entry_name
        head += " (unknown entry)" if shown else f" (unknown entry {clean(u.entry_name)})"
    if u.experience:
        head += f" ({clean(u.experience)})"
    if u.loadout:
        head += ": " + ", ".join(clean(x) for x in u.loadout)
    if u.type != "upgrade" and u.cost_text and (depth == 0 or u.branches):
        head += f" [{clean(u.cost_text)}]"
    out.append(pad + head)
    if depth == 0:
        vals = short_values(u)
        if vals:
            out.append(pad + "  " + " · ".join(vals))
    for c in u.branches:
        _lines(c, depth + 1, out)


def export_text(view: RosterView) -> str:
    """The roster as compact plain text."""
    totals = ", ".join(clean(t.named_text) for t in view.totals)
    verdict = "Legal" if view.valid else f"NOT LEGAL ({plural(len(view.errors), 'error')})"
    head = f"{clean(view.name)} — {clean(view.system_name)}, {clean(view.faction_name)}"
    if totals:
        head += f" — {totals}"
    out = [head + f" — {verdict}"]
    summary = [
        f"{clean(v.label)} {clean(v.text)}"
        for v in view.values.values()
        if not isinstance(v.value, list | dict)
    ]
    if summary:
        out.append(" · ".join(summary))
    if view.forces:
        # A roster of several forces: each force's heading line, then its units.
        for f in view.all_forces():
            out.append("")
            head = "  " * f.depth + f"== {clean(f.title)}"
            if f.cost_text:
                head += f" [{clean(f.cost_text)}]"
            if f.errors:
                head += f" ({plural(len(f.errors), 'error')})"
            out.append(head)
            for u in f.units:
                out.append("")
                _lines(u, 0, out)
    else:
        for u in view.units:
            out.append("")
            _lines(u, 0, out)
    if not view.units:
        out.append("")
        out.append("No units yet: this roster is empty.")
    if view.errors:
        out.append("")
        out.append("Errors:")
        out.extend(f"- {clean(i.message)}" for i in view.errors)
    if view.warnings:
        out.append("")
        warned = plural(len(view.warnings), "warning")
        out.append(f"({warned}: armybuilder validate lists them)")
    if view.notices:
        out.append("")
        out.append("Notes from the catalog:")
        out.extend(f"- {clean(i.message)}" for i in view.notices)
    out.append("")
    out.append(f"Made with armybuilder {view.version}")
    return "\n".join(out) + "\n"
