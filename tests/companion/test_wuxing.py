"""WuXing (seed 000): every seed example, every ruling WX-1..WX-12, C-1 refusals.

Each scenario is played through ``Match.apply`` exactly as a camera would report it: the
Universe card shown in the ``universe`` zone, each player's card in ``seat:<n>``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from companion import codec
from companion.cards import load_deck
from companion.engine import Match
from companion.errors import (
    BadSetup,
    CardNotAvailable,
    ForeignPayload,
    GameOver,
    IllegalPlay,
    MalformedEvent,
    MalformedPayload,
    OutOfTurn,
    UnknownCard,
)
from companion.games.wuxing import RULES
from companion.registry import build_setup, new_match
from companion.runs import new_run

NAMES = ("Ana", "Bo", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal")


class Table:
    """A WuXing match driven by hand-picked cards, as the camera would report them."""

    def __init__(self, players: int = 2, **options: Any) -> None:
        self.m: Match[Any] = new_match("wuxing", list(NAMES[:players]), options,
                                       rng=random.Random(5))

    @property
    def s(self) -> Any:
        return self.m.state

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return RULES.view(self.s, seat)

    def face(self, serial: str) -> str:
        return self.m.setup.cards[serial].id

    def find(self, face: str, place: str) -> str:
        for serial, f in sorted(self.m.setup.cards.items()):
            if f.id == face and self.s.places[serial] == place:
                return serial
        raise LookupError(f"no {face} at {place}")

    def free(self, seat: int, face: str) -> str:
        """A card of ``face`` that seat holds: known in its deck, else unseen. A known card
        while unseen ones lie on top of it (WX-8) is shown with the referee's override
        (``forced``): these scenarios pick the faces they need."""
        try:
            return self.find(face, f"deck:{seat}")
        except LookupError:
            if self.s.unseen[seat - 1] == 0:
                raise
            return self.find(face, "unknown")

    def forced(self, seat: int, serial: str) -> dict[str, Any]:
        """The override a scenario needs to show ``serial`` as seat's top card (C-1)."""
        if self.s.unseen[seat - 1] > 0 and self.s.places[serial] != "unknown":
            return {"override": True}
        return {}

    def scan(self, card: str, zone: str, **extra: Any) -> Any:
        return self.m.apply({"type": "scan", "card": card, "zone": zone, **extra})

    def rps(self, winner: int = 1) -> None:
        self.m.apply({"type": "rps", "winner": winner})

    def universe(self, face: str) -> str:
        serial = self.find(face if face.startswith("universe-") or "-" in face
                           else f"universe-{face}", "universe")
        self.scan(serial, "universe")
        return serial

    def reveal(self, seat: int, face: str) -> str:
        serial = self.free(seat, face)
        self.scan(serial, f"seat:{seat}", **self.forced(seat, serial))
        return serial

    def challenge(self, u: str, a: str, b: str) -> tuple[str, str, str]:
        """Draw Universe ``u``; the two challengers reveal ``a`` and ``b`` (in seat order of
        the challenge)."""
        first, second = self.s.challenge
        su = self.universe(u)
        sa = self.reveal(first, a)
        sb = self.reveal(second, b)
        return su, sa, sb

    def contribute_all(self, face: str = "") -> list[str]:
        """Every awaited seat shows one card (WX-5/WX-6), any face it has."""
        shown = []
        for seat in list(self.s.awaiting):
            shown.append(self.show(seat, face))
        return shown

    def show(self, seat: int, prefer: str = "") -> str:
        """Seat shows ``any_card``; a won card while unseen ones lie on top of it (WX-8)
        only as the referee's override (C-1), for scenarios that need a face used up."""
        serial = self.any_card(seat, prefer)
        self.scan(serial, f"seat:{seat}", **self.forced(seat, serial))
        return serial

    def any_card(self, seat: int, prefer: str = "") -> str:
        faces = ([prefer] if prefer else []) + ["wood", "fire", "earth", "metal", "water",
                                                "universe-wood", "universe-fire",
                                                "universe-earth", "universe-metal",
                                                "universe-water"]
        for f in faces:
            try:
                return self.free(seat, f)
            except LookupError:
                continue
        raise LookupError(f"seat {seat} has no element card to show")


def started(players: int = 2, first: int = 1, **options: Any) -> Table:
    t = Table(players, **options)
    t.rps(first)
    return t


# -- seed 000, "Absorbs" ---------------------------------------------------------------------


def test_absorbs_example_1_wood_absorbs_water_wins_the_pot() -> None:
    """Seed Absorbs, Example 1 (WX-7.6, WX-8): Wood v Universe Water wins everything."""
    t = started()
    u, a, b = t.challenge("water", "wood", "metal")
    assert t.s.ruling.startswith("Wood absorbs Water: Ana wins 3 cards; shuffle them "
                                 "together and put them at the bottom of your deck")
    assert {t.s.places[c] for c in (u, a, b)} == {"deck:1"}
    assert t.s.decks == (24, 21)
    assert t.s.pot == ()
    assert t.view()["last_adjudication"].startswith("Wood absorbs Water")
    assert t.view()["adjudications"] == 1


def test_absorbs_example_2_fire_absorbs_wood_card_joins_the_pot() -> None:
    """Seed Absorbs, Example 2 (WX-7.8): Universe Fire absorbs my Wood: it joins the pot."""
    t = started()
    u, a, b = t.challenge("fire", "wood", "fire")
    assert t.s.pot == (u, a, b)
    assert t.view()["pot"] == ["universe-fire", "wood", "fire"]
    assert "Fire absorbs Ana's Wood: it joins the pot" in t.s.ruling
    assert "Bo's Fire matches Fire and joins the pot" in t.s.ruling
    assert t.s.decks == (21, 21)


# -- seed 000, "Destroys" --------------------------------------------------------------------


def _pot_of_three(t: Table) -> tuple[str, ...]:
    t.challenge("fire", "wood", "fire")  # a pot of three, then Bo v Ana
    return tuple(t.s.pot)


def test_destroys_example_1_pot_and_opponents_card_to_the_void() -> None:
    """Seed Destroys, Example 1 (WX-7.7): Earth destroys Water: the pot and the other
    player's card go to the Void; the Earth returns to the bottom of its owner's deck."""
    t = started()
    old_pot = _pot_of_three(t)  # now Bo v Ana
    u, bo_card, ana_card = t.challenge("water", "earth", "metal")
    assert t.s.places[bo_card] == "deck:2"
    assert all(t.s.places[c] == "void" for c in (*old_pot, u, ana_card))
    assert t.s.void == 5
    assert t.s.pot == ()
    assert t.s.decks == (20, 21)
    assert t.s.ruling.startswith("Earth destroys Water: the pot (4 cards) and Ana's Metal go "
                                 "to the Void; Bo, put your Earth at the bottom of your deck")


def test_destroys_unless_1_same_card_is_a_draw() -> None:
    """Destroys, unless 1: player 2 reveals the same Earth: a draw, both join the pot
    (Water does not destroy Earth) (WX-7.5)."""
    t = started()
    u, a, b = t.challenge("water", "earth", "earth")
    assert t.s.pot == (u, a, b)
    assert t.s.void == 0
    assert "both played Earth: a draw, both cards join the pot" in t.s.ruling


def test_destroys_unless_2_absorbing_card_takes_everything() -> None:
    """Destroys, unless 2: player 2 reveals Wood, which absorbs Water: player 2 absorbs all
    cards in play, Ana's Earth included (absorb beats destroy, WX-7.6)."""
    t = started()
    u, a, b = t.challenge("water", "earth", "wood")
    assert {t.s.places[c] for c in (u, a, b)} == {"deck:2"}
    assert t.s.decks == (21, 24)
    assert t.s.ruling.startswith("Wood absorbs Water (absorb beats destroy): Bo wins 3 cards")


def test_destroys_unless_3_dragon() -> None:
    """Destroys, unless 3: player 2 reveals an Infinite Dragon: the Dragon goes to the Void
    and player 2 wins the pot and Ana's Earth (WX-7.4)."""
    t = started()
    u, a, b = t.challenge("water", "earth", "dragon")
    assert t.s.places[b] == "void"
    assert t.s.places[u] == t.s.places[a] == "deck:2"
    assert t.s.decks == (21, 23)
    assert "Bo's Infinite Dragon absorbs the Universe Water: Bo wins 2 cards" in t.s.ruling


def test_destroys_unless_3_star() -> None:
    """Destroys, unless 3: player 2 reveals a Destructive Star: everything else goes to the
    Void and the Star is the sole pot card (WX-7.2)."""
    t = started()
    u, a, b = t.challenge("water", "earth", "star")
    assert t.s.pot == (b,)
    assert t.s.places[u] == t.s.places[a] == "void"
    assert t.s.decks == (21, 21)
    assert t.s.ruling.startswith("Bo's Destructive Star destroys everything")


def test_destroys_example_2_water_destroys_my_fire() -> None:
    """Seed Destroys, Example 2 (WX-7.8): Universe Water destroys my Fire: it goes to the
    Void; the other card joins the pot on its own."""
    t = started()
    u, a, b = t.challenge("water", "fire", "water")
    assert t.s.places[a] == "void"
    assert t.s.pot == (u, b)
    assert "Water destroys Ana's Fire: it goes to the Void" in t.s.ruling


# -- seed 000, "Draw" ------------------------------------------------------------------------


def test_draw_1_same_card_as_the_universe_joins_the_pot() -> None:
    """Draw 1 (WX-7.8): the same card as the Universe joins the pot."""
    t = started()
    u, a, b = t.challenge("metal", "metal", "earth")  # Metal absorbs Earth: Bo's joins too
    assert t.s.pot == (u, a, b)
    assert "Ana's Metal matches Metal and joins the pot" in t.s.ruling


def test_draw_2_same_cards_join_the_pot() -> None:
    """Draw 2 (WX-7.5): both players show Fire against Universe Wood: both join the pot."""
    t = started()
    u, a, b = t.challenge("wood", "fire", "fire")
    assert t.s.pot == (u, a, b)


def test_draw_2_unless_the_universe_destroys_them() -> None:
    """Draw 2 (WX-7.5): both Fire against Universe Water: both go to the Void."""
    t = started()
    u, a, b = t.challenge("water", "fire", "fire")
    assert t.s.pot == (u,)
    assert t.s.places[a] == t.s.places[b] == "void"
    assert "Water destroys Fire, so both cards go to the Void" in t.s.ruling


# -- seed 000, "Infinite Dragon" ---------------------------------------------------------------


def test_wx5_universe_dragon_everyone_feeds_the_pot_in_any_order() -> None:
    """Dragon bullet 1 (WX-5, C-6): a Universe Dragon: every player still in puts a card
    in the pot, in any order; the Dragon goes to the Void; a new Universe card follows."""
    t = started(3)
    d = t.universe("dragon")
    v = t.view()
    assert v["phase"] == "dragon" and v["awaiting"] == [1, 2, 3]
    assert t.s.places[d] == "void"
    acts = RULES.actions(t.s, None)
    assert [a["fields"][0]["zone"] for a in acts] == ["seat:1", "seat:2", "seat:3"]
    field = dict(RULES.actions(t.s, 2)[0]["fields"][0])
    assert field.pop("faces")  # the tiles to tap (issue 11)
    assert field == {
        "name": "card", "label": "Show your top card, then into the pot", "kind": "card",
        "zone": "seat:2"}
    c3 = t.reveal(3, "wood")
    c1 = t.reveal(1, "fire")
    assert t.view()["awaiting"] == [2]
    c2 = t.reveal(2, "star")
    assert t.s.pot == (c3, c1, c2)
    assert t.s.decks == (13, 13, 13)
    v = t.view()
    assert v["phase"] == "universe" and v["challenge"] == [1, 2]
    assert v["challenges"] == 1  # the same challenge goes on (WX-5)
    assert t.s.dragons == 1


def test_player_dragon_absorbs_the_pot_but_not_a_star() -> None:
    """Dragon bullet 2 (WX-7.4, WX-9): the played Dragon goes to the Void and its player
    wins every other card, except a Star in the pot, which stays."""
    t = started()
    star = t.universe("star")
    t.contribute_all()
    t.challenge("fire", "fire", "fire")  # pot: Star, U, Fire, Fire
    assert len(t.s.pot) == 4
    u, bo, ana = t.challenge("water", "dragon", "metal")
    assert t.s.places[bo] == "void"
    assert t.s.pot == (star,)
    assert "Bo wins 5 cards" in t.s.ruling
    assert "The Star is never won: it stays in the pot (WX-9)." in t.s.ruling
    assert t.s.places[u] == t.s.places[ana] == "deck:2"


def test_two_dragons_draw_both_join_the_pot() -> None:
    """Dragon bullet 3 (WX-7.3): two Dragons: a draw, both Dragons go into the pot."""
    t = started()
    u, a, b = t.challenge("earth", "dragon", "dragon")
    assert t.s.pot == (u, a, b)
    assert t.s.void == 0


def test_wx9_dragons_in_a_won_pot_are_won() -> None:
    """WX-9: Dragons sitting in a pot that is won are won like any card."""
    t = started()
    _, d1, d2 = t.challenge("earth", "dragon", "dragon")  # Bo v Ana next
    u, bo, ana = t.challenge("metal", "water", "earth")  # Water absorbs Metal
    assert {t.s.places[c] for c in (d1, d2, u, bo, ana)} == {"deck:2"}
    assert t.s.decks == (20, 26)


def test_wx9_dragons_in_a_pot_sent_to_the_void_go_to_the_void() -> None:
    """WX-9: Dragons in a pot sent to the Void go to the Void."""
    t = started()
    _, d1, d2 = t.challenge("earth", "dragon", "dragon")
    t.challenge("water", "earth", "fire")  # Bo's Earth destroys Water
    assert t.s.places[d1] == t.s.places[d2] == "void"


# -- seed 000, "Destructive Star" ---------------------------------------------------------------


def test_wx6_universe_star_pot_and_one_card_each_to_the_void() -> None:
    """Star bullet 1 (WX-6, C-6): a Universe Star sends the pot to the Void, stays as the sole
    pot card, and every player still in puts their top card into the Void."""
    t = started(3)
    old = _pot_of_three(t)
    star = t.universe("star")
    assert t.s.pot == (star,)
    assert all(t.s.places[c] == "void" for c in old)
    assert t.view()["phase"] == "star"
    cards = t.contribute_all()
    assert all(t.s.places[c] == "void" for c in cards)
    assert t.s.void == 6
    assert t.s.pot == (star,)
    assert t.view()["phase"] == "universe"
    assert t.s.stars == 1


def test_a_star_in_the_pot_is_not_the_universe_card() -> None:
    """WX-6: after a Universe Star the next Universe card is drawn for the same challenge;
    the Star in the pot is not what the players challenge."""
    t = started()
    t.universe("star")
    t.contribute_all()
    u = t.universe("wood")
    assert t.view()["universe_card"] == "universe-wood"
    assert t.s.universe_card == u


def test_player_star_destroys_everything_dragon_included() -> None:
    """Star bullet 2 and Game Note 4 (WX-7.2): the Star takes precedence over the Dragon:
    every other card goes to the Void and the Star stays as the sole pot card."""
    t = started()
    old = _pot_of_three(t)
    u, bo, ana = t.challenge("wood", "dragon", "star")
    assert t.s.pot == (ana,)
    assert all(t.s.places[c] == "void" for c in (*old, u, bo))
    assert t.s.ruling.startswith("Ana's Destructive Star destroys everything: 5 cards go to "
                                 "the Void")


def test_two_stars_draw_nothing_to_the_void() -> None:
    """Star bullet 3 (WX-7.1): two Stars: a draw, both join the pot, nothing goes to the Void."""
    t = started()
    old = _pot_of_three(t)
    u, a, b = t.challenge("water", "star", "star")
    assert t.s.pot == (*old, u, a, b)
    assert t.s.void == 0


# -- seed 000, "Game Notes" ------------------------------------------------------------------


def test_note_1_same_absorbing_card_is_still_a_draw() -> None:
    """Game Note 1 (WX-7.5): both reveal Wood, which absorbs Water: still a draw."""
    t = started()
    u, a, b = t.challenge("water", "wood", "wood")
    assert t.s.pot == (u, a, b)


def test_note_1_same_destroying_card_is_still_a_draw() -> None:
    """Game Note 1 (WX-7.5): both reveal Earth, which destroys Water: still a draw."""
    t = started()
    u, a, b = t.challenge("water", "earth", "earth")
    assert t.s.pot == (u, a, b)


def test_note_2_the_universe_takes_precedence_in_a_draw() -> None:
    """Game Note 2 (WX-7.5): in a draw the Universe decides: Metal destroys both Woods."""
    t = started()
    _u, a, b = t.challenge("metal", "wood", "wood")
    assert t.s.places[a] == t.s.places[b] == "void"


def test_note_3_absorbs_takes_precedence_over_destroys() -> None:
    """Game Note 3 (WX-7.6): Fire destroys Metal, Earth absorbs... Universe Fire: Earth
    absorbs Fire (Fire generates Earth), Water destroys Fire: the absorber wins."""
    t = started()
    u, a, b = t.challenge("fire", "water", "earth")
    assert {t.s.places[c] for c in (u, a, b)} == {"deck:2"}


def test_note_5_star_in_the_pot_stays_when_the_pot_is_won() -> None:
    """Game Note 5 (WX-7.6): a Star in the pot stays in play when the pot is absorbed."""
    t = started()
    star = t.universe("star")
    t.contribute_all()
    u, a, b = t.challenge("water", "wood", "metal")
    assert t.s.pot == (star,)
    assert {t.s.places[c] for c in (u, a, b)} == {"deck:1"}


def test_note_5_star_goes_to_the_void_when_an_element_destroys_the_universe() -> None:
    """Game Note 5 (WX-7.7): an element that destroys the Universe card sends the pot, Star
    included, to the Void."""
    t = started()
    star = t.universe("star")
    t.contribute_all()
    t.challenge("water", "earth", "fire")
    assert t.s.places[star] == "void"
    assert t.s.pot == ()


def test_note_5_star_goes_to_the_void_when_another_star_is_played() -> None:
    """Game Note 5 (WX-7.2): another Star sends the pot's Star to the Void."""
    t = started()
    star = t.universe("star")
    t.contribute_all()
    _, a, _ = t.challenge("water", "star", "fire")
    assert t.s.places[star] == "void"
    assert t.s.pot == (a,)


def test_note_5_universe_star_sends_a_star_in_the_pot_to_the_void() -> None:
    """WX-6: a second Universe Star sweeps the first one to the Void."""
    t = started()
    s1 = t.universe("star")
    t.contribute_all()
    s2 = t.universe("star")
    assert t.s.places[s1] == "void"
    assert t.s.pot == (s2,)


# -- WX-1 .. WX-4 ------------------------------------------------------------------------------


def test_wx1_relations_exactly_one_between_two_elements() -> None:
    """WX-1: for two different elements exactly one of the four relations holds, and the
    seed's own checks come out right."""
    t = Table()
    tab = t.s.table
    elements = ["wood", "fire", "earth", "metal", "water"]
    for c in elements:
        for u in elements:
            if c == u:
                continue
            rel = [(c, u) in tab.absorbs, (u, c) in tab.absorbs, (c, u) in tab.destroys,
                   (u, c) in tab.destroys]
            assert rel.count(True) == 1, (c, u)
    assert ("wood", "water") in tab.absorbs and ("fire", "wood") in tab.absorbs
    assert ("earth", "water") in tab.destroys and ("water", "fire") in tab.destroys


@pytest.mark.parametrize("players,sets,each,aside", [
    (2, 1, 22, 0), (3, 1, 14, 2), (4, 1, 11, 0), (5, 2, 17, 3), (6, 2, 14, 4),
    (7, 2, 12, 4), (8, 2, 11, 0)])
def test_wx2_deal_evenly_remainder_set_aside(players: int, sets: int, each: int,
                                             aside: int) -> None:
    """WX-2: one player deck for 2-4 players, two for 5-8; dealt evenly, remainder set aside;
    one Universe deck of 24."""
    assert RULES.sets_needed(players) == {"player": sets, "universe": 1}
    t = Table(players)
    assert t.s.decks == (each,) * players
    assert t.s.set_aside == aside
    assert t.view()["universe_left"] == 24
    assert Counter(t.s.places.values())["unknown"] == 44 * sets


def test_wx2_extra_printed_sets_are_out_of_play() -> None:
    """WX-2, C-1: a run with two player sets for 2 players: the second set is out of play."""
    deck = load_deck("wuxing")
    run = new_run(deck, sets_per_deck={"player": 2, "universe": 2}, rng=random.Random(1))
    m = Match(RULES, build_setup("wuxing", ["Ana", "Bo"], None, [run]))
    assert Counter(m.state.places.values()) == {"unknown": 44, "universe": 24, "out": 68}
    m.apply({"type": "rps", "winner": 1})
    extra = next(c.serial for c in run.cards if c.set_no == 2 and c.face.id == "universe-wood")
    before = (m.state, list(m.events))
    with pytest.raises(CardNotAvailable, match="not in play at this table"):
        m.apply({"type": "scan", "card": extra, "zone": "universe"})
    assert (m.state, m.events) == before


def test_wx3_order_and_skipping_players_out() -> None:
    """WX-3: P1 v P2, P2 v P3, P3 v P1; a player with no cards is out and skipped."""
    t = started(3)
    seen = []
    for _ in range(3):
        seen.append(tuple(t.s.challenge))
        t.challenge("wood", "fire", "fire")  # every challenge a draw
    assert seen == [(1, 2), (2, 3), (3, 1)]
    t.universe("dragon")
    t.contribute_all("metal")
    t.universe("star")
    t.contribute_all("water")
    # Bo loses every challenge he is in; the others draw.
    faces = iter(["fire", "earth", "metal", "water"] * 4 + ["wood"])
    guard = 0
    while 2 not in t.s.out:
        guard += 1
        assert guard < 20
        a, b = t.s.challenge
        _play(t, next(faces), b if a == 2 else a if b == 2 else None)
    assert "Bo has no cards left and is out of the game (WX-3)." in t.s.ruling
    # From now on Bo is never in a challenge and the gap is closed.
    pairs = set()
    for _ in range(2):
        pairs.add(tuple(t.s.challenge))
        _play(t, next(faces), None)
    assert pairs == {(1, 3), (3, 1)}
    assert t.view()["out"] == [2]
    assert t.view()["players"][1] == {"seat": 2, "name": "Bo", "cards": 0, "out": True}
    t.universe(next(faces))
    with pytest.raises(OutOfTurn, match="out of the game"):
        t.scan(t.find("wood", "unknown"), "seat:2")


def test_wx4_universe_card_comes_first_and_from_the_universe_deck() -> None:
    """WX-4: no reveal before the Universe card; a player card cannot be the Universe card;
    the Universe card sits on the pot."""
    t = started()
    wood = t.find("wood", "unknown")
    with pytest.raises(OutOfTurn, match="before the Universe card"):
        t.scan(wood, "seat:1")
    with pytest.raises(CardNotAvailable, match="cannot be the Universe card"):
        t.scan(wood, "universe")
    u = t.universe("water")
    assert t.s.pot == (u,) and t.s.places[u] == "pot"
    assert t.view()["universe_left"] == 23
    assert "show your top card in your place, against the Universe Water" in t.view()["prompt"]


# -- WX-5 .. WX-9 (beyond the seed examples above) -----------------------------------------------


def test_wx6_star_round_every_active_player_only() -> None:
    """WX-6: only players still in the game feed the Void; others are refused."""
    t = started(3)
    t.universe("star")
    assert t.s.awaiting == (1, 2, 3)
    c = t.reveal(2, "wood")
    with pytest.raises(OutOfTurn, match="already shown a card"):
        t.show(2, "fire")
    assert t.s.places[c] == "void"


def test_wx7_case_8_each_card_on_its_own() -> None:
    """WX-7.8: one card absorbed by the Universe (joins the pot), one destroyed (Void)."""
    t = started()
    u, a, b = t.challenge("earth", "fire", "water")  # Earth absorbs Fire, destroys Water
    assert t.s.pot == (u, a)
    assert t.s.places[b] == "void"
    assert t.s.ruling.startswith("Earth absorbs Ana's Fire: it joins the pot; Earth destroys "
                                 "Bo's Water: it goes to the Void (WX-7.8).")


def test_wx8_won_cards_are_known_in_the_winners_deck() -> None:
    """WX-8, C-1: won cards go to the winner's deck: the winner may show them later, nobody
    else may."""
    t = started()
    u, _a, b = t.challenge("water", "wood", "metal")
    assert "shuffle them together and put them at the bottom of your deck" in t.s.ruling
    assert sorted(t.view(1)["your_known_cards"]) == ["metal", "universe-water", "wood"]
    assert "your_known_cards" not in t.view(None)
    assert t.view(2)["your_known_cards"] == []
    t.universe("fire")
    with pytest.raises(CardNotAvailable, match="is in Ana's deck"):
        t.scan(b, "seat:2")
    # WX-8, issue 18: won cards lie under the unseen ones; not Ana's top card yet...
    with pytest.raises(CardNotAvailable, match=r"not Ana's top card: it was won and went to "
                       r"the bottom of the deck \(WX-8\), under 21 cards nobody has seen yet"):
        t.scan(u, "seat:1")
    before = t.s
    t.scan(u, "seat:1", override=True)  # ...unless the referee says so (logged)
    assert t.s.places[u] == "table:1" and t.s.unseen == before.unseen
    assert "Referee override" in t.s.ruling and "taken as the top card (C-1)" in t.s.ruling
    t.m.undo()
    assert t.s == before


# -- WX-10, WX-11 ------------------------------------------------------------------------------

ABSORBER = {"wood": "fire", "fire": "earth", "earth": "metal", "metal": "water",
            "water": "wood"}


def _round(t: Table, universe: str, face: str) -> None:
    """A Universe Dragon or Star round; everyone shows ``face`` (or what they have)."""
    t.universe(universe)
    t.contribute_all(face)


def _play(t: Table, e: str, winner: int | None) -> None:
    """One challenge against Universe ``e``: seat ``winner`` shows the element that absorbs
    it, the other shows ``e`` (a draw when ``winner`` is None)."""
    a, b = t.s.challenge
    t.universe(e)
    for seat in (a, b):
        t.show(seat, ABSORBER[e] if seat == winner else e)


def _play_out_universe(t: Table, extra_for_ana: bool) -> None:
    """Use up the Universe deck: Dragon and Star rounds, then 20 challenges won in turn by
    Ana and Bo (one more for Ana if ``extra_for_ana``)."""
    for u, face in (("dragon", "metal"), ("star", "earth"), ("dragon", "water"),
                    ("star", "fire")):
        _round(t, u, face)
    order = [e for _ in range(4) for e in ("wood", "fire", "earth", "metal", "water")]
    for i, e in enumerate(order):
        ana_wins = i % 2 == 0 or (extra_for_ana and i == 19)
        _play(t, e, 1 if ana_wins else 2)


def test_wx10_count_most_cards_wins() -> None:
    """WX-10 (a) count: when the Universe deck is empty, the most cards wins."""
    t = started(end="count")
    _play_out_universe(t, extra_for_ana=True)
    v = t.view()
    assert v["finished"] and v["winner"] == 1 and v["winners"] == [1]
    assert t.s.decks[0] > t.s.decks[1]
    assert "The Universe deck is empty (count the cards)" in t.s.ruling
    assert "Game over: Ana wins" in t.s.ruling
    assert RULES.actions(t.s, None) == []
    with pytest.raises(GameOver):
        t.scan(t.any_card(1), "seat:1")


def test_wx10_recycle_the_void_becomes_the_universe_deck() -> None:
    """WX-10 (b) recycle: the Void is turned over as the new Universe deck; a player card
    in it can then be the Universe card."""
    t = started(end="recycle")
    _play_out_universe(t, extra_for_ana=False)
    assert not t.s.finished
    assert t.s.recycles == 1
    assert "turn the Void over" in t.s.ruling
    assert t.s.void == 0 and t.s.universe_left > 0
    recycled = [c for c, p in t.s.places.items() if p == "universe"]
    player_card = next(c for c in recycled if t.face(c) in ABSORBER)
    with pytest.raises(CardNotAvailable, match="cannot be the Universe card"):
        t.scan(t.any_card(1), "universe")
    t.scan(player_card, "universe")
    assert t.s.universe_card == player_card
    assert t.view()["universe_card"] == t.face(player_card)


def test_wx10_last_player_with_cards_wins() -> None:
    """WX-10: a player holding every card still in play (all others out) wins at once."""
    t = started()
    for u, face in (("dragon", "metal"), ("star", "earth"), ("dragon", "water"),
                    ("star", "fire")):
        _round(t, u, face)
    for e in [e for _ in range(4) for e in ("wood", "fire", "earth", "metal", "water")]:
        if t.s.finished:
            break
        _play(t, e, 1)
    assert t.s.winners == (1,)
    assert t.s.out == frozenset({2})
    assert "holds every card still in the players' hands" in t.s.ruling


def test_wx5_feeding_the_last_card_to_a_universe_dragon_puts_a_player_out() -> None:
    """WX-5 + WX-3 + WX-10: Bo feeds his last card to a Universe Dragon and is out; Ana,
    the only player left with cards, wins."""
    t = started()
    for u, face in (("star", "earth"), ("star", "fire"), ("dragon", "water")):
        _round(t, u, face)
    es = iter([e for _ in range(4) for e in ("wood", "fire", "earth", "metal", "water")])
    while t.s.decks[1] > 1:
        _play(t, next(es), 1)
    assert not t.s.finished
    t.universe("dragon")
    t.contribute_all()
    assert t.s.out == frozenset({2}) and t.s.winners == (1,)


# -- WX-12 -------------------------------------------------------------------------------------


def test_wx12_rock_paper_scissors_winner_starts() -> None:
    """WX-12: the rock-paper-scissors winner, entered on a phone, starts."""
    t = Table(3)
    acts = RULES.actions(t.s, 2)
    assert acts[0]["type"] == "rps" and acts[0]["fields"][0]["kind"] == "choice"
    t.rps(3)
    assert t.view()["challenge"] == [3, 1]
    assert t.s.ruling.startswith("Cy won rock-paper-scissors and starts (WX-12).")
    with pytest.raises(IllegalPlay, match="not expected now"):
        t.rps(2)


def test_wx12_first_dragon_pulled_before_dealing_starts() -> None:
    """WX-12 (start option 'dragon'): cards pulled from the player deck before dealing; the
    first Infinite Dragon decides who starts; nothing is dealt from it."""
    t = Table(3, start="dragon")
    with pytest.raises(IllegalPlay, match="not expected now"):
        t.rps(1)
    w = t.reveal(1, "wood")
    assert "no Dragon yet" in t.s.ruling
    with pytest.raises(CardNotAvailable, match="already pulled"):
        t.scan(w, "seat:2")
    with pytest.raises(CardNotAvailable, match="Universe deck"):
        t.scan(t.find("universe-dragon", "universe"), "seat:2")
    t.reveal(2, "dragon")
    assert t.view()["challenge"] == [2, 3]
    assert "Bo pulled the first Infinite Dragon and starts" in t.s.ruling
    assert t.s.decks == (14, 14, 14) and t.s.places[w] == "unknown"


# -- players ------------------------------------------------------------------------------------


def test_eight_players_full_round_order() -> None:
    """WX-2, WX-3 with 8 players: 2 player decks, 11 cards each, P8 v P1 closes the round."""
    t = started(8)
    pairs = []
    for e in ["wood", "fire", "earth", "metal"] * 2:
        pairs.append(tuple(t.s.challenge))
        _play(t, e, None)
    assert pairs == [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 1)]


def test_setup_refuses_nine_players() -> None:
    with pytest.raises(BadSetup):
        new_match("wuxing", [f"P{i}" for i in range(9)])
    with pytest.raises(BadSetup):
        new_match("wuxing", ["Ana", "Bo"], {"end": "forever"})


# -- C-1 and bad input: refused, state and log unchanged ----------------------------------------


def _refused(t: Table, event: Any, error: type[Exception], match: str) -> None:
    state, events, rulings = t.m.state, list(t.m.events), list(t.m.rulings)
    with pytest.raises(error, match=match):
        t.m.apply(event)
    assert t.m.state is state
    assert t.m.events == events and t.m.rulings == rulings
    assert t.m.replay() == state


def test_bad_input_malformed_events() -> None:
    t = started(3)
    t.universe("water")
    wood = t.find("wood", "unknown")
    _refused(t, "scan", MalformedEvent, "JSON object")
    _refused(t, {"card": wood}, MalformedEvent, "lacks 'type'")
    _refused(t, {"type": "play", "card": wood}, MalformedEvent, "no event type 'play'")
    _refused(t, {"type": "scan", "zone": "seat:1"}, MalformedEvent, "lacks 'card'")
    _refused(t, {"type": "scan", "card": 7, "zone": "seat:1"}, MalformedEvent, "must be str")
    _refused(t, {"type": "scan", "card": wood}, MalformedEvent, "lacks 'zone'")
    _refused(t, {"type": "scan", "card": wood, "zone": "pot"}, MalformedEvent, "zones are")
    _refused(t, {"type": "scan", "card": wood, "zone": "seat:9"}, MalformedEvent, "no seat 9")
    _refused(t, {"type": "scan", "card": wood, "zone": "seat:1", "override": "yes"},
             MalformedEvent, "true or false")
    _refused(t, {"type": "scan", "card": "hello", "zone": "seat:1"}, MalformedEvent,
             "neither a serial")
    _refused(t, {"type": "rps"}, MalformedEvent, "lacks 'winner'")
    _refused(t, {"type": "rps", "winner": 0}, MalformedEvent, "no such seat")


def test_bad_input_cards_not_of_this_table() -> None:
    t = started()
    t.universe("water")
    run = t.find("wood", "unknown").split("-")[0]
    other_game = codec.encode("G", "M1", run, "001")
    _refused(t, {"type": "scan", "card": other_game, "zone": "seat:1"}, ForeignPayload,
             "another game")
    _refused(t, {"type": "scan", "card": "T1:W:WO:" + run + ":001:0", "zone": "seat:1"},
             MalformedPayload, "check character")
    _refused(t, {"type": "scan", "card": "ZZZZ-ZZZ", "zone": "seat:1"}, UnknownCard,
             "never printed")
    wood = t.find("wood", "unknown")
    forged = codec.encode("W", "ST", *wood.split("-"))
    _refused(t, {"type": "scan", "card": forged, "zone": "seat:1"}, UnknownCard,
             "does not match")
    # The genuine payload is accepted like the serial.
    t.scan(codec.encode("W", "WO", *wood.split("-")), "seat:1")
    assert t.s.places[wood] == "table:1"


def test_bad_input_cards_where_they_cannot_come_from() -> None:
    """C-1: Void, pot, table, another deck, the Universe deck: refused with where it is."""
    t = started(3)
    u, a, _b = t.challenge("water", "fire", "water")  # Ana's Fire to the Void; Bo v Cy next
    t.universe("metal")
    _refused(t, {"type": "scan", "card": a, "zone": "seat:2"}, CardNotAvailable,
             "is in the Void")
    _refused(t, {"type": "scan", "card": u, "zone": "seat:2"}, CardNotAvailable,
             "is in the pot")
    _refused(t, {"type": "scan", "card": t.find("universe-fire", "universe"),
                 "zone": "seat:2"}, CardNotAvailable, "is in the Universe deck")
    shown = t.reveal(2, "wood")
    _refused(t, {"type": "scan", "card": shown, "zone": "seat:3"}, CardNotAvailable,
             "already on the table, shown by Bo")
    _refused(t, {"type": "scan", "card": t.find("earth", "unknown"), "zone": "seat:2"},
             OutOfTurn, "already shown a card")
    _refused(t, {"type": "scan", "card": t.find("earth", "unknown"), "zone": "seat:1"},
             OutOfTurn, r"not in this challenge \(Bo v Cy\)")
    _refused(t, {"type": "scan", "card": t.find("earth", "unknown"), "zone": "seat:3",
                 "seat": 1}, OutOfTurn, "Ana cannot show a card for Cy")
    _refused(t, {"type": "scan", "card": t.find("universe-earth", "universe"),
                 "zone": "universe"}, OutOfTurn, "waits for")


def test_bad_input_card_in_another_players_deck() -> None:
    t = started()
    _, won, _ = t.challenge("water", "wood", "metal")  # Ana won; Bo v Ana next
    t.universe("fire")
    _refused(t, {"type": "scan", "card": won, "zone": "seat:2"}, CardNotAvailable,
             "is in Ana's deck")


def test_referee_override_forces_a_refused_scan_and_says_so() -> None:
    """C-1: the referee may force a scan; it is logged and the counts stay consistent."""
    t = started()
    u, a, b = t.challenge("water", "fire", "water")  # Ana's Fire to the Void
    assert t.s.pot == (u, b)
    t.universe("metal")
    t.scan(a, "seat:2", override=True)
    assert "Referee override" in t.s.ruling and "the Void" in t.s.ruling
    assert t.s.places[a] == "table:2" and t.s.void == 0
    assert t.m.replay() == t.s
    with pytest.raises(IllegalPlay, match="already shown in this challenge"):
        t.scan(a, "seat:1", override=True)


def test_undo_restores_the_previous_state() -> None:
    """C-3: undo of a reveal that resolved a challenge brings the challenge back."""
    t = started()
    t.universe("water")
    t.reveal(1, "wood")
    before = t.s
    t.reveal(2, "metal")
    t.m.undo()
    assert t.s == before
    assert t.view()["awaiting"] == [2]


def test_find_helper_sanity() -> None:
    """The scenario helper refuses faces a seat cannot show (so the tests above can fail)."""
    t = started()
    with pytest.raises(LookupError):
        t.find("universe-wood", "deck:1")


def test_face_ids_entered_by_hand_stand_for_a_copy_that_can_be_there() -> None:
    """C-6: a phone or the referee may enter a face id instead of scanning; it stands for a
    copy the zone can hold (the top of a deck: an unseen copy while any is left, WX-8), and
    is refused otherwise."""
    t = started()
    t.scan("universe-water", "universe")
    assert t.face(t.s.universe_card) == "universe-water"
    t.scan("wood", "seat:1")
    t.scan("metal", "seat:2")
    assert t.s.ruling.startswith("Wood absorbs Water: Ana wins 3 cards")
    t.scan("universe-fire", "universe")  # Bo v Ana
    t.scan("fire", "seat:2")
    # The won Universe Water lies under Ana's 21 unseen cards (WX-8): not her top card.
    _refused(t, {"type": "scan", "card": "universe-water", "zone": "seat:1"},
             CardNotAvailable, "Ana's top card is one nobody has seen yet")
    _refused(t, {"type": "scan", "card": "universe-water", "zone": "seat:2"},
             CardNotAvailable, "Bo's top card is one nobody has seen yet")
    t.scan("water", "seat:1")
    assert t.s.ruling.startswith("Water destroys Fire")
    for _ in range(2):
        t.scan("universe-dragon", "universe")
        t.contribute_all("earth")
    assert t.s.dragons == 2
    _refused(t, {"type": "scan", "card": "universe-dragon", "zone": "universe"},
             CardNotAvailable, "no Universe Dragon")


def test_a_seat_whose_cards_are_all_known_cannot_show_an_unseen_card() -> None:
    """C-1, C-2: once every card in a deck is known (all unseen cards shown), an unseen card
    shown for that seat is refused: it must be one of the known ones."""
    rng = random.Random(4)
    for _ in range(40):
        m = new_match("wuxing", ["Ana", "Bo", "Cy"], None, rng=rng)
        while not m.state.finished:
            s = m.state
            if s.phase == "reveal":
                empty = [p for p in s.awaiting if s.unseen[p - 1] == 0]
                pool = [c for c, p in s.places.items() if p == "unknown"]
                if empty and pool:
                    seat = empty[0]
                    before, log = m.state, list(m.events)
                    with pytest.raises(CardNotAvailable,
                                       match=r"every card in .* deck is known"):
                        m.apply({"type": "scan", "card": pool[0], "zone": f"seat:{seat}"})
                    assert m.state is before and m.events == log
                    return
            m.apply(RULES.random_play(s, rng))
    pytest.fail("no deck became fully known in 40 random games")


def test_game_can_end_after_a_last_universe_dragon_round() -> None:
    """Companion decision 6 (WX-10 count): the last Universe card is a Star; after its round
    nothing can supply a Universe card: the cards are counted; the pot belongs to nobody."""
    t = started(end="count")
    for i, e in enumerate([e for _ in range(4) for e in ABSORBER]):
        _play(t, e, 1 if i % 2 == 0 or i == 19 else 2)
    for u, face in (("dragon", "metal"), ("star", "earth"), ("dragon", "water")):
        _round(t, u, face)
    assert not t.s.finished
    star = t.universe("star")
    t.contribute_all("fire")
    assert t.s.finished and t.s.winners == (1,)
    assert t.s.pot == (star,)
    assert t.s.challenges == t.s.adjudications + 1


@pytest.mark.parametrize("case,u,a,b,where", [
    ("1 two Stars", "water", "star", "star", ("pot", "pot", "pot")),
    ("2 one Star", "water", "star", "dragon", ("void", "pot", "void")),
    ("2 one Star", "fire", "wood", "star", ("void", "void", "pot")),
    ("3 two Dragons", "earth", "dragon", "dragon", ("pot", "pot", "pot")),
    ("4 one Dragon", "water", "dragon", "fire", ("deck:1", "void", "deck:1")),
    ("4 one Dragon", "metal", "wood", "dragon", ("deck:2", "deck:2", "void")),
    ("5 same, joins", "fire", "fire", "fire", ("pot", "pot", "pot")),
    ("5 same, destroyed", "water", "fire", "fire", ("pot", "void", "void")),
    ("6 absorbs", "metal", "water", "fire", ("deck:1", "deck:1", "deck:1")),
    ("6 absorb beats destroy", "water", "earth", "wood", ("deck:2", "deck:2", "deck:2")),
    ("7 destroys", "water", "earth", "metal", ("void", "deck:1", "void")),
    ("7 destroys", "wood", "water", "metal", ("void", "void", "deck:2")),
    ("8 each on its own", "earth", "fire", "water", ("pot", "pot", "void")),
    ("8 each on its own", "wood", "wood", "water", ("pot", "pot", "pot")),
])
def test_wx7_resolution_cases_in_order(case: str, u: str, a: str, b: str,
                                       where: tuple[str, str, str]) -> None:
    """WX-7 cases 1-8: where the Universe card and both revealed cards end up."""
    t = started()
    cards = t.challenge(u, a, b)
    assert tuple(t.s.places[c] for c in cards) == where, case
    assert f"WX-7.{case[0]}" in t.s.ruling
    assert t.s.pot == tuple(c for c in cards if t.s.places[c] == "pot")


# -- review: WX-3 gaps closed mid-challenge, texts that name cards and counts ---------------------

VICTIM = {"wood": "earth", "earth": "water", "water": "fire", "fire": "metal",
          "metal": "wood"}  # the Universe element destroys VICTIM[e] (WX-1)


def _drain(t: Table, seat: int, left: int) -> None:
    """Challenges until ``seat`` has ``left`` cards: whenever ``seat`` plays, its card is
    destroyed by the Universe card and the other challenger's absorbs it (WX-7.6); in the
    other challenges both players draw (WX-7.5)."""
    es = iter([e for _ in range(4) for e in ("wood", "fire", "earth", "metal", "water")])
    while t.s.decks[seat - 1] > left:
        a, b = t.s.challenge
        e = next(es)
        t.universe(e)
        for s in (a, b):
            face = VICTIM[e] if s == seat else ABSORBER[e]
            t.show(s, face)
        assert t.s.decks[seat - 1] >= left


def _left_in_universe(t: Table) -> str:
    """An element still in the Universe deck."""
    return next(f for f in ("wood", "fire", "earth", "metal", "water")
                if any(t.face(c) == f"universe-{f}" and p == "universe"
                       for c, p in t.s.places.items()))


def test_wx3_wx5_second_challenger_feeds_last_card_pairing_closes_the_gap() -> None:
    """WX-3 + WX-5: in Ana v Bo, Bo puts his last card into the pot for a Universe Dragon:
    he is out, and the same challenge goes on as Ana v Cy (P1 v P3 if P2 is out)."""
    t = started(3)
    _drain(t, 2, 2)
    while t.s.challenge != (1, 2):
        _play(t, _left_in_universe(t), None)
    t.universe("dragon")
    assert RULES.referee_view(t.s)["prompt"] == (
        "Universe Dragon: Ana, Bo and Cy, show your top card in your place, then put it face "
        "up on the pot (WX-5).")
    assert t.view()["prompt"] == (  # C-8: the players read no ruling ids
        "Universe Dragon: Ana, Bo and Cy, show your top card in your place, then put it face "
        "up on the pot.")
    t.contribute_all()
    assert t.s.decks[1] == 1 and t.s.challenge == (1, 2)
    challenges = t.s.challenges
    t.universe("dragon")
    pot = len(t.s.pot)
    t.show(1)
    t.show(3, "dragon")
    assert "Cy put an Infinite Dragon into the pot (WX-5)." in t.s.ruling
    t.show(2)
    assert t.s.out == frozenset({2}) and t.s.decks[1] == 0
    assert len(t.s.pot) == pot + 3
    assert t.s.challenge == (1, 3) and t.s.phase == "universe"
    assert t.s.challenges == challenges  # the same challenge, re-formed (WX-3)
    assert "Bo has no cards left and is out of the game (WX-3)." in t.s.ruling
    assert "Next: Ana v Cy; Ana, lay the top Universe card on the pot." in t.s.ruling
    _play(t, _left_in_universe(t), 1)
    assert t.s.challenge == (3, 1)  # then Cy's turn: Cy v Ana


def test_wx3_wx6_first_challenger_gives_last_card_to_the_void_next_player_takes_over() -> None:
    """WX-3 + WX-6: in Ana v Bo, Ana puts her last card into the Void for a Universe Star:
    she is out; her challenge passes to the next players still in (Bo v Cy)."""
    t = started(3)
    _drain(t, 1, 2)
    while t.s.challenge != (1, 2):
        _play(t, _left_in_universe(t), None)
    t.universe("dragon")
    t.contribute_all()
    assert t.s.decks[0] == 1 and t.s.challenge == (1, 2)
    star = t.universe("star")
    t.contribute_all()
    assert t.s.out == frozenset({1})
    assert t.s.pot == (star,)
    assert t.s.challenge == (2, 3)
    assert "Ana has no cards left and is out of the game (WX-3). Next: Bo v Cy;" in t.s.ruling
    _play(t, _left_in_universe(t), 2)
    assert t.s.pot == (star,)  # the Star stays when the pot is won (decision 1)
    assert t.s.challenge == (3, 2)


def test_wx7_4_several_stars_in_a_won_pot_all_stay_and_the_ruling_says_so() -> None:
    """WX-7.1 then WX-7.4: after a two-Star draw, a Dragon wins the pot but both Stars stay
    in it; the ruling counts the won cards and names both Stars."""
    t = started()
    u1, s1, s2 = t.challenge("water", "star", "star")  # Bo v Ana next
    u2, bo, ana = t.challenge("fire", "dragon", "wood")
    assert t.s.pot == (s1, s2)
    assert {t.s.places[c] for c in (u1, u2, ana)} == {"deck:2"}
    assert t.s.places[bo] == "void"
    assert "Bo wins 3 cards" in t.s.ruling
    assert "The 2 Stars are never won: they stay in the pot (WX-9)." in t.s.ruling


def test_wx7_2_star_played_on_a_pot_holding_a_star_names_every_card_it_sends() -> None:
    """WX-7.2 with a Star already in the pot (WX-6): the pot's Star goes to the Void too;
    the ruling says how many cards go and names the Star that was in the pot."""
    t = started()
    old = t.universe("star")
    t.contribute_all()
    void = t.s.void
    u, ana, bo = t.challenge("water", "star", "wood")
    assert t.s.pot == (ana,)
    assert {t.s.places[c] for c in (old, u, bo)} == {"void"}
    assert t.s.void == void + 3
    assert t.s.ruling.startswith(
        "Ana's Destructive Star destroys everything: 3 cards go to the Void (the Universe "
        "Water, a Destructive Star from the pot and Bo's Wood); the Star stays as the sole "
        "pot card (WX-7.2).")
    t2 = started()
    t2.challenge("metal", "wood", "star")
    assert t2.s.ruling.startswith(
        "Bo's Destructive Star destroys everything: 2 cards go to the Void (the Universe "
        "Metal and Ana's Wood); the Star stays as the sole pot card (WX-7.2).")


def test_wx7_7_and_wx6_rulings_name_a_star_swept_from_the_pot() -> None:
    """WX-7.7 and WX-6: when a pot with a Star in it goes to the Void, the ruling says so
    (seed Game Notes: the only ways a Star leaves play)."""
    t = started()
    t.universe("star")
    t.contribute_all()
    t.challenge("water", "earth", "fire")
    assert t.s.ruling.startswith("Earth destroys Water: the pot (2 cards, a Destructive Star "
                                 "among them) and Bo's Fire go to the Void")
    t2 = started()
    t2.universe("star")
    t2.contribute_all()
    t2.universe("star")
    assert t2.s.ruling.startswith("Universe Star: the pot (1 card, a Destructive Star among "
                                  "them) goes to the Void")


