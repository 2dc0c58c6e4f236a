"""A roster's header is checked by hand when it is plain (issue 17: ``validate`` of one roster
starts without building pydantic's validators); it must read exactly as pydantic reads it, and
leave anything less plain (and every refusal, with its message) to pydantic.

Hypothesis writes headers as people do, right and wrong: every key of the header, extra keys,
ids with capitals or spaces, limits of every kind of number, ``format`` as text.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from armybuilder.model.roster import RosterHeader, _fast_header, read_header

IDS = st.sampled_from(["demo-wars", "red-army", "a", "x-1", "Red-Army", "red army", "-a", "é", ""])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    IDS,
)
LIMIT_VALUES = st.one_of(
    st.integers(-10, 2_000_000_000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
)

HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "format": st.one_of(st.sampled_from([1, 2, 3, 0, "1", 1.0, True]), SCALARS),
        "system": st.one_of(IDS, SCALARS),
        "faction": st.one_of(IDS, st.lists(IDS, max_size=3), SCALARS),
        "name": st.one_of(st.text(max_size=8), SCALARS),
        "limits": st.one_of(
            st.dictionaries(st.one_of(IDS, st.integers(0, 3)), LIMIT_VALUES, max_size=3),
            SCALARS,
        ),
        "force": st.one_of(IDS, SCALARS),
        "notes": st.one_of(st.text(max_size=8), SCALARS),
        "x-extra": SCALARS,
        "colour": SCALARS,
    },
)


def _pydantic(data: dict[str, Any]) -> RosterHeader | str:
    try:
        return RosterHeader.model_validate(data)
    except ValidationError as exc:
        return str(exc)


@settings(max_examples=400, deadline=None)
@given(HEADERS)
def test_the_hand_check_reads_as_pydantic_reads(data: dict[str, Any]) -> None:
    fast = _fast_header(data)
    slow = _pydantic(data)
    if fast is None:
        # Left to pydantic: read_header says what pydantic says, refusals included.
        if isinstance(slow, str):
            try:
                read_header(data)
            except ValidationError as exc:
                assert str(exc) == slow
            else:
                raise AssertionError("read_header accepted what pydantic refuses")
        else:
            assert read_header(data) == slow
        return
    assert not isinstance(slow, str), f"hand check accepted what pydantic refuses: {slow}"
    assert fast == slow
    assert fast.model_dump() == slow.model_dump()
    assert fast.model_fields_set == slow.model_fields_set
    assert type(fast.faction) is type(slow.faction)
    assert all(type(v) is float for v in fast.limits.values())


def test_an_ordinary_header_takes_the_hand_check() -> None:
    data = {
        "format": 1,
        "system": "infantry-ops",
        "faction": "inner-sphere",
        "name": "Regiment",
        "limits": {"kg": 500000},
    }
    fast = _fast_header(data)
    assert fast is not None
    assert fast.limits == {"kg": 500000.0}
    assert fast == RosterHeader.model_validate(data)
    # An extension key, or anything to convert, goes to pydantic.
    assert _fast_header({**data, "x-club": "north"}) is None
    assert _fast_header({**data, "format": "1"}) is None
    assert _fast_header({**data, "limits": {"kg": True}}) is None
