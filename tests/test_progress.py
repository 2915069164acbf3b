"""Long commands show progress on a terminal and stay quiet otherwise (issue 29 §14)."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], *, tty: bool) -> tuple[str, str]:
    """Run ``companion ARGS`` with stdout on a pseudo-terminal (or a pipe); stderr is
    always a pipe. Returns (stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    cmd = [sys.executable, "-m", "companion_cli", *args]
    if not tty:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, check=True)
        return p.stdout, p.stderr
    main, sub = pty.openpty()
    with subprocess.Popen(cmd, stdout=sub, stderr=subprocess.PIPE, env=env, cwd=ROOT) as p:
        os.close(sub)
        chunks = []
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        err = p.stderr.read() if p.stderr else b""
        assert p.wait() == 0
    os.close(main)
    return b"".join(chunks).decode(errors="replace"), err.decode(errors="replace")


def test_simulate_shows_a_bar_on_a_terminal_and_nothing_in_a_pipe() -> None:
    args = ["simulate", "godnum", "--players", "3", "--games", "400", "--policy", "greedy"]
    out, err = _run(args, tty=True)
    assert "simulating" in err and "/400" in err and "games" in err
    assert '"wins_per_seat"' in out
    out, err = _run(args, tty=False)
    assert err == ""
    assert '"wins_per_seat"' in out


def test_report_with_json_stays_quiet_even_on_a_terminal(tmp_path: Path) -> None:
    base = ["report", "wuxing", "--games", "300", "--decision-games", "20", "--workers", "1",
            "--out", str(tmp_path / "r.html")]
    _, err = _run(base, tty=True)
    assert "simulating" in err and "/320" in err
    _, err = _run([*base, "--json"], tty=True)
    assert "simulating" not in err


def test_print_all_counts_its_decks_on_a_terminal(tmp_path: Path) -> None:
    _, err = _run(["print", "all", "--no-extras", "--no-register", "--out",
                   str(tmp_path / "all.pdf")], tty=True)
    assert "printing" in err and "decks" in err
    _, err = _run(["print", "shrine", "--no-register", "--out", str(tmp_path / "s.pdf")],
                  tty=False)
    assert err == ""


def test_export_and_import_count_tables_on_a_terminal(tmp_path: Path) -> None:
    from web import create_app, services
    from web.commands import demo_table

    data = tmp_path / "data"
    app = create_app({"DATA_DIR": str(data), "TESTING": True, "DB_SYNCHRONOUS": "NORMAL"})
    demo_table(app)
    services(app).close()
    out, err = _run(["export", "--data-dir", str(data), "--out", str(tmp_path / "x")],
                    tty=True)
    assert "exporting" in err and "tables" in err and "wrote 1 tables" in out
    out, err = _run(["import", str(tmp_path / "x"), "--data-dir", str(tmp_path / "new")],
                    tty=True)
    assert "replaying" in err and "imported 1 tables" in out
    _, err = _run(["export", "--data-dir", str(data), "--out", str(tmp_path / "y")],
                  tty=False)
    assert err == ""
