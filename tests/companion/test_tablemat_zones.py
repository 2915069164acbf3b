"""The printed mat's zones for every game and table size (C-9 rev. 3, issue 26 point 4).

Every place in play the camera watches has a zone, named exactly as the engines and the
camera name it; each zone holds a card at any angle, none overlaps another, all lie in
the play area and keep clear of the ArUco markers and their white margin.
"""

from __future__ import annotations

import pytest

from companion import tablemat

# The agreed zone names per game (issue 26 contract): seats plus the shared places.
CONTRACT = {
    "wuxing": ("universe", "void"),
    "godnum": ("pot", "void"),
    "shrine": ("lot",),
    "mountains": (),
    "gemcomplete": ("locus:1", "locus:2", "discard:1", "discard:2"),
}

TABLES = [(g, n) for g in tablemat.games()
          for n in range(tablemat.player_range(g)[0], tablemat.player_range(g)[1] + 1)]


def test_the_tables_cover_every_game_and_size_the_contract_names() -> None:
    assert set(CONTRACT) == set(tablemat.games())
    assert tablemat.player_range("wuxing") == (2, 8)
    assert tablemat.player_range("shrine") == (2, 6)
    assert tablemat.player_range("godnum") == (2, 6)
    assert len(TABLES) == 7 + 5 + 5 + 3 + 1


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_zones_are_exactly_the_seats_and_the_places_in_play(game: str, players: int) -> None:
    names = [z.name for z in tablemat.zones(game, players)]
    seats = [f"seat:{i}" for i in range(1, players + 1)]
    assert sorted(names) == sorted(seats + list(CONTRACT[game]))
    assert names[:players] == seats  # seats first, in seat order


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_zone_holds_a_card_inside_the_area_clear_of_markers(game: str,
                                                                  players: int) -> None:
    short, long = tablemat.ZONE_MIN
    assert short >= 110 and long >= 130
    assert short >= (tablemat.CARD_WIDTH ** 2 + tablemat.CARD_HEIGHT ** 2) ** 0.5
    zs = tablemat.zones(game, players)
    for z in zs:
        assert min(z.w, z.h) >= short and max(z.w, z.h) >= long, (game, players, z)
        assert z.x >= 0 and z.x + z.w <= tablemat.MAT_WIDTH, (game, players, z)
        assert z.y >= 0 and z.y + z.h <= tablemat.MAT_HEIGHT, (game, players, z)
        for m in tablemat.MARKERS:
            half = m.size / 2 + tablemat.MARKER_MARGIN
            white = tablemat.Zone("marker", m.cx - half, m.cy - half, 2 * half, 2 * half)
            assert not z.overlaps(white), (game, players, z.name, m.id)
    for i, a in enumerate(zs):
        for b in zs[i + 1:]:
            assert not a.overlaps(b), (game, players, a, b)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_each_zone_is_found_at_its_centre_and_corners(game: str, players: int) -> None:
    for z in tablemat.zones(game, players):
        assert tablemat.zone_at(*z.centre, game, players) == z.name
        inside = [(z.x + 1, z.y + 1), (z.x + z.w - 1, z.y + 1), (z.x + 1, z.y + z.h - 1),
                  (z.x + z.w - 1, z.y + z.h - 1)]
        for x, y in inside:
            assert tablemat.zone_at(x, y, game, players) == z.name


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_seats_face_their_edge_and_shared_piles_face_nobody(game: str, players: int) -> None:
    """``side`` is the edge the zone's owner sits at; the printer turns their words to it."""
    for z in tablemat.zones(game, players):
        kind, _, n = z.name.partition(":")
        if not n:
            assert z.side == "", z  # the pot, the Void, the lot: everyone's
            continue
        assert z.side in ("near", "left", "far", "right"), z
        cx, cy = z.centre
        nearest = min((cy, "far"), (tablemat.MAT_HEIGHT - cy, "near"), (cx, "left"),
                      (tablemat.MAT_WIDTH - cx, "right"))[1]
        if kind == "seat":
            assert z.side == nearest, z  # a seat lies along its player's edge
    assert tablemat.zone_named("seat:1", game, players).side == "near"


def test_wuxing_void_lies_beside_the_pot_for_every_table() -> None:
    for n in range(2, 9):
        pot = tablemat.zone_named("universe", "wuxing", n)
        void = tablemat.zone_named("void", "wuxing", n)
        assert pot.y == void.y and pot.h == void.h  # side by side in the centre band
        assert 0 < void.x - (pot.x + pot.w) <= 50


def test_gem_complete_discard_piles_lie_on_their_owners_side() -> None:
    zs = {z.name: z for z in tablemat.zones("gemcomplete", 2)}
    for n, edge in ((1, "near"), (2, "far")):
        pile, seat = zs[f"discard:{n}"], zs[f"seat:{n}"]
        other = zs[f"seat:{3 - n}"]
        # nearer its owner's seat than the opponent's, and leaning to its owner's edge
        d_own = abs(pile.centre[0] - seat.centre[0]) + abs(pile.centre[1] - seat.centre[1])
        d_other = abs(pile.centre[0] - other.centre[0]) + abs(pile.centre[1] - other.centre[1])
        assert d_own < d_other
        middle = tablemat.MAT_HEIGHT / 2
        assert (pile.centre[1] > middle) == (edge == "near")
        assert pile.side == edge
