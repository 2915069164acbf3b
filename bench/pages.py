"""``companion bench pages``: screenshots of every game's pages, for people to look at.

For each game a table is made on a private server with a demo print run; Debian's Chromium
(through Playwright) opens the big screen (1280x800, with the join codes), the referee page
(1280x800) and the first seat's phone (390x844), and each is shot at the start, mid-game,
after a refused card, after an undo and at the end. Plays are random legal events
(``Rules.random_play``) posted through the API as the referee, as a table would send them.
"""

from __future__ import annotations

import logging
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.registry import GAMES, demo_run, find_rules
from companion.runs import RunStore

NAMES = ["Ana", "Ben", "Chen", "Dara"]
PLAYERS = {"wuxing": 3, "godnum": 3, "shrine": 3, "mountains": 2, "gemcomplete": 2}
MID_PLAYS = 7
END_PLAYS = 5000  # a bound on a random game, far above any seen (WuXing: a few hundred)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


@contextmanager
def _server(data_dir: Path) -> Iterator[tuple[str, Any]]:
    from werkzeug.serving import make_server

    from web import create_app, services

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request is noise
    app = create_app({"DATA_DIR": str(data_dir), "DB_SYNCHRONOUS": "NORMAL", "SSE_PING": 1.0})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_URL"] = base + "/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base, app
    finally:
        services(app).broker.close()
        server.shutdown()
        services(app).close()


def _post(client: Any, tid: str, host: str, path: str, body: dict[str, Any]) -> Any:
    v = client.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {host}"}).json
    return client.post(f"/api/tables/{tid}{path}", json={**body, "version": v["version"]},
                       headers={"Authorization": f"Bearer {host}"})


def _plays(app: Any, client: Any, tid: str, host: str, count: int, rng: random.Random) -> int:
    """Up to ``count`` random legal plays through the API; how many were applied."""
    from web import services

    table = services(app).tables.get(tid)
    done = 0
    while done < count and not table.match.state.finished:
        event = table.rules.random_play(table.match.state, rng)
        if event is None:
            break
        r = _post(client, tid, host, "/actions", dict(event))
        if r.status_code != 200:
            break
        done += 1
    return done


def _pages(browser: Any, base: str, t: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    from playwright.sync_api import ViewportSize

    big = ViewportSize(width=1280, height=800)
    phone = ViewportSize(width=390, height=844)
    tid, host = t["table"], t["host_token"]
    return {
        "big": (browser.new_context(viewport=big).new_page(), f"{base}/t/{tid}?token={host}"),
        "referee": (browser.new_context(viewport=big).new_page(),
                    f"{base}/t/{tid}/referee?token={host}"),
        "phone": (browser.new_context(viewport=phone, is_mobile=True, has_touch=True)
                  .new_page(), t["seats"][0]["join_url"]),
    }


def _load(pages: dict[str, tuple[Any, str]]) -> None:
    for page, url in pages.values():
        page.goto(url)
        page.wait_for_selector("#live.on", timeout=20_000)


def _snap(out: Path, game: str, moment: str, pages: dict[str, tuple[Any, str]]) -> list[Path]:
    time.sleep(0.6)  # the banner and the stream settle
    written = []
    for name, (page, _) in pages.items():
        path = out / f"{game}-{moment}-{name}.png"
        page.screenshot(path=str(path), full_page=name != "big")
        written.append(path)
    return written


def _game(out: Path, data: Path, app: Any, browser: Any, base: str, game: str,
          seed: int) -> list[Path]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from web import services

    client = app.test_client()
    n = PLAYERS.get(game, find_rules(game).min_players)
    run = demo_run(game, n, random.Random(seed))
    RunStore(data).save(run)
    t = client.post("/api/tables", json={"game": game, "players": NAMES[:n],
                                         "runs": [run.run_id]}).json
    tid, host = t["table"], t["host_token"]
    pages = _pages(browser, base, t)
    rng = random.Random(seed)
    _load(pages)
    written = _snap(out, game, "1-start", pages)
    _plays(app, client, tid, host, MID_PLAYS, rng)
    written += _snap(out, game, "2-mid", pages)
    # A card sent where the table does not wait for it: every page says who was refused,
    # the referee page why (with an override where C-1 allows one).
    ref = pages["referee"][0]
    table = services(app).tables.get(tid)
    shown = [r.body["card"] for r in table.records if r.kind == "event"
             and r.body.get("type") == "scan"] or [run.cards[0].serial]
    other = ref.locator("#entry-zones button:not(.due)")
    if other.count():
        other.first.click()
    ref.locator("#entry details.type-code summary").click()
    ref.fill("#entry-card", shown[0])
    ref.locator("#entry-code button").click()
    try:
        ref.wait_for_selector("#refusal:not([hidden])", timeout=8_000)
    except PlaywrightTimeout:
        print(f"{game}: the card {shown[0]} was not refused; no refusal to show")
    written += _snap(out, game, "3-refused", pages)
    ref.locator("#undo").click()
    ref.locator("#undo").click()
    ref.wait_for_selector("#refusal[hidden]", state="attached", timeout=10_000)
    written += _snap(out, game, "4-undone", pages)
    for page, _ in pages.values():  # a whole game without three pages redrawing each play
        page.goto("about:blank")
    played = _plays(app, client, tid, host, END_PLAYS, rng)
    _load(pages)
    written += _snap(out, game, "5-end", pages)
    print(f"{game}: {MID_PLAYS} plays mid-game, {played} more to the end; "
          f"{len(written)} screenshots")
    for page, _ in pages.values():
        page.context.close()
    return written


def shoot(out: Path, games: Sequence[str], seed: int = 1) -> list[Path]:
    """Write the screenshots into ``out``; the files written. Raises ``RuntimeError`` when
    Debian's chromium is missing."""
    from playwright.sync_api import sync_playwright

    exe = shutil.which("chromium")
    if exe is None:
        raise RuntimeError("Debian's chromium is not installed (apt-get install chromium)")
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    # Its own throwaway data, never a folder inside ``out``: run from the project root,
    # ``out/data`` could be ./scripts/run's tables (issue 19 §6). Only what it made goes.
    with tempfile.TemporaryDirectory(prefix="companion-pages-") as tmp:
        data = Path(tmp) / "data"
        with _server(data) as (base, app), sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, args=ARGS)
            for game in games:
                written += _game(out, data, app, browser, base, game, seed)
            browser.close()
    return written


def run_bench(out: str, games: Sequence[str] | None) -> int:
    chosen = list(games or GAMES)
    unknown = [g for g in chosen if g not in GAMES]
    if unknown:
        raise SystemExit(f"companion: no game {unknown[0]!r}; the games are {', '.join(GAMES)}")
    t0 = time.perf_counter()
    files = shoot(Path(out).resolve(), chosen)
    print(f"{len(files)} screenshots in {Path(out).resolve()} "
          f"({time.perf_counter() - t0:.0f} s)")
    return 0
