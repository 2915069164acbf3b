"""End to end in a real headless Chromium (Debian's ``chromium``): two phones and the referee
page follow a WuXing challenge driven by camera scans, live, through Server-Sent Events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from webtools import bearer, make_table

from web import services


@pytest.mark.browser
def test_two_phones_and_the_referee_follow_a_challenge_live(
        browser: Any, live_server: tuple[str, Any], tmp_path: Path) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid = t["table"]
    table = services(app).tables.get(tid)
    run = t["run"]
    universe = [c for c in run.cards if c.deck == "universe" and c.face.kind == "element"]
    elements = [c for c in run.cards if c.deck == "player" and c.face.kind == "element"]

    phones = []
    for seat in t["seats"][:2]:
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        page.goto(seat["join_url"])
        phones.append(page)
    ref_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ref = ref_ctx.new_page()
    ref.goto(f"{base}/t/{tid}/referee?token={t['host_token']}")
    for page in [*phones, ref]:
        expect(page.locator("#live")).to_have_text("live", timeout=20_000)
        expect(page.locator("body")).to_have_attribute("data-version", "0")
    expect(phones[0].locator("h1.me")).to_contain_text("Ana")

    def version_everywhere(v: int) -> None:
        for page in [*phones, ref]:
            expect(page.locator("body")).to_have_attribute("data-version", str(v), timeout=20_000)

    def camera(payload: str, zone: str) -> None:
        r = client.post(f"/api/tables/{tid}/scans", json={"payload": payload, "zone": zone},
                        headers=bearer(t["camera_token"]))
        assert r.status_code == 200, r.json

    # The referee taps the winner of rock-paper-scissors (WX-12): Ana challenges Ben.
    ref.locator(".action button", has_text="Ana").click()
    version_everywhere(1)
    for page in phones:
        expect(page.locator(".challenge")).to_contain_text("Ana challenges Ben")

    camera(universe[0].payload, "universe")
    version_everywhere(2)
    expect(phones[0].locator(".cardrow .chip.card")).to_have_count(1)
    camera(elements[0].payload, "seat:1")
    version_everywhere(3)
    camera(elements[12].payload, "seat:2")
    version_everywhere(4)
    ruling = table.rules.view(table.match.state, 1)["ruling"]
    expect(phones[0].locator("#ruling")).to_have_text(ruling)
    expect(phones[1].locator("#ruling")).to_have_text(table.rules.view(table.match.state, 2)
                                                      ["ruling"])
    expect(phones[1].locator(".challenge")).to_contain_text("Ben challenges Chen")
    decks = table.rules.view(table.match.state, None)["decks"]
    ana_deck = decks["1"] if isinstance(decks, dict) and "1" in decks else decks[1]
    expect(phones[1].locator(".seat-bar").first.locator(".num")).to_have_text(str(ana_deck))
    expect(ref.locator("#log tr")).to_have_count(4)

    # The camera missed the next Universe card: the referee enters it by hand.
    ref.select_option("#scan-zone", "universe")
    ref.fill("#scan-card", universe[1].serial)
    ref.locator("#scan-form button").click()
    version_everywhere(5)

    # Undo takes two taps and every page says what was undone.
    ref.locator("#undo").click()
    expect(ref.locator("#undo")).to_contain_text("Tap again")
    ref.locator("#undo").click()
    version_everywhere(6)
    for page in phones:
        expect(page.locator("#undone")).to_contain_text("Undone:")
    expect(ref.locator("#log tr.voided")).to_have_count(1)

    # A refusal is shown, and changes nothing.
    ref.fill("#scan-card", elements[0].serial)  # already adjudicated: C-1
    ref.select_option("#scan-zone", "seat:2")
    ref.locator("#scan-form button").click()
    expect(ref.locator("#notice")).to_be_visible()
    expect(ref.locator("#notice")).to_have_class("notice error")
    assert table.version == 6

    phones[0].screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    ref.screenshot(path=str(tmp_path / "referee.png"), full_page=True)
    for page in [*phones, ref]:
        page.context.close()
