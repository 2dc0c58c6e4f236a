"""The printing commands, ``render`` (a PDF record sheet) and ``export`` (text, Markdown, JSON,
HTML).

:mod:`armybuilder.cli` calls :func:`add_parsers` to register them. Importing this module costs
nothing: WeasyPrint and Jinja2 are imported by the handlers, when a command runs.

Exit codes follow the other commands: 0 when the file was written (an illegal roster still
prints: the roster page carries the verdict), 2 for a file that cannot be read or written
or a missing PDF library.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..words import plural

EXIT_OK, EXIT_INPUT = 0, 2
EXPORT_FORMATS = ("text", "markdown", "json", "html")
#: Why a binary output is not written to a terminal (``{what}``: what it is).
NOT_TO_A_TERMINAL = (
    "{what} is not written to a terminal (its bytes would garble it): give -o FILE, or send "
    "standard output to a file or a pipe"
)
#: Where ``render`` writes when no ``-o`` is given (relative to the current folder).
DEFAULT_EXPORT_DIR = Path("exports")


def add_parsers(subparsers: Any, common_parent: argparse.ArgumentParser) -> None:
    """Register ``render`` and ``export`` on the CLI's sub-command parsers.

    ``common_parent`` carries the options every command takes (``--catalogs``).
    """
    p = subparsers.add_parser(
        "render",
        parents=[common_parent],
        help="printable PDF roster and record sheets",
        description="Print a roster as a PDF: roster pages (legality, totals, every unit), "
        "then the game system's record sheets.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT.pdf",
        help=f"where to write (default: {DEFAULT_EXPORT_DIR}/<roster file name>.pdf; "
        "- for standard output)",
    )
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="paper size")
    p.add_argument("--no-sheets", action="store_true", help="roster pages only")
    p.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="ignored (kept for scripts): a PDF is always laid out in one process",
    )
    p.add_argument("--templates", metavar="DIR", help="look for templates in DIR before the others")
    p.add_argument("-v", "--verbose", action="store_true", help="show the PDF library's warnings")
    p.set_defaults(func=cmd_render)

    from ..formats import roster_writers

    writers = roster_writers()  # other programs' roster files (registered by name)
    p = subparsers.add_parser(
        "export",
        parents=[common_parent],
        help="the roster as text, Markdown, JSON or HTML",
        description="Export a roster: text (compact, for forums and chats), markdown, json "
        "(the shape of `show --format json`) or html (the page the PDF is made from)"
        + "".join(
            f"; {n} (a {fmt.suffixes[0]} file for another program)"
            for n, (fmt, _) in writers.items()
        )
        + ".",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--to",
        "--format",
        dest="to",
        choices=[*EXPORT_FORMATS, *writers],
        required=True,
        help="the format",
    )
    p.add_argument("-o", "--output", metavar="OUT", help="where to write (default: stdout)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="html: paper size")
    p.add_argument("--no-sheets", action="store_true", help="html: roster pages only")
    p.add_argument("--templates", metavar="DIR", help="html: look for templates in DIR first")
    p.set_defaults(func=cmd_export)


def _load(args: argparse.Namespace) -> Any:
    """(roster, system, evaluation), or an exit code after printing why not."""
    from ..errors import ArmybuilderError, InputError
    from ..report import load_evaluated
    from .common import library_for

    library = library_for(args)  # (a --catalogs that is no folder: the command's refusal)
    try:
        return load_evaluated(library, args.file)
    except InputError as exc:
        for problem in exc.problems:
            print(f"{problem}", file=sys.stderr)
        return EXIT_INPUT
    except ArmybuilderError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return EXIT_INPUT


def _template_problem(command: str, exc: Exception) -> int:
    """A broken template (usually a user's own): say which file and line, no traceback. A
    template that changes a value it is handed in place (they are read-only, shared between
    selections: armybuilder/rules/frozen.py) is told to copy it."""
    from ..rules.frozen import FrozenValueError

    at = _template_at(exc)
    if isinstance(exc, FrozenValueError):
        kind = exc.what.partition(".")[0]
        where = "a template" if at == "a template" else f"template {at}"
        print(
            f"armybuilder {command}: {where} changes a computed value in place "
            f"({exc.what}); copy it first with `{kind}(value)`",
            file=sys.stderr,
        )
    else:
        print(f"armybuilder {command}: template error in {at}: {exc}", file=sys.stderr)
    return EXIT_INPUT


def _template_at(exc: Exception) -> str:
    """The template file and line ``exc`` was raised in (``a template`` if unknown)."""
    import traceback

    where = getattr(exc, "filename", None) or getattr(exc, "name", None)
    line = getattr(exc, "lineno", None)
    if where is None:
        # Jinja2 puts the template's file and line in the traceback of runtime errors.
        frames = [
            f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".html")
        ]
        if frames:
            where, line = frames[-1].filename, frames[-1].lineno
    return f"{where}:{line}" if where and line else str(where or "a template")


def _default_pdf(file: str) -> Path:
    return DEFAULT_EXPORT_DIR / (Path(file).stem + ".pdf")


def cmd_render(args: argparse.Namespace) -> int:
    """``armybuilder render FILE [-o OUT.pdf] [--paper a4|letter] [--no-sheets]``."""
    loaded = _load(args)
    if isinstance(loaded, int):
        return loaded
    _, _, ev = loaded
    if args.jobs is not None and args.jobs < 1:
        print("armybuilder render: --jobs must be at least 1", file=sys.stderr)
        return EXIT_INPUT
    import logging

    from jinja2 import TemplateError

    from ..rules.frozen import FrozenValueError

    if not getattr(args, "verbose", False):
        # WeasyPrint warns about fonts and CSS it skips; a user printing a roster cannot act
        # on that. Our own refusals are reported below either way.
        logging.getLogger("weasyprint").addHandler(logging.NullHandler())
        logging.getLogger("weasyprint").propagate = False
    logging.getLogger("armybuilder.render").propagate = False  # refusals are printed below
    logging.getLogger("armybuilder.render").addHandler(logging.NullHandler())
    from ..fileio import atomic_write, check_output, describe_os_error

    to_stdout = args.output == "-"
    if to_stdout and sys.stdout.isatty():
        # (a PDF's bytes sent to a terminal: its escape sequences garbled the terminal)
        print(f"armybuilder render: {NOT_TO_A_TERMINAL.format(what='a PDF')}", file=sys.stderr)
        return EXIT_INPUT
    target = None if to_stdout else Path(args.output or _default_pdf(args.file))
    if target is not None:
        try:  # before the slow part: an output that cannot be written is said at once
            check_output(target, [args.file])
        except OSError as exc:
            print(
                f"armybuilder render: cannot write {target}: {describe_os_error(exc)}",
                file=sys.stderr,
            )
            return EXIT_INPUT
    try:
        from ..render import TooLargeToPrintError, render_pdf

        result = render_pdf(
            ev,
            None,
            paper=args.paper,
            sheets=not args.no_sheets,
            jobs=args.jobs,
            template_dir=args.templates,
        )
    except (TemplateError, FrozenValueError) as exc:
        return _template_problem("render", exc)
    except TooLargeToPrintError as exc:
        print(f"armybuilder render: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except (ImportError, OSError) as exc:
        print(f"armybuilder render: cannot make a PDF: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if to_stdout:
        sys.stdout.buffer.write(result.pdf)
        sys.stdout.flush()
    else:
        assert target is not None
        try:
            atomic_write(target, result.pdf)
        except OSError as exc:
            print(
                f"armybuilder render: cannot write {target}: {describe_os_error(exc)}",
                file=sys.stderr,
            )
            return EXIT_INPUT
        verdict = (
            "legal"
            if ev.valid
            else f"NOT LEGAL ({plural(len(ev.errors), 'error')}, on the roster page)"
        )
        print(
            f"wrote {target}: {result.pages} page{'s' if result.pages != 1 else ''}, "
            f"{args.paper.upper() if args.paper == 'a4' else 'US Letter'}, {verdict}"
        )
    if result.missing_glyphs and getattr(args, "verbose", False):
        from ..render.fonts import describe_missing

        print(f"armybuilder render: {describe_missing(result.missing_glyphs)}", file=sys.stderr)
    for url in result.refused:
        print(
            f"armybuilder render: refused to load {url} (not in a template folder)", file=sys.stderr
        )
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """``armybuilder export FILE --to text|markdown|json|html [-o OUT]``."""
    from ..fileio import check_output, describe_os_error

    out = None if args.output in (None, "-") else Path(args.output)
    if out is not None:
        try:
            check_output(out, [args.file])
        except OSError as exc:
            print(
                f"armybuilder export: cannot write {out}: {describe_os_error(exc)}",
                file=sys.stderr,
            )
            return EXIT_INPUT
    from ..formats import roster_writers

    writer = roster_writers().get(args.to)
    if writer is not None:
        return _export_other(args, out, writer[1])
    loaded = _load(args)
    if isinstance(loaded, int):
        return loaded
    _, _, ev = loaded
    from jinja2 import TemplateError

    from ..render import TooLargeToPrintError, export
    from ..rules.frozen import FrozenValueError

    try:
        text = export(
            ev,
            args.to,
            file=args.file,
            paper=args.paper,
            sheets=not args.no_sheets,
            template_dir=args.templates,
        )
    except (TemplateError, FrozenValueError) as exc:
        return _template_problem("export", exc)
    except TooLargeToPrintError as exc:
        print(f"armybuilder export: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    return _deliver(out, text)


def _deliver(out: Path | None, data: str | bytes) -> int:
    """Write an export to ``out`` atomically (saying so), or to standard output."""
    from ..fileio import atomic_write, describe_os_error

    if out is None:
        if isinstance(data, bytes) and sys.stdout.isatty():
            # A terminal is shown text (its control characters as pictures, see
            # cli.common.terminal_safe); a zipped file's bytes garbled it.
            raw = data
            try:
                data = raw.decode("utf-8")
            except UnicodeDecodeError:
                what = "a zipped file" if raw.startswith(b"PK") else "this file"
                said = NOT_TO_A_TERMINAL.format(what=what)
                print(f"armybuilder export: {said}", file=sys.stderr)
                return EXIT_INPUT
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            sys.stdout.write(data)
        return EXIT_OK
    try:
        atomic_write(out, data)
    except OSError as exc:
        print(f"armybuilder export: cannot write {out}: {describe_os_error(exc)}", file=sys.stderr)
        return EXIT_INPUT
    print(f"wrote {out}")
    return EXIT_OK


def _export_other(args: argparse.Namespace, out: Path | None, write: Any) -> int:
    """``export --to NAME`` of a registered roster writer (another program's roster file):
    the roster as read, whatever its verdict (an illegal roster is written too)."""
    from ..errors import ArmybuilderError, InputError
    from ..rosters import Roster
    from .common import library_for

    lib = library_for(args)
    try:
        roster = Roster.from_file(args.file, library=lib)
        data: bytes = write(roster, lib, (out or Path(args.file)).name)
    except InputError as exc:
        for problem in exc.problems:
            print(f"{problem}", file=sys.stderr)
        return EXIT_INPUT
    except ArmybuilderError as exc:
        said = str(exc)  # most of these already name the file: once is enough
        where = "" if said.startswith(f"{args.file}: ") else f"{args.file}: "
        print(f"armybuilder export: {where}{said}", file=sys.stderr)
        return EXIT_INPUT
    return _deliver(out, data)
