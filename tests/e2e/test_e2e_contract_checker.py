"""Contract Rummy's going-down check on a 360×740 phone in headless Chromium (issue 15): choosing the game
turns the checker into its contract mode; melds entered with the card picker are judged against the deal's
contract, then a lay-off onto another player's meld.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ARTIFACTS, check_phone_layout
from tests.e2e.test_e2e_disputes import TAP_TARGETS, Picker

pytestmark = pytest.mark.browser


def test_going_down_against_the_deals_contract(phone: tuple[Any, list[str]], base_url: str) -> None:
    from playwright.sync_api import expect

    page, errors = phone
    page.goto(base_url + "/check")
    expect(page.locator("#checker")).not_to_have_attribute("data-mode", "contract")
    page.fill("#round", "3")
    with page.expect_navigation():
        page.select_option("#variant", "contract-rummy")  # the checker of a game with contracts loads
    expect(page.locator("#checker")).to_have_attribute("data-mode", "contract")
    expect(page.locator("#checker-hint")).to_contain_text("deal 3: 10 cards, contract two runs")
    check_phone_layout(page, TAP_TARGETS, exclude=".cp-panel")

    # One run, entered with the card picker: not the contract of deal 3.
    Picker(page.locator("#going-down .dp-meld-row").nth(0).locator(".cp-panel")).enter("5H 6H 7H 8H")
    expect(page.locator("#meld-0")).to_have_value("5H 6H 7H 8H")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#down-result")).to_contain_text("✗ Not the contract")
    expect(page.locator("#down-reason")).to_have_text("Deal 3 needs two runs; this is one run")
    expect(page.locator("#down-result .dp-verdict")).to_contain_text("5♥ 6♥ 7♥ 8♥")

    # The second run, with a joker: going down.
    page.locator("#going-down").get_by_role("button", name="Add a meld").click()
    Picker(page.locator("#going-down .dp-meld-row").nth(1).locator(".cp-panel")).enter("9S 10S JK QS")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#down-result")).to_contain_text("✓ Going down: this is the contract")
    expect(page.locator("#down-result")).to_contain_text("🃏 as J♠")
    check_phone_layout(page, TAP_TARGETS, exclude=".cp-panel")

    # The same melds from a player who went down earlier this deal: refused, in the engine's words.
    page.select_option("#already", "already")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#down-result")).to_contain_text("✗ May not go down again")
    expect(page.locator("#down-reason")).to_have_text("This player has already gone down this deal")
    page.select_option("#already", "not-yet")

    # Later, K♠ laid off onto another player's run.
    page.fill("#table-0", "5H 6H 7H 8H")
    page.locator("#lay-off").get_by_role("button", name="Add a meld").click()
    page.fill("#table-1", "9S 10S JK QS")
    page.select_option("#onto", "2")
    page.fill("#cards", "KS")
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("#layoff-result")).to_contain_text("✓ The lay-off is legal")
    expect(page.locator("#layoff-result .dp-table")).to_contain_text("9♠ 10♠ 🃏 Q♠ K♠")
    check_phone_layout(page, TAP_TARGETS, exclude=".cp-panel")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "contract-checker.png"), full_page=True)
    assert errors == []
