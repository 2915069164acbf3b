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
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from companion.errors import StaleVersion, UnknownCard
from companion.runs import PrintRun, RunStore, run_from_manifest
from web.store import DamagedTable, Record, ScanKey, StorageUnavailable, StoredTable

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
)


def redact(url: str) -> str:
    """``url`` without its password, for logs and messages (no secrets in logs)."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable URL)"
    host, port, db = info.get("host", ""), info.get("port", ""), info.get("dbname", "")
    user = f"{info['user']}@" if info.get("user") else ""
    return f"postgresql://{user}{host}{f':{port}' if port else ''}/{db}"


class PgStore:
    """Tables, logs and scan ids in PostgreSQL, through a small connection pool.

    ``max_connections`` bounds this process's share of the server's connection limit
    (plus one for ``listen``).
    """

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        self.url = url
        self.pool = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=max_connections, open=False,
            kwargs={"autocommit": True})
        try:
            self.pool.open(wait=True, timeout=15)
        except psycopg_pool.PoolTimeout as exc:
            self.pool.close()
            raise RuntimeError(f"cannot reach PostgreSQL at {redact(url)}: {exc}") from None
        self.migrate()
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()

    journal_mode = "postgresql"

    # -- schema ------------------------------------------------------------------------
    def migrate(self) -> int:
        """Apply the migrations this database lacks (one process at a time); returns the
        schema version."""
        with self.pool.connection() as db, db.transaction():
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
        with self.pool.connection() as db, db.transaction():
            db.execute("INSERT INTO tables (id, game, config, created) VALUES (%s, %s, %s, %s)",
                       (table_id, game, json.dumps(config), created))
            self._insert(db, table_id, recs)
            self._notify(db, table_id, recs[-1].seq if recs else 0)

    def append(self, table_id: str, records: Iterable[Record], *,
               void: Iterable[int] = (), voided_by: int | None = None,
               scan: tuple[ScanKey, int, dict[str, Any]] | None = None) -> None:
        """Add records (mark ``void`` seqs voided, remember a scan id) in one transaction.

        Raises ``StaleVersion`` when another process appended at the same seq first.
        """
        recs = list(records)
        try:
            with self.pool.connection() as db, db.transaction():
                self._insert(db, table_id, recs)
                for seq in void:
                    db.execute("UPDATE records SET voided_by = %s WHERE table_id = %s "
                               "AND seq = %s", (voided_by, table_id, seq))
                if scan is not None:
                    (viewer, scan_id), status, response = scan
                    db.execute("INSERT INTO scans (table_id, viewer, scan_id, status, "
                               "response) VALUES (%s, %s, %s, %s, %s)",
                               (table_id, viewer, scan_id, status, json.dumps(response)))
                if recs:
                    self._notify(db, table_id, recs[-1].seq)
        except pg_errors.UniqueViolation:
            raise StaleVersion(
                f"table {table_id!r} changed meanwhile (another server wrote seq "
                f"{recs[0].seq if recs else '?'} first); reload and try again") from None
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise StorageUnavailable(
                f"the server cannot reach its database now ({type(exc).__name__}); nothing "
                "was changed, try again in a moment") from None

    def delete_table(self, table_id: str, when: float) -> None:
        """Archive a table: it is no longer loaded; its rows stay in the database."""
        with self.pool.connection() as db:
            db.execute("UPDATE tables SET deleted = %s WHERE id = %s", (when, table_id))

    # A re-issued seat (issue 18 §5): every process reads the tokens from here before it
    # lets a token in (``Table.catch_up``), so an old one stops working at once everywhere.
    def set_seat_tokens(self, table_id: str, tokens: list[str]) -> None:
        """Store a table's seat tokens in its configuration; other processes' streams are
        woken (NOTIFY) so a stream opened with the old token ends."""
        try:
            with self.pool.connection() as db, db.transaction():
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
        with self.pool.connection() as db:
            row = db.execute("SELECT config::json -> 'seat_tokens' FROM tables WHERE id = %s",
                             (table_id,)).fetchone()
        if row is None or row[0] is None:
            return None
        tokens = row[0] if isinstance(row[0], list) else json.loads(row[0])
        return [str(t) for t in tokens]

    def deleted_ids(self) -> dict[str, float]:
        """Archived tables: id -> when deleted."""
        with self.pool.connection() as db:
            return {tid: when for tid, when in db.execute(
                "SELECT id, deleted FROM tables WHERE deleted IS NOT NULL")}

    def remember_scan(self, table_id: str, key: ScanKey, status: int,
                      response: dict[str, Any]) -> None:
        """Store a sender's scan id with its answer on its own (migration)."""
        with self.pool.connection() as db:
            db.execute("INSERT INTO scans (table_id, viewer, scan_id, status, response) "
                       "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                       (table_id, *key, status, json.dumps(response)))

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
        with self.pool.connection() as db:
            return [r[0] for r in db.execute(
                "SELECT id FROM tables WHERE deleted IS NULL ORDER BY created, id")]

    def load_table(self, table_id: str, *, archived: bool = False
                   ) -> StoredTable | DamagedTable | None:
        """One table still in play (or, ``archived``, also one its host deleted) with its
        whole log, or ``None``."""
        with self.pool.connection() as db:
            row = db.execute("SELECT id, game, config, created FROM tables WHERE id = %s "
                             "AND (deleted IS NULL OR %s)", (table_id, archived)).fetchone()
            if row is None:
                return None
            try:
                recs = self._records(db, table_id, 0)
                scans = {(viewer, sid): (status, json.loads(resp))
                         for viewer, sid, status, resp in db.execute(
                             "SELECT viewer, scan_id, status, response FROM scans "
                             "WHERE table_id = %s", (table_id,))}
                return StoredTable(row[0], row[1], json.loads(row[2]), row[3], recs, scans)
            except (ValueError, TypeError) as exc:
                return DamagedTable(row[0], row[1], f"a stored record cannot be read: "
                                    f"{type(exc).__name__}")

    def records_after(self, table_id: str, seq: int) -> list[Record]:
        """The records of ``table_id`` numbered above ``seq``, in order (catching up)."""
        with self.pool.connection() as db:
            return self._records(db, table_id, seq)

    def scan(self, table_id: str, key: ScanKey) -> tuple[int, dict[str, Any]] | None:
        """The answer remembered for a sender's scan id (written by any process), if any."""
        with self.pool.connection() as db:
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
        with self.pool.connection() as db:
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
                        while not self._stop.is_set():
                            for note in conn.notifies(timeout=1.0):
                                table_id, _, version = note.payload.partition(" ")
                                if version.isdigit():
                                    on_change(table_id, int(version))
                except psycopg.Error as exc:
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
        self.pool = store.pool

    def save(self, run: PrintRun, manifest: Mapping[str, Any] | None = None) -> str:
        data = dict(manifest) if manifest is not None else run.manifest()
        with self.pool.connection() as db:
            db.execute("INSERT INTO runs (run_id, game, manifest) VALUES (%s, %s, %s) "
                       "ON CONFLICT (run_id) DO UPDATE SET manifest = excluded.manifest",
                       (run.run_id, run.game, json.dumps(data)))
        return run.run_id

    def import_files(self, files: RunStore) -> int:
        """Copy the runs ``companion print`` registered in a data dir that the database
        lacks (at start-up: print runs are few); returns how many."""
        with self.pool.connection() as db:
            have = {r[0] for r in db.execute("SELECT run_id FROM runs")}
        new = [run for run in files.all() if run.run_id not in have]
        for run in new:
            self.save(run)
        return len(new)

    def load(self, run_id: str) -> PrintRun:
        """One registered run; raises ``UnknownCard`` if it is not registered."""
        with self.pool.connection() as db:
            row = db.execute("SELECT manifest FROM runs WHERE run_id = %s",
                             (run_id,)).fetchone()
        if row is None:
            raise UnknownCard(f"print run {run_id!r} is not registered")
        return run_from_manifest(json.loads(row[0]))

    def all(self) -> list[PrintRun]:
        with self.pool.connection() as db:
            rows = db.execute("SELECT manifest FROM runs ORDER BY registered").fetchall()
        return [run_from_manifest(json.loads(r[0])) for r in rows]

    def newest(self, game: str) -> PrintRun | None:
        with self.pool.connection() as db:
            row = db.execute("SELECT manifest FROM runs WHERE game = %s "
                             "ORDER BY registered DESC LIMIT 1", (game,)).fetchone()
        return run_from_manifest(json.loads(row[0])) if row else None
