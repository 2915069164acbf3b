"""Sending scans: retries through an outage, refusals are final, nothing lost or doubled."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CardNotAvailable
from cv.sender import CallSink, HttpSink, Outbox, Scan


class FakeReferee:
    """Answers scans like the web API: dedupes on scan_id; can be down or failing."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.applied: dict[str, dict[str, Any]] = {}
        self.fail_next = 0  # answer 503 to this many requests
        self.refuse: set[str] = set()  # payloads refused with 409 (C-1)
        self.auth: list[str] = []
        handler = self._handler()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        ref = self

        class H(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                ref.received.append(body)
                ref.auth.append(self.headers.get("Authorization", ""))
                if ref.fail_next:
                    ref.fail_next -= 1
                    return self._answer(503, {"error": "restarting"})
                if body["payload"] in ref.refuse:
                    return self._answer(409, {"error": "card is in the Void (C-1)",
                                              "code": "CardNotAvailable"})
                first = ref.applied.setdefault(body["scan_id"], {
                    "version": len(ref.applied) + 1, "ruling": f"{body['zone']}: ok"})
                self._answer(200, first)

            def _answer(self, code: int, data: dict[str, Any]) -> None:
                raw = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return H

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def referee() -> Iterator[FakeReferee]:
    r = FakeReferee()
    yield r
    r.close()


def scan(i: int, payload: str = "") -> Scan:
    return Scan(f"id{i:03d}", payload or f"T1:W:1:AAAA:00{i}:X", "seat:1", f"AAAA-00{i}")


def wait_for(cond: Any, timeout: float = 60.0) -> None:
    # A guard against a hung sender thread, not a speed limit: generous for a busy machine.
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_scans_go_out_with_token_scan_id_and_zone(referee: FakeReferee, tmp_path: Path) -> None:
    outcomes = []
    box = Outbox(tmp_path, HttpSink(referee.url, "t1", "secret"),
                 on_outcome=lambda s, o: outcomes.append((s, o))).start()
    box.put(scan(1))
    wait_for(lambda: box.status["sent"] == 1)
    box.stop()
    assert referee.received == [{"payload": "T1:W:1:AAAA:001:X", "zone": "seat:1",
                                 "scan_id": "id001"}]
    assert referee.auth == ["Bearer secret"]
    assert outcomes[0][1].status == "ok" and outcomes[0][1].message == "seat:1: ok"
    assert box.waiting() == []


def test_a_server_restart_loses_nothing_and_applies_nothing_twice(referee: FakeReferee,
                                                                  tmp_path: Path) -> None:
    referee.fail_next = 3
    box = Outbox(tmp_path, HttpSink(referee.url, "t1", "k"), backoff=(0.01, 0.05)).start()
    for i in range(5):
        box.put(scan(i))
    wait_for(lambda: box.status["sent"] == 5)
    box.stop()
    assert box.status["retries"] == 3
    assert sorted(referee.applied) == [f"id{i:03d}" for i in range(5)]
    sent = [json.loads(x)["scan_id"] for x in (tmp_path / "sent.jsonl").read_text().splitlines()]
    assert sent == [f"id{i:03d}" for i in range(5)]  # in placement order


def test_no_server_at_all_keeps_scans_on_disk_for_the_next_start(tmp_path: Path,
                                                                referee: FakeReferee) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    box = Outbox(tmp_path, HttpSink(dead, "t1", "k", timeout=0.5), backoff=(0.01, 0.05)).start()
    box.put(scan(1))
    box.put(scan(2))
    wait_for(lambda: box.status["retries"] >= 3)
    assert box.status["online"] is False and box.status["pending"] == 2
    box.stop()
    # A new process (same directory) finds them and sends them once the referee is up.
    again = Outbox(tmp_path, HttpSink(referee.url, "t1", "k"), backoff=(0.01, 0.05)).start()
    wait_for(lambda: again.status["sent"] == 2)
    again.stop()
    assert [b["scan_id"] for b in referee.received] == ["id001", "id002"]


def test_a_resend_after_a_lost_answer_is_deduplicated_by_scan_id(referee: FakeReferee,
                                                                tmp_path: Path) -> None:
    sink = HttpSink(referee.url, "t1", "k")
    first = sink.send(scan(7))
    second = sink.send(scan(7))  # as after a crash between sending and recording
    assert first.answer == second.answer
    assert len(referee.applied) == 1 and len(referee.received) == 2


def test_a_refusal_is_final_and_reported(referee: FakeReferee, tmp_path: Path) -> None:
    referee.refuse.add("T1:W:1:AAAA:001:X")
    outcomes = []
    box = Outbox(tmp_path, HttpSink(referee.url, "t1", "k"),
                 on_outcome=lambda s, o: outcomes.append(o)).start()
    box.put(scan(1))
    box.put(scan(2))
    wait_for(lambda: box.status["sent"] + box.status["refused"] == 2)
    box.stop()
    assert [o.status for o in outcomes] == ["refused", "ok"]
    assert outcomes[0].message == "card is in the Void (C-1)"
    assert outcomes[0].code == "CardNotAvailable"
    assert len(referee.received) == 2  # the refused scan was not retried
    assert "C-1" in (tmp_path / "refused.jsonl").read_text()


def test_an_in_process_engine_sink_refuses_with_the_engines_error(tmp_path: Path) -> None:
    def engine(s: Scan) -> dict[str, Any]:
        if s.serial == "AAAA-002":
            raise CardNotAvailable("'AAAA-002' is in the Void (C-1)")
        return {"version": 3, "ruling": "Wood absorbs Water"}

    box = Outbox(tmp_path, CallSink(engine))
    box.put(scan(1))
    box.put(scan(2))
    assert box.flush_once().message == "Wood absorbs Water"  # type: ignore[union-attr]
    refused = box.flush_once()
    assert refused is not None and refused.status == "refused" and "C-1" in refused.message
    assert box.flush_once() is None


def test_a_damaged_outbox_file_is_set_aside(tmp_path: Path) -> None:
    box = Outbox(tmp_path, CallSink(lambda s: {"ruling": "ok"}))
    (box.pending / "00000000000000000001-bad.json").write_text("{")
    box.put(scan(1))
    assert box.flush_once() is None  # the bad file, moved aside
    assert box.flush_once() is not None
    assert list(box.pending.glob("*.bad"))
