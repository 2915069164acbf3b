"""The camera heartbeat's endpoints (issue 26 §5): ``POST /api/tables/<t>/camera`` from the
camera token, ``GET`` for the pages. The heartbeat itself (fields, limits, who reads what)
is ``web.camhealth``; this module joins it to the API (apart, so that ``web.api``, which
streams the heartbeats, and ``web.camhealth`` do not import each other).
"""

from __future__ import annotations

import math

from flask import Blueprint, Response, current_app, jsonify

from companion.errors import CompanionError
from web.api import body, refusal, table_and_viewer
from web.broker import CAMERA
from web.camhealth import MAX_BODY, RATE, health, parse_beat
from web.guard import takes_body
from web.resources import services

bp = Blueprint("camera_health", __name__, url_prefix="/api")


@bp.post("/tables/<table_id>/camera")
@takes_body(MAX_BODY)
def heartbeat(table_id: str) -> Response:
    table, viewer = table_and_viewer(table_id, allow=("camera",), need_token=True)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    cams = health(app)
    wait = cams.rate.hit(table.id)
    if wait:
        resp = jsonify({"error": f"at most {RATE} heartbeats a second; the camera sends one "
                                 "a second", "code": "too_many_requests"})
        resp.status_code = 429
        resp.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        return resp
    try:
        fields = parse_beat(body(), len(table.players))
    except CompanionError as exc:
        return refusal(exc, table, viewer)
    cams.record(table.id, fields)
    services(app).broker.publish(table.id, CAMERA)  # the referee's page and the big screen
    return Response(status=204)


@bp.get("/tables/<table_id>/camera")
def camera_state(table_id: str) -> Response:
    """The latest heartbeat as this token may read it; ``{"on": false, "seen": false}``
    when no camera has sent one since the server started."""
    table, viewer = table_and_viewer(table_id)
    beat = health(current_app._get_current_object()).latest(  # type: ignore[attr-defined]
        table.id)
    if beat is None:
        return jsonify({"on": False, "seen": False})
    return jsonify({**beat.seen_by(viewer), "seen": True})
