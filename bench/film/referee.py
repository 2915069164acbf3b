"""A filmed game refereed by the real camera code against a real ``companion serve``.

``film_game`` registers a print run in a temporary data dir, starts ``companion serve``
as a child on loopback, creates the table through the API and plays the direct game
(``Rules.random_play``) in lock-step with the film: each event's cards are laid on the
filmed mat and every frame goes through ``cv.watch.Watcher`` (reader, tracker, the mat's
zones) with the camera token and the real sender (``cv.sender.HttpSink``/``Outbox``,
flushed after each frame); the taps and the referee's entries go through the API with
the seat's or the host's token. The companion's own chance (the target, the starting
player) is the server's: the direct game takes it from the server's log, as a table would.

After each event the server's log, replayed, must say every card is where the direct
game says (``Rules.places``), with the same winners. When it does not, a referee would
correct it: undo what the camera sent during that event and enter the event by hand; the
bench does so and counts a correction.
"""

from __future__ import annotations

import contextlib
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.film import script
from bench.film.render import Film
from companion.engine import Event, Match
from companion.registry import build_setup, demo_run, find_rules
from companion.runs import RunBook, RunStore
from cv.sources import Frame

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fay", "Gus", "Hana"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(data: Path) -> Iterator[str]:
    """``companion serve`` as a child on 127.0.0.1 with the data dir ``data``; its URL."""
    port = _free_port()
    log = open(data / "serve.log", "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion_cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--data-dir", str(data), "--threads", "16"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):  # bounded: a few seconds on an idle machine
            if proc.poll() is not None:
                raise RuntimeError(f"companion serve stopped (exit {proc.returncode}); see "
                                   f"{data / 'serve.log'}")
            try:
                if httpx.get(base + "/", timeout=2.0).status_code < 500:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise RuntimeError("companion serve did not answer")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()


@dataclass
class GameFigures:
    """What one filmed game came to."""

    game: str
    players: int
    res: str
    pace: str
    seed: int
    equal: bool = False  # the server's game ended where the direct game did
    finished: bool = False  # the direct game reached its end (not cut by --max-moves)
    events: int = 0  # events of the direct game played
    matched: int = 0  # events after which the server agreed without a correction
    camera_events: int = 0  # events the camera saw (cards shown)
    cards_shown: int = 0
    corrections: int = 0
    refusals: int = 0  # camera scans the server refused
    already_there: int = 0  # camera scans answered "already there" (C-9)
    missed: int = 0  # cards shown that the camera never sent
    duplicates: int = 0  # cards the server accepted with no card shown for it
    tap_refusals: int = 0
    diverged: str = ""  # set when even a correction could not bring the server in step
    frames: int = 0
    rendered: int = 0
    wall_s: float = 0.0
    camera_ms: list[float] = field(default_factory=list)
    fallback: list[str] = field(default_factory=list)  # pile zones off the mat
    refused_words: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)  # what went wrong, event by event

    @property
    def ms_per_frame(self) -> float:
        ms = sorted(self.camera_ms)
        return ms[len(ms) // 2] if ms else 0.0

    def summary(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("camera_ms")
        out["ms_per_frame"] = round(self.ms_per_frame, 1)
        out["wall_s"] = round(self.wall_s, 1)
        out["refused_words"] = dict(self.refused_words.most_common(5))
        out["notes"] = self.notes[:20]
        return out


class Table:
    """The server's table as the bench drives it: tokens, actions, the replayed log."""

    def __init__(self, http: httpx.Client, game: str, players: int, run_id: str) -> None:
        self.http, self.game = http, game
        r = http.post("/api/tables", json={"game": game, "players": NAMES[:players],
                                           "options": {}, "runs": [run_id]})
        r.raise_for_status()
        t = r.json()
        self.id = t["table"]
        self.tokens = {"host": t["host_token"], "camera": t["camera_token"]}
        for s in t["seats"]:
            self.tokens[f"seat:{s['seat']}"] = s["token"]

    def _call(self, method: str, path: str, who: str, body: Any = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {self.tokens[who]}"}
        for _ in range(50):  # bounded: the rate limits allow a few per second
            r = self.http.request(method, f"/api/tables/{self.id}{path}", json=body,
                                  headers=headers)
            if r.status_code != 429:
                return r
            time.sleep(float(r.headers.get("Retry-After", "0.5") or 0.5))
        return r

    def act(self, who: str, body: dict[str, Any]) -> httpx.Response:
        return self._call("POST", "/actions", who, body)

    def undo(self) -> httpx.Response:
        return self._call("POST", "/undo", "host", {})

    def records(self) -> list[dict[str, Any]]:
        r = self._call("GET", "/log", "host")
        r.raise_for_status()
        return [x for x in r.json()["log"] if x.get("kind") == "event" and not x.get("voided")]


def _agree(rules: Any, a: Match[Any], b: Match[Any]) -> bool:
    sa, sb = a.state, b.state
    return bool(dict(rules.places(sa)) == dict(rules.places(sb))
                and sa.finished == sb.finished and tuple(sa.winners) == tuple(sb.winners))


def film_game(game: str, players: int, *, res: str = "720p", pace: str = "calm",
              seed: int = 1, light: str = "normal", max_moves: int | None = None,
              dump: Path | None = None) -> GameFigures:
    """Play, film and referee one game; its figures."""
    from cv.detect import CardReader, make_decoder
    from cv.sender import HttpSink, Outbox, Outcome, Scan
    from cv.tracker import Tracker, TrackerConfig
    from cv.watch import Watcher
    from cv.zones import MatLocator

    figs = GameFigures(game, players, res, pace, seed)
    figs.fallback = script.missing_zones(game, players)
    zones = script.mat_zones(game, players)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="film-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        run = demo_run(game, players, random.Random(seed))
        RunStore(data).save(run)
        with serve(data) as base, httpx.Client(base_url=base, timeout=30.0) as http:
            table = Table(http, game, players, run.run_id)
            rules = find_rules(game)
            setup = build_setup(game, NAMES[:players], {}, [run])

            def replayed() -> tuple[Match[Any], list[dict[str, Any]]]:
                recs = table.records()
                return Match(rules, setup, [r["event"] for r in recs]), recs

            direct: Match[Any] = replayed()[0]  # the opening chance is the server's
            film = Film(game, players, [run], res, pace, light, seed)
            outcomes: list[tuple[Scan, Outcome]] = []
            outbox = Outbox(Path(tmp) / "outbox", HttpSink(base, table.id,
                                                           table.tokens["camera"]))
            watcher = Watcher(CardReader(make_decoder(), runbook=RunBook([run])),
                              Tracker(TrackerConfig()), locator=MatLocator(), game=game,
                              players=players, outbox=outbox)
            shown_by_watcher = outbox.on_outcome

            def heard(scan: Scan, outcome: Outcome) -> None:
                outcomes.append((scan, outcome))
                if shown_by_watcher is not None:
                    shown_by_watcher(scan, outcome)

            outbox.on_outcome = heard

            def roll(frames: Iterable[Frame]) -> Frame | None:
                last = None
                for frame in frames:
                    c0 = time.thread_time()
                    watcher.process(frame)
                    figs.camera_ms.append((time.thread_time() - c0) * 1000)
                    for _ in range(100):  # bounded: 429s are waited out
                        o = outbox.flush_once()
                        if o is None:
                            break
                        if o.status == "retry":
                            time.sleep(0.2)
                    figs.frames += 1
                    last = frame
                return last

            roll(film.wait(1.0))  # the camera finds the mat
            rng = random.Random(seed)
            while not direct.state.finished and (max_moves is None or figs.events < max_moves):
                event = rules.random_play(direct.state, rng)
                if event is None:
                    break
                step = script.plan(game, event, zones)
                before = len(table.records())
                heard_from = len(outcomes)
                last = None
                for show in step.shows:
                    last = roll(film.lay(show.serial, show.zone))
                for tap in step.taps:
                    if tap.offered and not _offered(rules, replayed()[0], tap):
                        continue
                    answer = table.act(tap.who, tap.body)
                    if answer.status_code >= 300:
                        figs.tap_refusals += 1
                        figs.notes.append(f"event {figs.events + 1} {event}: tap {tap.body} "
                                          f"refused: {answer.text[:160]}")
                direct.apply(event)
                figs.events += 1
                if step.camera:
                    figs.camera_events += 1
                    figs.cards_shown += len(step.shows)
                chance = _settle(rules, direct, table, replayed, before, event, figs)
                if chance is None:
                    break
                for e in chance:
                    direct.apply(e)
                new = script.layout(game, rules.places(direct.state), film.where, zones)
                moves = [(s, z) for s, z in new.items() if film.where.get(s) != z]
                gone = [s for s in film.where if s not in new]
                for s, z in moves:
                    roll(film.move(s, z))
                if gone:
                    roll(film.collect(gone))
                if not moves and not gone:
                    roll(film.wait(film.pace.gap))
                missed = figs.missed
                _count_scans(figs, step, outcomes[heard_from:])
                if figs.missed > missed and dump is not None and last is not None:
                    _dump(dump, figs, last)
            figs.finished = bool(direct.state.finished)
            mirror, _ = replayed()
            figs.equal = not figs.diverged and _agree(rules, mirror, direct)
            figs.rendered = film.rendered
            outbox.stop()
    figs.wall_s = time.perf_counter() - start
    return figs


def _offered(rules: Any, mirror: Match[Any], tap: script.Tap) -> bool:
    """Whether the phone of ``tap.who`` offers the tap now (its actions, as the page does)."""
    seat = int(tap.who[len(script.SEAT):]) if tap.who.startswith(script.SEAT) else None
    return any(a.get("type") == tap.body.get("type")
               for a in rules.actions(mirror.state, seat))


def _count_scans(figs: GameFigures, step: script.Step, heard: list[tuple[Any, Any]]) -> None:
    """Refusals, "already there", duplicates (accepted with no card shown for them) and
    missed cards (shown, never sent) of one step."""
    wanted = Counter(s.serial for s in step.shows)
    got: Counter[str] = Counter()
    for scan, outcome in heard:
        if outcome.status == "refused":
            figs.refusals += 1
            figs.refused_words[outcome.message[:70]] += 1
            if wanted[scan.serial] > got[scan.serial]:
                got[scan.serial] += 1  # sent; the server's refusal is counted, not a miss
                figs.notes.append(f"event {figs.events} {step.event}: the card shown was "
                                  f"refused: {outcome.message[:120]}")
        elif isinstance(outcome.answer, dict) and outcome.answer.get("already_there"):
            figs.already_there += 1
            if wanted[scan.serial] > got[scan.serial]:
                # Sent, and the referee had nothing to do: e.g. God Num's second discard
                # after the first reached the karma limit (GN-9): the seat's cards are out
                # of the game already. Whether that was right, the replayed log says.
                got[scan.serial] += 1
        elif wanted[scan.serial] > got[scan.serial]:
            got[scan.serial] += 1
        else:
            figs.duplicates += 1
    lost = wanted - got
    figs.missed += sum(lost.values())
    if lost:
        figs.notes.append(f"event {figs.events} {step.event}: camera never sent "
                          f"{sorted(lost)}")


def _settle(rules: Any, direct: Match[Any], table: Table, replayed: Any, before: int,
            event: Event, figs: GameFigures) -> list[Event] | None:
    """The server's chance made by this step (for the direct game), after a correction
    if the server does not agree; ``None`` if it cannot be brought in step."""
    for attempt in range(2):
        mirror, recs = replayed()
        new = recs[before:]
        chance = [r["event"] for r in new if r.get("who") == "companion"]
        probe: Match[Any] = Match(rules, direct.setup, list(direct.events))
        try:
            for e in chance:
                probe.apply(e)
        except Exception:
            chance = []
        if new and _agree(rules, mirror, probe):
            if attempt == 0:
                figs.matched += 1
            return chance
        if attempt == 1:
            break
        # The referee's correction: undo what came in during this event, enter it by hand.
        figs.corrections += 1
        plays = [r for r in new if r.get("who") != "companion"]
        for _ in plays:
            table.undo()
        table.act("host", dict(event))
    figs.diverged = f"after event {figs.events}: {event}"
    return None


def _dump(folder: Path, figs: GameFigures, frame: Frame) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    name = f"{figs.game}-{figs.players}p-{figs.pace}-s{figs.seed}-f{frame.seq:06d}.jpg"
    cv2.imwrite(str(folder / name), frame.image)
