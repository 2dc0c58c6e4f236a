"""Fixtures for the printing tests: rosters written to files, evaluated, rendered once.

PDFs are read back with pypdf (text extraction, page boxes, the outline). Rendering costs
about half a second a page, so each PDF a test needs is made once per session.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from render_helpers import Rendered
from sheet_layout import printed

from armybuilder.catalog import Library
from armybuilder.render import load
from armybuilder.rules.engine import Evaluation


@pytest.fixture(scope="session")
def write_roster(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], Path]:
    folder = tmp_path_factory.mktemp("rosters")

    def write(name: str, text: str) -> Path:
        path = folder / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def evaluate_file(library: Library) -> Callable[[Path], Evaluation]:
    def run(path: Path) -> Evaluation:
        return load(path, library)[2]

    return run


@pytest.fixture(scope="session")
def render(library: Library) -> Callable[..., Rendered]:
    """Render a roster file to PDF and read it back: once per session for each file, paper
    and set of options, shared with the sheet tests (sheet_layout.printed)."""

    def run(path: Path, **options: Any) -> Rendered:
        return printed(path, library, **options)

    return run


@pytest.fixture
def user_templates(_isolated_home: None) -> Iterator[Path]:
    """The user's template folder (under the isolated ARMYBUILDER_HOME), emptied after use."""
    import shutil

    from armybuilder.render import user_template_dir

    folder = user_template_dir()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)
