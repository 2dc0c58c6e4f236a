"""Which characters of a document no installed font can print.

Pango (under WeasyPrint) already falls back, character by character, to any installed font
that has a glyph: CJK prints with ``fonts-noto-cjk``, emoji with ``fonts-noto-color-emoji``
(both optional Debian/Ubuntu packages). What no font has prints as an empty box; this module
finds those characters so that ``armybuilder render -v`` can say so once, instead of the
reader discovering boxes on paper.

It asks fontconfig once per process for the character sets of every installed font
(``fc-list``, about 50 ms) and keeps their union as sorted ranges. Without ``fc-list`` (not
Linux, say) it cannot tell and reports nothing.
"""

from __future__ import annotations

import bisect
import shutil
import subprocess
import unicodedata
from functools import lru_cache

#: Character categories that need no glyph of their own: spaces, controls, format
#: characters (zero-width joiner...), combining marks drawn with their base letter.
_NO_GLYPH_NEEDED = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me", "Cs", "Co", "Cn"})


@lru_cache(maxsize=1)
def _installed_ranges() -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The union of every installed font's character set as (starts, ends) of sorted,
    merged ranges; ``None`` when fontconfig cannot be asked."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    try:
        out = subprocess.run(
            [fc_list, "--format", "%{charset}\n"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    ranges: list[tuple[int, int]] = []
    for token in out.split():
        first, _, last = token.partition("-")
        try:
            a = int(first, 16)
            b = int(last, 16) if last else a
        except ValueError:
            continue
        ranges.append((a, b))
    if not ranges:
        return None
    ranges.sort()
    starts: list[int] = []
    ends: list[int] = []
    for a, b in ranges:
        if ends and a <= ends[-1] + 1:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return tuple(starts), tuple(ends)


def _covered(code: int, ranges: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    starts, ends = ranges
    i = bisect.bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


def missing_glyphs(text: str) -> list[str]:
    """The distinct characters of ``text`` that no installed font has a glyph for, in code
    point order (empty when fontconfig cannot tell)."""
    wanted = {c for c in set(text) if ord(c) > 0x7E}
    if not wanted:
        return []
    ranges = _installed_ranges()
    if ranges is None:
        return []
    return sorted(
        c
        for c in wanted
        if unicodedata.category(c) not in _NO_GLYPH_NEEDED and not _covered(ord(c), ranges)
    )


def describe_missing(chars: list[str], limit: int = 12) -> str:
    """A one-line account of characters no font prints, for the command line."""
    shown = " ".join(f"{c} (U+{ord(c):04X})" for c in chars[:limit])
    more = f" and {len(chars) - limit} more" if len(chars) > limit else ""
    return (
        f"no installed font has {len(chars)} character{'s' if len(chars) != 1 else ''} of this"
        f" roster: {shown}{more}; they print as empty boxes (fonts for them: fonts-noto-cjk"
        " for Chinese, Japanese and Korean, fonts-noto-color-emoji for emoji)"
    )
