"""Piles (C-9 rev. 3, issue 26 §2): a card the companion knows lies in a public pile, seen
again where that pile lies, is "already there": a 200, nothing logged, no refusal shown to
anyone, no override offered or accepted. A hidden card answers as it always did (C-7)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import NAMES, bearer, make_table, register_run

from web import services
from web.table import HOST, Table

# (game, the place the engine names, the zone where the camera sees that pile): written out
# here, not read from companion.zones, so the test says what the mats say.
PILES = [
    ("wuxing", "pot", "universe"),  # the pot pile lies in the Universe zone (WX-4)
    ("wuxing", "void", "void"),
    ("wuxing", "table:", "seat:"),  # a seat's revealed card, in front of it (WX-7)
    ("godnum", "pot", "pot"),
    ("godnum", "out", "void"),
    ("shrine", "lot", "lot"),
    ("gemcomplete", "discard:", "discard:"),
    # Mountains & Rivers has no hands: the character and weapons in front of a player are
    # public, and one covered a moment by the next card drawn is seen there again.
    ("mountains", "seat:", "seat:"),
]


def scan(client: FlaskClient, t: dict[str, Any], token: str, payload: str, zone: str,
         **extra: Any) -> Any:
    return client.post(f"/api/tables/{t['table']}/scans",
                       json={"payload": payload, "zone": zone, **extra}, headers=bearer(token))


def until(app: Flask, t: dict[str, Any], place: str, seed: int = 3) -> tuple[Table, str, str]:
    """Random plays on ``t`` until some card lies in ``place`` (a prefix for ``table:``,
    ``discard:``); that table, the card and its exact place."""
    table = services(app).tables.get(t["table"])
    rng = random.Random(seed)
    for _ in range(400):
        places = table.rules.places(table.match.state)
        found = sorted(s for s, p in places.items()
                       if (p.startswith(place) if place.endswith(":") else p == place))
        if found:
            return table, found[0], places[found[0]]
        event = table.rules.random_play(table.match.state, rng)
        assert event is not None, f"the game ended before a card lay in {place}"
        table.play(services(app).store, event, HOST)
    pytest.fail(f"no card lay in {place} after 400 plays")


def everything(client: FlaskClient, t: dict[str, Any]) -> list[Any]:
    """What every page reads of the table (less the clock), and the whole log."""
    out: list[Any] = []
    for tok in (None, t["host_token"], *(s["token"] for s in t["seats"])):
        snap = client.get(f"/api/tables/{t['table']}", headers=bearer(tok) if tok else {}).json
        snap.pop("now")
        out.append(snap)
    out.append(client.get(f"/api/tables/{t['table']}/log", headers=bearer(t["host_token"])).json)
    return out


@pytest.mark.parametrize(("game", "place", "zone"), PILES)
def test_a_card_seen_again_where_its_pile_lies_is_already_there(
        app: Flask, client: FlaskClient, data_dir: Path, game: str, place: str,
        zone: str) -> None:
    t = make_table(client, data_dir, game)
    table, serial, where = until(app, t, place)
    if zone.endswith(":"):
        zone += where.split(":")[1]  # the seat's own zone
    card = table.book.card(serial)
    # A refused scan first: the big screen's refusal (and ruling) must stay as they are.
    other = next(s for s in sorted(table.book.cards) if s != serial)
    scan(client, t, t["camera_token"], table.book.card(other).payload, "nowhere")
    before = everything(client, t)
    version = table.version
    owner = int(zone.split(":")[1]) if ":" in zone else 1  # a seat shows in its own zones
    for token in (t["camera_token"], t["seats"][owner - 1]["token"], t["host_token"]):
        r = scan(client, t, token, card.payload, zone)
        assert r.status_code == 200, r.json
        assert r.json == {"card": serial, "face": card.face.id, "name": card.face.name,
                          "zone": zone, "version": version, "already_there": True,
                          "ruling": "C-9"}
    # Nothing logged, nothing changed: no page, no stream, no log reads anything new.
    assert table.version == version
    assert everything(client, t) == before
    # A scan id still answers its repeat with the first answer (and still logs nothing).
    first = scan(client, t, t["camera_token"], card.payload, zone, scan_id="pile-1")
    again = scan(client, t, t["camera_token"], card.payload, zone, scan_id="pile-1")
    assert again.status_code == 200
    assert again.json == {**first.json, "repeat": True}
    assert table.version == version


def test_a_wuxing_pot_card_pushed_in_the_universe_zone_never_logs_nor_refuses(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """Issue 26: every card pushed onto the pot was scanned again and refused. Now each
    card of the pot, seen again in the Universe zone at any moment of a game, is "already
    there", and the game goes on as it would have."""
    t = make_table(client, data_dir, "wuxing")
    table = services(app).tables.get(t["table"])
    rng = random.Random(5)
    checked = 0
    for _ in range(120):
        if table.match.state.finished:
            break
        pot = sorted(s for s, p in table.rules.places(table.match.state).items() if p == "pot")
        version, refusal = table.version, table.refusal
        for serial in pot:
            r = scan(client, t, t["camera_token"], table.book.card(serial).payload, "universe")
            assert r.status_code == 200 and r.json["already_there"] is True, r.json
            checked += 1
        assert (table.version, table.refusal) == (version, refusal)
        event = table.rules.random_play(table.match.state, rng)
        if event is None:
            break
        table.play(services(app).store, event, HOST)
    assert checked >= 10


@pytest.mark.parametrize(("game", "place", "zone"), [
    ("wuxing", "pot", "seat:1"), ("wuxing", "void", "seat:1"), ("godnum", "pot", "seat:1"),
    ("godnum", "out", "seat:1"), ("gemcomplete", "discard:", "seat:1")])
def test_no_override_is_offered_nor_accepted_for_a_card_in_the_pot_or_a_discard_pile(
        app: Flask, client: FlaskClient, data_dir: Path, game: str, place: str,
        zone: str) -> None:
    t = make_table(client, data_dir, game)
    table, serial, _ = until(app, t, place)
    card = table.book.card(serial)
    r = scan(client, t, t["camera_token"], card.payload, zone)
    assert r.status_code == 409, r.json  # refused by the rules (C-1): a pile card is no play
    refused = client.get(f"/api/tables/{t['table']}",
                         headers=bearer(t["host_token"])).json["refused"]
    assert refused["scan"]["card"] == serial
    assert refused["overridable"] is False  # the referee page offers no override
    version, log = table.version, len(table.records)
    for path, body in (("/scans", {"payload": card.payload, "zone": zone, "override": True}),
                       ("/actions", {"type": "scan", "card": serial, "zone": zone,
                                     "override": True}),
                       ("/actions", {"type": "scan", "card": card.payload, "zone": zone,
                                     "override": True})):
        r = client.post(f"/api/tables/{t['table']}{path}", json=body,
                        headers=bearer(t["host_token"]))
        assert r.status_code == 409, r.json
        assert r.json["code"] == "in_a_pile" and r.json["rule"] == "C-9", r.json
        assert card.face.name in r.json["error"] and "override" in r.json["error"]
    assert (table.version, len(table.records)) == (version, log)


def test_a_card_out_of_every_pile_may_still_be_overridden(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """C-1 stands for the rest: a card of another seat's deck shown in seat 1's place is
    refused, and the referee may still override it (logged)."""
    t = make_table(client, data_dir, "wuxing")
    table, serial, _ = until(app, t, "deck:2")
    r = scan(client, t, t["camera_token"], table.book.card(serial).payload, "seat:1")
    assert r.status_code == 409, r.json
    refused = client.get(f"/api/tables/{t['table']}",
                         headers=bearer(t["host_token"])).json["refused"]
    assert refused["overridable"] is True
    for seat in t["seats"]:  # a seat's refusal carries no such detail (C-7)
        mine = client.get(f"/api/tables/{t['table']}", headers=bearer(seat["token"])).json
        assert mine["refused"] is None or "overridable" not in mine["refused"]


def _gem_world(app: Flask, data_dir: Path, run_id: str, locus: str) -> tuple[Table, Any]:
    """A Gem Complete table where Ana (seat 1) set ``locus`` face down in her Locus."""
    svc = services(app)
    for _ in range(60):  # the companion draws who starts (C-4): Ana in every world
        table = svc.tables.create("gemcomplete", NAMES[:2], {}, [run_id])
        if table.match.state.turn == 1:
            break
    for event in ({"type": "next", "seat": 1}, {"type": "next", "seat": 1},
                  {"type": "set", "seat": 1, "card": locus}):
        table.play(svc.store, event, HOST)
    while table.match.state.turn != 2 or table.match.state.step != "main":  # Ben's turn
        table.play(svc.store, {"type": "next", "seat": table.match.state.turn}, HOST)
    return table, svc


def test_a_hidden_card_answers_as_any_other_unavailable_card(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """C-7: a card set face down in Ana's Locus, or still in her hand, shown in any zone by
    the camera or by Ben, answers exactly the same: nothing tells where it lies."""
    run = register_run(data_dir, "gemcomplete", 2)
    mine = sorted((c for c in run.cards if c.deck == sorted({c.deck for c in run.cards})[0]),
                  key=lambda c: c.serial)
    hidden, other = mine[0], next(c for c in mine if c.face.id != mine[0].face.id)
    worlds = []
    for locus in (hidden.serial, other.serial):
        table, _ = _gem_world(app, data_dir, run.run_id, locus)
        places = table.rules.places(table.match.state)
        assert places[hidden.serial] == ("locus:1" if locus == hidden.serial else "unknown:1")
        tokens = {"camera": table.config["camera_token"],
                  "ben": table.config["seat_tokens"][1]}
        answers = []
        for who, zone in (("camera", "discard:1"), ("camera", "locus:1"),
                          ("camera", "seat:1"), ("camera", "seat:2"), ("camera", "discard:2"),
                          ("ben", "discard:2"), ("ben", "seat:2"), ("ben", "locus:2")):
            r = client.post(f"/api/tables/{table.id}/scans",
                            json={"payload": hidden.payload, "zone": zone},
                            headers=bearer(tokens[who]))
            assert r.status_code != 200 or not r.json.get("already_there"), r.json
            answers.append((who, zone, r.status_code, json.dumps(r.json, sort_keys=True)))
        worlds.append(answers)
    assert worlds[0] == worlds[1]
