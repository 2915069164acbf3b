"""The ``companion`` command: every subcommand listed in --help exists and works."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion_cli import main

EXPECTED = {"simulate", "bench", "print", "watch", "scan", "serve"}


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in EXPECTED:
        assert name in out


def test_bench_help_lists_every_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = capsys.readouterr().out
    for target in ("engine", "print", "cv", "web"):
        assert target in out


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "companion_cli", "--help"], capture_output=True, text=True,
        check=False,
    )
    assert done.returncode == 0 and "simulate" in done.stdout


def test_bench_engine_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--game", "wuxing", "--games", "3"]) == 0
    row = json.loads(capsys.readouterr().out.strip())
    assert row["game"] == "wuxing" and row["adjudications"] > 0
    assert row["adjudications_per_second"] > 0 and row["adjudications_per_cpu_second"] > 0


def test_unknown_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "chess"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
