"""Where a message points for an empty value at the end of its line (``notes:``,
``- entry:``): at its key, on its own line, whichever loader read the roster. ruamel's
round-trip loader marks such a value where the next token starts (the key of the next line:
"line 8" for a problem on line 7), libyaml's node graph (a roster opened lazily, before its
round-trip document is built) right after the colon; so the same message named two places,
one of them wrong. An explicit null (``~``) is pointed at itself, as before; an empty value in
braces (``{count: }``) on its line (the two loaders give columns one apart)."""

from __future__ import annotations

from armybuilder import yamlio
from armybuilder.rosters import Roster

TEXT = (
    "format: 1\n"
    "system: s\n"
    "faction: f\n"
    "name: n\n"
    "selections:\n"
    "  - entry: a\n"
    "    notes:\n"  # line 7
    "    count:   \n"  # line 8
    "  - entry:\n"  # line 9
    "    x: [a, ]\n"
    "  - {entry: b, count: }\n"  # line 11
    "  - entry: c\n"
    "    name: ~\n"  # line 13
)
EMPTY = {
    ("selections", 0, "notes"): (7, 5),
    ("selections", 0, "count"): (8, 5),
    ("selections", 1, "entry"): (9, 5),
    ("selections", 3, "name"): (13, 11),
}
#: In braces: the line (each loader gives its own column, after the colon).
FLOW = ("selections", 2, "count")


def test_an_empty_value_is_located_at_its_key_by_both_loaders() -> None:
    doc = yamlio._load_round_trip_ruamel(TEXT, "r.yaml")
    nodes = yamlio.compose(TEXT, "r.yaml")
    for loc in yamlio.iter_paths(yamlio.to_plain(doc)):
        at = yamlio.locate(doc, loc)
        if loc == FLOW:
            assert at[0] == yamlio.locate_node(nodes, loc)[0] == 11
            continue
        assert at == yamlio.locate_node(nodes, loc), loc
        if loc in EMPTY:
            assert at == EMPTY[loc], loc


def test_a_roster_opened_lazily_points_where_an_eager_one_does() -> None:
    eager = Roster.from_text(TEXT, "r.yaml")
    lazy = Roster.from_text(TEXT, "r.yaml", lazy=True)  # (no worker: positions from libyaml)
    assert not lazy.doc_ready
    for loc, want in EMPTY.items():
        assert eager.position(loc) == want, loc
        assert lazy.position(loc) == want, loc
