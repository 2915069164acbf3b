"""Game night, round 3 (issue 29 "At the table"), in Debian's Chromium as players meet it:
the "why?" is a whole tap target in plain words (§3), a refusal says what the table waits for
(§4), the header names the table (§7)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from webtools import GAMES, PLAYERS, bearer, make_table

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
LAPTOP = {"width": 1366, "height": 768}
TV = {"width": 1920, "height": 1080}


def phone(browser: Any, url: str, viewport: dict[str, int] = PHONE) -> Any:
    page = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True).new_page()
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=20_000)
    return page


# Option choices as the engines name them: a player reads the lobby's words instead.
OPTION_IDS = re.compile(r"\b(rps|dragon|recycle|revert|physical)\b|[a-z]+_[a-z]+|\.json|<n>")


@pytest.mark.parametrize("game", [*GAMES, "common"])
def test_why_sentences_are_plain_words(client: FlaskClient, game: str) -> None:
    """§3: no option id, field name, file name or place pattern in a "why?" sentence."""
    rulings = client.get(f"/rules/{game}.json").json["rulings"]
    leaks = {k: v["text"] for k, v in rulings.items() if OPTION_IDS.search(v["text"])}
    assert leaks == {}
    if game == "wuxing":
        assert "With “rock-paper-scissors”" in rulings["wx-12"]["text"]


@pytest.mark.browser
def test_the_why_is_a_whole_tap_target(browser: Any, live_server: tuple[str, Any]) -> None:
    """§3: every "why?" a player meets is at least 44x44 CSS px, on a 360 px phone too."""
    _base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "wuxing", 3)
    page = phone(browser, t["seats"][0]["join_url"], SMALL)
    whys = page.locator("details.why > summary")
    page.wait_for_selector("details.why > summary")
    sizes = [whys.nth(i).bounding_box() for i in range(whys.count())]
    seen = [(round(b["width"]), round(b["height"])) for b in sizes if b and b["width"] > 0]
    assert seen, "no why? on the phone at the start"
    assert all(w >= 44 and h >= 44 for w, h in seen), seen
    page.context.close()


@pytest.mark.browser
def test_a_refusal_says_what_the_table_waits_for(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§4: God Num, one player's turn; another shows a card. Their phone says the table
    waits for that player and what they do, not a generic "show a card you can play now"."""
    from playwright.sync_api import expect

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "godnum", 3)
    view = app.test_client().get(f"/api/tables/{t['table']}",
                                 headers=bearer(t["host_token"])).json["view"]
    turn = view["turn"]
    other = t["seats"][turn % 3]
    name = t["seats"][turn - 1]["name"]
    assert view["prompt"].startswith(f"{name}: play one card"), view["prompt"]
    ben = phone(browser, other["join_url"])
    card = t["run"].cards[0]
    r = app.test_client().post(f"/api/tables/{t['table']}/scans",
                               headers=bearer(other["token"]),
                               json={"payload": card.payload, "zone": "pot"})
    assert r.status_code == 409, r.json
    step = ben.locator("#refusal .next-step")
    expect(step).to_contain_text(f"Nothing changed. The table waits for {name}: play one card")
    expect(step).not_to_contain_text("can play now")
    ben.context.close()


@pytest.mark.browser
def test_the_header_names_the_table_and_the_referee_links_are_buttons(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§7: every page's bar says the game and who plays, never the six-letter id; the big
    screen's bar is its h1; "Copy link" and each seat's link are 44 px tall, named links."""
    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "shrine", 3)
    tid = t["table"]
    pages = {"phone": phone(browser, t["seats"][0]["join_url"], SMALL),
             "big": phone(browser, f"{base}/t/{tid}?token={t['host_token']}", LAPTOP),
             "referee": phone(browser, f"{base}/t/{tid}/referee?token={t['host_token']}",
                              LAPTOP)}
    for name, page in pages.items():
        bar = page.locator(".bar .where").inner_text()
        assert "Shrine" in bar and "Ana" in bar and tid not in bar, (name, bar)
    assert pages["big"].locator("h1").count() == 1
    ref = pages["referee"]
    assert ref.locator("#copy-referee").bounding_box()["height"] >= 44
    links = ref.locator("a.seat-link")
    assert links.count() == 3
    for i in range(3):
        link = links.nth(i)
        assert link.inner_text().strip() == f"Open {t['seats'][i]['name']}'s phone page"
        box = link.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
    big = ref.locator("#big-screen")
    assert big.inner_text().strip() == "Open the big screen"
    assert big.bounding_box()["height"] >= 44
    for page in pages.values():
        page.context.close()


def _played_to_the_end(app: Any, t: dict[str, Any]) -> int:
    import random

    from web import services

    table = services(app).tables.get(t["table"])
    rng = random.Random(3)
    client = app.test_client()
    while not table.match.state.finished:
        event = table.rules.random_play(table.match.state, rng)
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json
    return int(table.version)


@pytest.mark.browser
def test_the_replay_opens_at_the_start_with_its_controls_in_view(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§5: the replay opens at step 0; on a 360 px phone Start, End, the slider and both
    steps are in view and 44 px; the CSV link is a 44 px control; a step says who entered
    it ("entered by Ana")."""
    from playwright.sync_api import expect

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "shrine", 3)
    steps = _played_to_the_end(app, t)
    page = browser.new_context(viewport=SMALL, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{base}/t/{t['table']}/replay?token={t['seats'][0]['token']}")
    body = page.locator("body")
    expect(body).to_have_attribute("data-step", "0", timeout=20_000)
    for name in ("replay-first", "replay-prev", "replay-next", "replay-last"):
        box = page.locator(f"#{name}").bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= SMALL["width"], (name, box)
        assert box["y"] + box["height"] <= SMALL["height"], (name, box)
    page.locator("#replay-last").click()
    expect(body).to_have_attribute("data-step", str(steps))
    page.locator("#replay-first").click()
    expect(body).to_have_attribute("data-step", "0")
    page.locator("#replay-next").click()
    expect(body).to_have_attribute("data-step", "1")
    expect(page.locator("label.replay-slider")).to_contain_text("entered by the referee")
    csv = page.locator("#replay-csv").bounding_box()
    assert csv is not None and csv["height"] >= 44, csv
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    page.context.close()


@pytest.mark.browser
def test_shrine_bid_buttons_go_up_to_what_the_player_may_bid(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§8: the bidder's phone has a button for every legal bid, up to the most they may bid
    (the engine's list), not only its first few suggestions."""
    import random

    from playwright.sync_api import expect

    from companion.games.shrine.adjudicate import legal_bids
    from web import services

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "shrine", 3,
                   options={"start_oinks": 17})
    table = services(app).tables.get(t["table"])
    rng = random.Random(2)
    client = app.test_client()
    while not (table.match.state.phase == "bidding"
               and legal_bids(table.match.state, table.match.state.turn)[-1:] > [11]):
        assert not table.match.state.finished, "no bid of more than 11 Oinks"
        event = table.rules.random_play(table.match.state, rng)
        if event["type"] == "bid":  # keep the standing bid low: many choices stay open
            event = {"type": "pass", **{k: v for k, v in event.items()
                                        if k not in ("type", "amount")}}
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json
    seat = table.match.state.turn
    legal = legal_bids(table.match.state, seat)
    page = phone(browser, t["seats"][seat - 1]["join_url"], SMALL)
    buttons = page.locator("#actions .action[data-action=bid] button.choice")
    expect(buttons.first).to_be_visible()
    values = [int(buttons.nth(i).get_attribute("data-value") or "") for i in range(buttons.count())]
    assert values == legal, (values, legal)
    assert values[-1] > 11
    page.context.close()


# axe's rules a player notices on these pages, beyond the default set: a name that does not
# start with what a control shows (experimental in axe-core, so enabled by name).
AXE_OPTIONS = {"rules": {"label-content-name-mismatch": {"enabled": True}}}
HEADINGS = ("heading-order", "page-has-heading-one")


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_axe_in_the_thick_of_the_game(game: str, browser: Any,
                                      live_server: tuple[str, Any]) -> None:
    """§6: 30 plays in (Mountains & Rivers: moves, greyed actions, the board to tap), the
    big screen, the referee page and a phone have no critical or serious axe violation,
    label-content-name-mismatch included, and their headings are in order with one h1."""
    import random

    from axe_playwright_python.sync_playwright import Axe

    from web import services

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), game, PLAYERS[game])
    table = services(app).tables.get(t["table"])
    rng = random.Random(1)
    client = app.test_client()
    for _ in range(30):
        if table.match.state.finished:
            break
        event = table.rules.random_play(table.match.state, rng)
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json
    axe = Axe()
    problems = []
    for name, url, viewport in (
            ("big screen", f"{base}/t/{t['table']}?token={t['host_token']}", TV),
            ("referee", f"{base}/t/{t['table']}/referee?token={t['host_token']}", LAPTOP),
            *((f"phone {s['name']}", s["join_url"], PHONE) for s in t["seats"][:2])):
        page = phone(browser, url, viewport)
        page.wait_for_timeout(300)  # the snapshot drawn
        for v in axe.run(page, options=AXE_OPTIONS).response["violations"]:
            if v["impact"] in ("critical", "serious") or v["id"] in HEADINGS:
                problems.append(f"{name}: {v['id']} ({v['impact']}) "
                                f"{[n['target'] for n in v['nodes'][:3]]}")
        page.context.close()
    assert problems == [], "\n".join(problems)


@pytest.mark.browser
def test_gem_complete_ends_as_the_game_is_won(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§8: a Deck Out: the end box says whose deck ran out and scores decks, not gems (the
    winner never reads as behind); the loser is not told to draw from the empty deck."""
    import random

    from playwright.sync_api import expect

    from web import services

    _, app = live_server
    client = app.test_client()
    for seed in range(1, 20):
        t = make_table(client, Path(app.config["DATA_DIR"]), "gemcomplete", 2, seed=seed)
        table = services(app).tables.get(t["table"])
        rng = random.Random(seed)
        while not table.match.state.finished:
            event = table.rules.random_play(table.match.state, rng)
            r = client.post(f"/api/tables/{t['table']}/actions",
                            headers=bearer(t["host_token"]),
                            json={**event, "version": table.version})
            assert r.status_code == 200, r.json
        last = client.get(f"/api/tables/{t['table']}",
                          headers=bearer(t["host_token"])).json["last_play"]
        if last.get("outcome") == "deck_out":
            break
    else:
        pytest.fail("no random game ended by Deck Out")
    winner = table.match.state.winners[0]
    loser = 3 - winner
    names = {i: s["name"] for i, s in enumerate(t["seats"], 1)}
    page = phone(browser, t["seats"][loser - 1]["join_url"], SMALL)
    end = page.locator("#end")
    expect(end).to_contain_text(f"{names[loser]}'s deck ran out")
    expect(end.locator("ol.standings li").first).to_contain_text(names[winner])
    expect(end.locator("ol.standings li").nth(1)).to_contain_text("deck empty")
    assert "gem" not in end.locator("ol.standings").inner_text().lower()
    expect(page.locator("#physical")).to_be_hidden()
    page.context.close()


# Card tiles whose name runs past the tile (its letters cut off by the tile's edge).
CUT_NAMES = """() => [...document.querySelectorAll("#actions .card-tile .card-name")]
  .filter((n) => n.getClientRects().length)
  .filter((n) => { const t = n.closest(".card-tile").getBoundingClientRect();
                   const r = n.getBoundingClientRect();
                   return r.left < t.left - 0.5 || r.right > t.right + 0.5
                     || n.scrollWidth > n.clientWidth + 1; })
  .map((n) => n.textContent)"""


@pytest.mark.browser
def test_gem_complete_card_names_fit_their_tiles_on_a_small_phone(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§8: in the Main Phase on a 360 px phone every card's name is inside its tile
    ("Rockslide", not "ockslide") and at least 9 px tall."""
    import random

    from web import services

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "gemcomplete", 2)
    table = services(app).tables.get(t["table"])
    rng = random.Random(2)
    client = app.test_client()
    while table.match.state.step != "main":
        event = table.rules.random_play(table.match.state, rng)
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json
    page = phone(browser, t["seats"][table.match.state.turn - 1]["join_url"], SMALL)
    page.wait_for_selector("#actions .card-tile .card-name")
    assert page.evaluate(CUT_NAMES) == []
    smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
        "#actions .card-tile .card-name")].filter((n) => n.getClientRects().length)
        .map((n) => parseFloat(getComputedStyle(n).fontSize)))""")
    assert smallest >= 9, smallest
    page.context.close()


@pytest.mark.browser
def test_mountains_skill_3_picks_its_tile_on_the_board(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§8: Qing Luan's skill 3 (move one player anywhere) is Ben's button, then a tap on the
    board, not a list of 72 tile codes."""
    from playwright.sync_api import expect

    from web import services

    _, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "mountains", 2)
    tid, host = t["table"], t["host_token"]
    table = services(app).tables.get(tid)

    def post(event: dict[str, Any]) -> None:
        r = client.post(f"/api/tables/{tid}/actions", headers=bearer(host),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json

    chars = {c.face.id: c.serial for c in t["run"].cards if c.deck == "character"}
    post({"type": "roll", "seat": 1, "die": 6})
    post({"type": "roll", "seat": 2, "die": 5})
    post({"type": "scan", "card": chars["qing-luan"], "zone": "seat:1"})
    if table.rules.actions(table.match.state, 2):
        post({"type": "scan", "card": chars["xi-bian"], "zone": "seat:2"})
    post({"type": "corner", "seat": 1, "corner": "A1"})
    page = phone(browser, t["seats"][0]["join_url"])
    box = page.locator("#actions > div.action[data-action=skill]",
                       has_text="Move one player anywhere")
    expect(box).to_contain_text("tap a tile on the board")
    box.locator("button.choice", has_text="Ben").click()
    box.locator("details.board-pick > summary").click()
    tile = box.locator("svg.mr-board g.tile.go[data-tile='E5']")
    expect(tile).to_have_attribute("aria-label", re.compile(r"^E5\b.*choose this tile"))
    assert box.locator("svg.mr-board g.tile.go").count() >= 70
    v = table.version
    tile.click()
    page.locator("dialog.confirm button.yes").click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    ben = next(p for p in table.rules.view(table.match.state, None)["players"] if p["seat"] == 2)
    assert ben["tile"] == "E5"
    page.context.close()


def _god_num_bound(app: Any, t: dict[str, Any]) -> Any:
    """Plays until the player on turn has a bound legion and a card they may not play."""
    import random

    from web import services

    table = services(app).tables.get(t["table"])
    rng = random.Random(1)
    client = app.test_client()
    while True:
        s = table.match.state
        view = table.rules.view(s, None)
        turn = view["turn"]
        acts = {a["type"]: a for a in table.rules.actions(s, turn)} if turn else {}
        choices = acts["play"]["fields"][0]["choices"] if "play" in acts else []
        if choices and not any("group" in c for c in choices) \
                and any("disabled" in c for c in choices) and "discard" in acts:
            return table
        assert not s.finished
        event = table.rules.random_play(s, rng)
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json


@pytest.mark.browser
def test_god_num_hand_puts_the_playable_cards_first_and_says_a_reason_once(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§1: with a legion bound, the cards the player may play come first, in the first
    screen of a 390 px phone, four small tiles to a row; every other card's reason is said
    once over its row, never on each tile."""
    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "godnum", 3)
    table = _god_num_bound(app, t)
    turn = table.rules.view(table.match.state, None)["turn"]
    play = next(a for a in table.rules.actions(table.match.state, turn) if a["type"] == "play")
    choices = play["fields"][0]["choices"]
    reasons = {c["disabled"] for c in choices if "disabled" in c}
    page = phone(browser, t["seats"][turn - 1]["join_url"])
    box = page.locator("#actions > .action[data-action=play]")
    tiles = box.locator(".card-tile")
    page.wait_for_selector("#actions > .action[data-action=play] .card-tile")
    first = tiles.first
    assert first.get_attribute("aria-disabled") is None, "a playable card comes first"
    assert first.bounding_box()["y"] + first.bounding_box()["height"] <= PHONE["height"]
    heads = box.locator(".not-now-why")
    assert sorted(heads.all_inner_texts()) == sorted(f"Not now: {r}" for r in reasons)
    for reason in reasons:
        assert reason not in " ".join(tiles.all_inner_texts())
    row_y = [round(b["y"]) for b in (tiles.nth(i).bounding_box() for i in range(tiles.count()))]
    assert max(row_y.count(y) for y in set(row_y)) >= 4, "four tiles to a row"
    page.context.close()


@pytest.mark.browser
def test_god_num_discard_is_a_tap_on_each_card(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§1: two discards are a tap on each card's tile and one on "Discard", no 20 px
    checkboxes."""
    from playwright.sync_api import expect

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "godnum", 3)
    table = _god_num_bound(app, t)
    turn = table.rules.view(table.match.state, None)["turn"]
    discard = next(a for a in table.rules.actions(table.match.state, turn)
                   if a["type"] == "discard")
    two = [c["value"] for c in discard["fields"][0]["choices"][:2]]
    page = phone(browser, t["seats"][turn - 1]["join_url"])
    box = page.locator("#actions > .action[data-action=discard]")
    expect(box.locator(".card-tile").first).to_be_visible()
    assert box.locator("input[type=checkbox]").count() == 0
    for face in two:
        tile = box.locator(f".card-tile[data-face='{face}']")
        size = tile.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44, size
        tile.click()
        expect(tile).to_have_attribute("aria-pressed", "true")
    v = table.version
    box.locator("button.send-picked").click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    event = table.match.events[-1]
    assert event["type"] == "discard" and sorted(event["cards"]) == sorted(two), event
    page.context.close()


@pytest.mark.browser
def test_history_remembers_every_referee_page_opened_and_play_again(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§2: a referee link opened straight (printed, the demo) is in "Your games" on that
    device; "Play again" carries the memory on to the new table; "Forget it on this device"
    forgets it for good (a shared computer)."""
    from playwright.sync_api import expect

    from web import services

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "shrine", 3)
    _played_to_the_end(app, t)
    page = phone(browser, f"{base}/t/{t['table']}/referee?token={t['host_token']}", LAPTOP)
    expect(page.locator("#remembered")).to_be_visible()
    page.locator("#play-again").click()
    expect(page).not_to_have_url(re.compile(t["table"]), timeout=20_000)
    page.wait_for_selector("#live.on", timeout=20_000)
    new = next(x.id for x in services(app).tables.all() if x.id != t["table"])
    page.goto(f"{base}/history")
    rows = page.locator("#history-tables li")
    expect(rows).to_have_count(2, timeout=20_000)
    expect(rows.filter(has_text="still in play")).to_have_count(1)
    # Forgotten on the new table's page: gone from the history, and not remembered again.
    links = page.evaluate("JSON.parse(localStorage.getItem('companion.referee-links.v2'))")
    new_link = next(x["referee"] for x in links if x["table"] == new)
    page.goto(new_link)
    page.wait_for_selector("#live.on", timeout=20_000)
    page.locator("#remembered button.forget-here").click()
    expect(page.locator("#remembered")).to_contain_text("no longer remembers")
    page.reload()
    page.wait_for_selector("#live.on", timeout=20_000)
    page.goto(f"{base}/history")
    expect(rows).to_have_count(1, timeout=20_000)
    page.context.close()


@pytest.mark.browser
def test_gem_complete_declaration_taps_the_locus_cards(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§8: the Complete Declaration shows the player's Locus cards, each a tile named with
    its position; six taps and "Complete Declaration" declare, no numbered checkboxes."""
    import random

    from playwright.sync_api import expect

    from web import services

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "gemcomplete", 2)
    table = services(app).tables.get(t["table"])
    rng = random.Random(2)
    client = app.test_client()
    while not (table.match.state.step == "declaration"
               and len(table.match.state.side(table.match.state.turn).locus) >= 6):
        assert not table.match.state.finished
        event = table.rules.random_play(table.match.state, rng)
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json
    seat = table.match.state.turn
    page = phone(browser, t["seats"][seat - 1]["join_url"], SMALL)
    box = page.locator("#actions > div.action[data-action=declare]")
    expect(box.locator(".card-tile").first).to_be_visible()
    assert box.locator("input[type=checkbox]").count() == 0
    locus = table.rules.view(table.match.state, seat)["seats"][seat - 1]["locus"]
    expect(box.locator(".card-tile[data-value='1']")).to_contain_text(locus[0]["name"])
    expect(box.locator(".card-tile[data-value='1']")).to_contain_text("position 1")
    for pos in range(1, 7):
        box.locator(f".card-tile[data-value='{pos}']").click()
    v = table.version
    send = box.locator("button.send-picked")
    expect(send).to_be_enabled()
    send.click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    event = table.match.events[-1]
    assert event["type"] == "declare" and event["positions"] == [1, 2, 3, 4, 5, 6], event
    page.context.close()


@pytest.mark.browser
def test_a_proposed_effect_names_the_cards_it_takes(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """§8: "Yes, do it" on an effect that takes cards from a discard pile (Excavate,
    Restore) names those cards beside the sentence."""
    import random

    from playwright.sync_api import expect

    from web import services

    _, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "gemcomplete", 2, seed=2)
    table = services(app).tables.get(t["table"])
    rng = random.Random(2)

    def proposed() -> Any:
        s = table.match.state
        return next((a for a in table.rules.actions(s, s.turn) if a.get("proposed")
                     and any(f["name"] == "cards" for f in a["fields"])), None)

    while proposed() is None:
        assert not table.match.state.finished, "no effect took cards in this game"
        event = table.rules.random_play(table.match.state, rng)
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json
    action = proposed()
    cards = next(f for f in action["fields"] if f["name"] == "cards")
    names = [next(c["label"] for c in cards["choices"] if c["value"] == v)
             for v in cards["default"]]
    page = phone(browser, t["seats"][table.match.state.turn - 1]["join_url"])
    picks = page.locator("#actions form.action.proposed ul.proposal-picks")
    for name in names:
        expect(picks).to_contain_text(name)
    page.context.close()
