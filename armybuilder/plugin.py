"""The interface between the generic engine and a game system's own rules.

A game system's ``system.yaml`` names its rules module (``module: my_system``). The module
is ``armybuilder.rules.systems.<name>``, or a module the user chose to trust (an installed
``armybuilder.rules`` entry point, or one listed in ``ARMYBUILDER_RULES_MODULES``; a catalog
alone never makes anything else import), and exposes ``RULES``, an instance of a
:class:`SystemRules` subclass. The engine calls :meth:`SystemRules.analyse` after its
generic checks (and :meth:`SystemRules.explain_not_allowed` for an entry put where it cannot
go); the catalog loader calls :meth:`SystemRules.check_catalog` so that system-specific data
(a weapon's printed range, a damage value) is checked with file and line like everything else.
``armybuilder show FILE --against OTHER`` calls :meth:`SystemRules.against` for the exact odds
of what one roster's units do to another's (:class:`Matchup` rows).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ArmybuilderError

if TYPE_CHECKING:
    from .catalog import CatalogIndex
    from .model.catalog import Entry, FactionFile, SystemFile
    from .rules.engine import Evaluation, Node
    from .rules.state import StateKey

#: (which file: "system" or "faction", location inside it, message)
CatalogFinding = tuple[str, list[str | int], str]


@dataclass(frozen=True)
class Matchup:
    """What one selection of a roster does to one unit (or profile) of another roster, as
    :meth:`SystemRules.against` answers it: a JSON-ready ``value`` (exact odds as fraction
    strings) and a ``text`` a player reads."""

    #: The attacking selection (a node of the attacker's evaluation).
    attacker: Node
    #: The name of what is attacked (a unit of the other roster).
    target: str
    #: A stable id for the line (e.g. ``"primary"``), unique per attacker and target.
    key: str
    label: str
    value: Any
    text: str
    source: str = ""


class SystemRules:
    """Base class of a game system's rules module. Override what the system needs."""

    #: The system id this module serves (informational).
    system_id: str = ""

    #: Whether edits may be re-evaluated by replaying the subtrees they did not touch. The
    #: module promises that :meth:`extra_cost` of a selection depends only on that selection,
    #: what lies under it and the selections above it, and that whatever :meth:`analyse`
    #: computes inside :meth:`Evaluation.subtree` depends only on that subtree, the names
    #: above it and the call's ``key``. What the analysis works out outside those calls
    #: (roster-wide figures, rules across units) is worked out anew at every evaluation; a
    #: module that wraps nothing still gains the engine's replayed checks and cost totals.
    subtree_local: bool = False

    def analyse(self, ev: Evaluation) -> None:
        """Add the system's computed values and issues to an evaluation. Where
        :attr:`Evaluation.values_wanted` is false (``validate``: issues and costs only), values
        that no issue depends on may be left out; every issue must stay the same."""

    def extra_cost(self, ev: Evaluation, node: Node, cost_type: str) -> float:
        """A cost the catalog cannot express, added to one copy of ``node`` (e.g. experience
        bought per team). Called once per selection and cost type; the default adds nothing."""
        return 0.0

    def state_keys(self) -> tuple[StateKey, ...]:
        """The campaign state keys a selection's ``state:`` may hold in this system (see
        :mod:`armybuilder.rules.state`). The engine checks every selection's state against
        them; the default, no keys, means the system declares none and nothing is checked."""
        return ()

    def explain_not_allowed(
        self, ev: Evaluation, entry: Entry, parent: Node, node: Node
    ) -> tuple[str, str] | None:
        """Why ``entry`` (a known entry a roster put at ``node``) cannot be selected under
        ``parent`` (the root: at the top of the roster), in the system's own terms.

        Return ``(message, source)`` to report as the ``entry-not-allowed`` issue instead of
        the engine's list of the options there, or ``None`` to keep that. Called while the
        tree is built: ``ev`` has its catalog and roster but no computed values yet."""
        return None

    def against(self, ev: Evaluation, other: Evaluation) -> list[Matchup]:
        """The exact odds of what ``ev``'s units do to ``other``'s (a roster of the same
        system), for ``armybuilder show FILE --against OTHER``. Computed only when asked
        (never in :meth:`analyse`). The default: nothing to say."""
        return []

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        """Problems with system-specific catalog data (unparseable profiles...)."""
        return ()


_LOADED: dict[str, SystemRules | None] = {}

#: The entry point group through which an installed package offers rules modules.
ENTRY_POINT_GROUP = "armybuilder.rules"
#: The environment variable listing further modules the user trusts (comma-separated).
TRUST_VARIABLE = "ARMYBUILDER_RULES_MODULES"

_BUNDLED = "armybuilder.rules.systems"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


class RulesModuleError(ArmybuilderError):
    """A system names a rules module that cannot be imported or has no ``RULES``."""


def _entry_point(name: str) -> Any:
    """The installed ``armybuilder.rules`` entry point of that name (or for that module)."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if name in (ep.name, ep.value, ep.value.partition(":")[0]):
            return ep
    return None


def _trusted(name: str) -> bool:
    listed = os.environ.get(TRUST_VARIABLE, "")
    return name in {x.strip() for x in listed.split(",") if x.strip()}


def _refusal(name: str) -> RulesModuleError:
    return RulesModuleError(
        f"rules module {name!r} is not loaded: a catalog may name a module of "
        f"{_BUNDLED} by its name; any other module runs only when you "
        f"trust it, by installing it as an {ENTRY_POINT_GROUP!r} entry point or listing it "
        f"in {TRUST_VARIABLE} (docs/catalog-format.md, Rules modules)"
    )


def load_rules(name: str | None) -> SystemRules | None:
    """Import a rules module by the name a ``system.yaml`` gives (``None``: no module).

    A catalog is data, often someone else's: it must not make this program import whatever
    it names. So ``name`` is a module of :mod:`armybuilder.rules.systems` (by its bare name
    or the full dotted name), an installed entry point of the ``armybuilder.rules`` group
    (by its name or its module), or a module the user lists in ``ARMYBUILDER_RULES_MODULES``.
    Anything else is refused before any import happens.
    """
    if not name:
        return None
    if name in _LOADED:
        return _LOADED[name]
    loaded: Any
    if not _DOTTED.match(name):
        ep = _entry_point(name)
        if ep is None:
            raise RulesModuleError(
                f"rules module {name!r} is neither a Python module name nor the name of an "
                f"installed {ENTRY_POINT_GROUP!r} entry point"
            )
        loaded = _load_entry_point(ep, name)
    elif _NAME.match(name) and importlib.util.find_spec(f"{_BUNDLED}.{name}") is not None:
        loaded = _import(f"{_BUNDLED}.{name}", name)
    elif name.startswith(f"{_BUNDLED}.") and _NAME.match(name[len(_BUNDLED) + 1 :]):
        loaded = _import(name, name)
    elif (ep := _entry_point(name)) is not None:
        loaded = _load_entry_point(ep, name)
    elif _trusted(name):
        loaded = _import(name, name)
    else:
        raise _refusal(name)
    rules = loaded if isinstance(loaded, SystemRules) else getattr(loaded, "RULES", None)
    if not isinstance(rules, SystemRules):
        raise RulesModuleError(f"rules module {name!r} has no RULES (a SystemRules instance)")
    _LOADED[name] = rules
    return rules


def _load_entry_point(ep: Any, name: str) -> Any:
    try:
        return ep.load()
    except Exception as exc:
        raise RulesModuleError(f"rules module {name!r} cannot be loaded: {exc}") from None


def _import(dotted: str, name: str) -> Any:
    try:
        return importlib.import_module(dotted)
    except ImportError as exc:
        raise RulesModuleError(f"rules module {name!r} cannot be imported: {exc}") from None
