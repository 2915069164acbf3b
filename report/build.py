"""``companion report``: simulate, measure and draw (see ``report/__init__.py``)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion import playstats
from companion.cards import load_deck
from companion.errors import BadSetup
from companion.playtest import MAX_EVENTS, POLICIES, Game, Playtest, decisions, figures
from companion.progress import Progress
from companion.registry import find_rules
from report import html as page
from report import ladder as report_ladder
from report import lengths as length_section
from report import sides as side_section
from report.run import recorded, simulate

DECISION_GAMES = 1000  # games with one greedy player, at most: enough for a clear interval


@dataclass
class Request:
    """What the designer asked for (``companion report`` flags)."""

    game: str
    players: int
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    compare: tuple[str, tuple[Any, ...]] | None = None
    policy: str = "random"
    from_data: str | None = None
    workers: int | None = None
    decision_games: int | None = None
    playtest: Playtest | None = None  # a game outside the registry (tests)
    progress: Progress | None = None  # a bar on a terminal (companion.progress)
    sweep: tuple[int, ...] = ()  # --players 2,3,4: the other counts' lengths, seats, sides
    max_events: int = MAX_EVENTS  # a game still going after this many events did not end
    ladder: tuple[tuple[int, ...], int] | None = None  # --ladder: (budgets, games per pair)

    def counts(self) -> tuple[int, ...]:
        """Every player count the report plays, smallest first."""
        return tuple(sorted({self.players, *self.sweep}))

    def steps(self) -> int:
        """Games the report plays in all (for a progress bar)."""
        sets = (len(self.compare[1]) if self.compare else 1) + len(self.counts()) - 1
        ladder = report_ladder.games(self.players, *self.ladder) if self.ladder else 0
        return (self.games * sets + min(self.games, self.decision_games or DECISION_GAMES)
                + ladder)

    def check(self) -> None:
        """Raises ``BadSetup`` naming the first thing that cannot be played."""
        if self.policy not in POLICIES:
            raise BadSetup(f"--policy must be one of {list(POLICIES)}, got {self.policy!r}")
        if not 1 <= self.games <= 1_000_000:
            raise BadSetup(f"--games must be 1-1,000,000, got {self.games}")
        if self.compare is not None and len(self.compare[1]) < 2:
            raise BadSetup("--compare needs NAME=A,B: two values or more")
        if not 1 <= self.max_events <= 10_000_000:
            raise BadSetup(f"--max-events must be 1-10,000,000, got {self.max_events}")
        if self.playtest is not None and len(self.counts()) > 1:
            raise BadSetup("a game outside the registry is played at its own count only")


def _faces(game: str, policy: Any) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """Each face's name (with its deck or legion when the game has several: God Num prints
    "Earth 1" in two legions), its deck's name, and the decks nobody holds."""
    if game not in {"wuxing", "godnum", "shrine", "mountains", "gemcomplete"}:
        return {}, {}, set()
    data = load_deck(game)
    several = len(data.decks) > 1
    names = {f.id: f"{f.name} ({data.decks[f.deck].name})" if several else f.name
             for f in data.faces}
    decks = {f.id: data.decks[f.deck].name for f in data.faces}
    shared = {data.decks[k].name for k in getattr(policy, "SHARED_DECKS", ())
              if k in data.decks}
    return names, decks, shared


def _designer(f: dict[str, Any], games: list[Game], req: Request, players: int,
              options: Mapping[str, Any]) -> dict[str, Any]:
    """``f`` with what designers ask next (issue 30 §4): per side, length distributions,
    games that did not end."""
    f["sides"] = side_section.figures(games, req.game)
    f["lengths"] = length_section.lengths(games, f)
    f["not_ending"] = length_section.not_ending(games, req.game, players, options, req.seed,
                                                req.max_events)
    return f


_SWEPT = ("games", "finished", "unfinished", "players", "seats", "positions", "lengths",
          "sides", "not_ending")


def _sweep(req: Request, options: Mapping[str, Any], first: Mapping[str, Any],
           names: Mapping[str, str], decks: Mapping[str, str], shared: set[str]
           ) -> dict[int, dict[str, Any]]:
    """Each player count's seats, sides, lengths and games that did not end (the report's
    own count is the set already played)."""
    out: dict[int, dict[str, Any]] = {}
    for n in req.counts():
        if n == req.players:
            f: Mapping[str, Any] = first
        else:
            games = simulate(req.game, n, options, req.seed, req.games, req.policy,
                             req.workers, req.max_events, progress=req.progress)
            f = _designer(figures(games, n, names, decks, shared), games, req, n, options)
        out[n] = {k: f[k] for k in _SWEPT}
    return out


def build(req: Request) -> tuple[str, dict[str, Any]]:
    """The report's HTML and its figures (``--json``)."""
    req.check()
    pt = req.playtest
    title_game = pt.rules.title if pt else find_rules(req.game).title
    policy = (pt.policy if pt else Playtest.of(req.game, req.players, req.options).policy)
    rounds = policy.ROUNDS[1]
    names, decks, shared = _faces(req.game, policy)
    out: dict[str, Any] = {"game": req.game, "players": req.players, "games": req.games,
                           "seed": req.seed, "options": req.options, "policy": req.policy}
    sections: list[str] = []
    sets: dict[str, dict[str, Any]] = {}
    lengths: dict[str, list[float]] = {}
    played: dict[str, list[Game]] = {}
    variants: list[tuple[str, dict[str, Any]]] = [("", dict(req.options))]
    if req.compare is not None:
        name, values = req.compare
        variants = [(f"{name} = {v}", {**req.options, name: v}) for v in values]
    for label, options in variants:
        games = simulate(req.game, req.players, options, req.seed, req.games, req.policy,
                         req.workers, req.max_events, playtest=pt, progress=req.progress)
        f = _designer(figures(games, req.players, names, decks, shared), games, req,
                      req.players, options)
        key = label or "simulated"
        sets[key] = f
        lengths[key] = [g.events for g in games if g.finished]
        played[key] = games
    out["simulated"] = sets
    if req.compare is not None:
        # Every option plays game i from the same seed: the differences are paired.
        first, *rest = list(played)
        out["compared"] = {k: playstats.paired(played[first], played[k], req.players)
                           for k in rest}
        sections.append(f"<h2>Compared: {html.escape(req.compare[0])}</h2>")
        sections.append(page.compare_section(first, out["compared"]))
        sections.append(page._img(page.seat_plot(sets, "Win rate per seat, side by side"),
                                  "win rate per seat for each value"))
        sections.append(page._img(page.length_plot(lengths, "events per game"),
                                  "game length for each value"))
    for key, f in sets.items():
        label = (f"Simulated: {req.policy} players" if key == "simulated"
                 else f"Simulated with {key} ({req.policy} players)")
        # One set: its length histogram follows its length table, before its sides.
        alone = ("" if req.compare is not None else
                 page._img(page.length_plot(lengths, "events per game"), "game length"))
        sections.append(page.section(label, f, rounds, alone)
                        + side_section.section(f["sides"], label))
    by_count = _sweep(req, variants[0][1], sets[next(iter(sets))], names, decks, shared)
    if len(by_count) > 1:
        out["sweep"] = {str(k): v for k, v in by_count.items()}
        sections.append(length_section.sweep_section(by_count, rounds))
    stuck = [(k, f["not_ending"]) for k, f in sets.items()] + [
        (f"{k} players", f["not_ending"]) for k, f in by_count.items() if k != req.players]
    out["not_ending"] = [{"set": k, **u} for k, u in stuck]
    sections.append(length_section.not_ending_section(
        [(f"{req.players} players" if k == "simulated" else k, u) for k, u in stuck]))
    n = min(req.games, req.decision_games or DECISION_GAMES)
    rotated = simulate(req.game, req.players, req.options, req.seed + 1, n, "rotate",
                       req.workers, req.max_events, playtest=pt, progress=req.progress)
    d = decisions(rotated, req.players)
    out["decisions"] = d
    sections.append("<h2>Do decisions matter?</h2>"
                    f"<p class='muted'>{d['games']} games, each with one greedy player (a "
                    "one-step look-ahead of the rules from its own seat: it never sees "
                    "another hand) in turn in every seat, against random players (the "
                    "rules' own random plays, made from each player's own cards).</p>"
                    f"<p class='verdict{'' if d['decisions_matter'] else ' warn'}'>"
                    f"{html.escape(d['verdict'])} It wins {page.pct(d['rate'])} "
                    f"({page.pct(d['low'])}-{page.pct(d['high'])}) against a fair "
                    f"{page.pct(d['fair'])}.</p>" + page._img(page.decision_plot(d),
                                                              "greedy against random"))
    if req.ladder is not None:
        text, out["ladder"] = report_ladder.section(req.game, req.players, *req.ladder,
                                                    req.seed, req.workers, req.progress,
                                                    req.options)
        sections.append(text)
    if req.from_data:
        by_players = recorded(req.from_data, req.game)
        real = by_players.get(req.players, [])
        others = sum(len(v) for k, v in by_players.items() if k != req.players)
        f = figures(real, req.players, names, decks, shared)
        f["sides"] = side_section.figures(real, req.game)
        out["recorded"] = {**f, "other_player_counts": others}
        note = (f"<p class='muted'>{len(real)} games recorded at real tables with "
                f"{req.players} players in this data dir"
                + (f" ({others} with other numbers of players left out)" if others else "")
                + ".</p>")
        sections.append(page.section("Recorded at real tables", f, rounds).replace(
            "</h2>", "</h2>" + note, 1) + side_section.section(f["sides"], "recorded")
            if real else "<h2>Recorded at real tables</h2>" + note)
    params: Mapping[str, Any] = {
        "game": title_game, "players": ", ".join(map(str, req.counts())),
        "games per set": req.games, "event cap": req.max_events,
        "seed": req.seed, "simulated players": req.policy,
        **{f"option {k}": v for k, v in req.options.items()},
        **({"compared": f"{req.compare[0]}: "
            + ", ".join(map(str, req.compare[1]))} if req.compare else {}),
        **({"recorded games from": "a data dir"} if req.from_data else {}),
    }
    return page.page(f"Playtest report: {title_game}", params, sections), out
