"""Units defined by the player: a draft of an entry for a roster's ``custom:`` list, checked
as it is typed by the same code that checks a catalog (the system's own profile parser
included), and added as one undoable edit.

A unit can also go into a file of the user's catalog folder (:func:`write_to_file`): a file
extending the roster's faction, created when missing, the entry appended with the file's own
comments and layout kept, written atomically. Every roster of that faction then has it.

The builder's form (:mod:`armybuilder.tui.screens.unitform`) is a thin view of this module; a
script can use it the same way. Nothing here imports Textual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model.catalog import ProfileType
    from .session import EditSession


@dataclass
class Draft:
    """What the form holds: every field as typed (text), turned into an entry by
    :meth:`entry`."""

    name: str = ""
    type: str = "model"
    categories: str = ""
    profile_type: str = ""
    #: Whether each selection of it records an experience level.
    experience: bool = False
    characteristics: dict[str, str] = field(default_factory=dict)
    costs: dict[str, str] = field(default_factory=dict)
    #: Where it goes: a catalog file of the user's folder, or ``None`` for the roster's
    #: ``custom:`` list.
    target: Path | None = None
    #: The unit's own options, one choice per line (see :func:`parse_options`).
    options: str = ""
    #: The catalog's entries an option may name (its id or name, case ignored, to the id):
    #: those are linked as they are; :func:`known_entries` gives them for a session.
    known: dict[str, str] = field(default_factory=dict)
    #: The cost type a ``+N`` of an option is in.
    option_cost: str = ""

    def entry(self, entry_id: str) -> dict[str, Any]:
        """The entry as the roster's ``custom: entries:`` list will hold it."""
        out: dict[str, Any] = {"id": entry_id, "name": self.name.strip(), "type": self.type}
        cats = [c.strip() for c in self.categories.split(",") if c.strip()]
        if cats:
            out["categories"] = cats
        if self.experience:
            out["experience"] = True
        costs: dict[str, Any] = {}
        for ct, text in self.costs.items():
            if text.strip():
                costs[ct] = _number(text.strip())
        if costs:
            out["costs"] = costs
        chars = {k: _scalar(v.strip()) for k, v in self.characteristics.items() if v.strip()}
        if self.profile_type:
            out["profiles"] = [{"type": self.profile_type, "characteristics": chars}]
        groups, _ = parse_options(self.options, entry_id, self.known, self.option_cost)
        if groups:
            out["groups"] = groups
        return out


#: ``Name [min-max]: option, option +N, ...`` (the bracket is optional).
_OPTION_LINE = re.compile(r"^(?P<name>[^:\[\]]+?)\s*(?:\[(?P<range>[^\]]*)\])?\s*:(?P<rest>.*)$")
_OPTION = re.compile(r"^(?P<name>.+?)(?:\s+\+\s*(?P<cost>\S+))?$")


def parse_options(
    text: str, entry_id: str, known: dict[str, str], cost_type: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """A unit's own options as catalog groups, and what is wrong with the text.

    One choice per line: ``Weapon: Rifle, Cannon`` (take exactly one; the first is the
    default, added with the unit) or ``Kit [0-2]: Medkit +3, Jump pack +5`` (between 0 and 2,
    none added at first; ``[1-]``: at least one, no maximum). An option that names an entry
    of the catalog (by id or name) is a link to it, at its own cost; any other is a new
    upgrade of that name, costing ``+N`` in ``cost_type`` when given. Blank lines and lines
    starting with ``#`` are skipped."""
    groups: list[dict[str, Any]] = []
    problems: list[str] = []
    seen_groups: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _OPTION_LINE.match(line)
        if m is None:
            problems.append(
                f"line {number}: write a choice as 'Name: option, option' (or 'Name [0-2]: ...')"
            )
            continue
        name = m["name"].strip()
        low, high = 1, 1
        if m["range"] is not None:
            bounds = _bounds(m["range"])
            if bounds is None:
                problems.append(
                    f"line {number}: {m['range']!r} is not a range such as 0-2, 1-1 or 1-"
                )
                continue
            low, high_or_none = bounds
            high = high_or_none if high_or_none is not None else -1
        gid = f"{entry_id}-{slug(name)}"
        if gid in seen_groups:
            problems.append(f"line {number}: a second choice named {name!r}")
            continue
        seen_groups.add(gid)
        entries: list[dict[str, Any]] = []
        ids: list[str] = []
        said = len(problems)
        for part in (p.strip() for p in m["rest"].split(",")):
            if not part:
                continue
            o = _OPTION.match(part)
            assert o is not None  # (a non-empty part always matches)
            option, cost = o["name"].strip(), o["cost"]
            linked = known.get(" ".join(option.split()).casefold())
            if linked is not None and cost is None:
                entries.append({"link": linked})
                ids.append(linked)
                continue
            option_id = f"{entry_id}-{slug(option)}"
            if option_id in ids:
                problems.append(f"line {number}: {option!r} twice")
                continue
            new: dict[str, Any] = {"id": option_id, "name": option, "type": "upgrade"}
            if cost is not None:
                value = _number(cost)
                if not isinstance(value, int | float) or not cost_type:
                    problems.append(
                        f"line {number}: the cost of {option!r}, {cost!r}, is not a number"
                    )
                    continue
                new["costs"] = {cost_type: value}
            entries.append(new)
            ids.append(option_id)
        if len(problems) > said:
            continue
        if not entries:
            problems.append(f"line {number}: {name!r} has no options after its ':'")
            continue
        if high >= 0 and low > high:
            problems.append(f"line {number}: at least {low} but at most {high}")
            continue
        group: dict[str, Any] = {"id": gid, "name": name, "min": low}
        if high >= 0:
            group["max"] = high
        if low >= 1:
            group["default"] = ids[0]
        group["entries"] = entries
        groups.append(group)
    return groups, problems


def _bounds(text: str) -> tuple[int, int | None] | None:
    m = re.fullmatch(r"\s*(\d+)\s*-\s*(\d*)\s*", text)
    if m is None:
        return None
    return int(m[1]), (int(m[2]) if m[2] else None)


def known_entries(session: EditSession) -> dict[str, str]:
    """The catalog's shared entries (weapons, kit: what other units link to), by id and by
    name (case and spacing ignored), to their id: the options a unit may name."""
    out: dict[str, str] = {}
    for entry in session.index.shared.values():
        out.setdefault(" ".join(entry.name.split()).casefold(), entry.id)
        out[entry.id.casefold()] = entry.id
    return out


def _number(text: str) -> Any:
    try:
        value = float(text)
    except ValueError:
        return text  # kept as typed: the check says what is wrong with it
    return int(value) if value.is_integer() else value


def _scalar(text: str) -> Any:
    """A characteristic as a catalog file would hold it: whole numbers as numbers, the rest
    as text (``+1`` stays text: the system's parser reads signs)."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"


def new_id(session: EditSession, name: str) -> str:
    """An id for a new entry named ``name`` that no entry of the catalog or roster has."""
    index = session.index
    base = f"my-{slug(name)}"
    taken = set(index.entries) | set(index.shared) | set(_custom_ids(session))
    entry_id, n = base, 2
    while entry_id in taken:
        entry_id, n = f"{base}-{n}", n + 1
    return entry_id


def _custom(session: EditSession) -> dict[str, Any]:
    from .yamlio import to_plain

    raw = to_plain(session.node(()).get("custom"))
    return dict(raw) if isinstance(raw, dict) else {}


def _custom_ids(session: EditSession) -> list[str]:
    custom = _custom(session)
    return [
        str(item.get("id"))
        for key in ("entries", "shared_entries")
        for item in custom.get(key) or []
        if isinstance(item, dict) and item.get("id")
    ]


def profile_types(session: EditSession) -> dict[str, ProfileType]:
    """The stat lines this system knows (soldier, vehicle, weapon...), by id."""
    return dict(session.index.profile_types)


def with_draft(session: EditSession, entry: dict[str, Any]) -> dict[str, Any]:
    """The roster's ``custom:`` with ``entry`` added at the end of its ``entries``."""
    custom = _custom(session)
    entries = list(custom.get("entries") or [])
    entries.append(entry)
    custom["entries"] = entries
    return custom


def check(session: EditSession, draft: Draft) -> list[tuple[str, str]]:
    """What is wrong with the draft, as (field, message): ``field`` is ``name``, ``type``,
    ``categories``, ``cost:<id>``, a characteristic's id, or ``""`` for the entry as a whole.
    The checks are those a catalog file gets, the game system's own included."""
    from .catalog import custom_catalog

    problems: list[tuple[str, str]] = []
    if not draft.name.strip():
        problems.append(("name", "a unit needs a name"))
    for ct, text in draft.costs.items():
        if text.strip() and not isinstance(_number(text.strip()), int | float):
            problems.append((f"cost:{ct}", f"{text.strip()!r} is not a number"))
    entry_id = new_id(session, draft.name or "unit")
    _, wrong = parse_options(draft.options, entry_id, draft.known, draft.option_cost)
    problems.extend(("options", message) for message in wrong)
    entry = draft.entry(entry_id)
    custom = with_draft(session, entry)
    position = len(custom["entries"]) - 1
    here = session.path or Path("roster.yaml")
    _, found = custom_catalog(custom, here, session.system, session.roster.faction)
    for loc, message in found:
        if loc[:2] != ["entries", position]:
            continue  # about the roster's other custom entries, not this one
        message = _plain(message, entry["name"])
        where = _field_of(loc[2:], draft)
        first = message.split(" ", 1)[0]
        if not where and first in draft.characteristics:
            where = first  # "morale should be a whole number"
        if where.startswith("cost:") and any(w == where for w, _ in problems):
            continue  # said above, in the form's own words
        problems.append((where, message))
    return problems


def _field_of(loc: list[str | int], draft: Draft) -> str:
    if not loc:
        return ""
    head = loc[0]
    if head == "groups":
        return "options"
    if head == "profiles":
        for part in reversed(loc):
            if isinstance(part, str) and part in draft.characteristics:
                return part
        return ""
    if head == "costs" and len(loc) > 1:
        return f"cost:{loc[1]}"
    return str(head) if head in {"name", "type", "categories"} else ""


def _plain(message: str, name: str) -> str:
    """A check's message without the entry's name in front (the form is about it)."""
    prefix = f"{name}: "
    return message[len(prefix) :] if name and message.startswith(prefix) else message


def add(session: EditSession, draft: Draft) -> str:
    """Add the draft to the roster's ``custom:`` entries (one undoable step); returns its id.
    Refused (:class:`~armybuilder.session.EditError`) while the draft has problems."""
    from .session import EditError, SetKey

    problems = check(session, draft)
    if problems:
        where, message = problems[0]
        raise EditError(f"{where + ': ' if where else ''}{message}")
    entry_id = new_id(session, draft.name)
    custom = with_draft(session, draft.entry(entry_id))
    session.apply(f"Define {draft.name.strip()}", [SetKey((), "custom", custom)], (), ())
    return entry_id


# --------------------------------------------------------------------- user catalog files


def _head_fields(path: Path) -> dict[str, str]:
    """The top-level ``kind:``, ``id:``, ``system:`` and ``extends:`` of a catalog file."""
    try:
        with path.open("rb") as f:
            head = f.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return {}
    return {
        m.group(1): m.group(2)
        for m in re.finditer(
            r"(?m)^(kind|id|system|extends):[ \t]*['\"]?([A-Za-z0-9_-]+)['\"]?[ \t]*(?:#.*)?$",
            head,
        )
    }


def user_files(system_id: str, faction_id: str) -> list[Path]:
    """The files of the user's catalog folder a unit of this faction can go into: those that
    extend the faction, and the faction's own file when it lives there."""
    from .paths import user_catalog_dir

    folder = user_catalog_dir() / system_id
    out = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        head = _head_fields(path)
        if head.get("system") != system_id:
            continue
        if head.get("extends") == faction_id or (
            "extends" not in head and head.get("id") == faction_id and head.get("kind") != "system"
        ):
            out.append(path)
    return out


def new_user_file(system_id: str, faction_id: str) -> Path:
    """Where a first file of the player's own units of this faction goes."""
    from .paths import user_catalog_dir

    return user_catalog_dir() / system_id / f"my-{faction_id}.yaml"


def _new_file_doc(session: EditSession, path: Path) -> Any:
    from ruamel.yaml.comments import CommentedMap

    faction_name = session.index.faction.name
    doc = CommentedMap()
    doc["kind"] = "catalog"
    doc["id"] = path.stem
    doc["system"] = session.roster.system
    doc["extends"] = session.roster.faction
    doc["name"] = f"My {faction_name} units"
    doc["entries"] = []
    doc.yaml_set_start_comment(
        "Units defined in armybuilder's unit form (u). Edit freely: comments are kept, and\n"
        "the builder reads this file again when it changes."
    )
    return doc


def write_to_file(session: EditSession, draft: Draft, path: Path) -> str:
    """Append the draft as an entry of the catalog file ``path`` (created with its folder
    when missing; the file's comments and layout kept; written atomically). Returns the
    entry's id. Raises :class:`~armybuilder.session.EditError` while the draft has problems
    or when the file is not a catalog that extends this roster's faction, and
    :class:`~armybuilder.errors.OutputError` when it cannot be written."""
    from .fileio import atomic_write
    from .session import EditError
    from .yamlio import dump_round_trip, load_round_trip, read_text

    problems = check(session, draft)
    if problems:
        where, message = problems[0]
        raise EditError(f"{where + ': ' if where else ''}{message}")
    entry_id = new_id(session, draft.name)
    if path.exists():
        from .errors import InputError

        try:
            text = read_text(path)
            doc = load_round_trip(text, str(path))
        except (InputError, OSError) as exc:
            raise EditError(f"{path}: cannot be read ({exc}); nothing was written") from None
        if not hasattr(doc, "get") or doc.get("system") != session.roster.system:
            raise EditError(
                f"{path} is not a catalog of {session.roster.system}; nothing was written"
            )
        if doc.get("extends", doc.get("id")) != session.roster.faction:
            raise EditError(f"{path} does not extend {session.roster.faction}; nothing was written")
        taken = {
            str(e.get("id"))
            for e in (doc.get("entries") or []) + (doc.get("shared_entries") or [])
            if hasattr(e, "get")
        }
        base, n = entry_id, 2
        while entry_id in taken:
            entry_id, n = f"{base}-{n}", n + 1
        entries = doc.get("entries")
        if entries is None:
            from ruamel.yaml.comments import CommentedSeq

            entries = CommentedSeq()
            doc["entries"] = entries
        entries.append(draft.entry(entry_id))
        newline = "\r\n" if "\r\n" in text else "\n"
    else:
        doc = _new_file_doc(session, path)
        doc["entries"].append(draft.entry(entry_id))
        newline = "\n"
    out = dump_round_trip(doc)
    if newline != "\n":
        out = out.replace("\n", newline)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, out)
    return entry_id
