"""Seats, screens and links (issue 18 §5): join codes only until the first play, a seat the
referee re-issues (its old token stops at once, in every process), and no token kept in a
seat page's address bar or in a lobby that did not ask for it."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import bearer, config, make_table, register_run

from web import create_app, services
from web.pgstore import PgStore


def first_play(client: FlaskClient, t: dict[str, Any]) -> None:
    """The referee taps the winner of rock-paper-scissors: WuXing's first real play."""
    r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                    json={"type": "rps", "winner": 1, "version": t["version"]})
    assert r.status_code == 200, r.json


def test_the_big_screen_shows_join_codes_only_until_the_first_play(
        client: FlaskClient, data_dir: Path) -> None:
    """A code scanned mid-game opens another seat's hidden cards: after the first play the
    host's big-screen link shows none, and only the referee page has them."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid, host = t["table"], t["host_token"]
    before = client.get(f"/t/{tid}?token={host}").get_data(as_text=True)
    assert 'id="join"' in before and before.count("<svg") == 4  # three seats, the watch code
    first_play(client, t)
    after = client.get(f"/t/{tid}?token={host}").get_data(as_text=True)
    assert 'id="join"' not in after and "Show the join codes" not in after
    assert after.count("<svg") == 1  # the watch code only
    referee = client.get(f"/t/{tid}/referee?token={host}").get_data(as_text=True)
    assert all(s["token"] in referee for s in t["seats"])


def test_the_referee_reissues_a_seat_and_the_old_link_stops(
        client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid, host = t["table"], t["host_token"]
    old = t["seats"][1]["token"]
    r = client.post(f"/api/tables/{tid}/seats/2/reissue", headers=bearer(host))
    assert r.status_code == 200, r.json
    new = r.json["token"]
    assert new != old and r.json["name"] == "Ben"
    assert r.json["join_url"].endswith(f"/t/{tid}/seat/2?token={new}")
    # The old token opens nothing: no page, no view, no play, no stream.
    assert client.get(f"/t/{tid}/seat/2?token={old}").status_code == 403
    for path in ("", "/events"):
        assert client.get(f"/api/tables/{tid}{path}", headers=bearer(old)).status_code == 403
    r = client.post(f"/api/tables/{tid}/actions", headers=bearer(old), json={"type": "pass"})
    assert r.status_code == 403
    # The new one opens Ben's seat, and the others' links are unchanged.
    assert client.get(f"/api/tables/{tid}", headers=bearer(new)).json["viewer"]["seat"] == 2
    assert client.get(f"/t/{tid}/seat/2?token={new}").status_code == 200
    assert client.get(f"/t/{tid}/seat/1?token={t['seats'][0]['token']}").status_code == 200
    seats = client.get(f"/api/tables/{tid}/seats", headers=bearer(host)).json["seats"]
    assert new in seats[1]["join_url"] and old not in str(seats)


def test_only_the_host_reissues_and_a_wrong_seat_is_named(
        client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    ana = t["seats"][0]["token"]
    for headers, status in (({}, 401), (bearer(ana), 403), (bearer(t["camera_token"]), 403)):
        r = client.post(f"/api/tables/{tid}/seats/2/reissue", headers=headers)
        assert r.status_code == status, r.json
    r = client.post(f"/api/tables/{tid}/seats/4/reissue", headers=bearer(t["host_token"]))
    assert r.status_code == 404 and "seats are 1 to 3" in r.json["error"]
    # Nothing changed by any of those.
    assert client.get(f"/api/tables/{tid}", headers=bearer(ana)).status_code == 200
    b = t["seats"][1]["token"]
    assert client.get(f"/api/tables/{tid}", headers=bearer(b)).status_code == 200


def test_a_reissued_seat_survives_a_restart(data_dir: Path) -> None:
    app = create_app(config(data_dir))
    t = make_table(app.test_client(), data_dir, "wuxing", 3)
    tid, old = t["table"], t["seats"][0]["token"]
    new = app.test_client().post(f"/api/tables/{tid}/seats/1/reissue",
                                 headers=bearer(t["host_token"])).json["token"]
    services(app).close()
    again = create_app(config(data_dir))
    try:
        c = again.test_client()
        assert c.get(f"/api/tables/{tid}", headers=bearer(old)).status_code == 403
        assert c.get(f"/api/tables/{tid}", headers=bearer(new)).status_code == 200
    finally:
        services(again).close()


class Stream:
    """A seat's event stream read in a thread: ends when the server ends it."""

    def __init__(self, client: FlaskClient, path: str, token: str) -> None:
        self.chunks: list[bytes] = []
        self.resp = client.get(path, headers=bearer(token), buffered=False)
        assert self.resp.status_code == 200
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for chunk in self.resp.response:
            self.chunks.append(chunk)

    def ended(self) -> bool:
        self.thread.join(30)  # a hang guard, not a speed limit
        return not self.thread.is_alive()


def test_an_open_stream_with_the_old_token_ends(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    stream = Stream(client, f"/api/tables/{tid}/events", t["seats"][2]["token"])
    r = client.post(f"/api/tables/{tid}/seats/3/reissue", headers=bearer(t["host_token"]))
    assert r.status_code == 200
    assert stream.ended()
    stream.resp.close()


@pytest.mark.slow
def test_a_reissue_reaches_every_process_sharing_postgresql(
        pg_url: str, tmp_path: Path) -> None:
    """Two servers, one database: a seat re-issued at one is refused at the other at once,
    though the other had the table (and the old token) in memory, and its stream ends."""
    register_run(tmp_path / "a", "wuxing", 3)
    apps: list[Flask] = [create_app({**config(tmp_path / d), "DATABASE": pg_url})
                         for d in ("a", "b")]
    try:
        a, b = (x.test_client() for x in apps)
        run = services(apps[0]).runs.newest("wuxing")
        assert run is not None
        r = a.post("/api/tables", json={"game": "wuxing", "players": ["Ana", "Ben", "Chen"],
                                        "runs": [run.run_id]})
        assert r.status_code == 201, r.json
        t = r.json
        tid, old = t["table"], t["seats"][0]["token"]
        seen = b.get(f"/api/tables/{tid}", headers=bearer(old))
        assert seen.status_code == 200
        played = f"id: {seen.json['version'] + 1}\n".encode()
        stream = Stream(b, f"/api/tables/{tid}/events", old)
        # A play through a, seen on b's stream, once b LISTENs (a server just started misses
        # a notice sent before it listens; a running one does not).
        store_b = services(apps[1]).store
        assert isinstance(store_b, PgStore)
        assert store_b.listening.wait(30), "b never listened"  # a hang guard
        assert a.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 1},
                      headers=bearer(t["host_token"])).status_code == 200
        for _ in range(300):  # a hang guard, not a speed limit
            if any(played in c for c in stream.chunks):
                break
            time.sleep(0.1)
        assert any(played in c for c in stream.chunks), "b never heard of a's play"
        new = a.post(f"/api/tables/{tid}/seats/1/reissue",
                     headers=bearer(t["host_token"])).json["token"]
        assert b.get(f"/api/tables/{tid}", headers=bearer(old)).status_code == 403
        assert b.get(f"/t/{tid}/seat/1?token={old}").status_code == 403
        assert b.get(f"/api/tables/{tid}", headers=bearer(new)).json["viewer"]["seat"] == 1
        assert stream.ended()
        stream.resp.close()
    finally:
        for x in apps:
            services(x).close()


def test_the_big_screen_link_carries_a_display_token_with_no_power(
        client: FlaskClient, data_dir: Path) -> None:
    """C-7 rev. 3 (issue 27 §2): the referee page's big-screen link carried the host token,
    so anyone at the TV could undo, override and re-issue seats. It now carries a display
    token: the public view and the join codes before the first play, nothing else."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid, host, display = t["table"], t["host_token"], t["display_token"]
    assert display and display not in (host, t["camera_token"])
    assert all(display != s["token"] for s in t["seats"])
    referee = client.get(f"/t/{tid}/referee?token={host}").get_data(as_text=True)
    link = re.search(r'id="big-screen" href="([^"]+)"', referee)
    assert link and link.group(1).endswith(f"/t/{tid}?token={display}")
    assert host not in link.group(1)
    big = client.get(f"/t/{tid}?token={display}").get_data(as_text=True)
    assert 'id="join"' in big and big.count("<svg") == 4
    # Nothing else: the public view, and every act of a host or a seat refused.
    view = client.get(f"/api/tables/{tid}", headers=bearer(display))
    assert view.status_code == 200 and view.json["viewer"]["role"] == "public"
    assert view.json["view"] == client.get(f"/api/tables/{tid}").json["view"]
    acts = [("post", f"/api/tables/{tid}/undo", {}),
            ("post", f"/api/tables/{tid}/seats/2/reissue", {}),
            ("post", f"/api/tables/{tid}/actions", {"type": "rps", "winner": 1}),
            ("post", f"/api/tables/{tid}/scans", {"payload": "x", "zone": "seat:1",
                                                   "override": True}),
            ("delete", f"/api/tables/{tid}", None)]
    for method, url, body in acts:
        r = getattr(client, method)(url, headers=bearer(display), json=body)
        assert r.status_code in (401, 403), (url, r.status_code, r.json)
    assert client.get(f"/t/{tid}/referee?token={display}").status_code == 403
    assert client.get(f"/t/{tid}/seat/1/qr.svg?token={display}").status_code == 403
    first_play(client, t)
    after = client.get(f"/t/{tid}?token={display}").get_data(as_text=True)
    assert 'id="join"' not in after and not any(s["token"] in after for s in t["seats"])
