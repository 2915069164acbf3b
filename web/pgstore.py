"""PostgreSQL event store: the same contract as ``web.store.Store``, for many processes.

Any number of ``companion serve`` processes on any number of machines share one database:
it holds the tables, their logs, the scan idempotency keys and the print runs, and carries
change notices between processes (``NOTIFY companion_changes, '<table> <version>'`` in the
committing transaction, so a notice is sent exactly when the write is visible).

Two processes appending at the same version race on the primary key ``(table_id, seq)``:
exactly one commits, the other gets ``StaleVersion`` and re-validates against the new state.
Schema changes are numbered migrations recorded in ``companion_migrations``.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from companion.errors import StaleVersion, UnknownCard
from companion.runs import PrintRun, RunStore, run_from_manifest
from web.guard import creation_limit
from web.store import (
    CREATIONS_KEPT,
    LIST_PAGE,
    LIVE_MADE,
    DamagedTable,
    Listed,
    Record,
    ScanKey,
    StorageUnavailable,
    StoredTable,
    _creations,
    listed,
)

log = logging.getLogger(__name__)

CHANNEL = "companion_changes"

# Numbered, append-only: a deployed database is moved forward one step at a time.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        config TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        deleted DOUBLE PRECISION
    );
    CREATE TABLE records (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('event', 'undo', 'timer')),
        who TEXT NOT NULL,
        body TEXT NOT NULL,
        ruling TEXT NOT NULL DEFAULT '',
        public TEXT NOT NULL DEFAULT '',
        voided_by INTEGER,
        PRIMARY KEY (table_id, seq)
    );
    CREATE TABLE scans (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        viewer TEXT NOT NULL,
        scan_id TEXT NOT NULL,
        status INTEGER NOT NULL,
        response TEXT NOT NULL,
        PRIMARY KEY (table_id, viewer, scan_id)
    );
    CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        registered BIGSERIAL,
        manifest TEXT NOT NULL
    );
    """,
    # 2: the list read from the store (newest first, paged), "play again" and deletion
    # known to every process, and a bad token found without reading every table.
    """
    ALTER TABLE tables ADD COLUMN finished BOOLEAN NOT NULL DEFAULT false;
    ALTER TABLE tables ADD COLUMN next_table TEXT;
    UPDATE tables t SET next_table = (SELECT n.id FROM tables n
        WHERE n.config::jsonb ->> 'follows' = t.id ORDER BY n.created DESC LIMIT 1);
    CREATE INDEX tables_in_play ON tables (created DESC, id DESC) WHERE deleted IS NULL;
    """,
    # 3: table creations per client address, counted here for every process (issue 27).
    """
    CREATE TABLE creations (
        client TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        table_id TEXT
    );
    CREATE INDEX creations_client ON creations (client, at);
    CREATE INDEX creations_at ON creations (at);
    """,
)

# A request waits at most this long for a connection or a server that does not answer:
# then 503 storage_unavailable (a 30 s pool wait per request held a thread each).
WAIT = 2.0
RECONNECT = 10.0


def redact(url: str) -> str:
    """``url`` without its password, for logs and messages (no secrets in logs)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable URL)"
    host, port, db = info.get("host", ""), info.get("port", ""), info.get("dbname", "")
    user = f"{info['user']}@" if info.get("user") else ""
    return f"postgresql://{user}{host}{f':{port}' if port else ''}/{db}"


def secrets_of(url: str) -> list[str]:
    """The password of ``url`` in every spelling a message may show it (as written, percent-
    decoded, and from a ``password=`` key), longest first; read without libpq, which cannot
    read a URL with a bad ``%`` and then prints the password in its error."""
    found: set[str] = set()
    try:
        raw = urlsplit(url).password
    except ValueError:
        raw = None
    if raw:
        found.update({raw, unquote(raw), quote(unquote(raw), safe="")})
    for m in re.finditer(r"password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", url):
        value = m.group(1).strip("'")
        found.update({value, unquote(value)})
    return sorted((w for w in found if w), key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """``text`` with the password of ``url`` (any spelling) replaced by ``***``."""
    for word in secrets_of(url):
        text = text.replace(word, "***")
    return text


class NoPasswords(logging.Filter):
    """Scrubs the database password from every record of the database drivers' loggers
    (the pool printed it in five warnings when it contained ``%``)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = scrub(text, self.url)
        if clean != text:
            record.msg, record.args = clean, None
        return True


def guard_logs(url: str) -> None:
    """Install ``NoPasswords`` for ``url`` on the driver and pool loggers (once per URL)."""
    for name in ("psycopg", "psycopg.pool"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, NoPasswords) and f.url == url for f in logger.filters):
            logger.addFilter(NoPasswords(url))


class PgStore:
    """Tables, logs and scan ids in PostgreSQL, through a small connection pool.

    ``max_connections`` bounds this process's share of the server's connection limit
    (plus one for ``listen``).
    """

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        self.url = url
        guard_logs(url)
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.ProgrammingError:  # its message quotes the password: not shown
            raise RuntimeError(
                f"the database URL {redact(url)} cannot be read; a '%' in a password is "
                "written %25 in a URL") from None
        self.pool = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=max_connections, open=False, timeout=WAIT,
            # A connection lost in an outage is retried with backoff for 10 s, then the
            # next request starts afresh: the pool never sleeps minutes after the database
            # is back (its default doubles the wait up to 5 minutes).
            reconnect_timeout=RECONNECT,
            kwargs={"autocommit": True, "connect_timeout": max(2, int(WAIT))},
            # A connection is tried before it is lent: after an outage the first request
            # gets a live one (or 503), not the broken socket of before.
            check=psycopg_pool.ConnectionPool.check_connection)
        try:
            self.pool.open(wait=True, timeout=15)
        except psycopg_pool.PoolTimeout as exc:
            self.pool.close()
            raise RuntimeError(f"cannot reach PostgreSQL at {redact(url)}: "
                               f"{scrub(str(exc), url)}") from None
        self.migrate()
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        # Set while this process LISTENs: a notice sent before that is not heard (a page
        # catches up with the next one), so a test of one process hearing another waits.
        self.listening = threading.Event()

    journal_mode = "postgresql"

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection within ``WAIT`` seconds; ``StorageUnavailable`` (503) when
        the database cannot be reached, whatever the statement."""
        try:
            with self.pool.connection(timeout=WAIT) as db:
                yield db
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise StorageUnavailable(
                f"the server cannot reach its database now ({type(exc).__name__}); nothing "
                "was changed, try again in a moment") from None

    # -- schema ------------------------------------------------------------------------
    def migrate(self) -> int:
        """Apply the migrations this database lacks (one process at a time); returns the
        schema version."""
        with self._conn() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(727274)")  # one migrator at a time
            db.execute("CREATE TABLE IF NOT EXISTS companion_migrations ("
                       "version INTEGER PRIMARY KEY, applied TIMESTAMPTZ DEFAULT now())")
            row = db.execute("SELECT coalesce(max(version), 0) FROM companion_migrations"
                             ).fetchone()
            have = int(row[0]) if row else 0
            for number, sql in enumerate(MIGRATIONS, start=1):
                if number > have:
                    db.execute(sql)
                    db.execute("INSERT INTO companion_migrations (version) VALUES (%s)",
                               (number,))
            return len(MIGRATIONS)

    # -- writing -----------------------------------------------------------------------
    def create_table(self, table_id: str, game: str, config: dict[str, Any], created: float,
                     records: Iterable[Record]) -> None:
        recs = list(records)
        with self._conn() as db, db.transaction():
            db.execute("INSERT INTO tables (id, game, config, created) VALUES (%s, %s, %s, %s)",
                       (table_id, game, json.dumps(config), created))
            self._insert(db, table_id, recs)
            follows = config.get("follows")
            if isinstance(follows, str):  # played again: every process's pages follow
                db.execute("UPDATE tables SET next_table = %s WHERE id = %s",
                           (table_id, follows))
                row = db.execute("SELECT max(seq) FROM records WHERE table_id = %s",
                                 (follows,)).fetchone()
                self._notify(db, follows, int(row[0] or 0) if row else 0)
            self._notify(db, table_id, recs[-1].seq if recs else 0)

    def append(self, table_id: str, records: Iterable[Record], *,
               void: Iterable[int] = (), voided_by: int | None = None,
               scan: tuple[ScanKey, int, dict[str, Any]] | None = None,
               finished: bool | None = None) -> None:
        """Add records (mark ``void`` seqs voided, remember a scan id, note whether the game
        is over) in one transaction.

        Raises ``StaleVersion`` when another process appended at the same seq first.
        """
        recs = list(records)
        try:
            with self._conn() as db, db.transaction():
                self._insert(db, table_id, recs)
                for seq in void:
                    db.execute("UPDATE records SET voided_by = %s WHERE table_id = %s "
                               "AND seq = %s", (voided_by, table_id, seq))
                if scan is not None:
                    (viewer, scan_id), status, response = scan
                    db.execute("INSERT INTO scans (table_id, viewer, scan_id, status, "
                               "response) VALUES (%s, %s, %s, %s, %s)",
                               (table_id, viewer, scan_id, status, json.dumps(response)))
                if finished is not None:
                    db.execute("UPDATE tables SET finished = %s WHERE id = %s",
                               (finished, table_id))
                if recs:
                    self._notify(db, table_id, recs[-1].seq)
        except pg_errors.UniqueViolation:
            raise StaleVersion(
                f"table {table_id!r} changed meanwhile (another server wrote seq "
                f"{recs[0].seq if recs else '?'} first); reload and try again") from None

    def delete_table(self, table_id: str, when: float) -> None:
        """Archive a table: it is no longer loaded; its rows stay in the database. Every
        process hears of it (version 0: its streams end, its requests answer 410)."""
        with self._conn() as db, db.transaction():
            db.execute("UPDATE tables SET deleted = %s WHERE id = %s", (when, table_id))
            self._notify(db, table_id, 0)

    # A re-issued seat (issue 18 §5): every process reads the tokens from here before it
    # lets a token in (``Table.catch_up``), so an old one stops working at once everywhere.
    def set_seat_tokens(self, table_id: str, tokens: list[str]) -> None:
        """Store a table's seat tokens in its configuration; other processes' streams are
        woken (NOTIFY) so a stream opened with the old token ends."""
        try:
            with self._conn() as db, db.transaction():
                row = db.execute("SELECT config FROM tables WHERE id = %s FOR UPDATE",
                                 (table_id,)).fetchone()
                if row is None:
                    raise StorageUnavailable(f"table {table_id!r} is not stored; nothing "
                                             "was changed")
                config = json.loads(row[0])
                config["seat_tokens"] = list(tokens)
                db.execute("UPDATE tables SET config = %s WHERE id = %s",
                           (json.dumps(config), table_id))
                top = db.execute("SELECT coalesce(max(seq), 0) FROM records WHERE "
                                 "table_id = %s", (table_id,)).fetchone()
                self._notify(db, table_id, int(top[0]) if top else 0)
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise StorageUnavailable(
                f"the server cannot reach its database now ({type(exc).__name__}); nothing "
                "was changed, try again in a moment") from None

    def seat_tokens(self, table_id: str) -> list[str] | None:
        """A table's stored seat tokens (``None``: no such table)."""
        with self._conn() as db:
            row = db.execute("SELECT config::json -> 'seat_tokens' FROM tables WHERE id = %s",
                             (table_id,)).fetchone()
        if row is None or row[0] is None:
            return None
        tokens = row[0] if isinstance(row[0], list) else json.loads(row[0])
        return [str(t) for t in tokens]

    def deleted_ids(self) -> dict[str, float]:
        """Archived tables: id -> when deleted."""
        with self._conn() as db:
            return {tid: when for tid, when in db.execute(
                "SELECT id, deleted FROM tables WHERE deleted IS NOT NULL")}

    def remember_scan(self, table_id: str, key: ScanKey, status: int,
                      response: dict[str, Any]) -> None:
        """Store a sender's scan id with its answer on its own (migration)."""
        with self._conn() as db:
            db.execute("INSERT INTO scans (table_id, viewer, scan_id, status, response) "
                       "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                       (table_id, *key, status, json.dumps(response)))

    # Table creations per client address (``web.guard.RateLimit`` with a store).
    def creation_hit(self, client: str, count: int, window: float, now: float,
                     total: int | None = None) -> tuple[float, str]:
        """Count one creation by ``client`` at ``now`` unless a limit is reached in any
        process (``web.guard.creation_limit``): ``(0, "")``, else the wait and the words."""
        with self._conn() as db, db.transaction():
            # Creations are counted one at a time, whichever process asks (they are rare).
            db.execute("SELECT pg_advisory_xact_lock(727275)")
            db.execute("DELETE FROM creations WHERE at <= %s",
                       (now - max(window, CREATIONS_KEPT),))
            found = _creations(db, "%s", client, window, now, count)
            wait, words = creation_limit(*found, count, window, now, total)
            if not wait:
                db.execute("INSERT INTO creations (client, at) VALUES (%s, %s)",
                           (client, now))
            return wait, words

    def creation_made(self, client: str, table_id: str) -> None:
        """The table ``client``'s last counted creation made."""
        with self._conn() as db:
            db.execute("UPDATE creations SET table_id = %s WHERE ctid = (SELECT ctid FROM "
                       "creations WHERE client = %s AND table_id IS NULL ORDER BY at DESC "
                       "LIMIT 1)", (table_id, client))

    def live_made(self, client: str, since: float) -> int:
        """Tables ``client`` made that are in play (any process): not deleted, not
        finished, changed after ``since``."""
        with self._conn() as db:
            row = db.execute(LIVE_MADE, (client, since)).fetchone()
        return int(row[0]) if row else 0

    @staticmethod
    def _insert(db: psycopg.Connection[Any], table_id: str, records: list[Record]) -> None:
        if not records:
            return
        with db.cursor() as cur:
            cur.executemany(
                "INSERT INTO records (table_id, seq, time, kind, who, body, ruling, public, "
                "voided_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [(table_id, r.seq, r.time, r.kind, r.who, json.dumps(r.body), r.ruling,
                  r.public, r.voided_by) for r in records])

    @staticmethod
    def _notify(db: psycopg.Connection[Any], table_id: str, version: int) -> None:
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id} {version}"))

    # -- reading -----------------------------------------------------------------------
    def table_ids(self) -> list[str]:
        with self._conn() as db:
            return [r[0] for r in db.execute(
                "SELECT id FROM tables WHERE deleted IS NULL ORDER BY created, id")]

    def list_tables(self, limit: int, before: tuple[float, str] | None = None
                    ) -> list[Listed]:
        """Up to ``limit`` tables still in play, newest first, older than ``before``
        (``(created, id)`` of the last one of the previous page); one indexed query."""
        where = ""
        args: list[Any] = [min(max(1, limit), LIST_PAGE)]
        if before is not None:
            where = "AND (created, id) < (%s, %s)"
            args = [before[0], before[1], *args]
        with self._conn() as db:
            rows = db.execute(
                "SELECT id, game, config, created, finished, r.seq, r.time FROM tables t "
                "LEFT JOIN LATERAL (SELECT seq, time FROM records WHERE table_id = t.id "
                "ORDER BY seq DESC LIMIT 1) r ON true "
                f"WHERE deleted IS NULL {where} ORDER BY created DESC, id DESC LIMIT %s",
                args).fetchall()
        return [listed(*row) for row in rows]

    def table_status(self, table_id: str) -> tuple[float | None, str | None] | None:
        """``(deleted, next_table)`` of a stored table, or ``None``."""
        with self._conn() as db:
            row = db.execute("SELECT deleted, next_table FROM tables WHERE id = %s",
                             (table_id,)).fetchone()
        return (row[0], row[1]) if row else None

    def load_table(self, table_id: str, *, archived: bool = False
                   ) -> StoredTable | DamagedTable | None:
        """One table still in play (or, ``archived``, also one its host deleted) with its
        whole log, or ``None``."""
        with self._conn() as db:
            row = db.execute("SELECT id, game, config, created, finished FROM tables "
                             "WHERE id = %s AND (deleted IS NULL OR %s)",
                             (table_id, archived)).fetchone()
            if row is None:
                return None
            try:
                recs = self._records(db, table_id, 0)
                scans = {(viewer, sid): (status, json.loads(resp))
                         for viewer, sid, status, resp in db.execute(
                             "SELECT viewer, scan_id, status, response FROM scans "
                             "WHERE table_id = %s", (table_id,))}
                return StoredTable(row[0], row[1], json.loads(row[2]), row[3], recs, scans,
                                   bool(row[4]))
            except (ValueError, TypeError) as exc:
                return DamagedTable(row[0], row[1], f"a stored record cannot be read: "
                                    f"{type(exc).__name__}")

    def records_after(self, table_id: str, seq: int) -> list[Record]:
        """The records of ``table_id`` numbered above ``seq``, in order (catching up)."""
        with self._conn() as db:
            return self._records(db, table_id, seq)

    def scan(self, table_id: str, key: ScanKey) -> tuple[int, dict[str, Any]] | None:
        """The answer remembered for a sender's scan id (written by any process), if any."""
        with self._conn() as db:
            row = db.execute("SELECT status, response FROM scans WHERE table_id = %s AND "
                             "viewer = %s AND scan_id = %s", (table_id, *key)).fetchone()
        return (int(row[0]), json.loads(row[1])) if row else None

    @staticmethod
    def _records(db: psycopg.Connection[Any], table_id: str, after: int) -> list[Record]:
        return [Record(seq, t, kind, who, json.loads(body), ruling, voided_by, public)
                for seq, t, kind, who, body, ruling, voided_by, public in db.execute(
                    "SELECT seq, time, kind, who, body, ruling, voided_by, public FROM records "
                    "WHERE table_id = %s AND seq > %s ORDER BY seq", (table_id, after))]

    def load_all(self) -> list[StoredTable | DamagedTable]:
        """Every table with its full log (migration and tests; servers load lazily)."""
        out: list[StoredTable | DamagedTable] = []
        for tid in self.table_ids():
            st = self.load_table(tid)
            if st is not None:
                out.append(st)
        return out

    def counts(self) -> dict[str, int]:
        """Rows per kind, to verify a migration."""
        with self._conn() as db:
            return {name: int(db.execute(f"SELECT count(*) FROM {name}").fetchone()[0])  # type: ignore[index]
                    for name in ("tables", "records", "scans", "runs")}

    # -- change notices ----------------------------------------------------------------
    def listen(self, on_change: Callable[[str, int], None]) -> None:
        """Call ``on_change(table_id, version)`` for every commit of any process, from a
        background thread with its own connection (reconnecting after a failure)."""
        def run() -> None:
            while not self._stop.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        self.listening.set()
                        while not self._stop.is_set():
                            for note in conn.notifies(timeout=1.0):
                                table_id, _, version = note.payload.partition(" ")
                                if version.isdigit():
                                    on_change(table_id, int(version))
                except psycopg.Error as exc:
                    self.listening.clear()
                    log.warning("LISTEN on %s failed (%s); retrying", redact(self.url),
                                type(exc).__name__)
                    self._stop.wait(1.0)

        self._listener = threading.Thread(target=run, name="pg-listen", daemon=True)
        self._listener.start()

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        self.pool.close()


class PgRunStore:
    """Print runs in PostgreSQL, with the same methods as ``companion.runs.RunStore``."""

    def __init__(self, store: PgStore) -> None:
        self._conn = store._conn

    def save(self, run: PrintRun, manifest: Mapping[str, Any] | None = None) -> str:
        data = dict(manifest) if manifest is not None else run.manifest()
        with self._conn() as db:
            db.execute("INSERT INTO runs (run_id, game, manifest) VALUES (%s, %s, %s) "
                       "ON CONFLICT (run_id) DO UPDATE SET manifest = excluded.manifest",
                       (run.run_id, run.game, json.dumps(data)))
        return run.run_id

    def import_files(self, files: RunStore) -> int:
        """Copy the runs ``companion print`` registered in a data dir that the database
        lacks (at start-up: print runs are few); returns how many."""
        with self._conn() as db:
            have = {r[0] for r in db.execute("SELECT run_id FROM runs")}
        new = [run for run in files.all() if run.run_id not in have]
        for run in new:
            self.save(run)
        return len(new)

    def load(self, run_id: str) -> PrintRun:
        """One registered run; raises ``UnknownCard`` if it is not registered."""
        with self._conn() as db:
            row = db.execute("SELECT manifest FROM runs WHERE run_id = %s",
                             (run_id,)).fetchone()
        if row is None:
            raise UnknownCard(f"print run {run_id!r} is not registered")
        return run_from_manifest(json.loads(row[0]))

    def all(self) -> list[PrintRun]:
        with self._conn() as db:
            rows = db.execute("SELECT manifest FROM runs ORDER BY registered").fetchall()
        return [run_from_manifest(json.loads(r[0])) for r in rows]

    def newest(self, game: str) -> PrintRun | None:
        with self._conn() as db:
            row = db.execute("SELECT manifest FROM runs WHERE game = %s "
                             "ORDER BY registered DESC LIMIT 1", (game,)).fetchone()
        return run_from_manifest(json.loads(row[0])) if row else None
