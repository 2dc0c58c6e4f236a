"""`armybuilder serve`: the builder in a web browser (textual-serve), driven by a real one.

A headless Debian chromium loads the served page, the keys a player would press are sent
through the DevTools protocol, and the screen is read from the page's terminal (the xterm.js
buffer the canvas is drawn from). Skipped, saying why, where chromium or textual-serve is not
installed. The command's own messages (missing extra, bad port) are tested without either.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, REPO

from armybuilder.cli import main
from armybuilder.cli.serve import INSTALL_HINT, serve_command

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HAVE_SERVE = importlib.util.find_spec("textual_serve") is not None
HAVE_AIOHTTP = importlib.util.find_spec("aiohttp") is not None

#: Run before the page's own scripts: the first object given a ``terminal`` (the xterm.js
#: Terminal textual-serve creates) is kept as ``window.__term``, so the test reads its buffer.
EXPOSE_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
    if (value && value.buffer && !window.__term) { window.__term = value; }
  },
});
"""

SCREEN_JS = """
(() => {
  const t = window.__term;
  if (!t) return null;
  const b = t.buffer.active, lines = [];
  for (let y = 0; y < t.rows; y++) {
    const line = b.getLine(b.viewportY + y);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines.join("\\n");
})()
"""

#: DevTools key events: (key, code, Windows virtual key code).
KEYS = {
    "f4": ("F4", "F4", 115),
    "down": ("ArrowDown", "ArrowDown", 40),
    "ctrl+s": ("s", "KeyS", 83),
}


# --------------------------------------------------------------------------- the command


def test_without_textual_serve_it_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "textual_serve", None)
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == INSTALL_HINT
    assert "pip install 'armybuilder[serve]'" in err


def test_bad_arguments_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not HAVE_SERVE:
        pytest.skip("textual-serve is not installed (pip install 'armybuilder[serve]')")
    assert main(["serve", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml: no such file" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
    assert "port 70000 is not a port number" in capsys.readouterr().err


def test_the_served_command_is_the_builder(tmp_path: Path) -> None:
    roster = tmp_path / "my squad.yaml"
    command = serve_command(str(roster), python="/usr/bin/python3")
    assert command == f"/usr/bin/python3 -m armybuilder.tui '{roster.resolve()}'"
    assert serve_command(None, python="py") == "py -m armybuilder.tui"


# --------------------------------------------------------------------------- in a browser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


@contextlib.contextmanager
def process(args: list[str], **kw: Any) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen(args, text=True, **kw)
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class DevTools:
    """Just enough of the Chrome DevTools protocol: commands on one page target."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.next_id = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        mine = self.next_id
        await self.ws.send_str(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.receive_str(), 60))
            if msg.get("id") == mine:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return dict(msg.get("result", {}))

    async def screen(self) -> str:
        found = await self.call("Runtime.evaluate", expression=SCREEN_JS, returnByValue=True)
        return str(found.get("result", {}).get("value") or "")

    async def wait_screen(self, pattern: str, timeout: float = 90.0) -> str:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = await self.screen()
            if re.search(pattern, text):
                return text
            await asyncio.sleep(0.5)
        raise AssertionError(f"{pattern!r} never showed; the screen read:\n{text}")

    async def key(self, name: str) -> None:
        if name in KEYS:
            key, code, vk = KEYS[name]
            mods = 2 if name.startswith("ctrl+") else 0
            common = {"key": key, "code": code, "windowsVirtualKeyCode": vk, "modifiers": mods}
            await self.call("Input.dispatchKeyEvent", type="rawKeyDown", **common)
            await self.call("Input.dispatchKeyEvent", type="keyUp", **common)
        else:  # a printable character
            await self.call("Input.dispatchKeyEvent", type="keyDown", key=name, text=name)
            await self.call("Input.dispatchKeyEvent", type="keyUp", key=name)
        await asyncio.sleep(0.3)


async def drive(devtools_port: int, url: str, roster: Path) -> str:
    import aiohttp

    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{devtools_port}/json") as resp:
            targets = await resp.json(content_type=None)
        page = next(t for t in targets if t.get("type") == "page")
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            dt = DevTools(ws)
            await dt.call("Page.enable")
            await dt.call("Runtime.enable")
            await dt.call("Page.addScriptToEvaluateOnNewDocument", source=EXPOSE_TERMINAL)
            await dt.call("Emulation.setDeviceMetricsOverride", width=1600, height=1000,
                          deviceScaleFactor=1, mobile=False)  # fmt: skip
            await dt.call("Page.navigate", url=url)
            # The editor on the roster: its name in the tree and its totals at the bottom.
            await dt.wait_screen(r"Standard Terminator squad")
            await dt.wait_screen(r"Models 6")
            # (the details pane may paint a frame after the totals bar)
            before = await dt.wait_screen(r"Squads: 1")
            await dt.call("Runtime.evaluate", expression="window.__term.focus()")
            # Build a unit: to the catalog (F4), one down (Grey Knight Squad), add it (a).
            await dt.key("f4")
            await dt.key("down")
            await dt.key("a")
            after = await dt.wait_screen(r"Grey Knight Squad  1 chosen")
            await dt.key("ctrl+s")
            for _ in range(120):
                if "grey-knight-squad" in roster.read_text():
                    break
                await asyncio.sleep(0.5)
            return before + "\n=====\n" + after


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium here (apt-get install chromium)")
@pytest.mark.skipif(not HAVE_SERVE, reason="textual-serve is not installed (the 'serve' extra)")
@pytest.mark.skipif(not HAVE_AIOHTTP, reason="aiohttp (textual-serve's own) is not installed")
def test_a_browser_builds_a_unit(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    roster = tmp_path / "squad.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "standard-squad.yaml", roster)
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "ARMYBUILDER_HOME": str(tmp_path / "home"),
    }
    serve = [sys.executable, "-m", "armybuilder", "serve", str(roster), "--port", str(port)]
    profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp_path)
    devtools = free_port()
    browser = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--remote-debugging-port={devtools}",
        "about:blank",
    ]
    log = tmp_path / "serve.log"
    with (
        log.open("w") as out,
        process(serve, env=env, stdout=out, stderr=subprocess.STDOUT),
        process(browser, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ):
        wait_port(port, 60)
        wait_port(devtools, 60)
        shown = asyncio.run(drive(devtools, f"http://localhost:{port}/", roster))
    before, after = shown.split("\n=====\n")
    assert "Squads: 1" in before and "Models: 6" in before
    assert "Grey Knight Squad  1 chosen" not in before and "▶ ⚠ Grey Knight" not in before
    # The new squad is on the screen the browser shows (the tree, the catalog's count, the
    # computed values, its issue: a Grey Knight squad of one model is short of six), and in
    # the file saved from it.
    assert "└ ▶ ⚠ Grey Knight Squad" in after, after
    assert "Squads: 2" in after and "Models: 7" in after
    assert "Grey Knight Squad has 1 × Model; at least 6 needed" in after
    saved = roster.read_text()
    assert "entry: grey-knight-squad" in saved, log.read_text()
    assert saved.count("entry: terminator-squad") == 1
