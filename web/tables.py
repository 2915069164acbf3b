"""Every table of the server (``Tables``: created, loaded, caught up with a shared store,
archived) and the request checks of who acts (C-7): ``event_from_body``, seat fields, zones.

``Table``, ``Viewer`` and ``Refused`` live in ``web.table`` and are imported from here too.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion import names
from companion.engine import Match
from companion.errors import (
    BadSetup,
    CompanionError,
    MalformedEvent,
)
from companion.registry import build_setup, find_rules
from companion.runs import PrintRun, RunBook, RunStore
from companion.zones import parse_zone
from web.store import DamagedTable, EventStore, Listed, Record, StoredTable
from web.table import (
    ABANDONED_AFTER,
    HOST,
    MAX_RUN_ID,
    PUBLIC,
    SEAT_FIELDS,
    TIMER_MAX,
    Refused,
    Table,
    Viewer,
)

log = logging.getLogger(__name__)

__all__ = ["HOST", "PUBLIC", "Refused", "Table", "Tables", "Viewer", "check_own_zone",
           "event_from_body"]

# A table nobody has asked about for this long leaves memory (its log stays in the store)
# and is rebuilt by replay on its next request: memory follows the tables in play.
IDLE_AFTER = 600.0
# Table ids as this server makes them (and older ones): checked before any store sees them
# (a NUL byte reached PostgreSQL as a 500 DataError).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_FOLLOWS = 16  # "play again" links loaded with one table (a chain is rarely longer)


class Tables:
    """Every table of the server: made here, loaded from the store on first use, left out
    of memory when idle, and (``shared``) caught up with other processes before each use.

    Nothing is read at start: a table is rebuilt from its live events (C-3) on its first
    request, so start-up does not grow with the stored tables. A table that cannot be
    rebuilt answers ``table_unavailable`` with the reason (``broken``)."""

    def __init__(self, store: EventStore, runs: RunStore, *, shared: bool = False,
                 abandoned_after: float = ABANDONED_AFTER, idle_after: float = IDLE_AFTER,
                 in_use: Callable[[str], bool] | None = None) -> None:
        self.store = store
        self.runs = runs
        self.abandoned_after = abandoned_after
        self.idle_after = idle_after
        # Tables with an open page stay in memory: the stream reads the loaded copy.
        self.in_use = in_use or (lambda table_id: False)
        # shared: other processes write to the same database (PostgreSQL). Each answer
        # then first reads the table's row (deleted? played again?) and its new records.
        self.shared = shared
        self._tables: dict[str, Table] = {}
        self._used: dict[str, float] = {}  # table id -> monotonic time of its last use
        self._swept = time.monotonic()
        self._lock = threading.RLock()
        self.broken: dict[str, str] = {}
        self.deleted: dict[str, float] = {}
        # Client address -> tables it made that may still be in play (the live ceiling),
        # and what an idle one looked like when it left memory: (finished, last change).
        self._made: dict[str, list[str]] = {}
        self._left: dict[str, tuple[bool, float]] = {}

    @property
    def loaded(self) -> int:
        """How many tables are in memory now."""
        return len(self._tables)

    def _build(self, st: StoredTable) -> Table:
        players = st.config.get("players")
        if isinstance(players, list):  # a record from before names were checked (C-8)
            st.config["players"] = [names.escaped(p) for p in players]
        rules = find_rules(st.game)
        runs = [self.runs.load(r) for r in st.config["runs"]]
        setup = build_setup(st.game, st.config["players"], st.config["options"], runs)
        live = [r.body for r in st.records if r.kind == "event" and not r.voided]
        match = Match(rules, setup, live)
        table = Table(st, rules, match, RunBook(runs))
        table.shared_store = self.store if self.shared else None
        return table

    def get(self, table_id: str) -> Table:
        """The table; raises ``Refused``: 404 ``unknown_table``, 410 ``table_deleted``,
        409 ``table_unavailable``."""
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            shown = names.shown(table_id, limit=16)
            raise Refused(f"there is no table {shown}", code="unknown_table", status=404)
        self._sweep()
        table = self._tables.get(table_id)
        if (table is None or self.shared) and table_id not in self.broken:
            table = self._fresh(table_id, table)
        if table is not None:
            self._used[table_id] = time.monotonic()
            return table
        shown = names.shown(table_id, limit=16)
        if table_id in self.deleted:
            raise Refused(f"table {shown} was deleted by its host", code="table_deleted",
                          status=410)
        if table_id in self.broken:
            raise Refused(f"table {shown} is stored but could not be rebuilt: "
                          f"{self.broken[table_id]}", code="table_unavailable", status=409)
        raise Refused(f"there is no table {shown}", code="unknown_table", status=404)

    def archived(self, table_id: str) -> Table:
        """A table its host deleted, rebuilt from the store to be read (its record, its
        replay), never kept in memory nor played on; raises ``Refused`` like ``get``."""
        if not isinstance(table_id, str) or table_id not in self.deleted:
            return self.get(table_id)
        st = self.store.load_table(table_id, archived=True)
        if not isinstance(st, StoredTable):
            raise Refused(f"table {names.shown(table_id, limit=16)} cannot be read back",
                          code="table_unavailable", status=409)
        return self._build(st)

    def delete(self, table: Table, now: float | None = None) -> None:
        """Archive a finished or abandoned table (no change for ``abandoned_after``
        seconds); raises ``Refused`` (409 ``table_in_play``) for a table still in play."""
        now = time.time() if now is None else now
        with table.lock:
            idle = now - table.last_change()
            if not table.match.state.finished and idle < self.abandoned_after:
                raise Refused(
                    f"table {table.id!r} is still in play (last change {int(idle // 60)} "
                    f"minutes ago); a host can delete it when the game is over or after "
                    f"{self.abandoned_after / 3600:g} hours without a change",
                    code="table_in_play", status=409)
            self.store.delete_table(table.id, now)
            self._forget(table.id, deleted=now)

    def _forget(self, table_id: str, deleted: float | None = None) -> None:
        with self._lock:
            self._tables.pop(table_id, None)
            self._used.pop(table_id, None)
            if deleted is not None:
                self.deleted[table_id] = deleted

    def _fresh(self, table_id: str, table: Table | None, depth: int = 0) -> Table | None:
        """``table`` as the store has it now: loaded on first use, and (shared) gone when
        another process deleted it, linked to the table played again from it, caught up
        with its new records. ``None``: no such table (``deleted``/``broken`` say why)."""
        status = self.store.table_status(table_id)
        if status is None or status[0] is not None:
            if status is not None:
                self._forget(table_id, deleted=float(status[0] or 0))
            return None
        if table is None:
            table = self._load(table_id)
            if table is None:
                return None
        nxt = status[1]
        if nxt and (table.next is None or table.next.id != nxt) and depth < MAX_FOLLOWS:
            following = self._tables.get(nxt)
            if following is None and TABLE_ID.fullmatch(nxt):
                following = self._fresh(nxt, None, depth + 1)
            if following is not None:
                table.link_next(following)
        if self.shared:
            table.catch_up(self.store)
        return table

    def _load(self, table_id: str) -> Table | None:
        """Rebuild one stored table by replay and keep it in memory (``None``: none)."""
        st = self.store.load_table(table_id)
        if st is None:
            return None
        if isinstance(st, DamagedTable):
            log.error("table %s could not be read: %s", st.id, st.why)
            self.broken[table_id] = st.why
            return None
        try:
            built = self._build(st)
        except Exception as exc:  # one damaged table must not keep the others down
            log.exception("table %s could not be rebuilt", table_id)
            self.broken[table_id] = f"{type(exc).__name__}: {exc}"
            return None
        finished = bool(built.match.state.finished)
        if finished != st.finished:  # a store from before the list kept it: noted now
            try:
                self.store.append(table_id, [], finished=finished)
            except CompanionError as exc:  # only the list's word; the table still answers
                log.warning("table %s: could not note it finished: %s", table_id, exc)
        with self._lock:
            table = self._tables.setdefault(table_id, built)
            self._used[table_id] = time.monotonic()
            self._left.pop(table_id, None)
        return table

    def _sweep(self, now: float | None = None) -> int:
        """Let tables idle for ``idle_after`` seconds leave memory (at most once every
        ``idle_after / 4`` seconds); returns how many left."""
        now = time.monotonic() if now is None else now
        if now - self._swept < min(60.0, self.idle_after / 4):
            return 0
        self._swept = now
        return self.evict_idle(now)

    def evict_idle(self, now: float | None = None) -> int:
        """Let every table unused for ``idle_after`` seconds and without an open page leave
        memory now; returns how many left."""
        now = time.monotonic() if now is None else now
        made = {tid for ids in self._made.values() for tid in ids}
        gone = 0
        with self._lock:
            for tid, used in list(self._used.items()):
                if now - used < self.idle_after or self.in_use(tid):
                    continue
                table = self._tables.pop(tid, None)
                del self._used[tid]
                if table is not None and tid in made:
                    self._left[tid] = (bool(table.match.state.finished), table.last_change())
                gone += 1
        return gone

    def listing(self, limit: int = 50, before: tuple[float, str] | None = None
                ) -> list[Listed]:
        """A page of the tables in play, newest first, read from the store (no replay);
        a table found damaged is left out."""
        return [t for t in self.store.list_tables(limit, before) if t.id not in self.broken]

    def all(self) -> list[Table]:
        """Every stored table in play, each loaded (the command line's links; not for a
        request: it grows with the store)."""
        out = []
        for tid in self.store.table_ids():
            try:
                out.append(self.get(tid))
            except Refused:
                continue
        return out

    def live_made_by(self, client: str) -> int:
        """How many tables ``client`` made (since this process started) are still in play:
        not deleted, not finished, changed within ``abandoned_after``."""
        now = time.time()
        with self._lock:
            keep = []
            for tid in self._made.get(client, []):
                if tid in self.deleted:
                    continue
                table = self._tables.get(tid)
                finished, changed = ((bool(table.match.state.finished), table.last_change())
                                     if table is not None else self._left.get(tid, (False, now)))
                if not finished and now - changed < self.abandoned_after:
                    keep.append(tid)
            for tid in set(self._made.get(client, [])) - set(keep):
                self._left.pop(tid, None)
            if keep:
                self._made[client] = keep
            else:
                self._made.pop(client, None)
            return len(keep)

    def create(self, game: Any, players: Any, options: Any = None,
               run_ids: Any = None, timer: Any = 0, follows: Table | None = None,
               maker: str | None = None) -> Table:
        """A new table with fresh tokens; raises ``BadSetup``/``UnknownGame``. ``follows``:
        the table it is played again from, whose pages then move to this one; ``maker``:
        the client address it counts against (``live_made_by``)."""
        rules = find_rules(game)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise BadSetup(f"players must be a list of names, got {names.shown(players)}")
        players = list(names.player_names(players))  # NFC, trimmed, checked (C-7, C-8)
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
        if follows is not None:
            config["follows"] = follows.id
        with self._lock:
            table_id = self._new_id()
            st = StoredTable(table_id, game, config, now, records, {})
            self.store.create_table(table_id, game, config, now, records)
            table = Table(st, rules, match, RunBook(runs))
            table.shared_store = self.store if self.shared else None
            self._tables[table_id] = table
            self._used[table_id] = time.monotonic()
            if maker is not None:
                self._made.setdefault(maker, []).append(table_id)
        if follows is not None:
            follows.link_next(table)
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
            raise BadSetup(f"runs must be a list of print run ids, got {names.shown(run_ids)}")
        for rid in run_ids:  # before it becomes a file name (a long one was an OSError)
            if not 0 < len(rid) <= MAX_RUN_ID or not rid.isascii() or not rid.isalnum():
                raise BadSetup(f"print run id {names.shown(rid, limit=20)} is not a run id "
                               f"(1-{MAX_RUN_ID} letters and digits)")
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
            if tid not in self._tables and tid not in self.deleted and \
                    tid not in self.broken and self.store.table_status(tid) is None:
                return tid


def event_from_body(body: Mapping[str, Any], viewer: Viewer,
                    players: Sequence[str]) -> dict[str, Any]:
    """The event a request body asks for, with ``seat`` set from a seat token (C-7).

    Every field that names a seat must be a plain int 1..players and ``zone`` a zone in its
    one spelling (``companion.zones``). Raises ``Refused`` (403) when a seat acts for
    another seat, ``MalformedEvent`` on bad fields.
    """
    event = {k: v for k, v in body.items() if k not in ("version",)}
    if not isinstance(event.get("type"), str) or not event["type"]:
        raise MalformedEvent(f"an action needs a \"type\", got {names.shown(event.get('type'))}")
    check_seat_fields(event, len(players))
    if viewer.role == "seat":
        if "seat" in event and event["seat"] != viewer.seat:
            raise Refused(
                f"{players[viewer.seat - 1]} (seat {viewer.seat}) cannot act for seat "  # type: ignore[operator]
                f"{event['seat']!r}", code="wrong_seat", status=403)
        if event.get("override"):
            raise Refused("only the referee can override a refusal", code="not_allowed",
                          status=403)
        event["seat"] = viewer.seat
    if "zone" in event:
        check_own_zone(viewer, event["zone"], len(players))
    return event


def check_seat_fields(event: Mapping[str, Any], players: int) -> None:
    """Raises ``MalformedEvent`` unless each seat-naming field is an int 1..players."""
    for key in SEAT_FIELDS:
        if key not in event or (key == "target2" and event[key] is None):
            continue
        value = event[key]
        if type(value) is not int or not 1 <= value <= players:
            raise MalformedEvent(f"event field {key!r} must name a seat as a number "
                                 f"1-{players}, got {names.shown(value, limit=20)}",
                                 rule="C-7")


def check_own_zone(viewer: Viewer, zone: Any, players: int) -> None:
    """A zone in its one spelling (else ``MalformedEvent``); a seat token may name only its
    own seat's zones (else ``Refused`` 403 ``wrong_seat``). Shared zones are the rules' to
    allow: only when they wait for that seat there."""
    z = parse_zone(zone, players)
    if viewer.role == "seat" and z.seat is not None and z.seat != viewer.seat:
        raise Refused(f"seat {viewer.seat} cannot show a card in another seat's zone "
                      f"{str(z)!r}", code="wrong_seat", status=403)
