"""A phone as the live table camera (issue 13): frames of the printed mat and cards, or the
codes the phone decoded, go through the tracker of ``companion watch``; a card that lies
still in its zone is played once as the camera's scan (C-7: camera and host tokens only)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import bearer

from bench import scenes
from bench.phones import frames, new_table, universe_card


@pytest.fixture
def table(app: Flask, client: FlaskClient, data_dir: Path) -> dict[str, Any]:
    """A WuXing table for 3 waiting for the Universe card (WX-12 decided)."""
    t, run = new_table(client, data_dir, 5)
    t["run"] = run
    return t


def post_frame(client: FlaskClient, t: dict[str, Any], data: bytes, seq: Any, ts: Any,
               token: str | None = None, zone: str = "") -> Any:
    extra = f"&zone={zone}" if zone else ""
    return client.post(f"/api/tables/{t['table']}/camera/frames?seq={seq}&t={ts}{extra}",
                       data=data, headers={"Content-Type": "image/jpeg",
                                           **bearer(token or t["camera_token"])})


def version(client: FlaskClient, t: dict[str, Any]) -> int:
    return int(client.get(f"/api/tables/{t['table']}").json["version"])


def test_a_card_laid_in_its_zone_is_sent_once_when_still(client: FlaskClient,
                                                         table: dict[str, Any]) -> None:
    rng = random.Random(3)
    renderer = scenes.SceneRenderer("wuxing", 3,
                                    face=scenes.default_face_renderer([table["run"]]))
    card = universe_card(table["run"], rng)
    shots = frames(renderer, card, rng, empty=2, full=6, max_tilt=20)
    answers = [post_frame(client, table, data, i + 1, round(i * 0.2, 3)).json
               for i, data in enumerate(shots)]
    assert answers[0]["mat"] is True
    assert {z["zone"] for z in answers[0]["zones"]} == {"seat:1", "seat:2", "seat:3",
                                                        "universe", "void"}
    assert answers[1]["cards"] == []
    # Seen at frame 3, still at frame 4 (0.2 s later): placed and played then.
    assert answers[2]["sent"] == []
    sent = answers[3]["sent"]
    assert len(sent) == 1 and sent[0]["status"] == 200 and sent[0]["zone"] == "universe"
    serial = next(c.serial for c in table["run"].cards if c.payload == card.payload)
    assert sent[0]["serial"] == serial
    assert answers[3]["cards"][0]["state"] == "placed"
    assert len(answers[3]["cards"][0]["outline"]) == 4
    # Lying there for more frames sends nothing more.
    assert answers[-1]["sent"] == sent and version(client, table) == 2
    log = client.get(f"/api/tables/{table['table']}/log",
                     headers=bearer(table["host_token"])).json["log"]
    assert log[-1]["who"] == "camera" and log[-1]["event"]["card"] == serial


def test_codes_from_the_phone_place_a_card_in_the_chosen_zone(client: FlaskClient,
                                                              table: dict[str, Any]) -> None:
    card = next(c for c in table["run"].cards
                if c.deck == "universe" and c.face.kind == "element")
    corners = [[600, 300], [700, 300], [700, 400], [600, 400]]
    answers = []
    for i in range(3):
        r = client.post(f"/api/tables/{table['table']}/camera/codes?zone=universe",
                        json={"seq": i + 1, "t": 10 + 0.2 * i, "size": [1280, 720],
                              "codes": [{"text": card.payload, "corners": corners},
                                        {"text": "HTTPS://EXAMPLE.ORG/menu",
                                         "corners": corners}]},
                        headers=bearer(table["camera_token"]))
        assert r.status_code == 200, r.json
        answers.append(r.json)
    assert answers[0]["sent"] == []
    assert answers[1]["sent"][0]["serial"] == card.serial
    assert answers[1]["sent"][0]["status"] == 200
    assert version(client, table) == 2


def test_a_refused_card_is_shown_as_refused(client: FlaskClient, table: dict[str, Any]
                                            ) -> None:
    # A player's element card is no Universe card (WX-7): the referee refuses it.
    card = next(c for c in table["run"].cards
                if c.deck == "player" and c.face.kind == "element")
    corners = [[600, 300], [700, 300], [700, 400], [600, 400]]
    for i in range(2):
        r = client.post(f"/api/tables/{table['table']}/camera/codes?zone=universe",
                        json={"seq": i + 1, "t": 0.2 * i, "size": [1280, 720],
                              "codes": [{"text": card.payload, "corners": corners}]},
                        headers=bearer(table["camera_token"]))
    sent = r.json["sent"]
    assert sent[0]["status"] >= 400 and sent[0]["message"]
    assert version(client, table) == 1


def test_only_the_camera_and_the_referee_may_send_frames(client: FlaskClient,
                                                         table: dict[str, Any]) -> None:
    data = b"\xff\xd8\xff"
    r = post_frame(client, table, data, 1, 0, token=table["seats"][0]["token"])
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table['table']}/camera/frames?seq=1&t=0", data=data,
                    headers={"Content-Type": "image/jpeg"})
    assert r.status_code == 401


@pytest.mark.parametrize("seq, t, words", [
    ("x", 0, "seq"), (-1, 0, "seq"), (1, "nan", "t"), (1, -5, "t"), (True, 0, "seq"),
])
def test_bad_clock_fields_are_400(client: FlaskClient, table: dict[str, Any], seq: Any,
                                  t: Any, words: str) -> None:
    rng = random.Random(1)
    renderer = scenes.SceneRenderer("wuxing", 3)
    data = frames(renderer, universe_card(table["run"], rng), rng, 1, 0)[0]
    r = post_frame(client, table, data, "true" if seq is True else seq, t)
    assert r.status_code == 400 and words in r.json["error"], r.json


def test_bad_frames_and_codes_are_400_never_500(client: FlaskClient, table: dict[str, Any]
                                                ) -> None:
    assert post_frame(client, table, b"not a frame", 1, 0).json["code"] == "bad_photo"
    for body in ({"seq": 1, "t": 0, "size": [1280, 720], "codes": "x"},
                 {"seq": 1, "t": 0, "size": [0, 720], "codes": []},
                 {"seq": 1, "t": 0, "size": [1280, 720], "codes": [{"text": "a"}]},
                 {"seq": 1, "t": 0, "size": [1280, 720],
                  "codes": [{"text": "a", "corners": [[1, 2]] * 3}]},
                 {"seq": 1, "t": 0, "size": [1280, 720], "codes": [{}] * 40}):
        r = client.post(f"/api/tables/{table['table']}/camera/codes", json=body,
                        headers=bearer(table["camera_token"]))
        assert r.status_code == 400 and r.json["code"] == "bad_frame", (body, r.json)
    r = client.post(f"/api/tables/{table['table']}/camera/codes?zone=attic",
                    json={}, headers=bearer(table["camera_token"]))
    assert r.status_code == 400 and "'attic' is not a zone" in r.json["error"]


def test_the_camera_page_opens_with_the_camera_token_only(client: FlaskClient,
                                                          table: dict[str, Any]) -> None:
    page = client.get(f"/t/{table['table']}/camera?token={table['camera_token']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<video id="video"' in html and "camera.js" in html and "companion serve --tls" in html
    assert client.get(f"/t/{table['table']}/camera?token={table['host_token']}"
                      ).status_code == 200
    seat = client.get(f"/t/{table['table']}/camera?token={table['seats'][0]['token']}")
    assert seat.status_code == 403
    assert client.get(f"/t/{table['table']}/camera").status_code == 403
    qr = client.get(f"/t/{table['table']}/camera/qr.svg", headers=bearer(table["host_token"]))
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert client.get(f"/t/{table['table']}/camera/qr.svg",
                      headers=bearer(table["camera_token"])).status_code == 403


def test_a_card_seen_again_on_its_pile_says_already_there_in_plain_words(
        client: FlaskClient, table: dict[str, Any]) -> None:
    """C-9 and C-8: the Universe card lies on the pot; lifted and laid back, the phone
    camera sends it again and the server answers 'already there' (nothing logged): the
    phone shows plain words, never the ruling id."""
    card = next(c for c in table["run"].cards
                if c.deck == "universe" and c.face.kind == "element")
    corners = [[600, 300], [700, 300], [700, 400], [600, 400]]

    def codes(seq: int, t: float, shown: bool) -> Any:
        r = client.post(f"/api/tables/{table['table']}/camera/codes?zone=universe",
                        json={"seq": seq, "t": t, "size": [1280, 720],
                              "codes": [{"text": card.payload, "corners": corners}]
                              if shown else []},
                        headers=bearer(table["camera_token"]))
        assert r.status_code == 200, r.json
        return r.json

    # "sent": every card this camera has sent, oldest first.
    first = [codes(i + 1, 0.2 * i, True)["sent"] for i in range(3)][-1]
    assert [s["status"] for s in first] == [200] and version(client, table) == 2
    for i in range(20):  # lifted: 4 s without it
        codes(10 + i, 1.0 + 0.2 * i, False)
    again = [codes(40 + i, 6.0 + 0.2 * i, True)["sent"] for i in range(3)][-1]
    assert len(again) == 2 and again[-1]["status"] == 200
    assert again[-1]["message"] == "already there, nothing to do"
    assert version(client, table) == 2
