"""SQLite event store: every table's configuration and its whole log, in WAL mode.

A table is one row in ``tables`` (game, players, options, print runs, tokens as JSON) and
its log is ``records``: one row per event the engine applied (by a seat, the host, the
camera or the companion's own chance), per undo and per timer change, numbered ``seq``
from 1. The table's version is the number of its records, so it only ever grows, undo
included (C-3). An undone event stays in the log with ``voided_by`` = the undo's seq.

Each write is one transaction; with ``synchronous=FULL`` a committed record survives a
``kill -9`` of the server and a power cut. ``scans`` remembers ``scan_id``
idempotency keys with the answer that was given, per sender (``viewer``: ``camera``,
``host``, ``seat:<n>``): a repeated key is answered only to the token that sent it (C-7).

A table the host deletes is archived, not erased: its row gets ``deleted`` (the time) and
its records stay, so the log can still be read from the file; it is no longer loaded.

A write that SQLite cannot make (a full disk, a read-only data dir) raises
``StorageUnavailable`` after rolling back: nothing is half-written, and the next write
tries again.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.errors import CompanionError, StaleVersion
from companion.names import escaped
from companion.registry import find_rules
from web.guard import creation_limit

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL,
    deleted REAL,
    finished INTEGER NOT NULL DEFAULT 0,
    next_table TEXT
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
    viewer TEXT NOT NULL,
    scan_id TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (table_id, viewer, scan_id)
);
CREATE TABLE IF NOT EXISTS creations (
    client TEXT NOT NULL,
    at REAL NOT NULL,
    table_id TEXT
);
CREATE INDEX IF NOT EXISTS creations_client ON creations (client, at);
CREATE INDEX IF NOT EXISTS creations_at ON creations (at);
"""
def _creations(db: Any, mark: str, client: str, window: float, now: float, count: int
               ) -> tuple[int, list[float], int, int, float]:
    """``(client's creations, the newest count of them, other addresses, all creations,
    oldest)`` within ``window`` (``mark``: the driver's parameter mark, ``?`` or ``%s``)."""
    since = now - window
    row = db.execute(f"SELECT count(*) FROM creations WHERE client = {mark} AND at > {mark}",
                     (client, since)).fetchone()
    mine = int(row[0] or 0)
    newest = [float(r[0]) for r in db.execute(
        f"SELECT at FROM creations WHERE client = {mark} AND at > {mark} ORDER BY at DESC "
        f"LIMIT {mark}", (client, since, count)).fetchall()]
    row = db.execute(f"SELECT count(DISTINCT client), count(*), min(at) FROM creations "
                     f"WHERE at > {mark}", (since,)).fetchone()
    clients, hits, oldest = (int(row[0] or 0), int(row[1] or 0), float(row[2] or now))
    return mine, newest, clients - (1 if mine else 0), hits, oldest


LIVE_MADE = (
    "SELECT count(*) FROM creations c JOIN tables t ON t.id = c.table_id "
    "WHERE c.client = %s AND t.deleted IS NULL AND NOT t.finished AND coalesce("
    "(SELECT time FROM records r WHERE r.table_id = t.id ORDER BY seq DESC LIMIT 1), "
    "t.created) > %s")
# Table creations per client address are counted in the database (issue 27 §10: every
# process sharing it counts the same); a row is kept this long at least (the live tables
# a client made are counted from the rows of the last day).
CREATIONS_KEPT = 24 * 3600.0

# Scan ids of a store made before they belonged to their sender: kept, under a sender no
# token is, so no one gets those answers again (a repeat is judged afresh).
MIGRATE_SCANS = """
ALTER TABLE scans RENAME TO scans_before_senders;
CREATE TABLE scans (
    table_id TEXT NOT NULL REFERENCES tables(id),
    viewer TEXT NOT NULL,
    scan_id TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    PRIMARY KEY (table_id, viewer, scan_id)
);
INSERT INTO scans (table_id, viewer, scan_id, status, response)
    SELECT table_id, 'unknown', scan_id, status, response FROM scans_before_senders;
DROP TABLE scans_before_senders;
"""

ScanKey = tuple[str, str]  # (viewer key, scan_id)


# The lobby's page of tables, newest first, without reading the whole table.
INDEXES = """
CREATE INDEX IF NOT EXISTS tables_in_play ON tables (created DESC, id DESC)
    WHERE deleted IS NULL;
"""
LIST_PAGE = 200  # the most tables one page of the list holds


class StorageUnavailable(CompanionError):
    """SQLite could not write (disk full, read-only data dir); nothing was written."""

    code = "storage_unavailable"
    status = 503


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
    scans: dict[ScanKey, tuple[int, dict[str, Any]]]
    finished: bool = False  # as the table's row says (for the list); replay decides play


@dataclass(frozen=True)
class Listed:
    """One line of the table list, read without replaying the table."""

    id: str
    game: str
    config: dict[str, Any]
    created: float
    version: int
    changed: float
    finished: bool

    @property
    def players(self) -> list[str]:
        players = self.config.get("players")  # stored before names were checked: escaped
        return [escaped(p) for p in players] if isinstance(players, list) else []

    @property
    def title(self) -> str:
        try:
            return find_rules(self.game).title
        except (CompanionError, ImportError):
            return self.game


@dataclass
class DamagedTable:
    """A stored table whose rows cannot be read back (a damaged record)."""

    id: str
    game: str
    why: str


class EventStore(Protocol):
    """What the web needs of a store; ``Store`` (SQLite) and ``web.pgstore.PgStore``
    (PostgreSQL) both provide it, and ``tests/web/test_store_contract.py`` holds both to it.

    ``append`` raises ``StaleVersion`` when a record's seq is taken (another process wrote
    first) and ``StorageUnavailable`` when nothing can be written; either way nothing is.
    """

    @property
    def journal_mode(self) -> str: ...

    def create_table(self, table_id: str, game: str, config: dict[str, Any], created: float,
                     records: Iterable[Record]) -> None: ...

    def append(self, table_id: str, records: Iterable[Record], *,
               void: Iterable[int] = (), voided_by: int | None = None,
               scan: tuple[ScanKey, int, dict[str, Any]] | None = None,
               finished: bool | None = None) -> None: ...

    def delete_table(self, table_id: str, when: float) -> None: ...

    def set_seat_tokens(self, table_id: str, tokens: list[str]) -> None: ...

    def seat_tokens(self, table_id: str) -> list[str] | None: ...

    def deleted_ids(self) -> dict[str, float]: ...

    # Table creations per client address, for every process (``web.guard.CreationStore``).
    def creation_hit(self, client: str, count: int, window: float, now: float,
                     total: int | None = None) -> tuple[float, str]: ...

    def creation_made(self, client: str, table_id: str) -> None: ...

    def live_made(self, client: str, since: float) -> int: ...

    def table_ids(self) -> list[str]: ...

    def list_tables(self, limit: int, before: tuple[float, str] | None = None
                    ) -> list[Listed]: ...

    def table_status(self, table_id: str) -> tuple[float | None, str | None] | None: ...

    def load_table(self, table_id: str, *, archived: bool = False
                   ) -> StoredTable | DamagedTable | None: ...

    def load_all(self) -> list[StoredTable | DamagedTable]: ...

    def records_after(self, table_id: str, seq: int) -> list[Record]: ...

    def scan(self, table_id: str, key: ScanKey) -> tuple[int, dict[str, Any]] | None: ...

    def counts(self) -> dict[str, int]: ...

    def close(self) -> None: ...


def private_file(path: Path) -> None:
    """Make the database file (and an older run's ``-wal``/``-shm``) readable by its owner
    only before SQLite opens it: it holds every token (issue 19 §6). SQLite gives the WAL
    files it makes the database file's mode, so they follow. A new folder is ``0700``."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for suffix in ("", "-wal", "-shm"):
        part = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            if part.stat().st_mode & 0o077:
                os.chmod(part, 0o600)


class Store:
    """One SQLite database file shared by every request thread (writes serialised)."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        self.path = Path(path)
        private_file(self.path)
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
        self._migrate()

    def _migrate(self) -> None:
        """Bring a store made by an older version up to this schema, keeping every row."""
        def columns(table: str) -> set[str]:
            return {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}

        if "public" not in columns("records"):  # a store made before public rulings
            self._db.execute("ALTER TABLE records ADD COLUMN public TEXT NOT NULL DEFAULT ''")
        if "deleted" not in columns("tables"):  # before hosts could delete tables
            self._db.execute("ALTER TABLE tables ADD COLUMN deleted REAL")
        if "finished" not in columns("tables"):  # before the list was read from the store
            self._db.execute("ALTER TABLE tables ADD COLUMN finished INTEGER NOT NULL "
                             "DEFAULT 0")
        if "next_table" not in columns("tables"):  # "play again" was kept in memory only
            self._db.execute("ALTER TABLE tables ADD COLUMN next_table TEXT")
            # Each table's pages follow to the newest table played again from it.
            self._db.execute(
                "UPDATE tables SET next_table = (SELECT n.id FROM tables n WHERE "
                "json_extract(n.config, '$.follows') = tables.id ORDER BY n.created DESC "
                "LIMIT 1)")
        self._db.executescript(INDEXES)
        if "viewer" not in columns("scans"):  # before scan ids belonged to their sender
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for stmt in MIGRATE_SCANS.split(";"):
                    if stmt.strip():
                        self._db.execute(stmt)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @property
    def journal_mode(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA journal_mode").fetchone()[0])

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; raises ``StorageUnavailable`` (rolled back) when SQLite
        cannot write."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except (sqlite3.OperationalError, sqlite3.DatabaseError, OSError) as exc:
                if isinstance(exc, sqlite3.IntegrityError):
                    raise
                raise StorageUnavailable(
                    f"the server cannot save to its data directory now ({exc}); "
                    "nothing was changed, try again when it has space") from None

    def create_table(self, table_id: str, game: str, config: dict[str, Any], created: float,
                     records: Iterable[Record]) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO tables (id, game, config, created) VALUES (?, ?, ?, ?)",
                       (table_id, game, json.dumps(config), created))
            self._insert(db, table_id, records)
            if isinstance(config.get("follows"), str):  # played again: its pages follow
                db.execute("UPDATE tables SET next_table = ? WHERE id = ?",
                           (table_id, config["follows"]))

    def append(self, table_id: str, records: Iterable[Record], *,
               void: Iterable[int] = (), voided_by: int | None = None,
               scan: tuple[ScanKey, int, dict[str, Any]] | None = None,
               finished: bool | None = None) -> None:
        """Add records (and mark ``void`` seqs voided, remember a scan id, note whether the
        game is over for the list) atomically.

        Raises ``StaleVersion`` when another process sharing the file wrote that seq first.
        """
        records = list(records)
        try:
            with self._tx() as db:
                self._insert(db, table_id, records)
                for seq in void:
                    db.execute("UPDATE records SET voided_by = ? WHERE table_id = ? AND "
                               "seq = ?", (voided_by, table_id, seq))
                if scan is not None:
                    (viewer, scan_id), status, response = scan
                    db.execute("INSERT INTO scans (table_id, viewer, scan_id, status, "
                               "response) VALUES (?, ?, ?, ?, ?)",
                               (table_id, viewer, scan_id, status, json.dumps(response)))
                if finished is not None:
                    db.execute("UPDATE tables SET finished = ? WHERE id = ?",
                               (int(finished), table_id))
        except sqlite3.IntegrityError:
            raise StaleVersion(
                f"table {table_id!r} changed meanwhile (seq {records[0].seq if records else '?'} "
                "was written by another server); reload and try again") from None

    def delete_table(self, table_id: str, when: float) -> None:
        """Archive a table: it is no longer loaded; its rows stay in the file."""
        with self._tx() as db:
            db.execute("UPDATE tables SET deleted = ? WHERE id = ?", (when, table_id))

    # A re-issued seat (issue 18 §5): the table's configuration keeps the seat tokens.
    def set_seat_tokens(self, table_id: str, tokens: list[str]) -> None:
        """Store a table's seat tokens (one changed by a re-issue) in its configuration."""
        with self._tx() as db:
            row = db.execute("SELECT config FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise StorageUnavailable(f"table {table_id!r} is not stored; nothing was changed")
            config = _object(row[0])
            config["seat_tokens"] = list(tokens)
            db.execute("UPDATE tables SET config = ? WHERE id = ?",
                       (json.dumps(config), table_id))

    def seat_tokens(self, table_id: str) -> list[str] | None:
        """A table's stored seat tokens (``None``: no such table)."""
        with self._lock:
            row = self._db.execute("SELECT config FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
        return list(_object(row[0])["seat_tokens"]) if row else None

    def deleted_ids(self) -> dict[str, float]:
        """Archived tables: id -> when deleted."""
        with self._lock:
            return {tid: when for tid, when in self._db.execute(
                "SELECT id, deleted FROM tables WHERE deleted IS NOT NULL")}

    # Table creations per client address (``web.guard.RateLimit`` with a store).
    def creation_hit(self, client: str, count: int, window: float, now: float,
                     total: int | None = None) -> tuple[float, str]:
        """Count one creation by ``client`` at ``now`` unless a limit is reached
        (``web.guard.creation_limit``): ``(0, "")``, else the wait and the words."""
        with self._tx() as db:
            db.execute("DELETE FROM creations WHERE at <= ?",
                       (now - max(window, CREATIONS_KEPT),))
            found = _creations(db, "?", client, window, now, count)
            wait, words = creation_limit(*found, count, window, now, total)
            if not wait:
                db.execute("INSERT INTO creations (client, at) VALUES (?, ?)", (client, now))
            return wait, words

    def creation_made(self, client: str, table_id: str) -> None:
        """The table ``client``'s last counted creation made."""
        with self._tx() as db:
            db.execute("UPDATE creations SET table_id = ? WHERE rowid = (SELECT rowid FROM "
                       "creations WHERE client = ? AND table_id IS NULL ORDER BY at DESC "
                       "LIMIT 1)", (table_id, client))

    def live_made(self, client: str, since: float) -> int:
        """Tables ``client`` made that are in play: not deleted, not finished, changed
        after ``since``."""
        with self._lock:
            row = self._db.execute(LIVE_MADE.replace("%s", "?"), (client, since)).fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def _insert(db: sqlite3.Connection, table_id: str, records: Iterable[Record]) -> None:
        db.executemany(
            "INSERT INTO records (table_id, seq, time, kind, who, body, ruling, public, "
            "voided_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, r.seq, r.time, r.kind, r.who, json.dumps(r.body), r.ruling, r.public,
              r.voided_by) for r in records],
        )

    def load_all(self) -> list[StoredTable | DamagedTable]:
        """Every table still in play with its full log, oldest table first; a table whose
        rows cannot be decoded comes back as a ``DamagedTable`` (the others still load)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, config, created, finished FROM tables WHERE deleted IS NULL "
                "ORDER BY created, id").fetchall()
            out: list[StoredTable | DamagedTable] = []
            for tid, game, config, created, finished in rows:
                try:
                    out.append(self._load(tid, game, config, created, finished))
                except (ValueError, TypeError, sqlite3.DatabaseError) as exc:
                    out.append(DamagedTable(str(tid), str(game),
                                            f"a stored record cannot be read: "
                                            f"{type(exc).__name__}"))
        return out

    def table_ids(self) -> list[str]:
        """The tables still in play, oldest first."""
        with self._lock:
            return [r[0] for r in self._db.execute(
                "SELECT id FROM tables WHERE deleted IS NULL ORDER BY created, id")]

    def list_tables(self, limit: int, before: tuple[float, str] | None = None
                    ) -> list[Listed]:
        """Up to ``limit`` tables still in play, newest first, older than ``before``
        (``(created, id)`` of the last one of the previous page)."""
        where = ""
        args: list[Any] = [min(max(1, limit), LIST_PAGE)]
        if before is not None:
            where = "AND (created, id) < (?, ?)"
            args = [before[0], before[1], *args]
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, config, created, finished, "
                "(SELECT seq FROM records r WHERE r.table_id = t.id ORDER BY seq DESC LIMIT 1),"
                "(SELECT time FROM records r WHERE r.table_id = t.id ORDER BY seq DESC LIMIT 1)"
                f" FROM tables t WHERE deleted IS NULL {where} "
                "ORDER BY created DESC, id DESC LIMIT ?", args).fetchall()
        return [listed(*row) for row in rows]

    def table_status(self, table_id: str) -> tuple[float | None, str | None] | None:
        """``(deleted, next_table)`` of a stored table, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT deleted, next_table FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def load_table(self, table_id: str, *, archived: bool = False
                   ) -> StoredTable | DamagedTable | None:
        """One table still in play (or, ``archived``, also one its host deleted) with its
        whole log, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT id, game, config, created, finished FROM tables "
                                   "WHERE id = ? AND (deleted IS NULL OR ?)",
                                   (table_id, archived)).fetchone()
            if row is None:
                return None
            try:
                return self._load(*row)
            except (ValueError, TypeError, sqlite3.DatabaseError) as exc:
                return DamagedTable(str(row[0]), str(row[1]), f"a stored record cannot be "
                                    f"read: {type(exc).__name__}")

    def records_after(self, table_id: str, seq: int) -> list[Record]:
        """The records of ``table_id`` numbered above ``seq``, in order (catching up)."""
        with self._lock:
            return self._records(table_id, seq)

    def scan(self, table_id: str, key: ScanKey) -> tuple[int, dict[str, Any]] | None:
        """The answer remembered for a sender's scan id, if any."""
        with self._lock:
            row = self._db.execute("SELECT status, response FROM scans WHERE table_id = ? "
                                   "AND viewer = ? AND scan_id = ?", (table_id, *key)).fetchone()
        return (int(row[0]), _object(row[1])) if row else None

    def counts(self) -> dict[str, int]:
        """Rows per kind, to verify a migration."""
        with self._lock:
            return {name: int(self._db.execute(f"SELECT count(*) FROM {name}").fetchone()[0])
                    for name in ("tables", "records", "scans")}

    def _records(self, tid: str, after: int) -> list[Record]:
        return [
            Record(int(seq), float(t), str(kind), str(who), _object(body), str(ruling),
                   voided_by, str(public))
            for seq, t, kind, who, body, ruling, voided_by, public in self._db.execute(
                "SELECT seq, time, kind, who, body, ruling, voided_by, public "
                "FROM records WHERE table_id = ? AND seq > ? ORDER BY seq", (tid, after))
        ]

    def _load(self, tid: str, game: str, config: str, created: float,
              finished: Any = 0) -> StoredTable:
        recs = self._records(tid, 0)
        scans = {
            (str(viewer), str(sid)): (int(status), _object(resp))
            for viewer, sid, status, resp in self._db.execute(
                "SELECT viewer, scan_id, status, response FROM scans WHERE table_id = ?",
                (tid,))
        }
        return StoredTable(tid, game, _object(config), float(created), recs, scans,
                           bool(finished))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def listed(tid: str, game: str, config: str, created: float, finished: Any,
           version: int | None, changed: float | None) -> Listed:
    """A ``Listed`` from a row; a damaged configuration lists without players."""
    try:
        conf = _object(config)
    except ValueError:
        conf = {}
    return Listed(str(tid), str(game), conf, float(created), int(version or 0),
                  float(changed if changed is not None else created), bool(finished))


def _object(text: Any) -> dict[str, Any]:
    """A stored JSON object; raises ``ValueError`` for anything else."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"a stored object is a {type(value).__name__}")
    return value
