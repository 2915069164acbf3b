"""One table: its ``Match`` in memory, its log records, tokens, and the view per viewer.

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

import base64
import hashlib
import hmac
import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion import naming, words
from companion.engine import Event, Match, Rules
from companion.errors import (
    CompanionError,
    MalformedEvent,
    MalformedPayload,
    NothingToUndo,
    StaleVersion,
    UnknownCard,
)
from companion.runs import RunBook
from web import piles
from web.refusal import Refused as Refused
from web.store import EventStore, Record, ScanKey, StoredTable
from web.veiled import StandIns

log = logging.getLogger(__name__)

TIMER_MAX = 3600
LOG_IN_SNAPSHOT = 300
MAX_RUN_ID = 16
# Event fields that name a seat: a plain int 1..players everywhere (C-7), checked before the
# rules see them so no engine's own ``int()`` can read "2" or true as a seat.
SEAT_FIELDS = ("seat", "winner", "loser", "target", "target2")
# A table nobody has changed for this long may be deleted by its host while unfinished.
ABANDONED_AFTER = 6 * 3600


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


def seat_of(viewer: Viewer) -> int | None:
    """The engine's word for a viewer: 0 the referee, n a seat, ``None`` anyone else."""
    return 0 if viewer.role == "host" else viewer.seat if viewer.role == "seat" else None


class Table:
    """One table: configuration, tokens, the match, and its log records."""

    def __init__(self, stored: StoredTable, rules: Rules[Any], match: Match[Any],
                 book: RunBook) -> None:
        self.id = stored.id
        self.game = stored.game
        self.config = stored.config
        self.created = stored.created
        self.records: list[Record] = stored.records
        self.scans: dict[ScanKey, tuple[int, dict[str, Any]]] = stored.scans
        self.rules = rules
        self.match = match
        self.book = book
        self.lock = threading.RLock()
        self._cache: dict[str, tuple[int, str]] = {}
        # What each undone play did (record seq -> ``Play``), to tell it again when read;
        # after a restart found again by replaying the log once (``_recall_undone``).
        self._undone: dict[int, Any] = {}
        self._recalled = False
        # The latest refused play, shown on the pages until the next accepted one (issue 11).
        self.refusal: dict[str, Any] | None = None
        # "Play again with the same players": the table made from this one, where its
        # pages follow (each viewer to its own page there).
        self.next: Table | None = None
        # Set when other processes share the store (PostgreSQL): seat tokens are read from
        # it, since a seat re-issued elsewhere must stop (and start) working here at once.
        self.shared_store: EventStore | None = None
        # C-7 rev. 3: the serials that stood in for a tap, veiled for all but their owner.
        self.veiled = StandIns(rules, match.setup,
                               lambda: ((r.kind, r.body) for r in self.records),
                               lambda: self.match.state)

    # -- identity ---------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.records)

    @property
    def players(self) -> list[str]:
        return list(self.config["players"])

    def display_token(self) -> str:
        """The big screen's token (C-7 rev. 3): it reads the public view and, before the
        first play, the join codes; nothing else. Derived from the host token by a keyed
        hash, so tables made before it existed have one too, nothing new is stored, and it
        cannot be turned back into the host token."""
        mac = hmac.new(str(self.config["host_token"]).encode(), b"table-companion display",
                       hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode("ascii")

    def viewer_for(self, token: str | None) -> Viewer:
        """The viewer a token stands for; ``None`` is the public view.

        Raises ``Refused`` (403) for a token that belongs to no one at this table.
        """
        if token is None or token == "":
            return PUBLIC
        if not isinstance(token, str) or not token.isascii():  # compare_digest needs ASCII
            raise Refused(f"that token does not belong to table {self.id!r}",
                          code="bad_token", status=403)
        if secrets.compare_digest(token, self.config["host_token"]):
            return HOST
        if secrets.compare_digest(token, self.display_token()):
            return PUBLIC  # the big screen: a viewer, no power (C-7 rev. 3)
        if secrets.compare_digest(token, self.config["camera_token"]):
            return Viewer("camera")
        if self.shared_store is not None:
            # A seat may have been re-issued through another process: its tokens are read
            # from the store before a seat token (or an unknown one) is let in. Host,
            # camera and public requests skip this round trip.
            tokens = self.shared_store.seat_tokens(self.id)
            if tokens is not None and tokens != self.config["seat_tokens"]:
                self.config["seat_tokens"] = tokens
        for i, t in enumerate(self.config["seat_tokens"], start=1):
            if secrets.compare_digest(token, t):
                return Viewer("seat", i)
        raise Refused(f"that token does not belong to table {self.id!r}",
                      code="bad_token", status=403)

    # -- catching up (many processes, one database) ------------------------------------
    def catch_up(self, store: EventStore) -> int:
        """Apply the records other processes wrote since this copy's version; returns how
        many. A process keeps tables as a cache of the store's logs (issue 15)."""
        with self.lock:
            new = store.records_after(self.id, self.version)
            for rec in new:
                if rec.seq != self.version + 1:
                    raise RuntimeError(f"table {self.id}: record {rec.seq} after "
                                       f"{self.version}; the log has a gap")
                if rec.kind == "event":
                    self.veiled.note(self.match.apply(rec.body))
                elif rec.kind == "undo":
                    voids = set(rec.body.get("voids", []))
                    group = [r for r in self.records if r.seq in voids]
                    for r, play in zip(group, self.match.plays[-len(group):], strict=False):
                        r.voided_by = rec.seq
                        self._undone[r.seq] = play  # told again when read (``history``)
                    self.match.undo(len(group))
                self.records.append(rec)
            return len(new)

    def reissue_seat(self, seat: int, store: EventStore) -> str:
        """A new token for ``seat`` (a lost phone, a peek): stored first, then the old one
        stops opening anything. Returns the new token."""
        with self.lock:
            tokens = list(self.config["seat_tokens"])
            tokens[seat - 1] = secrets.token_urlsafe(18)
            store.set_seat_tokens(self.id, tokens)  # raises: nothing changed
            self.config["seat_tokens"] = tokens
            self._cache.clear()
            return str(tokens[seat - 1])

    def remembered_scan(self, store: EventStore, key: ScanKey) -> bool:
        """Whether another process answered this sender's scan id already (then it is in
        ``scans``)."""
        found = store.scan(self.id, key)
        if found is not None:
            self.scans[key] = found
        return found is not None

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
        return self._undone_words(self.records[-1], viewer)

    def _told(self, play: Any, viewer: Viewer) -> str | None:
        """``play`` in the words ``viewer`` may read as the table stands now (issue 18 §2:
        never the words of an earlier, more visible moment); ``None``: no such words."""
        if play is None:
            return None
        try:
            return self.rules.retell(self.match.state, play, seat_of(viewer))
        except CompanionError:
            return None

    def _undone_play(self, seq: int) -> Any:
        if seq not in self._undone and not self._recalled:
            self._recall_undone()
        return self._undone.get(seq)

    def _recall_undone(self) -> None:
        """What each undone play of the log did, by replaying every record once (C-3): a
        table loaded after a restart tells its undone plays as the one that undid them."""
        self._recalled = True
        m = Match(self.rules, self.match.setup)
        seqs: list[int] = []
        try:
            for r in self.records:
                if r.kind == "event":
                    m.apply(r.body)
                    seqs.append(r.seq)
                elif r.kind == "undo" and (n := len(r.body.get("voids", []))):
                    for seq, play in zip(seqs[-n:], m.plays[-n:], strict=False):
                        self._undone.setdefault(seq, play)
                    m.undo(n)
                    del seqs[-n:]
        except CompanionError:  # a log the rules no longer replay: the stored words stand
            log.exception("could not replay table %s to tell its undone plays", self.id)

    def _undone_words(self, rec: Record, viewer: Viewer) -> str:
        voids = rec.body.get("voids") or [0]
        now = self._told(self._undone_play(int(voids[0])), viewer)
        if now:
            return now
        said: Mapping[str, str] = rec.body.get("said", {})
        key = "host" if viewer.role == "host" else viewer.key
        return str(said.get(key) or said.get("public") or "the last play")

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
            "history": self.history(viewer),
            # What the latest play did, per viewer (issue 11; 0 = the referee), and the
            # print runs, so "play again" makes a table with the same cards.
            "refused": self._refusal_for(viewer),
            "last_play": self.rules.last_play(
                state, 0 if viewer.role == "host" else viewer.seat),
            "runs": self.config["runs"],
            "next_table": self._next_for(viewer),
            "now": time.time(),
        }
        # C-7 rev. 3: a stand-in's serial is its owner's and the referee's only.
        self.veiled.snapshot(out, actions, seat_of(viewer))
        if viewer.role == "host":
            # The newest records only: this goes out on every change (GET .../log has all).
            out["log"] = self.log_json()[-LOG_IN_SNAPSHOT:]
            out["log_total"] = len(self.records)
            out["zones"] = self.zones()
            out["can_undo"] = self._undo_group_text()
        return out

    def veil_for(self, value: Any, viewer: Viewer) -> Any:
        """``value`` (JSON-like, or a refusal's text) as ``viewer`` may read it: the serials
        of other seats' stand-ins veiled (C-7 rev. 3, ``web.veiled``)."""
        with self.lock:  # the stand-ins change with the plays
            return self.veiled.veil(value, seat_of(viewer))

    def _refusal_for(self, viewer: Viewer) -> dict[str, Any] | None:
        """The latest refusal if no play was accepted since: the referee reads all of it (and
        the scan to override), the refused seat its reason and code; everyone else only who
        was refused and what kind of play it was: a reason, a code or a ruling id may tell
        something hidden (a Shrine bid refused for want of hidden Oinks, SK-4, SK-7; C-7)."""
        r = self.refusal
        if r is None or r["version"] != self.version:
            return None
        if viewer.role == "host":
            return r
        out = {k: r[k] for k in ("who", "seat", "type")}
        if viewer.role == "seat" and viewer.who == r["who"]:
            out.update({k: r[k] for k in ("code", "rule")})
            out["error"] = r["plain"]  # C-8: the ruling id is in ``rule``, for "why?"
        return out

    def plain(self, text: str) -> str:
        """``text`` as a player reads it (C-8, ``companion.words.plain``): no ruling ids,
        places and seats by the players' names, faces and serials by the cards' names."""
        cards = self.book.cards.values()
        return words.plain(text, self.players, {c.face.id: c.face.name for c in cards},
                           {c.serial: c.face.name for c in cards})

    def _next_for(self, viewer: Viewer) -> dict[str, Any] | None:
        """Where this viewer's page goes once the host made the next table: a seat to the
        same seat's page there (its own new token, never another's), the camera to the new
        camera page, the referee to the new referee page, everyone else to the big screen."""
        nxt = self.next
        if nxt is None:
            return None
        base = f"/t/{nxt.id}"
        if viewer.role == "seat" and viewer.seat is not None:
            url = f"{base}/seat/{viewer.seat}?token={nxt.config['seat_tokens'][viewer.seat - 1]}"
        elif viewer.role == "host":
            url = f"{base}/referee?token={nxt.config['host_token']}"
        elif viewer.role == "camera":
            url = f"{base}/camera?token={nxt.config['camera_token']}"
        else:
            url = base
        return {"table": nxt.id, "url": url}

    def link_next(self, nxt: Table) -> None:
        """Make ``nxt`` the table this one's pages follow to."""
        with self.lock:
            self.next = nxt
            self._cache.clear()  # the same version, a new snapshot

    def _note_refusal(self, event: Mapping[str, Any], viewer: Viewer,
                      exc: CompanionError) -> None:
        seat = event.get("seat") if viewer.role == "host" else viewer.seat
        scan = {k: event[k] for k in ("type", "card", "zone") if k in event} \
            if event.get("type") == "scan" else None
        self.refusal = {"version": self.version, "who": viewer.who,
                        "seat": seat if isinstance(seat, int) else None,
                        "type": str(event.get("type"))[:40], "error": str(exc)[:400],
                        "plain": self.plain(exc.plain)[:400],
                        "code": exc.code, "rule": exc.rule, "scan": scan,
                        # C-9: never an override for a card known to lie in a pile.
                        "overridable": scan is not None and piles.overridable(
                            self, scan.get("card"))}
        self._cache.clear()

    def refusal_notice(self, viewer: Viewer) -> str | None:
        """The small stream message of the latest refusal for this viewer's page (JSON), or
        ``None`` when it hears nothing of it: the referee, the big screen and the refused
        seat's pages hear of a refusal; a refusal changes no one's snapshot, so no page is
        sent one (300 refusals pushed 2,586 snapshots to 9 pages, issue 19)."""
        with self.lock:
            r = self.refusal
            if r is None or r["version"] != self.version:
                return None
            # A phone hears of its own refused plays and of those made for its seat (the
            # referee's), as the snapshot's ``refused`` shows them (banner.js).
            if viewer.role == "seat" and viewer.who != r["who"] and viewer.seat != r["seat"]:
                return None
            if viewer.role == "camera":
                return None
            return json.dumps({"version": self.version,
                               "refused": self.veil_for(self._refusal_for(viewer), viewer)},
                              separators=(",", ":"))

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

    def play(self, store: EventStore, event: Mapping[str, Any], viewer: Viewer, *,
             version: Any = None, scan_id: ScanKey | None = None,
             respond: Callable[[list[Record]], dict[str, Any]] | None = None,
             ) -> list[Record]:
        """Apply one event, then any chance it makes due, and store them all.

        Raises ``CompanionError`` (nothing changed). Returns the new records.
        """
        with self.lock:
            self._check_version(version)
            if viewer.role == "seat" and viewer.seat is not None:  # stand-in names back
                event = self.veiled.unveil(event, viewer.seat, self.match.state)
            n0 = self.match.version
            try:
                self._apply_rules(event)
            except CompanionError as exc:
                self._note_refusal(event, viewer, exc)
                raise
            self.veiled.note(self.match.state)
            public = [self._public_ruling()]
            try:  # Match.settle, one chance event at a time to word each publicly (C-4)
                rng = random.SystemRandom()
                while (chance := self.rules.chance(self.match.state, rng)) is not None:
                    self.veiled.note(self.match.apply(chance))
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
                store.append(self.id, new, scan=scan,
                             finished=bool(self.match.state.finished))
            except StaleVersion as exc:
                del self.records[len(self.records) - len(new):]
                self.match.undo(self.match.version - n0)
                # Another server wrote this seq first: re-validate against the new state,
                # unless the client pinned the version it saw.
                if version is not None or self.catch_up(store) == 0:
                    raise exc from None
                return self.play(store, event, viewer, version=version, scan_id=scan_id,
                                 respond=respond)
            except BaseException:
                del self.records[len(self.records) - len(new):]
                self.match.undo(self.match.version - n0)
                raise
            if scan is not None:
                self.scans[scan[0]] = (scan[1], scan[2])
            return new

    def last_change(self) -> float:
        """When the table last changed (its newest record, else its creation)."""
        return self.records[-1].time if self.records else self.created

    def _public_ruling(self) -> str:
        text = self.rules.view(self.match.state, None).get("ruling")
        return str(text) if text else ""

    def history(self, viewer: Viewer = PUBLIC, count: int = 8) -> list[dict[str, Any]]:
        """The newest rulings, newest first, for every page (undone ones marked), each told
        to ``viewer`` as the table stands now: a card turned face down again since is not
        named (GC-4 rev. 2, issue 18 §2)."""
        out = []
        plays = self.match.plays
        live = len(plays)
        for r in reversed(self.records):
            text = r.public or (r.ruling if r.kind == "timer" else "")
            if r.kind == "event":
                play = self._undone_play(r.seq) if r.voided else (
                    plays[live - 1] if live > 0 else None)
                if not r.voided:
                    live -= 1
                text = self._told(play, viewer) or text
            elif r.kind == "undo":
                text = "Undone: " + self._undone_words(r, viewer)
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

    def undo(self, store: EventStore, viewer: Viewer, *, version: Any = None) -> Record:
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
            undone = self.match.plays[-len(group):]
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
                for r, play in zip(group, undone, strict=True):
                    r.voided_by = seq
                    self._undone[r.seq] = play
                self.records.append(rec)
                store.append(self.id, [rec], void=[r.seq for r in group], voided_by=seq,
                             finished=bool(self.match.state.finished))
            except BaseException:
                for r in group:
                    r.voided_by = None
                if self.records and self.records[-1] is rec:
                    self.records.pop()
                self.match = Match(self.rules, self.match.setup, before_events)
                raise
            return rec

    def set_timer(self, store: EventStore, seconds: Any, viewer: Viewer, *,
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
        """A serial from a serial or a scanned payload (a face id or printed name as is);
        raises ``UnknownCard``/``Malformed``."""
        if not isinstance(text, str) or not text.strip():
            raise MalformedPayload(f"a card must be a serial or a payload, got {text!r}")
        text = text.strip()
        if any(c.face.id == text for c in self.book.cards.values()) or naming.faces_named(
                self.match.setup.cards, text):
            return text  # a face id or name entered by hand: the engine picks a copy (C-1)
        if text.startswith("T1:"):
            return self.book.resolve(text, self.game).serial
        try:
            return self.book.card(text.upper()).serial
        except MalformedPayload:  # quoted as typed, not upper-cased (C-7)
            raise UnknownCard(f"no card of this table is called {text!r}: name a card by "
                              "its name, its serial or its QR text") from None
