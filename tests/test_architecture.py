"""The arrows point one way: printables, cv and web depend on companion, never the reverse;
``bench`` may import any of them and none of them imports ``bench``; no import circles.

``companion/`` must not import OpenCV, Flask, reportlab or any of the outer packages.
Parsed with ``ast`` so that an import hidden inside a function (or made only for type
hints) is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_IN_COMPANION = {
    "cv2", "flask", "werkzeug", "reportlab", "waitress", "pyzbar", "zxingcpp", "qrcode",
    "PIL", "numpy", "printables", "cv", "web", "companion_cli",
    "design", "report", "pyspiel", "open_spiel", "pettingzoo", "matplotlib",
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


PACKAGES = ("companion", "printables", "cv", "web", "report", "design", "bench")
PRODUCT = ("companion", "printables", "cv", "web", "report", "design")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(f): f for pkg in PACKAGES for f in sorted((ROOT / pkg).rglob("*.py"))}


def imported_modules(path: Path, name: str, known: set[str] | dict[str, Path]) -> set[str]:
    """The project modules ``path`` (module ``name``) imports, wherever the import stands.

    ``from a.b import c`` names the module ``a.b.c`` when there is one, else ``a.b``: the
    file a reader opens next. Relative imports are resolved against ``name``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in known:
                    out.add(sub)
                elif base in known:
                    out.add(base)
    out.discard(name)
    return out


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def project_graph() -> dict[str, set[str]]:
    mods = project_modules()
    return {n: imported_modules(p, n, mods) for n, p in mods.items()}


def test_no_import_cycles() -> None:
    cycles = import_cycles(project_graph())
    assert not cycles, f"import circles: {cycles}"


def test_cycle_checker_catches_a_type_hint_circle(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from typing import TYPE_CHECKING\n"
                                   "if TYPE_CHECKING:\n    from p.b import B\n")
    (tmp_path / "b.py").write_text("def f():\n    from p import a\n")
    known = {"p.a", "p.b"}
    graph = {"p.a": imported_modules(tmp_path / "a.py", "p.a", known),
             "p.b": imported_modules(tmp_path / "b.py", "p.b", known)}
    assert import_cycles(graph) == [["p.a", "p.b"]]


@pytest.mark.parametrize("package", PRODUCT)
def test_product_never_imports_bench(package: str) -> None:
    bad = sorted(f"{n} -> {m}" for n, ms in project_graph().items() if n.split(".")[0] == package
                 for m in ms if m.split(".")[0] == "bench")
    assert not bad, f"the product imports the measuring rigs: {bad}"


# Who may import whom besides itself. web reads phone photos and phone cameras with cv's
# decoder (issue 13); report reads recorded games through web's store (issue 22); cv never
# imports web or printables. design (the OpenSpiel and PettingZoo adapters, issue 30 §3)
# stands on companion alone; report draws its skill ladder from it.
ALLOWED = {"companion": set(), "printables": {"companion"}, "cv": {"companion"},
           "web": {"companion", "cv"}, "report": {"companion", "web", "design"},
           "design": {"companion"}}


@pytest.mark.parametrize("package", PRODUCT)
def test_arrows_point_to_companion(package: str) -> None:
    """printables, cv and web import companion (and themselves), never the reverse."""
    allowed = {package} | ALLOWED[package]
    bad = sorted(f"{n} -> {m}" for n, ms in project_graph().items() if n.split(".")[0] == package
                 for m in ms if m.split(".")[0] not in allowed)
    assert not bad, f"{package} imports another room: {bad}"


def test_every_benchmark_lives_in_bench() -> None:
    strays = sorted(str(p.relative_to(ROOT)) for pkg in PRODUCT for p in (ROOT / pkg).rglob("*.py")
                    if "bench" in p.stem or p.stem in {"scenes", "sequences", "screenshots"})
    assert not strays, f"measuring rigs outside bench/: {strays}"


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
