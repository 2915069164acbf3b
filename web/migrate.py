"""``companion db migrate``: copy a SQLite data dir (tables, logs, scan ids, print runs) into
PostgreSQL, then verify that every count matches."""

from __future__ import annotations

import sys
from pathlib import Path

from companion.runs import RunStore
from web.pgstore import PgRunStore, PgStore, redact
from web.store import DamagedTable, Store


def migrate_sqlite_to_pg(data_dir: Path, url: str) -> int:
    """Copy ``data_dir`` into the database at ``url``; 0 when every count matches.

    Tables already in the target are left alone (a second run copies only what is new).
    """
    db_file = data_dir / "companion.sqlite3"
    if not db_file.is_file():
        print(f"companion: no SQLite store in {data_dir} (companion.sqlite3)", file=sys.stderr)
        return 2
    source = Store(db_file)
    try:
        target = PgStore(url)
    except RuntimeError as exc:
        source.close()
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    try:
        runs = RunStore(data_dir).all()
        pg_runs = PgRunStore(target)
        for run in runs:
            pg_runs.save(run)
        have = set(target.table_ids())
        copied = 0
        damaged = 0
        for st in source.load_all():
            if isinstance(st, DamagedTable):
                damaged += 1
                print(f"  table {st.id} cannot be read and is not copied: {st.why}")
                continue
            if st.id in have:
                continue
            target.create_table(st.id, st.game, st.config, st.created, st.records)
            for key, (status, response) in st.scans.items():
                target.remember_scan(st.id, key, status, response)
            copied += 1
        want = source.counts()
        got = target.counts()
        print(f"Copied {copied} tables and {len(runs)} print runs to {redact(url)}.")
        ok = True
        for name in ("tables", "records", "scans"):
            mark = "ok" if got[name] >= want[name] - (damaged if name == "tables" else 0) \
                else "MISSING"
            ok = ok and mark == "ok"
            print(f"  {name}: {want[name]} in SQLite, {got[name]} in PostgreSQL ({mark})")
        print(f"  runs: {len(runs)} in {data_dir / 'runs'}, {got['runs']} in PostgreSQL")
        return 0 if ok and got["runs"] >= len(runs) else 1
    finally:
        source.close()
        target.close()
