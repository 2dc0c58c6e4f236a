"""The roster at a glance: slots against their limits, what is still required, cost per
category against the limit, and what cannot be added anywhere right now and why.

:func:`overview` computes it from an :class:`~armybuilder.session.EditSession` and its
evaluation; :meth:`Overview.lines` is the text the builder's summary shows (and tests read).
Nothing here imports a front end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .session import Limit, cost_text, limit_text
from .words import plural

if TYPE_CHECKING:
    from .rules.engine import Evaluation, Node
    from .session import EditSession


@dataclass(frozen=True)
class CategoryLine:
    """One category of the top of the roster: a force slot, or a category the selections
    there have when the force has no slots."""

    category: str
    name: str
    limit: Limit
    #: Everything selected in it (with all it holds), per cost type.
    costs: dict[str, float]
    #: The same as a player reads it (``1,200 kg``).
    costs_text: str

    @property
    def short(self) -> int:
        """How many more the slot needs to reach its minimum."""
        return max(0, self.limit.minimum - self.limit.selected)

    @property
    def over(self) -> int:
        """How many too many it holds."""
        if self.limit.maximum is None:
            return 0
        return max(0, self.limit.selected - self.limit.maximum)


@dataclass(frozen=True)
class Unavailable:
    """A top-level entry that cannot be added now, and why."""

    entry_id: str
    name: str
    why: str


@dataclass
class Overview:
    categories: list[CategoryLine] = field(default_factory=list)
    #: Sentences saying what is still needed ("1 more Headquarters (exactly 1)").
    required: list[str] = field(default_factory=list)
    #: The roster's totals against its limits ("2,380 / 2,500 kg").
    totals: str = ""
    unavailable: list[Unavailable] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0

    def lines(self) -> list[str]:
        """The summary as text, one line each (what the builder's summary pane shows)."""
        out = [f"Totals: {self.totals}" if self.totals else "Totals: —"]
        out.append(f"{plural(self.errors, 'error')}, {plural(self.warnings, 'warning')}")
        out.append("")
        # A system without costs (its totals say nothing) shows no cost column of zeros.
        priced = bool(self.totals)
        out.append("Category: chosen (allowed) · cost" if priced else "Category: chosen (allowed)")
        for c in self.categories:
            mark = f"  ✖ {c.short} short" if c.short else f"  ✖ {c.over} over" if c.over else ""
            allowed = limit_text(c.limit.minimum, c.limit.maximum)
            cost = f" · {c.costs_text}" if priced else ""
            out.append(f"  {c.name}: {c.limit.selected} ({allowed}){cost}{mark}")
        if not self.categories:
            out.append("  (nothing at the top of the roster)")
        out.append("")
        out.append("Still required:")
        out += [f"  {r}" for r in self.required] or ["  nothing"]
        out.append("")
        out.append("Cannot be added now:")
        out += [f"  {u.name}: {u.why}" for u in self.unavailable] or ["  nothing"]
        return out


def _cats_text(ev: Evaluation, costs: dict[str, float]) -> str:
    return cost_text(ev, costs) or "0"


def overview(session: EditSession, ev: Evaluation | None = None) -> Overview:
    """The roster at a glance, as the engine computes it for ``ev`` (default: current)."""
    ev = ev or session.evaluate()
    index = session.index
    out = Overview()
    out.errors = sum(1 for i in ev.issues if i.is_error)
    out.warnings = len(ev.issues) - out.errors
    out.totals = cost_text(ev, ev.total_cost(ev.root), limits=True)
    top: list[Node] = list(ev.root.children)
    slots = session.slot_limits(ev)
    cats: list[tuple[str, Limit]] = list(slots.items())
    if not cats:
        seen: dict[str, int] = {}
        for n in top:
            cat = ev.primary_category(n) or (n.categories[0] if n.categories else "")
            seen[cat] = seen.get(cat, 0) + n.count
        cats = [(c, Limit(k)) for c, k in seen.items()]
    for cat, limit in cats:
        costs: dict[str, float] = {}
        for n in top:
            if (cat and n.has_category(cat)) or (not cat and not n.categories):
                for k, v in ev.total_cost(n).items():
                    costs[k] = costs.get(k, 0.0) + v
        name = index.name_of(cat) if cat else "Other"
        line = CategoryLine(cat, name, limit, costs, _cats_text(ev, costs))
        out.categories.append(line)
    # What the rules still ask for: every minimum not met, as the engine words it, with
    # where it is (a slot, a squad's sergeant, a group's choice).
    for issue in ev.issues:
        if issue.code == "min-not-met":
            mark = "✖" if issue.is_error else "⚠"
            out.required.append(f"{mark} {issue.message}")
    infos = {i.entry_id: i for i in session.option_infos((), ev)}
    for child in session.options((), ev):
        info = infos.get(session.option_id((), child))
        if info is None:
            continue
        lim = info.limit
        why = None
        if lim.maximum is not None and lim.selected >= lim.maximum:
            why = f"at most {lim.maximum} allowed, {lim.selected} chosen"
        else:
            for cat in child.entry.categories:
                slot = slots.get(cat)
                if slot is not None and slot.maximum is not None and slot.selected >= slot.maximum:
                    why = f"the {index.name_of(cat)} slot is full ({slot.selected}/{slot.maximum})"
                    break
        if why is not None:
            out.unavailable.append(Unavailable(child.entry.id, child.entry.name, why))
    return out
