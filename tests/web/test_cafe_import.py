"""``companion import`` of a hostile export (issue 27 §9): all or nothing, never touches a
table it did not bring, follows no links, refuses bad input naming the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_records import play_through
from webtools import bearer, make_table

from web import services
from web.archive import ArchiveError, export, import_into
from web.store import Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def exported(app: Flask, client: FlaskClient, data_dir: Path, tmp_path: Path
             ) -> dict[str, Any]:
    """A data dir with two tables (the second played again from the first) and its export."""
    first = make_table(client, data_dir, "godnum", seed=1)
    play_through(app, client, first, limit=8, undo_at=-1)
    again = client.post(f"/api/tables/{first['table']}/again",
                        headers=bearer(first["host_token"]))
    assert again.status_code == 201
    services(app).close()
    out = tmp_path / "export"
    assert export(data_dir, out)["tables"] == 2
    return {"dir": out, "first": first["table"], "again": again.json["table"]}


def _tables(data_dir: Path) -> list[str]:
    if not (data_dir / "companion.sqlite3").exists():
        return []
    store = Store(data_dir / "companion.sqlite3")
    try:
        return sorted(store.table_ids()) + sorted(store.deleted_ids())
    finally:
        store.close()


def _doc(folder: Path, tid: str) -> dict[str, Any]:
    return dict(json.loads((folder / "tables" / f"{tid}.json").read_text()))


def _put(folder: Path, tid: str, doc: dict[str, Any]) -> None:
    (folder / "tables" / f"{tid}.json").write_text(json.dumps(doc))


def test_an_export_imports_whole_with_its_play_again_link(
        exported: dict[str, Any], tmp_path: Path) -> None:
    target = tmp_path / "target"
    assert import_into(exported["dir"], target)["tables"] == 2
    store = Store(target / "companion.sqlite3")
    try:
        assert store.table_status(exported["first"]) == (None, exported["again"])
    finally:
        store.close()


def test_a_follows_link_to_a_table_the_export_does_not_bring_is_refused(
        exported: dict[str, Any], data_dir: Path, tmp_path: Path) -> None:
    """The exporter's table claims to follow one of the server's own: it would move that
    table's pages to a table whose tokens the exporter holds."""
    victim = data_dir  # the server's data dir holds both tables already
    evil = tmp_path / "evil"
    (evil / "tables").mkdir(parents=True)
    doc = _doc(exported["dir"], exported["again"])
    doc["table"]["id"] = "EvilTable01"
    doc["table"]["config"]["follows"] = exported["first"]
    _put(evil, "EvilTable01", doc)
    before = _tables(victim)
    with pytest.raises(ArchiveError, match=r"tables/EvilTable01\.json follows table"):
        import_into(evil, victim)
    assert _tables(victim) == before
    store = Store(victim / "companion.sqlite3")
    try:
        assert store.table_status(exported["first"]) == (None, exported["again"])
    finally:
        store.close()


def test_a_refused_import_leaves_nothing_behind(exported: dict[str, Any],
                                               tmp_path: Path) -> None:
    """A forged log (it does not replay) refuses the whole import, its good tables too;
    the same folder without it imports afterwards (no table answers 409 for ever)."""
    doc = _doc(exported["dir"], exported["again"])
    doc["table"]["records"].append({**doc["table"]["records"][-1],
                                    "seq": len(doc["table"]["records"]) + 1,
                                    "body": {"type": "cheat", "wins": 1}})
    _put(exported["dir"], exported["again"], doc)
    target = tmp_path / "target"
    with pytest.raises(ArchiveError, match=rf"tables/{exported['again']}\.json: table .* "
                                           "does not replay"):
        import_into(exported["dir"], target)
    assert _tables(target) == []
    assert not list((target / "runs").glob("*.json"))
    assert not list(target.glob(".import-*"))
    doc["table"]["records"].pop()
    _put(exported["dir"], exported["again"], doc)
    assert import_into(exported["dir"], target)["tables"] == 2


def test_a_link_in_the_export_is_never_followed(exported: dict[str, Any],
                                               tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text('{"private": "the server\'s own file"}')
    (exported["dir"] / "runs" / "ZZZZZZ.json").symlink_to(secret)
    target = tmp_path / "target"
    with pytest.raises(ArchiveError, match=r"runs/ZZZZZZ\.json is a link"):
        import_into(exported["dir"], target)
    assert _tables(target) == []
    assert not (target / "runs" / "ZZZZZZ.json").exists()


def test_deep_json_is_refused_by_name_without_a_traceback(
        exported: dict[str, Any], tmp_path: Path) -> None:
    (exported["dir"] / "tables" / "Deep.json").write_text("[" * 200_000 + "]" * 200_000)
    target = tmp_path / "target"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "companion_cli", "import",
                           str(exported["dir"]), "--data-dir", str(target)],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    assert "tables/Deep.json" in done.stderr + done.stdout
    assert "nested deeper than 64 levels" in done.stderr + done.stdout
    assert _tables(target) == []
