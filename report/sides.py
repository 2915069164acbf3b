"""The report's "Win rate per legion, character or deck" (issue 30 §4): each side's figures
(``companion.playstats.sides``), a plain verdict, a table and a matplotlib figure. A game
whose seats all play the same (WuXing, Shrine) says so instead of drawing a table.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt  # drawn with the Agg backend report.html chooses

from companion import playstats
from companion.playtest import Game
from companion.sides import NOTE, SAME, SIDE_WORD
from report import html as page

_PLURAL = {"legion": "legions", "character": "characters", "deck": "decks"}


def figures(games: Sequence[Game], game: str) -> dict[str, Any]:
    """The per-side figures of ``games`` (finished ones count) as JSON-ready data."""
    word = SIDE_WORD.get(game, "side")
    done = [g for g in games if g.finished]
    rows = sorted(playstats.sides(done) if game in SIDE_WORD else [],
                  key=lambda r: (-r["rate"], r["name"]))  # best first, as the figure
    out: dict[str, Any] = {"word": word, "same": SAME.get(game), "note": NOTE.get(game),
                           "rows": rows, "min_games": playstats.MIN_SIDE_GAMES}
    out["verdict"] = verdict(out, game)
    return out


def verdict(f: Mapping[str, Any], game: str) -> str:
    """One or two plain sentences a designer reads first."""
    word = f["word"]
    many = _PLURAL.get(word, word + "s")
    if f["same"]:
        return (f"Every seat plays the same here: {f['same']}. There is no legion, "
                "character or deck to compare.")
    rows = f["rows"]
    if not rows:
        return f"No finished game bound a {word} to a seat: nothing to compare."
    tested = [r for r in rows if r["tested"]]
    k = len(tested)
    fairs = {r["fair"] for r in tested}
    one_fair = len(fairs) == 1

    def item(r: Mapping[str, Any]) -> str:
        fair = "" if one_fair else f", fair {page.pct(r['fair'])}"
        return (f"{r['name']} {page.pct(r['rate'])} ({page.pct(r['low'])}-"
                f"{page.pct(r['high'])}{fair})")

    said = []
    for key, head in (("favoured", "Favoured"), ("disfavoured", "At a disadvantage")):
        named = sorted((r for r in tested if r[key]), key=lambda r: -float(r["rate"]))
        if named:
            items = [item(r) for r in named]
            said.append(f"{head}: " + (items[0] if len(items) == 1 else
                                        ", ".join(items[:-1]) + " and " + items[-1]) + ".")
    if said:
        said.append((f"Fair share {page.pct(next(iter(fairs)))}; " if one_fair else "")
                    + f"intervals 95 % for all {k} {many} at once.")
    elif tested:
        said.append(f"No {word} stands out: every {word}'s rate is within what chance gives "
                    f"around its fair share ({k} {many} judged at once, 5 % family-wise).")
    few = len(rows) - k
    if few:
        said.append(f"{few} {word if few == 1 else many} played in fewer than "
                    f"{f['min_games']} seat-games {'is' if few == 1 else 'are'} listed but "
                    "not judged.")
    return " ".join(said)


def plot(rows: Sequence[Mapping[str, Any]], title: str) -> str:
    """Each side's win rate with its family-wise interval, against its fair baseline."""
    fig, ax = plt.subplots(figsize=(7, 0.42 * max(3, len(rows)) + 0.9))
    ys = list(range(len(rows)))[::-1]
    colours = [page.WARN if r["disfavoured"] else page.ACCENT if r["tested"] else "#b8c4cc"
               for r in rows]
    ax.barh(ys, [r["rate"] for r in rows], color=colours,
            xerr=[[r["rate"] - r["low"] for r in rows], [r["high"] - r["rate"] for r in rows]],
            capsize=3)
    for y, r in zip(ys, rows, strict=True):
        ax.plot([r["fair"], r["fair"]], [y - 0.42, y + 0.42], color=page.WARN, linestyle="--",
                linewidth=1.2)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r['name']} ({r['n']})" for r in rows], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (dashed: fair share; grey: too few seat-games to judge)")
    ax.set_title(title)
    return page._png(fig)


def table(rows: Sequence[Mapping[str, Any]], word: str) -> str:
    body = "".join(
        f"<tr><td>{html.escape(r['name'])}</td><td>{r['n']}</td><td>{r['wins']:g}</td>"
        f"<td>{page.pct(r['rate'])}</td><td>{page.pct(r['low'])}-{page.pct(r['high'])}</td>"
        f"<td>{page.pct(r['fair'])}</td>"
        f"<td>{'favoured' if r['favoured'] else 'at a disadvantage' if r['disfavoured'] else 'no difference shown' if r['tested'] else 'too few games'}</td></tr>"  # noqa: E501
        for r in rows)
    return (f"<table><tr><th>{html.escape(word)}</th><th>seat-games</th><th>wins</th>"
            "<th>win rate</th><th>interval (95 % for all at once)</th><th>fair share</th>"
            f"<th>verdict</th></tr>{body}</table>")


def section(f: Mapping[str, Any], label: str) -> str:
    """The HTML of one set's sides: a heading, the verdict, the figure and the table."""
    word = f["word"]
    many = _PLURAL.get(word, word + "s")
    head = f"<h3>Win rate per {html.escape(word)}</h3>"
    warn = any(r["favoured"] or r["disfavoured"] for r in f["rows"])
    say = f"<p class='verdict{' warn' if warn else ''}'>{html.escape(f['verdict'])}</p>"
    if f["same"] or not f["rows"]:
        return head.replace(html.escape(word), "side") + say
    note = ((f"<p class='muted'>{html.escape(f['note'])}.</p>" if f.get("note") else "")
            + "<p class='muted'>A seat-game is one seat's game; a shared win counts as a "
            "share. The fair share is 1/players for each seat-game the "
            f"{html.escape(word)} was played in.</p>")
    return (head + say + note
            + page._img(plot(f["rows"], f"Win rate per {word}, {label}"),
                        f"win rate per {word}, {label}")
            + table(f["rows"], word.capitalize())
            + ("" if len(f["rows"]) > 1 else f"<p class='muted'>Only one of the {many} "
               "was played.</p>"))
