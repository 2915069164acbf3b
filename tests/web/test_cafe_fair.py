"""Totals, not only per address (issue 27 §12): an address's share of the event streams
and of the tables made shrinks as more addresses come, so a few addresses cannot fill
the server; IPv6 clients are counted by their /64."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import config, make_table, register_run

from web import create_app, services
from web.broker import Broker, StreamsFull
from web.guard import address_key


def app_with(data_dir: Path, **extra: Any) -> Flask:
    return create_app({**config(data_dir), **extra})


@pytest.fixture
def fair(data_dir: Path) -> Iterator[Flask]:
    app = app_with(data_dir, SSE_MAX_STREAMS=6, SSE_MAX_PER_CLIENT=4, TABLES_PER_CLIENT=20,
                   TABLES_TOTAL=6)
    yield app
    services(app).close()


def _from(addr: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": addr}}


def _make(client: FlaskClient, data_dir: Path, addr: str) -> Any:
    run = register_run(data_dir, "wuxing", 3)
    return client.post("/api/tables", json={"game": "wuxing", "players": ["Ana", "Ben", "Chen"],
                                             "runs": [run.run_id]}, **_from(addr))


def test_twelve_addresses_cannot_fill_the_default_stream_slots() -> None:
    broker = Broker()
    for n in range(12):  # each opens as many pages as it is let
        for _ in range(16):
            try:
                broker.subscribe("t", f"10.0.0.{n}", max_total=192, max_per_client=16)
            except StreamsFull:
                break
    held = broker.count()
    for n in range(100, 100 + 192 - held):  # every newcomer still opens its page
        broker.subscribe("t", f"10.0.1.{n}", max_total=192, max_per_client=16)
    assert broker.count() == 192
    assert held <= 192 - 48  # 12 addresses left 48 places or more to the others


def test_a_newcomer_opens_its_page_while_others_hold_many(fair: Flask, data_dir: Path
                                                          ) -> None:
    client = fair.test_client()
    t = make_table(client, data_dir, "wuxing", 3)
    url = f"/api/tables/{t['table']}/events"
    open_ = [client.get(url, buffered=False, **_from("10.0.0.1")) for _ in range(4)]
    assert [r.status_code for r in open_] == [200] * 4
    b1 = client.get(url, buffered=False, **_from("10.0.0.2"))
    b2 = client.get(url, buffered=False, **_from("10.0.0.2"))
    assert b1.status_code == 200 and b2.status_code == 503
    assert b2.json["code"] == "too_many_streams" and int(b2.headers["Retry-After"]) > 0
    assert "its share while 2 devices share the server's 6" in b2.json["error"]
    c1 = client.get(url, buffered=False, **_from("10.0.0.3"))
    assert c1.status_code == 200  # without the share, two addresses held all six
    for r in [*open_, b1, c1]:
        r.close()


def test_an_address_share_of_the_tables_made_shrinks_as_more_come(fair: Flask,
                                                                  data_dir: Path) -> None:
    client = fair.test_client()
    made = {f"10.0.0.{n}": 0 for n in range(1, 6)}
    last: dict[str, Any] = {}
    for addr in made:
        for _ in range(20):
            r = _make(client, data_dir, addr)
            if r.status_code != 201:
                last[addr] = r
                break
            made[addr] += 1
    # Half alone, then a part of what the others left (at least one), then the total.
    assert list(made.values()) == [3, 1, 1, 1, 0]
    first = last["10.0.0.1"]
    assert first.status_code == 429 and int(first.headers["Retry-After"]) > 0
    assert "its share of the 6 the server makes" in first.json["error"]
    assert "the server made 6 tables in the last 10 minutes" in last["10.0.0.5"].json["error"]


def test_ipv6_clients_are_counted_by_their_64(data_dir: Path) -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.4") == address_key("192.0.2.4") == "192.0.2.4"
    app = app_with(data_dir, TABLES_PER_CLIENT=2)
    try:
        client = app.test_client()
        assert _make(client, data_dir, "2001:db8:1:2::1").status_code == 201
        assert _make(client, data_dir, "2001:db8:1:2::2").status_code == 201
        third = _make(client, data_dir, "2001:db8:1:2:dead:beef:0:3")
        assert third.status_code == 429, third.json  # the same /64: the same device
        assert _make(client, data_dir, "2001:db8:1:3::1").status_code == 201
    finally:
        services(app).close()
