"""A whole 5-player game of Pool Rummy 101 (issue 30) through the pages on a 360×740 touch phone: started
on the new-game page with a buy-in of 5.00, every deal entered on the pool page with the cut grid and
one tap a player (a count typed where a player counted), two rejoins taken from the page's offer, a
rejoin refused by the cutoff and said so, then "Split the pot" by drops left ending the game with each
player's net. A deal costs at most players + 2 taps (and the digits of its counts), without a page
load; axe-core finds nothing serious or critical on the new pages; the totals, the pot and the nets
are read back through the API.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import PHONE, serious_violations, small_tap_targets
from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Asha", "Ben", "Cy", "Dee", "Eve"]
TAP_TARGETS = (
    "a.button, button, select, textarea, label.radio, label.check, #deal-entry label, details.why > summary, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)
# Each deal: the cut tapped on the grid, then each player still in: a result tapped or a count typed.
DEALS: list[tuple[str, dict[str, str]]] = [
    ("7", {"Asha": "Won", "Ben": "70", "Cy": "Drop", "Dee": "30", "Eve": "Middle"}),
    ("Printed joker", {"Asha": "35", "Ben": "Middle", "Cy": "Won", "Dee": "Drop", "Eve": "10"}),
    ("Q", {"Asha": "20", "Ben": "Won", "Cy": "30", "Dee": "Full", "Eve": "Drop"}),
    ("2", {"Asha": "Won", "Ben": "85", "Cy": "Drop", "Dee": "5", "Eve": "30"}),
]
# Totals after each deal (and its rejoin): Ben is out after deal 2 and rejoins at 51 (the highest still
# in is 50); Dee is out after deal 3 and rejoins at 71; Ben's 85 scores 80 in deal 4 and puts him out
# again while Eve's 100 is above the cutoff of 79: no rejoin.
TOTALS = [
    {"Asha": 0, "Ben": 70, "Cy": 20, "Dee": 30, "Eve": 40},
    {"Asha": 35, "Ben": 51, "Cy": 20, "Dee": 50, "Eve": 50},
    {"Asha": 55, "Ben": 51, "Cy": 50, "Dee": 71, "Eve": 70},
    {"Asha": 55, "Ben": 131, "Cy": 70, "Dee": 76, "Eve": 100},
]
REJOINS = {2: ("Ben", 51), 3: ("Dee", 71)}
# The split by drops: drops left Asha 2, Cy 1, Dee 1, Eve 0; one buy-in (5.00) a drop above the fewest,
# then the 15.00 left shared equally among the four.
SHARES = {"Asha": 1375, "Cy": 875, "Dee": 875, "Eve": 375}
PAID = {"Asha": 500, "Ben": 1000, "Cy": 500, "Dee": 1000, "Eve": 500}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True, bypass_csp=True)  # for axe
    try:
        yield context.new_page()
    finally:
        context.close()


def fits_a_phone(page: Any) -> None:
    """Nothing wider than the phone, every tap target at least 44 px tall (what is not, named)."""
    assert small_tap_targets(page, TAP_TARGETS) == [], page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def no_serious_violations(page: Any) -> None:
    assert serious_violations(page) == [], page.url


class Taps:
    """The clicks a test makes on the page, counted."""

    def __init__(self) -> None:
        self.count = 0

    def click(self, locator: Any) -> None:
        self.count += 1
        locator.click()


def enter_deal(page: Any, number: int, cut: str, results: dict[str, str]) -> int:
    """Deal `number` entered on the page: the cut, a tap or a count for each player; the taps it took."""
    from playwright.sync_api import expect

    taps = Taps()
    form = page.locator("#deal-entry")
    expect(page.locator("#deal-h")).to_contain_text(f"Deal {number}")
    taps.click(form.locator(".cut-grid label", has_text=cut).first)
    for name, result in results.items():
        row = form.locator(f".player-result[data-player='{name}']")
        if result.isdigit():
            taps.click(row.locator("input.count"))
            page.keyboard.type(result)
        else:
            taps.click(row.locator("label", has_text=result))
    expect(form.locator("#deal-missing")).to_have_text("")
    taps.click(form.get_by_role("button", name=f"Save deal {number}"))
    return taps.count


def standings(page: Any) -> dict[str, int]:
    rows = page.locator(".pool-standings tbody tr")
    return {
        rows.nth(index).get_attribute("data-player"): int(rows.nth(index).locator("td.total").inner_text())
        for index in range(rows.count())
    }


def test_a_whole_game_of_pool_101_on_a_phone(phone: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    page = phone
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))

    # The new-game page: Pool Rummy 101, its house rules in its own numbers, the buy-in as money.
    page.goto(f"{base_url}/games/new")
    page.get_by_role("link", name="Pool Rummy 101 2–6 players").click()
    page.locator("details.options summary").click()
    house_rules = page.locator("details.options")
    expect(house_rules).to_contain_text("Out at 101 or more")
    expect(house_rules).to_contain_text("Rejoin only while the highest total still in is at most 79")
    no_serious_violations(page)
    fits_a_phone(page)
    page.get_by_label("Players, in seat order").fill("\n".join(PLAYERS))
    page.locator("#way-chosen").check()
    page.select_option("#first_dealer", "0")
    page.get_by_label("Buy-in, each player").fill("5.00")
    page.get_by_role("button", name="Start the game").click()

    expect(page.locator("h1")).to_have_text("Pool Rummy 101")
    expect(page.locator("#pot")).to_have_text("$25.00")
    game_id = page.url.split("/games/", 1)[1].split("/", 1)[0]
    no_serious_violations(page)
    fits_a_phone(page)

    for number, (cut, results) in enumerate(DEALS, start=1):
        loads.clear()
        taps = enter_deal(page, number, cut, results)
        assert taps <= len(results) + 2, f"deal {number} took {taps} taps"
        expected = TOTALS[number - 1]
        expect(page.locator(f"#deal-{number}")).to_be_visible()  # the save landed and the page followed
        if number in REJOINS:
            name, total = REJOINS[number]
            offer = page.locator(f".offer[data-player='{name}']")
            expect(offer).to_contain_text(f"{name} may rejoin at {total} for $5.00")
            expect(page.locator("#offers-h")).to_be_in_viewport(ratio=0.99)  # offered at once, where the eye lands
            no_serious_violations(page)
            fits_a_phone(page)
            offer.get_by_role("button", name=f"{name} rejoins, pays $5.00").click()
            expect(page.locator(f".pool-standings tr[data-player='{name}'] td.total")).to_have_text(str(total))
        elif number < len(DEALS):
            expect(page.locator("#deal-h")).to_contain_text(f"Deal {number + 1}")
            expect(page.locator("#deal-h")).to_be_in_viewport(ratio=0.99)  # the next deal's form in reach, unscrolled
        assert loads == []  # saved through the API: no page load
        if number < len(DEALS):
            expect(page.locator("#deal-h")).to_contain_text(f"Deal {number + 1}")
        assert standings(page) == expected or number == len(DEALS)

    # Deal 4 put Ben out again, with Eve at 100: above the cutoff, so no rejoin, and the page says why.
    expect(page.locator(".offer[data-player='Ben']")).to_contain_text(
        "the highest total still in is 100, above 79: no one may rejoin"
    )
    expect(page.locator(".offer[data-player='Ben'] button")).to_have_count(0)
    assert standings(page) == TOTALS[-1]
    page.locator("tr[data-player='Asha'] details.why").first.locator("summary").click()
    expect(page.locator("tr[data-player='Asha'] details.why").first).to_contain_text("out at 101: 101 − 55 = 46")
    page.locator("tr[data-player='Asha'] details.why").nth(1).locator("summary").click()
    expect(page.locator("tr[data-player='Asha'] details.why").nth(1)).to_contain_text("(101 − 1 − 55) ÷ 20 = 2")
    expect(page.locator("#pot")).to_have_text("$35.00")

    # Split the pot by drops left: the game ends and each player's net shows.
    page.locator("#split > summary").click()
    split = page.locator("#split-form")
    expect(split).to_contain_text("By drops left: Asha $13.75, Cy $8.75, Dee $8.75, Eve $3.75")
    no_serious_violations(page)
    fits_a_phone(page)
    split.locator("label.radio", has_text="By drops left").click()
    split.get_by_role("button", name="Split the pot and end the game").click()
    expect(page.locator("#result-h")).to_have_text("Game over")  # the save is stored before the API is read
    nets = page.locator("table.nets")
    expect(nets.locator("tr[data-player='Asha'] .net")).to_have_text("+$8.75")
    expect(nets.locator("tr[data-player='Ben'] .net")).to_have_text("-$10.00")
    no_serious_violations(page)
    fits_a_phone(page)

    status, state = call(base_url, "GET", f"/api/games/{game_id}")
    assert status == 200 and state["finished"] is True
    assert state["totals"] == TOTALS[-1]
    assert state["pot"] == 3500 and state["paid"] == PAID
    assert state["split"] == {"method": "drops", "shares": SHARES}
    assert state["nets"] == {name: SHARES.get(name, 0) - PAID[name] for name in PLAYERS}
    assert state["rejoins"] == {"Asha": 0, "Ben": 1, "Cy": 0, "Dee": 1, "Eve": 0}
    assert [deal["wild"] or deal["cut"] for deal in state["deals"]] == ["7", "JK", "Q", "2"]
    assert errors == []


def test_a_deal_being_typed_survives_a_rejoin_made_on_another_phone(phone: Any, base_url: str) -> None:
    """The table's phone is halfway through deal 3 when another phone takes Ben's rejoin: the page
    follows (Ben's row joins the form) and what was typed stays."""
    from playwright.sync_api import expect

    page = phone
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    status, game = call(
        base_url,
        "POST",
        "/api/games",
        {"variant": "pool-101", "players": ["Asha", "Ben", "Cy"], "first_dealer": "Asha", "options": {"buy_in": 500}},
    )
    assert status == 201
    key = game["edit_key"]
    for results in ({"Asha": "win", "Ben": 70, "Cy": "drop"}, {"Asha": 35, "Ben": "middle", "Cy": "win"}):
        status, _ = call(base_url, "POST", f"/api/games/{game['id']}/deals", {"results": results}, key=key)
        assert status == 201
    page.goto(f"{base_url}/games/{game['id']}/join#key={key}")
    page.wait_for_url(f"**/games/{game['id']}/pool*")
    form = page.locator("#deal-entry")
    expect(page.locator(".offer[data-player='Ben']")).to_contain_text("Ben may rejoin at 36 for $5.00")
    form.locator(".cut-grid label", has_text="5").click()
    form.locator(".player-result[data-player='Asha'] label", has_text="Drop").click()
    form.locator(".player-result[data-player='Cy'] input.count").click()
    page.keyboard.type("12")
    page.locator("#deal-h").click()  # done typing: the live update may come

    status, _ = call(base_url, "POST", f"/api/games/{game['id']}/rejoins", {"player": "Ben"}, key=key)
    assert status == 201
    expect(page.locator(".pool-standings tr[data-player='Ben'] td.total")).to_have_text("36")
    expect(form.locator(".player-result[data-player='Ben']")).to_have_count(1)
    expect(form.locator(".cut-grid input[value='5']")).to_be_checked()
    expect(form.locator(".player-result[data-player='Asha'] input[value='drop']")).to_be_checked()
    expect(form.locator(".player-result[data-player='Cy'] input.count")).to_have_value("12")

    form.locator(".player-result[data-player='Ben'] label", has_text="Won").click()
    form.get_by_role("button", name="Save deal 3").click()
    expect(page.locator("#deal-3")).to_be_visible()  # the save landed and the page followed
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert state["deals"][2]["results"] == {"Asha": "drop", "Ben": "win", "Cy": 12}
    assert state["deals"][2]["wild"] == "5"

    # Undo in place: deal 3 taken back, its form offered again, no page load.
    loads: list[str] = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo deal 3").click()
    expect(page.locator("#deal-h")).to_contain_text("Deal 3")
    expect(page.get_by_role("button", name="Undo Ben's rejoin")).to_be_visible()
    assert loads == []
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert len(state["deals"]) == 2 and state["totals"]["Ben"] == 36
    assert errors == []


def test_deals_typed_without_a_connection_are_sent_later_and_a_refused_one_comes_back(
    phone: Any, base_url: str
) -> None:
    """Wi-Fi drops: two deals go into the outbox and are sent, in order, when it returns. The first puts
    Ben out, so the second (typed with a result for Ben) is refused: it comes back into the deal form, as
    typed, with the server's sentence."""
    from playwright.sync_api import expect

    page = phone
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    status, game = call(
        base_url,
        "POST",
        "/api/games",
        {"variant": "pool-101", "players": ["Asha", "Ben", "Cy"], "first_dealer": "Asha", "options": {"buy_in": 500}},
    )
    assert status == 201
    key = game["edit_key"]
    status, _ = call(
        base_url, "POST", f"/api/games/{game['id']}/deals", {"results": {"Asha": "win", "Ben": 80, "Cy": 10}}, key=key
    )
    assert status == 201
    page.goto(f"{base_url}/games/{game['id']}/join#key={key}")
    page.wait_for_url(f"**/games/{game['id']}/pool*")
    form = page.locator("#deal-entry")
    expect(page.locator("#deal-h")).to_contain_text("Deal 2")

    page.context.set_offline(True)
    typed = ({"Asha": "Won", "Ben": "Middle", "Cy": "Drop"}, {"Asha": "Drop", "Ben": "Won", "Cy": "Middle"})
    for number, results in enumerate(typed, start=2):
        for name, result in results.items():
            form.locator(f".player-result[data-player='{name}'] label", has_text=result).click()
        form.get_by_role("button", name=f"Save deal {number}").click()
        expect(page.locator("#deal-h")).to_have_text(f"Deal {number + 1}")  # the form moves on
        expect(form.locator(".player-result input:checked")).to_have_count(0)
    expect(page.locator("#tap-outbox")).to_contain_text("Deal 2: waiting to send")
    expect(page.locator("#tap-outbox")).to_contain_text("Deal 3: waiting to send")
    page.context.set_offline(False)

    refusal = "Not saved: Ben is out of the game and has no result in this deal."
    expect(page.locator("#page-error")).to_have_text(refusal)
    expect(page.locator(".offer[data-player='Ben']")).to_contain_text("Ben may rejoin at 31 for $5.00")
    expect(form.locator(".player-result[data-player='Asha'] input[value='drop']")).to_be_checked()
    expect(form.locator(".player-result[data-player='Cy'] input[value='middle']")).to_be_checked()
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert len(state["deals"]) == 2 and state["totals"] == {"Asha": 0, "Ben": 120, "Cy": 30}
    assert errors == []
