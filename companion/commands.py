"""Subcommands of the pure core: ``simulate``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.registry import GAMES


def register(cli: Any) -> None:
    p = cli.command(
        "simulate",
        "play legal games through the engine (random or greedy players) and print a JSON "
        "summary",
        _simulate,
    )
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a ruling option (JSON value), e.g. --option end='\"recycle\"'",
    )
    p.add_argument("--policy", choices=["random", "uniform", "greedy"], default="random",
                   help="the simulated players: random legal plays of the rules, uniform (any "
                   "legal move of a player's own seat alike) or greedy (a one-step "
                   "look-ahead of the rules; see companion report)")


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"companion: --option {pair!r} is not NAME=VALUE")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _simulate(args: argparse.Namespace) -> int:
    from companion.simulate import simulate

    if args.games < 1:
        raise SystemExit("companion: --games must be at least 1")
    from companion.progress import progress

    # The summary is JSON on stdout: the bar shows only on a terminal (stderr).
    with progress(args.games, "simulating", "games") as bar:
        summary = simulate(args.game, args.players, args.games, args.seed,
                           _options(args.option), policy=args.policy, progress=bar)
    print(json.dumps(summary, indent=2))
    return 0

