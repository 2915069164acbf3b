"""The camera's health (issue 26 §5): the table camera says once a second how it watches.

``POST /api/tables/<t>/camera`` (the camera token only) with ``{"fps": number, "mat":
bool, "cards": int, "problems": [text], "last": null | {"card", "zone", "answer",
"words"}}`` answers ``204``; a body over ``MAX_BODY`` bytes ``413``; more than
``RATE`` heartbeats a second for one table ``429`` with ``Retry-After``; a field that is
missing, of the wrong type or out of range ``400 bad_heartbeat`` naming it.

The latest heartbeat of each table is kept in memory (it is not a play: nothing is logged,
the table's version does not move) and pushed on the live stream of the referee's page and
the big screen: the referee reads all of it and the time since it came (``age``); the big
screen and everyone else only whether the camera is on (the last card's serial is the
referee's, C-7). ``GET`` gives the same per token. No heartbeat for ``STOPPED_AFTER``
seconds: the camera is off ("the camera stopped" on the referee page).
"""

from __future__ import annotations

import json
import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask

from companion import names
from companion.errors import CompanionError
from companion.zones import parse_zone
from web.guard import RateLimit
from web.table import Refused, Viewer

MAX_BODY = 4096  # bytes: a heartbeat is a few hundred
RATE = 5  # heartbeats a second per table (the camera sends one)
STOPPED_AFTER = 5.0  # seconds without a heartbeat: the camera stopped
MAX_FPS = 240.0
MAX_CARDS = 200
MAX_PROBLEMS = 10
MAX_PROBLEM = 200
MAX_CARD = 100
MAX_WORDS = 300
FIELDS = frozenset({"fps", "mat", "cards", "problems", "last"})
LAST_FIELDS = frozenset({"card", "zone", "answer", "words"})
ANSWERS = ("played", "already there", "refused")


@dataclass(frozen=True)
class Beat:
    """One heartbeat as received: its fields, when it came (monotonic clock), its number."""

    fps: float
    mat: bool
    cards: int
    problems: tuple[str, ...]
    last: dict[str, str] | None
    at: float
    seq: int

    def age(self, now: float | None = None) -> float:
        return max(0.0, (time.monotonic() if now is None else now) - self.at)

    def seen_by(self, viewer: Viewer, now: float | None = None) -> dict[str, Any]:
        """What ``viewer`` may read of it: the referee and the camera all of it, anyone else
        only whether the camera is on."""
        age = self.age(now)
        on = age < STOPPED_AFTER
        if viewer.role not in ("host", "camera"):
            return {"on": on}
        return {"on": on, "age": round(age, 1), "stopped_after": STOPPED_AFTER,
                "fps": self.fps, "mat": self.mat, "cards": self.cards,
                "problems": list(self.problems), "last": self.last}


class Health:
    """The latest heartbeat per table, and the rate each table sends them at."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._beats: dict[str, Beat] = {}
        self._seq = 0
        self.rate = RateLimit(RATE, 1.0)

    def record(self, table_id: str, fields: dict[str, Any]) -> Beat:
        with self._lock:
            self._seq += 1
            beat = Beat(**fields, at=time.monotonic(), seq=self._seq)
            self._beats[table_id] = beat
            return beat

    def latest(self, table_id: str) -> Beat | None:
        with self._lock:
            return self._beats.get(table_id)

    def message(self, table_id: str, viewer: Viewer, sent: int) -> tuple[str | None, int]:
        """The stream message (``event: camera``) of the newest heartbeat for ``viewer``'s
        page if it is newer than the one numbered ``sent``; and the number sent now. Only the
        referee's page and the big screen hear of the camera."""
        if viewer.role not in ("host", "public"):
            return None, sent
        beat = self.latest(table_id)
        if beat is None or beat.seq == sent:
            return None, sent
        data = json.dumps(beat.seen_by(viewer), separators=(",", ":"))
        return f"event: camera\ndata: {data}\n\n", beat.seq


def health(app: Flask) -> Health:
    found: Health = app.extensions.setdefault("companion_camera_health", Health())
    return found


# -- the heartbeat's fields --------------------------------------------------------------
def _bad(message: str) -> Refused:
    return Refused(f"heartbeat: {message}", code="bad_heartbeat", status=400)


def _text(value: Any, name: str, limit: int, *, empty: bool = False) -> str:
    if empty and value == "":
        return ""
    why = names.problem(value, limit)
    if why is not None:
        raise _bad(f"{name} {why}")
    return str(value)


def _last(value: Any, players: int) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _bad(f"last must be null or an object with {', '.join(sorted(LAST_FIELDS))}, "
                   f"got {names.shown(value)}")
    keys = set(value)
    if keys != LAST_FIELDS:
        missing, extra = sorted(LAST_FIELDS - keys), sorted(keys - LAST_FIELDS)
        raise _bad(f"last has no field {names.shown(extra[0], limit=40)}" if extra else
                   f"last needs {', '.join(missing)}")
    answer = value["answer"]
    if answer not in ANSWERS:
        raise _bad(f"last.answer must be one of {', '.join(repr(a) for a in ANSWERS)}, got "
                   f"{names.shown(answer, limit=40)}")
    try:
        zone = str(parse_zone(value["zone"], players))
    except CompanionError as exc:
        raise _bad(f"last.zone: {exc.plain}") from None
    return {"card": _text(value["card"], "last.card", MAX_CARD), "zone": zone,
            "answer": str(answer), "words": _text(value["words"], "last.words", MAX_WORDS,
                                                  empty=True)}


def parse_beat(data: Any, players: int) -> dict[str, Any]:
    """The fields of a heartbeat body; raises ``Refused`` (400 ``bad_heartbeat``) naming
    the first field that is missing, unknown, of the wrong type or out of range."""
    if not isinstance(data, dict):
        raise _bad(f"the body must be a JSON object, got {type(data).__name__}")
    extra = sorted(set(data) - FIELDS)
    if extra:
        raise _bad(f"there is no field {names.shown(extra[0], limit=40)}; the fields are "
                   f"{', '.join(sorted(FIELDS))}")
    for need in ("fps", "mat", "cards"):
        if need not in data:
            raise _bad(f"{need} is missing")
    fps = data["fps"]
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not math.isfinite(fps) \
            or not 0 <= fps <= MAX_FPS:
        raise _bad(f"fps must be a number 0-{MAX_FPS:g}, got {names.shown(fps, limit=40)}")
    if not isinstance(data["mat"], bool):
        raise _bad(f"mat must be true or false, got {names.shown(data['mat'], limit=40)}")
    cards = data["cards"]
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= MAX_CARDS:
        raise _bad(f"cards must be a whole number 0-{MAX_CARDS}, got "
                   f"{names.shown(cards, limit=40)}")
    problems = data.get("problems", [])
    if not isinstance(problems, list) or len(problems) > MAX_PROBLEMS:
        raise _bad(f"problems must be a list of at most {MAX_PROBLEMS} sentences, got "
                   f"{names.shown(problems, limit=40)}")
    said = tuple(_text(p, f"problems[{i}]", MAX_PROBLEM) for i, p in enumerate(problems))
    return {"fps": round(float(fps), 1), "mat": data["mat"], "cards": cards,
            "problems": said, "last": _last(data.get("last"), players)}
