"""Emphasis marks in a catalog's texts: ``**strong**``, ``*emphasis*`` and ``^^keyword^^``.

A rule's description and a stat line's characteristic may mark words: ``**Designer's
Note**``, ``^^Adeptus Astartes^^`` (a keyword, printed as the game prints its keywords).
Imported data keeps the marks its texts have (BattleScribe data is written so); a catalog of
ours may use them too. Every surface reads them through this module, so they agree: the
builder and the printed cards style them, plain text drops them.

A mark counts only in a pair, and only where it stands at the edge of a word as emphasis
does: an opening mark before a word (not glued to a letter or digit before it), a closing
mark after one (the data glues some to the next word: ``**Monster**or``). Anything else
prints as it is written: the footnote of ``0**/0``, a lone ``*`` in ``1*`` or ``5+*``,
``2 * 3``, ``a**b**c``, and the data's few mistakes (``**Titanic* unit``).
Names are never read for marks (a unit called ``**Bob**`` is called that).

A module of the base room: it imports nothing of armybuilder, no Rich, no Jinja2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

STRONG = "strong"
EMPHASIS = "emphasis"
KEYWORD = "keyword"

_KINDS = {"**": STRONG, "*": EMPHASIS, "^^": KEYWORD}
_MARK = re.compile(r"\*\*|\^\^|\*")

#: A run of text and the kinds of emphasis it is in.
Run = tuple[str, frozenset[str]]

_NONE: frozenset[str] = frozenset()


def has_marks(text: str) -> bool:
    """Whether ``text`` may carry a mark (a quick look, before reading it)."""
    return "*" in text or "^^" in text


def _pairs(text: str) -> list[tuple[int, int, str, bool]]:
    """The marks of ``text`` that count: (start, end, kind, opens), in the text's order."""
    open_at: dict[str, list[tuple[int, int]]] = {}
    found: list[tuple[int, int, str, bool]] = []
    size = len(text)
    for m in _MARK.finditer(text):
        start, end = m.span()
        kind = _KINDS[m.group()]
        before = text[start - 1] if start else ""
        after = text[end] if end < size else ""
        can_close = bool(before) and not before.isspace()
        can_open = bool(after) and not after.isspace() and not before.isalnum()
        stack = open_at.setdefault(kind, [])
        if can_close and stack:
            o_start, o_end = stack.pop()
            found.append((o_start, o_end, kind, True))
            found.append((start, end, kind, False))
        elif can_open:
            stack.append((start, end))
    found.sort()
    return found


def runs(text: str) -> list[Run]:
    """``text`` as runs of the same emphasis, the marks that count taken out."""
    if not has_marks(text):
        return [(text, _NONE)]
    marks = _pairs(text)
    if not marks:
        return [(text, _NONE)]
    out: list[Run] = []
    depth: dict[str, int] = {}
    at = 0
    for start, end, kind, opens in marks:
        if start > at:
            out.append((text[at:start], frozenset(k for k, n in depth.items() if n)))
        depth[kind] = depth.get(kind, 0) + (1 if opens else -1)
        at = end
    if at < len(text):
        out.append((text[at:], _NONE))
    return out


def plain(text: str) -> str:
    """``text`` without the marks that count (what a plain-text surface prints)."""
    if not has_marks(text):
        return text
    return "".join(piece for piece, _ in runs(text))


_TAGS = {
    STRONG: ("<strong>", "</strong>"),
    EMPHASIS: ("<em>", "</em>"),
    KEYWORD: ('<span class="keyword">', "</span>"),
}


def html(text: str, prepare: Callable[[str], str] | None = None) -> str:
    """``text`` as HTML: escaped, each marked run in ``<strong>``, ``<em>`` or
    ``<span class="keyword">``. ``prepare`` (a function of a string) is applied to each run's
    text before it is escaped (the renderer's break points in long words)."""
    out: list[str] = []
    for piece, kinds in runs(text):
        if prepare is not None:
            piece = prepare(piece)
        inner = escape(piece, quote=True)
        for kind in (KEYWORD, STRONG, EMPHASIS):
            if kind in kinds:
                opening, closing = _TAGS[kind]
                inner = opening + inner + closing
        out.append(inner)
    return "".join(out)
