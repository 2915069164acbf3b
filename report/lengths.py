"""The report's length figures per player count and its games that do not end (issue 30
§4): ``--players 2,3,4`` plays the same number of games at each count and draws each
count's length distribution (events, rounds or turns: median, 10 % and 90 %, and a
histogram), its seats and its sides; every set says how many games hit the event cap
(``--max-events``), with the seed and index that replay each one.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

import matplotlib.pyplot as plt  # drawn with the Agg backend report.html chooses

from companion.playtest import Game
from report import html as page
from report import sides as side_section

SHOWN = 20  # indices of games that did not end, listed per set (all are counted)


def histogram(values: Sequence[float], bins: int = 20) -> dict[str, list[Any]]:
    """Counts of ``values`` in ``bins`` equal bins (whole-number edges when the values are
    whole), as the figure draws them: ``edges`` has one more item than ``counts``."""
    if bins < 1:
        raise ValueError(f"bins must be 1 or more, got {bins}")
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    if all(float(v).is_integer() for v in values):
        width = float(max(1, math.ceil((hi - lo + 1) / bins)))
        n = math.ceil((hi - lo + 1) / width)
    else:
        width, n = ((hi - lo) / bins or 1.0), bins
    edges = [round(lo + i * width, 4) for i in range(n + 1)]
    counts = [0] * (len(edges) - 1)
    for v in values:
        k = min(len(counts) - 1, int((v - lo) // width))
        counts[k] += 1
    return {"edges": edges, "counts": counts}


def not_ending(games: Sequence[Game], game: str, players: int, options: Mapping[str, Any],
               seed: int, max_events: int) -> dict[str, Any]:
    """How many ``games`` hit the event cap, and how to replay each (game ``i`` of a report
    seeded ``seed`` is ``companion.playtest.play`` with that seed and index)."""
    stuck = [i for i, g in enumerate(games) if not g.finished]
    opts = repr(dict(sorted(options.items())))  # a Python literal: the line runs as is
    return {
        "players": players, "games": len(games), "unfinished": len(stuck),
        "rate": round(len(stuck) / len(games), 4) if games else 0.0,
        "max_events": max_events, "seed": seed, "indices": stuck[:SHOWN],
        "replay": [f"play(Playtest.of({game!r}, {players}, {opts}), {seed}, {i}, "
                   + (f"greedy={games[i].greedy}, " if games[i].greedy else "")
                   + f"max_events={max_events})" for i in stuck[:SHOWN]],
    }


def not_ending_sentence(rows: Sequence[Mapping[str, Any]]) -> str:
    """One sentence over every set: how many games hit the event cap."""
    if not rows:
        return ""
    cap = f"{rows[0]['max_events']:,}"
    stuck = [u for u in rows if u["unfinished"]]
    if not stuck:
        return f"Every game ended within {cap} events."
    parts = [f"{u['unfinished']} of {u['games']} games at {u['players']} players "
             f"({page.pct(u['rate'])})" for u in stuck]
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return (f"{said} did not end within {cap} events: they count for no seat and no "
            "side, and the lengths are those of the games that ended.")


def not_ending_section(rows: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """The games that did not end, per set of games (an option value, a player count),
    with the indices that replay them."""
    body = "".join(
        f"<tr><td>{html.escape(label)}</td><td>{u['players']}</td><td>{u['games']}</td>"
        f"<td>{u['unfinished']}</td><td>{page.pct(u['rate']).replace(' ', '&nbsp;')}</td>"
        f"<td>{html.escape(', '.join(map(str, u['indices'][:10])) or '-')}"
        f"{', ...' if u['unfinished'] > 10 else ''}</td></tr>"
        for label, u in rows)
    stuck = [u for _, u in rows if u["unfinished"]]
    say = not_ending_sentence([u for _, u in rows])
    replay = ""
    if stuck:
        u = stuck[0]
        replay = (f"<p class='muted'>Game <i>i</i> of seed {u['seed']} is the same game "
                  "every time; replay the first one in Python: <code>from companion.playtest "
                  f"import Playtest, play; {html.escape(u['replay'][0])}</code> (the JSON "
                  f"lists a line for each of the first {SHOWN} per set).</p>")
    return ("<h2>Games that do not end</h2>"
            f"<p class='verdict{' warn' if stuck else ''}'>{html.escape(say)}</p>" + replay
            + "<table><tr><th>games</th><th>players</th><th>played</th><th>did not end</th>"
            "<th>share</th><th>first game indices</th></tr>" + body + "</table>")


def lengths(games: Sequence[Game], f: Mapping[str, Any]) -> dict[str, Any]:
    """One set's length figures: its spreads (from ``companion.playtest.figures``) and
    histograms of events and rounds over the finished games."""
    done = [g for g in games if g.finished]
    return {"events": f["length"]["events"], "rounds": f["length"]["rounds"],
            "histogram": {"events": histogram([g.events for g in done]),
                          "rounds": histogram([g.rounds for g in done
                                               if g.rounds is not None])}}


def _hist_plot(by_count: Mapping[int, Mapping[str, Any]], key: str, what: str) -> str:
    counts = [n for n in by_count if by_count[n]["histogram"][key]["counts"]]
    fig, axes = plt.subplots(len(counts) or 1, 1, figsize=(7, 1.5 * max(1, len(counts)) + 0.6),
                             sharex=True, squeeze=False)
    for ax, n in zip(axes[:, 0], counts, strict=False):
        h = by_count[n]["histogram"][key]
        e = h["edges"]
        ax.bar(e[:-1], h["counts"], width=[b - a for a, b in pairwise(e)],
               align="edge", color=page.ACCENT, alpha=0.85)
        s = by_count[n][key]
        for x, style in ((s["p10"], ":"), (s["median"], "-"), (s["p90"], ":")):
            ax.axvline(x, color=page.WARN, linestyle=style, linewidth=1.2)
        ax.set_ylabel(f"{n} players", fontsize=8)
    axes[-1, 0].set_xlabel(f"{what} per game (red: median, dotted: 10 % and 90 %)")
    return page._png(fig)


def _seat_plot(by_count: Mapping[int, Mapping[str, Any]]) -> str:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    counts = [n for n in by_count if by_count[n]["finished"]]  # no game ended: no bars
    width = 0.8 / max(1, len(counts))
    colours = [page.ACCENT, "#c9a227", "#7a9e7e", "#8fb8c9", "#9b6fa0", "#b3432b"]
    for k, n in enumerate(counts):
        seats = by_count[n]["seats"]
        xs = [s["seat"] + (k - (len(counts) - 1) / 2) * width for s in seats]
        ax.bar(xs, [s["rate"] for s in seats], width=width * 0.9, label=f"{n} players",
               yerr=[[s["rate"] - s["low"] for s in seats],
                     [s["high"] - s["rate"] for s in seats]],
               capsize=3, color=colours[k % len(colours)])
        ax.hlines(1 / n, 0.5, n + 0.5, colors=colours[k % len(colours)], linestyles="--",
                  linewidth=1)
    ax.set_xticks(range(1, max(counts, default=1) + 1))
    ax.set_xlabel("seat (dashed: each count's fair share)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8, loc="upper right")
    return page._png(fig)


def _row(n: int, f: Mapping[str, Any], key: str) -> str:
    s = f["lengths"][key]
    head = f"<tr><td>{n}</td><td>{f['games']}</td><td>{f['finished']}</td>"
    if not s:
        return head + "<td>-</td><td>-</td><td>-</td></tr>"
    return (head + f"<td>{s['median']:g}</td><td>{s['p10']:g}-{s['p90']:g}</td>"
            f"<td>{s['min']:g}-{s['max']:g}</td></tr>")


def sweep_section(by_count: Mapping[int, Mapping[str, Any]], rounds: str) -> str:
    """Length, seats and sides at each player count, side by side."""
    parts = ["<h2>Player counts</h2>",
             f"<p class='muted'>The same number of games at each count "
             f"({', '.join(map(str, by_count))} players), the same seed; lengths are those "
             "of the games that ended.</p>"]
    for key, what in (("events", "events"), ("rounds", rounds)):
        if not any(f["lengths"][key] for f in by_count.values()):
            continue
        rows = "".join(_row(n, f, key) for n, f in by_count.items())
        parts.append(f"<h3>Game length in {html.escape(what)}</h3>"
                     "<table><tr><th>players</th><th>games</th><th>ended</th><th>median</th>"
                     f"<th>10-90 %</th><th>range</th></tr>{rows}</table>")
        parts.append(page._img(_hist_plot({n: f["lengths"] for n, f in by_count.items()},
                                          key, what), f"{what} per game at each count"))
    parts.append("<h3>Win rate per seat at each count</h3>")
    if any(f["finished"] for f in by_count.values()):
        parts.append(page._img(_seat_plot(by_count), "win rate per seat at each count"))
    for n, f in by_count.items():
        if not f["finished"]:
            parts.append(f"<p class='verdict warn'>At {n} players no game ended: nothing to "
                         "say of its seats.</p>")
            continue
        flagged = [s for s in f["seats"] if s["favoured"] or s["disfavoured"]]
        say = (" ".join(f"At {n} players seat {s['seat']} "
                        f"{'is favoured' if s['favoured'] else 'is at a disadvantage'}: "
                        f"{page.pct(s['rate'])} ({page.pct(s['low'])}-{page.pct(s['high'])}) "
                        f"against a fair {page.pct(s['fair'])}." for s in flagged)
               or f"At {n} players no seat is favoured (95 % for {page.all_seats(n)} at once).")
        parts.append(f"<p class='verdict{' warn' if flagged else ''}'>{html.escape(say)}</p>")
    if not next(iter(by_count.values()))["sides"]["same"]:  # else said once above
        for n, f in by_count.items():
            parts.append(side_section.section(f["sides"], f"{n} players").replace(
                "</h3>", f" at {n} players</h3>", 1))
    return "\n".join(parts)
