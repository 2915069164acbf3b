"""Fixtures for the web tests: a fresh app per test on a temporary data dir (Flask tutorial)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import config

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
