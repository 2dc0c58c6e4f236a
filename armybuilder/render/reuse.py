"""Blocks printed more than once are laid out once (a large force's identical squads print
the same figure table under different titles).

A template marks a block with :data:`SAME_MARK` ... :data:`SAME_END` (``same()`` and
``same_end()`` in a template). When a document holds the same marked block, in the same
surroundings (its enclosing elements, ``id`` and the running title's ``data-page-title``
aside), more than once:

1. each such block is laid out once, in a small document of its own that has the same page
   setup and the same enclosing elements, and measured (``Page.anchors`` of two markers);
2. the document is laid out with every occurrence replaced by an empty block of that height;
3. the PDF of the block is drawn into each empty block (a PDF form XObject, clipped to the
   block, drawn where the empty block lies), with pypdf.

What a reader sees is the same as laying the whole document out (tests/render/test_reuse.py
compares the rasterised pages); the figure tables stop being most of the time a regiment
takes to print. When a check fails (an empty block moved sideways, or did not fit its page),
the document is laid out whole instead. Rules for a marked block: it starts and ends at the
same level of the HTML, it does not split across pages (it sits in a ``break-inside: avoid``
card no taller than a page), its look does not depend on being a direct child (``>``) or a
neighbour (``+``, ``~``) of other elements, and what follows it has no top margin (the
block's own bottom margin is part of its measured height).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

SAME_MARK = "<!--armybuilder:same-->"
SAME_END = "<!--armybuilder:same-end-->"

#: Elements without an end tag.
_VOID = frozenset(
    {
        *("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"),
        *("param", "source", "track", "wbr"),
    }
)
_TAG = re.compile(
    r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S
)
#: What a block cannot hold to be drawn as a copy: a link or anchor (``<a>``, an ``id``: the
#: copy has no annotations, and links to it would point nowhere), a heading (a bookmark in the
#: outline) or a numbered list (its numbers would be the first layout's).
_PLACE_BOUND = re.compile(r"<(?:a|h[1-6]|ol)[\s>/]|\sid\s*=", re.I)
#: Attributes of the enclosing elements that do not change how a block looks: its ``id`` and
#: the unit it names in the running title (``data-page-title``: the squads of two groups are
#: the same block).
_ID_ATTR = re.compile(r"""\s+(?:id|data-page-title)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", re.I)
_MARGIN_BOXES = (
    *("top-left-corner", "top-left", "top-center", "top-right", "top-right-corner"),
    *("left-top", "left-middle", "left-bottom", "right-top", "right-middle", "right-bottom"),
    *("bottom-left-corner", "bottom-left", "bottom-center", "bottom-right"),
    "bottom-right-corner",
)
_NO_MARGIN_BOXES = (
    "@page { " + " ".join(f"@{m} {{ content: none !important }}" for m in _MARGIN_BOXES) + " }"
)
#: CSS pixels to PDF points.
_PT = 0.75


@dataclass
class Block:
    """One distinct marked block: its HTML, the open tags around it (``id`` and
    ``data-page-title`` removed), and
    where it occurs (``(start, end)`` of the marks in the document)."""

    content: str
    ancestors: tuple[tuple[str, str], ...]
    spans: list[tuple[int, int]] = field(default_factory=list)


def marked_blocks(html: str) -> list[Block]:
    """The marked blocks of ``html`` that occur more than once in the same surroundings."""
    if SAME_MARK not in html:
        return []
    body = html.find("<body")
    if body < 0:
        return []
    stack: list[tuple[str, str]] = []
    blocks: dict[tuple[str, tuple[tuple[str, str], ...]], Block] = {}
    pos = body
    while True:
        m = _TAG.search(html, pos)
        if m is None:
            break
        pos = m.end()
        text = m.group(0)
        if text == SAME_MARK:
            end = html.find(SAME_END, pos)
            if end < 0:
                break
            content = html[pos:end]
            if not _balanced(content):
                return []  # a mark not around whole elements: lay the document out whole
            if _PLACE_BOUND.search(content):
                # Links, anchors, bookmarks and numbered lists belong to the place they are
                # drawn at, which a drawn copy does not carry: this block is laid out in place.
                pos = end + len(SAME_END)
                continue
            key = (content, tuple(stack))
            blocks.setdefault(key, Block(content, key[1])).spans.append(
                (m.start(), end + len(SAME_END))
            )
            pos = end + len(SAME_END)
            continue
        if text.startswith("<!--"):
            continue
        closing, name, attrs = m.group(1), m.group(2).lower(), m.group(3)
        if closing:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    del stack[i:]
                    break
        elif name not in _VOID and not attrs.rstrip().endswith("/"):
            stack.append((name, _ID_ATTR.sub("", attrs)))
            if name in ("style", "script"):
                close = html.find(f"</{name}", pos)
                pos = close if close >= 0 else len(html)
    return [b for b in blocks.values() if len(b.spans) > 1]


def _balanced(html: str) -> bool:
    """Whether every element that starts in ``html`` ends in it, and no other ends there."""
    stack: list[str] = []
    for m in _TAG.finditer(html):
        if m.group(2) is None:
            continue  # a comment
        name = m.group(2).lower()
        if m.group(1):
            if not stack or stack.pop() != name:
                return False
        elif name not in _VOID and not m.group(3).rstrip().endswith("/"):
            stack.append(name)
    return not stack


def _open(tag: tuple[str, str]) -> str:
    return f"<{tag[0]}{tag[1]}>"


def _measure_html(html: str, blocks: Sequence[Block]) -> str:
    """A document of each block alone in its surroundings, one page each, with markers."""
    body = html.find("<body")
    head = html[:body]
    end_head = head.rfind("</head>")
    # nothing but the blocks: no running header or footer (its text would be drawn with
    # each block, clipped away but still found by a search of the PDF)
    quiet = f"<style>{_NO_MARGIN_BOXES}</style>"
    parts = [head[:end_head] + quiet + head[end_head:] if end_head >= 0 else head + quiet]
    first = blocks[0].ancestors
    parts.append(_open(first[0]) if first and first[0][0] == "body" else "<body>")
    for k, b in enumerate(blocks):
        inner = b.ancestors[1:] if b.ancestors and b.ancestors[0][0] == "body" else b.ancestors
        if k:
            parts.append('<div style="break-before: page"></div>')
        parts.extend(_open(t) for t in inner)
        parts.append(f'<div id="ab-same-{k}" style="display: flow-root">{b.content}</div>')
        # right below the block, at its container's right edge
        parts.append(f'<div id="ab-same-{k}-end" style="margin-left: 100%"></div>')
        parts.extend(f"</{t[0]}>" for t in reversed(inner))
    parts.append("</body></html>")
    return "".join(parts)


@dataclass
class Measured:
    page: int
    x: float
    y: float
    width: float
    height: float


def _measure(doc: Any, count: int) -> list[Measured | None]:
    """Where each block lies in the measuring document (``None``: it did not fit a page)."""
    where: dict[str, tuple[int, float, float]] = {}
    for i, page in enumerate(doc.pages):
        for name, point in page.anchors.items():
            if name.startswith("ab-same-"):
                # (x, y), or (x1, y1, x2, y2) in recent WeasyPrint versions
                where[name] = (i, point[0], point[1])
    out: list[Measured | None] = []
    for k in range(count):
        top, end = where.get(f"ab-same-{k}"), where.get(f"ab-same-{k}-end")
        if top is None or end is None or top[0] != end[0] or end[2] <= top[2]:
            out.append(None)
        else:
            out.append(Measured(top[0], top[1], top[2], end[1] - top[1], end[2] - top[2]))
    return out


def render_reusing(
    html: str,
    layout: Callable[[str], Any],
    write: Callable[[Any], bytes],
) -> tuple[Any, bytes] | None:
    """Lay out ``html`` with each repeated marked block laid out once.

    ``layout(html)`` returns WeasyPrint's laid out document, ``write(doc)`` its PDF. Returns
    the laid out document (its pages hold empty blocks where the repeated ones go) and the
    finished PDF; ``None`` when nothing repeats or a check fails (then lay ``html`` out whole).
    """
    blocks = marked_blocks(html)
    if not blocks:
        return None
    sample = layout(_measure_html(html, blocks))
    measured = _measure(sample, len(blocks))
    used = [(b, m) for b, m in zip(blocks, measured, strict=True) if m is not None]
    if not used:
        return None
    # The document with an empty block of the measured height for each occurrence.
    spans = sorted(
        (start, end, k, m.height) for k, (b, m) in enumerate(used) for start, end in b.spans
    )
    out: list[str] = []
    done = 0
    for n, (start, end, _k, height) in enumerate(spans):
        out.append(html[done:start])
        out.append(f'<div id="ab-same-at-{n}" style="height: {height!r}px"></div>')
        done = end
    out.append(html[done:])
    doc = layout("".join(out))
    places: dict[int, tuple[int, float, float]] = {}
    for i, page in enumerate(doc.pages):
        for name, point in page.anchors.items():
            if name.startswith("ab-same-at-") and name[11:].isdigit():
                places[int(name[11:])] = (i, point[0], point[1])
    stamps: list[tuple[int, int, float]] = []  # (page, block, dy in points)
    for n, (_start, _end, k, height) in enumerate(spans):
        place = places.get(n)
        m = used[k][1]
        if place is None:
            return None
        page, x, y = place
        # The same column (or the block would be drawn off its place), on its page.
        if abs(x - m.x) > 1e-3 or y + height > doc.pages[page].height + 1e-3:
            return None
        stamps.append((page, k, (m.y - y) * _PT))
    return doc, _stamp(write(doc), write(sample), [m for _b, m in used], stamps)


def _stamp(
    pdf: bytes,
    sample_pdf: bytes,
    measured: Sequence[Measured],
    stamps: Sequence[tuple[int, int, float]],
) -> bytes:
    """``pdf`` with each stamp ``(page, block, dy)`` drawn: the block's part of the sample's
    page moved down by ``dy`` points (a form XObject clipped to the block)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        FloatObject,
        NameObject,
    )

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    sample = PdfReader(io.BytesIO(sample_pdf))
    forms: list[Any] = []
    for k, m in enumerate(measured):
        page = sample.pages[m.page]
        height = float(page.mediabox.height)
        contents = page.get_contents()
        source: Any = page["/Resources"].get_object()
        raw = DecodedStreamObject()
        raw.set_data(contents.get_data() if contents is not None else b"")
        form = raw.flate_encode()
        left, right = m.x * _PT, (m.x + m.width) * _PT
        box = [left, height - (m.y + m.height) * _PT, right, height - m.y * _PT]
        form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(FloatObject(round(v, 6)) for v in box),
                NameObject("/Resources"): source.clone(writer),
            }
        )
        forms.append((NameObject(f"/AbSame{k}"), writer._add_object(form)))
    by_page: dict[int, list[tuple[int, float]]] = {}
    for page_no, k, dy in stamps:
        by_page.setdefault(page_no, []).append((k, dy))
    for page_no, items in sorted(by_page.items()):
        page = writer.pages[page_no]
        resources: Any = page["/Resources"].get_object()
        xobjects = resources.get("/XObject")
        if xobjects is None:
            xobjects = DictionaryObject()
            resources[NameObject("/XObject")] = xobjects
        xobjects = xobjects.get_object()
        ops = [b"\nQ"]
        for k, dy in items:
            name, ref = forms[k]
            xobjects[name] = ref
            ops.append(f"q 1 0 0 1 0 {dy:.6f} cm {name} Do Q".encode())
        before = DecodedStreamObject()
        before.set_data(b"q\n")
        after = DecodedStreamObject()
        after.set_data(b"\n".join(ops))
        # the page's own streams, by reference (a stream is always an indirect object)
        current: Any = page.raw_get("/Contents")
        target = current.get_object()
        current_list = list(target) if isinstance(target, ArrayObject) else [current]
        page[NameObject("/Contents")] = ArrayObject(
            [writer._add_object(before), *current_list, writer._add_object(after.flate_encode())]
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
