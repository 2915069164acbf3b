"""Three ``companion serve`` processes, one PostgreSQL (issue 15): a play posted to one
reaches the phones of the other two; ``kill -9`` of one under load loses no acknowledged
record, and its phones carry on at another server from their ``Last-Event-ID``."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_restart import free_port, start, wait_ready


class Phone:
    """A seat's event stream on one server, in a thread: the versions it was sent."""

    def __init__(self, base: str, table: str, token: str, last: int | None = None) -> None:
        self.versions: list[int] = []
        self.snapshots: list[dict[str, Any]] = []
        self.error: str | None = None
        headers = {"Authorization": f"Bearer {token}"}
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        self._thread = threading.Thread(
            target=self._run, args=(f"{base}/api/tables/{table}/events", headers),
            daemon=True)
        self._thread.start()

    def _run(self, url: str, headers: dict[str, str]) -> None:
        try:
            with httpx.stream("GET", url, headers=headers, timeout=30) as r:
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        snap = json.loads(line[6:])
                        self.snapshots.append(snap)
                        self.versions.append(int(snap["version"]))
        except httpx.HTTPError as exc:
            self.error = type(exc).__name__

    def wait_for(self, version: int) -> bool:
        for _ in range(300):  # a hang guard (30 s), not a speed limit
            if self.versions and self.versions[-1] >= version:
                return True
            time.sleep(0.1)
        return False


@pytest.mark.slow
def test_three_servers_one_database(pg_url: str, tmp_path: Path) -> None:
    ports = [free_port() for _ in range(3)]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    procs: list[subprocess.Popen[str]] = []
    try:
        procs.append(start(tmp_path / "a", ports[0], "--demo", "--database", pg_url))
        wait_ready(bases[0], procs[0])  # the first makes the demo print runs, once
        for i in (1, 2):
            procs.append(start(tmp_path / "abc"[i], ports[i], "--database", pg_url))
        for b, p in zip(bases[1:], procs[1:], strict=True):
            wait_ready(b, p)
        r = httpx.post(bases[0] + "/api/tables",
                       json={"game": "wuxing", "players": ["Ana", "Ben", "Chen"]})
        assert r.status_code == 201, r.text
        t = r.json()
        tid, host = t["table"], {"Authorization": f"Bearer {t['host_token']}"}
        seat1 = t["seats"][0]["token"]

        # Every server knows the table made by another, loaded on first use.
        for b in bases:
            assert httpx.get(f"{b}/api/tables/{tid}").json()["version"] == t["version"]

        # A change made at server 0 reaches the phones of servers 1 and 2 (NOTIFY).
        phones = [Phone(b, tid, seat1) for b in bases[1:]]
        time.sleep(0.5)
        r = httpx.post(f"{bases[0]}/api/tables/{tid}/timer", headers=host,
                       json={"seconds": 60})
        assert r.status_code == 200, r.text
        v = r.json()["version"]
        assert all(p.wait_for(v) for p in phones), ([p.versions for p in phones],
                                                    [p.error for p in phones])
        assert phones[0].snapshots[-1]["timer"]["seconds"] == 60

        # Load on server 1; kill -9 it midway; the writer moves on to server 2.
        acked: dict[int, int] = {}
        stop = threading.Event()

        def writer() -> None:
            n = 0
            while not stop.is_set() and n < 400:
                n += 1
                seconds = 5 + n
                for b in (bases[1], bases[2]):
                    try:
                        r = httpx.post(f"{b}/api/tables/{tid}/timer", headers=host,
                                       json={"seconds": seconds}, timeout=5)
                    except httpx.HTTPError:
                        continue
                    if r.status_code == 200:
                        acked[r.json()["version"]] = seconds
                        break

        w = threading.Thread(target=writer, daemon=True)
        w.start()
        for _ in range(1200):  # hang guards (60 s), not speed limits
            if len(acked) >= 20:
                break
            time.sleep(0.05)
        procs[1].send_signal(signal.SIGKILL)
        procs[1].wait(timeout=30)
        for _ in range(1200):
            if len(acked) >= 50:
                break
            time.sleep(0.05)
        stop.set()
        w.join(timeout=60)
        assert len(acked) >= 50, f"only {len(acked)} writes were acknowledged"

        # No acknowledged record was lost, whichever server acknowledged it.
        log = httpx.get(f"{bases[2]}/api/tables/{tid}/log", headers=host).json()
        records = {r["seq"]: r for r in (log["log"] if "log" in log else log["records"])}
        for version, seconds in acked.items():
            assert records[version]["kind"] == "timer"
            assert records[version]["event"]["seconds"] == seconds
        assert sorted(records) == list(range(1, max(records) + 1))  # no gap, no duplicate

        # The killed server's phone reconnects to server 2 from its last id and catches up.
        last = phones[0].versions[-1]
        moved = Phone(bases[2], tid, seat1, last=last)
        final = max(records)
        assert moved.wait_for(final), (moved.versions, moved.error)
        # Straight to the current state: nothing missed, nothing replayed twice.
        assert moved.versions[0] == final, moved.versions
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if p.stdout is not None:
                p.stdout.close()


def nginx_site(ports: list[int], listen: int) -> str:
    """docs/deploy.md's nginx site, pointed at ``ports`` and listening on ``listen``."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    site = text.split("```nginx\n", 1)[1].split("```", 1)[0]
    upstream = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n"
                       for p in ports)
    head, rest = site.split("upstream companion {\n", 1)
    body = rest.split("    keepalive", 1)[1]
    site = head + "upstream companion {\n" + upstream + "    keepalive" + body
    return site.replace("listen 80;", f"listen 127.0.0.1:{listen};")


@pytest.mark.slow
def test_the_documented_nginx_passes_event_streams_unbuffered(pg_url: str,
                                                               tmp_path: Path) -> None:
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        pytest.fail("nginx is not installed (./scripts/test installs nginx-light)")
    ports = [free_port() for _ in range(2)]
    listen = free_port()
    conf = tmp_path / "nginx.conf"
    (tmp_path / "site.conf").write_text(nginx_site(ports, listen))
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\nevents {{}}\nhttp {{\n access_log off;\n"
        f" client_body_temp_path {tmp_path}/body;\n proxy_temp_path {tmp_path}/proxy;\n"
        f" include {tmp_path}/site.conf;\n}}\n")
    procs = [start(tmp_path / f"d{i}", p, "--database", pg_url, "--behind-proxy", "1",
                   "--public-url", f"http://127.0.0.1:{listen}/",
                   *(("--demo",) if i == 0 else ())) for i, p in enumerate(ports)]
    proxy = subprocess.Popen([exe, "-c", str(conf), "-p", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for i, p in enumerate(ports):
            wait_ready(f"http://127.0.0.1:{p}", procs[i])
        base = f"http://127.0.0.1:{listen}"
        for _ in range(300):  # a hang guard (30 s): nginx answers once it listens
            try:
                if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        else:
            log = (tmp_path / "error.log").read_text() if (tmp_path / "error.log").exists() else ""
            raise AssertionError(f"nginx did not answer: {log[-2000:]}")
        r = httpx.post(base + "/api/tables", json={"game": "wuxing",
                                                   "players": ["Ana", "Ben", "Chen"]})
        assert r.status_code == 201, r.text
        t = r.json()
        phone = Phone(base, t["table"], t["seats"][0]["token"])
        assert phone.wait_for(t["version"]), phone.error
        host = {"Authorization": f"Bearer {t['host_token']}"}
        for seconds in (30, 40, 50):  # each change arrives through nginx while it streams
            r = httpx.post(f"{base}/api/tables/{t['table']}/timer", headers=host,
                           json={"seconds": seconds})
            assert r.status_code == 200, r.text
            assert phone.wait_for(r.json()["version"]), (phone.versions, phone.error)
            assert phone.snapshots[-1]["timer"]["seconds"] == seconds
        # The join links name the proxy's address (--public-url), not a server's.
        assert t["seats"][0]["join_url"].startswith(f"http://127.0.0.1:{listen}/t/")
    finally:
        proxy.terminate()
        proxy.wait(timeout=30)
        if proxy.stderr is not None:
            proxy.stderr.close()
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            p.wait(timeout=30)
            if p.stdout is not None:
                p.stdout.close()


@pytest.mark.slow
def test_the_scale_bench_loses_and_duplicates_nothing(pg_url: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``companion bench web --database`` at a small size: its figures come out and no event
    is lost, duplicated or refused (it times nothing here)."""
    from bench.scale import run_scale_bench

    assert run_scale_bench(pg_url, processes=2, tables=6, streams=12, rate=5, seconds=2,
                           burst=1) == 0
    out = capsys.readouterr().out
    assert "PostgreSQL, 2 processes" in out and "SQLite, 1 process" in out
