"""Helpers shared by the web tests (imported by name: the test dirs are not packages)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.registry import demo_run
from companion.runs import PrintRun, RunStore

GAMES = ["wuxing", "godnum", "shrine", "mountains", "gemcomplete"]
PLAYERS = {"wuxing": 3, "godnum": 3, "shrine": 3, "mountains": 2, "gemcomplete": 2}
NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fay"]


def config(data_dir: Path) -> dict[str, Any]:
    return {"DATA_DIR": str(data_dir), "TESTING": True, "DB_SYNCHRONOUS": "NORMAL",
            "SSE_PING": 0.2, "PUBLIC_URL": "http://table.local:8000/"}


def register_run(data_dir: Path, game: str, players: int, seed: int = 1) -> PrintRun:
    run = demo_run(game, players, random.Random(seed))
    RunStore(data_dir).save(run)
    return run


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_table(client: FlaskClient, data_dir: Path, game: str = "wuxing",
               players: int | None = None, options: dict[str, Any] | None = None,
               seed: int = 1) -> dict[str, Any]:
    """Register a demo print run and create a table through the API; the 201 body."""
    n = players or PLAYERS[game]
    run = register_run(data_dir, game, n, seed)
    r = client.post("/api/tables", json={"game": game, "players": NAMES[:n],
                                          "options": options or {}, "runs": [run.run_id]})
    assert r.status_code == 201, r.json
    body: dict[str, Any] = r.json
    body["run"] = run
    return body
