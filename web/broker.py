"""In-process publish/subscribe for Server-Sent Events: one queue per open stream.

A publish carries only the table's new version; each stream builds the view its own
token may see (so a referee view is never pushed to a seat). A ``notice`` (a refused play)
wakes the streams without a new version: each sends at most a small notice, no snapshot.
One server process only: the queues do not cross processes, which is why ``serve`` runs
one process with many threads (PostgreSQL's NOTIFY carries versions between processes).

Each stream holds one server thread for as long as it is open, so the broker caps them,
in total and per client address (``subscribe`` raises ``StreamsFull``): the threads left
over answer ordinary requests (C-7's table must keep working when a stranger on the Wi-Fi
opens a thousand streams).
"""

from __future__ import annotations

import queue
import threading
from collections import defaultdict

NOTICE = -1  # queued by ``Broker.notice``: something to tell, the same version
CAMERA = -2  # a camera heartbeat (web/camhealth.py): no new version, no notice


class StreamsFull(Exception):
    """No stream for this client now; ``str`` says which cap, ``retry_after`` when to try."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Subscription:
    """One open event stream of one table, opened by ``client`` (an address)."""

    def __init__(self, broker: Broker, table_id: str, client: str = "") -> None:
        self.broker = broker
        self.table_id = table_id
        self.client = client
        self.open = True
        self.ended = False  # its table was deleted
        self.queue: queue.SimpleQueue[int | None] = queue.SimpleQueue()

    def wait(self, timeout: float) -> int | None:
        """The newest version published since the last call, ``NOTICE`` when only notices
        came, or ``None`` on timeout/close.

        Versions queued meanwhile are coalesced: a phone needs only the latest view.
        """
        try:
            version = self.queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if version is None:
            return None
        while True:
            try:
                nxt = self.queue.get_nowait()
            except queue.Empty:
                return version
            if nxt is None:
                return None
            version = max(version, nxt)

    @property
    def closed(self) -> bool:
        return self.broker.closed or self.ended

    def close(self) -> None:
        self.broker.unsubscribe(self)


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self._per_client: dict[str, int] = defaultdict(int)
        self._total = 0
        self.closed = False
        self.refused = 0  # streams refused over a cap since start (bench, logs)

    def subscribe(self, table_id: str, client: str = "", *, max_total: int | None = None,
                  max_per_client: int | None = None, retry_after: int = 10) -> Subscription:
        """A new stream; raises ``StreamsFull`` when ``client`` already holds
        ``max_per_client`` streams or the server ``max_total`` (``None``: no cap)."""
        sub = Subscription(self, table_id, client)
        with self._lock:
            mine = self._per_client.get(client, 0)
            if max_per_client is not None and mine >= max_per_client:
                self.refused += 1
                raise StreamsFull(f"this device already has {max_per_client} live pages "
                                  "open on this server; close one", retry_after)
            if max_total is not None and self._total >= max_total:
                self.refused += 1
                raise StreamsFull(f"the server holds {max_total} live pages, its most; "
                                  "try again shortly", retry_after)
            others = len(self._per_client) - (1 if mine else 0)
            if max_total is not None and mine and (
                    mine >= max(1, (max_total - self._total + mine) // (others + 1))
                    or max_total - self._total <= others + 1):
                # A fair share (issue 27 §12): a device's first page always opens while
                # there is room; more only within an equal part of what the other devices
                # leave, and while every other device and a newcomer can still open one.
                self.refused += 1
                raise StreamsFull(f"this device already has {mine} live pages open, its "
                                  f"share while {others + 1} devices share the server's "
                                  f"{max_total}; close one", retry_after)
            self._subs[table_id].add(sub)
            self._per_client[client] += 1
            self._total += 1
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if not sub.open:
                return
            sub.open = False
            self._subs[sub.table_id].discard(sub)
            if not self._subs[sub.table_id]:
                del self._subs[sub.table_id]
            self._per_client[sub.client] -= 1
            if self._per_client[sub.client] <= 0:
                del self._per_client[sub.client]
            self._total -= 1

    def publish(self, table_id: str, version: int) -> None:
        with self._lock:
            subs = list(self._subs.get(table_id, ()))
        for s in subs:
            s.queue.put(version)

    def notice(self, table_id: str) -> None:
        """Wake the table's streams for a notice (a refused play): no new version."""
        self.publish(table_id, NOTICE)

    def count(self, table_id: str | None = None, *, client: str | None = None) -> int:
        with self._lock:
            if table_id is not None:
                return len(self._subs.get(table_id, ()))
            if client is not None:
                return self._per_client.get(client, 0)
            return self._total

    def end(self, table_id: str) -> None:
        """End every stream of one table (the table was deleted)."""
        with self._lock:
            subs = list(self._subs.get(table_id, ()))
        for s in subs:
            s.ended = True
            s.queue.put(None)

    def close(self) -> None:
        """Wake every stream so it ends (server shutdown)."""
        self.closed = True
        with self._lock:
            subs = [s for group in self._subs.values() for s in group]
        for s in subs:
            s.queue.put(None)
