"""``armybuilder show FILE --against OTHER``: the generic part (opponent lookup, errors, the
JSON shape) and the Starship Troopers and Space Hulk answers. The other systems are tested
in tests/systems/<system>/test_*odds.py."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EX = REPO / "examples"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "armybuilder", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_another_system_is_a_clear_error() -> None:
    out = _run(
        "show",
        str(EX / "infantry-ops" / "rifle-platoon.yaml"),
        "--against",
        str(EX / "space-hulk" / "standard-squad.yaml"),
    )
    assert out.returncode == 2
    assert "space-hulk roster" in out.stderr and "infantry-ops" in out.stderr
    assert "Traceback" not in out.stderr


def test_unreadable_opponent_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: [unclosed\n", encoding="utf-8")
    out = _run("show", str(EX / "infantry-ops" / "rifle-platoon.yaml"), "--against", str(bad))
    assert out.returncode == 2
    assert "bad.yaml" in out.stderr and "Traceback" not in out.stderr


def test_starship_troopers_against_the_arachnid_swarm() -> None:
    out = _run(
        "show",
        str(EX / "starship-troopers" / "mi-squad.yaml"),
        "--against",
        str(EX / "starship-troopers" / "arachnid-swarm.yaml"),
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)["against"]
    assert data["opponent"]["faction"] == "arachnids"
    rows = data["matchups"]
    assert rows and all(r["value"]["target_id"] for r in rows)
    # the same lines the MI squad's damage tables give (Characteristics, Damage)
    rifle = next(r for r in rows if "Morita" in r["label"])
    hits = [F(h["exact"]) for h in rifle["value"]["hits"]]
    # 2xD6 against Target 5+ (the Arachnid Warrior's profile): each die hits on 5-6 (1/3),
    # so two dice hit 0/1/2 times with 4/9, 4/9, 1/9
    assert hits == [F(4, 9), F(4, 9), F(1, 9)]


def test_space_hulk_expected_shots() -> None:
    out = _run(
        "show",
        str(EX / "space-hulk" / "squad-with-librarian.yaml"),
        "--against",
        str(EX / "space-hulk" / "standard-squad.yaml"),
        "--format",
        "json",
    )
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["against"]["matchups"]
    bolter = next(r for r in rows if r["key"] == "kill-storm-bolter")
    # Table 2: storm bolter 2D6, kills on 6+: 11/36 per shot; n models need n / (11/36) shots
    assert bolter["value"]["kill"] == "11/36"
    n = bolter["value"]["models"]
    assert F(bolter["value"]["expected_shots_to_kill_all"]) == n * F(36, 11)
