"""What users type cannot break the server (issue 10, points 5-7): names, unknown fields,
limits, deep JSON, long run ids, oversized bodies (through real waitress too), a full
disk, and start-up with damaged stored data."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from webtools import bearer, config, make_table, register_run

from companion.names import BadText, clean, escaped, fold, player_names, problem, shown
from web import create_app, services
from web.server import MAX_BODY, make_server, stop_in_thread


def host_view(client: FlaskClient, t: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"/api/tables/{t['table']}", headers=bearer(t["host_token"]))
    assert r.status_code == 200
    out: dict[str, Any] = r.json
    out.pop("now")
    return out


def new_table(client: FlaskClient, data_dir: Path, players: list[str]) -> Any:
    run = register_run(data_dir, "wuxing", 3)
    return client.post("/api/tables", json={"game": "wuxing", "players": players,
                                            "runs": [run.run_id]})


# -- names (C-7, C-8) ---------------------------------------------------------------------
@pytest.mark.parametrize(("name", "why"), [
    ("Ana\ud800", "surrogate"),
    ("Ana\u202e", "invisible"),  # right-to-left override
    ("A\u200bna", "invisible"),  # zero-width space
    ("Ana\x07", "control"),
    ("Ana\nBen", "control"),
    ("", "empty"),
    ("   ", "empty"),
    ("x" * 41, "longer than 40"),
    ("Ana\ue000", "private-use"),
])
def test_a_name_that_cannot_be_stored_is_refused_naming_the_problem(
        client: FlaskClient, data_dir: Path, name: str, why: str) -> None:
    r = new_table(client, data_dir, [name, "Ben", "Chen"])
    assert r.status_code == 400 and r.json["code"] == "bad_setup"
    assert why in r.json["error"]
    assert client.get("/").status_code == 200
    assert client.get("/api/tables").json["tables"] == []


@pytest.mark.parametrize("pair", [("Ana", "ana"), ("Ana", "\u0410NA"), ("Bo", "B\u03bf"),
                                  ("Ann Lee", "Ann  Lee"), ("Cl0e", "Cloe"),
                                  ("Ｂｅｎ", "Ben"), ("Ili", "Il1")])
def test_two_seats_whose_names_look_the_same_are_refused(
        client: FlaskClient, data_dir: Path, pair: tuple[str, str]) -> None:
    """C-7: the referee page tells seats apart by name; a Cyrillic А must not pass."""
    r = new_table(client, data_dir, [pair[0], pair[1], "Chen"])
    assert r.status_code == 400 and r.json["code"] == "bad_setup", r.json
    assert "look the same" in r.json["error"]


def test_names_are_stored_in_one_normal_form(client: FlaskClient, data_dir: Path) -> None:
    r = new_table(client, data_dir, ["Jose\u0301", "  Zoë ", "李雷"])
    assert r.status_code == 201, r.json
    assert [s["name"] for s in r.json["seats"]] == ["Jos\u00e9", "Zoë", "李雷"]
    assert player_names(["Ana", "Ben"]) == ("Ana", "Ben")
    assert fold("\u0410NA") == fold("ana")


def test_the_lone_surrogate_attack_no_longer_takes_the_lobby_down(
        client: FlaskClient, data_dir: Path) -> None:
    """Issue 10, point 5: "Ana\\ud800" was accepted, then the lobby answered 500."""
    raw = json.dumps({"game": "wuxing", "players": ["Ana\ud800", "Ben", "Chen"]})
    register_run(data_dir, "wuxing", 3)
    r = client.post("/api/tables", data=raw, content_type="application/json")
    assert r.status_code == 400 and "\\ud800" in r.json["error"]
    assert client.get("/").status_code == 200


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(), max_size=50))
def test_any_text_is_stored_clean_or_refused_and_always_showable(text: str) -> None:
    """Whatever is typed: either a refusal whose message can be written as UTF-8, or a
    name in normal form that passes the check again unchanged; and any stored text can be
    shown (escaped) as UTF-8."""
    try:
        name = clean(text)
    except BadText as exc:
        str(exc).encode("utf-8")
    else:
        assert problem(name) is None and clean(name) == name
        assert 1 <= len(name) <= 40
    shown(text).encode("utf-8")
    escaped(text).encode("utf-8")


# -- start-up never fails because of stored data ------------------------------------------
def test_a_data_dir_with_damaged_records_still_starts(data_dir: Path) -> None:
    """A name stored before names were checked is shown escaped; a record that is not JSON
    makes its table table_unavailable; the other tables and the lobby work."""
    app = create_app(config(data_dir))
    client = app.test_client()
    named = make_table(client, data_dir, "wuxing", 3)
    damaged = make_table(client, data_dir, "godnum", 3, seed=2)
    fine = make_table(client, data_dir, "shrine", 3, seed=3)
    services(app).close()
    db = sqlite3.connect(data_dir / "companion.sqlite3")
    cfg = json.loads(db.execute("SELECT config FROM tables WHERE id = ?",
                                (named["table"],)).fetchone()[0])
    cfg["players"][0] = "Ana\ud800\u202e"
    db.execute("UPDATE tables SET config = ? WHERE id = ?", (json.dumps(cfg), named["table"]))
    db.execute("UPDATE records SET body = '{not json' WHERE table_id = ?", (damaged["table"],))
    db.commit()
    db.close()
    app = create_app(config(data_dir))
    try:
        client = app.test_client()
        assert client.get("/").status_code == 200
        lobby = client.get("/").get_data(as_text=True)
        assert "Ana\\ud800\\u202e" in lobby
        r = client.get(f"/api/tables/{named['table']}")
        assert r.status_code == 200 and r.json["players"][0] == "Ana\\ud800\\u202e"
        assert client.get(f"/t/{named['table']}").status_code == 200
        r = client.get(f"/api/tables/{damaged['table']}")
        assert r.status_code == 409 and r.json["code"] == "table_unavailable"
        assert client.get(f"/api/tables/{fine['table']}").status_code == 200
        listed = {t["table"] for t in client.get("/api/tables").json["tables"]}
        assert listed == {named["table"], fine["table"]}
    finally:
        services(app).close()


# -- only known fields are stored (C-7) -----------------------------------------------------
@pytest.mark.parametrize(("path", "body", "field"), [
    ("/scans", {"payload": "T1:X", "zone": "universe", "junk": 1}, "junk"),
    ("/scans", {"payload": "T1:X", "zone": "universe", "seat": 1}, "seat"),
    ("/undo", {"version": 3, "why": "x"}, "why"),
    ("/timer", {"seconds": 60, "extra": True}, "extra"),
])
def test_a_body_with_a_field_it_does_not_have_is_refused(
        client: FlaskClient, data_dir: Path, path: str, body: dict[str, Any],
        field: str) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    before = host_view(client, t)
    r = client.post(f"/api/tables/{t['table']}{path}", json=body,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 400 and r.json["code"] == "malformed_event", r.json
    assert repr(field) in r.json["error"]
    assert host_view(client, t) == before


@pytest.mark.parametrize("body", [
    {"type": "rps", "winner": 1, "junk": "x" * 60_000},
    {"type": "rps", "winner": 1, "note": "x" * 201},
    {"type": "rps", "winner": 1, "cards": list(range(65))},
    {"type": "rps", "winner": 1, "deep": [[[[[[1]]]]]]},
    {"type": "rps", "winner": 1, **{f"f{i}": i for i in range(20)}},
])
def test_an_action_cannot_store_junk(client: FlaskClient, data_dir: Path,
                                     body: dict[str, Any]) -> None:
    """Issue 10, point 6: 200 actions with 60 KB of junk made every referee update 12 MB."""
    t = make_table(client, data_dir, "wuxing", 3)
    before = host_view(client, t)
    r = client.post(f"/api/tables/{t['table']}/actions", json=body,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 400 and r.json["code"] == "malformed_event", r.json
    assert host_view(client, t) == before
    assert len(client.get(f"/api/tables/{t['table']}",
                          headers=bearer(t["host_token"])).data) < 20_000


def test_a_table_body_with_an_unknown_field_is_bad_setup(client: FlaskClient,
                                                          data_dir: Path) -> None:
    register_run(data_dir, "wuxing", 3)
    r = client.post("/api/tables", json={"game": "wuxing", "players": ["A", "B"],
                                         "host_token": "mine"})
    assert r.status_code == 400 and r.json["code"] == "bad_setup"
    assert "'host_token'" in r.json["error"]


# -- never 500 to input ---------------------------------------------------------------------
def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


@pytest.mark.parametrize("path", ["/actions", "/scans", "/undo", "/timer", ""])
@pytest.mark.parametrize("raw", [deep(5000), b'{"type": ' + deep(40) + b"}",
                                 b'{"a": NaN}', b'{"seconds": Infinity}', b"\xff\xfe{}"])
def test_odd_json_is_a_400_on_every_json_endpoint(
        client: FlaskClient, data_dir: Path, path: str, raw: bytes) -> None:
    """5,000 levels of nesting gave 500 (RecursionError) on /actions and POST /api/tables."""
    t = make_table(client, data_dir, "wuxing", 3)
    url = f"/api/tables/{t['table']}{path}" if path else "/api/tables"
    r = client.post(url, data=raw, content_type="application/json",
                    headers=bearer(t["host_token"]))
    assert r.status_code == 400 and r.json["code"] == "malformed_json", r.json


def test_json_with_brackets_inside_strings_is_not_deep(client: FlaskClient,
                                                       data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    raw = json.dumps({"type": "rps", "winner": 1, "note": "[{" * 150})
    r = client.post(f"/api/tables/{t['table']}/actions", data=raw,
                    content_type="application/json", headers=bearer(t["host_token"]))
    assert r.status_code == 400 and r.json["code"] == "malformed_event"  # too long, not deep
    assert "longer than 200" in r.json["error"]


@pytest.mark.parametrize("run", ["K" * 300, "../../etc", "K2F9\x00", "ＫＫ", ""])
def test_an_odd_run_id_is_a_400(client: FlaskClient, data_dir: Path, run: str) -> None:
    """A 300-character run id gave 500 (OSError: file name too long)."""
    r = client.post("/api/tables", json={"game": "wuxing", "players": ["A", "B"],
                                         "runs": [run]})
    assert r.status_code == 400 and r.json["code"] == "bad_setup", r.json


@pytest.mark.parametrize("token", ["é", "x" * 500, "\u202e"])
def test_an_odd_token_is_refused_not_crashed(client: FlaskClient, data_dir: Path,
                                             token: str) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    r = client.get(f"/api/tables/{t['table']}", query_string={"token": token})
    assert r.status_code in (401, 403) and r.json["code"] == "bad_token"
    page = client.get(f"/t/{t['table']}/referee", query_string={"token": token})
    assert page.status_code == 403


@pytest.fixture
def waitress(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    """The app on real waitress, as ``companion serve`` runs it."""
    app = create_app(config(tmp_path / "data"))
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}", app
    services(app).broker.close()
    stop_in_thread(server, thread)
    services(app).store.close()


def test_bodies_over_the_limit_get_json_413_from_waitress_too(
        waitress: tuple[str, Flask]) -> None:
    """Over 1 MB waitress once answered in plain text before the app saw the body."""
    base, app = waitress
    data = Path(app.config["DATA_DIR"])
    with httpx.Client(base_url=base, timeout=30) as http:
        run = register_run(data, "wuxing", 3)
        t = http.post("/api/tables", json={"game": "wuxing", "players": ["A", "B", "C"],
                                           "runs": [run.run_id]}).json()
        url = f"/api/tables/{t['table']}/actions"
        host = {**bearer(t["host_token"]), "Content-Type": "application/json"}
        for size in (70_000, 2 * 1024 * 1024, MAX_BODY + 1):
            r = http.post(url, content=b" " * size, headers=host)
            assert r.status_code == 413, (size, r.text[:200])
            assert r.headers["content-type"].startswith("application/json")
            assert r.json()["code"] == "too_large"
        r = http.get(f"/api/tables/{t['table']}")
        assert r.status_code == 200 and r.json()["version"] == t["version"]


def test_a_full_disk_is_a_503_that_writes_nothing_and_writes_resume(
        client: FlaskClient, app: Flask, data_dir: Path) -> None:
    """SQLITE_FULL, for real: the database may not grow by a page. 503 with the reason,
    nothing in memory or on disk changed; once there is space the same write works."""
    t = make_table(client, data_dir, "wuxing", 3)
    before = host_view(client, t)
    store = services(app).store
    with store._lock:  # the store's own connection: the limit is per connection
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages}")
    big = {"type": "rps", "winner": 1}
    rejected = 0
    for _ in range(400):  # each record adds bytes; a page holds a few dozen
        r = client.post(f"/api/tables/{t['table']}/timer", json={"seconds": 60},
                        headers=bearer(t["host_token"]))
        if r.status_code == 503:
            rejected += 1
            break
        assert r.status_code == 200
    assert rejected, "the page limit never filled"
    assert r.json["code"] == "storage_unavailable" and "full" in r.json["error"]
    assert r.headers["Retry-After"]
    stuck = host_view(client, t)
    rows = sqlite3.connect(data_dir / "companion.sqlite3").execute(
        "SELECT COUNT(*) FROM records WHERE table_id = ?", (t["table"],)).fetchone()[0]
    assert rows == stuck["version"]  # nothing half-written
    r = client.post(f"/api/tables/{t['table']}/actions", json=big,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 503 and host_view(client, t) == stuck
    with store._lock:
        store._db.execute("PRAGMA max_page_count = 1073741823")
    r = client.post(f"/api/tables/{t['table']}/actions", json=big,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200 and r.json["version"] == stuck["version"] + 1
    assert before["version"] < stuck["version"] + 1


def test_a_data_file_that_is_not_a_database_is_kept_aside_and_the_server_starts(
        data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "companion.sqlite3").write_bytes(b"not a database, a damaged disk " * 200)
    app = create_app(config(data_dir))
    try:
        client = app.test_client()
        assert client.get("/").status_code == 200
        assert client.get("/api/tables").json["tables"] == []
        make_table(client, data_dir, "wuxing", 3)
        kept = list(data_dir.glob("companion.sqlite3.damaged-*"))
        assert len(kept) == 1 and kept[0].read_bytes().startswith(b"not a database")
    finally:
        services(app).close()
