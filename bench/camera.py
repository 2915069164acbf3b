"""``companion bench cv``: figures for the camera pipeline (printed; not a timed test).

Scenes of the standard position (camera about 70 cm above the 80 x 45 cm mat, a card about
100 px wide at 1280x720 and 150 px at 1920x1080), tilt 0-35 degrees, blur sigma 0-1 px,
uneven light, noise, JPEG; 2-8 cards, each in a zone of the WuXing 8-seat mat, plus in
every other scene a QR code that is not a card and a card of another print run. Each scene
is filmed for 8 frames at 30 fps (a still table: new noise, flicker and a sub-pixel shake
per frame). Reported per resolution and card count:

* recall per frame: cards read in the first frame of each scene;
* read within N frames: cards read at least once in the first N frames (tracking);
* placed within 250 ms: cards whose scan (right zone) left the tracker within 8 frames
  at 30 fps, counting the processing time of the frame that placed them;
* false reads: a card reported that is not on the table, or a placement in a wrong zone;
* ms per frame (``CardReader.read``, BGR frame in, one thread), median and p90, by the
  wall clock and as CPU time of the thread (the work itself, without the time other
  processes of a shared machine held the core).

Then the raw decode count on the ZXing real photos (``qr-photos``).

``--brisk N``: instead, brisk play filmed (``bench_brisk``): lost and duplicate scans of
today's tracker and of the one before C-9.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench import scenes, sequences
from companion.cards import load_deck
from companion.runs import RunBook, new_run
from cv.detect import CardReader, make_decoder
from cv.tracker import Tracker, TrackerConfig
from cv.zones import MatLocator, MatZones

SIZES = ((1280, 720), (1920, 1080))
CARD_COUNTS = (2, 4, 6, 8)
FPS = 30.0
FRAMES_PER_SCENE = 8  # 8 frames at 30 fps = the 250 ms a scan may take


def _pct(xs: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs), q)) if xs else float("nan")


def _distractors(renderer: scenes.SceneRenderer, other_payload: str,
                 rng: random.Random) -> list[scenes.PlacedCard]:
    """A non-card QR code and a card from another print run, between the zones."""
    return [scenes.PlacedCard("HTTP://EX.ORG/N1", 245 + rng.uniform(-5, 5), 225,
                              rng.uniform(0, 360)),
            scenes.PlacedCard(other_payload, 565 + rng.uniform(-5, 5), 225,
                              rng.uniform(0, 360))]


def bench_scenes(decoder: str, frames: int, track_n: int, seed: int,
                 full: bool = True, dump: Path | None = None) -> list[dict[str, Any]]:
    """One row per (resolution, card count)."""
    rng = random.Random(seed)
    deck = load_deck("wuxing")
    run = new_run(deck, sets=2, rng=random.Random(seed))
    other = new_run(deck, rng=random.Random(seed + 1000))
    renderer = scenes.SceneRenderer("wuxing", 8, face=scenes.default_face_renderer([run, other]))
    locator = MatLocator()
    rows = []
    for size in SIZES:
        for k in CARD_COUNTS:
            reader = CardReader(make_decoder(decoder), runbook=RunBook([run]))
            cards_total = read_first = read_n = placed_ok = placed_250 = 0
            false_reads = wrong_zone = 0
            ms: list[float] = []
            cpu_ms: list[float] = []
            locate_ms: list[float] = []
            relocate_ms: list[float] = []
            latencies: list[float] = []
            missed: list[dict[str, Any]] = []
            for i in range(frames):
                cards = scenes.random_cards(run, k, "wuxing", 8, rng)
                extra = (_distractors(renderer, rng.choice(other.cards).payload, rng)
                         if i % 2 else [])
                h = scenes.random_camera(size, rng)
                look = scenes.random_look(rng)
                want = {c.payload: c.zone for c in cards}
                cards_total += len(cards)
                tracker = Tracker()
                seen: set[str] = set()
                placed_at: dict[str, int] = {}
                n_frames = FRAMES_PER_SCENE if full else 1
                zones = None
                first = None
                for f in range(n_frames):
                    image = renderer.render(cards + extra, h, size, look if f == 0 else
                                            scenes.jitter(look, rng), rng)
                    if f == 0:
                        first = image
                        t0 = time.perf_counter()
                        pose = locator.locate(image)
                        locate_ms.append((time.perf_counter() - t0) * 1000)
                        if pose is not None:
                            t0 = time.perf_counter()
                            locator.locate(image, pose)
                            relocate_ms.append((time.perf_counter() - t0) * 1000)
                        zones = MatZones(pose, "wuxing", 8) if pose else None
                        tracker.zone_of = zones.zone_of if zones else (lambda p: None)
                        tracker.require_zone = True
                    t0, c0 = time.perf_counter(), time.thread_time()
                    got = reader.read(image, zones.regions() if zones else ())
                    dt = (time.perf_counter() - t0) * 1000
                    ms.append(dt)
                    cpu_ms.append((time.thread_time() - c0) * 1000)
                    payloads = {s.payload for s in got}
                    false_reads += len(payloads - set(want))
                    if f == 0:
                        read_first += len(payloads & set(want))
                    if f < track_n:
                        seen |= payloads & set(want)
                    for e in tracker.update(f + 1, f / FPS, got):
                        if e.kind != "placed":
                            continue
                        if want.get(e.payload) != e.zone:
                            wrong_zone += 1
                            continue
                        placed_at.setdefault(e.payload, f)
                        latencies.append(f / FPS * 1000 + dt)
                read_n += len(seen)
                for c in cards:
                    if full and c.payload not in seen:
                        where = scenes.project(h, np.array([[c.x, c.y]]))[0]
                        missed.append({"scene": i, "zone": c.zone, "payload": c.payload,
                                       "blur": round(look.blur, 2),
                                       "at_px": [round(float(v)) for v in where]})
                        if dump is not None and first is not None:
                            dump.mkdir(parents=True, exist_ok=True)
                            cv2.imwrite(str(dump / f"{size[0]}x{size[1]}-k{k}-s{i}.png"), first)
                placed_ok += len(placed_at)
                placed_250 += sum(1 for f in placed_at.values()
                                  if f / FPS * 1000 + statistics.median(ms[-n_frames:]) <= 250)
            rows.append({
                "decoder": decoder, "size": f"{size[0]}x{size[1]}", "cards": k,
                "scenes": frames, "cards_total": cards_total,
                "recall_frame": read_first / cards_total,
                f"read_within_{track_n}": read_n / cards_total if full else None,
                "placed_within_250ms": placed_250 / cards_total if full else None,
                "latency_ms_median": statistics.median(latencies) if latencies else None,
                "false_reads": false_reads, "wrong_zone": wrong_zone,
                "ms_median": statistics.median(ms), "ms_p90": _pct(ms, 90),
                "cpu_ms_median": statistics.median(cpu_ms), "cpu_ms_p90": _pct(cpu_ms, 90),
                "locate_ms_median": statistics.median(locate_ms),
                "relocate_ms_median": statistics.median(relocate_ms) if relocate_ms else None,
                "ignored": dict(reader.stats.ignored),
                "missed": missed,
            })
    return rows


def bench_photos(decoder: str, root: Path) -> dict[str, Any]:
    """Exact decodes on the qr-photos set (all images, and those with ASCII payloads)."""
    dec = make_decoder(decoder)
    total = ascii_total = ok = ascii_ok = 0
    ms = []
    for img_path in sorted(root.glob("qrcode-*/*.png")):
        txt = img_path.with_suffix(".txt")
        if not txt.is_file():
            continue
        # Line endings: some payloads hold CR LF while the stored .txt files hold LF
        # (line-ending normalisation when the files were copied); compare without it.
        expected = txt.read_text(encoding="utf-8").replace("\r\n", "\n")
        gray = cv2.imread(str(img_path), cv2.IMREAD_GRAYSCALE)
        if gray is None:
            continue
        total += 1
        is_ascii = expected.isascii()
        ascii_total += is_ascii
        t0 = time.perf_counter()
        texts = {c.text.replace("\r\n", "\n") for c in dec.decode(gray)}
        ms.append((time.perf_counter() - t0) * 1000)
        if expected in texts:
            ok += 1
            ascii_ok += is_ascii
    return {"decoder": decoder, "images": total, "correct": ok, "ascii_images": ascii_total,
            "ascii_correct": ascii_ok, "ms_median": statistics.median(ms) if ms else None}


def _photos_dir(arg: str | None) -> Path | None:
    if arg:
        return Path(arg)
    here = Path(__file__).resolve().parent.parent  # the repository
    for candidate in (Path.cwd().parent / "shared" / "datasets" / "qr-photos",
                      here.parent / "shared" / "datasets" / "qr-photos"):
        if candidate.is_dir():
            return candidate
    return None


# Tracking before C-9 (issue 26 §3): removed only after 1.5 s of bare place, never for a
# card laid over it, and a card read again where it lay was the same placement.
BEFORE_C9 = TrackerConfig(bare_after_s=1.5, cover_share=2.0, back_after_bare=10**9)
BRISK_LIGHTS = ("normal", "dim", "glare")
BRISK_VIEWS = {"1080p": ((1920, 1080), (60.0, 85.0)), "720p": ((1280, 720), (80.0, 100.0))}


def bench_brisk(n: int, seed: int, views: Sequence[str] = ("1080p",),
                configs: dict[str, TrackerConfig] | None = None,
                lights: Sequence[str] = ("normal",)) -> list[dict[str, Any]]:
    """Brisk play (``sequences.brisk_moments``: cards still 0.4 s, the next laid 0.7 s after
    a collection) and, as a control, a hand over two cards for 3 s, filmed ``n`` times per
    view on the 8-seat WuXing mat with random tilt (0-30 degrees), blur and light at 30 fps,
    replayed through the reader and each tracker of ``configs`` (default: today's and the
    one before C-9). Per moment: placements a referee should get, lost and duplicate scans,
    ghosts (cards still placed at the end that are not on the table), false reads, and for
    the hand, removals (there should be none)."""
    run = new_run(load_deck("wuxing"), sets=2, run_id="BR1S", rng=random.Random(seed))
    renderer = scenes.SceneRenderer("wuxing", 8, face=scenes.default_face_renderer([run]))
    configs = configs or {"C-9": TrackerConfig(), "before": BEFORE_C9}
    rng = random.Random(seed)
    rows: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for view, light in ((v, li) for v in views for li in lights):
        size, card_px = BRISK_VIEWS[view]
        for _ in range(n):
            h = scenes.random_camera(size, rng, 30.0, card_px=card_px)
            look = scenes.random_look(rng, 0.7, light)
            payloads = [c.payload for c in rng.sample(list(run.cards), 14)]
            films = sequences.brisk_moments(renderer, payloads, h, size, look, rng)
            table = scenes.random_cards(run, 8, "wuxing", 8, rng)
            films.append(sequences.Brisk(
                "hand over two cards, 3 s", sequences.hand_over_plan(table),
                [(c.payload, c.zone or "") for c in table],
                sequences.filmer(renderer, h, size, look, rng.randrange(2**31))))
            for film in films:
                names = list(configs)
                outs = sequences.replay_many(
                    film.shots(), CardReader(make_decoder("zxing"), runbook=RunBook([run])),
                    [Tracker(configs[name]) for name in names])
                for name, out in zip(names, outs, strict=True):
                    lost, dup = out.lost_and_doubled(film.expected)
                    row = rows.setdefault((view, light, film.name, name), {
                        "view": view, "light": light, "moment": film.name, "tracker": name,
                        "films": 0,
                        "placements": 0, "lost": 0, "duplicate": 0, "ghosts": 0,
                        "false_reads": 0, "removals": 0, "cpu_ms": []})
                    row["films"] += 1
                    row["placements"] += len(film.expected)
                    row["lost"] += lost
                    row["duplicate"] += dup
                    row["ghosts"] += len(out.ghosts)
                    row["false_reads"] += out.false_reads
                    row["removals"] += len(out.removals)
                    row["cpu_ms"] += out.cpu_ms
    out_rows = []
    for row in rows.values():
        cpu = row.pop("cpu_ms")
        row["cpu_ms_median"], row["cpu_ms_p90"] = statistics.median(cpu), _pct(cpu, 90)
        out_rows.append(row)
    return out_rows


def print_brisk(rows: Sequence[dict[str, Any]]) -> None:
    print(f"{'view':6} {'light':6} {'moment':30} {'tracker':7} {'films':>5} {'scans':>5} "
          f"{'lost':>4} {'dup':>4} {'ghost':>5} {'false':>5} {'remov':>5} {'cpu med':>7} "
          f"{'cpu p90':>7}")
    for r in rows:
        print(f"{r['view']:6} {r['light']:6} {r['moment']:30} {r['tracker']:7} {r['films']:>5} "
              f"{r['placements']:>5} {r['lost']:>4} {r['duplicate']:>4} {r['ghosts']:>5} "
              f"{r['false_reads']:>5} {r['removals']:>5} {r['cpu_ms_median']:>7.2f} "
              f"{r['cpu_ms_p90']:>7.2f}")


def _fmt(v: Any, pct: bool = False) -> str:
    if v is None:
        return "-"
    return f"{100 * v:.1f}%" if pct else f"{v:.2f}"


def main(args: argparse.Namespace) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    if getattr(args, "brisk", 0):
        views = [v.strip() for v in args.views.split(",") if v.strip() in BRISK_VIEWS]
        print(f"Brisk play (cards still 0.4 s, the next laid 0.7 s after a collection), "
              f"{args.brisk} film(s) of each moment per view, 8-seat WuXing mat, 30 fps:")
        lights = [v.strip() for v in args.lights.split(",") if v.strip() in BRISK_LIGHTS]
        brisk = bench_brisk(args.brisk, args.seed, views or ["1080p"],
                            lights=lights or ["normal"])
        print_brisk(brisk)
        if args.json:
            Path(args.json).write_text(json.dumps(brisk, indent=1), encoding="utf-8")
        return 0
    if args.table:
        from bench.camera_table import LIGHTS, STILLS, VIEWS, run_table

        views = [v.strip() for v in args.views.split(",") if v.strip()]
        lights = [v.strip() for v in args.lights.split(",") if v.strip()]
        bad = ([v for v in views if v not in VIEWS and v != STILLS]
               + [v for v in lights if v not in LIGHTS])
        if bad:
            print(f"companion bench cv: unknown view or light {bad[0]!r}; views "
                  f"{', '.join(VIEWS)}, {STILLS}; lights {', '.join(LIGHTS)}")
            return 2
        table = run_table(args.frames, args.seed, views, lights, args.moments)
        if args.json:
            Path(args.json).write_text(json.dumps(table, indent=1), encoding="utf-8")
        return 0
    decoders = ["zxing", "pyzbar"] if args.decoder == "both" else [args.decoder]
    n = args.track_frames
    out: dict[str, Any] = {"scenes": [], "photos": []}
    face = ("faces from the printed PDF" if scenes.printed_faces_available()
            else "synthetic faces (printables cannot draw faces)")
    print(f"Scenes: standard position, tilt 0-35 deg, blur 0-1 px, {args.frames} scenes per "
          f"cell, {FRAMES_PER_SCENE} frames each, {face}; one thread.")
    header = (f"{'decoder':7} {'size':9} {'K':>2} {'per frame':>9} {'in ' + str(n) + ' fr':>8} "
              f"{'<=250ms':>8} {'false':>5} {'zone!':>5} {'ms med':>7} {'ms p90':>7} "
              f"{'cpu p90':>7} "
              f"{'mat ms':>7} {'re-mat':>6}")
    print(header)
    for d in decoders:
        # pyzbar is ten times slower: measure its per-frame recall and time only.
        rows = bench_scenes(d, args.frames if d == "zxing" else max(5, args.frames // 3),
                            n, args.seed, full=(d == "zxing"),
                            dump=Path(args.dump) if args.dump else None)
        out["scenes"].extend(rows)
        for r in rows:
            print(f"{d:7} {r['size']:9} {r['cards']:>2} {_fmt(r['recall_frame'], True):>9} "
                  f"{_fmt(r[f'read_within_{n}'], True):>8} "
                  f"{_fmt(r['placed_within_250ms'], True):>8} {r['false_reads']:>5} "
                  f"{r['wrong_zone']:>5} {r['ms_median']:>7.2f} {r['ms_p90']:>7.2f} "
                  f"{r['cpu_ms_p90']:>7.2f} "
                  f"{r['locate_ms_median']:>7.2f} {_fmt(r['relocate_ms_median']):>6}")
        for size in ("1280x720", "1920x1080"):
            sub = [r for r in rows if r["size"] == size]
            tot = sum(r["cards_total"] for r in sub)
            rec = sum(r["recall_frame"] * r["cards_total"] for r in sub) / tot
            line = f"{d:7} {size:9} all: per frame {100 * rec:.2f}%"
            if sub[0][f"read_within_{n}"] is not None:
                rn = sum(r[f"read_within_{n}"] * r["cards_total"] for r in sub) / tot
                p250 = sum(r["placed_within_250ms"] * r["cards_total"] for r in sub) / tot
                line += f", within {n} frames {100 * rn:.2f}%, placed <=250 ms {100 * p250:.2f}%"
            ms = [r["ms_median"] for r in sub]
            line += (f", false reads {sum(r['false_reads'] for r in sub)}, ms median "
                     f"{min(ms):.2f}-{max(ms):.2f}, p90 max {max(r['ms_p90'] for r in sub):.2f} "
                     f"(CPU time: median max {max(r['cpu_ms_median'] for r in sub):.2f}, "
                     f"p90 max {max(r['cpu_ms_p90'] for r in sub):.2f})")
            print(line)
        for r in rows:
            for m in r["missed"]:
                print(f"  not read in {n} frames: {r['size']} K={r['cards']} scene {m['scene']}"
                      f" {m['zone']} at {m['at_px']} px, blur {m['blur']}")
    photos = _photos_dir(args.photos)
    if photos is None or not photos.is_dir():
        print("real photos: not found (pass --photos DIR)")
    else:
        for d in decoders:
            p = bench_photos(d, photos)
            out["photos"].append(p)
            print(f"real photos ({d}): {p['ascii_correct']}/{p['ascii_images']} ASCII, "
                  f"{p['correct']}/{p['images']} all, median {p['ms_median']:.2f} ms/image")
    zx = [r for r in out["scenes"] if r["decoder"] == "zxing"]
    if zx:
        m720 = max(r["ms_median"] for r in zx if r["size"] == "1280x720")
        m1080 = max(r["ms_median"] for r in zx if r["size"] == "1920x1080")
        print(f"Raspberry Pi 4 (estimate, not measured): one Cortex-A72 core is 3-5x slower "
              f"than this core: ~{3 * m720:.0f}-{5 * m720:.0f} ms per 720p frame, "
              f"~{3 * m1080:.0f}-{5 * m1080:.0f} ms per 1080p frame, i.e. about "
              f"{1000 / (5 * m720):.0f}-{1000 / (3 * m720):.0f} fps at 720p on one core.")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0
