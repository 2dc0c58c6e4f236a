"""`check-catalog` on one bundled file says what is wrong with it, and nothing else.

A system file's shared entries may count within an entry its factions define (Infantry
Operations: the trooper's motive mass is scoped to the `platoon` of inner-sphere.yaml). Checked
alone, system.yaml used to report four false "condition scope 'platoon'" problems and exit 2;
the factions beside it and those installed for the same system now supply those ids.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[2]
BUNDLED = sorted((REPO / "catalogs").glob("*/*.yaml"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.out + cap.err
    return code, cap.out


@pytest.mark.parametrize("path", BUNDLED, ids=[f"{p.parent.name}/{p.name}" for p in BUNDLED])
def test_every_bundled_file_alone_has_no_problems(
    capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    code, out = run(capsys, "check-catalog", str(path))
    assert (code, out) == (0, "1 file(s) checked: no problems\n")


def test_a_system_file_copied_alone_still_knows_its_installed_factions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system = tmp_path / "system.yaml"
    system.write_text((REPO / "catalogs" / "infantry-ops" / "system.yaml").read_text())
    assert run(capsys, "check-catalog", str(system))[0] == 0


def test_a_scope_no_faction_defines_is_still_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Under another system id, no installed faction has a `platoon`: the four conditions
    # (Infantry Operations movement table) name nothing.
    text = (REPO / "catalogs" / "infantry-ops" / "system.yaml").read_text()
    system = tmp_path / "system.yaml"
    system.write_text(text.replace("\nid: infantry-ops\n", "\nid: other-ops\n"))
    code, out = run(capsys, "check-catalog", str(system))
    assert code == 2
    lines = [n for n, s in enumerate(text.splitlines(), 1) if "scope: platoon" in s]
    assert len(lines) == 4, lines
    for line in lines:
        assert (
            f"{system}:{line}:56: condition scope 'platoon' is not self, parent, roster, force, "
            "ancestor, top, type:<unit|model|upgrade> or an entry id"
        ) in out
