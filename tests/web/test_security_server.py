"""The server stays up and the browser is hardened (issue 10, points 8 and 9): stream caps,
security headers, JSON-only writes, the table-creation limit, deleting a table."""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import bearer, config, make_table, register_run

from web import create_app, services
from web.server import stream_capacity

TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


def app_with(data_dir: Path, **extra: Any) -> Flask:
    return create_app({**config(data_dir), **extra})


@pytest.fixture
def strict(data_dir: Path) -> Iterator[Flask]:
    """Small caps, so the tests reach them: 2 streams per address, 3 in all, 3 tables."""
    app = app_with(data_dir, SSE_MAX_PER_CLIENT=2, SSE_MAX_STREAMS=3, TABLES_PER_CLIENT=3)
    yield app
    services(app).close()


def from_address(addr: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": addr}}


# -- event streams cannot starve the server ---------------------------------------------
def test_event_streams_are_capped_per_address_and_in_total(strict: Flask,
                                                           data_dir: Path) -> None:
    """256 streams without a token froze every other request: now a device holds at most
    SSE_MAX_PER_CLIENT, the server SSE_MAX_STREAMS; over a cap 503 with Retry-After."""
    client = strict.test_client()
    t = make_table(client, data_dir, "wuxing", 3)
    url = f"/api/tables/{t['table']}/events"
    broker = services(strict).broker
    a1 = client.get(url, buffered=False, **from_address("10.0.0.1"))
    a2 = client.get(url, buffered=False, **from_address("10.0.0.1"))
    assert a1.status_code == a2.status_code == 200
    a3 = client.get(url, buffered=False, **from_address("10.0.0.1"))
    assert a3.status_code == 503 and a3.json["code"] == "too_many_streams"
    assert int(a3.headers["Retry-After"]) > 0
    b1 = client.get(url, buffered=False, **from_address("10.0.0.2"))
    assert b1.status_code == 200 and broker.count() == 3
    c1 = client.get(url, buffered=False, **from_address("10.0.0.3"))
    assert c1.status_code == 503 and "most" in c1.json["error"]
    # Ordinary requests still answer while the streams are open.
    assert client.get(f"/api/tables/{t['table']}").status_code == 200
    # A closed stream frees its place, even one that never sent a byte.
    a1.close()
    assert broker.count() == 2 and broker.count(client="10.0.0.1") == 1
    c2 = client.get(url, buffered=False, **from_address("10.0.0.3"))
    assert c2.status_code == 200
    for r in (a2, b1, c2):
        r.close()
    assert broker.count() == 0


def test_stream_capacity_leaves_threads_for_ordinary_requests() -> None:
    assert stream_capacity(256) == 192
    assert stream_capacity(32) == 24
    assert stream_capacity(8) == 1
    for threads in range(8, 2000, 7):
        assert 8 <= threads - stream_capacity(threads) <= 64 or stream_capacity(threads) == 1


# -- browser hardening --------------------------------------------------------------------
HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer"}


def test_every_response_carries_the_security_headers(client: FlaskClient,
                                                     data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid, host, seat = t["table"], t["host_token"], t["seats"][0]["token"]
    urls = ["/", f"/t/{tid}", f"/t/{tid}/seat/1?token={seat}", f"/t/{tid}/referee?token={host}",
            f"/t/{tid}/seat/1/qr.svg?token={host}", f"/api/tables/{tid}", "/api/games",
            "/static/app.css", "/t/nosuch", "/api/nosuch", f"/t/{tid}/referee?token=wrong"]
    for url in urls:
        r = client.get(url)
        for key, value in HEADERS.items():
            assert r.headers.get(key) == value, (url, key)
        csp = r.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, url
        script = re.search(r"script-src ([^;]*)", csp)
        assert script and "unsafe-inline" not in script.group(1), url
        assert "img-src 'self' data:" in csp  # the favicon is a data: URL
        r.close()


def test_the_camera_preview_may_show_its_frames_and_nothing_else(data_dir: Path) -> None:
    app = app_with(data_dir, CAMERA_PREVIEW="http://127.0.0.1:8765/preview")
    try:
        csp = app.test_client().get("/").headers["Content-Security-Policy"]
        assert "img-src 'self' data: blob: http://127.0.0.1:8765;" in csp
        assert "script-src 'self';" in csp
    finally:
        services(app).close()


def test_no_template_runs_inline_script() -> None:
    """The CSP forbids inline script, so a template may only load scripts by src= and has
    no on*= attributes: anything else would be dead on every phone. (The pages are the
    UI's; this test holds them to the policy.)"""
    found = []
    for path in sorted(TEMPLATES.glob("*.html")):
        text = path.read_text()
        for m in re.finditer(r"<script\b([^>]*)>(.*?)</script>", text, re.S | re.I):
            attrs, inner = m.group(1), m.group(2)
            executable = not re.search(r'type="application/(ld\+)?json"', attrs)
            if inner.strip() and executable:
                found.append(f"{path.name}: inline <script> body")
            if executable and "src=" not in attrs and not inner.strip():
                found.append(f"{path.name}: <script> without src")
        for m in re.finditer(r"<[^>]*\s(on[a-z]+)\s*=", text, re.I):
            found.append(f"{path.name}: {m.group(1)}= attribute")
    assert not found, found


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", None])
def test_api_writes_take_only_json(client: FlaskClient, data_dir: Path,
                                   content_type: str | None) -> None:
    """Another site's form can post text/plain or a form; 415, and nothing changes."""
    t = make_table(client, data_dir, "wuxing", 3)
    before = client.get(f"/api/tables/{t['table']}").json["version"]
    body = '{"type": "rps", "winner": 1}'
    headers = {**bearer(t["host_token"]), **({"Content-Type": content_type}
                                             if content_type else {})}
    for path in ("/actions", "/undo", "/timer", "/scans"):
        r = client.post(f"/api/tables/{t['table']}{path}", data=body, headers=headers)
        assert r.status_code == 415 and r.json["code"] == "unsupported_media_type", path
    r = client.post("/api/tables", data='{"game": "wuxing", "players": ["A", "B"]}',
                    headers={"Content-Type": content_type} if content_type else {})
    assert r.status_code == 415
    assert client.get(f"/api/tables/{t['table']}").json["version"] == before


def test_an_empty_write_needs_no_content_type(client: FlaskClient, data_dir: Path) -> None:
    """The pages post an undo without a body: nothing in it for another site to forge."""
    t = make_table(client, data_dir, "wuxing", 3)
    r = client.post(f"/api/tables/{t['table']}/undo", headers=bearer(t["host_token"]))
    assert r.status_code == 409 and r.json["code"] == "nothing_to_undo"


def test_table_creation_is_limited_per_address(
        strict: Flask, data_dir: Path) -> None:
    client = strict.test_client()
    run = register_run(data_dir, "wuxing", 3)
    body = {"game": "wuxing", "players": ["Ana", "Ben"], "runs": [run.run_id]}
    made = [client.post("/api/tables", json=body, **from_address("10.0.0.9"))
            for _ in range(3)]
    assert all(r.status_code == 201 for r in made)
    r = client.post("/api/tables", json=body, **from_address("10.0.0.9"))
    assert r.status_code == 429 and r.json["code"] == "too_many_requests"
    assert 0 < int(r.headers["Retry-After"]) <= 600
    assert len(client.get("/api/tables").json["tables"]) == 3
    # Another device is not held up; a token is no pass (issue 19: a host token of a
    # table one just made let 150 of 150 through).
    assert client.post("/api/tables", json=body,
                       **from_address("10.0.0.10")).status_code == 201
    for tok in (made[0].json["host_token"], made[0].json["seats"][0]["token"]):
        r = client.post("/api/tables", json=body, headers=bearer(tok),
                        **from_address("10.0.0.9"))
        assert r.status_code == 429


# -- deleting a table ---------------------------------------------------------------------
def finish(client: FlaskClient, app: Flask, t: dict[str, Any]) -> None:
    """Play random legal events as the host until the game is over (bounded)."""
    table = services(app).tables.get(t["table"])
    rng = random.Random(3)
    for _ in range(5000):
        if table.match.state.finished:
            return
        event = table.rules.random_play(table.match.state, rng)
        assert event is not None
        r = client.post(f"/api/tables/{t['table']}/actions", json=dict(event),
                        headers=bearer(t["host_token"]))
        assert r.status_code == 200, (event, r.json)
    raise AssertionError("the game did not end in 5000 events")


def test_a_host_deletes_a_finished_table_and_its_log_is_archived(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    other = make_table(client, data_dir, "wuxing", 3)
    url = f"/api/tables/{t['table']}"
    r = client.delete(url, headers=bearer(t["host_token"]))
    assert r.status_code == 409 and r.json["code"] == "table_in_play"
    for tok in (t["seats"][0]["token"], t["camera_token"], other["host_token"]):
        r = client.delete(url, headers=bearer(tok))
        assert r.status_code == 403
    assert client.delete(url).status_code == 401
    finish(client, app, t)
    version = client.get(url).json["version"]
    r = client.delete(url, headers=bearer(t["host_token"]))
    assert r.status_code == 200 and r.json["deleted"] is True
    assert client.get(url).status_code == 410
    assert client.get(url).json["code"] == "table_deleted"
    assert client.get(f"/t/{t['table']}").status_code == 404
    assert [x["table"] for x in client.get("/api/tables").json["tables"]] == [other["table"]]
    # The log is kept in the store, whole.
    rows = sqlite3.connect(data_dir / "companion.sqlite3").execute(
        "SELECT COUNT(*) FROM records WHERE table_id = ?", (t["table"],)).fetchone()[0]
    assert rows == version
    # And the table stays deleted after a restart.
    services(app).close()
    again = create_app(config(data_dir))
    try:
        c = again.test_client()
        assert c.get(url).status_code == 410
        assert c.get(f"/api/tables/{other['table']}").status_code == 200
    finally:
        services(again).close()


def test_an_abandoned_table_may_be_deleted_in_play(data_dir: Path) -> None:
    app = app_with(data_dir, ABANDONED_AFTER=0.0)
    try:
        client = app.test_client()
        t = make_table(client, data_dir, "godnum", 3)
        stream = client.get(f"/api/tables/{t['table']}/events", buffered=False)
        r = client.delete(f"/api/tables/{t['table']}", headers=bearer(t["host_token"]))
        assert r.status_code == 200
        # Its open pages are told the table is gone: the stream ends.
        text = b"".join(stream.response).decode()  # type: ignore[arg-type]
        assert text.count("event: table") == 1
        stream.close()
        assert services(app).broker.count() == 0
    finally:
        services(app).close()


def test_bench_web_starvation_run_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """A small starvation run against a real ``companion serve`` (figures, not timings,
    are checked): every ordinary request answers with hostile streams and slow clients."""
    from bench.serving import run_starvation

    assert run_starvation(40, 10, rounds=4) == 0
    out = capsys.readouterr().out
    assert "40 hostile idle streams from 100 addresses (40 held, 0 refused 503)" in out
    assert re.search(r"ordinary GET of the table: .* p95 [\d.]+ ms under load", out)
    assert re.search(r"camera scan: .* p95 [\d.]+ ms under load \(\d+ scans\)", out)
    assert "every ordinary request answered under load: met (0 failed)" in out


def test_an_endpoint_registers_its_own_body_rule(data_dir: Path) -> None:
    """How another blueprint (photos, up to 8 MB of image) opts out of the 64 KB JSON
    rule: ``takes_body`` under its route; the app's hook then applies that rule."""
    from flask import Blueprint, request

    from web.guard import takes_body

    bp = Blueprint("pictures", __name__, url_prefix="/api")

    @bp.post("/pictures")
    @takes_body(200_000, json_only=False)
    def picture() -> dict[str, Any]:
        return {"bytes": len(request.get_data()), "type": request.mimetype}

    app = app_with(data_dir)
    app.register_blueprint(bp)
    try:
        client = app.test_client()
        r = client.post("/api/pictures", data=b"\x89PNG" + b"0" * 100_000,
                        content_type="image/png")
        assert r.status_code == 200 and r.json == {"bytes": 100_004, "type": "image/png"}
        r = client.post("/api/pictures", data=b"0" * 300_000, content_type="image/png")
        assert r.status_code == 413 and r.json["code"] == "too_large"
        assert "200000 bytes" in r.json["error"]
        # The API's own writes keep theirs.
        r = client.post("/api/tables", data=b"0" * 100_000, content_type="application/json")
        assert r.status_code == 413 and "65536 bytes" in r.json["error"]
    finally:
        services(app).close()
