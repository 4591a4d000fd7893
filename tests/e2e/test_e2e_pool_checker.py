"""Pool rummy's show checker, rules page and score sheet on a 360×740 touch phone (issue 30): a game
made through the API (its game page is another helper's), a show tapped with the card picker under the
deal's cut and judged a wrong show in words, a losing hand counted, the rules and the sheet opened;
axe-core finds nothing serious or critical on any of them.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser import PHONE, serious_violations, small_tap_targets
from tests.servers import call

pytestmark = pytest.mark.browser

TAP_TARGETS = "a.button, button, select, input:not([type=hidden])"


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True, bypass_csp=True)  # for axe
    try:
        yield context
    finally:
        context.close()


def no_serious_violations(page: Any) -> None:
    assert serious_violations(page) == [], page.url


def fits_a_phone(page: Any) -> None:
    assert small_tap_targets(page, TAP_TARGETS) == [], page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_show_checked_with_the_picker_in_a_pool_game(phone: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    body = {"variant": "pool-101", "players": ["Asha", "Ben", "Cy"], "options": {"buy_in": 500}}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    deal = {"results": {"Asha": "win", "Ben": 70, "Cy": 20}, "cut": "7H"}
    status, state = call(base_url, "POST", f"/api/games/{game['id']}/deals", deal, key=game["edit_key"])
    assert status == 201, state
    host = urlsplit(base_url).hostname or "127.0.0.1"
    phone.add_cookies([{"name": "edit_key", "value": game["edit_key"], "domain": host, "path": f"/games/{game['id']}"}])
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # Deal 2's show: the cut typed, meld 1 tapped with the picker (2♥ 3♥ and a wild 7♣), the rest typed.
    page.goto(f"{base_url}/games/{game['id']}/check")
    expect(page.locator("h1")).to_contain_text("deal 2")
    page.get_by_label("The cut (the card under the stock)").fill("7H")
    page.get_by_label("The cut (the card under the stock)").dispatch_event("change")
    expect(page.locator("#meld-0")).to_have_attribute("data-wild-ranks", "7")  # the pickers mark 7s wild
    panel = page.locator("#meld-0 + .cp-panel")
    panel.locator("[data-suit=H]").tap()
    panel.locator("[data-rank='2']").tap()
    panel.locator("[data-rank='3']").tap()
    panel.locator("[data-suit=C]").tap()
    panel.locator("[data-rank='7']").tap()
    expect(page.locator("#meld-0")).to_have_value("2H 3H 7C")
    expect(panel.locator(".cp-chip.cp-wild")).to_have_count(1)  # 7♣, wild this deal
    for number, meld in ((2, "5S 6S JK 8S"), (3, "KC KD KH"), (4, "9D 9S 9C")):
        page.locator("#meld-form").get_by_role("button", name="Add a meld").tap()
        page.get_by_label(f"Meld {number}").fill(meld)
    page.get_by_role("button", name="Check the show").tap()
    result = page.locator("#result")
    expect(result).to_contain_text("Wrong show")
    expect(result).to_contain_text("A wrong show, 80 points: no pure sequence: every sequence holds a wild card.")
    expect(result).to_contain_text("impure sequence")
    expect(page.locator("#cut")).to_have_value("7H")  # the deal's cut, kept for the next check
    no_serious_violations(page)
    fits_a_phone(page)

    # A losing hand's count under the same cut, in one line.
    page.get_by_label("Cards of the losing hand").fill("2H 3H 4H KC KD KH 9D 9S 9C 5S 5D 5C 6H")
    page.get_by_label("Whose hand").select_option("Ben")
    page.get_by_role("button", name="Count the hand").tap()
    expect(page.locator("#result")).to_contain_text("every card counts, 87, scored 80 (the full count)")
    no_serious_violations(page)

    # The checker without a game, the rules in words, the sheet.
    page.goto(f"{base_url}/check?variant=pool-201")
    expect(page.locator("h1")).to_have_text("Check a show")
    page.get_by_label("Game").select_option("pool-101")  # another game: its own page
    expect(page).to_have_url(f"{base_url}/check?variant=pool-101")
    no_serious_violations(page)
    fits_a_phone(page)
    page.goto(f"{base_url}/games/{game['id']}/rules")
    expect(page.locator("#D-PR4")).to_contain_text("A wild card in its own place is natural")
    no_serious_violations(page)
    page.goto(f"{base_url}/games/{game['id']}/sheet")
    expect(page.locator("body")).to_contain_text("Pool Rummy 101 score sheet")
    no_serious_violations(page)
    assert errors == []
