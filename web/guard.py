"""What stands between the network and the tables: request bodies, limits, browser headers.

- ``parse_json``: a JSON object with a nesting limit checked *before* parsing (5,000 levels
  of ``[`` made the parser recurse into a 500), strict numbers (no ``NaN``);
- ``takes_body``: the per-endpoint body rule (size, and whether it must be JSON) that the
  app's ``before_request`` hook applies to every write;
- ``RateLimit``: table creation per client address (a sliding window, in the store's
  database when it has one: every process counts the same);
- ``security_headers``: the headers every response carries (CSP without inline script,
  no framing, no sniffing, no referrer);
- ``DecodeGate``: photo decoding, one per core in low-priority threads, a short queue,
  ``503`` beyond (issue 19 §2); ``query_number``: a query field read as a number;
- ``ClientAddress``: each phone's own address behind the TLS relay or a trusted proxy.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

MAX_JSON_DEPTH = 32
# Strings first (they may hold brackets), then every bracket in order.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


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


class CreationStore(Protocol):
    """A store that counts table creations per client address in its database, so that
    every process sharing it counts the same (issue 27 §10): ``web.store.Store`` and
    ``web.pgstore.PgStore``."""

    def creation_hit(self, client: str, count: int, window: float, now: float,
                     total: int | None = None) -> tuple[float, str]: ...

    def creation_made(self, client: str, table_id: str) -> None: ...

    def live_made(self, client: str, since: float) -> int: ...


def creation_limit(mine: int, newest: list[float], others: int, all_hits: int,
                   oldest: float, count: int, window: float, now: float, total: int | None
                   ) -> tuple[float, str]:
    """Whether one more table may be made (issue 27 §10, §12): ``(0, "")``, or the
    seconds to wait and the words naming the limit reached. ``mine``: this address's
    creations within ``window``, ``newest``: the times of its last ``count`` of them,
    newest first; ``others``: other addresses that made one within it;
    ``all_hits``/``oldest``: every address's. An address may make ``count`` at most, and
    no more than its ``fair_share`` of what the other addresses leave of ``total`` (so it
    shrinks as more addresses come, and a newcomer may make one while any is left); the
    server ``total`` in all."""
    minutes = f"{window / 60:g} minutes"
    # An equal part of what the other addresses leave, with a part kept for a newcomer.
    allowed = count if total is None else min(
        count, fair_share(max(0, total - (all_hits - mine)), others))
    if mine >= allowed:
        # One more once all but allowed - 1 of its creations are out of the window.
        wait = max(0.0, newest[allowed - 1] + window - now)
        most = "the most" if allowed == count else (
            f"its share of the {total} the server makes while {others + 1} devices make "
            "them")
        return wait, f"this device made {mine} tables in the last {minutes}, {most}"
    if total is not None and all_hits >= total:
        return (max(0.0, oldest + window - now),
                f"the server made {total} tables in the last {minutes}, its most")
    return 0.0, ""


class RateLimit:
    """At most ``count`` hits per ``window`` seconds per key; thread-safe, bounded memory.

    With a ``store`` the hits are counted in its database instead (one count for every
    process on it; issue 27 §10), and ``made``/``live`` count the tables a key made that
    are still in play there; without one ``live`` is ``None`` (the caller counts)."""

    def __init__(self, count: int, window: float, max_keys: int = 10_000,
                 store: CreationStore | None = None, total: int | None = None) -> None:
        self.count = count
        self.window = window
        self.total = total
        self.max_keys = max_keys
        self.store = store
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, now: float | None = None) -> float:
        """Record a hit; 0 if allowed, else the seconds until one more would be."""
        return self.check(key, now)[0]

    def check(self, key: str, now: float | None = None) -> tuple[float, str]:
        """Record a hit: ``(0, "")`` if allowed, else the seconds until one more would
        be and the words naming the limit (``creation_limit``)."""
        if self.store is not None:
            return self.store.creation_hit(key, self.count, self.window,
                                           time.time() if now is None else now, self.total)
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
                return creation_limit(len(hits), list(reversed(hits)), 0, 0, now,
                                      self.count, self.window, now, None)
            hits.append(now)
            return 0.0, ""

    def made(self, key: str, table_id: str) -> None:
        """The table the last hit of ``key`` made (for ``live``)."""
        if self.store is not None:
            self.store.creation_made(key, table_id)

    def live(self, key: str, idle_after: float) -> int | None:
        """Tables ``key`` made that are still in play in the store (not deleted, not
        finished, changed within ``idle_after`` seconds); ``None`` without a store."""
        if self.store is None:
            return None
        return self.store.live_made(key, time.time() - idle_after)


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


class Busy(Exception):
    """Every photo decode slot is taken and the queue is full: answer ``503`` with
    ``Retry-After: retry_after``; ``str`` says so in plain words."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Gone(Exception):
    """The client hung up before its photo was read: nothing more is done for it."""


def cores() -> int:
    """The cores this process may run on (a container's or taskset's share, not the host's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class TooMany(Busy):
    """One address already holds its share of the photo places: answer ``429`` with
    ``Retry-After``; the others' photos are read meanwhile (issue 27 §7)."""


def fair_share(total: int, others: int) -> int:
    """What one address may hold of ``total`` places while ``others`` other addresses hold
    some: an equal part, with one part kept for a newcomer, never less than one. One
    address alone gets half, two get a third each, and so on (issue 27 §7, §12)."""
    return max(1, total // (others + 2))


class DecodeGate:
    """Photo and frame decoding, which one upload could make costly (issue 19 §2), shared
    fairly between addresses (issue 27 §7).

    At most ``slots`` decodes run at once (default: one per core), in threads of their own
    whose priority is lowered on Linux (nice +10), so a phone's ordinary request is served
    first while photos are read; ``waiting`` more (default as many) may queue up to
    ``wait_s`` seconds. One address holds at most its ``fair_share`` of the
    ``slots + waiting`` places (``TooMany``, 429) and of the running decodes; beyond every
    place the answer is ``Busy`` (503), both at once, before the body is read. A queued
    photo whose address runs fewer decodes goes first, then the one whose address was
    served longest ago (round robin), then the oldest: a phone waits for at most one
    decode however many photos another address sends. A request holds its
    body in memory only once admitted, so bodies in memory are at most ``slots +
    waiting``. A queued request whose client hangs up leaves the queue at once (it is
    asked every ``poll_s``) and is never decoded. The threads start with the first photo.
    """

    def __init__(self, slots: int | None = None, waiting: int | None = None,
                 wait_s: float = 4.0, nice: int = 10, poll_s: float = 0.05) -> None:
        self.slots = slots or cores()
        self.waiting = self.slots if waiting is None else waiting
        self.places = self.slots + self.waiting
        self.wait_s = wait_s
        self.nice = nice
        self.poll_s = poll_s
        self._cond = threading.Condition()
        self._held: dict[str, int] = {}  # places held per address
        self._running: dict[str, int] = {}  # decodes running per address
        self._queue: list[tuple[int, str]] = []  # (ticket, address), oldest first
        self._tickets = 0
        self._started: dict[str, int] = {}  # when each address holding places last started
        self._starts = 0
        self._pool: ThreadPoolExecutor | None = None
        # Counts for the bench and tests: answered Busy/TooMany, read, dropped (client gone).
        self.refused = self.decoded = self.dropped = 0
        self.queued = 0  # admitted and waiting for a decode thread

    def _lower_priority(self) -> None:
        if self.nice and sys.platform.startswith("linux"):
            # On Linux a thread id names one thread: only this decode thread is lowered.
            with contextlib.suppress(OSError, AttributeError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)

    def _executor(self) -> ThreadPoolExecutor:
        with self._cond:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.slots, thread_name_prefix="decode",
                                                initializer=self._lower_priority)
            return self._pool

    def share(self, key: str, total: int | None = None) -> int:
        """``key``'s share of ``total`` (default: every place) right now."""
        with self._cond:
            return self._share(key, self.places if total is None else total, self._held)

    @staticmethod
    def _share(key: str, total: int, held: dict[str, int]) -> int:
        return fair_share(total, sum(1 for k, n in held.items() if n > 0 and k != key))

    @contextlib.contextmanager
    def admitted(self, key: str = "") -> Iterator[None]:
        """Hold one of the ``slots + waiting`` places for address ``key`` (read the body
        inside); raises ``TooMany`` when ``key`` holds its share, ``Busy`` when every
        place is held, at once."""
        with self._cond:
            mine = self._held.get(key, 0)
            share = self._share(key, self.places, self._held)
            if mine >= share:
                self.refused += 1
                raise TooMany(f"this device is already sending {mine} photos, its most while "
                              "others send theirs; send the next once one is answered")
            if sum(self._held.values()) >= self.places:
                self.refused += 1
                raise Busy(f"the server is reading {self.places} other photos; send this "
                           "one again in a moment")
            self._held[key] = mine + 1
        try:
            yield
        finally:
            with self._cond:
                self._held[key] -= 1
                if not self._held[key]:
                    del self._held[key]
                    self._started.pop(key, None)
                self._cond.notify_all()

    def _next(self) -> int | None:
        """The ticket that may start now, if any (called holding the lock)."""
        if sum(self._running.values()) >= self.slots:
            return None
        best: tuple[int, int, int] | None = None
        for ticket, key in self._queue:
            running = self._running.get(key, 0)
            if running >= self._share(key, self.slots, self._held):
                continue
            rank = (running, self._started.get(key, 0), ticket)
            if best is None or rank < best:
                best = rank
        return None if best is None else best[2]

    def run(self, work: Callable[[], T], gone: Callable[[], bool] = lambda: False,
            key: str = "") -> T:
        """``work()`` in a decode thread once this request's turn comes within ``wait_s``
        (else ``Busy``); ``gone()`` says whether the client hung up (``Gone``: asked while
        queued and once more before the work starts)."""
        with self._cond:
            self._tickets += 1
            ticket = self._tickets
            self._queue.append((ticket, key))
            self.queued += 1
            end = time.monotonic() + self.wait_s
            try:
                while self._next() != ticket:
                    if gone():
                        self.dropped += 1
                        raise Gone("the client hung up before its photo was read")
                    left = end - time.monotonic()
                    if left <= 0:
                        self.refused += 1
                        raise Busy("the server is busy reading other photos; send this one "
                                   "again in a moment", retry_after=max(1, round(self.wait_s)))
                    self._cond.wait(min(left, self.poll_s))
            finally:
                self._queue.remove((ticket, key))
                self.queued -= 1
                self._cond.notify_all()
            self._running[key] = self._running.get(key, 0) + 1
            self._starts += 1
            self._started[key] = self._starts

        def call() -> T:
            hung_up = gone()
            with self._cond:
                if hung_up:
                    self.dropped += 1
                else:
                    self.decoded += 1
            if hung_up:
                raise Gone("the client hung up before its photo was read")
            return work()

        try:
            return self._executor().submit(call).result()
        finally:
            with self._cond:
                self._running[key] -= 1
                if not self._running[key]:
                    del self._running[key]
                self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


_FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
              "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX", "HTTP_FORWARDED")


def proxy_networks(spec: str | Iterable[str]) -> tuple[IPNetwork, ...]:
    """``"127.0.0.1,::1"`` or ``["10.0.0.0/8"]`` as networks; raises ``ValueError`` naming a
    part that is no address or network."""
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    out = []
    for part in (p.strip() for p in parts):
        if part:
            try:
                out.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(f"{part!r} is not an address or network (like 127.0.0.1 or "
                                 "172.16.0.0/12)") from None
    return tuple(out)


def address_key(addr: str) -> str:
    """The key the caps per client count an address under: an IPv4 address as it is, an
    IPv6 address by its /64 (one phone or home gets a whole /64 and may pick any address
    in it at will: issue 27 §12); anything else as it is."""
    try:
        ip = ipaddress.ip_address(addr.split("%", 1)[0])
    except ValueError:
        return addr
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


class ClientAddress:
    """WSGI middleware: each phone's own address as ``REMOTE_ADDR`` (issue 19 §1), for the
    caps per client (streams, table creation).

    - Behind ``companion serve --tls`` every connection comes from the TLS relay on
      127.0.0.1; ``relay`` maps the relay's port towards waitress to the phone's address
      (filled by ``web.tls.TlsFront``, in this process: nothing a client sends is read).
    - Behind a reverse proxy (``hops`` > 0), ``X-Forwarded-*`` are read (werkzeug's
      ``ProxyFix``) only from a peer in ``trusted`` (default: this machine's 127.0.0.1 and
      ::1); from anyone else they are removed, so a phone that reaches the server directly
      cannot claim another address.
    """

    def __init__(self, app: Any, hops: int = 0,
                 trusted: str | Iterable[str] = "127.0.0.1,::1") -> None:
        from werkzeug.middleware.proxy_fix import ProxyFix

        self.app = app
        self.hops = hops
        self.trusted = proxy_networks(trusted)
        self.relay: dict[int, str] = {}
        self._fix = ProxyFix(app, x_for=hops, x_proto=hops, x_host=hops) if hops else None

    def _trusted(self, addr: str) -> bool:
        try:
            ip = ipaddress.ip_address(addr)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.relay:
            port = str(environ.get("REMOTE_PORT") or "")
            phone = self.relay.get(int(port)) if port.isdigit() else None
            if phone is not None and environ.get("REMOTE_ADDR") == "127.0.0.1":
                environ["REMOTE_ADDR"] = phone
        if self._fix is not None:
            if self._trusted(str(environ.get("REMOTE_ADDR") or "")):
                return self._fix(environ, start_response)
            for name in _FORWARDED:
                environ.pop(name, None)
        return self.app(environ, start_response)
