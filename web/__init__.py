"""The Flask referee and scorekeeper: tables, phones, live state, undo, persistence.

``create_app(config)`` builds the app (after Flask's tutorial factory): nothing happens at
import time. Config keys:

- ``DATA_DIR``: where ``companion.sqlite3`` and the print runs (``runs/``) live (default:
  the app's instance folder);
- ``PUBLIC_URL``: base of join links (``http://192.168.1.20:8000/``); default: the
  address the request came to;
- ``SSE_PING`` (s, default 15), ``SSE_RETRY_MS`` (default 2000);
- ``CAMERA_PREVIEW``: base URL of the camera's preview server, shown on the referee page;
- ``DB_SYNCHRONOUS``: ``FULL`` (default: survives power loss) or ``NORMAL``;
- ``MAX_CONTENT_LENGTH``: request body limit (default 64 KB).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from companion.runs import RunStore
from web.broker import Broker
from web.store import Store
from web.tables import Tables

DEFAULTS: dict[str, Any] = {
    "PUBLIC_URL": None,
    "CAMERA_PREVIEW": None,
    "SSE_PING": 15.0,
    "SSE_RETRY_MS": 2000,
    "DB_SYNCHRONOUS": "FULL",
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "JSON_SORT_KEYS": False,
}


@dataclass
class Services:
    """The resources one app owns, with an explicit lifecycle (``close``)."""

    store: Store
    runs: RunStore
    tables: Tables
    broker: Broker

    def close(self) -> None:
        self.broker.close()
        self.store.close()


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app from ``config``: open the store and rebuild every table from it."""
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.from_mapping(config)
    data_dir = Path(app.config.get("DATA_DIR") or app.instance_path)
    app.config["DATA_DIR"] = str(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(data_dir / "companion.sqlite3", synchronous=app.config["DB_SYNCHRONOUS"])
    runs = RunStore(data_dir)
    tables = Tables(store, runs)
    tables.load()
    app.extensions["companion"] = Services(store, runs, tables, Broker())
    app.json.sort_keys = False  # type: ignore[attr-defined]

    from web import api, pages, photos

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(photos.bp)
    api.register_error_handlers(app)
    return app


def services(app: Flask) -> Services:
    svc: Services = app.extensions["companion"]
    return svc
