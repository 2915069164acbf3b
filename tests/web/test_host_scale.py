"""Issue 19, points 3 and 4, each sent as the red team's attack: strangers cannot flood
(every creation counts, "play again" too, a ceiling of live tables per address), idle
tables leave memory and come back exact, refusals cost a notice (not a snapshot per page),
a closed page frees its stream slot, the list is paged and ids are checked first."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import expect
from test_web_events import Stream
from webtools import bearer, config, make_table, register_run

from web import DEFAULTS, create_app, services
from web.tables import HOST, PUBLIC, Viewer


def app_with(data_dir: Path, **extra: Any) -> Flask:
    return create_app({**config(data_dir), **extra})


@pytest.fixture
def strict(data_dir: Path) -> Iterator[Flask]:
    app = app_with(data_dir, TABLES_PER_CLIENT=3, TABLES_LIVE_PER_CLIENT=100)
    yield app
    services(app).close()


def at(addr: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": addr}}


def wuxing_body(data_dir: Path) -> dict[str, Any]:
    run = register_run(data_dir, "wuxing", 3)
    return {"game": "wuxing", "players": ["Ana", "Ben", "Chen"], "runs": [run.run_id]}


# -- point 3: strangers cannot flood ----------------------------------------------------
def test_a_host_token_of_a_table_one_just_made_is_no_pass(strict: Flask,
                                                         data_dir: Path) -> None:
    """150 of 150 creations were accepted with the host token of the first table."""
    client = strict.test_client()
    body = wuxing_body(data_dir)
    first = client.post("/api/tables", json=body, **at("10.0.0.9"))
    assert first.status_code == 201
    host = bearer(first.json["host_token"])
    made = [client.post("/api/tables", json=body, headers=host, **at("10.0.0.9")).status_code
            for _ in range(5)]
    assert made == [201, 201, 429, 429, 429]
    r = client.post("/api/tables", json=body, headers=host, **at("10.0.0.9"))
    assert r.json["code"] == "too_many_requests" and int(r.headers["Retry-After"]) > 0
    assert "try again" in r.json["error"]
    # Another device is not held up.
    assert client.post("/api/tables", json=body, **at("10.0.0.10")).status_code == 201


def test_play_again_counts_as_a_new_table(strict: Flask, data_dir: Path) -> None:
    """POST .../again was never counted: 3,000 tables in 17 s from one address."""
    client = strict.test_client()
    t = client.post("/api/tables", json=wuxing_body(data_dir), **at("10.0.0.9")).json
    answers = []
    for _ in range(4):
        r = client.post(f"/api/tables/{t['table']}/again", headers=bearer(t["host_token"]),
                        **at("10.0.0.9"))
        answers.append(r.status_code)
    assert answers == [201, 201, 429, 429]
    assert r.json["code"] == "too_many_requests" and "Retry-After" in r.headers
    assert len(client.get("/api/tables").json["tables"]) == 3


def test_an_address_holds_a_ceiling_of_live_tables(data_dir: Path) -> None:
    app = app_with(data_dir, TABLES_PER_CLIENT=1000, TABLES_LIVE_PER_CLIENT=4)
    client = app.test_client()
    body = wuxing_body(data_dir)
    codes = [client.post("/api/tables", json=body, **at("10.0.0.7")).status_code
             for _ in range(6)]
    assert codes == [201] * 4 + [429] * 2
    r = client.post("/api/tables", json=body, **at("10.0.0.7"))
    assert r.json["code"] == "too_many_tables" and "in play" in r.json["error"]
    assert int(r.headers["Retry-After"]) > 0
    assert client.post("/api/tables", json=body, **at("10.0.0.8")).status_code == 201
    services(app).close()


def snapshot_without_clock(client: FlaskClient, tid: str, token: str) -> dict[str, Any]:
    snap = client.get(f"/api/tables/{tid}", headers=bearer(token)).json
    snap.pop("now")
    return dict(snap)


def test_an_idle_table_leaves_memory_and_comes_back_exact(client: FlaskClient, app: Flask,
                                                          data_dir: Path) -> None:
    """Memory follows the tables in use: an idle table is rebuilt by replay on its next
    request, exactly as it was (every viewer), and play goes on."""
    tables = services(app).tables
    t = make_table(client, data_dir, "wuxing", 3)
    other = make_table(client, data_dir, "shrine", 3, seed=2)
    tid, host = t["table"], t["host_token"]
    table = tables.get(tid)
    rng = random.Random(5)
    for _ in range(6):
        event = table.rules.random_play(table.match.state, rng)
        assert event is not None
        r = client.post(f"/api/tables/{tid}/actions", json=dict(event), headers=bearer(host))
        assert r.status_code == 200, r.json
    tokens = [host] + [s["token"] for s in t["seats"]]
    before = [snapshot_without_clock(client, tid, tok) for tok in tokens]
    assert tables.loaded == 2
    assert tables.evict_idle(time.monotonic() + tables.idle_after + 1) == 2
    assert tables.loaded == 0
    assert [snapshot_without_clock(client, tid, tok) for tok in tokens] == before
    assert tables.loaded == 1  # only the table asked about came back
    event = table.rules.random_play(tables.get(tid).match.state, rng)
    assert event is not None
    r = client.post(f"/api/tables/{tid}/actions", json=dict(event), headers=bearer(host))
    assert r.status_code == 200 and r.json["version"] == before[0]["version"] + 1
    assert client.get(f"/api/tables/{other['table']}").status_code == 200


def test_a_table_with_an_open_page_stays_in_memory(client: FlaskClient, app: Flask,
                                                   data_dir: Path) -> None:
    tables = services(app).tables
    t = make_table(client, data_dir, "wuxing", 3)
    s = Stream(client, f"/api/tables/{t['table']}/events")
    s.event()
    assert tables.evict_idle(time.monotonic() + tables.idle_after + 1) == 0
    s.close()
    assert tables.evict_idle(time.monotonic() + tables.idle_after + 1) == 1


def test_the_list_is_paged_newest_first(client: FlaskClient, data_dir: Path) -> None:
    made = [make_table(client, data_dir, "wuxing", 3)["table"] for _ in range(5)]
    first = client.get("/api/tables?limit=2").json
    assert [x["table"] for x in first["tables"]] == made[::-1][:2]
    second = client.get(f"/api/tables?limit=2&after={first['next']}").json
    third = client.get(f"/api/tables?limit=2&after={second['next']}").json
    seen = [x["table"] for page in (first, second, third) for x in page["tables"]]
    assert seen == made[::-1] and "next" not in third
    for bad in ("0", "201", "x", "2%00"):
        r = client.get(f"/api/tables?limit={bad}")
        assert r.status_code == 400 and "limit" in r.json["error"]
    r = client.get("/api/tables?after=1%00~abc")
    assert r.status_code == 400 and r.json["code"] == "bad_request"


@pytest.mark.parametrize("tid", ["ab%00cd", "%00", "a" * 65, "ab%20cd", "ab%C3%A9"])
def test_a_table_id_is_checked_before_the_store(client: FlaskClient, tid: str) -> None:
    for path in ("", "/events", "/log"):
        r = client.get(f"/api/tables/{tid}{path}")
        assert r.status_code == 404 and r.json["code"] == "unknown_table", (tid, path)


# -- point 4: refusals and streams cost little -------------------------------------------
def test_refusals_send_a_notice_not_a_snapshot_to_every_page(client: FlaskClient,
                                                             data_dir: Path) -> None:
    """300 refusals pushed 2,586 snapshots to 9 pages without a version change: now the
    referee, the big screen and the refused phone get a small notice, the others nothing."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    path = f"/api/tables/{tid}/events"
    host = Stream(client, path, bearer(t["host_token"]))
    public = Stream(client, path)
    seats = [Stream(client, path, bearer(s["token"])) for s in t["seats"]]
    version = host.event()[0]
    for s in [public, *seats]:
        s.event()
    for _ in range(30):  # seat 2 sends a play this game does not have
        r = client.post(f"/api/tables/{tid}/actions", json={"type": "pass"},
                        headers=bearer(t["seats"][1]["token"]))
        assert r.status_code == 400 and r.json["version"] == version, r.json

    def until(s: Stream, kind: str) -> list[dict[str, str]]:
        got = []
        for _ in range(200):  # pings every 0.2 s: a hang guard, not a deadline
            m = s.message()
            if "comment" in m:
                continue
            got.append(m)
            if m.get("event") == kind:
                return got
        raise AssertionError(f"no {kind} message in 200; got {[m.get('event') for m in got]}")

    notices = []
    for s in (host, public, seats[1]):
        got = until(s, "refused")
        assert len(got) == 1 and len(got[0]["data"]) < 600  # a notice, not a snapshot
        notices.append(json.loads(got[0]["data"]))
        assert notices[-1]["version"] == version and notices[-1]["refused"]["type"] == "pass"
    # The referee and the refused phone read why; the big screen only who was refused.
    assert "no event type" in notices[0]["refused"]["error"]
    assert "error" not in notices[1]["refused"] and notices[1]["refused"]["seat"] == 2
    assert "no event type" in notices[2]["refused"]["error"]
    client.post(f"/api/tables/{tid}/timer", json={"seconds": 30},
                headers=bearer(t["host_token"]))  # one real change: a snapshot for all
    for s in (host, public, seats[1]):
        got = until(s, "table")
        assert all(m["event"] == "refused" for m in got[:-1]) and len(got) <= 30
        assert int(got[-1]["id"]) == version + 1
    for s in (seats[0], seats[2]):  # the other phones hear nothing of it
        got = until(s, "table")
        assert len(got) == 1 and int(got[0]["id"]) == version + 1
    for s in (host, public, *seats):
        s.close()


def test_a_closed_page_frees_its_stream_slot(data_dir: Path) -> None:
    """A closed page kept its slot for 31 s: the heartbeat finds it gone within pings."""
    from web.server import make_server, stop_in_thread

    ping = float(DEFAULTS["SSE_PING"])  # the heartbeat as shipped
    assert 3 * ping <= 5, "three heartbeats (a write, the reset, the failed write) exceed 5 s"
    app = app_with(data_dir, SSE_PING=ping)
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    client = app.test_client()
    t = make_table(client, data_dir, "wuxing", 3)
    broker = services(app).broker
    port = server.effective_port
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(f"GET /api/tables/{t['table']}/events HTTP/1.1\r\nHost: x\r\n\r\n"
                     .encode())
        assert b"200 OK" in sock.recv(4096)
        assert broker.count() == 1
    started = time.monotonic()
    for _ in range(30):  # six pings at most; the slot goes within about three
        if broker.count() == 0:
            break
        time.sleep(ping / 5)
    freed = time.monotonic() - started
    assert broker.count() == 0, "the closed page still holds its slot"
    print(f"slot freed {freed:.2f} s after the page closed (ping {ping} s)")
    broker.close()
    stop_in_thread(server, thread)
    services(app).store.close()


def test_a_page_whose_stream_is_refused_retries_and_says_the_server_is_busy(
        browser: Any, data_dir: Path) -> None:
    """A page refused its stream (503) showed "Connecting..." for ever: now it says the
    server is busy, tries again by itself (backoff with jitter) and goes live."""
    from werkzeug.serving import make_server

    app = app_with(data_dir, SSE_MAX_STREAMS=1)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    client = app.test_client()
    t = make_table(client, data_dir, "wuxing", 3)
    holder = Stream(client, f"/api/tables/{t['table']}/events")  # the one slot there is
    holder.event()
    page = browser.new_page()
    try:
        page.goto(f"{base}/t/{t['table']}")
        expect(page.locator("#live")).to_contain_text("server busy", timeout=20_000)
        assert page.locator("body").get_attribute("data-version") == str(t["version"])
        holder.close()
        expect(page.locator("#live")).to_have_text("live", timeout=30_000)
    finally:
        page.close()
        services(app).broker.close()
        server.shutdown()
        services(app).store.close()


def test_a_page_closed_behind_the_documented_nginx_frees_its_slot(data_dir: Path,
                                                                   tmp_path: Path) -> None:
    """Behind nginx a closed page held its slot for 45 s: the heartbeat passes through
    nginx, which finds the phone gone and closes the upstream connection."""
    import shutil
    import subprocess

    from test_multiprocess import free_port, nginx_site

    from web.server import make_server, stop_in_thread

    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        pytest.fail("nginx is not installed (./scripts/test installs nginx-light)")
    ping = float(DEFAULTS["SSE_PING"])
    assert 3 * ping <= 5, "three heartbeats exceed 5 s"
    app = app_with(data_dir, SSE_PING=ping, PROXY_HOPS=1)
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    listen = free_port()
    (tmp_path / "site.conf").write_text(nginx_site([server.effective_port], listen))
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\nevents {{}}\nhttp {{\n access_log off;\n"
        f" client_body_temp_path {tmp_path}/body;\n proxy_temp_path {tmp_path}/proxy;\n"
        f" include {tmp_path}/site.conf;\n}}\n")
    proxy = subprocess.Popen([exe, "-c", str(conf), "-p", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    broker = services(app).broker
    try:
        t = make_table(app.test_client(), data_dir, "wuxing", 3)
        for _ in range(300):  # a hang guard: nginx answers once it listens
            try:
                socket.create_connection(("127.0.0.1", listen), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        with socket.create_connection(("127.0.0.1", listen)) as sock:
            sock.sendall(f"GET /api/tables/{t['table']}/events HTTP/1.1\r\nHost: x\r\n\r\n"
                         .encode())
            assert b"200 OK" in sock.recv(4096)
            assert broker.count() == 1
        started = time.monotonic()
        for _ in range(30):  # six pings at most
            if broker.count() == 0:
                break
            time.sleep(ping / 5)
        assert broker.count() == 0, "the page closed behind nginx still holds its slot"
        print(f"slot freed {time.monotonic() - started:.2f} s after the page closed, "
              f"behind nginx (ping {ping} s)")
    finally:
        proxy.terminate()
        proxy.wait(timeout=30)
        broker.close()
        stop_in_thread(server, thread)
        services(app).store.close()


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["wuxing", "godnum", "shrine", "mountains", "gemcomplete"]),
       seed=st.integers(0, 10_000), plays=st.integers(0, 25),
       leave_at=st.sets(st.integers(0, 25), max_size=4))
def test_a_table_leaving_memory_at_any_point_comes_back_the_same_for_every_viewer(
        tmp_path_factory: pytest.TempPathFactory, game: str, seed: int, plays: int,
        leave_at: set[int]) -> None:
    """State = replay(events), whenever the table leaves memory: every viewer's snapshot
    (hidden hands included) is the same before leaving and after loading again."""
    from webtools import PLAYERS

    data = tmp_path_factory.mktemp("idle") / "data"
    n = PLAYERS[game]
    run = register_run(data, game, n, seed=seed % 7 + 1)
    app = app_with(data)
    tables = services(app).tables
    store = services(app).store
    rng = random.Random(seed)
    try:
        table = tables.create(game, ["Ana", "Ben", "Chen", "Dara"][:n], run_ids=[run.run_id])
        tid = table.id
        viewers = [HOST, PUBLIC] + [Viewer("seat", s) for s in range(1, n + 1)]

        def seen() -> list[dict[str, Any]]:
            t = tables.get(tid)
            out = []
            for v in viewers:
                snap = t.snapshot(v)
                snap.pop("now")
                out.append(snap)
            return out

        for i in range(plays + 1):
            if i in leave_at:
                before = seen()
                assert tables.evict_idle(time.monotonic() + tables.idle_after + 1) == 1
                assert seen() == before
            t = tables.get(tid)
            event = t.rules.random_play(t.match.state, rng)
            if event is None or t.match.state.finished:
                break
            t.play(store, dict(event), HOST)
    finally:
        services(app).close()


def test_a_refused_play_the_referee_made_for_a_seat_reaches_that_phone_only(
        client: FlaskClient, data_dir: Path) -> None:
    """The seat a refused referee play was for hears who and what (not why: the referee's
    reason may name a card); the other phones hear nothing."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    path = f"/api/tables/{tid}/events"
    seats = [Stream(client, path, bearer(s["token"])) for s in t["seats"]]
    version = seats[0].event()[0]
    for s in seats[1:]:
        s.event()
    r = client.post(f"/api/tables/{tid}/actions", json={"type": "pass", "seat": 3},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 400
    for _ in range(50):  # pings come every 0.2 s: the notice is among the first few
        m = seats[2].message()
        if m.get("event") == "refused":
            break
    assert m.get("event") == "refused", "the seat the play was for heard nothing"
    assert json.loads(m["data"])["refused"] == {"who": "host", "seat": 3, "type": "pass"}
    client.post(f"/api/tables/{tid}/timer", json={"seconds": 30},
                headers=bearer(t["host_token"]))
    for s in seats:
        got = []
        for _ in range(200):  # a hang guard
            m = s.message()
            if "comment" not in m:
                got.append(m)
            if got and got[-1].get("event") == "table":
                break
        assert [m["event"] for m in got] == ["table"] and int(got[0]["id"]) == version + 1
        s.close()


def test_the_list_says_finished_also_for_a_table_finished_before_it_kept_that(
        data_dir: Path) -> None:
    """A store from before the list was read from it has every table "in play": a table
    finished then says so once it is loaded (and from then on, after restarts too)."""
    import sqlite3

    run = register_run(data_dir, "godnum", 2)
    app = app_with(data_dir)
    svc = services(app)
    table = svc.tables.create("godnum", ["Ana", "Ben"], run_ids=[run.run_id])
    rng = random.Random(1)
    while not table.match.state.finished:
        event = table.rules.random_play(table.match.state, rng)
        assert event is not None
        table.play(svc.store, dict(event), HOST)
    assert app.test_client().get("/api/tables").json["tables"][0]["finished"] is True
    svc.close()
    with sqlite3.connect(data_dir / "companion.sqlite3") as db:  # as an older store has it
        db.execute("UPDATE tables SET finished = 0")
    db.close()
    for _ in range(2):
        app = app_with(data_dir)
        client = app.test_client()
        assert client.get(f"/api/tables/{table.id}").json["finished"] is True
        assert client.get("/api/tables").json["tables"][0]["finished"] is True
        services(app).close()
