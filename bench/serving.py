"""``companion bench web``: scan-to-phone latency, how many event streams one process
holds, and whether hostile clients can starve it.

Latency and streams run in this process on loopback: a waitress server (as ``serve`` runs
it), a WuXing table, ``phones`` SSE clients (one thread each, httpx streaming), and the
camera posting scans. Latency is from just before the scan's POST until a phone has parsed
the SSE event carrying the new version; the clients share the GIL with the server, so the
figures are an upper bound of what real phones see.

Starvation (issue 10) runs against a real ``companion serve`` child process on 127.0.0.1:
``hostile`` idle event streams (opened from 100 loopback addresses, never read) and
``slow`` clients that send a scan's headers and then its body one byte every few seconds;
meanwhile an ordinary ``GET`` of the table and camera scans are timed (p50/p95), before
and under the load. Every loop is bounded; nothing leaves loopback.
"""

from __future__ import annotations

import contextlib
import random
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from companion.engine import Match
from companion.registry import build_setup, demo_run, find_rules
from companion.runs import RunBook, RunStore
from web import create_app, services
from web.server import make_server, open_files_limit, stop_in_thread

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


def run_bench(phones: int = 20, scans: int = 40, streams: int = 200, hostile: int = 0,
              slow: int = 0) -> int:
    """Print the figures; 0 if every target was met. ``hostile``/``slow`` > 0 add the
    starvation run against a ``companion serve`` child process."""
    phones = max(1, min(phones, 500))
    scans = max(1, min(scans, 1000))
    streams = max(1, min(streams, 900))
    rc = _run_latency(phones, scans, streams)
    if hostile > 0 or slow > 0:
        rc = max(rc, run_starvation(min(hostile, 5000), min(slow, 2000)))
    return rc


def _run_latency(phones: int, scans: int, streams: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        # One address opens every stream here: the per-address cap is the server's default
        # for phones; this run measures how many streams one process can hold.
        app = create_app({"DATA_DIR": str(Path(tmp) / "data"), "SSE_PING": 5.0,
                          "SSE_MAX_PER_CLIENT": streams + phones})
        svc = services(app)
        svc.runs.save(demo_run("wuxing", len(PLAYERS)))
        server = make_server(app, "127.0.0.1", 0, threads=streams + phones + 64)
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


# -- starvation: hostile streams and slow clients against ``companion serve`` -----------------
ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_serve(data: Path, port: int) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """``companion serve --demo`` as a child; the demo table's id and tokens from its output."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion_cli", "serve", "--port", str(port),
         "--data-dir", str(data), "--demo"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found: dict[str, str] = {}
    assert proc.stdout is not None
    for _ in range(400):  # bounded: the demo output is a few dozen lines
        line = proc.stdout.readline()
        if not line:
            break
        if m := re.search(r"Referee page \(host\): +\S+/t/(\w+)/referee\?token=(\S+)", line):
            found["table"], found["host"] = m.group(1), m.group(2)
        elif m := re.search(r"Camera token: +(\S+)", line):
            found["camera"] = m.group(1)
        elif line.startswith("Stop with"):
            break
    # The rest of its output (waitress warnings under load) is drained, so a full pipe can
    # never block the server.
    out = proc.stdout

    def drain() -> None:
        with out:
            for _ in out:
                pass

    threading.Thread(target=drain, name="serve-output", daemon=True).start()
    return proc, found


class Replica:
    """The demo table replayed here from its log, to choose legal scans (C-4: chance events
    come from the log)."""

    def __init__(self, http: httpx.Client, data: Path, tid: str, host: dict[str, str]) -> None:
        self.http, self.tid, self.host = http, tid, host
        snap = http.get(f"/api/tables/{tid}", headers=host).json()
        newest = RunStore(data).newest("wuxing")  # the demo table's run (serve --demo)
        assert newest is not None
        runs = [newest]
        self.book = RunBook(runs)
        self.setup = build_setup("wuxing", snap["players"], snap["options"], runs)
        self.rules = find_rules("wuxing")

    def state(self) -> Any:
        log = self.http.get(f"/api/tables/{self.tid}/log", headers=self.host).json()["log"]
        live = [r["event"] for r in log if r["kind"] == "event" and not r["voided"]]
        return Match(self.rules, self.setup, live).state


def _hostile_streams(url_path: str, port: int, count: int) -> tuple[list[socket.socket], int,
                                                                    int]:
    """``count`` event streams from 100 loopback addresses, never read past the status
    line; returns the sockets, how many the server took (200) and refused (503)."""
    socks: list[socket.socket] = []
    sel = selectors.DefaultSelector()
    for i in range(count):
        s = socket.socket()
        s.setblocking(True)
        s.bind((f"127.0.1.{1 + i % 100}", 0))
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET {url_path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        s.setblocking(False)
        socks.append(s)
        sel.register(s, selectors.EVENT_READ)
    ok = refused = 0
    deadline = time.monotonic() + 60
    while ok + refused < count and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=1.0):
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            sel.unregister(sock)
            try:
                head = sock.recv(64)
            except OSError:
                head = b""
            if head.startswith(b"HTTP/1.1 200"):
                ok += 1
            else:
                refused += 1
    sel.close()
    return socks, ok, refused


def _slow_clients(url_path: str, port: int, count: int, token: str) -> list[socket.socket]:
    """``count`` scans whose body never finishes: headers, then a byte now and then."""
    socks = []
    for i in range(count):
        s = socket.socket()
        s.bind((f"127.0.2.{1 + i % 100}", 0))
        s.connect(("127.0.0.1", port))
        s.sendall((f"POST {url_path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                   "Content-Length: 4000\r\n\r\n{").encode())
        socks.append(s)
    return socks


def _trickle(socks: list[socket.socket]) -> None:
    for s in socks:
        with contextlib.suppress(OSError):  # a client the server closed: it stays closed
            s.send(b" ")


def _timed(http: httpx.Client, replica: Replica, tid: str, cam: dict[str, str],
           rounds: int, rng: random.Random, slow: list[socket.socket]) -> tuple[
               list[float], list[float], int]:
    """``rounds`` ordinary GETs and camera scans (legal ones, by the replica); ms each."""
    gets: list[float] = []
    scans: list[float] = []
    failed = 0
    last_trickle = time.monotonic()
    for _ in range(rounds * 4):
        if len(scans) >= rounds:
            break
        if time.monotonic() - last_trickle > 5:  # slow, not dead: under channel_timeout
            _trickle(slow)
            last_trickle = time.monotonic()
        t0 = time.perf_counter()
        r = http.get(f"/api/tables/{tid}")
        gets.append((time.perf_counter() - t0) * 1000)
        failed += r.status_code != 200
        state = replica.state()
        if state.finished:
            break
        event = replica.rules.random_play(state, rng)
        if event is None:
            break
        if event.get("type") != "scan" or event.get("override"):
            http.post(f"/api/tables/{tid}/actions", json=dict(event), headers=replica.host)
            continue
        payload = replica.book.card(event["card"]).payload
        t0 = time.perf_counter()
        r = http.post(f"/api/tables/{tid}/scans", headers=cam,
                      json={"payload": payload, "zone": event["zone"]})
        scans.append((time.perf_counter() - t0) * 1000)
        failed += r.status_code != 200
    return gets, scans, failed


def run_starvation(hostile: int, slow: int, rounds: int = 30) -> int:
    """Ordinary requests against ``companion serve`` with ``hostile`` idle streams and
    ``slow`` clients open; 0 if every ordinary request answered."""
    open_files_limit(4 * (hostile + slow) + 512)
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        proc, found = _start_serve(data, port)
        held: list[socket.socket] = []
        try:
            if set(found) != {"table", "host", "camera"}:
                print(f"companion serve did not start as expected: {found}")
                return 1
            base = f"http://127.0.0.1:{port}"
            tid = found["table"]
            host = {"Authorization": f"Bearer {found['host']}"}
            cam = {"Authorization": f"Bearer {found['camera']}"}
            with httpx.Client(base_url=base, timeout=30.0) as http:
                for _ in range(300):  # bounded wait for the first answer
                    try:
                        if http.get("/api/tables").status_code == 200:
                            break
                    except httpx.TransportError:
                        time.sleep(0.1)
                replica = Replica(http, data, tid, host)
                rng = random.Random(11)
                g0, s0, f0 = _timed(http, replica, tid, cam, rounds, rng, [])
                t_open = time.perf_counter()
                socks, ok, refused = _hostile_streams(f"/api/tables/{tid}/events", port,
                                                      hostile)
                held.extend(socks)
                slow_socks = _slow_clients(f"/api/tables/{tid}/scans", port, slow,
                                           found["camera"])
                held.extend(slow_socks)
                open_s = time.perf_counter() - t_open
                g1, s1, f1 = _timed(http, replica, tid, cam, rounds, rng, slow_socks)
            print(f"starvation (companion serve, 256 threads): {hostile} hostile idle streams "
                  f"from 100 addresses ({ok} held, {refused} refused 503) and {slow} slow "
                  f"clients opened in {open_s:.1f} s")
            print(f"  ordinary GET of the table: p50 {pct(g0, 50):.1f} ms, p95 "
                  f"{pct(g0, 95):.1f} ms idle; p50 {pct(g1, 50):.1f} ms, p95 "
                  f"{pct(g1, 95):.1f} ms under load ({len(g1)} requests)")
            print(f"  camera scan: p50 {pct(s0, 50):.1f} ms, p95 {pct(s0, 95):.1f} ms idle; "
                  f"p50 {pct(s1, 50):.1f} ms, p95 {pct(s1, 95):.1f} ms under load "
                  f"({len(s1)} scans)")
            answered = f0 + f1 == 0 and len(s1) > 0 and len(g1) > 0
            print(f"targets: every ordinary request answered under load: "
                  f"{'met' if answered else 'NOT met'} ({f0 + f1} failed)")
            return 0 if answered else 1
        finally:
            for s in held:
                s.close()
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
            for t in threading.enumerate():  # the output drain ends at the child's exit
                if t.name == "serve-output":
                    t.join(10)
