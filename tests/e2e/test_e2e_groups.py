"""End to end in headless Chromium (360×740): a group is started on one phone, its key is handed to a
second phone by the join link, each phone plays a short game in the group, and the group page shows both.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

ROUNDS = 11


def phone(browser: Any) -> Any:
    return browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1).new_page()


def play_game(page: Any, went_out: str, scores: dict[str, str]) -> None:
    """Score every round of the game on the page: `went_out` goes out, the others score `scores`."""
    from playwright.sync_api import expect

    for number in range(1, ROUNDS + 1):
        # The next round's taps come as soon as the form moves on, as a person's do: the saved round's
        # page, swapped in a moment later, leaves the form being typed where it is (it used to move it
        # down, and a tap in that moment missed).
        expect(page.locator("#entry-h")).to_have_text(f"Enter round {number} scores")
        page.locator("label.radio", has_text=went_out).click()
        for name, points in scores.items():
            page.get_by_role("textbox", name=name, exact=True).fill(points)
        page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator("#result")).to_be_visible()


def test_two_phones_play_two_games_in_a_group_and_the_group_page_follows(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    first = phone(browser)
    errors: list[str] = []
    first.on("pageerror", lambda error: errors.append(str(error)))
    first.goto(base_url + "/")
    first.get_by_role("link", name="New group").click()
    first.get_by_label("Name of the group").fill("Thursday night")
    first.get_by_label("Players, one name per line").fill("Ann\nBob")
    first.get_by_role("button", name="Start the group").click()
    expect(first.get_by_role("heading", name="Thursday night")).to_be_visible()
    group_url = first.url

    # The second phone takes the group's key from the join link (its QR code on the first phone).
    first.locator("#share-edit summary").click()
    join_link = urlsplit(first.locator("#share-edit .share-url").inner_text().strip())
    second = phone(browser)
    second.on("pageerror", lambda error: errors.append(str(error)))
    assert join_link.fragment.startswith("key=") and not join_link.query  # the key never reaches a server log
    second.goto(f"{base_url}{join_link.path}#{join_link.fragment}")
    expect(second.get_by_role("heading", name="Start a game in this group")).to_be_visible()
    assert "#" not in second.url and "key" not in second.url

    # First phone: Pay Me, Ann and Bob; Ann goes out every round, Bob scores 5.
    first.get_by_label("Game", exact=True).select_option("pay-me")
    first.get_by_role("button", name="Start the game").click()
    play_game(first, "Ann", {"Bob": "5"})
    first.locator("#game-group").get_by_role("link", name="Thursday night").click()  # back to the group
    expect(first).to_have_url(group_url)
    expect(first.locator("#standings tbody tr").nth(0)).to_contain_text("Ann")
    expect(first.locator("#finished-games")).to_contain_text("won by Ann")

    # Second phone: Three Thirteen with a new player, Cy, who joins the group; Bob wins.
    second.get_by_label("Game", exact=True).select_option("three-thirteen")
    second.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    second.get_by_role("button", name="Start the game").click()
    play_game(second, "Bob", {"Ann": "3", "Cy": "7"})

    first.reload()
    expect(first.locator(".lead")).to_contain_text("Ann, Bob, Cy")
    expect(first.locator("#finished-games li")).to_have_count(2)
    expect(first.locator("#finished-games")).to_contain_text("won by Bob")
    rows = first.locator("#standings tbody tr")
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(rows.nth(0).locator("td").nth(0)).to_have_text("2")  # Ann played both games
    expect(rows.nth(2)).to_contain_text("Cy")
    expect(first.locator("#head-to-head tbody tr").nth(0)).to_contain_text("1–1–0")  # Ann against Bob
    expect(first.locator("#ratings li")).to_have_count(3)
    expect(first.locator("figure.page-chart svg")).to_be_visible()
    assert errors == []


def test_without_script_the_group_key_is_pasted_into_the_join_page(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    from tests.servers import call

    status, group = call(base_url, "POST", "/api/groups", {"name": "Family", "players": ["Ann", "Bob"]})
    assert status == 201, group
    page = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False).new_page()
    try:
        page.goto(f"{base_url}/groups/{group['id']}/join#key={group['edit_key']}")  # nothing takes the fragment
        page.get_by_label("Group key").fill("not the key")
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_role("alert")).to_contain_text("This key does not work for this group")
        page.get_by_label("Group key").fill(group["edit_key"])
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_role("heading", name="Start a game in this group")).to_be_visible()
        assert page.url == f"{base_url}/groups/{group['id']}"
    finally:
        page.context.close()
