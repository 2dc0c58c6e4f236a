"""BattleScribe data folders in the catalog library.

A folder holding a game system (``.gst`` / ``.gstz``) and its catalogues (``.cat`` / ``.catz``),
as BSData repositories lay them out, is one game system of the library: each catalogue is a
faction. Scanning only reads each file's head (ids, names, links); a catalogue is parsed and
translated (:mod:`.translate`) the first time it is used, together with the game system and
every catalogue it links to, and the result is cached (keyed by the files' sizes and times).

Errors in the data (a link to an id no loaded file defines) are reported with the file, the
line and the element; the rest still loads.
"""

from __future__ import annotations

import gc
import hashlib
import html
import json
import math
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.parsers.expat import ExpatError

from ... import __version__
from ...catalog import CatalogIndex, Faction, GameSystem
from ...errors import CatalogError, Problem, UnknownFactionError
from ...libcache import stamp
from ...model.catalog import CostType, FactionFile, SystemFile
from ...paths import user_cache_dir
from . import cachefile, checking
from . import model as bs
from .files import _convert, _tag, _Unusual, read_noting
from .safe import UnsafeFileError, check_depth, decode, parse, prepared, read_bytes
from .translate import IdMap, Translation, slug

SYSTEM_SUFFIXES = (".gst", ".gstz")
CATALOGUE_SUFFIXES = (".cat", ".catz")
# 10: profiles that can be hidden keep id, hidden; 11: a group keeps the modifiers of its min /
# max; 12: profiles a modifier renames keep their id; 13: a group keeps its constraints on a
# cost (and the modifiers of their values); 14: a link to nothing is left out, costs in a cost
# type no file defines are left out when 0, a catalogue's cost types get readable ids; 15: a
# group's modifiers query its `parent` as the selection holding it; 16: a group's default that
# is not one of its entries is dropped (17: as 16, whose first build also moved a profile's
# `parent`, undone); 18: a file's head keeps its root's `library` flag
_CACHE_FORMAT = f"{__version__}-bs18"

_ROOT = re.compile(r"<(gameSystem|catalogue)\b([^>]*)>", re.S)
_ATTR = re.compile(r'\b([A-Za-z]+)="([^"]*)"')
_LINK = re.compile(r'<catalogueLink\b[^>]*?\btargetId="([^"]+)"')
_COST_TYPES = re.compile(r"<costTypes\b[^>]*>(.*?)</costTypes>", re.S)
_COST_TYPE = re.compile(r"<costType\b([^>]*?)/?>")


@dataclass(frozen=True)
class HeadCostType:
    """A cost type a game system file declares, as its head gives it."""

    id: str
    name: str
    hidden: bool = False
    #: ``defaultCostLimit``: the limit a new roster starts with (below 0: none).
    default_limit: float = -1.0


@dataclass
class DataFile:
    """What a scan learns of one data file from its head."""

    path: Path
    kind: str  # "gameSystem" | "catalogue"
    id: str
    name: str
    game_system_id: str
    links: list[str]
    text: str | None = None  # kept when the file had to be unzipped to be scanned
    #: ``library="true"`` on the root: a catalogue other catalogues link to for shared
    #: entries, which BattleScribe does not offer as a roster's (or a force's) catalogue.
    library: bool = False
    #: A game system's cost types, in the file's order (a catalogue's are not read here).
    cost_types: list[HeadCostType] = field(default_factory=list)

    def read_text(self) -> str:
        if self.text is not None:
            return self.text
        return decode(read_bytes(self.path), str(self.path))


def head(path: Path) -> DataFile:
    """Read a data file's root element and catalogue links (raises UnsafeFileError)."""
    zipped = path.suffix.lower().endswith("z")
    text = decode(read_bytes(path), str(path))
    found = _ROOT.search(text, 0, 20000)
    if found is None:
        raise UnsafeFileError(f"{path}: not a BattleScribe game system or catalogue")
    attrs: dict[str, str] = dict(_ATTR.findall(found.group(2)))
    if "id" not in attrs:
        raise UnsafeFileError(f"{path}: its <{found.group(1)}> has no id")
    return DataFile(
        path,
        found.group(1),
        attrs["id"],
        attrs.get("name") or path.stem,
        attrs.get("gameSystemId") or attrs["id"],
        _LINK.findall(text),
        text if zipped else None,
        attrs.get("library", "").strip().lower() in ("true", "1"),
        _cost_types(text, found.end()) if found.group(1) == "gameSystem" else [],
    )


def _cost_types(text: str, start: int) -> list[HeadCostType]:
    """The cost types of a game system's text: its first ``<costTypes>`` element (the root's,
    before the catalogue's entries)."""
    block = _COST_TYPES.search(text, start)
    if block is None:
        return []
    out: list[HeadCostType] = []
    for found in _COST_TYPE.finditer(block.group(1)):
        attrs = {k: html.unescape(v) for k, v in _ATTR.findall(found.group(1))}
        if not attrs.get("id"):
            continue
        try:
            limit = float(attrs.get("defaultCostLimit", "-1"))
        except ValueError:
            limit = -1.0
        out.append(
            HeadCostType(
                attrs["id"],
                attrs.get("name") or "",
                attrs.get("hidden", "").strip().lower() in ("true", "1"),
                limit if math.isfinite(limit) else -1.0,
            )
        )
    return out


@contextmanager
def _no_gc() -> Iterator[None]:
    """Without the cyclic garbage collector: reading a catalogue makes some hundred thousand
    objects and nothing to collect, and the collector's passes over them took most of the
    time (a warm load of Space Marines: 0.9 s of unpickling with it, 0.3 s without)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            # What was made stays for the process: the collector need not look at it again.
            gc.freeze()
            gc.enable()


#: The last loads in this process, by cache key: a second library of the same folder (each
#: command run in one process, a builder opening another roster) shares them.
_RECENT: dict[str, tuple[SystemFile, list[FactionFile], list[Problem], Translation | None]] = {}
_RECENT_KEPT = 3


def _remember(
    key: str, value: tuple[SystemFile, list[FactionFile], list[Problem], Translation | None]
) -> None:
    _RECENT.pop(key, None)
    _RECENT[key] = value
    while len(_RECENT) > _RECENT_KEPT:
        del _RECENT[next(iter(_RECENT))]


def _line_of(text: str, element_id: str) -> int | None:
    at = text.find(f'id="{element_id}"')
    return None if at < 0 else text.count("\n", 0, at) + 1


@dataclass
class BattleScribeSystem(GameSystem):
    """A BSData folder as a game system; catalogues are translated when first used."""

    folder: Path = field(default_factory=Path)
    files: dict[str, DataFile] = field(default_factory=dict)  # catalogue id -> file
    system_file: DataFile | None = None
    use_cache: bool = True
    translation: Translation | None = field(default=None, repr=False)
    _loaded: set[str] = field(default_factory=set, repr=False)
    _bs_ids: dict[str, str] = field(default_factory=dict, repr=False)  # our faction id -> bs id

    def faction(self, faction_id: str) -> Faction:
        self._ensure(faction_id)
        return super().faction(faction_id)

    def kept_form(self) -> GameSystem:
        """This system as its folder's scan left it, for the library snapshot (a command
        after the first reads the folder's heads from there instead of scanning it; the
        snapshot's key has each file's name, size and time, and armybuilder's code). A
        zipped file's text is left out (read again when a catalogue is loaded). Raises
        ``TypeError`` once a catalogue was loaded (the snapshot is taken before)."""
        if self._loaded or self.translation is not None:
            raise TypeError(f"{self.name}: catalogues loaded already; kept as scanned only")
        files = {cid: replace(f, text=None) for cid, f in self.files.items()}
        gst = replace(self.system_file, text=None) if self.system_file else None
        return replace(self, files=files, system_file=gst, _indexes={})

    def index(self, faction_id: str) -> CatalogIndex:
        with _no_gc():
            self._ensure(faction_id)
            return super().index(faction_id)

    def _ensure(self, faction_id: str) -> None:
        bs_id = self._bs_ids.get(faction_id)
        if bs_id is None:
            known = ", ".join(sorted(self._bs_ids)) or "none"
            raise UnknownFactionError(
                f"{self.name} has no catalogue {faction_id!r} (installed: {known})"
            )
        if bs_id in self._loaded:
            return
        self.load({*self._loaded, bs_id})

    def wanted(self, catalogue_ids: set[str]) -> list[DataFile]:
        """These catalogues and every one they link to, transitively."""
        out: list[str] = []
        todo = sorted(catalogue_ids)
        while todo:
            cid = todo.pop()
            if cid in out or cid not in self.files:
                continue
            out.append(cid)
            todo.extend(self.files[cid].links)
        return [self.files[c] for c in out]

    def load(self, catalogue_ids: set[str]) -> None:
        """Parse and translate the game system with these catalogues (and their links)."""
        with _no_gc():
            self._load(catalogue_ids)

    def _load(self, catalogue_ids: set[str]) -> None:
        assert self.system_file is not None
        cats = self.wanted(catalogue_ids)
        files = [self.system_file, *cats]
        key = self._cache_key(files)
        recent = _RECENT.get(key) if self.use_cache and key else None
        cached = self._read_cache(key) if self.use_cache and recent is None else None
        made: Translation | None = None  # the translation of exactly these files
        if recent is not None:
            model, factions, problems, made = recent
            if made is not None:
                self.translation = made
        elif cached is not None:
            model, factions, problems = cached
        else:
            model, factions, problems = self._translate(files)
            made = self.translation
            if self.use_cache:
                self._write_cache(key, (model, factions, problems))
        if self.use_cache and key:
            _remember(key, (model, factions, problems, made))
        if self.use_cache:
            _record_counts(files, problems)
        self.model = model
        # A value the data's model refused left its element out: whatever uses the file it
        # is in reports it (as a left-out extension is reported), never a silent gap. Each
        # catalogue gets those of its own file, of the catalogues it links to, and of the
        # game system file, not those of the other catalogues loaded with it.
        left_out = [p for p in problems if p.code == DATA_VALUE]
        for ff in factions:
            bs_id = self._bs_ids.get(ff.id)
            used = {str(self.system_file.path)}
            used.update(str(f.path) for f in self.wanted({bs_id} if bs_id else set()))
            if bs_id is None:  # (not a catalogue of the folder: every problem, to be safe)
                used.update(p.file for p in left_out)
            mine = [p for p in left_out if p.file in used]
            was = self.factions.get(ff.id)
            self.factions[ff.id] = Faction(
                self._path_of(ff.id), ff, dropped=mine, library=was is not None and was.library
            )
        for p in problems:
            if p not in self.problems:
                self.problems.append(p)
        self._loaded.update(c.id for c in cats)
        self._indexes.clear()

    def read_all(self) -> None:
        """Parse and translate the game system file alone (its catalogues are read with a
        faction)."""
        self.load(set(self._loaded))

    def known_data_problems(self) -> dict[str, int]:
        """Per data file (by path), the data problems (values refused, links to nothing) the
        last load that read it found, from the scan cache where the file is unchanged since
        that load."""
        if not self.use_cache:
            return {}
        heads = _Heads(True)
        out: dict[str, int] = {}
        files = [self.system_file, *self.files.values()] if self.system_file else []
        for f in files:
            got = heads.known_count(f.path)
            if got is not None:
                out[str(f.path)] = got
        return out

    def starting_selections(self, faction_id: str) -> list[dict[str, Any]]:
        """What BattleScribe chooses when a force of this catalogue is added (entries with a
        minimum at the top of the force, with what they require), less what is hidden."""
        from ...yamlio import load_safe
        from .rosfile import new_session, session_yaml

        self._ensure(faction_id)
        doc = load_safe(session_yaml(new_session(self, faction_id), self, faction_id), "<new>")
        return list(doc.get("selections") or [])

    def limit_types(self) -> list[tuple[CostType, float | None]]:
        """The game system file's cost types, read from its head (no catalogue is loaded for
        this), by the ids the translation gives them (``pts``, ``cans``), each with its
        ``defaultCostLimit`` where that is a limit (BattleScribe's New Roster dialog and its
        new rosters start from it; -1, the usual, is no limit): every shown one, and a hidden
        one that has a limit (BattleScribe applies it though the cost type is hidden; the
        dialog does not ask it, a new roster is given it)."""
        if self.system_file is None:
            return []
        loaded = {ct.id: ct for ct in self.model.cost_types}
        # (as :meth:`_translate` names them: after the system's and the catalogues' ids)
        ids = IdMap()
        for taken in (self.id, *self._bs_ids):
            ids.to_bs[taken] = taken
        out: list[tuple[CostType, float | None]] = []
        for h in self.system_file.cost_types:
            readable = slug(h.name or h.id)
            if readable not in ids.to_bs and h.id not in ids.to_ours:
                ids.to_ours[h.id] = readable
                ids.to_bs[readable] = h.id
            ours = ids.ours(h.id)
            start = h.default_limit if h.default_limit >= 0 else None
            if h.hidden and start is None:
                continue
            name = h.name.strip()
            ct = loaded.get(ours) or CostType(
                id=ours, name=name or h.id, unit=name, hidden=h.hidden
            )
            out.append((ct, start))
        return out

    def bs_id(self, faction_id: str) -> str:
        """The BattleScribe id of a catalogue, from its faction id."""
        self._ensure(faction_id)
        return self._bs_ids[faction_id]

    def faction_of(self, catalogue_id: str) -> str | None:
        """The faction id of a catalogue, from its BattleScribe id."""
        return next((f for f, c in self._bs_ids.items() if c == catalogue_id), None)

    def translation_for(self, faction_id: str) -> Translation:
        """The translation holding this catalogue, in BattleScribe's terms too (the adapter's
        view, used to read and write ``.ros`` files); made again when the load came from the
        cache, which keeps only our catalog model."""
        bs_id = self.bs_id(faction_id)
        t = self.translation
        if t is None or all(c.id != bs_id for c in t.catalogues):
            assert self.system_file is not None
            files = [self.system_file, *self.wanted({*self._loaded, bs_id})]
            key = self._cache_key(files) if self.use_cache else ""
            recent = _RECENT.get(key) if key else None
            if recent is not None and recent[3] is not None:
                self.translation = recent[3]
            else:
                with _no_gc():
                    loaded = self._translate(files)
                if key:
                    _remember(key, (*loaded, self.translation))
            t = self.translation
        assert t is not None
        return t

    def translation_of(self, faction_ids: list[str]) -> Translation:
        """One translation holding all these catalogues (a roster whose forces draw on
        several), raising UnknownFactionError for a faction the folder lacks."""
        if not faction_ids:
            raise UnknownFactionError(f"{self.name}: a roster needs a catalogue")
        for fid in faction_ids:
            self._ensure(fid)
        t = self.translation_for(faction_ids[0])
        for fid in faction_ids[1:]:
            t = self.translation_for(fid)
        wanted = {self._bs_ids[f] for f in faction_ids}
        if not wanted <= {c.id for c in t.catalogues}:  # (an older translation was at hand)
            self.translation = None
            t = self.translation_for(faction_ids[0])
        return t

    def _path_of(self, faction_id: str) -> Path:
        bs_id = self._bs_ids.get(faction_id)
        found = self.files.get(bs_id or "")
        return found.path if found else self.path

    def _translate(
        self, files: list[DataFile]
    ) -> tuple[SystemFile, list[FactionFile], list[Problem]]:
        problems: list[Problem] = []
        texts: dict[str, str] = {}
        known: set[str | None] = set()  # every id the files define
        links: list[tuple[DataFile, list[tuple[str, dict[str, str]]]]] = []
        data: list[dict[str, Any]] = []
        for f in files:
            try:
                text = f.read_text()
                converted, found = read_tree(f, text, known)
            except UnsafeFileError as exc:
                # A file whose head read well but whose body is not well-formed (or nests too
                # deep): its name, line and column, never a traceback.
                name = str(f.path)
                reason = exc.reason or str(exc).removeprefix(f"{name}: ")
                raise CatalogError(
                    Problem(name, reason, exc.line, exc.column, code="data")
                ) from None
            texts[f.id] = text
            data.append(converted)
            links.append((f, found))
        problems.extend(_dangling(links, known, texts))
        gs = _checked_file(bs.GameSystem, data[0], files[0], texts, problems)
        cats = [
            _checked_file(bs.Catalogue, c, f, texts, problems)
            for c, f in zip(data[1:], files[1:], strict=True)
        ]
        ids = IdMap()  # the system and catalogues get readable ids, the rest keep theirs
        ids.to_ours[gs.id] = self.id
        ids.to_bs[self.id] = gs.id
        for f in files[1:]:
            fid = self._ours_of(f.id)
            ids.to_ours[f.id] = fid
            ids.to_bs[fid] = f.id
        # `pts`, not a hex id, in limits a player types and totals (a catalogue may define
        # cost types of its own: "Honour Points" in Space Marines)
        for ct in [*gs.cost_types, *(ct for c in cats for ct in c.cost_types)]:
            readable = slug(ct.name or ct.id)
            if readable not in ids.to_bs and ct.id not in ids.to_ours:
                ids.to_ours[ct.id] = readable
                ids.to_bs[readable] = ct.id
        t = Translation(gs, cats, ids)
        system = t.build()
        translated = [
            *(
                (what, owner, DATA_VALUE)
                for what, owner in zip(t.problems, t.problem_ids, strict=True)
            ),
            *((what, owner, DATA_REFERENCE) for what, owner in t.reference_problems),
        ]
        for what, owner, code in translated:
            # (the file that defines the element named: the first whose text has its id)
            f = next((f for f in files if owner and f'id="{owner}"' in texts[f.id]), files[0])
            line = _line_of(texts[f.id], owner) if owner else None
            problems.append(Problem(str(f.path), what, line, None, code))
        self.translation = t
        factions = [f.model for fid, f in system.factions.items() if fid != t.all_id]
        return system.model, factions, problems

    def _ours_of(self, bs_id: str) -> str:
        for ours, theirs in self._bs_ids.items():
            if theirs == bs_id:
                return ours
        return slug(bs_id)

    # ------------------------------------------------------------------ cache

    def _cache_key(self, files: list[DataFile]) -> str:
        h = hashlib.sha256(f"{_CACHE_FORMAT}\0{cachefile.FORMAT}".encode())
        for f in files:
            try:
                st = f.path.stat()
            except OSError:
                return ""
            h.update(f"{f.path.resolve()}\0{stamp(st)}\0".encode())
        return h.hexdigest()[:32]

    def _cache_path(self, key: str) -> Path:
        return user_cache_dir() / "battlescribe" / f"{key}.pickle"

    def _read_cache(self, key: str) -> Any:
        if not key:
            return None
        try:
            data = self._cache_path(key).read_bytes()
            got = cachefile.loads(data)  # our own cache file, written below
        except Exception:
            return None
        return got if isinstance(got, tuple) and len(got) == 3 else None

    def _write_cache(self, key: str, value: Any) -> None:
        if not key:
            return
        path = self._cache_path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(cachefile.dumps(value))
            tmp.replace(path)
        except Exception:  # a cache that cannot be written only costs time
            return


#: The code of a problem with a value in the data (see :mod:`.checking`).
DATA_VALUE = "data-value"
#: The code of a link (entry, info, category or catalogue link) to something no loaded file
#: defines: the link is left out.
DATA_REFERENCE = "data-reference"


def _checked_file(
    cls: type[bs.GameSystem] | type[bs.Catalogue],
    data: dict[str, Any],
    f: DataFile,
    texts: dict[str, str],
    problems: list[Problem],
) -> Any:
    """A data file's mapping as ``cls``, leaving out each element with a value the model
    refuses (one problem each, with the file, line and element; the rest loads)."""
    root = "gameSystem" if cls is bs.GameSystem else "catalogue"
    try:
        model, found = checking.validate(cls, data, root)
    except ValueError as exc:
        problems.append(Problem(str(f.path), f"{exc}; the file is left out", code=DATA_VALUE))
        return cls(id=f.id, name=f.name)
    for p in found:
        problems.append(
            Problem(
                str(f.path),
                str(p),
                _line_of(texts[f.id], p.element_id) if p.element_id else None,
                None,
                DATA_VALUE,
            )
        )
    return model


_LINK_TAGS = {"entryLink", "infoLink", "categoryLink", "catalogueLink"}
_LINK_ENDINGS = tuple(_LINK_TAGS)


def read_tree(
    f: DataFile, text: str, ids: set[str | None]
) -> tuple[dict[str, Any], list[tuple[str, dict[str, str]]]]:
    """A data file's XML, parsed safely, as :func:`.files._convert`'s mapping, with its link
    elements (``(tag, attributes)``) in document order; adds its ids to ``ids``. The parse,
    the nesting check, the id and link collection and the conversion are one pass over the
    parser's events (:func:`.files.read_noting`; they were a parse and three walks of the
    tree); a file that pass leaves (too deep, elements in a text element, prefixed names,
    not well-formed) goes the plain way, with the same checks and messages."""
    name = str(f.path)
    ids.add(f.id)
    found: list[tuple[str, dict[str, str]]] = []
    try:
        return read_noting(prepared(text, name), ids, found, _LINK_ENDINGS), found
    except (_Unusual, ExpatError):
        pass
    root = parse(text, name, check_nesting=False)  # (raises where it is not well-formed)
    check_depth(root, name)  # (raises where it nests too deep)
    return _convert(root), _note_ids_and_links(root, ids)


def _note_ids_and_links(root: ET.Element, ids: set[str | None]) -> list[tuple[str, dict[str, str]]]:
    """Adds every id of the tree to ``ids`` (``None`` for an element without); its link
    elements as ``(tag, attributes)``, in document order (:func:`.files.read_noting` does
    both while reading)."""
    ids.update([el.get("id") for el in root.iter()])
    return [(_tag(el), el.attrib) for el in root.iter() if el.tag.endswith(_LINK_ENDINGS)]


def check_links(roots: list[tuple[DataFile, ET.Element]], texts: dict[str, str]) -> list[Problem]:
    """Links whose target no loaded file defines: one problem each, with file, line and element."""
    ids: set[str | None] = set()
    links: list[tuple[DataFile, list[tuple[str, dict[str, str]]]]] = []
    for f, root in roots:
        ids.add(f.id)
        links.append((f, _note_ids_and_links(root, ids)))
    return _dangling(links, ids, texts)


def _dangling(
    links: list[tuple[DataFile, list[tuple[str, dict[str, str]]]]],
    ids: set[str | None],
    texts: dict[str, str],
) -> list[Problem]:
    """:func:`check_links` given the files' link elements and every id they define."""
    problems: list[Problem] = []
    for f, found in links:
        # (`None in ids`: an element without an id was added as None, so no target is kept)
        for tag, el in [(t, el) for t, el in found if el.get("targetId") not in ids]:
            if tag not in _LINK_TAGS:
                continue
            target = el.get("targetId")
            if tag == "catalogueLink":
                what = f"links to catalogue {target!r}, which is not in this folder"
            else:
                what = f"points to {target!r}, which no loaded file defines; it is left out"
            own = el.get("id", "")
            problems.append(
                Problem(
                    str(f.path),
                    f"<{tag} id={own!r} name={el.get('name', '')!r}> {what}",
                    _line_of(texts[f.id], own) if own else None,
                    None,
                    DATA_REFERENCE,
                )
            )
    return problems


class _Heads:
    """What scans learnt of plain data files, by path and :func:`~armybuilder.libcache.stamp`
    (size, times, inode: an edit that keeps size and modification time is a new stamp), so a
    start reads one small file instead of every data file: 12 MB of XML for the 40k folder."""

    def __init__(self, use: bool) -> None:
        self.path = user_cache_dir() / "battlescribe" / f"heads-{_CACHE_FORMAT}.json"
        self.use = use
        self.known: dict[str, Any] = {}
        self.changed = False
        if use:
            try:
                found = json.loads(self.path.read_text(encoding="utf-8"))
                self.known = found if isinstance(found, dict) else {}
            except (OSError, ValueError):
                self.known = {}

    def head(self, path: Path) -> DataFile:
        if not self.use or path.suffix.lower().endswith("z"):
            return head(path)  # a zipped file's text is kept from its scan: read it
        try:
            st = path.stat()
        except OSError:
            return head(path)
        key, now = str(path.resolve()), stamp(st)
        got = self.known.get(key)
        if isinstance(got, dict) and got.get("stamp") == now:
            try:
                return DataFile(
                    path,
                    got["kind"],
                    got["id"],
                    got["name"],
                    got["gs"],
                    list(got["links"]),
                    library=got["library"] is True,
                    # (a head kept before cost types were: read again)
                    cost_types=[HeadCostType(*ct) for ct in got["cost_types"]],
                )
            except (KeyError, TypeError):
                pass
        info = head(path)
        self.known[key] = {
            "stamp": now,
            "kind": info.kind,
            "id": info.id,
            "name": info.name,
            "gs": info.game_system_id,
            "links": info.links,
            "library": info.library,
            "cost_types": [[c.id, c.name, c.hidden, c.default_limit] for c in info.cost_types],
        }
        self.changed = True
        return info

    def known_count(self, path: Path) -> int | None:
        """The data problems the last load found in ``path``, if it is unchanged since."""
        try:
            st = path.stat()
        except OSError:
            return None
        got = self.known.get(str(path.resolve()))
        if not isinstance(got, dict) or got.get("stamp") != stamp(st):
            return None
        count = got.get("problems")
        return count if type(count) is int else None

    def note_count(self, path: Path, count: int) -> None:
        """Keep what a load found in ``path`` (where its head is known, unchanged)."""
        try:
            st = path.stat()
        except OSError:
            return
        got = self.known.get(str(path.resolve()))
        now = stamp(st)
        if isinstance(got, dict) and got.get("stamp") == now and got.get("problems") != count:
            got["problems"] = count
            self.changed = True

    def save(self) -> None:
        if not (self.use and self.changed):
            return
        try:  # a cache that cannot be written only costs time
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.known), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            return


#: The data problems the folder listing counts per file.
_COUNTED = frozenset({DATA_VALUE, DATA_REFERENCE})


def _record_counts(files: list[DataFile], problems: list[Problem]) -> None:
    """Keep, with the scan cache, how many data problems each file had in this load (values
    refused and links to nothing: what ``catalogs DIR SYSTEM FACTION`` lists), so that the
    folder's listing can say so without loading (``catalogs --catalogs DIR``)."""
    heads = _Heads(True)
    for f in files:
        if f.path.suffix.lower().endswith("z"):
            continue  # (a zipped file's head is not kept)
        path = str(f.path)
        heads.note_count(f.path, sum(1 for p in problems if p.code in _COUNTED and p.file == path))
    heads.save()


def read_folder(folder: Path, use_cache: bool = True) -> tuple[list[GameSystem], list[Problem]]:
    """The game system of a BSData folder (the catalog reader registered for BattleScribe)."""
    problems: list[Problem] = []
    systems: list[DataFile] = []
    catalogues: list[DataFile] = []
    heads = _Heads(use_cache)
    for path in sorted(folder.iterdir()):
        suffix = path.suffix.lower()
        if suffix not in SYSTEM_SUFFIXES + CATALOGUE_SUFFIXES or not path.is_file():
            continue
        try:
            info = heads.head(path)
        except UnsafeFileError as exc:
            problems.append(Problem(str(path), str(exc).removeprefix(f"{path}: "), code="data"))
            continue
        (systems if info.kind == "gameSystem" else catalogues).append(info)
    heads.save()
    if not systems:
        if catalogues:
            problems.append(
                Problem(
                    str(folder),
                    "BattleScribe catalogues without their game system (.gst) are left out",
                    code="unknown-system",
                )
            )
        return [], problems
    out: list[GameSystem] = []
    for gst in systems:
        sys_id = slug(folder.name) if len(systems) == 1 else slug(gst.name)
        model = SystemFile(kind="system", id=sys_id, name=gst.name)
        gs = BattleScribeSystem(
            gst.path, model, folder=folder, system_file=gst, use_cache=use_cache
        )
        taken: set[str] = set()
        for cat in catalogues:
            if cat.game_system_id != gst.id:
                if len(systems) == 1:
                    problems.append(
                        Problem(
                            str(cat.path),
                            f"belongs to game system {cat.game_system_id!r}, not to "
                            f"{gst.name} ({gst.id}); left out",
                            code="unknown-system",
                        )
                    )
                continue
            fid = slug(cat.name)
            base, n = fid, 1
            while fid in taken:
                n += 1
                fid = f"{base}-{n}"
            taken.add(fid)
            gs.files[cat.id] = cat
            gs._bs_ids[fid] = cat.id
            gs.factions[fid] = Faction(
                cat.path,
                FactionFile(kind="catalog", id=fid, system=sys_id, name=cat.name),
                library=cat.library,
            )
        gs.problems.extend(problems)
        out.append(gs)
    return out, problems
