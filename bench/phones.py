"""``companion bench phones``: a phone as the live table camera, through the real endpoint.

Frame sequences are made from the project's own printed cards on the printed mat
(``bench.scenes``, as ``companion bench cv`` makes them), 1280x720, uploaded as JPEG (quality
80, as the page's ``canvas.toBlob``) at 5 frames a second to ``POST .../camera/frames`` of
an app on a temporary data dir (Flask's test client: the whole request, token, decoding,
tracking and the scan played on the table, without the network).

Printed:

* placed -> accepted: from the first frame that shows a card lying in its zone to the
  end of the request whose answer says the referee accepted its scan (frames 200 ms
  apart, plus that request's own time);
* 4 cameras at once: four tables, each with its phone sending 5 frames a second, the
  requests run one after another on one thread; the share of one core they take (CPU
  time of the requests over the seconds of video), and ms per request.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from flask.testing import FlaskClient

from bench import scenes
from companion import tablemat
from companion.registry import demo_run
from companion.runs import PrintRun, RunStore
from cv.live import encode_frame

FPS = 5.0
SIZE = (1280, 720)
NAMES = ["Ana", "Ben", "Chen"]


def new_table(client: FlaskClient, data_dir: Path, seed: int) -> tuple[dict[str, Any],
                                                                        PrintRun]:
    """A WuXing table for 3 whose next play is the Universe card (WX-12 decided)."""
    run = demo_run("wuxing", 3, random.Random(seed))
    RunStore(data_dir).save(run)
    r = client.post("/api/tables", json={"game": "wuxing", "players": NAMES,
                                          "runs": [run.run_id]})
    t: dict[str, Any] = r.get_json()
    client.post(f"/api/tables/{t['table']}/actions", json={"type": "rps", "winner": 1},
                headers={"Authorization": f"Bearer {t['host_token']}"})
    return t, run


def universe_card(run: PrintRun, rng: random.Random) -> scenes.PlacedCard:
    card = next(c for c in run.cards if c.deck == "universe" and c.face.kind == "element")
    zone = next(z for z in tablemat.zones("wuxing", 3) if z.name == "universe")
    return scenes.PlacedCard(card.payload, zone.centre[0] + rng.uniform(-8, 8),
                             zone.centre[1] + rng.uniform(-8, 8), rng.uniform(0, 360),
                             "universe")


def frames(renderer: scenes.SceneRenderer, card: scenes.PlacedCard, rng: random.Random,
           empty: int, full: int, max_tilt: float = 30.0) -> list[bytes]:
    """``empty`` frames of the bare mat, then ``full`` with the card lying in its zone."""
    h = scenes.random_camera(SIZE, rng, max_tilt)
    look = scenes.random_look(rng)
    out = []
    for i in range(empty + full):
        cards = [card] if i >= empty else []
        out.append(encode_frame(renderer.render(cards, h, SIZE, scenes.jitter(look, rng),
                                                rng)))
    return out


def post_frame(client: FlaskClient, t: dict[str, Any], data: bytes, seq: int, ts: float
               ) -> tuple[Any, float, float]:
    c0, t0 = time.thread_time(), time.perf_counter()
    r = client.post(f"/api/tables/{t['table']}/camera/frames?seq={seq}&t={ts:.3f}",
                    data=data, headers={"Content-Type": "image/jpeg",
                                        "Authorization": f"Bearer {t['camera_token']}"})
    return r, (time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000


def run_bench(scenes_n: int = 30, seconds: float = 10.0, seed: int = 1) -> int:
    from web import create_app, services

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": tmp, "DB_SYNCHRONOUS": "NORMAL",
                          "PUBLIC_URL": "http://table.local:8000/"})
        client = app.test_client()
        try:
            latencies, accepted, wrong = [], 0, 0
            req_ms: list[float] = []
            for i in range(scenes_n):
                t, run = new_table(client, Path(tmp), seed * 1000 + i)
                renderer = scenes.SceneRenderer(
                    "wuxing", 3, face=scenes.default_face_renderer([run]))
                card = universe_card(run, rng)
                empty = 3
                shots = frames(renderer, card, rng, empty, 8)
                for f, data in enumerate(shots):
                    r, ms, _ = post_frame(client, t, data, f + 1, f / FPS)
                    req_ms.append(ms)
                    sent = r.json.get("sent", []) if r.status_code == 200 else []
                    if sent:
                        ok = sent[-1]["status"] == 200 and sent[-1]["zone"] == "universe"
                        accepted += ok
                        wrong += not ok
                        latencies.append((f - empty) / FPS * 1000 + ms)
                        break
            print(f"Live phone camera: {scenes_n} scenes, 1280x720 JPEG uploads at 5 fps, tilt "
                  "0-30 deg, blur 0-1 px; one card placed in the Universe zone per scene.")
            print(f"  accepted {accepted}/{scenes_n}, wrong {wrong}; placed -> accepted "
                  f"median {statistics.median(latencies):.0f} ms, p90 "
                  f"{float(np.percentile(latencies, 90)):.0f} ms, max {max(latencies):.0f} ms"
                  if latencies else "  no card accepted")
            print(f"  request ms (frame in, answer out): median {statistics.median(req_ms):.1f},"
                  f" p90 {float(np.percentile(req_ms, 90)):.1f}")
            # Four phones, each on its own table, 5 frames a second each.
            phones = []
            for k in range(4):
                t, run = new_table(client, Path(tmp), seed * 7000 + k)
                renderer = scenes.SceneRenderer(
                    "wuxing", 3, face=scenes.default_face_renderer([run]))
                shots = frames(renderer, universe_card(run, rng), rng, 3, 12)
                phones.append((t, shots))
            n = int(seconds * FPS)
            cpu = 0.0
            ms4: list[float] = []
            for f in range(n):
                for t, shots in phones:
                    # After the bare mat, the frames of the card lying there, in a loop.
                    i = f if f < len(shots) else 3 + (f - 3) % (len(shots) - 3)
                    r, ms, c = post_frame(client, t, shots[i], f + 1, f / FPS)
                    cpu += c
                    ms4.append(ms)
            placed = sum(client.get(f"/api/tables/{t['table']}").get_json()["version"] == 2
                         for t, _ in phones)
            share = cpu / (seconds * 1000)
            print(f"4 cameras at once, {seconds:.0f} s of video each ({4 * n} frames): "
                  f"{100 * share:.0f}% of one core (CPU time); request ms median "
                  f"{statistics.median(ms4):.1f}, p90 {float(np.percentile(ms4, 90)):.1f}; "
                  f"cards accepted {placed}/4.")
        finally:
            services(app).close()
    return 0
