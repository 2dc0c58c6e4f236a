"""The catalog models in the engine's form: plain Python objects, no pydantic.

:mod:`armybuilder.model.catalog` checks a catalog file with pydantic and words every refusal;
the engine only reads the checked values (``entry.costs``, ``constraint.scope``...). The library
snapshot (:mod:`armybuilder.libcache`) therefore keeps a checked catalog as objects of the
classes here: the same class names, fields, defaults and values as the pydantic models, frozen
like them, but loaded without pydantic (a warm ``armybuilder validate`` neither imports it nor
builds its validators). ``tests/unit/test_plain_models.py`` keeps the two in step.

Code that reads a catalog works on either form: it reads attributes, tells the kinds apart with
:func:`is_entry`, :func:`is_link`, :func:`is_group`... (not ``isinstance`` against the pydantic
classes) and copies with ``model_copy(update=...)``. For a type checker the names here are the
pydantic classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from .catalog import (
        Category,
        CategorySlot,
        Characteristic,
        Condition,
        ConditionGroup,
        Constraint,
        CostType,
        CustomCatalog,
        Entry,
        EntryLink,
        ExperienceLevel,
        FactionFile,
        ForceEntry,
        Group,
        Modifier,
        Profile,
        ProfileType,
        Repeat,
        Rule,
        StandardSelection,
        SystemFile,
    )

#: The modifier fields that raise a message of the catalog's own on a selection (a modifier
#: of type ``add`` whose value is the text, when its conditions hold), named by the issue's
#: severity:
#: ``error`` makes the roster illegal, ``warning`` flags it, ``note`` only shows.
MESSAGE_FIELDS = ("error", "warning", "note")

#: Each model's fields in order, ``name`` (required) or ``name=default`` (``[]`` and ``{}``
#: give each object its own new list or mapping), as in :mod:`armybuilder.model.catalog`.
SPECS: dict[str, str] = {
    "CostType": "id name unit='' default_limit=None hidden=False",
    "Characteristic": "id name description=''",
    "ProfileType": "id name characteristics",
    "Category": "id name description='' source=''",
    "Rule": "id name description='' source=''",
    "Profile": "type name='' characteristics id=None hidden=False",
    "Condition": "type value=0 field='selections' scope='self' child=None deep=True "
    "child_forces=False percent=False per_link=False",
    "ConditionGroup": "type='and' conditions=[] groups=[]",
    "Repeat": "value=1 repeats=1 field='selections' scope='self' child=None deep=True "
    "child_forces=False percent=False per_link=False round_up=False",
    "Modifier": "type field value find='' conditions=[] groups=[] repeat=None repeats=[] "
    "separator='' position=None scope='self' reach='self' child=None profile_type=None "
    "source=''",
    "Constraint": "id=None type value field='selections' scope='parent' child=None deep=None "
    "child_forces=False percent=False per_link=False severity='error' message='' source=''",
    "CategorySlot": "category min=0 max=None severity='error' source=''",
    "ForceEntry": "id name description='' slots=[] constraints=[] hidden=False modifiers=[] "
    "source=''",
    "ExperienceLevel": "id name description='' data={} source=''",
    "EntryLink": "link id=None name=None hidden=None costs=None categories=None constraints=[] "
    "modifiers=[]",
    "Group": "id name min=0 max=None default=None default_count=1 entries=[] groups=[] "
    "severity='error' description='' source='' hidden=False modifiers=[] constraints=[]",
    "StandardSelection": "entry count=1 name=None selections=None",
    "Entry": "id name type='upgrade' description='' source='' hidden=False categories=[] "
    "primary_category=None costs={} profiles=[] rules=[] constraints=[] modifiers=[] "
    "entries=[] groups=[] experience=False max_count=None standard=[] data={}",
    "SystemFile": "kind id name version='1' description='' source='' module=None "
    "cost_types=[] profile_types=[] categories=[] forces=[] experience=[] "
    "default_experience=None rules=[] entries=[] shared_entries=[] data={}",
    "FactionFile": "kind id system name extends=None version='1' description='' source='' "
    "categories=[] rules=[] entries=[] shared_entries=[] data={}",
    "CustomCatalog": "categories=[] rules=[] entries=[] shared_entries=[]",
}


def profile_hidden_field(profile_id: str) -> str:
    """The modifier field that hides or shows one profile of an entry (docs/catalog-format.md,
    "Modifiers")."""
    return f"profile:{profile_id}:hidden"


def profile_name_field(profile_id: str) -> str:
    """The modifier field of one profile's name as an entry shows it (the BattleScribe
    translation's: a shared "Crewmember" stat line named "Commander" on the commander)."""
    return f"profile:{profile_id}:name"


def rule_field(rule_id: str, part: str) -> str:
    """The modifier field of a rule's ``name`` or ``description`` as one entry shows it (the
    BattleScribe translation's: "Deadly Demise" with ``D6`` appended on a tank)."""
    return f"rule:{rule_id}:{part}"


def reaches(mod: Modifier) -> bool:
    """Whether a modifier changes other selections than its own (its ``scope`` or ``reach``:
    see docs/catalog-format.md, "Modifiers that reach other selections")."""
    return mod.scope != "self" or mod.reach != "self"


_REQUIRED = object()
_NEW_LIST = object()
_NEW_DICT = object()


def parse_spec(spec: str) -> tuple[tuple[str, Any], ...]:
    """``(name, default)`` pairs of a spec (the default is ``REQUIRED``, ``NEW_LIST``,
    ``NEW_DICT`` or a value)."""
    out: list[tuple[str, Any]] = []
    for word in spec.split():
        name, eq, text = word.partition("=")
        if not eq:
            out.append((name, _REQUIRED))
        elif text == "[]":
            out.append((name, _NEW_LIST))
        elif text == "{}":
            out.append((name, _NEW_DICT))
        elif text[:1] == "'":
            out.append((name, text[1:-1]))
        else:
            consts = {"None": None, "True": True, "False": False}
            out.append((name, consts[text] if text in consts else int(text)))
    return tuple(out)


REQUIRED, NEW_LIST, NEW_DICT = _REQUIRED, _NEW_LIST, _NEW_DICT


class Plain:
    """A frozen record with the fields of one catalog model (see :data:`SPECS`)."""

    _fields: tuple[tuple[str, Any], ...] = ()

    def __init__(self, **values: Any) -> None:
        state: dict[str, Any] = {}
        for name, default in self._fields:
            if name in values:
                state[name] = values.pop(name)
            elif default is _REQUIRED:
                raise TypeError(f"{type(self).__name__}: {name} is required")
            elif default is _NEW_LIST:
                state[name] = []
            elif default is _NEW_DICT:
                state[name] = {}
            else:
                state[name] = default
        if values:
            raise TypeError(f"{type(self).__name__}: no field {next(iter(values))!r}")
        object.__setattr__(self, "__dict__", state)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self.__dict__.values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({inner})"

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        """A copy with some fields changed (as pydantic's ``model_copy``: not checked)."""
        new = object.__new__(type(self))
        state = dict(self.__dict__)
        if deep:
            import copy

            state = copy.deepcopy(state)
        if update:
            state.update(update)
        object.__setattr__(new, "__dict__", state)
        return new

    def model_dump(self) -> dict[str, Any]:
        """The fields as plain data (nested records as mappings)."""
        return {k: _dump(v) for k, v in self.__dict__.items()}


def _dump(value: Any) -> Any:
    if isinstance(value, Plain):
        return value.model_dump()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


CLASSES: dict[str, type[Plain]] = {
    name: type(name, (Plain,), {"_fields": parse_spec(spec), "__module__": __name__})
    for name, spec in SPECS.items()
}

if not TYPE_CHECKING:
    CostType = CLASSES["CostType"]
    Characteristic = CLASSES["Characteristic"]
    ProfileType = CLASSES["ProfileType"]
    Category = CLASSES["Category"]
    Rule = CLASSES["Rule"]
    Profile = CLASSES["Profile"]
    Condition = CLASSES["Condition"]
    ConditionGroup = CLASSES["ConditionGroup"]
    Repeat = CLASSES["Repeat"]
    Modifier = CLASSES["Modifier"]
    Constraint = CLASSES["Constraint"]
    CategorySlot = CLASSES["CategorySlot"]
    ForceEntry = CLASSES["ForceEntry"]
    ExperienceLevel = CLASSES["ExperienceLevel"]
    EntryLink = CLASSES["EntryLink"]
    Group = CLASSES["Group"]
    StandardSelection = CLASSES["StandardSelection"]
    Entry = CLASSES["Entry"]
    SystemFile = CLASSES["SystemFile"]
    FactionFile = CLASSES["FactionFile"]
    CustomCatalog = CLASSES["CustomCatalog"]

__all__ = [
    "Category",
    "CategorySlot",
    "Characteristic",
    "Condition",
    "ConditionGroup",
    "Constraint",
    "CostType",
    "CustomCatalog",
    "Entry",
    "EntryLink",
    "ExperienceLevel",
    "FactionFile",
    "ForceEntry",
    "Group",
    "Modifier",
    "Profile",
    "ProfileType",
    "Repeat",
    "Rule",
    "StandardSelection",
    "SystemFile",
]


# --------------------------------------------------------------------------- either form


def is_entry(item: object) -> TypeIs[Entry]:
    """Whether ``item`` is an entry (pydantic or plain)."""
    return type(item).__name__ == "Entry"


def is_link(item: object) -> TypeIs[EntryLink]:
    """Whether ``item`` is a link to a shared entry (pydantic or plain)."""
    return type(item).__name__ == "EntryLink"


def is_group(item: object) -> TypeIs[Group]:
    """Whether ``item`` is a group (pydantic or plain)."""
    return type(item).__name__ == "Group"


def is_system_file(item: object) -> TypeIs[SystemFile]:
    """Whether ``item`` is a game system's file (pydantic or plain)."""
    return type(item).__name__ == "SystemFile"


def is_faction_file(item: object) -> TypeIs[FactionFile]:
    """Whether ``item`` is a faction's file (pydantic or plain)."""
    return type(item).__name__ == "FactionFile"


# --------------------------------------------------------------------------- conversion


def to_plain(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """``value`` with every checked catalog model in it (pydantic) made a plain record of the
    same class name, lists and mappings copied, anything else kept. Objects met twice stay
    one object. Raises ``TypeError`` for a model of another class (nothing here to hold it)."""
    if memo is None:
        memo = {}
    found = memo.get(id(value))
    if found is not None:
        return found
    if isinstance(value, list):
        out: Any = [to_plain(v, memo) for v in value]
    elif isinstance(value, dict):
        out = {k: to_plain(v, memo) for k, v in value.items()}
    elif isinstance(value, str | int | float | bool | type(None) | Plain):
        return value
    else:
        cls = CLASSES.get(type(value).__name__)
        fields = getattr(type(value), "model_fields", None)
        if cls is None or fields is None or tuple(fields) != tuple(n for n, _ in cls._fields):
            raise TypeError(f"no plain form for {type(value).__qualname__}")
        if getattr(value, "__pydantic_extra__", None):
            raise TypeError(f"{type(value).__qualname__} with extra fields")
        out = object.__new__(cls)
        memo[id(value)] = out
        object.__setattr__(
            out, "__dict__", {name: to_plain(getattr(value, name), memo) for name in fields}
        )
        return out
    memo[id(value)] = out
    return out


def is_plain(value: object) -> bool:
    """Whether ``value`` is a record of the engine's form (not a pydantic model)."""
    return isinstance(value, Plain)


def to_pydantic(value: Any, memo: dict[int, Any] | None = None) -> Any:
    """The reverse of :func:`to_plain`: every plain record in ``value`` made the pydantic model
    of its class name again, built from its (already checked) values without checking them
    again (``model_construct``). For code that tells the kinds apart with ``isinstance``
    against the pydantic classes (a rules module's own catalog checks)."""
    from . import catalog

    if memo is None:
        memo = {}
    found = memo.get(id(value))
    if found is not None:
        return found
    if isinstance(value, Plain):
        cls = getattr(catalog, type(value).__name__)
        out = cls.model_construct(**{k: to_pydantic(v, memo) for k, v in value.__dict__.items()})
    elif isinstance(value, list):
        out = [to_pydantic(v, memo) for v in value]
    elif isinstance(value, dict):
        out = {k: to_pydantic(v, memo) for k, v in value.items()}
    else:
        return value
    memo[id(value)] = out
    return out
