"""``companion bench film GAME``: K whole games filmed and refereed; the figures per game
and in total (issue 26): games equal to the direct game, plays matched, corrections a
referee would need, refusals, missed and duplicate cards, wall time, camera ms per frame.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench.film.referee import GameFigures, film_game
from bench.film.script import missing_zones
from companion.progress import progress


def run_bench(args: argparse.Namespace) -> int:
    """Print the figures; 0 if every game was equal to the direct game with 0 corrections."""
    dump = Path(args.dump) if args.dump else None
    games: list[GameFigures] = []
    gaps = missing_zones(args.game, args.players)
    if gaps and not args.json:
        print(f"note: the printed {args.game} mat has no zone {', '.join(gaps)} yet; those "
              "cards go to a spot off the mat, out of the camera's view")
    # A bar over the games (stderr, a terminal only); each game's line still prints.
    with progress(args.games, "filming", "games", json_output=args.json) as bar:
        for k in range(args.games):
            figs = film_game(args.game, args.players, res=args.res, pace=args.pace,
                             seed=args.seed + k, light=args.light, max_moves=args.max_moves,
                             dump=dump)
            games.append(figs)
            if args.json:
                print(json.dumps(figs.summary()), flush=True)
            else:
                print(_line(figs), flush=True)
                for note in figs.notes[:10]:
                    print(f"  {note}", flush=True)
            bar.advance()
    total = _total(games)
    print(json.dumps(total) if args.json else _words(total), flush=True)
    return 0 if total["equal_pct"] == 100.0 and total["corrections"] == 0 else 1


def _line(f: GameFigures) -> str:
    end = "to the end" if f.finished else f"first {f.events} events"
    verdict = "equal" if f.equal else f"NOT equal ({f.diverged or 'final state differs'})"
    return (f"{f.game} {f.players}p {f.res} {f.pace} seed {f.seed}: {verdict}, {end}; "
            f"plays matched {f.matched}/{f.events} ({f.camera_events} by camera, "
            f"{f.cards_shown} cards shown); corrections {f.corrections}; refusals "
            f"{f.refusals}; already there {f.already_there}; missed {f.missed}; duplicates "
            f"{f.duplicates}; taps refused {f.tap_refusals}; {f.frames} frames, "
            f"{f.wall_s:.1f} s wall, {f.ms_per_frame:.1f} ms per frame (camera, CPU)")


def _total(games: list[GameFigures]) -> dict[str, object]:
    n = len(games)
    first = games[0]
    frames = sum(g.frames for g in games)
    ms = sorted(m for g in games for m in g.camera_ms)
    refused: dict[str, int] = {}
    for g in games:
        for k, v in g.refused_words.items():
            refused[k] = refused.get(k, 0) + v
    return {
        "game": first.game, "players": first.players, "res": first.res, "pace": first.pace,
        "games": n,
        "equal_pct": round(100.0 * sum(g.equal for g in games) / n, 1) if n else 0.0,
        "finished": sum(g.finished for g in games),
        "events": sum(g.events for g in games),
        "matched": sum(g.matched for g in games),
        "camera_events": sum(g.camera_events for g in games),
        "cards_shown": sum(g.cards_shown for g in games),
        "corrections": sum(g.corrections for g in games),
        "refusals": sum(g.refusals for g in games),
        "already_there": sum(g.already_there for g in games),
        "missed": sum(g.missed for g in games),
        "duplicates": sum(g.duplicates for g in games),
        "tap_refusals": sum(g.tap_refusals for g in games),
        "frames": frames,
        "wall_s": round(sum(g.wall_s for g in games), 1),
        "ms_per_frame": round(ms[len(ms) // 2], 1) if ms else 0.0,
        "ms_per_frame_p95": round(ms[int(0.95 * (len(ms) - 1))], 1) if ms else 0.0,
        "off_mat": first.fallback,
        "refused_words": dict(sorted(refused.items(), key=lambda kv: -kv[1])[:5]),
    }


def _words(t: dict[str, object]) -> str:
    off = t["off_mat"]
    return (f"TOTAL {t['game']} {t['players']}p {t['res']} {t['pace']}: {t['games']} games, "
            f"{t['equal_pct']} % equal to the direct game ({t['finished']} played to the "
            f"end); plays matched {t['matched']}/{t['events']}; corrections "
            f"{t['corrections']}; refusals {t['refusals']}; already there "
            f"{t['already_there']}; missed {t['missed']}; duplicates {t['duplicates']}; "
            f"{t['frames']} frames in {t['wall_s']} s wall; camera {t['ms_per_frame']} ms "
            f"per frame median, {t['ms_per_frame_p95']} p95"
            + (f"; off the mat: {', '.join(off)}" if isinstance(off, list) and off else ""))
