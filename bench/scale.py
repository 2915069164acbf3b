"""``companion bench web --database URL --processes N``: many tables across processes.

Starts N ``companion serve`` processes on loopback sharing one PostgreSQL (and, for
comparison, one process on SQLite), with ``tables`` WuXing tables and ``streams`` open
event streams spread over the processes. Scans (random legal plays of each table, posted
as the referee) go to the processes in turn at a steady ``rate`` for ``seconds``; every
stream of the table notes when it saw the new version. Prints scan-to-phone p50/p95
(all phones, and phones on another process than the one that took the scan), scans/s,
errors, lost and duplicated events; then a burst with 16 writers in flight for the
throughput each set-up reaches. Every loop is bounded; only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from companion.engine import Match
from companion.registry import demo_run
from web import create_app, services

PLAYERS = ["Ana", "Ben", "Chen"]


@dataclass
class Board:
    """One table as the bench sees it: tokens, a local copy of its match, its streams."""

    id: str
    host: str
    seat: str
    match: Match[Any]
    seen: list[dict[int, float]] = field(default_factory=list)
    homes: list[int] = field(default_factory=list)


@dataclass
class Figures:
    label: str
    sent: int = 0
    ok: int = 0
    errors: int = 0
    lost: int = 0
    duplicates: int = 0
    latencies: list[float] = field(default_factory=list)
    across: list[float] = field(default_factory=list)
    seconds: float = 0.0
    burst: float = 0.0


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _make_tables(data_dir: Path, database: str | None, count: int) -> list[Board]:
    app = create_app({"DATA_DIR": str(data_dir), "DATABASE": database,
                      "DB_SYNCHRONOUS": "NORMAL"})
    try:
        svc = services(app)
        svc.runs.save(demo_run("wuxing", len(PLAYERS), random.Random(7)))
        out = []
        for _ in range(count):
            t = svc.tables.create("wuxing", list(PLAYERS))
            out.append(Board(t.id, t.config["host_token"], t.config["seat_tokens"][0],
                             Match(t.rules, t.match.setup, list(t.match.events))))
        return out
    finally:
        services(app).close()


def _start(port: int, data_dir: Path, database: str | None,
           threads: int) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "companion_cli", "serve", "--host", "127.0.0.1",
            "--port", str(port), "--data-dir", str(data_dir), "--threads", str(threads),
            # Every bench phone comes from 127.0.0.1: lift the per-address stream cap.
            "--streams-per-client", str(threads)]
    if database:
        args += ["--database", database]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


async def _ready(client: httpx.AsyncClient, base: str) -> None:
    for _ in range(600):  # up to 60 s
        try:
            if (await client.get(base + "/api/games", timeout=2)).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"server {base} did not start")


async def _stream(base: str, board: Board, k: int, fig: Figures, connected: asyncio.Event,
                  counter: list[int]) -> None:
    """One phone's event stream over a plain asyncio connection (an HTTP client library's
    pool of 2,000 streaming connections would cost the bench more CPU than the servers)."""
    host, _, port = base.removeprefix("http://").partition(":")
    try:
        reader, writer = await asyncio.open_connection(host, int(port))
    except OSError:
        return
    try:
        writer.write(f"GET /api/tables/{board.id}/events HTTP/1.1\r\nHost: {host}\r\n"
                     f"Authorization: Bearer {board.seat}\r\nAccept: text/event-stream\r\n"
                     "\r\n".encode())
        await writer.drain()
        while line := await reader.readline():
            if line.startswith(b"id: "):
                v = int(line[4:])
                if v in board.seen[k]:
                    fig.duplicates += 1
                board.seen[k][v] = time.perf_counter()
                if len(board.seen[k]) == 1:
                    counter[0] += 1
                    if counter[0] >= counter[1]:
                        connected.set()
    except (OSError, ValueError, asyncio.CancelledError):
        return
    finally:
        writer.close()


async def _post(client: httpx.AsyncClient, base: str, board: Board,
                rng: random.Random) -> tuple[int | None, float]:
    event = board.match.rules.random_play(board.match.state, rng)
    if event is None:
        return None, 0.0
    t0 = time.perf_counter()
    r = await client.post(f"{base}/api/tables/{board.id}/actions", json=dict(event),
                          headers={"Authorization": f"Bearer {board.host}"}, timeout=10)
    if r.status_code != 200:
        raise RuntimeError(f"{r.status_code} {r.text[:200]}")
    for e in r.json().get("events", []):
        board.match.apply(e)
    return int(r.json()["version"]), t0


async def _run(label: str, boards: list[Board], bases: list[str], streams: int, rate: float,
               seconds: float, burst: float) -> Figures:
    fig = Figures(label)
    rng = random.Random(1)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(limits=limits) as client:
        for b in bases:
            await _ready(client, b)
        per_table = max(1, streams // len(boards))
        connected = asyncio.Event()
        counter = [0, per_table * len(boards)]
        tasks = []
        for i, board in enumerate(boards):
            for k in range(per_table):
                home = (i + 1 + k) % len(bases)
                board.seen.append({})
                board.homes.append(home)
                tasks.append(asyncio.create_task(
                    _stream(bases[home], board, k, fig, connected, counter)))
        try:
            await asyncio.wait_for(connected.wait(), timeout=120)
        except TimeoutError:
            print(f"  {label}: only {counter[0]} of {counter[1]} streams connected")
        pending: list[tuple[Board, int, float, int]] = []
        busy: set[str] = set()  # tables with a scan in flight (their next play waits on it)

        async def one(board: Board, taker: int) -> None:
            busy.add(board.id)
            try:
                version, t0 = await _post(client, bases[taker], board, rng)
            except (httpx.HTTPError, RuntimeError):
                fig.errors += 1
                return
            finally:
                busy.discard(board.id)
            if version is not None:
                fig.ok += 1
                pending.append((board, version, t0, taker))

        # Scans are sent on a fixed clock, each without waiting for the one before (a
        # steady load, as many phones and cameras make), never two at once on one table.
        flying: list[asyncio.Task[None]] = []
        start = time.perf_counter()
        n = 0
        while (now := time.perf_counter()) - start < seconds:
            due = start + n / rate
            if due > now:
                await asyncio.sleep(due - now)
            board = boards[n % len(boards)]
            taker = n % len(bases)
            n += 1
            if board.id in busy:
                continue
            fig.sent += 1
            flying.append(asyncio.create_task(one(board, taker)))
        await asyncio.gather(*flying)
        fig.seconds = time.perf_counter() - start
        await asyncio.sleep(min(3.0, seconds / 2))  # let the last events arrive
        for board, version, t0, taker in pending:
            for k, seen in enumerate(board.seen):
                got = [t for v, t in seen.items() if v >= version]
                if not got:
                    fig.lost += 1
                    continue
                ms = (min(got) - t0) * 1000
                fig.latencies.append(ms)
                if board.homes[k] != taker:
                    fig.across.append(ms)
        # Burst: 16 writers in flight for 10 s, each on its own tables.
        done = 0
        writers = min(16, len(boards))

        async def writer(w: int) -> None:
            nonlocal done
            mine = boards[w::writers]
            j = 0
            while time.perf_counter() - t_burst < burst:
                try:
                    v, _ = await _post(client, bases[(w + j) % len(bases)], mine[j % len(mine)],
                                       rng)
                    if v is not None:
                        done += 1
                except (httpx.HTTPError, RuntimeError):
                    fig.errors += 1
                j += 1

        t_burst = time.perf_counter()
        await asyncio.gather(*(writer(w) for w in range(writers)))
        fig.burst = done / (time.perf_counter() - t_burst)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return fig


def _setup_and_run(label: str, database: str | None, processes: int, tables: int,
                   streams: int, rate: float, seconds: float, burst: float) -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        t0 = time.perf_counter()
        boards = _make_tables(data, database, tables)
        print(f"  {label}: {tables} tables made in {time.perf_counter() - t0:.1f} s")
        threads = streams // processes + 128  # a margin over an even share of streams
        ports = [_free_port() for _ in range(processes)]
        procs = [_start(p, data, database, threads) for p in ports]
        try:
            return asyncio.run(_run(label, boards, [f"http://127.0.0.1:{p}" for p in ports],
                                    streams, rate, seconds, burst))
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()


def run_scale_bench(database: str | None, processes: int = 4, tables: int = 1000,
                    streams: int = 2000, rate: float = 50.0, seconds: float = 60.0,
                    burst: float = 10.0) -> int:
    """Print the figures; 0 when no event was lost or duplicated and nothing failed."""
    processes = max(1, min(processes, 16))
    tables = max(1, min(tables, 20000))
    streams = max(tables, min(streams, 8000))
    rate = max(1.0, min(rate, 500.0))
    seconds = max(2.0, min(seconds, 600.0))
    burst = max(1.0, min(burst, 120.0))
    print(f"bench web (scale): {tables} WuXing tables, {streams} event streams, "
          f"{rate:g} scans/s for {seconds:g} s, then a {burst:g} s burst of 16 writers")
    runs = []
    if database:
        runs.append(_setup_and_run(f"PostgreSQL, {processes} processes", database, processes,
                                   tables, streams, rate, seconds, burst))
        if processes > 1:
            runs.append(_setup_and_run("PostgreSQL, 1 process", database, 1, tables, streams,
                                       rate, seconds, burst))
    runs.append(_setup_and_run("SQLite, 1 process", None, 1, tables, streams, rate, seconds,
                               burst))
    print(f"{'set-up':<28} {'scans/s':>8} {'burst/s':>8} {'p50 ms':>7} {'p95 ms':>7} "
          f"{'across p95':>10} {'errors':>6} {'lost':>5} {'dup':>4}")
    bad = 0
    for f in runs:
        print(f"{f.label:<28} {f.ok / f.seconds if f.seconds else 0:8.1f} {f.burst:8.1f} "
              f"{pct(f.latencies, 50):7.1f} {pct(f.latencies, 95):7.1f} "
              f"{pct(f.across, 95):10.1f} {f.errors:6d} {f.lost:5d} {f.duplicates:4d}")
        bad += f.errors + f.lost + f.duplicates
    if runs and runs[0].latencies:
        print(f"(median of all deliveries: {statistics.median(runs[0].latencies):.1f} ms; "
              f"{json.dumps({'deliveries': len(runs[0].latencies)})})")
    return 0 if bad == 0 else 1
