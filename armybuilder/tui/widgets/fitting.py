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
    ``pts``), else the initials of its words (``Cans`` -> ``C``, ``Build Slots`` -> ``BS``)."""
    whole = " ".join(words)
    if len(whole) <= 3:
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
    """Whether the initials of the units in ``pieces`` tell them apart."""
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
                    key, whole = initials(words), " ".join(words)
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
