"""Keep a user's own text around the edits: a three-way merge of lines.

ruamel.yaml's round trip keeps most comments and formatting, but not all of it: comments above a
``---`` line, comments inside a flow list written over several lines, spacing it normalises.
Saving an edited roster therefore merges three texts line by line:

* ``base``: what ruamel writes for the roster as it was read (its normalised form);
* ``ours``: the file as it was read (the user's bytes);
* ``theirs``: what ruamel writes for the roster as edited.

Where ``theirs`` equals ``base``, nothing was edited and the user's lines are kept byte for
byte; where ``ours`` equals ``base``, ruamel's text is the user's anyway and the edit is taken;
where both differ (an edit inside lines ruamel reformats), the edit wins for those lines only,
except that lines an edit only *adds* next to the user's lines are inserted among them. The
caller checks that the merged text reads back as the edited roster, and falls back to ruamel's
text when it does not.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from difflib import SequenceMatcher

__all__ = ["merge3"]


def _matches(base: Sequence[str], other: Sequence[str]) -> dict[int, int]:
    """Which line of ``other`` each kept line of ``base`` is, lines added or removed among
    repeated lines read as late as possible (a copy of a selection follows its original)."""
    script: list[tuple[str, int, int]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, base, other, autojunk=False).get_opcodes():
        if tag == "equal":
            script.extend(("=", i1 + k, j1 + k) for k in range(i2 - i1))
        else:
            script.extend(("-", i, -1) for i in range(i1, i2))
            script.extend(("+", -1, j) for j in range(j1, j2))
    a = 0
    while a < len(script):
        kind = script[a][0]
        if kind == "=":
            a += 1
            continue
        b = a
        while b < len(script) and script[b][0] == kind:
            b += 1
        if b < len(script) and script[b][0] == "=" and (a == 0 or script[a - 1][0] == "="):
            _, bi, oj = script[b]
            if kind == "+" and other[script[a][2]] == base[bi]:
                ja = script[a][2]
                script[a : b + 1] = [("=", bi, ja)] + [("+", -1, j) for j in range(ja + 1, oj + 1)]
                a += 1
                continue
            if kind == "-" and base[script[a][1]] == base[bi]:
                ia = script[a][1]
                script[a : b + 1] = [("=", ia, oj)] + [("-", i, -1) for i in range(ia + 1, bi + 1)]
                a += 1
                continue
        a = b
    return {bi: oj for kind, bi, oj in script if kind == "="}


def _edges(base: list[str], other: list[str]) -> tuple[list[str], list[str]] | None:
    """If ``other`` is ``base`` with lines added only before and after it: those lines."""
    ops = SequenceMatcher(None, base, other, autojunk=False).get_opcodes()
    changes = [op for op in ops if op[0] != "equal"]
    if not changes or not all(op[0] == "insert" for op in changes):
        return None
    before: list[str] = []
    after: list[str] = []
    for _, i1, _, j1, j2 in changes:
        if i1 == 0:
            before.extend(other[j1:j2])
        elif i1 == len(base):
            after.extend(other[j1:j2])
        else:
            return None
    return before, after


def _changes(base: list[str], other: list[str]) -> list[tuple[int, int, list[str]]]:
    return [
        (i1, i2, other[j1:j2])
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, base, other, autojunk=False).get_opcodes()
        if tag != "equal"
    ]


def _combine(
    base: list[str], mine: list[tuple[int, int, list[str]]], edit: list[tuple[int, int, list[str]]]
) -> list[str] | None:
    """Apply both lists of changes to ``base``; ``None`` where they touch the same lines.
    The user's changes inside lines the edit deletes go with them; where both add lines at
    one place, the edit's come first (the user's trailing comments and ``...`` stay last)."""
    deleted = [(i1, i2) for i1, i2, lines in edit if not lines and i2 > i1]
    kept = [
        c for c in mine if not any(d1 <= c[0] and c[1] <= d2 and c[1] > c[0] for d1, d2 in deleted)
    ]
    tagged = [(i1, i2, 0, lines) for i1, i2, lines in edit]
    tagged += [(i1, i2, 1, lines) for i1, i2, lines in kept]
    tagged.sort(key=lambda e: (e[0], e[1], e[2]))
    out: list[str] = []
    pos = 0
    for i1, i2, _, lines in tagged:
        if i1 < pos:
            return None
        out.extend(base[pos:i1])
        out.extend(lines)
        pos = i2
    out.extend(base[pos:])
    return out


def _disjoint(base: list[str], ours: list[str], theirs: list[str]) -> list[str] | None:
    """Both sides' changes, when they touch different lines of ``base`` (else ``None``).

    A deletion or an insertion among repeated lines can be read at several places ("delete
    the first two of three equal lines" or "the last two"): each reading that gives
    ``theirs`` is tried."""
    mine = _changes(base, ours)
    edit = _changes(base, theirs)
    if len(edit) == 1 and edit[0][0] == edit[0][1]:
        # Lines added: placed as late as they can be (a copy goes after its original).
        size = len(edit[0][2])
        for at in range(len(base), -1, -1):
            if theirs[:at] != base[:at] or theirs[at + size :] != base[at:]:
                continue
            result = _combine(base, mine, [(at, at, theirs[at : at + size])])
            if result is not None:
                return result
        return None
    result = _combine(base, mine, edit)
    if result is not None:
        return result
    if len(edit) == 1 and not edit[0][2]:
        i1, i2, _ = edit[0]
        for shift in range(-len(base), len(base) + 1):
            a, b = i1 + shift, i2 + shift
            if shift == 0 or a < 0 or b > len(base):
                continue
            if base[:a] + base[b:] != theirs:
                continue
            result = _combine(base, mine, [(a, b, [])])
            if result is not None:
                return result
    return None


def _conflict(base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    """Both sides changed these lines. When they changed different lines, both changes are
    kept; when one side only adds lines before or after the base, those lines go around the
    other side's; else the edit wins."""
    both = _disjoint(base, ours, theirs)
    if both is not None:
        return both
    added = _edges(base, theirs)
    if added is not None:
        return added[0] + ours + added[1]
    added = _edges(base, ours)
    if added is not None:
        return added[0] + theirs + added[1]
    return theirs


def merge3(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """Merge the changes ``base`` -> ``theirs`` into ``ours`` (lists of lines)."""
    mo = _matches(base, ours)
    mt = _matches(base, theirs)
    both = sorted(k for k in mo if k in mt)
    out: list[str] = []
    i = io = it = 0
    nb, no, nt = len(base), len(ours), len(theirs)
    while i < nb or io < no or it < nt:
        if i < nb and mo.get(i) == io and mt.get(i) == it:
            out.append(ours[io])
            i, io, it = i + 1, io + 1, it + 1
            continue
        # The next line of base that both sides kept (matches are in order, so any such
        # line after i comes after io and it too).
        at = bisect_left(both, i)
        k = both[at] if at < len(both) else nb
        eo, et = (mo[k], mt[k]) if k < nb else (no, nt)
        b, o, t = list(base[i:k]), list(ours[io:eo]), list(theirs[it:et])
        if o == b:
            out.extend(t)
        elif t == b or o == t:
            out.extend(o)
        else:
            out.extend(_conflict(b, o, t))
        i, io, it = k, eo, et
    return out
