"""Dice expressions (``2D6``, ``1D6+1``, ``D3``) and their exact probability distributions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


class DiceSyntaxError(ValueError):
    """Text that is not a dice expression."""


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice with ``sides`` sides, plus ``modifier``."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def from_text(cls, text: str) -> Dice:
        """Parse ``2D6``, ``D3``, ``1d6-3``."""
        m = _DICE.match(text)
        if not m:
            raise DiceSyntaxError(f"{text!r} is not a dice expression such as 2D6 or 1D6+1")
        count = int(m.group(1) or 1)
        sides = int(m.group(2))
        if count < 1 or sides < 2:
            raise DiceSyntaxError(f"{text!r}: need at least one die of at least two sides")
        mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        return cls(count, sides, mod)

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}D{self.sides}{mod}"

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of each total."""
        dist: dict[int, Fraction] = {0: Fraction(1)}
        face = Fraction(1, self.sides)
        for _ in range(self.count):
            nxt: dict[int, Fraction] = {}
            for total, p in dist.items():
                for f in range(1, self.sides + 1):
                    nxt[total + f] = nxt.get(total + f, Fraction(0)) + p * face
            dist = nxt
        return {t + self.modifier: p for t, p in sorted(dist.items())}

    def mean(self) -> Fraction:
        """The expected total."""
        return Fraction(self.count * (self.sides + 1), 2) + self.modifier

    def at_least(self, target: int) -> Fraction:
        """The chance of rolling ``target`` or more."""
        return sum((p for t, p in self.distribution().items() if t >= target), Fraction(0))
