"""SQLite event store: every table's configuration and its whole log, in WAL mode.

A table is one row in ``tables`` (game, players, options, print runs, tokens as JSON) and
its log is ``records``: one row per event the engine applied (by a seat, the host, the
camera or the companion's own chance), per undo and per timer change, numbered ``seq``
from 1. The table's version is the number of its records, so it only ever grows, undo
included (C-3). An undone event stays in the log with ``voided_by`` = the undo's seq.

Each write is one transaction; with ``synchronous=FULL`` a committed record survives a
``kill -9`` of the server and a power cut. ``scans`` remembers the camera's ``scan_id``
idempotency keys with the answer that was given.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import StaleVersion

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    time REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('event', 'undo', 'timer')),
    who TEXT NOT NULL,
    body TEXT NOT NULL,
    ruling TEXT NOT NULL DEFAULT '',
    public TEXT NOT NULL DEFAULT '',
    voided_by INTEGER,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS scans (
    table_id TEXT NOT NULL REFERENCES tables(id),
    scan_id TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (table_id, scan_id)
);
"""


@dataclass
class Record:
    """One line of a table's log. ``voided_by`` is the seq of the undo that voided it."""

    seq: int
    time: float
    kind: str
    who: str
    body: dict[str, Any]
    ruling: str = ""
    voided_by: int | None = None
    public: str = ""  # the ruling in the words of the public view (history on every page)

    @property
    def voided(self) -> bool:
        return self.voided_by is not None


@dataclass
class StoredTable:
    id: str
    game: str
    config: dict[str, Any]
    created: float
    records: list[Record]
    scans: dict[str, tuple[int, dict[str, Any]]]


class Store:
    """One SQLite database file shared by every request thread (writes serialised)."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False,
                                   isolation_level=None, timeout=10)
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise RuntimeError(f"SQLite at {self.path} refused WAL mode ({mode})")
        if synchronous not in {"FULL", "NORMAL"}:
            raise ValueError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(records)")}
        if "public" not in columns:  # a store made before public rulings were kept
            self._db.execute("ALTER TABLE records ADD COLUMN public TEXT NOT NULL DEFAULT ''")

    @property
    def journal_mode(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_table(self, table_id: str, game: str, config: dict[str, Any], created: float,
                     records: Iterable[Record]) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO tables (id, game, config, created) VALUES (?, ?, ?, ?)",
                       (table_id, game, json.dumps(config), created))
            self._insert(db, table_id, records)

    def append(self, table_id: str, records: Iterable[Record], *,
               void: Iterable[int] = (), voided_by: int | None = None,
               scan: tuple[str, int, dict[str, Any]] | None = None) -> None:
        """Add records (and mark ``void`` seqs voided, remember a scan id) atomically.

        Raises ``StaleVersion`` when another process sharing the file wrote that seq first.
        """
        records = list(records)
        with self._tx() as db:
            try:
                self._insert(db, table_id, records)
            except sqlite3.IntegrityError:
                raise StaleVersion(
                    f"table {table_id!r} changed meanwhile (seq {records[0].seq} was written "
                    "by another server); reload and try again") from None
            for seq in void:
                db.execute("UPDATE records SET voided_by = ? WHERE table_id = ? AND seq = ?",
                           (voided_by, table_id, seq))
            if scan is not None:
                scan_id, status, response = scan
                db.execute("INSERT INTO scans (table_id, scan_id, status, response) "
                           "VALUES (?, ?, ?, ?)",
                           (table_id, scan_id, status, json.dumps(response)))

    @staticmethod
    def _insert(db: sqlite3.Connection, table_id: str, records: Iterable[Record]) -> None:
        db.executemany(
            "INSERT INTO records (table_id, seq, time, kind, who, body, ruling, public, "
            "voided_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, r.seq, r.time, r.kind, r.who, json.dumps(r.body), r.ruling, r.public,
              r.voided_by) for r in records],
        )

    def table_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute(
                "SELECT id FROM tables ORDER BY created, id")]

    def load_table(self, table_id: str) -> StoredTable | None:
        """One table with its whole log, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT id, game, config, created FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
            if row is None:
                return None
            return self._stored(*row)

    def records_after(self, table_id: str, seq: int) -> list[Record]:
        """The records of ``table_id`` numbered above ``seq``, in order (catching up)."""
        with self._lock:
            return self._records(table_id, seq)

    def scan(self, table_id: str, scan_id: str) -> tuple[int, dict[str, Any]] | None:
        """The answer remembered for ``scan_id``, if any."""
        with self._lock:
            row = self._db.execute("SELECT status, response FROM scans WHERE table_id = ? "
                                   "AND scan_id = ?", (table_id, scan_id)).fetchone()
        return (int(row[0]), json.loads(row[1])) if row else None

    def counts(self) -> dict[str, int]:
        """Rows per kind, to verify a migration."""
        with self._lock:
            return {name: int(self._db.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
                    for name in ("tables", "records", "scans")}

    def _records(self, table_id: str, after: int) -> list[Record]:
        return [Record(seq, t, kind, who, json.loads(body), ruling, voided_by, public)
                for seq, t, kind, who, body, ruling, voided_by, public in self._db.execute(
                    "SELECT seq, time, kind, who, body, ruling, voided_by, public "
                    "FROM records WHERE table_id = ? AND seq > ? ORDER BY seq",
                    (table_id, after))]

    def _stored(self, tid: str, game: str, config: str, created: float) -> StoredTable:
        scans = {sid: (status, json.loads(resp)) for sid, status, resp in self._db.execute(
            "SELECT scan_id, status, response FROM scans WHERE table_id = ?", (tid,))}
        return StoredTable(tid, game, json.loads(config), created, self._records(tid, 0),
                           scans)

    def load_all(self) -> list[StoredTable]:
        """Every table with its full log, oldest table first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, config, created FROM tables ORDER BY created, id").fetchall()
            out = [self._stored(*row) for row in rows]
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()
