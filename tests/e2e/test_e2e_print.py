"""Printing from a phone (issue 7), in headless Chromium on a 360×740 screen: two taps at most.

From the game page, one tap on "Print (A4)" reaches the PDF of the score sheet; from the home
page, "Blank sheet" then "Print blank sheet" reaches a blank sheet's PDF. The pages stay within
the screen, their tap targets are at least 44 px, and the running-totals chart draws without a
console error (the CSP allows no inline style). Uses the system Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ARTIFACTS, check_phone_layout
from tests.servers import call

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}

pytestmark = pytest.mark.browser

TAP_TARGETS = "a.button, button, summary, select, textarea, label.radio, input:not([type=hidden]):not([type=radio])"


def api(base_url: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    status, answer = call(base_url, method, path, body, key)
    assert status < 300, answer
    return answer


def _phone(browser: Any) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(**PHONE, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []

    def console(message: Any) -> None:
        # Chromium's PDF viewer asks for /favicon.ico, which the app does not serve (its icon is icon.svg).
        if message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico"):
            errors.append(f"{message.text} ({message.location.get('url')})")

    page.on("console", console)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _tap_to_pdf(page: Any, taps: list[Any]) -> Any:
    """Tap each locator in turn; the last tap must bring a PDF. Returns that response."""
    for locator in taps[:-1]:
        locator.click()
    with page.expect_response(lambda response: ".pdf" in response.url and response.status == 200) as answer:
        taps[-1].click()
    return answer.value


def test_the_game_sheet_is_one_tap_from_the_game_page(browser: Any, base_url: str) -> None:
    game = api(
        base_url, "POST", "/api/games", {"variant": "pay-me", "players": ["Ann", "Bob", "<Cy>"], "first_dealer": "Ann"}
    )
    for went_out, scores in (("Ann", {"Bob": 12, "<Cy>": 30}), ("Bob", {"Ann": 7, "<Cy>": 4})):
        api(
            base_url,
            "POST",
            f"/api/games/{game['id']}/rounds",
            {"went_out": went_out, "scores": {**scores, went_out: 0}},
            key=game["edit_key"],
        )
    context, page, errors = _phone(browser)
    page.goto(f"{base_url}/games/{game['id']}")
    chart = page.locator("#chart svg.score-chart")
    chart.scroll_into_view_if_needed()
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] <= 360 and box["height"] > 100
    assert chart.locator("polyline").count() == 3
    # The axes are drawn in the text colour, without the chart's inline <style>.
    axis = chart.locator("path.axis").first
    assert axis.evaluate("el => getComputedStyle(el).stroke") not in ("none", "")
    check_phone_layout(page, TAP_TARGETS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "game-print.png"), full_page=True)

    taps = [page.get_by_role("link", name="Print (A4)")]
    response = _tap_to_pdf(page, taps)
    assert len(taps) <= 2
    assert response.headers["content-type"] == "application/pdf"
    assert response.url.endswith(f"/games/{game['id']}/sheet.pdf?paper=a4")
    # Chromium shows the PDF in its viewer; the same address fetched again is the PDF itself.
    assert page.request.get(response.url).body().startswith(b"%PDF")

    page.goto(f"{base_url}/games/{game['id']}")
    letter = _tap_to_pdf(page, [page.get_by_role("link", name="Print (Letter)")])
    assert letter.url.endswith("paper=letter")

    # The exports sit one tap further, behind "View or export the score sheet".
    page.goto(f"{base_url}/games/{game['id']}")
    page.get_by_text("View or export the score sheet").click()
    check_phone_layout(page, TAP_TARGETS)
    with page.expect_download() as download:
        page.get_by_role("link", name="Rounds (CSV)").click()
    assert download.value.suggested_filename.endswith(".csv")
    assert errors == []
    context.close()


def test_a_blank_sheet_is_two_taps_from_the_home_page(browser: Any, base_url: str) -> None:
    context, page, errors = _phone(browser)
    page.goto(base_url + "/")
    check_phone_layout(page, TAP_TARGETS)
    taps = [page.get_by_role("link", name="Blank sheet"), page.get_by_role("button", name="Print blank sheet")]
    response = _tap_to_pdf(page, taps)
    assert len(taps) == 2
    assert response.headers["content-type"] == "application/pdf"
    assert "/sheets/pay-me.pdf?players=,,,&paper=a4" in response.url
    assert page.request.get(response.url).body().startswith(b"%PDF")
    assert errors == []
    context.close()


def test_the_blank_sheet_form_on_a_phone(browser: Any, base_url: str) -> None:
    context, page, errors = _phone(browser)
    page.goto(base_url + "/sheets")
    check_phone_layout(page, TAP_TARGETS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "blank-sheets.png"), full_page=True)
    page.select_option("#preset", "3-13")
    page.locator("label.radio", has_text="Letter").click()
    page.locator("#players").fill("Ann, Bob, Cy, Dee, Eve, Fay, Gus")
    response = _tap_to_pdf(page, [page.get_by_role("button", name="Print blank sheet")])
    assert "/sheets/3-13.pdf?players=Ann,Bob,Cy,Dee,Eve,Fay,Gus&paper=letter" in response.url
    assert response.headers["content-type"] == "application/pdf"
    assert errors == []
    context.close()
