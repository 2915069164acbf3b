"""Filmed table moments for tests and ``companion bench cv --table 8``: a hand reaching
over cards, cards dropped one by one on a pile, a card taken away.

Each is a list of ``Shot``s (time, frame, what a player would say is on the table), made
with ``scenes.SceneRenderer`` from a seeded ``random.Random``; ``replay`` runs them through
the camera's own reader, tracker and bare-place check and counts what came out.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bench import scenes
from companion import tablemat
from cv.cover import BareCheck
from cv.detect import CardReader
from cv.tracker import Tracker
from cv.zones import MatLocator, MatZones

Image = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Shot:
    """One frame of a moment: its time (s), the image, the payloads whose code is in full
    view, and the payloads lying on the table at all (in view or not)."""

    t: float
    image: Image
    visible: frozenset[str]
    on_table: frozenset[str]


def visible_codes(cards: Sequence[scenes.PlacedCard], hands: Sequence[tuple[float, float, float]]
             ) -> frozenset[str]:
    """Payloads whose code no later card and no hand covers."""
    seen = scenes.code_visibility(cards)
    out = set()
    for card, state in zip(cards, seen, strict=True):
        if state != "full":
            continue
        code = scenes.code_corners_mm(card, 1.0)
        if any(_under_hand(code, h) for h in hands):
            continue
        out.add(card.payload)
    return frozenset(out)


def _under_hand(code: Image, hand: tuple[float, float, float]) -> bool:
    x, y, r = hand
    wrist = r * 0.55
    for px, py in code:
        # the hand's ellipse (r x 0.8 r) and the forearm down to the near edge
        if ((px - x) / r) ** 2 + ((py - y) / (0.8 * r)) ** 2 <= 1.05:
            return True
        if py >= y and abs(px - x) <= wrist * 1.25:
            return True
    return False


def _film(renderer: scenes.SceneRenderer, h: Image, size: tuple[int, int], look: scenes.Look,
          rng: random.Random, fps: float, plan: Sequence[tuple[Sequence[scenes.PlacedCard],
                                                                 tuple[tuple[float, float,
                                                                             float], ...]]]
          ) -> list[Shot]:
    shots = []
    for i, (cards, hands) in enumerate(plan):
        frame_look = scenes.jitter(look, rng)
        frame_look.hands = hands
        image = renderer.render(cards, h, size, frame_look, rng)
        shots.append(Shot(i / fps, image, visible_codes(cards, hands),
                          frozenset(c.payload for c in cards)))
    return shots


def hand_over(renderer: scenes.SceneRenderer, cards: Sequence[scenes.PlacedCard], h: Image,
              size: tuple[int, int], look: scenes.Look, rng: random.Random, *,
              covered: Sequence[int] = (0, 1), fps: float = 30.0, before_s: float = 0.6,
              over_s: float = 3.0, after_s: float = 0.8) -> list[Shot]:
    """The cards lie still; a hand reaches in over each of ``covered`` (its forearm from
    the near edge), stays ``over_s`` seconds moving a little, and leaves."""
    n_before, n_over, n_after = (max(1, round(s * fps)) for s in (before_s, over_s, after_s))
    reach = max(2, round(0.2 * fps))  # the hand takes 0.2 s in and out
    plan: list[tuple[Sequence[scenes.PlacedCard], tuple[tuple[float, float, float], ...]]] = []
    targets = []
    for i in covered:
        c = scenes.code_corners_mm(cards[i]).mean(axis=0)
        targets.append((float(c[0]), float(c[1])))
    plan += [(cards, ())] * n_before
    outside = tablemat.MAT_HEIGHT + 120
    for k in range(1, reach + 1):  # reaching in from the near edge
        f = k / reach
        plan.append((cards, tuple((x, outside + (y - outside) * f, 55.0) for x, y in targets)))
    for k in range(n_over):  # a hand is never still: a slow drift of a few mm
        a = 2 * math.pi * k / max(1, n_over)
        plan.append((cards, tuple((x + 4 * math.cos(a), y + 3 * math.sin(a), 55.0)
                                  for x, y in targets)))
    for k in range(reach, 0, -1):
        f = (k - 1) / reach
        plan.append((cards, tuple((x, outside + (y - outside) * f, 55.0) for x, y in targets)))
    plan += [(cards, ())] * n_after
    return _film(renderer, h, size, look, rng, fps, plan)


def dropped_on_pile(renderer: scenes.SceneRenderer, pile: Sequence[scenes.PlacedCard],
                    h: Image, size: tuple[int, int], look: scenes.Look, rng: random.Random,
                    *, others: Sequence[scenes.PlacedCard] = (), fps: float = 30.0,
                    each_s: float = 0.7) -> list[Shot]:
    """``others`` lie still; the cards of ``pile`` are dropped one after another, each
    over the last, ``each_s`` seconds apart (the dropping hand is not drawn)."""
    plan: list[tuple[Sequence[scenes.PlacedCard], tuple[tuple[float, float, float], ...]]] = []
    n = max(1, round(each_s * fps))
    for k in range(1, len(pile) + 1):
        plan += [([*others, *pile[:k]], ())] * n
    return _film(renderer, h, size, look, rng, fps, plan)


def taken_away(renderer: scenes.SceneRenderer, cards: Sequence[scenes.PlacedCard], h: Image,
               size: tuple[int, int], look: scenes.Look, rng: random.Random, *,
               gone: int = 0, fps: float = 30.0, before_s: float = 0.6,
               after_s: float = 2.5) -> list[Shot]:
    """The cards lie still, then card ``gone`` is picked up (the others stay)."""
    rest = [c for i, c in enumerate(cards) if i != gone]
    plan: list[tuple[Sequence[scenes.PlacedCard], tuple[tuple[float, float, float], ...]]] = []
    plan += [(cards, ())] * max(1, round(before_s * fps))
    plan += [(rest, ())] * max(1, round(after_s * fps))
    return _film(renderer, h, size, look, rng, fps, plan)


@dataclass
class Replay:
    """What the camera made of a moment."""

    placed: Counter[str] = field(default_factory=Counter)  # payload -> placements
    removed: Counter[str] = field(default_factory=Counter)
    false_reads: int = 0  # a payload read that is not on the table
    read: set[str] = field(default_factory=set)
    unread_visible: set[str] = field(default_factory=set)  # in full view at the end, unread
    cpu_ms: list[float] = field(default_factory=list)


def replay(shots: Sequence[Shot], reader: CardReader, tracker: Tracker, game: str = "wuxing",
           players: int = 8, settle: int = 5) -> Replay:
    """Run ``shots`` through the reader, the tracker and the bare-place check, finding the
    mat in the first frame. ``unread_visible``: cards in full view during the last
    ``settle`` frames that none of them read."""
    import time

    out = Replay()
    pose = MatLocator().locate(shots[0].image) if shots else None
    zones = MatZones(pose, game, players) if pose is not None else None
    if zones is not None:
        tracker.zone_of = zones.zone_of
        tracker.require_zone = True
    late: set[str] = set()
    for i, shot in enumerate(shots, 1):
        c0 = time.thread_time()
        got = reader.read(shot.image, zones.regions() if zones else ())
        bare = BareCheck(shot.image, zones.pose.to_mat) if zones else None
        events = tracker.update(i, shot.t, got, bare)
        out.cpu_ms.append((time.thread_time() - c0) * 1000)
        payloads = {s.payload for s in got}
        out.false_reads += len(payloads - shot.on_table)
        out.read |= payloads
        if i > len(shots) - settle:
            late |= payloads
        for e in events:
            if e.kind == "placed":
                out.placed[e.payload] += 1
            elif e.kind == "removed":
                out.removed[e.payload] += 1
    if shots:
        out.unread_visible = set(shots[-1].visible) - late
    return out
