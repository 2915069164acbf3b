"""The record of a table (issue 22): every record of its log with its time, who sent it,
its ruling in the words this viewer may read (C-7) and whether it was undone, the final
standings; as JSON or as CSV; and the replay: the table as it stood after any record.

Everything is made from the engine's own replay of the stored log (``companion.replay``),
so a record and a replay step are exact by construction: step ``n`` is what the live page
of the same viewer showed at version ``n``.

What each viewer reads: the referee (host token) reads every event as it was sent and the
referee's ruling with its ids; a seat reads its own view's words of each play (what that
seat may see then), and no event's fields (a scan names a serial: which card lay face down
in a Locus, C-7); the big screen and the camera read the public words.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from companion import words
from companion.engine import Match
from companion.replay import states_after
from web.store import Record
from web.table import HOST, Table, Viewer, seat_of

FORMAT = "table-companion-record/1"
CSV_FIELDS = ("seq", "time", "kind", "who", "ruling", "undone")


def who_words(who: str, players: list[str]) -> str:
    """Who sent a record, in a player's words ("Ana", "the referee", "the camera")."""
    if who.startswith("seat:"):
        n = who[5:]
        if n.isdigit() and 1 <= int(n) <= len(players):
            return players[int(n) - 1]
    return {"host": "the referee", "camera": "the camera", "companion": "the companion",
            "public": "someone without a seat"}.get(who, who)


def _view(table: Table, state: Any, viewer: Viewer) -> dict[str, Any]:
    if viewer.role == "host":
        return dict(table.rules.referee_view(state))
    return dict(table.rules.view(state, viewer.seat if viewer.role == "seat" else None))


def _last_play(table: Table, state: Any, viewer: Viewer) -> Any:
    return table.rules.last_play(state, 0 if viewer.role == "host" else viewer.seat)


def _said(table: Table, rec: Record, viewer: Viewer, play: Any = None, now: Any = None
          ) -> str:
    """The ruling of ``rec`` in the words ``viewer`` may read, as the page's history tells
    it: told as the table stands ``now`` (a card turned face down again since is not named,
    issue 18 §2), else in the public words of the moment."""
    if rec.kind == "timer":
        return rec.public or rec.ruling
    if rec.kind == "undo":
        return "Undone: " + table._undone_words(rec, viewer)
    if viewer.role == "host":
        return rec.ruling
    seat = viewer.seat if viewer.role == "seat" else None
    if play is not None and now is not None:
        told = table.rules.retell(now, play, seat)
        if told:
            return str(told)
    return rec.public


def _replayed(table: Table) -> Iterator[tuple[Record, Any, Any]]:
    """Each record of ``table`` with the state after it and, for an event, its play."""
    match = Match(table.rules, table.match.setup)
    records = list(table.records)
    states = states_after(match, ((r.kind, r.body) for r in records))
    for rec, state in zip(records, states, strict=True):
        yield rec, state, match.plays[-1] if rec.kind == "event" and match.plays else None


def standings(game: str, view: Mapping[str, Any], winners: list[int],
              players: list[str]) -> list[dict[str, Any]]:
    """The final standings, the winners first, each with the game's own figure (karma,
    cards, HP, influence, gems); the others by that figure, best first."""
    rows: list[tuple[int, str, str, float]] = []  # seat, name, figure, sort key
    if game == "wuxing":
        for i, p in enumerate(view.get("players", []), 1):
            n = int(p.get("cards", 0) or 0)
            rows.append((i, p.get("name", ""), words.count(n, "card"), n))
    elif game == "godnum":
        for i, p in enumerate(view.get("seats", []), 1):
            out = bool(p.get("eliminated"))
            karma = int(p.get("karma", 0) or 0)
            rows.append((i, p.get("name", ""), "out" if out else f"karma {karma}",
                         -1000.0 if out else -karma))
    elif game == "shrine":
        for x in view.get("final", []):
            seat = players.index(x["name"]) + 1 if x.get("name") in players else 0
            rows.append((seat, x.get("name", ""),
                         f"{words.count(int(x.get('influence', 0)), 'point')}, "
                         f"{words.count(int(x.get('oinks', 0)), 'Oink')}",
                         int(x.get("influence", 0)) * 1000 + int(x.get("oinks", 0))))
    elif game == "mountains":
        # The living by HP, then the others by the order they went out, the latest first.
        gone = [int(x) for x in view.get("out_order", []) or []]
        for i, p in enumerate(view.get("players", []), 1):
            alive = p.get("alive") is not False
            hp = int(p.get("hp", 0) or 0)
            rows.append((i, p.get("name", ""), f"{hp} HP" if alive else "out",
                         1000.0 + hp if alive else
                         float(gone.index(i)) if i in gone else -1.0))
    elif game == "gemcomplete":
        for i, p in enumerate(view.get("seats", []), 1):
            gems = sum(1 for c in p.get("locus", []) or [] if isinstance(c, dict) and c.get("gem"))
            rows.append((i, p.get("name", ""), words.count(gems, "gem"), gems))
    if not rows:
        rows = [(i, name, "", 0.0) for i, name in enumerate(players, 1)]
    rows.sort(key=lambda r: (r[0] not in winners, -r[3], r[0]))
    return [{"place": k, "seat": seat, "name": name, "figure": fig, "won": seat in winners}
            for k, (seat, name, fig, _) in enumerate(rows, 1)]


def record_of(table: Table, viewer: Viewer, runs: list[dict[str, Any]] | None = None
              ) -> dict[str, Any]:
    """The record of ``table`` as ``viewer`` may read it (see the module doc)."""
    with table.lock:
        players = table.players
        steps = list(_replayed(table))
        state = steps[-1][1] if steps else table.match.initial
        events: list[dict[str, Any]] = []
        finished_at: float | None = None
        for rec, after, play in steps:
            line: dict[str, Any] = {
                "seq": rec.seq, "time": rec.time, "kind": rec.kind,
                "who": who_words(rec.who, players), "sent_by": rec.who,
                "ruling": _said(table, rec, viewer, play, state), "undone": rec.voided,
            }
            if viewer.role == "host":
                line["event"] = rec.body
            events.append(line)
            finished_at = (finished_at or rec.time) if after.finished else None
        final = _view(table, state, viewer)
        winners = list(state.winners)
        # C-7 rev. 3: a serial that stood in for a tap at any step, not this viewer's own.
        seat = seat_of(viewer)
        hidden = frozenset().union(table.veiled.hidden(seat, table.match.initial),
                                   *(table.veiled.hidden(seat, after) for _, after, _ in steps))
        events = table.veiled.veil(events, seat, hidden)
        started = next((r.time for r in table.records if r.who != "companion"), None)
        return {
            "format": FORMAT,
            "table": table.id,
            "game": table.game,
            "title": table.rules.title,
            "options": table.config["options"],
            "players": [{"seat": i, "name": n} for i, n in enumerate(players, 1)],
            "runs": runs if runs is not None else [{"run": r} for r in table.config["runs"]],
            "created": table.created,
            "started": started,
            "ended": finished_at,
            "minutes": round((finished_at - table.created) / 60, 1) if finished_at else None,
            "finished": bool(state.finished),
            "winners": [{"seat": w, "name": players[w - 1]} for w in winners],
            "standings": standings(table.game, final, winners, players),
            "viewer": {"role": viewer.role, "seat": viewer.seat},
            "events": events,
            "exported": time.time(),
        }


def record_csv(record: Mapping[str, Any]) -> str:
    """One line per record: seq, ISO time, kind, who, ruling, undone."""
    out = io.StringIO()
    w = csv_writer(out)
    w.writerow(CSV_FIELDS)
    for e in record["events"]:
        w.writerow(csv_row([e["seq"], time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                    time.gmtime(e["time"])),
                            e["kind"], e["who"], e["ruling"],
                            "yes" if e["undone"] else "no"]))
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet reads as text, never as a formula (CSV injection, issue 27
    §11): text starting with ``= + - @``, a tab or a carriage return gets a leading
    apostrophe, as OWASP advises; numbers stay numbers."""
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value
    return value


def csv_row(values: Iterable[Any]) -> list[Any]:
    return [csv_cell(v) for v in values]


def csv_writer(out: io.StringIO) -> Any:
    """The writer of every CSV the companion exports: every field quoted."""
    return csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)


def replay_step(table: Table, viewer: Viewer, step: int) -> dict[str, Any]:
    """The table as ``viewer`` saw it after record ``step`` (0: before the first record):
    a snapshot-shaped object the table pages' renderers draw."""
    with table.lock:
        total = len(table.records)
        step = max(0, min(step, total))
        match = Match(table.rules, table.match.setup)
        records = table.records[:step]
        # C-7 rev. 3: the serials that stood in for a tap at any step so far, not this
        # viewer's own, are veiled in everything the step shows.
        seat = seat_of(viewer)
        hidden = table.veiled.hidden(seat, match.state)
        for after in states_after(match, ((r.kind, r.body) for r in records)):
            hidden |= table.veiled.hidden(seat, after)
        state = match.state
        rec = records[-1] if records else None
        undone = None
        if rec is not None and rec.kind == "undo":
            undone = table._undone_words(rec, viewer)
        shown = {
            "version": step,
            "steps": total,
            "table": table.id,
            "game": table.game,
            "title": table.rules.title,
            "players": table.players,
            "viewer": {"role": viewer.role, "seat": viewer.seat},
            "view": _view(table, state, viewer),
            "last_play": _last_play(table, state, viewer),
            "finished": bool(state.finished),
            "winners": list(state.winners),
            "undone": undone,
            "time": rec.time if rec else table.created,
            "who": who_words(rec.who, table.players) if rec else "",
            "kind": rec.kind if rec else "start",
            "ruling": _said(table, rec, viewer, match.plays[-1] if match.plays else None,
                            state) if rec else "",
            "actions": [],
        }
        for k in ("view", "last_play", "undone", "ruling"):
            shown[k] = table.veiled.veil(shown[k], seat, hidden)
        return shown


def summary(table: Table, archived: bool = False) -> dict[str, Any]:
    """One line of the history: game, date, length, players, winners and standings."""
    rec = record_of(table, HOST)
    return {
        "table": table.id, "game": table.game, "title": table.rules.title,
        "created": table.created, "ended": rec["ended"], "minutes": rec["minutes"],
        "finished": rec["finished"], "archived": archived,
        "events": sum(1 for e in rec["events"] if e["kind"] == "event" and not e["undone"]),
        "players": [p["name"] for p in rec["players"]],
        "winners": [w["name"] for w in rec["winners"]],
        "standings": rec["standings"],
    }


def player_key(name: str) -> str:
    """Players are matched by name, as scorekeeping apps do: case and spaces ignored."""
    return " ".join(name.split()).casefold()


def player_figures(summaries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per player across finished tables: games, wins, wins by game, the longest run of
    wins in a row (oldest first), best first."""
    figures: dict[str, dict[str, Any]] = {}
    for s in sorted(summaries, key=lambda s: s["created"]):
        if not s["finished"]:
            continue
        winners = {player_key(w) for w in s["winners"]}
        for name in s["players"]:
            key = player_key(name)
            f = figures.setdefault(key, {"name": name, "games": 0, "wins": 0, "by_game": {},
                                         "streak": 0, "longest_streak": 0})
            g = f["by_game"].setdefault(s["game"], {"games": 0, "wins": 0})
            f["games"] += 1
            g["games"] += 1
            if key in winners:
                f["wins"] += 1
                g["wins"] += 1
                f["streak"] += 1
                f["longest_streak"] = max(f["longest_streak"], f["streak"])
            else:
                f["streak"] = 0
    out = []
    for f in figures.values():
        f.pop("streak")
        f["win_rate"] = round(f["wins"] / f["games"], 3) if f["games"] else 0.0
        out.append(f)
    out.sort(key=lambda f: (-f["wins"], -f["win_rate"], f["name"].casefold()))
    return out
