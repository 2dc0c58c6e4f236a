"""A catalog cannot make armybuilder import a module the user did not choose.

`module:` in a system.yaml used to import any installed dotted module (`module: this.x`
imported `this`, printing the Zen of Python during validate). Now only modules of
armybuilder.rules.systems load by name; any other runs only when the user trusts it: an
installed `armybuilder.rules` entry point, or a module listed in ARMYBUILDER_RULES_MODULES
(docs/catalog-format.md, Rules modules). Refused modules are never imported.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from armybuilder import plugin
from armybuilder.cli import main

MODULE = """\
from pathlib import Path
from armybuilder.plugin import SystemRules

Path(__file__).with_name("imported.txt").write_text("imported")


class Rules(SystemRules):
    def analyse(self, ev):
        ev.set_value(ev.root, "greeting", "Greeting", "hello", text="hello from the module")


RULES = Rules()
"""


def setup(tmp_path: Path, module: str) -> tuple[Path, Path, Path]:
    """A package on sys.path (writes imported.txt when imported) and a system naming it."""
    pkg = tmp_path / "code" / "sneaky"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text(MODULE)
    root = tmp_path / "catalogs" / "mini"
    root.mkdir(parents=True)
    (root / "system.yaml").write_text(
        f"kind: system\nid: mini\nname: Mini\nmodule: {module}\n"
        "cost_types:\n  - {id: pts, name: Points}\nforces:\n  - {id: band, name: Band}\n"
    )
    (root / "band.yaml").write_text(
        "kind: catalog\nid: band\nsystem: mini\nname: Band\nentries:\n  - {id: x, name: X}\n"
    )
    roster = tmp_path / "r.yaml"
    roster.write_text("format: 1\nsystem: mini\nfaction: band\nname: R\nselections: []\n")
    return tmp_path / "catalogs", roster, pkg / "imported.txt"


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ARMYBUILDER_RULES_MODULES", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.setattr(plugin, "_LOADED", {})
    for name in ("sneaky", "sneaky.rules"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err
    return code, cap.out + cap.err


def test_a_catalog_alone_cannot_import_a_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, roster, marker = setup(tmp_path, "sneaky.rules")
    system = root / "mini" / "system.yaml"
    code, out = run(capsys, "check-catalog", str(root / "mini"))
    assert code == 2
    assert f"{system}:4:9: rules module 'sneaky.rules' is not loaded" in out
    assert "'armybuilder.rules' entry point or listing it in ARMYBUILDER_RULES_MODULES" in out
    code, out = run(capsys, "validate", "--catalogs", str(root), str(roster))
    assert code == 2
    assert not marker.exists(), "the module was imported"


def test_the_zen_of_python_stays_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, roster, _ = setup(tmp_path, "this.x")
    code, out = run(capsys, "validate", "--catalogs", str(root), str(roster))
    assert code == 2
    assert "Beautiful is better than ugly" not in out
    assert "rules module 'this.x' is not loaded" in out


def test_a_module_the_user_lists_is_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, roster, marker = setup(tmp_path, "sneaky.rules")
    monkeypatch.setenv("ARMYBUILDER_RULES_MODULES", "other.module, sneaky.rules")
    code, out = run(capsys, "show", "--catalogs", str(root), str(roster))
    assert code == 0, out
    assert marker.exists()
    assert "Greeting: hello from the module" in out


def test_an_installed_entry_point_is_trusted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An installed distribution offering the module in the armybuilder.rules group (its
    # dist-info on sys.path is what `pip install` leaves); the catalog names the entry point.
    root, roster, marker = setup(tmp_path, "mini-rules")
    info = tmp_path / "code" / "sneaky-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sneaky\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[armybuilder.rules]\nmini-rules = sneaky.rules\n")
    code, out = run(capsys, "show", "--catalogs", str(root), str(roster))
    assert code == 0, out
    assert marker.exists()
    assert "Greeting: hello from the module" in out


def test_bundled_modules_load_by_name() -> None:
    rules = plugin.load_rules("infantry_ops")
    assert plugin.load_rules("armybuilder.rules.systems.infantry_ops") is rules
    assert rules is not None and type(rules).__module__.endswith("systems.infantry_ops")
    with pytest.raises(plugin.RulesModuleError, match="not loaded"):
        plugin.load_rules("os.path")
