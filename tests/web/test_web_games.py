"""Every game through the API: random legal plays by seats, camera and host; views per token
match the engine's; undo; a restart brings every table back at the same version."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import GAMES, bearer, config, make_table

from companion.engine import Match
from web import create_app, services


def post_event(client: FlaskClient, t: dict[str, Any], table: Any,
               event: dict[str, Any]) -> Any:
    """Send an engine event as the table would: scans by the camera, plays by their seat."""
    tid = t["table"]
    if event.get("type") == "scan" and isinstance(event.get("zone"), str) \
            and not event.get("override"):
        card = table.book.card(event["card"])
        return client.post(f"/api/tables/{tid}/scans",
                           json={"payload": card.payload, "zone": event["zone"]},
                           headers=bearer(t["camera_token"]))
    seat = event.get("seat")
    token = t["seats"][seat - 1]["token"] if isinstance(seat, int) else t["host_token"]
    return client.post(f"/api/tables/{tid}/actions", json=event, headers=bearer(token))


def views(client: FlaskClient, t: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, tok in [("public", None), ("host", t["host_token"]),
                     *((f"seat:{s['seat']}", s["token"]) for s in t["seats"])]:
        snap = client.get(f"/api/tables/{t['table']}",
                          headers=bearer(tok) if tok else {}).json
        snap.pop("now")
        out[key] = snap
    return out


def play(client: FlaskClient, t: dict[str, Any], table: Any, rng: random.Random,
         steps: int) -> int:
    played = 0
    for _ in range(steps):
        if table.match.state.finished:
            break
        event = table.rules.random_play(table.match.state, rng)
        if event is None:
            break
        r = post_event(client, t, table, dict(event))
        assert r.status_code == 200, (event, r.json)
        assert r.json["version"] == table.version
        played += 1
    return played


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_games_through_the_api(app: Flask, client: FlaskClient, data_dir: Path,
                                            game: str) -> None:
    t = make_table(client, data_dir, game)
    table = services(app).tables.get(t["table"])
    played = play(client, t, table, random.Random(11), 25)
    assert played >= 5
    # The table is the replay of its live log (C-3) and each token sees the engine's view.
    live = [r.body for r in table.records if r.kind == "event" and not r.voided]
    replayed = Match(table.rules, table.match.setup, live).state
    snaps = views(client, t)
    rules = table.rules
    assert snaps["public"]["view"] == json.loads(json.dumps(rules.view(replayed, None)))
    assert snaps["host"]["view"] == json.loads(json.dumps(rules.referee_view(replayed)))
    for s in t["seats"]:
        mine = snaps[f"seat:{s['seat']}"]
        assert mine["view"] == json.loads(json.dumps(rules.view(replayed, s["seat"])))
        assert mine["actions"] == json.loads(json.dumps(rules.actions(replayed, s["seat"])))
        assert "log" not in mine
    assert snaps["host"]["version"] == snaps["host"]["log_total"]
    full = client.get(f"/api/tables/{t['table']}/log", headers=bearer(t["host_token"])).json
    assert len(full["log"]) == full["version"] == table.version
    assert [r["seq"] for r in full["log"]] == list(range(1, table.version + 1))
    assert client.get(f"/api/tables/{t['table']}/log",
                      headers=bearer(t["seats"][0]["token"])).status_code == 403


@pytest.mark.parametrize("game", GAMES)
def test_undo_then_restart_brings_the_table_back_exactly(data_dir: Path, game: str) -> None:
    app = create_app(config(data_dir))
    client = app.test_client()
    t = make_table(client, data_dir, game)
    table = services(app).tables.get(t["table"])
    play(client, t, table, random.Random(5), 12)
    before_undo = views(client, t)
    # One more play, then undo it: the view is as before, the version has moved on by 2.
    event = table.rules.random_play(table.match.state, random.Random(6))
    if event is not None:
        assert post_event(client, t, table, dict(event)).status_code == 200
        r = client.post(f"/api/tables/{t['table']}/undo", json={},
                        headers=bearer(t["host_token"]))
        assert r.status_code == 200, r.json
        after_undo = views(client, t)
        assert after_undo["host"]["version"] > before_undo["host"]["version"]
        for key in before_undo:
            assert after_undo[key]["view"] == before_undo[key]["view"], key
    snaps = views(client, t)
    services(app).close()

    again = create_app(config(data_dir))
    try:
        assert views(again.test_client(), t) == snaps
    finally:
        services(again).close()


PRIVATE = {  # what only the seat itself sees, by game (docs/rules/<game>.md view keys)
    "wuxing": "your_known_cards",
    "godnum": "legal",  # GN-6: the legal cards of its own legion
    "shrine": "max_bid",  # SK-7: its own Oinks (hidden from others by default)
    "gemcomplete": "you",
}


@pytest.mark.parametrize("game", GAMES)
def test_each_seat_sees_its_private_figures_and_nobody_elses(
        app: Flask, client: FlaskClient, data_dir: Path, game: str) -> None:
    t = make_table(client, data_dir, game)
    table = services(app).tables.get(t["table"])
    play(client, t, table, random.Random(2), 6)
    snaps = views(client, t)
    key = PRIVATE.get(game)
    if key:
        for s in t["seats"]:
            assert key in snaps[f"seat:{s['seat']}"]["view"]
        assert key not in snaps["public"]["view"]
    if game == "shrine":
        for s in t["seats"]:
            assert set(snaps[f"seat:{s['seat']}"]["view"]["oinks"]) == {str(s["seat"])}
        assert snaps["public"]["view"]["oinks"] == {}
    # Actions are only ever this seat's own; the host gets every seat's.
    for s in t["seats"]:
        assert all(a.get("seat") in (None, s["seat"])
                   for a in snaps[f"seat:{s['seat']}"]["actions"])
    assert snaps["public"]["actions"] == []
    assert "places" in snaps["host"]["view"]
    for k, snap in snaps.items():
        if k != "host":
            assert "places" not in snap["view"] and "log" not in snap


def test_mountains_seat_gets_its_reachable_tiles_and_skill_buttons(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "mountains")
    table = services(app).tables.get(t["table"])
    rng = random.Random(2)
    for _ in range(60):
        v = table.rules.view(table.match.state, None)
        if v.get("reachable"):
            break
        e = table.rules.random_play(table.match.state, rng)
        assert e is not None
        assert post_event(client, t, table, dict(e)).status_code == 200
    v = table.rules.view(table.match.state, None)
    assert v.get("reachable"), "no movement came up in 60 plays"
    mover = v["turn"]
    snap = views(client, t)[f"seat:{mover}"]
    kinds = {a["type"] for a in snap["actions"]}
    assert "move" in kinds and "skill" in kinds
    assert snap["view"]["reachable"]
    other = views(client, t)[f"seat:{3 - mover}"]
    assert not any(a["type"] == "move" for a in other["actions"])
