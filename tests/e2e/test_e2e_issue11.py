"""End to end in headless Chromium on a 360×740 phone screen (issue 11): a Play or Pay table buys chips
between hands and ends the game, and a 3-13 table picks its first dealer left of the score keeper.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import check_phone_layout

pytestmark = pytest.mark.browser

TAP_TARGETS = (
    "a.button, button, select, textarea, label.radio, label.check, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def _phone(browser: Any) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    return context, page, errors


def test_buying_chips_and_ending_a_play_or_pay_game(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    context, page, errors = _phone(browser)
    page.goto(base_url + "/games/new/chips")
    page.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    page.select_option("#first_dealer", "0")
    page.get_by_label("Starting chips").fill("20")
    page.get_by_role("button", name="Start the game").click()

    # Before the first hand, Cy buys 10 more chips.
    expect(page.locator("#buy")).to_be_visible()
    page.get_by_label("Who buys").select_option("Cy")
    page.get_by_label("Chips bought").fill("10")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="Buy chips").click()
    expect(page.locator(".hand-table")).to_contain_text("30 chips")

    # One hand in quick mode: Ann goes out, Bob holds 3 cards, Cy 1.
    page.locator("#quick summary").click()
    page.locator("label.radio", has_text="Ann").click()
    page.fill("#cards_left-1", "3")
    page.fill("#cards_left-2", "1")
    page.get_by_role("button", name="Settle hand 1").click()
    expect(page.locator(".settled")).to_contain_text("Ann went out and collected 4 chips")

    # The table ends the game: each player's result is chips held minus chips bought.
    page.locator("#end summary").click()
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="End the game now").click()
    results = page.locator("#results")
    expect(results).to_contain_text("The table ended the game after 1 hand")
    expect(results.locator("tr", has_text="Ann")).to_contain_text("+4")
    expect(results.locator("tr", has_text="Bob")).to_contain_text("-3")
    expect(results.locator("tr", has_text="Cy")).to_contain_text("-1")
    assert page.locator("#buy").count() == 0 and page.locator("#quick").count() == 0
    check_phone_layout(page, TAP_TARGETS)

    # Undo takes the ending back; the table plays on.
    page.get_by_role("button", name="Undo: play on").click()
    expect(page.locator("#hand-h")).to_contain_text("Hand 2")
    assert page.locator("#results").count() == 0
    assert errors == []
    context.close()


def test_a_3_13_table_picks_the_first_dealer_left_of_the_score_keeper(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    context, page, errors = _phone(browser)
    page.goto(base_url + "/games/new?variant=3-13")
    page.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    ways = page.locator("#dealer-ways")
    expect(ways).to_contain_text("King is high, Ace is low, and players who tie draw again")
    ways.locator("label.radio", has_text="Left of the score keeper").click()
    expect(page.locator("#scorekeeper option[value='1']")).to_have_text("Bob")  # named after the players typed
    page.select_option("#scorekeeper", "1")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator("#dealt-first")).to_have_text("Cy dealt first, sitting left of the score keeper, Bob.")
    more = page.locator("#round .more-facts .facts")  # one tap away (issue 27)
    expect(more).to_contain_text("Start the discard pile staggered so that two cards show")
    check_phone_layout(page, TAP_TARGETS)
    assert errors == []
    context.close()
