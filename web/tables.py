"""Every table of the server (``Tables``: created, loaded, caught up with a shared store,
archived) and the request checks of who acts (C-7): ``event_from_body``, seat fields, zones.

``Table``, ``Viewer`` and ``Refused`` live in ``web.table`` and are imported from here too.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
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
from web.store import DamagedTable, EventStore, Record, StoredTable
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

class Tables:
    """Every table of the server: created here, rebuilt from the store on start."""

    def __init__(self, store: EventStore, runs: RunStore, *, shared: bool = False,
                 abandoned_after: float = ABANDONED_AFTER) -> None:
        self.store = store
        self.runs = runs
        self.abandoned_after = abandoned_after
        # shared: other processes write to the same database (PostgreSQL). Tables are then
        # loaded on first use and brought up to date from the store before every answer.
        self.shared = shared
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()
        self.broken: dict[str, str] = {}
        self.deleted: dict[str, float] = {}

    def load(self) -> None:
        """Rebuild every stored table by replaying its live events (C-3).

        Never fails because of stored data: a table that cannot be rebuilt is kept in
        ``broken`` with the reason (``table_unavailable``), a name stored before names were
        checked is shown escaped. A shared store loads nothing here: start-up must not grow
        with the number of stored tables.
        """
        self.deleted = self.store.deleted_ids()
        if self.shared:
            return
        for st in self.store.load_all():
            if isinstance(st, DamagedTable):
                log.error("table %s could not be read: %s", st.id, st.why)
                self.broken[st.id] = st.why
                continue
            try:
                table = self._build(st)
            except Exception as exc:  # one damaged table must not keep the others down
                log.exception("table %s could not be rebuilt", st.id)
                self.broken[st.id] = f"{type(exc).__name__}: {exc}"
                continue
            self._tables[st.id] = table
        # Played again: each table's pages follow to the newest table made from it.
        for table in sorted(self._tables.values(), key=lambda t: t.created):
            before = self._tables.get(str(table.config.get("follows", "")))
            if before is not None:
                before.link_next(table)

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
        table = self._tables.get(table_id) if isinstance(table_id, str) else None
        if self.shared and isinstance(table_id, str) and table_id not in self.broken \
                and table_id not in self.deleted:
            table = self._fresh(table_id, table)
        if table is not None:
            return table
        shown = names.shown(table_id, limit=16)
        if self.shared and table_id not in self.deleted:
            self.deleted.update(self.store.deleted_ids())  # deleted through another server
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
            with self._lock:
                self._tables.pop(table.id, None)
                self.deleted[table.id] = now

    def _fresh(self, table_id: str, table: Table | None) -> Table | None:
        """``table`` caught up with the shared store, loaded on first use (``None``: no such
        table)."""
        if table is None:
            if len(table_id) > 64:
                return None
            st = self.store.load_table(table_id)
            if st is None:
                return None
            if isinstance(st, DamagedTable):
                log.error("table %s could not be read: %s", st.id, st.why)
                self.broken[table_id] = st.why
                return None
            try:
                built = self._build(st)
            except Exception as exc:
                log.exception("table %s could not be rebuilt", table_id)
                self.broken[table_id] = f"{type(exc).__name__}: {exc}"
                return None
            with self._lock:
                table = self._tables.setdefault(table_id, built)
        table.catch_up(self.store)
        return table

    def all(self) -> list[Table]:
        """Every table (a shared store: every stored table, loaded on demand)."""
        if self.shared:
            return [t for tid in self.store.table_ids() if (t := self._fresh(
                tid, self._tables.get(tid))) is not None]
        return list(self._tables.values())

    def is_host_token(self, token: str) -> bool:
        """Whether ``token`` is the host token of a table on this server."""
        if not token.isascii():
            return False
        found = False
        for t in self.all():  # every table compared, in constant time each
            found |= secrets.compare_digest(token, t.config["host_token"])
        return found

    def create(self, game: Any, players: Any, options: Any = None,
               run_ids: Any = None, timer: Any = 0, follows: Table | None = None) -> Table:
        """A new table with fresh tokens; raises ``BadSetup``/``UnknownGame``. ``follows``:
        the table it is played again from, whose pages then move to this one."""
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
            if tid not in self._tables and tid not in self.deleted and tid not in self.broken:
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
