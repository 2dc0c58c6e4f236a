"""The view of a roster that templates and exports read.

An :class:`~armybuilder.rules.engine.Evaluation` is turned into plain objects
(:class:`RosterView`, :class:`UnitView`, :class:`ValueView`...) that hold only what a printout
shows: names, counts, costs, computed values, profiles, campaign state and the issues that
concern each unit. Templates read these (never the engine), so a template author needs to know
only the attributes documented here (see ``docs/printing.md``), and a template cannot change
the roster.

Nothing here knows a game system: values are read by the keys the system's rules module sets
(``ev.set_value(node, "av_primary", ...)``), and a system's own template decides what to do
with them.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..model.plain import rule_field
from ..report import force_title, price_text
from ..rules.engine import Evaluation, Issue, Node, Value, fmt_num, format_loc
from ..words import named_amount, number, plural, tally, unit_after, unit_is_name

#: Value keys that say how many hits a model or unit takes: the generic sheet draws a box
#: per hit for them (a system's own template may do better).
HIT_KEYS = ("hits", "hit_boxes", "wounds", "damage_boxes", "boxes")
#: Names of stat line columns that say how many hits a model takes, in data whose
#: characteristics have ids of their own (BattleScribe's): a vehicle's "Hull Points", a
#: model's "Wounds" or "W", a crew member's "Life". Compared without case.
HIT_NAMES = frozenset(
    ("hits", "hit points", "hull points", "wounds", "w", "life", "structure points", "damage boxes")
)
#: Campaign state keys that mark hit boxes as already ticked.
DAMAGE_STATE_KEYS = ("wounds", "hits", "damage")


@dataclass(frozen=True)
class ValueView:
    """A computed value: ``key`` (what templates look up), ``label``, the raw ``value``
    (a number, text, list or mapping, as the rules module set it) and its display ``text``."""

    key: str
    label: str
    value: Any
    text: str
    source: str = ""

    @classmethod
    def of(cls, v: Value) -> ValueView:
        return cls(v.key, clean(v.label), v.value, clean(v.display()), clean(v.source))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class IssueView:
    """An error or warning, with the path of the selection it is about."""

    severity: str
    code: str
    message: str
    path: str
    source: str
    line: int | None = None
    column: int | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


@dataclass(frozen=True)
class ProfileView:
    """A stat line: its profile type, name and ``(column name, value)`` pairs."""

    type: str
    type_name: str
    name: str
    columns: tuple[tuple[str, str], ...]
    raw: dict[str, Any]

    def get(self, char_id: str, default: str = "") -> str:
        """A characteristic's value as text, by characteristic id."""
        v = self.raw.get(char_id)
        return default if v is None else _scalar_text(v)


@dataclass(frozen=True)
class CostView:
    """A roster total against its limit."""

    id: str
    name: str
    unit: str
    spent: float
    limit: float | None

    @property
    def over(self) -> bool:
        return self.limit is not None and self.spent > self.limit

    @property
    def text(self) -> str:
        def unit(amount: str) -> str:
            return f"{amount} {unit_after(amount, self.unit)}" if self.unit else amount

        out = unit(number(self.spent))
        if self.limit is not None:
            out += f" of {unit(number(self.limit))}"
        return out

    @property
    def named_text(self) -> str:
        """:attr:`text` after the total's name ("Mass 2,380 kg of 3,000 kg"), or alone when
        the unit is the name ("1,910 pts of 2,000 pts")."""
        return self.text if unit_is_name(self.name, self.unit) else f"{self.name} {self.text}"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


#: Longest name printed (characters): a longer one is cut with an ellipsis. Names sit in
#: headings, running headers and table cells; a few hundred characters is already more
#: than a line.
MAX_NAME = 200
#: Longest other text printed (notes, messages, computed values), in characters.
MAX_TEXT = 2000
#: Longest text of a catalog printed: a rule's description or a stat line's value (an
#: ability's text). These are the game's rules, which a player needs whole: the longest of
#: the BattleScribe test data is 1,866 characters, and a cut one would print a rule that
#: stops in mid-sentence.
#: About two pages of a card's small print; the limit only keeps broken data printable.
MAX_RULE_TEXT = 20000


def clean(text: Any, limit: int = MAX_TEXT) -> str:
    """Roster text fit to print: control characters dropped (no glyph prints them, and in a
    terminal they could move the cursor), line breaks and tabs become spaces, and anything
    longer than ``limit`` characters cut with an ellipsis."""
    s = str(text)
    if len(s) > 4 * limit:  # a 5 MB name: only its start can be printed
        s = s[: 4 * limit]
    s = _CONTROL.sub("", s)
    if "\n" in s or "\r" in s or "\t" in s:
        s = " ".join(s.replace("\t", " ").split())
    if len(s) > limit:
        s = s[: limit - 1].rstrip() + "…"
    return s


def clean_lines(text: Any, limit: int = MAX_RULE_TEXT) -> str:
    """A rule's text fit to print with its line breaks: :func:`clean` line by line, empty
    lines dropped. The data writes a rule's effects a line each ("- Units...", "- Add 1...",
    or each effect under its name) and a designer's note on a line of its own; run together
    they read as one muddled paragraph.

    A stat line's values (an ability's text in its table cell) are joined into one line
    instead (:func:`clean`): a leader's "attached to the following units" list a unit a line
    took a character's card a few lines past its page, each leaving a page that held only
    the end of its last rule (the BattleScribe roster of the benchmarks printed 19 pages, not
    17);
    in a cell the data's own "■" keeps the items apart."""
    s = str(text)
    if "\n" not in s and "\r" not in s:
        return clean(s, limit)
    s = s[: 4 * limit].replace("\r\n", "\n").replace("\r", "\n")
    s = "\n".join(line for line in (clean(part, limit) for part in s.split("\n")) if line)
    if len(s) > limit:
        s = s[: limit - 1].rstrip() + "…"
    return s


def clean_name(text: Any) -> str:
    """A name fit to print: :func:`clean`, at most :data:`MAX_NAME` characters."""
    return clean(text, MAX_NAME)


def _scalar_text(v: Any) -> str:
    if isinstance(v, float):
        return fmt_num(v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _as_int(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    return 0


class _Values:
    """Computed values by key, for templates: ``value(key)`` and ``text(key)``."""

    values: dict[str, ValueView]

    def value(self, key: str, default: Any = None) -> Any:
        """The raw value ``key`` (a number, text, list or mapping), or ``default``."""
        v = self.values.get(key)
        return default if v is None else v.value

    def text(self, key: str, default: str = "") -> str:
        """The display text of value ``key``, or ``default``."""
        v = self.values.get(key)
        return default if v is None else v.text


class UnitView(_Values):
    """One selection as a printout sees it.

    Attributes: ``uid`` (an id unique in the document, for anchors), ``name`` (custom name or
    entry name), ``label`` (name with ``×count``), ``entry_name``, ``entry_id``, ``type``
    (``unit``/``model``/``upgrade``, ``None`` for an unknown entry), ``known``, ``count``,
    ``depth`` (0 at the top level), ``categories`` (ids), ``experience`` (level name),
    ``notes``, ``state`` (the selection's campaign state mapping), ``costs`` (per cost type,
    this selection with everything under it, times its count), ``cost_text``,
    ``copy_cost_text`` (one copy's: the costs divided by the count), ``values``
    (key -> :class:`ValueView`, in the order the rules module set them), ``profiles``
    (:class:`ProfileView`), ``rules`` (rule names), ``children``, ``loadout`` (the plain
    upgrades under it, as labels, one per name with how many: ``Lascannon ×2``), ``kit``
    (the loadout with the upgrades that hold only upgrades too, each with what it holds:
    ``Machine Gun (Front)``, for one-line summaries),
    ``issues`` (those about this selection or below it).
    """

    def __init__(self, uid: str, parent: UnitView | None) -> None:
        self.uid = uid
        self.parent = parent
        self.name = ""
        self.label = ""
        self.entry_name = ""
        self.entry_id = ""
        self.type: str | None = None
        self.known = True
        self.count = 1
        self.depth = 0
        self.categories: list[str] = []
        self.category_names: list[str] = []
        self.experience = ""
        self.notes = ""
        self.state: dict[str, Any] = {}
        #: State keys the rules module declares as history (never read as damage).
        self.history_keys: frozenset[str] = frozenset()
        self.costs: dict[str, float] = {}
        self.cost_text = ""
        #: What one of its ``count`` copies costs (``cost_text`` when the count is 1): a
        #: card printed per copy (``Choppers 1 of 2``) prints this, so the cards add up.
        self.copy_cost_text = ""
        self.values: dict[str, ValueView] = {}
        self.profiles: list[ProfileView] = []
        self.rules: list[str] = []
        #: The rules' names and texts, for cards that print them (``(name, text)``).
        self.rule_texts: list[tuple[str, str]] = []
        self.children: list[UnitView] = []
        self.loadout: list[str] = []
        self.kit: list[str] = []
        self.issues: list[IssueView] = []
        self.path = ""

    def __repr__(self) -> str:
        return f"UnitView({self.label!r})"

    # ------------------------------------------------------------------ values

    def has(self, key: str) -> bool:
        """Whether the rules module set value ``key`` for this selection."""
        return key in self.values

    def prefixed(self, prefix: str) -> list[ValueView]:
        """The values whose key starts with ``prefix`` (``weapon-`` gives one per weapon)."""
        return [v for k, v in self.values.items() if k.startswith(prefix)]

    def number(self, key: str, default: int = 0) -> int:
        """Value ``key`` as a whole number (0 when it is not one)."""
        v = self.values.get(key)
        return default if v is None else _as_int(v.value)

    def hits(self) -> int:
        """How many hits one copy takes, from the first of :data:`HIT_KEYS` it has (or a
        profile characteristic of that id, or one named in :data:`HIT_NAMES`: "Hull Points"
        12); 0 when nothing says."""
        return self._hits()[0]

    def hit_label(self) -> str:
        """What :meth:`hits` counts, as the data names it ("Hull Points", "Wounds"), or
        "Hits" when it has no name of its own."""
        return self._hits()[1]

    def _hits(self) -> tuple[int, str]:
        for key in HIT_KEYS:
            if key in self.values:
                v = self.values[key]
                return _as_int(v.value), v.label or "Hits"
        for p in self.profiles:
            for key in HIT_KEYS:
                if key in p.raw:
                    return _as_int(p.raw[key]), "Hits"
        for p in self.profiles:
            for name, text in p.columns:
                if name.strip().casefold() in HIT_NAMES and _as_int(text) > 0:
                    return _as_int(text), name
        return 0, "Hits"

    # ------------------------------------------------------------------ campaign state

    def state_int(self, *keys: str) -> int:
        """The first of the campaign state ``keys`` present, as a whole number (else 0)."""
        for key in keys:
            if key in self.state:
                return max(_as_int(self.state[key]), 0)
        return 0

    def state_for(self, key: str, *names: str) -> int:
        """Campaign state ``key`` for one thing: a whole number applies as it is; a mapping
        (``ammo_spent: {srm1: 2}``) is looked up by any of ``names`` (an id or a name)."""
        v = self.state.get(key)
        if isinstance(v, dict):
            for n in names:
                if n in v:
                    return max(_as_int(v[n]), 0)
            return 0
        return max(_as_int(v), 0) if v is not None else 0

    @property
    def damage_taken(self) -> int:
        """Hit boxes already ticked (campaign state ``wounds``, ``hits`` or ``damage``, except
        a key the rules module declares as history, such as wounds taken in past actions)."""
        return self.state_int(*(k for k in DAMAGE_STATE_KEYS if k not in self.history_keys))

    @property
    def lost(self) -> int:
        """Copies of this selection lost (campaign state ``lost``), at most ``count``."""
        return min(self.state_int("lost"), self.count)

    # ------------------------------------------------------------------ structure

    def has_category(self, category: str) -> bool:
        return category in self.categories

    def walk(self) -> Iterator[UnitView]:
        """This selection and everything under it, depth first."""
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, category: str, include_self: bool = False) -> list[UnitView]:
        """Selections under this one (and itself, if asked) in a category or of an entry id."""
        it = self.walk() if include_self else (n for c in self.children for n in c.walk())
        return [n for n in it if category in n.categories or n.entry_id == category]

    def with_value(self, key: str) -> list[UnitView]:
        """Selections under this one (itself included) that have value ``key``."""
        return [n for n in self.walk() if key in n.values]

    def multiplicity(self, upto: UnitView | None = None) -> int:
        """Copies of this selection per one ``upto`` (default: in the whole roster)."""
        m = self.count
        n = self.parent
        while n is not None and n is not upto:
            m *= n.count
            n = n.parent
        return m

    @property
    def errors(self) -> list[IssueView]:
        return [i for i in self.issues if i.is_error]

    @property
    def roster_option(self) -> bool:
        """A selection that sets the roster up rather than a unit a player fields: an upgrade
        (the data's entry type) chosen at the top of a force: a detachment or a game size
        picked once for the whole army, a sponsor, the campaign rules a roster plays. An
        upgrade with a stat line of its own, or a model or unit under it, is fielded (data
        that makes each crew member an upgrade with a profile): a unit, not an option."""
        return (
            self.depth == 0
            and self.known
            and self.type == "upgrade"
            and not self.profiles
            and not any(n.type in ("model", "unit") for n in self.walk())
        )

    @property
    def branches(self) -> list[UnitView]:
        """Children that are not plain upgrades (those are listed in :attr:`loadout`)."""
        return [c for c in self.children if not c._is_leaf]

    _is_leaf = False

    # ------------------------------------------------------------------ generic cards

    def _below(self) -> Iterator[UnitView]:
        """Descendants, not entering nested units."""
        for c in self.children:
            yield c
            if c.type != "unit":
                yield from c._below()

    def _has_unit_below(self) -> bool:
        return any(n.type == "unit" for c in self.children for n in c.walk())

    def cards(self) -> list[UnitView]:
        """The selections of this subtree that get a card on a generic record sheet.

        A unit with no unit under it gets one card (its models are rows on it); a unit that
        holds other units (a company of platoons) gets a card only if it has a stat line or
        computed values of its own, and its units get theirs; a model or anything else at
        the top level gets a card, but a roster option (:attr:`roster_option`) only when it
        has something to print besides its name and cost (:meth:`prints_little`): a bare
        option with nothing chosen in it (a sponsor not picked yet) is listed with the
        roster's options on the first page, not printed as an empty box among the sheets.
        """
        if not self._has_unit_below():
            if self.sheetless:
                return []
            return [self] if self.type in ("unit", "model") or self.depth == 0 else []
        own = [self] if (self.profiles or self.values or self.hits()) else []
        return own + [card for c in self.children for card in c.cards()]

    @property
    def sheetless(self) -> bool:
        """A roster option with nothing to print on a record sheet (:meth:`cards` is empty): a
        sponsor not chosen yet."""
        return self.roster_option and self.prints_little()

    def prints_little(self) -> bool:
        """Whether this selection's card would show only its name, cost and categories: no
        stat line, hit track, models, weapons, chosen upgrades, computed values, rule texts
        or notes (see templates/generic/cards.html)."""
        return not (
            self.profiles
            or self.hits() > 0
            or self.members()
            or self.gear()
            or self.kit
            or self.values
            or self.card_rule_texts()
            or self.card_unknowns()
            or self.notes
        )

    def card_rule_texts(self) -> list[tuple[str, str]]:
        """The rule texts this selection's card prints: its own, then those of everything
        else on the card (its models, their weapons and upgrades, a detachment chosen in a
        roster option), in the roster's order, each name and text once. A weapon's rules
        ("Pistol", "Blast", a "Harpoon" whose stat line says only "See Rules.") and
        a detachment's belong to the player's card as much as the unit's own; a unit nested
        in this one prints its rules on its own card."""
        out: list[tuple[str, str]] = []
        seen: set[tuple[str, str]] = set()
        for u in (self, *self._below()):
            if u is not self and u.type == "unit":
                continue
            for item in u.rule_texts:
                if item not in seen:
                    seen.add(item)
                    out.append(item)
        return out

    def card_unknowns(self) -> list[UnitView]:
        """The selections on this card (itself among them) of entries the data does not hold
        (a misspelt id): nothing of them can be printed but their ids, which the card lists,
        so that a card of an unknown unit is no empty box and a squad's unknown weapon is not
        silently missing from its loadout."""
        return [u for u in (self, *self._below()) if not u.known]

    def member_profiles(self) -> list[tuple[str, ProfileView]]:
        """The stat lines of the models on this card as ``(label, profile)`` rows, the same
        model with the same stat line once with how many there are: seven selections of one
        model each are one row "<model> ×7", as one selection of seven is (and as the
        weapon rows count), not seven identical rows."""
        counts: dict[tuple[Any, ...], int] = {}
        first: dict[tuple[Any, ...], ProfileView] = {}
        for m in self.members():
            for p in m.profiles:
                key = (m.name, p.type, p.name, p.columns)
                if key not in first:
                    first[key] = p
                counts[key] = counts.get(key, 0) + m.count
        return [(counted(key[0], counts[key]), p) for key, p in first.items()]

    def members(self) -> list[UnitView]:
        """The models on this unit's card (not those of units nested in it)."""
        return [n for n in self._below() if n.type == "model"]

    def gear(self) -> list[tuple[UnitView, int]]:
        """Upgrades with a stat line (weapons...) on this card, with how many there are."""
        return [
            (n, n.multiplicity(self)) for n in self._below() if n.type == "upgrade" and n.profiles
        ]

    def carried(self, profile_name: str, upto: UnitView | None = None) -> int:
        """How many upgrades with a stat line called ``profile_name`` (a weapon) this
        selection holds (not those of models or units under it), per one ``upto`` (default:
        in the whole roster): a model ×3 with a rifle each carries 3; 0 when none of its
        upgrades has such a stat line."""

        def held(node: UnitView) -> Iterator[UnitView]:
            for c in node.children:
                if c.type not in ("unit", "model"):
                    yield c
                    yield from held(c)

        return sum(
            n.multiplicity(upto)
            for n in held(self)
            if n.type == "upgrade" and any(p.name == profile_name for p in n.profiles)
        )

    # ------------------------------------------------------------------ roster summary

    def short_values(self, limit: int = 48) -> list[ValueView]:
        """Computed values whose text is at most ``limit`` characters (for one-line
        summaries); empty ones and dashes are left out."""
        return [
            v
            for v in self.values.values()
            if v.text and v.text not in ("—", "-") and len(v.text) <= limit
        ]

    def model_count(self) -> int:
        """How many models this selection's card holds (models of nested units not counted)."""
        return sum(m.multiplicity(self) for m in self.members())

    def model_summary(self) -> list[str]:
        """The models on this unit's card, one entry per name with how many of it the card
        holds (``Marine ×6``: two selections of three Marines, or three under a group taken
        twice, count as the card counts them), in order of first appearance; a model at the
        top level summarises itself (what it controls is in its :attr:`kit`)."""
        if self.type == "model":
            return []
        return tally((m.name, m.multiplicity(self)) for m in self.members())

    @property
    def size(self) -> int:
        """How many selections this subtree holds (for splitting work)."""
        return sum(1 for _ in self.walk())

    # ------------------------------------------------------------------ copies (record sheets)

    def copy_name(self, index: int, total: int | None = None) -> str:
        """The name printed on one copy of a selection a player fields several times
        (``count``, or a counted unit above it): ``Choppers 2 of 2``. ``index`` is 0-based
        among ``total`` copies (default: :meth:`multiplicity`); one copy keeps its name."""
        n = self.multiplicity() if total is None else total
        return self.name if n <= 1 else f"{self.name} {index + 1} of {n}"

    def copy_track(
        self, hits: int, total: int | None = None, taken: int | None = None
    ) -> list[tuple[bool, int]]:
        """Per copy (``total`` of them, default :meth:`multiplicity`): whether it is lost
        (campaign state ``lost``: the first copies) and how many of its ``hits`` boxes are
        already ticked (``taken`` hits, default :attr:`damage_taken`, spread over the copies
        still standing, first copy first; a lost copy has all its boxes ticked)."""
        n = self.multiplicity() if total is None else total
        lost = min(self.state_int("lost"), n)
        left = self.damage_taken if taken is None else max(taken, 0)
        out: list[tuple[bool, int]] = []
        for i in range(n):
            if i < lost:
                out.append((True, hits))
                continue
            t = min(left, hits)
            left -= t
            out.append((False, t))
        return out

    def copy_marks(self, hits: int, index: int, taken: int | None = None) -> tuple[bool, int]:
        """:meth:`copy_track` for copy ``index`` alone (not lost, nothing ticked when there
        is no such copy)."""
        track = self.copy_track(hits, taken=taken)
        return track[index] if 0 <= index < len(track) else (False, 0)


@dataclass
class ForceView:
    """A force of a roster of several forces: ``title`` (its name, with what it is when it
    has a name of its own), ``path``, ``depth`` (0 for a top-level force), ``totals`` (its
    costs with everything in it, child forces included), ``errors`` (the issues inside it),
    ``units`` (its top-level selections), ``forces`` (the forces inside it) and
    ``sheet_roster`` (the roster as the sheets of this force's units see it)."""

    title: str
    path: str
    depth: int
    totals: list[CostView]
    errors: list[IssueView]
    units: list[UnitView]
    forces: list[ForceView] = field(default_factory=list)
    sheet_roster: Any = None

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def cost_text(self) -> str:
        return ", ".join(named_amount(t.name, t.unit, number(t.spent)) for t in self.totals)

    def walk(self) -> Iterator[ForceView]:
        yield self
        for f in self.forces:
            yield from f.walk()

    def unit_lines(self) -> list[UnitView]:
        """The lines of this force's units in the roster summary (see
        :meth:`RosterView.unit_lines`)."""
        return [
            n
            for u in self.units
            if not u.roster_option
            for n in u.walk()
            if n.depth == 0 or n.type == "unit" or not n.known
        ]

    def option_lines(self) -> list[UnitView]:
        """This force's roster options (see :attr:`UnitView.roster_option`)."""
        return [u for u in self.units if u.roster_option]

    @property
    def has_sheets(self) -> bool:
        """Whether this force's units print anything on the record sheets (see
        :attr:`RosterView.has_sheets`)."""
        return any(not u.sheetless for u in self.units)


@dataclass
class RosterView(_Values):
    """The whole roster: ``name``, ``system`` and ``faction`` (objects with ``id`` and
    ``name``), ``date``, ``file``, ``totals`` (:class:`CostView`), ``valid``, ``errors``,
    ``warnings``, ``values`` (roster-wide computed values), ``units`` (the top level: for a
    roster of several forces, every force's top-level selections in order), ``forces``
    (:class:`ForceView`, empty for a roster of one force) and ``notices`` (what the catalog
    asks to show, severity ``note``: neither errors nor warnings)."""

    name: str
    system_id: str
    system_name: str
    faction_id: str
    faction_name: str
    date: str
    file: str
    notes: str
    totals: list[CostView]
    valid: bool
    errors: list[IssueView]
    warnings: list[IssueView]
    values: dict[str, ValueView]
    units: list[UnitView]
    version: str = __version__
    extra: dict[str, Any] = field(default_factory=dict)
    forces: list[ForceView] = field(default_factory=list)
    notices: list[IssueView] = field(default_factory=list)

    def all_forces(self) -> list[ForceView]:
        """Every force, child forces after their parent (none for a roster of one force)."""
        return [x for f in self.forces for x in f.walk()]

    @property
    def verdict(self) -> str:
        """``Legal`` or ``Not legal: N errors`` (the stamp on the roster page)."""
        if self.valid:
            return "Legal"
        n = len(self.errors)
        return f"Not legal: {plural(n, 'error')}"

    @property
    def open_command(self) -> str | None:
        """The command that opens this roster's file in the builder, with the file's own name
        (``armybuilder my-army.yaml``, quoted for a shell where it needs it); ``None`` for a
        roster not read from a file."""
        if not self.file or self.file.startswith("<"):
            return None
        import shlex
        from pathlib import PurePath

        return f"armybuilder {shlex.quote(PurePath(self.file).name)}"

    def unit_lines(self) -> list[UnitView]:
        """The selections the roster summary gives a line each under "Units": every unit at
        any depth, every top-level selection but the roster options (:meth:`option_lines`),
        and every selection of an unknown entry."""
        return [
            n
            for u in self.units
            if not u.roster_option
            for n in u.walk()
            if n.depth == 0 or n.type == "unit" or not n.known
        ]

    def option_lines(self) -> list[UnitView]:
        """The roster options (see :attr:`UnitView.roster_option`): printed apart from the
        units, and not counted among them."""
        return [u for u in self.units if u.roster_option]

    @property
    def has_sheets(self) -> bool:
        """Whether the record sheets have anything to print: a unit, or a roster option with
        something chosen in it. A new roster may hold only a bare roster option (a sponsor),
        which has no card: no "Record sheets" page is printed with nothing under its heading."""
        return any(not u.sheetless for u in self.units)

    def all_units(self) -> Iterator[UnitView]:
        for u in self.units:
            yield from u.walk()

    def find(self, category: str) -> list[UnitView]:
        """Every selection in a category (or of an entry id), depth first."""
        return [n for n in self.all_units() if category in n.categories or n.entry_id == category]


# --------------------------------------------------------------------------- building


def _rules(ev: Evaluation, node: Node) -> tuple[list[str], list[tuple[str, str]]]:
    """The names of the node's rules, and (name, text) of those with a text, as the entry
    shows them: after its modifiers of ``rule:<id>:name`` / ``rule:<id>:description`` (a
    rule named "Deadly Demise" in the catalog reads "Deadly Demise D6" on a tank)."""
    entry = node.entry
    if entry is None:
        return [], []
    names: list[str] = []
    texts: list[tuple[str, str]] = []
    for r in entry.rules:
        rule = ev.index.rules.get(r)
        if rule is None:
            continue
        name, text = rule.name, rule.description
        if entry.modifiers:
            name = str(ev.apply_modifiers(entry, rule_field(r, "name"), name, node))
            if text:
                text = str(ev.apply_modifiers(entry, rule_field(r, "description"), text, node))
        names.append(name)
        if text:
            texts.append((name, clean_lines(text)))
    return names, texts


def _profiles(ev: Evaluation, node: Node) -> list[ProfileView]:
    if node.entry is None:
        return []
    out = []
    for p in ev.visible_profiles(node):  # (a hidden stat line is not the player's)
        ptype = ev.index.profile_types.get(p.type)
        raw = {k: ev.profile_value(node, p, k) for k in p.characteristics}
        if ptype is not None:
            cols = tuple(
                (c.name, clean(_scalar_text(raw[c.id]), MAX_RULE_TEXT))
                for c in ptype.characteristics
                if c.id in raw and raw[c.id] is not None
            )
            type_name = ptype.name
        else:
            cols = tuple(
                (k, clean(_scalar_text(v), MAX_RULE_TEXT)) for k, v in raw.items() if v is not None
            )
            type_name = p.type
        name = ev.profile_name(node, p)  # (after the entry's modifiers of its name)
        out.append(ProfileView(p.type, type_name, clean_name(name or ev.name(node)), cols, raw))
    return out


def counted(name: str, count: int) -> str:
    """A name with how many there are, as every label prints it: ``Lascannon ×2``, the name
    alone for one."""
    return name + (f" ×{count}" if count != 1 else "")


def _loadout(u: UnitView) -> list[str]:
    """``u``'s plain upgrades as labels, each name once with how many there are."""
    return tally((c.name, c.count) for c in u.children if c._is_leaf)


def _kit(u: UnitView) -> list[str]:
    """``u``'s loadout in one line: its plain upgrades, and each upgrade that holds only
    upgrades (a weapon with its mounting, a wargear option holding its weapons) with what it
    holds in brackets, in the roster's order; the same thing twice is listed once with how
    many there are (``Lascannon ×2``, ``Sponson ×2 (Heavy Bolter)``). A model's models (a
    turret its operator controls) are listed too, with what they carry: a model's summary
    line lists no models of its own."""
    items: dict[tuple[str, str], int] = {}
    for c in u.children:
        if c._is_leaf:
            key = (c.name, "")
        elif (u.type == "model" and c.type == "model" and c.known) or (
            c.type == "upgrade"
            and c.known
            and not c.values
            and not c.state
            and all(d.type == "upgrade" and d.known for d in c.walk())
        ):
            key = (c.name, f" ({', '.join(c.kit)})" if c.kit else "")
        else:
            continue
        items[key] = items.get(key, 0) + c.count
    return [counted(name, n) + held for (name, held), n in items.items()]


def _is_leaf(ev: Evaluation, node: Node) -> bool:
    return (
        not node.children
        and not ev.values_of(node)
        and node.entry is not None
        and node.entry.type == "upgrade"
        and not (node.data is not None and node.data.state)
    )


class _Builder:
    def __init__(self, ev: Evaluation, issues: list[IssueView]) -> None:
        self.ev = ev
        self.n = 0
        self.issues = issues
        self.by_path: dict[str, UnitView] = {}
        self.history_keys = frozenset(k.name for k in ev.state_keys if k.history)

    def attach_issues(self) -> None:
        """Give each unit the issues about it or anything under it."""
        for i in self.issues:
            path = i.path
            while path and path not in self.by_path:
                shorter = _PARENT.sub("", path)
                path = "" if shorter == path else shorter
            u: UnitView | None = self.by_path.get(path) if path else None
            while u is not None:
                u.issues.append(i)
                u = u.parent

    def unit(self, node: Node, parent: UnitView | None) -> UnitView:
        ev = self.ev
        self.n += 1
        u = UnitView(f"u{self.n}", parent)
        u.name = clean_name(ev.name(node))
        u.label = counted(u.name, node.count)
        u.entry_id = clean_name(node.entry_id or "")
        u.known = node.entry is not None
        u.entry_name = clean_name(node.entry.name if node.entry is not None else u.entry_id)
        u.type = node.entry.type if node.entry is not None else None
        u.count = node.count
        u.depth = node.depth - 1 - sum(1 for a in node.ancestors() if a.force is not None)
        u.categories = list(node.categories)
        u.category_names = [ev.index.name_of(c) for c in u.categories]
        own = node.data.experience if node.data is not None else None
        if own:
            level = ev.index.experience.get(own)
            u.experience = clean(level.name if level is not None else own)
        u.notes = clean(node.data.notes or "") if node.data is not None else ""
        u.state = dict(node.data.state) if node.data is not None else {}
        u.history_keys = self.history_keys
        u.costs = dict(ev.total_cost(node)) if node.entry is not None else {}
        u.cost_text = price_text(ev.index, u.costs) if node.entry is not None else ""
        u.copy_cost_text = u.cost_text
        if u.cost_text and u.count > 1:
            each = {k: v / u.count for k, v in u.costs.items()}
            u.copy_cost_text = price_text(ev.index, each)
        u.values = {v.key: ValueView.of(v) for v in ev.values_of(node)}
        u.profiles = _profiles(ev, node)
        u.rules, u.rule_texts = _rules(ev, node)
        u.path = format_loc(node.loc)
        if u.path:
            self.by_path[u.path] = u
        u._is_leaf = _is_leaf(ev, node)
        u.children = [self.unit(c, u) for c in node.children]
        u.loadout = _loadout(u)
        u.kit = _kit(u)
        return u


#: The last step of a path: ``.key`` or ``[3]``.
_PARENT = re.compile(r"(?:(?:^|\.)[^.\[\]]+|\[\d+\])$")


def build_view(
    ev: Evaluation,
    *,
    file: str | None = None,
    date: _dt.date | str | None = None,
    positions: bool = False,
) -> RosterView:
    """The :class:`RosterView` of an evaluated roster.

    ``date`` is printed on the roster page (default: today). ``positions`` looks up each
    issue's line and column in the roster file (slow for a big file read without them).
    """
    roster = ev.roster

    def issue(i: Issue) -> IssueView:
        line = col = None
        if positions and i.path:
            line, col = roster.position(i.path)
        return IssueView(
            i.severity,
            clean_name(i.code),
            clean(i.message),
            format_loc(i.path),
            clean(i.source),
            line,
            col,
        )

    issues = [issue(i) for i in ev.issues]
    limits: dict[str, float] = dict(roster.header.limits)
    for ct in ev.index.cost_types.values():
        if ct.id not in limits and ct.default_limit is not None:
            limits[ct.id] = ct.default_limit
    totals = [
        CostView(ct.id, ct.name, ct.unit, ev.totals.get(ct.id, 0.0), limits.get(ct.id))
        for ct in ev.index.cost_types.values()
        if not ct.hidden
    ]
    if date is None:
        date = _dt.date.today()
    date_text = date.isoformat() if isinstance(date, _dt.date) else str(date)
    builder = _Builder(ev, issues)
    forces: list[ForceView] = []
    if ev.forces is not None:
        forces = [_force_view(ev, builder, n, issues) for n in ev.root.children if n.force]
        units = [u for f in forces for x in f.walk() for u in x.units]
    else:
        units = [builder.unit(n, None) for n in ev.root.children]
    builder.attach_issues()
    view = RosterView(
        name=clean_name(roster.name),
        system_id=ev.index.system.id,
        system_name=ev.index.system.name,
        faction_id=ev.index.faction.id,
        faction_name=ev.index.faction.name,
        date=date_text,
        file=file if file is not None else roster.file,
        notes=clean(roster.header.notes or ""),
        totals=totals,
        valid=ev.valid,
        errors=[i for i in issues if i.is_error],
        warnings=[i for i in issues if i.severity == "warning"],
        notices=[i for i in issues if i.severity == "note"],
        values={v.key: ValueView.of(v) for v in ev.roster_values},
        units=units,
        forces=forces,
    )
    for f in view.all_forces():
        f.sheet_roster = dataclasses.replace(view, units=f.units, forces=[])
    return view


def _force_view(
    ev: Evaluation, builder: _Builder, node: Node, issues: list[IssueView]
) -> ForceView:
    path = format_loc(node.loc)
    totals = ev.total_cost(node)
    return ForceView(
        title=clean_name(force_title(ev, node)),
        path=path,
        depth=sum(1 for a in node.ancestors() if a.force is not None),
        totals=[
            CostView(ct.id, ct.name, ct.unit, totals.get(ct.id, 0.0), None)
            for ct in ev.index.cost_types.values()
            if not ct.hidden
        ],
        errors=[
            i
            for i in issues
            if i.is_error and (i.path == path or i.path.startswith((path + ".", path + "[")))
        ],
        units=[builder.unit(c, None) for c in node.children if c.force is None],
        forces=[_force_view(ev, builder, c, issues) for c in node.children if c.force is not None],
    )
