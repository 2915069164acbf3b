"""Issue 19, point 5: PostgreSQL mode as a café runs it. Several processes (here: several
apps on one database, each with its own memory) agree on "play again" and on deletion; an
outage answers 503 quickly and passes by itself; a NUL byte never reaches the database;
no output shows the database password."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from test_web_events import Stream
from webtools import bearer, config, make_table, register_run

from web import create_app, services
from web.pgstore import PgStore
from web.store import Store

ROOT = Path(__file__).resolve().parents[2]


def pg_app(data_dir: Path, url: str, **extra: Any) -> Flask:
    """A server process on ``url``; the print run ``make_table`` uses is registered first
    (a server on PostgreSQL takes its data dir's runs at start)."""
    register_run(data_dir, "wuxing", 3)
    return create_app({**config(data_dir), "DATABASE": url, **extra})


@pytest.fixture
def two(data_dir: Path, pg_url: str) -> Iterator[tuple[Flask, Flask]]:
    a, b = pg_app(data_dir, pg_url), pg_app(data_dir / "b", pg_url)
    for app in (a, b):  # each hears the other's notices only once it LISTENs
        store = services(app).store
        assert isinstance(store, PgStore) and store.listening.wait(30), "never listened"
    yield a, b
    for app in (a, b):
        services(app).close()


def test_play_again_reaches_every_process_and_a_restart(two: tuple[Flask, Flask],
                                                        data_dir: Path, pg_url: str) -> None:
    """"Play again" was known only to the process that made the new table."""
    a, b = two
    ca, cb = a.test_client(), b.test_client()
    t = make_table(ca, data_dir, "wuxing", 3)
    seat2 = bearer(t["seats"][1]["token"])
    assert cb.get(f"/api/tables/{t['table']}", headers=seat2).json["next_table"] is None
    new = ca.post(f"/api/tables/{t['table']}/again", headers=bearer(t["host_token"])).json
    want = f"/t/{new['table']}/seat/2?token={new['seats'][1]['token']}"
    assert cb.get(f"/api/tables/{t['table']}", headers=seat2).json["next_table"]["url"] == want
    restarted = pg_app(data_dir / "c", pg_url)
    try:
        snap = restarted.test_client().get(f"/api/tables/{t['table']}", headers=seat2).json
        assert snap["next_table"]["url"] == want
        assert restarted.test_client().get(f"/api/tables/{t['table']}").json[
            "next_table"]["url"] == f"/t/{new['table']}"
    finally:
        services(restarted).close()


def test_a_deleted_table_is_gone_in_every_process(two: tuple[Flask, Flask],
                                                  data_dir: Path) -> None:
    """A table deleted through one process kept answering 200 and taking writes on another."""
    a, b = two
    a.config["ABANDONED_AFTER"] = 0
    services(a).tables.abandoned_after = 0
    ca, cb = a.test_client(), b.test_client()
    t = make_table(ca, data_dir, "wuxing", 3)
    host = bearer(t["host_token"])
    assert cb.get(f"/api/tables/{t['table']}", headers=host).status_code == 200
    page = Stream(cb, f"/api/tables/{t['table']}/events")  # a big screen on the other process
    page.event()
    assert ca.delete(f"/api/tables/{t['table']}", headers=host).status_code == 200
    with pytest.raises(StopIteration):  # its stream ends (NOTIFY), not at the next ping only
        for _ in range(1000):
            page.message()
    page.close()
    r = cb.get(f"/api/tables/{t['table']}", headers=host)
    assert r.status_code == 410 and r.json["code"] == "table_deleted"
    r = cb.post(f"/api/tables/{t['table']}/timer", json={"seconds": 30}, headers=host)
    assert r.status_code == 410
    assert t["table"] not in [x["table"] for x in cb.get("/api/tables").json["tables"]]


@pytest.mark.parametrize("tid", ["ab%00cd", "%00"])
def test_a_nul_byte_never_reaches_the_database(two: tuple[Flask, Flask], tid: str) -> None:
    """%00 in a table id answered 500 DataError."""
    client = two[0].test_client()
    for path in ("", "/events", "/again"):
        r = client.get(f"/api/tables/{tid}{path}") if path != "/again" else client.post(
            f"/api/tables/{tid}{path}", headers=bearer("x"))
        assert r.status_code == 404 and r.json["code"] == "unknown_table", path
    r = client.get("/api/tables?after=1~a%00b")
    assert r.status_code == 400


def test_the_list_and_a_made_up_token_read_no_whole_table(two: tuple[Flask, Flask],
                                                          data_dir: Path) -> None:
    """The list and a made-up bearer token grew with every stored table (3.3 s, 241 ms at
    2,000 tables): now the list is a page read from the database, and no table is rebuilt
    to answer either."""
    a, b = two
    ca = a.test_client()
    made = [make_table(ca, data_dir, "wuxing", 3)["table"] for _ in range(4)]
    cb = b.test_client()
    page = cb.get("/api/tables?limit=3").json
    assert [x["table"] for x in page["tables"]] == made[::-1][:3] and "next" in page
    r = cb.post("/api/tables", json={"game": "wuxing", "players": ["A", "B", "C"]},
                headers=bearer("made-up-token"))
    assert r.status_code == 201
    assert services(b).tables.loaded == 1  # the table it made, none of the others


@pytest.fixture
def own_cluster() -> Iterator[tuple[str, Path]]:
    """A cluster of this test's own, to stop and start (the session's stays up)."""
    top = Path(tempfile.mkdtemp(prefix="companion-pg-outage-"))
    folder = top / "cluster"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pgcluster = str(ROOT / "scripts" / "pgcluster")
    done = subprocess.run([pgcluster, "start", str(folder), str(port)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.fail(f"could not start PostgreSQL: {done.stderr.strip()}")
    yield done.stdout.strip(), folder
    subprocess.run([pgcluster, "stop", str(folder)], capture_output=True)
    shutil.rmtree(top, ignore_errors=True)


def test_an_outage_answers_503_soon_and_passes_by_itself(own_cluster: tuple[str, Path],
                                                        data_dir: Path) -> None:
    """A database outage answered 500 after a 30 s pool wait per request."""
    url, folder = own_cluster
    pgcluster = str(ROOT / "scripts" / "pgcluster")
    app = pg_app(data_dir, url)
    try:
        client = app.test_client()
        t = make_table(client, data_dir, "wuxing", 3)
        host = bearer(t["host_token"])
        subprocess.run([pgcluster, "stop", str(folder)], check=True, capture_output=True)
        took = []
        for r_path in ("", "/log"):
            started = time.monotonic()
            r = client.get(f"/api/tables/{t['table']}{r_path}", headers=host)
            took.append(time.monotonic() - started)
            assert r.status_code == 503 and r.json["code"] == "storage_unavailable", r.json
            assert int(r.headers["Retry-After"]) > 0
        r = client.post(f"/api/tables/{t['table']}/timer", json={"seconds": 30}, headers=host)
        assert r.status_code == 503
        r = client.get("/api/tables")
        assert r.status_code == 503 and r.json["code"] == "storage_unavailable"
        print(f"503 answered after {max(took):.2f} s at most")
        port = url.rsplit(":", 1)[1].split("/")[0]
        subprocess.run([pgcluster, "start", str(folder), port], check=True,
                       capture_output=True)
        back = time.monotonic()
        for _ in range(15):  # each try answers within the pool's wait
            r = client.get(f"/api/tables/{t['table']}", headers=host)
            if r.status_code == 200:
                break
        assert r.status_code == 200, r.json
        print(f"answering again {time.monotonic() - back:.2f} s after the database")
        r = client.post(f"/api/tables/{t['table']}/timer", json={"seconds": 30}, headers=host)
        assert r.status_code == 200
    finally:
        services(app).close()


def run_until_said(args: list[str], said: str) -> str:
    """Run ``companion ARGS`` until it exits or prints ``said`` (then stop it); its output."""
    lines = []
    with subprocess.Popen([sys.executable, "-m", "companion_cli", *args], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if said in line:
                proc.send_signal(signal.SIGTERM)
    return "".join(lines)


def test_no_output_shows_the_database_password(pg_url: str, tmp_path: Path) -> None:
    """A password with % was printed five times by the pool's warnings."""
    base = pg_url.split("://", 1)[1].split("@", 1)[1]
    data = tmp_path / "data"
    register_run(data, "wuxing", 3)
    Store(data / "companion.sqlite3").close()
    for password in ("se%cret-pw", "se%25cret-pw", "p%zzle%"):
        url = f"postgresql://postgres:{password}@{base}"
        outs = [run_until_said(["db", "migrate", "--to", url, "--data-dir", str(data)],
                               "\0"),
                run_until_said(["serve", "--database", url, "--data-dir", str(data),
                                "--port", "0", "--host", "127.0.0.1"], "Stop with Ctrl+C")]
        for out in outs:
            assert "cret-pw" not in out and "zzle" not in out, out
