"""A photo cannot burn the server (issue 19 §2).

The red team's progressive JPEG with its last scan repeated (153 KB, 26.5 s of CPU) and
its cousins are refused from their structure before any decoding, naming what is wrong;
photos as phones send them still play. At most one decode per core runs, a short queue
waits, everything else is answered ``503`` with ``Retry-After`` at once; and a photo whose
sender hung up is not decoded. Costs are printed by ``companion bench photo --hostile``,
never timed here.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_photos import photo_of, post, version, wuxing  # noqa: F401 (a fixture)
from webtools import bearer

from bench.hostile import FRAMES, PHOTOS, REFUSED
from cv.photo import BadPhoto, Stopped, read_header, read_photo
from web.guard import DecodeGate, cores, fair_share
from web.server import make_server, stop_in_thread

REASONS = {
    "repeated last scan 4896x4896 (153 KB)": "at most 12 megapixels",
    "repeated last scan 3000x3000": "repeats one of its scans",
    "40 different scans 3000x3000": "more than 16 scans",
    "arithmetic-coded": "arithmetic-coded",
    "12-bit samples": "1 or 3 of 8 bits",
    "5,000 segments": "more than 512 segments",
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_costly_jpeg_is_refused_from_its_structure(client: FlaskClient,
                                                     wuxing: dict[str, Any],  # noqa: F811
                                                     name: str) -> None:
    before = version(client, wuxing)
    r = post(client, wuxing, PHOTOS[name]())
    assert r.status_code == 400 and r.json["code"] == "bad_photo", r.json
    assert REASONS[name] in r.json["error"]
    assert version(client, wuxing) == before


def test_a_hostile_live_frame_is_refused_too(client: FlaskClient,
                                             wuxing: dict[str, Any]) -> None:  # noqa: F811
    r = client.post(f"/api/tables/{wuxing['table']}/camera/frames?seq=1&t=0.5",
                    data=FRAMES["frame: repeated last scan 1920x1920"](),
                    headers={"Content-Type": "image/jpeg", **bearer(wuxing["camera_token"])})
    assert r.status_code == 400 and r.json["code"] == "bad_photo", r.json
    assert "repeats one of its scans" in r.json["error"]


def test_photos_as_phones_send_them_still_play(client: FlaskClient,
                                               wuxing: dict[str, Any]) -> None:  # noqa: F811
    card = wuxing["elements"][0]
    data = photo_of(wuxing["run"], card.payload)
    # A phone's photo may carry a second image after its end (a depth map, MPF): unread.
    extra = bytes(cv2.imencode(".jpg", np.zeros((64, 64), np.uint8))[1])
    r = post(client, wuxing, data + extra)
    assert r.status_code == 200, r.json
    assert r.json["found"] == [card.serial]


def test_a_progressive_photo_within_the_limits_is_read(client: FlaskClient,
                                                       wuxing: dict[str, Any]  # noqa: F811
                                                       ) -> None:
    card = wuxing["elements"][0]
    img = cv2.imdecode(np.frombuffer(photo_of(wuxing["run"], card.payload), np.uint8),
                       cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    assert ok and read_header(bytes(buf)).progressive
    r = post(client, wuxing, bytes(buf))
    assert r.status_code == 200, r.json
    assert r.json["found"] == [card.serial]


def test_a_photo_whose_sender_hung_up_stops_between_steps() -> None:
    data = PHOTOS["baseline 4896x4896"]()
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return True

    with pytest.raises(Stopped):
        read_photo(data, stop=stop)
    assert asked == [1]  # stopped after the first decode, before any code reading
    with pytest.raises(BadPhoto):
        read_photo(PHOTOS["repeated last scan 3000x3000"](), stop=lambda: False)


class Blocker:
    """Holds every decode slot of a gate until released (one address per slot: one
    address alone never holds them all, issue 27 §7)."""

    def __init__(self, gate: DecodeGate) -> None:
        self.release = threading.Event()
        self.running = threading.Semaphore(0)
        self.threads = [threading.Thread(target=self._hold, args=(gate, f"10.0.0.{i}"),
                                         daemon=True) for i in range(gate.slots)]
        for t in self.threads:
            t.start()
        for _ in self.threads:
            assert self.running.acquire(timeout=30)  # a hang guard

    def _hold(self, gate: DecodeGate, key: str) -> None:
        with gate.admitted(key):
            gate.run(self._work, key=key)

    def _work(self) -> None:
        self.running.release()
        self.release.wait(60)

    def done(self) -> None:
        self.release.set()
        for t in self.threads:
            t.join(30)


@pytest.fixture
def gate(app: Flask) -> Iterator[Callable[..., DecodeGate]]:
    made: list[DecodeGate] = []

    def make(slots: int = 1, waiting: int = 0, wait_s: float = 30.0) -> DecodeGate:
        g = DecodeGate(slots, waiting, wait_s)
        app.extensions["companion_decodes"] = g
        made.append(g)
        return g

    yield make
    for g in made:
        g.close()


def test_decodes_beyond_the_slots_and_queue_are_503_with_retry_after(
        client: FlaskClient, wuxing: dict[str, Any],  # noqa: F811
        gate: Callable[..., DecodeGate]) -> None:
    g = gate(slots=2, waiting=0)
    card = wuxing["elements"][0]
    data = photo_of(wuxing["run"], card.payload)
    before = version(client, wuxing)
    held = Blocker(g)
    try:
        r = post(client, wuxing, data)
        assert r.status_code == 503 and r.json["code"] == "busy", r.json
        assert r.headers["Retry-After"] == "1"
        assert "send this one again" in r.json["error"]
        frame = client.post(f"/api/tables/{wuxing['table']}/camera/frames?seq=1&t=0.5",
                            data=data, headers={"Content-Type": "image/jpeg",
                                                **bearer(wuxing["camera_token"])})
        assert frame.status_code == 503 and frame.headers["Retry-After"] == "1"
        assert version(client, wuxing) == before
    finally:
        held.done()
    r = post(client, wuxing, data)  # a slot is free again: the same photo plays
    assert r.status_code == 200 and r.json["found"] == [card.serial]
    assert g.refused == 2


def test_a_queued_photo_waits_briefly_then_is_told_to_retry(
        client: FlaskClient, wuxing: dict[str, Any],  # noqa: F811
        gate: Callable[..., DecodeGate]) -> None:
    g = gate(slots=1, waiting=1, wait_s=0.2)
    held = Blocker(g)
    try:
        r = post(client, wuxing, photo_of(wuxing["run"], wuxing["elements"][0].payload))
        assert r.status_code == 503 and r.json["code"] == "busy", r.json
        assert r.headers["Retry-After"] == "1"
    finally:
        held.done()
    assert g.decoded == 1  # the blocker's only: the queued photo was never decoded


def test_the_default_gate_decodes_one_photo_per_core() -> None:
    g = DecodeGate()
    assert g.slots == cores() and g.waiting == cores()


def test_a_client_that_hangs_up_while_queued_is_not_decoded(
        app: Flask, wuxing: dict[str, Any],  # noqa: F811
        gate: Callable[..., DecodeGate]) -> None:
    g = gate(slots=1, waiting=1, wait_s=60)
    server = make_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    held = Blocker(g)
    try:
        data = photo_of(wuxing["run"], wuxing["elements"][0].payload)
        head = (f"POST /api/tables/{wuxing['table']}/photos?zone=seat:1 HTTP/1.1\r\n"
                f"Host: x\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}\r\n"
                f"Authorization: Bearer {wuxing['seats'][0]['token']}\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", server.effective_port)) as s:
            s.sendall(head + data)
            for _ in range(600):  # a hang guard (60 s): the photo is queued
                if g.queued == 1:
                    break
                time.sleep(0.1)
            assert g.queued == 1
        # The phone has hung up. The server's own count says when it noticed: the photo
        # leaves the queue while the blocker still holds the only slot.
        for _ in range(600):  # a hang guard (60 s)
            if g.dropped == 1:
                break
            time.sleep(0.1)
        assert (g.dropped, g.queued, g.decoded) == (1, 0, 1)
        held.release.set()  # the slot frees: nothing is left to decode
        held.done()
        assert (g.dropped, g.decoded) == (1, 1)  # only the blocker's work ran
    finally:
        held.done()
        stop_in_thread(server, thread)


class Flood:
    """One address's photos held in the gate (each decode waits until released)."""

    def __init__(self, gate: DecodeGate, key: str, count: int,
                 order: list[str] | None = None) -> None:
        self.release = threading.Event()
        self.order = [] if order is None else order
        self.inside = threading.Semaphore(0)
        self.threads = [threading.Thread(target=self._send, args=(gate, key), daemon=True)
                        for _ in range(count)]
        for t in self.threads:
            t.start()
        for _ in self.threads:
            assert self.inside.acquire(timeout=30)  # a hang guard: each one is admitted

    def _send(self, gate: DecodeGate, key: str) -> None:
        with gate.admitted(key):
            self.inside.release()
            gate.run(lambda: (self.order.append(key), self.release.wait(60)), key=key)

    def done(self) -> None:
        self.release.set()
        for t in self.threads:
            t.join(30)


class Unread(io.BytesIO):
    """A request body that records whether the server read any of it."""

    touched = False

    def read(self, size: int | None = -1) -> bytes:
        self.touched = True
        return super().read(size)


def test_one_address_flooding_photos_leaves_room_for_another_phone(
        client: FlaskClient, wuxing: dict[str, Any],  # noqa: F811
        gate: Callable[..., DecodeGate]) -> None:
    """Issue 27 §7: one address holds at most its share of the places and of the decodes;
    its next photo is refused (429, Retry-After) before its body is read, and another
    phone's photo is read at once meanwhile."""
    g = gate(slots=2, waiting=2)
    flood = Flood(g, "10.9.9.9", 2)  # one address alone: half of the 4 places
    try:
        assert g.queued == 1  # one decode running, one waiting: the other slot stays free
        body = Unread(photo_of(wuxing["run"], wuxing["elements"][1].payload))
        r = client.post(f"/api/tables/{wuxing['table']}/photos?zone=seat:1",
                        input_stream=body, content_length=len(body.getvalue()),
                        headers={"Content-Type": "image/jpeg",
                                 **bearer(wuxing["seats"][0]["token"])},
                        environ_base={"REMOTE_ADDR": "10.9.9.9"})
        assert r.status_code == 429 and r.json["code"] == "too_many_photos", r.json
        assert r.headers["Retry-After"] == "1"
        assert "already sending 2 photos" in r.json["error"]
        assert not body.touched
        card = wuxing["elements"][0]
        r = client.post(f"/api/tables/{wuxing['table']}/photos?zone=seat:1",
                        data=photo_of(wuxing["run"], card.payload),
                        headers={"Content-Type": "image/jpeg",
                                 **bearer(wuxing["seats"][0]["token"])},
                        environ_base={"REMOTE_ADDR": "10.7.7.7"})
        assert r.status_code == 200 and r.json["found"] == [card.serial], r.json
    finally:
        flood.done()
    assert g.decoded == 3  # the flood's two, then the phone's own


def test_a_queued_phone_goes_before_the_flooding_address() -> None:
    """When a decode ends, the queued photo of the address running fewer decodes starts
    first, whoever came first (issue 27 §7)."""
    g = DecodeGate(slots=1, waiting=3, wait_s=60)
    order: list[str] = []
    flood = Flood(g, "10.9.9.9", 2, order)  # one running, one queued
    phone = threading.Thread(target=lambda: _one(g, "10.7.7.7", order), daemon=True)
    try:
        phone.start()
        for _ in range(600):  # a hang guard (60 s)
            if g.queued == 2:
                break
            time.sleep(0.1)
        assert g.queued == 2
        flood.release.set()  # the first decode ends: the phone's photo comes next
        phone.join(30)
    finally:
        flood.done()
        g.close()
    assert order == ["10.9.9.9", "10.7.7.7", "10.9.9.9"]


def _one(g: DecodeGate, key: str, order: list[str]) -> None:
    with g.admitted(key):
        g.run(lambda: order.append(key), key=key)


def test_a_share_shrinks_as_more_addresses_come() -> None:
    assert [fair_share(4, n) for n in range(5)] == [2, 1, 1, 1, 1]
    assert [fair_share(192, n) for n in (0, 1, 10, 100, 1000)] == [96, 64, 16, 1, 1]


SMALL_PROGRESSIVE = bytes(cv2.imencode(
    ".jpg", cv2.resize(np.arange(64 * 64, dtype=np.uint8).reshape(64, 64), (256, 192)),
    [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1])


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(edits=st.lists(st.tuples(st.integers(0, len(SMALL_PROGRESSIVE) - 1),
                                st.integers(0, 255)), min_size=1, max_size=6),
       cut=st.integers(2, len(SMALL_PROGRESSIVE)))
def test_a_damaged_jpeg_is_read_or_refused_by_name(edits: list[tuple[int, int]],
                                                    cut: int) -> None:
    """Any byte of a progressive JPEG changed, and the file cut anywhere: the structure
    walk and the decoder answer a photo or ``BadPhoto``, nothing else."""
    data = bytearray(SMALL_PROGRESSIVE[:cut])
    for at, value in edits:
        if at < len(data):
            data[at] = value
    try:
        read_photo(bytes(data))
    except BadPhoto as exc:
        assert str(exc)
