"""``companion bench cv --table 8``: the whole table of an 8-player game seen at once.

The WuXing 8-seat mat seen whole from far enough that a card is 60-85 px wide at
1920x1080 and 110-150 px at 3840x2160 (and the same view on the Pi Camera 3's full
4608x2592 sensor), tilted 0-30 degrees, blur sigma 0-0.7 px; each in four lights:

* ``normal``: gain 0.6-1.1, noise sigma 2-6;
* ``dim``: 35-60 % exposure, noise sigma 5-9;
* ``glare``: a lamp's reflection up to white over part of the table;
* ``hand``: normal light and a hand (with its forearm) over a random card, drifting.

Eight cards, one in each seat (or the Universe), every scene filmed for 5 frames at 30 fps.
Recall counts the cards whose code is in full view (not under the hand) in at least one
of the 5 frames; a false read is a payload reported that is not on the table. Time per
frame is ``CardReader.read`` on one thread, plus the JPEG decode at 4K (a 4K USB camera
sends MJPEG, decoded as ``CameraSource`` does, at half size; the Pi camera hands over its
Y plane, no decoding): wall clock and CPU time
of the thread, the p90 also over the frames after each scene's first (a table at play
changes one card at a time; a scene's first frame meets eight new cards at once). Then
the filmed moments (``cv.sequences``) at 1080p: a hand over
two cards for 3 s, five cards dropped on the pot, a card taken away.

``--views stills`` (``bench_stills``) measures single stills instead: each 1080p still
(cards 60-85 px, 35-50 % exposure, noise sigma 5-9) read by a new reader that has seen
no frame before, so nothing is carried over from a last frame; and 4K MJPEG frames
decoded and read both ways, the whole frame decoded to grey and decoded at half size
(``cv.sources.decode_grey``), in turn on the same frames.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from bench import scenes, sequences
from companion.cards import load_deck
from companion.runs import PrintRun, RunBook, new_run
from cv.detect import CardReader, make_decoder
from cv.rectify import Region
from cv.sources import decode_grey
from cv.tracker import Tracker
from cv.zones import MatLocator, MatZones

# name -> (frame size, card width in px at the centre of an untilted view)
VIEWS: dict[str, tuple[tuple[int, int], tuple[float, float]]] = {
    "1080p": ((1920, 1080), (60.0, 85.0)),
    "4K": ((3840, 2160), (110.0, 150.0)),
    "Pi 4608": ((4608, 2592), (132.0, 180.0)),
    # The same 1080p view without the mat's zones (a table calibrated by hand, or the
    # markers out of view): the frame's busy patches are searched instead.
    "1080p no mat": ((1920, 1080), (60.0, 85.0)),
}
STILLS = "stills"  # --views stills: bench_stills instead of a view
LIGHTS = ("normal", "dim", "glare", "hand")
STILL_EXPOSURE = (0.35, 0.5)  # dim light of the stills: 35-50 % exposure
FRAMES = 5
FPS = 30.0


def _pct(xs: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs), q)) if xs else float("nan")


def _hand_over_one(cards: Sequence[scenes.PlacedCard], rng: random.Random
                   ) -> tuple[float, float, float]:
    target = rng.choice(list(cards))
    c = scenes.code_corners_mm(target).mean(axis=0)
    return (float(c[0]) + rng.uniform(-20, 20), float(c[1]) + rng.uniform(-20, 20), 55.0)


def bench_view(view: str, light: str, n_scenes: int, run: PrintRun,
               renderer: scenes.SceneRenderer, rng: random.Random) -> dict[str, Any]:
    """One row: recall within 5 frames, false reads, ms per frame for a view and a light."""
    size, card_px = VIEWS[view]
    # A 4K USB camera sends MJPEG, decoded here; the Pi camera hands over the Y plane.
    jpeg = view == "4K"
    grey = view.startswith("Pi")
    reader = CardReader(make_decoder("zxing"), runbook=RunBook([run]))
    locator = MatLocator()
    cards_total = read_n = read_first = false_reads = 0
    ms: list[float] = []
    cpu: list[float] = []
    steady: list[float] = []  # CPU time of the frames after a scene's first
    decode_cpu: list[float] = []
    missed: list[dict[str, Any]] = []
    for i in range(n_scenes):
        cards = scenes.random_cards(run, 8, "wuxing", 8, rng)
        h = scenes.random_camera(size, rng, 30.0, card_px=card_px)
        look = scenes.random_look(rng, 0.7, "normal" if light == "hand" else light)
        hand = _hand_over_one(cards, rng) if light == "hand" else None
        seen: set[str] = set()
        visible: set[str] = set()
        zones = None
        for f in range(FRAMES):
            frame_look = look if f == 0 else scenes.jitter(look, rng)
            hands: tuple[tuple[float, float, float], ...] = ()
            if hand is not None:
                hands = ((hand[0] + 3 * f, hand[1] - 2 * f, hand[2]),)
            frame_look.hands = hands
            image = renderer.render(cards, h, size, frame_look, rng)
            visible |= sequences.visible_codes(cards, hands)
            data = scenes.jpeg_bytes(image, look.jpeg) if jpeg else b""
            if grey:
                image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            wall0 = cpu0 = 0.0
            if jpeg:  # as CameraSource decodes it: to grey, at half size above 2000 px
                t0, c0 = time.perf_counter(), time.thread_time()
                decoded, _ = decode_grey(data)
                wall0, cpu0 = time.perf_counter() - t0, time.thread_time() - c0
                decode_cpu.append(cpu0 * 1000)
                image = decoded if decoded is not None else image
            if f == 0 and not view.endswith("no mat"):  # the mat is found once a second
                pose = locator.locate(image)
                zones = MatZones(pose, "wuxing", 8) if pose else None
            t0, c0 = time.perf_counter(), time.thread_time()
            got = reader.read(image, zones.regions() if zones else ())
            ms.append((time.perf_counter() - t0 + wall0) * 1000)
            cpu.append((time.thread_time() - c0 + cpu0) * 1000)
            if f:  # a table at play changes a card at a time, not all of it at once
                steady.append(cpu[-1])
            payloads = {s.payload for s in got}
            want = {c.payload for c in cards}
            false_reads += len(payloads - want)
            if f == 0:
                read_first += len(payloads & visible)
            seen |= payloads & want
        cards_total += len(visible)
        read_n += len(visible & seen)
        for c in cards:
            if c.payload in visible and c.payload not in seen:
                where = scenes.project(h, np.array([[c.x, c.y]]))[0]
                corners = scenes.project(h, scenes.code_corners_mm(c))
                missed.append({"scene": i, "zone": c.zone, "blur": round(look.blur, 2),
                               "code_px": round(float(np.hypot(*(corners[1] - corners[0]))), 1),
                               "at_px": [round(float(v)) for v in where]})
    return {"view": view, "size": f"{size[0]}x{size[1]}", "light": light, "scenes": n_scenes,
            "cards": cards_total, "recall_frame": read_first / max(1, cards_total),
            "read_within_5": read_n / max(1, cards_total), "false_reads": false_reads,
            "ms_median": statistics.median(ms), "ms_p90": _pct(ms, 90),
            "cpu_ms_median": statistics.median(cpu), "cpu_ms_p90": _pct(cpu, 90),
            "cpu_ms_p90_after_first": _pct(steady, 90),
            "jpeg_cpu_ms_median": statistics.median(decode_cpu) if decode_cpu else None,
            "missed": missed}


def bench_moments(n: int, run: PrintRun, renderer: scenes.SceneRenderer,
                  rng: random.Random) -> list[dict[str, Any]]:
    """The filmed moments at 1080p (cards 60-85 px), ``n`` of each."""
    size, card_px = VIEWS["1080p"]
    rows = []
    for kind in ("hand over two cards, 3 s", "five cards dropped on the pot",
                 "a card taken away"):
        placed_twice = removals_wrong = removals_missed = false_reads = unread = cards = 0
        cpu: list[float] = []
        for _ in range(n):
            table = scenes.random_cards(run, 8, "wuxing", 8, rng)
            h = scenes.random_camera(size, rng, 30.0, card_px=card_px)
            look = scenes.random_look(rng, 0.7)
            gone: str | None = None
            if kind.startswith("hand"):
                shots = sequences.hand_over(renderer, table, h, size, look, rng)
            elif kind.startswith("five"):
                seats = [c for c in table if c.zone != "universe"]
                taken = {c.payload for c in seats}
                pot = [c for c in scenes.pile(run, 9, (400, 225), rng)
                       if c.payload not in taken][:5]
                shots = sequences.dropped_on_pile(renderer, pot, h, size, look, rng,
                                                  others=seats, each_s=0.7)
            else:
                gone = table[0].payload
                shots = sequences.taken_away(renderer, table, h, size, look, rng, gone=0)
            out = sequences.replay(shots, CardReader(make_decoder("zxing"),
                                                     runbook=RunBook([run])), Tracker())
            cards += len(shots[0].on_table | shots[-1].on_table)
            placed_twice += sum(1 for v in out.placed.values() if v > 1)
            removals_wrong += sum(v for k, v in out.removed.items() if k != gone)
            removals_missed += int(gone is not None and out.removed.get(gone, 0) != 1)
            false_reads += out.false_reads
            unread += len(out.unread_visible)
            cpu += out.cpu_ms
        rows.append({"moment": kind, "runs": n, "cards": cards, "second_scans": placed_twice,
                     "wrong_removals": removals_wrong, "missed_removals": removals_missed,
                     "false_reads": false_reads, "visible_unread": unread,
                     "cpu_ms_median": statistics.median(cpu), "cpu_ms_p90": _pct(cpu, 90)})
    return rows


def still_scene(run: PrintRun, renderer: scenes.SceneRenderer, rng: random.Random,
                view: str = "1080p", light: str = "dim"
                ) -> tuple[list[scenes.PlacedCard], scenes.Image, scenes.Look, scenes.Image]:
    """One still of the whole 8-player table: the cards, the camera (mat mm -> px), the
    look and the BGR frame; dim light is 35-50 % exposure, noise sigma 5-9."""
    size, card_px = VIEWS[view]
    cards = scenes.random_cards(run, 8, "wuxing", 8, rng)
    h = scenes.random_camera(size, rng, 30.0, card_px=card_px)
    look = scenes.random_look(rng, 0.7, light, exposure=STILL_EXPOSURE)
    return cards, h, look, renderer.render(cards, h, size, look, rng)


def _located(image: scenes.Image) -> tuple[Region, ...]:
    pose = MatLocator().locate(image)
    return tuple(MatZones(pose, "wuxing", 8).regions()) if pose else ()


def _times(xs: Sequence[float]) -> dict[str, float]:
    return {"p50": _pct(xs, 50), "p95": _pct(xs, 95), "max": max(xs) if xs else float("nan")}


def bench_stills(n: int, run: PrintRun, renderer: scenes.SceneRenderer,
                 rng: random.Random) -> dict[str, Any]:
    """``n`` single 1080p stills in dim light, each read by a new reader (with the mat's
    zones, found in the still itself; finding them is timed apart), and ``n // 5`` 4K
    scenes (normal and dim light in turn, ``FRAMES`` frames each) sent as MJPEG and
    decoded and read both ways, in turn: the whole frame to grey, and at half size."""
    stills_read = cards = cards_read = false_reads = 0
    cpu: list[float] = []
    walls: list[float] = []
    locate: list[float] = []
    missed: list[dict[str, Any]] = []
    for i in range(n):
        cards_, h, look, image = still_scene(run, renderer, rng)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        c0 = time.thread_time()
        regions = _located(grey)
        locate.append((time.thread_time() - c0) * 1000)
        reader = CardReader(make_decoder("zxing"), runbook=RunBook([run]))
        t0, c0 = time.perf_counter(), time.thread_time()
        got = {s.payload for s in reader.read(grey, regions)}
        walls.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        want = {c.payload for c in cards_}
        false_reads += len(got - want)
        cards += len(want)
        cards_read += len(got & want)
        stills_read += got >= want
        for c in cards_:
            if c.payload not in got:
                corners = scenes.project(h, scenes.code_corners_mm(c))
                missed.append({"still": i, "zone": c.zone, "blur": round(look.blur, 2),
                               "gain": round(look.gain, 2),
                               "code_px": round(float(np.hypot(*(corners[1] - corners[0]))), 1)})
    paths = ("full", "half")
    dec: dict[str, list[float]] = {p: [] for p in paths}
    rd: dict[str, list[float]] = {p: [] for p in paths}
    tot: dict[str, list[float]] = {p: [] for p in paths}
    wall4k: dict[str, list[float]] = {p: [] for p in paths}
    first: dict[str, int] = {p: 0 for p in paths}
    within: dict[str, int] = {p: 0 for p in paths}
    false4k: dict[str, int] = {p: 0 for p in paths}
    same = cards4k = frames4k = 0
    size4k = VIEWS["4K"][0]
    for i in range(max(2, n // 5)):
        light = ("normal", "dim")[i % 2]
        cards_, h, look, image = still_scene(run, renderer, rng, "4K", light)
        want = {c.payload for c in cards_}
        cards4k += len(want)
        readers = {p: CardReader(make_decoder("zxing"), runbook=RunBook([run])) for p in paths}
        zones: dict[str, tuple[Region, ...]] = {}
        seen: dict[str, set[str]] = {p: set() for p in paths}
        for f in range(FRAMES):
            if f:
                image = renderer.render(cards_, h, size4k, scenes.jitter(look, rng), rng)
            data = scenes.jpeg_bytes(image, look.jpeg)
            frames4k += 1
            got4: dict[str, set[str]] = {}
            for p in (paths if (i + f) % 2 else paths[::-1]):  # neither always first
                t0, c0 = time.perf_counter(), time.thread_time()
                if p == "full":
                    frame: scenes.Image | None = cv2.imdecode(
                        np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
                else:
                    frame, _ = decode_grey(data)
                dec[p].append((time.thread_time() - c0) * 1000)
                if frame is None:
                    raise RuntimeError("a 4K frame of the bench did not decode")
                if p not in zones:  # the mat is found once a second, not timed
                    zones[p] = _located(frame)
                wall = (time.perf_counter() - t0) * 1000
                t0, c0 = time.perf_counter(), time.thread_time()
                got4[p] = {s.payload for s in readers[p].read(frame, zones[p])}
                rd[p].append((time.thread_time() - c0) * 1000)
                tot[p].append(dec[p][-1] + rd[p][-1])
                wall4k[p].append(wall + (time.perf_counter() - t0) * 1000)
                false4k[p] += len(got4[p] - want)
                if f == 0:
                    first[p] += len(got4[p] & want)
                seen[p] |= got4[p] & want
            same += got4["full"] == got4["half"]
        for p in paths:
            within[p] += len(seen[p])
    four_k = {"scenes": max(2, n // 5), "frames": frames4k, "cards": cards4k,
              "frames_same_cards": same,
              **{p: {"read_first_frame": first[p] / max(1, cards4k),
                     "read_within_frames": within[p] / max(1, cards4k),
                     "false_reads": false4k[p], "decode_cpu_ms": _times(dec[p]),
                     "read_cpu_ms": _times(rd[p]), "total_cpu_ms": _times(tot[p]),
                     "total_wall_ms": _times(wall4k[p])}
                 for p in paths}}
    return {"stills": n, "stills_read": stills_read / max(1, n), "cards": cards,
            "cards_read": cards_read / max(1, cards), "false_reads": false_reads,
            "cpu_ms": _times(cpu), "wall_ms": _times(walls), "locate_cpu_ms": _times(locate),
            "missed": missed, "4K": four_k}


def print_stills(r: dict[str, Any]) -> dict[str, Any]:
    """Prints ``bench_stills``'s figures; returns them."""
    def ms(t: dict[str, float]) -> str:
        return f"p50 {t['p50']:.1f} p95 {t['p95']:.1f} max {t['max']:.1f}"

    lo, hi = STILL_EXPOSURE
    print(f"Single stills of the whole 8-player table, 1080p, cards 60-85 px, "
          f"{100 * lo:.0f}-{100 * hi:.0f} % exposure, noise sigma 5-9, tilt 0-30 deg, blur "
          f"0-0.7 px; each read by a new reader, one thread (CPU ms of the thread).")
    print(f"1080p stills read whole: {100 * r['stills_read']:.2f} % of {r['stills']}; cards "
          f"read {100 * r['cards_read']:.2f} % of {r['cards']}; false reads "
          f"{r['false_reads']}; CPU ms {ms(r['cpu_ms'])}; wall ms {ms(r['wall_ms'])}; "
          f"finding the mat {ms(r['locate_cpu_ms'])}", flush=True)
    for m in r["missed"]:
        print(f"  not read: still {m['still']} {m['zone']}, code {m['code_px']} px wide, "
              f"blur {m['blur']}, exposure {m['gain']}")
    k = r["4K"]
    print(f"4K MJPEG frames (3840x2160, cards 110-150 px, normal and dim light): {k['scenes']} "
          f"scenes, {k['frames']} frames, {k['cards']} cards; the same cards read both ways in "
          f"{k['frames_same_cards']} of {k['frames']} frames")
    for p, name in (("full", "decoded whole to grey"), ("half", "decoded at half size")):
        q = k[p]
        print(f"  {name}: cards read in frame 1 {100 * q['read_first_frame']:.2f} %, within "
              f"{FRAMES} frames {100 * q['read_within_frames']:.2f} %, false reads "
              f"{q['false_reads']}; CPU ms per frame {ms(q['total_cpu_ms'])} (decode "
              f"{ms(q['decode_cpu_ms'])}; read {ms(q['read_cpu_ms'])}); wall "
              f"{ms(q['total_wall_ms'])}", flush=True)
    return r


def run_table(n_scenes: int, seed: int, views: Sequence[str] = tuple(VIEWS),
              lights: Sequence[str] = LIGHTS, moments: int = 2) -> dict[str, Any]:
    """Every view x light, then the moments; prints as it goes."""
    rng = random.Random(seed)
    deck = load_deck("wuxing")
    run = new_run(deck, sets=2, rng=random.Random(seed))
    renderer = scenes.SceneRenderer("wuxing", 8, face=scenes.default_face_renderer([run]))
    if STILLS in views:
        return {"stills": print_stills(bench_stills(n_scenes, run, renderer, rng))}
    print(f"Whole 8-player table: tilt 0-30 deg, blur 0-0.7 px, {n_scenes} scenes per cell, "
          f"{FRAMES} frames each, one thread; times include the JPEG decode at 4K.")
    print(f"{'view':12} {'size':9} {'light':6} {'cards':>5} {'frame 1':>7} {'in 5 fr':>7} "
          f"{'false':>5} {'ms med':>7} {'ms p90':>7} {'cpu med':>7} {'cpu p90':>7} "
          f"{'p90 2-5':>7} {'jpeg':>5}")
    rows = []
    for view in views:
        for light in lights:
            if (view == "Pi 4608" and light != "normal") or (
                    view == "1080p no mat" and light not in ("normal", "dim")):
                continue  # enough to show the cost and the reach
            r = bench_view(view, light, n_scenes, run, renderer, rng)
            rows.append(r)
            jp = f"{r['jpeg_cpu_ms_median']:.1f}" if r["jpeg_cpu_ms_median"] else "-"
            print(f"{view:12} {r['size']:9} {light:6} {r['cards']:>5} "
                  f"{100 * r['recall_frame']:>6.1f}% {100 * r['read_within_5']:>6.2f}% "
                  f"{r['false_reads']:>5} {r['ms_median']:>7.1f} {r['ms_p90']:>7.1f} "
                  f"{r['cpu_ms_median']:>7.1f} {r['cpu_ms_p90']:>7.1f} "
                  f"{r['cpu_ms_p90_after_first']:>7.1f} {jp:>5}", flush=True)
            for m in r["missed"]:
                print(f"  not read in 5 frames: scene {m['scene']} {m['zone']}, code "
                      f"{m['code_px']} px wide, blur {m['blur']}")
    moment_rows = bench_moments(moments, run, renderer, rng) if moments else []
    for m in moment_rows:
        print(f"moment: {m['moment']} x{m['runs']}: {m['cards']} cards, second scans "
              f"{m['second_scans']}, wrong removals {m['wrong_removals']}, missed removals "
              f"{m['missed_removals']}, false reads {m['false_reads']}, in view but unread "
              f"{m['visible_unread']}, CPU ms median {m['cpu_ms_median']:.1f} p90 "
              f"{m['cpu_ms_p90']:.1f}", flush=True)
    return {"views": rows, "moments": moment_rows}
