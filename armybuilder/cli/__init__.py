"""The ``armybuilder`` command line.

Exit codes (a contract, see the README): ``validate`` exits 0 when every roster is legal, 1 when
any is illegal, 2 when a file cannot be read or understood or the command is misused. Other
commands exit 0 on success and 2 on bad input. Errors about input name the file, line and
column; no traceback is ever printed for bad input.

This package imports neither Textual nor WeasyPrint, so ``validate`` starts fast and works on a
machine without Pango. Here: the parser and the commands that read rosters and catalogs;
:mod:`.common`: exit codes, the library a command reads, how issues print; :mod:`.printing`:
``render`` and ``export``. The command line is an entry point: it may import the builder
(:mod:`armybuilder.tui`) and :mod:`armybuilder.session`; nothing else imports it.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..batch import Options
from ..batch import validate as validate_files
from ..catalog import check_paths
from ..errors import (
    ArmybuilderError,
    InputError,
)
from ..fileio import atomic_write, check_output, describe_os_error
from ..launch import builder_arguments
from ..model.bounds import MAX_LIMIT
from ..paths import user_catalog_dir
from ..plugin import Matchup
from ..report import force_title as _force_title
from ..report import format_costs as _fmt_cost
from ..report import limits_text as _limits_text
from ..report import load_evaluated as _load
from ..report import price_text
from ..report import show_json as _show_json
from ..rules.engine import Evaluation, Node, fmt_num
from ..rules.state import StateKey, state_help, state_placeholder
from ..words import tally
from .common import EXIT_ILLEGAL as EXIT_ILLEGAL
from .common import EXIT_INPUT, EXIT_OK, guarded_output, terminal_safe
from .common import UsageError as UsageError
from .common import catalog_warnings as _catalog_warnings
from .common import issue_text as _issue_text
from .common import library_for as _library
from .common import library_for as library_for
from .common import plural as _plural
from .common import problems_text as _problems_text

if TYPE_CHECKING:
    import argparse

# --------------------------------------------------------------------------- commands


def cmd_validate(args: argparse.Namespace) -> int:
    lib = _library(args)
    _catalog_warnings(lib)
    opts = Options(args.format, bool(args.strict), bool(args.quiet))
    return validate_files(lib, args.files, opts, args.jobs or None)


def _show_node(ev: Evaluation, node: Node, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    if node.force is not None:  # a force of a roster of several: a section of its own
        cost = _fmt_cost(ev.index, ev.total_cost(node))
        rule = "=" * max(1, 3 - depth)
        out.append(f"{pad}{rule} {_force_title(ev, node)}" + (f"  — {cost}" if cost else ""))
        for c in node.children:
            out.append("")
            _show_node(ev, c, depth + (1 if c.force is not None else 0), out)
        return
    if node.entry is None:
        out.append(f"{pad}{ev.label(node)}  [unknown entry {node.entry_id!r}, kept]")
        return
    leaves = [
        c
        for c in node.children
        if not c.children
        and not ev.values_of(c)
        and c.entry is not None
        and c.entry.type == "upgrade"
    ]
    branches = [c for c in node.children if c not in leaves]
    cost = price_text(ev.index, ev.total_cost(node))
    head = f"{pad}{ev.label(node)}"
    if node.data is not None and node.data.name and node.entry is not None:
        head += f"  [{node.entry.name}]"
    if cost and node.entry.type != "upgrade":
        head += f"  — {cost}"
    out.append(head)
    if leaves:
        # the same upgrade in several selections once, counted: "+1 Life ×3"
        out.append(f"{pad}    with: " + ", ".join(tally((ev.name(c), c.count) for c in leaves)))
    for v in ev.values_of(node):
        out.append(f"{pad}    {v.label}: {v.display()}")
    for c in branches:
        _show_node(ev, c, depth + 1, out)


def cmd_show(args: argparse.Namespace) -> int:
    import json

    lib = _library(args)
    _catalog_warnings(lib)
    try:
        roster, gs, ev = _load(lib, args.file)
    except InputError as exc:
        _problems_text(exc.problems, sys.stderr)
        return EXIT_INPUT
    except ArmybuilderError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    against: tuple[Evaluation, list[Matchup]] | None = None
    if getattr(args, "against", None):
        from ..against import matchups, opponent

        try:
            other = opponent(lib, gs, roster, args.against)
        except InputError as exc:
            _problems_text(exc.problems, sys.stderr)
            return EXIT_INPUT
        except ArmybuilderError as exc:
            print(f"armybuilder show: {exc}", file=sys.stderr)
            return EXIT_INPUT
        against = (other, matchups(ev, other))
    if args.format == "json":
        data = _show_json(args.file, roster, ev)
        if against is not None:
            from ..against import against_json

            data["against"] = against_json(ev, *against)
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return EXIT_OK
    verdict = "Legal" if ev.valid else f"NOT LEGAL: {_plural(len(ev.errors), 'error')}"
    if ev.warnings:
        verdict += f", {_plural(len(ev.warnings), 'warning')}"
    lines = [roster.name, f"{gs.name} · {ev.index.faction.name} · {verdict}"]
    cost = _fmt_cost(ev.index, ev.totals)
    limits = _limits_text(ev.index, dict(roster.header.limits))
    if cost:
        lines.append(cost + (f" ({limits})" if limits else ""))
    for v in ev.roster_values:
        lines.append(f"{v.label}: {v.display()}")
    for n in ev.root.children:
        lines.append("")
        _show_node(ev, n, 0, lines)
    if against is not None:
        from ..against import against_text

        lines.append("")
        lines += against_text(ev, *against)
    if ev.issues:
        lines.append("")
        lines.append("Issues:")
        for issue in ev.issues:
            lines.append("  " + _issue_text(roster, issue))
    print("\n".join(lines))
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    lib = _library(args)
    try:
        gs = lib.system(args.system)
        index = gs.index(args.faction)
    except ArmybuilderError as exc:
        print(f"armybuilder new: {exc}", file=sys.stderr)
        return EXIT_INPUT
    faction = gs.factions.get(index.faction.id)
    if faction is not None and faction.library:
        # (as the New roster dialog: a library catalogue is not offered; a roster naming
        # one still opens)
        offered = ", ".join(f.id for f in gs.offered_factions()) or "none"
        print(
            f"armybuilder new: {faction.id} ({faction.name}) is a library catalogue of "
            f"{gs.name}: other factions draw entries from it, no roster is built from one "
            f"(factions: {offered})",
            file=sys.stderr,
        )
        return EXIT_INPUT
    limits: dict[str, float] = {}
    for item in args.limit or []:
        key, _, value = item.partition("=")
        if key not in index.cost_types:
            print(
                f"armybuilder new: unknown cost type {key!r} (cost types: "
                f"{', '.join(index.cost_types) or 'none'})",
                file=sys.stderr,
            )
            return EXIT_INPUT
        try:
            number = float(value)
        except ValueError:
            print(f"armybuilder new: --limit {item!r} should read COST=NUMBER", file=sys.stderr)
            return EXIT_INPUT
        if not math.isfinite(number) or not 0 <= number <= MAX_LIMIT:
            print(
                f"armybuilder new: --limit {item!r}: a limit is a number from 0 to {MAX_LIMIT:,}",
                file=sys.stderr,
            )
            return EXIT_INPUT
        if key in limits and limits[key] != number:
            # (the last one was taken without a word: which did the player mean?)
            print(
                f"armybuilder new: --limit {key} given twice ({fmt_num(limits[key])} and "
                f"{fmt_num(number)}); give it once",
                file=sys.stderr,
            )
            return EXIT_INPUT
        limits[key] = number
    for ct, start in gs.limit_types():
        # (a limit the system starts new rosters with, as BattleScribe's defaultCostLimit,
        # is written; a catalog's own default_limit applies unwritten)
        if start is not None and ct.default_limit is None:
            limits.setdefault(ct.id, start)
    from ..session import new_roster

    roster = new_roster(gs, index.faction.id, args.name, limits, args.schema_url)
    if args.output in (None, "-"):
        sys.stdout.write(roster.dumps())
        return EXIT_OK
    out = Path(args.output)
    try:
        check_output(out)
        if out.exists() and not args.force:
            print(
                f"armybuilder new: {out} exists; use --force to overwrite (a .bak is kept)",
                file=sys.stderr,
            )
            return EXIT_INPUT
        other = _other_program_file(roster, lib, out)
        if isinstance(other, int):
            return other
        if other is not None:
            atomic_write(out, other, backup=True)
        else:
            roster.save(out, overwrite=bool(args.force))
    except OSError as exc:
        print(f"armybuilder new: cannot write {out}: {describe_os_error(exc)}", file=sys.stderr)
        return EXIT_INPUT
    print(f"wrote {out}")
    return EXIT_OK


def _other_program_file(roster: Any, lib: Any, out: Path) -> bytes | int | None:
    """The bytes of ``new -o NAME.ros`` (a name with the suffix of a registered roster writer:
    another program's roster file, written in its format, as the builder's Save as does);
    ``None`` for any other name (the roster's own YAML); the exit code after saying why it
    cannot be (a roster of data of another kind). YAML was written under such a name, which
    neither armybuilder nor the other program could read back."""
    from ..formats import roster_writers

    suffix = out.suffix.lower()
    for _fmt, write in (w for w in roster_writers().values() if suffix in w[0].suffixes):
        try:
            data: bytes = write(roster, lib, out.name)
        except ArmybuilderError as exc:
            said = str(exc).removeprefix(f"{roster.file}: ")
            print(
                f"armybuilder new: cannot write {out}: {said} (a name ending .yaml is written "
                "as armybuilder's own roster)",
                file=sys.stderr,
            )
            return EXIT_INPUT
        return data
    return None


def _print_state_keys(keys: Sequence[StateKey], fmt: str) -> int:
    """The campaign state keys a system declares, one a line (or as JSON)."""
    import json

    if fmt == "json":
        json.dump({"state_keys": [dataclasses.asdict(k) for k in keys]}, sys.stdout, indent=2)
        print()
    elif not keys:
        print("this system declares no campaign state keys (state: is not checked)")
    else:
        print(f"campaign state keys (state:), e.g. {state_placeholder(keys)}")
        for line in state_help(keys):
            print(f"  {line}")
    return EXIT_OK


#: Codes of problems found in a catalog's data when it is loaded (see ``catalogs SYSTEM
#: FACTION``).
DATA_PROBLEMS = frozenset({"data-value", "data-reference"})


def _print_known_problems(gs: Any, args: argparse.Namespace) -> None:
    """The data problems a previous load found in the system's files (the listing reads
    only the files' heads: see docs/battlescribe.md), with the command that shows them."""
    known = {path: n for path, n in gs.known_data_problems().items() if n}
    if not known:
        return
    by_path = {str(f.path): f.id for f in gs.factions.values()}
    first = next(iter(gs.factions), "FACTION")
    given = [
        *(getattr(args, "global_catalogs", None) or []),
        *(getattr(args, "catalogs", None) or []),
    ]
    import shlex

    folders = " ".join(f"--catalogs {shlex.quote(str(d))}" for d in given)
    for path, n in sorted(known.items()):
        fid = by_path.get(path, first)
        word = "problem" if n == 1 else "problems"
        command = " ".join(x for x in ("armybuilder catalogs", folders, gs.id, fid) if x)
        print(f"    {Path(path).name}: {n} data {word} (see them: {command})")


#: How ``armybuilder catalogs`` heads a system's library catalogues (a BattleScribe
#: ``library="true"`` file: other factions draw entries from it, no roster is built from it),
#: listed apart from the factions a roster can be built from.
LIBRARIES_HEADING = "library catalogues (entries for other factions; no roster is built from one)"


def cmd_catalogs(args: argparse.Namespace) -> int:
    import json

    lib = _library(args)
    if args.paths:
        if args.format == "json":  # (it printed the text, exit 0, to a script asking JSON)
            json.dump(
                {
                    "roots": [{"path": str(r), "exists": r.is_dir()} for r in lib.roots],
                    "user_catalogs": str(user_catalog_dir()),
                },
                sys.stdout,
                indent=2,
            )
            print()
            return EXIT_OK
        for root in lib.roots:
            mark = "" if root.is_dir() else "  (missing)"
            print(f"{root}{mark}")
        print(f"user catalogs go in: {user_catalog_dir()}")
        return EXIT_OK
    if args.system is None:
        if args.format == "json":
            json.dump(
                {
                    "systems": [
                        {
                            "id": gs.id,
                            "name": gs.name,
                            "path": str(gs.path),
                            "factions": [
                                {
                                    "id": f.id,
                                    "name": f.name,
                                    "path": str(f.path),
                                    "library": f.library,
                                    **(
                                        {"data_problems": known[str(f.path)]}
                                        if str(f.path) in known
                                        else {}
                                    ),
                                }
                                for f in gs.factions.values()
                            ],
                            **(
                                {"data_problems": known[str(gs.path)]}
                                if str(gs.path) in known
                                else {}
                            ),
                        }
                        for gs in lib.systems.values()
                        for known in [gs.known_data_problems()]
                    ],
                    "problems": [p.to_json() for p in lib.problems],
                },
                sys.stdout,
                indent=2,
            )
            print()
        else:
            for gs in sorted(lib.systems.values(), key=lambda g: g.id):
                armies = [f for f in gs.factions.values() if not f.library]
                libraries = [f for f in gs.factions.values() if f.library]
                factions = ", ".join(f"{f.id} ({f.name})" for f in armies)
                print(f"{gs.id}: {gs.name}\n    factions: {factions or 'none'}")
                if libraries:
                    named = ", ".join(f"{f.id} ({f.name})" for f in libraries)
                    print(f"    {LIBRARIES_HEADING}: {named}")
                _print_known_problems(gs, args)
            if lib.problems:
                print("\nProblems in installed catalogs:")
                _problems_text(lib.problems, sys.stdout)
        return EXIT_OK
    try:
        gs = lib.system(args.system)
        if args.state:
            return _print_state_keys(gs.rules.state_keys() if gs.rules else (), args.format)
        if args.faction is None:
            if args.format == "json":
                _dump_json(
                    {
                        "id": gs.id,
                        "name": gs.name,
                        "description": gs.model.description or "",
                        "path": str(gs.path),
                        "factions": [
                            {"id": f.id, "name": f.name, "path": str(f.path), "library": f.library}
                            for f in gs.factions.values()
                        ],
                    }
                )
                return EXIT_OK
            print(f"{gs.id}: {gs.name}")
            if gs.model.description:
                print(f"  {gs.model.description}")
            for f in gs.factions.values():
                if not f.library:
                    print(f"  {f.id}: {f.name}")
            libraries = [f for f in gs.factions.values() if f.library]
            if libraries:
                print(f"  {LIBRARIES_HEADING}:")
                for f in libraries:
                    print(f"    {f.id}: {f.name}")
            return EXIT_OK
        index = gs.index(args.faction)
    except ArmybuilderError as exc:
        print(f"armybuilder catalogs: {exc}", file=sys.stderr)
        return EXIT_INPUT
    # What loading the catalog found wrong in its data (an element left out for a value that
    # could not be read, a link to nothing): the rest is listed.
    found = [p for p in gs.problems if p.code in DATA_PROBLEMS]
    if args.format == "json":
        _dump_json(
            {
                "system": gs.id,
                "system_name": gs.name,
                "faction": index.faction.id,
                "faction_name": index.faction.name,
                "entries": _entries_json(index),
                "problems": [p.to_json() for p in found],
            }
        )
        return EXIT_OK
    print(f"{gs.name} · {index.faction.name}")
    seen: set[int] = set()

    def show(entry_children: list[Any], depth: int) -> None:
        for child in entry_children:
            e = child.entry
            pad = "  " * depth
            costs = ", ".join(f"{k} {fmt_num(v)}" for k, v in e.costs.items() if v)
            group = f" [{child.group.name}]" if child.group else ""
            print(f"{pad}{e.id}: {e.name}{group}" + (f"  ({costs})" if costs else ""))
            if id(e) in seen or depth > 6:
                continue
            seen.add(id(e))
            show(index.children(e), depth + 1)

    show(index.roots, 1)
    if found:
        print("\nProblems in this catalog's data (the rest is listed above):")
        _problems_text(found, sys.stdout)
    return EXIT_OK


def _dump_json(data: Any) -> None:
    import json

    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    print()


def _entries_json(index: Any) -> list[dict[str, Any]]:
    """``catalogs SYSTEM FACTION --format json``'s entries: the tree the text lists, each
    entry's children given where it is first listed (``children`` absent where it repeats)."""
    seen: set[int] = set()

    def entries(children: list[Any], depth: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for child in children:
            e = child.entry
            item: dict[str, Any] = {
                "id": e.id,
                "name": e.name,
                "group": child.group.name if child.group else None,
                "costs": {k: v for k, v in e.costs.items() if v},
            }
            if id(e) not in seen and depth <= 6:
                seen.add(id(e))
                item["children"] = entries(index.children(e), depth + 1)
            out.append(item)
        return out

    return entries(index.roots, 1)


def cmd_schema(args: argparse.Namespace) -> int:
    from ..schemas import schema_json

    text = schema_json(args.kind)
    if args.output and args.output != "-":
        out = Path(args.output)
        try:
            atomic_write(out, text)
        except OSError as exc:
            print(
                f"armybuilder schema: cannot write {out}: {describe_os_error(exc)}",
                file=sys.stderr,
            )
            return EXIT_INPUT
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_check_catalog(args: argparse.Namespace) -> int:
    import json

    paths = [Path(p) for p in args.paths]
    missing = [p for p in paths if not p.exists()]
    if missing:
        for p in missing:
            print(f"{p}: no such file or folder", file=sys.stderr)
        return EXIT_INPUT
    problems = check_paths(paths, _library(args))
    if args.format == "json":
        json.dump(
            {"ok": not problems, "problems": [p.to_json() for p in problems]}, sys.stdout, indent=2
        )
        print()
    else:
        _problems_text(problems, sys.stdout)
        from ..catalog.lint import other_format_files

        count = 0
        for p in paths:
            if not p.is_dir():
                count += 1
                continue
            count += len(list(p.rglob("*.yaml")))
            for folder, fmt, files in other_format_files(p):
                count += len(files)
                # Said plainly: these are read as the library reads them, not linted as ours.
                print(
                    f"{folder}: {fmt} data ({len(files)} file(s)), read and each faction "
                    "translated as `armybuilder catalogs SYSTEM FACTION` does"
                )
        print(
            f"{count} file(s) checked: "
            + ("no problems" if not problems else f"{len(problems)} problem(s)")
        )
    return EXIT_OK if not problems else EXIT_INPUT


# --------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    import argparse

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--catalogs",
        action="append",
        metavar="DIR",
        # not set when absent: a command's own default must not wipe out the value given
        # before the command (`armybuilder --catalogs DIR show FILE`)
        default=argparse.SUPPRESS,
        help="also load catalogs from DIR (repeatable)",
    )
    parser = argparse.ArgumentParser(
        prog="armybuilder",
        description="Build and validate army rosters for tabletop wargames.",
    )
    parser.add_argument(
        "--catalogs",
        action="append",
        metavar="DIR",
        dest="global_catalogs",
        help="also load catalogs from DIR (repeatable)",
    )
    parser.add_argument("--version", action="version", version=f"armybuilder {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "validate", parents=[common], help="check rosters; exit 0 legal, 1 illegal, 2 unreadable"
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--strict", action="store_true", help="count warnings as errors")
    p.add_argument("-q", "--quiet", action="store_true", help="print errors only, no warnings")
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        metavar="N",
        default=0,
        help="check files in N processes (default: as many as CPUs are free; 1: one by one)",
    )
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("show", parents=[common], help="a roster with costs and computed values")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument(
        "--against",
        metavar="OTHER",
        help="also the exact odds of each unit's attacks on OTHER: a roster file of the same "
        "system, or an entry id ([FACTION:]ENTRY) fielded alone",
    )
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("new", parents=[common], help="write a fresh roster")
    p.add_argument("system")
    p.add_argument("faction")
    p.add_argument("-o", "--output", metavar="FILE", help="where to write (default: stdout)")
    p.add_argument("--name", help="the roster's name")
    p.add_argument(
        "--limit",
        action="append",
        metavar="COST=N",
        help="a cost limit, e.g. kg=3000 or, for BattleScribe data, pts=2000 (repeat for "
        "each cost type; an unknown COST is refused with the system's cost types)",
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.add_argument("--schema-url", help="schema reference written in the file's first line")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("catalogs", parents=[common], help="installed systems, factions, entries")
    p.add_argument("system", nargs="?")
    p.add_argument("faction", nargs="?")
    p.add_argument("--paths", action="store_true", help="print the catalog search path")
    p.add_argument(
        "--state", action="store_true", help="the campaign state keys (state:) SYSTEM declares"
    )
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_catalogs)

    p = sub.add_parser("schema", parents=[common], help="JSON Schema of catalog or roster files")
    p.add_argument("kind", choices=["catalog", "roster"])
    p.add_argument("-o", "--output", metavar="FILE")
    p.set_defaults(func=cmd_schema)

    # render / export live with the renderer; registering them imports no PDF library.
    from .printing import add_parsers as add_render_parsers

    add_render_parsers(sub, common)

    p = sub.add_parser("bs-adapter", help="BattleScribe conformance adapter (JSON lines, stdio)")
    p.set_defaults(
        func=lambda _args: __import__(
            "armybuilder.interop.battlescribe.adapter", fromlist=["main"]
        ).main()
    )

    p = sub.add_parser("check-catalog", parents=[common], help="lint catalog files you wrote")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=cmd_check_catalog)

    from .serve import add_parser as add_serve_parser

    add_serve_parser(sub, common)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


#: ``validate``'s options read by :func:`plain_validate_args`: flags, and options with their
#: value in the next word and the values they allow (``None``: a whole number of ASCII digits;
#: a string: any word not starting with ``-``, kept in a list under that name).
_VALIDATE_FLAGS = {"-q": "quiet", "--quiet": "quiet", "--strict": "strict"}
_VALIDATE_OPTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    "--format": ("format", ("text", "json")),
    "-j": ("jobs", None),
    "--jobs": ("jobs", None),
    "--catalogs": ("catalogs", "append"),
}


def plain_validate_args(words: Sequence[str]) -> Any | None:
    """The arguments argparse would make of a plain ``validate`` command line, read without
    argparse (importing it and building every command's parser is a tenth of the command's
    start); ``None`` for anything less plain, which goes to the full parser.

    Plain: ``validate`` first, then the options ``-q``/``--quiet``, ``--strict``, ``--format
    text|json``, ``-j``/``--jobs N`` (ASCII digits), ``--catalogs DIR`` (each option word
    exactly so, its value in the next word, not starting with ``-``) and one run of files none
    of which starts with ``-``. Everything else (help, abbreviations, ``--opt=value``, ``--``,
    a file after an option that follows the files, which argparse refuses...) is argparse's,
    with its own messages (a ``-j`` value of more digits than Python converts too).
    ``tests/cli/test_startup.py`` keeps the two in step.
    """
    if not words or words[0] != "validate":
        return None
    values: dict[str, Any] = {
        "global_catalogs": None,
        "command": "validate",
        "files": [],
        "format": "text",
        "strict": False,
        "quiet": False,
        "jobs": 0,
        "func": cmd_validate,
    }
    files: list[str] = values["files"]
    files_ended = False
    i = 1
    while i < len(words):
        word = words[i]
        i += 1
        if not word.startswith("-"):
            if files_ended:
                return None  # argparse: "unrecognized arguments"
            files.append(word)
            continue
        if files:
            files_ended = True
        if word in _VALIDATE_FLAGS:
            values[_VALIDATE_FLAGS[word]] = True
            continue
        if word not in _VALIDATE_OPTIONS or i >= len(words):
            return None
        name, allowed = _VALIDATE_OPTIONS[word]
        value = words[i]
        i += 1
        if value.startswith("-"):
            return None
        if allowed is None:
            if not (value.isascii() and value.isdigit()):
                return None
            try:
                values[name] = int(value)
            except ValueError:  # more digits than Python converts: argparse's usage error
                return None
        elif isinstance(allowed, tuple):
            if value not in allowed:
                return None
            values[name] = value
        else:
            values.setdefault(name, []).append(value)
    if not files:
        return None
    import types

    return types.SimpleNamespace(**values)


def _run(args: Any) -> int:
    """Run the command the arguments name, with the exit codes of bad input (a terminal
    shown a roster's control characters, never sent them: see :func:`terminal_safe`)."""
    with guarded_output(), terminal_safe():
        return _run_command(args)


def _run_command(args: Any) -> int:
    try:
        return int(args.func(args))
    except InputError as exc:
        _problems_text(exc.problems, sys.stderr)
        return EXIT_INPUT
    except ArmybuilderError as exc:
        print(f"armybuilder: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``armybuilder`` command."""
    words = list(sys.argv[1:] if argv is None else argv)
    plain = plain_validate_args(words)
    if plain is not None:
        return _run(plain)
    parser = build_parser()
    commands = _command_names(parser)
    found = builder_arguments(words)
    if found is None and words and words[0] not in commands and not words[0].startswith("-"):
        parser.error(f"unknown command {words[0]!r} (commands: {', '.join(commands)})")
    if found is not None:
        # `armybuilder` alone opens the interactive builder; `armybuilder FILE` opens a roster;
        # `--catalogs DIR` (repeatable) adds catalog folders, watched while it runs.
        path, folders = found
        missing = [f for f in folders if not Path(f).is_dir()]
        if missing:
            parser.error(f"--catalogs {missing[0]}: no such folder")
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            parser.print_help()
            print("\nThe interactive builder needs a terminal; the commands above work anywhere.")
            return EXIT_OK if not words else EXIT_INPUT
        from ..tui.app import run

        return run(path, [Path(f) for f in folders])
    args = parser.parse_args(words)
    if not hasattr(args, "func"):  # options only, e.g. `armybuilder --catalogs DIR`
        parser.error(f"a command is needed after the options (commands: {', '.join(commands)})")
    return _run(args)


if __name__ == "__main__":
    raise SystemExit(main())
