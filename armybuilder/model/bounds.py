"""The bounds on numbers in catalogs and rosters.

Every number a user types is bounded, far beyond any real army, so that a typo (`count:
1000000000`), a hostile file (a 300-digit count) or `.nan` is reported with its file, line and
column instead of overflowing, hanging or silently switching a rule off. The figures are
documented in ``docs/catalog-format.md`` and the README (Roster files).

The figures alone (no pydantic: the roster loader reads them); the pydantic field types
built on them are in :mod:`armybuilder.model.fields`.
"""

from __future__ import annotations

#: Most copies one selection may stand for (``count:``), and the largest min/max a group or
#: an entry's ``max_count`` may give.
MAX_COUNT = 10_000
#: Largest cost of one entry, in any cost type, either sign (a modifier's cost change too).
MAX_COST = 1_000_000
#: Largest cost limit of a roster (and of a cost type's default limit); limits are >= 0.
MAX_LIMIT = 1_000_000_000
#: Largest other number in a catalog: constraint and condition values, modifier values,
#: profile characteristics.
MAX_NUMBER = 1_000_000_000
#: Most times a repeating modifier applies.
MAX_REPEATS = 1_000
