"""Tracking on scripted detection sequences: placed once, hidden, removed, moved, doubled."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cv.detect import Sighting
from cv.tracker import Tracker, TrackerConfig

FPS = 30.0


def sight(serial: str, x: float, y: float) -> Sighting:
    half = 20.0
    return Sighting(f"T1:W:X:{serial.replace('-', ':')}:0", serial, "X", "W",
                    ((x - half, y - half), (x + half, y - half), (x + half, y + half),
                     (x - half, y + half)))


def zone_of(pt: tuple[float, float]) -> str | None:
    """Two zones side by side, a gap between them."""
    if 0 <= pt[0] < 300:
        return "seat:1"
    if 400 <= pt[0] < 700:
        return "universe"
    return None


def make() -> Tracker:
    ids = (f"scan{i}" for i in itertools.count(1))
    return Tracker(TrackerConfig(), zone_of=zone_of, new_id=lambda: next(ids))


def play(tracker: Tracker, frames: list[list[Sighting]], start: int = 1) -> list:
    events = []
    for i, sightings in enumerate(frames, start):
        events += tracker.update(i, i / FPS, sightings)
    return events


def test_a_card_lying_still_is_placed_once_however_long_it_lies() -> None:
    t = make()
    events = play(t, [[sight("AAAA-001", 100, 100)]] * 300)  # ten seconds
    assert [(e.kind, e.zone, e.scan_id) for e in events] == [("placed", "seat:1", "scan1")]
    assert events[0].seq == 3  # the third sighting at rest: 100 ms at 30 fps


def test_missed_frames_and_a_hand_over_the_card_do_not_make_a_second_scan() -> None:
    s = sight("AAAA-001", 100, 100)
    frames = [[s], [], [s], [s]] + [[]] * 30 + [[s]] * 5 + [[s] if i % 3 else [] for i in range(60)]
    events = play(make(), frames)
    assert [e.kind for e in events] == ["placed"]


def test_a_card_taken_away_is_removed_and_placing_it_again_is_a_new_scan() -> None:
    s = sight("AAAA-001", 100, 100)
    t = make()
    events = play(t, [[s]] * 5 + [[]] * 50 + [[s]] * 5)
    kinds = [(e.kind, e.scan_id) for e in events]
    assert kinds == [("placed", "scan1"), ("removed", ""), ("placed", "scan2")]
    removed = events[1]
    assert removed.seq - 5 >= 1.5 * FPS  # not before remove_after_s


def test_a_moving_card_is_not_placed_until_it_rests() -> None:
    frames = [[sight("AAAA-001", 20 + 10 * i, 100)] for i in range(10)]
    frames += [[sight("AAAA-001", 120, 100)]] * 3
    events = play(make(), frames)
    # Frame 11 is the first at rest; frames 11-13 are three sightings that did not move.
    assert [(e.kind, e.seq) for e in events] == [("placed", 13)]
    assert events[0].centre == (120, 100)


def test_a_card_between_zones_is_not_placed_and_unzoned_tracking_places_it() -> None:
    frames = [[sight("AAAA-001", 350, 100)]] * 10
    assert play(make(), frames) == []
    events = play(Tracker(), frames)  # no zones at all: any rest is a placement
    assert [(e.kind, e.zone) for e in events] == [("placed", None)]


def test_a_card_moved_to_another_zone_is_removed_there_and_placed_here() -> None:
    frames = [[sight("AAAA-001", 100, 100)]] * 5 + [[sight("AAAA-001", 500, 100)]] * 5
    events = play(make(), frames)
    assert [(e.kind, e.zone) for e in events] == [
        ("placed", "seat:1"), ("removed", "seat:1"), ("placed", "universe")]
    assert events[0].scan_id != events[2].scan_id


def test_a_card_seen_in_two_places_is_reported_not_guessed() -> None:
    twice = [sight("AAAA-001", 100, 100), sight("AAAA-001", 500, 100)]
    t = make()
    events = play(t, [twice] * 10)
    assert [e.kind for e in events] == ["conflict"]
    assert "2 places" in events[0].detail
    assert t.counts == {"placed": 0, "removed": 0, "conflict": 1}
    # Once one copy is taken away, the other is placed normally.
    events = play(t, [[sight("AAAA-001", 500, 100)]] * 3, start=11)
    assert [(e.kind, e.zone) for e in events] == [("placed", "universe")]


def test_several_cards_are_tracked_independently() -> None:
    a, b = sight("AAAA-001", 100, 100), sight("AAAA-002", 500, 100)
    events = play(make(), [[a]] * 2 + [[a, b]] * 3 + [[b]] * 60)
    assert [(e.kind, e.serial) for e in events] == [
        ("placed", "AAAA-001"), ("placed", "AAAA-002"), ("removed", "AAAA-001")]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=300),
       st.lists(st.booleans(), min_size=1, max_size=300))
def test_placements_and_removals_alternate_and_need_a_long_absence(
        first: list[bool], second: list[bool]) -> None:
    """Whatever the pattern of reads and misses of a still card: placed and removed
    alternate, every placement has its own scan id, and a card is only removed after
    1.5 s without a sighting."""
    pattern = first + [False] * 10 + second
    t = make()
    s = sight("AAAA-001", 100, 100)
    last_seen = None
    kinds = []
    ids = []
    for i, present in enumerate(pattern, 1):
        for e in t.update(i, i / FPS, [s] if present else []):
            kinds.append(e.kind)
            if e.kind == "placed":
                ids.append(e.scan_id)
            if e.kind == "removed":
                assert last_seen is not None and (i - last_seen) / FPS >= 1.5
        if present:
            last_seen = i
    assert kinds == ["placed", "removed"] * (len(kinds) // 2) + ["placed"] * (len(kinds) % 2)
    assert len(set(ids)) == len(ids)
    # Three sightings within half a second always place it (if it was not placed yet).
    if not kinds:
        hits = [i for i, p in enumerate(pattern, 1) if p]
        assert not any(hits[j + 2] - hits[j] <= 0.5 * FPS for j in range(len(hits) - 2))


# --- C-9: removal by a card over the place, by bare mat, and cards that come back -------

class Table:
    """What the bare-place check would see: a place is bare unless a card or a hand lies
    over its middle (``cards``/``hands``: centres, within 30 px)."""

    def __init__(self) -> None:
        self.things: list[tuple[float, float]] = []

    def bare(self, corners: tuple[tuple[float, float], ...]) -> bool:
        cx = sum(p[0] for p in corners) / len(corners)
        cy = sum(p[1] for p in corners) / len(corners)
        return all(abs(cx - x) > 30 or abs(cy - y) > 30 for x, y in self.things)


def film(tracker: Tracker, table: Table, frames: list[tuple[list[Sighting], list[tuple[
        float, float]]]], start: int = 1) -> list:
    """Each frame: the codes read and the things over the mat (cards unread, hands)."""
    events = []
    for i, (sightings, over) in enumerate(frames, start):
        table.things = [s.centre for s in sightings] + over
        events += tracker.update(i, i / FPS, sightings, table.bare)
    return events


def test_a_card_laid_over_a_placed_card_removes_it_at_once() -> None:
    """C-9: the next card on the same spot (or a pile's new top card) covers the last;
    the last is gone from view as soon as the new one is placed, without bare mat."""
    a, b = sight("AAAA-001", 100, 100), sight("AAAA-002", 108, 96)
    events = film(make(), Table(), [([a], [])] * 10 + [([b], [(100, 100)])] * 10)
    assert [(e.kind, e.serial, e.detail, e.seq) for e in events] == [
        ("placed", "AAAA-001", "", 3), ("placed", "AAAA-002", "", 13),
        ("removed", "AAAA-001", "covered by AAAA-002", 13)]


def test_a_card_beside_another_or_already_under_it_is_not_covered() -> None:
    """A card whose place the other does not lie over stays; so does the top card of a
    pile under a hand while the card under it (placed before it) is read."""
    under, top = sight("AAAA-001", 100, 100), sight("AAAA-002", 110, 130)
    side = sight("AAAA-003", 500, 100)
    t = make()
    frames = [([under], [])] * 5 + [([under, top, side], [])] * 10
    frames += [([under, side], [(110, 130)])] * 300  # a hand over the top card, 10 s
    events = film(t, Table(), frames)
    assert [e.kind for e in events] == ["placed"] * 3
    # The hand leaves: the top card is read again, the same placement (no new scan).
    assert film(t, Table(), [([under, top, side], [])] * 10, start=316) == []


def test_a_hand_over_cards_is_never_a_removal() -> None:
    a, b = sight("AAAA-001", 100, 100), sight("AAAA-002", 500, 100)
    t = make()
    frames = [([a, b], [])] * 5 + [([], [(100, 100), (500, 100)])] * 600 + [([a, b], [])] * 5
    events = film(t, Table(), frames)
    assert [e.kind for e in events] == ["placed", "placed"]


def test_bare_mat_for_a_third_of_a_second_removes_a_card() -> None:
    a = sight("AAAA-001", 100, 100)
    events = film(make(), Table(), [([a], [])] * 5 + [([], [])] * 20)
    assert [(e.kind, e.detail) for e in events] == [("placed", ""), ("removed", "gone")]
    assert (events[1].seq - 6) / FPS == pytest.approx(0.3, abs=0.5 / FPS)


def test_a_card_that_comes_back_quickly_is_a_new_placement() -> None:
    """Collected and laid again in its zone before 0.3 s of bare mat have passed: two
    frames of bare mat between are enough to tell it left (C-9)."""
    a = sight("AAAA-001", 100, 100)
    t = make()
    frames = [([a], [])] * 12 + [([], [(100, 100)])] * 4 + [([], [])] * 3
    frames += [([], [(100, 100)])] * 4 + [([a], [])] * 12
    events = film(t, Table(), frames)
    assert [(e.kind, e.scan_id, e.detail) for e in events] == [
        ("placed", "scan1", ""), ("removed", "", "gone and back"), ("placed", "scan2", "")]


def test_a_card_back_after_a_new_card_covered_its_place_is_a_new_placement() -> None:
    """The top card of a pile taken away: the one under it shows again, a new scan (the
    referee answers "already there" for a card it knows lies in that pile)."""
    under, top = sight("AAAA-001", 100, 100), sight("AAAA-002", 104, 104)
    t = make()
    frames = [([under], [])] * 6 + [([top], [(100, 100)])] * 6 + [([under], [])] * 6
    events = film(t, Table(), frames)
    assert [(e.kind, e.serial, e.scan_id) for e in events] == [
        ("placed", "AAAA-001", "scan1"), ("placed", "AAAA-002", "scan2"),
        ("removed", "AAAA-001", ""), ("placed", "AAAA-001", "scan3"),
        ("removed", "AAAA-002", "")]
    assert events[-1].detail == "covered by AAAA-001"
