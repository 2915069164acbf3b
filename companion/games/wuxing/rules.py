"""The WuXing ``Rules`` object (seed 000; WX-1..WX-12, C-1, C-2, C-6, C-7): options, the
deal, the event dispatch and every check an event passes before it changes the table.

Events (JSON objects; ``event_fields`` lists each type's fields):

``{"type": "rps", "winner": SEAT, "seat"?: SENDER}``
    Start option ``rps`` (WX-12): the winner of rock-paper-scissors starts.
``{"type": "scan", "card": CARD, "zone": ZONE, "seat"?: SENDER, "override"?: true}``
    A card shown in a zone: ``"universe"`` (the pot pile: the Universe card laid on the
    pot, WX-4), ``"seat:<n>"`` (seat n's card: a reveal WX-7, a contribution to a Universe
    Dragon WX-5 or Star WX-6, a Universe card taken in the sudden death WX-11, or, with
    start option ``dragon``, a card pulled before dealing WX-12) or ``"void"`` (the Void on
    the mat). C-6 rev. 3: a player's card is shown in its owner's seat zone, then moved;
    a card put straight into the Void in a Star round (or onto the pot in a Dragon round)
    is taken as the card of the first seat that still owes one there and whose deck can
    hold it (``camera.straight``); any other card seen there is refused. ``card`` is the
    serial ``RUN-COPY``, the QR payload, or a face id (``"wood"``, ``"universe-water"``: a
    copy the zone can hold, C-1). ``seat`` is the sender (the web sets it from the token,
    C-7): a seat shows cards only in its own zone, and in the Universe zone only as the
    first challenger of the challenge waiting for its Universe card (or, owing a card,
    in the pot or the Void as above). ``override`` (the referee, never with a
    ``seat``) forces a scan that C-1 refuses; the ruling says so.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, NoReturn

from companion import codec
from companion.cards import load_deck
from companion.engine import (
    OUT,
    POT,
    UNKNOWN,
    VOID,
    Event,
    JSONDict,
    Movement,
    Option,
    Play,
    Rules,
    Said,
    Setup,
    deck_of,
    event_type,
    require,
)
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    CompanionError,
    ForeignPayload,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    OutOfTurn,
    UnknownCard,
)
from companion.games.wuxing import camera, rounds, standins, view
from companion.games.wuxing.deal import deal
from companion.games.wuxing.state import (
    DRAGON,
    DRAW,
    DUEL,
    ELEMENT,
    FEED,
    PURGE,
    REVEAL,
    START,
    UNIVERSE,
    Work,
    WuXingState,
    table_of,
)
from companion.zones import parse_zone

# Phases in which a seat shows the top card of its deck (WX-5, WX-6, WX-7).
_FROM_DECK = frozenset({REVEAL, FEED, PURGE})


class WuXingRules(Rules[WuXingState]):
    """The WuXing referee (seed 000, WX-1..WX-12)."""

    id: ClassVar[str] = "wuxing"
    title: ClassVar[str] = "WuXing"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    zones: ClassVar[tuple[str, ...]] = ("universe", "void", "seat:<n>")
    options: ClassVar[tuple[Option, ...]] = (
        Option("end", "count", "WX-10",
               "when the Universe deck runs out: 'count' (most cards wins, tie-breaker "
               "WX-11) or 'recycle' (the Void is turned over as the new Universe deck)",
               choices=("count", "recycle")),
        Option("start", "rps", "WX-12",
               "who starts: 'rps' (rock-paper-scissors, winner entered on a phone) or "
               "'dragon' (first to pull an Infinite Dragon from the player deck before dealing)",
               choices=("rps", "dragon")),
    )
    # C-7: "seat" is the sender (from the token); "override" is the referee's alone.
    event_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "scan": frozenset({"card", "zone", "seat", "override"}),
        "rps": frozenset({"winner", "seat"}),
    }

    # -- set-up -------------------------------------------------------------------------

    def sets_needed(self, players: int) -> dict[str, int]:
        """WX-2: one player deck for 2-4 players, two for 5-8 (deck file); one Universe deck."""
        deck = load_deck(self.id)
        by_players = deck.decks["player"].attrs.get("sets_by_players", {})
        need = by_players.get(str(players), 1 if players <= 4 else 2)
        return {"player": int(need), "universe": 1}

    # The latest deal and its set-up: a playtest deals the same set-up for every game, and
    # the state is immutable, so the same one serves (a pure function's memo; one entry).
    _dealt: tuple[Setup, WuXingState] | None = None

    def start(self, setup: Setup) -> WuXingState:
        """Deal (WX-2): the player deck(s) evenly, the remainder set aside unseen; raises
        ``BadSetup``."""
        dealt = self._dealt
        if dealt is not None and dealt[0] is setup:
            return dealt[1]
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise BadSetup(f"WuXing takes 2-8 players, got {n}")
        state = deal(setup, self.sets_needed(n))
        self._dealt = (setup, state)
        return state

    # -- events -------------------------------------------------------------------------

    def apply(self, state: WuXingState, event: Event) -> WuXingState:
        """The next state; raises ``MalformedEvent``, ``MalformedPayload``,
        ``ForeignPayload``, ``UnknownCard``, ``CardNotAvailable``, ``OutOfTurn``,
        ``IllegalPlay`` or ``GameOver`` and changes nothing."""
        try:
            kind = event["type"]
        except (TypeError, KeyError, IndexError):
            kind = None
        if type(kind) is not str:
            kind = event_type(event)
        if kind == "scan":
            return self._scan(state, event)
        if kind == "rps":
            return self._rps(state, event)
        raise MalformedEvent(f"WuXing has no event type {kind[:40]!r}; it has 'scan' and "
                             "'rps'")

    @staticmethod
    def _sender(state: WuXingState, event: Event) -> int | None:
        """The seat that sent ``event`` (C-7), or ``None`` (the referee or the camera)."""
        if "seat" not in event:
            return None
        by = require(event, "seat", int)
        n = len(state.table.names)
        if not 1 <= by <= n:
            raise MalformedEvent(f"event seat {by!r}: there is no such seat (1-{n})")
        return int(by)

    def _rps(self, state: WuXingState, event: Event) -> WuXingState:
        winner = require(event, "winner", int)
        self._sender(state, event)
        t = state.table
        if state.finished:
            raise GameOver("the game is over", rule="WX-10")
        if not 1 <= winner <= len(t.names):
            raise MalformedEvent(f"rock-paper-scissors winner {winner!r}: there is no such "
                                 f"seat at this table (1-{len(t.names)})")
        if state.phase != START or t.start != "rps":
            raise IllegalPlay(f"rock-paper-scissors winner {winner!r} is not expected now: "
                              f"{view.prompt(state)}", rule="WX-12")
        w = Work(state)
        w.turn = winner
        w.notes.append(f"{t.name(winner)} won rock-paper-scissors and starts (WX-12).")
        rounds.setup_challenge(w, new=True)
        return w.freeze(Play("start", "start", "WX-12", winner, (), {"winner": winner}))

    def _card(self, state: WuXingState, raw: str, seat: int | None) -> str:
        """The serial ``raw`` names: a serial or a payload (a face id is ``_tapped``).

        Raises ``MalformedEvent``, ``MalformedPayload``, ``ForeignPayload`` (another game's
        card), ``UnknownCard`` (never printed here, a forged payload) or
        ``CardNotAvailable`` (no copy of that face can be there).
        """
        t = state.table
        if raw in t.faces:
            return raw
        if raw.startswith(codec.PREFIX + ":"):
            p = codec.decode(raw)
            if p.game_code != t.code:
                raise ForeignPayload(f"{raw!r} is a card of another game (game code "
                                     f"{p.game_code!r}), not {t.title}")
            face = t.faces.get(p.serial)
            if face is None:
                raise UnknownCard(f"{raw!r}: serial {p.serial!r} was never printed for "
                                  "this table")
            if face.code != p.face_code:
                raise UnknownCard(f"{raw!r}: serial {p.serial!r} was printed as "
                                  f"{face.name!r}; this code does not match it")
            return p.serial
        try:
            codec.parse_serial(raw)
        except CompanionError:
            raise MalformedEvent(f"card {raw!r} is neither a serial, a card's QR text "
                                 "nor a card name such as 'wood'") from None
        raise UnknownCard(f"card {raw!r} was never printed for this {t.title} table")

    @staticmethod
    def _zone(state: WuXingState, event: Event) -> int | None:
        """The seat of the scan's zone, or ``None`` for the Universe zone (C-7: one
        spelling, ``companion.zones``); raises ``MalformedEvent``."""
        zone = event.get("zone")
        if type(zone) is not str:
            zone = require(event, "zone", str)
        seat = state.table.zone_seats.get(zone)
        if seat is not None or zone == UNIVERSE:
            return seat
        n = len(state.table.names)
        z = parse_zone(zone, n)
        if z.kind != "seat":
            raise MalformedEvent(f"zone {zone!r}: WuXing zones are 'universe', 'void' and "
                                 f"'seat:1'..'seat:{n}'")
        return z.seat

    def _scan(self, state: WuXingState, event: Event) -> WuXingState:
        t = state.table
        zone = event.get("zone")
        seat = t.zone_seats.get(zone) if type(zone) is str else None
        raw = event.get("card")
        # The camera's common case first (most events, and every one a search plays): a
        # printed serial, no sender, no override, nothing tapped or guessed, the card where
        # the table waits for it. The same steps as the full path below, which takes the
        # rest and every refusal.
        if (type(raw) is str and raw in t.faces and "seat" not in event
                and "override" not in event and not state.stand_ins and not state.guesses
                and not state.finished):
            phase = state.phase
            if seat is None:
                if (phase == DRAW and zone == UNIVERSE and state.places[raw] == UNIVERSE
                        and t.kind[raw] == ELEMENT):
                    return rounds.universe_card(state, raw, Said())
            elif seat in state.awaiting and phase in _FROM_DECK:
                place = state.places[raw]
                if place == UNKNOWN if state.unseen[seat - 1] else place == t.deck_place[seat]:
                    if len(state.awaiting) > 1:
                        step = rounds.first_card if phase == REVEAL else rounds.fed_card
                        return step(state, seat, raw, Said())
                    if phase == REVEAL:
                        done = rounds.second_card(state, seat, raw)
                        if done is not None:
                            return done
        if zone == VOID or (zone == UNIVERSE and state.phase == FEED):
            return camera.straight(self, state, event, str(zone))
        if seat is None and zone != UNIVERSE:
            seat = self._zone(state, event)
        if state.guesses and seat is not None and seat not in state.awaiting:
            again = camera.regive(state, seat)  # a card put straight in was not this seat's
            if again is not state:
                return camera.regiven(self._scan(again, event), seat, again.guesses[-1][1])
        by = self._sender(state, event) if "seat" in event else None
        if type(raw) is not str:
            raw = require(event, "card", str)
        override = event.get("override", False)
        if override is not False and override is not True:
            raise MalformedEvent(f"event field 'override' must be true or false, got "
                                 f"{override!r}")
        if override and by is not None:
            raise OutOfTurn(f"only the referee can override a refusal; card {raw[:40]!r} "
                            "is refused", rule="C-1")
        if state.finished:
            raise GameOver(f"the game is over; card {raw[:40]!r} is not needed", rule="WX-10")
        if by is not None:
            self._authorize(state, by, seat, raw)
        try:
            if raw in t.faces:  # a serial: the camera's case, checked here first
                serial = raw
            elif raw in t.by_face:  # a face entered by hand: a stand-in (issue 18)
                state, serial = self._tapped(state, raw, seat)
            else:
                serial = self._card(state, raw, seat)
        except CardNotAvailable:
            if by is None:
                raise
            self._unavailable(state, by, raw)
        if state.stand_ins and raw not in t.by_face:  # a serial seen: settle the guesses
            state = self._settled(state, serial, seat)
        phase = state.phase
        if phase == START:
            return self._pull(state, serial, seat, by, raw)
        if phase == DRAW:
            return self._draw(state, serial, seat, override, by, raw)
        if seat is None:
            raise OutOfTurn(f"card {raw!r} shown in the Universe zone, but the table waits "
                            f"for: {view.prompt(state)}", rule="WX-4")
        if seat not in state.awaiting:
            self._refuse_seat(state, seat, raw)
        place = state.places[serial]
        if phase == DUEL:
            return self._take(state, serial, seat, override, by, raw)
        # Top card: an unseen one while any is left (WX-8: won ones go under), else known.
        held = place == UNKNOWN if state.unseen[seat - 1] else place == t.deck_place[seat]
        if not held and not override:
            if by is not None:
                self._unavailable(state, by, raw)
            self._check_from_deck(state, seat, serial)
        if len(state.awaiting) > 1:  # a first card shown, a card fed while others owe one
            step = rounds.first_card if phase == REVEAL else rounds.fed_card
            if held:  # the common case, without the call to ``_relocated``
                return step(state, seat, serial, Said())
            ready, said = self._relocated(state, serial, place, seat, held)
            return step(ready, seat, serial, said)
        if held and phase == REVEAL:
            done = rounds.second_card(state, seat, serial)
            if done is not None:
                return done
        w = Work(state)
        if not held:
            self._relocate(w, serial, place, seat)
        w.take_from_deck(seat, serial, t.table_place[seat])
        play = (rounds.reveal if phase == REVEAL else rounds.contribute)(w, seat, serial)
        return self._done(w, play) if w.plays else w.freeze(play)

    @staticmethod
    def _done(w: Work, play: Play) -> WuXingState:
        """The next state, with the event's play; a recycle it caused rides along."""
        for extra in w.plays:
            play = Play(play.kind, play.outcome, play.rule, play.seat,
                        (*play.movements, *extra.movements),
                        {**play.facts, extra.kind: dict(extra.facts)})
        return w.freeze(play)

    def _authorize(self, state: WuXingState, by: int, seat: int | None, raw: str) -> None:
        """C-7: a seat shows cards in its own zone only, and in the Universe zone only as
        the first challenger of a challenge waiting for its Universe card (the rules page
        says why); raises ``OutOfTurn``. Nothing here depends on the card."""
        t = state.table
        if seat is not None and seat != by:
            raise OutOfTurn(f"{t.name(by)} cannot show a card for {t.name(seat)}: each player "
                            "shows only their own cards", rule="C-7")
        if seat is None:
            if state.phase == DRAW and by == state.challenge[0]:
                return
            raise OutOfTurn(f"{t.name(by)} cannot lay card {raw[:40]!r} on the pot: "
                            f"{view.prompt(state)}", rule="C-7")
        if state.phase == DRAW:
            self._refuse_seat(state, seat, raw)
        if state.phase != START and seat not in state.awaiting:
            self._refuse_seat(state, seat, raw)

    @staticmethod
    def _unavailable(state: WuXingState, by: int, raw: str) -> NoReturn:
        """C-7, no oracle: the one refusal a seat gets for any card it cannot show now,
        naming the card as typed and never where the companion has it."""
        raise CardNotAvailable(f"{raw[:40]!r} is not a card {state.table.name(by)} can show "
                               "now", rule="C-1")

    def _refuse_seat(self, state: WuXingState, seat: int, raw: str) -> NoReturn:
        """Raises ``OutOfTurn`` for a seat whose card is not awaited now."""
        t = state.table
        who = t.name(seat)
        card = raw[:40]
        if state.phase == DRAW and seat in state.challenge:
            a = state.challenge[0]
            raise OutOfTurn(f"{who} showed card {card!r} before the Universe card: "
                            f"{t.name(a)}, lay the top Universe card on the pot first",
                            rule="WX-4")
        if seat in state.out and state.phase != DUEL:
            raise OutOfTurn(f"{who} is out of the game; card {card!r} is not in play",
                            rule="WX-3")
        if any(s == seat for s, _ in state.revealed) or (
                state.phase in (FEED, PURGE) and seat not in state.awaiting):
            raise OutOfTurn(f"{who} has already shown a card; card {card!r} is one too many",
                            rule="WX-7" if state.phase == REVEAL else "C-6")
        if state.phase == REVEAL:
            a, b = state.challenge
            raise OutOfTurn(f"{who} is not in this challenge ({t.name(a)} v {t.name(b)}); "
                            f"card {card!r} refused", rule="WX-3")
        raise OutOfTurn(f"card {card!r} from {who} is not expected: {view.prompt(state)}")

    @staticmethod
    def _tapped(state: WuXingState, face_id: str, seat: int | None) -> tuple[WuXingState, str]:
        """A face id entered by hand (C-6): a copy of it that can be where the card comes
        from (``standins.fits_for``: the top of a seat's deck is a card nobody has seen while
        any is left, WX-8), recorded as a stand-in (issue 18), and the state noting it. The
        choice is deterministic, so replay is exact. Raises ``CardNotAvailable``."""
        found = standins.tapped(state, face_id, standins.fits_for(state, seat))
        if found is not None:
            return found
        t = state.table
        label = t.faces[t.by_face[face_id][0]].name
        if state.phase == START:
            raise CardNotAvailable(f"no {label} is left to pull from the player deck",
                                   rule="C-1")
        if seat is None or state.phase == DUEL:
            raise CardNotAvailable(f"no {label} ({face_id!r}) is left in the Universe deck",
                                   rule="C-1")
        if state.unseen[seat - 1]:
            raise CardNotAvailable(
                f"{t.name(seat)}'s top card is one nobody has seen yet (won cards go to the "
                f"bottom, WX-8), and no {label} ({face_id!r}) is left among those", rule="C-1")
        raise CardNotAvailable(f"{t.name(seat)} cannot have a {label} ({face_id!r}): no copy "
                               "of it can be in their deck", rule="C-1")

    # -- C-1 -------------------------------------------------------------------------------

    @staticmethod
    def _settled(state: WuXingState, serial: str, seat: int | None) -> WuXingState:
        """A scanned ``serial``: where a stand-in's place was only a guess, the copies trade
        places so that it is where it is shown (``standins.settle``); then it is seen."""
        fits = standins.fits_for(state, seat)
        traded = None if fits(serial) else standins.settle(state, serial, fits)
        return standins.seen(traded or state, serial)

    @staticmethod
    def _where(state: WuXingState, serial: str) -> str:
        """Where the companion knows ``serial`` is, in words (for the referee only)."""
        t = state.table
        place = state.places[serial]
        what = f"card {serial!r} ({t.faces[serial].name})"
        if place == OUT:
            return f"{what} is not in play at this table (an extra printed set)"
        if place == UNKNOWN:
            return f"{what} has not been seen since the deal"
        if place.startswith("table:"):
            return f"{what} is already on the table, shown by {t.name(int(place[6:]))}"
        return f"{what} is in {view.place_words(t, place)}"

    def _check_from_deck(self, state: WuXingState, seat: int, serial: str) -> None:
        """C-1: ``serial`` can come from ``seat``'s deck; raises ``CardNotAvailable``."""
        place = state.places[serial]
        if place == (UNKNOWN if state.unseen[seat - 1] else deck_of(seat)):
            return
        who = state.table.name(seat)
        t = state.table
        if place == deck_of(seat):
            # WX-8 rev. 3: the one thing about order the companion knows; the likely cause
            # in plain words, the referee's override one tap (a C-1 card refusal).
            n = state.unseen[seat - 1]
            raise CardNotAvailable(
                f"card {serial!r} ({t.faces[serial].name}) is not {who}'s top card: it was "
                f"won and went to the bottom of the deck (WX-8), under {n} card"
                f"{'' if n == 1 else 's'} nobody has seen yet. Were the won cards shuffled "
                "into the whole deck by mistake? Won cards go under the unseen ones; if "
                "that happened, the referee can accept this card", rule="WX-8")
        if place == UNKNOWN:
            raise CardNotAvailable(
                f"{who} cannot have card {serial!r} ({state.table.faces[serial].name}): every "
                f"card in {who}'s deck is known and it is not one of them", rule="C-1")
        raise CardNotAvailable(f"{who} cannot show it: {self._where(state, serial)}",
                               rule="C-1")

    def _relocated(self, state: WuXingState, serial: str, place: str, seat: int | None,
                   held: bool) -> tuple[WuXingState, Said]:
        """``state`` and the event's words so far, for the plays built without a ``Work``:
        unchanged if the card is where the play takes it from, else after the referee's
        override moved it there (``_relocate``)."""
        if held:
            return state, Said()
        w = Work(state)
        self._relocate(w, serial, place, seat)
        said = w.notes  # the override's words; the play's are added to them
        return w.freeze(None), said

    @staticmethod
    def _relocate(w: Work, serial: str, place: str, seat: int | None) -> None:
        """Referee override of C-1: ``serial`` was really in ``seat``'s deck (or, for
        ``None``, in the Universe deck). It leaves the place the companion had for it (whose
        count drops) and the ruling says so. Raises ``IllegalPlay`` for a card already shown
        in this challenge."""
        t = w.t
        if place.startswith("table:") or serial == w.universe_card:
            raise IllegalPlay(f"card {serial!r} is already shown in this challenge; undo that "
                              "scan instead of forcing it", rule="C-1")
        standins.forget(w, serial)
        if place == UNKNOWN:
            # Unseen, yet this seat has no unseen card: it was one set aside (or another
            # seat's; the nearest seat clockwise with unseen cards gives one up).
            if w.set_aside > 0:
                w.set_aside -= 1
            else:
                n = len(t.names)
                s = seat or 1
                for _ in range(n):
                    s = s % n + 1
                    if w.unseen[s - 1] > 0:
                        w.unseen[s - 1] -= 1
                        w.decks[s - 1] -= 1
                        break
            w.places[serial] = OUT  # counted out of nowhere, then moved below
        if seat is not None and place == deck_of(seat):
            # Known in this deck, but under its unseen cards (WX-8): the referee says the
            # pile was put together otherwise; the card leaves the deck as its top card.
            w.notes.append(f"Referee override: {serial} ({t.label[serial]}) was recorded at "
                           f"the bottom of {t.name(seat)}'s deck (WX-8); taken as the top "
                           "card (C-1).")
            return
        where = {POT: "the pot", VOID: "the Void", UNIVERSE: "the Universe deck",
                 UNKNOWN: "the unseen cards", OUT: "out of play"}.get(
                     place, view.place_words(t, place))
        dest = UNIVERSE if seat is None else deck_of(seat)
        w.move((Movement(w.places[serial], dest, serial),))
        taken = "drawn from the Universe deck" if seat is None else (
            f"shown from {t.name(seat)}'s deck")
        w.notes.append(f"Referee override: {serial} ({t.label[serial]}) was recorded in "
                       f"{where}; taken as {taken} (C-1).")

    # -- WX-12 -----------------------------------------------------------------------------

    def _pull(self, state: WuXingState, serial: str, seat: int | None, by: int | None,
              raw: str) -> WuXingState:
        t = state.table
        if t.start != "dragon":
            raise IllegalPlay(f"card {raw!r} is not expected now: {view.prompt(state)}",
                              rule="WX-12")
        if seat is None:
            raise IllegalPlay(f"card {raw!r}: before dealing, cards are pulled from the "
                              "player deck and shown at a seat, not in the Universe zone",
                              rule="WX-12")
        if (state.places[serial] != UNKNOWN or t.faces[serial].deck != "player"
                or serial in state.shown) and by is not None:
            self._unavailable(state, by, raw)
        if state.places[serial] != UNKNOWN or t.faces[serial].deck != "player":
            raise CardNotAvailable(f"{t.name(seat)} cannot pull it from the player deck: "
                                   f"{self._where(state, serial)}", rule="C-1")
        if serial in state.shown:
            raise CardNotAvailable(f"card {serial!r} ({t.label[serial]}) was already pulled "
                                   "before dealing", rule="C-1")
        w = Work(state)
        pulled = Play("pull", "pull", "WX-12", seat, (), {"card": serial})
        if t.kind[serial] != DRAGON:
            w.shown = state.shown | {serial}
            w.notes.append(f"{t.name(seat)} pulled {view.a(t.label[serial])}: no Dragon yet; "
                           "keep pulling (WX-12).")
            return w.freeze(pulled)
        w.shown = frozenset()
        w.stand_ins, w.pinned = {}, frozenset()  # the pulled cards go back: all unseen
        w.turn = seat
        aside = f", {state.set_aside} set aside unseen" if state.set_aside else ""
        w.notes.append(f"{t.name(seat)} pulled the first Infinite Dragon and starts (WX-12). "
                       "Put the pulled cards back, shuffle the player deck and deal it: "
                       f"{state.decks[0]} cards each{aside} (WX-2).")
        rounds.setup_challenge(w, new=True)
        return w.freeze(Play("pull", "start", "WX-12", seat, (), {"card": serial,
                                                                   "winner": seat}))

    # -- WX-4, WX-11: cards from the Universe deck -------------------------------------------

    def _draw(self, state: WuXingState, serial: str, seat: int | None, override: bool,
              by: int | None, raw: str) -> WuXingState:
        if seat is not None:
            self._refuse_seat(state, seat, raw)
        if state.places[serial] != UNIVERSE:
            if by is not None:
                self._unavailable(state, by, raw)
            if not override:
                raise CardNotAvailable(f"{self._where(state, serial)}, so it cannot be the "
                                       "Universe card: that comes from the Universe deck",
                                       rule="WX-4")
        place = state.places[serial]
        if state.table.kind[serial] == ELEMENT:
            if place == UNIVERSE:  # the common case, without the call to ``_relocated``
                return rounds.universe_card(state, serial, Said())
            ready, said = self._relocated(state, serial, place, None, False)
            return rounds.universe_card(ready, serial, said)
        w = Work(state)
        if place != UNIVERSE:
            self._relocate(w, serial, place, None)
        play = rounds.lay_universe(w, serial)
        return self._done(w, play) if w.plays else w.freeze(play)

    def _take(self, state: WuXingState, serial: str, seat: int, override: bool,
              by: int | None, raw: str) -> WuXingState:
        """WX-11: a tied player shows the Universe card they took, in their own zone."""
        if state.places[serial] != UNIVERSE:
            if by is not None:
                self._unavailable(state, by, raw)
            if not override:
                raise CardNotAvailable(f"{self._where(state, serial)}, so {state.table.name(seat)} "
                                       "cannot have taken it: the sudden death takes cards "
                                       "from the Universe deck", rule="WX-11")
        w = Work(state)
        if state.places[serial] != UNIVERSE:
            self._relocate(w, serial, state.places[serial], None)
        w.move((Movement(UNIVERSE, table_of(seat), serial),))
        return self._done(w, rounds.take(w, seat, serial))

    # -- what the table sees: ``view`` -----------------------------------------------------

    def view(self, state: WuXingState, seat: int | None) -> JSONDict:
        return view.view(state, seat)

    def referee_view(self, state: WuXingState) -> JSONDict:
        return view.referee_view(state)

    def actions(self, state: WuXingState, seat: int | None) -> list[JSONDict]:
        return view.actions(state, seat)

    def last_play(self, state: WuXingState, seat: int | None) -> JSONDict | None:
        return view.last_play(state, seat)

    def places(self, state: WuXingState) -> Mapping[str, str]:
        return state.places

    def stats(self, state: WuXingState) -> dict[str, float]:
        return {
            "adjudications": float(state.adjudications),
            "challenges": float(state.challenges),
            "dragons": float(state.dragons),
            "stars": float(state.stars),
            "recycles": float(state.recycles),
            "tiebreaks": float(state.tiebreaks),
        }

    def stand_ins(self, state: WuXingState) -> Mapping[str, int | None]:
        """C-7 rev. 3: the copies recorded for taps and not scanned since (``standins``),
        each with the seat whose deck or place holds it or who showed it (``None``: the
        pot, the Void, the Universe deck or the unseen cards, no seat's own)."""
        shown = dict((c, s) for s, c in (*state.revealed, *state.duel_cards))
        out: dict[str, int | None] = {}
        for c in state.stand_ins:
            if c not in state.pinned:
                kind, _, n = state.places[c].partition(":")
                out[c] = int(n) if kind in ("deck", "table") and n.isdigit() else shown.get(c)
        return out

    # -- simulation --------------------------------------------------------------------------

    def random_play(self, state: WuXingState, rng: random.Random) -> Event | None:
        """A random legal event, as a camera would report it: the card a seat shows is drawn
        from what its deck can hold, weighted by the counts (unseen vs known)."""
        if state.finished:
            return None
        t = state.table
        if state.phase == START:
            if t.start == "rps":
                return {"type": "rps", "winner": rng.randint(1, len(t.names))}
            pool = [c for c in t.player_cards
                    if state.places[c] == UNKNOWN and c not in state.shown]
            seat = len(state.shown) % len(t.names) + 1
            return {"type": "scan", "card": rng.choice(pool), "zone": f"seat:{seat}"}
        if state.phase in (DRAW, DUEL):
            pool = [c for c, p in state.places.items() if p == UNIVERSE]
            zone = UNIVERSE if state.phase == DRAW else f"seat:{state.awaiting[0]}"
            return {"type": "scan", "card": rng.choice(pool), "zone": zone}
        seat = state.awaiting[rng.randrange(len(state.awaiting))]
        return {"type": "scan", "card": _random_top(state, seat, rng),
                "zone": f"seat:{seat}"}


def _random_top(state: WuXingState, seat: int, rng: random.Random) -> str:
    if state.unseen[seat - 1]:  # won cards lie under the unseen ones (WX-8)
        # Only player cards are ever unseen (the deal, WX-2), listed in the order of
        # ``places``: the same pool, in the same order, from fewer cards.
        places = state.places
        pool = [c for c in state.table.player_cards if places[c] == UNKNOWN]
    else:
        mine = deck_of(seat)
        pool = [c for c, p in state.places.items() if p == mine]
    return rng.choice(pool)
