"""The 3-13 second-discard steppers at a 360×740 phone keep working after a round is saved in place
(issue 13): the round form is swapped in by script, and its +/− buttons must still count.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy"]


def test_the_steppers_work_after_a_round_is_saved_in_place(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    status, game = call(base_url, "POST", "/api/games", {"variant": "3-13", "players": PLAYERS, "first_dealer": "Ann"})
    assert status == 201, game
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
        expect(page.locator("#entry-h")).to_have_text("Enter round 1 scores")

        def play(number: int, pickups: dict[str, int]) -> None:
            page.locator("label.radio", has_text="Ann").click()
            page.get_by_role("textbox", name="Bob", exact=True).fill("4")
            page.get_by_role("textbox", name="Cy", exact=True).fill("6")
            for name, count in pickups.items():
                for _ in range(count + 1):
                    page.get_by_role("button", name=f"One more for {name}").click()
                page.get_by_role("button", name=f"One fewer for {name}").click()
                expect(page.get_by_role("spinbutton", name=name, exact=True)).to_have_value(str(count))
            page.get_by_role("button", name=f"Save round {number}").click()
            expect(page.locator("#entry-h")).to_have_text(f"Enter round {number + 1} scores")  # saved in place

        play(1, {"Bob": 1})
        play(2, {"Bob": 2, "Cy": 1})  # the steppers of the form swapped in after round 1
        play(3, {"Cy": 3})
        assert errors == []
    finally:
        context.close()

    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    ledger = state["pot"]["ledger"]
    taken = [(item["round"], item["player"], item["amount"]) for item in ledger if item["kind"] == "second_discard"]
    each = state["options"]["second_discard"]
    assert sorted(taken) == [(1, "Bob", each), (2, "Bob", 2 * each), (2, "Cy", each), (3, "Cy", 3 * each)]
