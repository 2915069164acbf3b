"""The explicit registry of games, and building a table's ``Setup`` from print runs.

Adding a game: one module in ``companion/games/`` exposing ``RULES``, one deck file in
``companion/data/decks/``, and one line in ``GAMES`` below.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.cards import load_deck
from companion.engine import Match, Rules, Setup
from companion.errors import BadSetup, UnknownGame
from companion.runs import PrintRun, new_run

GAMES: dict[str, str] = {
    "wuxing": "companion.games.wuxing",
    "godnum": "companion.games.godnum",
    "shrine": "companion.games.shrine",
    "mountains": "companion.games.mountains",
    "gemcomplete": "companion.games.gemcomplete",
}


def find_rules(name: str) -> Rules[Any]:
    """The rules of game ``name``; raises ``UnknownGame`` listing the known games."""
    if not isinstance(name, str) or name not in GAMES:
        raise UnknownGame(f"no game called {name!r}; the games are {', '.join(GAMES)}")
    rules: Rules[Any] = importlib.import_module(GAMES[name]).RULES
    return rules


def all_rules() -> list[Rules[Any]]:
    return [find_rules(n) for n in GAMES]


def build_setup(
    game: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None,
    runs: Sequence[PrintRun],
) -> Setup:
    """A validated table setup; raises ``BadSetup``/``UnknownGame`` naming the problem."""
    rules = find_rules(game)
    opts = rules.configure(players, options)
    if not runs:
        raise BadSetup(f"a {rules.title} table needs at least one print run")
    cards = {}
    sets = {}
    printed: set[tuple[str, int]] = set()  # (deck, set number) pairs the runs hold
    for run_no, run in enumerate(runs):
        if run.game != game:
            raise BadSetup(f"print run {run.run_id!r} is for {run.game}, not {game}")
        for c in run.cards:
            cards[c.serial] = c.face
            # Sets are numbered per run; make them distinct across runs.
            key = (c.deck, c.set_no + 1000 * run_no)
            printed.add(key)
            sets[c.serial] = key[1]
    for deck, need in rules.sets_needed(len(players)).items():
        have = sum(1 for d, _ in printed if d == deck)
        if have < need:
            raise BadSetup(
                f"{len(players)} players need {need} printed set(s) of the {deck} deck; "
                f"the print runs hold {have}"
            )
    return Setup(game, tuple(players), opts, cards, load_deck(game), sets)


def demo_run(game: str, players: int, rng: random.Random | None = None) -> PrintRun:
    """A print run with exactly the sets a table of ``players`` needs (tests, simulations)."""
    rules = find_rules(game)
    need = rules.sets_needed(players)
    return new_run(load_deck(game), decks=list(need), sets_per_deck=need, rng=rng)


def new_match(
    game: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    runs: Sequence[PrintRun] | None = None,
    rng: random.Random | None = None,
) -> Match[Any]:
    """A fresh match; without ``runs`` a demo run is numbered for it."""
    runs = list(runs) if runs else [demo_run(game, len(players), rng)]
    return Match(find_rules(game), build_setup(game, players, options, runs))
