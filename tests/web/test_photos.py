"""``POST /api/tables/<t>/photos`` ("Scan my card", issue 13): a phone's photo of a printed
card is played as a scan from the token that sent it, with the authorization of ``/scans``
(C-7); no card, several cards and any bytes that are no photo are plain refusals that
change nothing, never a 500; photos are not stored."""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webtools import bearer, make_table

from bench import scenes
from bench.photos import make_photo
from companion.registry import demo_run
from companion.runs import PrintRun

JPEG = {"Content-Type": "image/jpeg"}


def photo_of(run: PrintRun, *payloads: str, seed: int = 1) -> bytes:
    """A 1600x1200 phone photo: one card as ``bench.photos`` takes it, or several cards
    side by side on a table."""
    faces = scenes.default_face_renderer([run])
    if len(payloads) == 1:
        return make_photo(faces(payloads[0]), payloads[0], (1600, 1200),
                          random.Random(seed))[0]
    img = np.full((1200, 1600, 3), 60, np.uint8)
    for i, p in enumerate(payloads):
        img[250:954, 40 + i * 540:40 + i * 540 + 504] = cv2.resize(faces(p), (504, 704))
    return bytes(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])[1])


@pytest.fixture
def wuxing(app: Flask, client: FlaskClient, data_dir: Path) -> dict[str, Any]:
    """A WuXing table at the first reveal: Ana challenged Ben (WX-12), the Universe card is
    out, and seat 1 must reveal its top card (WX-7)."""
    t = make_table(client, data_dir, "wuxing", 3)
    run = t["run"]
    r = client.post(f"/api/tables/{t['table']}/actions", json={"type": "rps", "winner": 1},
                    headers=bearer(t["host_token"]))
    assert r.status_code == 200, r.json
    universe = next(c for c in run.cards if c.deck == "universe" and c.face.kind == "element")
    r = client.post(f"/api/tables/{t['table']}/scans",
                    json={"payload": universe.payload, "zone": "universe"},
                    headers=bearer(t["camera_token"]))
    assert r.status_code == 200, r.json
    t["elements"] = [c for c in run.cards if c.deck == "player" and c.face.kind == "element"]
    return t


def post(client: FlaskClient, t: dict[str, Any], data: bytes, zone: str = "seat:1",
         token: str | None = None, ctype: str = "image/jpeg", **args: str) -> Any:
    tok = token if token is not None else t["seats"][0]["token"]
    query = "&".join([f"zone={zone}", *(f"{k}={v}" for k, v in args.items())])
    return client.post(f"/api/tables/{t['table']}/photos?{query}", data=data,
                       headers={"Content-Type": ctype, **(bearer(tok) if tok else {})})


def version(client: FlaskClient, t: dict[str, Any]) -> int:
    r = client.get(f"/api/tables/{t['table']}")
    return int(r.json["version"])


def test_a_seat_plays_its_card_from_a_photo(client: FlaskClient, wuxing: dict[str, Any]
                                            ) -> None:
    card = wuxing["elements"][0]
    data = photo_of(wuxing["run"], card.payload)
    assert len(data) > 64 * 1024  # over the JSON API's limit: photos have their own
    r = post(client, wuxing, data)
    assert r.status_code == 200, r.json
    assert r.json["found"] == [card.serial]
    assert r.json["card"] == card.serial and r.json["zone"] == "seat:1"
    assert r.json["version"] == 3 == version(client, wuxing)
    log = client.get(f"/api/tables/{wuxing['table']}/log",
                     headers=bearer(wuxing["host_token"])).json["log"]
    # Identity from the token (C-7): the seat's scan is logged as the seat's.
    assert log[-1]["event"] == {"type": "scan", "card": card.serial, "zone": "seat:1",
                                "seat": 1}
    assert log[-1]["who"] == "seat:1"


def test_the_same_photo_sent_twice_plays_once(client: FlaskClient, wuxing: dict[str, Any]
                                              ) -> None:
    data = photo_of(wuxing["run"], wuxing["elements"][0].payload)
    first = post(client, wuxing, data, scan_id="photo-1")
    again = post(client, wuxing, data, scan_id="photo-1")
    assert first.status_code == again.status_code == 200
    assert again.json["repeat"] is True
    assert version(client, wuxing) == 3


def test_a_seat_cannot_play_into_another_seats_zone(client: FlaskClient,
                                                     wuxing: dict[str, Any]) -> None:
    r = post(client, wuxing, photo_of(wuxing["run"], wuxing["elements"][12].payload),
             zone="seat:2")
    assert r.status_code == 403 and r.json["code"] == "wrong_seat"
    assert version(client, wuxing) == 2


def test_tokens_as_for_scans(client: FlaskClient, wuxing: dict[str, Any]) -> None:
    data = photo_of(wuxing["run"], wuxing["elements"][0].payload)
    assert post(client, wuxing, data, token="").status_code == 401
    r = post(client, wuxing, data, token="not-a-token")
    assert r.status_code == 403 and "error" in r.json
    # The camera and the referee may send a photo for any zone.
    r = post(client, wuxing, data, token=wuxing["camera_token"])
    assert r.status_code == 200, r.json
    assert version(client, wuxing) == 3


def test_no_card_is_422_with_a_hint_and_changes_nothing(client: FlaskClient,
                                                        wuxing: dict[str, Any]) -> None:
    empty = bytes(cv2.imencode(".jpg", np.full((1200, 1600, 3), 80, np.uint8))[1])
    r = post(client, wuxing, empty)
    assert r.status_code == 422
    assert r.json["code"] == "no_card_found" and r.json["found"] == []
    assert "closer" in r.json["hint"] and "light" in r.json["hint"]
    assert version(client, wuxing) == 2


def test_a_card_of_another_table_is_no_card_found(client: FlaskClient,
                                                  wuxing: dict[str, Any]) -> None:
    other = demo_run("wuxing", 3, random.Random(9))  # printed for another table
    r = post(client, wuxing, photo_of(other, other.cards[0].payload))
    assert r.status_code == 422 and "not from this table" in r.json["hint"]


def test_two_cards_for_one_seat_are_409_listing_them(client: FlaskClient,
                                                     wuxing: dict[str, Any]) -> None:
    a, b = wuxing["elements"][0], wuxing["elements"][1]
    r = post(client, wuxing, photo_of(wuxing["run"], a.payload, b.payload))
    assert r.status_code == 409
    assert r.json["code"] == "several_cards" and r.json["found"] == [a.serial, b.serial]
    assert a.serial in r.json["error"] and b.serial in r.json["error"]
    assert version(client, wuxing) == 2


@pytest.mark.parametrize("ctype", ["application/json", "text/plain", "image/gif", ""])
def test_only_jpeg_and_png_are_read(client: FlaskClient, wuxing: dict[str, Any],
                                    ctype: str) -> None:
    r = post(client, wuxing, b"\xff\xd8\xff", ctype=ctype)
    assert r.status_code == 415 and r.json["code"] == "unsupported_media_type"


def test_over_8_mb_is_413(client: FlaskClient, wuxing: dict[str, Any]) -> None:
    r = post(client, wuxing, b"\xff\xd8" + b"\x00" * (8 * 1024 * 1024))
    assert r.status_code == 413 and r.json["code"] == "too_large"


def test_a_zone_is_needed(client: FlaskClient, wuxing: dict[str, Any]) -> None:
    r = post(client, wuxing, b"\xff\xd8", zone="")
    assert r.status_code == 400 and "zone" in r.json["error"]


def _png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr
            + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr)))


@pytest.mark.parametrize("data, status", [
    (_png_header(20000, 20000) + b"\x00" * 100, 400),
    (_png_header(1, 1), 400),
    (b"hello, not a photo", 400),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 50, 400),
])
def test_bytes_that_are_no_photo_are_400_bad_photo(client: FlaskClient,
                                                   wuxing: dict[str, Any],
                                                   data: bytes, status: int) -> None:
    r = post(client, wuxing, data, ctype="image/png")
    assert r.status_code == status and r.json["code"] == "bad_photo", r.json
    assert version(client, wuxing) == 2


def test_photos_are_not_stored(client: FlaskClient, wuxing: dict[str, Any],
                               data_dir: Path) -> None:
    data = photo_of(wuxing["run"], wuxing["elements"][0].payload)
    assert post(client, wuxing, data).status_code == 200
    marker = data[200:232]  # 32 bytes of the photo's compressed data
    for f in data_dir.rglob("*"):
        if f.is_file():
            assert marker not in f.read_bytes(), f


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.binary(max_size=4096), st.sampled_from([b"", b"\xff\xd8\xff\xe0",
                                                   b"\x89PNG\r\n\x1a\n"]))
def test_any_bytes_are_never_a_500(client: FlaskClient, wuxing: dict[str, Any],
                                   noise: bytes, magic: bytes) -> None:
    r = post(client, wuxing, magic + noise)
    assert r.status_code in (400, 422), r.json
    assert r.json["code"] in ("bad_photo", "no_card_found")


def test_a_truncated_photo_is_never_a_500(client: FlaskClient, wuxing: dict[str, Any]
                                          ) -> None:
    data = photo_of(wuxing["run"], wuxing["elements"][0].payload)
    for cut in (10, 400, len(data) // 4, len(data) // 2):
        r = post(client, wuxing, data[:cut])
        assert r.status_code in (200, 400, 422), r.json
        if r.status_code == 200:
            break


def test_several_cards_in_a_shared_zone_play_in_reading_order_until_a_refusal(
        client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    client.post(f"/api/tables/{t['table']}/actions", json={"type": "rps", "winner": 1},
                headers=bearer(t["host_token"]))
    first, second = [c for c in t["run"].cards
                     if c.deck == "universe" and c.face.kind == "element"][:2]
    r = post(client, t, photo_of(t["run"], first.payload, second.payload), zone="universe",
             token=t["host_token"])
    # The left card is the Universe card; a second one is not wanted now (WX-7).
    assert r.json["found"] == [first.serial, second.serial]
    assert r.json["played"] == [first.serial]
    assert r.status_code >= 400 and r.json["code"] != "several_cards"
    assert version(client, t) == 2
