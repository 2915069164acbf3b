"""A small skill ladder (issue 30 §3): what a designer reads from it, seeded and the same on
any number of processes; the report's section and the one line without OpenSpiel."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import BadSetup
from design import ladder
from report.build import Request, build

ROOT = Path(__file__).resolve().parents[2]


def test_in_god_num_the_greedy_player_is_a_level_above_random() -> None:
    run = ladder.run("godnum", 2, budgets=(5,), games=8, seed=1)
    got = run.as_json()
    names = got["ladder_players"]
    assert names == ["random", "greedy", "search 5"]
    assert got["games"] == 3 * 8
    rating = {r["name"]: r for r in got["ratings"]}
    assert rating["random"]["elo"] == 0.0
    assert rating["greedy"]["low"] > 0  # its whole interval above random's
    assert ["greedy", "random"] in got["significantly_better"]
    assert got["skill_depth"] >= 2
    assert got["chain"][-1] == "greedy"
    pairs = {(p["a"], p["b"]): p for p in got["head_to_head"]}
    assert all(p["games"] == 8 and p["low"] <= p["score_a"] <= p["high"]
               for p in pairs.values())
    assert pairs[("random", "greedy")]["high"] < 0.5  # greedy's lead is beyond the interval


def test_a_ladder_is_the_same_on_one_or_two_processes() -> None:
    one = ladder.run("godnum", 2, budgets=(4,), games=2, seed=4, workers=1)
    two = ladder.run("godnum", 2, budgets=(4,), games=2, seed=4, workers=2)
    assert one.games == two.games
    assert one.as_json()["ratings"] == two.as_json()["ratings"]


def test_wuxing_has_one_skill_level() -> None:
    """Nobody decides anything in WuXing: the ladder says so and claims no level."""
    got = ladder.run("wuxing", 2, budgets=(5,), games=4).as_json()
    assert got["decisions_per_game"] == 0
    assert got["skill_depth"] == 1
    assert got["significantly_better"] == []


def test_bad_ladder_settings_are_refused() -> None:
    with pytest.raises(BadSetup, match="budgets"):
        ladder.run("godnum", 2, budgets=(0,), games=4)
    with pytest.raises(BadSetup, match="ladder-games"):
        ladder.run("godnum", 2, budgets=(5,), games=1)


def test_the_report_carries_a_skill_ladder_section_and_its_json() -> None:
    req = Request("godnum", 2, 10, 1, decision_games=10, workers=1, ladder=((3,), 3))
    text, figures = build(req)
    assert "<h2>Skill ladder</h2>" in text
    assert "Skill depth" in text or "one skill level" in text
    data = figures["ladder"]
    assert [r["name"] for r in data["ratings"]] == ["random", "greedy", "search 3"]
    assert all(r["low"] <= r["elo"] <= r["high"] for r in data["ratings"])
    json.dumps(figures)  # --json prints every figure
    assert build(req)[0] == text  # same seed, same file: no clock in it


@pytest.mark.parametrize("command", ["report", "bench"])
def test_without_openspiel_the_ladder_fails_at_once_saying_how_to_install(
        tmp_path: Path, command: str) -> None:
    out = tmp_path / "r.html"
    argv = (["report", "godnum", "--ladder", "--out", str(out)] if command == "report"
            else ["bench", "ladder", "godnum"])
    code = ("import sys; sys.modules['pyspiel'] = None; sys.modules['open_spiel'] = None\n"
            "from companion_cli import main\n"
            f"sys.exit(main({argv!r}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "design extra" in lines[0] and "./scripts/setup design" in lines[0]
    assert not out.exists()
