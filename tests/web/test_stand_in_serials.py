"""C-7 rev. 3 (issue 27 §1): a card a player taps instead of scanning is recorded under one
printed copy's serial, a stand-in. Which copy the companion picked tells where the other
copies are recorded: in Gem Complete the serial of a tapped Ruby on Ana's discard pile
told Ben which Gem lay face down in her Locus. A stand-in's serial is for its owner and
the referee only, in every channel: the snapshot, the big screen, the stream, the record
and its CSV, the replay. Everyone else reads the card by its face."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from webtools import NAMES, bearer, register_run

from companion.errors import IllegalPlay
from web import services
from web.api import refusal
from web.records import record_csv, record_of, replay_step
from web.table import HOST, PUBLIC, Table, Viewer

ANA, BEN = Viewer("seat", 1), Viewer("seat", 2)


def _table(app: Flask, data_dir: Path, game: str, players: int,
           options: dict[str, Any] | None = None, first: int | None = None) -> Table:
    run = register_run(data_dir, game, players)
    svc = services(app)
    for _ in range(60):  # the companion draws who starts (C-4): Ana in every world
        table = svc.tables.create(game, NAMES[:players], options or {}, [run.run_id])
        if first is None or table.match.state.turn == first:
            return table
    raise AssertionError("Ana never started")


def _post(client: FlaskClient, table: Table, token: str, event: dict[str, Any]) -> Any:
    r = client.post(f"/api/tables/{table.id}/actions", json=event, headers=bearer(token))
    assert r.status_code == 200, r.json
    return r.json


def _get(client: FlaskClient, table: Table, token: str | None, what: str = "") -> str:
    r = client.get(f"/api/tables/{table.id}{what}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.data[:300]
    return r.get_data(as_text=True)


def _first_streamed(client: FlaskClient, table: Table, token: str | None) -> str:
    """The raw data of the first snapshot a page's event stream sends."""
    path = f"/api/tables/{table.id}/events" + (f"?token={token}" if token else "")
    resp = client.get(path, buffered=False)
    assert resp.status_code == 200
    buf = ""
    try:
        for chunk in resp.response:
            buf += chunk.decode() if isinstance(chunk, bytes) else chunk
            for message in buf.split("\n\n")[:-1]:
                for line in message.split("\n"):
                    if line.startswith("data: "):
                        return line[6:]
    finally:
        resp.close()
    raise AssertionError("the stream sent no snapshot")


def _gem_table(app: Flask, client: FlaskClient, data_dir: Path) -> tuple[Table, list[str]]:
    """Ana taps Ruby into her private Locus, then discards a Ruby from her hand by tap:
    both copies are stand-ins; the discard pile's is not the lowest serial of her Rubies,
    which (before C-7 rev. 3) told Ben the Locus card is the other Ruby."""
    table = _table(app, data_dir, "gemcomplete", 2, {"decks": "a, b"}, first=1)
    ana = table.config["seat_tokens"][0]
    _post(client, table, ana, {"type": "next"})
    _post(client, table, ana, {"type": "next"})
    _post(client, table, ana, {"type": "set", "card": "a-ruby"})
    _post(client, table, ana, {"type": "discard", "target": 1, "count": 1, "from": "hand",
                               "cards": ["a-ruby"]})
    state = table.match.state
    rubies = sorted(s for s, f in state.cards.items() if f.id == "a-ruby")
    stand_ins = sorted(table.rules.stand_ins(state))
    assert stand_ins == rubies and len(rubies) == 2
    assert state.side(1).discard[-1] in rubies and state.side(1).locus[0].serial in rubies
    return table, rubies


def _has_none(text: str, serials: list[str]) -> bool:
    return not any(s in text for s in serials)


def _has_all(text: str, serials: list[str]) -> bool:
    return all(s in text for s in serials)


def test_a_tapped_gem_is_shown_to_the_opponent_and_the_big_screen_by_its_face_only(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    table, rubies = _gem_table(app, client, data_dir)
    ana, ben = table.config["seat_tokens"]
    host, display = table.config["host_token"], table.display_token()
    for token in (ben, None, display, table.config["camera_token"]):
        text = _get(client, table, token)
        assert _has_none(text, rubies), token
        snap = json.loads(text)
        pile = snap["view"]["seats"][0]["discard"]
        assert pile == [{"card": None, "face": "a-ruby", "name": "Ruby"}]  # still a Ruby
        moved = snap["last_play"]["movements"]
        assert [(m["card"], m["face"], m["to"]) for m in moved] == [(None, "a-ruby",
                                                                     "discard:1")]
        assert _has_none(_first_streamed(client, table, token), rubies), token
    # The owner and the referee read the serials (Ana's actions may name her own cards).
    assert _has_all(_get(client, table, ana), [table.match.state.side(1).discard[-1]])
    assert _has_all(_get(client, table, ana), rubies)  # discard pile and her own Locus
    assert _has_all(_get(client, table, host), rubies)
    assert _has_all(_first_streamed(client, table, host), rubies)


def test_the_record_its_csv_and_the_replay_never_name_a_stand_in_to_others(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    table, rubies = _gem_table(app, client, data_dir)
    ana, ben = table.config["seat_tokens"]
    # Ana then decks herself out (GC-5): the game is over and players may replay it.
    _post(client, table, ana, {"type": "crush", "target": 1, "count": 34})
    assert table.match.state.finished
    for token in (ben, None, table.display_token()):
        assert _has_none(_get(client, table, token, "/record"), rubies)
        assert _has_none(_get(client, table, token, "/record?format=csv"), rubies)
        for step in range(table.version + 1):
            assert _has_none(_get(client, table, token, f"/replay?step={step}"), rubies)
    for viewer in (BEN, PUBLIC):
        assert _has_none(record_csv(record_of(table, viewer)), rubies)
    # The referee's record names the events as sent (the taps: faces); the replay for Ana
    # and the referee shows the serials where her Rubies lie.
    sent = json.loads(_get(client, table, table.config["host_token"], "/record"))["events"]
    assert [e["event"].get("card") for e in sent if e["event"].get("type") == "set"] == \
        ["a-ruby"]
    for viewer in (ANA, HOST):
        assert _has_all(json.dumps(replay_step(table, viewer, 5)), rubies)
        assert _has_none(json.dumps(replay_step(table, BEN, 5)), rubies)


def test_a_stand_in_told_apart_later_is_still_veiled_where_it_moves(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """Ana takes the tapped Ruby back from her discard pile by tap: the copy moved out is
    no stand-in any more (unseen in her hand), the one in her Locus still is. Ben and the
    big screen read neither serial, now or later (a serial that stood in for a tap stays
    veiled for the rest of the game: which copy the pile held is still Ana's secret)."""
    table, rubies = _gem_table(app, client, data_dir)
    ana, ben = table.config["seat_tokens"]
    _post(client, table, ana, {"type": "return", "target": 1, "cards": ["a-ruby"],
                               "to": "hand"})
    assert table.match.state.side(1).discard == ()
    for token in (ben, None):
        snap = _get(client, table, token)
        assert _has_none(snap, rubies)
        moved = json.loads(snap)["last_play"]["movements"]
        assert [(m["card"], m["from"], m["to"]) for m in moved] == [(None, "discard:1",
                                                                     "hand:1")]


def test_a_tap_in_wuxing_god_num_and_shrine_names_no_other_seat_s_serial(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """WuXing and God Num record a tap as a stand-in too; whatever their views carry, no
    other seat and no big screen ever reads one. In Shrine a tapped face has one copy in
    play: its serial is that card's, nothing stands in (``stand_ins`` stays empty)."""
    rng = random.Random(4)
    for game, players in (("wuxing", 3), ("godnum", 3), ("shrine", 3)):
        table = _table(app, data_dir, game, players)
        faces = {s: f.id for s, f in table.match.setup.cards.items()}
        seen_taps = 0
        for _ in range(80):
            state = table.match.state
            if state.finished:
                break
            event = dict(table.rules.random_play(state, rng) or {})
            if isinstance(event.get("card"), str) and event["card"] in faces:
                event["card"] = faces[event["card"]]  # the same card, tapped
            try:
                table.play(services(app).store, event, HOST)
                seen_taps += 1
            except Exception:
                table.play(services(app).store, table.rules.random_play(state, rng) or {},
                           HOST)
            table._cache.clear()
            stood = table.veiled.ever()
            if game == "shrine":
                assert stood == {}
                continue
            for seat in range(1, players + 1):
                others = [s for s, owners in stood.items() if owners != {seat}]
                token = table.config["seat_tokens"][seat - 1]
                assert _has_none(_get(client, table, token), others), (game, seat)
            assert _has_none(_get(client, table, None), list(stood))
        assert seen_taps
        if game != "shrine":
            assert table.veiled.ever(), game


def test_the_opponent_chooses_a_tapped_gem_by_its_stand_in_name_exactly(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """GC-4: Ben chooses 2 of Ana's 6 revealed cards. Revealed by taps, they are stand-ins:
    his page lists them by stand-in names (``a-ruby~2``), never by serial, and the name
    he sends is turned back into exactly the copy at that position, so the four that go
    back face down keep their order (a plain "a-ruby" would take the first Ruby)."""
    table = _table(app, data_dir, "gemcomplete", 2, {"decks": "a, b"}, first=1)
    store = services(app).store
    locus = ["a-ruby", "a-emerald", "a-ruby", "a-topaz", "a-sapphire", "a-tremor"]
    for face in locus:
        for kind in ("next", "next", "set", "next"):
            event = {"type": kind, "seat": 1, **({"card": face} if kind == "set" else {})}
            table.play(store, event, HOST)
        for _ in range(3):  # Ben: recovery, draw and main, end of his turn
            table.play(store, {"type": "next", "seat": 2}, HOST)
    table.play(store, {"type": "declare", "seat": 1, "positions": [1, 2, 3, 4, 5, 6]}, HOST)
    table.play(store, {"type": "reveal", "seat": 1, "cards": locus}, HOST)
    state = table.match.state
    assert state.step == "choose"
    row = [ls.serial for ls in state.side(1).locus]
    assert set(row) <= set(table.rules.stand_ins(state))
    ben = table.config["seat_tokens"][1]
    text = _get(client, table, ben)
    assert _has_none(text, [str(s) for s in row])
    (choose,) = [a for a in json.loads(text)["actions"] if a["type"] == "choose"]
    values = [c["value"] for c in choose["fields"][0]["choices"]]
    assert values == ["a-ruby~1", "a-emerald~1", "a-ruby~2", "a-topaz~1", "a-sapphire~1",
                      "a-tremor~1"]
    _post(client, table, ben, {"type": "choose", "cards": ["a-ruby~2", "a-tremor~1"]})
    after = table.match.state
    assert [ls.serial for ls in after.side(1).locus] == [row[0], row[1], row[3], row[4]]
    assert after.side(1).discard[-2:] == (row[2], row[5])
    # A stand-in name is only a name for what the viewer's actions list now: sent again,
    # it is refused as any card that is not one, naming no serial.
    version = table.version
    r = client.post(f"/api/tables/{table.id}/actions", headers=bearer(ben),
                    json={"type": "choose", "cards": ["a-ruby~2", "a-tremor~1"]})
    assert r.status_code == 422 and table.version == version, r.json
    assert _has_none(r.get_data(as_text=True), [str(s) for s in row])


def test_a_refusal_that_would_quote_another_seat_s_stand_in_names_the_card(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """The engines word refusals so that no other seat's card is named (C-7); should one
    still quote a stand-in's serial, Ben, the big screen and the camera read the card's
    name instead, in the answer and in the refusal the pages show; Ana and the referee
    read it as written."""
    table, rubies = _gem_table(app, client, data_dir)
    exc = IllegalPlay(f"{rubies[0]} and '{rubies[1]}' lie where they lie")
    with app.test_request_context():
        for viewer in (BEN, PUBLIC, Viewer("camera")):
            text = refusal(exc, table, viewer).get_data(as_text=True)
            assert _has_none(text, rubies) and "Ruby" in text, viewer
        assert rubies[0] in refusal(exc, table, ANA).get_data(as_text=True)
        assert _has_all(refusal(exc, table, HOST).get_data(as_text=True), rubies)
    table.refusal = {"version": table.version, "who": "seat:2", "seat": 2, "type": "set",
                     "error": str(exc), "plain": str(exc), "code": exc.code, "rule": None,
                     "scan": None, "overridable": False}
    table._cache.clear()
    ben = table.config["seat_tokens"][1]
    assert _has_none(_get(client, table, ben), rubies)
    assert _has_none(table.refusal_notice(BEN) or "", rubies)
    assert "Ruby" in (table.refusal_notice(BEN) or "")
