"""What the terminal shows, read back from Textual's compositor, and what it should show.

``painted`` reads the screen as the next frame would send it to the terminal: the compositor
renders every widget through its line cache (``StylesCache``), so a row a widget forgot to
repaint comes out as it was, stale, exactly as on a real terminal. ``pane_lines`` crops that
to one widget. The ``expected_*`` helpers compute what a pane must show from the session and
its evaluation alone (the catalog's options, the totals, the issues), not from the widgets.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from textual._context import visible_screen_stack
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

from armybuilder.rules.engine import Evaluation, Node
from armybuilder.session import (
    EditSession,
    Limit,
    Loc,
    cost_text,
    costs_text,
    format_number,
    unit_summary,
)
from armybuilder.tui.widgets.totals import SHORT_VALUE
from armybuilder.words import named_amount

#: Tree guide and arrow characters (stripped to read a tree line's label).
TREE_CHROME = "│├└─┃┣┗━║╠╚═▼▶▾▸ "


def painted(app: App[Any]) -> list[str]:
    """Every row of the screen as text (what the terminal would show after the next frame)."""
    update = app.screen._compositor.render_full_update()
    rows: list[str] = []
    for strips in update.strips:
        rows.append("".join(seg.text for seg in strips))  # type: ignore[attr-defined]
    return rows


class Terminal:
    """What a terminal shows after the frames the app sent it: each full frame written whole,
    each partial one (a ``ChopsUpdate``: the changed spans of some rows) written over it in
    place, as a terminal does, character and style by character. ``problems()`` compares it
    with a drawing of the whole screen now: a frame that left out a changed cell (or drew it
    from the wrong widget) shows there, where ``painted`` (a fresh full frame) cannot see it."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.cells: list[list[tuple[str, Any]]] | None = None
        self.frames = 0
        display = app._display

        def shown(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None and not app._batch_count:  # (what the driver gets)
                self.write(renderable)

        app._display = shown  # type: ignore[method-assign]

    def write(self, update: Any) -> None:
        from textual._compositor import ChopsUpdate, LayoutUpdate

        width, height = self.app.size
        if isinstance(update, LayoutUpdate):
            if self.cells is None or len(self.cells) != height or len(self.cells[0]) != width:
                self.cells = [[(" ", None)] * width for _ in range(height)]
            for y, line in enumerate(update.strips, update.region.y):
                x = update.region.x
                for strip in line:
                    x = self._put(y, x, strip)
            self.frames += 1
        elif isinstance(update, ChopsUpdate) and self.cells is not None:
            # (as ChopsUpdate.render_segments writes it)
            for y, x1, x2 in update.spans:
                chops = update.chops[y].items()
                for end, (x, strip) in zip(update.chop_ends[y], chops, strict=False):
                    if strip is None or x > x2 or end <= x1:
                        continue
                    if not (x2 > x >= x1 and end <= x2):
                        strip = strip.crop(0, min(end, x2) - x)
                    self._put(y, x, strip)
            self.frames += 1

    def _put(self, y: int, x: int, strip: Any) -> int:
        cells = self.cells
        assert cells is not None
        for seg in strip:
            if seg.control:
                continue
            text = seg.text
            if text.isascii() and text.isprintable() and 0 <= y < len(cells):
                # (one cell a character: the row's cells in one slice, as the loop below puts them)
                row, style = cells[y], seg.style
                lo, hi = max(x, 0), min(x + len(text), len(row))
                if lo < hi:
                    row[lo:hi] = [(ch, style) for ch in text[lo - x : hi - x]]
                x += len(text)
                continue
            for ch in text:
                w = cell_len(ch)
                if 0 <= y < len(cells) and 0 <= x < len(cells[y]):
                    cells[y][x] = (ch, seg.style)
                    if w == 2 and x + 1 < len(cells[y]):
                        cells[y][x + 1] = ("", seg.style)
                x += w
        return x

    @staticmethod
    def drawing(app: App[Any]) -> Terminal:
        """A terminal showing a whole drawing of the screen now (not one that frames were
        sent to: it does not follow the app)."""
        drawn = Terminal.__new__(Terminal)
        drawn.app = app
        width, height = app.size
        drawn.cells = [[(" ", None)] * width for _ in range(height)]
        drawn.frames = 0
        # (a dialog over the editor draws the screens under it, as its frames do)
        visible_screen_stack.set(app._background_screens)
        for y, strip in enumerate(app.screen._compositor.render_strips()):
            drawn._put(y, 0, strip)
        return drawn

    def rows(self) -> list[str]:
        return ["".join(ch for ch, _ in row) for row in self.cells or []]

    def problems(self) -> list[str]:
        """The rows where the terminal differs from the whole screen drawn now (text or
        style); the compositor's pending changes are left as they are."""
        if self.cells is None:
            return ["no full frame was sent to the terminal"]
        drawn = Terminal.drawing(self.app)
        out = []
        for y, (mine, want) in enumerate(zip(self.cells, drawn.cells, strict=False)):
            if mine != want:
                text, wanted = "".join(c for c, _ in mine), "".join(c for c, _ in want)
                what = "text" if text != wanted else "style"
                x = next(x for x, (a, b) in enumerate(zip(mine, want, strict=False)) if a != b)
                out.append(
                    f"terminal row {y} differs in {what} from column {x}: {text!r}, drawn"
                    f" {wanted!r} ({mine[x]!r}, drawn {want[x]!r})"
                )
        return out


def counted_layouts(screen: Screen[Any]) -> tuple[list[bool], Callable[[], None]]:
    """The screen's layouts counted from now on: a list that grows by one at each layout, and
    the layout itself, uncounted (to lay the screen out again from scratch in a check)."""
    layouts: list[bool] = []
    laid_out = screen._refresh_layout

    def layout(*args: Any, **kwargs: Any) -> None:
        layouts.append(True)
        laid_out(*args, **kwargs)

    screen._refresh_layout = layout  # type: ignore[method-assign]
    return layouts, laid_out


def pane_lines(app: App[Any], widget: Widget, rows: list[str] | None = None) -> list[str]:
    """The painted rows inside a widget's content region, less its scrollbars
    (right-stripped)."""
    rows = painted(app) if rows is None else rows
    region = widget.scrollable_content_region
    out = []
    for y in range(region.y, region.bottom):
        if 0 <= y < len(rows):
            out.append(cells_slice(rows[y], region.x, region.right).rstrip())
    return out


def cells_slice(row: str, start: int, end: int) -> str:
    """The characters of a painted row in terminal columns ``start`` to ``end`` (a wide
    character, CJK or emoji, takes two columns)."""
    if row.isascii():
        return row[start:end]
    out, x = [], 0
    for ch in row:
        w = cell_len(ch)
        if x >= start and x + w <= end:
            out.append(ch)
        x += w
    return "".join(out)


def tree_label(line: str) -> str:
    """A tree line without its guides and arrow."""
    return line.lstrip(TREE_CHROME).rstrip()


def normal(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- expectations


def node_at(ev: Evaluation, loc: Loc) -> Node:
    node = ev.root
    for i in range(1, len(loc), 2):
        step = loc[i]
        assert isinstance(step, int)
        kids = node.children
        if loc[i - 1] == "forces":  # forces are counted among the forces
            kids = [c for c in kids if c.force is not None]
        node = kids[step]
    return node


def catalog_target(session: EditSession, selected: Loc) -> Loc:
    """Where the catalog adds for a selection: it, or the nearest one above with options."""
    loc = selected
    while loc and not (session.exists(loc) and session.options(loc)):
        loc = loc[:-2]
    if not loc and session.roster.forces:  # a roster of several forces: its first force
        return ("forces", 0)
    return loc


def entry_cost_text(session: EditSession, entry: Any) -> str:
    parts = []
    for ct in session.index.cost_types.values():
        if ct.hidden or ct.id not in entry.costs or not entry.costs[ct.id]:
            continue
        value = entry.costs[ct.id]
        # a cost type without a unit is named ("Value 30"), as session/text.py words it
        parts.append(
            f"{format_number(value)} {ct.unit}" if ct.unit else f"{ct.name} {format_number(value)}"
        )
    return ", ".join(parts)


def selected_counts(session: EditSession, target: Loc) -> dict[str, int]:
    """How many of each entry are selected directly under ``target`` (from the roster data)."""
    counts: dict[str, int] = {}
    seq = session.node(target).get("selections")
    for item in seq if isinstance(seq, list) else []:
        if isinstance(item, dict):
            n = item.get("count", 1)
            key = str(item.get("entry"))
            counts[key] = counts.get(key, 0) + (n if isinstance(n, int) else 1)
    return counts


def _section_key(child: Any) -> object:
    if child.group is not None:
        return ("group", child.group.id)
    entry = child.entry
    return (
        "category",
        entry.primary_category or (entry.categories[0] if entry.categories else None),
    )


def search_hits(session: EditSession, target: Loc, query: str = "") -> list[Any]:
    """The options under ``target`` a search for ``query`` keeps (as typed: spaces around it
    ignored, any case, any accent): those whose name or id holds it, both folded
    (:func:`fold`); all for none."""
    q = fold(query.strip())
    return [c for c in session.options(target) if q in fold(c.entry.name) or q in c.entry.id]


def fold(text: str) -> str:
    """Case and accents dropped, as the catalog's search compares (``Éldar`` -> ``eldar``):
    case folded, decomposed (NFKD), combining marks left out."""
    return "".join(
        ch
        for ch in unicodedata.normalize("NFKD", text.casefold())
        if not unicodedata.category(ch).startswith("M")
    )


def expected_catalog(session: EditSession, selected: Loc, query: str = "") -> list[str]:
    """The label of every option offered for the selection, in the order the catalog lists
    them (grouped by choice group or category, in order of first appearance): its name, its
    cost where it would go (as the session computes it: default choices, modifiers), and how
    many are selected there against their limit (``2/3``; nothing when none and no limit).
    ``query``: only the options a search for it keeps (:func:`search_hits`)."""
    target = catalog_target(session, selected)
    infos = {i.entry_id: i for i in session.option_infos(target)}
    sections: dict[object, list[str]] = {}
    for c in search_hits(session, target, query):
        info = infos[session.option_id(target, c)]  # (an entry offered twice: two lines)
        if info.costs:
            cost = costs_text(session.index, info.costs)
        else:
            cost = entry_cost_text(session, c.entry)
        count = info.limit.count_text
        label = c.entry.name + (f"  {cost}" if cost else "") + (f"  {count}" if count else "")
        sections.setdefault(_section_key(c), []).append(label)
    return [label for labels in sections.values() for label in labels]


def expected_catalog_headings(session: EditSession, selected: Loc, query: str = "") -> list[str]:
    """The catalog's section lines: the choice group (or category) with how many it allows
    and how many are chosen there (``Ranged weapon (0-1) 1/1``); with ``query``, those of
    the options a search for it keeps, in the order of their first match."""
    return [name + tail for name, tail in expected_heading_parts(session, selected, query)]


def expected_heading_parts(
    session: EditSession, selected: Loc, query: str = ""
) -> list[tuple[str, str]]:
    """:func:`expected_catalog_headings` as (name, the range and count after it)."""
    target = catalog_target(session, selected)
    groups = session.group_limits(target)
    categories = session.category_limits(target)
    headings: dict[object, tuple[str, str]] = {}
    for c in search_hits(session, target, query):
        key = _section_key(c)
        if key in headings:
            continue
        limit: Limit | None
        if c.group is not None:
            name = c.group.name
            limit = groups.get(c.group.id) or Limit(0, c.group.min, c.group.max)
        else:
            cat = key[1] if isinstance(key, tuple) else None
            name = session.index.name_of(cat) if isinstance(cat, str) else "Entries"
            limit = categories.get(cat) if isinstance(cat, str) else None
        tail = ""
        if limit is not None:
            tail += f" ({limit.range_text})"
            if limit.count_text:
                tail += f" {limit.count_text}"
        headings[key] = (name, tail)
    return list(headings.values())


#: A cost item: the words before its amount (a cost without a unit: "Value 30"), the amount
#: ("4", "5 / 4", "1,910"), the words after it (its unit: "Build Slots").
COST_ITEM = re.compile(r"(?P<before>\D+ )?(?P<amount>\d[\d,.]*(?: / \d[\d,.]*)?)(?P<after> \D+)?")
#: A count as a tail shows it: "3 chosen" or "×3", "2/3", "2, at least 3" or "2, ≥3".
COUNT = re.compile(r"\d[\d,.]* chosen|×\d[\d,.]*|\d+/\d+|\d+, (?:at least |≥)\d+")


def _initials(words: str) -> str:
    words = words.strip()
    if len(words) <= 3 and not (len(words) == 3 and words.istitle() and words.isalpha()):
        return words  # ("kg", "BP", "pts"; "Can" as "C", the initial of "Cans")
    return "".join(w[0] for w in words.split()).upper()


def _cost_item(text: str, how: str) -> str:
    m = COST_ITEM.fullmatch(text)
    if m is None:
        return text
    before, after = (m.group("before") or "").strip(), (m.group("after") or "").strip()
    amount = m.group("amount").replace(" / ", "/")
    if how == "tight":
        return " ".join(x for x in (before, amount, after) if x)
    if how == "short":
        return " ".join(x for x in ([*before.split()[-1:], amount, *after.split()[-1:]]) if x)
    return (_initials(before) if before else "") + amount + (_initials(after) if after else "")


def tail_pieces(pieces: list[str]) -> list[tuple[list[str], str]]:
    """The forms of :func:`tail_texts` as (pieces, separator)."""
    terse = [
        "×" + p[: -len(" chosen")] if COUNT.fullmatch(p) and p.endswith(" chosen") else p
        for p in pieces
    ]
    terse = [p.replace(", at least ", ", ≥") for p in terse]
    costs = [not COUNT.fullmatch(p) for p in terse]

    def each(how: str) -> list[str]:
        return [
            "·".join(_cost_item(i, how) for i in p.split(", ")) if cost else p
            for p, cost in zip(terse, costs, strict=True)
        ]

    units = set()
    for p, cost in zip(terse, costs, strict=True):
        for i in p.split(", ") if cost else []:
            m = COST_ITEM.fullmatch(i)
            if m is not None:
                units |= {w.strip() for w in (m.group("before"), m.group("after")) if w}
    forms = [
        (pieces, "  "),
        (terse, "  "),
        (terse, " "),
        (each("tight"), " "),
        (each("short"), " "),
    ]
    if len({_initials(u) for u in units}) == len(units):
        forms.append((each("tiny"), " "))
    kept = [f for i, f in enumerate(forms) if i == 0 or f != forms[i - 1]]
    return [f for f in kept if not unlabelled(f[0], pieces)]


def unlabelled(shown: list[str], pieces: list[str]) -> list[str]:
    """What a form of a tail (``shown``, one piece each of ``pieces``) shows of a number
    without what it counts: a cost item without a unit or a name ("4" of "4, 1"), or a count
    neither "×3", "2/3" nor "2, ≥3" (a bare "2" of "2 chosen")."""
    bad = []
    for form, full in zip(shown, pieces, strict=True):
        if COUNT.fullmatch(full):
            if not COUNT.fullmatch(form) or form.isdigit():
                bad.append(form)
            continue
        bad += [i for i in re.split(r"·|, ", form) if not re.search(r"[^\W\d_]", i)]
    return bad


def tail_texts(pieces: list[str]) -> list[str]:
    """The readable forms a line's tail (cost, count, totals: ``pieces``) may take in a narrow
    pane, in full first: "3 chosen" as "×3", ", at least 3" as ", ≥3", one space between the
    pieces; then the costs: "5 / 4" as "5/4" and joined by "·", a unit of several words by its
    last word ("1 Build Slots" as "1 Slots"), last by its initials against the number
    ("4C·1BS", "85kg", "V30"; a unit of three letters or fewer whole), unless two units of
    the tail share their initials. Every number whole and labelled (:func:`unlabelled`)."""
    return ["".join(sep + p for p in form) for form, sep in tail_pieces(pieces)]


def label_shows(text: str, guides: int, want: str, width: int) -> bool:
    """Whether a painted catalog line (its label ``text`` after ``guides`` cells of guides,
    in a pane ``width`` wide with its scrollbar) shows the label ``want``: in full, with its
    name cut ("…") and the price and count after it whole or in one of the shorter forms of
    :func:`tail_texts`, or, a label without either (a name alone, a section's heading), cut
    with "…": at the pane's edge, or, a heading, before its range and count, shown whole."""
    if text == want:
        return True
    name, *pieces = want.split("  ")
    if pieces:
        for tail in tail_texts(pieces):
            head = text[: len(text) - len(tail)]
            if text.endswith(tail) and (
                head == name or (head.endswith("…") and name.startswith(head[:-1].rstrip()))
            ):
                return True
        return False
    cut = guides + cell_len(want) >= width - 1  # (a scrollbar's column less)
    head, ellipsis, tail = text.rpartition("…")
    return (
        cut
        and bool(ellipsis)
        and guides + cell_len(text) <= width
        and want.startswith(head.rstrip())
        and want.endswith(tail)
        and (not tail or tail.startswith(" ("))
    )


def check_catalog_lines(lines: list[str], options: list[str], width: int) -> list[str]:
    """Problems with the painted catalog tree (empty: it shows the options exactly).

    The painted option lines (those drawn with a guide; headings carry an arrow) must be a
    run of the expected labels, in order, each in full or with its name cut ("…") and its
    price and count after it whole, or in one of the shorter forms of :func:`tail_texts`
    (a label without either may be cut at the pane's edge):
    a line of another unit left on screen, a stale count or a price cut short fails here.
    """
    leaves: list[tuple[str, int]] = []
    for raw in lines:
        stripped = raw.lstrip(" ")
        if stripped[:1] in set("│├└┃┣┗║╠╚"):
            text = tree_label(raw)
            leaves.append((text, cell_len(raw) - cell_len(text)))  # (and the guides' width)
    if not leaves:
        return []
    texts = [t for t, _ in leaves]

    def fits(k: int) -> bool:
        if k + len(leaves) > len(options):
            return False
        for (text, guides), want in zip(leaves, options[k:], strict=False):
            if not label_shows(text, guides, want, width):
                return False
        return True

    if any(fits(k) for k in range(len(options))):
        return []
    return [f"catalog shows {texts!r}; the options are {options!r}"]


#: A heading's range and count in fewer words, in turn (what the catalog tries before
#: cutting a group's name).
_HEADING_SHORTER = [
    (r"\(any number\)", "(any)"),
    (r"\(at least (\d+)\)", r"(≥\1)"),
    (r"\(exactly (\d+)\)", r"(=\1)"),
    (r"(\d+) chosen$", r"×\1"),
    (r", at least (\d+)$", r", ≥\1"),
]


def _heading_shows(text: str, guides: int, name: str, tail: str, width: int) -> bool:
    """Whether a painted heading ``text`` (after ``guides`` cells) shows ``name + tail``."""
    whole = name + tail
    if text == whole:
        return True
    # The whole name with the limit in fewer words ("Weapons (any)"), where those fit.
    shorter = tail
    for long, short in _HEADING_SHORTER:
        shorter = re.sub(long, short, shorter)
        if text == name + shorter and guides + cell_len(whole) >= width - 1:
            return True
    if guides + cell_len(whole) < width - 1:  # it fits (a scrollbar's column less): never cut
        return False
    if tail and text.endswith("…" + tail):
        cut = text[: -len(tail) - 1]
        return bool(cut) and name.startswith(cut.rstrip())
    return text.endswith("…") and whole.startswith(text[:-1].rstrip())


def check_catalog_headings(
    lines: list[str], headings: list[tuple[str, str]], width: int
) -> list[str]:
    """Problems with the painted section lines of the catalog (those drawn with an arrow):
    each must be one of the expected headings (``(name, tail)``: the range and count after
    the name, :func:`expected_heading_parts`) in full, or, too wide for the pane, its name
    cut with "…" before the whole tail, or the line cut with "…" at the pane's edge."""
    problems = []
    for raw in lines:
        stripped = raw.lstrip(" ")
        if stripped[:1] not in set("▼▶▾▸"):
            continue
        text = tree_label(raw)
        guides = cell_len(raw) - cell_len(text)
        if any(_heading_shows(text, guides, n, t, width) for n, t in headings):
            continue
        problems.append(f"catalog heading {text!r}; the headings are {headings!r}")
    return problems


def tree_budget(loc: Loc, width: int, guide_depth: int) -> int:
    """The cells a roster tree line's label has (the tree ``width`` cells wide)."""
    return max(8, width - len(loc) // 2 * guide_depth - 2)


def tree_form(ev: Evaluation, shown: list[Loc], width: int, guide_depth: int) -> int:
    """The form of the costs on every unit line of a roster tree whose lines ``shown`` are
    these (every line the tree shows, on screen or scrolled out of it): the fullest that
    any unit line needs to keep its name whole (its mark's cells taken), a line whose name
    is cut at every form having no say (:func:`~armybuilder.tui.widgets.roster_tree.fit_line`)."""
    from armybuilder.tui.widgets.roster_tree import fit_line, issue_marks

    own, inner = issue_marks(ev)
    form = 0
    for loc in shown:
        node = node_at(ev, loc)
        if node.is_root or node.force is not None or node.entry is None:
            continue
        mark = 2 if own.get(loc) in ("error", "warning") or loc in inner else 0
        need = fit_line(unit_summary(ev, node), tree_budget(loc, width, guide_depth) - mark)[1]
        form = max(form, need or 0)
    return form


def expected_tree_label(ev: Evaluation, loc: Loc, budget: int | None, form: int = 0) -> str:
    """A roster tree line's label for the selection at ``loc``: its issue mark, then the
    roster's name and totals against their limits, or the unit's summary
    (:func:`~armybuilder.session.unit_summary`: name, count, experience, loadout, cost)
    fitted into the ``budget`` cells the line has, its cost in the tree's ``form``
    (:func:`tree_form`)."""
    from armybuilder.tui.widgets.roster_tree import fit_label, issue_marks

    node = node_at(ev, loc)
    own, inner = issue_marks(ev)
    mark = ""
    if own.get(loc) == "error":
        mark = "✖ "
    elif own.get(loc) == "warning":
        mark = "⚠ "
    elif loc in inner:
        mark = "• "
    room = None if budget is None else budget - len(mark)

    def head(name: str, tail: str, lead: str = "", forms: bool = True) -> str:
        # As on a unit's line, the totals give way first: their shorter forms
        # (tail_texts: every number whole and labelled) while the name stays whole; where
        # none leaves room for it, the name is cut with "…" to no fewer than 8 cells with the
        # fullest form that leaves them, else to 4 cells with the tersest form.
        shapes = tail_texts([tail.lstrip(" ")]) if tail and forms else [tail]

        def cut(n: int) -> str:
            kept = name
            while kept and cell_len(kept) > n - 1:
                kept = kept[:-1]
            return kept.rstrip() + "…"

        for short in shapes:
            if room is None or cell_len(lead + name + short) <= room:
                return mark + lead + name + short
        assert room is not None
        for short in shapes:
            space = room - cell_len(lead + short)
            if space >= 8:
                return mark + lead + cut(space) + short
        short = shapes[-1]
        return mark + lead + cut(max(4, room - cell_len(lead + short))) + short

    def named(name: str, costs: dict[str, float], limits: bool = False) -> str:
        # The roster's totals after their cost types' names ("Mass 2,380 kg", as show says
        # them) where the whole name and they fit, else without ("2,380 kg"), giving way.
        said = cost_text(ev, costs, limits=limits, named=True)
        if room is None or cell_len(name + "  " + said) <= room:
            return said
        return cost_text(ev, costs, limits=limits)

    if node.is_root:
        cost = named(ev.name(node), ev.totals, limits=True)
        return head(ev.name(node), f"  {cost}" if cost else "")
    if node.force is not None:  # a force: its name, what it is, its total
        from armybuilder.report import force_title

        cost = cost_text(ev, ev.total_cost(node))
        return head(force_title(ev, node), f"  {cost}" if cost else "", "⚑ ")
    if node.entry is None:  # "(unknown entry)" gives way first, then the name
        count = f" ×{node.count}" if node.count != 1 else ""
        name = f"? {ev.name(node)}"
        for note in (" (unknown entry)", " (unknown)", ""):
            if room is None or len(name + note + count) <= room or not note:
                return head(name, note + count, forms=False)
    return mark + "".join(t for t, _ in fit_label(unit_summary(ev, node), room, form))


def check_tree_lines(
    lines: list[str],
    locs: list[Loc | None],
    ev: Evaluation,
    width: int,
    guide_depth: int,
    shown: list[Loc] | None = None,
) -> list[str]:
    """Problems with the painted roster tree: each row must show the label its selection
    has (``locs``: the selection on each row, ``None`` past the last; ``shown``: every line
    the tree shows, which set the form of the costs, else those on screen)."""
    problems = []
    if shown is None:
        shown = [loc for loc in locs if loc is not None]
    form = tree_form(ev, shown, width, guide_depth)
    for raw, loc in zip(lines, locs, strict=False):
        if loc is None:
            if raw.strip():
                problems.append(f"tree row {raw!r} past the last line")
            continue
        budget = tree_budget(loc, width, guide_depth)
        want = expected_tree_label(ev, loc, budget, form)
        text = tree_label(raw)
        # Cut at the pane's edge only where no form of the label fits (the label the session
        # makes is wider than the line): a label that fits must show exactly, its cost whole.
        cut = cell_len(raw) >= width - 1 and cell_len(want) > budget
        if cell_len(want) > budget >= 24:
            # (room for a name, the count and the cost: the label must fit its line)
            problems.append(f"tree row for {loc}: label {want!r} wider than its {budget} cells")
        if text != want and not (cut and want.startswith(text.rstrip("…"))):
            problems.append(f"tree row for {loc} shows {text!r}; expected {want!r}")
    return problems


def expected_totals(ev: Evaluation) -> tuple[list[str], list[str], int]:
    """What the totals bar has to say: the parts always shown in full (costs against limits,
    the verdict, warnings), the roster's short values in order, and how many values are long
    (left to the roster's details)."""
    parts: list[str] = []
    limits = dict(ev.roster.header.limits)
    for ct in ev.index.cost_types.values():
        if ct.hidden:
            continue
        value = ev.totals.get(ct.id, 0.0)
        limit = limits.get(ct.id, ct.default_limit)
        amount = format_number(value)
        if limit is not None:
            amount += f" / {format_number(limit)}"
        # "Mass 2,380 kg", "Value 180", or "1,910 pts" for a cost type named by its unit
        parts.append(named_amount(ct.name, ct.unit, amount))
    errors = sum(1 for i in ev.issues if i.is_error)
    warnings = len(ev.issues) - errors
    parts.append(f"{errors} error{'s' if errors != 1 else ''}" if errors else "legal")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    values: list[str] = []
    longer = 0
    for v in ev.values_of(ev.root):
        if len(v.display()) <= SHORT_VALUE:
            values.append(f"{v.label} {v.display()}")
        else:
            longer += 1
    return parts, values, longer


def totals_problems(ev: Evaluation, rows: list[str]) -> list[str]:
    """What is wrong with the totals bar's painted ``rows``: it must be one row, with every
    cost and the verdict in full, then the first short values in order, whole, and
    ``+N more`` counting exactly the values it leaves out."""
    problems: list[str] = []
    if len(rows) != 1:
        problems.append(f"totals bar has {len(rows)} rows: {rows!r}")
    shown = normal(" ".join(rows))
    essential, values, longer = expected_totals(ev)
    for part in essential:
        if normal(part) not in shown:
            problems.append(f"totals lack {part!r}: {shown!r}")
    if "…" in shown.replace("validating…", ""):
        problems.append(f"totals cut a part: {shown!r}")
    count = 0
    while count < len(values) and normal(values[count]) in shown:
        count += 1
    if any(normal(v) in shown for v in values[count:]):
        problems.append(f"totals skip a value before another: {shown!r}")
    hidden = len(values) - count + longer
    more = re.search(r"\+(\d+) more", shown)
    if hidden and (more is None or int(more.group(1)) != hidden):
        problems.append(f"totals should say +{hidden} more: {shown!r}")
    if not hidden and more is not None:
        problems.append(f"totals say {more.group(0)!r} with nothing left out: {shown!r}")
    return problems


def expected_head(ev: Evaluation, loc: Loc) -> list[str]:
    """What the top of the details pane must say: the selection's name and its cost."""
    node = node_at(ev, loc)
    # (the costs as the tree says them: "2,380 kg"; where the pane has the room, after
    # their cost types' names, "Mass 2,380 kg", which holds them: test_cost_named.py)
    if node.is_root:
        return [ev.name(node), cost_text(ev, ev.totals, limits=True)]
    out = [ev.name(node)]
    price = costs_text(ev.index, ev.total_cost(node))
    if node.entry is not None and price:
        out.append(price)  # (the price rule: no "0 Build Slots")
    return out


def own_issue_texts(ev: Evaluation, loc: Loc) -> list[str]:
    """The issues about the selection itself, as its details list them."""
    from armybuilder.tui.widgets.roster_tree import owner_loc

    return [
        f"{'✖' if i.is_error else '⚠'} {i.message}"
        + (f" ({i.source})" if i.source else "")
        + fix_text(ev, i, "  ")
        for i in ev.issues
        if owner_loc(i.path) == loc
    ]


def fix_text(ev: Evaluation, issue: Any, gap: str) -> str:
    """The quick fix an issue offers, as its line ends with it (armybuilder.fixes)."""
    from armybuilder.fixes import fixes_for

    fixes = fixes_for(ev, issue)
    return f"{gap}[.] {fixes[0].label}" if fixes else ""


def expected_issue_text(ev: Evaluation, limit: int = 100) -> list[str]:
    """The issues list's items: errors first, each marked, with its rules section."""
    issues = sorted(ev.issues, key=lambda i: 0 if i.is_error else 1)
    items = [
        f"{'✖' if i.is_error else '⚠'} {i.message}"
        + (f"  ({i.source})" if i.source else "")
        + fix_text(ev, i, "  ")
        for i in issues[:limit]
    ]
    if len(issues) > limit:
        items.append(f"… and {len(issues) - limit} more")
    return items or ["Nothing to fix."]


def expected_catalog_rows(session: EditSession, selected: Loc, query: str = "") -> list[str]:
    """Every line of the catalog's list, in order, as a search for ``query`` shows it: each
    section's heading (:func:`expected_catalog_headings`) followed by its entries
    (:func:`expected_catalog`)."""
    target = catalog_target(session, selected)
    labels = expected_catalog(session, selected, query)
    headings = expected_catalog_headings(session, selected, query)
    sizes: dict[object, int] = {}
    for c in search_hits(session, target, query):
        key = _section_key(c)
        sizes[key] = sizes.get(key, 0) + 1
    rows: list[str] = []
    at = 0
    for heading, size in zip(headings, sizes.values(), strict=True):
        rows.append(heading)
        rows.extend(labels[at : at + size])
        at += size
    return rows


def check_catalog_rows(lines: list[str], rows: list[str], top: int, width: int) -> list[str]:
    """Problems with the painted catalog list (``lines``, the rows of its pane): row ``y``
    must show ``rows[top + y]`` (in full, or cut at the pane's edge), and the rows past the
    last must be blank."""
    problems = []
    for y, raw in enumerate(lines):
        want = rows[top + y] if top + y < len(rows) else ""
        text = tree_label(raw)
        if text == want or (want and label_shows(text, len(raw) - len(text), want, width)):
            continue
        problems.append(f"catalog row {y} shows {text!r}, not {want!r}")
    return problems


def catalog_view_problems(app: App[Any], editor: Any, query: str | None = None) -> list[str]:
    """Problems with the rows the catalog's list paints where it is scrolled to now: each
    must be the row the session computes there (:func:`expected_catalog_rows` for the
    search box's text, or ``query``), an old price, a row left unpriced or a row of
    another place in the list fails."""
    session = editor.session
    catalog = editor.catalog
    tree = catalog.catalog_tree
    typed = catalog.search.value if query is None else query
    want = expected_catalog_rows(session, editor.selected, typed)
    lines = pane_lines(app, tree, painted(app))
    return check_catalog_rows(lines, want, tree.scroll_offset.y, tree.content_region.width)
