"""Running the app on waitress: one process, many threads (one per open event stream).

Measured (docs/notes): with waitress's default 4 threads a handful of open event streams
starves every other request; with 256 threads and a connection limit of 1000, 200 streams
each got a push within about 15 ms. One process only: the SSE broker lives in memory.
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
CONNECTION_LIMIT = 1000


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
    ``extra``: more waitress options (``url_scheme="https"`` behind ``web.tls``)."""
    from waitress.server import create_server

    return create_server(
        app, host=host, port=port, threads=threads, connection_limit=CONNECTION_LIMIT,
        channel_timeout=120, ident="table-companion",
        # Above Flask's own limit (64 KB), so that Flask answers 413 in JSON, not waitress.
        # Phone photos (web/photos.py) may be 8 MB; every other route keeps its own limit.
        max_request_body_size=9 * 1024 * 1024,
        clear_untrusted_proxy_headers=True, **extra,
    )


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
    from web import services

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
