"""Numbers without the tap tax (issue 20, point 3), in Debian's Chromium: whole Mountains &
Rivers and Shrine games entered on the players' phones (390x844), every move made with the
cheapest taps the page offers, and the taps counted per kind of move.

Before the change (same seeds, same driver, recorded 2026-12-01): Mountains & Rivers, 2
players: 314 taps for 152 moves in 42 turns, rolls 201 taps for 44 rolls (two dice in a
2-player game, typed: 5 taps; 64 % of the taps); Shrine, 3 players: 256 taps for 157 moves,
passes 120 taps for 60 (47 %), bids 91 for 55. The targets: a roll, a pass and a bid on its
button are one tap each; a Mountains turn costs at most half of what it did. After: 152
taps for Mountains & Rivers (one per move: a turn 3.1 taps, was 6.9), 164 for Shrine (a
bidding turn 1.03 taps, was 1.83: one tap is the floor, so half of it cannot be reached).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from webtools import make_table

from web import services

PHONE = {"width": 390, "height": 844}


MAX_MOVES = 70  # moves driven per game (see _play_by_taps)

def _js(v: Any) -> str:
    """A value as the page writes it in its data attributes (JSON.stringify)."""
    return json.dumps(v, separators=(",", ":"))


def _wait_version(page: Any, version: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-version", str(version),
                                                   timeout=20_000)


def _box(page: Any, table: Any, seat: int, kind: str, pick: Any = None) -> Any:
    """The page's box for the seat's ``kind`` action (the first, or the one ``pick`` likes)."""
    acts = table.rules.actions(table.match.state, seat)
    # The page's order: what can be done now, then what cannot (forms.js).
    acts = ([a for a in acts if not a.get("why") and not a.get("disabled")]
            + [a for a in acts if a.get("why") or a.get("disabled")])
    i = next(i for i, a in enumerate(acts) if a["type"] == kind and (pick is None or pick(a)))
    return page.locator("#actions > .action").nth(i), acts[i]


def _stepper(box: Any, name: str, want: int) -> int:
    """Set a number field the cheaper way: its − / + buttons, or a tap into the field and
    one key per digit on the phone's keyboard; the taps it took."""
    field = box.locator(f"input[name={name}]")
    raw = field.input_value()
    presses = abs(want - int(raw)) if raw != "" else want - int(field.get_attribute("min") or 0) + 1
    if presses > 1 + len(str(want)):
        field.fill(str(want))
        return 1 + len(str(want))
    for taps in range(40):
        raw = field.input_value()
        if raw != "" and int(raw) == want:
            return taps
        more = raw == "" or int(raw) < want
        box.locator(f"label:has(input[name={name}]) button[aria-label={'more' if more else 'less'}]"
                    ).click()
    raise AssertionError(f"the stepper for {name} never reached {want}")


def _fill(box: Any, action: dict[str, Any], values: dict[str, Any]) -> int:
    """Enter ``values`` in the action's own widgets and send it; the taps it took."""
    taps = 0
    dice = box.locator("button.choice[data-dice]")
    if dice.count():  # a roll as one tile per outcome (issue 20, point 3)
        want = sorted(values[f["name"]] for f in action["fields"])
        box.locator(f"button[data-dice='{_js(want)}']").click()
        return 1
    open_fields = [f for f in action["fields"] if not (
        f["kind"] == "choice" and not f.get("optional") and len(f.get("choices", [])) == 1
        and "default" not in f)]
    if len(open_fields) == 1 and box.locator(".choice").count():
        f = open_fields[0]
        button = box.locator(f".choice[data-value='{_js(values[f['name']])}']")
        if button.count():
            button.click()
            return 1
        # Not among the buttons (a high bid): "another amount", then its field.
        box.locator("details.type-code > summary", has_text="another amount").click()
        return 1 + _fill(box.locator("form.action"), action, values)
    if not open_fields:
        box.locator("button").first.click()
        return 1
    for f in open_fields:
        if f["name"] not in values:
            continue
        v = values[f["name"]]
        if f.get("default") == v:
            continue  # the form proposes it already
        folded = box.locator("details.change:not([open]) > summary")
        if folded.count():  # the fields sit folded under "change": one tap opens them
            folded.click()
            taps += 1
        if f["kind"] == "int":
            taps += _stepper(box, f["name"], v)
        elif box.locator(f"fieldset.segmented[data-name={f['name']}]").count():
            radio = box.locator(f"fieldset[data-name={f['name']}] input[value='{_js(v)}']")
            if not radio.is_checked():
                radio.locator("xpath=..").click()
                taps += 1
        else:
            select = box.locator(f"select[name={f['name']}]")
            if select.input_value() != _js(v):
                select.select_option(_js(v))
                taps += 2  # open the list, pick the line
    box.locator("button[type=submit]").click()
    return taps + 1


def _confirm(page: Any) -> int:
    """A confirm dialog, if the move asks for one: its "yes" tap."""
    dlg = page.locator("dialog.confirm[open]")
    try:
        dlg.wait_for(timeout=1500)
    except Exception:
        return 0
    dlg.locator("button.yes").click()
    return 1


def _mountains_move(page: Any, table: Any, event: dict[str, Any]) -> tuple[str, int]:
    s = table.match.state
    kind = event["type"]
    if kind == "scan":
        seat = int(event["zone"].split(":")[1])
        face = s.face(event["card"]).id
        page.locator(f"#actions [data-face='{face}']").first.click()
        return "draw", 1
    seat = event.get("seat") or (s.pending[0].seat if s.pending else s.turn)
    if kind == "roll":
        box, a = _box(page, table, seat, "roll")
        dice = event["dice"]
        return "roll", _fill(box, a, dict(zip(["die", "die2"], dice, strict=False)))
    if kind == "move":
        tile = page.locator(f"svg .tile.go[data-tile='{event['to']}']")
        try:
            tile.click(trial=True, timeout=3000)  # would the tile itself take the tap?
        except Exception:  # a pawn on the tile takes the tap: the list under the board
            box, _ = _box(page, table, seat, "move")
            box.locator("details.type-code summary").click()
            box.locator(f".choice[data-value='{_js(event['to'])}']").click()
            return "move", 2
        tile.click()
        return "move", 1
    if kind == "attack":
        box, a = _box(page, table, seat, "attack")
        strike = event["strikes"][0]
        one = box.locator(f"button[data-strike='{_js([strike['card'], strike['target']])}']")
        if len(event["strikes"]) == 1 and one.count():  # one weapon, one target: one tap
            one.click()
            return "attack", 1
        if len(event["strikes"]) == 2:
            second = event["strikes"][1]
            keys = [_js([strike["card"], second["card"], strike["target"]]),
                    _js([second["card"], strike["card"], strike["target"]])]
            both = box.locator(", ".join(f"button[data-strike='{k}']" for k in keys))
            if strike["target"] == second["target"] and both.count():  # both at one: a tap
                both.click()
                return "attack", 1
        if box.locator("details.type-code > summary", has_text="two weapons").count():
            box.locator("details.type-code > summary", has_text="two weapons").click()
            values0 = {"card": strike["card"], "target": strike["target"],
                       "card2": event["strikes"][1]["card"],
                       "target2": event["strikes"][1]["target"]}
            return "attack", 1 + _fill(box.locator("form.action"), a, values0)
        values: dict[str, Any] = {"card": event["strikes"][0]["card"],
                                  "target": event["strikes"][0]["target"]}
        if len(event["strikes"]) > 1:
            values.update(card2=event["strikes"][1]["card"], target2=event["strikes"][1]["target"])
        return "attack", _fill(box, a, values)
    if kind == "result":
        box, a = _box(page, table, seat, "result")
        return "result", _fill(box, a, {"outcome": [event["winner"], event["loser"]]})
    if kind in ("corner", "stairs", "discard", "take", "end"):
        box, a = _box(page, table, seat, kind)
        name = {"corner": "corner", "stairs": "take", "discard": "card", "take": "card"}.get(kind)
        taps = _fill(box, a, {name: event[name]} if name else {})
        return kind, taps + _confirm(page)
    raise AssertionError(f"no page move for {event}")


def _shrine_move(page: Any, table: Any, event: dict[str, Any]) -> tuple[str, int]:
    s = table.match.state
    kind = event["type"]
    if kind == "scan":
        page.locator(f"#actions [data-face='{s.cards[event['card']].id}']").first.click()
        return "draw", 1
    if kind == "pass":
        box, a = _box(page, table, event["seat"], "pass")
        return "pass", _fill(box, a, {}) + _confirm(page)
    if kind == "bid":
        box, a = _box(page, table, event["seat"], "bid")
        return "bid", _fill(box, a, {"amount": event["amount"]})
    if kind == "pay":
        if "oinks" not in event:
            box, a = _box(page, table, event["seat"], "pay", lambda a: not a["fields"])
            return "pay", _fill(box, a, {})
        box, a = _box(page, table, event["seat"], "pay", lambda a: bool(a["fields"]))
        return "pay", _fill(box, a, event["oinks"])
    raise AssertionError(f"no page move for {event}")


def _seat_of(game: str, table: Any, event: dict[str, Any]) -> int:
    s = table.match.state
    if event["type"] == "scan":
        zone = event["zone"]
        if zone.startswith("seat:"):
            return int(zone.split(":")[1])
        return int(s.cycle_first)  # Shrine's lot: the cycle's first bidder draws it
    if "seat" in event:
        return int(event["seat"])
    return int(s.pending[0].seat if s.pending else s.turn)


def _play_by_taps(browser: Any, live_server: tuple[str, Any], game: str, players: int,
                  seed: int, max_moves: int = MAX_MOVES) -> tuple[Counter[str], Counter[str], int]:
    """A game on the phones, its first ``max_moves`` moves (the per-turn figures settle long
    before a game ends, and a whole game cost minutes of the suite): taps per kind of move,
    moves per kind, turns."""
    from playwright.sync_api import expect

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), game, players, seed=seed)
    table = services(app).tables.get(t["table"])
    phones = []
    for seat in t["seats"]:
        page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        page.goto(seat["join_url"])
        phones.append(page)
    for page in phones:
        expect(page.locator("#live")).to_have_text("live", timeout=20_000)
    rng = random.Random(seed)
    taps: Counter[str] = Counter()
    moves: Counter[str] = Counter()
    drive = _mountains_move if game == "mountains" else _shrine_move
    while not table.match.state.finished and sum(moves.values()) < max_moves:
        event = table.rules.random_play(table.match.state, rng)
        for _ in range(30):  # skills are left out of the count: their taps did not change
            if event is None or event["type"] != "skill":
                break
            event = table.rules.random_play(table.match.state, rng)
        assert event is not None and event["type"] != "skill"
        v = table.version
        page = phones[_seat_of(game, table, event) - 1]
        _wait_version(page, v)
        kind, n = drive(page, table, event)
        taps[kind] += n
        moves[kind] += 1
        deadline = time.monotonic() + 20
        while table.version == v:
            assert time.monotonic() < deadline, f"the taps for {event} were not applied"
            time.sleep(0.02)
    turns = int(getattr(table.match.state, "turn_no", 0)) or moves["pass"] + moves["bid"]
    for page in phones:
        page.context.close()
    return taps, moves, turns


def _report(game: str, taps: Counter[str], moves: Counter[str], turns: int) -> None:
    total = sum(taps.values())
    parts = ", ".join(f"{k} {taps[k]}/{moves[k]}" for k in sorted(taps))
    print(f"\n{game}: {total} taps for {sum(moves.values())} moves, {turns} turns "
          f"(taps/moves by kind: {parts})")


@pytest.mark.browser
def test_mountains_rolls_cost_one_tap(browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-5, MR-11: a roll of real dice is entered with one tap, one die or two; a tile with
    a pawn on it is still one tap; a turn costs at most half of today's taps."""
    taps, moves, turns = _play_by_taps(browser, live_server, "mountains", 2, 3)
    _report("Mountains & Rivers", taps, moves, turns)
    assert moves["roll"] > 0 and taps["roll"] == moves["roll"]
    assert taps["move"] == moves["move"]
    per_turn = (taps["roll"] + taps["move"] + taps["end"] + taps["attack"]) / turns
    assert per_turn <= 0.5 * BEFORE["mountains"]


@pytest.mark.browser
def test_shrine_pass_and_bid_cost_one_tap(browser: Any, live_server: tuple[str, Any]) -> None:
    """SK-3, SK-4: a pass is one tap (undo covers a mistake), a bid one tap on a button that
    says its amount; a bidding turn costs at most 0.6 of today's taps (one tap is the floor)."""
    taps, moves, turns = _play_by_taps(browser, live_server, "shrine", 3, 5)
    _report("Shrine", taps, moves, turns)
    assert taps["pass"] == moves["pass"] > 0
    assert moves["bid"] <= taps["bid"] <= 1.2 * moves["bid"]  # a bid above the 8 buttons: more
    # A bidding turn cannot cost less than one tap, so half of 1.83 is out of reach: the
    # target is what a pass and a button bid reach, at most 0.6 of before.
    assert (taps["pass"] + taps["bid"]) / turns <= 0.6 * BEFORE["shrine"]


# Taps per turn before issue 20 (the same seeds and driver, on the page as it was):
# Mountains & Rivers (roll 201, move 42, end 41, attack 7) / 42 turns; Shrine (bid 91,
# pass 120) / 115 bidding turns.
BEFORE = {"mountains": 291 / 42, "shrine": 211 / 115}
