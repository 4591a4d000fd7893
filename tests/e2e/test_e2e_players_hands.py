"""Issue 27, section 3, for Play or Pay in a real browser (360×740, touch): a late player added and a
player taken out between hands through the hand screen's Players panel; 44 px targets and no serious
or critical axe finding, light or dark."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import check_phone_layout, serious_violations
from tests.servers import call

pytestmark = pytest.mark.browser


def test_a_late_player_and_a_leaver_at_a_play_or_pay_table(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    body = {"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann"}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True, is_mobile=True, bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}/hand")

    page.locator("#change-players summary").tap()
    check_phone_layout(
        page, "#change-players summary, #change-players button, #change-players input, #change-players select"
    )
    page.get_by_label("Name", exact=True).fill("Eve")
    page.get_by_role("button", name="Add player").tap()
    page.wait_for_url(f"{base_url}/games/{game['id']}/hand#change-players")
    expect(page.locator("#players")).to_contain_text("Eve")
    page.locator("#change-players summary").tap()
    page.get_by_label("Player who leaves").select_option("Cy")
    page.get_by_role("button", name="Take out").tap()
    page.wait_for_url(f"{base_url}/games/{game['id']}/hand#change-players")
    expect(page.locator("#players")).not_to_contain_text("Cy")
    page.locator("#change-players summary").tap()
    expect(page.locator("#player-history")).to_contain_text("Eve joined before hand 1, buying the starting 20 chips")
    expect(page.locator("#player-history")).to_contain_text("Cy left before hand 1")
    status, now = call(base_url, "GET", f"/api/games/{game['id']}")
    assert now["players"] == ["Ann", "Eve", "Bob"]
    assert now["left"] == ["Cy"]
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert serious_violations(page) == [], scheme
    assert errors == []
    context.close()
