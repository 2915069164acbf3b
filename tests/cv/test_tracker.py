"""Tracking on scripted detection sequences: placed once, hidden, removed, moved, doubled."""

from __future__ import annotations

import itertools

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
