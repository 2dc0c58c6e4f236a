"""A new 40k roster's header comment names what can be selected at the top level as the
builder's catalog offers it (issue 18), in its order: the units the data hides by its own
modifiers (the Legends units while the roster has no "Show Legends", the Greater Daemon of
the Unbound Adversaries) are not named. Before, only the catalog's ``hidden="true"`` was
read, and the comment of every new 40k roster (``armybuilder new`` and the builder's New
roster alike) offered "Greater Daemon (Unbound Adversaries)" and "Assault Squad [Legends]"
among its first lines, which, once added, say "... is not available to this roster".

Read from the real data in ``../shared/bsdata`` (skipped with a message where it is absent).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.session.operations import new_roster

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe 40k data is not at {BSDATA}"
)


@pytest.mark.parametrize(
    ("system", "faction"),
    [
        ("wh40k-10e", "imperium-adeptus-astartes-space-marines"),
        ("wh40k-10e", "xenos-orks"),
        ("gaslands", "gaslands"),
    ],
)
def test_the_header_names_only_what_the_catalog_offers(system: str, faction: str) -> None:
    lib = Library([BSDATA]).scan()
    gs = lib.system(system)
    roster = new_roster(gs, faction, "X")
    header = "\n".join(line for line in roster.dumps().splitlines() if line.startswith("#"))
    found = re.search(r"at the top level you can select: (.*?)(?: and (\d+) more)?\.\n", header)
    assert found is not None, header
    named = re.findall(r"([0-9a-f-]+) \(", found.group(1))
    s = EditSession.new(lib, system, faction, "X", autosave=False)
    offered = [s.option_id((), c) for c in s.options(())]
    s.close()
    assert named == offered[: len(named)], header
    assert len(named) + int(found.group(2) or 0) == len(offered), header
    assert "[Legends]" not in header and "Greater Daemon" not in header
