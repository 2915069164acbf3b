"""Tables: a ``Match`` per table in memory, its log in SQLite, tokens, views per viewer.

Who may do what:

- a *seat token* acts only as its seat (the event's ``"seat"`` comes from the token) and
  sees ``Rules.view(state, seat)``;
- the *host token* acts for any seat, scans, undoes, sets the timer, and sees
  ``Rules.referee_view`` and the log;
- the *camera token* only posts scans;
- no token: the public table view (the big screen).

Every change is written to the store before it is published; a refused play raises a
``CompanionError`` (or ``Refused``) and changes nothing, neither in memory nor on disk.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine import Event, Match, Rules
from companion.errors import (
    BadSetup,
    CompanionError,
    MalformedEvent,
    MalformedPayload,
    NothingToUndo,
    StaleVersion,
)
from companion.registry import build_setup, find_rules
from companion.runs import PrintRun, RunBook, RunStore
from web.store import Record, Store, StoredTable

log = logging.getLogger(__name__)

MAX_PLAYERS_NAME = 40
TIMER_MAX = 3600
LOG_IN_SNAPSHOT = 300


class Refused(CompanionError):
    """A request the web layer refuses before the rules see it (auth, seat, table)."""

    def __init__(self, message: str, *, code: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


@dataclass(frozen=True)
class Viewer:
    """Who looks at a table: ``role`` is ``host``, ``seat``, ``camera`` or ``public``."""

    role: str
    seat: int | None = None

    @property
    def key(self) -> str:
        return f"seat:{self.seat}" if self.role == "seat" else self.role

    @property
    def who(self) -> str:
        return self.key


PUBLIC = Viewer("public")
HOST = Viewer("host")


class Table:
    """One table: configuration, tokens, the match, and its log records."""

    def __init__(self, stored: StoredTable, rules: Rules[Any], match: Match[Any],
                 book: RunBook) -> None:
        self.id = stored.id
        self.game = stored.game
        self.config = stored.config
        self.created = stored.created
        self.records: list[Record] = stored.records
        self.scans = stored.scans
        self.rules = rules
        self.match = match
        self.book = book
        self.lock = threading.RLock()
        self._cache: dict[str, tuple[int, str]] = {}
        # The latest refused play, shown on the pages until the next accepted one (issue 11).
        self.refusal: dict[str, Any] | None = None

    # -- identity ---------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.records)

    @property
    def players(self) -> list[str]:
        return list(self.config["players"])

    def viewer_for(self, token: str | None) -> Viewer:
        """The viewer a token stands for; ``None`` is the public view.

        Raises ``Refused`` (403) for a token that belongs to no one at this table.
        """
        if token is None or token == "":
            return PUBLIC
        if secrets.compare_digest(token, self.config["host_token"]):
            return HOST
        if secrets.compare_digest(token, self.config["camera_token"]):
            return Viewer("camera")
        for i, t in enumerate(self.config["seat_tokens"], start=1):
            if secrets.compare_digest(token, t):
                return Viewer("seat", i)
        raise Refused(f"that token does not belong to table {self.id!r}",
                      code="bad_token", status=403)

    # -- reading ----------------------------------------------------------------------
    def timer(self) -> dict[str, Any] | None:
        seconds = 0
        for r in self.records:
            if r.kind == "timer":
                seconds = int(r.body.get("seconds", 0))
        if not seconds:
            return None
        # The clock restarts whenever the table changes (a play, an undo, the timer itself).
        started = self.records[-1].time if self.records else self.created
        return {"seconds": seconds, "started": started, "deadline": started + seconds}

    def last_undo(self, viewer: Viewer) -> str | None:
        """What the latest undo undid, in words this viewer may read (if it is the latest)."""
        if not self.records or self.records[-1].kind != "undo":
            return None
        said: Mapping[str, str] = self.records[-1].body.get("said", {})
        key = "host" if viewer.role == "host" else viewer.key
        return said.get(key) or said.get("public")

    def snapshot(self, viewer: Viewer) -> dict[str, Any]:
        """The JSON a viewer receives: version, game, view, actions, timer, undo notice."""
        return json.loads(self.snapshot_json(viewer))  # type: ignore[no-any-return]

    def snapshot_json(self, viewer: Viewer) -> str:
        """``snapshot`` as JSON text, cached per version and viewer (fan-out to phones)."""
        return self.versioned_snapshot(viewer)[1]

    def versioned_snapshot(self, viewer: Viewer) -> tuple[int, str]:
        """``(version, snapshot JSON)`` read together under the table's lock."""
        with self.lock:
            key = viewer.key
            cached = self._cache.get(key)
            if cached is not None and cached[0] == self.version:
                return cached
            text = json.dumps(self._snapshot(viewer), separators=(",", ":"))
            self._cache[key] = (self.version, text)
            return self.version, text

    def _snapshot(self, viewer: Viewer) -> dict[str, Any]:
        state = self.match.state
        # The camera token gets the public view: it is a device, not a person.
        if viewer.role == "host":
            view = self.rules.referee_view(state)
            actions = self.rules.actions(state, None)
        elif viewer.role == "seat":
            view = self.rules.view(state, viewer.seat)
            actions = self.rules.actions(state, viewer.seat)
        else:
            view = self.rules.view(state, None)
            actions = []
        out: dict[str, Any] = {
            "version": self.version,
            "table": self.id,
            "game": self.game,
            "title": self.rules.title,
            "players": self.players,
            "options": self.config["options"],
            "viewer": {"role": viewer.role, "seat": viewer.seat,
                       "name": self.players[viewer.seat - 1] if viewer.seat else None},
            "view": view,
            "actions": actions,
            "finished": bool(state.finished),
            "winners": list(state.winners),
            "timer": self.timer(),
            "undone": self.last_undo(viewer),
            "history": self.history(),
            # What the latest play did, per viewer (issue 11; 0 = the referee), and the
            # print runs, so "play again" makes a table with the same cards.
            "refused": self._refusal_for(viewer),
            "last_play": self.rules.last_play(
                state, 0 if viewer.role == "host" else viewer.seat),
            "runs": self.config["runs"],
            "now": time.time(),
        }
        if viewer.role == "host":
            # The newest records only: this goes out on every change (GET .../log has all).
            out["log"] = self.log_json()[-LOG_IN_SNAPSHOT:]
            out["log_total"] = len(self.records)
            out["zones"] = self.zones()
            out["can_undo"] = self._undo_group_text()
        return out

    def _refusal_for(self, viewer: Viewer) -> dict[str, Any] | None:
        """The latest refusal if no play was accepted since: the referee reads all of it (and
        the scan to override), the refused seat its reason; everyone else only who was
        refused and the ruling id, since a reason may name a hidden card."""
        r = self.refusal
        if r is None or r["version"] != self.version:
            return None
        if viewer.role == "host":
            return r
        out = {k: r[k] for k in ("who", "seat", "type", "rule", "code")}
        if viewer.role == "seat" and viewer.who == r["who"]:
            out["error"] = r["error"]
        return out

    def _note_refusal(self, event: Mapping[str, Any], viewer: Viewer,
                      exc: CompanionError) -> None:
        seat = event.get("seat") if viewer.role == "host" else viewer.seat
        scan = {k: event[k] for k in ("type", "card", "zone") if k in event} \
            if event.get("type") == "scan" else None
        self.refusal = {"version": self.version, "who": viewer.who,
                        "seat": seat if isinstance(seat, int) else None,
                        "type": str(event.get("type"))[:40], "error": str(exc)[:400],
                        "code": exc.code, "rule": exc.rule, "scan": scan}
        self._cache.clear()

    def zones(self) -> list[str]:
        """The scan zones of this game with ``<n>`` expanded to every seat."""
        out: list[str] = []
        for z in self.rules.zones:
            if "<n>" in z:
                out.extend(z.replace("<n>", str(s)) for s in range(1, len(self.players) + 1))
            else:
                out.append(z)
        return out

    def log_json(self) -> list[dict[str, Any]]:
        return [
            {"seq": r.seq, "time": r.time, "kind": r.kind, "who": r.who,
             "event": r.body, "ruling": r.ruling, "voided": r.voided,
             "voided_by": r.voided_by}
            for r in self.records
        ]

    def cards(self) -> list[dict[str, Any]]:
        """Every printed card of this table (host only: serials name faces)."""
        return [
            {"serial": c.serial, "face": c.face.id, "name": c.face.name, "deck": c.deck,
             "payload": c.payload}
            for c in self.book.cards.values()
        ]

    # -- changing ---------------------------------------------------------------------
    def _check_version(self, version: Any) -> None:
        if version is None:
            return
        if not isinstance(version, int) or isinstance(version, bool):
            raise MalformedEvent(f"version must be a whole number, got {version!r}")
        if version != self.version:
            raise StaleVersion(
                f"the table is at version {self.version}, the request was for {version}; "
                "reload and try again"
            )

    def _apply_rules(self, event: Event) -> None:
        try:
            self.match.apply(event)
        except CompanionError:
            raise
        except Exception as exc:  # an engine bug must not become a 500 for the player
            log.exception("engine %s failed on %r", self.game, event)
            raise MalformedEvent(
                f"the {self.rules.title} rules could not handle {dict(event)!r}: "
                f"{type(exc).__name__}"
            ) from None

    def play(self, store: Store, event: Mapping[str, Any], viewer: Viewer, *,
             version: Any = None, scan_id: str | None = None,
             respond: Callable[[list[Record]], dict[str, Any]] | None = None,
             ) -> list[Record]:
        """Apply one event, then any chance it makes due, and store them all.

        Raises ``CompanionError`` (nothing changed). Returns the new records.
        """
        with self.lock:
            self._check_version(version)
            n0 = self.match.version
            try:
                self._apply_rules(event)
            except CompanionError as exc:
                self._note_refusal(event, viewer, exc)
                raise
            public = [self._public_ruling()]
            try:  # Match.settle, one chance event at a time to word each publicly (C-4)
                rng = random.SystemRandom()
                while (chance := self.rules.chance(self.match.state, rng)) is not None:
                    self.match.apply(chance)
                    public.append(self._public_ruling())
            except CompanionError as exc:
                log.error("chance of %s failed after %r: %s", self.game, event, exc)
            now = time.time()
            new: list[Record] = []
            for i, e in enumerate(self.match.events[n0:]):
                who = viewer.who if i == 0 else "companion"
                new.append(Record(self.version + 1 + i, now, "event", who, dict(e),
                                  self.match.rulings[n0 + i], public=public[i]))
            try:
                self.records.extend(new)
                scan = None
                if scan_id is not None and respond is not None:
                    scan = (scan_id, 200, respond(new))
                store.append(self.id, new, scan=scan)
            except BaseException:
                del self.records[len(self.records) - len(new):]
                self.match.undo(self.match.version - n0)
                raise
            if scan is not None:
                self.scans[scan[0]] = (scan[1], scan[2])
            return new

    def _public_ruling(self) -> str:
        text = self.rules.view(self.match.state, None).get("ruling")
        return str(text) if text else ""

    def history(self, count: int = 8) -> list[dict[str, Any]]:
        """The newest public rulings, newest first, for every page (undone ones marked)."""
        out = []
        for r in reversed(self.records):
            text = r.public or (r.ruling if r.kind == "timer" else "")
            if r.kind == "undo":
                text = "Undone: " + str(r.body.get("said", {}).get("public", "the last play"))
            if text:
                out.append({"seq": r.seq, "time": r.time, "text": text, "voided": r.voided})
            if len(out) >= count:
                break
        return out

    def _undo_group(self) -> list[Record]:
        live = [r for r in self.records if r.kind == "event" and not r.voided]
        for i in range(len(live) - 1, -1, -1):
            if live[i].who != "companion":
                return live[i:]
        return []

    def _undo_group_text(self) -> str | None:
        group = self._undo_group()
        return group[0].ruling if group else None

    def undo(self, store: Store, viewer: Viewer, *, version: Any = None) -> Record:
        """Void the last play (and the chance events it made) by replay (C-3).

        The voided records stay in the log, marked. What was undone is said to each viewer
        in the words of that viewer's view of the undone play, so undo never reveals a
        hidden card. Raises ``NothingToUndo``/``StaleVersion``.
        """
        with self.lock:
            self._check_version(version)
            group = self._undo_group()
            if not group:
                raise NothingToUndo("there is no play to undo at this table")
            before_events = list(self.match.events)
            self.match.undo(len(group))
            try:
                after = self.rules.apply(self.match.state, group[0].body)
                said = {"host": group[0].ruling}
                public = self.rules.view(after, None).get("ruling")
                said["public"] = str(public) if public else "the last play"
                for s in range(1, len(self.players) + 1):
                    text = self.rules.view(after, s).get("ruling")
                    said[f"seat:{s}"] = str(text) if text else said["public"]
            except Exception:  # the undone play replays as it did; this is a safety net
                log.exception("could not describe the undo at %s", self.id)
                said = {"host": group[0].ruling, "public": "the last play"}
            seq = self.version + 1
            rec = Record(seq, time.time(), "undo", viewer.who,
                         {"voids": [r.seq for r in group], "said": said},
                         f"Undone: {group[0].ruling}", public=f"Undone: {said['public']}")
            try:
                for r in group:
                    r.voided_by = seq
                self.records.append(rec)
                store.append(self.id, [rec], void=[r.seq for r in group], voided_by=seq)
            except BaseException:
                for r in group:
                    r.voided_by = None
                if self.records and self.records[-1] is rec:
                    self.records.pop()
                self.match = Match(self.rules, self.match.setup, before_events)
                raise
            return rec

    def set_timer(self, store: Store, seconds: Any, viewer: Viewer, *,
                  version: Any = None) -> Record:
        """Set the per-turn timer (0 switches it off); raises ``MalformedEvent``."""
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not (
                seconds == 0 or 5 <= seconds <= TIMER_MAX):
            raise MalformedEvent(
                f"timer seconds must be 0 (off) or 5-{TIMER_MAX}, got {seconds!r}")
        with self.lock:
            self._check_version(version)
            text = f"Turn timer set to {seconds} s." if seconds else "Turn timer off."
            rec = Record(self.version + 1, time.time(), "timer", viewer.who,
                         {"seconds": seconds}, text, public=text)
            self.records.append(rec)
            try:
                store.append(self.id, [rec])
            except BaseException:
                self.records.pop()
                raise
            return rec

    def resolve_card(self, text: str) -> str:
        """A serial from a serial or a scanned payload; raises ``UnknownCard``/``Malformed``."""
        if not isinstance(text, str) or not text.strip():
            raise MalformedPayload(f"a card must be a serial or a payload, got {text!r}")
        text = text.strip()
        if any(c.face.id == text for c in self.book.cards.values()):
            return text  # a face id entered by hand: the engine picks a copy (C-1, C-6)
        if text.startswith("T1:"):
            return self.book.resolve(text, self.game).serial
        return self.book.card(text.upper()).serial


class Tables:
    """Every table of the server: created here, rebuilt from the store on start."""

    def __init__(self, store: Store, runs: RunStore) -> None:
        self.store = store
        self.runs = runs
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self.broken: dict[str, str] = {}

    def load(self) -> None:
        """Rebuild every stored table by replaying its live events (C-3)."""
        for st in self.store.load_all():
            try:
                table = self._build(st)
            except Exception as exc:  # one damaged table must not keep the others down
                log.exception("table %s could not be rebuilt", st.id)
                self.broken[st.id] = f"{type(exc).__name__}: {exc}"
                continue
            self._tables[st.id] = table

    def _build(self, st: StoredTable) -> Table:
        rules = find_rules(st.game)
        runs = [self.runs.load(r) for r in st.config["runs"]]
        setup = build_setup(st.game, st.config["players"], st.config["options"], runs)
        live = [r.body for r in st.records if r.kind == "event" and not r.voided]
        match = Match(rules, setup, live)
        return Table(st, rules, match, RunBook(runs))

    def get(self, table_id: str) -> Table:
        table = self._tables.get(table_id) if isinstance(table_id, str) else None
        if table is None and table_id in self.broken:
            raise Refused(f"table {table_id!r} is stored but could not be rebuilt: "
                          f"{self.broken[table_id]}", code="table_unavailable", status=409)
        if table is None:
            raise Refused(f"there is no table {table_id!r}", code="unknown_table", status=404)
        return table

    def all(self) -> list[Table]:
        return list(self._tables.values())

    def create(self, game: Any, players: Any, options: Any = None,
               run_ids: Any = None, timer: Any = 0) -> Table:
        """A new table with fresh tokens; raises ``BadSetup``/``UnknownGame``."""
        rules = find_rules(game)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadSetup(f"players must be a list of names, got {players!r}")
        players = [p.strip() for p in players]
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise BadSetup(f"options must be an object, got {options!r}")
        runs = self._runs_for(game, run_ids)
        setup = build_setup(game, players, options, runs)
        match: Match[Any] = Match(rules, setup)
        rng = random.SystemRandom()
        public = []
        while (chance := rules.chance(match.state, rng)) is not None:  # C-4, as Match.settle
            match.apply(chance)
            text = rules.view(match.state, None).get("ruling")
            public.append(str(text) if text else "")
        now = time.time()
        records = [Record(i + 1, now, "event", "companion", dict(e), match.rulings[i],
                          public=public[i]) for i, e in enumerate(match.events)]
        if timer:
            if not isinstance(timer, int) or isinstance(timer, bool) or not (
                    5 <= timer <= TIMER_MAX):
                raise BadSetup(f"timer must be 0 (off) or 5-{TIMER_MAX} seconds, got {timer!r}")
            text = f"Turn timer set to {timer} s."
            records.append(Record(len(records) + 1, now, "timer", "host", {"seconds": timer},
                                  text, public=text))
        config = {
            "players": players,
            "options": dict(setup.options),
            "runs": [r.run_id for r in runs],
            "host_token": secrets.token_urlsafe(18),
            "camera_token": secrets.token_urlsafe(18),
            "seat_tokens": [secrets.token_urlsafe(18) for _ in players],
        }
        with self._lock:
            table_id = self._new_id()
            st = StoredTable(table_id, game, config, now, records, {})
            self.store.create_table(table_id, game, config, now, records)
            table = Table(st, rules, match, RunBook(runs))
            self._tables[table_id] = table
        return table

    def _runs_for(self, game: str, run_ids: Any) -> list[PrintRun]:
        if run_ids is None or run_ids == []:
            newest = self.runs.newest(game)
            if newest is None:
                raise BadSetup(
                    f"no print run of {game} is registered on this server; print one "
                    "(companion print) or start the server with --demo")
            return [newest]
        if not isinstance(run_ids, list) or not all(isinstance(r, str) for r in run_ids):
            raise BadSetup(f"runs must be a list of print run ids, got {run_ids!r}")
        out = []
        for rid in run_ids:
            try:
                out.append(self.runs.load(rid))
            except CompanionError as exc:
                raise BadSetup(str(exc)) from None
        return out

    def _new_id(self) -> str:
        alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud at a table
        while True:
            tid = "".join(secrets.choice(alphabet) for _ in range(6))
            if tid not in self._tables:
                return tid


def event_from_body(body: Mapping[str, Any], viewer: Viewer,
                    players: Sequence[str]) -> dict[str, Any]:
    """The event a request body asks for, with ``seat`` set from a seat token.

    Raises ``Refused`` when a seat acts for another seat, ``MalformedEvent`` on bad fields.
    """
    event = {k: v for k, v in body.items() if k not in ("version",)}
    if not isinstance(event.get("type"), str) or not event["type"]:
        raise MalformedEvent(f"an action needs a \"type\", got {dict(body)!r}")
    if viewer.role == "seat":
        if "seat" in event and event["seat"] != viewer.seat:
            raise Refused(
                f"{players[viewer.seat - 1]} (seat {viewer.seat}) cannot act for seat "  # type: ignore[operator]
                f"{event['seat']!r}", code="wrong_seat", status=403)
        if event.get("override"):
            raise Refused("only the referee can override a refusal", code="not_allowed",
                          status=403)
        event["seat"] = viewer.seat
    return event
