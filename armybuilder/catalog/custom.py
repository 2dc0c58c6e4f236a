"""The entries a roster defines for itself (its ``custom:`` mapping), checked like a catalog
file so that the engine can add them to the faction's index."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.messages import describe_errors
from .checks import check_references, pydantic_form
from .index import Faction, GameSystem

if TYPE_CHECKING:
    from ..model.catalog import CustomCatalog

#: A problem with a roster's own entries: (location inside ``custom:``, message).
CustomProblem = tuple[list[str | int], str]

_CUSTOM_LISTS = ("categories", "rules", "entries", "shared_entries")


def custom_catalog(
    raw: Any, here: Path, gs: GameSystem, faction_id: str
) -> tuple[CustomCatalog | None, list[CustomProblem]]:
    """A roster's own entries (its ``custom:`` mapping, ``raw``, read from the file ``here``)
    for a faction of ``gs``, checked like a catalog: the catalog to add to the faction's index
    (``None`` when nothing is usable) and the problems, each as (location inside ``custom:``,
    message), in the order found.

    A bad item of one of the lists is reported and left out; the others are kept (and an item
    that needed the one left out is reported in turn). Only a ``custom:`` that is not a
    mapping of lists is dropped whole.
    """
    issues: list[CustomProblem] = []

    def report(loc: Sequence[str | int], msg: str) -> None:
        issues.append((list(loc), msg))

    # (position in the roster's list, item) for every item still kept, per list
    kept: dict[str, list[tuple[int, Any]]] = {}
    if isinstance(raw, dict):
        kept = {
            key: list(enumerate(raw[key]))
            for key in _CUSTOM_LISTS
            if isinstance(raw.get(key), list)
        }

    def build() -> dict[str, Any]:
        out = dict(raw) if isinstance(raw, dict) else raw
        for key, items in kept.items():
            out[key] = [item for _, item in items]
        return out

    def original(loc: Sequence[str | int]) -> list[str | int]:
        """A location in the catalog built from the kept items -> the roster's own."""
        loc = list(loc)
        if len(loc) >= 2 and loc[0] in kept and isinstance(loc[1], int):
            items = kept[str(loc[0])]
            if 0 <= loc[1] < len(items):
                loc[1] = items[loc[1]][0]
        return loc

    def drop(locs: Iterable[Sequence[str | int]]) -> bool:
        """Leave out the items these (built-catalog) locations fall in; False if one is not
        inside an item (the whole ``custom:`` is then unusable)."""
        bad: dict[str, set[int]] = {}
        whole = False
        for loc in locs:
            if len(loc) >= 2 and loc[0] in kept and isinstance(loc[1], int):
                bad.setdefault(str(loc[0]), set()).add(loc[1])
            else:
                whole = True
        for key, idx in bad.items():
            kept[key] = [item for i, item in enumerate(kept[key]) if i not in idx]
        return not whole

    from pydantic import ValidationError

    from ..model.catalog import CustomCatalog

    gs = pydantic_form(gs)  # the rules module's checks read pydantic models
    faction = gs.factions.get(faction_id)
    for _ in range(64):  # each pass leaves out at least one item; lists are bounded
        data = build()
        try:
            custom = CustomCatalog.model_validate(data)
        except ValidationError as exc:
            locs = []
            for loc, msg in describe_errors(exc, data):
                report(original(loc), msg)
                locs.append(loc)
            if not drop(locs):
                return None, issues
            continue
        base = Faction(faction.path, faction.model, list(faction.extensions)) if faction else None
        found = [
            (loc, msg)
            for path, loc, msg in check_references(gs, base, extra=[(here, custom)])
            if path == here
        ]
        rules = gs.rules
        if not found and rules is not None and faction is not None:
            probe = FactionFileLike(custom)
            found = [
                (loc, msg)
                for _, loc, msg in rules.check_catalog(
                    gs.model,
                    probe,  # type: ignore[arg-type]
                    gs.index_with(faction.id, custom),
                )
            ]
        if not found:
            return custom, issues
        for loc, msg in found:
            report(original(loc), msg)
        if not drop(loc for loc, _ in found):
            return None, issues
    return None, issues


class FactionFileLike:
    """Lets a system's catalog check read a roster's custom entries like a faction file."""

    def __init__(self, custom: CustomCatalog) -> None:
        self.entries = custom.entries
        self.shared_entries = custom.shared_entries
        self.categories = custom.categories
        self.rules = custom.rules
