"""The camera's heartbeat: once a second, what the referee page shows of it (issue 26 §5).

``POST <server>/api/tables/<table>/camera`` with the camera token and the body::

    {"fps": float, "mat": bool, "cards": int, "problems": [str],
     "last": null | {"card": str, "zone": str, "answer": "played" | "already there" |
                     "refused", "words": str}}

The referee answers 204; the referee page shows it, the big screen a small "camera on"
mark, and no heartbeat for 5 s reads "camera stopped". ``Heartbeat`` posts it from its own
thread through ``HttpSink`` (the scans' sender), so the frame loop never waits for the
network: the thread asks for a fresh body (``Watcher.health``) when one is due, posts it
and forgets it. A heartbeat that cannot be delivered (the referee down, a time-out) is
dropped, never queued: the next one says the same, newer. A 429 is honoured: nothing is
posted until its Retry-After has passed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from cv.sender import HttpSink, Outcome, Scan

log = logging.getLogger(__name__)

Answer = Literal["played", "already there", "refused"]
TickResult = Literal["sent", "not due", "waiting", "limited", "dropped", "refused"]


@dataclass(frozen=True)
class LastSent:
    """The last card the camera sent and what the referee answered, in plain words."""

    card: str
    zone: str
    answer: Answer
    words: str

    def as_dict(self) -> dict[str, str]:
        return {"card": self.card, "zone": self.zone, "answer": self.answer,
                "words": self.words}


def last_sent(scan: Scan, outcome: Outcome) -> LastSent:
    """The heartbeat's ``last`` for a scan the referee answered: refused (with its reason),
    already there (C-9: ``already_there: true``, a card the companion knows lies in that
    pile) or played (the ruling's words)."""
    card = scan.serial or scan.payload
    zone = scan.zone or ""
    answer = outcome.answer if isinstance(outcome.answer, dict) else {}
    name = str(answer.get("name") or card)
    if outcome.status == "refused":
        return LastSent(card, zone, "refused", outcome.message or "refused")
    if answer.get("already_there") is True:
        return LastSent(card, zone, "already there", f"{name} was already there")
    words = outcome.message if outcome.message and outcome.message != "C-9" else ""
    return LastSent(card, zone, "played", words or f"{name} played")


class Heartbeat:
    """Posts ``body()`` through ``sink`` every ``every`` seconds on its own thread.

    ``tick(now)`` does one step (post if due) and is what the thread calls; tests drive it
    with their own clock. Counters: ``sent``, ``dropped`` (not delivered, never retried),
    ``limited`` (429 answers)."""

    def __init__(self, sink: HttpSink, body: Callable[[], dict[str, Any]], *,
                 every: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.sink = sink
        self.body = body
        self.every = every
        self.clock = clock
        self.counts = {"sent": 0, "dropped": 0, "limited": 0, "refused": 0}
        self._due: float | None = None
        self._limited = False  # the last answer was a 429: waiting for its Retry-After
        self._down = False
        self._refused: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self, now: float) -> TickResult:
        """Post one heartbeat if one is due at ``now`` (seconds of ``clock``)."""
        if self._due is not None and now < self._due:
            return "waiting" if self._limited else "not due"
        outcome = self.sink.heartbeat(self.body())
        # Never catch up on missed beats: the next is one period after this one.
        self._due = now + self.every
        self._limited = False
        if outcome.status == "ok":
            self.counts["sent"] += 1
            if self._down:
                log.info("heartbeat: the referee answers again")
                self._down = False
            return "sent"
        if outcome.status == "refused":  # a wrong token, a referee without the endpoint
            self.counts["refused"] += 1
            if outcome.code not in self._refused:
                self._refused.add(outcome.code)
                log.warning("heartbeat refused by the referee: %s", outcome.message)
            return "refused"
        if outcome.http == 429:
            self.counts["limited"] += 1
            self._limited = True
            self._due = now + max(self.every, outcome.retry_after or self.every)
            return "limited"
        self.counts["dropped"] += 1
        if not self._down:
            log.warning("heartbeat not delivered (dropped, not queued): %s", outcome.message)
            self._down = True
        return "dropped"

    def _run(self) -> None:
        while True:  # the first heartbeat goes out at once, however soon it is stopped
            try:
                self.tick(self.clock())
            except Exception as exc:  # a heartbeat must never take the camera down
                log.exception("heartbeat: %s", exc)
            if self._stop.wait(min(0.1, self.every)):
                return

    def start(self) -> Heartbeat:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="heartbeat", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
