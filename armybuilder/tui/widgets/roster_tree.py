"""The roster tree: formations, units and models as deep as the system nests them.

Each line tells what a selection is: its name (a custom name with the entry's name after it,
``Pte Vasquez (Marine)``), count, experience, a short loadout (the weapons and upgrades chosen)
and cost, fitted to the tree's width (the loadout is abbreviated first, then the experience;
see :func:`fit_line`), the cost of every unit line in the tree's one form (the fullest every
unit line shown needs to keep its name whole), marked when an error or a warning is about it
(or, dimmer, about something inside it). The tree is synchronised with each new
evaluation rather than rebuilt: a line's label is only drawn again when the facts it is drawn
from changed (its marks, width, name, count, loadout and cost, the tree's form), set only when
its text changed, and children are only created for nodes that have been expanded once (a
regiment's 75 platoons start as 75 lines).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import chain
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ...session import Loc, UnitSummary, cost_text, unit_summary
from .fitting import STEPS, tail_forms, tail_steps
from .stable import ContentLines, StableScroll, refresh_rows

if TYPE_CHECKING:
    from textual.widgets._tree import _TreeLine

    from ...rules.engine import Evaluation, Issue, Node

#: A sync that keeps the tree's shape repaints only the lines it relabels (``False``: it
#: compares every row on screen before and after, as a sync that adds or removes lines does).
FAST_SYNC = True

ERROR_MARK = "✖"
WARNING_MARK = "⚠"
#: A message the catalog asks to show (severity ``note``): not a problem.
NOTE_MARK = "ℹ"
INNER_MARK = "•"
#: Before a force's name (a roster of several forces).
FORCE_MARK = "⚑"


def owner_loc(path: Loc) -> Loc:
    """The selection (or force) an issue path is about (``()``: the roster)."""
    loc = tuple(path)
    while loc and not (
        len(loc) % 2 == 0 and isinstance(loc[-1], int) and loc[-2] in ("selections", "forces")
    ):
        loc = loc[:-1]
    return loc


def _key(node: Node) -> str | None:
    """What a tree line stands for, to tell lines apart when the tree is synced."""
    if node.force is not None:
        return f"force:{node.force.id}"
    return node.entry_id


#: Which lines inside an open line are open: (their place, what is open in them).
_Shape = list[tuple[int, "_Shape"]]


def _shape(tnode: TreeNode[Loc]) -> _Shape:
    """What is open inside the open line ``tnode``."""
    return [(i, _shape(c)) for i, c in enumerate(tnode.children) if c.is_expanded]


def _name(data: object) -> str | None:
    """The name given to a line's selection (``None``: none, or no selection)."""
    name = getattr(data, "name", None)
    return name if isinstance(name, str) else None


def _is_unknown(node: Node) -> bool:
    """Whether ``node`` is a selection of an entry the catalog does not have (a misspelt id)."""
    return node.entry is None and not node.is_root and node.force is None


def issue_mark(issue: Issue, error_style: str = "bold red") -> tuple[str, str]:
    """The mark and style an issue is listed with: error, warning or note."""
    if issue.is_error:
        return ERROR_MARK, error_style
    if issue.severity == "note":
        return NOTE_MARK, "cyan"
    return WARNING_MARK, "yellow"


def issue_marks(ev: Evaluation) -> tuple[dict[Loc, str], dict[Loc, str]]:
    """Worst severity per selection, and per selection that contains a problem."""
    own: dict[Loc, str] = {}
    inner: dict[Loc, str] = {}
    for issue in ev.issues:
        if issue.severity == "note":
            continue  # shown in the issues list, but not a problem to mark in the tree
        loc = owner_loc(issue.path)
        sev = "error" if issue.is_error else "warning"
        if own.get(loc) != "error":
            own[loc] = sev
        parent = loc[:-2]
        while len(parent) >= 2:
            if inner.get(parent) != "error":
                inner[parent] = sev
            parent = parent[:-2]
    return own, inner


def node_at(ev: Evaluation, loc: Loc) -> Node | None:
    """The evaluated node at a roster location."""
    node = ev.root
    for i in range(1, len(loc), 2):
        step = loc[i]
        kids = node.children
        if loc[i - 1] == "forces":  # a force: counted among the forces only
            kids = [c for c in kids if c.force is not None]
        if not isinstance(step, int) or step >= len(kids):
            return None
        node = kids[step]
    return node


def cut_cells(text: str, n: int, strip: bool = True) -> str:
    """``text`` in at most ``n`` terminal cells (a wide character, CJK or emoji, takes two),
    cut with an ellipsis (spaces before it dropped with ``strip``); at least its first
    character stays."""
    if cell_len(text) <= n:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch) > n - 1:
            break
        out += ch
    return ((out.rstrip() if strip else out) or text[:1]) + "…"


def _shorten(text: str, n: int) -> str:
    """``text`` in at most ``n`` cells: initials of a name of several words (``Storm
    Bolter`` -> ``SB``), else cut with an ellipsis."""
    if cell_len(text) <= n:
        return text
    words = text.replace("×", " ×").split()
    count = next((w for w in words if w.startswith("×")), "")
    words = [w for w in words if not w.startswith("×")]
    if len(words) > 1:
        short = "".join(w[0].upper() if w.isalpha() else w for w in words) + count
        if cell_len(short) <= n:
            return short
    if n <= 1:
        return text[:1] if cell_len(text[:1]) <= n else ""
    return cut_cells(text, n, strip=False)


def fit_label(summary: UnitSummary, budget: int | None, form: int = 0) -> list[tuple[str, str]]:
    """The parts of a roster line (text, style) for ``summary``, fitted into ``budget``
    cells (``None``: no limit), its cost in the tree's ``form`` (:func:`fit_line`)."""
    return fit_line(summary, budget, form)[0]


def fit_line(
    summary: UnitSummary, budget: int | None, form: int = 0
) -> tuple[list[tuple[str, str]], int | None]:
    """The parts of a roster line (text, style) for ``summary``, fitted into ``budget``
    cells (``None``: no limit), with the cost in the tree's ``form`` (a step of
    :func:`.fitting.tail_form`: the lines of one tree read alike, "Librarian ×2  130 pts"
    beside "Lieutenant  55 pts"); and the form the line needs to keep its name whole
    (``None``: none does).

    What gives way first: the loadout (abbreviated, then counted), then the experience (its
    first letters), then the entry's name, then the cost takes the catalog's shorter forms
    (``20 Cans·2 Slots``, ``20C·2BS``: :mod:`.fitting`, every number keeping its unit);
    the form the line needs is the first of them that leaves the name whole. At the tree's
    form (the fullest that every line of the tree needs, so no fuller than this line's), the
    loadout and the experience show as much as that form leaves room for. Last the name is
    cut with "…", to no less than 8 cells with the tree's form, else with the fullest
    shorter form that leaves them, else as far as it must with the tersest; the count and
    the cost's numbers stay."""
    name = [(summary.name, "")]
    count = [(f" ×{summary.count}", "cyan")] if summary.count != 1 else []
    # Each step's form of the cost (one text per step: several steps may say the same).
    if summary.cost:
        tails = ["".join(sep + p for p in pieces) for pieces, sep in tail_steps([summary.cost])]
    else:
        tails = [""] * STEPS
    form = min(max(form, 0), STEPS - 1)

    def build(exp: str, loadout: str, entry: str | None, tail: str) -> list[tuple[str, str]]:
        parts = [name[0]]
        if entry:
            parts.append((f" ({entry})", "dim"))
        parts += count
        if exp:
            parts.append((f" · {exp}", "green"))
        if loadout:
            parts.append((f" · {loadout}", "italic"))
        return [*parts, (tail, "dim")] if tail else parts

    def size(parts: list[tuple[str, str]]) -> int:
        return sum(cell_len(t) for t, _ in parts)

    exp_full = summary.experience
    items = summary.loadout
    entry = summary.entry_name
    tries: list[tuple[str, str, str | None]] = [(exp_full, ", ".join(items), entry)]
    for n in (12, 8, 4, 2):
        tries.append((exp_full, ",".join(_shorten(i, n) for i in items), entry))
    short_exp = exp_full[:3] if exp_full else ""  # Veteran -> Vet, Regular -> Reg
    for n in (4, 2):
        tries.append((short_exp, ",".join(_shorten(i, n) for i in items), entry))
    if items:
        tries.append((short_exp, f"{summary.pieces or len(items)} kit", entry))
    tries.append((short_exp, "", entry))
    if entry:
        for n in (8, 4):
            tries.append((short_exp, "", _shorten(entry, n)))
    # With a shorter form of the cost, the entry's name shortened, then without it.
    least_entries: list[str | None] = [_shorten(entry, 4), None] if entry else [None]
    if budget is None:
        return build(*tries[0], tails[form]), 0
    limit = budget

    def fits(parts: list[tuple[str, str]]) -> bool:
        return size(parts) <= limit

    def least_forms(step: int) -> list[list[tuple[str, str]]]:
        """The line at ``step``'s form once all else gave way (the entry's name shortened,
        then without it)."""
        return [build(short_exp, "", e, tails[step]) for e in least_entries]

    # The form the line needs: the first that leaves its name whole.
    first = next((p for p in (build(*t, tails[0]) for t in tries) if fits(p)), None)
    need: int | None = 0 if first is not None else None
    if first is None:
        need = next(
            (
                s
                for s in range(1, STEPS)
                if tails[s] != tails[s - 1] and any(fits(p) for p in least_forms(s))
            ),
            None,
        )
    elif form == 0:
        return first, need
    # The tree's form: the loadout and the experience as full as it leaves room for.
    found: Iterable[list[tuple[str, str]]] = (build(*t, tails[form]) for t in tries)
    if form > 0:
        found = chain(found, least_forms(form))
    parts = next((p for p in found if fits(p)), None)
    if parts is not None:
        return parts, need
    # A line the tree's form leaves no room for its name (a line whose name is cut at every
    # form; a line not yet counted in the tree's form): its shorter forms, as a line alone.
    if need is not None and need > form:
        return next(p for p in least_forms(need) if fits(p)), need

    # Still too long: the name is cut, to no less than 8 cells with the fullest form of
    # the cost, from the tree's, that leaves them (the entry's name shortened, then without
    # it), else as far as it must with the tersest; experience, count and cost stay.
    def cut(text: str, n: int) -> str:
        return cut_cells(text, max(2, n))

    least = min(8, cell_len(summary.name))
    for s in range(form, STEPS):
        for ent in least_entries:
            rest = build(short_exp, "", ent, tails[s])[1:]
            if limit - size(rest) >= least:
                return [(cut(summary.name, limit - size(rest)), ""), *rest], need
    rest = build(short_exp, "", None, tails[-1])[1:]
    return [(cut(summary.name, limit - size(rest)), ""), *rest], need


def room(budget: int | None, tail: str, lead: int = 0, least: int = 4) -> int | None:
    """Cells left for a name on a line of ``budget`` cells that also holds ``lead`` cells
    before it and ``tail`` (its cost, its count) after it, no fewer than ``least``."""
    if budget is None:
        return None
    return max(least, budget - lead - cell_len(tail))


def fit_head(
    name: str, tail: str, budget: int | None, lead: int = 0, least: int = 4, readable: int = 8
) -> tuple[str, str]:
    """A name and the tail after it (``"  Cans 5 / 4"``: its totals) in ``budget`` cells,
    with ``lead`` cells before them. As on a unit's line (:func:`fit_label`), the tail gives
    way first, taking shorter forms that keep every number whole and labelled (one space
    before it, ``5/4``, ``29 Cans·2 Slots``, ``29C·2BS``: :mod:`.fitting`) while the name
    stays whole; where no form leaves room for the whole name, it is cut with "…" to no
    fewer than ``readable`` cells with the fullest form that leaves them, else with the
    tersest form to no fewer than ``least`` cells. The tail is never cut at the edge."""
    if budget is None or not tail:
        return cut_to(name, room(budget, tail, lead, least)), tail
    forms = ["".join(sep + p for p in pieces) for pieces, sep in tail_forms([tail.lstrip(" ")])]
    for short in forms:
        if cell_len(name) <= budget - lead - cell_len(short):
            return name, short
    for short in forms:
        space = budget - lead - cell_len(short)
        if space >= readable:
            return cut_to(name, space), short
    return cut_to(name, max(least, budget - lead - cell_len(forms[-1]))), forms[-1]


def named_where_room(name: str, named: str, cost: str, budget: int | None, lead: int = 0) -> str:
    """A roster's totals after its line's ``name``: after each cost type's name (``named``:
    "Mass 2,380 kg", as the totals bar, ``show`` and the PDF say them) where the whole name
    and they fit in ``budget`` cells (``lead`` of them before the name), else without
    (``cost``: "2,380 kg", which gives way further as :func:`fit_head` says). A unit's or a
    force's line keeps the short form: lines side by side read alike."""
    if budget is None or cell_len(name) + 2 + cell_len(named) <= budget - lead:
        return named
    return cost


def fits(budget: int | None, text: str) -> bool:
    return budget is None or cell_len(text) <= budget


def cut_to(text: str, n: int | None) -> str:
    """``text`` in at most ``n`` cells (``None``: as it is), cut with an ellipsis."""
    if n is None or cell_len(text) <= n:
        return text
    while text and cell_len(text) > n - 1:
        text = text[:-1]
    return text.rstrip() + "…"


class RosterTree(StableScroll, ContentLines, Tree[Loc]):
    """The roster as a tree; its root is the roster itself."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "expand_or_child", "Expand", show=False),
        Binding("left", "collapse_or_parent", "Collapse", show=False),
    ]

    class Chosen(Message):
        """The cursor moved to another selection."""

        def __init__(self, loc: Loc) -> None:
            super().__init__()
            self.loc = loc

    def __init__(self, *, id: str | None = None) -> None:
        self._syncing = False  # set first: Tree's constructor already lays out its lines
        self._in_sync = False
        self._ev: Evaluation | None = None
        #: The form of the costs on every unit line (a step of :func:`.fitting.tail_form`):
        #: the fullest that each unit line shown needs to keep its name whole.
        self._form = 0
        #: Each unit line's needed form as it was last labelled (``None``: its name is cut
        #: at every form), and the tree's form it was labelled with.
        self._need: dict[int, int | None] = {}
        self._at_form: dict[int, int] = {}
        self._sync_width: int | None = None
        self._repaint_all = False
        self._painted_width = -1
        super().__init__("Roster", data=(), id=id)
        self.show_root = True
        self.guide_depth = 2
        self.auto_expand = False
        self._sig: dict[int, str] = {}
        #: The facts each line's label was last drawn from (:meth:`_facts`).
        self._drawn_from: dict[int, tuple[object, ...]] = {}
        self._keys: dict[int, str | None] = {}
        self._data: dict[int, object] = {}  # the selection each line showed when synced
        self._marked: set[Loc] = set()
        self._populated: set[int] = set()
        #: The lines that show a selection of an unknown entry (:func:`_is_unknown`).
        self._unknown: set[int] = set()
        #: Syncs that added or removed lines (a test reads it).
        self.reshapes = 0
        self._own: dict[Loc, str] = {}
        self._inner: dict[Loc, str] = {}
        #: Labels set by the last :meth:`sync` (a benchmark reads it).
        self.labels_set = 0
        #: Labels are fitted to this width; another width relabels every line.
        self._label_width = -1
        self._relabel = False
        #: A sync that may repaint only the lines it relabels (see :meth:`sync`), the lines
        #: it relabelled so far, and the rows on screen before it changed the tree's shape.
        self._fast = False
        self._touched: list[TreeNode[Loc]] = []
        self._before: list[object] | None = None

    # ----------------------------------------------------------------- sync

    def sync(self, ev: Evaluation) -> None:
        """Bring the tree in line with an evaluation, touching only what changed: labels
        whose text changed, and nodes added or removed. Then the rows on screen are drawn
        before and after, and every row whose drawing differs is repainted: what is compared
        is what the terminal gets, so no row can be left stale. Where the lines relabelled
        change the tree's form of the costs, every unit line shown is relabelled in it
        (:meth:`_form_pass`)."""
        self._in_sync = True
        try:
            self._sync(ev)
        finally:
            self._in_sync = False

    def _sync(self, ev: Evaluation) -> None:
        self._ev = ev
        own, inner = issue_marks(ev)
        # Where an issue mark came or went (a check of the whole roster can mark a unit deep
        # in a part the edit did not touch), and the selections above those places.
        changed = {
            loc
            for old, new in ((self._own, own), (self._inner, inner))
            for loc in old.keys() | new.keys()
            if old.get(loc) != new.get(loc)
        }
        self._marked = {loc[:k] for loc in changed for k in range(0, len(loc) + 1, 2)}
        self._own, self._inner = own, inner
        self.labels_set = 0
        # Where the lines are laid out and the sync keeps them as they are (the same nodes,
        # in the same places: a count, a price, a mark changed), only the rows of the lines
        # whose label changed are repainted; the rows on screen are compared (before and
        # after, as the terminal gets them) only when the sync changes the tree's shape.
        self._touched = []
        self._before = None
        self._fast = (
            FAST_SYNC
            and not self._relabel
            and not self._repaint_all
            and self.is_mounted
            and self.size.height > 0
            and self._tree_lines_cached is not None
        )
        before = None if self._fast else self.row_keys()
        self._syncing = True
        # (the width the labels are fitted to, looked up once for all of them)
        self._sync_width = self.scrollable_content_region.width if self.is_mounted else 0
        fast = self._fast
        try:
            self._sync_node(self.root, ev.root)
            laid_out = self._tree_lines_cached is not None
            self._form_pass(self._tree_lines)  # (lays the lines out again, within the sync)
        finally:
            self._sync_width = None
            self._fast = False  # (lines populated later, on expanding, are not this sync's)
        if fast:
            if self._before is None:
                self._syncing = False
                if not laid_out:  # (laid out again after all: drawn anew)
                    self.refresh()
                    return
                top, height = self.scroll_offset.y, self.size.height
                rows = [False] * height
                for tnode in self._touched:
                    if top <= tnode._line < top + height:
                        rows[tnode._line - top] = True
                refresh_rows(self, rows)
                return
            before, self._before = self._before, None
        try:
            after = self.row_keys()  # lays the lines out again (within the sync)
        finally:
            self._syncing = False
        if (
            self._repaint_all
            or before is None
            or after is None
            or before[0] != after[0]  # scrolled, resized or restyled
            or len(before) != len(after)
        ):
            self._repaint_all = False
            self.refresh()
            return
        refresh_rows(self, [old != new for old, new in zip(before[1:], after[1:], strict=True)])

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # Textual paints the frame of a layout before the widgets get their Resize event: the
        # labels are fitted to the new width here, within the layout, so that no frame shows
        # them fitted to the old one (the first frame of a roster loaded while the tree had
        # no width showed its labels cut at the pane's edge, seconds on a busy machine).
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if changed:
            self._fit_labels()
        return changed

    def on_resize(self, event: events.Resize) -> None:
        """Labels are fitted to the width: fit them again to a new one (done already within
        the layout, see :meth:`_size_updated`, where Textual calls it)."""
        self._fit_labels()

    def _fit_labels(self) -> None:
        width = self.scrollable_content_region.width
        if self._ev is None or width == self._label_width:
            return
        self._label_width = width
        self._relabel = True
        try:
            self.sync(self._ev)
        finally:
            self._relabel = False

    def _build(self) -> None:
        # The lines shown are laid out again (a line added or removed, a unit expanded or
        # collapsed): the tree's form is the fullest the unit lines shown now need.
        super()._build()
        if not self._in_sync and self._ev is not None:
            lines = self._tree_lines_cached
            if lines is not None and self._form_pass(lines):
                self.refresh()

    def _form_pass(self, lines: list[_TreeLine[Loc]]) -> bool:
        """Set the tree's form of the costs for the unit ``lines`` shown (the fullest each
        needs, as it was last labelled: a line whose name is cut at every form has no say),
        and relabel those labelled with another; whether any was."""
        ev = self._ev
        need = self._need
        at_form = self._at_form
        form = 0
        for line in lines:
            n = need.get(line.path[-1]._id)
            if n is not None and n > form:
                form = n
        self._form = form
        if ev is None:
            return False
        stale = [line.path[-1] for line in lines if at_form.get(line.path[-1]._id, form) != form]
        for tnode in stale:
            node = node_at(ev, tnode.data) if tnode.data is not None else None
            if node is not None:
                self._set_label(tnode, ev, node)
        return bool(stale)

    def watch_virtual_size(self, size: Size) -> None:
        # Lines are padded to the wider of the labels and the tree itself.
        width = self._painted_width
        self._painted_width = max(size.width, self.size.width)
        if self._syncing and width == self._painted_width:
            self._scroll_update(size)  # lines are padded to the width: same width, same lines
            return
        if self._syncing:
            self._repaint_all = True
        super().watch_virtual_size(size)

    def _budget(self, node: Node) -> int | None:
        """Cells a line's label may take: the tree's width less the indentation and the
        expand arrow (``None`` before the tree has a size)."""
        width = self._sync_width
        if width is None:
            width = self.scrollable_content_region.width if self.is_mounted else 0
        if width <= 0:
            return None
        guides = node.depth * self.guide_depth if self.show_root else 0
        return max(8, width - guides - 2)

    def _facts(self, ev: Evaluation, node: Node) -> tuple[object, ...]:
        """Everything a line's label is drawn from (see :meth:`_label`), by value: its marks,
        the cells it may take, the tree's form of the costs (a unit's line), and the name,
        count, loadout and cost it shows. Two equal
        facts give the same label, so a line whose facts did not change is not drawn again."""
        loc = node.loc
        mark = self._own.get(loc)
        inner = self._inner.get(loc)
        budget = self._budget(node)
        if node.is_root:
            shown: object = (ev.name(node), cost_text(ev, ev.totals, limits=True))
        elif node.force is not None:
            from ...report import force_title

            shown = (force_title(ev, node), cost_text(ev, ev.total_cost(node)))
        elif node.entry is None:  # an unknown entry
            shown = (ev.name(node), node.count)
        else:
            shown = unit_summary(ev, node)
            return (mark, inner, budget, False, False, self._form, shown)
        return (mark, inner, budget, node.is_root, node.force is not None, None, shown)

    def _label(
        self, ev: Evaluation, node: Node, summary: UnitSummary | None = None
    ) -> tuple[str, Text, tuple[int | None] | None]:
        """A line's label and its signature (``summary``: the unit's, worked out already),
        and, a unit's line, the form it needs (:func:`fit_line`) in a tuple."""
        loc = node.loc
        mark = self._own.get(loc)
        inner = self._inner.get(loc)
        unknown = _is_unknown(node)
        text = Text(no_wrap=True, overflow="ellipsis")
        if mark == "error":
            text.append(f"{ERROR_MARK} ", "bold red")
        elif mark == "warning":
            text.append(f"{WARNING_MARK} ", "yellow")
        elif inner is not None:
            text.append(f"{INNER_MARK} ", "red" if inner == "error" else "yellow")
        lead = len(text)
        budget = self._budget(node)
        if budget is not None:
            budget -= lead
        if node.is_root:
            cost = named_where_room(
                ev.name(node),
                cost_text(ev, ev.totals, limits=True, named=True),
                cost_text(ev, ev.totals, limits=True),
                budget,
            )
            name, tail = fit_head(ev.name(node), f"  {cost}" if cost else "", budget)
            text.append(name, "bold")
            text.append(tail, "dim")
        elif node.force is not None:  # a force of a roster of several: its name and total
            from ...report import force_title

            cost = cost_text(ev, ev.total_cost(node))
            name, tail = fit_head(force_title(ev, node), f"  {cost}" if cost else "", budget, 2)
            text.append(f"{FORCE_MARK} ", "bold magenta")
            text.append(name, "bold")
            text.append(tail, "dim")
        elif unknown:
            # What gives way: "(unknown entry)" to "(unknown)", then to nothing (the "?" and
            # the colour say it), then the name; the count stays.
            name = f"? {ev.name(node)}"
            count = f" ×{node.count}" if node.count != 1 else ""
            note = next(
                (n for n in (" (unknown entry)", " (unknown)") if fits(budget, name + n + count)),
                "",
            )
            text.append(cut_to(name, room(budget, note + count, 0, 3)), "red italic")
            text.append(note, "red dim")
            text.append(count, "cyan")
        else:
            parts, need = fit_line(summary or unit_summary(ev, node), budget, self._form)
            for part, style in parts:
                text.append(part, style)
            sig = f"{mark}|{inner}|{unknown}|{budget}|{text.plain}"
            return sig, text, (need,)
        sig = f"{mark}|{inner}|{unknown}|{budget}|{text.plain}"
        return sig, text, None

    def _needs(self, tnode_id: int, need: tuple[int | None] | None) -> None:
        """Keep what a line was labelled with: the form it needs, the tree's form."""
        if need is None:
            self._need.pop(tnode_id, None)
            self._at_form.pop(tnode_id, None)
        else:
            self._need[tnode_id] = need[0]
            self._at_form[tnode_id] = self._form

    def _set_label(self, tnode: TreeNode[Loc], ev: Evaluation, node: Node) -> None:
        facts = self._facts(ev, node)
        if self._drawn_from.get(tnode.id) == facts:
            return  # the label it has is drawn from the same facts
        self._drawn_from[tnode.id] = facts
        shown = facts[-1]
        sig, text, need = self._label(ev, node, shown if isinstance(shown, UnitSummary) else None)
        self._needs(tnode.id, need)
        if self._sig.get(tnode.id) != sig:
            self._sig[tnode.id] = sig
            self.labels_set += 1
            if self._syncing:
                self._touched.append(tnode)
                # TreeNode.set_label repaints, a moment later, every line below the node
                # (the whole tree for the roster's line); sync repaints just the lines that
                # changed.
                try:
                    tnode._label = self.process_label(text)
                    tnode._updates += 1
                    return
                except AttributeError:  # another Textual version
                    pass
            tnode.set_label(text)

    def _sync_node(self, tnode: TreeNode[Loc], node: Node) -> None:
        ev = self._ev
        assert ev is not None
        data = node.data
        if (
            data is not None
            and not self._relabel
            and self._data.get(tnode.id) is data
            and node.loc not in self._marked
            and tnode.id not in self._unknown
            and ev.reusable(node)
        ):
            # The same selection object as last time, judged on its own, and no issue mark
            # in it changed: nothing in this part of the tree changed. (Never a line that
            # showed an unknown entry: a selection inside one is unknown too, and known
            # again, the same object, once the one above it is fixed in place.)
            return
        self._data[tnode.id] = data
        tnode.data = node.loc
        self._keys[tnode.id] = _key(node)
        if _is_unknown(node):
            self._unknown.add(tnode.id)
        else:
            self._unknown.discard(tnode.id)
        self._set_label(tnode, ev, node)
        has_children = bool(node.children)
        if not tnode.is_root and tnode.allow_expand != has_children:
            tnode.allow_expand = has_children
            self._touched.append(tnode)  # (its arrow: its own line changes)
        if tnode.is_root or tnode.id in self._populated:
            self._sync_children(tnode, node.children)

    def _reshaping(self) -> None:
        """The sync is about to add or remove lines: in a fast sync, the rows on screen are
        taken now, to be compared with the rows after it; the rows of the lines relabelled
        so far (not yet repainted) are marked changed whatever they show after."""
        self.reshapes += 1
        if not self._fast or self._before is not None:
            return
        keys = self.row_keys()
        if keys is None:
            return  # (not comparable: the tree is drawn anew, see sync)
        top = self.scroll_offset.y
        for tnode in self._touched:
            row = tnode._line - top
            if 0 <= row < len(keys) - 1:
                keys[row + 1] = object()  # (equal to nothing)
        self._before = keys

    def _open(self, tnode: TreeNode[Loc], node: Node, shape: _Shape) -> None:
        """Open ``tnode`` (the line of ``node``) and, as ``shape`` says, the lines in it."""
        if not node.children:
            return
        if tnode.id not in self._populated:
            self._sync_children(tnode, node.children)
        tnode.expand()
        lines = list(tnode.children)
        for i, inner in shape:
            if i < len(lines) and i < len(node.children):
                self._open(lines[i], node.children[i], inner)

    def _add(
        self, parent: TreeNode[Loc], child: Node, before: TreeNode[Loc] | None
    ) -> TreeNode[Loc]:
        ev = self._ev
        assert ev is not None
        facts = self._facts(ev, child)
        shown = facts[-1]
        sig, text, need = self._label(ev, child, shown if isinstance(shown, UnitSummary) else None)
        new = parent.add(text, data=child.loc, before=before, allow_expand=bool(child.children))
        self._sig[new.id] = sig
        self._drawn_from[new.id] = facts
        self._needs(new.id, need)
        self._keys[new.id] = _key(child)
        self._data[new.id] = child.data
        if _is_unknown(child):
            self._unknown.add(new.id)
        self.labels_set += 1
        if child.force is not None:  # a force opens with its units in view
            self._sync_children(new, child.children)
            new.expand()
        return new

    def _sync_children(self, tnode: TreeNode[Loc], children: list[Node]) -> None:
        self._populated.add(tnode.id)
        old = list(tnode.children)
        old_keys = [self._keys.get(t.id) for t in old]
        new_keys = [_key(c) for c in children]
        if old_keys == new_keys or self._same_places(old, children, old_keys, new_keys):
            for t, c in zip(old, children, strict=True):
                self._sync_node(t, c)
            return
        self._reshaping()
        # Keep the lines that still match at both ends; replace the middle. Where lines are
        # added or removed, a line is kept only for a selection of its entry and its name: a
        # unit ×3 split into three took the line of the named unit of that entry after it
        # (open) for the second copy, and the named one got a new line, closed. (Not where
        # as many lines stay: a unit renamed keeps its line.)
        names = len(old) != len(children)

        def same(i: int, j: int) -> bool:
            if old_keys[i] != new_keys[j]:
                return False
            if not names:
                return True
            data = self._data.get(old[i].id)
            new = children[j].data
            return data is None or new is None or _name(data) == new.name

        start = 0
        while start < min(len(old), len(children)) and same(start, start):
            start += 1
        end_old, end_new = len(old), len(children)
        while end_old > start and end_new > start and same(end_old - 1, end_new - 1):
            end_old -= 1
            end_new -= 1
        # A line replaced by one of the same selection (a unit moved up or down, or past
        # one moved) opens as it was, and the lines in it: Ctrl+Up closed the unit moved and
        # the one it passed.
        opened: dict[tuple[str | None, str | None], list[_Shape]] = {}
        for t in old[start:end_old]:
            if t.is_expanded:
                opened.setdefault((self._keys.get(t.id), _name(self._data.get(t.id))), []).append(
                    _shape(t)
                )
            self._forget(t)
            t.remove()
        before = old[end_old] if end_old < len(old) else None
        for c in children[start:end_new]:
            new = self._add(tnode, c, before)
            shapes = opened.get((_key(c), _name(c.data)))
            if shapes:
                self._open(new, c, shapes.pop(0))
        for t, c in zip(old[:start], children[:start], strict=True):
            self._sync_node(t, c)
        for t, c in zip(old[end_old:], children[end_new:], strict=True):
            self._sync_node(t, c)

    def _same_places(
        self,
        old: list[TreeNode[Loc]],
        children: list[Node],
        old_keys: list[str | None],
        new_keys: list[str | None],
    ) -> bool:
        """Whether the lines stay as they are, each relabelled in place: as many, every one
        whose entry differs showed, or now shows, an entry the catalog does not have, and
        not the same entries in another order (a selection moved up or down is moved, its
        line with it). That is a selection whose id was corrected (a quick fix, or its
        undo), still the same selection at the same place: its line keeps its place (and
        whether it is expanded) instead of being removed and added again, which took the
        rows on screen before and after to compare them (the tree's shape changed)."""
        if len(old_keys) != len(new_keys):
            return False
        unknown = self._unknown
        return all(
            a == b or t.id in unknown or _is_unknown(c)
            for t, c, a, b in zip(old, children, old_keys, new_keys, strict=True)
        ) and Counter(old_keys) != Counter(new_keys)

    def _forget(self, tnode: TreeNode[Loc]) -> None:
        for child in tnode.children:
            self._forget(child)
        self._sig.pop(tnode.id, None)
        self._drawn_from.pop(tnode.id, None)
        self._needs(tnode.id, None)
        self._keys.pop(tnode.id, None)
        self._data.pop(tnode.id, None)
        self._populated.discard(tnode.id)
        self._unknown.discard(tnode.id)

    # ----------------------------------------------------------------- navigation

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[Loc]) -> None:
        self._populate(event.node)

    def _populate(self, tnode: TreeNode[Loc]) -> None:
        """Create a node's children (done once, when it is first expanded)."""
        if tnode.id in self._populated or self._ev is None or tnode.data is None:
            return
        node = node_at(self._ev, tnode.data)
        if node is not None:
            self._sync_children(tnode, node.children)

    def _toggle_node(self, node: TreeNode[Loc]) -> None:
        # Children first, then expand: a key right after (Down) finds them (the NodeExpanded
        # message comes later, after keys already queued in a busy terminal).
        if node.allow_expand and not node.is_expanded:
            self._populate(node)
        super()._toggle_node(node)

    def _on_tree_node_highlighted(self, event: Tree.NodeHighlighted[Loc]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.Chosen(event.node.data))

    def _on_tree_node_selected(self, event: Tree.NodeSelected[Loc]) -> None:
        event.stop()

    def find(self, loc: Loc, reveal: bool = True) -> TreeNode[Loc] | None:
        """The line for a roster location, expanding its ancestors if asked."""
        tnode = self.root
        for i in range(1, len(loc), 2):
            step = loc[i]
            if tnode.id not in self._populated:
                if not reveal or self._ev is None:
                    return None
                node = node_at(self._ev, tnode.data or ())
                if node is None:
                    return None
                self._sync_children(tnode, node.children)
            if reveal and not tnode.is_expanded:
                tnode.expand()
            children = tnode.children
            if not isinstance(step, int) or step >= len(children):
                return tnode
            tnode = children[step]
        return tnode

    def select_loc(self, loc: Loc, reveal: bool = True) -> None:
        """Put the cursor on a roster location."""
        tnode = self.find(loc, reveal)
        if tnode is None:
            return
        if self.cursor_node is not tnode or tnode.line < 0:
            self._refresh_lines()
            self.move_cursor(tnode)

    def expand_loc(self, loc: Loc) -> None:
        tnode = self.find(loc)
        if tnode is not None and not tnode.is_expanded:
            self._populate(tnode)
            tnode.expand()

    def expand_all(self) -> None:
        """Expand every line of the roster (creating the lines not made yet)."""
        stack = [self.root]
        while stack:
            tnode = stack.pop()
            if tnode.allow_expand or tnode.is_root:
                self._populate(tnode)
                if not tnode.is_expanded:
                    tnode.expand()
            stack.extend(tnode.children)

    def collapse_all(self) -> None:
        """Collapse every unit, down to the lines of the top level."""
        for child in self.root.children:
            child.collapse_all()
        if not self.root.is_expanded:
            self.root.expand()

    def _refresh_lines(self) -> None:
        """Make sure line numbers are current (after nodes were added or removed)."""
        _ = self._tree_lines

    def action_expand_or_child(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            self._populate(node)
            node.expand()
        elif node.children:
            self._refresh_lines()
            self.move_cursor(node.children[0])

    def action_collapse_or_parent(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded and not node.is_root:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)

    async def _on_click(self, event: events.Click) -> None:
        # A click only moves the cursor (and toggles on the arrow), never "selects".
        meta = event.style.meta
        if "line" in meta and not meta.get("toggle", False):
            event.prevent_default()
            self.cursor_line = meta["line"]
