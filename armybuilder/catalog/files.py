"""Loading one catalog file: parse, validate, cache as JSON, and place problems at file,
line and column."""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..errors import CatalogError, Problem
from ..model.messages import clean_loc, describe, describe_errors
from ..paths import user_cache_dir
from ..yamlio import load_round_trip, load_safe, locate, read_text

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from ..model.catalog import FactionFile, SystemFile


@functools.cache
def _adapter() -> TypeAdapter[SystemFile | FactionFile]:
    """The catalog files' validator, built the first time a file is validated: a start-up
    that finds the library in its cache (libcache) never builds it, nor imports pydantic."""
    from pydantic import TypeAdapter

    from ..model.catalog import CatalogFile

    return TypeAdapter(CatalogFile)


_CACHE_FORMAT = f"{__version__}-2"


# --------------------------------------------------------------------------- file loading


@dataclass(frozen=True)
class LoadedFile:
    """A catalog file that parsed and validated."""

    path: Path
    model: SystemFile | FactionFile


def _clean_loc(doc: Any, loc: Sequence[str | int]) -> list[str | int]:
    """Drop pydantic's tags from an error location (see :mod:`armybuilder.model.messages`)."""
    return clean_loc(doc, loc)


def _describe(error: Any, loc: Sequence[str | int]) -> str:
    """A plain-words explanation of one pydantic error."""
    return describe(error, loc)


def _positioned(
    path: Path, text: str, items: Sequence[tuple[Sequence[str | int], str, str]]
) -> list[Problem]:
    """Attach line and column to (loc, message, code) items by re-reading with positions."""
    try:
        doc = load_round_trip(text, str(path))
    except CatalogError:
        doc = None
    except Exception:  # positions are a courtesy; never fail while reporting
        doc = None
    problems = []
    for loc, message, code in items:
        line, col = locate(doc, loc) if doc is not None else (None, None)
        problems.append(Problem(str(path), message, line, col, code))
    return problems


def _cache_file(path: Path) -> Path | None:
    if os.environ.get("ARMYBUILDER_NO_CACHE"):
        return None
    try:
        st = path.stat()
        content = hashlib.sha256(path.read_bytes()).hexdigest()  # an edit that kept size and time
    except OSError:
        return None
    key = f"{_CACHE_FORMAT}|{path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{content}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return user_cache_dir() / "catalogs" / f"{digest}.json"


def load_catalog_file(path: Path, use_cache: bool = True) -> LoadedFile:
    """Parse and validate one catalog file (raises :class:`CatalogError`)."""
    from pydantic import ValidationError

    cache = _cache_file(path) if use_cache else None
    if cache is not None and cache.is_file():
        try:
            model = _adapter().validate_json(cache.read_bytes())
            return LoadedFile(path, model)
        except (ValidationError, OSError, ValueError):
            pass  # stale or corrupt cache: parse again
    try:
        text = read_text(path)
        data = load_safe(text, str(path))
    except CatalogError:
        raise
    except Exception as exc:
        from ..errors import InputError

        if isinstance(exc, InputError):
            raise CatalogError(exc.problems) from None
        # Whatever else goes wrong reading one file must not stop the others from loading.
        raise CatalogError.single(
            path, f"cannot be read: {type(exc).__name__}: {exc}", code="catalog-invalid"
        ) from None
    if not isinstance(data, dict):
        raise CatalogError.single(
            path, "a catalog file must be a mapping with `kind: system` or `kind: catalog`", 1, 1
        )
    try:
        model = _adapter().validate_python(data)
    except ValidationError as exc:
        items = [(loc, msg, "catalog-invalid") for loc, msg in describe_errors(exc, data)]
        raise CatalogError(_positioned(path, text, items)) from None
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(_adapter().dump_json(model).decode(), encoding="utf-8")
            os.replace(tmp, cache)
        except OSError:
            pass  # a read-only cache folder only costs speed
    return LoadedFile(path, model)
