"""Behind a proxy or the TLS relay, every phone is itself (issue 19 §1).

Through docs/deploy.md's own nginx site, six phones on six loopback addresses (127.0.0.2,
127.0.0.3, ...) with a cap of 3 event streams per client each get their streams (the red
team got ``[200, 200, 200, 503, 503, 503]``: the whole café was one client), one phone
still meets its own cap, and one phone's table creations do not use up another's. A
client that reaches the server directly cannot pick its address with ``X-Forwarded-For``.
Behind ``companion serve --tls`` the same holds for phones on the relay.
"""

from __future__ import annotations

import contextlib
import http.client
import shutil
import signal
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_multiprocess import nginx_site
from test_web_restart import free_port, start, wait_ready
from webtools import config, register_run

from web import create_app, services
from web.guard import ClientAddress, proxy_networks
from web.server import stop_in_thread
from web.tls import serve_tls

PLAYERS = ["Ana", "Ben", "Chen"]


def phone(n: int) -> str:
    return f"127.0.0.{n}"


def client(addr: str) -> httpx.Client:
    """A phone: its connections leave from ``addr`` (the socket's source address)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=addr), timeout=30)


class Stream:
    """An open event stream from one phone; ``status`` once the server answered."""

    def __init__(self, addr: str, url: str, token: str) -> None:
        self.status: int | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(addr, url, token), daemon=True)
        self._thread.start()
        assert self._ready.wait(30), "the stream got no answer"  # a hang guard

    def _run(self, addr: str, url: str, token: str) -> None:
        try:
            with client(addr) as c, c.stream(
                    "GET", url, headers={"Authorization": f"Bearer {token}"}) as r:
                self.status = r.status_code
                self._ready.set()
                if r.status_code == 200:
                    for _ in r.iter_raw():
                        if self._stop.is_set():
                            break
        except httpx.HTTPError:
            pass
        finally:
            self._ready.set()

    def close(self) -> None:
        self._stop.set()


@contextlib.contextmanager
def nginx_in_front(tmp_path: Path, ports: list[int]) -> Iterator[str]:
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        pytest.fail("nginx is not installed (./scripts/test installs nginx-light)")
    listen = free_port()
    (tmp_path / "site.conf").write_text(nginx_site(ports, listen))
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\nevents {{}}\nhttp {{\n access_log off;\n"
        f" client_body_temp_path {tmp_path}/body;\n proxy_temp_path {tmp_path}/proxy;\n"
        f" include {tmp_path}/site.conf;\n}}\n")
    proxy = subprocess.Popen([exe, "-c", str(conf), "-p", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{listen}"
    try:
        for _ in range(300):  # a hang guard (30 s): nginx answers once it listens
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                    break
            time.sleep(0.1)
        yield base
    finally:
        proxy.terminate()
        proxy.wait(timeout=30)


def make(c: httpx.Client, base: str, **headers: str) -> int:
    r = c.post(base + "/api/tables", json={"game": "wuxing", "players": PLAYERS},
               headers=headers)
    return r.status_code


def test_each_phone_behind_the_documented_nginx_has_its_own_caps(tmp_path: Path) -> None:
    port = free_port()
    proc = start(tmp_path / "data", port, "--behind-proxy", "1", "--streams-per-client", "3",
                 "--demo")
    streams: list[Stream] = []
    try:
        wait_ready(f"http://127.0.0.1:{port}", proc)
        with nginx_in_front(tmp_path, [port]) as base, client(phone(2)) as host_phone:
            r = host_phone.post(base + "/api/tables",
                                json={"game": "wuxing", "players": PLAYERS})
            assert r.status_code == 201, r.text
            t = r.json()
            events = f"{base}/api/tables/{t['table']}/events"
            seat = t["seats"][0]["token"]
            streams = [Stream(phone(n), events, seat) for n in range(2, 8)]
            assert [s.status for s in streams] == [200] * 6  # was [200]*3 + [503]*3
            # One phone still meets its own cap: two more streams, then 503.
            more = [Stream(phone(2), events, seat) for _ in range(3)]
            streams += more
            assert [s.status for s in more] == [200, 200, 503]
            # Table creation counts per phone: phone 2 uses up its 20 (it made one above)...
            codes = [make(host_phone, base) for _ in range(20)]
            assert codes == [201] * 19 + [429]
            # ...claiming to be another address through nginx changes nothing (nginx
            # overwrites X-Forwarded-For with the socket's address)...
            assert make(host_phone, base, **{"X-Forwarded-For": "127.0.0.99"}) == 429
            # ...and the next phone at the café still creates its table.
            with client(phone(3)) as other:
                assert make(other, base) == 201
    finally:
        for s in streams:
            s.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


def test_a_direct_client_cannot_forge_its_address(tmp_path: Path) -> None:
    """``--behind-proxy 1`` reads X-Forwarded-For only from the proxy's address."""
    port = free_port()
    proc = start(tmp_path / "data", port, "--behind-proxy", "1", "--demo")
    try:
        base = f"http://127.0.0.1:{port}"
        wait_ready(base, proc)
        with client(phone(9)) as direct:
            codes = [make(direct, base, **{"X-Forwarded-For": f"10.0.0.{i}"})
                     for i in range(21)]
        assert codes == [201] * 20 + [429]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


def test_forwarded_headers_are_read_only_from_the_proxy() -> None:
    seen: list[tuple[str, str]] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.append((environ["REMOTE_ADDR"], environ.get("wsgi.url_scheme", "")))
        start_response("200 OK", [])
        return []

    guard = ClientAddress(app, hops=1, trusted="127.0.0.1,10.1.0.0/16")
    fwd = {"HTTP_X_FORWARDED_FOR": "203.0.113.7", "HTTP_X_FORWARDED_PROTO": "https",
           "wsgi.url_scheme": "http"}
    for peer in ("127.0.0.1", "10.1.2.3", "127.0.0.2", "192.168.1.5", "garbage"):
        guard({"REMOTE_ADDR": peer, **fwd}, lambda *a: None)
    assert seen == [("203.0.113.7", "https"), ("203.0.113.7", "https"),
                    ("127.0.0.2", "http"), ("192.168.1.5", "http"), ("garbage", "http")]
    with pytest.raises(ValueError, match="'cafe' is not an address"):
        proxy_networks("127.0.0.1, cafe")


def tls_stream(port: int, addr: str, path: str, token: str) -> tuple[int, Any]:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=30,
                                       source_address=(addr, 0))
    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    resp = conn.getresponse()
    return resp.status, (conn, resp)  # the response holds the stream open


def test_each_phone_behind_the_tls_relay_has_its_own_caps(tmp_path: Path) -> None:
    register_run(tmp_path / "data", "wuxing", 3)
    app = create_app({**config(tmp_path / "data"), "SSE_MAX_PER_CLIENT": 3})
    server, front, _ = serve_tls(app, "127.0.0.1", 0, 32, tmp_path / "data")
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    conns: list[Any] = []
    try:
        t = services(app).tables.create("wuxing", PLAYERS)
        path = f"/api/tables/{t.id}/events"
        seat = t.config["seat_tokens"][0]
        statuses = []
        for n in range(2, 8):
            status, conn = tls_stream(front.port, phone(n), path, seat)
            statuses.append(status)
            conns.append(conn)
        assert statuses == [200] * 6  # every phone was 127.0.0.1 before
        more = []
        for _ in range(3):
            status, conn = tls_stream(front.port, phone(2), path, seat)
            more.append(status)
            conns.append(conn)
        assert more == [200, 200, 503]
    finally:
        for c, r in conns:
            r.close()
            c.close()
        front.stop()
        stop_in_thread(server, thread)
        services(app).close()
