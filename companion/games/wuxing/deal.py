"""The WuXing deal (WX-2, WX-12): which printed cards play, where each starts, the table."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine import OUT, UNKNOWN, Setup, deck_of
from companion.errors import BadSetup
from companion.games.wuxing.state import (
    DRAGON,
    ELEMENT,
    STAR,
    START,
    UNIVERSE,
    Table,
    WuXingState,
    relations,
    table_of,
)


def deal(setup: Setup, need: Mapping[str, int]) -> WuXingState:
    """The table before the first event (WX-2): the player deck(s) dealt evenly, the
    remainder set aside unseen, the Universe deck face down, further printed sets out of
    play; raises ``BadSetup``."""
    n = len(setup.players)
    absorbs, destroys = relations(setup.deck.attrs)
    in_play: dict[str, set[int]] = {}
    for deck_id, count in need.items():
        keys = sorted({setup.sets.get(s, 1) for s, f in setup.cards.items()
                       if f.deck == deck_id})
        if len(keys) < count:
            raise BadSetup(f"{n} players need {count} printed set(s) of the {deck_id} "
                           f"deck; the table has {len(keys)}", rule="WX-2")
        in_play[deck_id] = set(keys[:count])
    places: dict[str, str] = {}
    kind: dict[str, str] = {}
    element: dict[str, str] = {}
    label: dict[str, str] = {}
    player_cards: list[str] = []
    universe = 0
    for serial in sorted(setup.cards):
        face = setup.cards[serial]
        if face.deck not in in_play:
            raise BadSetup(f"card {serial!r} belongs to no WuXing deck ({face.deck!r})")
        k = face.kind if face.kind in (DRAGON, STAR) else ELEMENT
        kind[serial] = k
        element[serial] = (face.element or "") if k == ELEMENT else ""
        if k == ELEMENT and not element[serial]:
            raise BadSetup(f"element card face {face.id!r} has no element", rule="WX-1")
        label[serial] = (element[serial].capitalize() if k == ELEMENT
                         else "Infinite Dragon" if k == DRAGON else "Destructive Star")
        if setup.sets.get(serial, 1) not in in_play[face.deck]:
            places[serial] = OUT
        elif face.deck == "universe":
            places[serial] = UNIVERSE
            universe += 1
        else:
            places[serial] = UNKNOWN
            player_cards.append(serial)
    by_face: dict[str, tuple[str, ...]] = {}
    for serial in sorted(setup.cards):
        by_face.setdefault(setup.cards[serial].id, ())
        by_face[setup.cards[serial].id] += (serial,)
    each, aside = divmod(len(player_cards), n)
    if each == 0:
        raise BadSetup(f"{len(player_cards)} player cards cannot be dealt to {n} players",
                       rule="WX-2")
    table = Table(
        names=tuple(setup.players), faces=dict(setup.cards), kind=kind, element=element,
        label=label, player_cards=tuple(player_cards), absorbs=absorbs,
        destroys=destroys, end=str(setup.options.get("end", "count")),
        start=str(setup.options.get("start", "rps")), code=setup.deck.code,
        title=setup.deck.title, zone_seats={f"seat:{s}": s for s in range(1, n + 1)},
        by_face=by_face, deck_place=tuple(deck_of(s) for s in range(n + 1)),
        table_place=tuple(table_of(s) for s in range(n + 1)),
    )
    deal = (f"Shuffle the player deck and deal it: {each} cards each"
            + (f", {aside} set aside unseen (WX-2)." if aside else " (WX-2)."))
    if table.start == "rps":
        first = "Play rock-paper-scissors; enter the winner, who starts (WX-12)."
    else:
        first = ("Before dealing, pull cards from the player deck and show them: the first "
                 "to show an Infinite Dragon starts (WX-12).")
    return WuXingState(
        table=table, phase=START, places=places, unseen=(each,) * n, decks=(each,) * n,
        set_aside=aside, universe_left=universe, void=0, pot=(), universe_card=None,
        turn=1, challenge=(), revealed=(), awaiting=(), out=frozenset(),
        shown=frozenset(), duel=(), duel_cards=(), adjudications=0, challenges=0,
        dragons=0, stars=0, recycles=0, adjudged="",
        said=f"{first} {deal}" if table.start == "rps" else f"{first} Then: {deal}",
        finished=False, winners=(),
    )
