"""``companion bench flood``: what strangers and stored tables cost a server (issue 19).

1. The red team's floods at the default limits: 150 creations with the host token of a
   table just made, 150 "play again" from one address: how many get through.
2. Memory with ``tables`` stored tables: the process's RSS with every table in memory,
   after the idle ones left it, and after as many again were made and left; a sample of
   tables compared snapshot for snapshot before leaving and after loading again.
3. The list and a made-up token with every table stored: ``GET /api/tables`` and a
   refused ``GET /api/tables/<t>/log`` (first request, p50, p95).
4. Refusals: a 6-seat table with a long log and 9 pages open, 300 refused moves: CPU per
   refusal and what the pages were sent.

SQLite by default (a throwaway data dir); ``--database URL`` runs 2 and 3 on that
(throwaway) PostgreSQL database instead. Only the test client is used: nothing listens.
"""

from __future__ import annotations

import gc
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.serving import _rss_mb, pct
from companion.registry import demo_run
from companion.runs import RunStore
from web import create_app, services
from web.broker import StreamsFull

NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fay"]


def _app(data: Path, database: str | None, **extra: Any) -> Any:
    RunStore(data).save(demo_run("wuxing", 6, random.Random(1)))
    return create_app({"DATA_DIR": str(data), "DATABASE": database,
                       "DB_SYNCHRONOUS": "NORMAL", **extra})


def _floods(data: Path) -> None:
    app = _app(data, None)
    client = app.test_client()
    body = {"game": "wuxing", "players": NAMES[:3]}
    first = client.post("/api/tables", json=body).json
    host = {"Authorization": f"Bearer {first['host_token']}"}
    made = sum(client.post("/api/tables", json=body, headers=host).status_code == 201
               for _ in range(150))
    again = sum(client.post(f"/api/tables/{first['table']}/again",
                            headers=host).status_code == 201 for _ in range(150))
    print(f"floods at the defaults: {made} of 150 creations with a host token and {again} "
          f"of 150 'play again' accepted (were 150 and 150)")
    services(app).close()
    _totals(data / "totals")


def _totals(data: Path) -> None:
    """Issue 27 §12: 30 addresses each making 20 tables (600 were made), and 12 addresses
    each opening 16 event streams (they held all 192), at the defaults."""
    app = _app(data, None)
    client = app.test_client()
    body = {"game": "wuxing", "players": NAMES[:3]}
    made = [sum(client.post("/api/tables", json=body, environ_base={
        "REMOTE_ADDR": f"10.0.0.{n}"}).status_code == 201 for _ in range(20))
        for n in range(1, 31)]
    print(f"30 addresses x 20 creations at the defaults: {sum(made)} made (were 600; "
          f"the first address {made[0]}, the 30th {made[-1]})")
    broker = services(app).broker
    cap, per = int(app.config["SSE_MAX_STREAMS"]), int(app.config["SSE_MAX_PER_CLIENT"])
    for n in range(12):
        for _ in range(per):
            try:
                broker.subscribe("t", f"10.0.1.{n}", max_total=cap, max_per_client=per)
            except StreamsFull:
                break
    held = broker.count()
    print(f"12 addresses x {per} live pages, {cap} in all: they hold {held}, {cap - held} "
          f"left for other devices (were 192 and 0)")
    services(app).close()


def _timed(fn: Any, n: int) -> tuple[float, float, float]:
    first = 0.0
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        fn()
        dt = (time.perf_counter() - t0) * 1000
        if i == 0:
            first = dt
        times.append(dt)
    return first, statistics.median(times), pct(times, 95)


def _memory_and_list(data: Path, database: str | None, count: int) -> None:
    app = _app(data, database, TABLES_PER_CLIENT=10**9, TABLES_LIVE_PER_CLIENT=10**9,
               TABLES_TOTAL=10**9)
    svc = services(app)
    tables = svc.tables
    client = app.test_client()
    rng = random.Random(3)
    gc.collect()
    rss0 = _rss_mb() or 0.0
    t0 = time.perf_counter()
    made = []
    for _ in range(count):
        table = tables.create("wuxing", NAMES[:3])
        for _ in range(4):  # a few plays each: a log to replay
            event = table.rules.random_play(table.match.state, rng)
            if event is None:
                break
            table.play(svc.store, dict(event), svc.tables.get(table.id).viewer_for(
                table.config["host_token"]))
        made.append(table.id)
    took = time.perf_counter() - t0
    gc.collect()
    rss_all = _rss_mb() or 0.0
    sample = made[:: max(1, count // 20)]
    host = {tid: {"Authorization": f"Bearer {tables.get(tid).config['host_token']}"}
            for tid in sample}

    def snap(tid: str) -> dict[str, Any]:
        out: dict[str, Any] = client.get(f"/api/tables/{tid}", headers=host[tid]).json
        out.pop("now", None)
        return out

    before = {tid: snap(tid) for tid in sample}
    left = tables.evict_idle(time.monotonic() + tables.idle_after + 1)
    gc.collect()
    rss_left = _rss_mb() or 0.0
    exact = sum(snap(tid) == before[tid] for tid in sample)
    tables.evict_idle(time.monotonic() + tables.idle_after + 1)
    for i in range(count):  # as many again, the idle ones leaving as they go
        tables.create("wuxing", NAMES[:3])
        if i % 100 == 99:
            tables.evict_idle(time.monotonic() + tables.idle_after + 1)
    tables.evict_idle(time.monotonic() + tables.idle_after + 1)
    gc.collect()
    rss_again = _rss_mb() or 0.0
    where = "PostgreSQL" if database else "SQLite"
    print(f"{count} tables made on {where} in {took:.1f} s; RSS {rss0:.0f} MB before, "
          f"{rss_all:.0f} MB with all in memory ({(rss_all - rss0) * 1024 / count:.0f} KB "
          f"each), {rss_left:.0f} MB after {left} idle ones left, {rss_again:.0f} MB after "
          f"{count} more made and left; {tables.loaded} in memory now")
    print(f"  reloaded by replay: {exact} of {len(sample)} sampled tables exactly as before")
    listed = _timed(lambda: client.get("/api/tables"), 100)
    probe = made[len(made) // 2]
    bad = {"Authorization": "Bearer made-up-token-0123456789"}
    refused = _timed(lambda: client.get(f"/api/tables/{probe}/log", headers=bad), 100)
    assert client.get(f"/api/tables/{probe}/log", headers=bad).status_code == 403
    for label, (first, p50, p95) in (("GET /api/tables", listed),
                                     ("a made-up bearer token", refused)):
        print(f"  {label} with {2 * count} stored: first {first:.1f} ms, p50 {p50:.1f} ms, "
              f"p95 {p95:.1f} ms (target p95 < 50 ms: {'met' if p95 < 50 else 'NOT met'})")
    services(app).close()


def _refusals(data: Path, refusals: int = 300, pages: int = 9) -> None:
    app = _app(data, None, SSE_PING=1.0)
    svc = services(app)
    client = app.test_client()
    table = svc.tables.create("wuxing", NAMES[:6])
    host = table.viewer_for(table.config["host_token"])
    rng = random.Random(9)
    for _ in range(400):  # a long log
        event = table.rules.random_play(table.match.state, rng)
        if event is None or table.match.state.finished:
            break
        table.play(svc.store, dict(event), host)
    tokens = [table.config["host_token"], None, None] + table.config["seat_tokens"]
    got = {"bytes": 0, "snapshots": 0, "notices": 0}
    lock = threading.Lock()

    def read(tok: str | None) -> None:
        headers = {"Authorization": f"Bearer {tok}"} if tok else {}
        resp = client.get(f"/api/tables/{table.id}/events", headers=headers, buffered=False)
        for chunk in resp.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            with lock:
                got["bytes"] += len(text)
                got["snapshots"] += text.count("event: table")
                got["notices"] += text.count("event: refused")
        resp.close()

    readers = [threading.Thread(target=read, args=(tok,), daemon=True)
               for tok in tokens[:pages]]
    for r in readers:
        r.start()
    while svc.broker.count(table.id) < len(readers):
        time.sleep(0.05)
    time.sleep(0.5)
    with lock:
        got = {k: 0 for k in got}
    seat = {"Authorization": f"Bearer {table.config['seat_tokens'][1]}"}
    cpu0 = time.process_time()
    codes = [client.post(f"/api/tables/{table.id}/actions", json={"type": "pass"},
                         headers=seat).status_code for _ in range(refusals)]
    cpu = (time.process_time() - cpu0) * 1000 / refusals
    time.sleep(1.5)
    svc.broker.close()
    for r in readers:
        r.join(timeout=10)
    print(f"{refusals} refusals ({sorted(set(codes))}) on a 6-seat table with "
          f"{table.version} records and {len(readers)} pages open: {cpu:.2f} ms CPU each "
          f"(server and pages together); the pages were sent {got['snapshots']} snapshots, "
          f"{got['notices']} notices, {got['bytes'] / 1024:.1f} KB (were 2,586 snapshots, "
          "28.6 MB)")
    services(app).store.close()


def run_flood_bench(tables: int = 3000, database: str | None = None) -> int:
    with tempfile.TemporaryDirectory(prefix="companion-flood-") as tmp:
        root = Path(tmp)
        _floods(root / "floods")
        _memory_and_list(root / "memory", database, tables)
        _refusals(root / "refusals")
    return 0
