"""Subcommands of this package (registered by ``companion_cli``): watch, scan,
install-service."""

from __future__ import annotations

import argparse
from typing import Any


def _watch(args: argparse.Namespace) -> int:
    from cv.cli import watch

    return watch(args)


def _scan(args: argparse.Namespace) -> int:
    from cv.cli import scan

    return scan(args)


def _install_service(args: argparse.Namespace) -> int:
    from cv.service import main

    return main(args)


def _zone_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", help="game on the table (zones of the printed mat)")
    p.add_argument("--players", type=int, help="number of players (zones of the printed mat)")
    p.add_argument("--zones", metavar="FILE", help="a manual zone calibration (JSON) to use "
                   "instead of the mat's markers")
    p.add_argument("--decoder", choices=("zxing", "pyzbar"), default="zxing",
                   help="QR decoder (default: zxing, the faster and better in bench cv)")
    p.add_argument("--runs", metavar="DIR", help="data directory whose runs/ manifests "
                   "restrict cards to this table's print runs")


def register(cli: Any) -> None:
    """Add this package's subcommands to ``cli``."""
    p = cli.command("watch", "watch the table with a camera and send one scan per placed "
                    "card to the referee", _watch)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, metavar="N", help="webcam index")
    src.add_argument("--video", metavar="FILE", help="a video file")
    src.add_argument("--images", metavar="DIR", help="a folder of images, in name order")
    src.add_argument("--picamera", action="store_true", help="the Raspberry Pi camera")
    p.add_argument("--table", help="table id on the referee (needed with --server)")
    p.add_argument("--server", metavar="URL", help="referee base URL; without it scans are "
                   "printed as JSON lines")
    p.add_argument("--token", help="camera token (default: $COMPANION_CAMERA_TOKEN)")
    _zone_args(p)
    p.add_argument("--calibrate", metavar="FILE", help="no mat: place a card in each zone "
                   "in turn (needs --game/--players), save the calibration to FILE, exit")
    p.add_argument("--state-dir", metavar="DIR", help="where unsent scans wait (default "
                   ".companion-cv/<table>)")
    p.add_argument("--preview-port", type=int, default=8765,
                   help="serve the annotated preview on this port (0: no preview)")
    p.add_argument("--size", default="1280x720", help="camera resolution WxH (3840x2160 "
                   "and 4608x2592 for a whole 8-player table; with --picamera, 'full' is "
                   "the sensor's whole resolution)")
    p.add_argument("--hold", type=int, default=1, help="--images: use each image N times")
    p.add_argument("--max-frames", type=int, help="stop after N frames")
    p.add_argument("--place-frames", type=int, default=3,
                   help="sightings at rest before a card counts as placed")
    p.add_argument("--remove-after", type=float, default=1.5,
                   help="without the mat: seconds of absence before a placed card counts "
                   "as removed (with the mat: 0.3 s of bare mat where it lay, or another "
                   "card over its place, C-9)")

    p = cli.command("scan", "read the cards in still images", _scan)
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="print JSON (one object per image)")
    _zone_args(p)

    p = cli.command("install-service", "write systemd units that start the referee and "
                    "the camera at boot (a Raspberry Pi as an appliance)", _install_service)
    p.add_argument("--dry-run", action="store_true", help="print the units, write nothing")
    p.add_argument("--unit-dir", default="/etc/systemd/system", help="where units go")
    p.add_argument("--env-file", default="/etc/companion/camera.env",
                   help="the camera's table id and token (written empty, mode 600, if absent)")
    p.add_argument("--user", help="user the services run as (default: you)")
    p.add_argument("--port", type=int, default=8000, help="the referee's port")
    p.add_argument("--preview-port", type=int, default=8765, help="the camera preview's port")
    p.add_argument("--data-dir", help="the referee's data directory (default: data/ in the "
                   "project)")
    p.add_argument("--camera-args", default="--picamera --size full",
                   help="the camera source for companion watch (default: the Pi camera's "
                   "full sensor)")
