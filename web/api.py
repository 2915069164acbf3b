"""The JSON API (documented in docs/api.md): tables, scans, actions, undo, timer, events.

Refusals are 4xx ``{"error", "code"}`` (plus ``"rule"`` and ``"version"`` when known) and
change nothing; ``503`` when the server cannot store or hold more streams now. Tokens come
as ``Authorization: Bearer <token>`` or ``?token=``; who acts comes from the token only
(C-7). A refusal to a seat says what the engine said and nothing more: no hidden card, and
a repeated ``scan_id`` is answered only to the token that sent it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, UnsupportedMediaType

from companion import errors, names
from companion.cards import load_deck
from companion.engine import check_event_fields
from companion.registry import GAMES, find_rules
from web import piles
from web.broker import CAMERA, NOTICE, StreamsFull
from web.camhealth import health
from web.guard import (
    BodyError,
    address_key,
    body_rule,
    has_body_rule,
    parse_json,
    security_headers,
)
from web.resources import services
from web.store import LIST_PAGE, StorageUnavailable
from web.tables import (
    HOST,
    PUBLIC,
    Refused,
    Table,
    Viewer,
    check_own_zone,
    event_from_body,
)

log = logging.getLogger(__name__)
bp = Blueprint("api", __name__, url_prefix="/api")

STATUS: dict[type[errors.CompanionError], int] = {
    errors.UnknownCard: 422,
    errors.CardNotAvailable: 409,
    errors.IllegalPlay: 409,  # OutOfTurn and GameOver too
    errors.StaleVersion: 409,
    errors.NothingToUndo: 409,
    errors.UnknownGame: 400,
    errors.BadSetup: 400,
    errors.MalformedEvent: 400,
    errors.MalformedPayload: 400,
    StorageUnavailable: 503,
}

WRITES = ("POST", "PUT", "PATCH", "DELETE")
# The fields each body may carry (C-7: nothing else is stored). An action's own fields
# are the game's (``Rules.event_fields``, checked by ``Match.apply``).
SCAN_FIELDS = frozenset({"payload", "zone", "scan_id", "version", "override"})
TABLE_FIELDS = frozenset({"game", "players", "options", "runs", "timer"})
UNDO_FIELDS = frozenset({"version"})
TIMER_FIELDS = frozenset({"seconds", "version"})
MAX_ACTION_FIELDS = 16
MAX_SCAN_ID = 100
MAX_TOKEN = 100


def status_of(exc: errors.CompanionError) -> int:
    if isinstance(exc, Refused):
        return exc.status
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def refusal(exc: errors.CompanionError, table: Table | None = None,
            viewer: Viewer | None = None) -> Response:
    """The JSON answer to a refused request: the error's own words, its code, its ruling
    and the table's (public) version; nothing else, so it reveals no more than the engine
    chose to say (C-7). ``error`` is the plain sentence (C-8: no ruling id for players, the
    camera or an unknown caller); the referee reads the full message; ``rule`` carries the
    id for the page's "why?"."""
    if viewer is not None and viewer.role == "host":
        text = str(exc)
    elif table is not None:  # C-7 rev. 3: never another seat's stand-in by serial
        text = table.veil_for(table.plain(exc.plain), viewer or PUBLIC)
    else:
        text = exc.plain
    body: dict[str, Any] = {"error": text, "code": exc.code}
    if exc.rule:
        body["rule"] = exc.rule
    if table is not None:
        body["version"] = table.version
    resp = jsonify(body)
    resp.status_code = status_of(exc)
    if resp.status_code == 503:
        resp.headers["Retry-After"] = "5"
    return resp


def _json_error(status: int, code: str, message: str,
                retry_after: int | None = None) -> Response:
    resp = jsonify({"error": message, "code": code})
    resp.status_code = status
    if retry_after is not None:
        resp.headers["Retry-After"] = str(max(1, retry_after))
    return resp


def register_guards(app: Flask) -> None:
    """Hooks for every request of the app (any blueprint): the body rules before it,
    the browser security headers after it."""
    @app.before_request
    def _body_rules() -> None:
        if request.method not in WRITES:
            return
        view = current_app.view_functions.get(request.endpoint or "")
        # This blueprint's writes, and any view that registered its own rule; another
        # blueprint's views check their own bodies (and still have Flask's limit).
        if request.blueprint != bp.name and not has_body_rule(view):
            return
        limit, json_only = body_rule(view, int(current_app.config["MAX_CONTENT_LENGTH"]))
        request.max_content_length = limit
        # Refused from the headers, before a byte of the body is read.
        if request.content_length is not None and request.content_length > limit:
            raise RequestEntityTooLarge()
        if not json_only or not request.path.startswith("/api/"):
            return
        has_body = bool(request.content_length) or "chunked" in request.headers.get(
            "Transfer-Encoding", "").lower()
        # Another site's form can post text/plain or a form encoding, never JSON (CSRF).
        if (request.mimetype or has_body) and request.mimetype != "application/json":
            raise UnsupportedMediaType()

    @app.after_request
    def _headers(resp: Response) -> Response:
        for key, value in security_headers(current_app.config.get("CAMERA_PREVIEW")).items():
            resp.headers.setdefault(key, value)
        return resp


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(errors.CompanionError)
    def _companion(exc: errors.CompanionError) -> Response:
        return refusal(exc)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response | HTTPException:
        if not request.path.startswith("/api/"):
            if exc.code in (403, 404, 405):  # a readable page for people
                page = render_template("error.html", code=exc.code, message=exc.description)
                return Response(page, status=exc.code, mimetype="text/html")
            return exc
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                413: "too_large", 415: "unsupported_media_type",
                429: "too_many_requests"}.get(exc.code or 400, "http_error")
        msg = exc.description or exc.name
        if exc.code == 413:
            limit = request.max_content_length or current_app.config["MAX_CONTENT_LENGTH"]
            msg = f"the request body is larger than {limit} bytes"
        elif exc.code == 415:
            msg = "a write must be sent as Content-Type: application/json"
        resp = jsonify({"error": msg, "code": code})
        resp.status_code = exc.code or 400
        return resp

    @app.errorhandler(Exception)
    def _crash(exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        resp = jsonify({"error": f"the server failed: {type(exc).__name__}",
                        "code": "server_error"})
        resp.status_code = 500
        return resp


# -- helpers ---------------------------------------------------------------------------
def token() -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth:
        scheme, _, value = auth.partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise Refused("the Authorization header must be 'Bearer <token>'",
                          code="bad_token", status=401)
        tok: str | None = value.strip()
    else:
        tok = request.args.get("token") or None
    if tok is not None and (len(tok) > MAX_TOKEN or not tok.isascii()):
        raise Refused("that is not a token of this server", code="bad_token", status=401)
    return tok


def body(fields: frozenset[str] | None = None) -> dict[str, Any]:
    """The JSON object of the request (nesting-limited); raises ``Refused`` (400
    ``malformed_json``) on anything else, and ``MalformedEvent`` naming a field that is
    not one of ``fields`` (when given)."""
    raw = request.get_data(cache=True)  # raises 413 beyond the endpoint's limit
    if not raw.strip():
        return {}
    try:
        data = parse_json(raw)
    except BodyError as exc:
        raise Refused(str(exc), code="malformed_json", status=400) from None
    if not isinstance(data, dict):
        raise Refused(f"the body must be a JSON object, got {type(data).__name__}",
                      code="malformed_json", status=400)
    if fields is not None:
        extra = sorted(set(data) - fields)
        if extra:
            raise errors.MalformedEvent(
                f"this request has no field {names.shown(extra[0], limit=40)}; its fields "
                f"are {', '.join(sorted(fields))}")
    return data


def client_address() -> str:
    """The client's address as the server saw it (waitress clears proxy headers), as the
    caps per client count it: IPv6 by its /64 (``web.guard.address_key``, issue 27 §12)."""
    return address_key(request.remote_addr or "unknown")


def table_and_viewer(table_id: str, *, allow: tuple[str, ...] | None = None,
                     need_token: bool = False) -> tuple[Table, Viewer]:
    table = services(current_app).tables.get(table_id)
    tok = token()
    if need_token and tok is None:
        raise Refused("this needs a token (Authorization: Bearer <token>)",
                      code="missing_token", status=401)
    viewer = table.viewer_for(tok)
    if allow is not None and viewer.role not in allow:
        who = "the public" if viewer.role == "public" else f"a {viewer.role} token"
        raise Refused(f"{who} cannot do this; it needs a {' or '.join(allow)} token",
                      code="not_allowed", status=403)
    return table, viewer


def join_url(table: Table, seat: int) -> str:
    base = (current_app.config["PUBLIC_URL"] or request.host_url).rstrip("/")
    tok = table.config["seat_tokens"][seat - 1]
    return f"{base}/t/{table.id}/seat/{seat}?token={tok}"


def page_urls(table: Table) -> dict[str, str]:
    base = (current_app.config["PUBLIC_URL"] or request.host_url).rstrip("/")
    return {"table": f"{base}/t/{table.id}",
            "referee": f"{base}/t/{table.id}/referee?token={table.config['host_token']}"}


def changed(table: Table, extra: dict[str, Any] | None = None,
            viewer: Viewer = HOST, status: int = 200) -> Response:
    services(current_app).broker.publish(table.id, table.version)
    snap = table.snapshot(viewer)
    out = {"version": snap["version"], **(extra or {}), "view": snap["view"]}
    if viewer.role != "host" and "ruling" in out:
        # A seat reads the ruling in the words of its own view (never another's secret).
        out["ruling"] = snap["view"].get("ruling", "")
    resp = jsonify(out)
    resp.status_code = status
    return resp


# -- games -----------------------------------------------------------------------------
@bp.get("/games")
def games() -> Response:
    svc = services(current_app)
    runs = svc.runs.all()
    out = []
    for name in GAMES:
        try:
            rules = find_rules(name)
        except ImportError:  # a game whose engine is not installed yet
            continue
        out.append({
            "game": name, "title": rules.title, "min_players": rules.min_players,
            "max_players": rules.max_players, "options": [o.describe() for o in rules.options],
            "zones": list(rules.zones),
            "runs": [{"run": r.run_id, "cards": len(r.cards), "created": r.created}
                     for r in reversed(runs) if r.game == name],
        })
    return jsonify({"games": out})


@bp.get("/games/<game>/faces")
def faces(game: str) -> Response:
    if game not in GAMES:
        raise errors.UnknownGame(f"no game called {game!r}; the games are {', '.join(GAMES)}")
    deck = load_deck(game)
    return jsonify({"game": game, "title": deck.title, "faces": {
        f.id: {"name": f.name, "kind": f.kind, "deck": f.deck, "element": f.element,
               "number": f.number, "text": f.text}
        for f in deck.faces}})


# -- tables ----------------------------------------------------------------------------
LIST_LIMIT = 50
CURSOR = re.compile(r"(\d{1,12}(?:\.\d{1,12})?)~([A-Za-z0-9_-]{1,64})")


@bp.get("/tables")
def list_tables() -> Response:
    """The tables in play, newest first, a page at a time (``?limit=`` 1-200, default 50;
    ``?after=`` the ``next`` of the previous page), read from the store without replaying a
    table: the list costs the same with 10,000 stored tables as with ten."""
    raw_limit = request.args.get("limit", str(LIST_LIMIT))
    # The length first: int() of thousands of digits refuses (and costs) before it counts.
    if not (0 < len(raw_limit) <= 3 and raw_limit.isascii() and raw_limit.isdigit()) \
            or not 1 <= int(raw_limit) <= LIST_PAGE:
        raise Refused(f"limit must be a whole number 1-{LIST_PAGE}, got "
                      f"{names.shown(raw_limit, limit=20)}", code="bad_request", status=400)
    after = request.args.get("after")
    before = None
    if after is not None:
        m = CURSOR.fullmatch(after)
        if m is None:
            raise Refused(f"after must be the \"next\" of a page of this list, got "
                          f"{names.shown(after, limit=40)}", code="bad_request", status=400)
        before = (float(m.group(1)), m.group(2))
    limit = int(raw_limit)
    page = services(current_app).tables.listing(limit, before)
    out: dict[str, Any] = {"tables": [
        {"table": t.id, "game": t.game, "title": t.title, "players": t.players,
         "version": t.version, "finished": t.finished, "created": t.created}
        for t in page]}
    if len(page) == limit:
        out["next"] = f"{page[-1].created!r}~{page[-1].id}"
    return jsonify(out)


@bp.post("/tables")
def create_table() -> tuple[Response, int] | Response:
    """A new table, counted against the client address whatever token it sends (a host
    token of a table one just made was a free pass): ``429`` with ``Retry-After`` over the
    rate or the ceiling of live tables; a stranger on the Wi-Fi cannot fill memory or disk."""
    svc = services(current_app)
    token()  # a malformed Authorization header is still refused as one
    limited = creation_limit()
    if limited is not None:
        return limited
    try:
        data = body(TABLE_FIELDS)
    except errors.MalformedEvent as exc:  # a table's problems are all bad_setup
        raise errors.BadSetup(str(exc)) from None
    if "game" not in data or "players" not in data:
        raise errors.BadSetup('a table needs "game" and "players"')
    table = svc.tables.create(
        data["game"], data["players"], data.get("options"), data.get("runs"),
        data.get("timer", 0), maker=client_address())
    svc.creations.made(client_address(), table.id)
    return jsonify(created(table)), 201


def creation_limit() -> Response | None:
    """``None`` when this client address may make one more table now (and counts it), else
    the ``429`` answer: over ``TABLES_PER_CLIENT`` per ``TABLES_WINDOW``, or holding
    ``TABLES_LIVE_PER_CLIENT`` tables still in play."""
    svc = services(current_app)
    addr = client_address()
    ceiling = int(current_app.config["TABLES_LIVE_PER_CLIENT"])
    live = svc.creations.live(addr, svc.tables.abandoned_after)  # every process (issue 27)
    live = svc.tables.live_made_by(addr) if live is None else live
    if live >= ceiling:
        return _json_error(429, "too_many_tables",
                           f"this device already has {ceiling} tables in play on this server; "
                           "finish or delete one (the referee page) first", retry_after=600)
    wait, words = svc.creations.check(addr)  # its fair share of TABLES_TOTAL too
    if wait:
        return _json_error(429, "too_many_requests", f"{words}; try again in "
                           f"{int(wait) + 1} s", retry_after=int(wait) + 1)
    return None


def created(table: Table) -> dict[str, Any]:
    """The answer to a made table: its tokens and links (the host's to keep)."""
    return {
        "table": table.id,
        "version": table.version,
        "game": table.game,
        "runs": table.config["runs"],
        "options": table.config["options"],
        "host_token": table.config["host_token"],
        "camera_token": table.config["camera_token"],
        "display_token": table.display_token(),
        "seats": [{"seat": i, "name": name, "token": table.config["seat_tokens"][i - 1],
                   "join_url": join_url(table, i)}
                  for i, name in enumerate(table.players, start=1)],
        "urls": page_urls(table),
    }


@bp.post("/tables/<table_id>/again")
def play_again(table_id: str) -> tuple[Response, int]:
    """Play again with the same players (host token): a new table with the same game,
    names, options and print runs; every page of this table follows to its own page there
    (the snapshot's ``next_table``). The answer is that of ``POST /tables``."""
    table, _ = table_and_viewer(table_id, allow=("host",), need_token=True)
    body(frozenset())
    svc = services(current_app)
    limited = creation_limit()  # a new table like any other (3,000 in 17 s were not counted)
    if limited is not None:
        return limited, 429
    new = svc.tables.create(table.game, table.players, dict(table.config["options"]),
                            list(table.config["runs"]), follows=table,
                            maker=client_address())
    svc.creations.made(client_address(), new.id)
    svc.broker.publish(table.id, table.version)  # the old table's pages hear of it now
    return jsonify(created(new)), 201


@bp.delete("/tables/<table_id>")
def delete_table(table_id: str) -> Response:
    """Archive a finished or abandoned table (host token); its log stays in the store."""
    table, _ = table_and_viewer(table_id, allow=("host",), need_token=True)
    svc = services(current_app)
    svc.tables.delete(table)
    svc.broker.end(table.id)  # open pages stop waiting for a table that is gone
    return jsonify({"table": table.id, "deleted": True, "version": table.version})


@bp.get("/tables/<table_id>")
def get_table(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id)
    return Response(table.snapshot_json(viewer), mimetype="application/json")


@bp.get("/tables/<table_id>/cards")
def table_cards(table_id: str) -> Response:
    # Which face each printed serial has is printed on the cards themselves; it says
    # nothing about where a card is, so seats may have it for typing a card by name.
    table, _ = table_and_viewer(table_id, allow=("host", "seat"), need_token=True)
    return jsonify({"version": table.version, "cards": table.cards()})


@bp.get("/tables/<table_id>/log")
def table_log(table_id: str) -> Response:
    table, _ = table_and_viewer(table_id, allow=("host",), need_token=True)
    return jsonify({"version": table.version, "log": table.log_json()})


@bp.get("/tables/<table_id>/seats")
def table_seats(table_id: str) -> Response:
    table, _ = table_and_viewer(table_id, allow=("host",), need_token=True)
    return jsonify({"version": table.version, "urls": page_urls(table), "seats": [
        {"seat": i, "name": n, "join_url": join_url(table, i)}
        for i, n in enumerate(table.players, start=1)]})


@bp.post("/tables/<table_id>/scans")
def scan(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("camera", "host", "seat"),
                                     need_token=True)
    try:
        data = body(SCAN_FIELDS)
    except errors.CompanionError as exc:
        return refusal(exc, table, viewer)
    return play_scan(table, viewer, data)


def play_scan(table: Table, viewer: Viewer, data: dict[str, Any]) -> Response:
    """Play ``{"payload", "zone", "scan_id"?, "version"?, "override"?}`` as a scan from
    ``viewer`` (already allowed to scan); the answer of ``POST .../scans`` (also used for
    phone photos and the live phone camera, web/photos.py)."""
    try:
        scan_id = data.get("scan_id")
        if scan_id is not None and (not isinstance(scan_id, str) or not 0 < len(
                scan_id) <= MAX_SCAN_ID or names.problem(scan_id, MAX_SCAN_ID)):
            raise errors.MalformedEvent(f"scan_id must be text of 1-{MAX_SCAN_ID} visible "
                                        f"characters, got {names.shown(scan_id)}")
        # A scan id is the sender's: another token's repeat is judged as a new scan and
        # never gets the first answer, which may name a privately scanned card (C-7).
        key = (viewer.key, scan_id) if scan_id is not None else None
        if key is not None and (key in table.scans or table.remembered_scan(
                services(current_app).store, key)):
            status, original = table.scans[key]
            resp = jsonify({**original, "repeat": True, "version": table.version})
            resp.status_code = status
            return resp
        payload, zone = data.get("payload"), data.get("zone")
        if not isinstance(payload, str) or not payload:
            raise errors.MalformedPayload(
                f'a scan needs "payload" text, got {names.shown(payload)}')
        if len(payload) > 200:
            raise errors.MalformedPayload("a card's payload is at most 200 characters")
        if not isinstance(zone, str) or not zone:
            raise errors.MalformedEvent(
                f'a scan needs a "zone" like "seat:1", got {names.shown(zone)}')
        check_own_zone(viewer, zone, len(table.players))
        override = data.get("override", False)
        if not isinstance(override, bool):
            raise errors.MalformedEvent(f"override must be true or false, got "
                                        f"{names.shown(override)}")
        card = table.book.resolve(payload, table.game)
        event: dict[str, Any] = {"type": "scan", "card": card.serial, "zone": zone}
        if viewer.role == "seat":  # the same authorization as /actions (C-7)
            event["seat"] = viewer.seat
        if override:
            if viewer.role != "host":
                raise Refused("only the referee can override a refusal", code="not_allowed",
                              status=403)
            event["override"] = True
            piles.refuse_override(table, card.serial)  # never a pile card (C-9)
        elif piles.already_there(table, card.serial, zone):  # not a play (C-9)
            seen = piles.answer(table, card, zone)
            if key is not None:
                table.scans[key] = (200, seen)
            return jsonify(seen)
        result = {"card": card.serial, "face": card.face.id, "name": card.face.name,
                  "zone": zone}

        def respond(new: list[Any]) -> dict[str, Any]:
            # Remembered for a repeated scan_id: in the words this token may read.
            ruling = new[0].ruling if viewer.role == "host" else str(
                table.snapshot(viewer)["view"].get("ruling", ""))
            return {**result, "version": table.version, "ruling": ruling}

        new = table.play(services(current_app).store, event, viewer,
                         version=data.get("version"), scan_id=key, respond=respond)
    except errors.CompanionError as exc:
        services(current_app).broker.notice(table.id)  # a small notice, no snapshots
        return refusal(exc, table, viewer)
    return changed(table, respond(new), viewer)


@bp.post("/tables/<table_id>/actions")
def action(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("host", "seat"), need_token=True)
    try:
        data = body()
        if len(data) > MAX_ACTION_FIELDS:
            raise errors.MalformedEvent(f"an action has at most {MAX_ACTION_FIELDS} fields")
        event = event_from_body(data, viewer, table.players)
        # The value limits (text, list, depth) hold for every game, also one that has not
        # declared its fields; Match.apply checks the declared fields themselves.
        check_event_fields(event, {event["type"]: frozenset(event) - {"type"}})
        # A card typed or scanned as its QR text becomes its serial (any field, any action).
        for key, value in list(event.items()):
            if isinstance(value, str) and value.startswith("T1:"):
                event[key] = table.resolve_card(value)
            elif isinstance(value, list) and any(
                    isinstance(x, str) and x.startswith("T1:") for x in value):
                event[key] = [table.resolve_card(x) if isinstance(x, str) and
                              x.startswith("T1:") else x for x in value]
        if isinstance(event.get("card"), str) and event.get("type") == "scan":
            event["card"] = table.resolve_card(event["card"])
            if event.get("override") and viewer.role == "host":
                piles.refuse_override(table, event["card"])  # never a pile card (C-9)
        new = table.play(services(current_app).store, event, viewer,
                         version=data.get("version"))
    except errors.CompanionError as exc:
        services(current_app).broker.notice(table.id)  # a small notice, no snapshots
        return refusal(exc, table, viewer)
    extra: dict[str, Any] = {"ruling": new[0].ruling if new else ""}
    if viewer.role == "host":  # the events as logged; a seat reads its own view instead
        extra["events"] = [r.body for r in new]
    return changed(table, extra, viewer)


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("host",), need_token=True)
    try:
        data = body(UNDO_FIELDS)
        rec = table.undo(services(current_app).store, viewer, version=data.get("version"))
    except errors.CompanionError as exc:
        return refusal(exc, table, viewer)
    return changed(table, {"undone": rec.body["said"]["host"], "voided": rec.body["voids"]})


@bp.post("/tables/<table_id>/timer")
def timer(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("host",), need_token=True)
    try:
        data = body(TIMER_FIELDS)
        table.set_timer(services(current_app).store, data.get("seconds"), viewer,
                        version=data.get("version"))
    except errors.CompanionError as exc:
        return refusal(exc, table, viewer)
    return changed(table, {"timer": table.timer()})


@bp.get("/tables/<table_id>/events")
def events(table_id: str) -> Response:
    """Server-Sent Events: ``id:`` is the version, ``data:`` the viewer's snapshot.

    A reconnecting EventSource sends ``Last-Event-ID``; if the table has moved on since,
    the current snapshot comes at once (the snapshot is the whole state, so nothing is
    missed), otherwise the stream waits for the next change.
    """
    table, viewer = table_and_viewer(table_id)
    tok = token()
    svc = services(current_app)
    ping = float(current_app.config["SSE_PING"])
    retry = int(current_app.config["SSE_RETRY_MS"])
    last_raw = request.headers.get("Last-Event-ID") or request.args.get("last")
    try:
        last = int(last_raw) if last_raw is not None and len(last_raw) <= 12 else None
    except ValueError:
        last = None
    try:  # each stream holds a thread: capped so ordinary requests keep theirs
        sub = svc.broker.subscribe(
            table.id, client_address(), max_total=current_app.config["SSE_MAX_STREAMS"],
            max_per_client=current_app.config["SSE_MAX_PER_CLIENT"])
    except StreamsFull as exc:
        return _json_error(503, "too_many_streams", str(exc), retry_after=exc.retry_after)

    cams = health(current_app._get_current_object())  # type: ignore[attr-defined]

    def stream() -> Iterator[str]:
        current = table
        cam_sent = 0  # the camera's heartbeats: the referee's page and the big screen
        try:
            yield f"retry: {retry}\n\n"
            sent = last
            v, text = current.versioned_snapshot(viewer)
            sent_text = text
            if sent != v:
                yield f"id: {v}\nevent: table\ndata: {text}\n\n"
                sent = v
            while not sub.closed:
                cam, cam_sent = cams.message(table.id, viewer, cam_sent)
                if cam is not None:
                    yield cam
                # The ping is the heartbeat: a write to a page that is gone fails, and its
                # slot is free within about two pings (it was 31 s, 45 s behind nginx).
                version = sub.wait(ping)
                if sub.closed:
                    break
                if version is None:
                    yield ": ping\n\n"
                    continue
                if version == CAMERA:
                    continue
                try:  # the table as loaded now (caught up with other processes; gone?)
                    current = svc.tables.get(table.id)
                except Refused:
                    break  # deleted (also through another process): the page stops waiting
                except StorageUnavailable:
                    continue  # the database is away: the next wake or ping tries again
                if viewer.role == "seat" and not _still_seat(current, tok, viewer):
                    break  # the seat was re-issued: its old token streams no more
                if version == NOTICE:
                    note = current.refusal_notice(viewer)
                    if note is not None:
                        yield f"event: refused\ndata: {note}\n\n"
                    continue
                v, text = current.versioned_snapshot(viewer)
                if v == sent and text == sent_text:
                    continue  # "play again" changes the snapshot, not the version
                sent, sent_text = v, text
                yield f"id: {v}\nevent: table\ndata: {text}\n\n"
        finally:
            sub.close()

    # No stream_with_context: the generator needs no request globals, and holding a
    # request context for hours per phone would only pin memory.
    resp = Response(stream(), mimetype="text/event-stream")
    # Closed by the server when the client goes, even if the stream never started.
    resp.call_on_close(sub.close)
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


# -- seats -----------------------------------------------------------------------------
def _still_seat(table: Table, tok: str | None, viewer: Viewer) -> bool:
    """Whether ``tok`` still opens ``viewer``'s seat (not re-issued since)."""
    try:
        return table.viewer_for(tok) == viewer
    except errors.CompanionError:
        return False


@bp.post("/tables/<table_id>/seats/<int:seat>/reissue")
def reissue_seat(table_id: str, seat: int) -> Response:
    """A new link for one seat (a lost phone, a peek at another's screen): the host only.
    The seat's old token stops working at once, in every process sharing the store."""
    table, _ = table_and_viewer(table_id, allow=("host",), need_token=True)
    if not 1 <= seat <= len(table.players):
        raise Refused(f"table {table.id!r} has no seat {seat}; its seats are 1 to "
                      f"{len(table.players)}", code="unknown_seat", status=404)
    svc = services(current_app)
    new = table.reissue_seat(seat, svc.store)
    svc.broker.publish(table.id, table.version)  # this process's streams: the old one ends
    return jsonify({"seat": seat, "name": table.players[seat - 1], "token": new,
                    "join_url": join_url(table, seat), "version": table.version})
