"""Hidden stays hidden in every list (issue 18 §2; GC-4 rev. 2, C-7).

History, banners, ``last_play``, undo lines and the event stream are told to each viewer
when read, never kept from an earlier, more visible moment: after a failed Complete
Declaration the four cards turned face down again are not named to the opponent or the big
screen by any of them, while their owner still reads them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from webtools import bearer, make_table

from companion.naming import QUOTED_SERIAL
from web import services
from web.table import PUBLIC, Viewer

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
    unseen = sorted(state.side(ana).unseen)
    serials = [next(s for s in unseen if state.cards[s].name == n)
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
        card = next(s for s in sorted(state.side(ana).unseen) if state.cards[s].name == name)
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
        state = table.match.state
        unseen = sorted(state.side(1).unseen)
        rubies = [s for s in unseen if state.cards[s].name == "Ruby"]
        other = next(s for s in unseen if state.cards[s].name == "Emerald")
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
