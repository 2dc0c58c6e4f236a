"""Starship Troopers: profiles understood, trait interactions checked, damage computed.

The Characteristics chapter of the rules defines how every model and weapon is described but
prints only two model profiles and one weapon; players type the rest from their army books. So
this module is about *understanding* profiles:

* model and weapon profiles are written in catalogs as the books print them and parsed into
  typed values (:mod:`.starship_troopers_profiles`); anything that does not read is a catalog
  error with its line (``check_catalog``), including unknown traits (with a suggestion),
  Kill not above Target, and an entry whose ``costs: {value: N}`` disagrees with its Value;
* every model gets its profile, saves, traits and weapons explained in plain words;
* roster checks for trait interactions the chapter states: an Underslung weapon without the
  main weapon it is fitted to (``st-underslung-without-weapon``), a Crew weapon without a
  second model to help (``st-crew-as-pack``: it counts as a Pack weapon), a Launched munition
  without its launcher (``st-launcher-missing``);
* the damage table: every weapon and close combat attack of each unit against every model
  profile of the opposing faction, as exact distributions (:mod:`.starship_troopers_damage`).

Total Value against the roster's limit is the engine's generic cost-limit check (cost type
``value``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ...dice import Distribution, at_least_table, expectation
from ...plugin import CatalogFinding, Matchup, SystemRules
from ..engine import Evaluation, Node, fmt_num
from ..state import StateKey
from .starship_troopers_damage import (
    VOLLEY_MAX_DICE,
    Attack,
    Defender,
    Outcome,
    resolve,
    volley,
    volley_is_exact,
)
from .starship_troopers_profiles import (
    SRC,
    DamageDice,
    Delivery,
    ModelProfile,
    ProfileSyntaxError,
    Trait,
    WeaponProfile,
    fmt_inches,
    model_field_errors,
    parse_model,
    parse_value,
    parse_weapon,
    weapon_field_errors,
)

if TYPE_CHECKING:
    from ...catalog import CatalogIndex
    from ...model.catalog import Entry, EntryLink, FactionFile, SystemFile

__all__ = [
    "RULES",
    "Attack",
    "Defender",
    "ModelProfile",
    "ProfileSyntaxError",
    "StarshipTroopers",
    "WeaponProfile",
    "explain_model_trait",
    "explain_weapon_trait",
    "parse_model",
    "parse_weapon",
]

# --------------------------------------------------------------------------- explanations
# What each characteristic and trait means on the table, in our own words (the section of
# the Characteristics chapter is given as the source).


def explain_model_trait(t: Trait) -> str:
    """A model trait in plain words."""
    n = t.number
    if t.name == "Independent":
        return "acts apart from other units, may join another unit's actions or be a unit alone"
    if t.name == "Hits":
        return (
            f"needs {int(n or 1)} hits to remove: one per failed save, two per Kill result; "
            "wounded (one action a turn) at its last hit; never flinches"
        )
    if t.name == "No Flinch":
        return "never flinches, whatever the rules or its owner want"
    if t.name == "Piercing":
        return f"its close combat dice make armour saves {int(n or 0)} worse"
    if t.name == "Retaliate":
        return (
            "removed by a Kill result: its close combat dice hit every model in its point "
            "blank range, friend or foe (Piercing counts)"
        )
    if n is not None:
        return f"special {t.name} move of up to {fmt_inches(n)}; needs a Ready action first"
    return t.name


def explain_weapon_trait(t: Trait) -> str:
    """A weapon trait in plain words."""
    n = t.number
    texts = {
        "AA": "can engage Air units (nothing else can)",
        "Accurate": "adds the target's Size to each damage die (not in artillery fire)",
        "Auto": 'may hit models up to 6" from the nominated target (3" otherwise)',
        "Flame": "ignores cover; no dodge save against it",
        "Killshot": "every die reaching Target is a Kill result",
        "Multihit": "against multihit models: 2 hits per hit, 4 per Kill result",
        "Persistent": (
            "keeps rolling its dice, without bonus, each player turn against models it hurt "
            "but did not remove; a die showing 1 or 2 is dropped"
        ),
        "Ready": "only fires if the unit's previous action was a Ready action",
        "Remote": (
            "set down with one Ready action, set off by a later one of the same model; "
            "never scatters; lost with its model"
        ),
        "Retaliate": (
            "if a Kill result removes its carrier, its dice hit every model in point blank "
            "range (only Flame, Killshot, Multihit, Persistent and Piercing apply)"
        ),
        "Underslung": (
            "fired instead of the weapon it is fitted to, with its own profile; an ammo "
            "failure silences both"
        ),
    }
    if t.name in texts:
        return texts[t.name]
    if t.name == "Piercing":
        return f"armour saves against it are {int(n or 0)} worse"
    if t.name == "Fire Arc":
        return f"fires only into its arc ({t.detail})"
    if t.name == "Parry":
        if (n or 1) <= 1:
            what = "one enemy model in point blank range re-rolls one close combat die"
        else:
            what = f"enemies in point blank range re-roll {int(n or 1)} close combat dice"
        return f"in an enemy Charge, {what}; only against models up to twice the bearer's Size"
    if t.name == "LZ":
        if t.detail == "Stream":
            return (
                "direct fire rolls damage dice × damage bonus with no bonus; Stream fire "
                'hits every model in a 2"-wide line to full range, bonus included'
            )
        zone = f"Lethal Zone of {fmt_inches(n or 0)} radius"
        if t.detail == "LOS":
            return f"{zone}; no artillery fire at targets out of sight"
        return (
            f"{zone}; direct or artillery fire at targets in sight, artillery only at "
            "targets out of sight (a Ready action first)"
        )
    return t.name


TYPE_TEXT = {
    "Crew": "a Squad weapon while a second model within point blank range helps; else Pack",
    "Infinite": "no ammunition rules: fires in every Shoot action and reaction",
    "Internal": "fires once per turn, never in Shoot reactions",
    "Pack": "fires once per turn, never in Shoot reactions",
    "One-Shot!": "fires once per game",
    "Squad": "fires unless out of ammunition",
}


def explain_delivery(d: Delivery) -> str:
    if d.mode == "Dropped":
        return "Dropped: released by Air units"
    if d.mode == "Placed":
        return "Placed: planted with the Remote rules"
    if d.mode == "Thrown":
        return f"Thrown: by hand, up to {fmt_inches(d.inches or 0)}"
    launcher = d.launcher or "its launcher system"
    return f"Launched: from {launcher}, up to {fmt_inches(d.inches or 0)}"


def explain_save(p: ModelProfile) -> str:
    s = p.save
    if s.armour is None and s.dodge is None:
        return "no save: every hit counts"
    parts = []
    if s.armour is not None and s.dodge is not None:
        parts.append(f"against a hit, armour {s.armour}+ or dodge {s.dodge}+ (one roll)")
    elif s.armour is not None:
        parts.append(f"armour {s.armour}+ against a hit")
    else:
        parts.append(f"dodge {s.dodge}+ against a hit")
    if s.dodge is not None:
        parts.append(f"dodge {s.dodge}+ against a Kill result (not against Flame)")
    else:
        parts.append("no save against a Kill result")
    return "; ".join(parts) + "; a natural 1 always fails"


# --------------------------------------------------------------------------- formatting


def pct(p: Fraction) -> str:
    """A probability as a percentage for reading (the exact value is in the JSON)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    x = float(p) * 100
    if x < 0.05:
        return "<0.1%"
    if x > 99.95:
        return ">99.9%"
    return f"{x:.1f}%"


def _num(p: Fraction) -> dict[str, Any]:
    return {"p": float(p), "exact": str(p)}


def _dist_json(dist: Distribution) -> list[dict[str, Any]]:
    return [{"n": k, **_num(p)} for k, p in dist.items()]


def _at_least_json(dist: Distribution) -> list[dict[str, Any]]:
    return [{"n": k, **_num(p)} for k, p in at_least_table(dist, 1).items()]


def _at_least_text(dist: Distribution, limit: int = 6) -> str:
    parts = [f"≥{k} {pct(p)}" for k, p in at_least_table(dist, 1).items() if p >= Fraction(1, 2000)]
    if len(parts) > limit:
        parts = [*parts[:limit], "…"]
    return ", ".join(parts) if parts else "≥1 0%"


def _avg(p: Fraction) -> str:
    return fmt_num(round(float(p), 3))


# --------------------------------------------------------------------------- catalog checks


def _entries_with_loc(model: Any) -> Iterator[tuple[list[str | int], Entry | EntryLink]]:
    from ...catalog import iter_entries
    from ...model.catalog import Entry as EntryModel
    from ...model.catalog import EntryLink as LinkModel

    for loc, item in iter_entries(model):
        if isinstance(item, EntryModel | LinkModel):
            yield loc, item


def _profile_value(entry: Entry) -> int | None:
    for p in entry.profiles:
        if p.type == "model":
            try:
                return parse_value(p.characteristics.get("value"))
            except ProfileSyntaxError:
                return None
    return None


def _cost_text(x: float) -> str:
    return fmt_num(float(x))


# --------------------------------------------------------------------------- roster views


@dataclass
class ModelView:
    node: Node
    profile: ModelProfile
    weapons: list[tuple[Node, WeaponProfile]] = field(default_factory=list)


def _is_unit(node: Node) -> bool:
    return node.entry is not None and node.entry.type == "unit"


def unit_of(node: Node) -> Node:
    """The unit a selection belongs to: the nearest enclosing unit entry, else its top-level
    selection."""
    n: Node | None = node
    while n is not None and not n.is_root:
        if _is_unit(n):
            return n
        if n.parent is not None and n.parent.is_root:
            return n
        n = n.parent
    return node


def per_copy(node: Node, unit: Node) -> int:
    """How many of ``node`` one copy of ``unit`` holds."""
    return 1 if node is unit else node.multiplicity(unit)


R = TypeVar("R")


def _read_profile(
    ev: Evaluation, node: Node, kind: str, parse: Callable[[str, Mapping[str, Any]], R]
) -> R | None:
    """The node's ``kind`` profile, read; ``None`` (and an error on the node) when it does
    not read."""
    try:
        return parse(_profile_name(node, kind, ev), _chars(ev, node, kind))
    except ProfileSyntaxError as exc:
        ev.error(
            "st-profile-unreadable",
            f"{ev.where(node)}: its {kind} profile does not read: {exc}",
            node,
            SRC,
        )
        return None


def _has_profile(node: Node, kind: str) -> bool:
    return node.entry is not None and any(p.type == kind for p in node.entry.profiles)


def _profile_name(node: Node, kind: str, ev: Evaluation) -> str:
    """The profile's own name (or the entry's), not a name the player gave the selection:
    two selections of one entry share one line of the damage table."""
    assert node.entry is not None
    for p in node.entry.profiles:
        if p.type == kind and p.name:
            return p.name
    return str(ev.apply_modifiers(node.entry, "name", node.entry.name, node))


def _chars(ev: Evaluation, node: Node, kind: str) -> dict[str, Any]:
    assert node.entry is not None
    keys: list[str] = []
    for p in node.entry.profiles:
        if p.type == kind:
            keys = list(p.characteristics)
            break
    return {k: ev.characteristic(node, k, kind) for k in keys}


@dataclass(frozen=True)
class Enemy:
    id: str
    name: str
    profile: ModelProfile


@dataclass(frozen=True)
class AttackRow:
    key: str
    label: str
    kind: str
    mode: str | None
    attack: Attack
    attacks: int
    notes: tuple[str, ...] = ()
    weapon: WeaponProfile | None = None
    bearer: ModelProfile | None = None


# --------------------------------------------------------------------------- the module


#: Campaign state (a selection's ``state:``): all of it is the battle in progress.
STATE_KEYS: tuple[StateKey, ...] = (
    StateKey(
        "hits",
        "int",
        "Hits lost by the models of this selection, first model first (a model of Hits/X "
        "is removed when all X are lost).",
        history=False,
        source=f"{SRC} (Hits/X)",
        example="2",
    ),
    StateKey(
        "wounds",
        "int",
        "The same as hits (another name the sheet reads; give only one of them).",
        history=False,
        source=f"{SRC} (Hits/X)",
        example="2",
    ),
    StateKey(
        "lost",
        "int",
        "Models of this selection removed as casualties.",
        history=False,
        source=f"{SRC} (Save, Kill)",
        example="1",
    ),
)


class StarshipTroopers(SystemRules):
    """The Starship Troopers rules module."""

    system_id = "starship-troopers"
    #: A model's and a unit's values read that selection and what it holds; the enemy
    #: profiles come from the catalogs; the roster's count and a force's loose models (one
    #: unit across top-level selections) are worked out after the replay.
    subtree_local = True

    # ----------------------------------------------------------------- catalog checks

    def state_keys(self) -> tuple[StateKey, ...]:
        return STATE_KEYS

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        which, model = ("system", system) if faction is None else ("faction", faction)
        shared: dict[str, Entry] = dict(index.shared) if index is not None else {}
        shared.update({e.id: e for e in system.shared_entries})
        shared.update({e.id: e for e in getattr(model, "shared_entries", [])})
        from ...model.catalog import Entry as EntryModel

        for loc, item in _entries_with_loc(model):
            if not isinstance(item, EntryModel):
                # A link that changes the cost of a model must still agree with its Value.
                target = shared.get(item.link)
                if target is not None and item.costs is not None and "value" in item.costs:
                    value = _profile_value(target)
                    if value is not None and item.costs["value"] != value:
                        yield (
                            which,
                            [*loc, "costs", "value"],
                            f"{item.name or target.name}: costs value "
                            f"{_cost_text(item.costs['value'])} but the profile's Value is "
                            f"{value}; they must agree ({SRC}, Value)",
                        )
                continue
            entry = item
            for j, p in enumerate(entry.profiles):
                ploc: list[str | int] = [*loc, "profiles", j, "characteristics"]
                name = p.name or entry.name
                if p.type == "model":
                    errors = model_field_errors(p.characteristics)
                    for key, msg in errors:
                        yield (
                            which,
                            [*ploc, key] if key in p.characteristics else ploc,
                            f"{name}: {msg}",
                        )
                    if not any(k == "value" for k, _ in errors):
                        yield from self._value_agrees(which, loc, entry, p.characteristics)
                elif p.type == "weapon":
                    for key, msg in weapon_field_errors(p.characteristics):
                        yield (
                            which,
                            [*ploc, key] if key in p.characteristics else ploc,
                            f"{name}: {msg}",
                        )

    @staticmethod
    def _value_agrees(
        which: str, loc: list[str | int], entry: Entry, chars: dict[str, Any]
    ) -> Iterator[CatalogFinding]:
        try:
            value = parse_value(chars.get("value"))
        except ProfileSyntaxError:
            return  # reported with the value itself
        cost = entry.costs.get("value")
        if cost is None:
            yield (
                which,
                [*loc, "costs"] if entry.costs else loc,
                f"{entry.name}: a model's entry needs costs: {{value: {value}}} "
                f"(its Value is its cost; {SRC}, Value)",
            )
        elif cost != value:
            yield (
                which,
                [*loc, "costs", "value"],
                f"{entry.name}: costs value {_cost_text(cost)} but the profile's Value is "
                f"{value}; they must agree ({SRC}, Value)",
            )

    # ----------------------------------------------------------------- analysis

    def against(self, ev: Evaluation, other: Evaluation) -> list[Matchup]:
        """The damage table lines (computed by :meth:`analyse` for every enemy profile
        installed) whose enemy is a model ``other`` fields, by the unit it is in. Models of
        the roster's own faction have no damage table and are left out."""
        where: dict[str, list[str]] = {}
        for n in other.nodes():
            if n.entry is not None and _has_profile(n, "model"):
                units = where.setdefault(n.entry.id, [])
                name = other.name(unit_of(n))
                if name not in units:
                    units.append(name)
        rows: list[Matchup] = []
        for node in ev.nodes():
            found: list[Matchup] = []
            for v in ev.values_of(node):
                if not v.key.startswith("damage.") or not isinstance(v.value, dict):
                    continue
                for unit in where.get(str(v.value.get("target_id")), []):
                    found.append(
                        Matchup(
                            node,
                            f"{unit} ({v.value.get('target')})",
                            v.key,
                            str(v.value.get("attack") or v.label),
                            v.value,
                            v.display(),
                            v.source,
                        )
                    )
            rows += sorted(found, key=lambda m: m.target)
        return rows

    def analyse(self, ev: Evaluation) -> None:
        enemies, against = self._enemies(ev)  # from the catalogs: the same for every unit
        total = 0
        # Models that belong to no unit inside their top-level selection (a force's loose
        # models) make up one unit per force, which spans top-level selections.
        spanning: dict[int, tuple[Node, list[ModelView]]] = {}
        for top in ev.units():
            if top.entry is None:
                continue
            if _is_unit(top) or (top.parent is not None and top.parent.is_root):
                # Every unit of its models lies inside it: an untouched one is replayed.
                total += top.multiplicity() * ev.subtree(
                    top,
                    "starship-troopers",
                    lambda t=top: self._top(ev, t, enemies, spanning),  # type: ignore[misc]
                    key=tuple(e.id for e in enemies),
                )
            else:
                total += top.multiplicity() * self._top(ev, top, enemies, spanning)
        for unit, views in spanning.values():
            self._unit(ev, unit, views)
            self._damage_table(ev, unit, views, enemies)
            total += sum(per_copy(mv.node, unit) for mv in views) * unit.multiplicity()

        ev.set_value(ev.root, "models", "Models", total)
        if enemies:
            names = ", ".join(e.name for e in enemies)
            ev.set_value(
                ev.root,
                "opponents",
                "Damage tables against",
                {"factions": against, "profiles": [e.id for e in enemies]},
                text=f"{', '.join(against)}: {names}",
                source=f"{SRC}, Damage",
            )
        else:
            ev.set_value(
                ev.root,
                "opponents",
                "Damage tables against",
                {"factions": against, "profiles": []},
                text="no enemy model profiles installed",
                source=f"{SRC}, Damage",
            )

    def _top(
        self,
        ev: Evaluation,
        top: Node,
        enemies: list[Enemy],
        spanning: dict[int, tuple[Node, list[ModelView]]],
    ) -> int:
        """The values and issues of one top-level selection's models, weapons and units;
        how many models one copy of it holds in units inside it. Models of a unit outside
        it (its force) are added to ``spanning`` instead."""
        models: dict[int, ModelView] = {}
        broken: set[int] = set()  # models whose profile does not read (already reported)
        loose_weapons: list[tuple[Node, WeaponProfile]] = []
        nodes = [n for n in top.walk() if n.entry is not None]
        for node in nodes:
            if _has_profile(node, "model"):
                prof = _read_profile(ev, node, "model", parse_model)
                if prof is None:
                    broken.add(id(node))
                    continue
                models[id(node)] = ModelView(node, prof)
        for node in nodes:
            if not _has_profile(node, "weapon"):
                continue
            wp = _read_profile(ev, node, "weapon", parse_weapon)
            if wp is None:
                continue
            carrier = next(
                (a for a in node.ancestors() if id(a) in models or id(a) in broken), None
            )
            if carrier is not None and id(carrier) in broken:
                continue
            if carrier is None:
                loose_weapons.append((node, wp))
            else:
                models[id(carrier)].weapons.append((node, wp))

        for mv in models.values():
            self._describe_model(ev, mv)
            self._underslung(ev, mv)
            self._launchers(ev, mv)
        for node, wp in loose_weapons:
            ev.warning(
                "st-weapon-without-model",
                f"{ev.where(node)} ({wp.name}) is not carried by a model, so nobody fires it; "
                "select it under a model",
                node,
                f"{SRC}, Weapon Characteristics",
            )

        units: dict[int, tuple[Node, list[ModelView]]] = {}
        inside = {id(n) for n in nodes}
        for mv in models.values():
            u = unit_of(mv.node)
            into = units if id(u) in inside else spanning
            into.setdefault(id(u), (u, []))[1].append(mv)
        count = 0
        for unit, views in units.values():
            self._unit(ev, unit, views)
            self._damage_table(ev, unit, views, enemies)
            per = 1 if unit is top else unit.multiplicity(top)
            count += per * sum(per_copy(mv.node, unit) for mv in views)
        return count

    # ----------------------------------------------------------------- per model

    def _describe_model(self, ev: Evaluation, mv: ModelView) -> None:
        weapons: dict[str, WeaponProfile] = {}
        for _, w in mv.weapons:
            weapons.setdefault(w.name, w)
        for key, label, value, text, source in model_values(mv.profile, tuple(weapons.values())):
            ev.set_value(mv.node, key, label, value, text=text, source=source)
        self._sheet_boxes(ev, mv, tuple(weapons.values()))

    def _sheet_boxes(
        self, ev: Evaluation, mv: ModelView, weapons: tuple[WeaponProfile, ...]
    ) -> None:
        """Which markers a record sheet gives each model: a flinch box unless the model never
        flinches (Hits/X, No Flinch), an out-of-ammunition box per Squad or Crew weapon (the
        types an ammo roll can stop), a used box per One-Shot! weapon."""
        p = mv.profile
        flinch = not (p.has("No Flinch") or p.hits > 1)
        ammo = [w.name for w in weapons if w.type in ("Squad", "Crew")]
        once = [w.name for w in weapons if w.type == "One-Shot!"]
        parts = ["flinch" if flinch else "never flinches"]
        parts += [f"{n}: out of ammunition" for n in ammo]
        parts += [f"{n}: fired (once a game)" for n in once]
        ev.set_value(
            mv.node,
            "sheet_boxes",
            "Markers",
            {"flinch": flinch, "out_of_ammo": ammo, "one_shot": once},
            text="; ".join(parts),
            source=f"{SRC}, Traits (Hits/X, No Flinch); Weapon Characteristics (Type)",
        )

    def _underslung(self, ev: Evaluation, mv: ModelView) -> None:
        for node, w in mv.weapons:
            if not w.has("Underslung"):
                continue
            assert node.entry is not None
            fits = node.entry.data.get("attached_to")
            allowed = {fits} if isinstance(fits, str) else set(fits or [])

            def ok(n: Node, wp: WeaponProfile, allowed: set[str] = allowed) -> bool:
                return not wp.has("Underslung") and (not allowed or n.entry_id in allowed)

            parent = next(((n, x) for n, x in mv.weapons if n is node.parent), None)
            if parent is not None and ok(*parent):
                continue
            if any(n is not node and ok(n, x) for n, x in mv.weapons):
                continue
            want = (
                " (it fits: " + ", ".join(ev.index.name_of(a) for a in sorted(allowed)) + ")"
                if allowed
                else ""
            )
            ev.error(
                "st-underslung-without-weapon",
                f"{ev.where(node)} is an Underslung weapon, but {ev.label(mv.node)} has no main "
                f"weapon for it to be fitted to{want}",
                node,
                f"{SRC}, Weapon Traits (Underslung)",
            )

    def _launchers(self, ev: Evaluation, mv: ModelView) -> None:
        names = {ev.name(n).lower() for n, _ in mv.weapons} | {
            w.name.lower() for _, w in mv.weapons
        }
        names |= {
            p.name.lower()
            for n, _ in mv.weapons
            if n.entry is not None
            for p in n.entry.profiles
            if p.name
        }
        for node, w in mv.weapons:
            for d in w.range.delivery:
                if d.mode != "Launched" or not d.launcher or d.launcher.lower() in names:
                    continue
                others = [str(x) for x in w.range.delivery if x.mode != "Launched"]
                if others:
                    ev.warning(
                        "st-launcher-missing",
                        f"{ev.where(node)} can only be launched from a {d.launcher}, which "
                        f"{ev.label(mv.node)} does not carry; it can still be used as "
                        f"{', '.join(others)}",
                        node,
                        f"{SRC}, Munition Delivery Modes",
                    )
                else:
                    ev.error(
                        "st-launcher-missing",
                        f"{ev.where(node)} can only be launched from a {d.launcher}, which "
                        f"{ev.label(mv.node)} does not carry; it has no other delivery mode",
                        node,
                        f"{SRC}, Munition Delivery Modes",
                    )

    # ----------------------------------------------------------------- per unit

    def _unit(self, ev: Evaluation, unit: Node, views: list[ModelView]) -> None:
        count = sum(per_copy(mv.node, unit) for mv in views)
        by_name: dict[str, int] = {}
        for mv in views:
            by_name[mv.profile.name] = by_name.get(mv.profile.name, 0) + per_copy(mv.node, unit)
        ev.set_value(
            unit,
            "models",
            "Models",
            count,
            text=f"{count} (" + ", ".join(f"{n} ×{c}" for n, c in by_name.items()) + ")",
        )
        # Crew weapons: each needs another model within point blank range that does not fire
        # its own weapon in that action; one helper per weapon (Type: Crew).
        crew = [(n, w, mv) for mv in views for n, w in mv.weapons if w.type == "Crew"]
        if not crew:
            return
        weapons = sum(per_copy(n, unit) for n, _, _ in crew)
        carriers = sum(
            per_copy(mv.node, unit) for mv in {id(m.node): m for _, _, m in crew}.values()
        )
        helpers = max(count - carriers, 0)
        if weapons <= helpers:
            return
        names = ", ".join(sorted({w.name for _, w, _ in crew}))
        src = f"{SRC}, Type (Crew)"
        if count <= 1:
            msg = (
                f"{ev.where(unit)} has no second model to help with its Crew weapon ({names}): "
                "it counts as a Pack weapon (fires once per turn, not in Shoot reactions)"
            )
        else:
            short = weapons - helpers
            msg = (
                f"{ev.where(unit)} has {weapons} Crew weapon(s) ({names}) but only {helpers} "
                f"other model(s) to help; when all fire, {short} count(s) as a Pack weapon "
                "(once per turn, not in Shoot reactions)"
            )
        ev.warning("st-crew-as-pack", msg, unit, src)

    # ----------------------------------------------------------------- damage table

    def _enemies(self, ev: Evaluation) -> tuple[list[Enemy], list[str]]:
        gs = ev.index.system
        own = ev.index.faction
        wanted = own.model.data.get("opponents")
        if isinstance(wanted, str):
            ids = [wanted]
        elif isinstance(wanted, list):
            ids = [str(x) for x in wanted]
        else:
            ids = [f for f in gs.factions if f != own.id]
        system_ids = {e.id for e in gs.model.shared_entries}
        enemies: list[Enemy] = []
        names: list[str] = []
        for fid in ids:
            if fid not in gs.factions:
                continue
            idx = gs.index(fid)
            names.append(idx.faction.name)
            for problem in idx.faction.dropped if fid != own.id else ():
                # A broken extension of the enemy is left out at load time: its models are
                # missing from the damage tables, which must say so.
                ev.warning(
                    "st-enemy-profile-unreadable",
                    f"the damage tables leave out an extension of {idx.faction.name}, which "
                    f"did not load: {problem}",
                    (),
                    SRC,
                )
            for entry in idx.entries.values():
                if entry.id in system_ids:
                    continue
                for p in entry.profiles:
                    if p.type != "model":
                        continue
                    try:
                        prof = parse_model(p.name or entry.name, p.characteristics)
                    except ProfileSyntaxError as exc:
                        # The catalog check reports this with its line; a user extension
                        # with such a profile still loads, so say why it is missing here.
                        ev.warning(
                            "st-enemy-profile-unreadable",
                            f"{entry.name} ({idx.faction.name}) is left out of the damage "
                            f"tables: its profile does not read: {exc}",
                            (),
                            SRC,
                        )
                        continue
                    enemies.append(Enemy(entry.id, prof.name, prof))
                    break
        return enemies, names

    def _rows(self, unit: Node, views: list[ModelView]) -> list[AttackRow]:
        """The unit's attacks: close combat per kind of model, each weapon once (with how
        many of the unit's models make that attack)."""
        rows: list[AttackRow] = []
        kinds: dict[tuple[str | None, ModelProfile], list[ModelView]] = {}
        for mv in views:
            kinds.setdefault((mv.node.entry_id, mv.profile), []).append(mv)
        used: set[str] = set()
        for (entry_id, prof), group in kinds.items():
            name = prof.name
            p = group[0].profile
            slug = entry_id or "model"
            k = 2
            while slug in used:
                slug, k = f"{entry_id or 'model'}-{k}", k + 1
            used.add(slug)
            prefix = f"{name}: close combat" if len(kinds) > 1 else "Close combat"
            n_models = sum(per_copy(mv.node, unit) for mv in group)
            notes = []
            if p.piercing:
                notes.append(f"Piercing/{p.piercing}")
            if p.has("Retaliate"):
                notes.append("the same dice are its Retaliate damage")
            for i, dd in enumerate(p.close_combat):
                choice = (
                    f" (choice {i + 1} of {len(p.close_combat)})" if len(p.close_combat) > 1 else ""
                )
                rows.append(
                    AttackRow(
                        f"{slug}.close-combat" + (f"-{i + 1}" if len(p.close_combat) > 1 else ""),
                        f"{prefix} {dd}{choice}",
                        "close-combat",
                        None,
                        Attack(dd, piercing=p.piercing),
                        n_models,
                        tuple(notes),
                        None,
                        p,
                    )
                )
        weapons: dict[str, tuple[WeaponProfile, int, ModelProfile]] = {}
        for mv in views:
            for node, w in mv.weapons:
                wid = node.entry_id or w.name
                prev = weapons.get(wid)
                count = (prev[1] if prev else 0) + per_copy(node, unit)
                weapons[wid] = (w, count, prev[2] if prev else mv.profile)
        for wid, (w, n, bearer) in weapons.items():
            notes_w = _weapon_notes(w)
            for i, dd in enumerate(w.damage):
                alt = f" {dd}" if len(w.damage) > 1 else ""
                key = wid + (f"-{i + 1}" if len(w.damage) > 1 else "")
                base = Attack(
                    dd,
                    accurate=w.has("Accurate"),
                    piercing=w.piercing,
                    flame=w.has("Flame"),
                    killshot=w.has("Killshot"),
                    multihit=w.has("Multihit"),
                )
                if w.stream:
                    direct = replace(base, stream_direct=True)
                    rows.append(
                        AttackRow(
                            f"{key}.direct",
                            f"{w.name}{alt}, direct fire",
                            "weapon",
                            "direct",
                            direct,
                            n,
                            notes_w,
                            w,
                            bearer,
                        )
                    )
                    rows.append(
                        AttackRow(
                            f"{key}.stream",
                            f"{w.name}{alt}, Stream fire",
                            "weapon",
                            "stream",
                            base,
                            n,
                            (*notes_w, "each model in the zone"),
                            w,
                            bearer,
                        )
                    )
                else:
                    rows.append(
                        AttackRow(
                            key, f"{w.name}{alt}", "weapon", None, base, n, notes_w, w, bearer
                        )
                    )
                if w.has("Retaliate"):
                    # Only Flame, Killshot, Multihit, Persistent and Piercing/X count
                    # (Weapon Traits, Retaliate): Accurate is dropped.
                    rows.append(
                        AttackRow(
                            f"{key}.retaliation",
                            f"{w.name}{alt}, retaliation",
                            "retaliation",
                            None,
                            replace(base, accurate=False),
                            1,
                            ("when its carrier is removed by a Kill result",),
                            w,
                            bearer,
                        )
                    )
        return rows

    def _damage_table(
        self, ev: Evaluation, unit: Node, views: list[ModelView], enemies: list[Enemy]
    ) -> None:
        if not enemies:
            return
        for row in self._rows(unit, views):
            for enemy in enemies:
                value, text = table_row(row, enemy)
                ev.set_value(
                    unit,
                    f"damage.{row.key}.{enemy.id}",
                    f"{row.label} vs {enemy.name}",
                    value,
                    text=text,
                    source=f"{SRC}, Damage; Target; Save; Kill",
                )


# --------------------------------------------------------------------------- model values

ValueRow = tuple[str, str, Any, str, str]


@lru_cache(maxsize=512)
def model_values(p: ModelProfile, weapons: tuple[WeaponProfile, ...]) -> tuple[ValueRow, ...]:
    """What a model's profile, saves, traits and weapons mean, as computed values
    (key, label, value, text, source); the same for every selection of the same kit."""
    out: list[ValueRow] = [
        ("profile", "Profile", p.to_json(), p.text(), SRC),
        ("saves", "Saves", p.save.describe(), explain_save(p), f"{SRC}, Save; Kill"),
    ]
    if p.traits:
        parts = [f"{t}: {explain_model_trait(t)}" for t in p.traits]
        if p.has("Retaliate") and any(w.has("Retaliate") for w in weapons):
            parts.append("a Kill result sets off both Retaliate effects, one after the other")
        out.append(
            ("traits", "Traits", [str(t) for t in p.traits], "; ".join(parts), f"{SRC}, Traits")
        )
    if weapons:
        out.append(
            (
                "weapons",
                "Weapons",
                [w.to_json() for w in weapons],
                "; ".join(w.text() for w in weapons),
                f"{SRC}, Weapon Characteristics",
            )
        )
        rules: dict[str, str] = {}
        for w in weapons:
            rules.setdefault(w.type, TYPE_TEXT[w.type])
            for d in w.range.delivery:
                rules.setdefault(d.mode, explain_delivery(d).split(": ", 1)[1])
            for t in w.traits:
                rules.setdefault(str(t), explain_weapon_trait(t))
        out.append(
            (
                "weapon_rules",
                "Weapon rules",
                rules,
                "; ".join(f"{k}: {v}" for k, v in rules.items()),
                f"{SRC}, Weapon Characteristics (Type, Traits)",
            )
        )
    return tuple(out)


# --------------------------------------------------------------------------- table rows


def _weapon_notes(w: WeaponProfile) -> tuple[str, ...]:
    notes: list[str] = []
    lz = w.trait("LZ")
    if lz is not None and lz.detail != "Stream":
        notes.append(
            "direct fire"
            + ("; Accurate does not count in artillery fire" if w.has("Accurate") else "")
        )
    if w.has("Persistent"):
        notes.append("Persistent: later rolls not counted")
    return tuple(notes)


@lru_cache(maxsize=4096)
def table_row(row: AttackRow, enemy: Enemy) -> tuple[dict[str, Any], str]:
    """One line of the damage table: its JSON value and its text (shared, do not mutate)."""
    d = Defender.of(enemy.profile)
    one = resolve(row.attack, d)
    exact = volley_is_exact(row.attack, row.attacks)
    many = volley(row.attack, d, row.attacks) if row.attacks > 1 and exact else None
    notes = [*row.notes, *_target_notes(row, enemy)]
    return _row_json(row, enemy, one, many, notes), _row_text(row, enemy, one, many, notes)


def _target_notes(row: AttackRow, enemy: Enemy) -> list[str]:
    a, e = row.attack, enemy.profile
    notes: list[str] = []
    dd: DamageDice = a.dice
    if dd.bonus_die:
        notes.append(f"bonus D{dd.bonus_die} rolled once for all dice")
    if a.stream_direct:
        if dd.bonus_die:
            notes.append(f"rolls {dd.count} × (bonus) D{dd.sides}, no bonus")
        elif dd.bonus:
            notes.append(f"rolls {dd.count * dd.bonus}xD{dd.sides}, no bonus")
    if a.accurate:
        notes.append(f"Accurate +{e.size}")
    if a.piercing and e.save.armour is not None:
        after = e.save.armour + a.piercing
        notes.append(
            f"armour {e.save.armour}+ becomes {after}+" if after <= 6 else "no armour save"
        )
    if a.flame and e.save.dodge is not None:
        notes.append("Flame: no dodge")
    if a.killshot:
        notes.append("Killshot: every hit is a Kill result")
    if a.multihit and e.hits > 1:
        notes.append("Multihit: 2 hits per hit, 4 per Kill result")
    if e.hits > 1:
        notes.append(f"Hits/{e.hits}: all dice into one model")
    if row.weapon is not None and row.weapon.has("Parry") and row.bearer is not None:
        # Parry works against models up to twice the bearer's Size (Weapon Traits, Parry).
        size = row.bearer.size
        notes.append("Parry works against it" if e.size <= 2 * size else "too big to Parry")
    if e.has("Retaliate"):
        notes.append("it retaliates if a Kill result removes it")
    return notes


def _row_json(
    row: AttackRow,
    enemy: Enemy,
    one: Outcome,
    many: Outcome | None,
    notes: list[str],
) -> dict[str, Any]:
    def block(o: Outcome) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hits": _dist_json(o.hits),
            "kills": _dist_json(o.kills),
            "expected_kills": _num(expectation(o.kills)),
            "at_least": _at_least_json(o.kills),
        }
        if enemy.profile.hits > 1:
            out["hits_lost"] = _dist_json(o.damage)
            out["expected_hits_lost"] = _num(expectation(o.damage))
        return out

    return {
        "attacker": row.bearer.name if row.bearer is not None else None,
        "attack": row.label,
        "kind": row.kind,
        "mode": row.mode,
        "dice": str(row.attack.dice),
        "attacks": row.attacks,
        "target": enemy.name,
        "target_id": enemy.id,
        "target_profile": enemy.profile.printed(),
        **block(one),
        "volley": block(many) if many is not None else _big_volley(row, enemy, one),
        "notes": notes,
    }


TOO_MANY = f"exact odds only for volleys of up to {VOLLEY_MAX_DICE} dice"


def _big_volley(row: AttackRow, enemy: Enemy, one: Outcome) -> dict[str, Any] | None:
    """A volley too big to tabulate exactly: its expected figures only (exact, since the
    expected total of independent attacks is the sum of their expectations)."""
    if row.attacks <= 1:
        return None
    out: dict[str, Any] = {"exact_odds": False}
    if enemy.profile.hits > 1:
        out["expected_hits_lost"] = _num(expectation(one.damage) * row.attacks)
    else:
        out["expected_kills"] = _num(expectation(one.kills) * row.attacks)
    return out


def _row_text(
    row: AttackRow, enemy: Enemy, one: Outcome, many: Outcome | None, notes: list[str]
) -> str:
    hits = "/".join(str(k) for k in one.hits)
    hit_p = "/".join(pct(p).rstrip("%") for p in one.hits.values())
    dice = str(row.attack.dice)
    text = "" if dice in row.label else f"{dice}: "
    text += f"hits {hits} = {hit_p}%"
    verb = {"close-combat": "attacking", "retaliation": "retaliating"}.get(row.kind, "firing")
    if enemy.profile.hits > 1:
        text += (
            f"; hits lost avg {_avg(expectation(one.damage))}, "
            f"removes it {pct(one.kills.get(1, Fraction(0)))}"
        )
        if many is not None:
            text += (
                f"; {row.attacks} {verb} at one: hits lost avg {_avg(expectation(many.damage))}, "
                f"removes it {pct(many.kills.get(1, Fraction(0)))}"
            )
        elif row.attacks > 1:
            text += (
                f"; {row.attacks} {verb} at one: hits lost avg "
                f"{_avg(expectation(one.damage) * row.attacks)} ({TOO_MANY})"
            )
    else:
        text += f"; casualties avg {_avg(expectation(one.kills))} ({_at_least_text(one.kills)})"
        if many is not None:
            text += (
                f"; {row.attacks} {verb}: avg {_avg(expectation(many.kills))} "
                f"({_at_least_text(many.kills)})"
            )
        elif row.attacks > 1:
            text += (
                f"; {row.attacks} {verb}: avg {_avg(expectation(one.kills) * row.attacks)} "
                f"({TOO_MANY})"
            )
    if notes:
        text += " [" + "; ".join(notes) + "]"
    return text


RULES = StarshipTroopers()
