"""In-process publish/subscribe for Server-Sent Events: one queue per open stream.

A publish carries only the table's new version; each stream builds the view its own
token may see (so a referee view is never pushed to a seat). One server process only:
the queues do not cross processes, which is why ``serve`` runs one process with many
threads.
"""

from __future__ import annotations

import queue
import threading
from collections import defaultdict


class Subscription:
    """One open event stream of one table."""

    def __init__(self, broker: Broker, table_id: str) -> None:
        self.broker = broker
        self.table_id = table_id
        self.queue: queue.SimpleQueue[int | None] = queue.SimpleQueue()

    def wait(self, timeout: float) -> int | None:
        """The newest version published since the last call, or ``None`` on timeout/close.

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
        return self.broker.closed

    def close(self) -> None:
        self.broker.unsubscribe(self)


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = defaultdict(set)
        self.closed = False

    def subscribe(self, table_id: str) -> Subscription:
        sub = Subscription(self, table_id)
        with self._lock:
            self._subs[table_id].add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs[sub.table_id].discard(sub)

    def publish(self, table_id: str, version: int) -> None:
        with self._lock:
            subs = list(self._subs.get(table_id, ()))
        for s in subs:
            s.queue.put(version)

    def count(self, table_id: str | None = None) -> int:
        with self._lock:
            if table_id is not None:
                return len(self._subs.get(table_id, ()))
            return sum(len(s) for s in self._subs.values())

    def close(self) -> None:
        """Wake every stream so it ends (server shutdown)."""
        self.closed = True
        with self._lock:
            subs = [s for group in self._subs.values() for s in group]
        for s in subs:
            s.queue.put(None)
