"""A data dir's games, out and back in (issue 22): ``companion export``, ``companion
import`` and ``companion stats``.

``export`` writes one JSON file per table (``tables/<id>.json``: the stored rows exactly,
log, scan ids and all, plus the referee's record of the game), the print runs
(``runs/``) and ``games.csv`` (one line per table). ``import`` reads such a folder into
another data dir without losing or changing anything: the rows go in as they were, and
every table is rebuilt by replay (in a scratch store) before anything is written. An
import is all or nothing (issue 27 §9): it never touches a table it did not bring (a
"play again" link to one is refused), follows no links in the folder, and refuses bad
input (a link, a file too large or too deeply nested, a field of the wrong kind, a log
that does not replay) with a message naming the file. A table or print run that already
exists there with other contents is refused by name; an identical one is skipped, so
importing twice changes nothing.

The export holds every token of every table (it is the whole data dir): its files are
written readable by their owner only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.progress import Progress, Silent
from companion.runs import RunStore
from web.guard import BodyError, parse_json
from web.records import csv_row, csv_writer, player_figures, record_of, summary
from web.store import Record, Store, StoredTable
from web.table import HOST, Refused, Table
from web.tables import TABLE_ID, Tables

FORMAT = "table-companion-export/1"
GAMES_CSV = ("table", "game", "date", "minutes", "players", "winners", "standings")


class ArchiveError(CompanionError):
    """An export folder or data dir that cannot be read or written as asked."""

    code = "archive_error"


@dataclass
class Opened:
    """A data dir opened for reading: its store, its print runs, its tables rebuilt."""

    store: Store
    runs: RunStore
    tables: Tables

    def every_table(self) -> Iterator[tuple[Table, bool]]:
        """Each table that replays, oldest first, with whether its host archived it (one
        that cannot be rebuilt is left out: ``tables.broken`` says why)."""
        out = []
        for tid in self.store.table_ids():
            try:
                out.append((self.tables.get(tid), False))
            except Refused:
                continue
        for tid in self.tables.deleted:
            try:
                out.append((self.tables.archived(tid), True))
            except Refused:
                continue
        yield from sorted(out, key=lambda x: (x[0].created, x[0].id))

    def close(self) -> None:
        self.store.close()


def open_data_dir(data_dir: str | os.PathLike[str]) -> Opened:
    """Open ``data_dir`` (it must hold ``companion.sqlite3``); raises ``ArchiveError``."""
    root = Path(data_dir)
    db = root / "companion.sqlite3"
    if not db.is_file():
        raise ArchiveError(f"{str(root)!r} holds no companion.sqlite3: not a data dir")
    store = Store(db)
    runs = RunStore(root)
    tables = Tables(store, runs)
    tables.deleted.update(store.deleted_ids())  # tables load on use; archived ones by id
    return Opened(store, runs, tables)


def _private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only, from its first byte."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def table_rows(st: StoredTable, deleted: float | None) -> dict[str, Any]:
    """A stored table exactly as its rows are (the part ``import`` writes back)."""
    return {
        "id": st.id, "game": st.game, "config": st.config, "created": st.created,
        "deleted": deleted, "finished": st.finished,
        "records": [{"seq": r.seq, "time": r.time, "kind": r.kind, "who": r.who,
                     "body": r.body, "ruling": r.ruling, "public": r.public,
                     "voided_by": r.voided_by} for r in st.records],
        "scans": [{"viewer": v, "scan_id": s, "status": status, "response": resp}
                  for (v, s), (status, resp) in sorted(st.scans.items())],
    }


def export(data_dir: str | os.PathLike[str], out: str | os.PathLike[str],
           progress: Progress | None = None) -> dict[str, int]:
    """Write the data dir's tables, print runs and ``games.csv`` into ``out``."""
    progress = progress or Silent()
    src = open_data_dir(data_dir)
    dest = Path(out)
    try:
        (dest / "tables").mkdir(parents=True, exist_ok=True, mode=0o700)
        (dest / "runs").mkdir(exist_ok=True, mode=0o700)
        lines = []
        n = 0
        for table, archived in src.every_table():
            st = src.store.load_table(table.id, archived=True)
            if not isinstance(st, StoredTable):
                continue  # a damaged table: the server reports it; nothing to copy
            deleted = src.tables.deleted.get(table.id)
            doc = {"format": FORMAT, "table": table_rows(st, deleted),
                   "record": record_of(table, HOST)}
            _private(dest / "tables" / f"{table.id}.json", json.dumps(doc, indent=1))
            lines.append(summary(table, archived))
            n += 1
            progress.advance()
        runs = 0
        for path in sorted((Path(data_dir) / "runs").glob("*.json")):
            _private(dest / "runs" / path.name, path.read_text(encoding="utf-8"))
            runs += 1
        _private(dest / "games.csv", games_csv(lines))
        return {"tables": n, "runs": runs}
    finally:
        src.close()


def games_csv(summaries: list[dict[str, Any]]) -> str:
    """One line per table: id, game, date, minutes, players, winners, standings; every
    field quoted, no cell a formula (``web.records.csv_cell``, issue 27 §11)."""
    import io

    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(GAMES_CSV)
    for s in summaries:
        standing = "; ".join(f"{r['place']}. {r['name']}" + (f" ({r['figure']})" if r["figure"]
                                                             else "") for r in s["standings"])
        w.writerow(csv_row([s["table"], s["game"],
                            time.strftime("%Y-%m-%d %H:%M", time.gmtime(s["created"])),
                            "" if s["minutes"] is None else s["minutes"],
                            ", ".join(s["players"]), ", ".join(s["winners"]), standing]))
    return buf.getvalue()


MAX_FILE_BYTES = 64 * 1024 * 1024  # one table's or run's file in an export
MAX_DEPTH = 64  # JSON nesting in an export (a table's file needs about 8)
_RECORD: dict[str, type | tuple[type, ...]] = {
    "seq": int, "time": (int, float), "kind": str, "who": str, "ruling": str, "public": str}
_KINDS = ("event", "undo", "timer")


def _read_json(path: Path, src: Path) -> dict[str, Any]:
    """A plain file of the export as a JSON object; raises ``ArchiveError`` naming it for a
    link (never followed), anything but a file, a file above ``MAX_FILE_BYTES``, invalid
    or too deeply nested JSON (checked before parsing: no recursion)."""
    name = path.relative_to(src).as_posix()
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            raise ArchiveError(f"{name} is a link; an export holds plain files only")
        if not stat.S_ISREG(info.st_mode):
            raise ArchiveError(f"{name} is not a file")
        if info.st_size > MAX_FILE_BYTES:
            raise ArchiveError(f"{name} is {info.st_size:,} bytes; a file of an export is "
                               f"at most {MAX_FILE_BYTES // (1024 * 1024)} MB")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ArchiveError(f"{name} cannot be read: {exc.strerror or exc}") from None
    try:
        data = parse_json(raw, MAX_DEPTH)
    except BodyError as exc:
        raise ArchiveError(f"{name}: {str(exc).replace('the body', 'the file')}") from None
    if not isinstance(data, dict):
        raise ArchiveError(f"{name} is not a JSON object")
    return data


def _files(src: Path, folder: str) -> list[Path]:
    """The ``*.json`` files of one folder of the export (the folder itself no link)."""
    where = src / folder
    if where.is_symlink():
        raise ArchiveError(f"{folder}/ is a link; an export holds plain folders only")
    return sorted(where.glob("*.json")) if where.is_dir() else []


def _table_doc(doc: dict[str, Any], name: str, stem: str) -> dict[str, Any]:
    """The ``table`` rows of one export file, checked field by field; raises
    ``ArchiveError`` naming the file and the field."""
    def bad(what: str) -> ArchiveError:
        return ArchiveError(f"{name} is not a table as companion export writes it: {what}")

    if doc.get("format") != FORMAT:
        raise ArchiveError(f"{name} is not a {FORMAT} file")
    rows = doc.get("table")
    if not isinstance(rows, dict):
        raise bad("no table")
    tid = rows.get("id")
    if not isinstance(tid, str) or not TABLE_ID.fullmatch(tid) or tid != stem:
        raise bad("its id is not the file's name")
    if not isinstance(rows.get("game"), str) or not isinstance(rows.get("config"), dict):
        raise bad("game or config")
    for field in ("created", "deleted"):
        value = rows.get(field)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number and not (field == "deleted" and value is None):
            raise bad(field)
    if not isinstance(rows.get("finished"), (bool, int)):
        raise bad("finished")
    records, scans = rows.get("records"), rows.get("scans")
    if not isinstance(records, list) or not isinstance(scans, list):
        raise bad("records or scans")
    for i, r in enumerate(records):
        if not isinstance(r, dict) or "body" not in r or r.get("kind") not in _KINDS or any(
                not isinstance(r.get(k), t) or isinstance(r.get(k), bool)
                for k, t in _RECORD.items()) or not (
                r.get("voided_by") is None or type(r.get("voided_by")) is int):
            raise bad(f"record {i + 1}")
    for i, sc in enumerate(scans):
        if not isinstance(sc, dict) or not isinstance(sc.get("viewer"), str) \
                or not isinstance(sc.get("scan_id"), str) \
                or type(sc.get("status")) is not int or "response" not in sc:
            raise bad(f"scan {i + 1}")
    follows = rows["config"].get("follows")
    if follows is not None and not isinstance(follows, str):
        raise bad("follows")
    return rows


def import_into(folder: str | os.PathLike[str], data_dir: str | os.PathLike[str],
                progress: Progress | None = None) -> dict[str, int]:
    """Read an export folder into ``data_dir`` (made if new), all or nothing (issue 27 §9):
    returns what was added and skipped, or raises ``ArchiveError`` naming the file, with
    nothing written.

    Every file is checked first (plain files only, links are refused, never followed; a
    size and nesting limit); a table or run that exists with other contents is refused;
    a table that follows ("play again") one the export does not bring is refused (it
    would rewrite another table's link); the new tables are written to a scratch store
    and rebuilt by replay there, and only then copied into the data dir's store in one
    transaction. Tables already there, identical, are skipped and left as they are."""
    src = Path(folder)
    if src.is_symlink() or not (src / "tables").is_dir():
        raise ArchiveError(f"{str(src)!r} is not an export folder (no tables/)")
    root = Path(data_dir)
    run_files = {p.name: _read_json(p, src) for p in _files(src, "runs")}
    docs = {}
    for path in _files(src, "tables"):
        name = path.relative_to(src).as_posix()
        docs[name] = _table_doc(_read_json(path, src), name, path.stem)
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    (root / "runs").mkdir(exist_ok=True, mode=0o700)
    new_runs = {}
    for fname, run in run_files.items():
        target = root / "runs" / fname
        if target.exists():
            if _read_json(target, root) != run:
                raise ArchiveError(f"runs/{fname}: print run {Path(fname).stem} already "
                                   f"exists in {str(root)!r} with other cards; nothing was "
                                   "imported")
            continue
        new_runs[fname] = run
    brought = {rows["id"] for rows in docs.values()}
    store = Store(root / "companion.sqlite3")
    try:
        fresh: dict[str, dict[str, Any]] = {}
        deleted = store.deleted_ids()
        for name, rows in docs.items():
            follows = rows["config"].get("follows")
            if follows is not None and follows not in brought:
                raise ArchiveError(f"{name} follows table {follows[:64]!r}, which this export "
                                   "does not bring; nothing was imported")
            have = store.load_table(rows["id"], archived=True)
            if have is None:
                fresh[name] = rows
            elif not isinstance(have, StoredTable) \
                    or table_rows(have, deleted.get(rows["id"])) != rows:
                raise ArchiveError(f"{name}: table {rows['id']} already exists in "
                                   f"{str(root)!r} with another log; nothing was imported")
    finally:
        store.close()
    with tempfile.TemporaryDirectory(prefix=".import-", dir=root) as scratch:
        _replayed(Path(scratch), root, run_files, fresh, progress or Silent())
        added_runs = _commit(root, new_runs, fresh)
    return {"tables": len(fresh), "skipped": len(docs) - len(fresh), "runs": added_runs}


def _write_rows(store: Store, rows: dict[str, Any]) -> None:
    records = [Record(r["seq"], r["time"], r["kind"], r["who"], r["body"], r["ruling"],
                      r["voided_by"], r["public"]) for r in rows["records"]]
    store.create_table(rows["id"], rows["game"], rows["config"], rows["created"], records)
    for s in rows["scans"]:
        store.append(rows["id"], [], scan=((s["viewer"], s["scan_id"]), s["status"],
                                          s["response"]))
    if rows.get("finished"):
        store.append(rows["id"], [], finished=True)
    if rows["deleted"] is not None:
        store.delete_table(rows["id"], rows["deleted"])


def _replayed(scratch: Path, root: Path, runs: dict[str, dict[str, Any]],
              fresh: dict[str, dict[str, Any]], progress: Progress) -> None:
    """Write the new tables into a scratch data dir (with the data dir's runs and the
    export's) and rebuild each by replay; raises ``ArchiveError`` naming the file of one
    that does not replay."""
    (scratch / "runs").mkdir()
    for path in (root / "runs").glob("*.json"):
        if path.is_file() and not path.is_symlink():
            (scratch / "runs" / path.name).write_bytes(path.read_bytes())
    for fname, run in runs.items():
        (scratch / "runs" / fname).write_text(json.dumps(run), encoding="utf-8")
    store = Store(scratch / "companion.sqlite3")
    try:
        # Oldest first: a table played again names the one it follows, which goes in first.
        for rows in sorted(fresh.values(), key=lambda r: (r["created"], r["id"])):
            _write_rows(store, rows)
    except (CompanionError, sqlite3.Error, ValueError, TypeError) as exc:
        raise ArchiveError(f"the export cannot be written as it is: {exc}") from None
    finally:
        store.close()
    check = open_data_dir(scratch)
    progress.grow(len(fresh))
    try:
        for name, rows in sorted(fresh.items()):
            progress.advance()
            try:
                check.tables.archived(rows["id"])
            except Refused as exc:
                raise ArchiveError(f"{name}: table {rows['id']} does not replay ({exc}); "
                                   "nothing was imported") from None
    finally:
        check.close()
    for fname in runs:
        try:
            check.runs.load(Path(fname).stem)
        except CompanionError as exc:
            raise ArchiveError(f"runs/{fname} is not a print run: {exc}") from None


def _commit(root: Path, new_runs: dict[str, dict[str, Any]],
            fresh: dict[str, dict[str, Any]]) -> int:
    """Copy the checked tables into the data dir's store in one transaction (the runs
    first; removed again if the store refuses); returns the runs added."""
    written = []
    try:
        for fname, run in new_runs.items():
            _private(root / "runs" / fname, json.dumps(run, indent=1))
            written.append(root / "runs" / fname)
        store = Store(root / "companion.sqlite3")  # the schema, migrated if it was older
        store.close()
        db = sqlite3.connect(root / "companion.sqlite3", isolation_level=None, timeout=30)
        try:
            db.execute("BEGIN IMMEDIATE")
            for rows in sorted(fresh.values(), key=lambda r: (r["created"], r["id"])):
                _insert_rows(db, rows)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()
    except (OSError, sqlite3.Error) as exc:
        for path in written:
            path.unlink(missing_ok=True)
        raise ArchiveError(f"{str(root)!r} cannot be written ({exc}); nothing was "
                           "imported") from None
    return len(written)


def _insert_rows(db: sqlite3.Connection, rows: dict[str, Any]) -> None:
    """One checked table's rows, as ``web.store.Store`` writes them."""
    tid = rows["id"]
    db.execute("INSERT INTO tables (id, game, config, created, deleted, finished) VALUES "
               "(?, ?, ?, ?, ?, ?)", (tid, rows["game"], json.dumps(rows["config"]),
                                      rows["created"], rows["deleted"], int(rows["finished"])))
    db.executemany(
        "INSERT INTO records (table_id, seq, time, kind, who, body, ruling, public, "
        "voided_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(tid, r["seq"], r["time"], r["kind"], r["who"], json.dumps(r["body"]), r["ruling"],
          r["public"], r["voided_by"]) for r in rows["records"]])
    db.executemany("INSERT INTO scans (table_id, viewer, scan_id, status, response) VALUES "
                   "(?, ?, ?, ?, ?)", [(tid, s["viewer"], s["scan_id"], s["status"],
                                        json.dumps(s["response"])) for s in rows["scans"]])
    follows = rows["config"].get("follows")
    if isinstance(follows, str):  # played again: the table it follows is in this import
        db.execute("UPDATE tables SET next_table = ? WHERE id = ?", (tid, follows))


def stats(data_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """Every table of ``data_dir`` summarised, and the figures per player."""
    src = open_data_dir(data_dir)
    try:
        lines = [summary(t, archived) for t, archived in src.every_table()]
    finally:
        src.close()
    return {"tables": lines, "players": player_figures(lines)}


def stats_text(figures: dict[str, Any]) -> str:
    """``stats`` as a terminal reads it: players first, then the tables."""
    out = ["Players (matched by name)", f"{'player':<20} {'games':>5} {'wins':>5} {'rate':>5} "
           f"{'run':>4}  by game"]
    for p in figures["players"]:
        by = ", ".join(f"{g} {f['wins']}/{f['games']}" for g, f in sorted(p["by_game"].items()))
        out.append(f"{p['name'][:20]:<20} {p['games']:>5} {p['wins']:>5} "
                   f"{round(p['win_rate'] * 100):>4}% {p['longest_streak']:>4}  {by}")
    if not figures["players"]:
        out.append("(no finished game yet)")
    out += ["", "Tables"]
    for s in figures["tables"]:
        state = (("won by " + " and ".join(s["winners"])) if s["winners"] else "no winner") \
            if s["finished"] else "unfinished"
        mins = f"{s['minutes']:g} min" if s["minutes"] is not None else "-"
        out.append(f"{time.strftime('%Y-%m-%d', time.gmtime(s['created']))}  {s['title']:<34} "
                   f"{', '.join(s['players'])[:30]:<30} {mins:>9}  {state}"
                   + ("  (archived)" if s["archived"] else ""))
    return "\n".join(out) + "\n"
