"""The end, the big screen and plain words (issue 20 §5, §6, §8): the winner first in the
standings, no banner over the end, why a WuXing game ended, every "why?" a plain sentence
with a link to the rules page this server serves, the camera and lobby in plain words, and
the big screen reading rulings aloud only when asked."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from webtools import bearer, make_table

from web import services

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def play_to_end(app: Any, t: dict[str, Any], seed: int = 1) -> None:
    table = services(app).tables.get(t["table"])
    client = app.test_client()
    rng = random.Random(seed)
    while not table.match.state.finished:
        event = table.rules.random_play(table.match.state, rng)
        assert event is not None
        r = client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                        json={**event, "version": table.version})
        assert r.status_code == 200, r.json


def test_the_rules_pages_are_served_with_an_anchor_per_ruling(client: FlaskClient) -> None:
    page = client.get("/rules/wuxing")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="wx-7"' in html and 'id="wx-7.7"' in html and 'id="wx-10"' in html
    assert "seat:&lt;n&gt;" in html and "<n>" not in html  # the Markdown is escaped
    rulings = client.get("/rules/wuxing.json").json["rulings"]
    assert rulings["wx-7.7"]["href"] == "/rules/wuxing#wx-7.7"
    assert "back to the bottom of its owner's deck" in rulings["wx-7.7"]["text"]
    assert "WX-" not in rulings["wx-7.7"]["text"]  # a plain sentence
    assert rulings["c-1"]["href"] == "/rules/common#c-1"  # the common rulings' own page
    for game in ("godnum", "shrine", "mountains", "gemcomplete", "common"):
        assert client.get(f"/rules/{game}").status_code == 200
        assert client.get(f"/rules/{game}.json").json["rulings"]
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/..%2Fapi").status_code == 404


@pytest.mark.browser
def test_the_end_puts_the_winner_first_and_no_banner_covers_it(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "godnum", 3)
    big = browser.new_context(viewport=TV).new_page()
    big.goto(f"{base}/t/{t['table']}")
    expect(big.locator("#live")).to_have_text("live", timeout=20_000)
    play_to_end(app, t)
    table = services(app).tables.get(t["table"])
    winner = table.players[table.match.state.winners[0] - 1]
    expect(big.locator("#end")).to_be_visible(timeout=20_000)
    expect(big.locator("#end .standings li").first).to_contain_text(winner)
    expect(big.locator("#end .standings li").first).to_have_class("won")
    expect(big.locator("#banner")).to_be_hidden()
    # The end box and its standings are on the TV without scrolling.
    box = big.locator("#end").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= TV["height"]
    big.context.close()


@pytest.mark.browser
def test_wuxing_players_read_why_the_game_ended_and_why_opens_the_rules(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "wuxing", 3)
    play_to_end(app, t)
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone.goto(t["seats"][1]["join_url"])
    expect(phone.locator("#live")).to_have_text("live", timeout=20_000)
    why = phone.locator("#end .end-why")
    expect(why).to_be_visible()
    assert "ran out" in why.inner_text()
    # A "why?" opens to a plain sentence and a link to this server's rules page.
    summary = phone.locator("details.why > summary").first
    expect(summary).to_be_visible()
    summary.click()
    link = phone.locator("details.why[open] .why-rule a").first
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href and href.startswith("/rules/") and "#" in href
    text = phone.locator("details.why[open] .why-rule").first.inner_text()
    assert len(text) > len(link.inner_text()) + 20  # a sentence, not only the id
    rules = phone.context.new_page()
    rules.goto(base + href)
    assert rules.locator(f"[id='{href.split('#')[1]}']").count() == 1
    phone.context.close()


@pytest.mark.browser
def test_the_big_screen_reads_rulings_aloud_only_when_asked(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "wuxing", 3)
    ctx = browser.new_context(viewport=TV)
    # Records what the page asks the browser to say (the browser's own speech synthesis).
    ctx.add_init_script("""window.__said = [];
      const speak = speechSynthesis.speak.bind(speechSynthesis);
      speechSynthesis.speak = (u) => { window.__said.push(u.text); speak(u); };""")
    big = ctx.new_page()
    big.goto(f"{base}/t/{t['table']}")
    expect(big.locator("#live")).to_have_text("live", timeout=20_000)
    toggle = big.locator("#speak")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    client = app.test_client()
    client.post(f"/api/tables/{t['table']}/actions", headers=bearer(t["host_token"]),
                json={"type": "rps", "winner": 1, "version": t["version"]})
    expect(big.locator("#banner")).to_be_visible(timeout=20_000)
    assert big.evaluate("window.__said") == []  # off by default
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    run = t["run"]
    universe = next(c for c in run.cards if c.deck == "universe")
    r = client.post(f"/api/tables/{t['table']}/scans", headers=bearer(t["camera_token"]),
                    json={"payload": universe.payload, "zone": "universe"})
    assert r.status_code == 200, r.json
    big.wait_for_function("window.__said.length >= 2", timeout=20_000)
    said = big.evaluate("window.__said")
    assert said[0] == "Rulings will be read aloud."
    assert universe.face.name in said[-1] and "WX-" not in said[-1]
    ctx.close()


@pytest.mark.browser
def test_the_camera_and_the_lobby_speak_plainly(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "wuxing", 3)
    cam = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    cam.goto(f"{base}/t/{t['table']}/camera?token={t['camera_token']}")
    status = cam.locator("#cam-status")
    expect(status).not_to_have_text("Starting the camera…", timeout=20_000)
    text = cam.locator("main").inner_text()
    assert "seat:" not in text and "Error" not in text, text
    assert "Ana's place" in cam.locator("#cam-zone").inner_text()
    lobby = cam.context.new_page()
    lobby.goto(base + "/")
    lobby.select_option("#nt-game", "wuxing")
    games = lobby.locator("#nt-game option").all_inner_texts()
    assert any("takes 2 to 8 players" in g for g in games), games
    run = lobby.locator("#nt-run option").first.inner_text()
    assert run.startswith("WuXing cards printed ") and run.endswith(" cards"), run
    assert t["run"].run_id not in run
    cam.context.close()


@pytest.mark.browser
def test_a_refusal_names_the_card_and_the_next_step(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """Issue 20 §6: "'FW39-01G' is not a card Ben can show now" becomes the card's name,
    and the refused player reads what to do next."""
    from playwright.sync_api import expect

    _, app = live_server
    t = make_table(app.test_client(), Path(app.config["DATA_DIR"]), "wuxing", 3)
    ben = t["seats"][1]
    phone = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    phone.goto(ben["join_url"])
    expect(phone.locator("#live")).to_have_text("live", timeout=20_000)
    # Ana won rock-paper-scissors: the table waits for her Universe card (issue 29 §4).
    r = app.test_client().post(f"/api/tables/{t['table']}/actions",
                               headers=bearer(t["host_token"]),
                               json={"type": "rps", "winner": 1, "version": t["version"]})
    assert r.status_code == 200, r.json
    card = next(c for c in t["run"].cards if c.deck != "universe")
    r = app.test_client().post(f"/api/tables/{t['table']}/scans", headers=bearer(ben["token"]),
                               json={"payload": card.payload, "zone": "seat:2"})
    # A player's answer names the card, never its serial (C-8, issue 18 §7).
    assert r.status_code == 409 and card.face.name in r.json["error"]
    assert card.serial not in r.json["error"]
    refusal = phone.locator("#refusal")
    expect(refusal).to_be_visible(timeout=20_000)
    expect(refusal).to_contain_text(card.face.name)
    step = refusal.locator(".next-step")
    expect(step).to_contain_text("The table waits for Ana's Universe card.")
    expect(step).not_to_contain_text("show a card you can play now")
    assert card.serial not in refusal.inner_text()
    phone.context.close()
