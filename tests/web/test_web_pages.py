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
    for bad in (f"/t/{tid}/seat/1?token={ben['token']}", f"/t/{tid}/seat/1?token=",
                f"/t/{tid}/referee?token={ana['token']}", f"/t/{tid}/referee"):
        r = client.get(bad)
        assert r.status_code == 403 and "does not open this page" in r.text
    # Without a token (a reload after the page took it out of the address bar, issue 18
    # §5): a shell with nothing private, which reads the token back from the tab.
    r = client.get(f"/t/{tid}/seat/1")
    assert r.status_code == 200 and page_config(r.text)["token"] == ""
    assert not any(tok in r.text for tok in (ana["token"], ben["token"], t["host_token"]))
    assert client.get(f"/t/{tid}/seat/4").status_code == 404
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


def test_pages_carry_no_inline_script(client: FlaskClient, data_dir: Path) -> None:
    """Issue 11: the pages run under script-src 'self': no inline script bodies (the
    configuration is a JSON data block), no on*= attributes, no javascript: links."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    for path in ("/", f"/t/{tid}", f"/t/{tid}?token={t['host_token']}",
                 f"/t/{tid}/seat/1?token={t['seats'][0]['token']}",
                 f"/t/{tid}/referee?token={t['host_token']}"):
        html = client.get(path).get_data(as_text=True)
        for m in re.finditer(r"<script([^>]*)>(.*?)</script>", html, re.S):
            assert "src=" in m.group(1) or 'type="application/json"' in m.group(1), m.group(0)
        assert not re.search(r"\son[a-z]+=", html) and "javascript:" not in html


def test_the_big_screen_shows_join_codes_only_to_the_host(
        client: FlaskClient, data_dir: Path) -> None:
    """Point 13: the join codes carry seat tokens; the host's link shows them with the names,
    a plain big-screen link never."""
    t = make_table(client, data_dir, "wuxing", 3)
    tid = t["table"]
    host = client.get(f"/t/{tid}?token={t['host_token']}").get_data(as_text=True)
    assert host.count("<svg") == 4 and 'id="join"' in host  # three seats and the watch code
    assert all(name in host for name in ("Ana", "Ben", "Chen"))
    assert page_config(host)["token"] == ""  # the page itself reads the public view
    for path in (f"/t/{tid}", f"/t/{tid}?token={t['seats'][0]['token']}",
                 f"/t/{tid}?token={t['camera_token']}"):
        html = client.get(path).get_data(as_text=True)
        assert 'id="join"' not in html and html.count("<svg") == 1
        assert not any(s["token"] in html for s in t["seats"])
