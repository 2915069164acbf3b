"""The arrows point one way: printables, cv and web depend on companion, never the reverse.

``companion/`` must not import OpenCV, Flask, reportlab or any of the outer packages.
Parsed with ``ast`` so that an import hidden inside a function is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_COMPANION = {
    "cv2", "flask", "werkzeug", "reportlab", "waitress", "pyzbar", "zxingcpp", "qrcode",
    "PIL", "numpy", "printables", "cv", "web", "companion_cli",
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            roots.add(str(node.args[0].value).split(".")[0])
    return roots


def companion_files() -> list[Path]:
    return sorted((ROOT / "companion").rglob("*.py"))


def test_companion_has_modules_to_check() -> None:
    assert len(companion_files()) >= 8


@pytest.mark.parametrize("path", companion_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_companion_stays_pure(path: Path) -> None:
    bad = imported_roots(path) & FORBIDDEN_IN_COMPANION
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_checker_catches_a_hidden_import(tmp_path: Path) -> None:
    f = tmp_path / "m.py"
    f.write_text("def f():\n    import cv2.aruco\n    from flask import Flask\n")
    assert {"cv2", "flask"} <= imported_roots(f)


def test_registry_lists_every_game_module() -> None:
    from companion.registry import GAMES, find_rules

    for name in GAMES:
        rules = find_rules(name)
        assert rules.id == name
