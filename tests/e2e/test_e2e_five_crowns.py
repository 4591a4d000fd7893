"""A whole 4-player game of Five Crowns (issue 29) through the pages on a 360×740 phone: started on
the new-game page, eleven rounds typed on the game page, one scored from the cards with the card
picker's stars, the checker, the rules page and the score sheet; axe-core finds nothing serious
or critical on any of them.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import PHONE, serious_violations, small_tap_targets
from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TAP_TARGETS = (
    "a.button, button, select, textarea, label.radio, label.check, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)
TRADEMARK = "Five Crowns® is a trademark of its publisher; this companion is not affiliated."
WILD_WORDS = {1: "Threes", 4: "Sixes", 9: "Jacks", 11: "Kings"}
CARDS_ROUND = 3  # scored from the cards: 5s wild, five cards each


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True, bypass_csp=True)  # for axe
    try:
        yield context.new_page()
    finally:
        context.close()


def typed_round(number: int) -> tuple[str, dict[str, str]]:
    """Who goes out in round `number` and what the others typed: a pattern the totals can follow."""
    went_out = PLAYERS[number % 4]
    others = [name for name in PLAYERS if name != went_out]
    return went_out, {name: str((number * (seat + 3)) % 40) for seat, name in enumerate(others)}


def enter_round(page: Any, number: int, went_out: str, points: dict[str, str]) -> None:
    from playwright.sync_api import expect

    form = page.locator("#round-entry")
    expect(page.locator("#entry-h")).to_have_text(f"Enter round {number} scores")
    form.locator("label.radio", has_text=went_out).first.click()
    for name, value in points.items():
        form.get_by_role("textbox", name=name, exact=True).fill(value)
    form.get_by_role("button", name=f"Save round {number}").click()
    if number < 11:
        expect(page.locator("#round-h")).to_contain_text(f"Round {number + 1}")
    else:  # the last save must be stored before the test reads the game through the API
        expect(page.locator("#standings-h")).to_have_text("Final standings")


def fits_a_phone(page: Any) -> None:
    """Nothing wider than the phone, every tap target at least 44 px tall (what is not, named)."""
    assert small_tap_targets(page, TAP_TARGETS) == [], page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def no_serious_violations(page: Any) -> None:
    assert serious_violations(page) == [], page.url


def test_a_whole_game_of_five_crowns_on_a_phone(phone: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    page = phone
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # The new-game page: the game, its trademark line, its house rules.
    page.goto(f"{base_url}/games/new")
    page.get_by_role("link", name="Five Crowns 2–7 players").click()
    expect(page.locator(".trademark")).to_have_text(TRADEMARK)
    page.locator("details.options:not(.pot-options) summary").click()
    house_rules = page.locator("details.options:not(.pot-options) .option")
    expect(house_rules).to_have_count(6)  # the house rules of RULES.md 10.6
    no_serious_violations(page)
    fits_a_phone(page)
    page.get_by_label("Players, in seat order").fill("\n".join(PLAYERS))
    page.select_option("#first_dealer", "0")
    page.get_by_role("button", name="Start the game").click()

    # Round 1's panel: three cards, Threes and jokers wild, the stars among the suits a wild 3 may be.
    expect(page.locator("#round-h")).to_contain_text("Round 1")
    expect(page.locator("#round .facts.brief")).to_contain_text("3 cards each")
    expect(page.locator("#round .facts.brief")).to_contain_text(WILD_WORDS[1])
    star = page.locator("#round .suit.star").first
    red = page.locator("#round .suit.red").first
    assert star.text_content() == "★"
    assert star.evaluate("el => getComputedStyle(el).color") not in (
        red.evaluate("el => getComputedStyle(el).color"),
        page.evaluate("getComputedStyle(document.body).color"),
    )
    no_serious_violations(page)
    fits_a_phone(page)
    game_id = page.url.rsplit("/", 1)[1].split("#")[0]

    expected = dict.fromkeys(PLAYERS, 0)
    for number in range(1, 12):
        if number == CARDS_ROUND:
            score_from_the_cards(page, number)
            for name, points in {"Ann": 0, "Bob": 0, "Cy": 37, "Dee": 0}.items():
                expected[name] += points
            continue
        went_out, points = typed_round(number)
        if number in WILD_WORDS:
            expect(page.locator("#round .facts.brief")).to_contain_text(WILD_WORDS[number])
        enter_round(page, number, went_out, points)
        for name, value in points.items():
            expected[name] += int(value)

    status, state = call(base_url, "GET", f"/api/games/{game_id}")
    assert status == 200 and state["finished"] is True
    assert state["totals"] == expected
    best = min(expected.values())
    assert state["winners"] == [name for name in PLAYERS if expected[name] == best]
    expect(page.locator("#standings")).to_contain_text(state["winners"][0])
    no_serious_violations(page)

    # The checker: a book of Queens with a wild 8 in round 6.
    page.goto(f"{base_url}/games/{game_id}/check?round=6")
    page.get_by_label("Meld 1").fill("8S QS QR")
    page.get_by_role("button", name="Check the melds").click()
    expect(page.locator("#result")).to_contain_text("8♠ Q♠ Q★ legal set")
    no_serious_violations(page)

    # The rules page in words, and the score sheet.
    page.goto(f"{base_url}/rules/five-crowns")
    expect(page.locator("main")).to_contain_text(TRADEMARK)
    no_serious_violations(page)
    page.goto(f"{base_url}/games/{game_id}/sheet")
    expect(page.locator("body")).to_contain_text("Five Crowns")
    no_serious_violations(page)
    assert errors == []


def score_from_the_cards(page: Any, number: int) -> None:
    """Round `number` scored from the cards: Ann goes out; Bob's hand is picked with the card picker."""
    from playwright.sync_api import expect

    page.get_by_role("link", name=f"Score round {number} from the cards").click()
    expect(page.locator("h1")).to_contain_text(f"Round {number} from the cards")
    page.locator("label.radio", has_text="Ann").first.click()
    bob = page.locator("[data-player-seat='1']")
    bob.locator("summary").click()
    panel = bob.locator(".cp-panel")
    expect(panel.locator(".cp-suit:visible")).to_have_count(5)
    expect(panel.locator("[data-rank=A]")).to_be_hidden()
    expect(panel.locator("[data-rank='2']")).to_be_hidden()
    panel.locator("[data-suit=R]").click()  # stars, sticky: 7★ 8★ 9★, then a wild 5 and a joker
    for rank in ("7", "8", "9"):
        panel.locator(f"[data-rank='{rank}']").click()
    panel.locator("[data-suit=H]").click()
    panel.locator("[data-rank='5']").click()
    panel.locator("[data-action=joker]").click()
    expect(page.locator("#hand-1")).to_have_value("7R 8R 9R 5H JK")
    no_serious_violations(page)
    cy = page.locator("[data-player-seat='2']")
    cy.locator("summary").click()
    page.locator("#hand-2").fill("3★ 6♠ KH 7C 8D")  # typed, symbols and all: 3 + 6 + 13 + 7 + 8
    page.locator("[data-player-seat='3'] summary").click()
    page.locator("#hand-3").fill("JK 5S 10D 10R 10H")  # a book of Tens and a wild pair: 0
    expect(page.locator("#best-2")).to_contain_text("37")
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator("#round-h")).to_contain_text(f"Round {number + 1}")
