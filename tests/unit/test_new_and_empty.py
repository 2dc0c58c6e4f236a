"""A new roster is the same file from the builder as from `armybuilder new` (schema line
first); an empty roster and a platoon without squads do not read as plainly legal."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.cli import main
from armybuilder.rosters import Roster
from armybuilder.rules import evaluate
from armybuilder.session import EditSession


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


def test_builder_and_cli_write_the_same_new_roster(lib: Library, tmp_path: Path) -> None:
    cli_file = tmp_path / "cli.yaml"
    assert (
        main(["new", "starship-marine", "martian", "--name", "Boarders", "-o", str(cli_file)]) == 0
    )
    session = EditSession.new(lib, "starship-marine", "martian", "Boarders")
    built = session.save(tmp_path / "builder.yaml")
    text = built.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert text == cli_file.read_text(encoding="utf-8")


def test_an_empty_roster_is_a_warning(lib: Library) -> None:
    roster = Roster.from_text(
        "format: 1\nsystem: space-hulk\nfaction: terminators\nname: Nothing yet\n", "<test>"
    )
    gs = lib.system("space-hulk")
    ev = evaluate(roster, gs.index("terminators"), gs.rules)
    assert [(i.code, i.severity) for i in ev.issues] == [("roster-empty", "warning")]
    assert ev.valid  # legal, but it says so


def test_a_platoon_without_squads_is_an_error(lib: Library) -> None:
    # Infantry Operations, The Infantry Platoon: a platoon is made of squads (four of foot
    # riflemen, structure table); with none there is nothing to field.
    roster = Roster.from_text(
        "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Hollow\n"
        "selections:\n  - entry: platoon\n    selections:\n      - entry: foot\n",
        "<test>",
    )
    gs = lib.system("infantry-ops")
    ev = evaluate(roster, gs.index("inner-sphere"), gs.rules)
    assert "io-no-squads" in ev.codes()
    assert not ev.valid
