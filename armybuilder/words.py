"""Wording shared by every report the program writes: the terminal, the exports, the builder.

A module of the base room (it imports nothing), so ``armybuilder validate``, the renderer and
the builder all count things the same way without importing one another.
"""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is one: "1 warning", "0 warnings"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
