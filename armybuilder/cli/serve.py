"""``armybuilder serve``: the builder in a web browser, through textual-serve.

The server runs on this machine (``localhost`` by default) and starts one builder per browser
tab, exactly the app ``armybuilder`` opens in a terminal. textual-serve is an optional extra
(``pip install 'armybuilder[serve]'``); without it the command says so and exits 2.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_INPUT, EXIT_OK, catalog_folders

INSTALL_HINT = (
    "armybuilder serve needs textual-serve, which is not installed: "
    "pip install 'armybuilder[serve]' (or pip install textual-serve)"
)


def serve_command(file: str | None, python: str = sys.executable) -> str:
    """The shell command textual-serve runs for each browser tab: the builder itself."""
    words = [python, "-m", "armybuilder.tui"]
    if file:
        words.append(str(Path(file).resolve()))
    return " ".join(shlex.quote(w) for w in words)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from textual_serve.server import Server
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return EXIT_INPUT
    if args.file and not Path(args.file).is_file():
        print(f"armybuilder serve: {args.file}: no such file", file=sys.stderr)
        return EXIT_INPUT
    if not 0 < args.port < 65536:
        print(f"armybuilder serve: port {args.port} is not a port number", file=sys.stderr)
        return EXIT_INPUT
    catalogs = catalog_folders(args)  # (one that is no folder: refused, as every command)
    if catalogs:  # the builders started for the browser find them as the terminal one does
        found = os.environ.get("ARMYBUILDER_CATALOGS", "")
        paths = [str(Path(c).resolve()) for c in catalogs] + ([found] if found else [])
        os.environ["ARMYBUILDER_CATALOGS"] = os.pathsep.join(paths)
    url = f"http://{args.host}:{args.port}"
    print(f"armybuilder serve: open {url} in a browser on this machine (Ctrl+C stops)")
    if args.host not in {"localhost", "127.0.0.1", "::1"}:
        print(
            "armybuilder serve: warning: served beyond this machine; anyone who can reach "
            f"{args.host}:{args.port} can open and save rosters as you",
            file=sys.stderr,
        )
    server = Server(serve_command(args.file), host=args.host, port=args.port, title="armybuilder")
    server.serve()
    return EXIT_OK


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "serve",
        parents=[common],
        help="the builder in a web browser (needs the 'serve' extra: textual-serve)",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="a roster to open in each tab")
    p.add_argument("--host", default="localhost", help="address to listen on (default localhost)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.set_defaults(func=cmd_serve)
