"""``companion report``: the designer's playtest report (registered by ``companion_cli``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from companion.errors import BadSetup
from companion.playtest import MAX_EVENTS
from companion.progress import progress
from companion.registry import GAMES


def register(cli: Any) -> None:
    p = cli.command("report", "a playtest report: many simulated games (and recorded real "
                    "ones) as one HTML file with plots: seats, first player, length, cards, "
                    "whether decisions matter", _report)
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--players", default="2", metavar="N[,N...]",
                   help="players (default 2); several, e.g. 2,3,4, add each count's game "
                   "length, seats and sides (the first count gets the whole report)")
    p.add_argument("--games", type=int, default=1000, help="games per set (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="same seed, same report")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a ruling option (JSON value), e.g. --option end='\"recycle\"'")
    p.add_argument("--compare", metavar="NAME=A,B", help="the same figures side by side for "
                   "each value of one option, e.g. --compare end=count,recycle")
    p.add_argument("--policy", choices=["random", "uniform", "greedy"], default="random",
                   help="the simulated players: random (default: the rules' own random play, "
                   "from the player's own seat), uniform (any legal move alike) or greedy "
                   "(a one-step look-ahead)")
    p.add_argument("--from-data", metavar="DIR", help="add the games recorded at real tables "
                   "in this data dir")
    p.add_argument("--out", default="report.html", help="the HTML file (default report.html)")
    p.add_argument("--json", action="store_true", help="also print the figures as JSON")
    p.add_argument("--workers", type=int, help="processes (default: every core)")
    p.add_argument("--max-events", type=int, default=MAX_EVENTS, help="a game still going "
                   f"after this many events did not end (default {MAX_EVENTS:,})")
    p.add_argument("--decision-games", type=int, help="games with one greedy player "
                   "(default: --games, at most 1000)")
    p.add_argument("--ladder", action="store_true", help="add a skill ladder: random, greedy "
                   "and OpenSpiel search players rated (needs the design extra)")
    p.add_argument("--ladder-budgets", metavar="N,N",
                   help="the search players' simulations per decision (default 10,30; "
                   "God Num 25,100,400; Mountains 5,20)")
    p.add_argument("--ladder-games", type=int, default=16, help="games per pair of ladder "
                   "players (default 16)")


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _ladder(args: argparse.Namespace) -> tuple[tuple[int, ...], int] | None:
    """``--ladder``'s budgets and games; fails at once without OpenSpiel."""
    if not args.ladder:
        return None
    from design import ladder_budgets
    from report.ladder import check

    try:
        budgets = (tuple(int(b) for b in args.ladder_budgets.split(","))
                   if args.ladder_budgets else ladder_budgets(args.game))
    except ValueError:
        raise BadSetup(f"--ladder-budgets {args.ladder_budgets!r} is not N,N,...") from None
    check(budgets, args.ladder_games)
    return budgets, args.ladder_games


def _counts(text: str) -> tuple[int, ...]:
    """``--players 3`` or ``--players 2,3,4``: the first count gets the whole report."""
    try:
        counts = tuple(int(t) for t in text.split(","))
    except ValueError:
        raise BadSetup(f"--players must be a number or numbers like 2,3,4, got {text!r}") \
            from None
    if len(set(counts)) != len(counts):
        raise BadSetup(f"--players names a count twice: {text!r}")
    return counts


def _report(args: argparse.Namespace) -> int:
    from companion.commands import _options
    from report.build import Request, build

    compare = None
    if args.compare:
        name, sep, values = args.compare.partition("=")
        if not sep or not name:
            raise SystemExit(f"companion: --compare {args.compare!r} is not NAME=A,B")
        compare = (name, tuple(_value(v) for v in values.split(",")))
    if args.from_data and not os.path.isdir(args.from_data):
        raise BadSetup(f"--from-data {args.from_data!r} is not a folder")
    counts = _counts(args.players)
    req = Request(args.game, counts[0], args.games, args.seed, _options(args.option),
                  compare, args.policy, args.from_data, args.workers, args.decision_games,
                  sweep=counts[1:], max_events=args.max_events, ladder=_ladder(args))
    # Open the output before minutes of simulation, so an unwritable --out fails at once
    # (issue 30 §6).
    tmp = f"{args.out}.tmp"
    try:
        f = open(tmp, "w", encoding="utf-8")  # noqa: SIM115 (written after the build)
    except OSError as e:
        raise BadSetup(f"cannot write --out {args.out!r}: {e.strerror}") from e
    t0 = time.perf_counter()
    try:
        with f, progress(req.steps(), "simulating", "games", json_output=args.json) as bar:
            req.progress = bar
            text, figures = build(req)
            f.write(text)
    except BaseException:
        os.unlink(tmp)
        raise
    os.replace(tmp, args.out)
    done = f"wrote {args.out} ({len(text) // 1024} KiB) in {time.perf_counter() - t0:.1f} s"
    if args.json:
        # --json: stdout carries only the JSON; the summary line goes to stderr.
        print(json.dumps(figures, indent=1))
        print(done, file=sys.stderr)
    else:
        print(done)
    return 0
