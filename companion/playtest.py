"""Playtests for designers (issue 22): many games between simulated players, and the
figures a designer asks of them: is a seat favoured, does the first player win more, how
long is a game, which card goes with winning.

Simulated players sit at a simulated table (``companion.seatplay``): hands are dealt once
and kept, cards are drawn one at a time from what each deck still holds, and a player
decides from its own seat only, choosing among ``seatplay.moves`` (every legal move made
from the cards it holds and what it sees):

- ``random``: a casual player, the rules' own random play (``Rules.random_play``: any
  legal play, with the habits its game gives it, e.g. a God Num player mostly lays a card
  that keeps the pot under the target) made from its own seat: the rules propose plays on
  tables the seat cannot tell from the real one until one is a move of its own, from the
  cards it holds (uniform over its moves if none is, after ``CASUAL_TRIES``);
- ``uniform``: any of those moves, each equally likely (the floor of the skill ladder; in
  God Num most legal moves are discards, so its games end within a few turns);
- ``greedy``: a one-step look-ahead. It imagines ``policy.SAMPLES`` tables it cannot tell
  from the real one (``seatplay.resample``: the other hands and the unseen decks drawn
  again), plays each move (of the types its game's ``policy.DECISIONS`` weighs) on each,
  and takes the move whose tables ``policy.value`` rates best for it on average (a bid by
  what the lot is worth: ``policy.judge``). Chance is never chosen: drawn cards, dice,
  the camera's reveals.

Every game is seeded by ``(seed, index)`` alone, so the same seed gives the same games
however many processes play them. All figures carry 95 % Wilson intervals.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from companion import playstats, seatplay
from companion.engine import Event, Rules, Setup
from companion.games.gemcomplete import policy as gemcomplete_policy
from companion.games.godnum import policy as godnum_policy
from companion.games.mountains import policy as mountains_policy
from companion.games.shrine import policy as shrine_policy
from companion.games.wuxing import policy as wuxing_policy
from companion.registry import build_setup, demo_run, find_rules
from companion.sides import sides

POLICIES = ("random", "uniform", "greedy")
POLICY_OF: Mapping[str, ModuleType] = {
    "wuxing": wuxing_policy, "godnum": godnum_policy, "shrine": shrine_policy,
    "mountains": mountains_policy, "gemcomplete": gemcomplete_policy,
}
MAX_EVENTS = 20_000
Z95 = 1.959964
MIN_CARD_GAMES = playstats.MIN_CARD_GAMES
SAMPLES = 4  # tables a greedy player imagines per decision (its policy's SAMPLES)
CASUAL_TRIES = 64  # the rules' random plays a casual player tries before any move will do


@dataclass(frozen=True)
class Playtest:
    """A game to playtest: its rules, one table's set-up, its simulated players' policy."""

    game: str
    rules: Rules[Any]
    setup: Setup
    policy: Any  # a module (or object) with DECISIONS, ROUNDS, value, starter (SAMPLES, judge)

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @classmethod
    def of(cls, game: str, players: int, options: Mapping[str, Any] | None = None
           ) -> Playtest:
        """The registered ``game`` with ``players`` seats; raises ``BadSetup``."""
        names = [f"P{i}" for i in range(1, players + 1)]
        run = demo_run(game, players, random.Random(0))
        return cls(game, find_rules(game), build_setup(game, names, options, [run]),
                   POLICY_OF[game])


@dataclass(frozen=True)
class Game:
    """One game, simulated or recorded at a real table."""

    finished: bool
    winners: tuple[int, ...]
    events: int
    rounds: float | None
    starter: int | None
    played: tuple[tuple[int, tuple[str, ...]], ...]  # seat -> face ids it played
    greedy: tuple[int, ...] = ()  # the seats a greedy player sat in
    minutes: float | None = None
    source: str = "simulated"
    sides: tuple[str, ...] = ()  # each seat's legion, character or deck (companion.sides)
    # The game's own figures at its end (``Rules.stats``: moves, attacks, tiles, bids...).
    stats: tuple[tuple[str, float], ...] = ()


def actor(event: Mapping[str, Any]) -> int | None:
    """The seat whose play ``event`` is (its ``seat``, or the seat zone it went to)."""
    seat = event.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    zone = event.get("zone")
    if isinstance(zone, str) and zone.startswith("seat:") and zone[5:].isdigit():
        return int(zone[5:])
    return None


def _cards(event: Mapping[str, Any]) -> list[str]:
    one = event.get("card")
    many = event.get("cards")
    out = [one] if isinstance(one, str) else []
    if isinstance(many, list):
        out += [c for c in many if isinstance(c, str)]
    return out


def greedy_move(pt: Playtest, table: seatplay.Table, seat: int, options: Sequence[Event],
            rng: random.Random) -> Event:
    """The move whose outcome ``policy.value`` rates best for ``seat``, averaged over
    ``policy.SAMPLES`` tables the seat cannot tell from this one (``seatplay.resample``):
    it sees its own seat only. Ties: the first move in ``moves`` order."""
    weighed = [e for e in options if e.get("type") in pt.policy.DECISIONS]
    if not weighed:  # nothing the policy weighs (WuXing): as a random player would
        return options[rng.randrange(len(options))]
    if len(weighed) == 1:
        return weighed[0]
    samples = [seatplay.resample(table, seat, rng)
               for _ in range(int(getattr(pt.policy, "SAMPLES", SAMPLES)))]
    judge = getattr(pt.policy, "judge", None)
    value = pt.policy.value
    best, best_value = weighed[0], -math.inf
    rules = pt.rules
    for event in weighed:
        total = 0.0
        for sample in samples:
            # The engine's table is all a policy reads: the hands need not follow here.
            after = rules.apply(sample.state, event)
            total += judge(sample.state, event, after, seat) if judge else value(after, seat)
        if total > best_value:
            best, best_value = event, total
    return best


def _move_key(event: Event) -> str:
    """An event as a move: its fields, a list (of cards, of payments) in any order."""
    def plain(v: Any) -> Any:
        if isinstance(v, list):
            return sorted((plain(x) for x in v), key=repr)
        if isinstance(v, Mapping):
            return sorted((str(k), plain(x)) for k, x in v.items())
        return v
    return repr(plain(event))


def casual_move(pt: Playtest, table: seatplay.Table, seat: int, options: Sequence[Event],
            rng: random.Random) -> Event:
    """The rules' random play for ``seat``, made from its own seat: proposed on tables it
    cannot tell from this one (so nothing hidden steers it) until one is among its
    ``options`` (so it plays only cards it holds)."""
    if len(options) == 1:
        return options[0]
    index = {_move_key(e): e for e in options}
    for _ in range(CASUAL_TRIES):
        sample = seatplay.resample(table, seat, rng)
        event = pt.rules.random_play(sample.state, rng)
        if event is not None:
            hit = index.get(_move_key(event))
            if hit is not None:
                return hit
    return options[rng.randrange(len(options))]


def play(pt: Playtest, seed: int, index: int, greedy: Iterable[int] = (),
         max_events: int = MAX_EVENTS, uniform: bool = False) -> Game:
    """Play game ``index`` of the playtest seeded ``seed`` at a simulated table
    (``companion.seatplay``); ``greedy``: the seats a greedy player sits in; the others
    play as a casual player (``random``), or any move alike if ``uniform``. Stops after
    ``max_events`` events of the engine."""
    rng = random.Random(f"{pt.game}:{seed}:{index}")
    greedy_seats = frozenset(greedy)
    table = seatplay.deal(pt, rng)
    starter: int | None = None
    played: dict[int, set[str]] = {}
    cards = pt.setup.cards
    events = 0
    policy = pt.policy
    while not table.state.finished and events < max_events:
        event = seatplay.chance(table, rng)
        if event is None:
            seat = seatplay.to_move(table)
            options = seatplay.moves(table, seat) if seat is not None else []
            if seat is None or not options:
                break
            if seat in greedy_seats:
                event = greedy_move(pt, table, seat, options, rng)
            elif uniform:
                event = options[rng.randrange(len(options))]
            else:
                event = casual_move(pt, table, seat, options, rng)
        before = table.state
        table = seatplay.apply(table, event)
        if table.state is before:  # a card into a hand: the table's, not the engine's
            continue
        events += 1
        seat = actor(event)
        if seat is not None:
            for serial in _cards(event):
                face = cards.get(serial)
                if face is not None:
                    played.setdefault(seat, set()).add(face.id)
        if starter is None:
            starter = policy.starter(table.state)
    state = table.state
    key = policy.ROUNDS[0]
    stats = pt.rules.stats(state)
    rounds = stats.get(key)
    return Game(bool(state.finished), tuple(state.winners), events,
                float(rounds) if rounds is not None else None, starter,
                tuple((s, tuple(sorted(f))) for s, f in sorted(played.items())),
                tuple(sorted(greedy_seats)),
                sides=sides(pt.game, pt.setup, state),
                stats=tuple(sorted((k, float(v)) for k, v in stats.items())))


def play_range(pt: Playtest, seed: int, start: int, stop: int, policy: str,
               max_events: int = MAX_EVENTS) -> list[Game]:
    """Games ``start`` to ``stop - 1``: every seat ``policy`` (``random``, ``uniform`` or
    ``greedy``), or ``rotate``: one greedy seat (game ``i``: seat ``i % players + 1``)
    against random (casual) players, the designer's test of whether decisions matter."""
    out = []
    n = pt.players
    for i in range(start, stop):
        if policy == "greedy":
            greedy: tuple[int, ...] = tuple(range(1, n + 1))
        elif policy == "rotate":
            greedy = (i % n + 1,)
        elif policy in ("random", "uniform"):
            greedy = ()
        else:
            raise ValueError(f"policy must be random, uniform, greedy or rotate, got "
                             f"{policy!r}")
        out.append(play(pt, seed, i, greedy, max_events, uniform=policy == "uniform"))
    return out


# ----------------------------------------------------------------------------- figures


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (``wins`` may be fractional: a shared
    win counts as a share)."""
    return playstats.wilson(wins, n, z)


def rate(wins: float, n: int) -> dict[str, float | int]:
    return playstats.rate(wins, n, Z95)


_share = playstats.share


def _spread(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    xs = sorted(values)
    q = statistics.quantiles(xs, n=10) if len(xs) >= 2 else [xs[0]] * 9
    return {"mean": round(statistics.fmean(xs), 2), "median": float(statistics.median(xs)),
            "p10": round(q[0], 2), "p90": round(q[-1], 2), "min": xs[0], "max": xs[-1]}


def figures(games: Sequence[Game], players: int, names: Mapping[str, str] | None = None,
            decks: Mapping[str, str] | None = None, shared: Iterable[str] = ()
            ) -> dict[str, Any]:
    """The report's figures for ``games`` of a ``players``-seat game: seats and turn
    positions with family-wise intervals, length, and each card against its own deck's
    baseline (``decks``: face id -> deck or legion name; ``companion.playstats``). Cards
    of a ``shared`` deck (WuXing's Universe deck: nobody holds it) are ranked apart."""
    names = names or {}
    done = [g for g in games if g.finished]
    fair = 1.0 / players
    by_position = playstats.positions(done, players)
    card_rows = playstats.cards(done, names, decks or {})
    apart = set(shared)
    top, bottom = playstats.ranked([c for c in card_rows if c["deck"] not in apart])
    shared_top, shared_bottom = playstats.ranked([c for c in card_rows if c["deck"] in apart])
    minutes = [g.minutes for g in done if g.minutes is not None]
    return {
        "games": len(games),
        "finished": len(done),
        "unfinished": len(games) - len(done),
        "players": players,
        "seats": playstats.seats(done, players),
        "positions": by_position,
        "first_player": {**by_position[0], "fair": round(fair, 4)},
        "length": {"events": _spread([g.events for g in done]),
                   "rounds": _spread([g.rounds for g in done if g.rounds is not None]),
                   "minutes": _spread(minutes)},
        "per_game": per_game(done),
        "cards": card_rows,
        "cards_tested": sum(1 for c in card_rows if c["p"] is not None),
        "cards_standing_out": sum(1 for c in card_rows if c["stands_out"]),
        "top_cards": top,
        "bottom_cards": bottom,
        "shared_cards": shared_top + shared_bottom[::-1],
    }


def per_game(games: Sequence[Game]) -> dict[str, dict[str, float]]:
    """The mean of each of the game's own figures (``Rules.stats``) over ``games`` with its
    95 % interval (normal, from the games' spread): how often a rule comes into play
    (Mountains & Rivers' armoury and blunt tiles, MR-1 rev. 3; God Num's busts...)."""
    with_stats = [dict(g.stats) for g in games if g.stats]
    out: dict[str, dict[str, float]] = {}
    for k in sorted({k for s in with_stats for k in s}):
        xs = [s.get(k, 0.0) for s in with_stats]
        mean = statistics.fmean(xs)
        half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
        out[k] = {"mean": round(mean, 3), "low": round(mean - half, 3),
                  "high": round(mean + half, 3)}
    return out


def decisions(rotated: Sequence[Game], players: int) -> dict[str, Any]:
    """How one greedy player fares against random ones (each game one greedy seat, in
    turn): if its win rate is not above a fair share, the game's decisions do not matter
    at this look-ahead."""
    done = [g for g in rotated if g.finished and g.greedy]
    r = rate(sum(_share(g, g.greedy[0]) for g in done), len(done))
    fair = 1.0 / players
    matter = r["low"] > fair
    verdict = ("The greedy player wins more than a fair share: the players' decisions "
               "matter." if matter else
               "The greedy player wins no more than a random one: the game has no "
               "decisions that matter (at a one-step look-ahead).")
    return {**r, "fair": round(fair, 4), "decisions_matter": matter, "verdict": verdict}
