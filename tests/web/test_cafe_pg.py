"""PostgreSQL: the per-address creation limits are counted in the database, across
processes (issue 27 §10: 40 tables were made through two processes with a limit of 20)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from test_pg_cafe import pg_app
from webtools import bearer, register_run

from web import services
from web.store import Store

BODY = {"game": "wuxing", "players": ["Ana", "Ben", "Chen"]}


@pytest.fixture
def two(data_dir: Path, pg_url: str) -> Iterator[tuple[Flask, Flask]]:
    a = pg_app(data_dir, pg_url, TABLES_PER_CLIENT=3, TABLES_LIVE_PER_CLIENT=100)
    b = pg_app(data_dir / "b", pg_url, TABLES_PER_CLIENT=3, TABLES_LIVE_PER_CLIENT=100)
    yield a, b
    for app in (a, b):
        services(app).close()


def _make(app: Flask, data_dir: Path, addr: str = "192.0.2.7") -> tuple[int, dict[str, str]]:
    run = register_run(data_dir, "wuxing", 3)
    r = app.test_client().post("/api/tables", json={**BODY, "runs": [run.run_id]},
                               environ_base={"REMOTE_ADDR": addr})
    return r.status_code, {**(r.json or {}), "retry": r.headers.get("Retry-After", "")}


def test_the_creation_rate_is_one_count_for_every_process(
        two: tuple[Flask, Flask], data_dir: Path) -> None:
    a, b = two
    made = [_make(app, data_dir)[0] for app in (a, b, a)]
    assert made == [201, 201, 201]
    for app in (b, a):  # the fourth from either process is over the limit of 3
        status, body = _make(app, data_dir)
        assert status == 429 and body["code"] == "too_many_requests", body
        assert "3 tables" in body["error"] and int(body["retry"]) > 0
    assert _make(b, data_dir, "192.0.2.8")[0] == 201  # another address has its own count


def test_the_live_ceiling_is_one_count_for_every_process(
        data_dir: Path, pg_url: str) -> None:
    a = pg_app(data_dir, pg_url, TABLES_PER_CLIENT=100, TABLES_LIVE_PER_CLIENT=2)
    b = pg_app(data_dir / "b", pg_url, TABLES_PER_CLIENT=100, TABLES_LIVE_PER_CLIENT=2)
    try:
        first = _make(a, data_dir)
        assert first[0] == 201 and _make(b, data_dir)[0] == 201
        status, body = _make(a, data_dir)
        assert status == 429 and body["code"] == "too_many_tables", body
        assert "2 tables in play" in body["error"]
        # One of them deleted through the other process: room for one more in both.
        a.config["ABANDONED_AFTER"] = 0
        for app in (a, b):
            services(app).tables.abandoned_after = 0
        gone = b.test_client().delete(f"/api/tables/{first[1]['table']}",
                                      headers=bearer(first[1]["host_token"]))
        assert gone.status_code == 200, gone.json
        for app in (a, b):
            services(app).tables.abandoned_after = 6 * 3600.0
        assert _make(a, data_dir)[0] == 201
    finally:
        for app in (a, b):
            services(app).close()


def _stores(kind: str, data_dir: Path, pg_url: str) -> list[Any]:
    if kind == "sqlite":
        data_dir.mkdir(parents=True, exist_ok=True)
        return [Store(data_dir / "companion.sqlite3") for _ in range(2)]
    from web.pgstore import PgStore

    return [PgStore(pg_url, max_connections=2) for _ in range(2)]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_stores_on_one_database_share_the_counts(kind: str, data_dir: Path,
                                                     request: pytest.FixtureRequest) -> None:
    """Two processes' stores on one database (a SQLite file or PostgreSQL) count one
    address's creations together; the wait is until its oldest counted one leaves."""
    url = request.getfixturevalue("pg_url") if kind == "postgresql" else ""
    a, b = _stores(kind, data_dir, url)
    try:
        assert a.creation_hit("192.0.2.7", 3, 600.0, 1000.0) == (0.0, "")
        assert b.creation_hit("192.0.2.7", 3, 600.0, 1100.0) == (0.0, "")
        assert a.creation_hit("192.0.2.7", 3, 600.0, 1200.0) == (0.0, "")
        wait, words = b.creation_hit("192.0.2.7", 3, 600.0, 1300.0)
        assert wait == 300.0 and words == ("this device made 3 tables in the last 10 "
                                           "minutes, the most")
        assert b.creation_hit("192.0.2.7", 3, 600.0, 1600.5)[0] == 0.0  # the first left
        assert a.creation_hit("192.0.2.8", 3, 600.0, 1300.0) == (0.0, "")
    finally:
        for s in (a, b):
            s.close()
