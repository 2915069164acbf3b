"""Frames of a filmed game at 30 fps: the printed mat and deck seen by a table camera.

``Film`` keeps the cards lying on the mat (in drawing order: a card pushed onto a pile
lies slightly offset on top of it) and films what hands do: lay a card in a zone, push a
card from a seat onto a pile, pick cards up. Card faces are the project's printed faces
(``bench.scenes.PrintedFaces``), the mat is ``bench.scenes.mat_image`` (the zones of
``companion.tablemat`` and the four ArUco markers), the camera a pinhole at a slight tilt;
every frame gets new noise, a sub-pixel shake and flicker (``bench.scenes.jitter``).

Paces (issue 26): ``calm``: a card lies still 1.5 s, then 1.5 s pass before the next;
``brisk``: a card lies still 0.4 s and the next is laid at once, 0.7 s after a collection.
A still table is drawn from a few cached renders (each with its own noise), so a long
pause costs the camera's time, not the renderer's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench import scenes
from companion import tablemat
from companion.runs import PrintRun
from cv.sources import Frame

Image = np.ndarray[Any, Any]
FPS = 30.0
RESOLUTIONS = {"720p": (1280, 720), "1080p": (1920, 1080)}
Hand = tuple[float, float, float]


@dataclass(frozen=True)
class Pace:
    """How long things take at the table (seconds)."""

    name: str
    still: float  # a laid card lies still before anything else happens
    gap: float  # after a card lies still, before the next hand comes in
    after_collect: float  # after cards are picked up, before the next card
    reach: float = 0.25  # a hand coming in or going out


PACES = {
    "calm": Pace("calm", still=1.5, gap=1.5, after_collect=1.5),
    "brisk": Pace("brisk", still=0.4, gap=0.0, after_collect=0.7),
}


class Film:
    """The table seen by the camera, frame by frame."""

    def __init__(self, game: str, players: int, runs: Sequence[PrintRun], res: str = "720p",
                 pace: str = "calm", light: str = "normal", seed: int = 1) -> None:
        self.game, self.players = game, players
        self.size = RESOLUTIONS[res]
        self.pace = PACES[pace]
        self.rng = random.Random(seed)
        self.renderer = scenes.SceneRenderer(game, players,
                                             face=scenes.default_face_renderer(list(runs)))
        self.payload = {c.serial: c.payload for run in runs for c in run.cards}
        self.serial_of = {p: s for s, p in self.payload.items()}
        rng = self.rng
        self.h = scenes.camera_homography(self.size, rng.uniform(4, 18), rng.uniform(0, 360),
                                          rng.uniform(-4, 4))
        self.look = scenes.random_look(rng, max_blur=0.6, light=light)
        self.zones = {z.name: z for z in tablemat.zones(game, players)}
        self.cards: list[scenes.PlacedCard] = []  # drawing order
        self.where: dict[str, str] = {}  # serial -> zone
        self.seq = 0
        self._still: list[Image] = []
        self._still_key: tuple[Any, ...] | None = None
        self.rendered = 0

    # -- frames -------------------------------------------------------------------------
    def _frame(self, hands: tuple[Hand, ...] = ()) -> Frame:
        key = tuple(self.cards)
        if key != self._still_key:
            self._still, self._still_key = [], key
        image: Image
        if not hands and len(self._still) >= 3:
            image = self._still[self.seq % 3]
        else:
            look = scenes.jitter(self.look, self.rng)
            look.hands = hands
            image = self.renderer.render(self.cards, self.h, self.size, look, self.rng)
            self.rendered += 1
            if not hands:
                self._still.append(image)
        self.seq += 1
        return Frame(self.seq, (self.seq - 1) / FPS, image)

    def wait(self, seconds: float) -> Iterator[Frame]:
        """The table lies still."""
        for _ in range(max(0, round(seconds * FPS))):
            yield self._frame()

    def _reach(self, targets: Sequence[tuple[float, float]], inward: bool
               ) -> Iterator[Frame]:
        n = max(2, round(self.pace.reach * FPS))
        outside = tablemat.MAT_HEIGHT + 120
        for k in range(1, n + 1):
            f = k / n if inward else (n - k) / n
            yield self._frame(tuple((x, outside + (y - outside) * f, 55.0)
                                    for x, y in targets))

    # -- where cards go -----------------------------------------------------------------
    def _spot(self, zone: str, serial: str) -> scenes.PlacedCard:
        z = self.zones[zone]
        cx, cy = z.centre
        here = [c for c in self.cards if self.where.get(self.serial_of[c.payload]) == zone]
        rng = self.rng
        if zone.startswith("locus:") or zone == "lot":
            # A row: each card beside the last.
            step = tablemat.CARD_WIDTH + 6
            x0 = z.x + tablemat.CARD_WIDTH / 2 + 4
            x = x0 + (len(here) * step) % max(step, z.w - tablemat.CARD_WIDTH)
            return scenes.PlacedCard(self.payload[serial], x, cy + rng.uniform(-4, 4),
                                     rng.uniform(-6, 6), zone)
        if here:  # on top of the pile (or the seat's cards), slightly offset
            top = here[-1]
            a = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(6, 12)
            x = min(max(top.x + d * math.cos(a), z.x + 25), z.x + z.w - 25)
            y = min(max(top.y + d * math.sin(a), z.y + 30), z.y + z.h - 30)
            return scenes.PlacedCard(self.payload[serial], x, y, rng.uniform(-20, 20), zone)
        return scenes.PlacedCard(self.payload[serial], cx + rng.uniform(-8, 8),
                                 cy + rng.uniform(-8, 8), rng.uniform(-15, 15), zone)

    def lay(self, serial: str, zone: str) -> Iterator[Frame]:
        """A hand lays ``serial`` face up in ``zone`` and leaves; the card lies still."""
        card = self._spot(zone, serial)
        yield from self._reach([(card.x, card.y)], True)
        self._put(serial, card)
        yield from self._reach([(card.x, card.y)], False)
        yield from self.wait(self.pace.still)

    def _put(self, serial: str, card: scenes.PlacedCard) -> None:
        self.cards = [c for c in self.cards if self.serial_of[c.payload] != serial] + [card]
        self.where[serial] = card.zone or ""

    def move(self, serial: str, zone: str) -> Iterator[Frame]:
        """A hand pushes ``serial`` from where it lies onto ``zone`` (a pile)."""
        old = next(c for c in self.cards if self.serial_of[c.payload] == serial)
        yield from self._reach([(old.x, old.y)], True)
        card = self._spot(zone, serial)
        self.cards = [c for c in self.cards if self.serial_of[c.payload] != serial]
        self.where.pop(serial, None)
        steps = max(2, round(0.2 * FPS))
        for k in range(1, steps + 1):  # the hand slides over, the card under it
            f = k / steps
            yield self._frame(((old.x + (card.x - old.x) * f, old.y + (card.y - old.y) * f,
                                55.0),))
        self._put(serial, card)
        yield from self._reach([(card.x, card.y)], False)
        yield from self.wait(self.pace.still)

    def collect(self, serials: Sequence[str]) -> Iterator[Frame]:
        """A hand picks ``serials`` up (off the mat)."""
        gone = [c for c in self.cards if self.serial_of[c.payload] in set(serials)]
        if not gone:
            return
        spots = [(c.x, c.y) for c in gone[-2:]]
        yield from self._reach(spots, True)
        self.cards = [c for c in self.cards if self.serial_of[c.payload] not in set(serials)]
        for s in serials:
            self.where.pop(s, None)
        yield from self._reach(spots, False)
        yield from self.wait(self.pace.after_collect)

