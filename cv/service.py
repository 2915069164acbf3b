"""``companion install-service``: systemd units that start the referee and the camera at
boot, so a Pi with a camera on a stand is a box you switch on.

Two units: ``companion-server.service`` (``companion serve`` on the whole LAN) and
``companion-camera.service`` (``companion watch`` sending to it). The camera's table id
and token live in an environment file readable by root only (``/etc/companion/camera.env``,
``COMPANION_TABLE=...`` and ``COMPANION_CAMERA_TOKEN=...``, from the referee's table page);
the camera unit waits for that file, so it starts once the referee has set it up.
"""

from __future__ import annotations

import argparse
import getpass
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.errors import BadSetup

SERVER_UNIT = "companion-server.service"
CAMERA_UNIT = "companion-camera.service"
ENV_TEMPLATE = """\
# Table Companion camera: the table it watches and its camera token, from the referee's
# table page. The camera service starts once both are filled in.
COMPANION_TABLE=
COMPANION_CAMERA_TOKEN=
"""


@dataclass(frozen=True)
class Units:
    """The unit files' names and texts, and the environment file's path."""

    server: str
    camera: str
    env_file: Path


def _quote(args: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in args)


def units(*, root: Path, companion: Path, user: str, port: int = 8000,
          data_dir: Path | None = None, camera_args: str = "--picamera --size full",
          env_file: Path = Path("/etc/companion/camera.env"), preview_port: int = 8765
          ) -> Units:
    """The two units for the project at ``root`` run by ``companion`` (the venv's
    command) as ``user``. Raises ``BadSetup`` on a port outside 1-65535, a user name with
    spaces or a camera source that ``companion watch`` does not take."""
    for name, value in (("--port", port), ("--preview-port", preview_port)):
        if not 1 <= value <= 65535:
            raise BadSetup(f"{name} {value!r} is not a port (1-65535)")
    if not user or any(c.isspace() for c in user):
        raise BadSetup(f"--user {user!r} is not a user name")
    source = shlex.split(camera_args)
    if not source or source[0] not in ("--picamera", "--camera", "--video", "--images"):
        raise BadSetup(f"--camera-args {camera_args!r} must start with a source: --picamera, "
                       "--camera N, --video FILE or --images DIR")
    data = data_dir or root / "data"
    server_cmd = [str(companion), "serve", "--host", "0.0.0.0", "--port", str(port),
                  "--data-dir", str(data), "--camera-preview", f"http://127.0.0.1:{preview_port}"]
    # ${COMPANION_TABLE} is expanded by systemd from the environment file.
    camera_cmd = [str(companion), "watch", *source, "--server", f"http://127.0.0.1:{port}",
                  "--preview-port", str(preview_port)]
    server = f"""\
[Unit]
Description=Table Companion referee (web pages for the players' phones)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User={user}
WorkingDirectory={root}
ExecStart={_quote(server_cmd)}
Restart=on-failure
RestartSec=3

[Install]
WantedBy=multi-user.target
"""
    camera = f"""\
[Unit]
Description=Table Companion camera (reads the cards on the table, sends them to the referee)
After={SERVER_UNIT}
Wants={SERVER_UNIT}
ConditionPathExists={env_file}

[Service]
Type=simple
User={user}
WorkingDirectory={root}
EnvironmentFile={env_file}
ExecStart={_quote(camera_cmd)} --table ${{COMPANION_TABLE}}
Restart=always
RestartSec=3

[Install]
WantedBy=multi-user.target
"""
    return Units(server, camera, env_file)


def install(u: Units, unit_dir: Path, *, dry_run: bool = False) -> list[str]:
    """Write the units into ``unit_dir`` and the environment file (if there is none yet,
    readable by root only); with ``dry_run`` write nothing. Returns what was (or would
    be) written, and the commands that start them."""
    said = []
    for name, text in ((SERVER_UNIT, u.server), (CAMERA_UNIT, u.camera)):
        path = unit_dir / name
        if dry_run:
            said.append(f"# {path}\n{text}")
        else:
            unit_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
            said.append(f"wrote {path}")
    if not u.env_file.exists():
        if dry_run:
            said.append(f"# {u.env_file} (mode 600)\n{ENV_TEMPLATE}")
        else:
            u.env_file.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(u.env_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(ENV_TEMPLATE)
            said.append(f"wrote {u.env_file}: fill in the table id and camera token")
    said.append(f"then: sudo systemctl daemon-reload && sudo systemctl enable --now "
                f"{SERVER_UNIT} {CAMERA_UNIT}")
    return said


def main(args: argparse.Namespace) -> int:
    """``companion install-service``."""
    root = Path(__file__).resolve().parent.parent
    companion = Path(sys.executable).with_name("companion")
    u = units(root=root, companion=companion, user=args.user or getpass.getuser(),
              port=args.port, data_dir=Path(args.data_dir) if args.data_dir else None,
              camera_args=args.camera_args, env_file=Path(args.env_file),
              preview_port=args.preview_port)
    try:
        lines = install(u, Path(args.unit_dir), dry_run=args.dry_run)
    except PermissionError as exc:
        raise BadSetup(f"cannot write {exc.filename!r}: run with sudo, or --dry-run to see "
                       "the units") from None
    for line in lines:
        print(line)
    return 0
