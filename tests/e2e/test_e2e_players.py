"""Issue 27, section 3, in a real browser (headless Chromium, 360×740, touch): a misspelt name fixed,
a late player seated with the highest total, and a player taken out, all through the game page's
Players panel; the history lists each change, the 3-13 pot collected the late player's ante, the
panel's targets are at least 44 px, and axe finds nothing serious or critical, light or dark."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import check_phone_layout, serious_violations
from tests.servers import call

pytestmark = pytest.mark.browser


def test_rename_add_and_remove_through_the_players_panel(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    body = {"variant": "3-13", "players": ["Ann", "Bbo", "Cy"], "first_dealer": "Ann"}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    scores = {"went_out": "Ann", "scores": {"Ann": 0, "Bbo": 20, "Cy": 5}, "second_discards": {"Bbo": 1}}
    status, first = call(base_url, "POST", f"/api/games/{game['id']}/rounds", scores, game["edit_key"])
    assert status == 201, first
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True, is_mobile=True, bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")

    panel = page.locator("#players")
    expect(page.locator("#rename-form")).to_have_count(0)  # the forms come when the panel opens (a light page)
    panel.locator("summary").tap()  # one tap opens it
    expect(page.get_by_label("Right name")).to_be_visible()
    targets = "#players summary, #players button, #players input:not([type=radio]), #players select, #players .radio"
    check_phone_layout(page, targets)
    page.get_by_label("Player", exact=True).select_option("Bbo")
    page.get_by_label("Right name").fill("Bob")
    page.get_by_role("button", name="Rename").tap()
    page.wait_for_url(f"{base_url}/games/{game['id']}#players")
    expect(page.locator("#standings")).to_contain_text("Bob")
    expect(page.locator("#standings")).not_to_contain_text("Bbo")

    page.locator("#players summary").tap()
    page.get_by_label("Name", exact=True).fill("Eve")
    page.locator("#add-form label.radio", has_text="The highest total (20)").tap()
    page.get_by_role("button", name="Add player").tap()
    page.wait_for_url(f"{base_url}/games/{game['id']}#players")
    expect(page.locator("#standings")).to_contain_text("Eve")
    expect(page.locator("#round")).to_contain_text("Eve")  # she plays first, left of the dealer

    page.locator("#players summary").tap()
    page.get_by_label("Player who leaves").select_option("Cy")
    page.get_by_role("button", name="Take out").tap()
    page.wait_for_url(f"{base_url}/games/{game['id']}#players")
    expect(page.locator("#standings li", has_text="Cy")).to_contain_text("left")

    page.locator("#players summary").tap()
    history = page.locator("#player-history")
    expect(history).to_contain_text("Bbo was renamed Bob")
    expect(history).to_contain_text("Eve joined before round 2, starting from 20 points (the highest total")
    expect(history).to_contain_text("Cy left before round 2")
    status, now = call(base_url, "GET", f"/api/games/{game['id']}")
    assert now["players"] == ["Ann", "Bob", "Eve"]
    assert now["left"] == ["Cy"]
    assert now["pot"]["balance"] == first["pot"]["balance"] + 50
    assert {"round": None, "player": "Eve", "kind": "ante", "amount": 50} in now["pot"]["ledger"]
    assert now["next_round"]["dealer"] == "Bob"

    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert serious_violations(page) == [], scheme

    page.get_by_role("button", name="Undo: Cy left before round 2").tap()
    page.wait_for_url(f"{base_url}/games/{game['id']}#players")
    expect(page.locator("#standings li", has_text="Cy")).not_to_contain_text("left")
    assert errors == []
    context.close()
