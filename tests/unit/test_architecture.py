"""Layering rules from DESIGN.md, enforced.

* The core names no game system: everything about one system lives in its catalog folder and
  its rules module.
* ``armybuilder validate`` imports neither Textual nor WeasyPrint.
* Nothing below the TUI imports Textual; nothing below the renderer imports WeasyPrint.

The rooms of the core and the one direction of their imports: ``test_import_cycles.py``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from armybuilder.paths import bundled_dir

PACKAGE = Path(__file__).resolve().parents[2] / "armybuilder"
SYSTEMS_DIR = PACKAGE / "rules" / "systems"


def _system_words() -> set[str]:
    words: set[str] = set()
    for folder in bundled_dir("catalogs").iterdir():
        if folder.is_dir():
            words.add(folder.name)
            words.add(folder.name.replace("-", "_"))
    return words


def _core_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if SYSTEMS_DIR not in p.parents]


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_names_no_game_system(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    found = sorted(w for w in _system_words() if w in text)
    assert not found, f"{path.name} names game system(s) {found}; move that to the system module"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_layering(path: Path) -> None:
    rel = path.relative_to(PACKAGE).parts
    imported = _imports(path)
    if rel[0] != "tui":
        assert "textual" not in imported, f"{path} imports textual outside armybuilder/tui"
    if rel[0] != "render":
        assert "weasyprint" not in imported, f"{path} imports weasyprint outside render/"


def assert_nothing_loaded(code: str) -> None:
    """Run ``code`` in a new interpreter; it prints ``LOADED`` and the modules it should not
    have imported, and that list must be empty."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "LOADED []" in out.stdout


def test_validate_imports_no_tui_or_pdf_stack() -> None:
    example = bundled_dir("examples") / "infantry-ops" / "rifle-platoon.yaml"
    code = (
        "import sys\n"
        "from armybuilder.cli import main\n"
        f"rc = main(['validate', '--quiet', {str(example)!r}])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'weasyprint'))\n"
        "print('LOADED', bad)\n"
        "raise SystemExit(rc)\n"
    )
    assert_nothing_loaded(code)


def test_a_warm_validate_imports_no_pydantic() -> None:
    # With the library snapshot in the cache (the first run writes it), `validate` of an
    # ordinary roster reads the catalogs as plain objects and the header by hand: pydantic
    # (and the models built on it) is not imported at all (issue 17: start-up).
    example = bundled_dir("examples") / "infantry-ops" / "rifle-platoon.yaml"
    code = (
        "import sys\n"
        "from armybuilder.cli import main\n"
        f"rc = main(['validate', '--quiet', {str(example)!r}])\n"
        "heavy = ('pydantic', 'pydantic_core', 'armybuilder.model.catalog',\n"
        "         'armybuilder.model.roster', 'textual', 'weasyprint')\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in heavy\n"
        "                       or m in heavy))\n"
        "raise SystemExit(rc)\n"
    )
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)  # warm
    assert_nothing_loaded(code)


def test_the_builder_paints_before_the_catalog_models_load() -> None:
    # The home screen and the editor are drawn first; the catalogs (pydantic models, the
    # YAML loader) load in a worker afterwards, so none of it is imported by the screens.
    code = (
        "import sys\n"
        "import armybuilder.tui.app, armybuilder.tui.screens.editor\n"
        "heavy = ('pydantic', 'ruamel', 'armybuilder.catalog', 'armybuilder.model')\n"
        "print('LOADED', sorted({m for m in sys.modules if m.startswith(heavy)}))\n"
    )
    assert_nothing_loaded(code)
