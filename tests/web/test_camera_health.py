"""The camera's health (issue 26 §5): ``POST /api/tables/<t>/camera`` takes the camera's
heartbeat (camera token only, every field checked, small bodies, a few a second), keeps the
latest in memory and pushes it on the referee's stream (all of it) and the big screen's (on
or off only); a seat hears nothing of it, and nothing is logged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_web_events import Stream
from webtools import bearer, make_table

from web.camhealth import RATE, health
from web.guard import RateLimit

BEAT: dict[str, Any] = {
    "fps": 14.5, "mat": True, "cards": 3, "problems": ["glare on the left of the mat"],
    "last": {"card": "61FA-01Q", "zone": "universe", "answer": "already there",
             "words": "Universe Water is already on the pot"}}


def beat(client: FlaskClient, t: dict[str, Any], body: Any = None,
         token: str | None = "camera") -> Any:
    headers = {} if token is None else bearer(t["camera_token"] if token == "camera"
                                              else token)
    return client.post(f"/api/tables/{t['table']}/camera",
                       json=BEAT if body is None else body, headers=headers)


@pytest.fixture
def table(client: FlaskClient, data_dir: Path) -> dict[str, Any]:
    return make_table(client, data_dir, "wuxing", 3)


def test_a_heartbeat_is_kept_and_read_per_token(
        client: FlaskClient, table: dict[str, Any]) -> None:
    t = table
    path = f"/api/tables/{t['table']}/camera"
    assert client.get(path).json == {"on": False, "seen": False}
    r = beat(client, t)
    assert r.status_code == 204 and r.data == b""
    host = client.get(path, headers=bearer(t["host_token"])).json
    assert host["on"] is True and host["seen"] is True and 0 <= host["age"] < 5
    assert {k: host[k] for k in BEAT} == BEAT
    # The big screen and the phones: on or off, never the card (C-7).
    for tok in (None, t["seats"][0]["token"]):
        assert client.get(path, headers=bearer(tok) if tok else {}).json == {
            "on": True, "seen": True}
    # Not a play: nothing logged, the version stands.
    snap = client.get(f"/api/tables/{t['table']}", headers=bearer(t["host_token"])).json
    assert snap["version"] == t["version"] and snap["log"] == []


def test_only_the_camera_token_sends_a_heartbeat(
        client: FlaskClient, table: dict[str, Any]) -> None:
    t = table
    assert beat(client, t, token=None).status_code == 401
    for tok in (t["host_token"], t["seats"][0]["token"]):
        r = beat(client, t, token=tok)
        assert r.status_code == 403 and r.json["code"] == "not_allowed", r.json
    assert beat(client, t, token="not-a-token-of-this-table").status_code == 403
    other = client.post("/api/tables/nosuchtable/camera", json=BEAT,
                        headers=bearer(t["camera_token"]))
    assert other.status_code == 404
    assert client.get(f"/api/tables/{t['table']}/camera").json["seen"] is False


@pytest.mark.parametrize(("body", "words"), [
    ({}, "fps is missing"),
    ({"fps": 10, "mat": True}, "cards is missing"),
    ({**BEAT, "fps": "fast"}, "fps must be a number"),
    ({**BEAT, "fps": -1}, "fps must be a number 0-240"),
    ({**BEAT, "fps": 1e9}, "fps must be a number 0-240"),
    ({**BEAT, "fps": True}, "fps must be a number"),
    ({**BEAT, "mat": "yes"}, "mat must be true or false"),
    ({**BEAT, "cards": 2.5}, "cards must be a whole number"),
    ({**BEAT, "cards": -1}, "cards must be a whole number 0-200"),
    ({**BEAT, "cards": 10_000}, "cards must be a whole number 0-200"),
    ({**BEAT, "problems": "glare"}, "problems must be a list"),
    ({**BEAT, "problems": ["x"] * 11}, "problems must be a list of at most 10"),
    ({**BEAT, "problems": [3]}, "problems[0] must be text"),
    ({**BEAT, "problems": ["ok", "bad\u0000"]}, "problems[1] holds"),
    ({**BEAT, "problems": ["x" * 201]}, "problems[0] is longer than 200"),
    ({**BEAT, "last": "61FA-01Q"}, "last must be null or an object"),
    ({**BEAT, "last": {"card": "61FA-01Q"}}, "last needs answer, words, zone"),
    ({**BEAT, "last": {**BEAT["last"], "seat": 1}}, "last has no field 'seat'"),
    ({**BEAT, "last": {**BEAT["last"], "answer": "ok"}}, "last.answer must be one of"),
    ({**BEAT, "last": {**BEAT["last"], "zone": "seat:9"}}, "last.zone"),
    ({**BEAT, "last": {**BEAT["last"], "zone": 3}}, "last.zone"),
    ({**BEAT, "last": {**BEAT["last"], "card": ""}}, "last.card is empty"),
    ({**BEAT, "last": {**BEAT["last"], "words": "w" * 301}}, "last.words is longer"),
    ({**BEAT, "token": "x"}, "there is no field 'token'"),
])
def test_every_field_is_checked_and_named(client: FlaskClient, table: dict[str, Any],
                                          body: Any, words: str) -> None:
    r = beat(client, table, body)
    assert r.status_code == 400, r.json
    assert r.json["code"] == "bad_heartbeat" and words in r.json["error"], r.json
    assert client.get(f"/api/tables/{table['table']}/camera").json["seen"] is False


def test_the_optional_fields_and_the_body_limits(
        client: FlaskClient, table: dict[str, Any]) -> None:
    t = table
    assert beat(client, t, {"fps": 0, "mat": False, "cards": 0}).status_code == 204
    host = client.get(f"/api/tables/{t['table']}/camera",
                      headers=bearer(t["host_token"])).json
    assert (host["problems"], host["last"], host["mat"]) == ([], None, False)
    big = json.dumps({**BEAT, "problems": ["x" * 190] * 10}) + " " * 3000
    r = client.post(f"/api/tables/{t['table']}/camera", data=big,
                    content_type="application/json", headers=bearer(t["camera_token"]))
    assert r.status_code == 413 and r.json["code"] == "too_large"
    r = client.post(f"/api/tables/{t['table']}/camera", data="fps=1",
                    content_type="text/plain", headers=bearer(t["camera_token"]))
    assert r.status_code == 415
    r = client.post(f"/api/tables/{t['table']}/camera", data="{\"fps\": NaN}",
                    content_type="application/json", headers=bearer(t["camera_token"]))
    assert r.status_code == 400 and r.json["code"] == "malformed_json"
    r = beat(client, t, [1, 2])
    assert r.status_code == 400 and "must be a JSON object" in r.json["error"]


def test_more_than_a_few_heartbeats_a_second_are_refused_with_retry_after(
        app: Flask, client: FlaskClient, table: dict[str, Any]) -> None:
    # The limiter's own window, made long here so no test depends on the machine's speed.
    health(app).rate = RateLimit(RATE, 3600.0)
    answers = [beat(client, table).status_code for _ in range(RATE)]
    assert answers == [204] * RATE
    r = beat(client, table)
    assert r.status_code == 429 and r.json["code"] == "too_many_requests"
    assert int(r.headers["Retry-After"]) >= 1
    other = make_table(client, Path(app.config["DATA_DIR"]), "godnum", 3)
    assert beat(client, other).status_code == 204  # per table


def test_the_stream_tells_the_referee_all_the_big_screen_on_and_a_seat_nothing(
        client: FlaskClient, table: dict[str, Any]) -> None:
    t = table
    tid = t["table"]
    streams = {
        "referee": Stream(client, f"/api/tables/{tid}/events?token={t['host_token']}"),
        "screen": Stream(client, f"/api/tables/{tid}/events"),
        "seat": Stream(client, f"/api/tables/{tid}/events?token={t['seats'][0]['token']}"),
    }
    try:
        for s in streams.values():
            s.event()  # the first snapshot
        assert beat(client, t).status_code == 204
        r = client.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 2},
                        headers=bearer(t["host_token"]))
        assert r.status_code == 200
        heard: dict[str, list[Any]] = {}
        for name, s in streams.items():
            heard[name] = []
            while True:  # everything up to the play's snapshot
                m = s.message()
                if m.get("event") == "table":
                    break
                if m.get("event") == "camera":
                    heard[name].append(json.loads(m["data"]))
        assert heard["seat"] == []
        assert heard["screen"] == [{"on": True}]
        [full] = heard["referee"]
        assert {k: full[k] for k in BEAT} == BEAT and full["on"] is True
        assert "61FA-01Q" not in json.dumps(heard["screen"])
    finally:
        for s in streams.values():
            s.close()


def test_a_page_opened_later_hears_the_latest_heartbeat_at_once(
        client: FlaskClient, table: dict[str, Any]) -> None:
    t = table
    assert beat(client, t).status_code == 204
    s = Stream(client, f"/api/tables/{t['table']}/events?token={t['host_token']}")
    try:
        s.event()
        m = s.message()
        assert m.get("event") == "camera", m
        assert json.loads(m["data"])["fps"] == BEAT["fps"]
    finally:
        s.close()
