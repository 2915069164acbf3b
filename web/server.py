"""Running the app on waitress: one process, many threads (one per open event stream).

Measured (docs/notes): with waitress's default 4 threads a handful of open event streams
starves every other request; with 256 threads and a connection limit of 1000, 200 streams
each got a push within about 15 ms. One process only: the SSE broker lives in memory.

Hardening (issue 10): event streams may hold at most ``threads - reserve`` threads (the
rest answer ordinary requests; the app refuses more streams with ``503``); idle and slow
connections cost a socket, not a thread, and are closed after ``CHANNEL_TIMEOUT`` seconds
without a byte; the connection limit is well above a thousand (``poll``, not ``select``,
which cannot watch a socket numbered above 1023); and waitress's own refusals (a body
above its limit, a malformed request line) are JSON like the app's. Behind a proxy, the
client address is the proxy's ``X-Forwarded-For`` only when the proxy sent it (issue 19).
"""

from __future__ import annotations

import contextlib
import signal
import socket
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from flask import Flask

DEFAULT_THREADS = 256
CONNECTION_LIMIT = 4000
CHANNEL_TIMEOUT = 30  # s without a byte: a slow client's connection is closed
# Waitress buffers a whole body before the app sees it; above this it refuses at once from
# Content-Length. Above every endpoint's own limit (8 MB photos), so the app answers 413.
MAX_BODY = 16 * 1024 * 1024
# Bytes read from a socket at a time (waitress: 8 KB). A photo arrives in 128 reads, not
# 1,000: under a flood of uploads the loop that also answers every phone stays free.
RECV_BYTES = 64 * 1024


def stream_capacity(threads: int) -> int:
    """Event streams a server of ``threads`` threads may hold: the rest (a quarter, 8-64)
    stay for ordinary requests."""
    return max(1, threads - min(64, max(8, threads // 4)))


def open_files_limit(want: int) -> int:
    """Raise this process's soft limit of open files towards ``want`` (never above the hard
    limit); returns the soft limit now in force (a Pi starts at 1,024)."""
    try:
        import resource
    except ImportError:  # not on this system: leave it as it is
        return want
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return want if soft == resource.RLIM_INFINITY else int(soft)


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one.

    A UDP "connect" sends no packet; it only asks the kernel which interface would be used.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                addr = str(s.getsockname()[0])
        except OSError:
            continue
        if not addr.startswith("127.") and addr != "0.0.0.0":
            return addr
    return None


def public_url(host: str, port: int) -> str:
    """The base URL phones should use: the LAN address when bound to all interfaces."""
    lan = host in ("0.0.0.0", "::", "")
    shown = (lan_address() or "127.0.0.1") if lan else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def make_server(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS,
                **extra: Any) -> Any:
    """A waitress server bound now (port 0 picks a free port: ``server.effective_port``);
    ``extra``: more waitress options (``url_scheme="https"`` behind ``web.tls``).

    Sets the app's ``SSE_MAX_STREAMS`` from ``threads`` (``stream_capacity``).
    """
    from waitress.server import create_server

    app.config["SSE_MAX_STREAMS"] = stream_capacity(threads)
    files = open_files_limit(CONNECTION_LIMIT + threads + 256)
    # Behind a proxy the app reads X-Forwarded-* itself, and only from the proxy's address
    # (web.guard.ClientAddress): waitress, which trusts no proxy here, must leave them.
    behind_proxy = int(app.config.get("PROXY_HOPS") or 0) > 0
    server = create_server(
        app, host=host, port=port, threads=threads,
        connection_limit=max(64, min(CONNECTION_LIMIT, files - threads - 128)),
        channel_timeout=CHANNEL_TIMEOUT, cleanup_interval=10, asyncore_use_poll=True,
        ident="table-companion", max_request_body_size=MAX_BODY,
        clear_untrusted_proxy_headers=not behind_proxy,
        # Reading ahead lets waitress see a client hang up while its request runs
        # (environ["waitress.client_disconnected"]): a photo nobody waits for is dropped.
        channel_request_lookahead=1, recv_bytes=RECV_BYTES, **extra,
    )
    server.channel_class = _json_channel()
    return server


def _json_channel() -> Any:
    """Waitress's channel with its own error answers (413, 400...) in the API's JSON."""
    import json

    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask

    codes = {413: "too_large", 400: "bad_request", 431: "too_large"}

    class JsonErrorTask(ErrorTask):  # type: ignore[misc]
        def execute(self) -> None:
            e = self.request.error
            message = str(e.body)
            if e.code == 413:
                message = f"the request body is larger than {MAX_BODY} bytes"
            body = json.dumps({"error": message,
                               "code": codes.get(e.code, "bad_request")}).encode()
            self.status = f"{e.code} {e.reason}"
            self.response_headers.extend([("Content-Type", "application/json"),
                                          ("X-Content-Type-Options", "nosniff")])
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class JsonChannel(HTTPChannel):  # type: ignore[misc]
        error_task_class = JsonErrorTask

    return JsonChannel


def stop_in_thread(server: Any, thread: threading.Thread, timeout: float = 10.0) -> None:
    """Stop a server whose ``run()`` loop runs in ``thread`` (bench, tests).

    Closing sockets from another thread races the loop's ``select`` (EBADF); instead the
    loop closes everything itself, through its trigger, and ends because nothing is left.
    """
    def close_all() -> None:  # runs inside the server's loop thread
        for obj in list(server._map.values()):
            if obj is server.trigger:
                obj._close()
            else:
                obj.close()

    server.trigger.pull_trigger(close_all)
    thread.join(timeout)
    server.task_dispatcher.shutdown(timeout=5)


def run_until_stopped(app: Flask, server: Any, on_stop: Callable[[], None]) -> None:
    """Serve until SIGINT/SIGTERM; then end every event stream and close the store."""
    from web.resources import services

    def stop(signum: int, frame: FrameType | None) -> None:
        services(app).broker.close()  # open event streams end now, not at their next ping
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    try:
        server.run()  # returns on KeyboardInterrupt after stopping its threads
    except KeyboardInterrupt:
        pass
    finally:
        services(app).broker.close()
        with contextlib.suppress(Exception):  # already closed by waitress
            server.close()
        on_stop()
        services(app).store.close()
        sys.stdout.flush()
