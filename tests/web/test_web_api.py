"""The JSON API through Flask's test client: tables, tokens, scans, undo, refusals (issue 7)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import bearer, make_table, register_run

from companion.registry import demo_run
from web import services


def wuxing_table(client: FlaskClient, data_dir: Path) -> dict[str, Any]:
    return make_table(client, data_dir, "wuxing", 3)


def payload_of(t: dict[str, Any], face_kind: str, deck: str, skip: int = 0) -> str:
    cards = [c for c in t["run"].cards if c.deck == deck and c.face.kind == face_kind]
    return str(cards[skip].payload)


def snapshot(client: FlaskClient, t: dict[str, Any], token: str | None = None) -> Any:
    r = client.get(f"/api/tables/{t['table']}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.json
    return r.json


def log_of(client: FlaskClient, t: dict[str, Any]) -> list[dict[str, Any]]:
    return list(snapshot(client, t, t["host_token"])["log"])


def start_challenge(client: FlaskClient, t: dict[str, Any]) -> None:
    """Ana wins rock-paper-scissors (WX-12), so Ana challenges Ben first (WX-3)."""
    r = client.post(f"/api/tables/{t['table']}/actions",
                    json={"type": "rps", "winner": 1}, headers=bearer(t["seats"][0]["token"]))
    assert r.status_code == 200, r.json


def scan(client: FlaskClient, t: dict[str, Any], payload: str, zone: str,
         **extra: Any) -> Any:
    return client.post(f"/api/tables/{t['table']}/scans",
                       json={"payload": payload, "zone": zone, **extra},
                       headers=bearer(t["camera_token"]))


def test_a_table_gets_a_host_a_camera_and_one_join_link_per_seat(
        client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    tokens = [t["host_token"], t["camera_token"], *(s["token"] for s in t["seats"])]
    assert len(set(tokens)) == 5 and all(len(x) >= 20 for x in tokens)
    assert [s["name"] for s in t["seats"]] == ["Ana", "Ben", "Chen"]
    ana = t["seats"][0]
    assert ana["join_url"] == (
        f"http://table.local:8000/t/{t['table']}/seat/1?token={ana['token']}")
    assert t["runs"] == [t["run"].run_id] and t["version"] == 0
    assert client.get(ana["join_url"].replace("http://table.local:8000", "")).status_code == 200


def test_runs_default_to_the_newest_print_run_of_the_game(
        client: FlaskClient, data_dir: Path) -> None:
    register_run(data_dir, "wuxing", 3, seed=1)
    newest = register_run(data_dir, "wuxing", 3, seed=2)
    r = client.post("/api/tables", json={"game": "wuxing", "players": ["Ana", "Ben"]})
    assert r.status_code == 201 and r.json["runs"] == [newest.run_id]


def test_each_token_sees_its_own_view(app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    table = services(app).tables.get(t["table"])
    rules, state = table.rules, table.match.state
    public = snapshot(client, t)
    assert public["view"] == json.loads(json.dumps(rules.view(state, None)))
    assert public["actions"] == [] and "log" not in public
    for s in t["seats"]:
        mine = snapshot(client, t, s["token"])
        assert mine["view"] == json.loads(json.dumps(rules.view(state, s["seat"])))
        assert mine["viewer"] == {"role": "seat", "seat": s["seat"], "name": s["name"]}
        assert "log" not in mine and "places" not in mine["view"]
    ref = snapshot(client, t, t["host_token"])
    assert ref["view"] == json.loads(json.dumps(rules.referee_view(state)))
    assert "places" in ref["view"] and isinstance(ref["log"], list)


def test_a_wuxing_challenge_played_by_scans(client: FlaskClient, data_dir: Path) -> None:
    """WX-4 Universe card, WX-7 two reveals: the view shows pot, Void, decks and a ruling."""
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    view = snapshot(client, t)["view"]
    assert view["challenge"] == [1, 2]
    before = snapshot(client, t)["version"]
    r = scan(client, t, payload_of(t, "element", "universe"), "universe", scan_id="cam-1")
    assert r.status_code == 200, r.json
    assert r.json["version"] == before + 1 and r.json["zone"] == "universe"
    r1 = scan(client, t, payload_of(t, "element", "player", 0), "seat:1")
    r2 = scan(client, t, payload_of(t, "element", "player", 9), "seat:2")
    assert r1.status_code == 200 and r2.status_code == 200, (r1.json, r2.json)
    view = snapshot(client, t)["view"]
    for key in ("pot", "void", "decks", "universe_left", "challenge", "out", "winner"):
        assert key in view
    assert view["challenge"] == [2, 3]  # WX-3: Ben challenges Chen next
    assert view["universe_left"] == 23
    assert isinstance(view["ruling"], str) and len(view["ruling"]) > 10
    log = log_of(client, t)
    assert [r["who"] for r in log[-3:]] == ["camera", "camera", "camera"]
    assert log[-1]["event"]["type"] == "scan"


def test_every_response_carries_the_version(client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    r = scan(client, t, payload_of(t, "element", "universe"), "universe")
    assert r.json["version"] == snapshot(client, t)["version"]
    # The same card seen again on the pot is "already there" (C-9), also with the version;
    # shown in a seat's place it is refused (C-1), with the version.
    again = scan(client, t, payload_of(t, "element", "universe"), "universe")
    assert again.status_code == 200 and again.json["already_there"] is True
    assert again.json["version"] == r.json["version"]
    bad = scan(client, t, payload_of(t, "element", "universe"), "seat:1")
    assert bad.status_code == 409 and bad.json["version"] == r.json["version"]


BAD_REQUESTS: list[tuple[str, str, Any, str, int, str]] = [
    # (name, path suffix, body, token kind, status, code)
    ("malformed JSON", "/actions", b"{not json", "host", 400, "malformed_json"),
    ("JSON that is not an object", "/actions", b"[1, 2]", "host", 400, "malformed_json"),
    ("no type", "/actions", {"winner": 1}, "host", 400, "malformed_event"),
    ("unknown event type", "/actions", {"type": "teleport"}, "host", 400, "malformed_event"),
    ("wrong field type", "/actions", {"type": "rps", "winner": "Ana"}, "host", 400,
     "malformed_event"),
    ("no such seat", "/actions", {"type": "rps", "winner": 9}, "host", 400, None),
    ("missing token", "/actions", {"type": "rps", "winner": 1}, "none", 401, "missing_token"),
    ("wrong token", "/actions", {"type": "rps", "winner": 1}, "wrong", 403, "bad_token"),
    ("camera acting", "/actions", {"type": "rps", "winner": 1}, "camera", 403, "not_allowed"),
    ("seat acting for another seat", "/actions", {"type": "rps", "winner": 1, "seat": 2},
     "seat1", 403, "wrong_seat"),
    ("seat overriding", "/actions", {"type": "rps", "winner": 1, "override": True}, "seat1",
     403, "not_allowed"),
    ("stale version", "/actions", {"type": "rps", "winner": 1, "version": 99}, "host", 409,
     "stale_version"),
    ("version of the wrong type", "/actions", {"type": "rps", "winner": 1, "version": "0"},
     "host", 400, "malformed_event"),
    ("seat undoing", "/undo", {}, "seat1", 403, "not_allowed"),
    ("nothing to undo", "/undo", {}, "host", 409, "nothing_to_undo"),
    ("scan without payload", "/scans", {"zone": "universe"}, "camera", 400,
     "malformed_payload"),
    ("scan of a foreign QR code", "/scans", {"payload": "https://example.org", "zone": "seat:1"},
     "camera", 400, "foreign_payload"),
    ("scan with a bad check character", "/scans",
     {"payload": "T1:W:WO:AAAA:000:0", "zone": "seat:1"}, "camera", 400, "malformed_payload"),
    ("scan without zone", "/scans", {"payload": "T1:W:WO:AAAA:000:0"}, "camera", 400,
     "malformed_event"),
    ("seat scanning into another seat's zone", "/scans",
     {"payload": "T1:W:WO:AAAA:000:0", "zone": "seat:2"}, "seat1", 403, "wrong_seat"),
    ("public scanning", "/scans", {"payload": "x", "zone": "seat:1"}, "none", 401,
     "missing_token"),
    ("timer out of range", "/timer", {"seconds": 2}, "host", 400, "malformed_event"),
    ("timer by a seat", "/timer", {"seconds": 30}, "seat1", 403, "not_allowed"),
]


@pytest.mark.parametrize(("name", "path", "body", "who", "status", "code"), BAD_REQUESTS,
                         ids=[b[0] for b in BAD_REQUESTS])
def test_bad_input_is_a_clear_4xx_and_changes_nothing(
        client: FlaskClient, data_dir: Path, name: str, path: str, body: Any, who: str,
        status: int, code: str | None) -> None:
    t = wuxing_table(client, data_dir)
    tokens = {"host": t["host_token"], "camera": t["camera_token"],
              "seat1": t["seats"][0]["token"], "wrong": "not-a-token-of-this-table"}
    before = snapshot(client, t, t["host_token"])
    headers = bearer(tokens[who]) if who in tokens else {}
    if isinstance(body, bytes):
        r = client.post(f"/api/tables/{t['table']}{path}", data=body,
                        headers={**headers, "Content-Type": "application/json"})
    else:
        r = client.post(f"/api/tables/{t['table']}{path}", json=body, headers=headers)
    assert r.status_code == status, r.json
    assert r.is_json and isinstance(r.json["error"], str) and r.json["error"]
    if code:
        assert r.json["code"] == code
    after = snapshot(client, t, t["host_token"])
    assert after["version"] == before["version"]
    assert after["log"] == before["log"]
    assert after["view"] == before["view"]


def test_unknown_table_wrong_route_and_oversized_body(client: FlaskClient,
                                                      data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    r = client.get("/api/tables/nosuch")
    assert r.status_code == 404 and r.json["code"] == "unknown_table"
    r = client.post("/api/tables/nosuch/actions", json={"type": "rps"},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 404 and r.json["code"] == "unknown_table"
    r = client.get(f"/api/tables/{t['table']}/undo")
    assert r.status_code == 405 and r.json["code"] == "method_not_allowed"
    r = client.post(f"/api/tables/{t['table']}/actions", data=b"x" * 70_000,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 413 and r.json["code"] == "too_large"
    assert snapshot(client, t)["version"] == 0
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.is_json


@pytest.mark.parametrize("body", [
    {"game": "chess", "players": ["A", "B"]},
    {"game": "wuxing", "players": ["Ana"]},
    {"game": "wuxing", "players": ["Ana", "ana"]},
    {"game": "wuxing", "players": "Ana, Ben"},
    {"game": "wuxing", "players": ["Ana", "Ben"], "options": {"end": "never"}},
    {"game": "wuxing", "players": ["Ana", "Ben"], "options": {"colour": 1}},
    {"game": "wuxing", "players": ["Ana", "Ben"], "runs": ["ZZZZ"]},
    {"game": "wuxing", "players": ["Ana", "Ben"], "runs": "ZZZZ"},
    {"game": "wuxing", "players": ["Ana", "Ben"], "timer": 1},
    {"players": ["Ana", "Ben"]},
    {"game": 7, "players": ["Ana", "Ben"]},
])
def test_a_table_that_cannot_be_made_is_refused(client: FlaskClient, data_dir: Path,
                                                body: dict[str, Any]) -> None:
    register_run(data_dir, "wuxing", 3)
    r = client.post("/api/tables", json=body)
    assert 400 <= r.status_code < 500 and r.json["code"] in {"bad_setup", "unknown_game"}
    assert client.get("/api/tables").json["tables"] == []


def test_a_payload_from_an_unregistered_print_run_is_refused(
        client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    stranger = demo_run("wuxing", 3, random.Random(99))  # printed, never registered here
    uni = next(c for c in stranger.cards if c.deck == "universe")
    v = snapshot(client, t)["version"]
    r = scan(client, t, uni.payload, "universe")
    assert r.status_code == 422 and r.json["code"] == "unknown_card"
    assert stranger.run_id in r.json["error"]
    assert snapshot(client, t)["version"] == v


def test_a_seat_out_of_turn_is_refused(client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    scan(client, t, payload_of(t, "element", "universe"), "universe")
    chen = t["seats"][2]
    v = snapshot(client, t)["version"]
    card = next(c for c in t["run"].cards if c.deck == "player")
    r = client.post(f"/api/tables/{t['table']}/actions",
                    json={"type": "scan", "card": card.serial, "zone": "seat:3"},
                    headers=bearer(chen["token"]))
    assert r.status_code == 409 and r.json["code"] in {"out_of_turn", "illegal_play"}
    assert snapshot(client, t)["version"] == v


def test_a_seat_acts_as_itself_and_the_host_for_anyone(client: FlaskClient,
                                                       data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    scan(client, t, payload_of(t, "element", "universe"), "universe")
    ana = t["seats"][0]
    card = [c for c in t["run"].cards if c.deck == "player" and c.face.kind == "element"]
    # A seat may enter its own card by hand, with the serial or the code's text.
    r = client.post(f"/api/tables/{t['table']}/actions",
                    json={"type": "scan", "card": card[0].payload, "zone": "seat:1"},
                    headers=bearer(ana["token"]))
    assert r.status_code == 200, r.json
    assert log_of(client, t)[-1]["event"] == {"type": "scan", "card": card[0].serial,
                                              "zone": "seat:1", "seat": 1}
    r = client.post(f"/api/tables/{t['table']}/actions",
                    json={"type": "scan", "card": card[9].serial, "zone": "seat:2"},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200, r.json
    assert log_of(client, t)[-1]["who"] == "host"


def test_undo_voids_the_last_play_keeps_it_in_the_log_and_says_what(
        client: FlaskClient, data_dir: Path) -> None:
    """C-3: undo re-derives the state by replay; the voided event stays, marked."""
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    before = snapshot(client, t, t["host_token"])
    r = scan(client, t, payload_of(t, "element", "universe"), "universe")
    scanned = r.json["version"]
    r = client.post(f"/api/tables/{t['table']}/undo", json={"version": scanned},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200, r.json
    assert r.json["version"] == scanned + 1  # the version never goes back
    assert r.json["undone"] and r.json["voided"] == [scanned]
    after = snapshot(client, t, t["host_token"])
    assert after["view"] == before["view"]
    log = after["log"]
    assert log[scanned - 1]["voided"] and log[scanned - 1]["voided_by"] == scanned + 1
    assert log[-1]["kind"] == "undo" and log[-1]["ruling"].startswith("Undone: ")
    assert snapshot(client, t)["undone"]  # the big screen says an undo happened
    # An action prepared before the undo is stale now.
    r = scan(client, t, payload_of(t, "element", "universe"), "universe", version=scanned)
    assert r.status_code == 409 and r.json["code"] == "stale_version"
    r = scan(client, t, payload_of(t, "element", "universe"), "universe",
             version=scanned + 1)
    assert r.status_code == 200


def test_a_repeated_scan_id_is_answered_without_playing_again(
        client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    p = payload_of(t, "element", "universe")
    first = scan(client, t, p, "universe", scan_id="cam-42")
    again = scan(client, t, p, "universe", scan_id="cam-42")
    assert first.status_code == again.status_code == 200
    assert again.json["repeat"] is True and again.json["card"] == first.json["card"]
    assert snapshot(client, t)["version"] == first.json["version"]
    assert sum(1 for r in log_of(client, t) if r["event"].get("zone") == "universe") == 1


def test_turn_timer_is_shown_to_everyone(client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    r = client.post(f"/api/tables/{t['table']}/timer", json={"seconds": 45},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200 and r.json["timer"]["seconds"] == 45
    for tok in (None, t["seats"][1]["token"], t["host_token"]):
        timer = snapshot(client, t, tok)["timer"]
        assert timer["seconds"] == 45 and timer["deadline"] == timer["started"] + 45
    client.post(f"/api/tables/{t['table']}/timer", json={"seconds": 0},
                headers=bearer(t["host_token"]))
    assert snapshot(client, t)["timer"] is None


def test_hidden_cards_never_leak_to_another_seat_not_even_by_undo(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """GC-2: a card set face down is its owner's secret, before and after an undo."""
    t = make_table(client, data_dir, "gemcomplete", 2)
    table = services(app).tables.get(t["table"])
    rng = random.Random(3)
    setter = None
    for _ in range(40):
        e = table.rules.random_play(table.match.state, rng)
        assert e is not None
        if e["type"] == "set" and "card" in e:
            setter = dict(e)
            break
        tok = t["seats"][e["seat"] - 1]["token"] if "seat" in e else t["host_token"]
        r = client.post(f"/api/tables/{t['table']}/actions", json=dict(e), headers=bearer(tok))
        assert r.status_code == 200, r.json
    assert setter is not None
    owner, other = setter["seat"], 3 - setter["seat"]
    secret = setter["card"]
    face = table.book.card(secret).face
    r = client.post(f"/api/tables/{t['table']}/actions", json=setter,
                    headers=bearer(t["seats"][owner - 1]["token"]))
    assert r.status_code == 200, r.json
    assert secret in json.dumps(snapshot(client, t, t["seats"][owner - 1]["token"]))
    assert secret in json.dumps(snapshot(client, t, t["host_token"]))
    for tok in (t["seats"][other - 1]["token"], None):
        text = json.dumps(snapshot(client, t, tok))
        assert secret not in text
    r = client.post(f"/api/tables/{t['table']}/undo", json={},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200
    for tok in (t["seats"][other - 1]["token"], None):
        snap = snapshot(client, t, tok)
        assert snap["undone"]
        text = json.dumps(snap)
        assert secret not in text and face.id not in text


def test_nothing_answers_500_to_odd_bodies(client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    odd: list[Any] = [
        {"type": None}, {"type": ""}, {"type": ["scan"]}, {"type": "scan"},
        {"type": "scan", "card": 12, "zone": "seat:1"},
        {"type": "scan", "card": "ZZZZ-000", "zone": "seat:1"},
        {"type": "scan", "card": "K2F9-01A", "zone": {"a": 1}},
        {"type": "rps", "winner": None}, {"type": "rps", "winner": 1.5},
        {"type": "rps", "winner": True}, {"type": "rps", "winner": [1]},
        {"type": "x" * 5000}, {"type": "scan", "card": "\u0000", "zone": "\u2603"},
    ]
    for body in odd:
        for who in (t["host_token"], t["seats"][0]["token"]):
            r = client.post(f"/api/tables/{t['table']}/actions", json=body, headers=bearer(who))
            assert 400 <= r.status_code < 500, (body, r.status_code, r.data[:200])
            assert r.json["code"] and r.json["error"]
    for body in odd:
        r = client.post(f"/api/tables/{t['table']}/scans", json=body,
                        headers=bearer(t["camera_token"]))
        assert 400 <= r.status_code < 500, (body, r.status_code)
    assert snapshot(client, t)["version"] == 0


def test_every_page_gets_the_recent_rulings_in_public_words(
        client: FlaskClient, data_dir: Path) -> None:
    t = wuxing_table(client, data_dir)
    start_challenge(client, t)
    scan(client, t, payload_of(t, "element", "universe"), "universe")
    client.post(f"/api/tables/{t['table']}/undo", headers=bearer(t["host_token"]))
    for tok in (None, t["seats"][2]["token"]):
        history = snapshot(client, t, tok)["history"]
        assert history[0]["text"].startswith("Undone: ")
        assert history[1]["voided"] and "Universe card" in history[1]["text"]
        assert "rock-paper-scissors" in history[2]["text"]
        seqs = [h["seq"] for h in history]
        assert seqs == sorted(seqs, reverse=True) and len(set(seqs)) == len(seqs)
