"""Hidden stays hidden in every list (issue 18 §2; GC-4 rev. 2, C-7).

History, banners, ``last_play``, undo lines and the event stream are told to each viewer
when read, never kept from an earlier, more visible moment: after a failed Complete
Declaration the four cards turned face down again are not named to the opponent or the big
screen by any of them, while their owner still reads them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import NAMES, PLAYERS, bearer, make_table, register_run

from companion.errors import CompanionError
from companion.naming import QUOTED_SERIAL
from web import services
from web.table import HOST, PUBLIC, Table, Viewer

KEPT = ["Sapphire", "Topaz", "Amethyst", "Diamond"]


def act(client: FlaskClient, t: dict[str, Any], body: dict[str, Any],
        path: str = "/actions") -> None:
    r = client.post(f"/api/tables/{t['table']}{path}", json=body,
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200, r.json


def failed_declaration(app: Flask, client: FlaskClient, data_dir: Path) -> dict[str, Any]:
    """A Gem Complete table where Ana set six cards, declared, and Ben sent Ruby and
    Avalanche to her discard pile: Sapphire, Topaz, Amethyst and Diamond went face down."""
    t = make_table(client, data_dir, "gemcomplete", 2)
    table = services(app).tables.get(t["table"])
    state = table.match.state
    ana = state.turn
    ben = 3 - ana
    # Ana's first card binds her to its printed deck (GN-2 rev. 2): all six from one deck.
    deck = sorted({c.deck for c in t["run"].cards})[0]
    mine = sorted((c for c in t["run"].cards if c.deck == deck), key=lambda c: c.serial)
    serials = [next(c.serial for c in mine if c.face.name == n)
               for n in ["Ruby", "Sapphire", "Avalanche", *KEPT[1:]]]
    for s in serials:
        for seat in (ana, ana):
            act(client, t, {"type": "next", "seat": seat})
        act(client, t, {"type": "set", "seat": ana, "card": s})
        act(client, t, {"type": "next", "seat": ana})
        for _ in range(3):
            act(client, t, {"type": "next", "seat": ben})
    act(client, t, {"type": "declare", "seat": ana, "positions": [1, 2, 3, 4, 5, 6]})
    act(client, t, {"type": "reveal", "seat": ana, "cards": serials})
    act(client, t, {"type": "choose", "seat": ben, "cards": [serials[0], serials[2]]})
    t["ana"], t["ben"], t["serials"] = ana, ben, serials
    return t


def read(client: FlaskClient, t: dict[str, Any], token: str | None) -> str:
    r = client.get(f"/api/tables/{t['table']}", headers=bearer(token) if token else {})
    assert r.status_code == 200
    return json.dumps(r.json)


def test_the_four_turned_face_down_leave_every_list(app: Flask, client: FlaskClient,
                                                    data_dir: Path) -> None:
    t = failed_declaration(app, client, data_dir)
    ana, ben = t["ana"], t["ben"]
    table = services(app).tables.get(t["table"])
    owner = read(client, t, t["seats"][ana - 1]["token"])
    assert "reveals Ruby, Sapphire, Avalanche, Topaz, Amethyst and Diamond" in owner
    for token, viewer in ((t["seats"][ben - 1]["token"], Viewer("seat", ben)),
                          (None, PUBLIC)):
        text = read(client, t, token)
        streamed = table.versioned_snapshot(viewer)[1]  # what the event stream sends
        for said in (text, streamed):
            assert not any(name in said for name in KEPT), said
            assert not any(s in said for s in t["serials"][1:2] + t["serials"][3:])
        history = json.loads(text)["history"]
        assert any("Ruby, Avalanche and 4 other cards" in h["text"] for h in history), history
    # Undo lines are told when read too: undo Ben's choice, then Ana's next play is undone.
    act(client, t, {"type": "next", "seat": ana})
    act(client, t, {}, "/undo")
    for token in (t["seats"][ben - 1]["token"], None):
        text = read(client, t, token)
        assert not any(name in text for name in KEPT), text
        assert "Undone: " in text


def test_history_is_the_same_for_two_tables_that_differ_only_in_a_hidden_card(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """Ana sets Sapphire on one table and Topaz on the other: Ben's page, the big screen
    and their streams read the same, history and all (C-7)."""
    pages = []
    for name in ("Sapphire", "Topaz"):
        for _ in range(40):  # the companion draws who starts (C-4): the same seat in both
            t = make_table(client, data_dir, "gemcomplete", 2)
            table = services(app).tables.get(t["table"])
            state = table.match.state
            ana = state.turn
            if ana == 1:
                break
        card = next(c.serial for c in sorted(t["run"].cards, key=lambda c: c.serial)
                    if c.deck == "deck-a" and c.face.name == name)
        act(client, t, {"type": "next", "seat": ana})
        act(client, t, {"type": "next", "seat": ana})
        act(client, t, {"type": "set", "seat": ana, "card": card})
        seen = []
        for viewer in (Viewer("seat", 3 - ana), PUBLIC):
            snap = json.loads(table.versioned_snapshot(viewer)[1])
            for key in ("now", "table"):
                snap.pop(key)
            for line in snap["history"]:
                line.pop("time")
            seen.append(json.dumps(snap, sort_keys=True))
        pages.append(seen)
    assert pages[0] == pages[1]


def test_naming_a_gem_by_face_or_name_tells_nothing_of_ana_s_locus(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """Issue 18 §1: Ben's crush, discard and return naming "a-ruby", "Ruby" or "RUBY" read
    "Ben cannot name 'a-ruby' here" when both of Ana's Rubies are set privately in her Locus
    and "Ben cannot name '<serial>' here" when one is in her deck or hand: six probes told
    which Gems she had set. Now one world answers exactly as the other."""
    worlds = []
    for both in (True, False):
        for _ in range(40):  # the companion draws who starts (C-4): Ana, seat 1, in both
            t = make_table(client, data_dir, "gemcomplete", 2)
            table = services(app).tables.get(t["table"])
            if table.match.state.turn == 1:
                break
        # Ana's first card binds her to Deck A (GN-2 rev. 2): both Rubies are of that deck.
        mine = sorted((c for c in t["run"].cards if c.deck == "deck-a"), key=lambda c: c.serial)
        rubies = [c.serial for c in mine if c.face.name == "Ruby"]
        other = next(c.serial for c in mine if c.face.name == "Emerald")
        assert len(rubies) == 2
        for card in (rubies[0], rubies[1] if both else other):
            act(client, t, {"type": "next", "seat": 1})
            act(client, t, {"type": "next", "seat": 1})
            act(client, t, {"type": "set", "seat": 1, "card": card})
            act(client, t, {"type": "next", "seat": 1})
            for _ in range(3):
                act(client, t, {"type": "next", "seat": 2})
        for _ in range(2):  # on to Ben's Main Phase, where he enters effects (GC-3)
            act(client, t, {"type": "next", "seat": 1})
        while table.match.state.turn != 2 or table.match.state.step != "main":
            act(client, t, {"type": "next", "seat": table.match.state.turn})
        ben = bearer(t["seats"][1]["token"])
        answers = []
        for typed in ("a-ruby", "Ruby", "RUBY", "ruby", rubies[0], rubies[1]):
            for body in ({"type": "crush", "target": 1, "count": 1, "cards": [typed]},
                         {"type": "discard", "target": 1, "count": 1, "from": "hand",
                          "cards": [typed]},
                         {"type": "return", "target": 1, "cards": [typed], "to": "hand"},
                         {"type": "crush", "target": 1, "count": 1, "cards": typed}):
                r = client.post(f"/api/tables/{t['table']}/actions", json=body, headers=ben)
                answers.append((typed, r.status_code, r.json.get("code"), r.json.get("error")))
                assert r.status_code != 200, r.json
                assert not any(s in json.dumps(r.json) for s in rubies if s != typed)
        worlds.append(answers)
    assert worlds[0] == worlds[1]
    for typed, _status, _code, error in worlds[0]:
        assert not QUOTED_SERIAL.search(error) or typed in error, error


# -- Every game: two tables that differ only in a hidden card (issue 18 §2) ----------------
HIDDEN = ("unknown", "deck", "universe", "pile", "locus", "hand")


def _hidden(place: str) -> bool:
    return place.split(":")[0] in HIDDEN


def _swapped(value: Any, a: str, b: str) -> Any:
    if value in (a, b):
        return b if value == a else a
    if isinstance(value, list):
        return [_swapped(v, a, b) for v in value]
    if isinstance(value, dict):
        return {k: _swapped(v, a, b) for k, v in value.items()}
    return value


def _page(table: Table, viewer: Viewer) -> dict[str, Any]:
    """A viewer's snapshot (what its page and its event stream get), less the table's id
    and the clock."""
    snap: dict[str, Any] = json.loads(table.versioned_snapshot(viewer)[1])
    for key in ("table", "now", "timer"):
        snap.pop(key)
    for line in snap["history"]:
        line.pop("time")
    return snap


@pytest.mark.parametrize("game", ["wuxing", "godnum", "shrine", "mountains", "gemcomplete"])
def test_two_tables_that_differ_in_a_hidden_card_read_alike_on_every_channel(
        app: Flask, data_dir: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """Two tables of the same print run: on the second, two cards that lie in the same
    hidden place are exchanged in every play. While a seat's view is the same on both, so
    is everything its page and stream read: history, the latest play, undo lines, the
    notice of a refused play, the big screen, at every step, with undos on the way."""
    # The companion's own draws (C-4) the same on both tables: seeded, as in simulations.
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(0))
    players = PLAYERS[game]
    run = register_run(data_dir, game, players)
    svc = services(app)
    tables = [svc.tables.create(game, NAMES[:players], {}, [run.run_id]) for _ in range(2)]
    ta, tb = tables
    rules = ta.rules
    rng = random.Random(7)
    start = rules.places(ta.match.state)
    cards = ta.match.setup.cards
    pool = [s for s in sorted(cards) if _hidden(start[s])]
    a = rng.choice(pool)
    b = rng.choice([s for s in pool if s != a and start[s] == start[a]
                    and cards[s].deck == cards[a].deck])
    knows: set[int] = set()
    compared = 0
    for step in range(150):
        event = rules.random_play(ta.match.state, rng)
        if event is None:
            break
        ta.play(svc.store, event, HOST)
        try:
            tb.play(svc.store, _swapped(event, a, b), HOST)
        except CompanionError:
            break  # the second table cannot follow: the tables part here
        if step % 9 == 8:  # an undo now and then, on both (C-3)
            ta.undo(svc.store, HOST)
            tb.undo(svc.store, HOST)
        places = [rules.places(t.match.state) for t in tables]
        public = rules.last_play(ta.match.state, None) or {}
        if not all(_hidden(p[s]) for p in places for s in (a, b)) or (
                (a in json.dumps(event) or b in json.dumps(event)) and public.get("cards")):
            break  # one of the two lay face up: from here on everyone can tell
        for seat in range(1, players + 1):
            viewer = Viewer("seat", seat)
            if seat in knows or rules.view(ta.match.state, seat) != rules.view(
                    tb.match.state, seat):
                knows.add(seat)
                continue
            if step % 5 == 0:  # a refused play by this seat: its own notice and others'
                probe = {"type": "scan", "card": a, "zone": "nowhere", "seat": seat}
                for t in tables:
                    with pytest.raises(CompanionError):
                        t.play(svc.store, probe, viewer)
            assert _page(ta, viewer) == _page(tb, viewer), (game, seat, step)
            assert _page(ta, PUBLIC) == _page(tb, PUBLIC), (game, step)
            compared += 1
    assert compared > 0


def test_a_card_typed_by_its_printed_name_is_played_through_the_api(
        client: FlaskClient, data_dir: Path) -> None:
    """Issue 20 §2: the free-text card field takes "Universe Water" as it takes
    ``universe-water``; the log keeps the face id. A name no card has is refused as typed."""
    t = make_table(client, data_dir, "wuxing", 3)
    act(client, t, {"type": "rps", "winner": 1})
    ana = bearer(t["seats"][0]["token"])
    r = client.post(f"/api/tables/{t['table']}/actions", headers=ana,
                    json={"type": "scan", "card": "Universe Water", "zone": "universe"})
    assert r.status_code == 200, r.json
    log = client.get(f"/api/tables/{t['table']}/log", headers=bearer(t["host_token"])).json
    rows = log["log"] if isinstance(log, dict) else log
    assert rows[-1]["event"]["card"] == "universe-water"
    r = client.post(f"/api/tables/{t['table']}/actions", headers=ana,
                    json={"type": "scan", "card": "Universe Lava", "zone": "seat:1"})
    assert r.json["code"] == "unknown_card" and "'Universe Lava'" in r.json["error"], r.json
