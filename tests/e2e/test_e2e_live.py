"""Several phones, one game, in headless Chromium on 360×740 screens: live standings and joining.

One phone enters and corrects rounds; another sees the new standings without reloading (it asks
every 2.5 s; the tests wait for what it shows, with a bound generous enough for a loaded machine).
A third joins through the edit link of the QR code, then loses its edit rights as soon as the
first phone makes a new edit key. Uses the system Chromium (/usr/bin/chromium).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ARTIFACTS, small_tap_targets

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}
LIVE_WAIT_MS = 15_000

pytestmark = pytest.mark.browser


def phone(browser: Any, errors: list[str], **options: Any) -> Any:
    context = browser.new_context(**PHONE, **options)
    page = context.new_page()
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def enter_round(page: Any, number: int, went_out: str, scores: dict[str, str]) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#entry-h")).to_have_text(f"Enter round {number} scores")  # on the game page itself
    page.locator("label.radio", has_text=went_out).click()
    for name, points in scores.items():
        page.get_by_role("textbox", name=name, exact=True).fill(points)
    page.get_by_role("button", name=f"Save round {number}").click()
    expect(page.locator("#entry-h")).not_to_have_text(f"Enter round {number} scores")  # saved in place


def test_a_round_entered_on_one_phone_shows_on_another_without_reloading(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    scorer = phone(browser, errors)
    scorer.goto(base_url + "/games/new?variant=pay-me")
    scorer.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    scorer.select_option("#first_dealer", "0")
    scorer.get_by_role("button", name="Start the game").click()
    expect(scorer.locator("#round-h")).to_contain_text("Round 1")
    game_url = scorer.url.split("#")[0]

    watcher = phone(browser, errors, color_scheme="dark")
    statuses: list[int] = []
    watcher.on("response", lambda response: statuses.append(response.status) if "/version" in response.url else None)
    watcher.goto(game_url)
    expect(watcher.locator(".note")).to_contain_text("View only")
    expect(watcher.locator("#sheet")).to_contain_text("No round scored yet")
    watcher.evaluate("window.notReloaded = true")
    watcher.locator("details.more-facts summary").click()

    enter_round(scorer, 1, "Bob", {"Ann": "12", "Cy": "30"})
    expect(watcher.locator(".grid tfoot")).to_contain_text("30", timeout=LIVE_WAIT_MS)
    expect(watcher.locator(".standings li").first).to_contain_text("Bob", timeout=LIVE_WAIT_MS)
    expect(watcher.locator("#round-h")).to_contain_text("Round 2", timeout=LIVE_WAIT_MS)
    assert watcher.evaluate("window.notReloaded") is True
    assert watcher.locator("details.more-facts").evaluate("el => el.open") is True  # open panels stay open

    # A correction shows too.
    scorer.get_by_role("link", name="Correct round 1").click()
    scorer.locator("#correction").get_by_role("textbox", name="Cy", exact=True).fill("25")
    scorer.get_by_role("button", name="Save correction").click()
    expect(watcher.locator(".grid tfoot")).to_contain_text("25", timeout=LIVE_WAIT_MS)
    expect(watcher.locator("#history")).to_contain_text("Round 1 corrected", timeout=LIVE_WAIT_MS)
    assert watcher.evaluate("window.notReloaded") is True
    # While nothing changes, the answer is an empty 304.
    with watcher.expect_response(lambda r: "/version" in r.url and r.status == 304, timeout=LIVE_WAIT_MS):
        pass
    assert 200 in statuses

    # The scorer's page also follows changes made elsewhere (the API here).
    scorer.goto(game_url)
    scorer.evaluate("window.notReloaded = true")
    scorer.locator("#share-edit summary").click()  # the edit link's panel comes when it opens
    key = (scorer.locator("#share-edit .share-url").text_content() or "").strip().split("key=", 1)[1]
    api_url = game_url.replace("/games/", "/api/games/")
    version = scorer.request.get(api_url).json()["version"]
    response = scorer.request.delete(f"{api_url}/rounds/last?version={version}", headers={"X-Edit-Key": key})
    assert response.status == 200
    expect(scorer.locator("#round-h")).to_contain_text("Round 1", timeout=LIVE_WAIT_MS)
    expect(watcher.locator("#round-h")).to_contain_text("Round 1", timeout=LIVE_WAIT_MS)
    assert scorer.evaluate("window.notReloaded") is True
    assert errors == []
    scorer.context.close()
    watcher.context.close()


def test_a_phone_joins_by_the_edit_code_and_loses_it_with_a_new_key(browser: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    scorer = phone(browser, errors)
    scorer.goto(base_url + "/games/new?variant=3-13")
    scorer.get_by_label("Players, in seat order").fill("Ann\nBob")
    scorer.get_by_role("button", name="Start the game").click()
    game_url = scorer.url.split("#")[0]

    # Both codes for the scorer; the edit link carries the key.
    scorer.locator("#share summary").click()
    scorer.locator("#share-edit summary").click()
    expect(scorer.locator("img.qr-code")).to_have_count(2)
    for code in scorer.locator("img.qr-code").all():
        expect(code).to_have_js_property("complete", True)
        assert code.evaluate("image => image.naturalWidth") > 0  # the image route answered with a code
        box = code.bounding_box()
        assert box and 200 <= box["width"] <= 300 and abs(box["width"] - box["height"]) < 1
    assert scorer.evaluate("document.documentElement.scrollWidth") <= 360
    assert small_tap_targets(scorer, "a.button, button, summary, select, textarea") == []
    ARTIFACTS.mkdir(exist_ok=True)
    scorer.locator("#share-edit").screenshot(path=str(ARTIFACTS / "share-edit-code.png"))
    edit_link = scorer.locator("#share-edit .share-url").inner_text().strip()
    assert "/join#key=" in edit_link and "?" not in edit_link

    # The second phone opens the edit link (as scanned): its script posts the key from the
    # fragment, which never reaches the server's logs, and the key leaves the address at once.
    helper = phone(browser, errors)
    join_requests: list[str] = []
    helper.on("request", lambda request: join_requests.append(request.url) if "/join" in request.url else None)
    helper.goto(edit_link.replace(edit_link.split("/games/")[0], base_url))
    helper.wait_for_url(game_url)
    assert join_requests and all("key" not in url for url in join_requests)
    expect(helper.locator("#entry-h")).to_have_text("Enter round 1 scores")
    helper.evaluate("window.notReloaded = true")
    enter_round(helper, 1, "Ann", {"Bob": "7"})
    expect(scorer.locator(".grid tfoot")).to_contain_text("7", timeout=LIVE_WAIT_MS)

    # A new key: the helper loses its edit rights within seconds, without reloading.
    helper.goto(game_url)
    helper.evaluate("window.notReloaded = true")
    scorer.once("dialog", lambda dialog: dialog.accept())
    scorer.get_by_role("button", name="Make a new edit key").click()
    expect(scorer.locator("#share-edit")).to_be_visible()
    scorer.locator("#share-edit summary").click()
    new_link = scorer.locator("#share-edit .share-url").inner_text().strip()
    assert new_link != edit_link
    expect(helper.locator(".note")).to_contain_text("View only", timeout=LIVE_WAIT_MS)
    expect(helper.locator("#round-entry")).to_have_count(0)
    assert helper.evaluate("window.notReloaded") is True
    helper.goto(edit_link.replace(edit_link.split("/games/")[0], base_url))
    expect(helper.locator("[role=alert]")).to_contain_text("does not work for this game")
    assert errors == ["Failed to load resource: the server responded with a status of 403 (FORBIDDEN)"]
    scorer.context.close()
    helper.context.close()


HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


# Counts the page's own questions to the server, at the moment they are asked (no network delay).
_COUNT_ASKS = """(() => {
  const fetched = window.fetch;
  window.asked = 0;
  window.fetch = function (url, options) {
    if (String(url).includes("/version")) { window.asked += 1; }
    return fetched.call(this, url, options);
  };
})();"""


def test_a_hidden_tab_stops_asking_and_catches_up_when_shown(browser: Any, base_url: str) -> None:
    """The page's clock is Playwright's: minutes of polling pass in no time and nothing waits for time."""
    from playwright.sync_api import expect

    errors: list[str] = []
    watcher = phone(browser, errors)
    watcher.add_init_script(_COUNT_ASKS)
    watcher.clock.install()
    response = watcher.request.post(
        base_url + "/api/games", data={"variant": "pay-me", "players": ["Ann", "Bob"], "first_dealer": "Ann"}
    )
    state = response.json()
    watcher.goto(f"{base_url}/games/{state['id']}")
    interval = int(watcher.evaluate("document.body.dataset.liveInterval"))
    with watcher.expect_response(lambda answer: "/version" in answer.url):
        watcher.clock.run_for(interval)
    assert watcher.evaluate("window.asked") == 1
    watcher.evaluate(HIDE, True)
    watcher.clock.run_for(interval)  # the poll after the one under way, which finds the tab hidden
    count = watcher.evaluate("window.asked")
    api = f"{base_url}/api/games/{state['id']}/rounds"
    posted = watcher.request.post(
        api, data={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 17}}, headers={"X-Edit-Key": state["edit_key"]}
    )
    assert posted.status == 201
    watcher.clock.run_for(10 * interval)
    assert watcher.evaluate("window.asked") == count  # no polling while hidden
    expect(watcher.locator("#sheet")).to_contain_text("No round scored yet")
    watcher.evaluate(HIDE, False)  # shown again: asks at once, without a timer
    assert watcher.evaluate("window.asked") == count + 1
    expect(watcher.locator(".grid tfoot")).to_contain_text("17")
    assert errors == []
    watcher.context.close()
