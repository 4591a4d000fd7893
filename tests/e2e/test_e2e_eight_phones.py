"""Eight phones, one game, in headless Chromium (360×740): every phone enters and corrects rounds.

The eight phones share the game's edit key (the cookie the starting phone keeps, copied into
each browser context). Two of them save a correction of the same round from the same version:
the second is shown the current values beside its own entries, and saves again. At the end every phone
reloads and shows the same totals, the same score grid and the same history, matching the API.

The server is the tests' app (SQLite, or PostgreSQL with TEST_DATABASE_URL) behind werkzeug's
threaded server. Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.servers import call, threaded_server

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
PHONES = 8

pytestmark = pytest.mark.browser


def fill_round(page: Any, went_out: str, scores: dict[str, int]) -> None:
    page.locator("label.radio", has_text=went_out).click()
    for name, points in scores.items():
        if name != went_out:
            page.get_by_role("textbox", name=name, exact=True).fill(str(points))


def round_scores(phone: int, round_number: int, went_out: str) -> dict[str, int]:
    return {name: 0 if name == went_out else phone + 3 * round_number + seat for seat, name in enumerate(PLAYERS)}


def test_eight_phones_enter_and_correct_rounds_and_agree(browser: Any, app: Flask) -> None:
    from playwright.sync_api import expect

    with threaded_server(app) as base_url:
        status, game = call(
            base_url, "POST", "/api/games", {"variant": "pay-me", "players": PLAYERS, "first_dealer": "Ann"}
        )
        assert status == 201, game
        game_url = f"{base_url}/games/{game['id']}"
        phones = []
        for _ in range(PHONES):
            context = browser.new_context(viewport={"width": 360, "height": 740})
            context.add_cookies(
                [{"name": "edit_key", "value": game["edit_key"], "domain": "127.0.0.1", "path": f"/games/{game['id']}"}]
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            phones.append(page)
        expected: dict[int, dict[str, int]] = {}

        # Each phone enters one round: phone k scores round k + 1.
        for phone, page in enumerate(phones):
            number = phone + 1
            went_out = PLAYERS[phone % len(PLAYERS)]
            page.goto(f"{game_url}/rounds/new")
            expect(page.get_by_role("button", name=f"Save round {number}")).to_be_visible()
            scores = round_scores(phone, number, went_out)
            fill_round(page, went_out, scores)
            page.get_by_role("button", name=f"Save round {number}").click()
            expect(page.locator("#round-h")).to_contain_text(f"Round {number + 1}")
            expected[number] = scores

        # Two phones correct round 2 from the same version: the second one is told, reloads, saves again.
        first, second = phones[0], phones[1]
        for page in (first, second):
            page.goto(f"{game_url}/rounds/2/edit")
        first.get_by_role("textbox", name="Cy", exact=True).fill("41")
        first.get_by_role("button", name="Save correction").click()
        expect(first.locator("#history")).to_contain_text("Round 2 corrected")
        expected[2]["Cy"] = 41
        second.get_by_role("textbox", name="Di", exact=True).fill("42")
        second.get_by_role("button", name="Save correction").click()
        alert = second.get_by_role("alert")
        expect(alert).to_contain_text("another phone changed this game meanwhile")
        expect(alert).to_contain_text("Cy 41")  # the current values are shown
        expect(second.get_by_role("textbox", name="Di", exact=True)).to_have_value("42")  # its own entry is kept
        second.get_by_role("textbox", name="Cy", exact=True).fill("41")
        second.get_by_role("button", name="Save correction").click()
        expect(second.locator("#history")).to_contain_text("Round 2 corrected")
        expected[2]["Di"] = 42
        corrections = 2

        # Every other phone corrects one round.
        for phone, page in enumerate(phones[2:], start=2):
            number = (phone + 3) % PHONES + 1
            went_out = next(name for name, points in expected[number].items() if points == 0)
            name = next(name for name in PLAYERS if name != went_out)
            page.goto(f"{game_url}/rounds/{number}/edit")
            page.get_by_role("textbox", name=name, exact=True).fill(str(30 + phone))  # within round 1's 45
            page.get_by_role("button", name="Save correction").click()
            expect(page.locator("#history")).to_contain_text(f"Round {number} corrected")
            expected[number][name] = 30 + phone
            corrections += 1

        state = call(base_url, "GET", f"/api/games/{game['id']}")[1]
        assert [item["scores"] for item in state["rounds"]] == [expected[number] for number in sorted(expected)]
        totals = [str(state["totals"][name]) for name in PLAYERS]

        # Every phone reloads and shows the same standings and the complete history.
        seen = set()
        for page in phones:
            page.goto(game_url)
            footer = page.locator(".grid tfoot td").all_inner_texts()
            assert footer == totals
            history = page.locator("#history li").all_inner_texts()
            assert sum("corrected" in entry for entry in history) == corrections
            seen.add((tuple(footer), page.locator(".grid tbody").inner_text(), tuple(history)))
        assert len(seen) == 1, "the eight phones disagree"
        for page in phones:
            page.context.close()
