"""CSV exports cannot carry a formula (issue 27 §11): player names like ``=1+2`` in the
record's ``?format=csv`` and in ``games.csv``; every field quoted."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from test_records import play_through
from webtools import bearer, register_run

from web import services
from web.archive import export

HOSTILE = ["=1+2", "@SUM(A1:A9)", "-2+3"]
STARTS = ("=", "+", "-", "@", "\t", "\r")


def _table(client: FlaskClient, data_dir: Path, names: list[str]) -> dict[str, object]:
    run = register_run(data_dir, "godnum", len(names), 1)
    r = client.post("/api/tables", json={"game": "godnum", "players": names,
                                          "runs": [run.run_id]})
    assert r.status_code == 201, r.json
    body: dict[str, object] = r.json
    body["run"] = run
    return body


def _check(text: str) -> list[list[str]]:
    """Every field quoted and no cell a spreadsheet would read as a formula."""
    for line in text.splitlines():
        assert line.startswith('"') and line.endswith('"'), line
    rows = list(csv.reader(io.StringIO(text)))
    cells = [c for row in rows for c in row]
    assert not [c for c in cells if c[:1] in STARTS], cells
    return rows


def test_the_record_csv_neutralises_formulas_and_quotes_every_field(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = _table(client, data_dir, HOSTILE)
    host = str(t["host_token"])
    play_through(app, client, t, limit=4, undo_at=-1)  # type: ignore[arg-type]
    table = services(app).tables.get(str(t["table"]))
    event = table.rules.random_play(table.match.state, random.Random(2))
    played = [client.post(f"/api/tables/{t['table']}/actions", json=event,
                          headers=bearer(s["token"])).status_code
              for s in t["seats"]]  # type: ignore[attr-defined]
    assert played.count(200) == 1, played  # the seat whose turn it is sent it
    r = client.get(f"/api/tables/{t['table']}/record?format=csv", headers=bearer(host))
    assert r.status_code == 200
    rows = _check(r.get_data(as_text=True))
    assert rows[-1][3] in {"'" + n for n in HOSTILE}, rows[-1]  # who: a player's name
    assert any(r[4].startswith(("'=1+2 plays", "'-2+3 plays", "'@SUM(A1:A9) plays"))
               for r in rows[1:])  # a ruling that starts with a name


def test_games_csv_neutralises_formulas_and_quotes_every_field(
        app: Flask, client: FlaskClient, data_dir: Path, tmp_path: Path) -> None:
    t = _table(client, data_dir, HOSTILE)
    play_through(app, client, t, limit=400, undo_at=-1)  # type: ignore[arg-type]
    assert services(app).tables.get(str(t["table"])).match.state.finished
    services(app).close()
    export(data_dir, tmp_path / "out")
    rows = _check((tmp_path / "out" / "games.csv").read_text())
    assert rows[1][4] == "'=1+2, @SUM(A1:A9), -2+3"
    assert rows[1][5][:1] == "'" and rows[1][5][1:] in HOSTILE  # the winner's name
