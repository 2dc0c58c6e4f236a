"""Wording shared by every report the program writes: the terminal, the exports, the builder.

A module of the base room (it imports nothing), so ``armybuilder validate``, the renderer and
the builder all count things the same way without importing one another.
"""

from __future__ import annotations

from collections.abc import Iterable


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an ``s`` unless ``n`` is one: "1 warning", "0 warnings"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


COST_DECIMALS = 9
"""Decimals a cost sum or product keeps (see :func:`tidy_cost`)."""


def tally(items: Iterable[tuple[str, int]]) -> list[str]:
    """``(name, count)`` pairs as the labels of a loadout: each name once, with how many
    there are after it when more than one ("Lightning Claw ×2": two selections of one claw,
    or one of two), in the order of its first appearance."""
    counts: dict[str, int] = {}
    for name, n in items:
        counts[name] = counts.get(name, 0) + n
    return [name + (f" ×{n}" if n != 1 else "") for name, n in counts.items()]


def tidy_cost(x: float) -> float:
    """A sum or product of costs as a player works it out: three selections of 0.1 cost 0.3,
    not the binary float ``0.30000000000000004`` (which is over a limit of 0.3). Rounded to
    :data:`COST_DECIMALS` decimals; a whole number (any integer result), an infinity or NaN
    comes back unchanged."""
    return round(x, COST_DECIMALS) if x % 1 else x


def number(x: float) -> str:
    """A quantity as every report prints it (costs, limits, counts): thousands separated and
    without a useless ``.0``: "2,380", "0.5", "1,234.25". Anything not a finite number is
    printed as it is."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return str(x)
    if isinstance(x, int):
        return f"{x:,}"
    if x != x or x in (float("inf"), float("-inf")):
        return str(x)
    if x.is_integer():
        return f"{int(x):,}"
    out = f"{x:,.6f}".rstrip("0").rstrip(".")
    return "0" if out == "-0" else out


def unit_after(amount: str, unit: str) -> str:
    """``unit`` as it reads after ``amount`` (already written out): singular after exactly
    one where it is a plural word ("1 Can", "1 Build Slot", "2 Cans"), else as it is (an
    abbreviation of three letters or fewer, "1 pts", "1 kg"; a word ending in "ss" or "us")."""
    if amount.strip() != "1" or not unit:
        return unit
    head, _, last = unit.rpartition(" ")
    if len(last) < 4 or not last.isalpha() or not last.endswith("s"):
        return unit
    if last.endswith(("ss", "us", "is")):
        return unit
    return f"{head} {last[:-1]}" if head else last[:-1]


def named_amount(name: str, unit: str, amount: str) -> str:
    """An amount of a kind of cost as a report names it, ``amount`` already written out
    ("2,380", "1,910 / 2,000"): after the kind's name and before its unit ("Mass 2,380 kg"),
    after the name alone when there is no unit ("Value 180"), and before the unit alone when
    the unit is the name (a cost type called "pts" counted in pts: "1,910 pts", never
    "pts 1,910 pts"); the unit singular after exactly one (:func:`unit_after`: "1 Can")."""
    if not unit:
        return f"{name} {amount}"
    if unit_is_name(name, unit):
        return f"{amount} {unit_after(amount, unit)}"
    return f"{name} {amount} {unit_after(amount, unit)}"


def unit_is_name(name: str, unit: str) -> bool:
    """Whether a kind of cost is named by its unit (a cost type called "pts" counted in pts),
    so that a report saying the unit need not say the name as well."""
    return bool(unit) and unit.strip().casefold() == name.strip().casefold()
