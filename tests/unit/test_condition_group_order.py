"""A condition group is decided by its first condition (or group) that settles it.

``Evaluation._group_holds`` reads a group's conditions, then its groups, in order, and stops
at the first that fails an `and` or holds an `or` (as ``modifier_applies`` does with a
modifier's own conditions): its answer is that of every condition and group read, and a
condition after the deciding one is never read (no count asked for, no read traced)."""

from __future__ import annotations

import random
from typing import Any

from armybuilder.model.catalog import Condition, ConditionGroup
from armybuilder.rules.engine import Evaluation


class _Reader:
    """Stands in for an evaluation: each condition's answer is set by its value, and every
    condition read is logged."""

    def __init__(self, answers: dict[int, bool]) -> None:
        self.answers = answers
        self.read: list[int] = []

    def condition_holds(self, cond: Condition, context: Any, owner: str | None) -> bool:
        self.read.append(int(cond.value))
        return self.answers[int(cond.value)]

    def _group_holds(self, group: ConditionGroup, context: Any, owner: str | None) -> bool:
        return Evaluation._group_holds(self, group, context, owner)  # type: ignore[arg-type]


def _whole(group: ConditionGroup, answers: dict[int, bool]) -> bool:
    """The group's answer with every condition and group in it read."""
    results = [answers[int(c.value)] for c in group.conditions]
    results += [_whole(g, answers) for g in group.groups]
    if not results:
        return True
    return all(results) if group.type == "and" else any(results)


def _random_group(rng: random.Random, depth: int, counter: list[int]) -> ConditionGroup:
    conditions = []
    for _ in range(rng.randint(0, 3)):
        counter[0] += 1
        conditions.append(Condition(type="at-least", value=counter[0], child="x"))
    groups = [
        _random_group(rng, depth + 1, counter) for _ in range(rng.randint(0, 2 if depth < 3 else 0))
    ]
    return ConditionGroup(type=rng.choice(["and", "or"]), conditions=conditions, groups=groups)


def test_the_first_condition_that_decides_ends_the_look() -> None:
    fails_first = ConditionGroup(
        type="and",
        conditions=[Condition(type="at-least", value=1), Condition(type="at-least", value=2)],
    )
    reader = _Reader({1: False, 2: True})
    assert reader._group_holds(fails_first, None, None) is False
    assert reader.read == [1]
    holds_first = ConditionGroup(
        type="or",
        conditions=[Condition(type="at-least", value=1)],
        groups=[ConditionGroup(conditions=[Condition(type="at-least", value=2)])],
    )
    reader = _Reader({1: True, 2: False})
    assert reader._group_holds(holds_first, None, None) is True
    assert reader.read == [1]
    assert _Reader({})._group_holds(ConditionGroup(type="or"), None, None) is True


def test_random_groups_answer_as_when_every_condition_is_read() -> None:
    rng = random.Random(18)
    skipped = 0
    for _ in range(400):
        counter = [0]
        group = _random_group(rng, 0, counter)
        answers = {i: rng.random() < 0.5 for i in range(1, counter[0] + 1)}
        reader = _Reader(answers)
        assert reader._group_holds(group, None, None) is _whole(group, answers), group
        # Read in order, each at most once: a prefix of the conditions in document order.
        assert reader.read == sorted(set(reader.read))
        skipped += counter[0] - len(reader.read)
    assert skipped > 100  # (the groups do get decided early)
