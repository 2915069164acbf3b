"""Handlers of ``companion watch`` and ``companion scan`` (imported only when they run)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import cv2

from companion import tablemat
from companion.errors import BadSetup
from companion.runs import RunBook, RunStore
from cv.detect import CardReader, make_decoder
from cv.sender import HttpSink, Outbox, Scan
from cv.sources import CameraSource, FrameSource, ImageFolderSource, PiCameraSource, VideoSource
from cv.tracker import Tracker, TrackerConfig
from cv.watch import PreviewServer, Watcher
from cv.zones import Calibrator, ManualZones, MatLocator, MatZones, ZoneMap

log = logging.getLogger("cv")


def _reader(args: argparse.Namespace) -> CardReader:
    runbook = None
    if args.runs:
        runs = RunStore(args.runs).all()
        if not runs:
            raise BadSetup(f"no print runs registered under {args.runs!r}")
        runbook = RunBook(runs)
    return CardReader(make_decoder(args.decoder), runbook=runbook)


def _check_layout(args: argparse.Namespace) -> None:
    if (args.game is None) != (args.players is None):
        raise BadSetup("give both --game and --players for the mat's zones")
    if args.game is not None:
        tablemat.zones(args.game, args.players)  # raises on an unknown layout


def scan(args: argparse.Namespace) -> int:
    """Print the cards found in each image; exit 1 if an image could not be read."""
    cv2.setNumThreads(1)
    _check_layout(args)
    reader = _reader(args)
    manual = ManualZones.load(args.zones) if args.zones else None
    locator = MatLocator() if args.game else None
    failed = 0
    results: list[dict[str, Any]] = []
    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            failed += 1
            results.append({"image": path, "error": "not a readable image", "cards": []})
            continue
        zones: ZoneMap | None = manual
        if zones is None and locator is not None:
            pose = locator.locate(image)
            if pose is not None:
                zones = MatZones(pose, args.game, args.players)
        cards = []
        regions = zones.regions() if isinstance(zones, MatZones) else ()
        for s in reader.read(image, regions):
            cards.append({
                "payload": s.payload, "serial": s.serial, "face": s.face, "game": s.game_code,
                "centre": [round(v, 1) for v in s.centre],
                "corners": [[round(x, 1), round(y, 1)] for x, y in s.corners],
                "card_corners": ([[round(x, 1), round(y, 1)] for x, y in s.card.corners]
                                 if s.card else None),
                "zone": zones.zone_of(s.centre) if zones else None,
            })
        results.append({"image": path, "size": [image.shape[1], image.shape[0]],
                        "calibrated": zones is not None, "cards": cards,
                        "ignored": dict(reader.stats.ignored)})
        reader.stats.ignored.clear()
    if args.json:
        json.dump(results if len(results) != 1 else results[0], sys.stdout, indent=1)
        print()
    else:
        for r in results:
            if "error" in r:
                print(f"{r['image']}: {r['error']}")
                continue
            print(f"{r['image']}: {len(r['cards'])} card(s)")
            for c in r["cards"]:
                zone = f" in {c['zone']}" if c["zone"] else ""
                print(f"  {c['serial']} face {c['face']}{zone} at {c['centre']} ({c['payload']})")
            for why, n in r["ignored"].items():
                print(f"  ignored {n} code(s): {why}")
    return 1 if failed else 0


def _source(args: argparse.Namespace) -> FrameSource:
    if args.size == "full":
        if args.camera is not None or args.video or args.images:
            raise BadSetup("--size full is the Pi camera's whole sensor; give --picamera")
        return PiCameraSource(None)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise BadSetup(f"--size {args.size!r} must look like 1280x720, 3840x2160 or "
                       "full") from None
    if not (160 <= w <= 8192 and 120 <= h <= 8192):
        raise BadSetup(f"--size {args.size!r} is no camera resolution")
    if args.camera is not None:
        return CameraSource(args.camera, (w, h))
    if args.video:
        if not Path(args.video).is_file():
            raise BadSetup(f"no video file {args.video!r}")
        return VideoSource(args.video)
    if args.images:
        if not Path(args.images).is_dir():
            raise BadSetup(f"no folder {args.images!r}")
        return ImageFolderSource(args.images, hold=args.hold)
    return PiCameraSource((w, h))


def table_layout(server: str, table: str, timeout: float = 5.0) -> tuple[str, int]:
    """The game and player count of ``table`` from the referee's public table list;
    raises ``BadSetup`` if the referee cannot say."""
    url = f"{server.rstrip('/')}/api/tables"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            data = json.loads(resp.read().decode("utf-8"))
        for t in data.get("tables", []):
            if t.get("table") == table:
                return str(t["game"]), len(t["players"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BadSetup(f"cannot ask {url!r} for table {table!r} ({exc}); give --game and "
                       "--players") from None
    raise BadSetup(f"the referee at {server!r} has no table {table!r}")


def watch(args: argparse.Namespace) -> int:
    """Run the camera loop until the source ends or Ctrl-C."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    cv2.setNumThreads(1)
    if args.server and args.table and args.game is None and not args.zones:
        args.game, args.players = table_layout(args.server, args.table)
        log.info("table %s plays %s with %d players", args.table, args.game, args.players)
    _check_layout(args)
    if args.calibrate and not args.game:
        raise BadSetup("--calibrate needs --game and --players (the zones to calibrate)")
    source = _source(args)  # refuses a missing file before anything starts
    reader = _reader(args)
    tracker = Tracker(TrackerConfig(place_frames=args.place_frames,
                                    remove_after_s=args.remove_after))
    calibrator = None
    zones: ZoneMap | None = None
    locator = None
    if args.calibrate:
        calibrator = Calibrator([z.name for z in tablemat.zones(args.game, args.players)])
        print(calibrator.prompt(), flush=True)
    elif args.zones:
        zones = ManualZones.load(args.zones)
    elif args.game:
        locator = MatLocator()
    outbox = None
    on_scan = None
    if args.server and not args.calibrate:
        if not args.table:
            raise BadSetup("--server needs --table")
        token = args.token or os.environ.get("COMPANION_CAMERA_TOKEN", "")
        if not token:
            raise BadSetup("--server needs a camera token (--token or COMPANION_CAMERA_TOKEN)")
        state = Path(args.state_dir or Path(".companion-cv") / args.table)
        outbox = Outbox(state, HttpSink(args.server, args.table, token)).start()
        pending = len(outbox.waiting())
        if pending:
            log.info("%d scan(s) from an earlier run are still to be sent", pending)
    elif not args.calibrate:
        def on_scan(scan: Scan) -> None:
            print(json.dumps(scan.body() | {"serial": scan.serial}), flush=True)

    watcher = Watcher(reader, tracker, zones=zones, locator=locator, game=args.game,
                      players=args.players, outbox=outbox, on_scan=on_scan,
                      calibrator=calibrator)
    if calibrator is not None:
        watcher.on_prompt = lambda prompt: print(prompt, flush=True)
    # Said before play starts, as soon as the mat is found (and again if it changes).
    watcher.on_advice = lambda text: print(f"camera: {text}", file=sys.stderr, flush=True)
    preview = None
    if args.preview_port:
        try:
            preview = PreviewServer(watcher, port=args.preview_port).start()
            log.info("preview on http://localhost:%d/", preview.port)
        except OSError as exc:
            log.warning("no preview: port %d: %s", args.preview_port, exc)
    stop = threading.Event()
    try:
        n = watcher.run(source, stop, args.max_frames)
    except KeyboardInterrupt:
        n = watcher.frames
    finally:
        source.stop()
        if outbox is not None:
            deadline = time.monotonic() + 5.0  # let the last scans go out
            while outbox.waiting() and outbox.status["online"] and time.monotonic() < deadline:
                time.sleep(0.05)
            outbox.stop()
            if outbox.waiting():
                log.warning("%d scan(s) not sent yet; they go out on the next start",
                            len(outbox.waiting()))
        if preview is not None:
            preview.stop()
    status = watcher.status()
    log.info("%d frame(s); placements %s; ignored %s; source %s", n, status["tracking"],
             status["ignored"], source.stats)
    if calibrator is not None:
        if not calibrator.done:
            print(f"calibration stopped early: {calibrator.prompt()}", file=sys.stderr)
            return 1
        calibrator.result().save(args.calibrate)
        print(f"saved {args.calibrate}")
    if n == 0 and source.stats.messages:
        print(f"companion watch: {source.describe()}: {source.stats.messages[-1]}",
              file=sys.stderr)
        return 1
    return 0
