"""End to end in headless Chromium at 360×740: a Play or Pay hand followed card by card, one tap per event.

Each tap (a card of the lead grid, "Played", "Paid", "Undo") goes to the JSON API without a page load:
the test counts the taps against the events stored, and asserts that the page never navigated (Playwright's
framenavigated, and a marker on window that a page load would wipe). Another phone records meanwhile: the
stale tap is refused (409) and the page says so in plain words. Then the table switches to quick mode midway
and confirms. Writes the screenshot docs/play-or-pay-hand-360x740.png when UPDATE_SCREENSHOT is set.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

from tests.browser import ARTIFACTS, ROOT, check_phone_layout
from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TAP_TARGETS = (
    "a.button, button, label.radio, label.check, input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)
SCREENSHOT = ROOT / "docs" / "play-or-pay-hand-360x740.png"


def _events(base_url: str, game: dict[str, Any]) -> int:
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    return int(state["events"])


def _smaller_than_44(page: Any, selector: str) -> list[Any]:
    """Tap targets narrower or shorter than 44 px (check_phone_layout measures heights only)."""
    found: list[Any] = page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector))
          .map(el => [el.textContent.trim(), el.getBoundingClientRect().width, el.getBoundingClientRect().height])
          .filter(([, width, height]) => width < 44 || height < 44)""",
        selector,
    )
    return found


def test_a_hand_card_by_card_one_tap_per_event_then_quick_mode_midway(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    status, game = call(
        base_url,
        "POST",
        "/api/games",
        {"variant": "play-or-pay", "players": PLAYERS, "first_dealer": "Ann", "options": {"chips": 20}},
    )
    assert status == 201, game
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    dialogs: list[str] = []

    def accept(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(lambda url: url.endswith("/hand"))
    expect(page.locator("#turn")).to_contain_text("Bob leads")

    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    page.evaluate("() => { window.tapMarker = 'this page was never reloaded'; }")
    check_phone_layout(page, TAP_TARGETS)
    assert _smaller_than_44(page, ".card-button") == [] and page.locator(".card-button").count() == 52
    taps = 0

    def tap(locator: Any) -> None:
        nonlocal taps
        locator.click()
        taps += 1

    # Bob leads the seven of hearts: one tap on the grid. Then each turn is one tap: Played or Paid.
    tap(page.get_by_role("button", name="7♥", exact=True))
    expect(page.locator("#needed")).to_have_text("8♥")
    expect(page.locator("#turn")).to_contain_text("Cy's turn")
    check_phone_layout(page, TAP_TARGETS)
    steps = [
        ("paid", "Dee's turn", "8♥", "1 chip"),
        ("played", "Ann's turn", "9♥", "1 chip"),
        ("paid", "Bob's turn", "9♥", "2 chips"),
        ("paid", "Cy's turn", "9♥", "3 chips"),
        ("played", "Dee's turn", "10♥", "3 chips"),
        ("played", "Ann's turn", "J♥", "3 chips"),
    ]
    assert _smaller_than_44(page, "#played, #paid") == []
    for button, turn, needed, pot in steps:
        tap(page.locator(f"#{button}"))
        expect(page.locator("#turn")).to_contain_text(turn)
        expect(page.locator("#needed")).to_have_text(needed)
        expect(page.locator("#pot")).to_have_text(pot)
    rows = page.locator(".hand-table tbody tr")  # Bob led 7♥, Dee played 8♥ and 10♥, Cy 9♥; three chips paid
    for seat, (cards, chips) in enumerate(
        (("13 of 13", "19"), ("12 of 13", "19"), ("12 of 13", "19"), ("11 of 13", "20"))
    ):
        expect(rows.nth(seat)).to_contain_text(cards)
        expect(rows.nth(seat)).to_contain_text(f"{chips} chips")
    expect(page.locator(".played-cards")).to_contain_text("10♥")
    expect(page.locator("#hand-said")).to_have_text("Ann's turn: play J♥ or pay a chip.")  # for screen readers
    assert _events(base_url, game) == taps == 7
    check_phone_layout(page, TAP_TARGETS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play-or-pay-hand-360x740.png"))

    # Another phone records Ann's chip meanwhile: this phone's tap is refused and the page says why.
    status, _ = call(
        base_url, "POST", f"/api/games/{game['id']}/events", {"type": "pay", "player": "Ann"}, key=game["edit_key"]
    )
    assert status == 201
    page.locator("#played").click()  # Ann played J♥, says this phone: too late
    expect(page.locator("#tap-error")).to_contain_text("another phone changed this game first")
    expect(page.locator("#turn")).to_contain_text("Bob's turn")  # the hand as kept now
    expect(page.locator("#pot")).to_have_text("4 chips")
    assert _events(base_url, game) == taps + 1

    # Undo, one tap: the other phone's chip is taken back, in place.
    tap(page.get_by_role("button", name="Undo last event"))
    expect(page.locator("#turn")).to_contain_text("Ann's turn")
    expect(page.locator("#pot")).to_have_text("3 chips")
    assert _events(base_url, game) == 7
    assert navigations == [] and page.evaluate("() => window.tapMarker") == "this page was never reloaded"
    assert dialogs == ["Undo the last card, chip, quick hand or chips bought?"]

    # Quick mode midway: the table enters the hand's result; it replaces the 7 cards and chips once confirmed.
    page.locator("#quick summary").click()
    expect(page.locator("label.check", has_text="Replace the 7 cards and chips recorded so far")).to_be_visible()
    expect(page.locator("#paid-2")).to_have_value("1")  # Cy's chip so far
    page.locator("label.radio", has_text="Dee").click()
    for seat, cards in ((0, "6"), (1, "3"), (2, "9")):
        page.fill(f"#cards_left-{seat}", cards)
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="Settle hand 1").click()
    expect(page.locator(".settled")).to_contain_text("Dee went out and collected 21 chips")
    assert (
        dialogs[-1]
        == "Replace the 7 cards and chips recorded so far in hand 1 with this result? Undo brings them back."
    )
    expect(page.locator("#hand-h")).to_contain_text("Hand 2")
    expect(page.locator("#turn")).to_contain_text("Cy leads")
    expect(page.locator("#hands")).to_contain_text("quick mode")
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert state["chips"] == {"Ann": 13, "Bob": 16, "Cy": 10, "Dee": 41}
    assert sum(state["chips"].values()) == 80

    # Undo takes the quick hand back: the hand as followed card by card returns, still without a page load.
    navigations.clear()
    page.evaluate("() => { window.tapMarker = 'after quick mode'; }")
    page.get_by_role("button", name="Undo last event").click()
    expect(page.locator("#needed")).to_have_text("J♥")
    expect(page.locator("#turn")).to_contain_text("Ann's turn")
    expect(page.locator("#pot")).to_have_text("3 chips")
    assert navigations == [] and page.evaluate("() => window.tapMarker") == "after quick mode"
    # Chromium logs the refused tap's answer; nothing else went wrong.
    assert errors == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"]
    context.close()
    if os.environ.get("UPDATE_SCREENSHOT"):
        shutil.copyfile(ARTIFACTS / "play-or-pay-hand-360x740.png", SCREENSHOT)
    assert SCREENSHOT.stat().st_size > 10_000
