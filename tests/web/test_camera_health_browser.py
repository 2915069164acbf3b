"""The camera's health in the browser (issue 26 §5, C-9): the referee page's camera panel
follows the heartbeats and says "the camera stopped" once they stop; the big screen shows a
small "camera on" mark and nothing else of the camera; a pot card refused by the rules gets
no override button. Every wait is for a condition on the page, never a fixed time."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_pages_axe import LAPTOP, TV, opened, serious
from webtools import bearer, make_table

from web import services
from web.table import HOST

WAIT = 30_000  # ms: how long a page may take to show a condition before the test fails


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def pot_card(app: Any, t: dict[str, Any]) -> Any:
    """Plays until a card lies on the pot; that card."""
    table = services(app).tables.get(t["table"])
    rng = random.Random(3)
    while not any(p == "pot" for p in table.rules.places(table.match.state).values()):
        table.play(services(app).store, table.rules.random_play(table.match.state, rng), HOST)
    serial = next(s for s, p in sorted(table.rules.places(table.match.state).items())
                  if p == "pot")
    return table.book.card(serial)


@pytest.mark.browser
def test_the_referee_sees_the_camera_and_when_it_stopped(
        browser: Any, live_server: tuple[str, Any], axe: Any) -> None:
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    card = pot_card(app, t)

    def beat(**extra: Any) -> None:
        body = {"fps": 14.5, "mat": True, "cards": 3, "problems": [],
                "last": {"card": card.serial, "zone": "universe",
                         "answer": "already there", "words": "already on the pot"}, **extra}
        r = client.post(f"/api/tables/{t['table']}/camera", json=body,
                        headers=bearer(t["camera_token"]))
        assert r.status_code == 204, r.json

    referee = opened(browser, LAPTOP, f"{base}/t/{t['table']}/referee?token={t['host_token']}")
    screen = opened(browser, TV, f"{base}/t/{t['table']}")
    panel = referee.locator("#camera-health")
    mark = screen.locator("#camera-mark")
    expect(panel).to_have_attribute("data-state", "none", timeout=WAIT)
    expect(panel).to_contain_text("No camera has reported", timeout=WAIT)
    expect(mark).to_be_hidden()

    beat(mat=False, cards=0, problems=["The mat is not in view: no corner marker found."])
    expect(panel).to_have_attribute("data-state", "no-mat", timeout=WAIT)
    expect(panel).to_contain_text("cannot find the mat")
    expect(panel).to_contain_text("The mat is not in view: no corner marker found.")
    beat()
    expect(panel).to_have_attribute("data-state", "watching", timeout=WAIT)
    expect(panel).to_contain_text("The camera is watching.")
    expect(panel.locator("dd").nth(0)).to_have_text("14.5")
    expect(panel).to_contain_text("found")
    expect(panel.locator("dd").nth(2)).to_have_text("3")
    expect(panel).to_contain_text(f"{card.face.name} {card.serial} in the pot: already there")
    expect(mark).to_be_visible(timeout=WAIT)
    expect(mark).to_have_text("camera on")
    # The big screen reads nothing else of the camera: no card, no figure (C-7).
    assert card.serial not in screen.content()
    beat()  # fresh, for axe to read the pages with the panel and the mark shown
    problems = [f"referee: {p}" for p in serious(referee, axe)]
    problems += [f"big screen: {p}" for p in serious(screen, axe)]
    assert problems == [], "\n".join(problems)

    # No more heartbeats: within a few seconds both pages say so.
    expect(panel).to_have_attribute("data-state", "stopped", timeout=WAIT)
    expect(panel).to_contain_text("The camera stopped: nothing from it for")
    expect(mark).to_be_hidden(timeout=WAIT)
    assert serious(referee, axe) == []
    # It comes back: the panel and the mark follow.
    beat()
    expect(panel).to_have_attribute("data-state", "watching", timeout=WAIT)
    expect(mark).to_be_visible(timeout=WAIT)
    referee.context.close()
    screen.context.close()


@pytest.mark.browser
def test_the_referee_page_offers_no_override_for_a_pot_card(
        browser: Any, live_server: tuple[str, Any]) -> None:
    """C-9: a pot card shown in a seat's place is refused by the rules (C-1) with no
    "Override" button; a card of the Universe deck shown there still gets one (C-1)."""
    from playwright.sync_api import expect

    base, app = live_server
    client = app.test_client()
    t = make_table(client, Path(app.config["DATA_DIR"]), "wuxing", 3)
    card = pot_card(app, t)
    referee = opened(browser, LAPTOP, f"{base}/t/{t['table']}/referee?token={t['host_token']}")
    refusal = referee.locator("#refusal")

    def camera(payload: str, zone: str) -> None:
        r = client.post(f"/api/tables/{t['table']}/scans", json={"payload": payload,
                        "zone": zone}, headers=bearer(t["camera_token"]))
        assert r.status_code == 409, r.json

    camera(card.payload, "seat:1")
    expect(refusal).to_be_visible(timeout=WAIT)
    expect(refusal).to_contain_text("in the pot")
    expect(referee.locator("#override")).to_have_count(0)
    # Seen again where the pot lies: "already there", the refusal shown stays as it was.
    r = client.post(f"/api/tables/{t['table']}/scans",
                    json={"payload": card.payload, "zone": "universe"},
                    headers=bearer(t["camera_token"]))
    assert r.status_code == 200 and r.json["already_there"] is True
    expect(refusal).to_contain_text("in the pot")
    table = services(app).tables.get(t["table"])
    other = next(s for s, p in sorted(table.rules.places(table.match.state).items())
                 if p == "universe")
    camera(table.book.card(other).payload, "seat:1")
    expect(referee.locator("#override")).to_be_visible(timeout=WAIT)
    referee.context.close()
