"""Sending scans to the referee: an on-disk outbox, retries, and refusals.

Every placement becomes a ``Scan`` with a unique ``scan_id``. ``Outbox.put`` writes it to
``<dir>/pending/`` (atomically) before anything is sent, so a crash, a dropped Wi-Fi or a
server restart loses no scan. A worker thread sends pending scans oldest first:

* 2xx: done; the ruling is kept for the preview and the scan is appended to ``sent.jsonl``.
* 4xx (except 408/429): a final refusal (C-1 and the like): not retried; shown on the
  preview and appended to ``refused.jsonl``.
* network errors, timeouts, 408, 429, 5xx: retried with backoff (0.5 s doubling to 10 s,
  longer if the referee's Retry-After asks for it, up to a minute), the outage logged once.

A scan that was sent but whose answer was lost is sent again with the same ``scan_id``;
the referee answers a repeated ``scan_id`` with its first answer instead of applying it
again, so no scan is applied twice.

Sinks: ``HttpSink`` posts ``{"payload", "zone", "scan_id"}`` to
``POST <server>/api/tables/<table>/scans`` with ``Authorization: Bearer <camera token>``;
``CallSink`` hands the scan to a function in the same process (the engine). ``HttpSink``
also posts the camera's heartbeat (``cv.health``) to ``.../camera``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import threading
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from companion.errors import CompanionError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Scan:
    """One placement to report: which card, which zone, and its idempotency key."""

    scan_id: str
    payload: str
    zone: str | None
    serial: str = ""
    created: float = 0.0  # wall-clock seconds when the card was placed

    def body(self) -> dict[str, Any]:
        return {"payload": self.payload, "zone": self.zone, "scan_id": self.scan_id}


@dataclass(frozen=True)
class Outcome:
    """What the referee said: accepted (with its answer), refused (final), or try again."""

    status: Literal["ok", "refused", "retry"]
    message: str = ""
    code: str = ""
    answer: dict[str, Any] | None = None
    retry_after: float | None = None  # seconds the referee asked to wait (429, 503)
    http: int = 0  # the HTTP status, when there was one


class Sink(ABC):
    @abstractmethod
    def send(self, scan: Scan) -> Outcome:
        """Deliver one scan; never raises for network trouble (returns ``retry``)."""


class HttpSink(Sink):
    """The referee's web API: scans, and the camera's heartbeat (``cv.health``)."""

    def __init__(self, server: str, table: str, token: str, timeout: float = 5.0) -> None:
        self.base = f"{server.rstrip('/')}/api/tables/{table}"
        self.url = self.base + "/scans"
        self.token = token
        self.timeout = timeout

    def send(self, scan: Scan) -> Outcome:
        return self._post(self.url, scan.body(), {"Idempotency-Key": scan.scan_id},
                          self.timeout)

    def heartbeat(self, body: dict[str, Any], timeout: float = 2.0) -> Outcome:
        """``POST <server>/api/tables/<table>/camera``: what the camera sees, for the
        referee page (204 expected; 429 with Retry-After beyond a few a second)."""
        return self._post(self.base + "/camera", body, {}, timeout)

    def _post(self, url: str, body: dict[str, Any], headers: dict[str, str],
              timeout: float) -> Outcome:
        data = json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method="POST", headers={
            "Content-Type": "application/json",
            "Authorization": f"Bearer {self.token}",
            **headers,
        })
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw = resp.read()
            answer = _json(raw)
            ruling = answer.get("ruling") if isinstance(answer, dict) else None
            if isinstance(ruling, dict):  # a view with its own "ruling" sentence
                ruling = ruling.get("ruling", "")
            return Outcome("ok", str(ruling or ""), answer=answer, http=resp.status)
        except urllib.error.HTTPError as exc:
            raw = b""
            with contextlib.suppress(OSError):  # the body of an error may be cut short
                raw = exc.read() or b""
            answer = _json(raw)
            msg = str(answer.get("error") or exc.reason)
            code = str(answer.get("code") or exc.code)
            if 400 <= exc.code < 500 and exc.code not in (408, 429):
                return Outcome("refused", msg, code, answer, http=exc.code)
            return Outcome("retry", f"HTTP {exc.code}: {msg}", code, http=exc.code,
                           retry_after=_retry_after(exc.headers.get("Retry-After")))
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            return Outcome("retry", f"{type(exc).__name__}: {reason}")


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header given in seconds (the API's form); ``None``
    if absent or not a number (an HTTP date is not worth honouring here)."""
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    if seconds is None or not 0 <= seconds < 3600:
        return None
    return seconds


def _json(raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


class CallSink(Sink):
    """A function in this process: returns the answer (a dict), raises ``CompanionError``
    to refuse (C-1), or any other exception to have the scan retried."""

    def __init__(self, fn: Callable[[Scan], dict[str, Any]]) -> None:
        self.fn = fn

    def send(self, scan: Scan) -> Outcome:
        try:
            answer = self.fn(scan)
        except CompanionError as exc:
            return Outcome("refused", str(exc), type(exc).__name__)
        except Exception as exc:
            return Outcome("retry", f"{type(exc).__name__}: {exc}")
        return Outcome("ok", str(answer.get("ruling", "")), answer=answer)


class Outbox:
    """Scans waiting to be sent, on disk, with a worker thread that sends them."""

    def __init__(self, root: str | os.PathLike[str], sink: Sink,
                 on_outcome: Callable[[Scan, Outcome], None] | None = None,
                 backoff: tuple[float, float] = (0.5, 10.0)) -> None:
        self.root = Path(root)
        self.pending = self.root / "pending"
        self.pending.mkdir(parents=True, exist_ok=True)
        self.sink = sink
        self.on_outcome = on_outcome
        self.backoff = backoff
        self.counts = {"queued": 0, "sent": 0, "refused": 0, "retries": 0}
        self.last: tuple[Scan, Outcome] | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._down_since: float | None = None

    # -- queue on disk --

    def put(self, scan: Scan) -> Path:
        """Store a scan for sending; returns its file. Safe against crashes (atomic)."""
        name = f"{time.time_ns():020d}-{scan.scan_id}.json"
        fd, tmp = tempfile.mkstemp(dir=self.pending, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(asdict(scan), fh)
            fh.flush()
            os.fsync(fh.fileno())
        path = self.pending / name
        os.replace(tmp, path)
        with self._lock:
            self.counts["queued"] += 1
        self._wake.set()
        return path

    def waiting(self) -> list[Path]:
        return sorted(self.pending.glob("*.json"))

    def _load(self, path: Path) -> Scan | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Scan(**data)
        except (OSError, json.JSONDecodeError, TypeError) as exc:
            log.error("outbox file %s is unreadable (%s); moved aside", path.name, exc)
            path.replace(path.with_suffix(".bad"))
            return None

    def _record(self, name: str, scan: Scan, outcome: Outcome) -> None:
        line = json.dumps({**asdict(scan), "status": outcome.status,
                           "message": outcome.message, "code": outcome.code,
                           "at": time.time()})
        with open(self.root / name, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")

    # -- sending --

    def flush_once(self) -> Outcome | None:
        """Try the oldest pending scan once; returns its outcome (``None`` if none wait)."""
        files = self.waiting()
        if not files:
            return None
        path = files[0]
        scan = self._load(path)
        if scan is None:
            return None
        outcome = self.sink.send(scan)
        if outcome.status == "retry":
            with self._lock:
                self.counts["retries"] += 1
            if self._down_since is None:
                self._down_since = time.monotonic()
                log.warning("referee unreachable, keeping scans on disk: %s", outcome.message)
            return outcome
        if self._down_since is not None:
            log.warning("referee reachable again after %.1f s",
                        time.monotonic() - self._down_since)
            self._down_since = None
        self._record("sent.jsonl" if outcome.status == "ok" else "refused.jsonl", scan, outcome)
        path.unlink(missing_ok=True)
        with self._lock:
            self.counts["sent" if outcome.status == "ok" else "refused"] += 1
            self.last = (scan, outcome)
        if outcome.status == "refused":
            log.info("scan of %s refused: %s", scan.serial or scan.payload, outcome.message)
        if self.on_outcome is not None:
            self.on_outcome(scan, outcome)
        return outcome

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                outcome = self.flush_once()
            except Exception as exc:  # a full disk, a callback that raised: keep going
                log.exception("outbox: %s", exc)
                self._stop.wait(delay)
                continue
            if outcome is None:
                self._wake.wait(0.5)
                self._wake.clear()
            elif outcome.status == "retry":
                self._stop.wait(max(delay, min(outcome.retry_after or 0.0, 60.0)))
                delay = min(delay * 2, self.backoff[1])
            else:
                delay = self.backoff[0]

    def start(self) -> Outbox:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="outbox", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker; pending scans stay on disk for the next start."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def status(self) -> dict[str, Any]:
        with self._lock:
            out: dict[str, Any] = dict(self.counts)
        out["pending"] = len(self.waiting())
        out["online"] = self._down_since is None
        return out
