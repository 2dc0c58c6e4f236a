"""Fitting a line's tail (a cost, a count, a total) into a narrow pane without cutting a
number: shorter forms a player still reads, from the full text to the tersest.

``3 chosen`` becomes ``3``, ``2, at least 3`` becomes ``2, ≥3``, the two spaces between the
parts become one, ``5 / 4`` becomes ``5/4``, and last the names of the costs go
(``Cans 5 / 4, Build Slots 2 / 3`` becomes ``5/4, 2/3``): every number stays whole in every
form."""

from __future__ import annotations

import re

_CHOSEN = re.compile(r"^(\d[\d,.]*) chosen$")


def terse(piece: str) -> str:
    """A count in fewer cells: ``3 chosen`` -> ``3``, ``2, at least 3`` -> ``2, ≥3``."""
    return _CHOSEN.sub(r"\1", piece).replace(", at least ", ", ≥")


def numbers(piece: str) -> str:
    """Only the numbers of ``piece`` (``Cans 5 / 4, Build Slots 2`` -> ``5/4, 2``); the piece
    as it is when it has none."""
    items = []
    for item in piece.split(", "):
        tokens = [t for t in item.split() if t == "/" or any(ch.isdigit() for ch in t)]
        if tokens:
            items.append("".join(tokens) if "/" in tokens else " ".join(tokens))
    return ", ".join(items) or piece


def tail_forms(pieces: list[str]) -> list[tuple[list[str], str]]:
    """The forms of a tail made of ``pieces`` (each shown after a separator), in full first:
    (pieces, separator) each, every one shorter than the one before."""
    short = [terse(p) for p in pieces]
    tight = [p.replace(" / ", "/") for p in short]
    bare = [numbers(p) for p in short]
    forms: list[tuple[list[str], str]] = [(pieces, "  ")]
    for form in ((short, "  "), (short, " "), (tight, " "), (bare, " ")):
        if form != forms[-1]:
            forms.append(form)
    return forms
