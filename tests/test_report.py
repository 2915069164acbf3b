"""The designer's playtest report (issue 22): seeded, honest figures, greedy against
random, recorded games, and one self-contained HTML file."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from companion.cards import load_deck
from companion.engine import Event, Option, Rules, Setup
from companion.errors import IllegalPlay
from companion.playtest import Playtest, decisions, figures, play_range, wilson
from companion_cli import main
from report.build import Request, build
from report.run import simulate


@dataclass(frozen=True)
class Coin:
    finished: bool = False
    winners: tuple[int, ...] = ()
    ruling: str = ""


class CoinRules(Rules[Coin]):
    """A game unfair by construction: one flip decides, and seat 1 wins it with the
    probability the option ``edge`` says (0.5: a fair coin)."""

    id: ClassVar[str] = "coin"
    title: ClassVar[str] = "Coin"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (Option("edge", 50, "T-1", "seat 1's chance in %",
                                                    minimum=0, maximum=100),)

    def start(self, setup: Setup) -> Coin:
        return Coin()

    def apply(self, state: Coin, event: Event) -> Coin:
        if state.finished or event.get("winner") not in (1, 2):
            raise IllegalPlay("the coin has landed")
        return Coin(True, (int(event["winner"]),))

    def random_play(self, state: Coin, rng: random.Random) -> Event | None:
        return None  # chance decides this game: no player ever plays

    def chance(self, state: Coin, rng: random.Random) -> Event | None:
        if state.finished:
            return None
        edge = self.edge
        return {"type": "flip", "winner": 1 if rng.random() * 100 < edge else 2}

    edge: float = 50

    def view(self, state: Coin, seat: int | None) -> dict[str, Any]:
        return {}

    def referee_view(self, state: Coin) -> dict[str, Any]:
        return {}

    def places(self, state: Coin) -> Mapping[str, str]:
        return {}

    def stats(self, state: Coin) -> dict[str, float]:
        return {"adjudications": 1.0, "flips": 1.0}


def coin(edge: float) -> Playtest:
    rules = CoinRules()
    rules.edge = edge
    setup = Setup("coin", ("A", "B"), {"edge": edge}, {}, load_deck("wuxing"))
    policy = SimpleNamespace(DECISIONS=frozenset(), CHOICES=1, ROUNDS=("flips", "flips"),
                             value=lambda state, seat: 0.0, starter=lambda state: 1)
    return Playtest("coin", rules, setup, policy)


def test_wilson_interval_holds_the_rate_and_narrows_with_more_games() -> None:
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi
    lo2, hi2 = wilson(500, 1000)
    assert hi2 - lo2 < hi - lo
    assert wilson(0, 0) == (0.0, 1.0)


def test_an_unfair_option_shows_outside_the_interval_and_a_fair_one_does_not() -> None:
    fair = figures(play_range(coin(50), 1, 0, 2000, "random"), 2)
    unfair = figures(play_range(coin(58), 1, 0, 2000, "random"), 2)
    assert not fair["seats"][0]["favoured"] and not fair["seats"][1]["disfavoured"]
    assert fair["seats"][0]["low"] < 0.5 < fair["seats"][0]["high"]
    assert unfair["seats"][0]["favoured"] and unfair["seats"][1]["disfavoured"]
    assert unfair["seats"][0]["low"] > 0.5
    text, figs = build(Request("coin", 2, 2000, 1, playtest=coin(58), decision_games=50))
    assert "Seat 1 is favoured" in text and "Seat 2 is at a disadvantage" in text
    assert figs["simulated"]["simulated"]["seats"][0]["favoured"]


def test_the_same_seed_gives_the_same_report_on_one_or_two_processes() -> None:
    one = simulate("godnum", 3, {}, 4, 120, "random", workers=1)
    two = simulate("godnum", 3, {}, 4, 120, "random", workers=2)  # two chunks of games
    assert one == two
    other = simulate("godnum", 3, {}, 5, 120, "random", workers=1)
    assert other != one
    req = Request("gemcomplete", 2, 30, 9, decision_games=8, workers=1)
    assert build(req) == build(req)


def test_greedy_players_matter_in_god_num_and_cannot_in_wuxing() -> None:
    gn = decisions(play_range(Playtest.of("godnum", 2), 3, 0, 200, "rotate"), 2)
    wx = decisions(play_range(Playtest.of("wuxing", 2), 3, 0, 100, "rotate"), 2)
    assert gn["decisions_matter"] and gn["low"] > 0.5
    assert not wx["decisions_matter"] and "no decisions that matter" in wx["verdict"]
    # WuXing's greedy player plays the very same games: it has nothing to choose.
    same = play_range(Playtest.of("wuxing", 2), 3, 0, 30, "greedy")
    assert [g.winners for g in same] == [
        g.winners for g in play_range(Playtest.of("wuxing", 2), 3, 0, 30, "random")]


def test_compare_shows_both_values_side_by_side(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    assert main(["report", "godnum", "--players", "2", "--games", "100", "--seed", "2",
                 "--compare", "bust=revert,stand", "--decision-games", "20",
                 "--workers", "1", "--out", str(out)]) == 0
    text = out.read_text()
    assert "Simulated with bust = revert" in text and "Simulated with bust = stand" in text
    imgs = re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+"', text)
    assert len(imgs) >= 5  # every plot embedded: the file opens offline
    assert "http" not in text.replace("http-equiv", "")


def test_recorded_games_join_the_report(tmp_path: Path) -> None:
    """Games played at a table (through the web API) are read from the data dir."""
    from flask.testing import FlaskClient

    from web import create_app, services

    data = tmp_path / "data"
    app = create_app({"DATA_DIR": str(data), "TESTING": True, "DB_SYNCHRONOUS": "NORMAL"})
    client: FlaskClient = app.test_client()
    from companion.registry import demo_run
    from companion.runs import RunStore

    rng = random.Random(3)
    for k in range(2):
        run = demo_run("godnum", 2, random.Random(k))
        RunStore(data).save(run)
        made = client.post("/api/tables", json={"game": "godnum", "players": ["Ana", "Ben"],
                                                 "runs": [run.run_id]})
        assert made.status_code == 201, made.json
        table = services(app).tables.get(made.json["table"])
        host = {"Authorization": f"Bearer {made.json['host_token']}"}
        while not table.match.state.finished:
            event = table.rules.random_play(table.match.state, rng)
            assert client.post(f"/api/tables/{table.id}/actions", json=event,
                               headers=host).status_code == 200
    services(app).close()
    text, figs = build(Request("godnum", 2, 60, 1, from_data=str(data), decision_games=20,
                               workers=1))
    assert figs["recorded"]["games"] == 2 and figs["recorded"]["finished"] == 2
    assert "Recorded at real tables" in text and "2 games recorded at real tables" in text
    assert figs["recorded"]["length"]["minutes"] is not None
    # Each table's record says which legion each seat played (GN-2: its first card).
    legions = figs["recorded"]["sides"]["rows"]
    assert sum(r["n"] for r in legions) == 4
    assert all(r["name"].endswith(" Legion") for r in legions)


def test_json_figures_and_bad_requests(capsys: pytest.CaptureFixture[str], tmp_path: Path
                                       ) -> None:
    out = tmp_path / "w.html"
    assert main(["report", "wuxing", "--games", "40", "--decision-games", "10", "--workers",
                 "1", "--json", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    figs = json.loads(printed[: printed.rindex("}") + 1])
    assert figs["simulated"]["simulated"]["games"] == 40
    assert main(["report", "wuxing", "--option", "end=\"nope\"", "--out", str(out)]) == 2
    assert "option 'end'" in capsys.readouterr().err


def test_json_prints_only_json_and_bad_paths_fail_before_simulating(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 30 §6: `--json` stdout parses whole; a missing --from-data folder or an
    unwritable --out is refused at once, naming the path, with no file left behind."""
    out = tmp_path / "r.html"
    assert main(["report", "godnum", "--games", "20", "--decision-games", "5", "--workers",
                 "1", "--json", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["simulated"]["simulated"]["games"] == 20
    assert "wrote" in captured.err
    missing = tmp_path / "no-such-dir"
    assert main(["report", "godnum", "--from-data", str(missing), "--out", str(out)]) == 2
    assert "is not a folder" in capsys.readouterr().err
    blocked = tmp_path / "no-such-dir" / "r.html"
    assert main(["report", "godnum", "--games", "100000", "--out", str(blocked)]) == 2
    assert "cannot write --out" in capsys.readouterr().err
    assert not missing.exists()


def test_what_happens_in_a_game_counts_the_rules_own_figures() -> None:
    """A designer sees how often each rule comes into play: Mountains & Rivers' armoury and
    blunt tiles (MR-1 rev. 3) on average per game, in the page and the JSON."""
    text, figs = build(Request("mountains", 2, 30, 3, decision_games=4))
    per_game = figs["simulated"]["simulated"]["per_game"]
    assert per_game["armoury_tiles"]["mean"] > 0 and per_game["blunt_tiles"]["mean"] > 0
    tiles = per_game["armoury_tiles"]
    assert tiles["low"] < tiles["mean"] < tiles["high"]
    assert per_game["turns"]["mean"] == pytest.approx(
        figs["simulated"]["simulated"]["length"]["rounds"]["mean"],
        abs=0.01)
    assert "What happens in a game" in text and "<td>armoury tiles</td>" in text
