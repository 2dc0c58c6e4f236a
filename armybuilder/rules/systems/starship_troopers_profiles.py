"""Starship Troopers stat lines: the printed characteristics, parsed into typed values.

A player types profiles the way the rule books print them (``Save: 4+/6+``, ``Close Combat:
2xD6+1 or D10``, ``Traits: Climb/6", Piercing/1``); this module reads them into frozen
dataclasses (:class:`ModelProfile`, :class:`WeaponProfile`) and says precisely what is wrong
when a value does not read (:class:`ProfileSyntaxError`): a typo must be an error with its
line in the catalog, never a string nobody understands.

Everything here follows the Characteristics chapter of the rules (model characteristics,
traits, weapon characteristics, munition delivery modes, weapon types and traits). Where the
text leaves a notation open (how a launcher is named, how several ranges are separated) the
choice is documented on the parser and in ``docs/systems/starship-troopers.md``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar, cast

P = TypeVar("P")

SRC = "Starship Troopers, Characteristics"


class ProfileSyntaxError(ValueError):
    """A characteristic that does not read the way the rules print it."""


# --------------------------------------------------------------------------- small values


def fmt_inches(x: float) -> str:
    """``12.0`` -> ``12"``, ``1.5`` -> ``1.5"``."""
    return f'{int(x)}"' if float(x).is_integer() else f'{x:g}"'


def _norm(text: Any) -> str:
    """Collapse spaces and unify the marks people type for inches, dashes and 'times'."""
    s = str(text)
    for mark in ("\u2033", "\u201d", "\u201c", "''"):
        s = s.replace(mark, '"')
    s = s.replace("\u2013", "-").replace("\u2014", "-").replace("\u00d7", "x")
    return " ".join(s.split())


def _whole(value: Any, what: str, minimum: int = 0) -> int:
    """A whole number written as a YAML integer or as digits."""
    if isinstance(value, bool):
        raise ProfileSyntaxError(f"{what} must be a whole number, not {value!r}")
    if isinstance(value, int):
        n = value
    elif isinstance(value, float) and value.is_integer():
        n = int(value)
    elif isinstance(value, str) and value.strip().isdigit():
        n = int(value.strip())
    else:
        raise ProfileSyntaxError(f"{what} {value!r} should be a whole number, e.g. 2")
    if n < minimum:
        raise ProfileSyntaxError(f"{what} {n} should be at least {minimum}")
    return n


_ROLL = re.compile(r"^(\d+)\s*\+$")


def parse_roll(value: Any, what: str) -> int:
    """``"4+"`` -> 4. A bare ``4`` is an error: the plus says "this or better"."""
    s = _norm(value)
    m = _ROLL.match(s)
    if m:
        n = int(m.group(1))
        if n < 1:
            raise ProfileSyntaxError(f"{what} {s!r} should be 1+ or more")
        return n
    if s.isdigit():
        raise ProfileSyntaxError(f"{what} {s!r} needs its plus sign: {s}+")
    raise ProfileSyntaxError(f"{what} {s!r} should be a roll to equal or beat, such as 4+")


_DISTANCE = re.compile(r'^(\d+(?:\.\d+)?)\s*"$')


def parse_inches(value: Any, what: str) -> float:
    """``'4"'`` -> 4.0. The inch mark is required (a bare number is reported)."""
    s = _norm(value)
    m = _DISTANCE.match(s)
    if m:
        return float(m.group(1))
    if re.fullmatch(r"\d+(?:\.\d+)?", s):
        raise ProfileSyntaxError(f'{what} {s!r} needs the inch mark: {s}"')
    raise ProfileSyntaxError(f'{what} {s!r} should be a distance in inches, such as 4"')


# --------------------------------------------------------------------------- damage dice


@dataclass(frozen=True)
class DamageDice:
    """``count`` damage dice of ``sides`` faces, each adding ``bonus`` and, when
    ``bonus_die`` is set, the result of one extra die of that many faces rolled once for the
    whole attack (Characteristics, Special – Damage bonus)."""

    count: int
    sides: int
    bonus: int = 0
    bonus_die: int | None = None

    def __str__(self) -> str:
        s = f"{self.count}xD{self.sides}" if self.count != 1 else f"D{self.sides}"
        if self.bonus:
            s += f"+{self.bonus}"
        if self.bonus_die:
            s += f"+D{self.bonus_die}"
        return s

    @property
    def has_bonus(self) -> bool:
        return bool(self.bonus or self.bonus_die)


_DICE = re.compile(r"^(?:(\d+)\s*[xX]?\s*)?[dD]\s*(\d+)((?:\s*\+\s*[dD]?\s*\d+)*)$")
_BONUS = re.compile(r"\+\s*([dD]?)\s*(\d+)")
DICE_EXAMPLES = "D6, 2xD6, 3xD6+1 or 2xD6+D6"
#: Bounds on damage dice, far beyond any printed profile, so that a typo (``200xD6``) is
#: reported instead of making every damage table slow (the odds are computed exactly).
MAX_DICE = 20
MAX_SIDES = 100
MAX_BONUS = 20
#: A Stream weapon fired directly rolls dice × damage bonus dice (Weapon Traits, LZ).
MAX_STREAM_DICE = 60


def _one_dice(s: str, what: str, whole: str) -> DamageDice:
    m = _DICE.match(s)
    if not m:
        raise ProfileSyntaxError(f"{what} {whole!r} should be damage dice such as {DICE_EXAMPLES}")
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    if count < 1:
        raise ProfileSyntaxError(f"{what} {whole!r}: roll at least one die")
    if sides < 2:
        raise ProfileSyntaxError(f"{what} {whole!r}: a die has at least two faces")
    if count > MAX_DICE:
        raise ProfileSyntaxError(f"{what} {whole!r}: at most {MAX_DICE} dice per attack")
    if sides > MAX_SIDES:
        raise ProfileSyntaxError(f"{what} {whole!r}: a die has at most {MAX_SIDES} faces")
    bonus, die = 0, None
    fixed_seen = False
    for d, n in _BONUS.findall(m.group(3)):
        if d:
            if die is not None:
                raise ProfileSyntaxError(f"{what} {whole!r}: only one bonus die per attack")
            if int(n) < 2:
                raise ProfileSyntaxError(f"{what} {whole!r}: a die has at least two faces")
            if int(n) > MAX_BONUS:
                raise ProfileSyntaxError(
                    f"{what} {whole!r}: a bonus die has at most {MAX_BONUS} faces"
                )
            die = int(n)
        else:
            if fixed_seen:
                raise ProfileSyntaxError(f"{what} {whole!r}: add the fixed bonuses up (+{n}...)")
            fixed_seen = True
            bonus = int(n)
            if bonus > MAX_BONUS:
                raise ProfileSyntaxError(f"{what} {whole!r}: a bonus of at most +{MAX_BONUS}")
    return DamageDice(count, sides, bonus, die)


@lru_cache(maxsize=1024)
def parse_damage(
    text: str, what: str = "damage", allow_none: bool = False
) -> tuple[DamageDice, ...]:
    """``"2xD6+1 or D10"`` -> the alternatives (the player picks one per attack).

    ``allow_none``: ``-`` (or an empty cell) means no dice at all (a model without close
    combat attacks).
    """
    s = _norm(text)
    if s in {"", "-"}:
        if allow_none:
            return ()
        raise ProfileSyntaxError(f"{what} is empty; write damage dice such as {DICE_EXAMPLES}")
    parts = re.split(r"\s+or\s+", s, flags=re.IGNORECASE)
    return tuple(_one_dice(p.strip(), what, s) for p in parts)


def damage_text(alternatives: tuple[DamageDice, ...]) -> str:
    return " or ".join(str(d) for d in alternatives) if alternatives else "-"


# --------------------------------------------------------------------------- saves


@dataclass(frozen=True)
class Save:
    """Armour and dodge saves (``None``: the model has no such save)."""

    armour: int | None
    dodge: int | None = None

    def __str__(self) -> str:
        if self.armour is None and self.dodge is None:
            return "-"
        if self.dodge is None:
            return f"{self.armour}+"
        armour = f"{self.armour}+" if self.armour is not None else "-"
        return f"{armour}/{self.dodge}+"

    def describe(self) -> str:
        """In words, for the profile view."""
        if self.armour is None and self.dodge is None:
            return "no save"
        parts = []
        if self.armour is not None:
            parts.append(f"armour {self.armour}+")
        if self.dodge is not None:
            parts.append(f"dodge {self.dodge}+")
        return " or ".join(parts)


_SAVE_PART = re.compile(r"^(?:(\d+)\s*\+|-)$")
SAVE_FORMS = "4+ (armour), 4+/6+ (armour/dodge) or -/4+ (dodge only)"


@lru_cache(maxsize=256)
def parse_save(text: str) -> Save:
    """``4+`` (armour), ``4+/6+`` (armour/dodge), ``-/4+`` (dodge only), ``-`` (none)."""
    s = _norm(text)
    if s in {"", "-"}:
        return Save(None, None)
    parts = [p.strip() for p in s.split("/")]
    if len(parts) > 2 or not all(_SAVE_PART.match(p) for p in parts):
        raise ProfileSyntaxError(f"save {s!r} should read like {SAVE_FORMS}")
    values: list[int | None] = []
    for p in parts:
        m = _SAVE_PART.match(p)
        assert m is not None
        n = int(m.group(1)) if m.group(1) else None
        if n is not None and not 2 <= n <= 6:
            raise ProfileSyntaxError(
                f"save {s!r}: a save is one D6 roll (a 1 always fails), so it is 2+ to 6+"
            )
        values.append(n)
    if len(values) == 1:
        return Save(values[0], None)
    return Save(values[0], values[1])


# --------------------------------------------------------------------------- traits


@dataclass(frozen=True)
class Trait:
    """One trait: its canonical name, its number (Hits/3, Piercing/1, Jump/12", LZ (3"),
    Parry 2) and any text detail (the arc of Fire Arc, ``LOS`` / ``Stream`` of an LZ)."""

    name: str
    number: float | None = None
    detail: str = ""

    def __str__(self) -> str:
        n = self.number
        if self.name in MOVEMENT_TYPES and n is not None:
            return f"{self.name}/{fmt_inches(n)}"
        if self.name in {"Hits", "Piercing"} and n is not None:
            return f"{self.name}/{int(n)}"
        if self.name == "LZ":
            if self.detail == "Stream":
                return "LZ (Stream)"
            inner = fmt_inches(n or 0)
            return f"LZ ({inner}/LOS)" if self.detail == "LOS" else f"LZ ({inner})"
        if self.name == "Fire Arc":
            return f"Fire Arc: {self.detail}"
        if self.name == "Parry" and n is not None and n > 1:
            return f"Parry {int(n)}"
        return self.name


#: Special movement types a model may have ((Movement Type)/X"). The chapter names jumping,
#: hovering and tunnelling, and the Arachnid Warrior climbs; Fly is accepted for air units.
MOVEMENT_TYPES = ("Climb", "Fly", "Hover", "Jump", "Tunnel")
MODEL_FLAGS = ("Independent", "No Flinch", "Retaliate")
MODEL_NUMBERED = ("Hits", "Piercing")
WEAPON_FLAGS = (
    "AA",
    "Accurate",
    "Auto",
    "Flame",
    "Killshot",
    "Multihit",
    "Persistent",
    "Ready",
    "Remote",
    "Retaliate",
    "Underslung",
)
WEAPON_NUMBERED = ("Piercing",)
WEAPON_SPECIAL = ("Fire Arc", "LZ", "Parry")

MODEL_TRAIT_FORMS = (
    "Independent",
    "Hits/X",
    *(f'{m}/X"' for m in MOVEMENT_TYPES),
    "No Flinch",
    "Piercing/X",
    "Retaliate",
)
WEAPON_TRAIT_FORMS = (
    "AA",
    "Accurate",
    "Auto",
    "Fire Arc: X",
    "Flame",
    "Killshot",
    'LZ (X")',
    'LZ (X"/LOS)',
    "LZ (Stream)",
    "Multihit",
    "Parry",
    "Persistent",
    "Piercing/X",
    "Ready",
    "Remote",
    "Retaliate",
    "Underslung",
)


def _key(s: str) -> str:
    return re.sub(r"[\s\-_]+", "", s.lower())


def _split_traits(text: str) -> list[str]:
    """Traits are listed one per line in the books; commas or semicolons also separate."""
    raw = str(text)
    for mark in ("\u2033", "\u201d", "\u201c", "''"):
        raw = raw.replace(mark, '"')
    return [t for t in (_norm(x) for x in re.split(r"[,;\n]", raw)) if t]


_SLASH = re.compile(r"^([A-Za-z][A-Za-z ]*?)\s*/\s*(.*)$")
_NUM = re.compile(r"\d+(?:\.\d+)?")


def _suggest(token: str, kind: str) -> str | None:
    """A likely intended trait for an unknown one, keeping the number the author typed."""
    m = re.match(r"^([A-Za-z][A-Za-z !:]*?)\s*(?:[/(:]|\d|$)", token)
    word = (m.group(1) if m else token).strip()
    if kind == "model":
        names = [*MODEL_FLAGS, *MODEL_NUMBERED, *MOVEMENT_TYPES]
    else:
        names = [*WEAPON_FLAGS, *WEAPON_NUMBERED, *WEAPON_SPECIAL]
    by_key = {_key(n): n for n in names}
    close = difflib.get_close_matches(_key(word), list(by_key), n=1, cutoff=0.6)
    if not close:
        return None
    name = by_key[close[0]]
    num = _NUM.search(token[len(word) :]) if len(token) > len(word) else None
    digits = num.group(0) if num else "X"
    if name in MOVEMENT_TYPES:
        return f'{name}/{digits}"'
    if name in MODEL_NUMBERED or name in WEAPON_NUMBERED:
        return f"{name}/{digits}"
    if name == "LZ":
        return f'LZ ({digits}")'
    if name == "Fire Arc":
        return "Fire Arc: X"
    return name


def _unknown(token: str, kind: str) -> ProfileSyntaxError:
    """The error for a trait that is not one of the rules' traits, with a hint."""
    other = "weapon" if kind == "model" else "model"
    try:
        _parse_trait(token, other)
    except _UnknownTrait:
        pass
    except ProfileSyntaxError:
        pass
    else:
        forms = MODEL_TRAIT_FORMS if kind == "model" else WEAPON_TRAIT_FORMS
        return ProfileSyntaxError(
            f"{token!r} is a {other} trait, not a {kind} trait ({kind} traits: {', '.join(forms)})"
        )
    words = token.split()
    if len(words) > 1:
        pieces: list[str] = []
        ok = True
        for w in words:
            try:
                pieces.append(str(_parse_trait(w, kind)))
            except ProfileSyntaxError:
                ok = False
                break
        if ok:
            return ProfileSyntaxError(
                f"trait {token!r}: separate traits with commas: {', '.join(pieces)!r}"
            )
    if _key(token) == "los":
        return ProfileSyntaxError(
            'LOS is not a trait of its own: it belongs to a Lethal Zone, as in LZ (3"/LOS)'
        )
    hint = _suggest(token, kind)
    if hint is not None:
        return ProfileSyntaxError(f"unknown trait {token!r} (did you mean {hint!r}?)")
    forms = MODEL_TRAIT_FORMS if kind == "model" else WEAPON_TRAIT_FORMS
    return ProfileSyntaxError(f"unknown trait {token!r} ({kind} traits: {', '.join(forms)})")


def _numbered(name: str, arg: str, token: str) -> Trait:
    if not arg.isdigit() or int(arg) < 1:
        raise ProfileSyntaxError(
            f"trait {token!r}: {name}/X needs a whole number of 1 or more, e.g. {name}/1"
        )
    return Trait(name, int(arg))


_LZ = re.compile(r"^LZ\s*\(?\s*(.*?)\s*\)?$", re.IGNORECASE)
_LZ_SIZE = re.compile(r'^(\d+(?:\.\d+)?)\s*("?)\s*(?:/\s*(\w+))?$')
_FIRE_ARC = re.compile(r"^fire\s*arc\s*(?::\s*(.*)|\(\s*(.*?)\s*\)|/\s*(.*))?$", re.IGNORECASE)
_PARRY = re.compile(r"^parry(?:\s*/?\s*(\d+))?$", re.IGNORECASE)


def _parse_trait(token: str, kind: str) -> Trait:
    flags = MODEL_FLAGS if kind == "model" else WEAPON_FLAGS
    for f in flags:
        if _key(token) == _key(f):
            return Trait(f)
    m = _SLASH.match(token)
    if m:
        word, arg = m.group(1).strip(), m.group(2).strip()
        numbered = MODEL_NUMBERED if kind == "model" else WEAPON_NUMBERED
        for name in numbered:
            if _key(word) == _key(name):
                return _numbered(name, arg, token)
        if kind == "model":
            for name in MOVEMENT_TYPES:
                if _key(word) == _key(name):
                    dm = _DISTANCE.match(arg)
                    if dm:
                        return Trait(name, float(dm.group(1)))
                    if _NUM.fullmatch(arg):
                        raise ProfileSyntaxError(
                            f"trait {token!r} needs the inch mark: '{name}/{arg}\"'"
                        )
                    raise ProfileSyntaxError(
                        f'trait {token!r}: {name}/X" needs a distance in inches, e.g. {name}/6"'
                    )
    if kind == "weapon":
        if re.match(r"^LZ\b", token, re.IGNORECASE):
            lz = _LZ.match(token)
            inner = lz.group(1) if lz else ""
            if _key(inner) == "stream":
                return Trait("LZ", None, "Stream")
            sm = _LZ_SIZE.match(inner)
            if sm and sm.group(3) is not None and _key(sm.group(3)) != "los":
                raise ProfileSyntaxError(
                    f'trait {token!r}: an LZ reads LZ (X"), LZ (X"/LOS) or LZ (Stream)'
                )
            if sm and not sm.group(2):
                fixed = f'LZ ({sm.group(1)}"' + ("/LOS)" if sm.group(3) else ")")
                raise ProfileSyntaxError(f"trait {token!r} needs the inch mark: {fixed!r}")
            if not sm:
                raise ProfileSyntaxError(
                    f'trait {token!r}: an LZ reads LZ (X"), LZ (X"/LOS) or LZ (Stream)'
                )
            return Trait("LZ", float(sm.group(1)), "LOS" if sm.group(3) else "")
        fa = _FIRE_ARC.match(token)
        if fa:
            arc = next((g for g in fa.groups() if g), "").strip()
            if not arc:
                raise ProfileSyntaxError(
                    f"trait {token!r}: say which arc, e.g. 'Fire Arc: front 180°'"
                )
            return Trait("Fire Arc", None, arc)
        pm = _PARRY.match(token)
        if pm:
            n = int(pm.group(1)) if pm.group(1) else 1
            if n < 1:
                raise ProfileSyntaxError(f"trait {token!r}: Parry N parries at least one die")
            return Trait("Parry", n)
    raise _UnknownTrait(token)


class _UnknownTrait(ProfileSyntaxError):
    """No trait of that kind reads like this (turned into a message with a hint)."""


def parse_trait(token: str, kind: str) -> Trait:
    """One trait of a model (``kind="model"``) or a weapon (``kind="weapon"``)."""
    try:
        return _parse_trait(token, kind)
    except _UnknownTrait:
        raise _unknown(token, kind) from None


@lru_cache(maxsize=1024)
def parse_traits(text: str, kind: str) -> tuple[Trait, ...]:
    """A model's or weapon's trait list (``-`` or empty: none)."""
    s = _norm(text)
    if s in {"", "-"}:
        return ()
    traits: list[Trait] = []
    seen: set[str] = set()
    for token in _split_traits(text):
        if token == "-":
            continue
        t = parse_trait(token, kind)
        ident = t.name if t.name not in MOVEMENT_TYPES else f"move:{t.name}"
        if ident in seen:
            raise ProfileSyntaxError(f"trait {t.name} is listed twice")
        seen.add(ident)
        traits.append(t)
    return tuple(traits)


def _find(traits: tuple[Trait, ...], name: str) -> Trait | None:
    return next((t for t in traits if t.name == name), None)


# --------------------------------------------------------------------------- model profile

MODEL_FIELDS = ("value", "size", "move", "close-combat", "target", "save", "kill", "traits")
MODEL_LABELS = {
    "value": "Value",
    "size": "Size",
    "move": "Move",
    "close-combat": "Close Combat",
    "target": "Target",
    "save": "Save",
    "kill": "Kill",
    "traits": "Traits",
}


def parse_value(value: Any) -> int:
    """A model's Value: a whole number (its cost)."""
    return _whole(value, "value", 0)


def parse_move(value: Any) -> float | None:
    """``4"``; ``-`` for a model that cannot move."""
    if _norm(value) == "-":
        return None
    return parse_inches(value, "move")


@dataclass(frozen=True)
class ModelProfile:
    """A model's stat line (Characteristics: Value ... Traits)."""

    name: str
    value: int
    size: int
    move: float | None
    close_combat: tuple[DamageDice, ...]
    target: int
    save: Save
    kill: int
    traits: tuple[Trait, ...] = ()

    # ---- traits as questions
    def trait(self, name: str) -> Trait | None:
        return _find(self.traits, name)

    def has(self, name: str) -> bool:
        return self.trait(name) is not None

    @property
    def hits(self) -> int:
        """Hits the model can take (Hits/X; 1 without the trait)."""
        t = self.trait("Hits")
        return int(t.number) if t is not None and t.number else 1

    @property
    def piercing(self) -> int:
        t = self.trait("Piercing")
        return int(t.number) if t is not None and t.number else 0

    @property
    def movement(self) -> tuple[Trait, ...]:
        return tuple(t for t in self.traits if t.name in MOVEMENT_TYPES)

    def printed(self) -> dict[str, str]:
        """The characteristics as the rules print them (canonical spelling)."""
        return {
            "value": str(self.value),
            "size": str(self.size),
            "move": fmt_inches(self.move) if self.move is not None else "-",
            "close-combat": damage_text(self.close_combat),
            "target": f"{self.target}+",
            "save": str(self.save),
            "kill": f"{self.kill}+",
            "traits": ", ".join(str(t) for t in self.traits),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "size": self.size,
            "move": self.move,
            "close_combat": [str(d) for d in self.close_combat],
            "target": self.target,
            "save": {"armour": self.save.armour, "dodge": self.save.dodge},
            "kill": self.kill,
            "hits": self.hits,
            "traits": [str(t) for t in self.traits],
        }

    def text(self) -> str:
        p = self.printed()
        out = (
            f"Value {p['value']}, Size {p['size']}, Move {p['move']}, "
            f"Close Combat {p['close-combat']}, Target {p['target']}, Save {p['save']}, "
            f"Kill {p['kill']}"
        )
        return out + (f"; {p['traits']}" if p["traits"] else "")


def model_field_errors(chars: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every characteristic of a model profile that does not read, as (key, message)."""
    errors: list[tuple[str, str]] = []
    parsers: dict[str, Any] = {
        "value": lambda v: _whole(v, "value", 0),
        "size": lambda v: _whole(v, "size", 1),
        "move": parse_move,
        "close-combat": lambda v: parse_damage(_norm(v), "close combat", True),
        "target": lambda v: parse_roll(v, "target"),
        "save": lambda v: parse_save(_norm(v)),
        "kill": lambda v: parse_roll(v, "kill"),
        "traits": lambda v: parse_traits(str(v) if v is not None else "", "model"),
    }
    parsed: dict[str, Any] = {}
    for key in MODEL_FIELDS:
        if key not in chars:
            if key == "traits":
                continue  # a blank Traits cell may be left out
            errors.append((key, f"model profile is missing {MODEL_LABELS[key]} ({key!r})"))
            continue
        value = chars[key]
        if value is None and key != "traits":
            errors.append((key, f"{MODEL_LABELS[key]} is empty"))
            continue
        try:
            parsed[key] = parsers[key](value)
        except ProfileSyntaxError as exc:
            errors.append((key, str(exc)))
    if "target" in parsed and "kill" in parsed and parsed["kill"] <= parsed["target"]:
        errors.append(
            (
                "kill",
                f"Kill {parsed['kill']}+ must be higher than Target {parsed['target']}+ "
                f"({SRC}, Kill)",
            )
        )
    return errors


def parse_model(name: str, chars: Mapping[str, Any]) -> ModelProfile:
    """Read a model profile (raises :class:`ProfileSyntaxError` naming the first problem)."""
    return _once(_parse_model, name, chars)


def _once(parse: Callable[[str, Mapping[str, Any]], P], name: str, chars: Mapping[str, Any]) -> P:
    """``parse(name, chars)``, read once per profile text (the same catalog profile is read
    for every selection of it, at every evaluation)."""
    try:
        key = tuple(sorted(chars.items()))
        hash(key)
    except TypeError:  # a value that is not hashable (a list...): read it every time
        return parse(name, chars)
    return cast(P, _parsed(parse, name, key))


@lru_cache(maxsize=2048)
def _parsed(parse: Callable[[str, Mapping[str, Any]], Any], name: str,
            items: tuple[tuple[str, Any], ...]) -> Any:  # fmt: skip
    return parse(name, dict(items))


def _parse_model(name: str, chars: Mapping[str, Any]) -> ModelProfile:
    errors = model_field_errors(chars)
    if errors:
        raise ProfileSyntaxError(errors[0][1])
    traits = chars.get("traits")
    return ModelProfile(
        name=name,
        value=_whole(chars["value"], "value", 0),
        size=_whole(chars["size"], "size", 1),
        move=parse_move(chars["move"]),
        close_combat=parse_damage(_norm(chars["close-combat"]), "close combat", True),
        target=parse_roll(chars["target"], "target"),
        save=parse_save(_norm(chars["save"])),
        kill=parse_roll(chars["kill"], "kill"),
        traits=parse_traits(str(traits) if traits is not None else "", "model"),
    )


# --------------------------------------------------------------------------- weapons

DELIVERY_MODES = ("Dropped", "Launched", "Placed", "Thrown")


@dataclass(frozen=True)
class Delivery:
    """A munition delivery mode; Launched and Thrown carry a range, Launched may name the
    launcher system it needs (written ``Launched 20" (Grenade Launcher)``)."""

    mode: str
    inches: float | None = None
    launcher: str = ""

    def __str__(self) -> str:
        s = self.mode
        if self.inches is not None:
            s += f" {fmt_inches(self.inches)}"
        if self.launcher:
            s += f" ({self.launcher})"
        return s


@dataclass(frozen=True)
class WeaponRange:
    """Range in inches (several values: one per ammunition type), or delivery modes, or
    nothing (``-``)."""

    inches: tuple[float, ...] = ()
    delivery: tuple[Delivery, ...] = ()

    def __str__(self) -> str:
        if self.delivery:
            return ", ".join(str(d) for d in self.delivery)
        if self.inches:
            return "/".join(fmt_inches(x) for x in self.inches)
        return "-"


_DELIVERY = re.compile(
    r'^(dropped|launched|placed|thrown)\b\s*(?:(\d+(?:\.\d+)?)\s*("?))?\s*(?:\(\s*([^()]*?)\s*\))?$',
    re.IGNORECASE,
)


@lru_cache(maxsize=512)
def parse_range(text: str) -> WeaponRange:
    """``20"``, ``12"/24"`` (by ammunition), ``Thrown 8", Placed``, ``-``."""
    s = _norm(text)
    if s in {"", "-"}:
        return WeaponRange()
    first = s.split(",")[0].strip().split(" ")[0].lower()
    if first in {m.lower() for m in DELIVERY_MODES} or any(
        _key(s).startswith(_key(m)) for m in DELIVERY_MODES
    ):
        modes: list[Delivery] = []
        for part in (p.strip() for p in s.split(",")):
            m = _DELIVERY.match(part)
            if not m:
                raise ProfileSyntaxError(
                    f"range {s!r}: delivery modes read like 'Thrown 8\"', "
                    "'Launched 20\" (launcher name)', 'Placed' or 'Dropped'"
                )
            mode = m.group(1).capitalize()
            inches = float(m.group(2)) if m.group(2) else None
            if m.group(2) and not m.group(3):
                raise ProfileSyntaxError(
                    f"range {s!r}: {mode} needs the inch mark: '{mode} {m.group(2)}\"'"
                )
            launcher = m.group(4) or ""
            if mode in {"Launched", "Thrown"} and inches is None:
                raise ProfileSyntaxError(
                    f"range {s!r}: {mode} munitions give a range, e.g. '{mode} 10\"'"
                )
            if mode in {"Dropped", "Placed"} and inches is not None:
                raise ProfileSyntaxError(f"range {s!r}: {mode} munitions have no range")
            if launcher and mode != "Launched":
                raise ProfileSyntaxError(
                    f"range {s!r}: only Launched munitions name a launcher system"
                )
            if any(d.mode == mode for d in modes):
                raise ProfileSyntaxError(f"range {s!r}: {mode} is listed twice")
            modes.append(Delivery(mode, inches, launcher))
        return WeaponRange((), tuple(modes))
    parts = [p.strip() for p in re.split(r"\s*/\s*|\s+or\s+", s)]
    return WeaponRange(tuple(parse_inches(p, "range") for p in parts), ())


WEAPON_TYPES = ("Crew", "Infinite", "Internal", "Pack", "One-Shot!", "Squad")


@lru_cache(maxsize=128)
def parse_weapon_type(text: str) -> str:
    """One of Crew, Infinite, Internal, Pack, One-Shot!, Squad."""
    s = _norm(text)
    by_key = {_key(t.rstrip("!")): t for t in WEAPON_TYPES}
    k = _key(s.rstrip("!"))
    if k in by_key:
        return by_key[k]
    words = s.split()
    if len(words) > 1 and _key(words[0].rstrip("!")) in by_key:
        kind = by_key[_key(words[0].rstrip("!"))]
        rest = " ".join(words[1:])
        return _raise(f"type {s!r}: the type is {kind!r}; put {rest!r} under traits")
    close = difflib.get_close_matches(k, list(by_key), n=1, cutoff=0.6)
    hint = f" (did you mean {by_key[close[0]]!r}?)" if close else ""
    return _raise(f"unknown weapon type {s!r}{hint}; types: {', '.join(WEAPON_TYPES)}")


def _raise(message: str) -> str:
    raise ProfileSyntaxError(message)


WEAPON_FIELDS = ("range", "damage", "type", "traits")
WEAPON_LABELS = {"range": "Range", "damage": "Damage", "type": "Type", "traits": "Traits"}


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon's stat line (Weapon Characteristics: Name, Range, Damage, Type, Traits)."""

    name: str
    range: WeaponRange
    damage: tuple[DamageDice, ...]
    type: str
    traits: tuple[Trait, ...] = ()

    def trait(self, name: str) -> Trait | None:
        return _find(self.traits, name)

    def has(self, name: str) -> bool:
        return self.trait(name) is not None

    @property
    def piercing(self) -> int:
        t = self.trait("Piercing")
        return int(t.number) if t is not None and t.number else 0

    @property
    def stream(self) -> bool:
        t = self.trait("LZ")
        return t is not None and t.detail == "Stream"

    def printed(self) -> dict[str, str]:
        return {
            "range": str(self.range),
            "damage": damage_text(self.damage),
            "type": self.type,
            "traits": ", ".join(str(t) for t in self.traits),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "range": [fmt_inches(x) for x in self.range.inches],
            "delivery": [str(d) for d in self.range.delivery],
            "damage": [str(d) for d in self.damage],
            "type": self.type,
            "traits": [str(t) for t in self.traits],
        }

    def text(self) -> str:
        p = self.printed()
        out = f"{self.name}: {p['range']}, {p['damage']}, {p['type']}"
        return out + (f"; {p['traits']}" if p["traits"] else "")


def weapon_field_errors(chars: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every characteristic of a weapon profile that does not read, as (key, message)."""
    errors: list[tuple[str, str]] = []
    parsers: dict[str, Any] = {
        "range": lambda v: parse_range(_norm(v)),
        "damage": lambda v: parse_damage(_norm(v), "damage", False),
        "type": lambda v: parse_weapon_type(_norm(v)),
        "traits": lambda v: parse_traits(str(v) if v is not None else "", "weapon"),
    }
    for key in WEAPON_FIELDS:
        if key not in chars:
            if key == "traits":
                continue
            errors.append((key, f"weapon profile is missing {WEAPON_LABELS[key]} ({key!r})"))
            continue
        if chars[key] is None and key != "traits":
            errors.append((key, f"{WEAPON_LABELS[key]} is empty"))
            continue
        try:
            parsers[key](chars[key])
        except ProfileSyntaxError as exc:
            errors.append((key, str(exc)))
    if not errors and chars.get("traits") is not None:
        stream = any(
            t.name == "LZ" and t.detail == "Stream"
            for t in parse_traits(str(chars["traits"]), "weapon")
        )
        for dd in parse_damage(_norm(chars["damage"]), "damage", False) if stream else ():
            rolled = dd.count * (dd.bonus + (dd.bonus_die or 0))
            if rolled > MAX_STREAM_DICE:
                errors.append(
                    (
                        "damage",
                        f"damage {str(dd)!r} fired directly (LZ (Stream)) rolls up to {rolled} "
                        f"dice; at most {MAX_STREAM_DICE}",
                    )
                )
    return errors


def parse_weapon(name: str, chars: Mapping[str, Any]) -> WeaponProfile:
    """Read a weapon profile (raises :class:`ProfileSyntaxError` naming the first problem)."""
    return _once(_parse_weapon, name, chars)


def _parse_weapon(name: str, chars: Mapping[str, Any]) -> WeaponProfile:
    errors = weapon_field_errors(chars)
    if errors:
        raise ProfileSyntaxError(errors[0][1])
    traits = chars.get("traits")
    return WeaponProfile(
        name=name,
        range=parse_range(_norm(chars["range"])),
        damage=parse_damage(_norm(chars["damage"]), "damage", False),
        type=parse_weapon_type(_norm(chars["type"])),
        traits=parse_traits(str(traits) if traits is not None else "", "weapon"),
    )
