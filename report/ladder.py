"""The report's "Skill ladder" section (``companion report GAME --ladder``): random, greedy
and search players ranked by ``design.ladder`` (OpenSpiel, the optional ``[design]``
extra), as a table of ratings with intervals, the skill depth in a sentence, and a plot.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from importlib.util import find_spec
from typing import Any

from companion.errors import BadSetup
from companion.progress import Progress, Silent
from design import INSTALL_HINT
from report.html import ACCENT, MUTED, WARN, _img, _png
from report.run import workers_here


def check(budgets: Sequence[int] = (1,), per_pair: int = 2) -> None:
    """Raises ``BadSetup`` at once (before minutes of simulation): one line saying how to
    install the design extra when OpenSpiel is missing, or naming a bad budget or count."""
    if find_spec("pyspiel") is None or find_spec("open_spiel") is None:
        raise BadSetup(INSTALL_HINT)
    if not budgets or any(not 1 <= b <= 100_000 for b in budgets):
        raise BadSetup(f"--ladder-budgets must be 1-100,000 simulations, got {list(budgets)}")
    if not 2 <= per_pair <= 10_000:
        raise BadSetup(f"--ladder-games must be 2-10,000, got {per_pair}")


def games(players: int, budgets: Sequence[int], per_pair: int) -> int:
    """Games the ladder plays (for a progress bar): every pair ``per_pair`` times."""
    n = 2 + len(set(budgets))
    return n * (n - 1) // 2 * per_pair


def depth_sentence(data: Mapping[str, Any]) -> str:
    """The skill depth in words."""
    if data["decisions_per_game"] == 0:
        return ("Nobody decides anything in this game (every step is chance): every player "
                "plays the same game, and the game has one skill level.")
    depth, n = data["skill_depth"], len(data["ladder_players"])
    chain = " < ".join(data["chain"])
    if depth <= 1:
        return (f"No player is significantly better than another in "
                f"{data['games_per_pair']} games per pair: the ladder tells one skill level "
                "apart (more games may tell more).")
    return (f"Skill depth {depth} (of {n} players): {chain}, each significantly better than "
            "the one before (family-wise 5 %).")


def plot(data: Mapping[str, Any]) -> str:
    """Each player's rating with its 95 % interval."""
    import matplotlib.pyplot as plt  # report.html chose the backend (Agg) on import

    rows = data["ratings"]
    fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.45 * len(rows)))
    ys = list(range(len(rows)))
    elo = [r["elo"] for r in rows]
    err = [[r["elo"] - r["low"] for r in rows], [r["high"] - r["elo"] for r in rows]]
    chain = set(data["chain"]) if data["skill_depth"] > 1 else set()
    ax.errorbar(elo, ys, xerr=err, fmt="none", ecolor=MUTED, capsize=4, zorder=1)
    colors = [WARN if r["name"] in chain else ACCENT for r in rows]
    ax.scatter(elo, ys, c=colors, s=40, zorder=3)
    if chain:
        ax.scatter([], [], c=WARN, s=40, label="the skill chain")
        ax.legend(fontsize=8, loc="lower right")
    ax.axvline(0, color=MUTED, linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([r["name"] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("rating (Elo points; random = 0), 95 % interval")
    ax.set_title("Skill ladder")
    return _png(fig)


def _table(data: Mapping[str, Any]) -> str:
    head = "<tr><th>player</th><th>rating</th><th>95 % interval</th></tr>"
    rows = "".join(f"<tr><td>{html.escape(r['name'])}</td><td>{r['elo']:+.0f}</td>"
                   f"<td>{r['low']:+.0f} to {r['high']:+.0f}</td></tr>"
                   for r in sorted(data["ratings"], key=lambda r: -r["elo"]))
    return f"<table>{head}{rows}</table>"


def _pairs(data: Mapping[str, Any]) -> str:
    head = ("<tr><th>pair</th><th>games</th><th>first one's score</th>"
            "<th>interval (95 %)</th></tr>")
    rows = "".join(f"<tr><td>{html.escape(p['a'])} against {html.escape(p['b'])}</td>"
                   f"<td>{p['games']}</td><td>{100 * p['score_a']:.0f} %</td>"
                   f"<td>{100 * p['low']:.0f}-{100 * p['high']:.0f} %</td></tr>"
                   for p in data["head_to_head"])
    return f"<table>{head}{rows}</table>"


def section(game: str, players: int, budgets: Sequence[int], per_pair: int, seed: int,
            workers: int | None = None, progress: Progress | None = None,
            options: Mapping[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """The ladder's HTML section and its figures (``--json``'s ``ladder``), with the
    report's ruling ``options``."""
    check(budgets, per_pair)
    from design import ladder  # OpenSpiel loads only for a ladder

    bar = progress or Silent()
    run = ladder.run(game, players, budgets, per_pair, seed, workers or workers_here(),
                     bar.advance, options)
    # No wall time in the report: same seed, same file (``bench ladder`` times it).
    data = {k: v for k, v in run.as_json().items() if k != "seconds"}
    warn = data["skill_depth"] <= 1 and data["decisions_per_game"] > 0
    parts = [
        "<h2>Skill ladder</h2>",
        f"<p class='muted'>{len(data['ladder_players'])} players, every pair in "
        f"{data['games_per_pair']} games at {players} seats (they sit alternately), "
        f"{data['decisions_per_game']} decisions a game. "
        "<i>random</i> plays any legal move, each alike (the report's uniform player); "
        "<i>greedy</i> looks one step ahead on tables it cannot tell from the real one; "
        "<i>search N</i> is OpenSpiel's information-set "
        "Monte Carlo tree search with N simulations a decision. Every player sees only its "
        "own seat. Ratings: a Bradley-Terry fit on the Elo scale (random = 0), intervals "
        "from a parametric bootstrap.</p>",
        f"<p class='verdict{' warn' if warn else ''}'>{html.escape(depth_sentence(data))}</p>",
        _img(plot(data), "skill ladder ratings with intervals"),
        _table(data),
        "<h3>Head to head</h3>",
        _pairs(data),
    ]
    return "\n".join(parts), data
