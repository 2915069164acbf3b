"""``companion bench web``: scan-to-phone latency and how many event streams one process holds.

Everything runs in this process on loopback: a waitress server (as ``serve`` runs it), a
WuXing table, ``phones`` SSE clients (one thread each, httpx streaming), and the camera
posting scans. Latency is from just before the scan's POST until a phone has parsed the
SSE event carrying the new version; the clients share the GIL with the server, so the
figures are an upper bound of what real phones see. Every loop is bounded.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from companion.registry import demo_run
from web import create_app, services
from web.server import make_server, stop_in_thread

PLAYERS = ["Ana", "Ben", "Chen", "Dara"]


class Phone(threading.Thread):
    """One SSE client: remembers when each version arrived."""

    def __init__(self, client: httpx.Client, url: str) -> None:
        super().__init__(daemon=True)
        self.client = client
        self.url = url
        self.seen: dict[int, float] = {}
        self.error: str | None = None
        self.cond = threading.Condition()

    def run(self) -> None:
        try:
            with self.client.stream("GET", self.url) as resp:
                for line in resp.iter_lines():
                    if line.startswith("id: "):
                        now = time.perf_counter()
                        with self.cond:
                            self.seen[int(line[4:])] = now
                            self.cond.notify_all()
        except httpx.HTTPError as exc:
            self.error = f"{type(exc).__name__}: {exc}"

    def wait_for(self, version: int, deadline: float) -> float | None:
        with self.cond:
            while True:
                got = [t for v, t in self.seen.items() if v >= version]
                if got:
                    return min(got)
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                self.cond.wait(left)


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))
    return s[k]


def run_bench(phones: int = 20, scans: int = 40, streams: int = 200) -> int:
    phones = max(1, min(phones, 500))
    scans = max(1, min(scans, 1000))
    streams = max(1, min(streams, 900))
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": str(Path(tmp) / "data"), "SSE_PING": 5.0})
        svc = services(app)
        svc.runs.save(demo_run("wuxing", len(PLAYERS)))
        server = make_server(app, "127.0.0.1", 0, threads=streams + phones + 32)
        base = f"http://127.0.0.1:{server.effective_port}"
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        # One client for every stream (a client each would spend seconds making TLS contexts).
        clients = httpx.Client(timeout=httpx.Timeout(60.0, connect=10.0),
                               limits=httpx.Limits(max_connections=None,
                                                   max_keepalive_connections=None))
        readers: list[Phone] = []
        try:
            return _measure(app, base, clients, readers, phones, scans, streams)
        finally:
            svc.broker.close()  # every stream ends; the readers see the end of the body
            end = time.perf_counter() + 10
            for r in readers:
                r.join(max(0.0, end - time.perf_counter()))
            clients.close()
            stop_in_thread(server, thread)
            svc.store.close()


def _measure(app: Any, base: str, clients: httpx.Client, readers: list[Phone],
             n_phones: int, n_scans: int, n_streams: int) -> int:
    svc = services(app)
    http = httpx.Client(base_url=base, timeout=10.0)
    t = http.post("/api/tables", json={"game": "wuxing", "players": PLAYERS}).json()
    tid = t["table"]
    table = svc.tables.get(tid)
    host = {"Authorization": f"Bearer {t['host_token']}"}
    cam = {"Authorization": f"Bearer {t['camera_token']}"}
    tokens = [s["token"] for s in t["seats"]] + [""]

    phones = [Phone(clients, f"{base}/api/tables/{tid}/events?token={tokens[i % len(tokens)]}")
              for i in range(n_phones)]
    readers.extend(phones)
    for p in phones:
        p.start()
    deadline = time.perf_counter() + 15
    connected = sum(p.wait_for(table.version, deadline) is not None for p in phones)
    print(f"phones connected: {connected}/{n_phones}")

    rng = random.Random(7)
    latencies: list[float] = []
    missed = 0
    measured = 0
    for _ in range(n_scans * 3):
        if measured >= n_scans or table.match.state.finished:
            break
        event = table.rules.random_play(table.match.state, rng)
        if event is None:
            break
        if event.get("type") != "scan" or event.get("override"):
            r = http.post(f"/api/tables/{tid}/actions", json=dict(event), headers=host)
            if r.status_code != 200:
                print(f"action refused: {r.text}")
                return 1
            continue
        payload = table.book.card(event["card"]).payload
        t0 = time.perf_counter()
        r = http.post(f"/api/tables/{tid}/scans", headers=cam,
                      json={"payload": payload, "zone": event["zone"]})
        if r.status_code != 200:
            print(f"scan refused: {r.text}")
            return 1
        version = r.json()["version"]
        deadline = time.perf_counter() + 5
        for p in phones:
            got = p.wait_for(version, deadline)
            if got is None:
                missed += 1
            else:
                latencies.append((got - t0) * 1000)
        measured += 1
    ms = [round(x, 2) for x in latencies]
    print(f"scan-to-phone latency, {measured} scans x {n_phones} phones "
          f"({len(ms)} deliveries, {missed} missed): "
          f"p50 {pct(ms, 50):.1f} ms, p95 {pct(ms, 95):.1f} ms, max {max(ms, default=0):.1f} ms"
          + (f", mean {statistics.fmean(ms):.1f} ms" if ms else ""))

    # Concurrent streams: open n_streams more, wait until each has its first event, push once.
    streams = [Phone(clients, f"{base}/api/tables/{tid}/events") for _ in range(n_streams)]
    readers.extend(streams)
    t_open = time.perf_counter()
    for s in streams:
        s.start()
    deadline = time.perf_counter() + 30
    opened = sum(s.wait_for(table.version, deadline) is not None for s in streams)
    open_s = time.perf_counter() - t_open
    t0 = time.perf_counter()
    r = http.post(f"/api/tables/{tid}/timer", json={"seconds": 60}, headers=host)
    version = r.json()["version"]
    deadline = time.perf_counter() + 10
    arrivals = [s.wait_for(version, deadline) for s in streams]
    pushed = [(a - t0) * 1000 for a in arrivals if a is not None]
    print(f"concurrent event streams: {opened}/{n_streams} open in {open_s:.1f} s "
          f"(+{n_phones} phones, {svc.broker.count()} streams on the server); "
          f"push reached {len(pushed)}/{n_streams}: p50 {pct(pushed, 50):.1f} ms, "
          f"max {max(pushed, default=0):.1f} ms")
    errors = [p.error for p in [*phones, *streams] if p.error]
    if errors:
        print(f"client errors: {len(errors)} (first: {errors[0]})")
    rss = _rss_mb()
    if rss:
        print(f"process memory (server and all clients): {rss:.0f} MB RSS")
    http.close()
    ok = connected == n_phones and missed == 0 and len(pushed) == n_streams
    p95 = pct(ms, 95)
    print(f"targets: p95 < 50 ms on loopback: {'met' if p95 < 50 else 'NOT met'}; "
          f"{n_streams} streams: {'met' if len(pushed) == n_streams else 'NOT met'}")
    return 0 if ok else 1


def _rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None
