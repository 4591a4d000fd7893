"""End to end in headless Chromium on a 360×740 phone screen: a three-round game.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

import os
import shutil

import pytest

from companion import ROOT
from tests.browser import ARTIFACTS, check_phone_layout

pytestmark = pytest.mark.browser


TAP_TARGETS = (
    "a.button, button, select, textarea, label.radio, label.check, .grid th a, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def test_three_round_game_on_a_phone(browser: object, base_url: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(base_url + "/")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name="Pay Me 2–8 players").click()
    page.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    expect(page.locator("#first_dealer option[value='0']")).to_have_text("Ann")
    page.select_option("#first_dealer", "0")
    check_phone_layout(page, TAP_TARGETS)
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator("#round-h")).to_contain_text("Round 1")
    expect(page.locator("#round")).to_contain_text("Jokers, 2s and Threes")
    expect(page.locator("#round")).to_contain_text("2 decks + 4 jokers")
    red = page.locator("#round .suit.red").first
    assert red.evaluate("el => getComputedStyle(el).color") == "rgb(192, 0, 0)"
    check_phone_layout(page, TAP_TARGETS)

    rounds = [
        ("Bob", {"Ann": "12", "Cy": "30"}),
        ("Cy", {"Ann": "10+5+5", "Bob": "15"}),
        ("Ann", {"Bob": "5", "Cy": "8"}),
    ]
    for number, (went_out, scores) in enumerate(rounds, start=1):
        expect(page.locator("#entry-h")).to_have_text(f"Enter round {number} scores")
        expect(page.locator("#missing")).to_contain_text("who went out")
        # The browser refuses to submit a round with missing entries.
        form_url = page.url
        page.get_by_role("button", name=f"Save round {number}").click()
        expect(page.locator("input:invalid").first).to_be_visible()
        assert page.url == form_url
        page.locator("label.radio", has_text=went_out).click()
        expect(page.get_by_role("textbox", name=went_out, exact=True)).to_have_value("0")
        for name, points in scores.items():
            page.get_by_role("textbox", name=name, exact=True).fill(points)
        if "+" in scores.get("Ann", ""):
            expect(page.locator("#scores-0-sum")).to_have_text("= 20")
        expect(page.locator("#missing")).to_have_text("")
        check_phone_layout(page, TAP_TARGETS)
        if number == 2:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "round-form.png"), full_page=True)
        page.get_by_role("button", name=f"Save round {number}").click()
        expect(page.locator("#standings")).to_be_visible()
        expect(page.locator("#round-h")).to_contain_text(f"Round {number + 1}")
        assert "/rounds/new" not in page.url

    expect(page.locator("#round-h")).to_contain_text("Round 4")
    standings = page.locator(".standings li")
    expect(standings.nth(0)).to_contain_text("Bob")
    expect(standings.nth(0)).to_contain_text("leader")
    expect(standings.nth(0)).to_contain_text("20")
    expect(page.locator(".grid tfoot")).to_contain_text("32")
    expect(page.locator(".grid tfoot")).to_contain_text("38")

    # Correct round 1; the old values go into the history.
    page.get_by_role("link", name="Correct round 1").click()
    page.locator("#correction").get_by_role("textbox", name="Cy", exact=True).fill("25")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#history")).to_contain_text("Round 1 corrected")
    expect(page.locator("#round-1")).to_be_in_viewport()  # in place (issue 27): the eye on the corrected row
    expect(page.locator(".grid tfoot")).to_contain_text("33")
    check_phone_layout(page, TAP_TARGETS)
    assert errors == []

    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(page.url.split("#")[0])
    page.screenshot(path=str(ARTIFACTS / "game.png"), full_page=True)

    # Another phone at the table sees the standings, without edit controls.
    viewer = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")  # type: ignore[attr-defined]
    watching = viewer.new_page()
    watching.goto(page.url)
    expect(watching.locator(".note")).to_contain_text("View only")
    expect(watching.locator("#standings")).to_contain_text("Bob")
    assert watching.locator("#round-entry").count() == 0
    assert watching.get_by_role("button", name="Undo round 3").count() == 0
    background = watching.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(11, 11, 11)"
    watching.screenshot(path=str(ARTIFACTS / "game-dark-viewer.png"), full_page=True)
    viewer.close()
    context.close()
    assert (ARTIFACTS / "game.png").stat().st_size > 10_000
    if os.environ.get("UPDATE_SCREENSHOT"):
        shutil.copyfile(ARTIFACTS / "game.png", ROOT / "docs" / "screenshot.png")
