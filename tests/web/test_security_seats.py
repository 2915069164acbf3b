"""Who acts (C-7), through the HTTP API: one spelling of a zone, seats as plain numbers,
a seat's scan carries its seat, and a scan id answers only the token that sent it (issue 10,
points 1 and 3)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from webtools import bearer, config, make_table

from web import create_app, services
from web.store import Store


def payload_of(t: dict[str, Any], face_kind: str, deck: str, skip: int = 0) -> str:
    cards = [c for c in t["run"].cards if c.deck == deck and c.face.kind == face_kind]
    return str(cards[skip].payload)


def host_view(client: FlaskClient, t: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"/api/tables/{t['table']}", headers=bearer(t["host_token"]))
    assert r.status_code == 200
    out: dict[str, Any] = r.json
    out.pop("now")
    return out


def challenge(client: FlaskClient, t: dict[str, Any]) -> None:
    """Ana wins rock-paper-scissors (WX-12) and challenges Ben (WX-3); the Universe card is
    laid by the camera (WX-4), so the table waits for Ana's and Ben's reveals (WX-7)."""
    r = client.post(f"/api/tables/{t['table']}/actions", json={"type": "rps", "winner": 1},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200, r.json
    r = client.post(f"/api/tables/{t['table']}/scans", headers=bearer(t["camera_token"]),
                    json={"payload": payload_of(t, "element", "universe"), "zone": "universe"})
    assert r.status_code == 200, r.json


# Each of these was read as seat 1 by Python's int() and acted for Ana (C-7).
OTHER_SPELLINGS = ["seat:+1", "seat: 1", "seat:01", "seat:1 ", "seat:1\n", " seat:1",
                   "seat:\u0661", "SEAT:1", "seat:1:1", "seat:", "seat:0", "seat:4",
                   "seat:99999999999999999999", "Seat:1", "seat:1\x00"]


@pytest.mark.parametrize("zone", OTHER_SPELLINGS)
@pytest.mark.parametrize("path", ["/scans", "/actions"])
def test_a_seat_cannot_name_another_seat_by_another_spelling(
        client: FlaskClient, data_dir: Path, zone: str, path: str) -> None:
    """C-7: Ben's token shows Ana's card in 'Ana's zone' spelled oddly: 400, nothing done."""
    t = make_table(client, data_dir, "wuxing", 3)
    challenge(client, t)
    before = host_view(client, t)
    card = payload_of(t, "element", "player", 0)
    body = ({"payload": card, "zone": zone} if path == "/scans" else
            {"type": "scan", "card": card, "zone": zone})
    r = client.post(f"/api/tables/{t['table']}{path}", json=body,
                    headers=bearer(t["seats"][1]["token"]))
    assert r.status_code == 400, r.json
    assert r.json["code"] == "malformed_event" and r.json["rule"] == "C-7"
    assert host_view(client, t) == before


@pytest.mark.parametrize("zone", ["seat:1", "seat:3"])
def test_a_seat_cannot_show_a_card_in_another_seats_zone(
        client: FlaskClient, data_dir: Path, zone: str) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    challenge(client, t)
    before = host_view(client, t)
    r = client.post(f"/api/tables/{t['table']}/scans", headers=bearer(t["seats"][1]["token"]),
                    json={"payload": payload_of(t, "element", "player", 0), "zone": zone})
    assert r.status_code == 403 and r.json["code"] == "wrong_seat"
    assert host_view(client, t) == before


@pytest.mark.parametrize("value", [True, "1", 1.0, 0, 4, -1, None, [1], {"seat": 1}])
@pytest.mark.parametrize("field", ["winner", "seat"])
def test_a_field_that_names_a_seat_is_a_plain_number_of_the_table(
        client: FlaskClient, data_dir: Path, field: str, value: Any) -> None:
    """WX-12's winner and an event's seat: a number 1..players, never true or "1"."""
    t = make_table(client, data_dir, "wuxing", 3)
    before = host_view(client, t)
    body = {"type": "rps", "winner": 1, field: value}
    r = client.post(f"/api/tables/{t['table']}/actions", json=body,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 400 and r.json["code"] == "malformed_event", r.json
    assert field in r.json["error"]
    assert host_view(client, t) == before


def test_a_seat_token_sending_true_as_its_seat_is_refused(
        client: FlaskClient, data_dir: Path) -> None:
    """true == 1 in Python: Ana's token once passed the seat check with "seat": true."""
    t = make_table(client, data_dir, "wuxing", 3)
    r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["seats"][0]["token"]),
                    json={"type": "rps", "winner": 1, "seat": True})
    assert r.status_code == 400 and r.json["code"] == "malformed_event"


def test_a_seats_scan_carries_the_seat_of_its_token(client: FlaskClient,
                                                   data_dir: Path) -> None:
    """/scans and /actions: the engine sees who sent the card, so it can apply the same
    authorization to both (C-7)."""
    t = make_table(client, data_dir, "wuxing", 3)
    challenge(client, t)
    r = client.post(f"/api/tables/{t['table']}/scans", headers=bearer(t["seats"][0]["token"]),
                    json={"payload": payload_of(t, "element", "player", 0), "zone": "seat:1"})
    assert r.status_code == 200, r.json
    log = host_view(client, t)["log"]
    assert log[-1]["who"] == "seat:1"
    assert log[-1]["event"]["seat"] == 1 and log[-1]["event"]["zone"] == "seat:1"
    # The camera's scans are nobody's seat: no "seat" is added to them.
    camera_scans = [r for r in log if r["who"] == "camera"]
    assert camera_scans and all("seat" not in r["event"] for r in camera_scans)


def test_a_repeated_scan_id_answers_only_the_token_that_sent_it(
        client: FlaskClient, data_dir: Path) -> None:
    """C-7: Ana scans her card with scan_id "s1"; Ben sending "s1" must not get Ana's
    answer (it names her card): his scan is judged as his own."""
    t = make_table(client, data_dir, "wuxing", 3)
    challenge(client, t)
    tid = t["table"]
    ana, ben = bearer(t["seats"][0]["token"]), bearer(t["seats"][1]["token"])
    mine = payload_of(t, "element", "player", 0)
    first = client.post(f"/api/tables/{tid}/scans", headers=ana,
                        json={"payload": mine, "zone": "seat:1", "scan_id": "s1"})
    assert first.status_code == 200, first.json
    # Ben probes with Ana's scan id and a card of his own; he gets his own scan judged.
    his = payload_of(t, "element", "player", 9)
    probe = client.post(f"/api/tables/{tid}/scans", headers=ben,
                        json={"payload": his, "zone": "seat:2", "scan_id": "s1"})
    assert "repeat" not in probe.json
    assert probe.json.get("card") != first.json["card"]
    assert first.json["name"] not in json.dumps(probe.json.get("card", ""))
    # Chen, whose reveal nobody waits for, sends "s1" with Ana's card: a refusal of his
    # own scan, not Ana's earlier answer.
    again = client.post(f"/api/tables/{tid}/scans", headers=bearer(t["seats"][2]["token"]),
                        json={"payload": mine, "zone": "seat:3", "scan_id": "s1"})
    assert again.status_code == 409 and "repeat" not in again.json, again.json
    # The camera's "s1" is the camera's own too.
    cam = client.post(f"/api/tables/{tid}/scans", headers=bearer(t["camera_token"]),
                      json={"payload": mine, "zone": "seat:1", "scan_id": "s1"})
    assert "repeat" not in cam.json
    # Ana herself gets her answer again, unplayed.
    repeat = client.post(f"/api/tables/{tid}/scans", headers=ana,
                         json={"payload": mine, "zone": "seat:1", "scan_id": "s1"})
    assert repeat.status_code == 200 and repeat.json["repeat"] is True
    assert repeat.json["card"] == first.json["card"]


def test_scan_ids_survive_a_restart_with_their_sender(data_dir: Path) -> None:
    app = create_app(config(data_dir))
    client = app.test_client()
    t = make_table(client, data_dir, "wuxing", 3)
    challenge(client, t)
    ana = bearer(t["seats"][0]["token"])
    body = {"payload": payload_of(t, "element", "player", 0), "zone": "seat:1",
            "scan_id": "s1"}
    assert client.post(f"/api/tables/{t['table']}/scans", headers=ana,
                       json=body).status_code == 200
    services(app).close()
    app = create_app(config(data_dir))
    try:
        client = app.test_client()
        again = client.post(f"/api/tables/{t['table']}/scans", headers=ana, json=body)
        assert again.status_code == 200 and again.json["repeat"] is True
        other = client.post(f"/api/tables/{t['table']}/scans", json=body,
                            headers=bearer(t["camera_token"]))
        assert "repeat" not in other.json
    finally:
        services(app).close()


def test_a_store_from_before_scan_ids_had_a_sender_opens_with_every_row(
        tmp_path: Path) -> None:
    """The old scans table (keyed by table and scan id) is migrated, nothing lost; its
    answers are kept under a sender no token is, so nobody gets them replayed."""
    path = tmp_path / "companion.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
                             created REAL NOT NULL);
        CREATE TABLE records (table_id TEXT NOT NULL, seq INTEGER NOT NULL, time REAL NOT NULL,
            kind TEXT NOT NULL, who TEXT NOT NULL, body TEXT NOT NULL,
            ruling TEXT NOT NULL DEFAULT '', voided_by INTEGER, PRIMARY KEY (table_id, seq));
        CREATE TABLE scans (table_id TEXT NOT NULL, scan_id TEXT NOT NULL,
            status INTEGER NOT NULL, response TEXT NOT NULL, PRIMARY KEY (table_id, scan_id));
    """)
    db.execute("INSERT INTO tables VALUES ('abc234', 'wuxing', '{\"players\": [\"A\"]}', 1.0)")
    db.execute("INSERT INTO records VALUES ('abc234', 1, 1.0, 'event', 'host', "
               "'{\"type\": \"rps\"}', 'r', NULL)")
    db.execute("INSERT INTO scans VALUES ('abc234', 'cam-1', 200, '{\"card\": \"X\"}')")
    db.commit()
    db.close()
    store = Store(path)
    try:
        (table,) = store.load_all()
        assert not hasattr(table, "why")
        assert table.records[0].body == {"type": "rps"}  # type: ignore[union-attr]
        assert table.scans == {("unknown", "cam-1"): (200, {"card": "X"})}  # type: ignore[union-attr]
    finally:
        store.close()
    store = Store(path)  # opening again changes nothing
    try:
        assert len(store.load_all()) == 1
    finally:
        store.close()
