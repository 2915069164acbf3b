"""Every command the README lists runs after ``./scripts/run`` alone (issue 29 §9).

``./scripts/run`` installs the package with its ``report`` extra, not the ``test`` extra.
A third-party module the shipped packages import must therefore come from those
requirements, or be one of the few the project deliberately leaves to another set-up, each
of which says so in words where it is needed (checked below) instead of a traceback.
"""

from __future__ import annotations

import importlib.metadata as md
import re
import subprocess
import sys
from pathlib import Path

from tests.test_architecture import imported_roots

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("companion", "printables", "cv", "web", "report", "design", "bench")
OWN = set(SHIPPED) | {"companion_cli", "tests"}
# Left out of ./scripts/run on purpose: PostgreSQL's driver is the café's extra
# (``pip install .[postgresql]``, docs/deploy.md); picamera2 comes from apt on a Pi
# (scripts/setup); Playwright drives Chromium for ``bench pages`` (the test set-up);
# OpenSpiel and PettingZoo are the design extra of ``report --ladder`` and ``bench ladder``
# (./scripts/setup design; without it they say so in one line: tests/design).
ELSEWHERE = {"psycopg": "postgresql", "psycopg_pool": "postgresql", "picamera2": "apt",
             "playwright": "test", "pyspiel": "design", "open_spiel": "design",
             "pettingzoo": "design", "gymnasium": "design"}


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _run_requirements() -> set[str]:
    dist = md.distribution("table-companion")
    names = set()
    for req in dist.requires or []:
        marker = req.split(";", 1)[1] if ";" in req else ""
        if "extra" in marker and "report" not in marker:
            continue
        names.add(_name(req))
    return names


def _third_party_imports() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for pkg in SHIPPED:
        for path in (ROOT / pkg).rglob("*.py"):
            for mod in imported_roots(path):
                if mod in sys.stdlib_module_names or mod in OWN or mod == "__future__":
                    continue
                found.setdefault(mod, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_module_the_commands_import_is_installed_by_scripts_run() -> None:
    wanted = _run_requirements()
    dists = md.packages_distributions()
    missing = []
    for mod, files in sorted(_third_party_imports().items()):
        if mod in ELSEWHERE:
            continue
        names = {d.lower().replace("_", "-") for d in dists.get(mod, [])}
        # A module may come in through a direct requirement's own dependency (werkzeug
        # through flask): accept it when some requirement installs it.
        if names & wanted or any(names & _closure(w) for w in wanted):
            continue
        missing.append(f"{mod} ({', '.join(sorted(names)) or 'no distribution'}) "
                       f"imported by {sorted(files)[0]}")
    assert not missing, "./scripts/run does not install: " + "; ".join(missing)


def _closure(name: str, seen: set[str] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    if name in seen:
        return seen
    seen.add(name)
    try:
        reqs = md.distribution(name).requires or []
    except md.PackageNotFoundError:
        return seen
    for req in reqs:
        if ";" in req and "extra" in req.split(";", 1)[1]:
            continue
        _closure(_name(req), seen)
    return seen


def test_httpx_is_not_only_a_test_extra() -> None:
    """``companion bench web`` stopped with ModuleNotFoundError after ./scripts/run."""
    assert "httpx" in _run_requirements()


def test_bench_pages_without_chromium_says_what_to_run(tmp_path: Path) -> None:
    """Without Chromium on PATH, ``bench pages`` names the set-up step, no traceback."""
    out = subprocess.run(
        [sys.executable, "-m", "companion_cli", "bench", "pages", "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, check=False,
        env={"PATH": str(tmp_path), "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2
    assert "./scripts/setup test" in out.stderr
    assert "Traceback" not in out.stderr
