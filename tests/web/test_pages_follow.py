"""The pages follow the play (issue 20, points 1, 2 and 4), in Debian's Chromium on the
smallest phone we meet (360x640) and on a 1920x1080 television: a phone scrolled away is
brought back to its move when its turn starts and to the end when the game ends; the
Mountains & Rivers board sits in the move with 44 px tiles a pawn cannot swallow; God Num
asks for a legion before it shows cards; Gem Complete's reveal is a tap on a card."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_pages_games import mountains_rolled, post
from webtools import make_table

from web import services

SMALL = {"width": 360, "height": 640}
TV = {"width": 1920, "height": 1080}

# The part of ``el`` below the sticky bar and above the bottom edge, as the page sees it.
IN_VIEW_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('.bar').getBoundingClientRect().bottom;
  return r.top >= bar - 1 && r.top < window.innerHeight - 40;
}"""
SIDEWAYS_JS = "() => document.documentElement.scrollWidth - window.innerWidth"


def small_phone(browser: Any, url: str) -> Any:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=SMALL, is_mobile=True, has_touch=True).new_page()
    page.goto(url)
    expect(page.locator("#live")).to_have_text("live", timeout=20_000)
    return page


def wait_in_view(page: Any, selector: str) -> None:
    page.wait_for_function(IN_VIEW_JS, arg=selector, timeout=20_000)


def random_plays_until(app: Any, t: dict[str, Any], stop: Any, rng: random.Random) -> None:
    """Random legal plays through the API, as the referee, until ``stop(state)``."""
    table = services(app).tables.get(t["table"])
    client = app.test_client()
    for _ in range(5000):
        if stop(table.match.state):
            return
        event = table.rules.random_play(table.match.state, rng)
        assert event is not None
        post(client, t["table"], t["host_token"], dict(event))
    raise AssertionError("the state was never reached")


@pytest.mark.browser
def test_a_phone_scrolled_away_comes_back_to_its_move_and_to_the_end(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """WX-4: when Ana's card is due her phone, scrolled to the bottom, brings her move into
    view; a refusal of her play comes into view; when the game ends it brings "… wins!"
    into view. Never while she scrolls."""
    from playwright.sync_api import expect

    _base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "wuxing", 3)
    table = services(app).tables.get(t["table"])
    page = small_phone(browser, t["seats"][0]["join_url"])
    rng = random.Random(4)
    bottom = "window.scrollTo(0, document.documentElement.scrollHeight)"

    def ana_due(s: Any) -> bool:
        return any(not a.get("why") for a in table.rules.actions(s, 1))

    random_plays_until(app, t, lambda s: not ana_due(s), rng)
    page.evaluate(bottom)
    random_plays_until(app, t, ana_due, rng)
    wait_in_view(page, "section.moves")
    expect(page.locator("#actions [data-face]").first).to_be_in_viewport()
    assert page.evaluate(SIDEWAYS_JS) <= 0

    # A refusal of her play (typed low on the page: a card already face up on the table,
    # C-1) comes into view at the top of the page, where the refusal is drawn.
    places = table.rules.places(table.match.state)
    shown = next(serial for serial, place in sorted(places.items()) if place != "unknown")
    box = page.locator("#actions .action[data-action=scan]").first
    box.locator("details.type-code summary").click()
    box.locator("input[name=card]").fill(shown)
    box.locator("form.code-field").evaluate("(f) => f.scrollIntoView({block: 'start'})")
    v = table.version
    box.locator("form.code-field button").click()
    expect(page.locator("#refusal")).to_be_visible(timeout=20_000)
    wait_in_view(page, "#refusal")
    assert table.version == v

    # While the finger is on the glass the page stays put; it follows once the finger lifts.
    random_plays_until(app, t, lambda s: not ana_due(s), rng)
    page.evaluate(bottom)
    page.dispatch_event("body", "touchstart")
    random_plays_until(app, t, ana_due, rng)
    expect(page.locator("body")).to_have_attribute("data-version", str(table.version),
                                                   timeout=20_000)
    page.wait_for_timeout(1500)
    assert not page.evaluate(IN_VIEW_JS, "section.moves"), "the page jumped under a finger"
    page.dispatch_event("body", "touchend")
    wait_in_view(page, "section.moves")

    page.evaluate(bottom)
    random_plays_until(app, t, lambda s: s.finished, rng)
    wait_in_view(page, "#end")
    expect(page.locator("#end .winner-big")).to_be_in_viewport()
    page.context.close()


@pytest.mark.browser
def test_the_mountains_board_is_under_the_prompt_with_44px_tiles(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-5 on a 360x640 phone: the roll was one tap; the board is in the move, right under
    the prompt; each highlighted tile is at least 44x44 CSS px; a pawn never swallows a tap;
    the page does not scroll sideways (the board pans in its own frame)."""
    from playwright.sync_api import expect

    _base, app = live_server
    t, table = mountains_rolled(app, 3)
    page = small_phone(browser, t["seats"][0]["join_url"])
    board = page.locator("#actions .action[data-action=move] svg.mr-board")
    expect(board).to_be_visible()
    prompt = page.locator("#prompt").bounding_box()
    # Under the prompt (it was 1,151 px below it): the first row of tiles on the first screen.
    top = board.bounding_box()["y"]
    assert top - (prompt["y"] + prompt["height"]) < 300 and top + 48 <= SMALL["height"]
    go = board.locator("g.tile.go")
    assert go.count() >= 1
    for i in range(go.count()):
        box = go.nth(i).locator("rect").bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert page.evaluate(SIDEWAYS_JS) <= 0
    # The pawn's own circle lets the tap through to the tile under it.
    pawn = board.locator(".pawn[data-seat='1'] circle")
    pawn.scroll_into_view_if_needed()
    hit = page.evaluate("""(c) => { const r = c.getBoundingClientRect();
        const el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const tile = el.closest('g.tile');
        return [!!el.closest('.pawn'), tile ? tile.dataset.tile : null]; }""",
                        pawn.element_handle())
    assert hit == [False, table.match.state.player(1).tile]
    target = go.first.get_attribute("data-tile")
    v = table.version
    go.first.click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    assert table.match.events[-1]["to"] == target
    page.context.close()


@pytest.mark.browser
def test_dice_tiles_fit_the_smallest_phone(browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-3/MR-11 on 360x640: the six die tiles and, in the final showdown, the 21 pairs
    are 44 px targets inside the screen's width; one tap enters the roll."""
    from playwright.sync_api import expect

    _base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "mountains", 2)
    page = small_phone(browser, t["seats"][0]["join_url"])
    dice = page.locator("#actions button[data-dice]")
    expect(dice).to_have_count(6)
    for i in range(6):
        box = dice.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44 and box["x"] + box["width"] <= 360
    assert page.evaluate(SIDEWAYS_JS) <= 0
    page.context.close()
    t2, table = mountains_rolled(app, 3)  # two players: the movement roll is two dice
    client = app.test_client()
    post(client, t2["table"], t2["host_token"], {"type": "move", "seat": 1, "to": next(
        a for a in table.rules.actions(table.match.state, 1) if a["type"] == "move"
    )["fields"][0]["choices"][0]["value"]})
    rng = random.Random(1)
    while not any(a["type"] == "roll" for a in table.rules.actions(table.match.state, 2)):
        ends = [a for a in table.rules.actions(table.match.state, 1) if a["type"] == "end"]
        event = ({"type": "end", "seat": 1} if ends
                 else table.rules.random_play(table.match.state, rng))
        assert event is not None
        post(client, t2["table"], t2["host_token"], dict(event))
    page = small_phone(browser, t2["seats"][1]["join_url"])
    pairs = page.locator("#actions button[data-dice]")
    expect(pairs).to_have_count(21)
    for i in range(21):
        box = pairs.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44 and box["x"] + box["width"] <= 360
    assert page.evaluate(SIDEWAYS_JS) <= 0
    v = table.version
    page.locator("#actions button[data-dice='[2,6]']").click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    assert sorted(table.match.state.roll) == [2, 6]
    page.context.close()


@pytest.mark.browser
def test_the_tv_shows_every_players_hp_without_scrolling(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-9 on the big screen at 1920x1080: every player's HP is on the first screen."""
    from playwright.sync_api import expect

    base, app = live_server
    t, _table = mountains_rolled(app, 3)
    page = browser.new_context(viewport=TV).new_page()
    page.goto(f"{base}/t/{t['table']}?token={t['host_token']}")
    expect(page.locator("#live")).to_have_text("live", timeout=20_000)
    expect(page.locator("#join")).to_be_hidden()  # the game has started
    rows = page.locator("#panel table.seats-table tbody tr")
    expect(rows).to_have_count(2)
    for i in range(2):
        box = rows.nth(i).bounding_box()
        assert box["y"] + box["height"] <= TV["height"], box
    assert page.evaluate("() => window.scrollY") == 0
    page.context.close()


@pytest.mark.browser
def test_god_num_asks_for_a_legion_then_shows_only_its_cards(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """GN-2 rev. 2: before a legion is bound, one tap chooses the legion to look at; only
    its cards show, nothing scrolls sideways; a card is then one tap (GN-6)."""
    from playwright.sync_api import expect

    _base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "godnum", 3)
    table = services(app).tables.get(t["table"])
    first = table.rules.view(table.match.state, None)["turn"]
    page = small_phone(browser, t["seats"][first - 1]["join_url"])
    play = next(a for a in table.rules.actions(table.match.state, first) if a["type"] == "play")
    choices = play["fields"][0]["choices"]
    groups = sorted({c["group"] for c in choices})
    assert len(groups) >= 2
    legions = page.locator("#actions .legion-pick button")
    expect(legions).to_have_count(len(groups))
    assert page.locator("#actions [data-face]").count() == 0
    for i in range(len(groups)):
        box = legions.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    card = next(c for c in choices if "disabled" not in c)
    page.locator(f"#actions .legion-pick button[data-group='{card['group']}']").click()
    shown = page.locator("#actions [data-face]")
    expect(shown).to_have_count(sum(1 for c in choices if c["group"] == card["group"]))
    assert page.evaluate(SIDEWAYS_JS) <= 0
    v = table.version
    page.locator(f"#actions [data-face='{card['value']}']").click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    assert table.match.events[-1]["card"] == card["value"]
    page.context.close()


@pytest.mark.browser
def test_gem_complete_reveal_is_a_tap_and_the_step_button_leads(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """GC-3: the step's own button is the first move, the effects typed by hand folded
    below; GC-4: each Locus position is revealed with one tap on its card."""
    from playwright.sync_api import expect

    _base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "gemcomplete", 2)
    table = services(app).tables.get(t["table"])
    rng = random.Random(1)
    random_plays_until(app, t, lambda s: s.step == "main" and not s.pending, rng)
    page = small_phone(browser, t["seats"][table.match.state.turn - 1]["join_url"])
    first = page.locator("#actions > .action").first
    expect(first).to_have_attribute("data-action", "next")
    expect(first).to_be_in_viewport()
    expect(page.locator("#actions details.by-hand .action")).to_have_count(4)
    page.context.close()

    random_plays_until(app, t, lambda s: s.step == "reveal", rng)
    seat = table.match.state.turn
    page = small_phone(browser, t["seats"][seat - 1]["join_url"])
    revealed = 0
    while table.match.state.step == "reveal" and not table.match.state.finished:
        act = next(a for a in table.rules.actions(table.match.state, seat)
                   if a["type"] == "reveal")
        faces = act["fields"][0]["faces"]
        tiles = page.locator("#actions .action[data-action=reveal] .card-tiles [data-face]")
        expect(tiles).to_have_count(len(faces))
        v = table.version
        tiles.first.click()
        expect(page.locator("body")).to_have_attribute("data-version", str(v + 1),
                                                       timeout=20_000)
        revealed += 1
    assert revealed >= 1  # each by one tap on a card, none typed
    page.context.close()
