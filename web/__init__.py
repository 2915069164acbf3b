"""The Flask referee and scorekeeper: tables, phones, live state, undo, persistence.

``create_app(config)`` builds the app (after Flask's tutorial factory): nothing happens at
import time. Config keys:

- ``DATA_DIR``: where ``companion.sqlite3`` and the print runs (``runs/``) live (default:
  the app's instance folder);
- ``PUBLIC_URL``: base of join links (``http://192.168.1.20:8000/``); default: the
  address the request came to;
- ``SSE_PING`` (s, default 1: the heartbeat that finds a closed page), ``SSE_RETRY_MS``
  (default 2000);
- ``CAMERA_PREVIEW``: base URL of the camera's preview server, shown on the referee page;
- ``DB_SYNCHRONOUS``: ``FULL`` (default: survives power loss) or ``NORMAL``;
- ``MAX_CONTENT_LENGTH``: request body limit (default 64 KB; an endpoint may take more
  with ``web.guard.takes_body``);
- ``SSE_MAX_STREAMS`` (default 192; ``make_server`` sets it from the thread count) and
  ``SSE_MAX_PER_CLIENT`` (default 16): open event streams in total and per client address;
- ``TABLES_PER_CLIENT`` (default 20) per ``TABLES_WINDOW`` seconds (default 600): tables a
  client address may create (any token; "play again" too), and ``TABLES_LIVE_PER_CLIENT``
  (default 40): tables it made that may be in play at once; both counted in the store's
  database, one count for every process sharing it; ``TABLES_TOTAL`` (default 300): tables
  all addresses may create per ``TABLES_WINDOW``, an address at most its fair share of it
  (``web.guard.fair_share``: half alone, less as more addresses make tables);
- ``TABLE_IDLE`` (s, default 600): a table unused this long, with no page open, leaves
  memory and is rebuilt from the store on its next request;
- ``ABANDONED_AFTER``: seconds without a change after which a host may delete a table that
  is not finished (default 6 hours).
- ``DATABASE``: a ``postgresql://`` URL: tables, logs and print runs live in PostgreSQL,
  shared by any number of server processes (default: SQLite in ``DATA_DIR``);
- ``DB_POOL``: PostgreSQL connections this process may hold (default 8);
- ``PROXY_HOPS``: reverse proxies in front that set ``X-Forwarded-For/-Proto/-Host``
  (default 0: trust no such header; the client address is the socket's);
- ``PROXY_FROM``: the proxy's addresses or networks whose ``X-Forwarded-*`` are read
  (default ``127.0.0.1,::1``: nginx on this machine); from others they are removed;
- ``PHOTO_DECODES``: photos decoded at once (default: one per core; ``web.guard.DecodeGate``).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from companion.runs import RunStore
from web.broker import Broker
from web.guard import RateLimit
from web.resources import Services, services
from web.store import EventStore, Store
from web.tables import Tables

__all__ = ["DEFAULTS", "Services", "create_app", "open_store", "services"]

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "PUBLIC_URL": None,
    "CAMERA_PREVIEW": None,
    "SSE_PING": 1.0,
    "SSE_RETRY_MS": 2000,
    "DB_SYNCHRONOUS": "FULL",
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "DATABASE": None,
    "PROXY_HOPS": 0,
    "PROXY_FROM": "127.0.0.1,::1",
    "DB_POOL": 8,
    "JSON_SORT_KEYS": False,
    "SSE_MAX_STREAMS": 192,
    "SSE_MAX_PER_CLIENT": 16,
    "TABLES_PER_CLIENT": 20,
    "TABLES_WINDOW": 600.0,
    "TABLES_LIVE_PER_CLIENT": 40,
    "TABLES_TOTAL": 300,
    "TABLE_IDLE": 600.0,
    "ABANDONED_AFTER": 6 * 3600.0,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from ``config``: open the store (tables load from it on first use)."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.from_mapping(config)
    data_dir = Path(app.config.get("DATA_DIR") or app.instance_path)
    app.config["DATA_DIR"] = str(data_dir)
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # tokens inside (issue 19)
    broker = Broker()
    url = app.config.get("DATABASE")
    abandoned = float(app.config["ABANDONED_AFTER"])
    idle = float(app.config["TABLE_IDLE"])
    if url:
        # Many processes, one PostgreSQL: tables load lazily and catch up from the store;
        # every commit's NOTIFY wakes this process's streams (issue 15).
        try:
            from web.pgstore import PgRunStore, PgStore
        except ImportError as exc:
            raise RuntimeError(f"PostgreSQL support is not installed ({exc.name}); run: "
                               ".venv/bin/pip install 'psycopg[binary,pool]'") from None

        pg = PgStore(url, max_connections=int(app.config["DB_POOL"]))
        store: EventStore = pg
        pg_runs = PgRunStore(pg)
        # Runs that `companion print` registered in this data dir join the database.
        pg_runs.import_files(RunStore(data_dir))
        runs: RunStore = pg_runs  # type: ignore[assignment]
        tables = Tables(store, runs, shared=True, abandoned_after=abandoned, idle_after=idle,
                        in_use=lambda tid: broker.count(tid) > 0)
        pg.listen(broker.publish)
    else:
        store = open_store(data_dir / "companion.sqlite3", app.config["DB_SYNCHRONOUS"])
        runs = RunStore(data_dir)
        tables = Tables(store, runs, abandoned_after=abandoned, idle_after=idle,
                        in_use=lambda tid: broker.count(tid) > 0)
    creations = RateLimit(int(app.config["TABLES_PER_CLIENT"]),
                          float(app.config["TABLES_WINDOW"]), store=store,
                          total=int(app.config["TABLES_TOTAL"]))
    app.extensions["companion"] = Services(store, runs, tables, broker, creations)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # Behind nginx or Caddy: client address and scheme from their headers, when they come
    # from the proxy (PROXY_FROM); behind --tls, from the relay (web.guard.ClientAddress).
    from web.guard import ClientAddress

    app.wsgi_app = ClientAddress(  # type: ignore[method-assign]
        app.wsgi_app, int(app.config["PROXY_HOPS"]), app.config["PROXY_FROM"])

    from web import api, camroutes, history, pages, photos, rules

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(photos.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(camroutes.bp)
    api.register_error_handlers(app)
    api.register_guards(app)
    return app


def open_store(path: Path, synchronous: str) -> Store:
    """The store at ``path``. A file SQLite cannot read as a database is moved aside
    (``companion.sqlite3.damaged-<time>``, with its WAL files), kept for recovery, and a new
    store is started: the server starts whatever is on disk (issue 10)."""
    try:
        return Store(path, synchronous=synchronous)
    except sqlite3.DatabaseError as exc:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for suffix in ("", "-wal", "-shm"):
            part = path.with_name(path.name + suffix)
            if part.exists():
                part.rename(path.with_name(f"{path.name}.damaged-{stamp}{suffix}"))
        log.error("%s could not be read (%s); moved aside as %s.damaged-%s, starting a new "
                  "store", path, exc, path.name, stamp)
        return Store(path, synchronous=synchronous)
