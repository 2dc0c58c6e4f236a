"""What the PDF renderer may load: files inside the template folders, nothing else.

Roster content is untrusted and is always escaped, so it cannot add an image or a stylesheet
to a document; this is the second line of defence, for templates (a user's own, or one
shared by someone else): :func:`resolve_asset` maps a URL to a file only when it lies inside
one of the template folders, after symbolic links and ``..`` are resolved. The same relative
path is looked up in every folder in order (the user's first), so images and stylesheets can
be overridden exactly like templates.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def resolve_asset(url: str, roots: Sequence[Path]) -> Path | None:
    """The file a ``file:`` URL stands for, if it is inside one of ``roots``; else ``None``.

    Anything but a local ``file:`` URL (``http:``, ``ftp:``, a remote host...) gives ``None``.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        return None
    raw = Path(url2pathname(unquote(parts.path)))
    if not raw.is_absolute():
        return None
    real = Path(os.path.realpath(raw))
    real_roots = [Path(os.path.realpath(r)) for r in roots]
    rel: Path | None = None
    for root in real_roots:
        if _inside(real, root):
            rel = real.relative_to(root)
            break
    if rel is None or rel == Path("."):
        return None
    for root in real_roots:
        candidate = Path(os.path.realpath(root / rel))
        if _inside(candidate, root) and candidate.is_file():
            return candidate
    return None


class TemplateOutsideFolderError(Exception):
    """A template file that is a link (or lies, once links are resolved) outside its folder."""


def inside_folder(path: str | Path, folder: str | Path) -> bool:
    """Whether ``path``, after resolving links and ``..``, lies inside ``folder`` (resolved
    likewise)."""
    return _inside(Path(os.path.realpath(path)), Path(os.path.realpath(folder)))
