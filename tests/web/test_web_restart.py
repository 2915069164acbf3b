"""A real ``companion serve`` process: demo output, play, ``kill -9``, restart, same table."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(data_dir: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        # This machine only: the default serves the LAN (issue 11), which a test need not.
        [sys.executable, "-m", "companion_cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--data-dir", str(data_dir), "--threads", "32", *extra],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_ready(base: str, proc: subprocess.Popen[str]) -> None:
    for _ in range(600):  # a hang guard (60 s), not a speed limit
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise AssertionError(f"server exited early: {out}")
        try:
            if httpx.get(base + "/api/tables", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("server did not start within 60 s")


def snapshots(base: str, t: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, tok in [("public", None), ("host", t["host_token"]),
                     *((f"seat:{s['seat']}", s["token"]) for s in t["seats"])]:
        headers = {"Authorization": f"Bearer {tok}"} if tok else {}
        snap = httpx.get(f"{base}/api/tables/{t['table']}", headers=headers, timeout=5).json()
        snap.pop("now")
        out[key] = snap
    return out


@pytest.mark.slow
def test_kill_9_and_restart_brings_every_table_back_at_the_same_version(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(data, port, "--demo")
    try:
        wait_ready(base, proc)
        tables = httpx.get(base + "/api/tables").json()["tables"]
        assert [t["game"] for t in tables] == ["wuxing"]  # --demo made one
        r = httpx.post(base + "/api/tables",
                       json={"game": "wuxing", "players": ["Ana", "Ben", "Chen"]})
        assert r.status_code == 201, r.text
        t = r.json()
        assert t["seats"][0]["join_url"].startswith(f"http://127.0.0.1:{port}/t/")
        host = {"Authorization": f"Bearer {t['host_token']}"}
        cam = {"Authorization": f"Bearer {t['camera_token']}"}
        cards = httpx.get(f"{base}/api/tables/{t['table']}/cards", headers=host).json()["cards"]
        uni = [c for c in cards if c["deck"] == "universe" and c["face"].startswith("universe-")
               and c["face"].split("-")[1] in {"wood", "fire", "earth", "metal", "water"}]
        mine = [c for c in cards if c["deck"] == "player"
                and c["face"] in {"wood", "fire", "earth", "metal", "water"}]
        tid = t["table"]
        assert httpx.post(f"{base}/api/tables/{tid}/actions", headers=host,
                          json={"type": "rps", "winner": 1}).status_code == 200
        for payload, zone in [(uni[0]["payload"], "universe"), (mine[0]["payload"], "seat:1"),
                              (mine[20]["payload"], "seat:2"), (uni[1]["payload"], "universe")]:
            r = httpx.post(f"{base}/api/tables/{tid}/scans", headers=cam,
                           json={"payload": payload, "zone": zone})
            assert r.status_code == 200, r.text
        assert httpx.post(f"{base}/api/tables/{tid}/undo", headers=host).status_code == 200
        assert httpx.post(f"{base}/api/tables/{tid}/timer", headers=host,
                          json={"seconds": 90}).status_code == 200
        # Bad input against the production server: JSON 4xx, never its own HTML or a 500.
        r = httpx.post(f"{base}/api/tables/{tid}/actions", headers=host,
                       content=b"x" * 70_000)
        assert r.status_code == 413 and r.json()["code"] == "too_large"
        r = httpx.post(f"{base}/api/tables/{tid}/actions", content=b"{oops",
                       headers={**host, "Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "malformed_json"
        before = snapshots(base, t)
        assert before["host"]["version"] == 7
    finally:
        proc.send_signal(signal.SIGKILL)
        out = proc.communicate(timeout=30)[0]
    assert "Referee page (host)" in out and "Scan to join as Ana" in out and "▄" in out

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(data, port)
    try:
        wait_ready(base, proc)
        assert snapshots(base, t) == before
        assert len(httpx.get(base + "/api/tables").json()["tables"]) == 2
    finally:
        proc.send_signal(signal.SIGTERM)
        out = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0, out
    assert "Stopped; every table is saved." in out


def test_join_links_show_the_lan_address_when_bound_to_it() -> None:
    from web.server import lan_address, public_url

    assert public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert public_url("192.168.4.7", 80) == "http://192.168.4.7:80/"
    lan = lan_address()
    assert public_url("0.0.0.0", 8000) == f"http://{lan or '127.0.0.1'}:8000/"
    if lan is not None:
        assert not lan.startswith("127.")


def test_bench_web_runs_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """A small run of ``companion bench web`` (figures, not timings, are checked)."""
    from bench.serving import run_bench

    assert run_bench(phones=3, scans=3, streams=5) == 0
    out = capsys.readouterr().out
    assert "phones connected: 3/3" in out
    assert re.search(r"scan-to-phone latency, 3 scans x 3 phones .* p50 [\d.]+ ms, "
                     r"p95 [\d.]+ ms", out)
    assert "push reached 5/5" in out


def test_a_store_from_before_public_rulings_opens(tmp_path: Path) -> None:
    import sqlite3

    from web.store import Store

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
                             created REAL NOT NULL);
        CREATE TABLE records (table_id TEXT NOT NULL, seq INTEGER NOT NULL, time REAL NOT NULL,
                              kind TEXT NOT NULL, who TEXT NOT NULL, body TEXT NOT NULL,
                              ruling TEXT NOT NULL DEFAULT '', voided_by INTEGER,
                              PRIMARY KEY (table_id, seq));
        INSERT INTO tables VALUES ('abc', 'wuxing', '{}', 1.0);
        INSERT INTO records VALUES ('abc', 1, 1.0, 'timer', 'host', '{"seconds": 30}', 'x', NULL);
    """)
    db.commit()
    db.close()
    store = Store(path)
    try:
        [old] = store.load_all()
        assert old.records[0].public == "" and old.records[0].body == {"seconds": 30}
        assert store.journal_mode == "wal"
    finally:
        store.close()


@pytest.mark.slow
def test_kill_9_in_the_middle_of_writes_loses_no_acknowledged_change(tmp_path: Path) -> None:
    import threading

    data = tmp_path / "data"
    from companion.registry import demo_run
    from companion.runs import RunStore

    RunStore(data).save(demo_run("wuxing", 3))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(data, port)
    acked: list[int] = []
    try:
        wait_ready(base, proc)
        t = httpx.post(base + "/api/tables",
                       json={"game": "wuxing", "players": ["Ana", "Ben"]}).json()
        host = {"Authorization": f"Bearer {t['host_token']}"}

        def writer() -> None:
            with httpx.Client(timeout=5) as c:
                for i in range(10_000):
                    try:
                        r = c.post(f"{base}/api/tables/{t['table']}/timer", headers=host,
                                   json={"seconds": 30 + i % 2})
                    except httpx.HTTPError:
                        return
                    if r.status_code != 200:
                        return
                    acked.append(r.json()["version"])

        w = threading.Thread(target=writer)
        w.start()
        for _ in range(100):  # let some writes land, then pull the plug mid-stream
            if len(acked) >= 20:
                break
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)
    w.join(10)
    assert len(acked) >= 20
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(data, port)
    try:
        wait_ready(base, proc)
        snap = httpx.get(f"{base}/api/tables/{t['table']}", headers=host).json()
        assert acked[-1] <= snap["version"] <= acked[-1] + 1
        log = httpx.get(f"{base}/api/tables/{t['table']}/log", headers=host).json()["log"]
        assert [r["seq"] for r in log] == list(range(1, snap["version"] + 1))
        assert snap["timer"]["seconds"] == log[-1]["event"]["seconds"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)


def test_serve_says_when_the_port_is_taken(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = start(tmp_path / "data", port)
        out = proc.communicate(timeout=20)[0]
    assert proc.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in out and "Traceback" not in out


def test_a_table_whose_print_run_vanished_is_reported_not_crashed(tmp_path: Path) -> None:
    from webtools import config, make_table

    from web import create_app, services

    data = tmp_path / "data"
    app = create_app(config(data))
    t = make_table(app.test_client(), data, "wuxing", 3)
    other = make_table(app.test_client(), data, "godnum", 3, seed=2)
    services(app).close()
    (data / "runs" / f"{t['run'].run_id}.json").unlink()
    app = create_app(config(data))
    try:
        client = app.test_client()
        r = client.get(f"/api/tables/{t['table']}")
        assert r.status_code == 409 and r.json["code"] == "table_unavailable"
        assert t["run"].run_id in r.json["error"]
        assert client.get(f"/api/tables/{other['table']}").status_code == 200
    finally:
        services(app).close()
