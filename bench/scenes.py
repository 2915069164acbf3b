"""Synthetic table scenes for tests and ``companion bench cv``.

A scene is the printed table mat with cards lying in its zones, seen by a pinhole camera
in the standard position (about 70 cm above an 80 x 45 cm play area, so a card is about
100 px wide at 1280x720 and 150 px at 1920x1080), tilted up to 35 degrees, then softened
(Gaussian blur), lit unevenly, noised, JPEG-compressed and optionally partly covered by
a hand. Card faces come from ``printables`` when it can render them (the project's own
printed PDF, rasterised with pypdfium2), else from ``companion.codec`` + ``qrcode``
(version 1, error correction M, the code about 36 mm wide on a 63 x 88 mm card).

Everything is drawn from a seeded ``random.Random``: the same seed gives the same frames.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion import tablemat
from companion.runs import PrintRun

Image = np.ndarray[Any, Any]
FACE_PX_PER_MM = 8.0
MAT_PX_PER_MM = 2.0
QR_MM = 36.0

# Card faces by payload, rendered once per process.
_FACES: dict[tuple[str, float], Image] = {}
FaceRenderer = Callable[[str], Image]


def synthetic_face(payload: str, qr_mm: float = QR_MM, rng: random.Random | None = None) -> Image:
    """A 63 x 88 mm card face at 8 px/mm: white card, thin frame, artwork, a version 1 QR."""
    key = (payload, qr_mm)
    if key in _FACES:
        return _FACES[key]
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M

    r = rng or random.Random(payload)
    s = FACE_PX_PER_MM
    w, h = round(tablemat.CARD_WIDTH * s), round(tablemat.CARD_HEIGHT * s)
    face = np.full((h, w, 3), 250, np.uint8)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), (90, 90, 90), 3)
    colour = tuple(int(r.randrange(40, 200)) for _ in range(3))
    # Artwork below the code, a title bar above it: coloured, so it is no QR code.
    cv2.rectangle(face, (int(4 * s), int(58 * s)), (w - int(4 * s), h - int(4 * s)), colour, -1)
    cv2.circle(face, (w // 2, int(71 * s)), int(9 * s), (250, 250, 250), 3)
    parts = payload.split(":")
    cv2.putText(face, parts[2] if len(parts) > 2 else "?", (int(5 * s), int(10 * s)),
                cv2.FONT_HERSHEY_SIMPLEX, 1.6, (30, 30, 30), 3)
    q = qrcode.QRCode(version=1, error_correction=ERROR_CORRECT_M, border=0, box_size=1)
    q.add_data(payload)
    q.make(fit=False)
    modules = np.array(q.get_matrix(), dtype=np.uint8)
    side = round(qr_mm * s)
    code = cv2.resize((1 - modules) * 255, (side, side), interpolation=cv2.INTER_NEAREST)
    x0, y0 = (w - side) // 2, int(14 * s)
    face[y0:y0 + side, x0:x0 + side] = code[:, :, None]
    _FACES[key] = face
    return face


def mat_image(game: str = "wuxing", players: int = 8, cloth: bool = False) -> Image:
    """The table mat at 2 px/mm as ``printables`` prints it: white paper, grey zone
    outlines and names, four black markers (``cloth``: a mid-tone green cloth instead)."""
    paper = (70, 96, 62) if cloth else (246, 246, 244)
    line = (120, 150, 110) if cloth else (140, 115, 115)
    s = MAT_PX_PER_MM
    w, h = round(tablemat.MAT_WIDTH * s), round(tablemat.MAT_HEIGHT * s)
    mat = np.empty((h, w, 3), np.uint8)
    mat[:] = paper
    for z in tablemat.zones(game, players):
        p0 = (round(z.x * s), round(z.y * s))
        p1 = (round((z.x + z.w) * s), round((z.y + z.h) * s))
        cv2.rectangle(mat, p0, p1, line, 2)
        cv2.putText(mat, z.name, (p0[0] + 6, p0[1] + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    line, 2)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for m in tablemat.MARKERS:
        size = round(m.size * s)
        margin = round(10 * s)
        x0, y0 = round((m.cx - m.size / 2) * s), round((m.cy - m.size / 2) * s)
        mat[y0 - margin:y0 + size + margin, x0 - margin:x0 + size + margin] = 255
        marker = cv2.aruco.generateImageMarker(dictionary, m.id, size)
        mat[y0:y0 + size, x0:x0 + size] = marker[:, :, None]
    return mat


# --- camera ---------------------------------------------------------------------------


def _rot(axis: Sequence[float], angle: float) -> Image:
    v = np.asarray(axis, dtype=np.float64) * angle
    r, _ = cv2.Rodrigues(v)
    return r


def camera_homography(size: tuple[int, int], tilt_deg: float, azimuth_deg: float,
                      roll_deg: float, fill: float = 0.97) -> Image:
    """Mat mm -> image px for a pinhole camera looking at the mat centre.

    The camera's optical axis is tilted ``tilt_deg`` from straight down, towards
    ``azimuth_deg``; the focal length is 0.9 x width (about 58 degrees across); the
    distance is chosen so the whole mat fills ``fill`` of the frame's limiting side.
    """
    wpx, hpx = size
    f = 0.9 * wpx
    cx, cy = tablemat.MAT_WIDTH / 2, tablemat.MAT_HEIGHT / 2
    corners = np.array([(0, 0, 0), (tablemat.MAT_WIDTH, 0, 0),
                        (tablemat.MAT_WIDTH, tablemat.MAT_HEIGHT, 0),
                        (0, tablemat.MAT_HEIGHT, 0)], dtype=np.float64)
    # Camera frame: looking down the world's +z is "down" onto the mat (z grows into it).
    az = math.radians(azimuth_deg)
    r = (_rot((0, 0, 1), math.radians(roll_deg))
         @ _rot((math.cos(az), math.sin(az), 0), math.radians(tilt_deg)))
    centred = corners - np.array([cx, cy, 0.0])
    cam = (r @ centred.T).T
    dist = 700.0
    for _ in range(30):  # find the distance at which the mat just fits
        z = cam[:, 2] + dist
        u = f * cam[:, 0] / z
        v = f * cam[:, 1] / z
        span = max((u.max() - u.min()) / wpx, (v.max() - v.min()) / hpx)
        dist *= span / fill
    z = cam[:, 2] + dist
    u = f * cam[:, 0] / z
    v = f * cam[:, 1] / z
    u += wpx / 2 - (u.max() + u.min()) / 2
    v += hpx / 2 - (v.max() + v.min()) / 2
    img = np.stack([u, v], axis=1).astype(np.float32)
    return cv2.getPerspectiveTransform(corners[:, :2].astype(np.float32), img)


# --- scenes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlacedCard:
    """A card on the mat: payload, centre (mm), in-plane rotation (degrees)."""

    payload: str
    x: float
    y: float
    angle: float
    zone: str | None = None


@dataclass
class Look:
    """How one frame is spoiled: blur, noise, light, JPEG, a hand over a card."""

    blur: float = 0.0  # Gaussian sigma in output pixels
    noise: float = 3.0  # Gaussian sigma, grey levels
    gain: float = 1.0
    gradient: float = 0.3  # uneven light, fraction across the frame
    gradient_angle: float = 0.0
    jpeg: int = 75
    shift: tuple[float, float] = (0.0, 0.0)  # sub-pixel camera vibration
    cover: dict[int, float] = field(default_factory=dict)  # card index -> fraction covered
    # A hand (or forearm) over the table: (x, y, radius) in mat mm, drawn over the cards.
    hands: tuple[tuple[float, float, float], ...] = ()
    # Glare from a lamp on glossy sleeves: (x, y, radius) as fractions of the frame width
    # and height, and its strength (grey levels added at the centre, before clipping).
    glare: tuple[float, float, float, float] | None = None


def card_matrix(card: PlacedCard, face_px_per_mm: float) -> Image:
    """Card texture px -> mat mm (3x3)."""
    a = math.radians(card.angle)
    c, s = math.cos(a), math.sin(a)
    k = 1.0 / face_px_per_mm
    ox, oy = tablemat.CARD_WIDTH / 2, tablemat.CARD_HEIGHT / 2
    return np.array([
        [c * k, -s * k, card.x - c * ox + s * oy],
        [s * k, c * k, card.y - s * ox - c * oy],
        [0, 0, 1],
    ])


def card_corners_mm(card: PlacedCard) -> Image:
    m = card_matrix(card, 1.0)
    pts = np.array([[(0, 0), (tablemat.CARD_WIDTH, 0),
                     (tablemat.CARD_WIDTH, tablemat.CARD_HEIGHT), (0, tablemat.CARD_HEIGHT)]],
                   dtype=np.float64)
    out: Image = cv2.perspectiveTransform(pts, m)[0]
    return out


# Where the printed face's code lies on the card (``printables.faces.face_layout(63, 88).qr``:
# x, y, side in mm); a test checks the two agree.
CODE_BOX_MM = (11.0, 3.0, 41.0)


def code_corners_mm(card: PlacedCard, margin_modules: float = 0.0) -> Image:
    """The printed code's corners on the mat (mm), grown by ``margin_modules`` modules."""
    x, y, side = CODE_BOX_MM
    m = margin_modules * side / 21
    pts = np.array([[(x - m, y - m), (x + side + m, y - m), (x + side + m, y + side + m),
                     (x - m, y + side + m)]], dtype=np.float64)
    out: Image = cv2.perspectiveTransform(pts, card_matrix(card, 1.0))[0]
    return out


def code_visibility(cards: Sequence[PlacedCard]) -> list[str]:
    """For each card (drawn in order, later ones on top): ``full`` if no later card covers
    any of its code (finder patterns and one module of quiet zone around), ``hidden`` if
    later cards cover it all, else ``partial``."""
    out = []
    for i, card in enumerate(cards):
        code = code_corners_mm(card, 1.0).astype(np.float32)
        # Rasterise at 4 px/mm: overlaps of several cards on top are unioned, not summed.
        x0, y0 = code.min(axis=0) - 1
        x1, y1 = code.max(axis=0) + 1
        size = (int((x1 - x0) * 4) + 1, int((y1 - y0) * 4) + 1)
        to_px = np.array([[4.0, 0, -x0 * 4], [0, 4.0, -y0 * 4], [0, 0, 1]])
        code_mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillPoly(code_mask, [project(to_px, code).astype(np.int32)], 255)
        covered = np.zeros_like(code_mask)
        for later in cards[i + 1:]:
            poly = project(to_px, card_corners_mm(later)).astype(np.int32)
            cv2.fillPoly(covered, [poly], 255)
        hidden = int(np.count_nonzero(covered & code_mask))
        total = max(1, int(np.count_nonzero(code_mask)))
        out.append("full" if hidden == 0 else
                   "hidden" if hidden >= 0.98 * total else "partial")
    return out


def pile(run: PrintRun, k: int, centre: tuple[float, float], rng: random.Random,
         offset_mm: float = 30.0) -> list[PlacedCard]:
    """``k`` cards of ``run`` dropped on a pot: each lands near the last, overlapping it
    (about ``offset_mm`` apart in a random direction, some turned)."""
    printed = rng.sample(list(run.cards), k)
    x, y = centre
    out = []
    for pc in printed:
        out.append(PlacedCard(pc.payload, x, y, rng.uniform(-25, 25) + rng.choice((0, 180))))
        a = rng.uniform(0, 2 * math.pi)
        x = min(max(centre[0] + offset_mm * math.cos(a) * rng.uniform(0.4, 1.0), 40), 760)
        y = min(max(centre[1] + offset_mm * math.sin(a) * rng.uniform(0.4, 1.0), 50), 400)
    return out


def project(h: Image, pts: Image) -> Image:
    out: Image = cv2.perspectiveTransform(np.asarray(pts, dtype=np.float64).reshape(1, -1, 2),
                                          h)[0]
    return out


class SceneRenderer:
    """Renders scenes of one mat layout; caches the mat texture and card faces."""

    def __init__(self, game: str = "wuxing", players: int = 8,
                 face: FaceRenderer | None = None, cloth: bool = False) -> None:
        self.game, self.players = game, players
        self.mat = mat_image(game, players, cloth)
        self.face = face or synthetic_face
        self._mips: dict[tuple[str, int], Image] = {}

    def _face_at(self, payload: str, px_per_mm: float) -> tuple[Image, float]:
        # Pre-shrink the face close to its on-screen size so the warp does not alias.
        level = max(1, min(8, math.ceil(px_per_mm * 1.5)))
        key = (payload, level)
        if key not in self._mips:
            full = self.face(payload)
            fw = round(tablemat.CARD_WIDTH * level)
            fh = round(tablemat.CARD_HEIGHT * level)
            self._mips[key] = cv2.resize(full, (fw, fh), interpolation=cv2.INTER_AREA)
        return self._mips[key], float(level)

    def render(self, cards: Sequence[PlacedCard], h: Image, size: tuple[int, int],
               look: Look, rng: random.Random) -> Image:
        """One BGR frame."""
        w, hh = size
        shift = np.array([[1, 0, look.shift[0]], [0, 1, look.shift[1]], [0, 0, 1]])
        hs = shift @ h
        to_mat = np.diag([1 / MAT_PX_PER_MM, 1 / MAT_PX_PER_MM, 1.0])
        frame = cv2.warpPerspective(self.mat, hs @ to_mat, (w, hh), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=(40, 45, 50))
        for i, card in enumerate(cards):
            quad = project(hs, card_corners_mm(card))
            scale = math.sqrt(cv2.contourArea(quad.astype(np.float32))
                              / (tablemat.CARD_WIDTH * tablemat.CARD_HEIGHT))
            tex, level = self._face_at(card.payload, scale)
            x0 = max(0, int(quad[:, 0].min()) - 2)
            y0 = max(0, int(quad[:, 1].min()) - 2)
            x1 = min(w, int(quad[:, 0].max()) + 3)
            y1 = min(hh, int(quad[:, 1].max()) + 3)
            if x1 <= x0 or y1 <= y0:
                continue
            roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ hs @ card_matrix(card, level)
            patch = cv2.warpPerspective(tex, roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
            mask = cv2.warpPerspective(np.full(tex.shape[:2], 255, np.uint8), roi,
                                       (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
            alpha = (mask.astype(np.float32) / 255.0)[:, :, None]
            region = frame[y0:y1, x0:x1].astype(np.float32)
            frame[y0:y1, x0:x1] = (patch * alpha + region * (1 - alpha)).astype(np.uint8)
            covered = look.cover.get(i, 0.0)
            if covered > 0:
                _hand(frame, quad, covered, rng)
        for x, y, r in look.hands:
            _arm(frame, hs, x, y, r)
        return spoil(frame, look, rng)


def _hand(frame: Image, quad: Image, fraction: float, rng: random.Random) -> None:
    """A skin-coloured blob over ``fraction`` of a card, entering from one side."""
    c = quad.mean(axis=0)
    edge = quad[rng.randrange(4)]
    d = edge - c
    centre = c + d * (1.6 - 1.4 * fraction)
    radius = int(np.hypot(*d) * 1.1)
    cv2.circle(frame, (int(centre[0]), int(centre[1])), radius, (120, 150, 200), -1)


def _arm(frame: Image, h: Image, x: float, y: float, r: float) -> None:
    """A hand at (x, y) mm of radius ``r`` mm with its forearm reaching to the near edge,
    skin-coloured and slightly shaded, in image pixels through ``h``."""
    outline = []
    for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
        outline.append((x + r * math.cos(a), y + r * 0.8 * math.sin(a)))
    wrist = r * 0.55
    outline_arm = [(x - wrist, y), (x + wrist, y), (x + wrist * 1.2, tablemat.MAT_HEIGHT + 200),
                   (x - wrist * 1.2, tablemat.MAT_HEIGHT + 200)]
    for poly in (outline_arm, outline):
        pts = project(h, np.array(poly)).astype(np.int32)
        cv2.fillPoly(frame, [pts], (105, 135, 185))
    c = project(h, np.array([[x, y]]))[0]
    edge = project(h, np.array([[x + r * 0.5, y]]))[0]
    cv2.circle(frame, (int(c[0]), int(c[1])), max(1, int(abs(edge[0] - c[0]))),
               (95, 122, 170), -1)


_NOISE_PAD = 97
_NOISE: dict[tuple[int, ...], Image] = {}


def _noise_field(shape: tuple[int, ...]) -> Image:
    key = tuple(shape)
    if key not in _NOISE:
        big = (shape[0] + _NOISE_PAD, shape[1] + _NOISE_PAD, *shape[2:])
        _NOISE[key] = np.random.default_rng(12345).standard_normal(big, dtype=np.float32)
    return _NOISE[key]


def spoil(frame: Image, look: Look, rng: random.Random) -> Image:
    """Uneven light, blur, noise and JPEG, as a camera would."""
    hh, w = frame.shape[:2]
    # The light field is smooth: compute it on a coarse grid and scale it up.
    gh, gw = max(2, hh // 16), max(2, w // 16)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    xx *= w / gw
    yy *= hh / gh
    a = math.radians(look.gradient_angle)
    t = ((xx - w / 2) * math.cos(a) + (yy - hh / 2) * math.sin(a)) / max(w, hh)
    r2 = ((xx - w / 2) ** 2 + (yy - hh / 2) ** 2) / (w * w / 4 + hh * hh / 4)
    light = cv2.resize(look.gain * (1 + look.gradient * t) * (1 - 0.25 * r2), (w, hh),
                       interpolation=cv2.INTER_LINEAR)
    img = frame.astype(np.float32) * light[:, :, None]
    if look.glare is not None:
        gx, gy, gr, strength = look.glare
        cx, cy, rad = gx * w, gy * hh, max(2.0, gr * w)
        y0, y1 = max(0, int(cy - 3 * rad)), min(hh, int(cy + 3 * rad) + 1)
        x0, x1 = max(0, int(cx - 3 * rad)), min(w, int(cx + 3 * rad) + 1)
        if y1 > y0 and x1 > x0:
            yy2, xx2 = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            spot = strength * np.exp(-((xx2 - cx) ** 2 + (yy2 - cy) ** 2) / (2 * rad * rad))
            img[y0:y1, x0:x1] += spot[:, :, None]
    if look.blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), look.blur)
    # Sensor noise: a random window of a cached unit-variance field (drawing fresh
    # Gaussian noise for every frame costs more than the rest of the frame).
    field_ = _noise_field(img.shape)
    dy, dx = rng.randrange(_NOISE_PAD), rng.randrange(_NOISE_PAD)
    img += field_[dy:dy + hh, dx:dx + w] * float(look.noise)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else out


def jpeg_bytes(frame: Image, quality: int = 90) -> bytes:
    """``frame`` as a camera's MJPEG frame would arrive (what a 4K webcam sends)."""
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"cannot encode a {frame.shape} frame as JPEG")
    return bytes(buf)


def random_cards(run: PrintRun, k: int, game: str, players: int,
                 rng: random.Random) -> list[PlacedCard]:
    """``k`` distinct cards of ``run`` in ``k`` distinct zones, at random spots and angles."""
    zones = [z for z in tablemat.zones(game, players) if not z.name.startswith("locus:")]
    if k > len(zones):
        raise ValueError(f"{k} cards do not fit {len(zones)} zones")
    chosen = rng.sample(zones, k)
    printed = rng.sample(list(run.cards), k)
    cards = []
    for z, pc in zip(chosen, printed, strict=True):
        slack_x = max(0.0, z.w / 2 - 35)
        slack_y = max(0.0, z.h / 2 - 35)
        x = z.centre[0] + rng.uniform(-slack_x, slack_x) * 0.5
        y = z.centre[1] + rng.uniform(-slack_y, slack_y) * 0.5
        cards.append(PlacedCard(pc.payload, x, y, rng.uniform(0, 360), z.name))
    return cards


def random_camera(size: tuple[int, int], rng: random.Random, max_tilt: float = 35.0,
                  card_px: tuple[float, float] | None = None) -> Image:
    """A camera at a random tilt. ``card_px``: a wide view of the whole table instead of
    the standard position, the camera so far away that a card at the centre of an untilted
    view is that many pixels wide (drawn uniformly); the far side of a tilted view is
    smaller still."""
    tilt, azimuth, roll = rng.uniform(0, max_tilt), rng.uniform(0, 360), rng.uniform(-8, 8)
    if card_px is None:
        return camera_homography(size, tilt, azimuth, roll)
    want = rng.uniform(*card_px)
    fill = want * tablemat.MAT_WIDTH / (tablemat.CARD_WIDTH * size[0])
    for _ in range(3):  # the tilt shrinks the view: correct the fill on the centre card
        h = camera_homography(size, tilt, azimuth, roll, fill=fill)
        cx, cy = tablemat.MAT_WIDTH / 2, tablemat.MAT_HEIGHT / 2
        ends = project(h, np.array([[cx - 31.5, cy], [cx + 31.5, cy], [cx, cy - 31.5],
                                    [cx, cy + 31.5]]))
        got = (np.hypot(*(ends[1] - ends[0])) + np.hypot(*(ends[3] - ends[2]))) / 2
        fill *= want / got
    return camera_homography(size, tilt, azimuth, roll, fill=fill)


def random_look(rng: random.Random, max_blur: float = 1.0, light: str = "normal",
                exposure: tuple[float, float] = (0.35, 0.6)) -> Look:
    """A random way of spoiling a frame. ``light``: ``normal`` (gain 0.6-1.1, noise 2-6),
    ``dim`` (``exposure``, by default 35-60 %, noise sigma 5-9) or ``glare`` (a lamp's
    reflection, up to white, over a random part of the table)."""
    look = Look(blur=rng.uniform(0, max_blur), noise=rng.uniform(2, 6),
                gain=rng.uniform(0.6, 1.1), gradient=rng.uniform(0, 0.5),
                gradient_angle=rng.uniform(0, 360), jpeg=rng.randrange(70, 90))
    if light == "dim":
        look.gain, look.noise = rng.uniform(*exposure), rng.uniform(5, 9)
    elif light == "glare":
        # Up to 200 grey levels at the core: a code there keeps a little contrast (its dark
        # modules at about 230 against white); a stronger lamp erases it for any reader.
        look.glare = (rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75), rng.uniform(0.03, 0.08),
                      rng.uniform(80, 200))
    elif light != "normal":
        raise ValueError(f"no light {light!r}; choose normal, dim or glare")
    return look


def jitter(look: Look, rng: random.Random) -> Look:
    """The next frame of a still scene: new noise, a sub-pixel shake, flicker."""
    return Look(blur=look.blur, noise=look.noise, gain=look.gain * rng.uniform(0.97, 1.03),
                gradient=look.gradient, gradient_angle=look.gradient_angle, jpeg=look.jpeg,
                shift=(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)), cover=dict(look.cover),
                hands=look.hands, glare=look.glare)


# --- faces from the project's own printed PDF ------------------------------------------


def printed_faces_available() -> bool:
    """Whether ``printables`` can draw a card face and pypdfium2 can rasterise it."""
    try:
        import pypdfium2  # noqa: F401

        from printables import faces
        from printables.document import Document  # noqa: F401
    except ImportError:
        return False
    return hasattr(faces, "draw_face")


class PrintedFaces:
    """Card faces exactly as ``printables`` prints them: one PDF page per card, drawn by
    ``printables.faces.draw_face`` and rasterised at 8 px/mm with pypdfium2."""

    def __init__(self, runs: Sequence[PrintRun]) -> None:
        self._cards = {c.payload: c for run in runs for c in run.cards}
        self._cache: dict[str, Image] = {}

    def __call__(self, payload: str) -> Image:
        if payload in self._cache:
            return self._cache[payload]
        card = self._cards.get(payload)
        if card is None:  # not one of ours (a stray code in a test scene): draw it plainly
            return synthetic_face(payload)
        import pypdfium2

        from companion.cards import load_deck
        from printables.document import Document
        from printables.faces import draw_face
        from printables.geometry import Rect

        deck = load_deck(card.face.game)
        doc = Document("card")
        pen = doc.page(tablemat.CARD_WIDTH, tablemat.CARD_HEIGHT)
        draw_face(pen, Rect(0, 0, tablemat.CARD_WIDTH, tablemat.CARD_HEIGHT), card.face,
                  deck.decks.get(card.deck), card.payload, card.serial, 0.0)
        pdf = pypdfium2.PdfDocument(doc.finish())
        try:
            bitmap = pdf[0].render(scale=FACE_PX_PER_MM * 25.4 / 72)
            pixels = np.asarray(bitmap.to_numpy())
            mode = str(bitmap.mode)
        finally:
            pdf.close()
        if pixels.ndim == 2:
            face = cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
        elif mode.startswith("BGR"):  # pdfium's own byte order: already what OpenCV uses
            face = np.ascontiguousarray(pixels[:, :, :3])
        else:
            face = np.ascontiguousarray(pixels[:, :, 2::-1])
        self._cache[payload] = face
        return face


def default_face_renderer(runs: Sequence[PrintRun] = ()) -> FaceRenderer:
    """Printed faces when ``printables`` can draw them, else synthetic ones."""
    if runs and printed_faces_available():
        return PrintedFaces(runs)
    return synthetic_face
