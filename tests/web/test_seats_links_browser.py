"""Seats, screens and links in Chromium (issue 18 §5): a seat page keeps no token in its
address bar yet survives a reload; the referee re-issues a seat and the old phone is told;
the big screen's join codes survive a reload until the first play and never come back; the
lobby remembers a referee link only when asked, and never in a tab that opened a seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from webtools import bearer, make_table, register_run

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
TV = {"width": 1920, "height": 1080}


def live(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#live")).to_have_text("live", timeout=20_000)


@pytest.mark.browser
def test_a_seat_page_hides_its_token_and_a_reissue_closes_the_old_phone(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid, ben = t["table"], t["seats"][1]
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(ben["join_url"])
    live(phone)
    assert phone.url == f"{base}/t/{tid}/seat/2"  # the token left the address bar
    assert ben["token"] not in phone.evaluate("location.href + history.length")
    phone.reload()  # and the seat still opens, from the tab's own memory
    live(phone)
    expect(phone.locator("h1.me")).to_have_text("Ben")
    expect(phone.locator("#actions")).to_contain_text("rock-paper-scissors")

    referee = browser.new_context(viewport=LAPTOP).new_page()
    referee.goto(f"{base}/t/{tid}/referee?token={t['host_token']}")
    live(referee)
    button = referee.locator("#seat-2 button.reissue")
    expect(button).to_have_text("New link for Ben")
    button.click()
    expect(button).to_contain_text("Tap again")
    button.click()
    expect(referee.locator("#notice")).to_contain_text("Ben has a new link")
    expect(referee.locator("#seat-2 .qr img")).to_be_visible()
    new_url = referee.locator("#seat-2 a.seat-link").get_attribute("href")
    assert new_url and ben["token"] not in new_url and "/seat/2?token=" in new_url
    # The QR code shown is the new link's (the referee's phone scans it for Ben).
    svg = client.get(f"/t/{tid}/seat/2/qr.svg?token={t['host_token']}")
    assert svg.status_code == 200
    # Ben's old phone is told, and shows nothing of the seat any more.
    expect(phone.locator("#prompt")).to_contain_text("new link", timeout=20_000)
    expect(phone.locator("#actions")).to_be_empty()
    assert client.get(f"/api/tables/{tid}", headers=bearer(ben["token"])).status_code == 403
    # The new link opens Ben's seat.
    phone.goto(new_url)
    live(phone)
    expect(phone.locator("#actions")).to_contain_text("rock-paper-scissors")
    for p in (phone, referee):
        p.context.close()


@pytest.mark.browser
def test_the_big_screen_keeps_its_join_codes_over_a_reload_until_the_first_play(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    tid = t["table"]
    big = browser.new_context(viewport=TV).new_page()
    big.goto(f"{base}/t/{tid}?token={t['host_token']}")
    live(big)
    expect(big.locator("#join .seat-qr")).to_have_count(3)
    assert big.url == f"{base}/t/{tid}"
    big.reload()
    live(big)
    expect(big.locator("#join .seat-qr")).to_have_count(3)  # what it showed, it shows
    assert big.url == f"{base}/t/{tid}"
    r = client.post(f"/api/tables/{tid}/actions", headers=bearer(t["host_token"]),
                    json={"type": "rps", "winner": 1, "version": t["version"]})
    assert r.status_code == 200
    expect(big.locator("#join")).to_have_count(0, timeout=20_000)
    expect(big.get_by_text("Show the join codes")).to_have_count(0)
    big.reload()
    live(big)
    expect(big.locator("#join")).to_have_count(0)
    assert big.locator("svg").count() == 1 + big.locator("figure.cycles svg").count()
    big.context.close()


@pytest.mark.browser
def test_the_lobby_remembers_a_referee_link_only_when_asked(
        browser: Any, live_server: tuple[str, Any]) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    register_run(Path(app.config["DATA_DIR"]), "wuxing", 3)
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.goto(base + "/")
    page.fill("#nt-players", "Ana\nBen\nChen")
    submit = page.locator("#new-table button[type=submit]")
    expect(submit).to_be_enabled()
    submit.click()
    expect(page.locator("#made")).to_contain_text("Keep this link")
    expect(page.locator("#made")).to_be_in_viewport()
    # A second tap makes no second table.
    expect(submit).to_be_disabled()
    submit.click(force=True)
    page.wait_for_timeout(500)
    assert len(app_tables(page, base)) == 1
    link = page.locator("#referee-link").input_value()
    # Not asked: not remembered.
    page.goto(base + "/")
    expect(page.locator("#mine")).to_be_hidden()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.includes('referee'))") == []
    # Asked: remembered, and it can be forgotten.
    page.fill("#nt-players", "Dara\nEli\nFay")
    page.locator("#new-table button[type=submit]").click()
    page.locator("#remember").check()
    second = page.locator("#referee-link").input_value()
    page.goto(base + "/")
    expect(page.locator("#mine-list a")).to_have_attribute("href", second)
    assert link not in page.content()
    # A tab that opened a big screen (or a seat, or a watch link) lists no referee link.
    tid = second.split("/t/")[1].split("/")[0]
    watch = ctx.new_page()
    watch.goto(f"{base}/t/{tid}")
    live(watch)
    watch.goto(base + "/")
    expect(watch.locator("#nt-game option")).not_to_have_count(0)
    expect(watch.locator("#mine")).to_be_hidden()
    assert second not in watch.content()
    page.locator("#mine-list button.forget").click()
    expect(page.locator("#mine")).to_be_hidden()
    page.goto(base + "/")
    expect(page.locator("#mine")).to_be_hidden()
    ctx.close()


def app_tables(page: Any, base: str) -> list[Any]:
    tables: list[Any] = page.evaluate(
        "async (u) => (await (await fetch(u)).json()).tables", base + "/api/tables")
    return tables
