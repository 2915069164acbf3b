"""``POST /api/history`` costs little however it is asked (issue 27 §8): an ``{id, token}``
listed again counts once, the list's limit names itself, and a table's line is made once
per version (a deleted table's once), not once per request."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from test_records import play_through
from webtools import bearer, make_table

from web import services
from web.history import MAX_HISTORY_TABLES, summaries


def test_one_table_listed_200_times_is_summarised_once(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "godnum")
    play_through(app, client, t, limit=400, undo_at=-1)
    one = {"id": t["table"], "token": t["host_token"]}
    r = client.post("/api/history", json={"tables": [one] * 200})
    assert r.status_code == 200, r.json
    assert [s["table"] for s in r.json["tables"]] == [t["table"]]
    assert r.json["refused"] == 0
    ana = next(p for p in r.json["players"] if p["name"] == "Ana")
    assert ana["games"] == 1  # the same game is not counted 200 times
    again = client.post("/api/history", json={"tables": [one] * 200})
    assert again.json == r.json
    with app.app_context():
        assert summaries().made == 1  # the second request reused the first one's line


def test_a_line_is_made_again_once_the_table_changes(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "godnum")
    one = {"id": t["table"], "token": t["host_token"]}
    first = client.post("/api/history", json={"tables": [one]}).json["tables"][0]
    table = services(app).tables.get(t["table"])
    play_through(app, client, t, limit=6, undo_at=-1, timer_at=-1)
    later = client.post("/api/history", json={"tables": [one]}).json["tables"][0]
    assert later["events"] == first["events"] + 6 == len(table.records)
    with app.app_context():
        assert summaries().made == 2


def test_a_deleted_table_is_not_rebuilt_for_each_request(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "godnum")
    play_through(app, client, t, limit=400, undo_at=-1)
    assert client.delete(f"/api/tables/{t['table']}",
                         headers=bearer(t["host_token"])).status_code == 200
    ask = [{"id": t["table"], "token": t["host_token"]},
           {"id": t["table"], "token": t["seats"][0]["token"]}]
    # Deleted is gone (C-7 rev. 3): listed once in "deleted" for the device to forget,
    # never summarised, never rebuilt by replay.
    for _ in range(3):
        r = client.post("/api/history", json={"tables": ask})
        assert r.status_code == 200 and r.json["refused"] == 0
        assert r.json["tables"] == [] and r.json["deleted"] == [t["table"]]
    with app.app_context():
        assert summaries().made == 0


def test_the_list_limit_names_itself(client: FlaskClient) -> None:
    many = [{"id": f"t{i}", "token": "x"} for i in range(MAX_HISTORY_TABLES + 1)]
    r = client.post("/api/history", json={"tables": many})
    assert r.status_code == 400 and r.json["code"] == "too_many_tables"
    assert f"at most {MAX_HISTORY_TABLES} tables" in r.json["error"]
    assert str(MAX_HISTORY_TABLES + 1) in r.json["error"]
    dupes = client.post("/api/history", json={"tables": [many[0]] * MAX_HISTORY_TABLES})
    assert dupes.status_code == 200 and dupes.json["refused"] == 1  # asked for once
