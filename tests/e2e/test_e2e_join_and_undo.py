"""Issue 16 in a real browser (headless Chromium, 360×740): joining by the key in the link's
fragment (with and without script), and an undo from the page that another phone's round beat."""

from __future__ import annotations

from typing import Any

import pytest

from tests.servers import call

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}
PLAYERS = ["Ann", "Bob", "Cy"]
HIDE = """() => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

pytestmark = pytest.mark.browser


def new_game(base_url: str) -> dict[str, Any]:
    body = {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    return dict(game)


def score(base_url: str, game: dict[str, Any], went_out: str) -> dict[str, Any]:
    scores = {name: 0 if name == went_out else 10 for name in PLAYERS}
    status, state = call(
        base_url, "POST", f"/api/games/{game['id']}/rounds", {"went_out": went_out, "scores": scores}, game["edit_key"]
    )
    assert status == 201, state
    return dict(state)


def test_a_phone_joins_by_the_key_in_the_fragment_and_the_server_never_sees_it(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = new_game(base_url)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url + " " + (request.post_data or "")))
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    expect(page.locator("#entry-h")).to_have_text("Enter round 1 scores")
    assert game["edit_key"] not in page.url
    urls = [entry.split(" ", 1)[0] for entry in sent]
    assert all(game["edit_key"] not in url for url in urls)  # only the form's body carried it
    assert any(game["edit_key"] in entry.split(" ", 1)[1] for entry in sent)
    context.close()


def test_without_script_the_join_page_asks_to_paste_the_key(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = new_game(base_url)
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    expect(page.get_by_text("Paste it here")).to_be_visible()
    page.get_by_label("Edit key").fill(game["edit_key"])
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    expect(page.locator("#entry-h")).to_have_text("Enter round 1 scores")
    context.close()


def test_an_undo_from_the_page_never_takes_back_a_round_it_did_not_show(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = new_game(base_url)
    score(base_url, game, "Bob")
    score(base_url, game, "Cy")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    expect(page.get_by_role("button", name="Undo round 2")).to_be_visible()
    page.evaluate(HIDE)  # the phone stops following (as in a pocket): its page still shows round 2 last
    score(base_url, game, "Ann")  # another phone scores round 3 meanwhile
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 2").click()
    expect(page.locator("h1")).to_have_text("Changed meanwhile")
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200 and len(state["rounds"]) == 3  # nothing was undone
    # Back on the game, the page shows round 3 last, and undoing it works.
    page.get_by_role("link", name="Back to the game").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 3").click()
    expect(page.locator("#history")).to_contain_text("Round 3 undone")
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert len(state["rounds"]) == 2
    context.close()
