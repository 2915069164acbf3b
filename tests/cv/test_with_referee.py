"""The camera against the real referee (web app on a local port): the table's game and
seats come from the referee, a placed card is applied once, a refusal is final."""

from __future__ import annotations

import json
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest

import companion_cli
import web
from bench import scenes

# The web tests' helpers (config for a test app) live beside them, not in a package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
import webtools


@pytest.fixture()
def referee(tmp_path: Path) -> Iterator[tuple[str, Any, Path]]:
    from web.server import make_server

    data = tmp_path / "data"
    app = web.create_app(webtools.config(data))
    server = make_server(app, "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", app, data
    finally:
        server.close()
        web.services(app).close()


def test_watching_a_clip_sends_the_placed_cards_to_the_referee(
        referee: tuple[str, Any, Path], tmp_path: Path) -> None:
    url, app, data = referee
    client = app.test_client()
    table = webtools.make_table(client, data, "wuxing", 3)
    host = webtools.bearer(table["host_token"])
    r = client.post(f"/api/tables/{table['table']}/actions", json={"type": "rps", "winner": 1},
                    headers=host)
    assert r.status_code < 300, r.json
    run = table["run"]
    universe = next(c for c in run.cards if c.deck == "universe"
                    and not any(w in c.face.id for w in ("dragon", "star")))
    stranger = webtools.demo_run("wuxing", 3, random.Random(99)).cards[0]  # never registered
    renderer = scenes.SceneRenderer("wuxing", 3, face=scenes.default_face_renderer(
        [run, webtools.demo_run("wuxing", 3, random.Random(99))]))
    rng = random.Random(5)
    cards = [scenes.PlacedCard(universe.payload, 400, 228, 12, "universe"),
             scenes.PlacedCard(stranger.payload, 395, 372, -8, "seat:1")]
    h = scenes.camera_homography((1280, 720), 20, 100, 2)
    look = scenes.Look(blur=0.4)
    folder = tmp_path / "clip"
    folder.mkdir()
    for i in range(24):
        image = renderer.render(cards if i >= 4 else [], h, (1280, 720),
                                scenes.jitter(look, rng), rng)
        cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    state = tmp_path / "outbox"
    code = companion_cli.main([
        "watch", "--images", str(folder), "--server", url, "--table", table["table"],
        "--token", table["camera_token"], "--state-dir", str(state), "--preview-port", "0"])
    assert code == 0
    sent = [json.loads(x) for x in (state / "sent.jsonl").read_text().splitlines()]
    refused = [json.loads(x) for x in (state / "refused.jsonl").read_text().splitlines()]
    assert [(s["payload"], s["zone"]) for s in sent] == [(universe.payload, "universe")]
    assert sent[0]["message"]  # the referee's ruling sentence
    assert [s["payload"] for s in refused] == [stranger.payload]
    assert refused[0]["code"] and "not registered" in refused[0]["message"]
    log = client.get(f"/api/tables/{table['table']}/log", headers=host).json["log"]
    scans = [e for e in log if (e.get("event") or e).get("type") == "scan"]
    assert len(scans) == 1
