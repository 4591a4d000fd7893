"""Two deals of Contract Rummy on a 360×740 phone (issue 15): the contract of each deal, the buy
counter (+1 / -1 without a page load, a buy past the limit refused in words), the exact cut, and
the standings after each deal.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**PHONE)
    try:
        yield context.new_page()
    finally:
        context.close()


def _state(base_url: str, game: dict[str, Any]) -> dict[str, Any]:
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    return dict(state)


# The size of a buy button, read in one step: the page swaps <main> after each tap, so a button found
# a moment earlier may be gone by the time it is measured (Playwright's bounding_box then gives None).
_BUTTON_SIZE = """(label) => {
  const button = Array.from(document.querySelectorAll('#buys button')).find(b => b.ariaLabel.endsWith(label));
  const box = button.getBoundingClientRect();
  return [box.width, box.height];
}"""


def _tap_buy(page: Any, name: str, more: bool = True) -> None:
    label = f"one buy {'more' if more else 'less'} for {name}"
    width, height = page.evaluate(_BUTTON_SIZE, label)
    assert width >= 44 and height >= 44, (width, height)  # a finger-sized target
    page.get_by_role("button", name=label).click()


def _enter_deal(page: Any, went_out: str, points: dict[str, str], cutter: str | None = None) -> None:
    form = page.locator("#round-entry")
    form.locator("fieldset").nth(0).locator("label.radio", has_text=went_out).click()
    for name, value in points.items():
        form.get_by_role("textbox", name=name, exact=True).fill(value)
    if cutter:
        form.locator("fieldset.exact-cut label.radio", has_text=cutter).click()
    form.get_by_role("button", name="Save deal").click()


def test_two_deals_with_buys_and_an_exact_cut_on_a_phone(phone: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    body = {"variant": "contract-rummy", "players": PLAYERS, "first_dealer": "Ann", "options": {"exact_cut": True}}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    page = phone
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)

    # Deal 1: two sets, ten cards each.
    expect(page.locator("#contract")).to_contain_text("Contract: two sets")
    expect(page.locator("#round .more-facts .fan.fan-set")).to_have_count(2)  # one tap away (issue 27)
    expect(page.locator("#round .facts.brief")).to_contain_text("10 cards each")
    row = page.locator(".buy-row[data-player=Bob]")
    for _ in range(3):
        _tap_buy(page, "Bob")
    expect(row.locator(".buy-count")).to_have_text("3 of 3")
    _tap_buy(page, "Bob")  # one more than the limit: refused, in words
    expect(page.locator("#buy-error")).to_be_visible()
    expect(page.locator("#buy-error")).to_contain_text("Not counted:")
    expect(row.locator(".buy-count")).to_have_text("3 of 3")
    _tap_buy(page, "Bob", more=False)
    _tap_buy(page, "Dee")
    expect(row.locator(".buy-count")).to_have_text("2 of 3")
    expect(page.locator(".buy-row[data-player=Dee] .buy-count")).to_have_text("1 of 3")
    assert loads == []  # no page load for the buys

    _enter_deal(page, "Ann", {"Bob": "35", "Cy": "20", "Dee": "5"}, cutter="Cy")
    expect(page.locator("#round-h")).to_contain_text("Deal 2")
    expect(page.locator("#contract")).to_contain_text("one set and one run")
    expect(page.locator(".buy-row[data-player=Bob] .buy-count")).to_have_text("0 of 3")
    standings = page.locator(".standings li")
    expect(standings.nth(0)).to_contain_text("Cy")  # 20 - 50 for the exact cut
    expect(standings.nth(0)).to_contain_text("-30")

    # Deal 2: one set and one run.
    _tap_buy(page, "Ann")
    expect(page.locator(".buy-row[data-player=Ann] .buy-count")).to_have_text("1 of 3")
    _enter_deal(page, "Bob", {"Ann": "40", "Cy": "15", "Dee": "10"})
    expect(page.locator("#round-h")).to_contain_text("Deal 3")
    expect(page.locator("#contract")).to_contain_text("two runs")
    expect(standings.nth(0)).to_contain_text("Cy")
    expect(standings.nth(3)).to_contain_text("Ann")

    state = _state(base_url, game)
    assert state["totals"] == {"Ann": 40, "Bob": 35, "Cy": -15, "Dee": 15}
    assert [played.get("buys") for played in state["rounds"]] == [
        {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1},
        {"Ann": 1, "Bob": 0, "Cy": 0, "Dee": 0},
    ]
    assert state["rounds"][0]["exact_cut"] == "Cy"
    # The score sheet marks each deal's buys and the exact cut, and explains both below the table.
    expect(page.locator("#round-1 .cut-mark")).to_have_text("✂")
    expect(page.locator("#round-1 .buy-mark")).to_have_count(2)
    expect(page.locator("#cut-1")).to_contain_text("Cy cut exactly in deal 1: 20 for cards -50 for cutting exactly")
    expect(page.locator("#sheet-marks")).to_contain_text("+1b: one buy")
    assert errors == []


# After the page reads an answer marked stale (below), one more task: the swap, if any, has happened by then.
_MARK_STALE_READ = """(() => {
  const text = Response.prototype.text;
  Response.prototype.text = function () {
    const stale = this.headers.get("x-test-stale") === "1";
    return text.call(this).then(body => {
      if (stale) { setTimeout(() => { window.staleRead = true; }, 0); }
      return body;
    });
  };
})();"""


_SHOWN = """() => {
  const shown = {};
  document.querySelectorAll('.buy-row').forEach(row => {
    shown[row.dataset.player] = row.querySelector('.buy-count').textContent;
  });
  shown.version = document.querySelector('#buys input[name=version]').value;
  shown.now = document.body.dataset.liveVersion;
  return shown;
}"""


def test_a_page_overtaken_by_a_newer_one_is_not_swapped_in(browser: Any, base_url: str) -> None:
    """Two buys in quick succession: the page fetched after the first may come back after the page
    fetched after the second. The older page must not replace the newer one (its counts and version
    are out of date, and the next tap would be refused as a conflict)."""
    from playwright.sync_api import expect

    body = {"variant": "contract-rummy", "players": PLAYERS, "first_dealer": "Ann"}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    context = browser.new_context(**PHONE, service_workers="block")  # the page's own fetches, held below
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(_MARK_STALE_READ)
    game_url = f"{base_url}/games/{game['id']}"
    page.goto(f"{game_url}/join#key={game['edit_key']}")
    page.wait_for_url(game_url)
    stale = page.request.get(game_url, headers={"Accept": "text/html"}).text()  # no buy yet
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held or route.request.resource_type != "fetch":
            route.continue_()
            return
        held.append(route)

    page.route(game_url, hold_the_first)
    with page.expect_request(lambda request: request.url == game_url and request.resource_type == "fetch"):
        _tap_buy(page, "Bob")
    for _ in range(300):  # the route handler runs while this thread waits on the page
        if held:
            break
        page.evaluate("() => new Promise(resolve => setTimeout(resolve, 50))")
    assert held, "the page after the first buy was never held"
    _tap_buy(page, "Dee")
    expect(page.locator(".buy-row[data-player=Dee] .buy-count")).to_have_text("1 of 3")
    expect(page.locator(".buy-row[data-player=Bob] .buy-count")).to_have_text("1 of 3")

    held[0].fulfill(status=200, content_type="text/html", headers={"X-Test-Stale": "1"}, body=stale)
    page.wait_for_function("() => window.staleRead === true")
    # Read at once, not waited for: the live poll would put the right page back a few seconds later.
    shown = page.evaluate(_SHOWN)
    version = str(_state(base_url, game)["version"])
    assert shown == {
        "Ann": "0 of 3",
        "Bob": "1 of 3",
        "Cy": "0 of 3",
        "Dee": "1 of 3",
        "version": version,
        "now": version,
    }
    _tap_buy(page, "Bob")  # typed against the version shown: counted, not refused as a conflict
    expect(page.locator(".buy-row[data-player=Bob] .buy-count")).to_have_text("2 of 3")
    expect(page.locator("#buy-error")).to_be_hidden()
    assert _state(base_url, game)["buys"] == {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}
    assert errors == []
    context.close()
