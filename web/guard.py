"""What stands between the network and the tables: request bodies, limits, browser headers.

- ``parse_json``: a JSON object with a nesting limit checked *before* parsing (5,000 levels
  of ``[`` made the parser recurse into a 500), strict numbers (no ``NaN``);
- ``takes_body``: the per-endpoint body rule (size, and whether it must be JSON) that the
  app's ``before_request`` hook applies to every write;
- ``RateLimit``: table creation per client address (a sliding window in memory);
- ``security_headers``: the headers every response carries (CSP without inline script,
  no framing, no sniffing, no referrer).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

MAX_JSON_DEPTH = 32
# Strings first (they may hold brackets), then every bracket in order.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")

F = TypeVar("F", bound=Callable[..., Any])


class BodyError(ValueError):
    """A body that is not a JSON object within the limits; ``str`` says why."""


def parse_json(raw: bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON value of ``raw``; raises ``BodyError`` for invalid JSON, ``NaN``/``Infinity``
    or nesting deeper than ``max_depth`` (counted without recursion, before parsing)."""
    depth = deepest = 0
    for m in _BRACKETS.finditer(_STRING.sub(b'""', raw)):
        if m.group() in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > max_depth:
                    raise BodyError(f"the body is nested deeper than {max_depth} levels")
        else:
            depth -= 1

    def constant(name: str) -> Any:
        raise BodyError(f"{name} is not a JSON number")

    try:
        return json.loads(raw, parse_constant=constant)
    except BodyError:
        raise
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BodyError(f"the body is not valid JSON: {str(exc)[:120]}") from None


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,17})?(?:[eE][+-]?[0-9]{1,3})?")


def query_number(raw: str | None) -> Any:
    """A query field that should be a number: ``None`` if absent, an ``int`` or finite
    ``float`` if it is one in JSON's spelling, else the text itself for the caller to
    refuse by name. Nothing is parsed as JSON (no nesting, no recursion)."""
    if raw is None or len(raw) > 40 or not _NUMBER.fullmatch(raw):
        return raw
    if "." in raw or "e" in raw or "E" in raw:
        value = float(raw)
        return value if value == value and abs(value) != float("inf") else raw
    return int(raw)


def takes_body(max_bytes: int, *, json_only: bool = True) -> Callable[[F], F]:
    """Mark a view as taking bodies up to ``max_bytes`` (default: the app's
    ``MAX_CONTENT_LENGTH``), and, with ``json_only=False``, bodies that are not JSON (a
    photo upload). Put it under the route decorator::

        @bp.post("/tables/<table_id>/photos")
        @takes_body(8 * 1024 * 1024, json_only=False)
        def photo(table_id): ...
    """
    def mark(view: F) -> F:
        view.body_limit = max_bytes  # type: ignore[attr-defined]
        view.json_only = json_only  # type: ignore[attr-defined]
        return view
    return mark


def body_rule(view: Any, default_limit: int) -> tuple[int, bool]:
    """``(max bytes, JSON only)`` for a view function (see ``takes_body``)."""
    return (int(getattr(view, "body_limit", default_limit)),
            bool(getattr(view, "json_only", True)))


def has_body_rule(view: Any) -> bool:
    """Whether a view registered its own rule with ``takes_body``."""
    return hasattr(view, "body_limit")


class RateLimit:
    """At most ``count`` hits per ``window`` seconds per key; thread-safe, bounded memory."""

    def __init__(self, count: int, window: float, max_keys: int = 10_000) -> None:
        self.count = count
        self.window = window
        self.max_keys = max_keys
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, now: float | None = None) -> float:
        """Record a hit; 0 if allowed, else the seconds until one more would be."""
        now = time.monotonic() if now is None else now
        with self._lock:
            hits = self._hits.get(key)
            if hits is None:
                if len(self._hits) >= self.max_keys:  # forget the idle ones first
                    for k in [k for k, h in self._hits.items()
                              if not h or h[-1] <= now - self.window]:
                        del self._hits[k]
                hits = self._hits[key] = deque()
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.count:
                return max(0.0, hits[0] + self.window - now)
            hits.append(now)
            return 0.0


def content_security_policy(camera_preview: str | None) -> str:
    """The pages' CSP: scripts, styles and connections from this server only; images also
    as ``data:`` (the favicon, QR codes), ``blob:`` (a photo the phone is about to send,
    shown from the file the player picked) and from the camera's preview server if set."""
    img = "'self' data: blob:"
    if camera_preview:
        parts = urlsplit(camera_preview)
        if parts.scheme in ("http", "https") and parts.netloc:
            img += f" {parts.scheme}://{parts.netloc}"
    return ("default-src 'self'; script-src 'self'; style-src 'self'; "
            f"img-src {img}; connect-src 'self'; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


def security_headers(camera_preview: str | None) -> dict[str, str]:
    return {
        "Content-Security-Policy": content_security_policy(camera_preview),
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
