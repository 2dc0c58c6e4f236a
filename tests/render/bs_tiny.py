"""A small BattleScribe game system written to a temporary folder, and a roster of it rendered
to PDF: what the render tests of BattleScribe data share."""

from __future__ import annotations

import io

import pytest

from armybuilder.catalog import Library
from armybuilder.render import render_pdf
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster


def tiny_library(tmp_path_factory: pytest.TempPathFactory, gst: str, cat: str) -> Library:
    """A library of one game system (``gst``) with one catalogue (``cat``), uncached."""
    folder = tmp_path_factory.mktemp("bs") / "tiny"
    folder.mkdir()
    (folder / "tiny.gst").write_text(gst, encoding="utf-8")
    (folder / "army.cat").write_text(cat, encoding="utf-8")
    return Library([folder], use_cache=False).scan()


def render_legal(lib: Library, text: str, *, sheets: bool = True) -> bytes:
    """The PDF of roster ``text``, which must have no error."""
    roster = Roster.from_text(text, "<test>")
    ev = evaluate_roster(roster, lib.system(roster.system))
    assert not ev.errors, [i.message for i in ev.errors]
    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01", sheets=sheets)
    return out.getvalue()
