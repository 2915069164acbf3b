"""Filmed table moments for tests and ``companion bench cv --table 8``: a hand reaching
over cards, cards dropped one by one on a pile, a card taken away; and brisk play
(``brisk_moments``, ``companion bench cv --brisk``): cards laid, collected and laid again
quickly in one zone, cards pushed onto the pot and covered, a card back to the pot.

Each is a list of ``Shot``s (time, frame, what a player would say is on the table), made
with ``scenes.SceneRenderer`` from a seeded ``random.Random``; ``replay`` runs them through
the camera's own reader, tracker and bare-place check and counts what came out.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
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
Hand = tuple[float, float, float]  # a hand over the table: x, y, radius (mat mm)
Plan = list[tuple[Sequence[scenes.PlacedCard], tuple[Hand, ...]]]  # cards, hands per frame


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


def filmer(renderer: scenes.SceneRenderer, h: Image, size: tuple[int, int],
           look: scenes.Look, seed: int, fps: float = 30.0
           ) -> Callable[[Plan], Iterator[Shot]]:
    """Films a plan like ``_film``, one frame at a time (a 1080p frame is 6 MB: a film
    is never held whole), the same frames each time for one ``seed``."""

    def film(plan: Plan) -> Iterator[Shot]:
        rng = random.Random(seed)
        for i, (cards, hands) in enumerate(plan):
            frame_look = scenes.jitter(look, rng)
            frame_look.hands = hands
            image = renderer.render(cards, h, size, frame_look, rng)
            yield Shot(i / fps, image, visible_codes(cards, hands),
                       frozenset(c.payload for c in cards))

    return film


def hand_over(renderer: scenes.SceneRenderer, cards: Sequence[scenes.PlacedCard], h: Image,
              size: tuple[int, int], look: scenes.Look, rng: random.Random, *,
              covered: Sequence[int] = (0, 1), fps: float = 30.0, before_s: float = 0.6,
              over_s: float = 3.0, after_s: float = 0.8) -> list[Shot]:
    """The cards lie still; a hand reaches in over each of ``covered`` (its forearm from
    the near edge), stays ``over_s`` seconds moving a little, and leaves."""
    plan = hand_over_plan(cards, covered=covered, fps=fps, before_s=before_s, over_s=over_s,
                          after_s=after_s)
    return _film(renderer, h, size, look, rng, fps, plan)


def hand_over_plan(cards: Sequence[scenes.PlacedCard], *, covered: Sequence[int] = (0, 1),
                   fps: float = 30.0, before_s: float = 0.6, over_s: float = 3.0,
                   after_s: float = 0.8) -> Plan:
    """The frames of ``hand_over``, not rendered."""
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
    return plan


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


# --- brisk play (C-9) ----------------------------------------------------------------

OUTSIDE = tablemat.MAT_HEIGHT + 120  # where a hand comes from and goes (the near edge)
HAND_R = 45.0


@dataclass(frozen=True)
class Brisk:
    """A moment of brisk play: what the table does frame by frame, and the placements
    (payload, zone) a referee should receive from it, in order. ``shots()`` renders it,
    one frame at a time, the same frames each time."""

    name: str
    plan: Plan
    expected: list[tuple[str, str]]
    film: Callable[[Plan], Iterator[Shot]]

    def shots(self) -> Iterator[Shot]:
        return self.film(self.plan)


def _grip(card: scenes.PlacedCard) -> tuple[float, float]:
    """Where a hand holds a card: over its lower end, away from the code."""
    code = scenes.code_corners_mm(card).mean(axis=0)
    return (card.x + (card.x - float(code[0])) * 1.2, card.y + (card.y - float(code[1])) * 1.2)


def _moved(card: scenes.PlacedCard, x: float, y: float) -> scenes.PlacedCard:
    return scenes.PlacedCard(card.payload, x, y, card.angle, card.zone)


class _Table:
    """Builds a plan frame by frame: cards on the table (later ones on top) and hands."""

    def __init__(self, fps: float, cards: Sequence[scenes.PlacedCard] = ()) -> None:
        self.fps = fps
        self.cards = list(cards)
        self.plan: Plan = []

    def frames(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def hold(self, seconds: float, hands: tuple[Hand, ...] = ()) -> None:
        self.plan += [(list(self.cards), hands)] * self.frames(seconds)

    def _hand_path(self, start: tuple[float, float], end: tuple[float, float],
                   seconds: float, carry: scenes.PlacedCard | None = None) -> None:
        """A hand moving from ``start`` to ``end`` (carrying ``carry`` along, on top)."""
        n = self.frames(seconds)
        for k in range(1, n + 1):
            f = k / n
            x, y = start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
            cards = list(self.cards)
            if carry is not None:
                gx, gy = _grip(carry)
                cards.append(_moved(carry, carry.x + x - gx, carry.y + y - gy))
            self.plan.append((cards, ((x, y, HAND_R),)))

    def lay(self, card: scenes.PlacedCard, seconds: float = 0.25) -> None:
        """A hand brings ``card`` from the near edge and lets go: it lies still from the
        last frame of this on; the hand leaves in 0.2 s."""
        grip = _grip(card)
        self._hand_path((grip[0], OUTSIDE), grip, seconds, carry=card)
        self.cards.append(card)
        self._hand_path(grip, (grip[0], OUTSIDE), 0.2)

    def collect(self, payloads: Sequence[str], seconds: float = 0.15) -> None:
        """A hand reaches over the first of ``payloads`` and takes them all (a pile
        gathered): they vanish under it; the hand leaves in 0.2 s."""
        target = next(c for c in self.cards if c.payload == payloads[0])
        spot = (target.x, target.y)
        self._hand_path((spot[0], OUTSIDE), spot, seconds)
        self.cards = [c for c in self.cards if c.payload not in payloads]
        self._hand_path(spot, (spot[0], OUTSIDE), 0.2)

    def push(self, payload: str, to: scenes.PlacedCard, seconds: float = 0.3) -> None:
        """A hand takes the card ``payload`` where it lies and slides it to ``to`` (on
        top of whatever lies there); the hand leaves in 0.2 s."""
        card = next(c for c in self.cards if c.payload == payload)
        grip = _grip(card)
        self._hand_path((grip[0], OUTSIDE), grip, 0.15)
        self.cards.remove(card)
        self._hand_path(grip, _grip(to), seconds, carry=card)
        self.cards.append(to)
        end = _grip(to)
        self._hand_path(end, (end[0], OUTSIDE), 0.2)


def _spot(zone: str, rng: random.Random, payload: str, game: str = "wuxing",
          players: int = 8) -> scenes.PlacedCard:
    z = next(z for z in tablemat.zones(game, players) if z.name == zone)
    return scenes.PlacedCard(payload, z.centre[0] + rng.uniform(-8, 8),
                             z.centre[1] + rng.uniform(-8, 8), rng.uniform(-12, 12) + 180 *
                             rng.randrange(2), zone)


def brisk_moments(renderer: scenes.SceneRenderer, payloads: Sequence[str], h: Image,
                  size: tuple[int, int], look: scenes.Look, rng: random.Random, *,
                  fps: float = 30.0, still_s: float = 0.4, gap_s: float = 0.7
                  ) -> list[Brisk]:
    """Brisk play on the 8-seat WuXing mat, each card at rest only ``still_s`` and the
    next one laid ``gap_s`` after the last was collected (issue 26 §3):

    * ``laid and collected``: four cards laid in turn in one seat, each collected before
      the next; the first comes back last (the same card back to the zone it left);
    * ``pushed onto the pot``: a card shown in a seat, pushed onto the pot, then a second
      shown and pushed on top of it; then a third laid straight on the pot over both;
    * ``back to the pot``: two cards on the pot, the pot gathered, and ``gap_s`` later the
      card that lay under comes back to the pot (the Void turned over as the Universe deck);
    * ``top card off the pot and back``: a card laid on the pot over half of another (whose
      code stays in view), taken off (the card under shows where it lay, no bare mat), and
      laid there again.

    ``payloads`` needs 6 distinct cards."""
    a, b, c, d, e, f = payloads[:6]
    film = filmer(renderer, h, size, look, rng.randrange(2**31), fps)
    out = []
    # 1. laid and collected in one seat
    t = _Table(fps)
    t.hold(0.3)
    expected = []
    for p in (a, b, c, a):
        t.lay(_spot("seat:2", rng, p))
        t.hold(max(0.0, still_s - 0.2))  # the hand took 0.2 s of the card's rest to leave
        t.collect([p])
        t.hold(max(0.0, gap_s - 0.45))  # the next hand arrives 0.25 s before it lands
        expected.append((p, "seat:2"))
    t.hold(1.0)
    out.append(Brisk("laid and collected", t.plan, expected, film))
    # 2. pushed onto the pot, a new card on top
    t = _Table(fps)
    t.hold(0.3)
    expected = []
    for p in (d, e):
        seat = _spot("seat:1", rng, p)
        t.lay(seat)
        t.hold(max(0.0, still_s - 0.2))
        t.push(p, _spot("universe", rng, p))
        t.hold(max(0.0, gap_s - 0.45))
        expected += [(p, "seat:1"), (p, "universe")]
    t.lay(_spot("universe", rng, f))
    expected.append((f, "universe"))
    t.hold(1.0)
    out.append(Brisk("pushed onto the pot", t.plan, expected, film))
    # 3. the pot gathered, a card of it back on the pot
    t = _Table(fps)
    t.hold(0.3)
    for p in (b, c):
        t.lay(_spot("universe", rng, p))
        t.hold(max(0.0, still_s - 0.2))
    t.collect([c, b])
    t.hold(max(0.0, gap_s - 0.45))
    t.lay(_spot("universe", rng, b))
    t.hold(1.0)
    out.append(Brisk("back to the pot", t.plan,
                     [(b, "universe"), (c, "universe"), (b, "universe")], film))
    # 4. the top card leaves the pot, the card under it in full view, and comes back
    t = _Table(fps)
    t.hold(0.3)
    angle = rng.uniform(-12, 12) + 180 * rng.randrange(2)
    down = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
    pot = next(z for z in tablemat.zones("wuxing", 8) if z.name == "universe").centre
    under = scenes.PlacedCard(d, pot[0] - 22 * down[0], pot[1] - 22 * down[1], angle,
                              "universe")
    top = scenes.PlacedCard(e, pot[0] + 22 * down[0], pot[1] + 22 * down[1],
                            angle + rng.uniform(-8, 8), "universe")
    for card in (under, top):
        t.lay(card)
        t.hold(max(0.0, still_s - 0.2))
    t.collect([e])
    t.hold(max(0.0, gap_s - 0.45))
    t.lay(top)
    t.hold(1.0)
    out.append(Brisk("top card off the pot and back", t.plan,
                     [(d, "universe"), (e, "universe"), (e, "universe")], film))
    return out


@dataclass
class Replay:
    """What the camera made of a moment."""

    placed: Counter[str] = field(default_factory=Counter)  # payload -> placements
    removed: Counter[str] = field(default_factory=Counter)
    false_reads: int = 0  # a payload read that is not on the table
    read: set[str] = field(default_factory=set)
    unread_visible: set[str] = field(default_factory=set)  # in full view at the end, unread
    cpu_ms: list[float] = field(default_factory=list)
    scans: list[tuple[str, str | None, float]] = field(default_factory=list)  # placed
    removals: list[tuple[str, float, str]] = field(default_factory=list)  # payload, t, why
    ghosts: set[str] = field(default_factory=set)  # placed at the end, not on the table

    def lost_and_doubled(self, expected: Sequence[tuple[str, str]]) -> tuple[int, int]:
        """Placements a referee should have had but did not get, and scans beyond them
        (a wrong zone counts as both)."""
        want = Counter(expected)
        got = Counter((p, z or "") for p, z, _ in self.scans)
        return sum((want - got).values()), sum((got - want).values())


def replay(shots: Iterable[Shot], reader: CardReader, tracker: Tracker, game: str = "wuxing",
           players: int = 8, settle: int = 5) -> Replay:
    """Run ``shots`` through the reader, the tracker and the bare-place check, finding the
    mat in the first frame. ``unread_visible``: cards in full view during the last
    ``settle`` frames that none of them read."""
    return replay_many(shots, reader, [tracker], game, players, settle)[0]


def replay_many(shots: Iterable[Shot], reader: CardReader, trackers: Sequence[Tracker],
                game: str = "wuxing", players: int = 8, settle: int = 5) -> list[Replay]:
    """``replay`` with several trackers fed the same reads, frame by frame (the shots are
    looked at once: a lazily rendered film is never held whole). ``cpu_ms`` of each is
    the read plus that tracker's own work (with its bare-place checks)."""
    import time

    outs = [Replay() for _ in trackers]
    zones: MatZones | None = None
    recent: deque[set[str]] = deque(maxlen=settle)
    last: Shot | None = None
    for i, shot in enumerate(shots, 1):
        if i == 1:
            pose = MatLocator().locate(shot.image)
            zones = MatZones(pose, game, players) if pose is not None else None
            for tracker in trackers:
                if zones is not None:
                    tracker.zone_of = zones.zone_of
                    tracker.require_zone = True
        c0 = time.thread_time()
        got = reader.read(shot.image, zones.regions() if zones else ())
        bare = BareCheck(shot.image, zones.pose.to_mat) if zones else None
        read_ms = (time.thread_time() - c0) * 1000
        payloads = {s.payload for s in got}
        for tracker, out in zip(trackers, outs, strict=True):
            c1 = time.thread_time()
            events = tracker.update(i, shot.t, got, bare)
            out.cpu_ms.append(read_ms + (time.thread_time() - c1) * 1000)
            out.false_reads += len(payloads - shot.on_table)
            out.read |= payloads
            for e in events:
                if e.kind == "placed":
                    out.placed[e.payload] += 1
                    out.scans.append((e.payload, e.zone, shot.t))
                elif e.kind == "removed":
                    out.removed[e.payload] += 1
                    out.removals.append((e.payload, shot.t, e.detail))
        recent.append(payloads)
        last = shot
    if last is not None:
        late = set().union(*recent)
        for tracker, out in zip(trackers, outs, strict=True):
            out.unread_visible = set(last.visible) - late
            out.ghosts = {tr.payload for tr in tracker.tracks.values()
                          if tr.state == "placed"} - set(last.on_table)
    return outs
