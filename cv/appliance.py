"""The Raspberry Pi as an appliance: the set-up step ``scripts/setup`` runs on a Pi.

On Raspberry Pi OS the camera library ``picamera2`` (and libcamera under it) comes from
apt as ``python3-picamera2`` into the system's site-packages; pip cannot build it. So on
a Pi (``/proc/device-tree/model`` names one) this step installs that package with apt
and lets the project's ``.venv`` see the system's site-packages
(``include-system-site-packages = true`` in its ``pyvenv.cfg``, what
``python3 -m venv --system-site-packages`` writes). The venv's own packages still come
first, so everything pip installed there wins over the system's copies; that is also why
the venv gets its own ``simplejpeg`` (apt's is built for Debian's numpy 1.x, the venv
has numpy 2).

Standard library only: ``scripts/setup`` runs it with the system's Python, before or
without the venv's packages (``python3 -m cv.appliance --venv .venv``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

MODEL_FILE = "/proc/device-tree/model"
MODEL_ENV = "COMPANION_PI_MODEL_FILE"  # another model file, for tests
APT_PACKAGES = ("python3-picamera2",)
Runner = Callable[[Sequence[str]], int]


def pi_model(model_file: str | os.PathLike[str] | None = None) -> str | None:
    """The Raspberry Pi's model (``Raspberry Pi 4 Model B Rev 1.5``), or ``None`` on any
    other machine. The file is ``$COMPANION_PI_MODEL_FILE`` or ``/proc/device-tree/model``
    unless given; a missing or unreadable file means not a Pi."""
    path = Path(model_file or os.environ.get(MODEL_ENV) or MODEL_FILE)
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return None
    model = text.replace("\x00", "").strip()  # the device tree ends it with a NUL
    return model if model.startswith("Raspberry Pi") else None


def sees_system_packages(venv: Path) -> bool:
    """Whether the venv at ``venv`` sees the system's site-packages (its pyvenv.cfg)."""
    try:
        cfg = (venv / "pyvenv.cfg").read_text(encoding="utf-8")
    except OSError:
        return False
    m = re.search(r"^\s*include-system-site-packages\s*=\s*(\S+)", cfg, re.MULTILINE)
    return bool(m) and m.group(1).lower() == "true"  # type: ignore[union-attr]


def let_see_system_packages(venv: Path) -> bool:
    """Make the venv see the system's site-packages; ``True`` if that changed anything.
    Raises ``FileNotFoundError`` when ``venv`` has no pyvenv.cfg (not a venv)."""
    cfg_path = venv / "pyvenv.cfg"
    cfg = cfg_path.read_text(encoding="utf-8")
    if sees_system_packages(venv):
        return False
    line = "include-system-site-packages = true"
    pattern = re.compile(r"^\s*include-system-site-packages\s*=.*$", re.MULTILINE)
    cfg = pattern.sub(line, cfg) if pattern.search(cfg) else cfg.rstrip("\n") + "\n" + line + "\n"
    tmp = cfg_path.with_suffix(".cfg.tmp")
    tmp.write_text(cfg, encoding="utf-8")
    os.replace(tmp, cfg_path)
    return True


def _dpkg_ok(package: str) -> bool:
    """Whether dpkg reports ``package`` installed."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                             capture_output=True, text=True, check=False).stdout
    except OSError:
        return False
    return "install ok installed" in out


def _loud(cmd: Sequence[str]) -> int:
    try:
        return subprocess.run(list(cmd), check=False).returncode
    except OSError:
        return 127


def plan(venv: Path, model_file: str | None = None,
         installed: Callable[[str], bool] | None = None) -> list[list[str]]:
    """What set-up must still do on this machine, as commands (empty off a Pi or when
    done). ``installed`` tells whether an apt package is there (default: dpkg)."""
    if pi_model(model_file) is None:
        return []
    have = installed or _dpkg_ok
    steps: list[list[str]] = []
    missing = [p for p in APT_PACKAGES if not have(p)]
    if missing:
        steps.append(["apt-get", "install", "-y", "--no-install-recommends", *missing])
    if not sees_system_packages(venv):
        steps.append(["venv", "include-system-site-packages", str(venv)])
    if not list(venv.glob("lib/python3*/site-packages/simplejpeg")):
        # picamera2 imports apt's simplejpeg, built for Debian's numpy 1.x; the venv's
        # numpy is 2.x, so the venv gets its own simplejpeg, which comes first
        # (raspberrypi/picamera2 issue 1211: "numpy.dtype size changed").
        steps.append([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                      "simplejpeg"])
    return steps


def setup(venv: Path, model_file: str | None = None, *, dry_run: bool = False,
          is_root: bool | None = None, runner: Runner = _loud,
          installed: Callable[[str], bool] | None = None,
          say: Callable[[str], None] = print) -> int:
    """Carry out ``plan``: apt as root (otherwise say the command to run), then the venv.
    Returns 0 when nothing is left to do, 1 when the user must run something."""
    model = pi_model(model_file)
    if model is None:
        return 0
    steps = plan(venv, model_file, installed)
    if not steps:
        say(f"setup: {model}: picamera2 is installed and the venv sees it")
        return 0
    root = os.geteuid() == 0 if is_root is None else is_root
    left = 0
    for step in steps:
        if step[0] == "venv":
            if dry_run:
                say(f"setup: would let {venv} see the system's site-packages (picamera2)")
            else:
                let_see_system_packages(venv)
                say(f"setup: {venv} now sees the system's site-packages (picamera2 from apt)")
            continue
        text = " ".join(step)
        if dry_run:
            say(f"setup: {model}: would run: {text}")
        elif step[0] != "apt-get":  # pip into the venv: no root needed
            say(f"setup: {model}: {text}")
            if runner(step) != 0:
                say(f"setup: {text} failed")
                left = 1
        elif root:
            say(f"setup: {model}: {text}")
            if runner(["apt-get", "update", "-q"]) != 0 or runner(step) != 0:
                say(f"setup: {text} failed")
                left = 1
        else:
            say(f"setup: {model}: the Pi camera needs: sudo {text}")
            left = 1
    return left


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m cv.appliance",
                                description="Raspberry Pi set-up: picamera2 from apt, seen "
                                "by the venv (does nothing on other machines)")
    p.add_argument("--venv", default=".venv", help="the project's venv (default .venv)")
    p.add_argument("--model-file", default=None,
                   help=f"the device-tree model file (default ${MODEL_ENV} or {MODEL_FILE})")
    p.add_argument("--dry-run", action="store_true", help="say what would be done")
    args = p.parse_args(argv)
    return setup(Path(args.venv), args.model_file, dry_run=args.dry_run)


if __name__ == "__main__":
    sys.exit(main())
