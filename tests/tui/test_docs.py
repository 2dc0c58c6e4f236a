"""docs/tui.md lists every key binding with its default keys (a drift test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.tui.bindings import ALL_ACTIONS, ActionSpec
from armybuilder.tui.screens.help import display_keys
from armybuilder.tui.settings import load_settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "tui.md"


@pytest.mark.parametrize("spec", ALL_ACTIONS, ids=lambda s: s.id)
def test_every_binding_is_documented(spec: ActionSpec) -> None:
    row = f"| {display_keys(spec.keys)} | {spec.help} | `{spec.id}` |"
    assert row in DOC.read_text(encoding="utf-8")


def test_binding_ids_are_unique() -> None:
    ids = [a.id for a in ALL_ACTIONS]
    assert len(ids) == len(set(ids))


def test_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    assert load_settings(path).keymap == {}
    path.write_text(
        'theme = "textual-light"\nfoo = 1\n[keys]\n"editor.add" = "a, insert"\n'
        '"editor.nope" = "x"\n"editor.save" = ["ctrl+s", "f2"]\n"editor.undo" = 3\n',
        encoding="utf-8",
    )
    settings = load_settings(path)
    assert settings.theme == "textual-light"
    assert settings.keymap == {"editor.add": "a,insert", "editor.save": "ctrl+s,f2"}
    assert len(settings.problems) == 3  # unknown id, keys not text, unknown setting
    path.write_text("[keys\n", encoding="utf-8")
    assert load_settings(path).problems
