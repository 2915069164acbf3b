"""Files keep their secrets (issue 19 §6): the SQLite store holds every token in clear, so
it and its WAL files are the owner's only, in a folder the owner alone may open; print run
files too; the TLS key is 0600 from its first byte, even beside a stale temporary file; and
``companion bench pages`` deletes only the data it made."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from webtools import config, make_table

from web import create_app, services
from web.tls import certificate_hosts, ensure_certificate


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that lets everyone read what is made: the modes must not depend on it."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_store_and_runs_are_the_owners_only(tmp_path: Path, open_umask: None) -> None:
    data = tmp_path / "data"
    app = create_app(config(data))
    try:
        t = make_table(app.test_client(), data)
        assert t["host_token"]
        db = data / "companion.sqlite3"
        assert mode(data) == 0o700
        assert mode(db) == 0o600
        for suffix in ("-wal", "-shm"):
            assert mode(db.with_name(db.name + suffix)) == 0o600, suffix
        runs = data / "runs"
        assert mode(runs) == 0o700
        assert [mode(p) for p in runs.glob("*.json")] == [0o600]
    finally:
        services(app).close()


def test_a_store_left_readable_by_an_older_version_is_closed_on_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = create_app(config(data))
    make_table(app.test_client(), data)
    services(app).close()
    db = data / "companion.sqlite3"
    os.chmod(db, 0o644)
    app = create_app(config(data))
    try:
        assert mode(db) == 0o600
        assert len(services(app).tables.all()) == 1  # nothing lost
    finally:
        services(app).close()


def test_the_tls_key_is_private_even_beside_a_stale_temporary_file(tmp_path: Path,
                                                                   open_umask: None) -> None:
    folder = tmp_path / "tls"
    folder.mkdir()
    stale = folder / "key.tmp"  # an interrupted write of an older version, readable by all
    stale.write_bytes(b"old")
    os.chmod(stale, 0o644)
    written: list[int] = []
    real_replace = os.replace

    def spy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        written.append(mode(Path(src)))  # the mode the key had while it was written
        real_replace(src, dst)

    os.replace = spy  # type: ignore[assignment]
    try:
        cert, key, made = ensure_certificate(tmp_path, certificate_hosts("192.168.1.20"))
    finally:
        os.replace = real_replace
    assert made and written == [0o600]
    assert mode(key) == 0o600
    assert not stale.exists()
    assert all(mode(p) & 0o077 == 0 for p in folder.iterdir() if p != cert)


def test_a_kept_key_readable_by_all_is_closed(tmp_path: Path) -> None:
    hosts = certificate_hosts("192.168.1.20")
    _, key, _ = ensure_certificate(tmp_path, hosts)
    os.chmod(key, 0o644)
    _, again, made = ensure_certificate(tmp_path, hosts)
    assert not made and mode(again) == 0o600
