"""The Pi as an appliance: set-up detects a Pi from a fake device-tree model file, plans
apt's python3-picamera2 and lets a real venv see the system's site-packages; the Pi
camera source runs on a stand-in picamera2 at the full sensor; install-service writes the
two systemd units (and prints them with --dry-run)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

import companion_cli
from companion.errors import BadSetup
from cv import appliance, service
from cv.sources import PiCameraSource

ROOT = Path(__file__).resolve().parents[2]


def _model(tmp_path: Path, text: bytes) -> str:
    f = tmp_path / f"model-{abs(hash(text))}"
    f.write_bytes(text)
    return str(f)


def test_a_pi_is_known_by_its_device_tree_model_and_nothing_else_is(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch
                                                                    ) -> None:
    pi = _model(tmp_path, b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert appliance.pi_model(pi) == "Raspberry Pi 4 Model B Rev 1.5"
    assert appliance.pi_model(_model(tmp_path, b"QEMU Virtual Machine\x00")) is None
    assert appliance.pi_model(str(tmp_path / "absent")) is None
    monkeypatch.setenv(appliance.MODEL_ENV, pi)  # how scripts/setup is pointed at a fake
    assert appliance.pi_model() == "Raspberry Pi 4 Model B Rev 1.5"


def _fake_venv(tmp_path: Path, include: str = "false") -> Path:
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / "pyvenv.cfg").write_text(f"home = /usr/bin\ninclude-system-site-packages = {include}\n"
                                     "version = 3.11.2\n", encoding="utf-8")
    return venv


def test_on_a_pi_setup_plans_picamera2_from_apt_and_the_venv_seeing_it(tmp_path: Path) -> None:
    venv = _fake_venv(tmp_path)
    pi = _model(tmp_path, b"Raspberry Pi 5 Model B Rev 1.0\x00")
    steps = appliance.plan(venv, pi, installed=lambda p: False)
    assert steps == [["apt-get", "install", "-y", "--no-install-recommends", "python3-picamera2"],
                     ["venv", "include-system-site-packages", str(venv)],
                     [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "simplejpeg"]]
    (venv / "lib" / "python3.11" / "site-packages" / "simplejpeg").mkdir(parents=True)
    assert appliance.plan(venv, pi, installed=lambda p: True) == [
        ["venv", "include-system-site-packages", str(venv)]]
    assert appliance.plan(venv, _model(tmp_path, b"PC\x00"), installed=lambda p: False) == []


def test_as_root_setup_runs_apt_and_flips_the_venv_without_root_it_says_the_command(
        tmp_path: Path) -> None:
    pi = _model(tmp_path, b"Raspberry Pi 4 Model B Rev 1.5\x00")
    venv = _fake_venv(tmp_path)
    ran: list[Sequence[str]] = []
    said: list[str] = []
    code = appliance.setup(venv, pi, is_root=True, runner=lambda c: ran.append(c) or 0,
                           installed=lambda p: False, say=said.append)
    assert code == 0
    assert ran == [["apt-get", "update", "-q"],
                   ["apt-get", "install", "-y", "--no-install-recommends", "python3-picamera2"],
                   [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "simplejpeg"]]
    assert appliance.sees_system_packages(venv)
    assert "version = 3.11.2" in (venv / "pyvenv.cfg").read_text(encoding="utf-8")

    venv2 = tmp_path / "two"
    venv2.mkdir()
    (venv2 / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    said.clear()
    (venv2 / "lib" / "python3.11" / "site-packages" / "simplejpeg").mkdir(parents=True)
    code = appliance.setup(venv2, pi, is_root=False, runner=lambda c: pytest.fail(str(c)),
                           installed=lambda p: False, say=said.append)
    assert code == 1
    assert any("sudo apt-get install -y --no-install-recommends python3-picamera2" in s
               for s in said)
    assert appliance.sees_system_packages(venv2)  # the venv part needs no root


def test_off_a_pi_setup_changes_nothing(tmp_path: Path) -> None:
    venv = _fake_venv(tmp_path)
    before = (venv / "pyvenv.cfg").read_text(encoding="utf-8")
    code = appliance.setup(venv, _model(tmp_path, b"Generic x86\x00"),
                           runner=lambda c: pytest.fail(str(c)), say=lambda s: None)
    assert code == 0
    assert (venv / "pyvenv.cfg").read_text(encoding="utf-8") == before


def test_a_real_venv_then_sees_the_system_site_packages(tmp_path: Path) -> None:
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    probe = "import sys, site; print('\\n'.join(sys.path))"

    def paths() -> list[str]:
        return subprocess.run([str(py), "-c", probe], capture_output=True, text=True,
                              check=True).stdout.split()

    before = paths()
    pi = _model(tmp_path, b"Raspberry Pi 4 Model B Rev 1.5\x00")
    ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    (venv / "lib" / ver / "site-packages" / "simplejpeg").mkdir(parents=True, exist_ok=True)
    assert appliance.setup(venv, pi, installed=lambda p: True, say=lambda s: None,
                           runner=lambda c: pytest.fail(str(c))) == 0
    after = paths()
    outside = [p for p in after if p not in before and not p.startswith(str(venv))]
    assert any(p.endswith("-packages") for p in outside)  # the system's site-packages


def test_the_appliance_step_runs_with_the_system_python_and_a_dry_run(tmp_path: Path) -> None:
    venv = _fake_venv(tmp_path)
    env = dict(os.environ, COMPANION_PI_MODEL_FILE=_model(tmp_path, b"Raspberry Pi 4\x00"),
               PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "cv.appliance", "--venv", str(venv),
                          "--dry-run"], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True).stdout
    assert "would let" in out
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text(
        encoding="utf-8")
    setup_script = (ROOT / "scripts" / "setup").read_text(encoding="utf-8")
    assert '-m cv.appliance --venv .venv' in setup_script
    assert "--system-site-packages" in setup_script


STAND_IN = textwrap.dedent('''
    """A stand-in for picamera2: what PiCameraSource uses of it, on this machine."""
    import numpy as np

    opened = []

    class Picamera2:
        sensor_resolution = (4608, 2592)

        def __init__(self):
            self.config = None
            self.started = False
            opened.append(self)

        def create_video_configuration(self, main):
            return {"main": dict(main)}

        def configure(self, config):
            self.config = config

        def start(self):
            self.started = True

        def capture_array(self, name):
            w, h = self.config["main"]["size"]
            frame = np.zeros((h * 3 // 2, w), np.uint8)  # YUV420: Y, then U and V
            frame[:h] = 200
            frame[h:] = 128
            return frame

        def stop(self):
            self.started = False

        def close(self):
            pass
''')


def test_the_pi_camera_source_gives_grey_frames_of_the_full_sensor(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "picamera2.py").write_text(STAND_IN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    import picamera2  # the stand-in

    src = PiCameraSource(None)
    with src:
        frame = src.read(timeout=10)
    assert frame is not None
    assert frame.image.shape == (2592, 4608)  # the Y plane only: grey, no decoding
    assert int(frame.image.max()) == 200
    cam = picamera2.opened[-1]
    assert cam.config["main"] == {"size": (4608, 2592), "format": "YUV420"}
    assert not cam.started  # stopped and released


def test_install_service_writes_two_units_and_a_private_env_file(tmp_path: Path) -> None:
    units_dir, env = tmp_path / "systemd", tmp_path / "etc" / "camera.env"
    code = companion_cli.main(["install-service", "--unit-dir", str(units_dir), "--env-file",
                               str(env), "--user", "pi", "--port", "8080"])
    assert code == 0
    server = (units_dir / service.SERVER_UNIT).read_text(encoding="utf-8")
    camera = (units_dir / service.CAMERA_UNIT).read_text(encoding="utf-8")
    assert "serve --host 0.0.0.0 --port 8080" in server and "User=pi" in server
    assert "WantedBy=multi-user.target" in server
    assert "watch --picamera --size full --server http://127.0.0.1:8080" in camera
    assert "--table ${COMPANION_TABLE}" in camera and f"EnvironmentFile={env}" in camera
    assert f"After={service.SERVER_UNIT}" in camera
    assert oct(env.stat().st_mode & 0o777) == "0o600"
    env.write_text("COMPANION_TABLE=abc\n", encoding="utf-8")
    assert companion_cli.main(["install-service", "--unit-dir", str(units_dir), "--env-file",
                               str(env), "--user", "pi"]) == 0
    assert env.read_text(encoding="utf-8") == "COMPANION_TABLE=abc\n"  # never overwritten


def test_install_service_dry_run_prints_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    units_dir = tmp_path / "systemd"
    code = companion_cli.main(["install-service", "--dry-run", "--unit-dir", str(units_dir),
                               "--env-file", str(tmp_path / "camera.env"), "--user", "pi"])
    assert code == 0
    out = capsys.readouterr().out
    assert "[Service]" in out and "companion-camera.service" in out
    assert "systemctl enable --now" in out
    assert not units_dir.exists() and not (tmp_path / "camera.env").exists()


def test_install_service_refuses_bad_input() -> None:
    root, exe = Path("/srv/companion"), Path("/srv/companion/.venv/bin/companion")
    with pytest.raises(BadSetup, match="'--webcam 0' must start with a source"):
        service.units(root=root, companion=exe, user="pi", camera_args="--webcam 0")
    with pytest.raises(BadSetup, match="70000"):
        service.units(root=root, companion=exe, user="pi", port=70000)
    with pytest.raises(BadSetup, match="'a b'"):
        service.units(root=root, companion=exe, user="a b")
