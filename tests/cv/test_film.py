"""A short filmed game of every game, end to end (issue 26): the engine's random playout
played on the printed mat and deck, filmed at 720p and calm pace, read by the real camera
code (``cv.watch.Watcher`` and the real sender) against a real ``companion serve``; the
server's game must end where the direct game does, with no referee correction and no card
missed or counted twice."""

from __future__ import annotations

import pytest

from bench.film.referee import GameFigures, film_game

MOVES = {"wuxing": 10, "godnum": 8, "shrine": 8, "mountains": 10, "gemcomplete": 10}
_FILMED: dict[str, GameFigures] = {}


def filmed(game: str) -> GameFigures:
    """One short game of ``game`` (2 players, calm, 720p), filmed once per test session."""
    if game not in _FILMED:
        _FILMED[game] = film_game(game, 2, res="720p", pace="calm", seed=1,
                                  max_moves=MOVES[game])
    return _FILMED[game]


@pytest.mark.parametrize("game", list(MOVES))
def test_a_filmed_game_is_refereed_as_the_direct_game(game: str) -> None:
    f = filmed(game)
    assert f.events == MOVES[game] or f.finished, f.summary()
    assert f.camera_events > 0, "the camera saw no card"
    assert f.equal and not f.diverged, f.summary()
    assert f.matched == f.events, f.summary()
    assert f.corrections == 0, f.summary()
    assert f.missed == 0 and f.duplicates == 0, f.summary()
    assert f.tap_refusals == 0, f.summary()


@pytest.mark.parametrize("game", list(MOVES))
def test_a_card_pushed_onto_a_pile_is_not_refused(game: str) -> None:
    # C-9: a card the companion knows lies in a pile, seen again there, is no refusal.
    f = filmed(game)
    assert f.refusals == 0, f.summary()


def test_a_card_answered_already_there_was_sent_not_missed() -> None:
    """God Num's second discard after the first reached the karma limit (GN-9): the camera
    sends it and the referee answers "already there"; the bench counts it as sent, and a
    card shown and never answered as missed."""
    from bench.film.referee import _count_scans
    from bench.film.script import Show, Step
    from cv.sender import Outcome, Scan

    event = {"type": "discard", "seat": 2, "cards": ["AAAA-001", "AAAA-002"]}
    step = Step(event, (Show("AAAA-001", "void"), Show("AAAA-002", "void")))
    played = Outcome("ok", "Ben discards Water 4", answer={"version": 5})
    there = Outcome("ok", "C-9", answer={"already_there": True, "version": 5})
    figs = GameFigures("godnum", 3, "720p", "calm", 1)
    _count_scans(figs, step, [(Scan("s1", "p", "void", "AAAA-001"), played),
                              (Scan("s2", "p", "void", "AAAA-002"), there)])
    assert (figs.missed, figs.already_there, figs.duplicates) == (0, 1, 0)
    _count_scans(figs, step, [(Scan("s3", "p", "void", "AAAA-001"), played)])
    assert figs.missed == 1 and "never sent ['AAAA-002']" in figs.notes[-1]
