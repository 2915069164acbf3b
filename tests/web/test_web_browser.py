"""End to end in a real headless Chromium (Debian's ``chromium``): the big screen, two phones
and the referee page follow a WuXing table driven by the camera, live, through Server-Sent
Events (issue 11: the join codes, the result banner, refusals seen, undo, plain words)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from webtools import bearer, make_table

from web import services

# What players never read on their pages (C-8): ruling ids, zone spellings, version
# counters, "card(s)", face ids.
JARGON = re.compile(r"\b[A-Z]{1,2}-\d+\b|\bseat:\d|\bv\d+\b|card\(s\)|\buniverse-[a-z]+\b")


@pytest.mark.browser
def test_the_table_follows_a_challenge_live(
        browser: Any, live_server: tuple[str, Any], tmp_path: Path) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid, host = t["table"], t["host_token"]
    table = services(app).tables.get(tid)
    run = t["run"]
    universe = [c for c in run.cards if c.deck == "universe" and c.face.kind == "element"]
    elements = [c for c in run.cards if c.deck == "player" and c.face.kind == "element"]

    phones = []
    for seat in t["seats"][:2]:
        page = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(seat["join_url"])
        phones.append(page)
    ref = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ref.goto(f"{base}/t/{tid}/referee?token={host}")
    big = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    big.goto(ref.locator("#big-screen").get_attribute("href"))
    public = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    public.goto(f"{base}/t/{tid}")
    pages = [*phones, ref, big, public]
    for page in pages:
        expect(page.locator("#live")).to_have_text("live", timeout=20_000)
        expect(page.locator("body")).to_have_attribute("data-version", "0")
    expect(phones[0].locator("h1.me")).to_contain_text("Ana")

    # Point 13: the host's big screen shows each seat's join code with the name; the token
    # leaves the address bar; a big screen opened without it shows no codes at all.
    expect(big.locator("#join figure")).to_have_count(3)
    expect(big.locator("#join")).to_contain_text("Chen")
    assert "token" not in big.url
    assert public.locator("#join").count() == 0
    assert host not in public.content() and t["seats"][0]["token"] not in public.content()

    def version_everywhere(v: int) -> None:
        for page in pages:
            expect(page.locator("body")).to_have_attribute("data-version", str(v),
                                                            timeout=20_000)

    def camera(payload: str, zone: str, status: int = 200) -> None:
        r = client.post(f"/api/tables/{tid}/scans", json={"payload": payload, "zone": zone},
                        headers=bearer(t["camera_token"]))
        assert r.status_code == status, r.json

    # The referee taps the winner of rock-paper-scissors (WX-12): Ana challenges Ben; the
    # join codes go once the game has started, for good (issue 18 §5: only the referee page
    # brings them back).
    ref.locator(".action[data-action=rps] button", has_text="Ana").click()
    version_everywhere(1)
    for page in phones:
        expect(page.locator(".challenge")).to_contain_text("Ana challenges Ben")
    expect(big.locator("#join")).to_have_count(0)
    expect(big.locator("#join-again")).to_have_count(0)

    camera(universe[0].payload, "universe")
    version_everywhere(2)
    expect(phones[0].locator("#panel .card-tile")).not_to_have_count(0)
    camera(elements[0].payload, "seat:1")
    version_everywhere(3)
    camera(elements[12].payload, "seat:2")
    version_everywhere(4)
    # Point 8: the adjudication, large on the big screen, in the words of the public view.
    ruling = table.rules.view(table.match.state, None)["ruling"]
    words = re.sub(r"\s*\([^()]*\b[A-Z]{1,3}-\d+[^()]*\)", "", ruling).split(";")[0]
    expect(big.locator("#banner")).to_be_visible()
    expect(big.locator("#banner .banner-text")).to_contain_text(words)
    expect(phones[0].locator("#ruling")).to_contain_text(words)
    expect(phones[1].locator(".challenge")).to_contain_text("Ben challenges Chen")
    expect(ref.locator("#log tr")).to_have_count(4)

    # Point 10: a card the camera sends that is refused (C-1: a player card in the Universe
    # zone) is seen on the big screen (who) and the referee page (who and why, with an
    # override), until the next accepted play; the public page never reads the reason,
    # which may name a card.
    stray = elements[5]
    camera(stray.payload, "universe", status=409)
    for page in (big, ref):
        expect(page.locator("#refusal")).to_be_visible()
        expect(page.locator("#refusal")).to_contain_text("the camera")
    expect(ref.locator("#refusal")).to_contain_text(stray.face.name)
    assert stray.face.name not in big.locator("#refusal").inner_text()
    assert big.locator("#refusal #override").count() == 0
    assert table.version == 4
    ref.locator("#refusal #override").click()  # the referee knows better (C-1, logged)
    version_everywhere(5)
    for page in (big, ref):
        expect(page.locator("#refusal")).to_be_hidden()
    assert table.records[-1].body.get("override") is True

    # Hand entry on the referee page: the zone, then the card's tile (a face, C-6).
    ref.locator("#entry-zones button[data-zone='seat:2']").click()
    ref.locator("#entry-tiles [data-face=fire]").click()
    version_everywhere(6)

    # Point 9: undo takes two taps and every page says what was undone.
    ref.locator("#undo").click()
    expect(ref.locator("#undo")).to_contain_text("Tap again")
    ref.locator("#undo").click()
    version_everywhere(7)
    for page in phones:
        expect(page.locator("#undone")).to_contain_text("Undone:")
    expect(big.locator("#banner.undo")).to_be_visible()
    expect(ref.locator("#log tr.voided")).to_have_count(1)

    # Points 12 and 15: plain words on the players' pages; the figures behind a toggle; the
    # header fits a 360 px phone with the table's name in it.
    for page in [*phones, big, public]:
        text = page.locator("body").inner_text()
        assert not JARGON.search(text), JARGON.search(text)
    for page in phones:
        expect(page.locator("#more")).not_to_have_attribute("open", "")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # The game and its players, not the table's id (issue 29 §7).
        expect(page.locator(".bar .where")).to_contain_text("Ana")
        expect(page.locator(".bar .where")).not_to_contain_text(tid)
        assert page.locator(".bar .where").bounding_box()["width"] > 60
    # The referee keeps the ids: a rules lawyer reads them.
    assert re.search(r"WX-\d", ref.locator("#log").inner_text())

    phones[0].screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    for page in pages:
        page.context.close()
