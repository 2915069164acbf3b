"""Fixtures for the web tests: a fresh app per test on a temporary data dir (Flask tutorial)."""

from __future__ import annotations

import shutil
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
