"""StarMarines (2003 counters-and-hex game): checks and computed values.

The main rules say how an army is bought; each race's units are in its own book, so players
type their units in (a user catalog that ``extends`` a race, or a roster's ``custom:``
entries) from the building blocks of ``catalogs/starmarines/system.yaml``: the categories
``soldier`` / ``vehicle`` / ``team`` / ``formation``, the special types ``leader`` / ``hero``
/ ``doctor`` / ``fixer``, vehicle sizes and motion types, weapon sizes, and the ``soldier``,
``vehicle`` and ``weapon`` profiles. This module

* checks that data when a catalog (or a roster's custom entries) is loaded: a soldier needs a
  movement, a vehicle one size and one motion type, a supertank must be large and on the
  ground, a weapon one size and an AP rating, an attribute costs half a point...;
* checks a roster: game size in blocks of 25 build points, experience shared by a team,
  one attribute per soldier, weapons no larger than their carrier (or mount) can take,
  paired weapons alike, no other army's weapons, no vehicles for races that have none;
* charges experience (0 / 1 / 2 / 3 build points per team or individual) and computes the
  cost breakdown of every unit, team and formation, the formation levels reached, each
  vehicle's immunities (and the installed enemy weapons they cover), damage and overrun,
  and each soldier's morale with its modifiers (experience, heroes, leaders).

Readings of the text where it is unclear are stated where they are made and in
``docs/systems/starmarines.md``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...plugin import CatalogFinding, Matchup, SystemRules
from ...words import number as _number
from ..engine import Evaluation, Issue, Node, fmt_num
from ..state import StateKey
from .starmarines_odds import damage_value, wounding_value

if TYPE_CHECKING:
    from ...catalog import CatalogIndex, GameSystem
    from ...model.catalog import Entry, EntryLink, ExperienceLevel, FactionFile, SystemFile

SRC = "StarMarines"
COST = "bp"

# Fallbacks for the figures the system file's `data:` carries (the catalog is authoritative).
SIZES: tuple[str, ...] = ("light", "medium", "heavy")
GAME_SIZE_STEP = 25  # IV-a
IMMUNITY = {"supertank": 1, "small-walker": 1, "large-walker": 2}  # IV-g
OVERRUN = {"ap": 3, "damage": 5, "escape": 3}  # IX-F
MORALE_ADJACENT = {"two-friends": 1, "hero": 2}  # IX-D
ATTRIBUTE_COST = 0.5  # IV-e

UNIT_KINDS = ("soldier", "vehicle")
SPECIAL_TYPES = ("leader", "hero", "doctor", "fixer", "airborne")
VEHICLE_SIZES = ("small", "large")
MOTION_TYPES = ("ground", "skimmer")
VEHICLE_TYPES = ("supertank", "walker")
SIDES = ("left", "right")
WEAPON_TRAITS = ("armor-piercing", "frag")
# Categories that say what an entry is; an entry is at most one of these.
KINDS = ("soldier", "vehicle", "weapon", "mount", "attribute")


class ProfileSyntaxError(ValueError):
    """A characteristic (or category) that does not read as the rules module needs it.

    ``where`` says which part of the entry is at fault: ``"profiles"`` or ``"categories"``.
    """

    def __init__(self, message: str, where: str = "profiles") -> None:
        super().__init__(message)
        self.where = where


# --------------------------------------------------------------------------- parsing


_WHOLE = re.compile(r"^[+-]?\d+$")
_NONE_MARKS = {"", "-", "–", "—", "n/a"}


def parse_whole(value: Any, what: str, signed: bool = False) -> int:
    """A whole number as a race book prints it: ``2``, ``"2"``, ``"+1"``, ``"-1"``."""
    if isinstance(value, bool) or value is None:
        raise ProfileSyntaxError(f"{what} should be a whole number, not {value!r}")
    if isinstance(value, int):
        n = value
    elif isinstance(value, float) and value.is_integer():
        n = int(value)
    elif isinstance(value, str) and _WHOLE.match(value.strip().replace("−", "-")):
        n = int(value.strip().replace("−", "-"))
    else:
        raise ProfileSyntaxError(f"{what} should be a whole number, not {value!r}")
    if n < 0 and not signed:
        raise ProfileSyntaxError(f"{what} cannot be negative ({value!r})")
    return n


def parse_optional(value: Any, what: str, signed: bool = False) -> int | None:
    """Like :func:`parse_whole`, but a missing value or a dash means "none"."""
    if value is None or (isinstance(value, str) and value.strip().lower() in _NONE_MARKS):
        return None
    return parse_whole(value, what, signed)


def parse_range(value: Any) -> tuple[int, int] | None:
    """A weapon's range: ``6`` (maximum) or ``"2-6"`` (minimum-maximum), in hexes."""
    if value is None or (isinstance(value, str) and value.strip().lower() in _NONE_MARKS):
        return None
    if isinstance(value, str) and re.match(r"^\s*\d+\s*[-–]\s*\d+\s*$", value):
        low, high = (int(x) for x in re.split(r"[-–]", value))
        if low > high or high < 1:
            raise ProfileSyntaxError(f"range {value!r} should read minimum-maximum, e.g. '2-6'")
        return low, high
    high = parse_whole(value, "range")
    if high < 1:
        raise ProfileSyntaxError(f"range {value!r} should be at least 1 hex")
    return 0, high


def parse_size(value: Any, what: str, sizes: Sequence[str], allow_none: bool) -> int:
    """A weapon size by name -> its rank (0 = smallest; -1 = "none")."""
    text = str(value).strip().lower()
    if allow_none and text == "none":
        return -1
    if text in sizes:
        return list(sizes).index(text)
    options = ", ".join([*(["none"] if allow_none else []), *sizes])
    raise ProfileSyntaxError(f"{what} {value!r} is not a weapon size ({options})")


def weapon_ref(value: Any) -> str:
    """The default weapon as printed (``"[Autogun]"``) -> the name or id inside."""
    return str(value).strip().strip("[]").strip()


# --------------------------------------------------------------------------- value objects


@dataclass(frozen=True)
class WeaponStats:
    """A weapon: its size rank, AP rating and the other figures the race book gives."""

    name: str
    size: int
    ap: int
    damage: int | None = None
    range: tuple[int, int] | None = None
    aim: int | None = None
    frag: bool = False
    armor_piercing: bool = False
    race: str | None = None

    @property
    def close_combat(self) -> bool:
        """A maximum range of 1 (IV-h)."""
        return self.range is not None and self.range[1] == 1


def _sizes_of(categories: Iterable[str], sizes: Sequence[str]) -> list[str]:
    return [c for c in categories if c in sizes]


def weapon_stats(
    name: str,
    categories: Sequence[str],
    chars: dict[str, Any],
    data: dict[str, Any],
    sizes: Sequence[str] = SIZES,
) -> WeaponStats:
    """Read a weapon (raises :class:`ProfileSyntaxError` naming the first problem)."""
    found = _sizes_of(categories, sizes)
    if len(found) != 1:
        raise ProfileSyntaxError(
            f"a weapon needs exactly one size category ({', '.join(sizes)}); "
            f"it has {', '.join(found) or 'none'}",
            "categories",
        )
    if "ap" not in chars:
        raise ProfileSyntaxError("a weapon needs a `weapon` profile with its AP rating (ap)")
    race = data.get("race")
    if race is not None and not isinstance(race, str):
        raise ProfileSyntaxError(f"data.race should be a race id, not {race!r}")
    return WeaponStats(
        name=name,
        size=list(sizes).index(found[0]),
        ap=parse_whole(chars["ap"], "AP"),
        damage=parse_optional(chars.get("damage"), "damage"),
        range=parse_range(chars.get("range")),
        aim=parse_optional(chars.get("aim"), "aim", signed=True),
        frag="frag" in categories,
        armor_piercing="armor-piercing" in categories,
        race=race,
    )


@dataclass(frozen=True)
class SoldierStats:
    move: int
    carries: int  # size rank; -1 = none
    aim: int | None = None
    morale: int | None = None
    leadership: int | None = None
    weapon: str | None = None  # default weapon, as printed (brackets stripped)


def soldier_stats(
    chars: dict[str, Any], leader: bool, sizes: Sequence[str] = SIZES
) -> SoldierStats:
    if "move" not in chars:
        raise ProfileSyntaxError("a soldier needs a `soldier` profile with its move")
    leadership = parse_optional(chars.get("leadership"), "leadership range")
    if leader and leadership is None:
        raise ProfileSyntaxError("a leader needs a leadership range (leadership)")
    if not leader and leadership is not None:
        raise ProfileSyntaxError("only leaders have a leadership range; add category leader")
    weapon = chars.get("weapon")
    return SoldierStats(
        move=parse_whole(chars["move"], "move"),
        carries=parse_size(chars.get("carries", "light"), "carries", sizes, allow_none=True),
        aim=parse_optional(chars.get("aim"), "aim", signed=True),
        morale=parse_optional(chars.get("morale"), "morale", signed=True),
        leadership=leadership,
        weapon=weapon_ref(weapon) if weapon not in (None, "") else None,
    )


@dataclass(frozen=True)
class VehicleStats:
    size: str  # small / large
    motion: str  # ground / skimmer
    kind: str | None  # supertank / walker / None
    move: int
    carries: int
    aim: int | None = None
    transport: int | None = None

    @property
    def description(self) -> str:
        return " ".join(x for x in (self.size, self.motion, self.kind or "vehicle") if x)


def vehicle_stats(
    categories: Sequence[str], chars: dict[str, Any], sizes: Sequence[str] = SIZES
) -> VehicleStats:
    size = [c for c in categories if c in VEHICLE_SIZES]
    motion = [c for c in categories if c in MOTION_TYPES]
    kind = [c for c in categories if c in VEHICLE_TYPES]
    if len(size) != 1:
        raise ProfileSyntaxError(
            f"a vehicle needs exactly one size category (small or large); it has "
            f"{', '.join(size) or 'none'}",
            "categories",
        )
    if len(motion) != 1:
        raise ProfileSyntaxError(
            f"a vehicle needs exactly one motion type (ground or skimmer); it has "
            f"{', '.join(motion) or 'none'}",
            "categories",
        )
    if len(kind) > 1:
        raise ProfileSyntaxError("a vehicle is a supertank or a walker, not both", "categories")
    if kind == ["supertank"] and (size[0], motion[0]) != ("large", "ground"):
        raise ProfileSyntaxError(
            "only large ground vehicles can be supertanks (IV-g)", "categories"
        )
    if kind == ["walker"] and motion[0] != "ground":
        raise ProfileSyntaxError("walkers are ground vehicles, not skimmers (IV-g)", "categories")
    if "move" not in chars:
        raise ProfileSyntaxError("a vehicle needs a `vehicle` profile with its move")
    return VehicleStats(
        size=size[0],
        motion=motion[0],
        kind=kind[0] if kind else None,
        move=parse_whole(chars["move"], "move"),
        carries=parse_size(chars.get("carries", sizes[-1]), "carries", sizes, allow_none=False),
        aim=parse_optional(chars.get("aim"), "aim", signed=True),
        transport=parse_optional(chars.get("transport"), "transport"),
    )


def immunity(vehicle: VehicleStats, table: dict[str, int] | None = None) -> int | None:
    """Weapons of this AP or less cannot harm the vehicle (IV-g); ``None``: no immunity."""
    table = table or IMMUNITY
    if vehicle.kind == "supertank":
        return table["supertank"]
    if vehicle.kind == "walker":
        return table[f"{vehicle.size}-walker"]
    return None


def damage_results(rows: list[dict[str, Any]], shift: int = 0) -> dict[int, str]:
    """Die roll -> vehicle damage result, the roll reduced by ``shift`` (never below 1): the
    house-rule reading of a supertank's resistance (IX-A)."""
    by_roll = {int(r["roll"]): str(r["result"]) for r in rows}
    return {roll: by_roll[max(roll - shift, 1)] for roll in sorted(by_roll)}


def damage_results_by_level(rows: list[dict[str, Any]], shift: int = 0) -> dict[int, str]:
    """Die roll -> vehicle damage result, the damage *level* lowered by ``shift`` (never below
    level 1), as IX-A words a supertank's resistance: a lowered result is every result of the
    new level ("Disarmed or Crippled" for level 2); a result already at the lowest level, or
    not lowered, stays as the table gives it (a Stunned that loses a weapon still does)."""
    by_roll = {int(r["roll"]): r for r in rows}
    names: dict[int, list[str]] = {}
    for r in sorted(by_roll.values(), key=lambda r: int(r["roll"])):
        found = names.setdefault(int(r["level"]), [])
        if str(r["result"]) not in found:
            found.append(str(r["result"]))
    low = min(names, default=1)
    out: dict[int, str] = {}
    for roll, r in sorted(by_roll.items()):
        level = int(r["level"])
        new = max(level - shift, low)
        out[roll] = str(r["result"]) if new == level else " or ".join(names.get(new, []))
    return out


def overrun_escape(escape: int, modifier: int) -> int | None:
    """The lowest die roll that escapes an overrun (IX-F: the roll plus the race's initiative
    modifier must reach ``escape``); 1 when every roll escapes, ``None`` when none does."""
    need = escape - modifier
    if need > 6:
        return None
    return max(need, 1)


def damage_rows(rows: list[dict[str, Any]], shift: int = 0) -> list[dict[str, Any]]:
    """The vehicle damage table as a sheet prints it: one row per die roll with the row of
    the table it reads after a supertank's shift (``roll``, ``result``, ``level``,
    ``repair``, ``loses_weapon``)."""
    by_roll = {int(r["roll"]): r for r in rows}
    out = []
    for roll in sorted(by_roll):
        row = by_roll[max(roll - shift, 1)]
        out.append(
            {
                "roll": roll,
                "result": str(row["result"]),
                "level": row.get("level"),
                "repair": row.get("repair"),
                "loses_weapon": bool(row.get("loses_weapon", False)),
            }
        )
    return out


def damage_rows_by_level(rows: list[dict[str, Any]], shift: int = 0) -> list[dict[str, Any]]:
    """The vehicle damage table as a sheet prints it when the damage *level* is lowered by
    ``shift`` (IX-A, the text's reading of a supertank): a lowered row takes the new level's
    result (``damage_results_by_level``), its level and its repair level, and loses no weapon
    (only the Stunned row of the table that says so does); a row not lowered stays as it is."""
    results = damage_results_by_level(rows, shift)
    by_level: dict[int, dict[str, Any]] = {}
    for r in sorted(rows, key=lambda r: int(r["roll"])):
        by_level.setdefault(int(r["level"]), r)
    out = []
    for row in damage_rows(rows):
        level = max(int(row["level"]) - shift, min(by_level, default=1))
        if level != int(row["level"]):
            row = {
                **row,
                "result": results[row["roll"]],
                "level": level,
                "repair": by_level[level].get("repair") if level in by_level else None,
                "loses_weapon": False,
            }
        out.append(row)
    return out


def pass_range(morale: int) -> str:
    """Which die rolls pass a morale check (fail: the roll is greater than the morale)."""
    if morale <= 0:
        return "fails on any roll"
    if morale >= 6:
        return "passes on any roll"
    return f"passes on 1–{morale}" if morale > 1 else "passes on 1"


def _signed(n: int) -> str:
    return f"{n:+d}"


def _rolls(rolls: list[int]) -> str:
    if not rolls:
        return "never"
    if len(rolls) == 1:
        return str(rolls[0])
    if rolls == list(range(rolls[0], rolls[-1] + 1)):
        return f"{rolls[0]}–{rolls[-1]}"
    return ", ".join(str(r) for r in rolls)


# --------------------------------------------------------------------------- catalog checks


def _chars_of(entry: Entry, ptype: str) -> dict[str, Any] | None:
    for p in entry.profiles:
        if p.type == ptype:
            return dict(p.characteristics)
    return None


def _profile_loc(entry: Entry, ptype: str) -> list[str | int]:
    for j, p in enumerate(entry.profiles):
        if p.type == ptype:
            return ["profiles", j]
    return ["profiles"]


class _Weapons:
    """Weapon entries by id and by (lowercased) name, for resolving default weapons."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.by_key: dict[str, Entry] = {}
        for e in entries:
            if "weapon" in e.categories:
                self.by_key.setdefault(e.id, e)
                self.by_key.setdefault(e.name.strip().lower(), e)

    def find(self, ref: str) -> Entry | None:
        return self.by_key.get(ref) or self.by_key.get(ref.lower())


def entry_problems(
    entry: Entry,
    weapons: _Weapons | None,
    sizes: Sequence[str] = SIZES,
    children: Sequence[Entry] = (),
    races: Iterable[str] | None = None,
) -> Iterator[tuple[list[str | int], str]]:
    """What is wrong with one entry's StarMarines data: (location inside it, message).

    ``children`` are the entry's child options (links resolved where possible), used to
    check a vehicle's left / right mounts and where attributes and mounts are offered;
    ``races`` the race ids a weapon's ``data.race`` may name (unchecked when ``None``).
    """
    cats = entry.categories
    kinds = [k for k in KINDS if k in cats]
    if len(kinds) > 1:
        yield ["categories"], f"an entry is one of {', '.join(KINDS)}; this one is {kinds}"
        return
    kind = kinds[0] if kinds else None
    grouping = [c for c in ("team", "formation") if c in cats]
    if grouping and kind is not None:
        yield (
            ["categories"],
            (f"a {grouping[0]} holds units; it cannot also be a {kind} (put the {kind} inside it)"),
        )
        return
    misplaced = {
        "special soldier type": ([c for c in SPECIAL_TYPES if c in cats], "soldier"),
        "vehicle category": (
            [c for c in (*VEHICLE_SIZES, *MOTION_TYPES, *VEHICLE_TYPES) if c in cats],
            "vehicle",
        ),
        "mount side": ([c for c in SIDES if c in cats], "mount"),
        "weapon trait": ([c for c in WEAPON_TRAITS if c in cats], "weapon"),
    }
    for what, (found, owner) in misplaced.items():
        if found and kind != owner:
            yield (
                ["categories"],
                (f"{what} {', '.join(found)} belongs on a {owner} (add category {owner})"),
            )
    size_cats = _sizes_of(cats, sizes)
    if size_cats and kind not in ("weapon", "mount"):
        yield (
            ["categories"],
            (f"weapon size {', '.join(size_cats)} belongs on a weapon or a weapon mount"),
        )
    if (kind in ("soldier", "vehicle") or grouping) and not entry.experience:
        what = kind or grouping[0]
        yield [], f"a {what} records experience: add `experience: true`"
    if kind != "vehicle":
        misplaced_mounts = [c.name for c in children if "mount" in c.categories]
        if misplaced_mounts:
            yield (
                ["entries"],
                (f"offers the weapon mount {misplaced_mounts[0]}; mounts belong on vehicles"),
            )
    if kind != "soldier":
        offered = [c.name for c in children if "attribute" in c.categories]
        if offered:
            yield (
                ["entries"],
                (
                    f"offers the soldier attribute {offered[0]}, but only soldiers have attributes "
                    "(IV-e)"
                ),
            )
    if kind == "soldier":
        chars = _chars_of(entry, "soldier")
        if chars is None:
            yield ["profiles"], "a soldier needs a `soldier` profile (move at least)"
            return
        try:
            stats = soldier_stats(chars, "leader" in cats, sizes)
        except ProfileSyntaxError as exc:
            yield _profile_loc(entry, "soldier"), str(exc)
            return
        if stats.weapon is not None and weapons is not None:
            target = weapons.find(stats.weapon)
            if target is None:
                yield (
                    [*_profile_loc(entry, "soldier"), "characteristics", "weapon"],
                    (f"default weapon {stats.weapon!r} is no weapon of this catalog"),
                )
            else:
                try:
                    w = weapon_stats(
                        target.name,
                        target.categories,
                        _chars_of(target, "weapon") or {},
                        target.data,
                        sizes,
                    )
                except ProfileSyntaxError:
                    pass  # reported on the weapon itself
                else:
                    if w.size > stats.carries:
                        yield (
                            [*_profile_loc(entry, "soldier"), "characteristics", "weapon"],
                            (
                                f"default weapon {target.name} is a {sizes[w.size]} weapon; this "
                                f"soldier carries {_carry_text(stats.carries, sizes)}"
                            ),
                        )
    elif kind == "vehicle":
        try:
            vehicle_stats(cats, _chars_of(entry, "vehicle") or {}, sizes)
        except ProfileSyntaxError as exc:
            yield [exc.where], str(exc)
        mounts = [c for c in children if "mount" in c.categories]
        for problem in _pair_problems(mounts):
            yield ["entries"], problem
    elif kind == "weapon":
        try:
            w = weapon_stats(entry.name, cats, _chars_of(entry, "weapon") or {}, entry.data, sizes)
        except ProfileSyntaxError as exc:
            yield [exc.where], str(exc)
        else:
            known = sorted(races) if races is not None else None
            if w.race is not None and known is not None and w.race not in known:
                yield (
                    ["data", "race"],
                    (f"data.race {w.race!r} is no race of this game (races: {', '.join(known)})"),
                )
    elif kind == "mount":
        if len(size_cats) != 1:
            yield (
                ["categories"],
                (
                    f"a weapon mount needs exactly one size category ({', '.join(sizes)}): the "
                    "largest weapon it takes"
                ),
            )
        if all(s in cats for s in SIDES):
            yield ["categories"], "a mount is on the left or on the right, not both"
    elif kind == "attribute":
        cost = entry.costs.get(COST)
        if cost != ATTRIBUTE_COST:
            yield (
                ["costs"],
                (
                    f"every soldier attribute costs 1/2 build point (IV-e); this one costs "
                    f"{fmt_num(cost) if cost is not None else 'nothing'}"
                ),
            )
    if "formation" in cats and "level" in entry.data:
        try:
            level = parse_whole(entry.data["level"], "formation level")
            if level < 1:
                raise ProfileSyntaxError("formation level should be 1 or more")
        except ProfileSyntaxError as exc:
            yield ["data", "level"], str(exc)


def _pairs(mounts: Sequence[Entry]) -> tuple[list[tuple[Entry, Entry]], list[Entry]]:
    """Left / right mounts paired by ``data.pair``, else in the order listed."""
    groups: dict[str, dict[str, list[Entry]]] = {}
    for m in mounts:
        side = next((s for s in SIDES if s in m.categories), None)
        if side is None:
            continue
        key = str(m.data.get("pair", ""))
        groups.setdefault(key, {"left": [], "right": []})[side].append(m)
    pairs: list[tuple[Entry, Entry]] = []
    odd: list[Entry] = []
    for sides in groups.values():
        lefts, rights = sides["left"], sides["right"]
        pairs.extend(zip(lefts, rights, strict=False))
        n = min(len(lefts), len(rights))
        odd.extend(lefts[n:] + rights[n:])
    return pairs, odd


def _pair_problems(mounts: Sequence[Entry]) -> Iterator[str]:
    _, odd = _pairs(mounts)
    for m in odd:
        side = "left" if "left" in m.categories else "right"
        other = "right" if side == "left" else "left"
        yield (
            f"{side} mount {m.name} has no {other} partner (pairs are matched by data.pair, "
            "else in the order listed)"
        )


def _carry_text(rank: int, sizes: Sequence[str]) -> str:
    if rank < 0:
        return "no weapons"
    if rank == 0:
        return f"{sizes[0]} weapons only"
    return f"weapons up to {sizes[rank]}"


def _entries_with_loc(model: Any) -> Iterator[tuple[list[str | int], Entry]]:
    from ...catalog import iter_entries
    from ...model.catalog import Entry as EntryModel

    for loc, item in iter_entries(model):
        if isinstance(item, EntryModel):
            yield loc, item


def _links_with_loc(model: Any) -> Iterator[tuple[list[str | int], EntryLink]]:
    from ...catalog import iter_entries
    from ...model.catalog import EntryLink as LinkModel

    for loc, item in iter_entries(model):
        if isinstance(item, LinkModel):
            yield loc, item


def _child_options(entry: Entry, shared: dict[str, Entry]) -> list[Entry]:
    """An entry's child options, links resolved (with their overrides) where possible."""
    from ...catalog import merge_link, walk_groups
    from ...model.catalog import Entry as EntryModel

    items = [*entry.entries, *(c for g in walk_groups(entry.groups) for c in g.entries)]
    out: list[Entry] = []
    for item in items:
        if isinstance(item, EntryModel):
            out.append(item)
        elif item.link in shared:
            out.append(merge_link(shared[item.link], item))
    return out


def _system_data_problems(system: SystemFile) -> Iterator[CatalogFinding]:
    for i, level in enumerate(system.experience):
        for key in ("cost", "morale", "attack", "leadership"):
            value = level.data.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                yield (
                    "system",
                    ["experience", i, "data"],
                    f"experience {level.name}: data.{key} should be a whole number",
                )
    sizes = system.data.get("weapon_sizes", list(SIZES))
    if not (isinstance(sizes, list) and sizes and all(isinstance(s, str) for s in sizes)):
        yield "system", ["data", "weapon_sizes"], "weapon_sizes should be a list of size names"
    imm = system.data.get("immunity", IMMUNITY)
    if not isinstance(imm, dict) or set(imm) != set(IMMUNITY):
        yield (
            "system",
            ["data", "immunity"],
            f"immunity should give an AP for each of {', '.join(IMMUNITY)}",
        )


def _faction_data_problems(data: dict[str, Any]) -> Iterator[CatalogFinding]:
    wounding = data.get("wounding")
    if wounding is not None and not (
        isinstance(wounding, list)
        and len(wounding) == 6
        and all(w in ("Wounded", "Dead") for w in wounding)
    ):
        yield (
            "faction",
            ["data", "wounding"],
            "wounding should list the result (Wounded or Dead) for die rolls 1 to 6",
        )
    for key in ("no_vehicles", "never_fails_morale"):
        if key in data and not isinstance(data[key], bool):
            yield "faction", ["data", key], f"{key} should be true or false"
    initiative = data.get("initiative")
    if initiative is not None and (isinstance(initiative, bool) or not isinstance(initiative, int)):
        yield (
            "faction",
            ["data", "initiative"],
            "initiative should be the race's initiative modifier, a whole number such as 1 or -1",
        )
    races = data.get("weapon_races")
    if (
        races is not None
        and races != "any"
        and not (isinstance(races, list) and all(isinstance(r, str) for r in races))
    ):
        yield (
            "faction",
            ["data", "weapon_races"],
            "weapon_races should be a list of race ids or 'any'",
        )


# --------------------------------------------------------------------------- analysis helpers


def _is(node: Node, category: str) -> bool:
    return node.has_category(category)


def _is_unit(node: Node) -> bool:
    return node.entry is not None and (_is(node, "soldier") or _is(node, "vehicle"))


def _chars(ev: Evaluation, node: Node, ptype: str) -> dict[str, Any]:
    """The node's profile of a type, with characteristic modifiers applied."""
    if node.entry is None:
        return {}
    for p in node.entry.profiles:
        if p.type == ptype:
            return {c: ev.characteristic(node, c, ptype) for c in p.characteristics}
    return {}


def _within(node: Node, stop: tuple[str, ...]) -> Iterator[Node]:
    """Descendants of a node, not entering nodes of the ``stop`` categories."""
    for c in node.children:
        yield c
        if not any(_is(c, s) for s in stop):
            yield from _within(c, stop)


def _mult(node: Node, upto: Node) -> int:
    """Copies of ``node`` per one copy of ``upto`` (an ancestor)."""
    return 1 if node is upto else node.multiplicity(upto)


def _names(ev: Evaluation, nodes: Iterable[tuple[Node, int]]) -> str:
    parts = []
    for n, k in nodes:
        parts.append(f"{k} × {ev.name(n)}" if k != 1 else ev.name(n))
    return ", ".join(parts)


@dataclass
class _Ctx:
    """Per-evaluation facts the checks share."""

    sizes: tuple[str, ...]
    immunity: dict[str, int]
    race_id: str
    race_name: str
    race_data: dict[str, Any]
    heroes: int
    leaders: list[tuple[Node, int | None]]
    weapons: _Weapons
    supertank_by_roll: bool = False  # the house rule (IX-A) instead of the text's level


# --------------------------------------------------------------------------- the module


#: Campaign state (a selection's ``state:``): all of it is the battle in progress.
STATE_KEYS: tuple[StateKey, ...] = (
    StateKey(
        "wounds",
        "int",
        "Wound results on the soldiers of this selection, first soldier first: one leaves a "
        "soldier wounded, a second kills him.",
        history=False,
        source=f"{SRC} IX-B",
        example="1",
    ),
    StateKey(
        "lost",
        "int",
        "Soldiers of this selection dead, or 1 for a destroyed vehicle.",
        history=False,
        source=f"{SRC} IX-B",
        example="1",
    ),
    StateKey(
        "damage",
        "list-str",
        "The damage results a vehicle has suffered, by name (e.g. Stunned, Disarmed).",
        history=False,
        source=f"{SRC} IX-B; X (Vehicle Damage Table)",
        example="[Stunned]",
    ),
)


class StarMarines(SystemRules):
    """The StarMarines rules module."""

    system_id = "starmarines"
    #: The engine's checks and cost totals of an untouched selection are replayed: the
    #: experience charge (:meth:`extra_cost`) reads only the selection and the teams and
    #: experience above it, which an edit cannot change without reading that selection
    #: again. The analysis itself wraps nothing in :meth:`Evaluation.subtree` and runs whole
    #: at every evaluation: a soldier's morale reads the army's heroes and every other
    #: leader's range, the supertank roll and the unit-data problems read the whole roster.
    subtree_local = True

    # ----------------------------------------------------------------- catalog checks

    def state_keys(self) -> tuple[StateKey, ...]:
        return STATE_KEYS

    def check_catalog(
        self, system: SystemFile, faction: FactionFile | None, index: CatalogIndex | None
    ) -> Iterable[CatalogFinding]:
        sizes = _system_sizes(system)
        model: Any
        if faction is None:
            yield from _system_data_problems(system)
            which, model = "system", system
            known = list(_defined(system))
            shared = {e.id: e for e in system.shared_entries}
        else:
            which, model = "faction", faction
            data = getattr(faction, "data", None)
            if isinstance(data, dict) and hasattr(faction, "id"):
                yield from _faction_data_problems(data)
            known = list(_defined(faction))
            shared = {e.id: e for e in system.shared_entries}
            if index is not None:
                known += list(index.entries.values()) + list(index.shared.values())
                shared.update(index.shared)
            shared.update({e.id: e for e in faction.shared_entries})
        weapons = _Weapons(known)
        races = set(index.system.factions) if index is not None else None
        for loc, entry in _entries_with_loc(model):
            children = _child_options(entry, shared)
            for sub, msg in entry_problems(entry, weapons, sizes, children, races):
                yield which, [*loc, *sub], f"{entry.name}: {msg}"
        for loc, link in _links_with_loc(model):
            target = shared.get(link.link)
            if (
                target is not None
                and "attribute" in (link.categories or target.categories)
                and link.costs is not None
                and COST in link.costs
                and link.costs[COST] != ATTRIBUTE_COST
            ):
                yield (
                    which,
                    [*loc, "costs", COST],
                    (
                        f"{link.name or target.name}: every soldier attribute costs 1/2 build "
                        "point (IV-e)"
                    ),
                )

    # ----------------------------------------------------------------- analysis

    def extra_cost(self, ev: Evaluation, node: Node, cost_type: str) -> float:
        """Experience is bought once per team, or per soldier or vehicle not in a team
        (Soldier Experience Table); Green costs nothing."""
        if cost_type != COST or node.entry is None:
            return 0.0
        team = _outer_team(node)
        if team is not None and team is not node:
            return 0.0
        if not (_is(node, "team") or _is_unit(node)):
            return 0.0
        return _level_cost(ev.experience(node))

    def against(self, ev: Evaluation, other: Evaluation) -> list[Matchup]:
        """Each top-level selection's weapons against each of ``other``'s: what a wound does
        to its soldiers (their race's wounding column) and a hit to its vehicles (immunity
        by AP, the damage table), from the values ``other``'s evaluation computed."""
        sizes = _system_sizes(ev.index.system.model)
        wounding = other.value(other.root, "wounding")
        column = tuple(str(w) for w in wounding) if isinstance(wounding, list) else None
        race = other.index.faction.name
        rows: list[Matchup] = []
        for unit in ev.units():
            weapons: dict[str, tuple[WeaponStats, int]] = {}
            for w in unit.walk():
                if w.entry is not None and _is(w, "weapon"):
                    stats = _weapon(ev, w, sizes)
                    if stats is not None:
                        old = weapons.get(stats.name)
                        weapons[stats.name] = (stats, (old[1] if old else 0) + w.multiplicity(unit))
            for target in other.units():
                name = other.name(target)
                soldiers = sum(n.multiplicity(target) for n in target.walk() if _is(n, "soldier"))
                vehicles = [n for n in target.walk() if _is(n, "vehicle")]
                for wname, (stats, count) in weapons.items():
                    value: dict[str, Any] = {"weapon": wname, "ap": stats.ap, "count": count}
                    parts: list[str] = []
                    if soldiers and column is not None:
                        wv, wt = wounding_value(column)
                        value["soldiers"] = {"race": race, "count": soldiers, **wv}
                        parts.append(f"its {soldiers} {race} soldiers: {wt}")
                    for v in vehicles:
                        vname = other.name(v)
                        imm = other.value(v, "immunity")
                        max_ap = imm.get("max_ap") if isinstance(imm, dict) else None
                        if isinstance(max_ap, int) and stats.ap <= max_ap:
                            value.setdefault("vehicles", {})[vname] = {"immune": True}
                            parts.append(f"{vname}: immune (AP {max_ap} or less)")
                            continue
                        dmg = other.value(v, "damage")
                        results = dmg.get("results") if isinstance(dmg, dict) else None
                        if not isinstance(results, dict):
                            continue
                        dv, dt = damage_value(tuple(sorted(results.items())))
                        value.setdefault("vehicles", {})[vname] = {"immune": False, **dv}
                        parts.append(f"{vname}: {dt}")
                    if not parts:
                        continue
                    rows.append(
                        Matchup(
                            unit,
                            name,
                            f"weapon.{wname}",
                            f"{wname} (AP {stats.ap}{', ×' + str(count) if count > 1 else ''})",
                            value,
                            "; ".join(parts),
                            f"{SRC} IV-g, IX-B; X (Soldier Wounding, Vehicle Damage Tables)",
                        )
                    )
        return rows

    def analyse(self, ev: Evaluation) -> None:
        system = ev.index.system.model
        sizes = _system_sizes(system)
        faction = ev.index.faction
        nodes = [n for n in ev.nodes() if n.entry is not None]
        soldiers = [n for n in nodes if _is(n, "soldier")]
        vehicles = [n for n in nodes if _is(n, "vehicle")]
        ctx = _Ctx(
            sizes=sizes,
            immunity={**IMMUNITY, **_dict(system.data.get("immunity"))},
            race_id=faction.id,
            race_name=faction.name,
            race_data=dict(faction.model.data),
            heroes=sum(n.multiplicity() for n in soldiers if _is(n, "hero")),
            leaders=[],
            weapons=_Weapons([*ev.index.entries.values(), *ev.index.shared.values()]),
            supertank_by_roll=any(
                c.entry is not None and "supertank-roll" in c.entry.rules for c in ev.units()
            ),
        )
        self._unit_data(ev, nodes, sizes)
        exp_cost = self._experience(ev, nodes)
        self._game_size(ev)
        for n in soldiers:
            self._attributes(ev, n)
        for n in nodes:
            if _is(n, "attribute") and not (n.parent is not None and _is(n.parent, "soldier")):
                ev.error(
                    "smr-attribute-not-soldier",
                    f"{ev.where(n)}: attributes are bought for individual soldiers only",
                    n,
                    f"{SRC} IV-e",
                )
        self._weapons(ev, ctx, nodes, soldiers, vehicles)
        self._no_vehicles(ev, ctx, vehicles)
        for n in soldiers:
            if _is(n, "leader"):
                ctx.leaders.append((n, self._leadership(ev, n)))
        for n in soldiers:
            self._soldier(ev, ctx, n)
        enemy = _EnemyWeapons(ev.index.system, faction.id)
        for n in vehicles:
            self._vehicle(ev, ctx, n, enemy)
        levels = self._formations(ev, nodes)
        for n in nodes:
            if _is_unit(n) or _is(n, "team") or _is(n, "formation"):
                self._breakdown(ev, n, exp_cost)
        self._roster(ev, ctx, soldiers, vehicles, levels)

    # ----------------------------------------------------------------- unit data

    def _unit_data(self, ev: Evaluation, nodes: list[Node], sizes: tuple[str, ...]) -> None:
        """Entries from a user catalog extension are only linted by `check-catalog`; report
        their problems here too, once per entry, so a roster never silently uses bad data."""
        seen: set[str] = set()
        weapons = _Weapons([*ev.index.entries.values(), *ev.index.shared.values()])
        for n in nodes:
            assert n.entry is not None
            if n.entry.id in seen:
                continue
            seen.add(n.entry.id)
            children = [c.entry for c in ev.index.children(n.entry)]
            races = set(ev.index.system.factions)
            for _, msg in entry_problems(n.entry, weapons, sizes, children, races):
                ev.error(
                    "smr-invalid-unit-data",
                    f"{n.entry.name} ({n.entry.id}): {msg}",
                    n,
                    n.entry.source or SRC,
                )

    # ----------------------------------------------------------------- experience

    def _experience(self, ev: Evaluation, nodes: list[Node]) -> dict[int, float]:
        """Charge experience per team or individual (X, Soldier Experience Table) and check
        that a team's members share its level (IV-d). Returns the charge per purchase node."""
        charges: dict[int, float] = {}
        purchases: list[Node] = []
        for n in nodes:
            team = _outer_team(n)
            if team is not None and team is not n:
                own = n.data.experience if n.data is not None else None
                if own and _records_experience(n):
                    level = ev.experience(team)
                    if level is not None and own != level.id and own in ev.index.experience:
                        ev.error(
                            "smr-experience-split",
                            f"{ev.where(n)} is {ev.index.experience[own].name} but its team "
                            f"{ev.label(team)} is {level.name}; experience bought for a team "
                            "applies to every unit in it",
                            (*n.loc, "experience"),
                            f"{SRC} IV-d",
                        )
                continue
            if _is(n, "team") or _is_unit(n):
                purchases.append(n)
        for p in purchases:
            level = ev.experience(p)
            cost = _level_cost(level)
            if cost:
                charges[id(p)] = cost  # already in the costs, through extra_cost()
        return charges

    def _game_size(self, ev: Evaluation) -> None:
        """Game size in build points, a multiple of 25 (IV-a, VI), and the spend against it."""
        step = int(ev.index.system.model.data.get("game_size_step", GAME_SIZE_STEP))
        limits = ev.roster.header.limits
        spent = ev.totals.get(COST, 0.0)
        needed = max(step, -(-spent // step) * step) if spent else step
        source = f"{SRC} IV-a, VI"
        # Report the limit here, with this system's wording and source.
        ev.issues[:] = [
            i
            for i in ev.issues
            if not (i.code == "cost-limit-exceeded" and tuple(i.path) == ("limits", COST))
        ]
        if COST not in limits:
            ev.warning(
                "smr-no-game-size",
                f"no game size: add `limits: {{bp: {fmt_num(needed)}}}` (build points come in "
                f"groups of {step}; this army needs at least {_number(needed)})",
                (),
                source,
            )
            return
        size = limits[COST]
        if size <= 0 or size % step:
            lower = size - size % step
            # (values a player types back into the file: no thousands separators)
            options = [fmt_num(x) for x in (lower, lower + step) if x >= step] or [fmt_num(step)]
            what = (
                f"game size {_number(size)} BP is not a multiple of {step}"
                if size > 0
                else f"game size {_number(size)} BP leaves nothing to buy"
            )
            ev.error(
                "smr-game-size-not-multiple-of-25",
                f"{what} (build points are given in groups of {step}: e.g. {' or '.join(options)})",
                ("limits", COST),
                source,
            )
        if spent > size:
            ev.issues.append(
                Issue(
                    "error",
                    "cost-limit-exceeded",
                    f"Build points {_number(spent)} BP is over the limit of {_number(size)} BP "
                    f"by {_number(spent - size)} BP",
                    ("limits", COST),
                    source,
                )
            )

    # ----------------------------------------------------------------- attributes

    def _attributes(self, ev: Evaluation, soldier: Node) -> None:
        """One attribute per soldier (IV-e)."""
        found = [
            (n, _mult(n, soldier)) for n in _within(soldier, UNIT_KINDS) if _is(n, "attribute")
        ]
        total = sum(k for _, k in found)
        if total > 1:
            ev.error(
                "smr-two-attributes",
                f"{ev.where(soldier)}{' (each)' if soldier.count > 1 else ''} has {total} "
                "attributes "
                f"({_names(ev, found)}); a soldier can have only one",
                soldier,
                f"{SRC} IV-e",
            )

    # ----------------------------------------------------------------- weapons

    def _weapons(
        self,
        ev: Evaluation,
        ctx: _Ctx,
        nodes: list[Node],
        soldiers: list[Node],
        vehicles: list[Node],
    ) -> None:
        """Weapon sizes against their carriers and mounts (IV-h), pairs (IV-g), and no
        weapons of another army (VIII-I)."""
        allowed = ctx.race_data.get("weapon_races")
        for w in nodes:
            race = w.entry.data.get("race") if w.entry is not None else None
            if (
                _is(w, "weapon")
                and isinstance(race, str)
                and race != ctx.race_id
                and allowed != "any"
                and not (isinstance(allowed, list) and race in allowed)
            ):
                ev.error(
                    "smr-foreign-weapon",
                    f"{ev.where(w)}: {ev.name(w)} is a weapon of the {_race_name(ev, race)} "
                    f"army; {ctx.race_name} cannot use weapons from other armies",
                    w,
                    f"{SRC} VIII-I",
                )
        for carrier in [*soldiers, *vehicles]:
            is_vehicle = _is(carrier, "vehicle")
            cap = self._capacity(ev, carrier, ctx.sizes)
            for w in _within(carrier, (*UNIT_KINDS, "weapon")):
                if not _is(w, "weapon") or w.entry is None:
                    continue
                stats = _weapon(ev, w, ctx.sizes)
                if stats is None:
                    continue
                mount = w.parent if w.parent is not None and _is(w.parent, "mount") else None
                limit = _mount_size(mount, ctx.sizes) if mount is not None else cap
                holder = f"{ev.label(carrier)}'s {ev.name(mount)}" if mount else ev.label(carrier)
                if mount is not None and stats.close_combat:
                    ev.error(
                        "smr-close-combat-weapon-mounted",
                        f"{ev.where(w)}: {stats.name} is a close-combat weapon (range 1); it "
                        f"cannot be mounted in {holder}, as a battle-axe cannot go in a turret",
                        w,
                        f"{SRC} IV-h",
                    )
                if limit is not None and stats.size > limit:
                    ev.error(
                        "smr-weapon-too-heavy",
                        f"{ev.where(w)}: {stats.name} is a {ctx.sizes[stats.size]} weapon; "
                        f"{holder} takes {_carry_text(limit, ctx.sizes)} (a carrier of medium "
                        "or heavy weapons may take smaller ones, not larger)",
                        w,
                        f"{SRC} IV-h",
                    )
            if is_vehicle:
                self._mounts(ev, carrier)

    def _capacity(self, ev: Evaluation, carrier: Node, sizes: tuple[str, ...]) -> int | None:
        try:
            if _is(carrier, "vehicle"):
                assert carrier.entry is not None
                return vehicle_stats(
                    carrier.entry.categories, _chars(ev, carrier, "vehicle"), sizes
                ).carries
            return soldier_stats(
                _chars(ev, carrier, "soldier"), _is(carrier, "leader"), sizes
            ).carries
        except ProfileSyntaxError:
            return None

    def _mounts(self, ev: Evaluation, vehicle: Node) -> None:
        """One weapon per mount; left / right pairs hold the same weapon (IV-g)."""
        assert vehicle.entry is not None
        mount_nodes = [c for c in vehicle.children if _is(c, "mount")]
        for m in mount_nodes:
            held = sum(_mult(w, m) for w in _within(m, ("weapon",)) if _is(w, "weapon"))
            if held > 1:
                ev.error(
                    "smr-mount-overloaded",
                    f"{ev.where(m)} holds {held} weapons; a mount takes one",
                    m,
                    f"{SRC} IV-g",
                )
        options = [
            c.entry for c in ev.index.children(vehicle.entry) if "mount" in c.entry.categories
        ]
        pairs, _ = _pairs(options)
        for left, right in pairs:
            lw = _held(ev, vehicle, left.id)
            rw = _held(ev, vehicle, right.id)
            if sorted(i for i, _ in lw) != sorted(i for i, _ in rw):
                node = next(
                    (c for c in vehicle.children if c.entry_id in (left.id, right.id)), vehicle
                )
                ev.error(
                    "smr-weapon-pair-mismatch",
                    f"{ev.where(vehicle)}: the {left.name} holds {_held_text(lw)} but the "
                    f"{right.name} holds {_held_text(rw)}; weapons set up as a left / right "
                    "pair must be the same kind",
                    node,
                    f"{SRC} IV-g",
                )

    def _no_vehicles(self, ev: Evaluation, ctx: _Ctx, vehicles: list[Node]) -> None:
        if not ctx.race_data.get("no_vehicles"):
            return
        for v in vehicles:
            ev.error(
                "smr-vehicles-not-allowed",
                f"{ev.where(v)} is a vehicle; the {ctx.race_name} field no vehicles",
                v,
                f"{SRC} III (race summary)",
            )

    # ----------------------------------------------------------------- soldiers

    def _leadership(self, ev: Evaluation, leader: Node) -> int | None:
        chars = _chars(ev, leader, "soldier")
        try:
            base = parse_optional(chars.get("leadership"), "leadership range")
        except ProfileSyntaxError:
            return None
        if base is None:
            return None
        level = ev.experience(leader)
        bonus = _level_int(level, "leadership")
        rng = base + bonus
        detail = f"base {base}" + (f", {level.name} {_signed(bonus)}" if level and bonus else "")
        ev.set_value(
            leader,
            "leadership",
            "Leadership range",
            rng,
            text=f"{rng} hexes ({detail}); friendly units inside it take no separation checks",
            source=f"{SRC} IX-D; X (Soldier Experience Table)",
        )
        return rng

    def _soldier(self, ev: Evaluation, ctx: _Ctx, n: Node) -> None:
        assert n.entry is not None
        chars = _chars(ev, n, "soldier")
        try:
            stats: SoldierStats | None = soldier_stats(chars, _is(n, "leader"), ctx.sizes)
        except ProfileSyntaxError:
            stats = None
        level = ev.experience(n)
        self._experience_value(ev, n, level)
        # ---- weapons carried
        carried = [w for w in _within(n, (*UNIT_KINDS, "weapon")) if _is(w, "weapon")]
        aims: list[tuple[str, WeaponStats | None]] = []
        if carried:
            parts = []
            for w in carried:
                ws = _weapon(ev, w, ctx.sizes)
                parts.append(_weapon_text(ev.label(w), ws, ctx.sizes))
                aims.append((ev.name(w), ws))
            text = "; ".join(parts)
            if len(carried) > 1 or any(w.count > 1 for w in carried):
                text += " (fires one weapon a turn)"
        elif stats is not None and stats.weapon:
            target = ctx.weapons.find(stats.weapon)
            ws = _weapon_of_entry(target, ctx.sizes) if target is not None else None
            name = target.name if target is not None else stats.weapon
            text = f"{_weapon_text(name, ws, ctx.sizes)} (default weapon: no marker needed)"
            aims.append((name, ws))
        else:
            text = "none (disarmed)"
        ev.set_value(n, "weapons", "Weapons", text, source=f"{SRC} IV-h")
        # ---- attack rolls
        self._attack(ev, n, stats.aim if stats else None, level)
        self._weapon_aims(ev, n, stats.aim if stats else None, level, aims)
        # ---- morale
        self._morale(ev, ctx, n, stats.morale if stats else None, level)
        # ---- special types
        for cat, text in (
            ("doctor", "can bring wounded soldiers back into the battle"),
            ("fixer", "repairs stunned (level 1), disarmed and crippled (level 2) vehicles"),
            ("airborne", "can be shot while flying only by Overwatch fire, at -1"),
        ):
            if _is(n, cat):
                sec = {"doctor": "IX-B", "fixer": "IX-B", "airborne": "IX-G"}[cat]
                ev.set_value(n, cat, cat.capitalize(), text, source=f"{SRC} IV-f, {sec}")

    def _experience_value(self, ev: Evaluation, n: Node, level: ExperienceLevel | None) -> None:
        if level is None:
            return
        team = _outer_team(n)
        cost = _level_cost(level)
        if team is not None and team is not n:
            how = f"bought for {ev.label(team)}"
        elif cost:
            how = f"{_number(cost)} BP" + (" a team" if _is(n, "team") else "")
        else:
            how = "no cost"
        effect = str(level.data.get("soldier_effect", ""))
        if _is(n, "vehicle"):
            # Vehicles never check morale (IX-D): only an attack bonus matters to them.
            bonus = _level_int(level, "attack")
            effect = f"{_signed(bonus)} attack rolls" if bonus else ""
        if effect in ("", "none"):
            effect = "no effect"
        ev.set_value(
            n,
            "experience",
            "Experience",
            level.name,
            text=f"{level.name} ({how}; {effect})",
            source=f"{SRC} IV-d; X (Soldier Experience Table)",
        )

    def _attack(
        self, ev: Evaluation, n: Node, aim: int | None, level: ExperienceLevel | None
    ) -> None:
        bonus = _level_int(level, "attack")
        total = (aim or 0) + bonus
        parts = []
        if aim is not None:
            parts.append(f"aim {_signed(aim)}")
        if bonus and level is not None:
            parts.append(f"{level.name} {_signed(bonus)}")
        ev.set_value(
            n,
            "attack",
            "Attack roll modifier",
            total,
            text=_signed(total) + (f" ({', '.join(parts)})" if parts else ""),
            source=f"{SRC} X (Soldier Experience Table)",
        )

    def _weapon_aims(
        self,
        ev: Evaluation,
        n: Node,
        aim: int | None,
        level: ExperienceLevel | None,
        weapons: list[tuple[str, WeaponStats | None]],
    ) -> None:
        """The attack roll modifier with each weapon: the unit's own aim (its race's figure),
        its experience and the weapon's aim (IX-A; X, Soldier Experience Table)."""
        if not weapons:
            return
        base = (aim or 0) + _level_int(level, "attack")
        pairs: list[tuple[str, int]] = []
        for name, ws in weapons:
            total = base + ((ws.aim or 0) if ws is not None else 0)
            if (name, total) not in pairs:
                pairs.append((name, total))
        rows = [{"weapon": name, "aim": total} for name, total in pairs]
        ev.set_value(
            n,
            "weapon_aims",
            "Attack modifier by weapon",
            rows,
            text="; ".join(f"{name} {_signed(total)}" for name, total in pairs),
            source=f"{SRC} IX-A; X (Soldier Experience Table)",
        )

    def _morale(
        self,
        ev: Evaluation,
        ctx: _Ctx,
        n: Node,
        base: int | None,
        level: ExperienceLevel | None,
    ) -> None:
        source = f"{SRC} IX-D; X (Soldier Experience Table)"
        adj = {**MORALE_ADJACENT, **_dict(ev.index.system.model.data.get("morale_adjacent"))}
        if _is(n, "hero"):
            ev.set_value(
                n,
                "morale",
                "Morale",
                {"checks": False},
                text="never checks (Hero)",
                source=f"{SRC} IX-D",
            )
            return
        if ctx.race_data.get("never_fails_morale"):
            ev.set_value(
                n,
                "morale",
                "Morale",
                {"checks": True, "never_fails": True},
                text=f"never fails a morale check ({ctx.race_name})",
                source=f"{SRC} race summary (N'Kakk robots)",
            )
            return
        mod = _level_int(level, "morale")
        value: dict[str, Any] = {
            "checks": True,
            "never_fails": False,
            "base": base,
            "experience": mod,
        }
        exp_text = f"{level.name} {_signed(mod)}" if level is not None and mod else ""
        if base is None:
            value["value"] = None
            text = "not given (race book)" + (f"; {exp_text}" if exp_text else "")
        else:
            m = base + mod
            value.update(
                value=m,
                two_friends=m + adj["two-friends"],
                hero=m + adj["hero"] if ctx.heroes else None,
            )
            detail = f"base {base}" + (f", {exp_text}" if exp_text else "")
            text = (
                f"{m} ({detail}): {pass_range(m)}; {m + adj['two-friends']} beside two "
                "unbroken friends"
            )
            if ctx.heroes:
                text += f", {m + adj['hero']} beside a Hero"
        others = [(ld, r) for ld, r in ctx.leaders if ld is not n]
        if others:
            ranges = [r for _, r in others if r is not None]
            value["leader_range"] = max(ranges) if ranges else None
            if ranges:
                text += f"; no separation checks within {max(ranges)} hexes of a Leader"
        ev.set_value(n, "morale", "Morale", value, text=text, source=source)

    # ----------------------------------------------------------------- vehicles

    def _damage_state(self, ev: Evaluation, n: Node, effects: list[str]) -> None:
        """The vehicle damage recorded in ``state.damage`` names results of its damage table
        (the record sheet ticks them by name; another name would not be ticked)."""
        taken = n.data.state.get("damage") if n.data is not None else None
        if not isinstance(taken, list):
            return  # absent, or of the wrong kind (the engine reports that)
        for i, name in enumerate(taken):
            if not isinstance(name, str) or name in effects:
                continue
            same = [e for e in effects if e.lower() == name.strip().lower()]
            close = same or difflib.get_close_matches(name, effects, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else "."
            ev.warning(
                "smr-state",
                f"{ev.where(n)}: vehicle damage {name!r} is not a result of its damage table "
                f"({', '.join(effects)}){hint} The record sheet cannot tick it.",
                (*n.loc, "state", "damage", i),
                f"{SRC} IX-B; X (Vehicle Damage Table)",
            )

    def _vehicle(self, ev: Evaluation, ctx: _Ctx, n: Node, enemy: _EnemyWeapons) -> None:
        assert n.entry is not None
        system = ev.index.system.model
        try:
            stats: VehicleStats | None = vehicle_stats(
                n.entry.categories, _chars(ev, n, "vehicle"), ctx.sizes
            )
        except ProfileSyntaxError:
            stats = None
        if stats is not None:
            ev.set_value(n, "type", "Vehicle type", stats.description, source=f"{SRC} IV-g")
        level = ev.experience(n)
        self._experience_value(ev, n, level)
        self._attack(ev, n, stats.aim if stats else None, level)
        ev.set_value(
            n,
            "morale",
            "Morale",
            {"checks": False},
            text="never checks (vehicle)",
            source=f"{SRC} IX-D",
        )
        # ---- weapons
        parts = []
        aims: list[tuple[str, WeaponStats | None]] = []
        for c in n.children:
            if _is(c, "mount"):
                held = [w for w in _within(c, ("weapon",)) if _is(w, "weapon")]
                aims.extend((ev.name(w), _weapon(ev, w, ctx.sizes)) for w in held)
                inside = ", ".join(
                    _weapon_text(ev.label(w), _weapon(ev, w, ctx.sizes), ctx.sizes) for w in held
                )
                parts.append(f"{ev.label(c)}: {inside or 'empty'}")
            elif _is(c, "weapon"):
                parts.append(_weapon_text(ev.label(c), _weapon(ev, c, ctx.sizes), ctx.sizes))
                aims.append((ev.name(c), _weapon(ev, c, ctx.sizes)))
        ev.set_value(
            n, "weapons", "Weapons", "; ".join(parts) or "none", source=f"{SRC} IV-g, IV-h"
        )
        self._weapon_aims(ev, n, stats.aim if stats else None, level, aims)
        if stats is None:
            return
        # ---- immunity
        max_ap = immunity(stats, ctx.immunity)
        if max_ap is None:
            ev.set_value(
                n,
                "immunity",
                "Weapon immunity",
                {"max_ap": None, "weapons": {}},
                text="none (only supertanks and walkers have one)",
                source=f"{SRC} IV-g",
            )
        else:
            found = enemy.up_to(max_ap)
            listed = "; ".join(
                f"{race}: " + ", ".join(f"{w.name} (AP {w.ap})" for w in ws)
                for race, ws in found.items()
            )
            text = f"weapons of AP {max_ap} or less"
            text += (
                f" — installed enemy weapons it ignores: {listed}"
                if listed
                else " (no installed enemy weapon has so low an AP)"
            )
            ev.set_value(
                n,
                "immunity",
                "Weapon immunity",
                {"max_ap": max_ap, "weapons": {r: [w.name for w in ws] for r, ws in found.items()}},
                text=text,
                source=f"{SRC} IV-g",
            )
        # ---- damage
        rows = system.data.get("vehicle_damage")
        if isinstance(rows, list) and rows:
            shift = (
                int(system.data.get("supertank_damage_shift", 1))
                if stats.kind == "supertank"
                else 0
            )
            by_roll = ctx.supertank_by_roll
            results = (damage_results if by_roll else damage_results_by_level)(rows, shift)
            table = (damage_rows if by_roll else damage_rows_by_level)(rows, shift)
            destroyed = [r for r, res in results.items() if res == "Destroyed"]
            text = (
                f"destroyed on {_rolls(destroyed)} ({len(destroyed)} in 6)"
                if destroyed
                else "never destroyed by one hit"
            )
            if shift and by_roll:
                text += f" (supertank, house rule: the roll is reduced by {shift}, never below 1)"
            elif shift:
                lowered = ", ".join(f"{r}: {res}" for r, res in results.items())
                text += (
                    f" (supertank: the damage level is lowered by {shift}, never below level "
                    f"1 — {lowered}; destroyed only by Disarmed and Crippled together)"
                )
            if stats.size == "large":
                text += "; when Stunned, recovers on a 6 in the repair phase"
            if stats.motion == "skimmer":
                text += "; a Crippled skimmer over land crashes on an odd roll"
            ev.set_value(
                n,
                "damage",
                "Damage",
                {
                    "results": results,
                    "destroyed_on": destroyed,
                    "supertank_reading": ("roll" if by_roll else "level") if shift else None,
                    "rows": table,
                },
                text=text,
                source=f"{SRC} IX-A, IX-B; X (Vehicle Damage Table)",
            )
            # what the state may record: the table's own results (a supertank's "Disarmed or
            # Crippled" is one of the two, and Destroyed still ends it, IX-B)
            self._damage_state(ev, n, list(dict.fromkeys(str(r["result"]) for r in rows)))
            value, text = damage_value(tuple(results.items()))
            ev.set_value(
                n,
                "damage_odds",
                "Damage odds",
                value,
                text=text,
                source=f"{SRC} IX-B; X (Vehicle Damage Table)",
            )
        # ---- overrun
        ov = {**OVERRUN, **_dict(system.data.get("overrun"))}
        if stats.size == "large" and stats.motion == "ground":
            ev.set_value(
                n,
                "overrun",
                "Overrun",
                {"ap": ov["ap"], "damage": ov["damage"], "escape": ov["escape"]},
                text=f"yes: a soldier in its path escapes on {ov['escape']}+ after adding his "
                f"race's initiative modifier, else takes an AP {ov['ap']} attack doing "
                f"{ov['damage']} damage (a wounded soldier is killed)",
                source=f"{SRC} IX-F",
            )
        else:
            ev.set_value(
                n,
                "overrun",
                "Overrun",
                None,
                text="no (only large ground vehicles overrun)",
                source=f"{SRC} IX-F",
            )
        # ---- terrain
        blocked, sinks = _terrain(system.data.get("terrain"), stats)
        if blocked:
            text = "cannot enter " + ", ".join(blocked)
            if stats.kind == "walker":
                text += " (its own rules may open some to a walker)"
            ev.set_value(n, "terrain", "Terrain", text, source=f"{SRC} V; X (Terrain Effects)")
        if sinks:
            ev.set_value(
                n,
                "skimmer",
                "Skimmer",
                "cannot move backwards; destroyed if damaged in "
                + ", ".join(sinks)
                + " (the terrain tables say any damage; IX-B spares a Disarmed skimmer in a "
                "river or water hex, and that is the reading used)",
                source=f"{SRC} VIII, IX-B; X (Terrain Effects)",
            )
        if stats.transport:
            ev.set_value(
                n,
                "transport",
                "Transport",
                stats.transport,
                text=f"{stats.transport} soldiers",
                source=f"{SRC} VIII-G",
            )

    # ----------------------------------------------------------------- formations

    def _formations(self, ev: Evaluation, nodes: list[Node]) -> dict[int, int]:
        """Formation levels from how formations nest (IV): a formation of units is level 1,
        one holding formations is one level above the highest of them."""
        levels: dict[int, int] = {}

        def inner(node: Node) -> int:
            best = 0
            for c in node.children:
                best = max(best, level(c) if _is(c, "formation") else inner(c))
            return best

        def level(f: Node) -> int:
            if id(f) not in cache:
                cache[id(f)] = 1 + inner(f)
            return cache[id(f)]

        cache: dict[int, int] = {}
        for f in nodes:
            if not _is(f, "formation"):
                continue
            lv = level(f)
            levels[lv] = levels.get(lv, 0) + f.multiplicity()
            below = inner(f)
            ev.set_value(
                f,
                "formation_level",
                "Formation level",
                lv,
                text=f"{lv}" + (f" (holds level-{below} formations)" if below else " (units only)"),
                source=f"{SRC} IV (formations)",
            )
            declared = f.entry.data.get("level") if f.entry is not None else None
            try:
                want = parse_optional(declared, "level")
            except ProfileSyntaxError:
                want = None
            if want is not None and want != lv:
                ev.warning(
                    "smr-formation-level",
                    f"{ev.where(f)} is built as a level-{lv} formation; its catalog entry says "
                    f"level {want}",
                    f,
                    f"{SRC} IV (formations)",
                )
        return levels

    # ----------------------------------------------------------------- costs

    def _breakdown(self, ev: Evaluation, n: Node, exp_cost: dict[int, float]) -> None:
        """Cost per copy split into base, experience, attributes and weapons."""
        parts = {"base": 0.0, "experience": 0.0, "attributes": 0.0, "weapons": 0.0}
        for d in [n, *n.descendants()]:
            if d.entry is None:
                continue
            k = _mult(d, n)
            charged = exp_cost.get(id(d), 0.0)
            own = ev.unit_cost(d, COST) - charged
            parts["experience"] += charged * k
            bucket = (
                "weapons"
                if _is(d, "weapon") or _has_ancestor_below(d, n, "weapon")
                else "attributes"
                if _is(d, "attribute")
                else "base"
            )
            parts[bucket] += own * k
        per_copy = sum(parts.values())
        total = per_copy * n.count
        value = {k: v * n.count for k, v in parts.items()}
        value["total"] = total
        shown = [f"base {_number(value['base'])}"] + [
            f"{k} {_number(value[k])}" for k in ("experience", "attributes", "weapons") if value[k]
        ]
        # A group bought together (IV-d: "units bought in groups") is priced for the whole
        # group, and what one of them costs is said in words: "20 BP for 2 (10 BP each)".
        each = f" for {n.count} ({_number(per_copy)} BP each)" if n.count > 1 else ""
        text = f"{_number(total)} BP{each}: " + ", ".join(shown)
        ev.set_value(n, "cost", "Cost", value, text=text, source=f"{SRC} IV-a, IV-d, IV-e")

    # ----------------------------------------------------------------- roster

    def _overrun_escape(self, ev: Evaluation, ctx: _Ctx) -> None:
        """What this army's soldiers roll to dodge an enemy vehicle's overrun (IX-F)."""
        ov = {**OVERRUN, **_dict(ev.index.system.model.data.get("overrun"))}
        escape = int(ov["escape"])
        mod = ctx.race_data.get("initiative")
        src = f"{SRC} IX-F"
        if isinstance(mod, int) and not isinstance(mod, bool):
            need = overrun_escape(escape, mod)
            roll = "never" if need is None else ("always" if need <= 1 else f"on {need}+")
            ev.set_value(
                ev.root,
                "overrun_escape",
                "Escaping an overrun",
                {"escape": escape, "initiative": mod, "roll": need},
                text=f"{roll} ({escape}+ with the {ctx.race_name} initiative modifier "
                f"{_signed(mod)}); a wounded soldier is killed",
                source=src,
            )
            return
        ev.set_value(
            ev.root,
            "overrun_escape",
            "Escaping an overrun",
            {"escape": escape, "initiative": None, "roll": None},
            text=f"a die plus the {ctx.race_name} initiative modifier (from the race's rule "
            f"book) reaching {escape}+; a wounded soldier is killed",
            source=src,
        )

    def _roster(
        self,
        ev: Evaluation,
        ctx: _Ctx,
        soldiers: list[Node],
        vehicles: list[Node],
        levels: dict[int, int],
    ) -> None:
        root = ev.root
        spent = ev.totals.get(COST, 0.0)
        size = ev.roster.header.limits.get(COST)
        step = int(ev.index.system.model.data.get("game_size_step", GAME_SIZE_STEP))
        if size is not None:
            # build points come in groups of 25 (IV-a): "75 BP (3 groups of 25)"
            groups = round(size / step)
            word = "group" if groups == 1 else "groups"
            blocks = f" ({groups} {word} of {step})" if size > 0 and not size % step else ""
            ev.set_value(
                root,
                "game_size",
                "Game size",
                size,
                text=f"{_number(size)} BP{blocks}",
                source=f"{SRC} IV-a, VI",
            )
            ev.set_value(
                root,
                "bp_left",
                "Build points left",
                size - spent,
                text=f"{_number(size - spent)} BP of {_number(size)}",
                source=f"{SRC} VI",
            )
        if soldiers:
            self._overrun_escape(ev, ctx)
        ev.set_value(root, "soldiers", "Soldiers", sum(n.multiplicity() for n in soldiers))
        ev.set_value(root, "vehicles", "Vehicles", sum(n.multiplicity() for n in vehicles))
        if levels:
            top = max(levels)
            text = ", ".join(f"{levels[lv]} at level {lv}" for lv in sorted(levels, reverse=True))
            ev.set_value(
                root,
                "formations",
                "Formations",
                {"highest": top, "levels": {str(k): v for k, v in sorted(levels.items())}},
                text=f"highest level {top} ({text})",
                source=f"{SRC} IV (formations)",
            )
        wounding = ctx.race_data.get("wounding")
        if isinstance(wounding, list) and len(wounding) == 6:
            wounded = [i + 1 for i, w in enumerate(wounding) if w == "Wounded"]
            dead = [i + 1 for i, w in enumerate(wounding) if w == "Dead"]
            text = f"wounded on {_rolls(wounded)}, dead on {_rolls(dead)}"
        else:
            text = "no column in the main rules' table (see the race book)"
        ev.set_value(
            root,
            "wounding",
            f"Wounding ({ctx.race_name})",
            wounding,
            text=text,
            source=f"{SRC} IX-B; X (Soldier Wounding Table)",
        )
        if isinstance(wounding, list) and len(wounding) == 6:
            value, text = wounding_value(tuple(str(w) for w in wounding))
            ev.set_value(
                root,
                "wounding_odds",
                f"Wounding odds ({ctx.race_name})",
                value,
                text=text,
                source=f"{SRC} IX-B; X (Soldier Wounding Table)",
            )
        by_race: dict[str, Any] = {}
        for _, faction in sorted(ev.index.system.factions.items()):
            column = faction.model.data.get("wounding")
            if isinstance(column, list) and len(column) == 6:
                by_race[faction.name] = wounding_value(tuple(str(w) for w in column))[0]
        if by_race:
            ev.set_value(
                root,
                "wounding_by_race",
                "Wounding odds by race",
                by_race,
                text="; ".join(f"{r}: dead {v['dead']}" for r, v in by_race.items()),
                source=f"{SRC} IX-B; X (Soldier Wounding Table)",
            )
        if ctx.heroes:
            ev.set_value(
                root,
                "heroes",
                "Heroes",
                ctx.heroes,
                text=f"{ctx.heroes} (adjacent soldiers get +2 morale)",
                source=f"{SRC} IX-D",
            )
        if ctx.leaders:
            ev.set_value(
                root,
                "leaders",
                "Leaders",
                len(ctx.leaders),
                text=", ".join(
                    f"{ev.label(n)} ({r} hexes)" if r is not None else ev.label(n)
                    for n, r in ctx.leaders
                ),
                source=f"{SRC} IX-D",
            )
        slow = []
        for n in soldiers:
            if any(_is(n, s) for s in ("leader", "hero", "doctor", "fixer")):
                continue
            try:
                stats = soldier_stats(_chars(ev, n, "soldier"), False, ctx.sizes)
            except ProfileSyntaxError:
                continue
            if stats.move <= 1:
                slow.append(ev.name(n))
        if slow:
            ev.set_value(
                root,
                "game_length",
                "Game length",
                "double",
                text=f"allow double the turns (ordinary soldiers who move only 1 hex: "
                f"{', '.join(dict.fromkeys(slow))})",
                source=f"{SRC} VI",
            )


# --------------------------------------------------------------------------- helpers


def _system_sizes(system: SystemFile) -> tuple[str, ...]:
    sizes = system.data.get("weapon_sizes")
    if isinstance(sizes, list) and sizes and all(isinstance(s, str) for s in sizes):
        return tuple(sizes)
    return SIZES


def _dict(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def _defined(model: Any) -> Iterator[Entry]:
    for _, e in _entries_with_loc(model):
        yield e


def _level_cost(level: ExperienceLevel | None) -> float:
    if level is None:
        return 0.0
    cost = level.data.get("cost", 0)
    return float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else 0.0


def _level_int(level: ExperienceLevel | None, key: str) -> int:
    if level is None:
        return 0
    v = level.data.get(key, 0)
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _outer_team(node: Node) -> Node | None:
    """The outermost team selection holding the node (or the node itself)."""
    found = None
    n: Node | None = node
    while n is not None and not n.is_root:
        if _is(n, "team"):
            found = n
        n = n.parent
    return found


def _records_experience(node: Node) -> bool:
    return _is_unit(node) or _is(node, "team") or _is(node, "formation")


def _has_ancestor_below(node: Node, top: Node, category: str) -> bool:
    for a in node.ancestors():
        if a is top:
            return False
        if _is(a, category):
            return True
    return False


def _mount_size(mount: Node, sizes: tuple[str, ...]) -> int | None:
    found = _sizes_of(mount.categories, sizes)
    return sizes.index(found[0]) if len(found) == 1 else None


def _weapon(ev: Evaluation, node: Node, sizes: tuple[str, ...]) -> WeaponStats | None:
    if node.entry is None:
        return None
    try:
        return weapon_stats(
            ev.name(node),
            node.entry.categories,
            _chars(ev, node, "weapon"),
            node.entry.data,
            sizes,
        )
    except ProfileSyntaxError:
        return None


def _weapon_of_entry(entry: Entry, sizes: Sequence[str]) -> WeaponStats | None:
    try:
        return weapon_stats(
            entry.name, entry.categories, _chars_of(entry, "weapon") or {}, entry.data, sizes
        )
    except ProfileSyntaxError:
        return None


def _weapon_text(label: str, w: WeaponStats | None, sizes: Sequence[str]) -> str:
    if w is None:
        return label
    bits = [sizes[w.size], f"AP {w.ap}"]
    if w.damage is not None:
        bits.append(f"damage {w.damage}")
    if w.range is not None:
        low, high = w.range
        bits.append("close combat" if high == 1 else f"range {f'{low}-' if low else ''}{high}")
    if w.frag:
        bits.append("frag")
    if w.armor_piercing:
        bits.append("armor-piercing")
    return f"{label} ({', '.join(bits)})"


def _held(ev: Evaluation, vehicle: Node, mount_id: str) -> list[tuple[str, str]]:
    """(entry id, name) of the weapons held by one mount of a vehicle (one per copy)."""
    out: list[tuple[str, str]] = []
    for m in vehicle.children:
        if m.entry_id != mount_id:
            continue
        for w in _within(m, ("weapon",)):
            if _is(w, "weapon") and w.entry is not None:
                out.extend([(w.entry.id, ev.name(w))] * _mult(w, m))
    return out


def _held_text(held: list[tuple[str, str]]) -> str:
    if not held:
        return "nothing"
    counts: dict[str, int] = {}
    for _, name in held:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{k} × {name}" if k > 1 else name for name, k in counts.items())


def _race_name(ev: Evaluation, race: str) -> str:
    f = ev.index.system.factions.get(race)
    return f.name if f is not None else race


def _terrain(tables: Any, v: VehicleStats) -> tuple[list[str], list[str]]:
    """Terrain a vehicle cannot enter, and where a damaged skimmer is lost (X)."""
    blocked: dict[str, None] = {}
    sinks: dict[str, None] = {}
    if not isinstance(tables, dict):
        return [], []
    for rows in tables.values():
        for row in rows if isinstance(rows, list) else []:
            name = str(row.get("terrain", ""))
            move = str(row.get("movement", "")).lower()
            combat = str(row.get("combat", "")).lower()
            if (
                move.startswith("cannot enter")
                or "only foot soldiers" in move
                or ("only skimmers" in move and v.motion != "skimmer")
            ):
                blocked[name] = None
            if v.motion == "skimmer" and "damaged skimmers are destroyed" in combat:
                sinks[name] = None
    return list(blocked), list(sinks)


class _EnemyWeapons:
    """Weapons of the other races installed (bundled and user catalogs), for immunities."""

    def __init__(self, system: GameSystem, own: str) -> None:
        self.system = system
        self.own = own
        self._all: list[tuple[str, WeaponStats]] | None = None

    def _load(self) -> list[tuple[str, WeaponStats]]:
        if self._all is None:
            out: list[tuple[str, WeaponStats]] = []
            sizes = _system_sizes(self.system.model)
            for fid, faction in sorted(self.system.factions.items()):
                if fid == self.own:
                    continue
                idx = self.system.index(fid)
                seen: set[str] = set()
                for e in [*idx.entries.values(), *idx.shared.values()]:
                    if "weapon" not in e.categories or e.id in seen:
                        continue
                    seen.add(e.id)
                    w = _weapon_of_entry(e, sizes)
                    if w is not None:
                        out.append((faction.name, w))
            self._all = out
        return self._all

    def up_to(self, max_ap: int) -> dict[str, list[WeaponStats]]:
        found: dict[str, list[WeaponStats]] = {}
        for race, w in self._load():
            if w.ap <= max_ap:
                found.setdefault(race, []).append(w)
        return found


RULES = StarMarines()
