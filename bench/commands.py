"""``companion bench ...``: every benchmark, registered by ``companion_cli``.

The measuring rigs live here, beside the product packages; they may import any of them,
none of them imports ``bench`` (tests/test_architecture.py). Heavy imports (OpenCV,
reportlab, Flask, Playwright) happen only inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.registry import GAMES


def register(cli: Any) -> None:
    """Add every benchmark to ``cli``."""
    b = cli.bench("engine", "events, adjudications and clone-and-apply per second of every "
                  "game on one core; WuXing against a bare referee of the same rules", _engine)
    b.add_argument("--game", choices=list(GAMES), action="append")
    b.add_argument("--games", type=int, default=200)
    b.add_argument("--seed", type=int, default=7)
    b.add_argument("--repeat", type=int, default=3, help="rounds per figure (the best one)")

    b = cli.bench("report", "simulated games per second for a playtest report, on one core and "
                  "on every core (10,000 WuXing games by default)", _report)
    b.add_argument("--game", choices=list(GAMES), default="wuxing")
    b.add_argument("--players", type=int, default=2)
    b.add_argument("--games", type=int, default=10_000)
    b.add_argument("--policy", choices=["random", "uniform", "greedy"], default="random")

    b = cli.bench("print", "time and file size of the full set of all five games on A4 and "
                  "Letter", _print)
    b.add_argument("--backs", default="long-edge", choices=["none", "long-edge", "short-edge"])
    b.add_argument("--repeat", type=int, default=3, help="builds per job (median and min)")
    b.add_argument("--pod", action="append", choices=["mpc", "dtc"],
                   help="also time the print-on-demand export of all five games (repeatable)")

    b = cli.bench("cv", "camera pipeline: recall, tracking, false reads, ms per frame, real "
                  "photos", _camera)
    b.add_argument("--frames", type=int, default=30,
                   help="scenes per resolution and card count (default 30)")
    b.add_argument("--track-frames", type=int, default=5, help="N of 'read within N frames'")
    b.add_argument("--decoder", choices=("zxing", "pyzbar", "both"), default="both")
    b.add_argument("--photos", metavar="DIR", help="the qr-photos data set (default: "
                   "../shared/datasets/qr-photos next to the repository, if there)")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    b.add_argument("--dump", metavar="DIR", help="save the first frame of every scene with a "
                   "card not read within N frames")
    b.add_argument("--table", type=int, choices=(8,), help="instead: the whole table of an "
                   "8-player game at 1080p, 4K and the Pi camera's full sensor, in normal and "
                   "dim light, glare and with a hand, then hands and piles filmed")
    b.add_argument("--views", default="1080p,4K,Pi 4608,1080p no mat",
                   help="--table: which views (comma-separated: 1080p, 4K, Pi 4608, "
                   "1080p no mat)")
    b.add_argument("--lights", default="normal,dim,glare,hand",
                   help="--table: which lights (comma-separated)")
    b.add_argument("--moments", type=int, default=2,
                   help="--table: films of each moment (hand, pile, taken away; 0: none)")
    b.add_argument("--brisk", type=int, default=0, metavar="N",
                   help="instead: brisk play (C-9) filmed N times per view (--views 1080p, "
                   "720p) and light (--lights normal, dim, glare): lost and duplicate "
                   "scans, ghost cards, before and after C-9")

    b = cli.bench("photo", "phone photos of one printed card: read %%, wrong cards, ms per "
                  "photo at 1600x1200 and 12 MP", _photo)
    b.add_argument("--photos", type=int, default=400,
                   help="photos at 1600x1200 (half as many at 4032x3024; default 400)")
    b.add_argument("--size", choices=("both", "1600x1200", "4032x3024"), default="both")
    b.add_argument("--hostile", action="store_true",
                   help="instead: hostile uploads against companion serve: CPU per upload, "
                        "GET p95 under 50 uploads in flight, memory (issue 19)")
    b.add_argument("--threads", type=int, default=8, help="--hostile: server threads")
    b.add_argument("--uploads", type=int, default=50, help="--hostile: uploads in flight")
    b.add_argument("--attacker-nice", type=int, default=0, choices=range(20), metavar="N",
                   help="--hostile: the attacking process's nice value (19: as if the "
                        "attackers were other machines; default 0)")
    b.add_argument("--seed", type=int, default=1)

    b = cli.bench("web", "scan-to-phone latency with 20 phones, concurrent event streams, and "
                         "requests under 1,000 hostile streams and 200 slow clients",
                  _web)
    b.add_argument("--phones", type=int, default=20)
    b.add_argument("--scans", type=int, default=40)
    b.add_argument("--streams", type=int, default=200)
    b.add_argument("--hostile", type=int, default=1000,
                   help="idle event streams opened against companion serve (0: skip)")
    b.add_argument("--slow", type=int, default=200,
                   help="clients sending a body a byte at a time (0: skip)")
    b.add_argument("--database", default=None, metavar="URL",
                   help="postgresql://...: the many-process bench (a throwaway database: it "
                        "adds --tables tables) compared with SQLite in one process")
    b.add_argument("--processes", type=int, default=4,
                   help="serve processes sharing the database (with --database)")
    b.add_argument("--tables", type=int, default=1000, help="tables (with --database)")
    b.add_argument("--rate", type=float, default=50.0, help="scans/s (with --database)")
    b.add_argument("--seconds", type=float, default=60.0,
                   help="how long scans are sent (with --database)")
    f = cli.bench("flood", "floods at the default limits, memory with 3,000 stored tables "
                  "(idle ones leave), the list and a bad token, refusals with 9 pages open",
                  _flood)
    f.add_argument("--tables", type=int, default=3000)
    f.add_argument("--database", default=None, metavar="URL",
                   help="postgresql://... (a throwaway database: it adds 2x --tables tables)")
    s = cli.bench("pages", "screenshots of every game's big screen, referee page and phone",
                  _pages)
    s.add_argument("--out", default="screenshots", help="folder for the PNG files")
    s.add_argument("--game", action="append", help="only this game (repeatable)")
    ph = cli.bench("phones", "a phone as the live table camera: placed -> accepted at 5 fps, "
                  "and 4 phone cameras on one core", _phones)
    ph.add_argument("--scenes", type=int, default=30)
    ph.add_argument("--seconds", type=float, default=10.0)
    ph.add_argument("--seed", type=int, default=1)
    fi = cli.bench("film", "whole games filmed from the printed deck and mat, refereed by the "
                   "camera against companion serve: games equal to the direct game, "
                   "corrections, refusals, missed cards", _film)
    fi.add_argument("game", choices=list(GAMES))
    fi.add_argument("--players", type=int, default=3)
    fi.add_argument("--res", choices=("720p", "1080p"), default="720p")
    fi.add_argument("--pace", choices=("calm", "brisk"), default="calm")
    fi.add_argument("--games", type=int, default=1)
    fi.add_argument("--seed", type=int, default=1)
    fi.add_argument("--light", choices=("normal", "dim"), default="normal")
    fi.add_argument("--max-moves", type=int, default=None, metavar="M",
                    help="stop each game after M events of the direct game")
    fi.add_argument("--json", action="store_true", help="one JSON line per game and a total")
    fi.add_argument("--dump", metavar="DIR", help="save the frame of every card missed")
    la = cli.bench("ladder", "a skill ladder's cost: random games/s through OpenSpiel, search "
                   "simulations/s, the ladder's wall time (needs the design extra)", _ladder)
    la.add_argument("game", choices=list(GAMES))
    la.add_argument("--players", type=int, default=2)
    la.add_argument("--budgets", help="search simulations (default 10,30; God Num "
                    "25,100,400; Mountains 5,20)")
    la.add_argument("--games", type=int, default=16, help="games per pair (default 16)")
    la.add_argument("--workers", type=int, default=2)


def _engine(args: argparse.Namespace) -> int:
    from bench.engine import bench_engine
    from companion.registry import find_rules

    for game in args.game or list(GAMES):
        rules = find_rules(game)
        players = max(rules.min_players, min(4, rules.max_players))
        print(json.dumps(bench_engine(game, players, args.games, args.seed, args.repeat)),
              flush=True)
    return 0


def _report(args: argparse.Namespace) -> int:
    from bench.report import bench_report

    print(json.dumps(bench_report(args.game, args.players, args.games, args.policy)))
    return 0


def _ladder(args: argparse.Namespace) -> int:
    from design import ladder_budgets
    from report.ladder import check

    budgets = ([int(b) for b in args.budgets.split(",")] if args.budgets
               else list(ladder_budgets(args.game)))
    check(budgets, args.games)
    from bench.ladder import bench_ladder

    print(json.dumps(bench_ladder(args.game, args.players, budgets, args.games, args.workers)))
    return 0


def _print(args: argparse.Namespace) -> int:
    from bench.printing import bench_print

    for line in bench_print(args.backs, args.repeat, pods=tuple(args.pod or ())):
        print(line)
    return 0


def _camera(args: argparse.Namespace) -> int:
    from bench.camera import main

    return main(args)


def _photo(args: argparse.Namespace) -> int:
    if args.hostile:
        from bench.hostile import run_hostile

        return run_hostile(threads=args.threads, uploads=args.uploads,
                           attacker_nice=args.attacker_nice)
    from bench.photos import main

    return main(args)


def _pages(args: argparse.Namespace) -> int:
    import importlib.util
    import shutil

    # Playwright and Chromium are the test set-up's (they are large); say so in one line
    # rather than a traceback after ./scripts/run alone (issue 29 §9).
    if importlib.util.find_spec("playwright") is None or shutil.which("chromium") is None:
        print("companion bench pages drives Debian's Chromium through Playwright: run "
              "./scripts/setup test once (it installs both), then run this again",
              file=sys.stderr)
        return 2
    from bench.pages import run_bench

    return run_bench(args.out, args.game)


def _web(args: argparse.Namespace) -> int:
    if args.database:
        from bench.scale import run_scale_bench

        return run_scale_bench(args.database, args.processes, args.tables,
                               max(args.streams, 2 * args.tables), args.rate, args.seconds)
    from bench.serving import run_bench

    return run_bench(phones=args.phones, scans=args.scans, streams=args.streams,
                     hostile=args.hostile, slow=args.slow)


def _flood(args: argparse.Namespace) -> int:
    from bench.flood import run_flood_bench

    return run_flood_bench(args.tables, args.database)


def _phones(args: argparse.Namespace) -> int:
    from bench.phones import run_bench

    return run_bench(scenes_n=args.scenes, seconds=args.seconds, seed=args.seed)


def _film(args: argparse.Namespace) -> int:
    from bench.film.bench import run_bench

    return run_bench(args)
