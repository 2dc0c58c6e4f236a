"""HTML from Jinja2 templates: the standalone HTML export and the source of the PDF.

One :class:`jinja2.sandbox.SandboxedEnvironment` per list of template folders (cached), with a
:class:`~jinja2.ChoiceLoader` that looks in the user's folder first and then in the bundled
one, so a user overrides any template, stylesheet or image by putting a file of the same name
(and sub-folder) in ``<user data>/templates/``. Autoescaping is on for ``*.html`` (roster
content is untrusted: every value is escaped) and undefined names are errors
(:class:`~jinja2.StrictUndefined`), so a typo in a template fails loudly instead of printing
nothing.

Templates:

* ``roster.html``: the document (roster pages, then the record sheets);
* ``<system id>/sheet.html``: a game system's record sheets (``generic/sheet.html`` when the
  system has none), with optional ``<system id>/sheet.css`` (else ``generic/sheet.css``);
* ``base.css``: page setup and the shared look; ``macros.html``: boxes and tables.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import (
    ChoiceLoader,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    select_autoescape,
)
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from .. import emphasis
from ..paths import bundled_dir, user_data_dir
from ..rules.engine import Evaluation
from ..words import number, unit_after
from .context import RosterView, build_view
from .safety import inside_folder

PAPERS = {"a4": "A4", "letter": "letter"}
#: Page size in PDF points (width, height), portrait.
PAPER_POINTS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}

#: Where a long document may be cut into pieces laid out one after the other (pdf.py).
#: Templates emit it (with ``split()``) only between blocks that start on a new page anyway,
#: at the top level of ``<body>``; roster content cannot forge it (``<`` is always escaped).
SPLIT_MARK = "<!--armybuilder:split-->"


def user_template_dir() -> Path:
    """The user's template folder (templates there override the bundled ones)."""
    return user_data_dir() / "templates"


def template_dirs(extra: Iterable[Path] = ()) -> list[Path]:
    """Template folders in lookup order: ``extra`` (e.g. a ``--templates`` option), the
    user's folder, the bundled folder."""
    return [*extra, user_template_dir(), bundled_dir("templates")]


# --------------------------------------------------------------------------- helpers


_INT = re.compile(r"-?\d+")


def _numbers(text: Any) -> list[int]:
    """The whole numbers in a text: ``"1 (2 carried)"`` -> ``[1, 2]``."""
    return [int(m) for m in _INT.findall(str(text))]


def _signed(v: Any) -> str:
    """A to-hit modifier: ``+2``, ``-1``, ``+0``; ``—`` for none."""
    if v is None or v == "":
        return "—"
    try:
        return f"{int(v):+d}"
    except (TypeError, ValueError):
        return str(v)


def _unit_after(unit: Any, amount: Any) -> str:
    """A unit as it reads after an amount already written out: ``{{ t.unit |
    unit_after(t.spent | fmt) }}`` is "Can" after "1", "Cans" after "2"
    (:func:`armybuilder.words.unit_after`)."""
    return unit_after(str(amount), str(unit))


def _fmt(v: Any) -> str:
    """A number as the reports print it (``2,380``, ``0.5``); anything else as text."""
    if isinstance(v, int | float) and not isinstance(v, bool):
        return number(v)
    if v is None:
        return "—"
    return str(v)


def _percent(v: Any, digits: int = 0) -> str:
    """A probability (``0.3``, ``"11/36"``) as a percentage: ``31%``."""
    try:
        x = float(Fraction(str(v))) if not isinstance(v, int | float) else float(v)
    except (ValueError, ZeroDivisionError):
        return str(v)
    return f"{x * 100:.{digits}f}%"


def _split_columns(value: int, columns: Sequence[int]) -> list[int]:
    """``value`` as a sum of ``columns`` (largest first): 35 with columns 1..30 and 40 gives
    ``[30, 5]``; used to read a table whose columns stop short of a value."""
    cols = sorted({int(c) for c in columns if int(c) > 0}, reverse=True)
    out: list[int] = []
    rest = int(value)
    while rest > 0 and cols:
        if rest in cols:
            out.append(rest)
            break
        take = next((c for c in cols if c <= rest), None)
        if take is None:
            break
        out.append(take)
        rest -= take
    return out


def _contains(seq: Any, item: Any) -> bool:
    """Test: ``x is contains(y)`` (``rejectattr("categories", "contains", "vehicle")``)."""
    try:
        return item in seq
    except TypeError:
        return False


#: A run of this many characters without a space gets invisible break points.
_LONG_RUN = 30
_RUN = re.compile(rf"[^\s\u200b]{{{_LONG_RUN},}}")
_ZWSP = "\u200b"


def _break_run(m: re.Match[str]) -> str:
    run = m.group(0)
    return _ZWSP.join(run[i : i + 16] for i in range(0, len(run), 16))


def breakable(value: Any) -> Any:
    """What every ``{{ ... }}`` of a template prints: text with a run of more than
    :data:`_LONG_RUN` characters without a space gets a zero-width space every 16
    characters, so that a long name breaks inside a table cell or a heading instead of
    running off the page (markup, numbers and short words are left alone)."""
    if type(value) is str and len(value) >= _LONG_RUN and _RUN.search(value):
        return _RUN.sub(_break_run, value)
    return value


#: Width of a card's content on the narrower paper, in millimetres: A4's 210 less the page's
#: side margins (12 each) and the card's border and padding (base.css).
_CARD_MM = 181.0
#: Width of one character of a table's text, in millimetres: DejaVu Sans at 8.5 pt is about
#: 1.65 on average, bold headings and capitals wider.
_CHAR_MM = 1.9
#: A cell's padding and borders, in millimetres.
_CELL_MM = 2.3
#: Where a line may break inside a cell: a space, a break point, after a hyphen or a slash.
_BREAKS = re.compile(r"[\s\u200b]+|(?<=[-/])")


def _narrowest(text: str) -> int:
    """How many characters the longest unbreakable piece of a cell's text has (a run of
    :data:`_LONG_RUN` or more gets a break point every 16 from :func:`breakable`)."""
    longest = 0
    for word in _BREAKS.split(emphasis.plain(text)):
        n = len(word)
        longest = max(longest, 16 if n >= _LONG_RUN else n)
    return longest


def crowded(rows: Iterable[Sequence[str]]) -> bool:
    """Whether a table of these rows (the heading's cells among them) cannot be as narrow
    as a card even with every cell broken between words: each column at least as wide as
    its longest word. WeasyPrint then draws it past the card's border and off the page (a
    stat line of 15 characteristics), so such a table is printed with words broken anywhere
    instead (class ``crowded``, base.css). Estimated from the characters, on the safe side
    for a usual table: breaking words of one that would fit reads worse than it needs to."""
    widths: list[int] = []
    for row in rows:
        for i, cell in enumerate(row):
            n = _narrowest(str(cell))
            if i == len(widths):
                widths.append(n)
            elif n > widths[i]:
                widths[i] = n
    return sum(n * _CHAR_MM + _CELL_MM for n in widths) > _CARD_MM


def marked(value: Any) -> Markup:
    """Filter: a catalog's text (a characteristic, a rule's description) as HTML, its
    emphasis marks (:mod:`armybuilder.emphasis`) as ``<strong>``, ``<em>`` and
    ``<span class="keyword">``, its line breaks (kept by ``context.clean_lines``) as
    ``<br>``, everything else escaped (and long words breakable)."""
    if isinstance(value, Markup):
        return value
    out = emphasis.html(str(value), breakable)
    return Markup(out.replace("\n", "<br>\n") if "\n" in out else out)


def _split() -> Markup:
    return Markup(SPLIT_MARK)


def _same() -> Markup:
    from .reuse import SAME_MARK

    return Markup(SAME_MARK)


def _same_end() -> Markup:
    from .reuse import SAME_END

    return Markup(SAME_END)


class FolderLoader(FileSystemLoader):
    """A :class:`~jinja2.FileSystemLoader` for one folder that serves only files inside it
    once symbolic links are resolved: a link in a user's template folder to any other file
    (``sheet.html -> /home/me/.ssh/id_rsa``) is refused with a message naming it, instead of
    pulling that file into the HTML and the PDF."""

    def __init__(self, folder: str) -> None:
        super().__init__(folder)
        self.folder = folder

    def get_source(self, environment: Any, template: str) -> tuple[str, str, Any]:
        source, filename, uptodate = super().get_source(environment, template)
        if not inside_folder(filename, self.folder):
            raise TemplateRefusedError(template, filename, self.folder)
        return source, filename, uptodate


class TemplateRefusedError(TemplateError):
    """A template that is a link to a file outside its template folder (refused, not
    skipped: the user meant that file to be used)."""

    def __init__(self, name: str, filename: str, folder: str) -> None:
        super().__init__(
            f"{filename} is a link to {os.path.realpath(filename)}, outside the template folder"
            f" {folder}: refused (copy the file into the folder instead)"
        )
        self.name = name
        self.filename = filename


# --------------------------------------------------------------------------- environment


def _signature(folders: Sequence[Path]) -> tuple[tuple[str, int], ...]:
    """What is in the overriding folders (files and modification times): a new or changed
    override gives a new environment, whose template cache knows nothing stale."""
    out: list[tuple[str, int]] = []
    for folder in folders:
        if folder.is_dir():
            for f in sorted(folder.rglob("*")):
                if f.is_file():
                    out.append((str(f), f.stat().st_mtime_ns))
    return tuple(out)


@lru_cache(maxsize=8)
def _environment(
    dirs: tuple[str, ...], signature: tuple[tuple[str, int], ...] = ()
) -> SandboxedEnvironment:
    env = SandboxedEnvironment(
        loader=ChoiceLoader([FolderLoader(d) for d in dirs]),
        autoescape=select_autoescape(
            enabled_extensions=("html", "htm", "xml"), default_for_string=True, default=True
        ),
        undefined=StrictUndefined,
        extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"],
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=True,
        finalize=breakable,
    )
    env.filters["numbers"] = _numbers
    env.filters["signed"] = _signed
    env.filters["fmt"] = _fmt
    env.filters["percent"] = _percent
    env.filters["unit_after"] = _unit_after
    env.filters["marked"] = marked
    env.tests["contains"] = _contains
    env.globals["crowded"] = crowded
    env.globals["split_columns"] = _split_columns
    env.globals["split"] = _split
    env.globals["same"] = _same
    env.globals["same_end"] = _same_end
    return env


def environment(dirs: Sequence[Path] | None = None) -> SandboxedEnvironment:
    """The Jinja2 environment for these template folders (default: :func:`template_dirs`)."""
    folders = list(dirs) if dirs is not None else template_dirs()
    bundled = bundled_dir("templates")
    overrides = [Path(d) for d in folders if Path(d) != bundled]
    return _environment(tuple(str(d) for d in folders), _signature(overrides))


def has_template(env: SandboxedEnvironment, name: str) -> bool:
    try:
        env.loader.get_source(env, name)  # type: ignore[union-attr]
    except TemplateNotFound:
        return False
    return True


def template_source(env: SandboxedEnvironment, name: str) -> tuple[str, str]:
    """A template file's text and the file it came from (for stylesheets and assets)."""
    source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    return source, filename or ""


def sheet_template(env: SandboxedEnvironment, system_id: str) -> str:
    """The record sheet template for a system: its own or the generic one."""
    own = f"{system_id}/sheet.html"
    return own if has_template(env, own) else "generic/sheet.html"


def stylesheet_names(env: SandboxedEnvironment, system_id: str) -> list[str]:
    """The stylesheets a document uses, in cascade order."""
    names = ["base.css"]
    for candidate in (f"{system_id}/sheet.css", "generic/sheet.css"):
        if has_template(env, candidate):
            names.append(candidate)
            break
    return names


def paper_css(paper: str) -> str:
    """The page size rule for ``a4`` or ``letter``."""
    try:
        size = PAPERS[paper]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r} (a4 or letter)") from None
    return f"@page {{ size: {size}; }}\n"


def render_html(
    view: RosterView,
    *,
    paper: str = "a4",
    sheets: bool = True,
    inline_css: bool = True,
    dirs: Sequence[Path] | None = None,
    warnings_limit: int = 50,
) -> str:
    """The HTML of a roster (roster pages, then record sheets unless ``sheets`` is false).

    ``inline_css`` puts the stylesheets in the document (the standalone HTML export); the PDF
    renderer passes them to WeasyPrint separately, parsed once and reused.
    """
    env = environment(dirs)
    css = ""
    if inline_css:
        css = "\n".join(template_source(env, n)[0] for n in stylesheet_names(env, view.system_id))
    template = env.get_template("roster.html")
    return template.render(
        roster=view,
        paper=paper,
        page_css=paper_css(paper),
        sheets=sheets,
        css=Markup(css),
        sheet_template=sheet_template(env, view.system_id),
        warnings_limit=warnings_limit,
    )


def export_html(
    ev: Evaluation,
    *,
    file: str | None = None,
    paper: str = "a4",
    sheets: bool = True,
    date: _dt.date | str | None = None,
    dirs: Sequence[Path] | None = None,
) -> str:
    """The standalone HTML export of an evaluated roster (stylesheets inline)."""
    from . import check_size

    view = build_view(ev, file=file, date=date)
    check_size(view)
    return render_html(view, paper=paper, sheets=sheets, inline_css=True, dirs=dirs)
