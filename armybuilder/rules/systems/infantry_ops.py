"""Infantry Operations (BattleTech conventional infantry): checks and computed values.

What lives here is arithmetic the catalog cannot express (the platoon structure, costs and
loadout choices are catalog constraints):

* weapon profiles are written in the catalog the way the rules print them (``"0.5(DB)
  +1D3(BF)"``, ``"0/1/2/3/4 (-1/0/+2/+4/+6)"``, ``"1 (2)"``) and parsed here into
  :class:`WeaponStats`; a profile that does not parse is a catalog error with its line;
* attack values per attack type (primary, secondary, support, melee), summed over the troopers
  and rounded up, with the burst-fire bonus and the part that can hurt armoured units
  ("Infantry Attacks", "Anti-Personnel vs Anti-Material", "Burst fire");
* encumbrance per trooper from everything carried, and the movement that follows
  ("Encumbrance", "Movement Points");
* crew to carry and crew to fire per squad, gun crews (crew = the gun's tonnage), the
  mechanised driver, the vehicle's crew capacity;
* morale base target number and gunnery skill from experience, platoon mass, ammunition.

Choices where the text is silent are stated where they are made, and in the README.
"""

from __future__ import annotations

import bisect
import difflib
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ...dice import Dice
from ...plugin import CatalogFinding, Matchup, SystemRules
from ...words import number as _number
from ..engine import Evaluation, Node, Value, fmt_num
from ..frozen import FrozenDict, FrozenList, freeze
from ..state import StateKey
from .infantry_ops_odds import (
    Burst,
    attack_value_odds,
    gunnery_number,
    matchup_odds,
    to_hit_value,
)

if TYPE_CHECKING:
    from ...catalog import CatalogIndex
    from ...catalog.index import EntryFacts
    from ...model.catalog import Entry, FactionFile, SystemFile

SRC = "Infantry Operations"
ATTACK_TYPES = ("primary", "secondary", "support", "melee")
ATTACK_LABELS = {
    "primary": "Primary AV",
    "secondary": "Secondary AV",
    "support": "Support AV",
    "melee": "Melee AV",
}
DAMAGE_TYPES = {"ML", "DB", "FL", "DE", "BF", "CM", "HE", "IF"}
BRACKETS = ("PB", "S", "M", "L", "EX")
ENCUMBERED_AT = 3  # "If they have 3 encumbrance points, they are now encumbered."


class ProfileSyntaxError(ValueError):
    """A weapon characteristic that does not read the way the rules print it."""


# --------------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class DamageValue:
    """A weapon's DV: the number, its damage types and any burst-fire dice."""

    value: float | None  # None: "Per Missile"
    types: tuple[str, ...]
    burst: Dice | None = None

    @property
    def anti_material(self) -> bool:
        """DV of 1 or more hurts armoured units ("Anti-Personnel vs Anti-Material")."""
        return self.value is not None and self.value >= 1


_DV_NUM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(.*)$")
_DV_TYPE = re.compile(r"\(\s*([A-Z]+)\s*\)")
_DV_BURST = re.compile(r"\+\s*(\d*[dD]\d+)\s*\(\s*BF\s*\)")


@lru_cache(maxsize=512)
def parse_dv(text: str) -> DamageValue:
    """Parse ``"0.5(DB) +1D3(BF)"``, ``"1 (CM) (IF)"``, ``"Per Missile"``."""
    s = str(text).strip()
    if s.lower() == "per missile":
        return DamageValue(None, ())
    m = _DV_NUM.match(s)
    if not m:
        raise ProfileSyntaxError(f"DV {s!r} should start with a number, e.g. '0.5(DB)'")
    rest = m.group(2)
    burst = None
    bm = _DV_BURST.search(rest)
    if bm:
        try:
            burst = Dice.from_text(bm.group(1))
        except ValueError as exc:
            raise ProfileSyntaxError(f"DV {s!r}: burst dice {exc}") from None
        rest = rest[: bm.start()] + rest[bm.end() :]
    types = tuple(_DV_TYPE.findall(rest))
    leftover = _DV_TYPE.sub("", rest).strip()
    if leftover:
        raise ProfileSyntaxError(f"DV {s!r}: cannot read {leftover!r}")
    unknown = [t for t in types if t not in DAMAGE_TYPES]
    if unknown:
        raise ProfileSyntaxError(
            f"DV {s!r}: unknown damage type {unknown[0]!r} "
            f"(known: {', '.join(sorted(DAMAGE_TYPES))})"
        )
    return DamageValue(float(m.group(1)), types, burst)


@dataclass(frozen=True)
class Bracket:
    """One range bracket: its name, how far it reaches (hexes) and its to-hit modifier."""

    name: str
    reach: int | None  # None: not usable at this bracket ("-")
    modifier: int | None


@dataclass(frozen=True)
class Range:
    """A weapon's range brackets and minimum range."""

    brackets: tuple[Bracket, ...]
    minimum: int | None = None

    @property
    def longest(self) -> int:
        return max((b.reach for b in self.brackets if b.reach is not None), default=0)

    def text(self) -> str:
        parts = [
            f"{b.name} {b.reach} ({b.modifier:+d})"
            if b.modifier is not None
            else f"{b.name} {b.reach}"
            for b in self.brackets
            if b.reach is not None
        ]
        out = ", ".join(parts)
        if self.minimum:
            out += f"; min {self.minimum}"
        return out


_RANGE = re.compile(r"^\s*([^()]*?)\s*(?:\(([^()]*)\)?)?\s*(?:Min\s*(\d+))?\s*$", re.IGNORECASE)


def _int_or_none(token: str, what: str, text: str) -> int | None:
    t = token.strip().replace("*", "").replace("\u2013", "-")
    if t in {"-", ""}:
        return None
    try:
        return int(t)
    except ValueError:
        raise ProfileSyntaxError(
            f"range {text!r}: {what} {token.strip()!r} is not a number"
        ) from None


@lru_cache(maxsize=512)
def parse_range(text: str) -> Range:
    """Parse ``"0/1/2/3/4 (-1/0/+2/+4/+6)"``, ``"-/7/14/21/28 (-/0/+2/+4/+6) Min 6"``."""
    s = str(text).strip()
    if s.lower() == "per missile":
        return Range((), None)
    m = _RANGE.match(s)
    if not m or not m.group(1):
        raise ProfileSyntaxError(f"range {s!r} should read like '0/1/2/3/4 (-1/0/+2/+4/+6)'")
    reaches = [_int_or_none(t, "distance", s) for t in m.group(1).split("/")]
    if reaches and m.group(1).rstrip().endswith("/"):
        reaches = reaches[:-1]  # "0/1/2/" (Heavy MG): a trailing slash, nothing after it
    mods = [_int_or_none(t, "modifier", s) for t in m.group(2).split("/")] if m.group(2) else []
    if len(reaches) > len(BRACKETS):
        raise ProfileSyntaxError(f"range {s!r}: more than five brackets (PB/S/M/L/EX)")
    brackets = tuple(
        Bracket(BRACKETS[i], r, mods[i] if i < len(mods) else None) for i, r in enumerate(reaches)
    )
    minimum = int(m.group(3)) if m.group(3) else None
    return Range(brackets, minimum)


@dataclass(frozen=True)
class Ammo:
    """Shots before reloading and shots carried; ``None`` shots means no limit."""

    shots: int | None
    carried: int | None = None
    one_shot: bool = False
    per_missile: bool = False

    def text(self) -> str:
        if self.one_shot:
            return "one shot"
        if self.per_missile:
            return "per missile"
        if self.shots is None:
            return "unlimited"
        return f"{self.shots}" + (f" ({self.carried} carried)" if self.carried else "")


_AMMO = re.compile(r"^\s*(\d+)\s*(?:\(\s*(\d+)\s*\))?\s*$")


@lru_cache(maxsize=128)
def parse_ammo(text: str) -> Ammo:
    """Parse ``"–"``, ``"OS"``, ``"6"``, ``"1 (2)"``, ``"Per Missile"``."""
    s = str(text).strip()
    if s in {"", "-", "\u2013", "\u2014"}:
        return Ammo(None)
    if s.upper() == "OS":
        return Ammo(1, None, one_shot=True)
    if s.lower() == "per missile":
        return Ammo(None, per_missile=True)
    m = _AMMO.match(s)
    if not m:
        raise ProfileSyntaxError(f"ammo {s!r} should be '–', 'OS', a number or 'N (M)'")
    return Ammo(int(m.group(1)), int(m.group(2)) if m.group(2) else None)


@lru_cache(maxsize=128)
def parse_setup(text: str) -> tuple[int, bool]:
    """``"1*"`` -> (1, fixed mount)."""
    s = str(text).strip()
    m = re.fullmatch(r"(\d+)\s*(\*?)", s)
    if not m:
        raise ProfileSyntaxError(f"set-up time {s!r} should be a number, '*' for a fixed mount")
    return int(m.group(1)), bool(m.group(2))


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise ProfileSyntaxError(f"{what} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise ProfileSyntaxError(f"{what} must be a whole number, not {value!r}")


WEAPON_TYPES = ("small-melee", "pistol", "primary", "melee", "secondary", "support")


@dataclass(frozen=True)
class WeaponStats:
    """A weapon profile, parsed."""

    name: str
    type: str
    dv: DamageValue
    range: Range
    enc: int
    setup: int
    fixed_mount: bool
    load: int
    cf: int
    cc: int
    ammo: Ammo

    @classmethod
    def from_profile(cls, name: str, chars: dict[str, Any]) -> WeaponStats:
        """Read a weapon profile's characteristics (raises :class:`ProfileSyntaxError`)."""
        wtype = str(chars.get("type", "")).strip()
        if wtype not in WEAPON_TYPES:
            raise ProfileSyntaxError(f"type {wtype!r} should be one of {', '.join(WEAPON_TYPES)}")
        setup, fixed = parse_setup(str(chars.get("setup", "0")))
        return cls(
            name=name,
            type=wtype,
            dv=parse_dv(str(chars.get("dv", ""))),
            range=parse_range(str(chars.get("range", ""))),
            enc=_int(chars.get("enc", 0), "enc"),
            setup=setup,
            fixed_mount=fixed,
            load=_int(str(chars.get("load", "0")), "load"),
            cf=_int(chars.get("cf", 1), "cf"),
            cc=_int(chars.get("cc", 1), "cc"),
            ammo=parse_ammo(str(chars.get("ammo", "–"))),
        )


WEAPON_FIELDS = ("type", "dv", "range", "enc", "setup", "load", "cf", "cc", "ammo")


def _weapon_field_error(chars: dict[str, Any]) -> tuple[str, str] | None:
    """The first characteristic of a weapon profile that does not parse, with the reason."""
    checks: dict[str, Any] = {
        "type": lambda v: (
            None
            if str(v).strip() in WEAPON_TYPES
            else (_ for _ in ()).throw(
                ProfileSyntaxError(f"type {v!r} should be one of {', '.join(WEAPON_TYPES)}")
            )
        ),
        "dv": lambda v: parse_dv(str(v)),
        "range": lambda v: parse_range(str(v)),
        "enc": lambda v: _int(v, "enc"),
        "setup": lambda v: parse_setup(str(v)),
        "load": lambda v: _int(str(v), "load"),
        "cf": lambda v: _int(v, "cf"),
        "cc": lambda v: _int(v, "cc"),
        "ammo": lambda v: parse_ammo(str(v)),
    }
    for key in WEAPON_FIELDS:
        if key not in chars:
            return key, f"weapon profile is missing {key!r}"
        try:
            checks[key](chars[key])
        except ProfileSyntaxError as exc:
            return key, str(exc)
        except ValueError as exc:
            return key, f"{key}: {exc}"
    return None


# --------------------------------------------------------------------------- per trooper

#: Fléchette (FL): "+0.25" DV against unarmoured targets, "-0.25" against armoured ones
#: (Weapons and Equipment, Types).
FLECHETTE = {"unarmoured": 0.25, "armoured": -0.25}
TARGETS = ("unarmoured", "armoured")
TARGET_LABELS = {"unarmoured": "against unarmoured", "armoured": "against armoured"}


def dv_against(w: WeaponStats, target: str | None = None) -> float:
    """A weapon's DV against a kind of target: fléchette weapons gain 0.25 against unarmoured
    targets (no armour worn) and lose 0.25 against armoured ones (ARM 1 or more), never going
    below 0; other weapons, and any weapon against a target of ARM 0 (the Kevlar vest),
    keep their DV."""
    dv = w.dv.value or 0.0
    if target is None or "FL" not in w.dv.types:
        return dv
    return max(dv + FLECHETTE[target], 0.0)


class _KitMemo(dict[str, Any]):
    """A kit's memo (:attr:`Kit.memo`), shared by the troopers that carry the same kit:
    hashed and compared by identity (never by what it holds, which grows as it is read), so
    that a key of what is kept per set of kits can hold the memo itself; the key keeps it
    alive, so no other kit's memo can stand for it."""

    __slots__ = ()
    __hash__ = object.__hash__  # type: ignore[assignment]
    __eq__ = object.__eq__
    __ne__ = object.__ne__


@dataclass(slots=True)
class Kit:
    """What one trooper of a trooper selection carries, and what it adds up to (one per
    trooper selection and evaluation: slotted, no dict of its own)."""

    node: Node
    weapons: list[tuple[WeaponStats, int]] = field(default_factory=list)  # (stats, number)
    armour: int = 0
    wears_armour: bool = False  # an armour-table body armour is selected (Kevlar counts)
    enc: int = 0
    enc_parts: list[str] = field(default_factory=list)
    ammo_loads: list[tuple[str, int, int]] = field(default_factory=list)  # (weapon id, shots, n)
    #: target -> (DV, DV against armour) per attack type (see :func:`_kit_dvs`)
    dv_cache: dict[str | None, tuple[dict[str, float], dict[str, float]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    #: What is worked out from the kit alone (its support weapons, its weapons' value),
    #: shared by the troopers that carry the same kit.
    memo: dict[str, Any] = field(default_factory=_KitMemo, repr=False, compare=False)

    def dv(self, attack: str, target: str | None = None) -> float:
        """This trooper's contribution to one attack type (``target``: ``"unarmoured"`` or
        ``"armoured"`` applies the fléchette adjustment, see :func:`dv_against`)."""
        if attack == "melee":
            # "using the highest value for different troopers"
            return max(
                (
                    dv_against(w, target)
                    for w, _ in self.weapons
                    if w.type in {"melee", "small-melee", "pistol"}
                ),
                default=0.0,
            )
        kinds = {"secondary": {"secondary"}}.get(attack, {attack})
        return sum(dv_against(w, target) * n for w, n in self.weapons if w.type in kinds)

    @property
    def flechette(self) -> bool:
        """Whether any weapon carried is a fléchette (FL) weapon."""
        return any("FL" in w.dv.types for w, _ in self.weapons)

    def dv_vs_armour(self, attack: str) -> float:
        """The part of :meth:`dv` from weapons of DV 1 or more (they hurt armoured units)."""
        if attack == "melee":
            return max(
                (
                    w.dv.value or 0.0
                    for w, _ in self.weapons
                    if w.type in {"melee", "small-melee", "pistol"} and w.dv.anti_material
                ),
                default=0.0,
            )
        kinds = {attack}
        return sum(
            (w.dv.value or 0.0) * n
            for w, n in self.weapons
            if w.type in kinds and w.dv.anti_material
        )

    @property
    def support(self) -> list[tuple[WeaponStats, int]]:
        got: list[tuple[WeaponStats, int]] | None = self.memo.get("support")
        if got is None:
            got = self.memo["support"] = [(w, n) for w, n in self.weapons if w.type == "support"]
        return got

    @property
    def encumbered(self) -> bool:
        return self.enc >= ENCUMBERED_AT

    @property
    def hits(self) -> int:
        """Boxes on the damage track: armoured troopers take two hits ("Weapon Damage")."""
        return 2 if self.armour > 0 else 1


#: Kits worked out, by what a trooper selection holds (see :func:`_kit`): a regiment's
#: thousands of troopers carry a few dozen different kits. Kept per catalog index
#: (:meth:`CatalogIndex.memo`), as are weapon statistics and survivor tables.
_KITS = "infantry-ops.kits"
_KITS_MAX = 4096
#: Survivor tables (see :meth:`InfantryOperations._by_survivors`), by platoon make-up: the
#: kits' shared parts (held, so that their ids stay theirs) and the table.
_SURVIVORS = "infantry-ops.survivors"
#: Weapon statistics by entry (see :func:`_weapon`).
_STATS = "infantry-ops.weapons"
#: A platoon's attack values and the values that come with them, by make-up (see
#: :meth:`InfantryOperations._attack_values`).
_ATTACKS = "infantry-ops.attacks"
#: A platoon's to-hit and odds values, by gunnery (and whether assumed), attack values and
#: burst fire (see :meth:`InfantryOperations._odds`).
_ODDS = "infantry-ops.odds"
#: A squad's troopers, crews and first values, by its kits (see :func:`_squad_facts`).
_SQUADS = "infantry-ops.squads"
#: A platoon's head count, structure, guns, movement and ammunition by make-up (see
#: :func:`_head`), and its experience values by level (:func:`_level_values`).
_HEADS = "infantry-ops.heads"
_LEVELS = "infantry-ops.levels"

#: Where a platoon's figures go: (role: 0 the platoon, ``i`` + 1 its squad ``i``; key, label,
#: value, text, source), as :meth:`Evaluation.set_value` takes them.
_Emit = Callable[..., None]


@dataclass
class _Figures:
    """A platoon make-up's attack figures (see :meth:`InfantryOperations._attack_values`):
    the values set before the odds and after them, the attack values and burst fire the odds
    read, and the kits' shared parts (held, so that their ids stay theirs)."""

    held: list[tuple[Any, Any]]
    #: (role, value), as set; each value frozen (shared by every platoon of the make-up)
    before: list[tuple[int, Value]] = field(default_factory=list)
    after: list[tuple[int, Value]] = field(default_factory=list)
    avs: dict[str, int] = field(default_factory=dict)
    burst: Burst | None = None
    #: ``before`` and ``after`` by role (see :func:`_by_role`), made on first replay
    replay: tuple[_Groups, _Groups] | None = None


#: Values per role, in the order set: (role, values).
_Groups = tuple[tuple[int, tuple[Value, ...]], ...]


def _by_role(log: list[tuple[int, Value]]) -> _Groups:
    """A make-up's values grouped per role (each role's in the order set: that order is what
    a selection's values keep; the roles are given theirs one after the other)."""
    per: dict[int, list[Value]] = {}
    for role, v in log:
        per.setdefault(role, []).append(v)
    return tuple((role, tuple(vs)) for role, vs in per.items())


def _replay(ev: Evaluation, targets: list[Node], groups: _Groups) -> None:
    """Give each role's node its values: the same objects, frozen (see :func:`_shared`)."""
    put = ev.put_values
    for role, values in groups:
        put(targets[role], values)


def _kit(ev: Evaluation, trooper: Node) -> Kit:
    """What one trooper of ``trooper`` carries. Where nothing it holds has modifiers (so
    nothing depends on where it stands), the same holdings give the same kit: worked out
    once per catalog index and shared (a kit's parts are never changed once made).

    The holdings are keyed by each item's entry facts (:class:`EntryFacts`, one object per
    entry and index, hashed by identity and holding its entry, so a key cannot stand for
    another entry), the count and the name given to the selection."""
    index = ev.index
    holding = trooper.holding
    k: Any
    if holding is not None and holding.plain:
        # What it holds, made up once per catalog index (see Holding): the same entries,
        # counts and names in the same order, none with modifiers; the holding stands for
        # the key below (the kits it keys are kept apart from those the key below keys).
        k = holding
    else:
        key: list[tuple[EntryFacts, int, str | None]] = []
        for item in trooper.children:
            entry = item.entry
            if entry is None:
                continue
            if entry.modifiers:
                return _kit_uncached(ev, trooper)
            facts = item.facts
            if facts is None or facts.entry is not entry:
                facts = index.facts(entry)
            data = item.data
            key.append((facts, item.count, data.name if data is not None else None))
        k = tuple(key)
    kits: dict[Any, Kit] = index.memo(_KITS)
    t = kits.get(k)
    if t is None:
        if len(kits) >= _KITS_MAX:
            kits.clear()
        t = kits[k] = _kit_uncached(ev, trooper)
    return Kit(
        trooper,
        t.weapons,
        t.armour,
        t.wears_armour,
        t.enc,
        t.enc_parts,
        t.ammo_loads,
        t.dv_cache,
        t.memo,
    )


def _kit_uncached(ev: Evaluation, trooper: Node) -> Kit:
    kit = Kit(trooper)
    for item in trooper.children:
        if item.entry is None:
            continue
        n = item.count
        profile_type = _profile_type(item)
        if profile_type == "weapon":
            stats = _weapon(ev, item)
            if stats is None:
                continue
            kit.weapons.append((stats, n))
            if stats.enc:
                kit.enc += stats.enc * n
                kit.enc_parts.append(f"{ev.name(item)} {stats.enc * n}")
        elif profile_type == "armour" or item.has_category("armour") or item.has_category("suit"):
            data = item.entry.data
            armour = int(data.get("armour", ev.characteristic(item, "armour") or 0))
            enc = int(data.get("enc", ev.characteristic(item, "enc") or 0))
            kit.armour = max(kit.armour, armour)
            kit.wears_armour = kit.wears_armour or item.has_category("armour")
            if enc:
                kit.enc += enc * n
                kit.enc_parts.append(f"{ev.name(item)} {enc * n}")
        elif item.has_category("ammunition"):
            data = item.entry.data
            enc = int(data.get("enc", 0))
            kit.ammo_loads.append((str(data.get("weapon", "")), int(data.get("shots", 0)), n))
            if enc:
                kit.enc += enc * n
                kit.enc_parts.append(f"{ev.name(item)} {enc * n}")
    return kit


def _kit_values(k: Kit) -> tuple[Value, ...]:
    """A trooper selection's own values (encumbrance, armour, weapons): made once per kit
    and shared by the troopers that carry it (frozen values; the weapons list is one
    frozen list for them all: :mod:`armybuilder.rules.frozen`)."""
    got: tuple[Value, ...] | None = k.memo.get("values")
    if got is None:
        values = [
            Value(
                "encumbrance",
                "Encumbrance",
                k.enc,
                f"{k.enc}" + (" (encumbered)" if k.encumbered else ""),
                f"{SRC}, Weapons and Equipment (Encumbrance)",
            ),
            Value("armour", "Armour points", k.armour),
        ]
        if k.weapons:
            values.append(
                Value(
                    "weapons",
                    "Weapons",
                    freeze([_weapon_json(w, n) for w, n in k.weapons]),
                    "; ".join(_weapon_text(w, n) for w, n in k.weapons),
                    f"{SRC}, Weapon Statistics",
                )
            )
        got = k.memo["values"] = tuple(values)
    return got


def _odds_values(
    gunnery: int, assumed: bool, avs: dict[str, int], burst: Burst | None
) -> tuple[Value, ...]:
    """A platoon's ``to_hit`` and ``odds_*`` values (see :meth:`InfantryOperations._odds`),
    frozen: every platoon of the same attack values and gunnery on the catalog is given the
    same ones (:mod:`armybuilder.rules.frozen`)."""
    value, text = to_hit_value(gunnery)
    if assumed:
        text += f" (gunnery {gunnery} assumed: no experience chosen)"
    src = f"{SRC}, Infantry Attacks (Attack Roll, Target Number)"
    out = [Value("to_hit", "To hit (2D6)", freeze(value), text, src)]
    for a in ATTACK_TYPES:
        if not avs[a] or avs[a] > MAX_ODDS_AV:
            # no odds for an attack value no platoon of the rules comes near (a count
            # typed by mistake): the cluster table is read in a column per 40 points
            continue
        value, text = attack_value_odds(
            avs[a], gunnery, burst if a == "support" else None, melee=a == "melee"
        )
        out.append(
            Value(
                f"odds_{a}",
                f"{ATTACK_LABELS[a].removesuffix(' AV')} attack odds",
                freeze(value),
                text,
                f"{SRC}, Infantry Attacks; Weapon Damage; cluster hits table",
            )
        )
    return tuple(out)


def _profile_type(node: Node) -> str | None:
    if node.entry is None or not node.entry.profiles:
        return None
    return node.entry.profiles[0].type


def _weapon(ev: Evaluation, node: Node) -> WeaponStats | None:
    entry = node.entry
    if entry is None:
        return None
    plain = not any(m.field.startswith("characteristic:") for m in entry.modifiers) and not (
        node.data is not None and node.data.name
    )
    if plain:
        # Same entry object, same stats: parse each weapon profile once per catalog index.
        known: dict[int, tuple[Entry, WeaponStats | None]] = ev.index.memo(_STATS)
        cached = known.get(id(entry))
        if cached is not None and cached[0] is entry:
            return cached[1]
    stats = _weapon_uncached(ev, node)
    if plain:
        known[id(entry)] = (entry, stats)
    return stats


def _weapon_uncached(ev: Evaluation, node: Node) -> WeaponStats | None:
    assert node.entry is not None
    for p in node.entry.profiles:
        if p.type == "weapon":
            chars = {k: ev.characteristic(node, k, "weapon") for k in p.characteristics}
            try:
                return WeaponStats.from_profile(ev.name(node), chars)
            except (ProfileSyntaxError, ValueError):
                return None  # reported by check_catalog
    return None


# --------------------------------------------------------------------------- platoon


@dataclass(slots=True)
class SquadView:
    node: Node
    kits: list[Kit]
    #: Its kits, each by its memo with its count (see :func:`_kits_key`), once worked out.
    key: tuple[tuple[dict[str, Any], int], ...] | None = None

    @property
    def troopers(self) -> int:
        """Troopers in one copy of this squad."""
        return sum(k.node.count for k in self.kits)


@dataclass(frozen=True)
class _SquadFacts:
    """What one copy of a squad holds and needs (see :func:`_squad_facts`)."""

    held: tuple[dict[str, Any], ...]  # its kits' shared parts (so that their ids stay theirs)
    troopers: int
    carry: int  # crew to carry its support weapons
    fire: int  # crew to fire them
    names: str  # its support weapons, as the crew messages list them
    values: tuple[Value, ...]  # troopers, and crew to carry and to fire when it has any


def _kits_key(sq: SquadView) -> tuple[tuple[dict[str, Any], int], ...]:
    """A squad's kits, each by its memo (hashed by identity and held by the key: see
    :class:`_KitMemo`) with as many troopers as carry it; worked out once per squad."""
    key = sq.key
    if key is None:
        key = sq.key = tuple((k.memo, k.node.count) for k in sq.kits)
    return key


def _make_up(squads: list[SquadView]) -> tuple[Any, ...]:
    """A platoon's squads, each by its copies and kits (:func:`_kits_key`): what the figures
    kept per make-up are keyed by."""
    return tuple((sq.node.count, _kits_key(sq)) for sq in squads)


def _squad_facts(ev: Evaluation, sq: SquadView) -> _SquadFacts:
    """A squad's troopers and crews, and its first values: worked out once per catalog index
    and set of kits (as many troopers of each) and shared (frozen values of numbers)."""
    key = _kits_key(sq)
    known: dict[Any, _SquadFacts] = ev.index.memo(_SQUADS)
    got = known.get(key)
    if got is not None:
        return got
    n = sq.troopers
    carry = sum(w.cc * c * k.node.count for k in sq.kits for w, c in k.support)
    fire = sum(w.cf * c * k.node.count for k in sq.kits for w, c in k.support)
    crew_weapons = [(w, c * k.node.count) for k in sq.kits for w, c in k.support]
    values = [Value("troopers", "Troopers", n)]
    if crew_weapons:
        values.append(
            Value(
                "crew_to_carry",
                "Crew to carry support weapons",
                carry,
                source=f"{SRC}, Weapon Statistics",
            )
        )
        values.append(
            Value(
                "crew_to_fire",
                "Crew to fire support weapons",
                fire,
                source=f"{SRC}, Infantry Attacks",
            )
        )
    names = ", ".join(f"{c} × {w.name} (carry {w.cc}, fire {w.cf})" for w, c in crew_weapons)
    got = _SquadFacts(tuple(k.memo for k in sq.kits), n, carry, fire, names, tuple(values))
    if len(known) >= _KITS_MAX:
        known.clear()
    known[key] = got
    return got


def _shared(v: Value) -> Value:
    """``v`` with its lists and dicts frozen (:func:`~armybuilder.rules.frozen.freeze`): the
    same value to every reader (``==``, ``repr``, JSON, templates), and one object that every
    platoon of a make-up can be given, since none can change it for the others (a change in
    place raises :class:`~armybuilder.rules.frozen.FrozenValueError`)."""
    value = v.value
    if type(value) is FrozenDict or type(value) is FrozenList or not isinstance(value, dict | list):
        return v
    return Value(v.key, v.label, freeze(value), v.text, v.source)


@dataclass(frozen=True)
class _Head:
    """A platoon make-up's head count, structure, guns, encumbrance, movement, damage track
    and ammunition (see :func:`_head`)."""

    troopers: int
    squad_count: int
    gun_count: int
    gun_crew: int
    first: tuple[Value, ...]  # troopers, squads, structure, motive
    second: tuple[Value, ...]  # field guns, gun crew, troopers not crewing, encumbered
    movement: Value | None
    boxes: tuple[Value, ...]
    ammo: Value | None
    ammo_names: list[str]  # the weapons with ammunition (read only)


def _head(
    ev: Evaluation,
    motive: Motive | None,
    squads: list[SquadView],
    per_squad: list[int],
    guns: list[tuple[Node, int]],
) -> _Head:
    """What a platoon's make-up (its kits, as many of each, in squads of as many copies, its
    motive and its field guns) gives alike to every platoon of that make-up: worked out once
    per catalog index and make-up."""
    # (the kits by their memos, the motive and guns by their entries' facts: objects hashed
    # by identity and held by the key, so that no other entry or kit can stand for them)
    key = (
        _make_up(squads),
        (_facts(ev, motive.node), motive.name) if motive is not None else None,
        tuple((_facts(ev, g), n) for g, n in guns),
    )
    known: dict[Any, _Head] = ev.index.memo(_HEADS)
    got = known.get(key)
    if got is not None:
        return got

    troopers = sum(n * sq.node.count for n, sq in zip(per_squad, squads, strict=True))
    squad_count = sum(sq.node.count for sq in squads)
    sizes = sorted(set(per_squad), reverse=True)
    structure = f"{'+'.join(str(s) for s in sizes) or 0}/{squad_count}"
    first = [
        Value("troopers", "Troopers", troopers),
        Value("squads", "Squads", squad_count),
        Value(
            "structure",
            "Structure (troopers/squads)",
            structure,
            source=f"{SRC}, The Infantry Platoon",
        ),
    ]
    if motive is not None:
        first.append(Value("motive", "Motive type", motive.name))

    gun_crew = sum(int(g.entry.data.get("tons", 0)) * n for g, n in guns if g.entry)
    gun_count = sum(n for _, n in guns)
    second: list[Value] = []
    if guns:
        second.append(Value("field_guns", "Field guns", gun_count))
        second.append(
            Value(
                "gun_crew",
                "Gun crew needed",
                gun_crew,
                f"{gun_crew} (crew = the guns' tonnage)",
                f"{SRC}, Attacks by Gunnery Crews",
            )
        )
        second.append(
            Value(
                "unassigned",
                "Troopers not crewing guns",
                max(troopers - gun_crew, 0),
                source=f"{SRC}, Attacks by Gunnery Crews",
            )
        )
    all_kits = [(k, sq.node.count) for sq in squads for k in sq.kits]
    encumbered = sum(k.node.count * m for k, m in all_kits if k.encumbered)
    second.append(
        Value(
            "encumbered",
            "Encumbered troopers",
            encumbered,
            source=f"{SRC}, Weapons and Equipment (Encumbrance)",
        )
    )
    movement = (
        _shared(_movement_value(motive, encumbered > 0, bool(guns))) if motive is not None else None
    )
    boxes = sum(k.hits * k.node.count * m for k, m in all_kits)
    boxes_value = Value(
        "damage_boxes",
        "Damage boxes",
        boxes,
        f"{boxes} ({troopers} troopers, armoured ones take two hits)",
        f"{SRC}, Weapon Damage",
    )
    ammo, names = _ammo_value(ev, all_kits)
    got = _Head(
        troopers,
        squad_count,
        gun_count,
        gun_crew,
        tuple(first),
        tuple(second),
        movement,
        (boxes_value,),
        _shared(ammo) if ammo is not None else None,
        names,
    )
    if len(known) >= _KITS_MAX:
        known.clear()
    known[key] = got
    return got


def _facts(ev: Evaluation, node: Node | None) -> EntryFacts | None:
    """The entry facts of a selection's entry (one object per entry and catalog index,
    hashed by identity and holding its entry), for keys of what is kept per entry."""
    if node is None or node.entry is None:
        return None
    facts = node.facts
    if facts is None or facts.entry is not node.entry:
        facts = ev.index.facts(node.entry)
    return facts


def _level_values(ev: Evaluation, level: Any) -> tuple[Value, ...]:
    """A platoon's experience, gunnery and morale values, once per experience level."""
    known: dict[int, tuple[Any, tuple[Value, ...]]] = ev.index.memo(_LEVELS)
    got = known.get(id(level))
    if got is not None and got[0] is level:
        return got[1]
    values = (
        Value("experience", "Experience", level.name),
        Value(
            "gunnery", "Gunnery skill", str(level.data.get("gunnery", "")), source=f"{SRC}, Morale"
        ),
        Value("morale_tn", "Morale base TN", level.data.get("morale_tn"), source=f"{SRC}, Morale"),
    )
    known[id(level)] = (level, values)
    return values


def _movement_value(motive: Motive, encumbered: bool, towing: bool) -> Value:
    """A platoon's movement ("Movement Points"; encumbrance, towing guns)."""
    d = motive.data
    mp, fast = d.get("mp"), d.get("fast")
    jump = d.get("jump")
    src = f"{SRC}, Movement Points"
    if mp is None:
        return Value("movement", "Movement", None, "not given by the rules", src)
    if motive.foot_or_jump and encumbered:
        enc_mp = d.get("encumbered", 0)
        text = f"{enc_mp}*"
        value: dict[str, Any] = {"mp": enc_mp, "fast": None, "encumbered": True}
        if jump is not None:
            ej = d.get("encumbered_jump")
            text += f", jump {ej}"
            value["jump"] = ej
        return Value("movement", "Movement", value, text + " (encumbered: no fast movement)", src)
    if towing and motive.mechanised:
        mp = mp - 1  # "Those units subtract 1 from their cruise movement."
    text = f"{mp} ({fast})" if fast is not None else f"{mp}"
    value = {"mp": mp, "fast": fast, "encumbered": False}
    if jump is not None:
        text += f", jump {jump}"
        value["jump"] = jump
    if towing and motive.mechanised:
        text += " (towing guns: cruise -1)"
    return Value("movement", "Movement", value, text, src)


def _ammo_value(ev: Evaluation, kits: list[tuple[Kit, int]]) -> tuple[Value | None, list[str]]:
    """A platoon's ammunition (Weapons and Equipment, Ammo): the value (``None``: no weapon
    with ammunition) and the names of those weapons."""
    tally: dict[str, dict[str, Any]] = {}
    for k, copies in kits:
        n = k.node.count * copies
        for w, c in k.weapons:
            if w.ammo.shots is None and not w.ammo.per_missile:
                continue
            t = tally.setdefault(w.name, {"weapons": 0, "ammo": "", "reloads": 0})
            t["weapons"] += c * n
            t["ammo"] = w.ammo.text()
        for weapon_id, shots, loads in k.ammo_loads:
            name = ev.index.name_of(weapon_id)
            t = tally.setdefault(name, {"weapons": 0, "ammo": "", "reloads": 0})
            t["reloads"] += shots * loads * n
    if not tally:
        return None, []
    parts = []
    for name, t in tally.items():
        part = f"{name}: {t['weapons']} × {t['ammo']}" if t["weapons"] else name
        if t["reloads"]:
            part += f", {t['reloads']} reload shots carried"
        parts.append(part)
    value = Value(
        "ammo",
        "Ammunition",
        tally,
        "; ".join(parts),
        f"{SRC}, Weapons and Equipment (Ammo)",
    )
    return value, list(tally)


def _squads(platoon: Node) -> list[SquadView]:
    return [
        SquadView(s, [])
        for s in platoon.children
        if s.entry is not None and "squad" in s.entry.categories
    ]


@dataclass
class Motive:
    node: Node | None
    name: str
    categories: list[str]
    data: dict[str, Any]

    @property
    def foot_or_jump(self) -> bool:
        return "motive-foot" in self.categories or "motive-jump" in self.categories

    @property
    def mechanised(self) -> bool:
        return "mechanised" in self.categories


def _motive(ev: Evaluation, platoon: Node) -> Motive | None:
    for c in platoon.children:
        if c.has_category("motive") and c.entry is not None:
            return Motive(c, ev.name(c), list(c.entry.categories), dict(c.entry.data))
    return None


@dataclass
class Contribution:
    """What each of ``number`` identical troopers adds to each attack type."""

    dv: dict[str, float]
    vs_armour: dict[str, float]
    number: int
    support: bool
    weight: float = field(init=False)  # the sum of its DVs: who is taken out first

    def __post_init__(self) -> None:
        self.weight = sum(self.dv.values())


def _kit_dvs(k: Kit, target: str | None) -> tuple[dict[str, float], dict[str, float]]:
    """One trooper's DV per attack type, and the part that hurts armour (computed once per
    kit and target: a platoon's analysis asks for them many times). Shared, never changed."""
    got = k.dv_cache.get(target)
    if got is None:
        got = (
            {a: k.dv(a, target) for a in ATTACK_TYPES},
            {a: k.dv_vs_armour(a) for a in ATTACK_TYPES},
        )
        k.dv_cache[target] = got
    return got


def _contributions(
    kits: Iterable[Kit], copies: int = 1, target: str | None = None
) -> list[Contribution]:
    out = []
    for k in kits:
        dv, vs_armour = _kit_dvs(k, target)
        out.append(Contribution(dv, vs_armour, k.node.count * copies, bool(k.support)))
    return out


def _exclude(
    pool: list[Contribution],
    n: int,
    attacks: Iterable[str] = ATTACK_TYPES,
    support_last: bool = False,
) -> tuple[dict[str, float], dict[str, float]]:
    """Take ``n`` troopers out of a pool, weakest first; returns what they contributed.

    Used where the rules take troopers out of the attacks without saying which (a mechanised
    squad's driver, gun crews, the assistants of a crew weapon): we keep the strongest
    attackers in, as a player would. The result is (DV removed, DV removed that could hurt
    armour), per attack type.
    """
    removed = dict.fromkeys(ATTACK_TYPES, 0.0)
    removed_armour = dict.fromkeys(ATTACK_TYPES, 0.0)
    order = sorted(pool, key=lambda c: (c.support if support_last else False, c.weight))
    for c in order:
        if n <= 0:
            break
        take = min(n, c.number)
        for a in attacks:
            removed[a] += c.dv[a] * take
            removed_armour[a] += c.vs_armour[a] * take
        n -= take
    return removed, removed_armour


class _Weakest:
    """:func:`_exclude` of a pool of one-trooper contributions that grows at its front, as
    :meth:`InfantryOperations._by_survivors` asks for it (the last ``n`` troopers of the loss
    order, for each ``n``): the pool is kept sorted as :func:`_exclude` sorts it (by weight,
    ties in pool order), one insertion per trooper instead of a sort of the whole pool per
    ``n``. Gives what :func:`_exclude` gives, summed in the same order."""

    def __init__(self) -> None:
        self._sorted: list[tuple[float, int, Contribution]] = []
        self._front = 0  # pool position of the trooper added last, counting down

    def add(self, trooper: Contribution, n: int) -> dict[str, float]:
        """Put ``trooper`` (of number 1) at the front of the pool; the DV per attack type of
        the ``n`` weakest troopers of the pool (the first of :func:`_exclude`'s results)."""
        self._front -= 1
        bisect.insort(self._sorted, (trooper.weight, self._front, trooper))
        removed = dict.fromkeys(ATTACK_TYPES, 0.0)
        for _, _, c in self._sorted[: max(n, 0)]:
            dv = c.dv
            for a in ATTACK_TYPES:
                removed[a] += dv[a] * c.number
        return removed


def _round_up(x: float) -> int:
    # Sums of quarter DVs are exact in binary floating point; guard anyway.
    return math.ceil(round(x, 6))


#: Campaign state (a selection's ``state:``): all of it is the battle in progress. The
#: damage a platoon has taken may be given as ``damage``, ``wounds`` or ``hits`` (the sheet
#: reads the first present).
STATE_KEYS: tuple[StateKey, ...] = (
    StateKey(
        "damage",
        "int",
        "On a platoon, points of damage taken, ticked on its troopers in damage order "
        "(support weapon troopers last); on a trooper selection, boxes of its troopers ticked.",
        history=False,
        source=f"{SRC}, Weapon Damage (Damage vs Conventional Infantry)",
        example="3",
    ),
    StateKey(
        "wounds",
        "int",
        "The same as damage (another name the sheet reads; give only one of them).",
        history=False,
        source=f"{SRC}, Weapon Damage (Damage vs Conventional Infantry)",
        example="3",
    ),
    StateKey(
        "hits",
        "int",
        "The same as damage (another name the sheet reads; give only one of them).",
        history=False,
        source=f"{SRC}, Weapon Damage (Damage vs Conventional Infantry)",
        example="3",
    ),
    StateKey(
        "lost",
        "int",
        "Troopers of this selection incapacitated (all their boxes crossed).",
        history=False,
        source=f"{SRC}, Weapon Damage (Damage vs Conventional Infantry)",
        example="2",
    ),
    StateKey(
        "ammo_spent",
        "map-int",
        "On a platoon, shots fired so far, by the name of the weapon.",
        history=False,
        source=f"{SRC}, Weapons and Equipment (Ammo)",
        example="{SRM1: 2}",
    ),
)


#: The most troopers a platoon's "attack value by troopers left" table is worked out for (a
#: platoon of the rules has at most a few dozen; the record sheet prints a box per trooper).
MAX_TRACK_TROOPERS = 500

#: The largest attack value whose exact odds are worked out (the rules' platoons reach ~30).
MAX_ODDS_AV = 2000


class InfantryOperations(SystemRules):
    """The Infantry Operations rules module."""

    system_id = "infantry-ops"
    subtree_local = True  # a platoon's values depend on the platoon (and its experience)

    # ----------------------------------------------------------------- catalog checks

    def state_keys(self) -> tuple[StateKey, ...]:
        return STATE_KEYS

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        files: list[tuple[str, Any]] = [("system", system)]
        if faction is not None:
            files = [("faction", faction)]
        reloads: list[tuple[str, list[str | int], Entry]] = []
        carried: dict[str, str] = {}  # weapon id -> its printed ammo ("1 (2)")
        for which, model in files:
            for loc, entry in _entries_with_loc(model):
                for j, p in enumerate(entry.profiles):
                    if p.type != "weapon":
                        continue
                    err = _weapon_field_error(p.characteristics)
                    if err is not None:
                        key, msg = err
                        yield (
                            which,
                            [*loc, "profiles", j, "characteristics", key],
                            f"{entry.name}: {msg}",
                        )
                if "ammunition" in entry.categories:
                    for key in ("weapon", "shots", "enc"):
                        if key not in entry.data:
                            yield (
                                which,
                                [*loc, "data"],
                                f"{entry.name}: ammunition needs data.{key}",
                            )
                if "ammunition" in entry.categories:
                    reloads.append((which, loc, entry))
                for p in entry.profiles:
                    if p.type == "weapon":
                        carried[entry.id] = str(p.characteristics.get("ammo", ""))
                if "field-gun" in entry.categories and not isinstance(
                    entry.data.get("tons"), int | float
                ):
                    yield (
                        which,
                        [*loc, "data"],
                        f"{entry.name}: a field gun needs data.tons (its crew)",
                    )

        # A reload holds the bracketed number of shots of its weapon's ammo (Ammo).
        for which, loc, entry in reloads:
            printed = carried.get(str(entry.data.get("weapon", "")))
            if printed is None:
                continue  # a weapon of another file: not checked here
            try:
                ammo = parse_ammo(printed)
            except ProfileSyntaxError:
                continue  # reported with the weapon
            shots = entry.data.get("shots")
            if ammo.carried is not None and shots != ammo.carried:
                yield (
                    which,
                    [*loc, "data", "shots"],
                    f"{entry.name}: a reload of {entry.data.get('weapon')} holds "
                    f"{ammo.carried} shots (its ammo is printed {printed!r}), not {shots}",
                )

    # ----------------------------------------------------------------- analysis

    def analyse(self, ev: Evaluation) -> None:
        roster_platoons = roster_troopers = 0
        for platoon in ev.nodes_in("platoon"):
            troopers, _ = ev.subtree(
                platoon,
                "infantry-ops",
                lambda p=platoon: self._platoon(ev, p),  # type: ignore[misc]
            )
            mult = platoon.multiplicity()
            roster_platoons += mult
            roster_troopers += troopers * mult
        ev.set_value(ev.root, "platoons", "Platoons", roster_platoons)
        ev.set_value(ev.root, "troopers", "Troopers", roster_troopers)
        self._sheet_data(ev)

    def _sheet_data(self, ev: Evaluation) -> None:
        """The figures the record sheet prints beside the cluster table and the damage track
        (Margin of Success; Weapon Damage: in the open, dug in), from the system's data."""
        data = ev.index.system.model.data
        taken = data.get("damage_taken")
        taken = taken if isinstance(taken, dict) else {}
        shift = data.get("margin_shift")
        value = {
            "margin_shift": shift if isinstance(shift, int) else None,
            "open": taken.get("in_the_open"),
            "dug_in": taken.get("dug_in"),
        }
        if any(v is not None for v in value.values()):
            ev.set_value(
                ev.root,
                "sheet_data",
                "Damage and margin rules",
                value,
                text=f"margin of success {shift:+d} on the cluster roll per point; damage "
                f"×{fmt_num(value['open'] or 1)} in the open, ×{fmt_num(value['dug_in'] or 1)} "
                "dug in"
                if isinstance(shift, int)
                else "",
                source=f"{SRC}, Margin of Success/Failure; Weapon Damage",
            )

    def _platoon(self, ev: Evaluation, platoon: Node) -> tuple[int, dict[str, int]]:
        motive = _motive(ev, platoon)
        squads = _squads(platoon)
        per_squad: list[int] = []  # troopers in one copy of each squad
        for sq in squads:
            # (t.has_category("trooper"), inlined: a squad holds dozens of troopers)
            sq.kits = [
                _kit(ev, t)
                for t in sq.node.children
                if t.entry is not None and "trooper" in t.entry.categories
            ]
            per_squad.append(self._squad(ev, sq, motive))

        # ---- head count, structure, guns, encumbrance, movement, damage track: the same
        # for every platoon of one make-up (see :func:`_head`)
        guns = [
            (g, g.count)
            for g in platoon.children
            if g.entry is not None and "field-gun" in g.entry.categories
        ]
        head = _head(ev, motive, squads, per_squad, guns)
        troopers, squad_count, gun_crew = head.troopers, head.squad_count, head.gun_crew
        ev.put_values(platoon, head.first)
        if not squad_count and not any(n.has_category("trooper") for n in platoon.walk()):
            # A platoon is its squads: with none (and no troopers of a platoon a user defined
            # without squads) it cannot take the field; not merely under strength, which the
            # catalog's minimum warns about.
            ev.error(
                "io-no-squads",
                f"{ev.where(platoon)} has no squads; a platoon fields at least one squad "
                "(add a Squad from the catalog)",
                platoon,
                f"{SRC}, The Infantry Platoon",
            )

        # ---- experience
        level = ev.experience(platoon)
        if level is not None:
            ev.put_values(platoon, _level_values(ev, level))

        # ---- guns, encumbrance, movement
        ev.put_values(platoon, head.second)
        if guns and gun_crew > troopers:
            ev.error(
                "io-gun-crew-short",
                f"{ev.where(platoon)} has {troopers} troopers but its {head.gun_count} field "
                f"gun(s) need a crew of {gun_crew} (one trooper per ton)",
                platoon,
                f"{SRC}, Attacks by Gunnery Crews",
            )
        if head.movement is not None:
            ev.put_values(platoon, (head.movement,))

        # ---- mass and damage track
        mass = ev.total_cost(platoon).get("kg", 0.0) / max(platoon.count, 1)
        ev.set_value(
            platoon,
            "mass",
            "Mass",
            mass,
            text=f"{_number(mass)} kg",
            source=f"{SRC}, Movement Points (mass); support weapons' mass not given",
        )
        ev.put_values(platoon, head.boxes)

        # ---- attack values
        drivers = squad_count if motive is not None and motive.mechanised else 0
        if ev.values_wanted:
            avs = self._attack_values(ev, platoon, squads, drivers=drivers, gun_crew=gun_crew)
        else:
            # Read by no check (a platoon's attack values, odds and survivor tables are
            # figures to show): left out where only issues and costs are read (`validate`).
            avs = dict.fromkeys(ATTACK_TYPES, 0)
        if head.ammo is not None:
            ev.put_values(platoon, (head.ammo,))
        self._ammo_state(ev, platoon, head.ammo_names)
        return troopers, avs

    def _squad(self, ev: Evaluation, sq: SquadView, motive: Motive | None) -> int:
        """A squad's values and issues, and those of its troopers; returns the troopers in
        one copy of it."""
        node = sq.node
        facts = _squad_facts(ev, sq)
        n, carry, fire = facts.troopers, facts.carry, facts.fire
        ev.put_values(node, facts.values)
        if carry > n:
            ev.error(
                "io-crew-to-carry",
                f"{ev.where(node)} has {n} troopers but its support weapons need {carry} "
                f"to carry them: {facts.names}",
                node,
                f"{SRC}, Weapon Statistics (Crew to Carry)",
            )
        if fire > n:
            ev.error(
                "io-crew-to-fire",
                f"{ev.where(node)} has {n} troopers but its support weapons need {fire} "
                f"to fire them: {facts.names}",
                node,
                f"{SRC}, Infantry Attacks",
            )
        for k in sq.kits:
            ev.put_values(k.node, _kit_values(k))
            if k.encumbered:
                effect = _encumbered_effect(motive)
                ev.warning(
                    "io-encumbered",
                    f"{ev.where(k.node)} carries {k.enc} encumbrance points "
                    f"({', '.join(k.enc_parts)}): encumbered, {effect}; may move or "
                    "fire in a turn, not both",
                    k.node,
                    f"{SRC}, Weapons and Equipment (Encumbrance)",
                )
        unarmoured = [k for k in sq.kits if not k.wears_armour]
        level = ev.experience(node) if unarmoured else None
        if unarmoured and (level is None or level.id != "civilian"):
            # Armour is the standard kit of a soldier (Weapons and Equipment), but troopers
            # without it are legal: the advanced damage table gives unarmoured (civilian)
            # targets +4, and the morale table has a Civilian level.
            for k in unarmoured:
                ev.warning(
                    "io-no-armour",
                    f"{ev.where(k.node)} wears no armour; soldiers normally wear at least "
                    "the Kevlar vest and helmet (unarmoured troopers are civilians: +4 on "
                    "the advanced damage table, fléchette weapons +0.25 DV against them)",
                    k.node,
                    f"{SRC}, Weapons and Equipment (Armour); Advanced Damage System",
                )
        if motive is not None and motive.mechanised:
            max_crew = motive.data.get("max_crew")
            if isinstance(max_crew, int) and n > max_crew + 1:
                ev.error(
                    "io-vehicle-capacity",
                    f"{ev.where(node)} has {n} troopers; its {motive.name} vehicle carries "
                    f"{max_crew} plus the driver",
                    node,
                    f"{SRC}, Movement Points",
                )
        return n

    def _attack_values(
        self,
        ev: Evaluation,
        platoon: Node,
        squads: list[SquadView],
        drivers: int,
        gun_crew: int,
    ) -> dict[str, int]:
        """Attack values per attack type ("Infantry Attacks"), with the exclusions the rules
        make: a mechanised squad's driver, gun crews, and crew-weapon assistants.

        Platoons of the same make-up (the same kits, as many of each, the same drivers and
        gun crew) get the same figures: worked out once per catalog index and make-up, and
        each such platoon (and its squads) then gets the same values (frozen, see
        :func:`_shared`), in the order the first one got them. The odds, which read the
        platoon's experience, are worked out for each platoon."""
        # (each kit by its memo, hashed by identity and held by the key, see :class:`_KitMemo`;
        # a kit's DV cache is made with its memo and shared with it, so the memo stands for
        # both)
        key = (_make_up(squads), drivers, gun_crew)
        known: dict[Any, _Figures] = ev.index.memo(_ATTACKS)
        targets = [platoon, *(sq.node for sq in squads)]
        got = known.get(key)
        if got is not None:
            if got.replay is None:
                got.replay = (_by_role(got.before), _by_role(got.after))
            _replay(ev, targets, got.replay[0])
            self._odds(ev, platoon, got.avs, got.burst)
            _replay(ev, targets, got.replay[1])
            return dict(got.avs)
        figures = _Figures([(k.dv_cache, k.memo) for sq in squads for k in sq.kits])
        log = figures.before

        def emit(
            role: int, key: str, label: str, value: Any, text: str = "", source: str = ""
        ) -> None:
            # Frozen, one object for this platoon and every later one of its make-up.
            kept = _shared(Value(key, label, value, text, source))
            log.append((role, kept))
            ev.put_values(targets[role], (kept,))

        def odds(avs: dict[str, int], burst: Burst | None) -> None:
            nonlocal log
            self._odds(ev, platoon, avs, burst)
            figures.avs, figures.burst = dict(avs), burst
            log = figures.after

        result = self._attack_figures(ev, squads, drivers, gun_crew, emit, odds)
        if len(known) >= _KITS_MAX:
            known.clear()
        known[key] = figures
        return result

    def _attack_figures(
        self,
        ev: Evaluation,
        squads: list[SquadView],
        drivers: int,
        gun_crew: int,
        emit: _Emit,
        odds: Callable[[dict[str, int], Burst | None], None],
    ) -> dict[str, int]:
        """:meth:`_attack_values` worked out: values go to ``emit`` (role 0: the platoon;
        ``i`` + 1: its squad ``i``), and the odds are asked for (``odds``) where they belong
        among them."""
        raw = dict.fromkeys(ATTACK_TYPES, 0.0)
        armour = dict.fromkeys(ATTACK_TYPES, 0.0)
        removed = dict.fromkeys(ATTACK_TYPES, 0.0)
        removed_armour = dict.fromkeys(ATTACK_TYPES, 0.0)
        assist_removed = dict.fromkeys(ATTACK_TYPES, 0.0)
        burst: list[tuple[Dice, int]] = []
        platoon_pool: list[Contribution] = []
        for role, sq in enumerate(squads, 1):
            copies = sq.node.count
            pool = _contributions(sq.kits)
            platoon_pool.extend(_contributions(sq.kits, copies))
            for c in pool:
                for a in ATTACK_TYPES:
                    raw[a] += c.dv[a] * c.number * copies
                    armour[a] += c.vs_armour[a] * c.number * copies
            assistants = 0
            for k in sq.kits:
                for w, n in k.support:
                    assistants += (w.cf - 1) * n * k.node.count
                    if w.dv.burst is not None:
                        burst.append((w.dv.burst, n * k.node.count * copies))
            if drivers and not gun_crew:
                # "One trooper is designated the driver, so they may not add their DV to
                # their units' AV" (Mechanised movement): one per squad's vehicle.
                r, ra = _exclude(pool, 1)
                for a in ATTACK_TYPES:
                    removed[a] += r[a] * copies
                    removed_armour[a] += ra[a] * copies
            if assistants:
                # Troopers firing a weapon with Crew to Fire 2+ add nothing to other attacks.
                r, _ = _exclude(
                    pool, assistants, ("primary", "secondary", "melee"), support_last=True
                )
                for a in ATTACK_TYPES:
                    assist_removed[a] += r[a] * copies
            self._squad_avs(emit, role, sq, driver=bool(drivers))
        if gun_crew:
            # "Gunnery crews manning field guns ... can't make infantry attacks"; the rest may.
            # A towing squad's driver is counted in the crew: in the text's own example 24 of
            # a tracked platoon's 28 crew three AC/5s and "4 unassigned" may attack.
            removed, removed_armour = _exclude(platoon_pool, max(gun_crew, drivers))

        result: dict[str, int] = {}
        src = f"{SRC}, Infantry Attacks"
        for a in ATTACK_TYPES:
            total = max(raw[a] - removed[a], 0.0)
            vs_armour = max(armour[a] - removed_armour[a], 0.0)
            av = _round_up(total)
            result[a] = av
            info: dict[str, Any] = {"av": av, "dv_total": total, "vs_armour": _round_up(vs_armour)}
            text = f"{av}" if total else "—"
            if a == "support" and burst:
                bonus = _burst_bonus(burst)
                info["burst"] = bonus
                text += f" +{bonus}"
            if total and vs_armour == 0:
                text += " (anti-personnel only)"
            elif total and vs_armour < total:
                text += f" ({_round_up(vs_armour)} against armour)"
            emit(0, f"av_{a}", ATTACK_LABELS[a], info, text=text, source=src)
        odds(result, _burst_spec(burst) if burst else None)
        if any(k.flechette for sq in squads for k in sq.kits):
            self._flechette_avs(emit, squads, drivers, gun_crew, result)
        self._survivor_values(ev, emit, squads, drivers, gun_crew, burst, result)
        if any(assist_removed.values()) and raw["support"]:
            while_support = {
                a: _round_up(max(raw[a] - removed[a] - assist_removed[a], 0.0))
                for a in ("primary", "secondary", "melee")
            }
            emit(
                0,
                "av_primary_with_support",
                "Primary AV while crew weapons fire",
                while_support["primary"],
                text=f"{while_support['primary']} (crews of support weapons add nothing else)",
                source=src,
            )
            emit(
                0,
                "av_while_support",
                "AVs while crew weapons fire",
                while_support,
                text=", ".join(f"{a} {v}" for a, v in while_support.items()),
                source=src,
            )
        return result

    def against(self, ev: Evaluation, other: Evaluation) -> list[Matchup]:
        """Each platoon's attacks on each platoon of ``other``: to hit at short range (no
        movement or terrain modifiers), and the troopers put out of action, by the damage
        track (armoured troopers take two hits, support-weapon troopers last; "Weapon
        Damage"), in light cover, in the open and dug in, by the standard rules and with
        margin of success."""
        rows: list[Matchup] = []
        targets = [
            (ev_t, ev_t_name, _track(other, p), _armour_kind(other, p))
            for p in other.nodes()
            if p.has_category("platoon")
            for ev_t, ev_t_name in [(p, other.name(p))]
        ]
        for platoon in (n for n in ev.nodes() if n.has_category("platoon")):
            gunnery, assumed = platoon_gunnery(ev, platoon)
            for _, name, track, kind in targets:
                for a in ATTACK_TYPES:
                    info = ev.value(platoon, f"av_{a}")
                    if not isinstance(info, dict) or not info.get("av"):
                        continue
                    av = int(info["av"])
                    note = ""
                    if kind == "hard":
                        # AP weapons (DV under 1) do nothing to more than 1 point of armour
                        # ("Anti-Personnel vs Anti-Material").
                        av = int(info.get("vs_armour") or 0)
                        note = "only weapons of DV 1+ count against armour of 2+"
                    elif kind in TARGETS:
                        fl = ev.value(platoon, f"av_{a}_{kind}")
                        if isinstance(fl, int):
                            av, note = fl, f"fléchette AV {TARGET_LABELS[kind]}"
                    burst = info.get("burst") if a == "support" else None
                    value, text = matchup_odds(
                        av, gunnery, track, Burst.from_text(burst) if burst else None
                    )
                    if assumed:
                        text += f" [gunnery {gunnery} assumed: no experience chosen]"
                    if note:
                        text += f" [{note}]"
                    rows.append(
                        Matchup(
                            platoon,
                            name,
                            a,
                            f"{ATTACK_LABELS[a].removesuffix(' AV')} attack",
                            value,
                            text,
                            f"{SRC}, Infantry Attacks; Weapon Damage",
                        )
                    )
        return rows

    def _odds(
        self, ev: Evaluation, platoon: Node, avs: dict[str, int], burst: Burst | None
    ) -> None:
        """The exact odds of each attack: to hit on 2D6 at each range bracket, and the
        troopers hit through the cluster hits table ("Infantry Attacks", "Weapon Damage")."""
        if not any(avs.values()):
            return
        gunnery, assumed = platoon_gunnery(ev, platoon)
        # The same attack values, burst fire and gunnery give the same values (the odds
        # tables are shared, never changed): made once per catalog index.
        key = (gunnery, assumed, tuple(avs[a] for a in ATTACK_TYPES), burst)
        known: dict[Any, tuple[Value, ...]] = ev.index.memo(_ODDS)
        got = known.get(key)
        if got is None:
            got = _odds_values(gunnery, assumed, avs, burst)
            if len(known) >= _KITS_MAX:
                known.clear()
            known[key] = got
        ev.put_values(platoon, got)

    def _flechette_avs(
        self,
        emit: _Emit,
        squads: list[SquadView],
        drivers: int,
        gun_crew: int,
        base: dict[str, int],
    ) -> None:
        """Attack values against unarmoured and against armoured targets, for the attack types
        a fléchette weapon changes (Weapons and Equipment, Types: FL), with the same troopers
        left out as for :meth:`_attack_values` (drivers, gun crews)."""
        by_target: dict[str, dict[str, int]] = {}
        for target in TARGETS:
            totals = dict.fromkeys(ATTACK_TYPES, 0.0)
            platoon_pool: list[Contribution] = []
            for sq in squads:
                copies = sq.node.count
                pool = _contributions(sq.kits, target=target)
                platoon_pool.extend(_contributions(sq.kits, copies, target))
                for c in pool:
                    for a in ATTACK_TYPES:
                        totals[a] += c.dv[a] * c.number * copies
                if drivers and not gun_crew:
                    removed = _exclude(pool, 1)[0]
                    for a in ATTACK_TYPES:
                        totals[a] -= removed[a] * copies
            if gun_crew:
                removed = _exclude(platoon_pool, max(gun_crew, drivers))[0]
                for a in ATTACK_TYPES:
                    totals[a] -= removed[a]
            by_target[target] = {a: _round_up(max(totals[a], 0.0)) for a in ATTACK_TYPES}
        src = f"{SRC}, Weapons and Equipment (Types: FL); Infantry Attacks"
        for a in ATTACK_TYPES:
            got = {t: by_target[t][a] for t in TARGETS}
            if got["unarmoured"] == got["armoured"] == base[a]:
                continue
            for t in TARGETS:
                emit(
                    0,
                    f"av_{a}_{t}",
                    f"{ATTACK_LABELS[a]} {TARGET_LABELS[t]}",
                    got[t],
                    text=f"{got[t]} (fléchette {FLECHETTE[t]:+g} DV a weapon)",
                    source=src,
                )

    def _survivor_values(
        self,
        ev: Evaluation,
        emit: _Emit,
        squads: list[SquadView],
        drivers: int,
        gun_crew: int,
        burst: list[tuple[Dice, int]],
        avs: dict[str, int],
    ) -> None:
        """For the record sheet: the attack values left for each number of troopers still
        standing (as MegaMekLab prints under the damage track), the support AV plus each
        burst-fire result (the cluster columns to read), and the tables the sheet prints."""
        by_n = self._by_survivors(ev, squads, drivers, gun_crew)
        shown = {a: list(v) for a, v in by_n.items() if any(v)}
        if shown:
            emit(
                0,
                "av_by_survivors",
                "Attack values by troopers left",
                shown,
                text="; ".join(
                    f"{ATTACK_LABELS[a]}: " + " ".join(str(x) for x in reversed(v))
                    for a, v in shown.items()
                ),
                source=f"{SRC}, Infantry Attacks; Weapon Damage",
            )
        if burst and avs.get("support"):
            weapons = sum(n for _, n in burst)
            dice = max((d for d, _ in burst), key=lambda d: (d.mean(), d.count))
            results = sorted({v if weapons >= 2 else v // 2 for v in dice.distribution() if v > 0})
            totals = sorted({avs["support"] + b for b in results})
            emit(
                0,
                "burst_totals",
                "Support AV with burst fire",
                totals,
                text=", ".join(str(t) for t in totals),
                source=f"{SRC}, Burst fire",
            )
        data = ev.index.system.model.data
        mods = data.get("morale_modifiers")
        if isinstance(mods, list) and mods:
            emit(
                0,
                "morale_modifiers",
                "Morale test modifiers",
                list(mods),
                text="; ".join(_morale_line(m) for m in mods if isinstance(m, dict)),
                source=f"{SRC}, Morale",
            )

    def _by_survivors(
        self, ev: Evaluation, squads: list[SquadView], drivers: int, gun_crew: int
    ) -> dict[str, list[int]]:
        """The attack values left for each number of troopers still standing (see
        :meth:`_survivor_values`). Platoons of the same make-up (the same kits, as many of
        each, the same drivers and gun crew) have the same table: worked out once."""
        kits = [k for sq in squads for k in sq.kits]
        # (each kit by its memo, which stands for its DV cache too: see _attack_values)
        key = (_make_up(squads), drivers, gun_crew)
        tables: dict[Any, tuple[list[Any], dict[str, list[int]]]] = ev.index.memo(_SURVIVORS)
        got = tables.get(key)
        if got is not None:
            return got[1]
        # Loss order, as the sheet's damage track: squads in order, troopers without support
        # weapons first, support weapon troopers last.
        order: list[Contribution] = []
        troopers = sum(
            sq.node.count * sum(c.number for c in _contributions(sq.kits)) for sq in squads
        )
        for last in (False, True) if troopers <= MAX_TRACK_TROOPERS else ():
            # a platoon far larger than any the rules field (a count typed by mistake) gets no
            # table: it would grow with the square of its troopers
            for sq in squads:
                ones = [
                    (replace(c, number=1), c.number)
                    for c in _contributions(sq.kits)
                    if c.support == last
                ]
                for _ in range(sq.node.count):
                    for one, number in ones:
                        order.extend([one] * number)
        by_n: dict[str, list[int]] = {a: [] for a in ATTACK_TYPES}
        # the last n troopers' DV, summed from the end as n grows (sums of quarter DVs are
        # exact, so this is the sum of each pool afresh)
        last_n = dict.fromkeys(ATTACK_TYPES, 0.0)
        none_removed = dict.fromkeys(ATTACK_TYPES, 0.0)
        size = len(order)
        weakest = _Weakest()
        for n in range(1, size + 1):
            # the pool of the last n troopers is only needed when some are left out
            if gun_crew:
                removed = weakest.add(order[size - n], max(gun_crew, drivers))
            elif drivers:
                removed = weakest.add(order[size - n], min(drivers, n))
            else:
                removed = none_removed
            dv = order[size - n].dv
            for a in ATTACK_TYPES:
                last_n[a] += dv[a]
                total = last_n[a] - removed[a]
                by_n[a].append(_round_up(max(total, 0.0)))
        if len(tables) >= _KITS_MAX:
            tables.clear()
        tables[key] = ([k.dv_cache for k in kits], by_n)
        return by_n

    def _squad_avs(self, emit: _Emit, role: int, sq: SquadView, driver: bool) -> None:
        """A squad's own attack values, for when it acts alone ("Squads and Platoons")."""
        pool = _contributions(sq.kits)
        removed = _exclude(pool, 1)[0] if driver else dict.fromkeys(ATTACK_TYPES, 0.0)
        for a in ATTACK_TYPES:
            total = sum(c.dv[a] * c.number for c in pool) - removed[a]
            if total > 0:
                emit(
                    role,
                    f"av_{a}",
                    ATTACK_LABELS[a],
                    _round_up(total),
                    source=f"{SRC}, Squads and Platoons",
                )
        if any(w.dv.burst for k in sq.kits for w, _ in k.support):
            emit(
                role,
                "burst",
                "Burst fire (squad on its own)",
                "1D6-3",
                source=f"{SRC}, Burst fire",
            )

    def _ammo_state(self, ev: Evaluation, platoon: Node, names: list[str]) -> None:
        """``state.ammo_spent`` names weapons of the platoon that carry ammunition, by name
        (the record sheet ticks their boxes by name; another name would not be ticked)."""
        spent = platoon.data.state.get("ammo_spent") if platoon.data is not None else None
        if not isinstance(spent, dict):
            return  # absent, or of the wrong kind (the engine reports that)
        for key in spent:
            name = str(key)
            if name in names:
                continue
            by_id = ev.index.name_of(name)
            close = (
                [by_id]
                if by_id in names
                else [n for n in names if n.lower() == name.strip().lower()]
                or difflib.get_close_matches(name, names, n=1, cutoff=0.6)
            )
            hint = f"; did you mean {close[0]!r}?" if close else "."
            have = ", ".join(names) or "none"
            ev.warning(
                "io-state",
                f"{ev.where(platoon)}: state.ammo_spent names {name!r}, not one of the "
                f"platoon's weapons with ammunition ({have}){hint} The record sheet cannot "
                "tick it.",
                (*platoon.loc, "state", "ammo_spent", name),
                f"{SRC}, Weapons and Equipment (Ammo)",
            )


def _weapon_json(w: WeaponStats, number: int) -> dict[str, Any]:
    return {
        "name": w.name,
        "number": number,
        "type": w.type,
        "dv": w.dv.value,
        "damage_types": list(w.dv.types),
        "burst": str(w.dv.burst) if w.dv.burst else None,
        "range": [
            {"bracket": b.name, "hexes": b.reach, "modifier": b.modifier}
            for b in w.range.brackets
            if b.reach is not None
        ],
        "min_range": w.range.minimum,
        "enc": w.enc,
        "setup": w.setup,
        "fixed_mount": w.fixed_mount,
        "load": w.load,
        "crew_to_fire": w.cf,
        "crew_to_carry": w.cc,
        "ammo": w.ammo.text(),
    }


def _weapon_text(w: WeaponStats, number: int) -> str:
    dv = "per missile" if w.dv.value is None else f"DV {fmt_num(w.dv.value)}"
    if w.dv.types:
        dv += " " + "/".join(w.dv.types)
    if w.dv.burst:
        dv += f" +{w.dv.burst} burst"
    rng = w.range.text() or "per missile"
    count = f"{number} × " if number != 1 else ""
    return f"{count}{w.name} ({dv}; {rng})"


def _encumbered_effect(motive: Motive | None) -> str:
    """What encumbrance does to a platoon of this motive type ("Movement Points")."""
    if motive is None or "motive-foot" in motive.categories:
        return "foot movement 0, no fast movement"
    if "motive-jump" in motive.categories:
        jump = motive.data.get("encumbered_jump")
        return f"foot movement 0, jump {jump}, no fast movement"
    return "no effect on its vehicle's movement"


def _track(ev: Evaluation, platoon: Node) -> tuple[int, ...]:
    """The platoon's damage track, one entry per trooper: the hits that put him out of action
    (2 if armoured), left to right with support-weapon troopers last ("Weapon Damage")."""
    front: list[int] = []
    back: list[int] = []
    for sq in _squads(platoon):
        for _ in range(sq.node.count):
            for t in sq.node.children:
                if t.has_category("trooper"):
                    k = _kit(ev, t)
                    (back if k.support else front).extend([k.hits] * t.count)
    return (*front, *back)


def _armour_kind(ev: Evaluation, platoon: Node) -> str:
    """``"hard"``: every trooper has more than 1 armour point; ``"armoured"`` / ``"unarmoured"``:
    every trooper is or none is (fléchette); ``""``: mixed."""
    armour = [
        _kit(ev, t).armour
        for sq in _squads(platoon)
        for t in sq.node.children
        if t.has_category("trooper")
    ]
    if armour and min(armour) > 1:
        return "hard"
    if armour and min(armour) > 0:
        return "armoured"
    if armour and max(armour) == 0:
        return "unarmoured"
    return ""


def _burst_spec(burst: list[tuple[Dice, int]]) -> Burst:
    """The platoon's burst-fire bonus as dice (see :func:`_burst_bonus`)."""
    weapons = sum(n for _, n in burst)
    dice = max((d for d, _ in burst), key=lambda d: (d.mean(), d.count))
    return Burst(dice, half=weapons < 2)


def platoon_gunnery(ev: Evaluation, platoon: Node) -> tuple[int, bool]:
    """The platoon's gunnery skill as a number, and whether it is assumed (Regular, 4: no
    experience chosen). "6-7" (Very Green) reads as 6."""
    level = ev.experience(platoon)
    if level is not None:
        g = gunnery_number(str(level.data.get("gunnery", "")))
        if g is not None:
            return g, False
    return 4, True


def _burst_bonus(burst: list[tuple[Dice, int]]) -> str:
    """The platoon's burst-fire bonus ("Burst fire").

    The bonus is per platoon: with two or more burst weapons add the weapon's dice in full,
    with only one, half the roll. With different burst weapons we take the largest dice.
    """
    weapons = sum(n for _, n in burst)
    dice = max((d for d, _ in burst), key=lambda d: (d.mean(), d.count))
    return f"{dice}" if weapons >= 2 else f"{dice}÷2"


def _entries_with_loc(model: Any) -> Iterator[tuple[list[str | int], Entry]]:
    from ...catalog import iter_entries
    from ...model.catalog import Entry as EntryModel

    for loc, item in iter_entries(model):
        if isinstance(item, EntryModel):
            yield loc, item


RULES = InfantryOperations()


def _morale_line(m: dict[str, Any]) -> str:
    """An event of the morale table with its modifier ("Unit is pinned -2"). The rules give
    some events none ("–": "Unit suffers losses" calls for a test and changes nothing):
    they say so ("Unit suffers losses (no modifier)"), rather than read as a number lost; an
    event whose text holds its numbers ("Highest leadership rank ... (Regular +1, ...)") is
    as it is."""
    when, modifier = str(m.get("when")), m.get("modifier")
    if isinstance(modifier, int) and not isinstance(modifier, bool):
        return f"{when} {modifier:+d}"
    if any(ch.isdigit() for ch in when):
        return when
    return f"{when} (no modifier)"
