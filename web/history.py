"""Game records for people (issue 22): a table's record (JSON, CSV), its replay page, and
the host's history of finished tables with figures per player.

Identity comes from the token only: any token of a table reads that table's record as
that viewer (C-7, ``web.records``); the history page sends the host tokens this device
remembers ("remember on this device" in the lobby) and reads only those tables.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from web.api import body, token
from web.guard import takes_body
from web.records import player_figures, record_csv, record_of, replay_step, summary
from web.resources import services
from web.table import HOST, Refused, Table

bp = Blueprint("history", __name__)

MAX_HISTORY_TABLES = 200  # a device's remembered tables asked for at once
MAX_STEP_TEXT = 9  # digits of ?step=
SUMMARIES_KEPT = 4096  # history lines kept, by table and version (about 1 KB each)


class Summaries:
    """History lines by table version (issue 27 §8): a finished table is summarised once,
    however often a device asks. At most ``size`` lines, the least recently asked for
    leave first."""

    def __init__(self, size: int = SUMMARIES_KEPT) -> None:
        self.size = size
        self._lines: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.made = 0  # summaries computed (the tests and the bench count them)

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            line = self._lines.get(key)
            if line is not None:
                self._lines.move_to_end(key)
            return line

    def make(self, key: tuple[Any, ...], build: Callable[[], dict[str, Any]]
             ) -> dict[str, Any]:
        line = self.get(key)
        if line is not None:
            return line
        value = build()
        with self._lock:
            self.made += 1
            self._lines[key] = value
            while len(self._lines) > self.size:
                self._lines.popitem(last=False)
        return value


def summaries() -> Summaries:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with _LOCK:
        found = app.extensions.get("companion_history")
        if found is None:
            found = app.extensions["companion_history"] = Summaries()
        return found  # type: ignore[no-any-return]


_LOCK = threading.Lock()


def _table(table_id: str) -> Table:
    """The table. A table its host deleted is gone for everyone, its record and replay
    too (C-7 rev. 3): 410 ``table_deleted``, whatever the token."""
    return services(current_app).tables.get(table_id)


def _readable(table_id: str) -> tuple[Table, Any]:
    """The table and the viewer its token stands for."""
    table = _table(table_id)
    return table, table.viewer_for(token())


def _may_replay(table: Table, viewer: Any) -> None:
    """Players and the big screen step back through a game once it is over; during play
    only the referee may: a replay would be a memory nobody has at the table (GC-4 rev. 2:
    cards turned face down again are to be remembered, not looked up)."""
    if viewer.role != "host" and not table.match.state.finished:
        raise Refused("the replay opens for players when the game is over; during play only "
                      "the referee can step back", code="replay_after_the_game", status=403)


def _runs(table: Table) -> list[dict[str, Any]]:
    """The table's print runs as a person reads them: game, date, how many cards."""
    runs = services(current_app).runs
    out = []
    for run_id in table.config["runs"]:
        try:
            run = runs.load(run_id)
        except Exception:  # a run file gone since: the id alone still says which
            out.append({"run": run_id})
            continue
        out.append({"run": run_id, "game": run.game, "created": run.created,
                    "cards": len(run.cards)})
    return out


@bp.get("/api/tables/<table_id>/record")
def record(table_id: str) -> Response:
    """The record of the table as this token's viewer may read it; ``?format=csv``."""
    table, viewer = _readable(table_id)
    fmt = request.args.get("format", "json")
    if fmt not in ("json", "csv"):
        raise Refused(f"format must be json or csv, got {fmt[:20]!r}", code="bad_format",
                      status=400)
    rec = record_of(table, viewer, _runs(table))
    if fmt == "csv":
        return Response(record_csv(rec), mimetype="text/csv", headers={
            "Content-Disposition": f'attachment; filename="{table.game}-{table.id}.csv"'})
    return jsonify(rec)


@bp.get("/api/tables/<table_id>/replay")
def replay(table_id: str) -> Response:
    """The table as this viewer saw it after record ``?step=N`` (default: the last)."""
    table, viewer = _readable(table_id)
    _may_replay(table, viewer)
    raw = request.args.get("step", "")
    if raw and (len(raw) > MAX_STEP_TEXT or not raw.isdigit()):
        raise Refused(f"step must be a whole number 0-{len(table.records)}, got "
                      f"{raw[:20]!r}", code="bad_step", status=400)
    step = int(raw) if raw else len(table.records)
    return jsonify(replay_step(table, viewer, step))


@bp.get("/t/<table_id>/replay")
def replay_page(table_id: str) -> str:
    """Step through a game: previous, next, a slider and the arrow keys. The page takes
    its token out of the address bar and keeps it in the tab (a reload comes without one:
    the shell holds nothing private, and the steps are asked for with the token)."""
    try:
        table, viewer = _readable(table_id)
        if token():
            _may_replay(table, viewer)
    except Refused as exc:
        abort(exc.status if exc.status in (403, 404) else 404, str(exc).capitalize() + ".")
    return render_template("replay.html", table=table, token=token() or "", seat=viewer.seat)


@bp.get("/history")
def history_page() -> str:
    """The host's finished tables and players' figures (tables this device remembers)."""
    return render_template("history.html")


@bp.post("/api/history")
@takes_body(64 * 1024)
def history() -> Response:
    """``{"tables": [{"id": ..., "token": <host token>}, ...]}``: a summary of each table
    the token is the host of (others are left out, and counted in ``refused``), and the
    figures per player across them. An ``{id, token}`` listed twice counts once; at most
    ``MAX_HISTORY_TABLES`` are read; lines come from ``Summaries`` (issue 27 §8)."""
    data = body(frozenset({"tables"}))
    asked = data.get("tables", [])
    if not isinstance(asked, list):
        raise Refused("tables must be a list of {id, token} objects", code="malformed_json",
                      status=400)
    if len(asked) > MAX_HISTORY_TABLES:
        raise Refused(f"the history reads at most {MAX_HISTORY_TABLES} tables at once; this "
                      f"asked for {len(asked)}", code="too_many_tables", status=400)
    pairs: dict[tuple[str, str], None] = {}
    refused = 0
    gone: list[str] = []
    for item in asked:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) \
                or not isinstance(item.get("token"), str):
            refused += 1
            continue
        pairs[(item["id"], item["token"])] = None
    lines: dict[str, dict[str, Any]] = {}
    for table_id, tok in pairs:
        try:
            line = _line(table_id, tok)
        except Refused as exc:
            if exc.code == "table_deleted":  # gone: the device may forget it (C-7 rev. 3)
                if table_id not in gone:
                    gone.append(table_id)
            else:
                refused += 1
            continue
        lines[table_id] = line
    out = sorted(lines.values(), key=lambda s: -s["created"])
    return jsonify({"tables": out, "players": player_figures(out), "refused": refused,
                    "deleted": gone})


def _line(table_id: str, tok: str) -> dict[str, Any]:
    """The history line of a table ``tok`` is the host token of; raises ``Refused`` (410
    ``table_deleted`` for a table its host deleted: it is gone, C-7 rev. 3)."""
    table, _ = _readable_as_host(table_id, tok)
    return summaries().make((table.id, table.version), lambda: summary(table))


def _readable_as_host(table_id: str, tok: str) -> tuple[Table, Any]:
    table = _table(table_id)
    if table.viewer_for(tok) != HOST:
        raise Refused("not this table's host token", code="not_allowed", status=403)
    return table, HOST
