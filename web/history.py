"""Game records for people (issue 22): a table's record (JSON, CSV), its replay page, and
the host's history of finished tables with figures per player.

Identity comes from the token only: any token of a table reads that table's record as
that viewer (C-7, ``web.records``); the history page sends the host tokens this device
remembers ("remember on this device" in the lobby) and reads only those tables.
"""

from __future__ import annotations

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
    figures per player across them."""
    data = body(frozenset({"tables"}))
    asked = data.get("tables", [])
    if not isinstance(asked, list) or len(asked) > MAX_HISTORY_TABLES:
        raise Refused(f"tables must be a list of at most {MAX_HISTORY_TABLES} "
                      "{id, token} objects", code="malformed_json", status=400)
    summaries = []
    refused = 0
    gone: list[str] = []
    for item in asked:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) \
                or not isinstance(item.get("token"), str):
            refused += 1
            continue
        try:
            table, _ = _readable_as_host(item["id"], item["token"])
        except Refused as exc:
            if exc.code == "table_deleted":  # gone: the device may forget it (C-7 rev. 3)
                gone.append(item["id"])
            else:
                refused += 1
            continue
        summaries.append(summary(table))
    summaries.sort(key=lambda s: -s["created"])
    return jsonify({"tables": summaries, "players": player_figures(summaries),
                    "refused": refused, "deleted": gone})


def _readable_as_host(table_id: str, tok: str) -> tuple[Table, Any]:
    table = _table(table_id)
    if table.viewer_for(tok) != HOST:
        raise Refused("not this table's host token", code="not_allowed", status=403)
    return table, HOST
