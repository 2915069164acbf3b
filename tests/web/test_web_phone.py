"""The pages on a phone-size screen (400 x 850) in headless Chromium, as players hold them:
nothing wider than the screen, refusals readable, what a move needs shown before it is sent,
every token on the Mountains & Rivers board visible."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from webtools import bearer, make_table

from web import services

PHONE = {"width": 400, "height": 850}

# Elements sticking out past the right edge of the screen (the page then scrolls sideways,
# or a phone zooms the whole page out). Inside a box that scrolls or clips on its own (a wide
# table in a scrolling panel, a long name cut with an ellipsis) is fine.
# (A phone widens its layout to fit such a page, so compare with the screen's own width.)
OVERFLOW_JS = """(width) => {
  const contained = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement)
      if (getComputedStyle(p).overflowX !== "visible") return true;
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > width + 1 && !contained(e))
    .map((e) => e.tagName + '.' + e.className + '@' + (e.closest('[id]') || {}).id);
}"""

# Any element outside the page title that draws the "your move" badge.
BADGE_JS = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.tagName !== 'H1'
                 && getComputedStyle(e, '::after').content.includes('your move'))
  .map((e) => e.tagName + '.' + e.className)"""


def post(client: FlaskClient, tid: str, token: str, event: dict[str, Any]) -> dict[str, Any]:
    v = client.get(f"/api/tables/{tid}", headers=bearer(token)).json["version"]
    r = client.post(f"/api/tables/{tid}/actions", json={**event, "version": v},
                    headers=bearer(token))
    assert r.status_code == 200, r.json
    body: dict[str, Any] = r.json
    return body


def phone(browser: Any, url: str) -> Any:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    page.goto(url)
    expect(page.locator("#live")).to_have_text("live", timeout=20_000)
    return page


@pytest.mark.browser
def test_mountains_phone_fits_the_screen_and_shows_every_token(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-2/MR-8 on a phone: all four players start on A1 and every token is seen; the skill
    forms with long choices stay inside the screen; the turn badge is on the title only."""
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "mountains", 4)
    tid, host = t["table"], t["host_token"]
    chars = {c.face.id: c.serial for c in t["run"].cards if c.deck == "character"}
    for seat, die in [(1, 6), (2, 5), (3, 4), (4, 3)]:
        post(client, tid, host, {"type": "roll", "seat": seat, "die": die})
    for seat, face in [(1, "qing-luan"), (2, "xi-bian"), (3, "huan")]:  # the last one is dealt
        post(client, tid, host, {"type": "scan", "card": chars[face], "zone": f"seat:{seat}"})
    post(client, tid, host, {"type": "corner", "seat": 1, "corner": "A1"})

    page = phone(browser, t["seats"][0]["join_url"])
    expect(page.locator("body")).to_have_class("phone my-turn")
    # Qing Luan's skill 3: a player by a button, its tile on a board a tap opens (issue 29
    # §8); it must fit.
    skill3 = page.locator("#actions > div.action[data-action=skill]",
                          has_text="Move one player anywhere")
    expect(skill3.locator("details.board-pick > summary")).to_be_visible()
    assert page.evaluate(OVERFLOW_JS, PHONE["width"]) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate(BADGE_JS) == []

    # The four pawns on the start tile are drawn inside it, big enough to read (bug 3).
    tile = page.locator("svg.mr-board .tile[data-tile=A1] rect").bounding_box()
    pawns = page.locator("svg.mr-board .pawn")
    expect(pawns).to_have_count(4)
    for i in range(4):
        pb = pawns.nth(i).locator("circle").bounding_box()
        assert tile["x"] - 0.5 <= pb["x"] <= tile["x"] + tile["width"] - pb["width"] + 0.5
        assert tile["y"] - 0.5 <= pb["y"] <= tile["y"] + tile["height"] - pb["height"] + 0.5
    # The tile marks are explained under the board, in words.
    expect(page.locator(".board-legend")).to_contain_text("Draw a weapon card.")

    # A skill is one heading and one button: no select of a single choice repeating it, and
    # the skill still goes with the tap (MR-8).
    assert page.evaluate("[...document.querySelectorAll('#actions select')]"
                         ".filter((s) => s.options.length < 2).length") == 0
    swap = page.locator(".action[data-action=skill]", has_text="Swap places")
    swap.locator("button", has_text="Chen").click()
    # A skill confirms with its cost and effect before it is spent (MR-8): Cancel spends
    # nothing, Yes spends it.
    dialog = page.locator("dialog.confirm")
    expect(dialog).to_contain_text("swap places")
    v = services(app).tables.get(tid).version
    dialog.locator("button.secondary").click()
    expect(dialog).to_have_count(0)
    assert services(app).tables.get(tid).version == v
    swap.locator("button", has_text="Chen").click()
    page.locator("dialog.confirm button.yes").click()
    expect(page.locator("#ruling")).to_contain_text("Ana and Chen swap places")
    page.context.close()

    lobby = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    lobby.goto(base + "/")
    lobby.select_option("#nt-game", "shrine")
    assert lobby.evaluate(OVERFLOW_JS, PHONE["width"]) == []
    lobby.context.close()


@pytest.mark.browser
def test_shrine_phone_shows_the_bid_limits_and_a_readable_refusal(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """SK-4 on Ben's phone: the legal bids are buttons (no unit digit 5), a pass asks to
    confirm, a refused bid's reason is shown across the screen in plain words, not in a
    sliver, and its ruling id only behind "why?" (C-8)."""
    from playwright.sync_api import expect

    _base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "shrine", 3)
    tid, host = t["table"], t["host_token"]
    card = {c.face.name: c.serial for c in t["run"].cards}
    for seat, name in [(1, "Fire 9"), (2, "Water 2"), (3, "Earth 3")]:
        post(client, tid, host, {"type": "scan", "card": card[name], "zone": f"seat:{seat}"})
    post(client, tid, host, {"type": "scan", "card": card["Water 5"], "zone": "lot"})
    post(client, tid, host, {"type": "bid", "seat": 1, "amount": 3})
    post(client, tid, host, {"type": "bid", "seat": 2, "amount": 4})
    post(client, tid, host, {"type": "pass", "seat": 3})
    post(client, tid, host, {"type": "pass", "seat": 1})   # Ben wins Water 5 for 4
    post(client, tid, host, {"type": "scan", "card": card["Water 7"], "zone": "lot"})

    page = phone(browser, t["seats"][1]["join_url"])
    table = services(app).tables.get(tid)
    # The legal bids as buttons, from the engine's ``suggest`` (SK-4): never one ending in 5.
    bids = page.locator("#actions .action[data-action=bid] button.choice")
    legal = next(a for a in table.rules.actions(table.match.state, 2)
                 if a["type"] == "bid")["fields"][0]["suggest"]
    expect(bids).to_have_count(len(legal))
    assert [int(bids.nth(i).get_attribute("data-value")) for i in range(len(legal))] == legal
    assert 5 not in legal and "5" not in bids.all_inner_texts()
    # A pass is one tap, with no dialog (issue 20: undo covers a mistake); each bid button
    # says its amount.
    v = table.version
    expect(page.locator("#actions button[data-action=pass]")).to_be_visible()
    expect(bids.first).to_have_text(f"bid {legal[0]} Oinks")
    # A bid ending in 5 sent anyway (typed through the API) is refused; Ben's phone reads
    # the reason in plain words, the ruling id behind "why?" (C-8).
    ben = t["seats"][1]["join_url"].split("token=")[1]
    r = client.post(f"/api/tables/{tid}/actions", headers=bearer(ben),
                    json={"type": "bid", "amount": 5, "version": v})
    assert r.status_code == 409 and r.json["rule"] == "SK-4" and "SK-4" not in r.json["error"]
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("a bid ending in 5 is not allowed")
    assert "SK-4" not in refusal.inner_text()
    refusal.locator("details.why summary").click()
    expect(refusal.locator("details.why")).to_contain_text("SK-4")
    assert refusal.bounding_box()["width"] >= 0.8 * PHONE["width"]
    # One tap on a legal bid bids it.
    bids.filter(has_text=str(legal[-1])).first.click()
    expect(page.locator("body")).to_have_attribute("data-version", str(v + 1), timeout=20_000)
    assert table.match.events[-1]["amount"] == legal[-1]
    # The lot's header names its element; an empty lot does not say "bid in" alone.
    expect(page.locator("#panel .cardrow h3").first).to_contain_text("bid in water")
    assert page.evaluate(OVERFLOW_JS, PHONE["width"]) == []
    page.context.close()


@pytest.mark.browser
def test_an_optional_choice_can_be_left_out(browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-7: 'Attack with one or two weapons' has an optional second weapon and target. The
    form must let a player attack with one weapon: the optional choices start empty and are
    left out of the body (they used to send the first weapon twice, which MR-7 refuses)."""
    from playwright.sync_api import expect

    _base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "mountains", 2)
    weapon = {"value": "W-1", "label": "Mountain Hammer (earth, attack 4, range 1)"}
    targets = [{"value": 2, "label": "Ben"}]
    attack = {"type": "attack", "label": "Attack with one or two weapons", "seat": 1,
              "rule": "MR-7", "fields": [
                  {"name": "card", "label": "Weapon", "kind": "choice", "choices": [weapon]},
                  {"name": "target", "label": "Target", "kind": "choice", "choices": targets},
                  {"name": "card2", "label": "Second weapon (optional)", "kind": "choice",
                   "optional": True, "choices": [weapon]},
                  {"name": "target2", "label": "Second target", "kind": "choice",
                   "optional": True, "choices": targets}]}
    snap = {"version": 7, "table": t["table"], "game": "mountains", "players": ["Ana", "Ben"],
            "view": {"prompt": "Ana: attack, use a skill, or end the turn."},
            "actions": [attack], "finished": False, "winners": [], "timer": None,
            "undone": None, "history": []}
    sent: list[Any] = []
    page = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    page.route("**/events*", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream"},
        body="retry: 60000\nevent: table\ndata: " + json.dumps(snap) + "\n\n"))
    page.route("**/actions", lambda route: (sent.append(route.request.post_data_json),
                                            route.fulfill(status=200, json={"version": 8})))
    page.goto(t["seats"][0]["join_url"])
    form = page.locator("form[data-action=attack]")
    expect(form).to_be_visible()
    form.locator("button[type=submit]").click()
    for _ in range(100):  # the route handler runs while Playwright waits
        if sent:
            break
        page.wait_for_timeout(50)
    assert sent == [{"type": "attack", "seat": 1, "card": "W-1", "target": 2, "version": 7}]
    page.context.close()


@pytest.mark.browser
def test_a_hidden_page_gives_back_its_stream(browser: Any, live_server: tuple[str, Any]) -> None:
    """A browser keeps at most six connections to one server, and each open page holds one
    for its event stream: a referee with the big screen and a few seat pages open in tabs
    of one browser found every tap hanging. A page out of sight closes its stream, and on
    coming back catches up at once (the snapshot is the whole state)."""
    from playwright.sync_api import expect

    from web import services

    _base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid = t["table"]
    broker = services(app).broker
    page = phone(browser, t["seats"][0]["join_url"])

    def wait_streams(n: int) -> None:
        for _ in range(100):
            if broker.count(tid) == n:
                return
            page.wait_for_timeout(50)
        assert broker.count(tid) == n

    wait_streams(1)
    visibility = """(hidden) => {
      Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
      Object.defineProperty(document, "visibilityState",
                            {value: hidden ? "hidden" : "visible", configurable: true});
      document.dispatchEvent(new Event("visibilitychange"));
    }"""
    page.evaluate(visibility, True)
    expect(page.locator("#live")).to_have_text("paused")
    wait_streams(0)
    post(client, tid, t["host_token"], {"type": "rps", "winner": 1})   # missed while away
    page.evaluate(visibility, False)
    expect(page.locator("#live")).to_have_text("live")
    expect(page.locator("body")).to_have_attribute("data-version", "1")
    wait_streams(1)
    page.context.close()


@pytest.mark.browser
def test_hand_entry_starts_at_the_zone_the_table_waits_for(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """WX-4, WX-7: the referee who enters a missed card by hand finds the zone already set to
    where the table waits for a card (the Universe card, then the first reveal), and a zone
    the referee picked stays picked while the table has not moved on to other zones."""
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid, host = t["table"], t["host_token"]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/t/{tid}/referee?token={host}")
    expect(page.locator("#live")).to_have_text("live", timeout=20_000)
    post(client, tid, host, {"type": "rps", "winner": 1})
    on = page.locator("#entry-zones button.on")
    expect(on).to_have_attribute("data-zone", "universe")
    universe = next(c for c in t["run"].cards if c.deck == "universe" and c.face.kind == "element")
    post(client, tid, host, {"type": "scan", "card": universe.serial, "zone": "universe"})
    expect(on).to_have_attribute("data-zone", "seat:1")
    page.locator("#entry-zones button[data-zone='seat:3']").click()
    r = client.post(f"/api/tables/{tid}/timer", json={"seconds": 60}, headers=bearer(host))
    assert r.status_code == 200, r.json
    expect(page.locator("body")).to_have_attribute("data-version", "3")
    expect(on).to_have_attribute("data-zone", "seat:3")
    ana = next(c for c in t["run"].cards if c.deck == "player" and c.face.kind == "element")
    post(client, tid, host, {"type": "scan", "card": ana.serial, "zone": "seat:1"})
    expect(on).to_have_attribute("data-zone", "seat:2")   # now only Ben's is due
    page.context.close()


@pytest.mark.browser
def test_after_an_undo_earlier_rulings_do_not_repeat_the_current_one(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """C-3 on a phone: after an undo the page shows the ruling now standing once (as the
    ruling), the undone play struck through under 'Earlier', and not the standing one again."""
    from playwright.sync_api import expect

    _base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid, host = t["table"], t["host_token"]
    post(client, tid, host, {"type": "rps", "winner": 1})
    universe = next(c for c in t["run"].cards if c.deck == "universe" and c.face.kind == "element")
    post(client, tid, host, {"type": "scan", "card": universe.serial, "zone": "universe"})
    v = client.get(f"/api/tables/{tid}", headers=bearer(host)).json["version"]
    r = client.post(f"/api/tables/{tid}/undo", json={"version": v}, headers=bearer(host))
    assert r.status_code == 200, r.json
    page = phone(browser, t["seats"][1]["join_url"])
    expect(page.locator("#undone")).to_contain_text("Undone:")
    standing = page.locator("#ruling").inner_text()
    assert "rock-paper-scissors" in standing
    expect(page.locator("#history li.voided")).to_have_count(1)
    earlier = page.locator("#history li:not(.voided)").all_inner_texts()
    assert not any(standing in row for row in earlier), earlier
    page.context.close()


@pytest.mark.browser
def test_a_die_is_one_tap_on_the_number_rolled(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """MR-3/MR-11: a real die is entered with one tap on its number (issue 20: it took three
    with a number field); six tiles, each a 44 px target; nothing is sent before the tap."""
    from playwright.sync_api import expect

    _base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "mountains", 2)
    page = phone(browser, t["seats"][0]["join_url"])
    dice = page.locator("#actions .action[data-action=roll] button[data-dice]")
    expect(dice).to_have_count(6)
    for i in range(6):
        box = dice.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert page.locator("#actions .action[data-action=roll] input").count() == 0
    assert client.get(f"/api/tables/{t['table']}").json["version"] == 0
    page.locator("#actions button[data-dice='[4]']").click()
    expect(page.locator("#ruling")).to_contain_text("Ana rolls 4")
    page.context.close()


def test_the_lobby_cannot_be_sent_before_its_script_runs(client: FlaskClient) -> None:
    """Tapped before lobby.js has loaded, the form would go as a plain GET and the page
    would just reload: the button starts disabled and the script enables it."""
    html = client.get("/").get_data(as_text=True)
    assert '<button type="submit" disabled>Create table</button>' in html
