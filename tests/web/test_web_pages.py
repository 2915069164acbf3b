"""The HTML pages: who may open which, and what each shell carries for app.js."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask.testing import FlaskClient
from webtools import make_table


def page_config(html: str) -> dict[str, object]:
    m = re.search(r'<script type="application/json" id="companion-config">(.*?)</script>',
                  html, re.S)
    assert m, "the page carries no configuration for app.js"
    return dict(json.loads(m.group(1)))


def test_each_page_opens_only_with_its_token(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    ana, ben = t["seats"][0], t["seats"][1]
    r = client.get(f"/t/{tid}/seat/1?token={ana['token']}")
    assert r.status_code == 200
    cfg = page_config(r.text)
    assert cfg == {"table": tid, "game": "wuxing", "token": ana["token"], "role": "seat",
                   "seat": 1, "players": ["Ana", "Ben", "Chen"], "opening": 0}
    assert ben["token"] not in r.text and t["host_token"] not in r.text
    for bad in (f"/t/{tid}/seat/1?token={ben['token']}", f"/t/{tid}/seat/1",
                f"/t/{tid}/referee?token={ana['token']}", f"/t/{tid}/referee"):
        r = client.get(bad)
        assert r.status_code == 403 and "does not open this page" in r.text
    r = client.get(f"/t/{tid}/referee?token={t['host_token']}")
    assert r.status_code == 200 and page_config(r.text)["role"] == "host"
    assert r.text.count("<svg") == 3  # a join QR code per seat
    assert ana["token"] in r.text and t["camera_token"] in r.text
    r = client.get(f"/t/{tid}")
    assert r.status_code == 200 and page_config(r.text)["token"] == ""
    for tok in (ana["token"], t["host_token"], t["camera_token"]):
        assert tok not in r.text
    r = client.get("/t/nosuch")
    assert r.status_code == 404 and "Not found" in r.text


def test_lobby_lists_tables_without_tokens(client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing", 3)
    r = client.get("/")
    assert r.status_code == 200 and t["table"] in r.text
    assert t["host_token"] not in r.text and t["seats"][0]["token"] not in r.text
    games = client.get("/api/games").json["games"]
    assert {g["game"] for g in games} == {"wuxing", "godnum", "shrine", "mountains",
                                          "gemcomplete"}
    wx = next(g for g in games if g["game"] == "wuxing")
    assert {o["name"] for o in wx["options"]} == {"end", "start"}
    assert wx["runs"][0]["run"] == t["run"].run_id


def test_static_files_are_served_locally(client: FlaskClient) -> None:
    for path in ("/static/app.js", "/static/app.css", "/static/lobby.js"):
        with client.get(path) as r:
            assert r.status_code == 200 and len(r.data) > 1000
            assert b"http://" not in r.data and b"https://" not in r.data  # no CDN


def test_the_referee_page_shows_the_camera_preview_when_told_where(
        data_dir: Path) -> None:
    from webtools import config

    from web import create_app, services

    app = create_app({**config(data_dir), "CAMERA_PREVIEW": "http://127.0.0.1:8765/"})
    try:
        client = app.test_client()
        t = make_table(client, data_dir, "wuxing", 3)
        r = client.get(f"/t/{t['table']}/referee?token={t['host_token']}")
        assert 'src="http://127.0.0.1:8765/frame.jpg"' in r.text
    finally:
        services(app).close()
