"""Statistics a designer can trust (issue 30 §2): calibrated family-wise verdicts, cards
against their own deck, paired comparisons that say when options made identical games."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from companion import playstats
from companion.playtest import figures, play_range
from report.build import Request, build


@dataclass(frozen=True)
class G:
    finished: bool
    winners: tuple[int, ...]
    events: int
    starter: int | None
    played: tuple[tuple[int, tuple[str, ...]], ...] = ()


def fair_games(rng: random.Random, n: int, players: int) -> list[G]:
    return [G(True, (rng.randint(1, players),), 50, rng.randint(1, players)) for _ in range(n)]


def test_a_fair_game_is_called_unfair_in_at_most_5_percent_of_reports() -> None:
    """Calibration over 1,000 seeded reports of 400 fair games per player count (with one
    plain 95 % interval per seat, a 6-player fair game was flagged in a quarter of reports).
    A calibrated test flags about 5 %; the bound allows two standard deviations of the
    check's own sampling noise (50 of 1,000, plus 14)."""
    reports = 1000
    bound = reports * 0.05 + 2 * math.sqrt(reports * 0.05 * 0.95)
    for players in (2, 3, 4, 6, 8):
        flagged_seat = flagged_turn = 0
        for seed in range(reports):
            games = fair_games(random.Random(seed * 31 + players), 400, players)
            if any(s["favoured"] or s["disfavoured"] for s in playstats.seats(games, players)):
                flagged_seat += 1
            if any(p["favoured"] or p["disfavoured"]
                   for p in playstats.positions(games, players)):
                flagged_turn += 1
        assert flagged_seat <= bound, (players, flagged_seat)
        assert flagged_turn <= bound, (players, flagged_turn)


def test_chi_square_tail_matches_the_tables() -> None:
    for x, df in ((3.841, 1), (5.991, 2), (7.815, 3), (11.070, 5), (14.067, 7)):
        assert abs(playstats.chi2_sf(x, df) - 0.05) < 2e-4, (x, df)
    assert playstats.chi2_sf(0, 3) == 1.0


def test_the_plain_interval_would_have_flagged_fair_games_far_more_often() -> None:
    """The check above can fail: the uncorrected 95 % intervals flag a 6-seat fair game in
    well over 5 % of reports."""
    flagged = 0
    for seed in range(300):
        games = fair_games(random.Random(seed), 400, 6)
        for s in range(1, 7):
            lo, hi = playstats.wilson(sum(playstats.share(g, s) for g in games), 400,
                                      playstats.family_z(1))
            if lo > 1 / 6 or hi < 1 / 6:
                flagged += 1
                break
    assert flagged > 45


def test_a_real_seat_advantage_is_still_found() -> None:
    rng = random.Random(5)
    games = [G(True, (1 if rng.random() < 0.36 else rng.randint(2, 3),), 9, 1)
             for _ in range(3000)]
    seats = playstats.seats(games, 3)
    assert seats[0]["favoured"] and not seats[1]["favoured"]
    assert playstats.positions(games, 3)[0]["favoured"]


def test_turn_positions_follow_the_starter_round_the_table() -> None:
    """Whoever starts wins: position 1 wins everything whatever the seat."""
    games = [G(True, (s,), 9, s) for s in (1, 2, 3) * 100]
    pos = playstats.positions(games, 3)
    assert pos[0]["rate"] == 1.0 and pos[1]["rate"] == 0.0 and pos[2]["rate"] == 0.0
    assert not any(s["favoured"] for s in playstats.seats(games, 3))


def test_a_card_is_judged_against_its_own_deck_with_fdr_control() -> None:
    """Deck A wins 40 %, deck B 60 %: every card of B is above 50 % and every card of A
    below, yet no card stands out from its own deck; one strong card of A does."""
    rng = random.Random(3)
    games = []
    for i in range(4000):
        deck = "A" if i % 2 else "B"
        card = f"{deck}{rng.randint(1, 8)}"
        strong = deck == "A" and card == "A1"
        p = 0.65 if strong else (0.4 if deck == "A" else 0.6)
        games.append(G(True, (1,) if rng.random() < p else (2,), 9, 1, ((1, (card,)),)))
    decks = {f"{d}{k}": f"Deck {d}" for d in "AB" for k in range(1, 9)}
    rows = {r["face"]: r for r in playstats.cards(games, {}, decks)}
    assert rows["A1"]["stands_out"]
    assert [f for f, r in rows.items() if r["stands_out"]] == ["A1"]
    assert all(r["rate"] > 0.5 for f, r in rows.items() if f.startswith("B"))
    top, bottom = playstats.ranked(list(rows.values()))
    assert top[0]["face"] == "A1"
    assert bottom and all(r["difference"] < 0 for r in bottom)


def test_a_card_seen_in_few_games_is_listed_but_never_tested() -> None:
    games = [G(True, (1,), 9, 1, ((1, ("rare",)),)) for _ in range(playstats.MIN_CARD_GAMES - 1)]
    games += [G(True, (2,), 9, 1, ((1, ("common",)),)) for _ in range(200)]
    rows = {r["face"]: r for r in playstats.cards(games, {}, {"rare": "D", "common": "D"})}
    assert rows["rare"]["p"] is None and not rows["rare"]["stands_out"]


def test_benjamini_hochberg_keeps_the_step_up_cut() -> None:
    assert playstats.benjamini_hochberg([0.001, 0.02, 0.03, 0.5]) == [True, True, True, False]
    assert playstats.benjamini_hochberg([0.04, 0.5]) == [False, False]


def test_god_num_cards_carry_their_legion_and_wuxing_universe_cards_are_apart() -> None:
    _, gn = build(Request("godnum", 3, 60, 1, decision_games=10, workers=1))
    names = [c["name"] for c in gn["simulated"]["simulated"]["cards"]]
    assert any(n.endswith("Legion)") for n in names)
    assert len(set(names)) == len(names)
    _, wx = build(Request("wuxing", 3, 200, 1, decision_games=10, workers=1))
    f = wx["simulated"]["simulated"]
    assert all("Universe" not in c["name"] for c in f["top_cards"] + f["bottom_cards"])
    assert all("Universe" in c["name"] for c in f["shared_cards"])


def test_compare_is_paired_and_says_when_the_options_made_the_same_games() -> None:
    text, figs = build(Request("godnum", 2, 120, 4, compare=("bust", ("revert", "stand")),
                               decision_games=10, workers=1))
    c = figs["compared"]["bust = stand"]
    # GN-8's bust option never comes up at two players: the same 120 games, said so.
    assert c["games"] == 120 and c["all_identical"]
    assert "made the same 120 games" in text and "changes nothing" in text
    # Two copies of the same set: all identical, and said so.
    from tests.test_report import coin  # the coin game of the report tests

    same = play_range(coin(50), 1, 0, 300, "random")
    p = playstats.paired(same, same, 2)
    assert p["all_identical"] and p["identical"] == 300
    assert not p["figures"]["seat 1 win rate"]["differs"]
    other = play_range(coin(80), 1, 0, 300, "random")
    q = playstats.paired(same, other, 2)
    assert q["figures"]["seat 1 win rate"]["differs"]
    assert q["figures"]["seat 1 win rate"]["difference"] > 0.2
    assert figures(other, 2)["seats"][0]["favoured"]


@dataclass(frozen=True)
class S(G):
    sides: tuple[str, ...] = ()


def side_games(rng: random.Random, n: int, players: int, strong: float = 0.0) -> list[S]:
    """Five legions, each seat's drawn at random (one may be played twice); legion "A"
    wins ``strong`` more often than a fair seat."""
    out = []
    for _ in range(n):
        held = tuple(rng.choice("ABCDE") for _ in range(players))
        weights = [1 + strong * players * (s == "A") for s in held]
        winner = rng.choices(range(1, players + 1), weights)[0]
        out.append(S(True, (winner,), 9, 1, (), held))
    return out


def test_fair_sides_are_called_unfair_in_at_most_5_percent_of_reports() -> None:
    """Calibration of the per-side verdict, as for seats: 300 seeded reports of 300 fair
    games at 2 and 4 players (five legions, drawn per seat)."""
    reports = 300
    bound = reports * 0.05 + 2 * math.sqrt(reports * 0.05 * 0.95)
    for players in (2, 4):
        flagged = sum(
            any(r["favoured"] or r["disfavoured"]
                for r in playstats.sides(side_games(random.Random(seed), 300, players)))
            for seed in range(reports))
        assert flagged <= bound, (players, flagged)


def test_a_strong_side_is_found_against_its_own_fair_share() -> None:
    rows = {r["name"]: r for r in playstats.sides(side_games(random.Random(2), 2000, 3, 0.5))}
    assert rows["A"]["favoured"] and rows["A"]["low"] > rows["A"]["fair"]
    assert abs(rows["A"]["fair"] - 1 / 3) < 1e-3
    assert not any(rows[k]["favoured"] for k in "BCDE")
    # Every seat-game counted once, a side held twice in a game counted twice.
    assert sum(r["n"] for r in rows.values()) == 3 * 2000
    assert all(r["in_games"] <= r["n"] for r in rows.values())


def test_mixed_player_counts_give_each_side_its_own_fair_share_and_few_games_no_verdict(
        ) -> None:
    games = [S(True, (1,), 9, 1, (), ("A", "B")) for _ in range(100)]
    games += [S(True, (3,), 9, 1, (), ("A", "B", "C", "")) for _ in range(100)]
    rows = {r["name"]: r for r in playstats.sides(games)}
    assert rows["A"]["fair"] == round((100 * 0.5 + 100 * 0.25) / 200, 4)
    assert rows["C"]["fair"] == 0.25 and rows["C"]["n"] == 100
    assert "" not in rows  # an unbound seat is left out
    assert rows["A"]["favoured"] and rows["B"]["disfavoured"] and rows["C"]["favoured"]
    few = {r["name"]: r for r in playstats.sides(games[:10])}
    assert not few["A"]["tested"] and not few["A"]["favoured"] and few["A"]["p"] is None
