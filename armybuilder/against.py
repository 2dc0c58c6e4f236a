"""``armybuilder show FILE --against OTHER``: what a roster's units do to another's.

``OTHER`` is a roster file of the same game system, or the id of a top-level catalog entry of
that system (``FACTION:ENTRY`` picks the faction; a bare ``ENTRY`` is looked up in the other
factions first, then the roster's own), which is then fielded alone with its defaults and the
minimum its catalog asks for. The odds come from the system's rules module
(:meth:`~armybuilder.plugin.SystemRules.against`); this module names no game system and
imports neither Textual nor WeasyPrint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .catalog import GameSystem, Library
from .editing import add_entry
from .errors import ArmybuilderError
from .plugin import Matchup
from .report import load_evaluated
from .rosters import Roster
from .rules.engine import Evaluation, evaluate_roster, format_loc


class OpponentError(ArmybuilderError):
    """``--against`` names neither a readable roster of the system nor one of its entries."""


def opponent(lib: Library, gs: GameSystem, roster: Roster, other: str) -> Evaluation:
    """The evaluated opponent ``other`` names (a roster file, or an entry id)."""
    path = Path(other)
    if path.is_file():
        other_roster, _, other_ev = load_evaluated(lib, other)
        if other_roster.system != gs.id:
            raise OpponentError(
                f"{other} is a {other_roster.system} roster; --against needs one of "
                f"{gs.id} (the same game system)"
            )
        return other_ev
    faction_id, _, entry_id = other.rpartition(":")
    factions = [faction_id] if faction_id else [f for f in gs.factions if f != roster.faction]
    if not faction_id:
        factions.append(roster.faction)
    for fid in factions:
        try:
            index = gs.index(fid)
        except ArmybuilderError:
            continue
        entry = next((c.entry for c in index.roots if c.entry.id == entry_id), None)
        if entry is None:
            continue
        made = Roster.new(gs.id, fid, entry.name, {})
        add_entry(made, index, (), entry_id, fill=True)
        return evaluate_roster(made, gs)
    raise OpponentError(
        f"--against {other!r}: no such roster file, and no top-level entry {entry_id!r} in "
        f"{gs.name} ({'faction ' + faction_id if faction_id else 'any faction'}); "
        f"`armybuilder catalogs {gs.id} FACTION` lists the entries"
    )


def matchups(ev: Evaluation, other: Evaluation) -> list[Matchup]:
    return ev.rules.against(ev, other) if ev.rules is not None else []


def against_json(ev: Evaluation, other: Evaluation, rows: list[Matchup]) -> dict[str, Any]:
    """The ``against`` block of ``show --format json`` (documented in the README)."""
    return {
        "opponent": {
            "system": other.roster.system,
            "faction": other.roster.faction,
            "name": other.roster.name,
        },
        "matchups": [
            {
                "attacker": ev.name(m.attacker),
                "attacker_path": format_loc(m.attacker.loc),
                "target": m.target,
                "key": m.key,
                "label": m.label,
                "value": m.value,
                "text": m.text,
                "source": m.source,
            }
            for m in rows
        ],
    }


def against_text(ev: Evaluation, other: Evaluation, rows: list[Matchup]) -> list[str]:
    """The lines ``show`` prints: grouped by attacking unit, then by target."""
    lines = [f"Against {other.roster.name} ({other.index.faction.name}):"]
    if not rows:
        lines.append("  (the rules module computes no odds for these units)")
        return lines
    attacker = target = None
    for m in rows:
        if m.attacker is not attacker:
            attacker, target = m.attacker, None
            lines.append(f"  {ev.label(m.attacker)}")
        if m.target != target:
            target = m.target
            lines.append(f"    vs {m.target}:")
        lines.append(f"      {m.label}: {m.text}")
    return lines
