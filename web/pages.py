"""HTML pages: the lobby, a seat page per phone, the referee page, the big-screen table.

Pages are small server-rendered shells; the ES modules in ``static/`` (``app.js`` first) fill
them from the same JSON the API serves and keep them live through one EventSource each. No
inline script: the page's configuration is a JSON data block. Everything is served from
this server (no CDN): the table's Wi-Fi may have no internet.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, abort, current_app, render_template, request

from companion.errors import CompanionError
from web.api import join_url, page_urls
from web.qr import svg
from web.resources import services
from web.tables import Refused, Table

bp = Blueprint("pages", __name__)


def _table(table_id: str) -> Table:
    try:
        return services(current_app).tables.get(table_id)
    except Refused:
        abort(404, f"There is no table {table_id!r} on this server.")


def _role(table: Table, want: str, seat: int | None = None) -> str:
    tok = request.args.get("token") or ""
    try:
        viewer = table.viewer_for(tok) if tok else None
    except CompanionError:
        viewer = None
    if viewer is None or viewer.role != want or (seat is not None and viewer.seat != seat):
        abort(403, "This link's token does not open this page. Ask the host for your "
                   "seat's QR code.")
    return tok


def _shows_joins(table: Table) -> bool:
    """The big screen's display token (or the host's own token) shows the join codes."""
    tok = request.args.get("token") or ""
    if not tok or not tok.isascii():
        return False
    if secrets.compare_digest(tok, table.display_token()):
        return True
    try:
        return table.viewer_for(tok).role == "host"
    except CompanionError:
        return False


def _seats(table: Table) -> list[dict[str, object]]:
    return [{"seat": i, "name": n, "url": join_url(table, i), "qr": _qr_svg(join_url(table, i))}
            for i, n in enumerate(table.players, start=1)]


def _qr_svg(text: str) -> str:
    return svg(text).replace('width="', 'data-w="').replace('height="', 'data-h="', 1)


@bp.get("/")
def index() -> str:
    # The newest tables in play, read from the store: the lobby costs the same with 10,000.
    return render_template("index.html", tables=services(current_app).tables.listing(50))


@bp.get("/t/<table_id>")
def table_page(table_id: str) -> str:
    table = _table(table_id)
    url = page_urls(table)["table"]
    # The table's own opening chance (C-4) is no play: the join codes stay until a real one.
    opening = next((i for i, r in enumerate(table.records) if r.who != "companion"),
                   len(table.records))
    started = any(r.kind == "event" and r.who != "companion" for r in table.records)
    # The join codes carry seat tokens: only the host's own link to the big screen shows
    # them, and only until the first play (issue 18 §5: a code scanned mid-game opens
    # another seat's hidden cards); then only the referee page has them. The page itself
    # reads the public view (no token in its configuration).
    seats = _seats(table) if _shows_joins(table) and not started else []
    return render_template("table.html", table=table, role="public", token="", seat=None,
                           watch_url=url, watch_qr=_qr_svg(url), seats=seats, opening=opening)


@bp.get("/t/<table_id>/seat/<int:seat>")
def seat_page(table_id: str, seat: int) -> str:
    table = _table(table_id)
    if not 1 <= seat <= len(table.players):
        abort(404, f"Table {table_id!r} has no seat {seat}.")
    # The page takes its token out of the address bar once loaded (issue 18 §5) and keeps
    # it in the tab's sessionStorage, so a reload comes without one: the shell it gets
    # holds nothing private (the name is on the big screen) and reads the token back.
    token = _role(table, "seat", seat) if "token" in request.args else ""
    return render_template("seat.html", table=table, role="seat", token=token, seat=seat,
                           name=table.players[seat - 1])


@bp.get("/t/<table_id>/referee")
def referee_page(table_id: str) -> str:
    table = _table(table_id)
    token = _role(table, "host")
    return render_template("referee.html", table=table, role="host", token=token, seat=None,
                           seats=_seats(table), urls=page_urls(table),
                           display_token=table.display_token(),
                           camera_token=table.config["camera_token"],
                           camera_preview=(current_app.config["CAMERA_PREVIEW"] or "").rstrip("/"))


@bp.get("/t/<table_id>/seat/<int:seat>/qr.svg")
def seat_qr(table_id: str, seat: int) -> Response:
    table = _table(table_id)
    _role(table, "host")
    if not 1 <= seat <= len(table.players):
        abort(404)
    return Response(svg(join_url(table, seat)), mimetype="image/svg+xml")
