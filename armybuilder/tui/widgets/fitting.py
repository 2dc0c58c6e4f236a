"""Fitting a line's tail (a cost, a count, a total) into a narrow pane without cutting a
number, and without leaving one a player cannot read: shorter forms, from the full text to
the tersest, in which every number keeps what it counts.

A count becomes ``×3`` (``3 chosen``; the roster tree's own mark for a count) or stays
``2/3`` against its maximum (``2, at least 3`` becomes ``2, ≥3``); the two spaces between
the parts become one; then the costs tighten: ``5 / 4`` becomes ``5/4`` and the costs are
joined by ``·``; a unit of several words keeps its last (``1 Build Slots`` becomes
``1 Slots``); last each unit is written by its initials against its number (``4 Cans,
1 Build Slots`` becomes ``4C·1BS``, ``Value 30`` becomes ``V30``), a unit of three letters
or fewer as it is (``85kg``, ``3BP``, ``80pts``). So "Armour Plating  4 Cans, 1 Build Slots
2 chosen" reads, as the pane narrows, "… 4 Cans·1 Slots ×2" and "… 4C·1BS ×2", never
"4, 1 2". Initials shared by two units of one tail would be ambiguous: that tail stops at
the form before.

:func:`append_marked` draws a catalog's text with its emphasis marks as styles."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from ...emphasis import EMPHASIS, KEYWORD, STRONG, has_marks, runs

#: How the panes draw each kind of emphasis (a terminal has no small capitals: a keyword is
#: bold, as the game's datasheets print theirs).
MARK_STYLES = {STRONG: "bold", EMPHASIS: "italic", KEYWORD: "bold"}


def append_marked(text: Text, value: str, style: str = "") -> Text:
    """Append a catalog's ``value`` (a characteristic, a description) to ``text``, its
    emphasis marks (:mod:`armybuilder.emphasis`) drawn as styles rather than shown."""
    if not has_marks(value):
        text.append(value, style)
        return text
    for piece, kinds in runs(value):
        extra = " ".join(MARK_STYLES[k] for k in sorted(kinds))
        text.append(piece, f"{style} {extra}".strip() if extra else style)
    return text


_CHOSEN = re.compile(r"^(\d[\d,.]*) chosen$")


def terse(piece: str) -> str:
    """A count in fewer cells: ``3 chosen`` -> ``×3``, ``2, at least 3`` -> ``2, ≥3``."""
    return _CHOSEN.sub(r"×\1", piece).replace(", at least ", ", ≥")


def _is_amount(token: str) -> bool:
    return token == "/" or any(ch.isdigit() for ch in token)


def _split(item: str) -> tuple[list[str], str, list[str]] | None:
    """A cost ``item`` as (the words before its amount, the amount, the words after it):
    ``4 Cans`` -> ([], "4", ["Cans"]), ``Value 5 / 9`` -> (["Value"], "5 / 9", []);
    ``None`` for an item without a number or with words inside its amount."""
    tokens = item.split()
    at = [i for i, t in enumerate(tokens) if _is_amount(t)]
    if not at or any(not _is_amount(t) for t in tokens[at[0] : at[-1] + 1]):
        return None
    return tokens[: at[0]], " ".join(tokens[at[0] : at[-1] + 1]), tokens[at[-1] + 1 :]


def _has_words(piece: str) -> bool:
    return any(ch.isalpha() for ch in piece)


def initials(words: list[str]) -> str:
    """A unit in a few letters: as it is when three letters or fewer (``kg``, ``BP``,
    ``pts``), else the initials of its words (``Cans`` -> ``C``, ``Build Slots`` -> ``BS``).
    A capitalised word of three letters is a word too (``Can``, the singular of ``Cans``:
    ``C`` as its plural, so "1 Can" and "2 Cans" read "1C" and "2C" side by side)."""
    whole = " ".join(words)
    if len(whole) <= 3 and not (len(whole) == 3 and whole.istitle() and whole.isalpha()):
        return whole
    return "".join(w[0] for w in words if w).upper()


def _costs(piece: str, how: str) -> str:
    """A piece of costs (``4 Cans, 1 Build Slots``) in the ``how`` form: ``tight`` (``5/4``,
    joined by ``·``), ``short`` (a unit's last word), ``tiny`` (initials against the
    number). A count (no words) is left as it is."""
    if not _has_words(piece):
        return piece
    out = []
    for item in piece.split(", "):
        parts = _split(item)
        if parts is None:
            out.append(item)
            continue
        before, amount, after = parts
        amount = amount.replace(" / ", "/")
        if how == "tight":
            out.append(" ".join([*before, amount, *after]))
        elif how == "short":
            out.append(" ".join([*before[-1:], amount, *after[-1:]]))
        else:
            out.append(initials(before) + amount + initials(after))
    return "·".join(out)


def _tiny_is_clear(pieces: list[str]) -> bool:
    """Whether the initials of the units in ``pieces`` tell them apart (a unit's singular
    and plural are one unit: ``1 Build Slot``, ``3 Build Slots``)."""
    seen: dict[str, str] = {}
    for piece in pieces:
        if not _has_words(piece):
            continue
        for item in piece.split(", "):
            parts = _split(item)
            if parts is None:
                continue
            for words in (parts[0], parts[2]):
                if words:
                    key, whole = initials(words), " ".join(words).removesuffix("s")
                    if seen.setdefault(key, whole) != whole:
                        return False
    return True


def tail_forms(pieces: list[str]) -> list[tuple[list[str], str]]:
    """The forms of a tail made of ``pieces`` (each shown after a separator), in full first:
    (pieces, separator) each, every one shorter than the one before, every number in each
    labelled (by its unit, as a count ``×3``, or against its maximum ``2/3``)."""
    short = [terse(p) for p in pieces]
    steps = [(short, "  "), (short, " ")]
    steps.append(([_costs(p, "tight") for p in short], " "))
    steps.append(([_costs(p, "short") for p in short], " "))
    if _tiny_is_clear(short):
        steps.append(([_costs(p, "tiny") for p in short], " "))
    forms: list[tuple[list[str], str]] = [(pieces, "  ")]
    for form in steps:
        if form != forms[-1]:
            forms.append(form)
    return forms


#: The shortening steps of a tail, in order (:func:`tail_form`): in full; the counts terse;
#: one space between the parts; the costs tight; each unit by its last word; by initials.
STEPS = 6
_COST_FORMS = {3: "tight", 4: "short", 5: "tiny"}


def _cost_level(step: int) -> int:
    """Which form of the costs a step gives: 0 as written (steps 0 to 2), then tight,
    short, tiny."""
    return max(0, step - 2)


def tail_form(pieces: list[str], step: int, tiny: bool = True) -> tuple[list[str], str]:
    """A tail's form at ``step`` (0 to :data:`STEPS` - 1), as (pieces, separator). Where
    ``tiny`` is false (or the initials of the tail's own units would be ambiguous), the last
    step is the one before it."""
    if step <= 0:
        return pieces, "  "
    short = [terse(p) for p in pieces]
    if step <= 2:
        return short, "  " if step == 1 else " "
    if step >= 5 and not (tiny and _tiny_is_clear(short)):
        step = 4
    how = _COST_FORMS[min(step, 5)]
    return [_costs(p, how) for p in short], " "


def tail_steps(pieces: list[str], tiny: bool = True) -> list[tuple[list[str], str]]:
    """The tail's form at each step (:func:`tail_form`), the first step's first: one for
    every step, so several steps may give the same."""
    short = [terse(p) for p in pieces]
    tight = [_costs(p, "tight") for p in short]
    words = [_costs(p, "short") for p in short]
    least = [_costs(p, "tiny") for p in short] if tiny and _tiny_is_clear(short) else words
    return [(pieces, "  "), (short, "  "), (short, " "), (tight, " "), (words, " "), (least, " ")]


def _width(form: tuple[list[str], str]) -> int:
    pieces, sep = form
    return sum(cell_len(sep + p) for p in pieces)


def row_forms(
    pieces: list[str], step: int, tiny: bool = True
) -> tuple[list[tuple[list[str], str]], int]:
    """The forms a row of a list may take when the list's tails are at ``step``
    (:class:`ListTails`), fullest first, and how many of them keep the list's form of the
    costs (the counts may still shorten: "3 chosen" -> "×3"); the rest, shorter, only for a
    row that has no room left for 3 cells of its name otherwise."""
    forms: list[tuple[list[str], str]] = []
    keep = 0
    for s in range(max(0, step), STEPS):
        form = tail_form(pieces, s, tiny)
        if forms and form == forms[-1]:
            continue
        forms.append(form)
        if _cost_level(s) == _cost_level(step):
            keep = len(forms)
    return forms, keep


class ListTails:
    """One form of the costs for every row of a list (the catalog's options), so that rows
    side by side read alike: "Bike 5C" beside "Monster Truck 25C", never "Bike 5 Cans"
    beside it.

    The form is the fullest that leaves each option's name whole beside its own costs
    (its catalog's costs, known without pricing any: a row priced later, when it comes
    into view, keeps the form; where its price is wider, its name gives way). Two names do
    not set it: an option's without costs of its own (no price to make room for: "Lesser
    Daemons (Unbound Adversaries)", a 40k reference), and a name too long to keep whole
    beside its costs in any form, cut whatever the form ("Vanguard Veteran Squad with Jump
    Packs" in a 40k list 43 cells wide: its list read "Aggressor Squad 95pts" for it at
    160x48). Where no name is left whole in any form, the list takes the tersest. ``rows``
    gives each option's name and own costs (``5 Cans``), read once, when the form is first
    asked for."""

    def __init__(self, rows: Callable[[], Iterable[tuple[str, str]]]) -> None:
        self._rows = rows
        #: Each option with costs of its own, once: the widths of its name and its costs
        #: at each step (an option's costs are whole, never cut).
        self._sizes: list[tuple[int, tuple[int, ...]]] | None = None
        self.tiny = True
        self._steps: dict[int, int] = {}

    def _measure(self) -> list[tuple[int, tuple[int, ...]]]:
        rows = [(n, cost) for n, cost in self._rows() if cost]
        self.tiny = _tiny_is_clear(sorted({cost for _, cost in rows}))
        widths: dict[str, tuple[int, ...]] = {}
        sizes: set[tuple[int, tuple[int, ...]]] = set()
        for n, cost in rows:
            at = widths.get(cost)
            if at is None:
                at = widths[cost] = tuple(_width(form) for form in tail_steps([cost], self.tiny))
            sizes.add((cell_len(n), at))
        self._sizes = sorted(sizes)
        return self._sizes

    def step(self, room: int) -> int:
        """The step (:func:`tail_form`) of the list's tails on rows ``room`` cells wide: the
        fullest any option's name needs to stay whole beside its costs, of the names some
        step leaves whole; where none does, the last."""
        got = self._steps.get(room)
        if got is None:
            sizes = self._sizes if self._sizes is not None else self._measure()
            got = -1
            for name, widths in sizes:
                if got < STEPS - 1 and name + widths[-1] <= room:
                    got = max(got, next(s for s in range(STEPS) if name + widths[s] <= room))
            if got < 0:
                got = STEPS - 1 if sizes else 0
            self._steps[room] = got
        return got


class WhereRoom:
    """A line that says more where the pane has the room: ``wide`` where it fits the width
    it is drawn at, else ``narrow`` (the details' price: "Mass 2,380 kg", as ``show`` says
    it, else "2,380 kg"). Chosen at each drawing, so a resized pane shows the one it fits."""

    def __init__(self, wide: Text, narrow: Text) -> None:
        self.wide = wide
        self.narrow = narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if self.wide.cell_len <= options.max_width else self.narrow
