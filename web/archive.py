"""A data dir's games, out and back in (issue 22): ``companion export``, ``companion
import`` and ``companion stats``.

``export`` writes one JSON file per table (``tables/<id>.json``: the stored rows exactly,
log, scan ids and all, plus the referee's record of the game), the print runs
(``runs/``) and ``games.csv`` (one line per table). ``import`` reads such a folder into
another data dir without losing or changing anything: the rows go in as they were, and
every table is rebuilt by replay before the import counts as done. A table or print run
that already exists there with other contents is refused by name; an identical one is
skipped, so importing twice changes nothing.

The export holds every token of every table (it is the whole data dir): its files are
written readable by their owner only.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.runs import RunStore
from web.records import csv_row, csv_writer, player_figures, record_of, summary
from web.store import Record, Store, StoredTable
from web.table import HOST, Refused, Table
from web.tables import Tables

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


def export(data_dir: str | os.PathLike[str], out: str | os.PathLike[str]) -> dict[str, int]:
    """Write the data dir's tables, print runs and ``games.csv`` into ``out``."""
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


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ArchiveError(f"{path.name} cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise ArchiveError(f"{path.name} is not a JSON object")
    return data


def import_into(folder: str | os.PathLike[str], data_dir: str | os.PathLike[str]
                ) -> dict[str, int]:
    """Read an export folder into ``data_dir`` (made if new); returns what was added and
    skipped. Raises ``ArchiveError`` naming the first table or run that conflicts, before
    anything of it is written."""
    src = Path(folder)
    if not (src / "tables").is_dir():
        raise ArchiveError(f"{str(src)!r} is not an export folder (no tables/)")
    root = Path(data_dir)
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    (root / "runs").mkdir(exist_ok=True, mode=0o700)
    added = skipped = runs_added = 0
    for path in sorted((src / "runs").glob("*.json")):
        target = root / "runs" / path.name
        text = path.read_text(encoding="utf-8")
        if target.exists():
            if json.loads(target.read_text(encoding="utf-8")) != json.loads(text):
                raise ArchiveError(f"print run {path.stem} already exists in {str(root)!r} "
                                   "with other cards; nothing of it was imported")
            continue
        _private(target, text)
        runs_added += 1
    docs = []
    for path in sorted((src / "tables").glob("*.json")):
        doc = _read_json(path)
        if doc.get("format") != FORMAT:
            raise ArchiveError(f"{path.name} is not a {FORMAT} file")
        docs.append(doc)
    # Oldest first: a table played again names the one it follows, which must be in first.
    docs.sort(key=lambda d: (d["table"]["created"], d["table"]["id"]))
    store = Store(root / "companion.sqlite3")
    try:
        for doc in docs:
            rows = doc["table"]
            have = store.load_table(rows["id"], archived=True)
            if have is not None:
                deleted = store.deleted_ids().get(rows["id"])
                if not isinstance(have, StoredTable) or table_rows(have, deleted) != rows:
                    raise ArchiveError(f"table {rows['id']} already exists in "
                                       f"{str(root)!r} with another log; not imported")
                skipped += 1
                continue
            records = [Record(r["seq"], r["time"], r["kind"], r["who"], r["body"], r["ruling"],
                              r["voided_by"], r["public"]) for r in rows["records"]]
            store.create_table(rows["id"], rows["game"], rows["config"], rows["created"],
                               records)
            for s in rows["scans"]:
                store.append(rows["id"], [], scan=((s["viewer"], s["scan_id"]), s["status"],
                                                  s["response"]))
            if rows.get("finished"):
                store.append(rows["id"], [], finished=True)
            if rows["deleted"] is not None:
                store.delete_table(rows["id"], rows["deleted"])
            added += 1
    finally:
        store.close()
    check = open_data_dir(root)  # every table must rebuild by replay, or the import failed
    try:
        list(check.every_table())
        broken = dict(check.tables.broken)
    finally:
        check.close()
    if broken:
        raise ArchiveError(f"imported tables that do not replay: {sorted(broken)}")
    return {"tables": added, "skipped": skipped, "runs": runs_added}


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
