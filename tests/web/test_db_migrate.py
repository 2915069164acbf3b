"""``companion db migrate``: a SQLite data dir copied into PostgreSQL, counts verified, and a
server on PostgreSQL carries on every table at the same version."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from flask.testing import FlaskClient
from webtools import bearer, config, make_table

from web import create_app, services

ROOT = Path(__file__).resolve().parents[2]


def test_migrate_copies_tables_logs_scans_and_runs(client: FlaskClient, data_dir: Path,
                                                   pg_url: str) -> None:
    t = make_table(client, data_dir, "wuxing")
    host = bearer(t["host_token"])
    assert client.post(f"/api/tables/{t['table']}/timer", headers=host,
                       json={"seconds": 30}).status_code == 200
    before = client.get(f"/api/tables/{t['table']}", headers=host).json
    log_before = client.get(f"/api/tables/{t['table']}/log", headers=host).json["log"]

    done = subprocess.run([sys.executable, "-m", "companion_cli", "db", "migrate", "--to",
                           pg_url, "--data-dir", str(data_dir)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tables: 1 in SQLite, 1 in PostgreSQL (ok)" in done.stdout
    assert "password" not in done.stdout  # the URL is shown without secrets

    app = create_app({**config(data_dir / "unused"), "DATABASE": pg_url})
    try:
        pg = app.test_client()
        after = pg.get(f"/api/tables/{t['table']}", headers=host).json
        assert after["version"] == before["version"]
        assert after["view"] == before["view"]
        assert pg.get(f"/api/tables/{t['table']}/log", headers=host).json["log"] == log_before
        # The print run came along: a new table of the same game needs no print.
        r = pg.post("/api/tables", json={"game": "wuxing", "players": ["Ana", "Ben", "Chen"],
                                         "runs": [t["run"].run_id]})
        assert r.status_code == 201, r.json
    finally:
        services(app).close()

    again = subprocess.run([sys.executable, "-m", "companion_cli", "db", "migrate", "--to",
                            pg_url, "--data-dir", str(data_dir)],
                           cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and "Copied 0 tables" in again.stdout


def test_a_server_on_postgresql_takes_print_runs_registered_in_its_data_dir(
        data_dir: Path, pg_url: str) -> None:
    """``companion print`` registers runs in the data dir; a server started there with
    ``--database`` copies them into the database, so the tables can use them."""
    from webtools import register_run

    run = register_run(data_dir, "shrine", 3, seed=5)
    app = create_app({**config(data_dir), "DATABASE": pg_url})
    try:
        r = app.test_client().post("/api/tables", json={
            "game": "shrine", "players": ["Ana", "Ben", "Chen"], "runs": [run.run_id]})
        assert r.status_code == 201, r.json
    finally:
        services(app).close()
