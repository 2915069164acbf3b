"""Game records (issue 22): a table's record per viewer, its CSV, the replay API, the
history of a device's tables, and export/import of a data dir."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import GAMES, bearer, make_table

from web import services
from web.archive import ArchiveError, export, import_into, stats, stats_text
from web.records import player_figures
from web.table import PUBLIC, Viewer


def play_through(app: Flask, client: FlaskClient, t: dict[str, Any], seed: int = 3,
                 limit: int = 60, undo_at: int = 5, timer_at: int = 2
                 ) -> dict[int, dict[str, Any]]:
    """Random legal plays sent by the referee through the API (an undo and a timer change
    among them); every viewer's live snapshot at each version, by version."""
    rng = random.Random(seed)
    table = services(app).tables.get(t["table"])
    host = bearer(t["host_token"])
    tokens = {"host": t["host_token"], "public": None,
              **{f"seat:{i}": s["token"] for i, s in enumerate(t["seats"], 1)}}
    seen: dict[int, dict[str, Any]] = {}

    def look() -> None:
        for key, tok in tokens.items():
            r = client.get(f"/api/tables/{t['table']}", headers=bearer(tok) if tok else {})
            assert r.status_code == 200
            seen.setdefault(r.json["version"], {})[key] = r.json

    look()
    for i in range(limit):
        if table.match.state.finished:
            break
        if i == timer_at:
            r = client.post(f"/api/tables/{t['table']}/timer", json={"seconds": 30},
                            headers=host)
        elif i == undo_at:
            r = client.post(f"/api/tables/{t['table']}/undo", json={}, headers=host)
        else:
            event = table.rules.random_play(table.match.state, rng)
            if event is None:
                break
            r = client.post(f"/api/tables/{t['table']}/actions", json=event, headers=host)
        assert r.status_code == 200, r.json
        look()
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_replay_step_n_is_the_live_view_at_version_n(app: Flask, client: FlaskClient,
                                                     data_dir: Path, game: str) -> None:
    t = make_table(client, data_dir, game)
    seen = play_through(app, client, t, limit=600)
    assert services(app).tables.get(t["table"]).match.state.finished
    tokens = {"host": t["host_token"], "public": None,
              **{f"seat:{i}": s["token"] for i, s in enumerate(t["seats"], 1)}}
    for version, live in seen.items():
        for key, tok in tokens.items():
            r = client.get(f"/api/tables/{t['table']}/replay?step={version}",
                           headers=bearer(tok) if tok else {})
            assert r.status_code == 200, r.json
            step = r.json
            assert step["version"] == version
            for field in ("view", "last_play", "finished", "winners"):
                assert step[field] == live[key][field], (game, version, key, field)


def test_players_replay_a_game_once_it_is_over_the_referee_at_any_time(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """During play a replay would be a memory nobody has at the table (GC-4 rev. 2)."""
    t = make_table(client, data_dir, "gemcomplete")
    play_through(app, client, t, limit=10, undo_at=-1)
    path = f"/api/tables/{t['table']}/replay?step=3"
    for tok in (t["seats"][0]["token"], t["seats"][1]["token"], None):
        r = client.get(path, headers=bearer(tok) if tok else {})
        assert r.status_code == 403 and r.json["code"] == "replay_after_the_game"
    assert client.get(path, headers=bearer(t["host_token"])).status_code == 200
    page = client.get(f"/t/{t['table']}/replay?token={t['seats'][0]['token']}")
    assert page.status_code == 403 and b"when the game is over" in page.data
    shell = client.get(f"/t/{t['table']}/replay")  # a reload: the tab brings the token
    assert shell.status_code == 200 and t["host_token"].encode() not in shell.data


def test_the_record_tells_each_play_as_the_live_history_does(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """Each viewer's record says what its page's history says (issue 18 §2: told when
    read, for that viewer), undone plays and undo lines included."""
    t = make_table(client, data_dir, "gemcomplete")
    play_through(app, client, t, seed=11, limit=90, undo_at=60)
    table = services(app).tables.get(t["table"])
    for viewer, tok in ((Viewer("seat", 1), t["seats"][0]["token"]),
                        (Viewer("seat", 2), t["seats"][1]["token"]), (PUBLIC, None)):
        rec = client.get(f"/api/tables/{t['table']}/record",
                         headers=bearer(tok) if tok else {}).json
        by_seq = {e["seq"]: e["ruling"] for e in rec["events"]}
        told = table.history(viewer, count=60)
        assert any(line["text"].startswith("Undone: ") for line in told)
        for line in told:
            assert by_seq[line["seq"]] == line["text"], (viewer, line)


def test_a_replay_step_out_of_range_or_not_a_number_is_refused_or_clamped(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing")
    play_through(app, client, t, limit=8)
    path = f"/api/tables/{t['table']}/replay"
    host = bearer(t["host_token"])
    for bad in ("-1", "1e3", "x", "9" * 40, "[[["):
        r = client.get(f"{path}?step={bad}", headers=host)
        assert r.status_code == 400 and r.json["code"] == "bad_step", bad
    total = len(services(app).tables.get(t["table"]).records)
    assert client.get(f"{path}?step=999999", headers=host).json["version"] == total
    assert client.get(f"{path}?step=0", headers=host).json["view"]["prompt"]


def test_the_record_lists_every_record_with_who_sent_it_and_what_was_undone(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "wuxing")
    play_through(app, client, t, limit=30)
    rec = client.get(f"/api/tables/{t['table']}/record", headers=bearer(t["host_token"])).json
    table = services(app).tables.get(t["table"])
    assert [e["seq"] for e in rec["events"]] == [r.seq for r in table.records]
    assert rec["game"] == "wuxing" and [p["name"] for p in rec["players"]] == ["Ana", "Ben",
                                                                              "Chen"]
    assert rec["runs"][0]["cards"] == len(t["run"].cards)
    kinds = {e["kind"] for e in rec["events"]}
    assert kinds == {"event", "undo", "timer"}
    undone = [e for e in rec["events"] if e["undone"]]
    assert undone and all(e["kind"] == "event" for e in undone)
    assert any(e["ruling"].startswith("Undone: ") for e in rec["events"] if e["kind"] == "undo")
    assert {e["who"] for e in rec["events"]} <= {"the referee", "the companion"}
    assert all("event" in e for e in rec["events"])  # the referee reads what was sent


def test_a_seat_record_never_shows_the_other_seat_hidden_cards(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """Gem Complete's Locus is set face down (C-7): Ben's record names none of Ana's
    serials, and carries no event fields; the referee's record has them."""
    t = make_table(client, data_dir, "gemcomplete")
    play_through(app, client, t, seed=5, limit=80, undo_at=40)
    serials = [c.serial for c in t["run"].cards]
    host = client.get(f"/api/tables/{t['table']}/record", headers=bearer(t["host_token"]))
    ben = client.get(f"/api/tables/{t['table']}/record",
                     headers=bearer(t["seats"][1]["token"]))
    public = client.get(f"/api/tables/{t['table']}/record")
    assert host.status_code == ben.status_code == public.status_code == 200
    assert any(s in host.get_data(as_text=True) for s in serials)
    for r in (ben, public):
        text = r.get_data(as_text=True)
        assert not [s for s in serials if s in text]
        assert all("event" not in e for e in r.json["events"])


def test_the_record_as_csv_is_one_line_per_record_and_never_a_formula(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    t = make_table(client, data_dir, "shrine")
    play_through(app, client, t, limit=20)
    r = client.get(f"/api/tables/{t['table']}/record?format=csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0] == ["seq", "time", "kind", "who", "ruling", "undone"]
    assert len(rows) - 1 == len(services(app).tables.get(t["table"]).records)
    assert not [row for row in rows[1:] if row[4][:1] in ("=", "+", "-", "@")]
    bad = client.get(f"/api/tables/{t['table']}/record?format=xlsx")
    assert bad.status_code == 400 and bad.json["code"] == "bad_format"


def test_a_deleted_table_is_gone_with_its_record_and_replay(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    """C-7 rev. 3 (issue 27 §3): the record of a deleted table was still served. Deleted is
    gone for everyone: the record (JSON and CSV), the replay and its page answer 410 with
    the host's token as without one; the history tells the device to forget it."""
    t = make_table(client, data_dir, "godnum")
    play_through(app, client, t, limit=400, undo_at=-1)
    table = services(app).tables.get(t["table"])
    assert table.match.state.finished
    before = client.get(f"/api/tables/{t['table']}/record", headers=bearer(t["host_token"]))
    assert before.status_code == 200 and before.json["winners"]
    assert client.delete(f"/api/tables/{t['table']}",
                         headers=bearer(t["host_token"])).status_code in (200, 204)
    assert client.get(f"/api/tables/{t['table']}").status_code == 410
    for tok in (t["host_token"], t["seats"][0]["token"], None):
        headers = bearer(tok) if tok else {}
        for url in (f"/api/tables/{t['table']}/record",
                    f"/api/tables/{t['table']}/record?format=csv",
                    f"/api/tables/{t['table']}/replay?step=1"):
            r = client.get(url, headers=headers)
            assert r.status_code == 410 and r.json["code"] == "table_deleted", (url, tok)
            assert "Ana" not in r.get_data(as_text=True)
    page = client.get(f"/t/{t['table']}/replay?token={t['host_token']}")
    assert page.status_code == 404 and b"replay.js" not in page.data
    h = client.post("/api/history", json={"tables": [{"id": t["table"],
                                                      "token": t["host_token"]}]})
    assert h.status_code == 200
    assert h.json["tables"] == [] and h.json["deleted"] == [t["table"]]
    assert h.json["refused"] == 0


def test_history_reads_only_the_tables_the_device_is_host_of(
        app: Flask, client: FlaskClient, data_dir: Path) -> None:
    a = make_table(client, data_dir, "godnum", seed=1)
    b = make_table(client, data_dir, "godnum", seed=2)
    for t in (a, b):
        play_through(app, client, t, limit=400, undo_at=-1)
    r = client.post("/api/history", json={"tables": [
        {"id": a["table"], "token": a["host_token"]},
        {"id": b["table"], "token": b["host_token"]},
        {"id": a["table"], "token": a["seats"][0]["token"]},  # a seat token: not the host's
        {"id": "nope", "token": "x"}, "junk"]})
    assert r.status_code == 200, r.json
    assert {s["table"] for s in r.json["tables"]} == {a["table"], b["table"]}
    assert r.json["refused"] == 3
    ana = next(p for p in r.json["players"] if p["name"] == "Ana")
    assert ana["games"] == 2 and ana["by_game"]["godnum"]["games"] == 2
    too_many = client.post("/api/history", json={"tables": [{"id": "x", "token": "y"}] * 201})
    assert too_many.status_code == 400


def test_players_are_matched_by_name_with_wins_and_the_longest_run_of_wins() -> None:
    def game(created: float, players: list[str], winners: list[str]) -> dict[str, Any]:
        return {"created": created, "finished": True, "game": "wuxing", "players": players,
                "winners": winners}

    figures = player_figures([
        game(1, ["Ana", "Ben"], ["Ana"]), game(2, ["ana ", "Ben"], ["ana "]),
        game(3, ["ANA", "Ben"], ["Ben"]), game(4, ["Ana", "Ben"], ["Ana"]),
        {"created": 5, "finished": False, "game": "wuxing", "players": ["Ana"], "winners": []},
    ])
    ana = next(f for f in figures if f["name"].casefold().strip() == "ana")
    ben = next(f for f in figures if f["name"] == "Ben")
    assert (ana["games"], ana["wins"], ana["longest_streak"]) == (4, 3, 2)
    assert (ben["games"], ben["wins"], ben["longest_streak"]) == (4, 1, 1)
    assert figures[0] is ana  # the most wins first


def _exported(folder: Path) -> dict[str, Any]:
    out = {}
    for p in sorted((folder / "tables").glob("*.json")):
        doc = json.loads(p.read_text())
        doc["record"].pop("exported")
        out[p.name] = doc
    out["games.csv"] = (folder / "games.csv").read_text()  # type: ignore[assignment]
    out["runs"] = sorted(p.name for p in (folder / "runs").glob("*.json"))  # type: ignore[assignment]
    return out


def test_export_then_import_loses_and_changes_nothing(
        app: Flask, client: FlaskClient, data_dir: Path, tmp_path: Path) -> None:
    tables = [make_table(client, data_dir, g, seed=i) for i, g in enumerate(GAMES, 1)]
    for t in tables:
        play_through(app, client, t, limit=120)
    done = next(t for t in tables if services(app).tables.get(t["table"]).match.state.finished)
    client.delete(f"/api/tables/{done['table']}", headers=bearer(done["host_token"]))
    services(app).close()

    first = tmp_path / "export1"
    assert export(data_dir, first) == {"tables": 5, "runs": 5}
    assert (first / "tables" / f"{done['table']}.json").stat().st_mode & 0o077 == 0
    other = tmp_path / "other"
    assert import_into(first, other) == {"tables": 5, "skipped": 0, "runs": 5}
    assert import_into(first, other) == {"tables": 0, "skipped": 5, "runs": 0}
    second = tmp_path / "export2"
    export(other, second)
    assert _exported(first) == _exported(second)
    rows = list(csv.DictReader(io.StringIO((first / "games.csv").read_text())))
    assert sorted(r["game"] for r in rows) == sorted(GAMES)

    # A table of the same id with another log is refused by name; nothing of it written.
    path = first / "tables" / f"{done['table']}.json"
    doc = json.loads(path.read_text())
    doc["table"]["records"][0]["ruling"] = "tampered"
    path.write_text(json.dumps(doc))
    with pytest.raises(ArchiveError, match=done["table"]):
        import_into(first, other)


def test_stats_prints_players_and_tables(app: Flask, client: FlaskClient, data_dir: Path
                                         ) -> None:
    t = make_table(client, data_dir, "godnum")
    play_through(app, client, t, limit=400, undo_at=-1)
    services(app).close()
    figures = stats(data_dir)
    assert [s["table"] for s in figures["tables"]] == [t["table"]]
    text = stats_text(figures)
    assert "Players (matched by name)" in text and "God Num" in text
    assert all(p["games"] == 1 for p in figures["players"])
    with pytest.raises(ArchiveError, match="not a data dir"):
        stats(data_dir / "nothing-here")


@pytest.mark.browser
def test_the_replay_and_history_pages_step_by_key_and_pass_axe(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """The replay steps with the arrow keys; both pages have no critical or serious axe
    violation, on the big screen and on a small phone, and never scroll sideways."""
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "godnum")
    play_through(app, client, t, limit=400, undo_at=3)
    steps = len(services(app).tables.get(t["table"]).records)
    axe = Axe()
    links = [{"table": t["table"], "title": "God Num", "players": [],
              "referee": f"{base}/t/{t['table']}/referee?token={t['host_token']}"}]
    for size in ({"width": 1920, "height": 1080}, {"width": 360, "height": 640}):
        page = browser.new_context(viewport=size).new_page()
        page.goto(f"{base}/t/{t['table']}/replay?token={t['seats'][0]['token']}")
        body = page.locator("body")  # the pages' CSP allows no eval: wait on the attribute
        expect(body).to_have_attribute("data-step", str(steps), timeout=20_000)
        assert "token=" not in page.url  # the token left the address bar
        page.keyboard.press("ArrowLeft")
        expect(body).to_have_attribute("data-step", str(steps - 1))
        page.keyboard.press("Home")
        expect(body).to_have_attribute("data-step", "0")
        page.goto(f"{base}/history")
        page.evaluate("x => localStorage.setItem('companion.referee-links.v2', "
                      "JSON.stringify(x))", links)
        page.reload()
        page.wait_for_selector("#history-tables li")
        for url in (f"{base}/t/{t['table']}/replay?token={t['host_token']}&step=5",
                    f"{base}/history"):
            page.goto(url)
            page.wait_for_timeout(800)
            bad = [v["id"] for v in axe.run(page).response["violations"]
                   if v["impact"] in ("critical", "serious")]
            assert bad == [], (url, size, bad)
            assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        page.context.close()
