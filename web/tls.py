"""``companion serve --tls``: HTTPS on the LAN, so a phone's browser may open its camera.

Browsers give live video (``getUserMedia``) only to secure pages: https, or localhost.
At a table nobody has a certificate a phone trusts, so the server makes one itself, once,
self-signed for this machine's LAN addresses and name, and keeps it in the data dir
(``tls/cert.pem``, ``tls/key.pem``, the key readable by its owner only); a new one is made
only when the machine's address is no longer in it. Phones warn once (docs/camera.md,
"Phones").

Waitress speaks no TLS, so ``TlsFront`` does: it accepts TLS connections on the public
port and relays each, byte for byte, to waitress listening on 127.0.0.1 (asyncio, one
thread). Waitress is told the scheme is https, so the pages' links are right, and the app
is told which phone each relayed connection carries (``peers``), so every phone keeps its
own caps (issue 19 §1).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import os
import socket
import ssl
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import Flask

from web.guard import ClientAddress

CERT_DAYS = 825  # the longest a browser accepts for a server certificate
RELAY_CHUNK = 64 * 1024


def certificate_hosts(lan: str | None) -> list[str]:
    """The names and addresses the certificate covers: the LAN address, this machine's
    name (and ``<name>.local``), ``localhost`` and ``127.0.0.1``."""
    name = socket.gethostname() or "localhost"
    hosts = [h for h in (lan, name, f"{name}.local", "localhost", "127.0.0.1") if h]
    return list(dict.fromkeys(hosts))


def _covers(cert_path: Path, hosts: Sequence[str]) -> bool:
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):
        return False
    have = {str(v) for v in san.get_values_for_type(x509.DNSName)}
    have |= {str(v) for v in san.get_values_for_type(x509.IPAddress)}
    now = datetime.datetime.now(datetime.UTC)
    return set(hosts) <= have and cert.not_valid_after_utc > now + datetime.timedelta(days=7)


def ensure_certificate(data_dir: Path, hosts: Sequence[str]) -> tuple[Path, Path, bool]:
    """``(cert, key, made)``: the kept certificate if it covers ``hosts``, else a new one.

    Raises ``OSError`` if the data dir cannot be written.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    folder = data_dir / "tls"
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    if cert_path.is_file() and key_path.is_file() and _covers(cert_path, hosts):
        if key_path.stat().st_mode & 0o077:  # a key kept by an older version, readable by all
            os.chmod(key_path, 0o600)
        return cert_path, key_path, False
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    names: list[x509.GeneralName] = []
    for h in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(h)))
        except ValueError:
            names.append(x509.DNSName(h))
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Table Companion {hosts[0]}"),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Table Companion")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=CERT_DAYS))
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    pem_key = key.private_bytes(serialization.Encoding.PEM,
                                serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    # The key goes into a new file the owner alone may read from its first byte, then is
    # moved into place. A fixed temporary name would be reopened with its old mode if a
    # stale one were left (O_CREAT's mode applies only to a file it creates), so mkstemp.
    stale = key_path.with_suffix(".tmp")  # an older version's half-written key
    if stale.is_file():
        stale.unlink()
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".key-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pem_key)
        os.replace(tmp, key_path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path, True


def fingerprint(cert_path: Path) -> str:
    """The certificate's SHA-256 fingerprint, as phones show it (AA:BB:...)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


class TlsFront:
    """Accepts TLS on ``host:port`` and relays every connection to ``backend``."""

    def __init__(self, cert: Path, key: Path, host: str, port: int,
                 backend: tuple[str, int]) -> None:
        self._ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        self._ctx.load_cert_chain(str(cert), str(key))
        self.backend = backend
        self.peers: dict[int, str] = {}  # the relay's port towards waitress -> the phone
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        # Bound now, so a busy port is an OSError for the caller, not for the thread.
        self._server = self._loop.run_until_complete(asyncio.start_server(
            self._relay, host, port, ssl=self._ctx, ssl_handshake_timeout=15))
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._thread = threading.Thread(target=self._loop.run_forever, name="tls-front",
                                        daemon=True)

    def start(self) -> TlsFront:
        self._thread.start()
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            b_reader, b_writer = await asyncio.open_connection(*self.backend)
        except OSError:
            self._writers.discard(writer)
            writer.close()
            return
        self._writers.add(b_writer)
        # Before a byte is relayed, so waitress's first request already finds the phone.
        own = b_writer.get_extra_info("sockname")
        phone = writer.get_extra_info("peername")
        if own and phone:
            self.peers[int(own[1])] = str(phone[0])

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while chunk := await src.read(RELAY_CHUNK):
                    dst.write(chunk)
                    await dst.drain()
            except (OSError, ssl.SSLError, asyncio.IncompleteReadError):
                pass
            finally:
                with contextlib.suppress(OSError, ssl.SSLError, RuntimeError):
                    dst.close()

        try:
            await asyncio.gather(pipe(reader, b_writer), pipe(b_reader, writer))
        finally:
            self._writers.discard(writer)
            self._writers.discard(b_writer)
            if own:
                self.peers.pop(int(own[1]), None)

    async def _shutdown(self) -> None:
        if self._server is not None:
            self._server.close()
        for w in list(self._writers):
            w.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    def stop(self) -> None:
        """Close the listening socket and every relayed connection, then the loop."""
        if self._thread.is_alive():
            done = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
            with contextlib.suppress(Exception):
                done.result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
        else:
            self._loop.run_until_complete(self._shutdown())
        with contextlib.suppress(RuntimeError):
            self._loop.close()


def serve_tls(app: Flask, host: str, port: int, threads: int, data_dir: Path
              ) -> tuple[Any, TlsFront, str]:
    """Waitress on 127.0.0.1 behind a ``TlsFront`` on ``host:port``; ``(server, front,
    message)``, the message saying which certificate is used (and its fingerprint).

    Raises ``OSError`` when the port cannot be bound or the data dir written.
    """
    from web.server import lan_address, make_server

    lan = lan_address() if host in ("0.0.0.0", "::", "") else host
    cert, key, made = ensure_certificate(data_dir, certificate_hosts(lan))
    server = make_server(app, "127.0.0.1", 0, threads, url_scheme="https")
    try:
        front = TlsFront(cert, key, host, port, ("127.0.0.1", server.effective_port))
    except (OSError, ssl.SSLError):
        server.close()
        raise
    # Every phone reaches waitress through the relay from 127.0.0.1: the relay tells the
    # app which phone each of its connections carries, so caps per client stay per phone.
    guard = app.wsgi_app
    if isinstance(guard, ClientAddress):
        front.peers = guard.relay
    how = "made a new" if made else "using the"
    return server, front.start(), (f"HTTPS: {how} self-signed certificate {cert} "
                                   f"(SHA-256 {fingerprint(cert)})")
