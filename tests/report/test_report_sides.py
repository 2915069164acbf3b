"""What designers ask next (issue 30 §4): each legion's, character's and deck's win rate,
game length at each player count, and the games that do not end, in the HTML and in
``--json``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.errors import BadSetup
from companion.playtest import Playtest, play, play_range
from companion.sides import sides
from companion_cli import main
from report.build import Request, build
from report.run import simulate

LEGIONS = {"Metal-Water Legion", "Water-Wood Legion", "Wood-Fire Legion",
           "Fire-Earth Legion", "Earth-Metal Legion"}
CHARACTERS = {"Xi Bian", "Qing Luan", "Huan", "Ling Yu"}


def _check_rows(rows: list[dict[str, object]], names: set[str], seat_games: int) -> None:
    assert {r["name"] for r in rows} <= names
    assert sum(int(str(r["n"])) for r in rows) == seat_games  # every seat-game, once
    for r in rows:
        assert {"name", "n", "rate", "low", "high", "fair", "favoured"} <= set(r)
        low, rate, high = (float(str(r[k])) for k in ("low", "rate", "high"))
        assert 0 <= low <= rate <= high <= 1


def test_each_seat_plays_a_side_named_as_its_rules_page_names_it() -> None:
    for game, players, names in (("godnum", 3, LEGIONS), ("mountains", 3, CHARACTERS),
                                 ("gemcomplete", 2, {"Deck A", "Deck B"})):
        g = play(Playtest.of(game, players), 1, 0)
        assert g.finished and len(g.sides) == players and set(g.sides) <= names, g.sides
    # Gem Complete's two decks, one print run: one seat each.
    assert sorted(play(Playtest.of("gemcomplete", 2), 1, 0).sides) == ["Deck A", "Deck B"]
    # WuXing and Shrine deal from one deck to all: no side.
    assert play(Playtest.of("wuxing", 2), 1, 0).sides == ()
    assert play(Playtest.of("shrine", 3), 1, 0).sides == ()
    pt = Playtest.of("godnum", 2)
    with pytest.raises(BadSetup):
        sides("godnum", pt.setup, Playtest.of("mountains", 2).rules.start(
            Playtest.of("mountains", 2).setup))


def test_win_rate_per_legion_character_and_deck() -> None:
    _, gn = build(Request("godnum", 3, 90, 2, decision_games=5, workers=1))
    f = gn["simulated"]["simulated"]
    _check_rows(f["sides"]["rows"], LEGIONS, 3 * f["finished"])
    assert f["sides"]["word"] == "legion" and all(r["fair"] == 0.3333
                                                  for r in f["sides"]["rows"])
    text, mr = build(Request("mountains", 2, 200, 1, decision_games=5, workers=1))
    f = mr["simulated"]["simulated"]
    _check_rows(f["sides"]["rows"], CHARACTERS, 2 * f["finished"])
    assert "Win rate per character" in text
    # At two players Qing Luan wins about 1 game in 4 between random players (23 % over
    # 2,000 games): the report says so, whatever the seed.
    rows = {r["name"]: r for r in f["sides"]["rows"]}
    assert rows["Qing Luan"]["disfavoured"] and rows["Qing Luan"]["high"] < 0.5
    assert not any(r["disfavoured"] for k, r in rows.items() if k != "Qing Luan")
    assert "At a disadvantage: Qing Luan" in f["sides"]["verdict"]
    text, gc = build(Request("gemcomplete", 2, 80, 3, decision_games=5, workers=1))
    f = gc["simulated"]["simulated"]
    _check_rows(f["sides"]["rows"], {"Deck A", "Deck B"}, 2 * f["finished"])
    assert [r["n"] for r in f["sides"]["rows"]] == [f["finished"]] * 2
    assert "print the same 40 cards" in text


def test_a_game_where_every_seat_plays_the_same_says_so() -> None:
    text, figs = build(Request("shrine", 3, 30, 1, decision_games=5, workers=1))
    s = figs["simulated"]["simulated"]["sides"]
    assert s["rows"] == [] and "SK-1" in s["same"]
    assert "Every seat plays the same here" in text and "Win rate per side" in text


def test_players_sweep_gives_each_count_its_length_seats_and_sides(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    assert main(["report", "godnum", "--players", "3,2", "--games", "40", "--decision-games",
                 "5", "--workers", "1", "--json", "--out", str(out)]) == 0
    figs = json.loads(capsys.readouterr().out)
    assert figs["players"] == 3  # the first count gets the whole report
    assert sorted(figs["sweep"]) == ["2", "3"]
    for n in ("2", "3"):
        c = figs["sweep"][n]
        assert c["players"] == int(n) and c["games"] == 40 and len(c["seats"]) == int(n)
        ev = c["lengths"]["events"]
        assert ev["p10"] <= ev["median"] <= ev["p90"]
        assert sum(c["lengths"]["histogram"]["events"]["counts"]) == c["finished"]
        assert c["lengths"]["rounds"]["median"] > 0
        _check_rows(c["sides"]["rows"], LEGIONS, int(n) * c["finished"])
    assert figs["sweep"]["3"]["seats"] == figs["simulated"]["simulated"]["seats"]
    text = out.read_text()
    assert "<h2>Player counts</h2>" in text and "Win rate per legion at 2 players" in text
    assert "(2, 3 players)" in text
    # One count: no sweep section, and --players 3 still reads as before.
    assert main(["report", "godnum", "--players", "3", "--games", "20", "--decision-games",
                 "5", "--workers", "1", "--json", "--out", str(out)]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["players"] == 3 and "sweep" not in one
    assert main(["report", "godnum", "--players", "2,x", "--out", str(out)]) == 2
    assert "--players" in capsys.readouterr().err


def test_games_that_do_not_end_are_counted_with_lines_that_replay_them() -> None:
    req = Request("mountains", 3, 30, 4, decision_games=5, workers=1, sweep=(2,),
                  max_events=80)
    text, figs = build(req)
    stuck = {u["players"]: u for u in figs["not_ending"]}
    assert stuck[3]["unfinished"] > 0 and stuck[2]["unfinished"] >= 0
    assert figs["simulated"]["simulated"]["not_ending"] == {
        k: v for k, v in figs["not_ending"][0].items() if k != "set"}
    assert "did not end within 80 events" in text and "Games that do not end" in text
    games = simulate("mountains", 3, {}, 4, 30, "random", workers=1, max_events=80)
    assert [i for i, g in enumerate(games) if not g.finished][:20] == stuck[3]["indices"]
    for line, i in list(zip(stuck[3]["replay"], stuck[3]["indices"], strict=True))[:3]:
        again = eval(line, {"play": play, "Playtest": Playtest})  # the line as printed
        assert again == games[i] and not again.finished
    # Without the low cap the same games end.
    assert all(g.finished for g in play_range(Playtest.of("mountains", 3), 4, 0, 5, "random"))


def test_every_new_figure_is_in_the_json_and_each_compared_value_has_its_own(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "c.html"
    assert main(["report", "gemcomplete", "--games", "40", "--decision-games", "5",
                 "--workers", "1", "--compare", "decks=a,b", "--json", "--max-events", "400",
                 "--out", str(out)]) == 0
    figs = json.loads(capsys.readouterr().out)
    assert set(figs["simulated"]) == {"decks = a", "decks = b"}
    for f in figs["simulated"].values():
        assert {"sides", "lengths", "not_ending"} <= set(f)
        assert f["lengths"]["histogram"]["events"]["counts"]
        assert f["not_ending"]["max_events"] == 400
    # Fixed in the lobby: seat 1 holds Deck A under one value and Deck B under the other.
    a, b = figs["simulated"]["decks = a"], figs["simulated"]["decks = b"]
    rate = {r["name"]: r["rate"] for r in a["sides"]["rows"]}
    assert rate["Deck A"] == a["seats"][0]["rate"]
    rate = {r["name"]: r["rate"] for r in b["sides"]["rows"]}
    assert rate["Deck B"] == b["seats"][0]["rate"]
    assert [u["set"] for u in figs["not_ending"]] == ["decks = a", "decks = b"]
    text = out.read_text()
    for value in "ab":  # each value's own figure and table
        assert f'alt="win rate per deck, Simulated with decks = {value}' in text
    imgs = re.findall(r'<img src="data:image/png;base64,', text)
    assert len(imgs) >= 7
