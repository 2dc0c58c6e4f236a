"""A platoon seen for the first time (issue 17, ``validate`` of one-off rosters): the shortcuts
its cold evaluation takes must give exactly what the plain computation gives.

* The "attack values by troopers left" table takes the weakest troopers out of a pool that
  grows by one trooper at a time (:class:`_Weakest`) instead of sorting the pool for every
  count: it must take the same troopers (by weight, ties in loss order) and sum their DVs in
  the same order as :func:`_exclude` (Infantry Operations, Infantry Attacks: gun crews and a
  mechanised squad's driver do not attack).
* The odds sum fractions over their common denominator at once (:func:`_exact_sum`): the
  same exact numbers as adding them one by one; and their means divide numerator by
  denominator themselves: the same floats as ``float()``, so the same two decimals.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from armybuilder.rules.systems.infantry_ops import (
    ATTACK_TYPES,
    Contribution,
    _exclude,
    _Weakest,
)
from armybuilder.rules.systems.infantry_ops_odds import (
    TWO_D6,
    _exact_sum,
    at_least,
    avg,
    avg_if_hit,
    damage,
    to_hit,
)

# DVs from a small set, so that troopers of equal weight but different DVs per attack type
# are common (which of them is taken out first changes the table).
_DV = st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 0.1, 1 / 3])
_TROOPER = st.builds(
    lambda dvs, arm, support: Contribution(
        dict(zip(ATTACK_TYPES, dvs, strict=True)),
        dict(zip(ATTACK_TYPES, arm, strict=True)),
        1,
        support,
    ),
    st.lists(_DV, min_size=len(ATTACK_TYPES), max_size=len(ATTACK_TYPES)),
    st.lists(_DV, min_size=len(ATTACK_TYPES), max_size=len(ATTACK_TYPES)),
    st.booleans(),
)


@given(st.lists(_TROOPER, min_size=1, max_size=30), st.integers(-1, 8), st.booleans())
def test_weakest_takes_out_what_exclude_takes_out(
    order: list[Contribution], crew: int, capped: bool
) -> None:
    weakest = _Weakest()
    size = len(order)
    for n in range(1, size + 1):
        m = min(crew, n) if capped else crew
        got = weakest.add(order[size - n], m)
        want = _exclude(order[size - n :], m)[0]
        assert got == want, (n, m)
        # the same floats, not only equal ones (the sums run in the same order)
        assert [got[a].hex() for a in ATTACK_TYPES] == [want[a].hex() for a in ATTACK_TYPES]


def test_weakest_breaks_ties_in_loss_order() -> None:
    # Two troopers of equal weight (1.0): the one earlier in the loss order goes first.
    zero = dict.fromkeys(ATTACK_TYPES, 0.0)
    first = Contribution({**zero, ATTACK_TYPES[0]: 1.0}, zero, 1, False)
    second = Contribution({**zero, ATTACK_TYPES[1]: 1.0}, zero, 1, False)
    weakest = _Weakest()
    weakest.add(second, 1)
    got = weakest.add(first, 1)
    assert got[ATTACK_TYPES[0]] == 1.0 and got[ATTACK_TYPES[1]] == 0.0


@given(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=50), max_size=12))
def test_exact_sum_is_the_sum(ps: list[Fraction]) -> None:
    got = _exact_sum(ps)
    assert got == sum(ps, Fraction(0))
    assert str(got) == str(sum(ps, Fraction(0)))


def test_to_hit_and_odds_read_the_2d6_table() -> None:
    # Infantry Operations, Infantry Attacks: the attack hits on 2D6 >= the target number.
    assert to_hit(2) == 1
    assert to_hit(7) == Fraction(21, 36)
    assert to_hit(8) == Fraction(5, 12)
    assert to_hit(13) == 0
    assert to_hit(7) == sum((p for t, p in TWO_D6.items() if t >= 7), Fraction(0))
    d = damage(10, 8)
    assert at_least(d, 1) == to_hit(8)  # AV 10 hits at least one trooper when it hits
    assert avg_if_hit(damage(0, 8)) == "0"


_DIST = st.dictionaries(
    st.integers(0, 40), st.fractions(min_value=0, max_value=1, max_denominator=1296), max_size=12
)


@given(_DIST)
def test_means_are_the_float_means(d: dict[int, Fraction]) -> None:
    assert avg(d) == f"{sum(k * float(p) for k, p in d.items()):.2f}"
    hit = sum((p for k, p in d.items() if k > 0), Fraction(0))
    want = f"{sum(k * float(p) for k, p in d.items() if k > 0) / float(hit):.2f}" if hit else "0"
    assert avg_if_hit(d) == want
