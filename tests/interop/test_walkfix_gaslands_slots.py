"""A Gaslands vehicle over its build slots is told so in the groups the player sees: the data's
constraint is on "Options", a group of groups (Weapons, Upgrades, Trailers) that neither the
catalog nor the details pane shows, only its subgroups. The message said "Car has 4 Build
Slots in Options"; it now names the subgroups shown ("in its Weapons and Upgrades"; Trailers,
hidden unless the sponsor is Rusty's Bootleggers, only then). One message, read by every
place: ``validate``, ``show``, the page the PDF is made from, and the builder's issues (the
session's evaluation). Read from the real data in ``../shared/bsdata`` (skipped with a
message where it is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.interop.battlescribe.rosfile import new_session, select, session_yaml
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the Gaslands test data is not at {BSDATA}"
)

#: One build slot each: Machine Gun, Heavy Machine Gun, Armour Plating; the Car (2 slots).
MG, HMG, ARMOUR = "bbee-877e-1934-1980", "2930-d6e5-b4c6-1768", "89d7-ec4b-86b1-20fc"
CAR = "5fc8-4273-0b18-c611"
WANT = "Car has 4 Build Slots in its Weapons and Upgrades; at most 2 Build Slots allowed"


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([BSDATA]).scan()


@pytest.fixture
def roster(lib: Library, tmp_path: Path) -> Path:
    gs = lib.system("gaslands")
    assert isinstance(gs, BattleScribeSystem)
    s = new_session(gs, "gaslands")
    car = select(s, CAR)
    for option in (MG, HMG, ARMOUR, ARMOUR):
        select(s, option, car)
    path = tmp_path / "team.yaml"
    path.write_text(session_yaml(s, gs, "gaslands"), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "command",
    [["validate"], ["show"], ["export", "--to", "html"]],
    ids=["validate", "show", "pdf-page"],
)
def test_the_commands_name_the_groups_shown(
    roster: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    code = main(["--catalogs", str(BSDATA), *command, str(roster)])
    out = capsys.readouterr().out
    assert code in (0, 1), out
    assert WANT in out.replace("\n", " "), out
    assert "in Options" not in out, out


def test_the_builder_s_issues_name_them_too(lib: Library, roster: Path) -> None:
    s = EditSession.open(roster, lib, autosave=False)
    try:
        messages = [i.message for i in s.evaluate().issues if i.code == "max-exceeded"]
    finally:
        s.close()
    assert [m.split(" > ")[-1] for m in messages] == [WANT]
