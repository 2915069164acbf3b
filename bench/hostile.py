"""Hostile photos (issue 19 §2), for ``companion bench photo --hostile`` and the tests.

Each is a body anyone holding a seat token may send to ``POST .../photos`` (8 MB at most)
or ``.../camera/frames`` (1 MB): valid images that are costly to decode, and images whose
structure the server refuses before decoding. ``hostile_photos()`` names them all;
``REFUSED`` says which must be refused (400 ``bad_photo``) rather than read.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image as PILImage

_SOS = re.compile(rb"\xff\xda")
PNG = b"\x89PNG"


def _flat(side: int, progressive: bool, colour: bool = True) -> bytes:
    img = PILImage.new("RGB" if colour else "L", (side, side),
                       (120, 130, 140) if colour else 128)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=30, progressive=progressive)
    return buf.getvalue()


def repeated_last_scan(side: int = 4896, size: int = 153_000) -> bytes:
    """The red team's photo: a progressive JPEG whose last (tiny) scan is repeated until
    the file is ``size`` bytes; libjpeg decodes every copy over the whole image."""
    data = _flat(side, progressive=True)
    last = data[[m.start() for m in _SOS.finditer(data)][-1]:-2]
    copies = max(1, (size - len(data)) // len(last))
    return data[:-2] + last * copies + b"\xff\xd9"


def many_scans(side: int = 3000, scans: int = 40) -> bytes:
    """A progressive JPEG with ``scans`` different scans (each a copy of the last with
    another spectral end), within the pixel limit."""
    data = _flat(side, progressive=True)
    start = [m.start() for m in _SOS.finditer(data)][-1]
    last = bytearray(data[start:-2])
    (length,) = struct.unpack(">H", last[2:4])
    extra = b""
    for k in range(scans):
        copy = bytearray(last)
        copy[2 + length - 2] = 1 + k % 63  # Se: another band each time
        copy[2 + length - 1] = (k // 63) & 0x0F  # Al
        extra += bytes(copy)
    return data[:-2] + extra + b"\xff\xd9"


def _patched(data: bytes, marker: bytes, offset: int, value: int) -> bytes:
    i = data.index(marker)
    out = bytearray(data)
    out[i + offset] = value
    return bytes(out)


def arithmetic(side: int = 1600) -> bytes:
    """A baseline JPEG relabelled arithmetic-coded (SOF9): another decoder to attack."""
    return _patched(_flat(side, False), b"\xff\xc0", 1, 0xC9)


def twelve_bit(side: int = 1600) -> bytes:
    return _patched(_flat(side, False), b"\xff\xc0", 4, 12)


def many_segments(side: int = 1600, count: int = 5000) -> bytes:
    data = _flat(side, False)
    return data[:2] + b"\xff\xfe\x00\x03x" * count + data[2:]


def noise(side: int, limit: int, progressive: bool = False) -> bytes:
    """A JPEG of colour noise as close under ``limit`` bytes as quality allows: the most
    entropy-coded data a body may hold (progressive: in libjpeg's 10 scans)."""
    rgb = np.random.default_rng(1).integers(0, 256, (side, side, 3), dtype=np.uint8)
    for q in (95, 85, 70, 50, 30, 15, 5):
        ok, buf = cv2.imencode(".jpg", rgb, [
            cv2.IMWRITE_JPEG_QUALITY, q, cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive),
            cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])
        if ok and len(buf) <= limit:
            return bytes(buf)
    raise RuntimeError("no quality makes the noise small enough")


def png_zeros(side: int = 4896, depth16: bool = True) -> bytes:
    """A 24 MP PNG of 16-bit zeros: about 140 KB that decode to 144 MB of samples."""
    img = np.zeros((side, side, 3), np.uint16 if depth16 else np.uint8)
    ok, buf = cv2.imencode(".png", img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    assert ok
    return bytes(buf)


def big_baseline(side: int = 4896) -> bytes:
    return _flat(side, False)


def progressive_12mp() -> bytes:
    """The largest progressive JPEG read: 12 MP (4032x3024), libjpeg's 10 scans."""
    img = PILImage.new("RGB", (4032, 3024), (90, 100, 110))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=95, progressive=True, subsampling=0)
    return buf.getvalue()


PHOTOS: dict[str, Callable[[], bytes]] = {
    "repeated last scan 4896x4896 (153 KB)": repeated_last_scan,
    "repeated last scan 3000x3000": lambda: repeated_last_scan(3000),
    "40 different scans 3000x3000": many_scans,
    "arithmetic-coded": arithmetic,
    "12-bit samples": twelve_bit,
    "5,000 segments": many_segments,
    "noise 4896x4896 under 8 MB": lambda: noise(4896, 8 * 1024 * 1024),
    "progressive noise 12 MP under 8 MB": lambda: noise(3500, 8 * 1024 * 1024, True),
    "baseline 4896x4896": big_baseline,
    "progressive 12 MP, 4:4:4": progressive_12mp,
    "PNG 4896x4896 16-bit zeros": png_zeros,
}
REFUSED = {"repeated last scan 4896x4896 (153 KB)", "repeated last scan 3000x3000",
           "40 different scans 3000x3000", "arithmetic-coded", "12-bit samples",
           "5,000 segments"}
FRAMES: dict[str, Callable[[], bytes]] = {
    "frame: repeated last scan 1920x1920": lambda: repeated_last_scan(1920, 900_000),
    "frame: noise 1920x1920 under 1 MB": lambda: noise(1920, 1024 * 1024),
}


def hostile_photos() -> dict[str, bytes]:
    """Every hostile photo by name (built on call: a few seconds)."""
    return {name: make() for name, make in PHOTOS.items()}


# -- companion bench photo --hostile ----------------------------------------------------
def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process ``pid`` has used, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory_mb(pid: int, key: str) -> float:
    """``VmRSS`` or ``VmHWM`` (peak) of ``pid`` in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def _gets(http: Any, url: str, n: int) -> tuple[list[float], int]:
    """``(ms of each, failures)`` of ``n`` GETs, one after another."""
    ms: list[float] = []
    failed = 0
    for _ in range(n):
        t0 = time.perf_counter()
        try:
            if http.get(url).status_code != 200:
                failed += 1
        except Exception:  # a timeout is what the bench measures: counted, not raised
            failed += 1
        ms.append((time.perf_counter() - t0) * 1000)
    return ms, failed


def _p50_p95(ms: list[float], failed: int) -> tuple[float, float, int]:
    ms = sorted(ms)
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.95))], failed


ROUNDS = 10


def _interleaved(http: Any, url: str, n: int, crowd: subprocess.Popen[str], pid: int
                 ) -> tuple[tuple[float, float, int], tuple[float, float, int], float]:
    """``n`` GETs idle and ``n`` under attack, in ``ROUNDS`` alternating rounds: the
    attacking process is stopped (SIGSTOP: its uploads stall, nothing is sent) for the
    idle rounds and let go on for the others, so both see the same load of the (shared)
    machine. Returns idle and attack ``(p50, p95, failed)`` and the server's CPU share
    (of one core) under attack."""
    idle: list[float] = []
    attack: list[float] = []
    failed = [0, 0]
    cpu = wall = 0.0
    for _ in range(ROUNDS):
        crowd.send_signal(signal.SIGSTOP)
        try:
            time.sleep(1.0)  # the decodes under way finish
            ms, bad = _gets(http, url, max(1, n // ROUNDS))
            idle += ms
            failed[0] += bad
        finally:
            crowd.send_signal(signal.SIGCONT)
        time.sleep(1.0)  # the uploads pile up again
        c0, w0 = _cpu_s(pid), time.perf_counter()
        ms, bad = _gets(http, url, max(1, n // ROUNDS))
        cpu += _cpu_s(pid) - c0
        wall += time.perf_counter() - w0
        attack += ms
        failed[1] += bad
    return _p50_p95(idle, failed[0]), _p50_p95(attack, failed[1]), cpu / max(wall, 1e-9)


def _start_server(data: Path, port: int, threads: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion_cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--data-dir", str(data), "--threads", str(threads)],
        cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


PHONE_ADDRESS = "127.0.0.2"  # another phone: another address on the loopback network
PHONE_PHOTOS = 20


def _phone_photos(run: Any, count: int) -> list[tuple[str, bytes]]:
    """``count`` photos as "Scan my card" sends them (1600x1200), each of one card of
    ``run`` that ``cv.photo`` reads alone (the bench is about fairness, not reading)."""
    import random

    from bench.photos import make_photo
    from bench.scenes import default_face_renderer
    from companion.runs import RunBook
    from cv.photo import read_photo

    faces = default_face_renderer([run])
    rng = random.Random(27)
    out: list[tuple[str, bytes]] = []
    cards = list(run.cards)
    while len(out) < count:
        card = rng.choice(cards)
        data, _ = make_photo(faces(card.payload), card.payload, (1600, 1200), rng)
        if card.serial in read_photo(data, RunBook([run])).serials:
            out.append((card.serial, data))
    return out


def _photos_read(http: Any, url: str, head: dict[str, str],
                 photos: list[tuple[str, bytes]]) -> tuple[int, dict[str, int], float]:
    """``(photos whose card the server found, answers by status, p95 ms)``, one after
    another, as one phone sends them (each answer awaited, no retry)."""
    read = 0
    codes: dict[str, int] = {}
    ms: list[float] = []
    for serial, data in photos:
        t0 = time.perf_counter()
        try:
            r = http.post(url, content=data, headers=head)
            code = str(r.status_code)
            found = (r.json() or {}).get("found") or []
            read += serial in found
        except Exception as exc:  # a timeout is what the bench measures: counted
            code = type(exc).__name__
        ms.append((time.perf_counter() - t0) * 1000)
        codes[code] = codes.get(code, 0) + 1
    ms.sort()
    return read, dict(sorted(codes.items())), ms[min(len(ms) - 1, int(len(ms) * 0.95))]


def run_hostile(threads: int = 8, uploads: int = 50, gets: int = 200,
                attacker_nice: int = 0) -> int:
    """Send each hostile photo alone (server CPU per upload), then ``uploads`` costly ones
    at once from one address, again and again, while another phone (another address)
    GETs its table and sends 20 photos of its cards (p50/p95 against idle, photos read).

    ``attacker_nice``: the attacking process's nice value. On one machine the attackers'
    own CPU comes from the server's cores, as it would not over a network; 19 stands in
    for attackers on other machines."""
    import random

    import httpx

    from companion.registry import demo_run
    from companion.runs import RunStore

    with tempfile.TemporaryDirectory(prefix="companion-hostile-") as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        run = demo_run("wuxing", 3, random.Random(27))
        RunStore(Path(tmp) / "data").save(run)
        phone_shots = _phone_photos(run, PHONE_PHOTOS)
        proc = _start_server(Path(tmp) / "data", port, threads)
        base = f"http://127.0.0.1:{port}"
        try:
            http = httpx.Client(timeout=60)
            phone = httpx.Client(timeout=60, transport=httpx.HTTPTransport(
                local_address=PHONE_ADDRESS))
            for _ in range(600):  # up to 60 s for the server to start
                try:
                    if http.get(base + "/api/games").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            rss_start = _memory_mb(proc.pid, "VmRSS")
            t = http.post(base + "/api/tables", json={
                "game": "wuxing", "players": ["Ana", "Ben", "Chen"], "runs": [run.run_id]}
            ).json()
            seat = {"Authorization": f"Bearer {t['seats'][0]['token']}",
                    "Content-Type": "image/jpeg"}
            photo_url = f"{base}/api/tables/{t['table']}/photos?zone=seat:1"
            frame_url = f"{base}/api/tables/{t['table']}/camera/frames?seq=1&t=0"
            camera = {**seat, "Authorization": f"Bearer {t['camera_token']}"}
            phone_head = {"Authorization": f"Bearer {t['seats'][1]['token']}",
                          "Content-Type": "image/jpeg"}
            phone_url = f"{base}/api/tables/{t['table']}/photos?zone=universe"
            print(f"companion serve --threads {threads}, {cores_here()} cores; each hostile "
                  "body sent alone, server CPU (user+system) per upload:")
            worst = ("", 0.0)
            costly: dict[str, bytes] = {}
            for name, make in {**PHOTOS, **FRAMES}.items():
                data = make()
                url, head = (frame_url, camera) if name.startswith("frame") else (photo_url, seat)
                if data[:4] == b"\x89PNG":
                    head = {**head, "Content-Type": "image/png"}
                c0 = _cpu_s(proc.pid)
                status = http.post(url, content=data, headers=head).status_code
                spent = _cpu_s(proc.pid) - c0
                print(f"  {name:40} {len(data):>9,} B  {status}  {spent:5.2f} s CPU")
                if spent > worst[1]:
                    worst = (name, spent)
                if name not in REFUSED and not name.startswith("frame"):
                    costly[name] = data
            print(f"worst CPU per upload: {worst[1]:.2f} s ({worst[0]})")
            table_url = f"{base}/api/tables/{t['table']}"
            idle_photos = _photos_read(phone, phone_url, phone_head, phone_shots)
            rss0 = _memory_mb(proc.pid, "VmRSS")
            # The attackers are another process: in this one they would hold the GIL and
            # slow the phone's own GETs, which is not what the server does to them. (Their
            # CPU still comes from the same cores, as it would not on a real network.)
            files = []
            for i, data in enumerate(costly.values()):
                f = Path(tmp) / f"upload-{i}.{'png' if data.startswith(PNG) else 'jpg'}"
                f.write_bytes(data)
                files.append(str(f))
            crowd = subprocess.Popen(
                [sys.executable, "-m", "bench.hostile", photo_url, t["seats"][0]["token"],
                 str(uploads), *files], cwd=Path(__file__).resolve().parents[1],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                preexec_fn=(lambda: os.nice(attacker_nice)) if attacker_nice else None)
            assert crowd.stdout is not None and crowd.stdin is not None
            crowd.stdout.readline()  # "started": every upload is in flight
            time.sleep(2.0)  # let the uploads pile up
            idle, busy, server_cpu = _interleaved(phone, table_url, gets, crowd, proc.pid)
            busy_photos = _photos_read(phone, phone_url, phone_head, phone_shots)
            out, _ = crowd.communicate("stop\n", timeout=300)
            statuses = json.loads(out.strip().splitlines()[-1])
            peak = _memory_mb(proc.pid, "VmHWM")
            print(f"GET /api/tables/<table> from another address, {gets} idle and {gets} "
                  f"with {uploads} costly uploads in flight from one address, in {ROUNDS} "
                  f"alternating rounds (the attackers stopped for the idle ones), attackers "
                  f"at nice {attacker_nice} (their answers: {statuses}):")
            print(f"  idle   p50 {idle[0]:6.1f} ms  p95 {idle[1]:6.1f} ms  failed {idle[2]}")
            print(f"  attack p50 {busy[0]:6.1f} ms  p95 {busy[1]:6.1f} ms  failed {busy[2]}  "
                  f"({busy[1] / max(idle[1], 0.001):.1f} x idle p95; target 2 x or less)")
            print(f"another phone's photos (1600x1200, one at a time, from {PHONE_ADDRESS}): "
                  f"idle {idle_photos[0]} of {PHONE_PHOTOS} read (p95 {idle_photos[2]:.0f} ms); "
                  f"under the flood {busy_photos[0]} of {PHONE_PHOTOS} read (p95 "
                  f"{busy_photos[2]:.0f} ms, answers {busy_photos[1]}; target 19 or more)")
            print(f"server memory: {rss_start:.0f} MB started, {rss0:.0f} MB after the single "
                  f"uploads, peak {peak:.0f} MB; "
                  f"server CPU under attack {100 * server_cpu:.0f} % of one core")
            http.close()
            phone.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    return 0


def cores_here() -> int:
    from web.guard import cores

    return cores()


def _attack(url: str, token: str, uploads: int, files: list[str]) -> None:
    """``uploads`` threads posting ``files`` to ``url`` again and again, never waiting for
    ``Retry-After``, until a line comes on stdin; prints the answers' codes as JSON."""
    import httpx

    bodies = [Path(f).read_bytes() for f in files]
    stop = threading.Event()
    counts: dict[str, int] = {}
    lock = threading.Lock()

    def one(i: int) -> None:
        with httpx.Client(timeout=120) as http:
            k = i
            while not stop.is_set():
                data = bodies[k % len(bodies)]
                kind = "image/png" if data[:4] == b"\x89PNG" else "image/jpeg"
                try:
                    code = str(http.post(url, content=data, headers={
                        "Authorization": f"Bearer {token}", "Content-Type": kind}).status_code)
                except httpx.HTTPError as exc:
                    code = type(exc).__name__
                with lock:
                    counts[code] = counts.get(code, 0) + 1
                k += 1

    crowd = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(uploads)]
    for th in crowd:
        th.start()
    print("started", flush=True)
    sys.stdin.readline()
    stop.set()
    for th in crowd:
        th.join(180)
    print(json.dumps(dict(sorted(counts.items()))), flush=True)


if __name__ == "__main__":
    _attack(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:])
