"""Phones as cameras (issue 13): "Scan my card" photos, and a phone as the live table camera.

- ``POST /api/tables/<t>/photos?zone=<zone>`` with a JPEG or PNG body (up to 8 MB) and a
  seat, host or camera token: the cards of this table in the photo are played as scans
  from that token (``web.api.play_scan``: the authorization of ``/scans``, C-7). The answer
  is the scan's answer plus ``"found"``; ``422 no_card_found`` with a hint; ``409
  several_cards`` when a seat zone would get more than one. Photos are never stored.
- ``POST /api/tables/<t>/camera/frames?seq=&t=[&zone=]`` (a JPEG frame) and
  ``POST /api/tables/<t>/camera/codes`` (codes the phone decoded itself), camera or host
  token: the same tracker as ``companion watch`` sends each card once it lies still. The
  answer is what the page draws over its video (``cv.live.LiveCamera.state``).
- ``GET /t/<t>/camera?token=<camera token>``: the live camera page.

Image bodies are exempt from the JSON API's limit and JSON-only rule through
``web.guard.takes_body`` (8 MB photos, 1 MB live frames); the content type (JPEG or PNG)
is checked here. Photos and frames are decoded through ``web.guard.DecodeGate`` (one per
core, a short queue, ``503 busy`` with ``Retry-After`` beyond; a body is read into memory
only once admitted; a sender who hung up is not decoded: issue 19 §2), shared fairly per
address (IPv6 by its /64): an address holding its share is answered ``429
too_many_photos`` with ``Retry-After`` before its body is read (issue 27 §7).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    copy_current_request_context,
    current_app,
    jsonify,
    render_template,
    request,
)

from companion import errors
from companion.zones import parse_zone
from cv.live import MAX_FRAME_SIDE, BadFrame, LiveCamera
from cv.photo import MAX_BYTES, BadPhoto, PhotoCards, Stopped, no_card_hint, read_photo
from cv.sender import Scan
from web.api import body, play_scan, refusal, table_and_viewer
from web.guard import Busy, DecodeGate, Gone, TooMany, address_key, query_number, takes_body
from web.qr import svg
from web.resources import services
from web.tables import Refused, Table, Viewer

bp = Blueprint("photos", __name__)

IMAGE_TYPES = ("image/jpeg", "image/png")
FRAME_MAX_BYTES = 1024 * 1024  # a 1280x720 frame at JPEG 0.8 is 100-300 KB
CODES_MAX_BYTES = 64 * 1024  # 32 codes with corners are about 4 KB
CAMERA_IDLE_S = 120.0  # a live camera silent this long is forgotten
_GATE_LOCK = threading.Lock()


def _image_head(limit: int) -> None:
    """Refuse (415, 413) from the headers alone, before the body is admitted or read."""
    ctype = (request.mimetype or "").lower()
    if ctype not in IMAGE_TYPES:
        raise Refused(f"send the photo as image/jpeg or image/png, not {ctype or 'nothing'!r}",
                      code="unsupported_media_type", status=415)
    if request.content_length is not None and request.content_length > limit:
        raise Refused(f"the photo is {request.content_length} bytes; at most {limit} are read",
                      code="too_large", status=413)


def _image_body(limit: int) -> bytes:
    """The request's image bytes; raises ``Refused`` (415, 413, 400) before reading more
    than ``limit`` bytes."""
    _image_head(limit)
    request.max_content_length = limit  # beyond the app's 64 KB for JSON (Flask 3.1)
    data = request.get_data(cache=False)
    if len(data) > limit:
        raise Refused(f"the photo is more than {limit} bytes", code="too_large", status=413)
    if not data:
        raise Refused("the request has no photo in its body", code="bad_photo", status=400)
    return data


def _gate() -> DecodeGate:
    """This app's decode gate (``PHOTO_DECODES`` at once, default one per core)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with _GATE_LOCK:
        gate = app.extensions.get("companion_decodes")
        if gate is None:
            slots = app.config.get("PHOTO_DECODES")
            gate = app.extensions["companion_decodes"] = DecodeGate(
                int(slots) if slots else None)
        return gate  # type: ignore[no-any-return]


def _gone() -> Callable[[], bool]:
    """Whether this request's client hung up (waitress tells; the test client never)."""
    check = request.environ.get("waitress.client_disconnected")
    return check if callable(check) else (lambda: False)


def _address() -> str:
    """The sender's key for the fair share of decoding (IPv6 by its /64)."""
    return address_key(request.remote_addr or "unknown")


def _busy(exc: Busy, table: Table) -> Response:
    if isinstance(exc, TooMany):
        resp = _answer(429, "too_many_photos", str(exc), table)
    else:
        resp = _answer(503, "busy", str(exc), table)
    resp.headers["Retry-After"] = str(exc.retry_after)
    return resp


def _hung_up(table: Table) -> Response:
    # Nobody reads this answer: the client is gone. It is said for the log.
    return _answer(400, "client_gone", "the client hung up before its photo was read", table)


def _with(resp: Response, extra: dict[str, Any]) -> Response:
    data = resp.get_json()
    out = jsonify({**data, **extra} if isinstance(data, dict) else extra)
    out.status_code = resp.status_code
    return out


def _answer(status: int, code: str, message: str, table: Table, **extra: Any) -> Response:
    resp = jsonify({"error": message, "code": code, "version": table.version, **extra})
    resp.status_code = status
    return resp


def _bad_photo(exc: errors.CompanionError, table: Table) -> Response:
    """400: the bytes are no photo this server reads (not a play the rules refused)."""
    resp = refusal(exc, table)
    resp.status_code = 400
    return resp


def _seat_zone(zone: str, players: int) -> bool:
    try:
        return parse_zone(zone, players).kind == "seat"
    except errors.CompanionError:
        return False


@bp.post("/api/tables/<table_id>/photos")
@takes_body(MAX_BYTES, json_only=False)
def photo(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("camera", "host", "seat"),
                                     need_token=True)
    zone = request.args.get("zone") or ""
    scan_id = request.args.get("scan_id")
    try:
        if not zone:
            raise errors.MalformedEvent('a photo needs ?zone=, like "seat:1"')
        if scan_id is not None and not 0 < len(scan_id) <= 64:
            raise errors.MalformedEvent(f"scan_id must be 1-64 characters, got {scan_id!r}")
        _image_head(MAX_BYTES)
        gate = _gate()
        gone = _gone()
        key = _address()
        with gate.admitted(key):  # the body is read into memory only once admitted
            seen = gate.run(partial(read_photo, _image_body(MAX_BYTES), table.book,
                                    stop=gone), gone, key)
    except Busy as exc:
        return _busy(exc, table)
    except (Gone, Stopped):
        return _hung_up(table)
    except BadPhoto as exc:
        return _bad_photo(exc, table)
    except errors.CompanionError as exc:
        return refusal(exc, table)
    # The photo's bytes are not kept: only what was read from them.
    return _play_photo(table, viewer, zone, scan_id, seen)


def _play_photo(table: Table, viewer: Viewer, zone: str, scan_id: str | None,
                seen: PhotoCards) -> Response:
    found = seen.serials
    if not found:
        return _answer(422, "no_card_found", "no card of this table was found in the photo",
                       table, found=[], hint=no_card_hint(seen))
    if len(found) > 1 and _seat_zone(zone, len(table.players)):
        return _answer(409, "several_cards",
                       f"the photo shows {len(found)} cards ({', '.join(found)}); a seat "
                       "shows one card at a time: photograph only the card you play",
                       table, found=found)
    played: list[str] = []
    resp: Response | None = None
    for card in seen.cards:  # in reading order; the first refusal stops the rest
        one: dict[str, Any] = {"payload": card.payload, "zone": zone}
        if scan_id is not None:
            one["scan_id"] = scan_id if len(found) == 1 else f"{scan_id}:{card.serial}"
        resp = play_scan(table, viewer, one)
        if resp.status_code >= 400:
            break
        played.append(card.serial)
    assert resp is not None  # found is not empty
    extra: dict[str, Any] = {"found": found}
    if len(found) > 1:
        extra["played"] = played
    return _with(resp, extra)


# -- the live camera -------------------------------------------------------------------
def _cameras(app: Flask) -> tuple[threading.Lock, dict[tuple[str, str, str], LiveCamera]]:
    live: tuple[threading.Lock, dict[tuple[str, str, str], LiveCamera]] = (
        app.extensions.setdefault("companion_live", (threading.Lock(), {})))
    return live


def _camera(table: Table, viewer: Viewer, zone: str | None) -> LiveCamera:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    lock, cams = _cameras(app)
    key = (table.id, viewer.key, zone or "")
    with lock:
        now = time.monotonic()
        for k in [k for k, c in cams.items() if now - c.last_seen > CAMERA_IDLE_S]:
            del cams[k]
        cam = cams.get(key)
        if cam is None:
            def play(scan: Scan) -> tuple[int, str]:
                # Called inside this request (the frame that settled the card), so the
                # scan is accepted or refused before the page gets its answer.
                resp = play_scan(table, viewer, scan.body())
                data = resp.get_json() or {}
                if data.get("already_there"):  # C-9: the id is for the referee (C-8)
                    text = "already there, nothing to do"
                else:
                    text = str(data.get("ruling") or data.get("error") or "")
                return resp.status_code, text

            cam = cams[key] = LiveCamera(table.game, len(table.players), table.book, play,
                                         fixed_zone=zone)
        return cam


def _live_zone(table: Table) -> str | None:
    zone = request.args.get("zone") or None
    if zone is not None and zone not in table.zones():
        raise errors.MalformedEvent(f"{zone!r} is not a zone of this table; the zones are "
                                    f"{', '.join(table.zones())}")
    return zone


def _number(name: str) -> Any:
    """A query field as a number, or as the text sent (which the camera refuses by name):
    never parsed as JSON (``seq=[[[[...`` made the parser recurse into a 500)."""
    return query_number(request.args.get(name))


@bp.post("/api/tables/<table_id>/camera/frames")
@takes_body(FRAME_MAX_BYTES, json_only=False)
def camera_frame(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("camera", "host"), need_token=True)
    try:
        zone = _live_zone(table)
        _image_head(FRAME_MAX_BYTES)
        seq, t = _number("seq"), _number("t")
        gate = _gate()
        gone = _gone()
        key = _address()
        with gate.admitted(key):
            data = _image_body(FRAME_MAX_BYTES)
            cam = _camera(table, viewer, zone)

            @copy_current_request_context  # a placed card is played as this request
            def work() -> tuple[dict[str, Any], float]:
                t0 = time.perf_counter()
                with cam.lock:
                    cam.frame(data, seq, t)
                    return cam.state(), time.perf_counter() - t0

            state, spent = gate.run(work, gone, key)
    except Busy as exc:
        return _busy(exc, table)
    except Gone:
        return _hung_up(table)
    except (BadPhoto, BadFrame) as exc:
        return _bad_photo(exc, table)
    except errors.CompanionError as exc:
        return refusal(exc, table)
    return jsonify({**state, "ms": round(spent * 1000, 1), "version": table.version})


@bp.post("/api/tables/<table_id>/camera/codes")
@takes_body(CODES_MAX_BYTES)
def camera_codes(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("camera", "host"), need_token=True)
    try:
        zone = _live_zone(table)
        data = body()
        cam = _camera(table, viewer, zone)
        with cam.lock:
            cam.codes(data.get("codes"), data.get("seq"), data.get("t"), data.get("size"))
            state = cam.state()
    except BadFrame as exc:
        return _bad_photo(exc, table)
    except errors.CompanionError as exc:
        return refusal(exc, table)
    return jsonify({**state, "version": table.version})


@bp.get("/t/<table_id>/camera")
def camera_page(table_id: str) -> str:
    try:
        table = services(current_app).tables.get(table_id)
    except Refused:
        abort(404, f"There is no table {table_id!r} on this server.")
    tok = request.args.get("token") or ""
    try:
        viewer = table.viewer_for(tok) if tok else None
    except errors.CompanionError:
        viewer = None
    if viewer is None or viewer.role not in ("camera", "host"):
        abort(403, "This link's token does not open the camera page. Scan the camera QR "
                   "code on the referee's page.")
    return render_template("camera.html", table=table, token=tok, zones=table.zones(),
                           max_side=MAX_FRAME_SIDE)


def camera_url(table: Table) -> str:
    """The live camera page's link for this table (for the referee page's QR code)."""
    base = (current_app.config["PUBLIC_URL"] or request.host_url).rstrip("/")
    return f"{base}/t/{table.id}/camera?token={table.config['camera_token']}"


@bp.get("/t/<table_id>/camera/qr.svg")
def camera_qr(table_id: str) -> Response:
    """The camera page's QR code, for the referee page (host token only)."""
    table, _ = table_and_viewer(table_id, allow=("host",), need_token=True)
    return Response(svg(camera_url(table)), mimetype="image/svg+xml")
