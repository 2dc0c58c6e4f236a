"""Cards printed from the real BattleScribe data (``../shared/bsdata``) hold every rule of what
they carry, as the data gives it.

Before: only a unit's own rules were printed. A Gaslands car's Harpoon, Grabber Arm and BFG say
"See Rules." in their stat line, and their rules were printed nowhere; a 40k Intercessor Squad
printed no text for "Pistol", "Assault" or "Heavy" (its weapons' keywords), and the Gladius Task
Force detachment's "Combat Doctrines" was missing from the PDF. Each roster is rendered once;
its text (pypdf) is compared with the rules of every selection of the evaluated roster. A new
Gaslands team (its bare Sponsor only) printed a page holding only the heading "Record sheets".
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.emphasis import plain
from armybuilder.render import render_pdf
from armybuilder.rules.engine import Evaluation, Node
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SM = "imperium-adeptus-astartes-space-marines"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not (BSDATA / "gaslands").is_dir() or not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"the BattleScribe test data (Gaslands, 40k) are not in {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA]).scan()
    mp.undo()


def _pages(ev: Evaluation) -> list[str]:
    from pypdf import PdfReader

    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01")
    return [p.extract_text() for p in PdfReader(io.BytesIO(out.getvalue())).pages]


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", plain(text))


def _walk(node: Node) -> Iterator[Node]:
    for c in node.children:
        yield c
        yield from _walk(c)


def _missing_rules(ev: Evaluation, pages: list[str]) -> list[tuple[str, str]]:
    """(selection, rule) for each rule text of a selection of the roster that the PDF lacks."""
    printed = _squeezed("".join(pages))
    missing = []
    for node in _walk(ev.root):
        for rule_id in node.entry.rules if node.entry is not None else ():
            rule = ev.index.rules.get(rule_id)
            if rule is not None and rule.description and _squeezed(rule.description) not in printed:
                missing.append((ev.name(node), rule.name))
    return missing


def _choose(s: EditSession, loc: tuple[str | int, ...], name: str) -> tuple[str | int, ...]:
    option = next(c for c in s.options(loc) if c.entry.name == name)
    return s.add(loc, s.option_id(loc, option))


def test_a_gaslands_car_prints_the_rules_its_weapons_refer_to(library: Library) -> None:
    s = EditSession.new(library, "gaslands", "gaslands", "Road Warriors", autosave=False)
    car = _choose(s, (), "Car")
    for weapon in ("Harpoon", "Grabber Arm", "BFG", "Machine Gun"):
        _choose(s, car, weapon)
    ev = s.evaluate()
    pages = _pages(ev)
    s.close()
    assert _missing_rules(ev, pages) == []
    text = " ".join(" ".join(pages).split())
    assert "See Rules." in text
    for name in ("Harpoon:", "Grabber Arm:", "BFG:"):
        assert name in text


def test_a_new_gaslands_team_prints_one_page_that_says_it_is_empty(library: Library) -> None:
    s = EditSession.new(library, "gaslands", "gaslands", "Road Warriors", autosave=False)
    ev = s.evaluate()
    assert [ev.name(n) for n in ev.root.children] == ["Sponsor"]
    pages = _pages(ev)
    s.close()
    assert len(pages) == 1, pages
    assert "Record sheets" not in pages[0] and "This roster is empty" in pages[0]


def test_a_40k_squad_and_its_detachment_print_every_rule_of_the_data(library: Library) -> None:
    from armybuilder.interop.battlescribe.rosfile import new_session, select, session_yaml
    from armybuilder.rosters import Roster
    from armybuilder.rules.engine import evaluate_roster

    gs = library.system("wh40k-10e")
    session = new_session(gs, SM)  # type: ignore[arg-type]
    chosen = {sel.option.entry.name: sel for sel in session.forces[0].selections}
    select(session, "d2dc-693e-b491-b16d", chosen["Detachment"])  # Gladius Task Force
    select(session, "8da0-4570-c3c-819f")  # Intercessor Squad
    roster = Roster.from_text(session_yaml(session, gs, SM), "<test>")  # type: ignore[arg-type]
    ev = evaluate_roster(roster, gs)
    pages = _pages(ev)
    assert _missing_rules(ev, pages) == []
    text = " ".join(" ".join(pages).split())
    for name in ("Combat Doctrines:", "Pistol:", "Assault:", "Heavy:"):
        assert name in text
