"""The user's TUI settings: ``<user data folder>/settings.toml``.

::

    # armybuilder TUI settings
    theme = "textual-dark"          # any Textual theme name

    [keys]                          # binding id = keys (comma-separated for several)
    "editor.add" = "a,insert"
    "editor.remove" = "delete,x"
    "editor.save" = "ctrl+s"

The binding ids are listed by the help screen (F1) and in ``docs/tui.md``. Unknown ids and
unreadable files are reported when the TUI starts, never fatal.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import user_data_dir
from .bindings import ACTIONS_BY_ID, types_nothing


def settings_path() -> Path:
    """Where the settings file lives."""
    return user_data_dir() / "settings.toml"


@dataclass
class Settings:
    """What the settings file says, and what was wrong with it."""

    keymap: dict[str, str] = field(default_factory=dict)
    theme: str | None = None
    problems: list[str] = field(default_factory=list)


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file (a missing file gives the defaults)."""
    path = path or settings_path()
    settings = Settings()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return settings
    except OSError as exc:
        settings.problems.append(f"{path}: cannot be read ({exc.strerror})")
        return settings
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        settings.problems.append(f"{path}: {exc}")
        return settings
    theme = data.get("theme")
    if isinstance(theme, str):
        settings.theme = theme
    elif theme is not None:
        settings.problems.append(f'{path}: theme must be text, e.g. theme = "textual-dark"')
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        settings.problems.append(f'{path}: [keys] must be a table of binding id = "keys"')
        return settings
    for binding_id, value in keys.items():
        if binding_id not in ACTIONS_BY_ID:
            settings.problems.append(
                f"{path}: unknown binding id {binding_id!r} (the help screen lists them)"
            )
            continue
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not value.strip():
            settings.problems.append(f'{path}: keys for {binding_id!r} must be text, e.g. "ctrl+s"')
            continue
        mapped = [k.strip() for k in value.split(",") if k.strip()]
        spec = ACTIONS_BY_ID[binding_id]
        if spec.ctrl_only and not all(types_nothing(k) for k in mapped):
            # These act even in a text field: a key that types there would never be typed.
            settings.problems.append(
                f"{path}: keys for {binding_id!r} must be Ctrl, Alt or function keys (it "
                f'works in text fields too), e.g. "ctrl+s"; kept {spec.keys!r}'
            )
            continue
        settings.keymap[binding_id] = ",".join(mapped)
    for key in data:
        if key not in {"theme", "keys"}:
            settings.problems.append(f"{path}: unknown setting {key!r}")
    return settings
