"""Server-Sent Events: per-token views pushed on every change, heartbeat, Last-Event-ID resume."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from webtools import bearer, make_table


class Stream:
    """Reads one SSE response of the test client, message by message."""

    def __init__(self, client: FlaskClient, path: str, headers: dict[str, str] | None = None):
        self.resp = client.get(path, headers=headers or {}, buffered=False)
        assert self.resp.status_code == 200
        assert self.resp.mimetype == "text/event-stream"
        self.chunks: Iterator[bytes] = iter(self.resp.response)
        self.buf = ""

    def message(self) -> dict[str, str]:
        """The next message (``retry``, ``id``/``data`` or a ``: ping`` comment)."""
        while "\n\n" not in self.buf:
            chunk = next(self.chunks)
            self.buf += chunk.decode() if isinstance(chunk, bytes) else chunk
        raw, self.buf = self.buf.split("\n\n", 1)
        out: dict[str, str] = {}
        for line in raw.split("\n"):
            if line.startswith(":"):
                out["comment"] = line[1:].strip()
            else:
                key, _, value = line.partition(": ")
                out[key] = value
        return out

    def event(self) -> tuple[int, Any]:
        """The next table event (skipping heartbeats): its id and parsed snapshot."""
        for _ in range(50):
            m = self.message()
            if "data" in m:
                return int(m["id"]), json.loads(m["data"])
        raise AssertionError("no event within 50 messages")

    def close(self) -> None:
        self.resp.close()


def test_a_phone_gets_its_own_view_on_every_change(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    ana = Stream(client, f"/api/tables/{tid}/events?token={t['seats'][0]['token']}")
    screen = Stream(client, f"/api/tables/{tid}/events")
    try:
        assert ana.message() == {"retry": "2000"}
        v, snap = ana.event()
        assert v == 0 and snap["viewer"]["seat"] == 1 and "you" in snap["view"]
        v, pub = screen.event()
        assert pub["viewer"]["role"] == "public" and "you" not in pub["view"]
        r = client.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 2},
                        headers=bearer(t["host_token"]))
        assert r.status_code == 200
        v, snap = ana.event()
        assert v == r.json["version"] == snap["version"]
        assert snap["view"]["challenge"] == [2, 3]
        assert "places" not in snap["view"] and "log" not in snap
        v, pub = screen.event()
        assert v == r.json["version"] and pub["view"]["challenge"] == [2, 3]
    finally:
        ana.close()
        screen.close()


def test_heartbeat_keeps_an_idle_stream_open(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    s = Stream(client, f"/api/tables/{t['table']}/events")
    try:
        s.message()
        s.event()
        assert s.message() == {"comment": "ping"}  # SSE_PING is 0.2 s in the tests
    finally:
        s.close()


def test_a_dropped_phone_resumes_from_last_event_id(client: FlaskClient,
                                                    data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    tok = t["seats"][1]["token"]
    client.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 1},
                headers=bearer(t["host_token"]))
    # Up to date: nothing is resent; the stream waits (heartbeats) for the next change.
    s = Stream(client, f"/api/tables/{tid}/events?token={tok}", {"Last-Event-ID": "1"})
    try:
        s.message()
        assert s.message() == {"comment": "ping"}
        client.post(f"/api/tables/{tid}/timer", json={"seconds": 60},
                    headers=bearer(t["host_token"]))
        v, snap = s.event()
        assert v == 2 and snap["timer"]["seconds"] == 60
    finally:
        s.close()
    # Missed a change while away: the current snapshot comes at once.
    s = Stream(client, f"/api/tables/{tid}/events?token={tok}", {"Last-Event-ID": "1"})
    try:
        s.message()
        v, snap = s.event()
        assert v == 2 and snap["viewer"]["seat"] == 2
    finally:
        s.close()


def test_a_stream_with_a_wrong_token_is_refused(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    r = client.get(f"/api/tables/{t['table']}/events?token=nope")
    assert r.status_code == 403 and r.json["code"] == "bad_token"
    r = client.get("/api/tables/nosuch/events")
    assert r.status_code == 404
