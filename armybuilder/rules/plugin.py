"""The interface between the generic engine and a game system's own rules.

A game system's ``system.yaml`` names its rules module (``module: my_system``). The module
is ``armybuilder.rules.systems.<name>`` (or any importable dotted path, for systems a user
installs) and exposes ``RULES``, an instance of a :class:`SystemRules` subclass. The engine
calls :meth:`SystemRules.analyse` after its generic checks; the catalog loader calls
:meth:`SystemRules.check_catalog` so that system-specific data (a weapon's printed range, a
damage value) is checked with file and line like everything else.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import ArmybuilderError

if TYPE_CHECKING:
    from ..catalogs import CatalogIndex
    from ..model.catalog import FactionFile, SystemFile
    from .engine import Evaluation, Node
    from .state import StateKey

#: (which file: "system" or "faction", location inside it, message)
CatalogFinding = tuple[str, list[str | int], str]


class SystemRules:
    """Base class of a game system's rules module. Override what the system needs."""

    #: The system id this module serves (informational).
    system_id: str = ""

    #: Whether everything :meth:`analyse` reports about a selection (and :meth:`extra_cost`)
    #: depends only on that selection, what lies under it and the names above it, and the
    #: analysis wraps each formation in :meth:`Evaluation.subtree`: edits are then
    #: re-evaluated by replaying the subtrees they did not touch.
    subtree_local: bool = False

    def analyse(self, ev: Evaluation) -> None:
        """Add the system's computed values and issues to an evaluation."""

    def extra_cost(self, ev: Evaluation, node: Node, cost_type: str) -> float:
        """A cost the catalog cannot express, added to one copy of ``node`` (e.g. experience
        bought per team). Called once per selection and cost type; the default adds nothing."""
        return 0.0

    def state_keys(self) -> tuple[StateKey, ...]:
        """The campaign state keys a selection's ``state:`` may hold in this system (see
        :mod:`armybuilder.rules.state`). The engine checks every selection's state against
        them; the default, no keys, means the system declares none and nothing is checked."""
        return ()

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        """Problems with system-specific catalog data (unparseable profiles...)."""
        return ()


_LOADED: dict[str, SystemRules | None] = {}


class RulesModuleError(ArmybuilderError):
    """A system names a rules module that cannot be imported or has no ``RULES``."""


def load_rules(name: str | None) -> SystemRules | None:
    """Import a rules module by the name a ``system.yaml`` gives (``None``: no module)."""
    if not name:
        return None
    if name in _LOADED:
        return _LOADED[name]
    dotted = name if "." in name else f"{__package__}.systems.{name}"
    try:
        module = importlib.import_module(dotted)
    except ImportError as exc:
        raise RulesModuleError(f"rules module {name!r} cannot be imported: {exc}") from None
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, SystemRules):
        raise RulesModuleError(f"rules module {name!r} has no RULES (a SystemRules instance)")
    _LOADED[name] = rules
    return rules
