"""The playtest report as one self-contained HTML file: every plot drawn by matplotlib
into a PNG embedded in the page, so it opens offline and can be mailed as it is.

Same figures, same file: nothing in it depends on the clock (matplotlib's PNG metadata
is left out).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

from companion.playstats import MIN_CARD_GAMES

matplotlib.use("Agg")  # no screen: a Pi or a server draws the same report

import matplotlib.pyplot as plt  # after the backend is chosen

INK = "#1d2a33"
ACCENT = "#1f6f8b"
WARN = "#b3432b"
MUTED = "#6b7780"
STYLE = """
body{font:16px/1.5 system-ui,sans-serif;color:#1d2a33;max-width:1000px;margin:2rem auto;
padding:0 1rem}
h1{font-size:1.8rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:2px solid #d6dee3}
.muted{color:#55626b}.verdict{font-size:1.1rem;padding:.6rem .9rem;border-left:5px solid
#1f6f8b;background:#eef5f8}.verdict.warn{border-color:#b3432b;background:#fbefec}
table{border-collapse:collapse;margin:.6rem 0}th,td{padding:.25rem .7rem;text-align:right;
border-bottom:1px solid #e1e7eb}th:first-child,td:first-child{text-align:left}
img{max-width:100%;height:auto}.side{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
"""


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _img(src: str, alt: str) -> str:
    return f'<img src="{src}" alt="{html.escape(alt)}">'


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def seat_plot(sets: Mapping[str, Mapping[str, Any]], title: str) -> str:
    """Win rate per seat with its 95 % interval, one group of bars per figure set."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    labels = list(sets)
    width = 0.8 / max(1, len(labels))
    for k, label in enumerate(labels):
        seats = sets[label]["seats"]
        xs = [s["seat"] + (k - (len(labels) - 1) / 2) * width for s in seats]
        ys = [s["rate"] for s in seats]
        err = [[s["rate"] - s["low"] for s in seats], [s["high"] - s["rate"] for s in seats]]
        ax.bar(xs, ys, width=width * 0.9, label=label, yerr=err, capsize=4,
               color=[ACCENT, "#8fb8c9", "#c9a227", "#7a9e7e"][k % 4])
    fair = 1.0 / next(iter(sets.values()))["players"]
    ax.axhline(fair, color=WARN, linestyle="--", linewidth=1.2, label=f"fair share {pct(fair)}")
    ax.set_xticks(range(1, next(iter(sets.values()))["players"] + 1))
    ax.set_xlabel("seat (seat 1 is the first seat at the table, not always the first player)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    return _png(fig)


def length_plot(lengths: Mapping[str, Sequence[float]], what: str) -> str:
    """How long games are: a histogram per figure set."""
    fig, ax = plt.subplots(figsize=(7, 3))
    for k, (label, xs) in enumerate(lengths.items()):
        if xs:
            ax.hist(xs, bins=30, alpha=0.6, label=label,
                    color=[ACCENT, "#c9a227", "#7a9e7e", "#8fb8c9"][k % 4])
    ax.set_xlabel(what)
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    return _png(fig)


def card_plot(rows: Sequence[Mapping[str, Any]], title: str) -> str:
    """Each card's win rate minus its own deck's baseline, with its 95 % interval; a filled
    dot stands out after the false-discovery control."""
    fig, ax = plt.subplots(figsize=(7, 0.35 * max(3, len(rows)) + 0.8))
    ys = list(range(len(rows)))[::-1]
    xs = [r["rate"] - r["baseline"] for r in rows]
    ax.errorbar(xs, ys, xerr=[[r["rate"] - r["low"] for r in rows],
                              [r["high"] - r["rate"] for r in rows]],
                fmt="none", ecolor=MUTED, capsize=3)
    for x, y, r in zip(xs, ys, rows, strict=True):
        ax.plot([x], [y], "o", color=INK, markerfacecolor=INK if r["stands_out"] else "white")
    ax.axvline(0, color=WARN, linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([r["name"] for r in rows], fontsize=8)
    ax.set_xlabel("win rate minus its deck's baseline (filled: stands out, FDR 5 %)")
    ax.set_title(title)
    return _png(fig)


def decision_plot(d: Mapping[str, Any]) -> str:
    fig, ax = plt.subplots(figsize=(5, 2.2))
    ax.barh([0], [d["rate"]], xerr=[[d["rate"] - d["low"]], [d["high"] - d["rate"]]],
            color=ACCENT, capsize=5)
    ax.axvline(d["fair"], color=WARN, linestyle="--", label=f"fair share {pct(d['fair'])}")
    ax.set_yticks([0])
    ax.set_yticklabels(["one greedy player"])
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate against random players")
    ax.legend(fontsize=8, loc="lower right")
    return _png(fig)


def all_seats(n: int) -> str:
    """"both seats" or "all 4 seats", for the family an interval holds for."""
    return "both seats" if n == 2 else f"all {n} seats"


def _seat_sentences(f: Mapping[str, Any]) -> list[str]:
    out = []
    for s in f["seats"]:
        if s["favoured"] or s["disfavoured"]:
            word = "favoured" if s["favoured"] else "at a disadvantage"
            out.append(f"Seat {s['seat']} is {word}: it wins {pct(s['rate'])} "
                       f"(interval {pct(s['low'])}-{pct(s['high'])}, 95 % for "
                       f"{all_seats(f['players'])} at once) against a fair {pct(s['fair'])}.")
    if not out and f["finished"]:
        out.append(f"No seat is favoured: every seat's interval (95 % for "
                   f"{all_seats(f['players'])} at once) holds the fair share "
                   f"({pct(1 / f['players'])}).")
    fp = f["first_player"]
    if fp["games"]:
        lo, hi, fair = fp["low"], fp["high"], fp["fair"]
        if lo > fair or hi < fair:
            out.append(f"The first player {'wins more' if lo > fair else 'wins less'}: "
                       f"{pct(fp['rate'])} ({pct(lo)}-{pct(hi)}, 95 % for all turn "
                       f"positions at once) against a fair {pct(fair)}.")
        else:
            out.append(f"The first player wins {pct(fp['rate'])} ({pct(lo)}-{pct(hi)}): no "
                       f"advantage the games can show.")
    if f["unfinished"]:
        out.append(f"{f['unfinished']} of {f['games']} games did not finish within the event "
                   "limit: they count for no seat.")
    return out


def _seat_table(f: Mapping[str, Any]) -> str:
    def row(label: str, r: Mapping[str, Any]) -> str:
        return (f"<tr><td>{label}</td><td>{r['wins']:g}</td><td>{pct(r['rate'])}</td>"
                f"<td>{pct(r['low'])}-{pct(r['high'])}</td></tr>")

    rows = "".join(row(f"Seat {s['seat']}", s) for s in f["seats"])
    ords = {1: "First player", 2: "Second", 3: "Third", 4: "Fourth", 5: "Fifth", 6: "Sixth",
            7: "Seventh", 8: "Eighth"}
    turns = "".join(row(ords.get(p["position"], str(p["position"])), p)
                    for p in f.get("positions", []) if p["games"])
    return ("<table><tr><th>who</th><th>wins</th><th>win rate</th><th>interval (95 % for "
            f"the whole family)</th></tr>{rows}{turns}</table>")


def _length_table(f: Mapping[str, Any], rounds: str) -> str:
    rows = []
    for key, label in (("events", "events"), ("rounds", rounds), ("minutes", "minutes")):
        s = f["length"][key]
        if s:
            rows.append(f"<tr><td>{label}</td><td>{s['mean']:g}</td><td>{s['median']:g}</td>"
                        f"<td>{s['p10']:g}-{s['p90']:g}</td><td>{s['min']:g}-{s['max']:g}</td></tr>")
    return ("<table><tr><th>length in</th><th>mean</th><th>median</th><th>10-90 %</th>"
            f"<th>range</th></tr>{''.join(rows)}</table>")


def _per_game_table(f: Mapping[str, Any]) -> str:
    rows = "".join(f"<tr><td>{html.escape(k.replace('_', ' '))}</td><td>{v['mean']:g}</td>"
                   f"<td>{v['low']:g}-{v['high']:g}</td></tr>"
                   for k, v in f["per_game"].items())
    return ("<table><tr><th>figure</th><th>mean per game</th><th>interval (95 %)</th></tr>"
            f"{rows}</table>")


def _card_table(rows: Sequence[Mapping[str, Any]]) -> str:
    body = "".join(f"<tr><td>{html.escape(r['name'])}</td><td>{r['games']}</td>"
                   f"<td>{pct(r['rate'])}</td><td>{pct(r['baseline'])}</td>"
                   f"<td>{100 * r['difference']:+.1f}</td>"
                   f"<td>{'yes' if r['stands_out'] else 'no'}</td></tr>" for r in rows)
    return ("<table><tr><th>card</th><th>seat-games</th><th>win rate</th>"
            "<th>its deck's rate</th><th>difference (points)</th><th>stands out</th>"
            f"</tr>{body}</table>")


def _card_sentence(f: Mapping[str, Any]) -> str:
    n, k = f.get("cards_tested", 0), f.get("cards_standing_out", 0)
    head = (f"{k} of {n} cards stand out from their own deck's rate" if k else
            f"None of the {n} cards stands out from its own deck's rate")
    return (f"{head} (each card seen in at least {MIN_CARD_GAMES} seat-games is tested; "
            "false discovery rate 5 %). A seat-game is one player's game in which they "
            "played the card; a discard counts as played.")


def compare_section(base: str, compared: Mapping[str, Mapping[str, Any]]) -> str:
    """Each option's difference from the first, paired by seed, with a verdict."""
    parts = []
    for label, c in compared.items():
        if c["all_identical"]:
            parts.append(f"<p class='verdict warn'>{html.escape(label)} made the same "
                         f"{c['games']} games as {html.escape(base)}: at this number of "
                         "players the option changes nothing.</p>")
            continue
        rows = []
        for name, d in c["figures"].items():
            lo, hi = d["low"], d["high"]
            span = "-" if lo is None or hi is None else (
                f"{lo:+.3f} to {hi:+.3f}" if "events" in name
                else f"{100 * lo:+.1f} to {100 * hi:+.1f} points")
            diff = (f"{d['difference']:+.2f}" if "events" in name
                    else f"{100 * d['difference']:+.1f} points")
            rows.append(f"<tr><td>{html.escape(name)}</td><td>{diff}</td><td>{span}</td>"
                        f"<td>{'differs' if d['differs'] else 'no difference shown'}</td></tr>")
        parts.append(f"<p class='muted'>{html.escape(label)} minus {html.escape(base)}, the "
                     f"same seeds for both ({c['games']} pairs, {c['identical']} games "
                     "identical under both).</p><table><tr><th>figure</th><th>difference</th>"
                     "<th>95 % paired interval</th><th>verdict</th></tr>"
                     + "".join(rows) + "</table>")
    return "\n".join(parts)


def section(label: str, f: Mapping[str, Any], rounds: str, length_plot: str = "") -> str:
    """The figures of one set of games: seats, first player, length (``length_plot``, an
    image, right under its table), cards."""
    parts = [f"<h2>{html.escape(label)}</h2>",
             f"<p class='muted'>{f['games']} games, {f['finished']} finished.</p>"]
    warn = any(s["favoured"] or s["disfavoured"] for s in f["seats"])
    parts += [f"<p class='verdict{' warn' if warn else ''}'>{html.escape(s)}</p>"
              for s in _seat_sentences(f)]
    if f["finished"]:
        parts.append(_img(seat_plot({label: f}, "Win rate per seat"),
                          f"win rate per seat, {label}"))
        parts.append(_seat_table(f))
        parts.append("<h3>Game length</h3>" + _length_table(f, rounds) + length_plot)
    if f.get("per_game"):
        parts.append("<h3>What happens in a game</h3><p class='muted'>The rules' own "
                     "counts, on average per finished game.</p>" + _per_game_table(f))
    if f["cards"]:
        parts.append("<h3>Cards that go with winning</h3>")
        parts.append(f"<p class='muted'>{html.escape(_card_sentence(f))}</p>")
    if f["top_cards"] or f["bottom_cards"]:
        plots = [_img(card_plot(rows, title), title.lower()) for rows, title in
                 ((f["top_cards"], "Most above their deck"),
                  (f["bottom_cards"], "Most below their deck")) if rows]
        parts.append("<div class='side'>" + "".join(plots) + "</div>")
        parts.append(_card_table(f["top_cards"]) + _card_table(f["bottom_cards"]))
    if f.get("shared_cards"):
        parts.append("<h3>Cards nobody holds</h3><p class='muted'>The win rate of the player "
                     "who laid each one, against its deck's rate.</p>")
        parts.append(_card_table(f["shared_cards"]))
    return "\n".join(parts)


def page(title: str, params: Mapping[str, Any], sections: Sequence[str]) -> str:
    """The whole report."""
    items = "".join(f"<li>{html.escape(str(k))}: <b>{html.escape(str(v))}</b></li>"
                    for k, v in params.items())
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><ul class='muted'>{items}</ul>"
            + "\n".join(sections) + "</body></html>\n")
