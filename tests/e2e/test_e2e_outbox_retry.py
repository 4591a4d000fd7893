"""The outbox honours a 503's Retry-After (issue 24), in headless Chromium at 360×740 with touch.

A round saved while the server answers 503 with Retry-After waits that long before it is sent again:
the page says so, nothing is sent before it (coming online again or the page becoming visible does
not hurry it), and the round is stored once afterwards without a tap. Uses /usr/bin/chromium.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser import HeldRequests
from tests.e2e.test_e2e_never_lose import PHONE, RESEND_WAIT_MS, _box, _game, _join, _save_round, _state, phones

pytestmark = pytest.mark.browser
__all__ = ["phones"]  # the fixture, shared

COUNT_POSTS = """
window.__posts = 0;
const sendFetch = window.fetch;
window.fetch = function (address, options) {
  if (String(address).endsWith("/rounds") && options && options.method === "POST") { window.__posts += 1; }
  return sendFetch.apply(this, arguments);
};
"""


def _busy_first(seconds: int) -> Any:
    """A route handler that answers the first write 503 with Retry-After, and lets the rest through."""
    answered: list[int] = []

    def handle(route: Any) -> None:
        if route.request.method == "POST" and not answered:
            answered.append(1)
            body = {"error": "the database is busy; try again in a moment"}
            route.fulfill(
                status=503,
                headers={"Retry-After": str(seconds), "Content-Type": "application/json"},
                body=json.dumps(body),
            )
        else:
            route.continue_()

    return handle


def test_a_503_with_retry_after_holds_the_resend_then_stores_the_round_once(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones()
    page.add_init_script(COUNT_POSTS)
    _join(page, base_url, game)
    page.route("**/api/games/*/rounds", _busy_first(2))
    _save_round(page, 1, "Ann", {"Ann": "0", "Bob": "7", "Cy": "8", "Dee": "9"})
    expect(page.locator("#outbox")).to_contain_text(
        "Round 1: waiting to send — the server is busy; trying again in 2 s"
    )
    # Coming online or visible again does not send before the pause the server asked for.
    posts = page.evaluate(
        "() => { window.dispatchEvent(new Event('online'));"
        " document.dispatchEvent(new Event('visibilitychange')); return window.__posts; }"
    )
    assert posts == 1
    # After it the round is sent again by itself, with the same key, and stored once.
    expect(page.locator("#round-h")).to_contain_text("Round 2", timeout=RESEND_WAIT_MS)
    expect(page.locator("#outbox")).to_be_empty()
    assert page.evaluate("window.__posts") == 2
    assert [played["scores"]["Dee"] for played in _state(base_url, game)["rounds"]] == [9]
    assert _box(page, game) == []


def test_a_round_saved_before_the_last_ones_page_comes_is_typed_against_the_version_it_made(
    browser: Any, base_url: str
) -> None:
    """Round 1 is stored, the page that shows it is held on its way; round 2, typed and saved meanwhile,
    is stored too (it used to meet a 409 of this phone's own making)."""
    from playwright.sync_api import expect

    game = _game(base_url)
    context = browser.new_context(**PHONE, service_workers="block")  # the page's own fetches, held below
    page = context.new_page()
    _join(page, base_url, game)
    held = HeldRequests(page, f"{base_url}/games/{game['id']}")
    with page.expect_request(lambda request: request.url.endswith(f"/games/{game['id']}")):
        _save_round(page, 1, "Ann", {"Ann": "0", "Bob": "7", "Cy": "8", "Dee": "9"})  # stored, its page asked for
    with page.expect_response(lambda response: response.url.endswith("/rounds")) as answered:
        _save_round(page, 2, "Bob", {"Ann": "4", "Bob": "0", "Cy": "5", "Dee": "6"})
    assert answered.value.status == 201
    held.release()
    expect(page.locator("#entry-h")).to_have_text("Enter round 3 scores")
    assert [played["scores"]["Dee"] for played in _state(base_url, game)["rounds"]] == [9, 6]
    context.close()
