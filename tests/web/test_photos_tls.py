"""``companion serve --tls`` (issue 13): phones get live video only on https pages, so the
server makes a self-signed certificate for its LAN addresses once, keeps it in the data dir,
and serves HTTPS in front of waitress."""

from __future__ import annotations

import http.client
import json
import ssl
import stat
import threading
from pathlib import Path

from cryptography import x509
from webtools import config, register_run

from web import create_app, services
from web.server import stop_in_thread
from web.tls import certificate_hosts, ensure_certificate, serve_tls


def test_the_certificate_is_made_once_for_the_lan_address_and_kept(tmp_path: Path) -> None:
    hosts = certificate_hosts("192.168.1.20")
    assert hosts[0] == "192.168.1.20" and "localhost" in hosts and "127.0.0.1" in hosts
    cert, key, made = ensure_certificate(tmp_path, hosts)
    assert made and cert.parent == tmp_path / "tls"
    parsed = x509.load_pem_x509_certificate(cert.read_bytes())
    san = parsed.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "192.168.1.20" in {str(a) for a in san.get_values_for_type(x509.IPAddress)}
    assert "localhost" in san.get_values_for_type(x509.DNSName)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600  # the private key is the owner's only
    first = cert.read_bytes()
    again = ensure_certificate(tmp_path, hosts)
    assert again[2] is False and cert.read_bytes() == first
    # The machine got another address on another network: a new certificate covers it.
    moved = ensure_certificate(tmp_path, certificate_hosts("10.0.0.7"))
    assert moved[2] is True and cert.read_bytes() != first


def test_https_in_front_of_waitress_serves_the_app_with_https_links(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = create_app({**config(data), "PUBLIC_URL": None})
    run = register_run(data, "wuxing", 3)
    server, front, said = serve_tls(app, "127.0.0.1", 0, 8, data)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        assert "self-signed certificate" in said and "SHA-256" in said
        # The relay tells the app each connection's phone, so the cap per phone stays
        # (issue 19 §1; test_proxy_clients.py sends phones from their own addresses).
        assert app.config["SSE_MAX_PER_CLIENT"] == 16
        assert front.peers is app.wsgi_app.relay  # type: ignore[attr-defined]
        ctx = ssl.create_default_context(cafile=str(data / "tls" / "cert.pem"))
        conn = http.client.HTTPSConnection("127.0.0.1", front.port, context=ctx, timeout=30)
        body = json.dumps({"game": "wuxing", "players": ["Ana", "Ben", "Chen"],
                           "runs": [run.run_id]})
        conn.request("POST", "/api/tables", body=body,
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        created = json.loads(resp.read())
        assert resp.status == 201, created
        # Waitress knows the page came over https: join links say so.
        assert created["urls"]["table"].startswith(f"https://127.0.0.1:{front.port}/t/")
        conn.request("GET", f"/t/{created['table']}/camera?token={created['camera_token']}")
        page = conn.getresponse()
        assert page.status == 200 and b'<video id="video"' in page.read()
        conn.close()
        # A client that does not trust the certificate is refused the connection.
        strict = http.client.HTTPSConnection("127.0.0.1", front.port,
                                             context=ssl.create_default_context(), timeout=30)
        try:
            strict.request("GET", "/")
            raise AssertionError("an untrusted certificate was accepted")
        except ssl.SSLCertVerificationError:
            pass
        finally:
            strict.close()
    finally:
        front.stop()
        stop_in_thread(server, thread)
        services(app).close()
