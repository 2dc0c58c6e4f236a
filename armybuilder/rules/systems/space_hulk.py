"""Space Hulk house rules (Space Marine Terminators): checks and computed values.

The squad's structure (six models, one Sergeant, at most two heavy weapons) and "only for"
wargear (the power sword only in the Sergeant's options, the force axe only in the
Librarian's, heavy bolters only on a Tarantula, a Techmarine's bolt gun) are catalog
constraints. This module adds what structure cannot say:

* Table 2 is written in the catalog the way the rules print it (``"Unlimited *"``, ``"2d6"``,
  ``"6+"``, ``"Overwatch, Jam, Sustain, Move&Shoot"``, ``"1d6+1+X"``) and parsed here into
  :class:`RangedWeapon` / :class:`MeleeWeapon`; a cell that does not parse, or a weapon whose
  ``rules:`` disagree with its printed notes, is a catalog error with its line;
* wargear checks per model: lightning claws only as a pair and with no other weapon, a
  thunder hammer needs a storm shield, a cyclone missile launcher's bearer carries a storm
  bolter (``sh-`` issue codes), and the reason a restricted item cannot be taken is added to
  the engine's ``entry-not-allowed`` message (:meth:`SpaceHulk.explain_not_allowed`);
* computed values per model, exact (fractions, never simulated): each weapon's range, dice,
  kills-on and attributes; the chance that one shot kills, the sustained-fire sequence, the
  chance of a jam (doubles) or an explosion (triples) on overwatch, cyclone salvos and the
  mixed shot; limited ammunition and psi points to track (with what campaign ``state:``
  records as spent).

The readings chosen where the text is silent or contradicts itself are stated where they are
made and in ``docs/systems/space-hulk.md``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeGuard

from ...dice import Dice, DiceSyntaxError
from ...plugin import CatalogFinding, Matchup, SystemRules
from ..engine import Evaluation, Node
from ..state import DEFAULT_MAXIMUM, StateKey

if TYPE_CHECKING:
    from ...catalog import CatalogIndex
    from ...model.catalog import Entry, FactionFile, SystemFile

SRC = "Space Hulk house rules"
TABLE2 = f"{SRC}, Table 2"
SIDES = 6
OVERWATCH_RANGE = 12  # Table 2: "* Range during Overwatch is 12 squares"

# Entry ids the checks rely on (check_catalog reports any that the system file lacks).
STORM_BOLTER = "storm-bolter"
CYCLONE = "cyclone-missile-launcher"
LIGHTNING_CLAW = "lightning-claw"
THUNDER_HAMMER = "thunder-hammer"
STORM_SHIELD = "storm-shield"
REQUIRED_IDS = (STORM_BOLTER, CYCLONE, LIGHTNING_CLAW, THUNDER_HAMMER, STORM_SHIELD)

RANGED = "ranged-weapon"
MELEE = "melee-weapon"

# Table 2 "Notes" as printed (normalised: lower case, single spaces, no space around "&")
# -> the rule id of system.yaml that explains it.
NOTE_RULES: dict[str, str] = {
    "overwatch": "overwatch",
    "jam": "jam",
    "sustain": "sustain",
    "move&shoot": "move-and-shoot",
    "explodes": "explodes",
    "salvo": "salvo",
    "mixed shot": "mixed-shot",
    "flamer": "flamer",
    "2x2 template": "template-2x2",
    "tarantula only": "tarantula-only",
    'see "tarantula"': "tarantula-turret",
    "automatically destroys doors": "destroys-doors",
    "on guard": "on-guard",
    "parry": "parry",
    "sergeant only": "sergeant-only",
    "detonate": "detonate",
    "blocks": "block",
    "channels psi energy": "psi-channelling",
    "librarian only": "librarian-only",
}
LIMITED_AMMO = "limited-ammo"
# "X only" rules -> the category a model needs to carry the item.
ONLY_FOR: dict[str, str] = {
    "sergeant-only": "sergeant",
    "librarian-only": "librarian",
    "tarantula-only": "tarantula",
}


class ProfileSyntaxError(ValueError):
    """A Table 2 cell that does not read the way the rules print it."""


# --------------------------------------------------------------------------- parsing


@dataclass(frozen=True)
class Range:
    """A ranged weapon's reach in squares (``None``: unlimited) and its overwatch limit."""

    squares: int | None
    overwatch_limited: bool = False  # Table 2's "*": 12 squares during overwatch

    def text(self) -> str:
        return "unlimited" if self.squares is None else f"{self.squares} squares"


_RANGE = re.compile(r"^\s*(?:(unlimited)|(\d+)\s*squares?)\s*(\*?)\s*$", re.IGNORECASE)


@lru_cache(maxsize=64)
def parse_range(text: str) -> Range:
    """Parse ``"Unlimited *"``, ``"Unlimited"``, ``"12 Squares"``."""
    m = _RANGE.match(str(text))
    if not m:
        raise ProfileSyntaxError(
            f"range {text!r} should read 'Unlimited', 'Unlimited *' or 'N Squares'"
        )
    squares = None if m.group(1) else int(m.group(2))
    return Range(squares, bool(m.group(3)))


@lru_cache(maxsize=64)
def parse_chance(text: str) -> Dice:
    """Parse the Chance column: ``"2d6"`` (plain dice, no modifier)."""
    try:
        dice = Dice.from_text(str(text))
    except DiceSyntaxError as exc:
        raise ProfileSyntaxError(f"chance {text!r}: {exc}") from None
    if dice.modifier:
        raise ProfileSyntaxError(f"chance {text!r} should be plain dice such as '2d6'")
    return dice


_KILLS_ON = re.compile(r"^\s*(\d+)\s*\+\s*$")


@lru_cache(maxsize=64)
def parse_kills_on(text: str) -> int:
    """Parse the Kills On column: ``"6+"`` -> 6."""
    m = _KILLS_ON.match(str(text))
    if not m:
        raise ProfileSyntaxError(f"kills on {text!r} should read like '6+'")
    return int(m.group(1))


@dataclass(frozen=True)
class Notes:
    """The Notes column: the rule ids it names, and the Limited Ammo figure if any."""

    rules: tuple[str, ...]
    ammo: int | None = None


_LIMITED = re.compile(r"^limited ammo\s*\(\s*(\d+)\s*\)$")


def _norm_note(token: str) -> str:
    t = " ".join(token.strip().lower().split())
    return re.sub(r"\s*&\s*", "&", t)


@lru_cache(maxsize=128)
def parse_notes(text: str) -> Notes:
    """Parse ``"Overwatch, Jam, Sustain, Move&Shoot"``, ``"Limited Ammo (12)"``, ``"-"``."""
    s = str(text).strip()
    if s in {"", "-", "\u2013", "\u2014"}:
        return Notes(())
    rules: list[str] = []
    ammo: int | None = None
    for raw in s.split(","):
        token = _norm_note(raw)
        m = _LIMITED.match(token)
        if m:
            ammo = int(m.group(1))
            rules.append(LIMITED_AMMO)
            continue
        rule = NOTE_RULES.get(token)
        if rule is None:
            raise ProfileSyntaxError(f"notes {text!r}: unknown attribute {raw.strip()!r}")
        rules.append(rule)
    return Notes(tuple(rules), ammo)


@dataclass(frozen=True)
class AssaultDice:
    """Melee dice: ``count``D``sides`` + ``modifier`` (+ psi points spent if ``psi``)."""

    dice: Dice
    psi: bool = False

    def text(self) -> str:
        return f"{self.dice}" + (", +1 per psi point spent" if self.psi else "")


_ASSAULT = re.compile(r"^(\d*[dD]\d+(?:[+-]\d+)?)(\+[xX])?$")


@lru_cache(maxsize=64)
def parse_assault(text: str) -> AssaultDice | None:
    """Parse ``"1d6"``, ``"2d6+1"``, ``"1d6+1+X"``; ``"-"`` (no dice) gives ``None``."""
    s = "".join(str(text).split())
    if s in {"-", "\u2013", "\u2014"}:
        return None
    m = _ASSAULT.match(s)
    if not m:
        raise ProfileSyntaxError(
            f"assault dice {text!r} should read like '1d6', '2d6+1' or '1d6+1+X'"
        )
    try:
        dice = Dice.from_text(m.group(1))
    except DiceSyntaxError as exc:
        raise ProfileSyntaxError(f"assault dice {text!r}: {exc}") from None
    return AssaultDice(dice, psi=bool(m.group(2)))


@dataclass(frozen=True)
class RangedWeapon:
    """A Table 2 ranged weapon, parsed."""

    id: str
    name: str
    range: Range
    dice: Dice
    kills_on: int
    rules: tuple[str, ...]
    ammo: int | None = None
    ammo_unit: str = "shots"
    kill_zone: int | None = None

    def has(self, rule: str) -> bool:
        return rule in self.rules

    @property
    def overwatch_range(self) -> int | None:
        """Squares it reaches on overwatch (``None``: it cannot go on overwatch)."""
        if not self.has("overwatch"):
            return None
        if self.range.squares is None:
            return OVERWATCH_RANGE
        return min(self.range.squares, OVERWATCH_RANGE)

    @property
    def flamer(self) -> bool:
        return self.has("flamer")

    @property
    def jams_on(self) -> int | None:
        """How many alike dice stop the gun on overwatch: 2 (Jam), 3 (Explodes), or never."""
        if self.has("explodes"):
            return 3
        if self.has("jam"):
            return 2
        return None


@dataclass(frozen=True)
class MeleeWeapon:
    """A Table 2 melee weapon, parsed."""

    id: str
    name: str
    dice: AssaultDice | None
    rules: tuple[str, ...]


def ranged_from_entry(entry: Entry) -> RangedWeapon | None:
    """The entry's ranged profile, parsed (raises :class:`ProfileSyntaxError`)."""
    for p in entry.profiles:
        if p.type != RANGED:
            continue
        ch = p.characteristics
        notes, rules = _notes_and_rules(entry, ch)
        kz = entry.data.get("kill_zone")
        return RangedWeapon(
            id=entry.id,
            name=entry.name,
            range=parse_range(str(ch.get("range", ""))),
            dice=parse_chance(str(ch.get("chance", ""))),
            kills_on=parse_kills_on(str(ch.get("kills-on", ""))),
            rules=rules,
            ammo=notes.ammo,
            ammo_unit=str(entry.data.get("ammo_unit", "shots")),
            kill_zone=kz if isinstance(kz, int) else None,
        )
    return None


def melee_from_entry(entry: Entry) -> MeleeWeapon | None:
    """The entry's melee profile, parsed (raises :class:`ProfileSyntaxError`)."""
    for p in entry.profiles:
        if p.type != MELEE:
            continue
        ch = p.characteristics
        return MeleeWeapon(
            id=entry.id,
            name=entry.name,
            dice=parse_assault(str(ch.get("assault-dice", ""))),
            rules=_notes_and_rules(entry, ch)[1],
        )
    return None


def _notes_and_rules(entry: Entry, ch: dict[str, Any]) -> tuple[Notes, tuple[str, ...]]:
    """A weapon's notes, parsed, and its special rules: those of the notes, then the entry's
    ``extra_attributes`` not already among them."""
    notes = parse_notes(str(ch.get("notes", "")))
    extra = tuple(str(r) for r in entry.data.get("extra_attributes", []))
    return notes, notes.rules + tuple(r for r in extra if r not in notes.rules)


# --------------------------------------------------------------------------- probabilities


def die_chance(kills_on: int, bonus: int = 0, sides: int = SIDES) -> Fraction:
    """The chance that one die, plus ``bonus``, reaches ``kills_on``."""
    need = kills_on - bonus
    good = min(max(sides - need + 1, 0), sides)
    return Fraction(good, sides)


def any_of(p: Fraction, n: int) -> Fraction:
    """The chance that at least one of ``n`` independent tries of chance ``p`` succeeds."""
    return 1 - (1 - p) ** n


def kill_chance(dice: int, kills_on: int, bonus: int = 0, sides: int = SIDES) -> Fraction:
    """One shot kills when any of its dice (each + ``bonus``) reaches ``kills_on``."""
    return any_of(die_chance(kills_on, bonus, sides), dice)


def sustained_fire(dice: int, kills_on: int, sides: int = SIDES) -> list[Fraction]:
    """Kill chance of the 1st, 2nd, 3rd... shot at the same target without moving.

    "Sustain": every shot after the first adds a cumulative +1 to all dice. The list stops
    at the first shot that cannot miss (the text sets no cap on the bonus).
    """
    out: list[Fraction] = []
    for bonus in range(sides + 1):
        p = kill_chance(dice, kills_on, bonus, sides)
        out.append(p)
        if p == 1:
            break
    return out


@dataclass(frozen=True)
class OverwatchOdds:
    """One overwatch shot: the chance it kills, that the gun stops (jams or explodes), both."""

    kill: Fraction
    stop: Fraction
    kill_and_stop: Fraction

    @property
    def kill_without_stop(self) -> Fraction:
        return self.kill - self.kill_and_stop

    @property
    def stop_without_kill(self) -> Fraction:
        return self.stop - self.kill_and_stop


def overwatch_odds(
    dice: int, kills_on: int, stops_on: int | None, sides: int = SIDES
) -> OverwatchOdds:
    """Exact odds of one overwatch shot, by enumerating every roll of the dice.

    ``stops_on``: how many dice showing the same number stop the gun (2: doubles jam a storm
    bolter, 3: triples blow up an assault cannon; ``None``: it never stops). A roll can
    kill and stop at once (e.g. double 6): "Jam" says the target is destroyed first.
    """
    n = sides**dice
    kills = stops = both = 0
    for roll in itertools.product(range(1, sides + 1), repeat=dice):
        k = max(roll) >= kills_on
        s = stops_on is not None and dice >= stops_on and max(Counter(roll).values()) >= stops_on
        kills += k
        stops += s
        both += k and s
    return OverwatchOdds(Fraction(kills, n), Fraction(stops, n), Fraction(both, n))


def salvo_kill_chance(missiles: int, kills_on: int = 2, sides: int = SIDES) -> Fraction:
    """A cyclone salvo of ``missiles`` krak missiles (one die each) at one target."""
    return kill_chance(missiles, kills_on, 0, sides)


def mixed_shot_kill_chance(
    bolter: RangedWeapon, missile: RangedWeapon, sides: int = SIDES
) -> Fraction:
    """A storm bolter's overwatch shot plus one krak missile at the same target ("Mixed
    Shot"): the target dies if either kills."""
    miss_b = 1 - kill_chance(bolter.dice.count, bolter.kills_on, 0, sides)
    miss_m = 1 - kill_chance(missile.dice.count, missile.kills_on, 0, sides)
    return 1 - miss_b * miss_m


def frac_text(p: Fraction) -> str:
    """``11/36 (30.6%)``; ``1 (certain)``; ``0 (never)``."""
    if p == 1:
        return "1 (certain)"
    if p == 0:
        return "0 (never)"
    return f"{p} ({float(p) * 100:.1f}%)"


# --------------------------------------------------------------------------- per model


@dataclass
class Carried:
    """A weapon selection under a model."""

    node: Node
    count: int
    ranged: RangedWeapon | None = None
    melee: MeleeWeapon | None = None

    @property
    def id(self) -> str:
        return self.node.entry.id if self.node.entry is not None else ""

    @property
    def name(self) -> str:
        return self.node.entry.name if self.node.entry is not None else ""


@dataclass
class Loadout:
    """What one model carries."""

    model: Node
    items: list[Carried] = field(default_factory=list)
    unplaced_weapons: list[str] = field(default_factory=list)  # known weapons not allowed here

    def count(self, entry_id: str) -> int:
        return sum(c.count for c in self.items if c.id == entry_id)

    @property
    def ranged(self) -> list[Carried]:
        return [c for c in self.items if c.ranged is not None]

    @property
    def melee(self) -> list[Carried]:
        return [c for c in self.items if c.melee is not None]

    def others(self, *exclude: str) -> list[Carried]:
        return [c for c in self.items if c.id not in exclude]


# Parsed profiles per catalog entry object, kept with the catalog index (a reloaded catalog
# starts afresh and lets the old entries go); the entry is kept with its result so that an
# id() is never reused for another entry while cached.
_PARSED = "space-hulk.parsed"


def _parsed(ev: Evaluation, entry: Entry) -> tuple[RangedWeapon | None, MeleeWeapon | None]:
    known: dict[int, tuple[Entry, RangedWeapon | None, MeleeWeapon | None]] = ev.index.memo(_PARSED)
    hit = known.get(id(entry))
    if hit is not None and hit[0] is entry:
        return hit[1], hit[2]
    try:
        ranged = ranged_from_entry(entry)
    except ProfileSyntaxError:
        ranged = None  # reported by check_catalog
    try:
        melee = melee_from_entry(entry)
    except ProfileSyntaxError:
        melee = None
    if len(known) > 4096:
        known.clear()
    known[id(entry)] = (entry, ranged, melee)
    return ranged, melee


def _is_weapon(entry: Entry) -> bool:
    return any(p.type in {RANGED, MELEE} for p in entry.profiles)


def _loadout(ev: Evaluation, model: Node) -> Loadout:
    lo = Loadout(model)
    for child in model.children:
        if child.entry is None:
            ref = child.data.entry if child.data is not None else None
            known = _known(ev, ref)
            if known is not None and _is_weapon(known):
                lo.unplaced_weapons.append(known.id)
            continue
        ranged, melee = _parsed(ev, child.entry)
        if ranged is None and melee is None:
            continue
        lo.items.append(Carried(child, child.count, ranged, melee))
    return lo


def _known(ev: Evaluation, ref: str | None) -> Entry | None:
    if ref is None:
        return None
    return ev.index.entries.get(ref) or ev.index.shared.get(ref)


# --------------------------------------------------------------------------- wording


def _article(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _label(ev: Evaluation, node: Node) -> str:
    """The node's label; unnamed models among identical siblings get a number (#2)."""
    base = ev.label(node)
    if node.parent is None or (node.data is not None and node.data.name):
        return base
    twins = [
        s
        for s in node.parent.children
        if s.entry_id == node.entry_id and not (s.data is not None and s.data.name)
    ]
    if len(twins) > 1:
        return f"{base} #{next(i for i, s in enumerate(twins) if s is node) + 1}"
    return base


def who(ev: Evaluation, node: Node) -> str:
    """A breadcrumb naming the model: ``2nd Squad > Brother Claudio`` / ``... > Terminator #3``."""
    path = [*reversed(list(node.ancestors())), node]
    parts = [_label(ev, n) for n in path if not n.is_root]
    return " > ".join(parts) if parts else ev.roster.name


def _range_text(w: RangedWeapon) -> str:
    text = f"{w.range.text()} range" if w.range.squares is None else w.range.text()
    if w.kill_zone:
        text += f" (a burst reaches {w.kill_zone})"
    ow = w.overwatch_range
    if ow is not None and (w.range.squares is None or w.range.squares > ow):
        text += f" ({ow} squares on overwatch)"
    return text


def _rule_names(ev: Evaluation, rules: Iterable[str], ammo: int | None = None) -> str:
    names = []
    for r in rules:
        rule = ev.index.rules.get(r)
        name = rule.name if rule is not None else r
        if r == LIMITED_AMMO and ammo is not None:
            name += f" ({ammo})"
        names.append(name)
    return ", ".join(names)


def ranged_text(ev: Evaluation, w: RangedWeapon) -> str:
    """``unlimited range (12 squares on overwatch); 2D6, kills on 6+; Overwatch, Jam...``."""
    parts = [_range_text(w), f"{w.dice}, kills on {w.kills_on}+"]
    if w.rules:
        parts.append(_rule_names(ev, w.rules, w.ammo))
    return "; ".join(parts)


def melee_text(ev: Evaluation, w: MeleeWeapon, psi: int | None = None) -> str:
    """``melee 1D6; On Guard, Parry, Sergeant only``."""
    if w.dice is None:
        dice = "no dice of its own"
    else:
        dice = f"melee {w.dice.text()}"
        if w.dice.psi and psi is not None:
            dice += f" (up to {psi})"
    parts = [dice]
    if w.rules:
        parts.append(_rule_names(ev, w.rules))
    return "; ".join(parts)


def _ranged_json(w: RangedWeapon) -> dict[str, Any]:
    return {
        "range": w.range.squares,
        "overwatch_range": w.overwatch_range,
        "dice": str(w.dice),
        "kills_on": w.kills_on,
        "attributes": list(w.rules),
        "ammo": w.ammo,
        "ammo_unit": w.ammo_unit if w.ammo is not None else None,
    }


# --------------------------------------------------------------------------- the module


def _is_model(node: Node) -> bool:
    return node.entry is not None and node.entry.type == "model"


def whole(value: Any) -> TypeGuard[int]:
    """Whether a campaign state count is one the engine accepts (see :data:`STATE_KEYS`)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= DEFAULT_MAXIMUM


#: Campaign state (a selection's ``state:``): all of it is the mission in progress.
STATE_KEYS: tuple[StateKey, ...] = (
    StateKey(
        "ammo_used",
        "map-int",
        "Shots (or template bursts) used so far from each limited-ammunition weapon the model "
        "carries, by weapon id.",
        history=False,
        source=f"{SRC}, Common Weapon Attributes (Limited Ammo)",
        example="{heavy-flamer: 2}",
    ),
    StateKey(
        "psi_spent",
        "int",
        "Psi points a Librarian has spent so far in the mission (they are not replenished).",
        history=False,
        source=f"{SRC}, Special Units (Librarian)",
        example="5",
    ),
    StateKey(
        "lost",
        "int",
        "Models of this selection killed (the sheet crosses them out).",
        history=False,
        source=SRC,
        example="1",
    ),
)


class SpaceHulk(SystemRules):
    """The Space Hulk house rules module."""

    system_id = "space-hulk"
    #: Everything the module works out for a model or squad reads that selection, what it
    #: holds and its breadcrumb; only the roster's counts add the top-level selections up.
    subtree_local = True

    # ----------------------------------------------------------------- catalog checks

    def state_keys(self) -> tuple[StateKey, ...]:
        return STATE_KEYS

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        if faction is None:
            yield from self._check_file("system", system)
            ids = {e.id for e in system.shared_entries}
            for needed in REQUIRED_IDS:
                if needed not in ids:
                    yield (
                        "system",
                        ["shared_entries"],
                        f"the Space Hulk rules module needs a shared entry {needed!r}",
                    )
            return
        yield from self._check_file("faction", faction)
        if index is not None:
            yield from self._check_placement(faction, index)

    def _check_file(self, which: str, model: SystemFile | FactionFile) -> Iterator[CatalogFinding]:
        for loc, entry in _entries_with_loc(model):
            for j, p in enumerate(entry.profiles):
                if p.type not in {RANGED, MELEE}:
                    continue
                keys: list[tuple[str, Callable[[str], object]]] = [
                    ("range", parse_range),
                    ("chance", parse_chance),
                    ("kills-on", parse_kills_on),
                    ("notes", parse_notes),
                ]
                if p.type == MELEE:
                    keys = [("assault-dice", parse_assault), ("notes", parse_notes)]
                bad = False
                for key, parser in keys:
                    where: list[str | int] = [*loc, "profiles", j, "characteristics"]
                    if key not in p.characteristics:
                        yield which, where, f"{entry.name}: Table 2 profile is missing {key!r}"
                        bad = True
                        continue
                    try:
                        parser(str(p.characteristics[key]))
                    except ProfileSyntaxError as exc:
                        yield which, [*where, key], f"{entry.name}: {exc}"
                        bad = True
                if bad:
                    continue
                notes = parse_notes(str(p.characteristics["notes"]))
                extra = [str(r) for r in entry.data.get("extra_attributes", [])]
                expected = set(notes.rules) | set(extra)
                if set(entry.rules) != expected:
                    yield (
                        which,
                        [*loc, "rules"],
                        f"{entry.name}: rules {sorted(entry.rules)} do not match its Table 2 "
                        f"notes {p.characteristics['notes']!r} (expected {sorted(expected)}; "
                        "list further rules in data.extra_attributes)",
                    )
                if any(r in ONLY_FOR for r in notes.rules) and not entry.data.get("restriction"):
                    yield (
                        which,
                        [*loc, "data"],
                        f"{entry.name}: an 'only' weapon needs data.restriction, the reason "
                        "shown when it is taken by the wrong model",
                    )
            if "librarian" in entry.categories and not isinstance(
                entry.data.get("psi_points"), int
            ):
                yield which, [*loc, "data"], f"{entry.name}: a Librarian needs data.psi_points"

    def _check_placement(
        self, faction: FactionFile, index: CatalogIndex
    ) -> Iterator[CatalogFinding]:
        """An "X only" weapon may only be offered to entries of category X."""
        for loc, entry in _entries_with_loc(faction):
            for child in index.children(entry):
                for rule, category in ONLY_FOR.items():
                    if rule in child.entry.rules and category not in entry.categories:
                        yield (
                            "faction",
                            [*loc, "id"],
                            f"{entry.name} offers {child.entry.name}, which is "
                            f"{rule.replace('-', ' ')} (give {entry.name} the "
                            f"{category!r} category or remove the option)",
                        )

    # ----------------------------------------------------------------- analysis

    def against(self, ev: Evaluation, other: Evaluation) -> list[Matchup]:
        """Each model's ranged weapons against each top-level unit of ``other``: the chance
        one shot kills a model (the weapon table's Chance and Kills On do not depend on the
        target) and the shots expected to kill every model of the unit. Melee is not
        answered: the house rules give the weapons' assault dice but not how close assaults
        are resolved."""
        targets = [
            (other.name(u), sum(n.multiplicity(u) for n in u.walk() if _is_model(n)))
            for u in other.units()
        ]
        rows: list[Matchup] = []
        for node in ev.nodes():
            kills = [v for v in ev.values_of(node) if v.key.startswith("kill-")]
            for name, models in targets:
                if not models:
                    continue
                for v in kills:
                    p = Fraction(str(v.value))
                    if not p:
                        continue
                    shots = models / p
                    rows.append(
                        Matchup(
                            node,
                            f"{name} ({models} model{'s' if models != 1 else ''})",
                            v.key,
                            v.label,
                            {
                                "kill": str(p),
                                "models": models,
                                "expected_shots_to_kill_all": str(shots),
                            },
                            f"{v.display()}; about {float(shots):.1f} shots ({shots}) expected "
                            f"to kill all {models}",
                            v.source,
                        )
                    )
        return rows

    def analyse(self, ev: Evaluation) -> None:
        squads = models = tarantulas = 0
        for unit in ev.units():
            if unit.entry is None:
                continue
            # What a top-level selection gets depends on it alone and on how it is called
            # (``who``: its name, numbered among unnamed twins): an untouched one is replayed.
            s, m, t = ev.subtree(
                unit,
                "space-hulk",
                lambda u=unit: self._unit(ev, u),  # type: ignore[misc]
                key=who(ev, unit),
            )
            mult = unit.multiplicity()
            squads += s * mult
            models += m * mult
            tarantulas += t * mult
        ev.set_value(ev.root, "squads", "Squads", squads)
        ev.set_value(ev.root, "models", "Models", models, source=SRC)
        if tarantulas:
            ev.set_value(ev.root, "tarantulas", "Tarantula turrets", tarantulas)

    def _unit(self, ev: Evaluation, unit: Node) -> tuple[int, int, int]:
        """The values and issues of one top-level selection and what is under it; how many
        squads, models and Tarantula turrets one copy of it holds."""
        squads = models = tarantulas = 0
        nodes = [n for n in unit.walk() if n.entry is not None]
        for node in nodes:
            if node.entry is not None and node.entry.type == "model":
                m = node.multiplicity(unit) if node is not unit else 1
                if node.has_category("tarantula"):
                    tarantulas += m
                else:
                    models += m
                self._model(ev, node)
        for node in nodes:  # after the models: squads sum up their values
            if node.has_category("squad"):
                squads += node.multiplicity(unit) if node is not unit else 1
                self._squad(ev, node)
                self._command_points(ev, node)
        return squads, models, tarantulas

    # ----------------------------------------------------------------- restrictions

    def explain_not_allowed(
        self, ev: Evaluation, entry: Entry, parent: Node, node: Node
    ) -> tuple[str, str] | None:
        """Say why a known item cannot be taken where a hand-edited roster put it.

        The engine's ``entry-not-allowed`` lists the options of the parent; for items the
        rules restrict (a power sword: Sergeants only) or models whose kit is fixed (a
        Techmarine's bolt gun) the rule's own reason is clearer.
        """
        reason, source = "", ""
        restriction = entry.data.get("restriction")
        loadout_rule = parent.entry.data.get("loadout_rule") if parent.entry else None
        if isinstance(restriction, str) and restriction:
            reason, source = restriction, entry.source
        elif isinstance(loadout_rule, str) and loadout_rule and parent.entry is not None:
            reason, source = loadout_rule, parent.entry.source
        if not reason:
            return None
        holder = "The roster" if parent.is_root else who(ev, parent)
        count = f" ({node.count} ×)" if node.count != 1 else ""
        return f"{holder} cannot take {_article(entry.name)}{count}: {reason}", source

    # ----------------------------------------------------------------- squads

    def _squad(self, ev: Evaluation, squad: Node) -> None:
        members = [c for c in squad.children if c.has_category("squad-model")]
        n = sum(c.count for c in members)
        ev.set_value(
            squad,
            "models",
            "Models",
            n,
            text=f"{n} (a full squad has 6)" if n != 6 else "6",
            source=f"{SRC}, Space Marines Units and Weapons",
        )
        heavy: dict[str, int] = {}  # name -> how many (counts multiply: never one per copy)
        ammo: dict[str, dict[str, Any]] = {}
        for m in members:
            for c in _loadout(ev, m).items:
                if c.node.has_category("heavy-weapon"):
                    heavy[c.name] = heavy.get(c.name, 0) + c.count * m.count
                w = c.ranged
                tracked = ev.value(m, f"ammo-{c.id}")
                if w is None or w.ammo is None or not isinstance(tracked, dict):
                    continue
                t = ammo.setdefault(
                    w.name, {"weapons": 0, "capacity": 0, "left": 0, "unit": w.ammo_unit}
                )
                t["weapons"] += c.count * m.count
                t["capacity"] += w.ammo * c.count * m.count
                t["left"] += int(tracked["left"]) * c.count * m.count
        ev.set_value(
            squad,
            "heavy_weapons",
            "Heavy weapons",
            sum(heavy.values()),
            text=f"{sum(heavy.values())} (at most 2)"
            + (f": {', '.join(_each(heavy))}" if heavy else ""),
            source=f"{SRC}, Space Marines Units and Weapons",
        )
        if ammo:
            parts = []
            for name, t in ammo.items():
                left = "" if t["left"] == t["capacity"] else f"{t['left']} of "
                parts.append(f"{name} {left}{t['capacity']} {t['unit']}")
            ev.set_value(
                squad,
                "ammo",
                "Ammunition to track",
                ammo,
                text="; ".join(parts),
                source=f"{SRC}, Common Weapon Attributes (Limited Ammo)",
            )
        pending = squad.entry.data.get("rules_pending") if squad.entry else None
        if isinstance(pending, str) and pending:
            ev.set_value(
                squad,
                "rules_pending",
                "Own rules",
                pending,
                text=f"not yet written in the source: {pending}; built as a Terminator squad",
                source=squad.entry.source if squad.entry else SRC,
            )

    # ----------------------------------------------------------------- models

    def _model(self, ev: Evaluation, model: Node) -> None:
        lo = _loadout(ev, model)
        self._check_wargear(ev, lo)
        psi = self._psi(ev, model)
        for c in lo.items:
            if c.ranged is not None:
                self._ranged_values(ev, model, c)
            if c.melee is not None:
                mult = f"{c.count} × " if c.count != 1 and c.id != LIGHTNING_CLAW else ""
                ev.set_value(
                    model,
                    f"melee-{c.id}",
                    c.melee.name if c.id != LIGHTNING_CLAW else "Lightning Claws",
                    {
                        "dice": str(c.melee.dice.dice) if c.melee.dice else None,
                        "psi": bool(c.melee.dice and c.melee.dice.psi),
                        "attributes": list(c.melee.rules),
                    },
                    text=mult + melee_text(ev, c.melee, psi),
                    source=TABLE2,
                )
        self._mixed_shot(ev, model, lo)
        self._ammo(ev, model, lo)
        if model.has_category("tarantula"):
            self._tarantula(ev, model, lo)
        else:
            self._action_costs(ev, model, lo)

    def _command_points(self, ev: Evaluation, squad: Node) -> None:
        """A squad with a Sergeant rolls for command points (Space Marines Units and Weapons):
        one die, so at most as many points as the die has sides (the record sheet's track)."""
        if not any(c.has_category("sergeant") for c in squad.children):
            return
        sides = ev.index.system.model.data.get("dice_sides", SIDES)
        sides = sides if isinstance(sides, int) and not isinstance(sides, bool) else SIDES
        ev.set_value(
            squad,
            "command_points",
            "Command points",
            {"die": sides},
            text=f"rolled on 1d{sides} (the Sergeant)",
            source=f"{SRC}, Space Marines Units and Weapons",
        )

    def _action_costs(self, ev: Evaluation, model: Node, lo: Loadout) -> None:
        """The AP cost of each action the model's weapons allow (``action_costs`` in the
        system's data), for the record sheet."""
        table = ev.index.system.model.data.get("action_costs")
        if not isinstance(table, list):
            return
        rules: set[str] = set()
        for c in lo.items:
            for w in (c.ranged, c.melee):
                if w is not None:
                    rules.update(w.rules)
        rows = [
            {"action": str(r.get("action", "")), "ap": r.get("ap"), "rule": r.get("rule")}
            for r in table
            if isinstance(r, dict) and r.get("rule") in rules
        ]
        if rows:
            ev.set_value(
                model,
                "actions",
                "Actions (AP)",
                rows,
                text="; ".join(f"{r['action']} {r['ap']} AP" for r in rows),
                source=f"{SRC}, Common Weapon Attributes; Ranged Weapons; Melee Weapons",
            )

    def _check_wargear(self, ev: Evaluation, lo: Loadout) -> None:
        model = lo.model
        claws = lo.count(LIGHTNING_CLAW)
        name = who(ev, model)
        if claws and claws != 2:
            ev.error(
                "sh-lightning-claws-pair",
                f"{name} has {claws} lightning claw{'s' if claws != 1 else ''}; lightning "
                "claws only work as a pair (select exactly 2)",
                model,
                f"{SRC}, Melee Weapons (Lightning Claws)",
            )
        if claws:
            others = lo.others(LIGHTNING_CLAW)
            if others:
                ev.error(
                    "sh-lightning-claws-alone",
                    f"{name} carries lightning claws together with "
                    f"{_and([_article(c.name) for c in others])}; a model using lightning "
                    "claws can use no other weapon",
                    model,
                    f"{SRC}, Melee Weapons (Lightning Claws)",
                )
        if lo.count(THUNDER_HAMMER) and not lo.count(STORM_SHIELD):
            ev.error(
                "sh-thunder-hammer-needs-shield",
                f"{name} carries a thunder hammer without a storm shield; the hammer is "
                "used together with a storm shield",
                model,
                f"{SRC}, Melee Weapons (Thunder Hammer)",
            )
        if lo.count(CYCLONE) and not lo.count(STORM_BOLTER):
            instead = [c.name for c in lo.ranged if c.id != CYCLONE]
            extra = f" (it has {_and([_article(x) for x in instead])} instead)" if instead else ""
            ev.error(
                "sh-cyclone-needs-storm-bolter",
                f"{name} carries a cyclone missile launcher but no storm bolter{extra}; a "
                "cyclone's bearer holds a storm bolter in his other hand",
                model,
                f"{SRC}, Ranged Weapons (Cyclone Missile Launcher)",
            )
        if (
            model.has_category("squad-model")
            and not claws
            and not lo.unplaced_weapons
            and not any(c.melee is not None and c.melee.dice is not None for c in lo.items)
        ):
            ev.warning(
                "sh-no-close-combat-weapon",
                f"{name} has no close-combat weapon; Terminator armour comes with a power fist",
                model,
                f"{SRC}, Melee Weapons (Power Fist)",
            )

    def _ranged_values(self, ev: Evaluation, model: Node, c: Carried) -> None:
        w = c.ranged
        assert w is not None
        name = f"{w.name} ×{c.count}" if c.count != 1 else w.name
        ev.set_value(
            model,
            f"weapon-{w.id}",
            name,
            _ranged_json(w),
            text=ranged_text(ev, w),
            source=TABLE2,
        )
        n, k = w.dice.count, w.kills_on
        one = kill_chance(n, k, 0, w.dice.sides)
        if w.flamer:
            text = (
                f"{frac_text(one)} for each unit in the flames, checked again each time it "
                "moves or acts in them"
            )
        elif w.has("salvo"):
            text = f"{frac_text(one)} per missile"
        else:
            text = f"{frac_text(one)} per shot" + (" (each gun)" if c.count > 1 else "")
        ev.set_value(
            model,
            f"kill-{w.id}",
            f"{w.name} kill chance",
            str(one),
            text=text,
            source=f"{TABLE2} (Chance, Kills On)",
        )
        if w.has("sustain"):
            seq = sustained_fire(n, k, w.dice.sides)
            ev.set_value(
                model,
                f"sustained-{w.id}",
                f"{w.name} sustained fire",
                [str(p) for p in seq],
                text=" → ".join(str(p) for p in seq)
                + f" (shots 1 to {len(seq)} at one target without moving)",
                source=f"{SRC}, Common Weapon Attributes (Sustain)",
            )
        if w.has("salvo"):
            shots = min(w.ammo or 3, 3)
            seq = [salvo_kill_chance(m, k, w.dice.sides) for m in range(1, shots + 1)]
            ev.set_value(
                model,
                f"salvo-{w.id}",
                f"{w.name} salvo",
                {str(m): str(p) for m, p in enumerate(seq, start=1)},
                text="; ".join(
                    f"{m} missile{'s' if m > 1 else ''} {frac_text(p)}"
                    for m, p in enumerate(seq, start=1)
                )
                + " (one attack for 1 AP)",
                source=f"{SRC}, Ranged Weapons (Cyclone Missile Launcher)",
            )
        if w.overwatch_range is not None:
            odds = overwatch_odds(n, k, w.jams_on, w.dice.sides)
            value: dict[str, Any] = {"range": w.overwatch_range, "kill": str(odds.kill)}
            text = f"{w.overwatch_range} squares; kills {frac_text(odds.kill)}"
            if w.has("explodes"):
                value |= {"explode": str(odds.stop), "kill_and_explode": str(odds.kill_and_stop)}
                text += (
                    f"; explodes on triples {frac_text(odds.stop)}, destroying its bearer; "
                    f"kills and explodes {odds.kill_and_stop}"
                )
                source = f"{SRC}, Ranged Weapons (Assault Cannon)"
            elif w.has("jam"):
                value |= {"jam": str(odds.stop), "kill_and_jam": str(odds.kill_and_stop)}
                clear = (
                    "clears itself in the Record Keeping phase"
                    if model.has_category("tarantula")
                    else "1 AP to clear"
                )
                text += (
                    f"; jams on doubles {frac_text(odds.stop)}, {clear}; "
                    f"kills and jams {odds.kill_and_stop}"
                )
                source = f"{SRC}, Common Weapon Attributes (Jam)"
            else:
                value["jam"] = "0"
                text += "; cannot jam" + (" (one die)" if n == 1 else "")
                source = f"{SRC}, Common Weapon Attributes (Overwatch)"
            ev.set_value(
                model,
                f"overwatch-{w.id}",
                f"{w.name} on overwatch",
                value,
                text=text + (" (each gun)" if c.count > 1 else ""),
                source=source,
            )

    def _mixed_shot(self, ev: Evaluation, model: Node, lo: Loadout) -> None:
        cyclone = next((c.ranged for c in lo.items if c.id == CYCLONE and c.ranged), None)
        bolter = next((c.ranged for c in lo.items if c.id == STORM_BOLTER and c.ranged), None)
        if cyclone is None or bolter is None or not cyclone.has("mixed-shot"):
            return
        p = mixed_shot_kill_chance(bolter, cyclone)
        odds = overwatch_odds(bolter.dice.count, bolter.kills_on, bolter.jams_on)
        ev.set_value(
            model,
            "mixed-shot",
            "Mixed shot",
            {"kill": str(p), "jam": str(odds.stop)},
            text=f"storm bolter overwatch plus one missile (1 AP) kills {frac_text(p)}; the "
            f"storm bolter still jams on doubles ({odds.stop})",
            source=f"{SRC}, Ranged Weapons (Mixed Shot)",
        )

    def _ammo(self, ev: Evaluation, model: Node, lo: Loadout) -> None:
        state = model.data.state if model.data is not None else {}
        used_map: Any = state.get("ammo_used", {}) if isinstance(state, dict) else {}
        limited = {c.id: c for c in lo.items if c.ranged is not None and c.ranged.ammo is not None}
        src = f"{SRC}, Common Weapon Attributes (Limited Ammo)"
        if not isinstance(used_map, dict):
            used_map = {}  # reported by the engine against STATE_KEYS
        for wid in used_map:
            if wid not in limited:
                have = ", ".join(limited) or "none"
                ev.error(
                    "sh-state-invalid",
                    f"{who(ev, model)}: state.ammo_used names {wid!r}, which is not one of "
                    f"its limited-ammunition weapons ({have})",
                    (*model.loc, "state", "ammo_used", str(wid)),
                    src,
                )
        for wid, c in limited.items():
            w = c.ranged
            assert w is not None and w.ammo is not None
            used = used_map.get(wid, 0)
            if not whole(used):
                used = 0  # reported by the engine against STATE_KEYS
            if used > w.ammo:
                ev.error(
                    "sh-ammo-overspent",
                    f"{who(ev, model)} has used {used} {w.ammo_unit} of its {w.name}, "
                    f"which holds {w.ammo}",
                    (*model.loc, "state", "ammo_used", wid),
                    src,
                )
            left = max(w.ammo - used, 0)
            text = (
                f"{w.ammo} {w.ammo_unit}"
                if not used
                else (f"{left} of {w.ammo} {w.ammo_unit} left")
            )
            text += "; reload 4 AP (2 AP by a Techmarine)"
            ev.set_value(
                model,
                f"ammo-{wid}",
                f"{w.name} ammunition",
                {"capacity": w.ammo, "used": used, "left": left, "unit": w.ammo_unit},
                text=text,
                source=src,
            )

    def _psi(self, ev: Evaluation, model: Node) -> int | None:
        if model.entry is None or not model.has_category("librarian"):
            state = model.data.state if model.data is not None else {}
            if isinstance(state, dict) and "psi_spent" in state:
                ev.error(
                    "sh-state-invalid",
                    f"{who(ev, model)} records psi points spent but only a Librarian has any",
                    (*model.loc, "state", "psi_spent"),
                    f"{SRC}, Special Units (Librarian)",
                )
            return None
        points = model.entry.data.get("psi_points")
        if not isinstance(points, int):
            return None
        src = f"{SRC}, Special Units (Librarian)"
        state = model.data.state if model.data is not None else {}
        spent = state.get("psi_spent", 0) if isinstance(state, dict) else 0
        if not whole(spent):
            spent = 0  # reported by the engine against STATE_KEYS
        if spent > points:
            ev.error(
                "sh-psi-overspent",
                f"{who(ev, model)} has spent {spent} psi points but starts with {points}",
                (*model.loc, "state", "psi_spent"),
                src,
            )
        left = max(points - spent, 0)
        text = (
            f"{points} (not replenished during the mission)"
            if not spent
            else (f"{left} of {points} left (not replenished during the mission)")
        )
        ev.set_value(
            model,
            "psi",
            "Psi points",
            {"points": points, "spent": spent, "left": left},
            text=text,
            source=src,
        )
        return left

    def _tarantula(self, ev: Evaluation, model: Node, lo: Loadout) -> None:
        src = f"{SRC}, Special Units (Tarantula Turret)"
        roll = model.entry.data.get("melee_roll") if model.entry is not None else None
        if isinstance(roll, int):
            ev.set_value(
                model,
                "melee",
                "Melee",
                roll,
                text=f"always rolls {roll}; cannot win (a win counts as a draw)",
                source=src,
            )
        guns = [c for c in lo.items if c.ranged is not None and c.ranged.overwatch_range]
        n = sum(c.count for c in guns)
        if not 2 <= n <= 12:
            # one gun has no joint odds; more than a dozen is a count typed by mistake
            # (reported by the turret's own limit), whose exact fractions would be huge
            return
        w = guns[0].ranged
        assert w is not None
        odds = overwatch_odds(w.dice.count, w.kills_on, w.jams_on, w.dice.sides)
        one_kill = any_of(odds.kill, n)
        one_jam = any_of(odds.stop, n)
        all_jam = odds.stop**n
        ev.set_value(
            model,
            "guns-overwatch",
            f"Both {w.name}s on overwatch" if n == 2 else f"{n} guns on overwatch",
            {"guns": n, "kill": str(one_kill), "jam": str(one_jam), "all_jam": str(all_jam)},
            text=(
                f"at least one kill {frac_text(one_kill)}; at least one jam "
                f"{frac_text(one_jam)}; all jam {all_jam}"
            ),
            source=src,
        )


def _entries_with_loc(model: Any) -> Iterator[tuple[list[str | int], Entry]]:
    from ...catalog import iter_entries
    from ...model.catalog import Entry as EntryModel

    for loc, item in iter_entries(model):
        if isinstance(item, EntryModel):
            yield loc, item


RULES = SpaceHulk()


def _each(names: dict[str, int]) -> list[str]:
    """``{"Assault Cannon": 2}`` -> each name as often as it is carried, or ``"Name ×N"``
    once there are more than a handful (a count of thousands stays one line)."""
    if sum(names.values()) <= 12:
        return [name for name, n in names.items() for _ in range(n)]
    return [f"{name} ×{n}" if n > 1 else name for name, n in names.items()]
