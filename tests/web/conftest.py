"""Fixtures for the web tests: a fresh app per test on a temporary data dir (Flask tutorial)."""

from __future__ import annotations

import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import config
from werkzeug.serving import make_server

from web import create_app, services


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def app(data_dir: Path) -> Iterator[Flask]:
    app = create_app(config(data_dir))
    yield app
    services(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync",
                 "--disable-quic"]


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Debian's chromium through Playwright, never a downloaded browser.

    If pytest-playwright is installed its session ``playwright`` object is shared (a second
    ``sync_playwright()`` inside its running loop would fail); otherwise we start our own.
    """
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("Debian's chromium is not installed (./scripts/test installs it)")
    try:
        pw = request.getfixturevalue("playwright")
        own = None
    except pytest.FixtureLookupError:
        from playwright.sync_api import sync_playwright

        own = sync_playwright().start()
        pw = own
    b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
    yield b
    b.close()
    if own is not None:
        own.stop()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    app = create_app(config(tmp_path / "data"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_URL"] = base + "/"
    yield base, app
    services(app).broker.close()  # ends the pages' event streams
    server.shutdown()
    services(app).store.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (scripts/pgcluster) on a free loopback port: its URL.

    PostgreSQL missing fails the run saying how to install it (./scripts/test does).
    """
    root = Path(__file__).resolve().parents[2]
    # Not under pytest's tmp folders: they are private to root and the cluster runs as the
    # unprivileged postgres user, which must reach its folder.
    top = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    folder = top / "cluster"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = subprocess.run([str(root / "scripts" / "pgcluster"), "start", str(folder),
                           str(port)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"could not start PostgreSQL: {done.stderr.strip()}")
    yield done.stdout.strip()
    subprocess.run([str(root / "scripts" / "pgcluster"), "stop", str(folder)],
                   capture_output=True)
    shutil.rmtree(top, ignore_errors=True)


@pytest.fixture
def pg_url(pg_cluster: str) -> Iterator[str]:
    """A fresh, empty database in the session's cluster for one test."""
    import psycopg

    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(pg_cluster, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    yield pg_cluster.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(pg_cluster, autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
