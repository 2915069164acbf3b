"""Shared zones and hidden cards through the HTTP API (issue 10, points 2 and 4; C-7).

A seat may put a card into a shared zone (pot, Void, universe) only when the rules wait for
that seat there, and ``/scans`` and ``/actions`` apply one and the same authorization. A
refusal about a card the asker may not know reads exactly like the refusal for any other
card that is not available to them.

These attacks are refused by the engines (their "shared zones only when the rules wait for
that seat" work); the web's part, tested here, is that every scan carries the sender's seat
and that a refusal adds nothing to the engine's words.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import bearer, make_table

from web import services


def snap(client: FlaskClient, t: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    """The table as ``token`` sees it, less the clock and the notice of the latest refusal
    (a refused play is shown to the referee, issue 11; it changes nothing at the table)."""
    r = client.get(f"/api/tables/{t['table']}", headers=bearer(token or t["host_token"]))
    assert r.status_code == 200
    out: dict[str, Any] = r.json
    out.pop("now")
    out.pop("refused", None)
    return out


def answer(r: Any) -> tuple[int, str, str | None]:
    return r.status_code, r.json.get("code", ""), r.json.get("rule")


# -- WuXing: only a seat of the challenge lays the Universe card (WX-4) ----------------------
@pytest.mark.parametrize("path", ["/scans", "/actions"])
def test_wuxing_a_seat_outside_the_challenge_cannot_lay_the_universe_card(
        client: FlaskClient, data_dir: Path, path: str) -> None:
    """Chen (seat 3) is not in Ana and Ben's challenge: the Universe card is not his to
    lay, through /scans (once accepted) as through /actions."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    r = client.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 1},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200 and r.json["view"]["challenge"] == [1, 2]
    uni = next(c for c in t["run"].cards if c.deck == "universe" and c.face.kind == "element")
    body = ({"payload": uni.payload, "zone": "universe"} if path == "/scans" else
            {"type": "scan", "card": uni.serial, "zone": "universe"})
    before = snap(client, t)
    chen = client.post(f"/api/tables/{tid}{path}", json=body,
                       headers=bearer(t["seats"][2]["token"]))
    assert chen.status_code in (403, 409), chen.json
    assert snap(client, t) == before
    # Ana, who challenges, may (the same request from her seat).
    ana = client.post(f"/api/tables/{tid}{path}", json=body,
                      headers=bearer(t["seats"][0]["token"]))
    assert ana.status_code == 200, ana.json


def test_wuxing_scans_and_actions_answer_a_universe_card_alike(client: FlaskClient,
                                                               data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    client.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 1},
                headers=bearer(t["host_token"]))
    uni = next(c for c in t["run"].cards if c.deck == "universe" and c.face.kind == "element")
    chen = bearer(t["seats"][2]["token"])
    by_scan = client.post(f"/api/tables/{tid}/scans", headers=chen,
                          json={"payload": uni.payload, "zone": "universe"})
    by_action = client.post(f"/api/tables/{tid}/actions", headers=chen,
                            json={"type": "scan", "card": uni.serial, "zone": "universe"})
    assert answer(by_scan) == answer(by_action)
    assert by_scan.status_code != 200


# -- God Num: nobody discards or plays for the current player (GN-5, GN-9) -------------------
def godnum_turn(client: FlaskClient, data_dir: Path) -> tuple[dict[str, Any], int, str, str]:
    """A God Num table; the seat whose turn it is, and a serial of its legion that it
    could legally play now, with that card's payload."""
    t = make_table(client, data_dir, "godnum", 3, seed=2)
    host = snap(client, t)
    cur = int(host["view"]["turn"])
    mine = snap(client, t, t["seats"][cur - 1]["token"])["view"]
    ok = {f["value"] for f in mine["legal"] if f["ok"]}
    cards = client.get(f"/api/tables/{t['table']}/cards",
                       headers=bearer(t["host_token"])).json["cards"]
    face = {c["serial"]: c for c in cards}
    # Its own unseen cards; before a legion is bound to the seat (at its first card, GN-2)
    # any card of the run whose face it may play.
    mine_unseen = host["view"].get("unseen", {}).get(str(cur)) or sorted(face)
    serial = next(s for s in mine_unseen if face[s]["face"] in ok)
    return t, cur, serial, face[serial]["payload"]


@pytest.mark.parametrize("zone", ["void", "pot"])
@pytest.mark.parametrize("path", ["/scans", "/actions"])
def test_godnum_another_seat_cannot_send_the_current_players_cards(
        client: FlaskClient, data_dir: Path, zone: str, path: str) -> None:
    """Any seat could send the current player's cards to the Void (karma, GN-9) until
    they reached the karma limit, or play for them into the pot (GN-5)."""
    t, cur, serial, payload = godnum_turn(client, data_dir)
    other = cur % 3 + 1
    body = ({"payload": payload, "zone": zone} if path == "/scans" else
            {"type": "scan", "card": serial, "zone": zone})
    before = snap(client, t)
    r = client.post(f"/api/tables/{t['table']}{path}", json=body,
                    headers=bearer(t["seats"][other - 1]["token"]))
    assert r.status_code in (403, 409), r.json
    assert snap(client, t) == before
    # The current player may do it herself: the refusal was about who sent it.
    r = client.post(f"/api/tables/{t['table']}{path}", json=body,
                    headers=bearer(t["seats"][cur - 1]["token"]))
    assert r.status_code == 200, r.json


def test_godnum_scans_and_actions_refuse_another_seat_alike(client: FlaskClient,
                                                           data_dir: Path) -> None:
    t, cur, serial, payload = godnum_turn(client, data_dir)
    other = bearer(t["seats"][cur % 3]["token"])
    for zone in ("void", "pot"):
        by_scan = client.post(f"/api/tables/{t['table']}/scans", headers=other,
                              json={"payload": payload, "zone": zone})
        by_action = client.post(f"/api/tables/{t['table']}/actions", headers=other,
                                json={"type": "scan", "card": serial, "zone": zone})
        assert answer(by_scan) == answer(by_action), (by_scan.json, by_action.json)
        assert by_scan.status_code != 200


# -- Gem Complete: a privately set Locus card cannot be found by probing (GC-2) ---------------
def post(client: FlaskClient, t: dict[str, Any], token: str, body: dict[str, Any],
         path: str = "/actions") -> Any:
    return client.post(f"/api/tables/{t['table']}{path}", json=body, headers=bearer(token))


def to_main_phase(client: FlaskClient, app: Flask, t: dict[str, Any], seat: int) -> None:
    """Step the table (as the host) until ``seat`` may set a card (GC-3), bounded."""
    table = services(app).tables.get(t["table"])
    for _ in range(12):
        acts = table.rules.actions(table.match.state, seat)
        if any(a["type"] == "set" and not a.get("disabled") for a in acts):
            return
        turn = table.match.state.turn
        r = post(client, t, t["host_token"], {"type": "next", "seat": turn})
        assert r.status_code == 200, r.json
    raise AssertionError("seat never reached its Main Phase")


def probes(t: dict[str, Any], prober: int, owner: int) -> list[tuple[str, dict[str, Any]]]:
    """Every request naming one card that the prober can send, for every card of the run."""
    out: list[tuple[str, dict[str, Any]]] = []
    for c in t["run"].cards:
        s = c.serial
        out += [
            ("/actions", {"type": "return", "target": owner, "cards": [s], "to": "hand"}),
            ("/actions", {"type": "return", "target": prober, "cards": [s], "to": "deck"}),
            ("/actions", {"type": "discard", "target": owner, "count": 1, "from": "hand",
                          "cards": [s]}),
            ("/actions", {"type": "crush", "target": owner, "count": 1, "cards": [s]}),
            ("/actions", {"type": "play", "card": s}),
            ("/actions", {"type": "set", "card": s}),
            ("/actions", {"type": "reveal", "cards": [s]}),
            ("/scans", {"payload": c.payload, "zone": f"seat:{prober}"}),
            ("/scans", {"payload": c.payload, "zone": f"locus:{prober}"}),
        ]
    return out


def probe_all(client: FlaskClient, app: Flask, t: dict[str, Any], token: str,
              requests: list[tuple[str, dict[str, Any]]]) -> list[tuple[Any, ...]]:
    """Each request's answer (status, code, rule, words); one that was played is undone."""
    out = []
    for path, body in requests:
        r = post(client, t, token, body, path)
        out.append((r.status_code, r.json.get("code"), r.json.get("rule"),
                    r.json.get("error")))
        if r.status_code == 200:
            assert post(client, t, t["host_token"], {}, "/undo").status_code == 200
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_gemcomplete_a_private_locus_card_cannot_be_found_by_probing(
        app: Flask, client: FlaskClient, data_dir: Path, seed: int) -> None:
    """Ben learnt Ana's privately set Locus card by trying `return` with all 40 serials.
    World A: Ana sets card X; world B (the same table after an undo): she sets card Y.
    Every request Ben can send is answered alike in both worlds."""
    t = make_table(client, data_dir, "gemcomplete", 2, seed=seed)
    table = services(app).tables.get(t["table"])
    owner = int(table.match.state.turn or 1)
    prober = 3 - owner
    to_main_phase(client, app, t, owner)
    # Both hidden cards of one printed deck: the first card shown binds the deck (GN-2
    # rev. 2), and which deck a seat plays is no secret (the backs differ).
    unseen = sorted(table.match.state.free[0].serials)
    x, y = random.Random(seed).sample(unseen, 2)
    requests = probes(t, prober, owner)
    answers = []
    for hidden in (x, y):
        r = post(client, t, t["seats"][owner - 1]["token"], {"type": "set", "card": hidden})
        assert r.status_code == 200, r.json
        # On to the prober's turn, where effects are entered (GC-3), as the host.
        for _ in range(12):
            if table.match.state.turn == prober and any(
                    a["type"] == "return" for a in table.rules.actions(table.match.state,
                                                                       prober)):
                break
            post(client, t, t["host_token"], {"type": "next", "seat": table.match.state.turn})
        answers.append(probe_all(client, app, t, t["seats"][prober - 1]["token"], requests))
        # Back to before the set: undo every play since (C-3).
        while table.match.state.side(owner).locus and any(
                lc.serial == hidden for lc in table.match.state.side(owner).locus):
            assert post(client, t, t["host_token"], {}, "/undo").status_code == 200
    differ = [(req, a, b) for req, a, b in zip(requests, answers[0], answers[1], strict=True)
              if a != b]
    assert not differ, differ[:3]


def test_a_refusal_shows_others_only_who_was_refused(client: FlaskClient,
                                                     data_dir: Path) -> None:
    """The pages show a refused play until the next accepted one (issue 11), but a reason,
    code or ruling id may tell something hidden (C-7): the refused seat and the referee read
    them; the other seats and the big screen read only who was refused and the kind of play."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    client.post(f"/api/tables/{tid}/actions", json={"type": "rps", "winner": 1},
                headers=bearer(t["host_token"]))
    uni = next(c for c in t["run"].cards if c.deck == "universe" and c.face.kind == "element")
    r = client.post(f"/api/tables/{tid}/scans", json={"payload": uni.payload, "zone": "universe"},
                    headers=bearer(t["seats"][2]["token"]))
    assert r.status_code in (403, 409)
    seen = {who: client.get(f"/api/tables/{tid}", headers=bearer(tok) if tok else {}).json[
        "refused"] for who, tok in [("host", t["host_token"]), ("chen", t["seats"][2]["token"]),
                                    ("ana", t["seats"][0]["token"]), ("public", None)]}
    assert {"error", "code", "rule"} <= set(seen["host"]) and seen["host"]["seat"] == 3
    assert {"error", "code"} <= set(seen["chen"])
    for other in ("ana", "public"):
        assert set(seen[other]) == {"who", "seat", "type"}, seen[other]
        assert seen[other]["seat"] == 3 and seen[other]["type"] == "scan"
