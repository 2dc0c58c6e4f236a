"""Dice expressions (``2D6``, ``1D6+1``, ``D3``) and their exact probability distributions."""

from __future__ import annotations

import re
from collections.abc import Iterable
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


# --------------------------------------------------------------------------- distributions
#
# Helpers for exact discrete distributions, written as ``{outcome: probability}`` with
# :class:`~fractions.Fraction` probabilities. They compose by convolution (sums of independent
# variables) and mixture (a variable chosen by another roll), so a rules module can build the
# exact distribution of a compound roll without sampling.

Distribution = dict[int, Fraction]


def point(value: int = 0) -> Distribution:
    """A certain outcome."""
    return {value: Fraction(1)}


def uniform(sides: int, start: int = 1) -> Distribution:
    """One fair die with ``sides`` faces numbered from ``start``."""
    if sides < 1:
        raise ValueError("a die needs at least one face")
    p = Fraction(1, sides)
    return {start + i: p for i in range(sides)}


def convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent variables."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


def convolve_power(dist: Distribution, n: int) -> Distribution:
    """The distribution of the sum of ``n`` independent copies (``n = 0``: always 0)."""
    if n < 0:
        raise ValueError("n must not be negative")
    result = point(0)
    base = dist
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def mixture(parts: Iterable[tuple[Fraction, Distribution]]) -> Distribution:
    """A variable drawn from one of several distributions, each chosen with its weight."""
    out: Distribution = {}
    for weight, dist in parts:
        if not weight:
            continue
        for x, p in dist.items():
            out[x] = out.get(x, Fraction(0)) + weight * p
    return dict(sorted(out.items()))


def bernoulli(p: Fraction) -> Distribution:
    """1 with probability ``p``, else 0."""
    return dict(sorted({0: 1 - p, 1: p}.items())) if 0 < p < 1 else point(1 if p >= 1 else 0)


def binomial(n: int, p: Fraction) -> Distribution:
    """The number of successes in ``n`` independent trials of chance ``p``."""
    return convolve_power(bernoulli(p), n)


def expectation(dist: Distribution) -> Fraction:
    """The mean of a distribution."""
    return sum((x * p for x, p in dist.items()), Fraction(0))


def at_least_table(dist: Distribution, start: int = 1) -> dict[int, Fraction]:
    """``{k: P(X >= k)}`` for every ``k`` from ``start`` up to the largest possible outcome."""
    if not dist:
        return {}
    top = max(dist)
    table: dict[int, Fraction] = {}
    running = Fraction(0)
    for k in range(top, start - 1, -1):
        running += dist.get(k, Fraction(0))
        table[k] = running
    return dict(sorted(table.items()))


def threshold(dist: Distribution, at: int) -> Distribution:
    """1 where the variable reaches ``at``, else 0 (e.g. "taken out once damage >= hits")."""
    hit = sum((p for x, p in dist.items() if x >= at), Fraction(0))
    return bernoulli(hit)
