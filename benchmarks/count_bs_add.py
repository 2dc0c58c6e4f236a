"""How many entries the builder's catalog offers at the top of a new roster of BattleScribe
data arrive, added as the builder adds them (:meth:`EditSession.add` with ``required``),
with errors of their own (under the new unit), and why.

    PYTHONPATH=$PWD python benchmarks/count_bs_add.py [--data ../shared/bsdata] [-v] [ID...]

``ID``: only these systems or factions. Each entry is added to a new roster of its own (what
``new`` makes: Battle Size, Detachment and the rest the data requires at the top). An
entry of the catalogue the roster hides (Legends while "Show Legends" is off, allies) is
counted apart: the builder's catalog does not offer it (:meth:`EditSession.options`), as
BattleScribe does not list it; it is not added. Each error is classed: a group's minimum with no
usable default (the player's choice), an option the data hides, an entry's minimum, other.
A count, not a timing: the same on any machine.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from armybuilder.catalog import CatalogIndex, Library, walk_groups
from armybuilder.rules.engine import Evaluation, Issue, Node
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[1]


def why(index: CatalogIndex, ev: Evaluation, node: Node | None, issue: Issue) -> str:
    """The class of an error under a unit just added."""
    if issue.code == "hidden-entry":
        return "an option the data hides, added for its minimum"
    if issue.code != "min-not-met":
        return issue.code
    if issue.constraint:
        return "an entry's minimum not met"
    entry = node.entry if node is not None else None
    group = (
        next((g for g in walk_groups(entry.groups) if g.id == issue.entry), None) if entry else None
    )
    if entry is None or group is None or node is None:
        return "a minimum of something else"
    if index.default_child(entry, group) is not None:
        return "a group with a usable default left short"
    shown = [
        c
        for c in index.children(entry)
        if c.group is not None and c.group.id == group.id and not ev.is_hidden(c.entry, node)
    ]
    return "a group without a usable default: the player's choice" + (
        "" if len(shown) > 1 else " (one option or none shown)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "bsdata")
    ap.add_argument("-v", "--verbose", action="store_true", help="each entry's errors")
    ap.add_argument("only", nargs="*")
    args = ap.parse_args()
    lib = Library([args.data]).scan()
    totals = collections.Counter[str]()
    classes = collections.Counter[str]()
    for sys_id in sorted(lib.systems):
        gs = lib.systems[sys_id]
        if gs.path.parent != args.data and args.data not in gs.path.parents:
            continue
        for faction in gs.offered_factions():
            if args.only and faction.id not in args.only and sys_id not in args.only:
                continue
            base = EditSession.new(lib, sys_id, faction.id, "T", autosave=False)
            # (as the catalogue lists them before any modifier: not hidden as written)
            written = {id(c) for c in base.index.children(None) if not c.entry.hidden}
            options = [(c, base.option_id((), c)) for c in base.options(())]
            base.close()
            listed = len(written)
            bad = 0
            seen = collections.Counter[str]()
            for child, option in options:
                s = EditSession.new(lib, sys_id, faction.id, "T", autosave=False)
                loc = s.add((), option, required=True)
                ev = s.evaluate()
                nodes = {n.loc: n for n in ev.root.walk()}
                own = [i for i in ev.issues if i.is_error and i.path[: len(loc)] == loc]
                kinds = {why(s.index, ev, nodes.get(i.path), i) for i in own}
                bad += bool(own)
                seen.update(kinds)
                if args.verbose and own:
                    print(f"  {child.entry.name} [{child.entry.id}]")
                    for i in own:
                        print(f"      {i.message}  ({why(s.index, ev, nodes.get(i.path), i)})")
                s.close()
            shown = len(options)
            hidden = len(written - {id(c) for c, _ in options})
            print(
                f"{sys_id}/{faction.id}: {listed} listed, {hidden} hidden by the "
                f"roster; of the {shown} offered, {bad} arrive with errors of their own"
            )
            for kind, n in seen.most_common():
                print(f"    {n:4d} {kind}")
            totals.update(listed=listed, hidden=hidden, shown=shown, bad=bad)
            classes.update(seen)
    print(
        f"all: {totals['listed']} listed, {totals['hidden']} hidden by the roster; "
        f"of the {totals['shown']} offered, {totals['bad']} arrive with errors of their own"
    )
    for kind, n in classes.most_common():
        print(f"    {n:4d} {kind}")


if __name__ == "__main__":
    main()
