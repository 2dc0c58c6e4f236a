"""StarMarines campaign state (IX-B; X, Vehicle Damage Table): a vehicle's recorded damage
names results of its damage table, since the record sheet ticks them by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "starmarines" / "starmarines-example.yaml"
SCOUT = "  - entry: ex-hover-scout\n"


def with_scout_state(tmp_path: Path, state: str) -> tuple[Path, str]:
    text = EXAMPLE.read_text()
    assert text.count(SCOUT) == 1
    text = text.replace(SCOUT, SCOUT + f"    state: {state}\n")
    path = tmp_path / "damaged.yaml"
    path.write_text(text)
    return path, text


def test_recorded_vehicle_damage_names_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text = with_scout_state(tmp_path, "{damage: [Stunned, stunned, Wrecked], lost: 0}")
    main(["validate", str(path)])
    out = [line for line in capsys.readouterr().out.splitlines() if "smr-state" in line]
    line = text[: text.index("[Stunned, stunned")].count("\n") + 1
    col_lower = text.index("stunned, Wrecked") - text.rfind("\n", 0, text.index("stunned"))
    col_wrecked = text.index("Wrecked") - text.rfind("\n", 0, text.index("Wrecked"))
    assert out == [
        f"{path}:{line}:{col_lower}: warning: Hover scout: vehicle damage 'stunned' is not a "
        "result of its damage table (Stunned, Disarmed, Crippled, Destroyed); did you mean "
        "'Stunned'? The record sheet cannot tick it. [smr-state] "
        "(StarMarines IX-B; X (Vehicle Damage Table))",
        f"{path}:{line}:{col_wrecked}: warning: Hover scout: vehicle damage 'Wrecked' is not a "
        "result of its damage table (Stunned, Disarmed, Crippled, Destroyed). The record sheet "
        "cannot tick it. [smr-state] (StarMarines IX-B; X (Vehicle Damage Table))",
    ]


def test_damage_of_the_wrong_kind_is_the_engines_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = with_scout_state(tmp_path, "{damage: Stunned, wonds: 1}")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        "state.damage must be a list of texts (e.g. [Stunned]); got 'Stunned' [state-invalid]"
        in out
    )
    assert "unknown campaign state key 'wonds'; did you mean 'wounds'?" in out
    assert "smr-state" not in out
