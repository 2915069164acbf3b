"""The printed table mat's geometry: markers, zones, lookups (pure, no OpenCV)."""

from __future__ import annotations

import importlib

import pytest

from companion import tablemat
from companion.errors import BadSetup, UnknownGame
from companion.registry import GAMES


def test_markers_sit_in_the_corners_inside_the_play_area() -> None:
    assert [m.id for m in tablemat.MARKERS] == [0, 1, 2, 3]
    for m in tablemat.MARKERS:
        for x, y in m.corners():
            assert tablemat.on_mat(x, y)
    tl, tr, br, bl = tablemat.MARKERS[0].corners()
    assert tl[0] < tr[0] and tl[1] == tr[1] and br[1] > tr[1] and bl[0] == tl[0]


@pytest.mark.parametrize("game", tablemat.games())
def test_every_table_size_has_disjoint_zones_on_the_mat_clear_of_markers(game: str) -> None:
    lo, hi = tablemat.player_range(game)
    for n in range(lo, hi + 1):
        zs = tablemat.zones(game, n)
        names = [z.name for z in zs]
        assert len(set(names)) == len(names)
        assert [f"seat:{i}" for i in range(1, n + 1)] == [x for x in names if x.startswith("seat:")]
        for i, a in enumerate(zs):
            for x, y in a.corners():
                assert 0 <= x <= tablemat.MAT_WIDTH and 0 <= y <= tablemat.MAT_HEIGHT
            for b in zs[i + 1:]:
                assert not a.overlaps(b), (game, n, a, b)
            for m in tablemat.MARKERS:
                box = tablemat.Zone("m", m.cx - 35, m.cy - 35, 70, 70)  # marker + margin
                assert not a.overlaps(box), (game, n, a.name, m.id)
            if not a.name.startswith("locus:"):
                assert min(a.w, a.h) >= 110  # a card fits at any angle
        for z in zs:
            assert tablemat.zone_at(*z.centre, game, n) == z.name


def test_zone_at_between_zones_and_off_the_mat_is_none() -> None:
    assert tablemat.zone_at(5, 5, "wuxing", 4) is None
    assert tablemat.zone_at(-10, 200, "wuxing", 4) is None
    assert tablemat.zone_at(400, 225, "wuxing", 4) == "universe"
    assert tablemat.zone_at(400, 400, "wuxing", 4) == "seat:1"  # near edge


def test_gem_complete_has_a_locus_row_per_player() -> None:
    names = {z.name for z in tablemat.zones("gemcomplete", 2)}
    assert {"seat:1", "seat:2", "locus:1", "locus:2"} <= names
    assert tablemat.zone_named("locus:1", "gemcomplete", 2).w >= 6 * tablemat.CARD_WIDTH


def test_unknown_game_and_bad_player_count_are_refused() -> None:
    with pytest.raises(UnknownGame, match="'chess'"):
        tablemat.zones("chess", 2)
    with pytest.raises(BadSetup, match="9"):
        tablemat.zones("wuxing", 9)
    with pytest.raises(BadSetup, match="'lot'"):
        tablemat.zone_named("lot", "wuxing", 2)


def test_every_registered_game_has_a_layout() -> None:
    assert set(GAMES) == set(tablemat.games())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_mat_zones_cover_the_zones_the_engine_scans_into(game: str) -> None:
    """The printed zones are exactly the zones the engine accepts in scans."""
    rules = importlib.import_module(GAMES[game]).RULES
    lo, hi = tablemat.player_range(game)
    assert (lo, hi) == (rules.min_players, rules.max_players)
    for n in range(lo, hi + 1):
        mat = {z.name for z in tablemat.zones(game, n)}
        engine = set()
        for zone in rules.zones:
            if "<n>" in zone:
                engine |= {zone.replace("<n>", str(i)) for i in range(1, n + 1)}
            else:
                engine.add(zone)
        # Exactly: a printed zone the engine does not know would only produce refusals.
        assert mat == engine, (game, n)
