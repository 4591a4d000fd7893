"""End to end in headless Chromium on a 360×740 phone screen: one hand of Play or Pay.

A lead, a chip paid and a card played on the hand screen, an undo, then the hand entered in
quick mode. Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ARTIFACTS, check_phone_layout

pytestmark = pytest.mark.browser

TAP_TARGETS = (
    "a.button, button, select, textarea, label.radio, label.check, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def test_one_hand_of_play_or_pay_on_a_phone(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())

    page.goto(base_url + "/games/new")
    page.get_by_role("link", name="Play or Pay").click()
    page.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    page.select_option("#first_dealer", "0")
    page.get_by_label("Starting chips").fill("20")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="Start the game").click()

    # Bob, left of the dealer, leads the seven of hearts.
    expect(page.locator("#turn")).to_contain_text("Bob leads")
    expect(page.locator(".hand-table")).to_contain_text("18 of 18")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="7♥", exact=True).click()  # one tap on the card grid
    expect(page.locator("#needed")).to_have_text("8♥")
    expect(page.locator("#turn")).to_contain_text("Cy's turn")

    page.get_by_role("button", name="Paid 1 chip").click()
    expect(page.locator("#turn")).to_contain_text("Ann's turn")
    expect(page.locator(".hand-table")).to_contain_text("19 chips")
    page.get_by_role("button", name="Played 8♥").click()
    expect(page.locator("#needed")).to_have_text("9♥")
    expect(page.locator("#turn")).to_contain_text("Bob's turn")
    expect(page.locator(".played-cards")).to_contain_text("7♥")
    check_phone_layout(page, TAP_TARGETS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play-or-pay-hand.png"), full_page=True)

    # Take the three events back; then the table enters the hand in quick mode.
    for _ in range(3):
        page.get_by_role("button", name="Undo last event").click()
        expect(page.locator("#hand")).to_be_visible()
    expect(page.locator("#turn")).to_contain_text("Bob leads")
    page.locator("#quick summary").click()
    page.locator("label.radio", has_text="Cy").click()
    page.fill("#cards_left-0", "4")
    page.fill("#cards_left-1", "2")
    page.fill("#paid-0", "3")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="Settle hand 1").click()

    expect(page.locator(".settled")).to_contain_text("Cy went out and collected 9 chips")
    expect(page.locator("#hand-h")).to_contain_text("Hand 2")
    expect(page.locator("#hand-h")).to_contain_text("Bob deals")
    expect(page.locator("#turn")).to_contain_text("Cy leads")
    table = page.locator(".hand-table")
    expect(table).to_contain_text("13 chips")  # Ann: 20 - 3 paid - 4 cards
    expect(table).to_contain_text("29 chips")  # Cy collected the pot
    check_phone_layout(page, TAP_TARGETS)
    page.screenshot(path=str(ARTIFACTS / "play-or-pay-settled.png"), full_page=True)

    # The hand page shares the game, prints it, and links its rules.
    page.locator("#share summary").click()
    expect(page.locator("#share img.qr-code")).to_be_visible()
    page.locator("#share-edit summary").click()
    expect(page.locator("#share-edit img.qr-code")).to_be_visible()
    expect(page.locator("#share-edit .share-url")).to_contain_text("/join#key=")
    expect(page.locator("#print a[href$='sheet.pdf?paper=a4']")).to_be_visible()
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("link", name="Play or Pay rules").click()
    expect(page.locator("h1")).to_have_text("Play or Pay rules")
    here = page.locator("#deal .dp-here")  # this table of three
    expect(here).to_contain_text("18 to the player left of the dealer, 17 to the other 2")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("link", name="Back to the game").click()
    expect(page.locator("#hand-h")).to_contain_text("Hand 2")
    assert errors == []

    # Another phone follows without the buttons, in dark mode.
    viewer = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")
    watching = viewer.new_page()
    watching.goto(page.url.split("#")[0])
    expect(watching.locator(".note")).to_contain_text("View only")
    assert watching.get_by_role("button", name="Undo last event").count() == 0
    assert watching.locator("#share").count() == 1 and watching.locator("#share-edit").count() == 0
    assert watching.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(11, 11, 11)"
    viewer.close()
    context.close()
    assert (ARTIFACTS / "play-or-pay-hand.png").stat().st_size > 10_000
