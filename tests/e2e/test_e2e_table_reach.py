"""Issue 27, section 1 and the rest of section 6, at a 360×740 touch phone: the next entry in reach
(the first "Who went out?" choice in view on opening and after a save, Save above the keyboard), the
round's facts in two lines, correction and undo without a page load, Back from a new game going home,
Contract Rummy saying "deal", and eight players' sheet scrolling with names, rounds and totals kept.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser import HeldRequests
from tests.e2e.test_accessibility import _RUN_AXE, AXE, BLOCKING
from tests.servers import call

pytestmark = pytest.mark.browser

SIX = ["Annabelle", "Bartholomew", "Cy", "Dee", "Evangeline", "Fitzgerald"]
EIGHT = [*SIX, "Gus", "Hal"]


def _unexpected(message: Any) -> bool:
    """A console error other than the 400 of a refused entry (the page says why in words)."""
    return bool(message.type == "error" and "status of 400" not in message.text)


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """Touch phones at 360×740 in a colour scheme, each its own cookies; closed afterwards."""
    opened: list[Any] = []

    def open_phone(scheme: str = "light", csp: bool = True, service_workers: str = "allow") -> Any:
        context = browser.new_context(
            viewport={"width": 360, "height": 740},
            has_touch=True,
            is_mobile=True,
            color_scheme=scheme,
            bypass_csp=not csp,
            service_workers=service_workers,
        )
        opened.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: page.errors.append(message.text) if _unexpected(message) else None)
        return page

    yield open_phone
    for context in opened:
        context.close()


def api(base_url: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    status, answer = call(base_url, method, path, body, key)
    assert status < 300, answer
    return answer


def _game(base_url: str, variant: str, players: list[str], rounds: int = 0) -> dict[str, Any]:
    game = api(base_url, "POST", "/api/games", {"variant": variant, "players": players, "first_dealer": players[0]})
    for number in range(rounds):
        out = players[number % len(players)]
        scores = {name: 0 if name == out else 2 + seat for seat, name in enumerate(players)}
        api(base_url, "POST", f"/api/games/{game['id']}/rounds", {"went_out": out, "scores": scores}, game["edit_key"])
    return dict(game)


def _join(page: Any, base_url: str, game: dict[str, Any]) -> None:
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")


# The first choice lies inside the viewport and no sticky bar covers it (what a tap there would hit).
_CHOICE_IN_REACH = """() => {
  const choice = document.querySelector('#round-entry label.radio');
  const box = choice.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.top >= 0 && box.bottom <= window.innerHeight && choice.contains(hit);
}"""

_WHERE = """() => {
  const box = el => { const r = document.querySelector(el).getBoundingClientRect(); return [r.top, r.bottom]; };
  return {choice: box('#round-entry label.radio'), save: box('#round-entry > [type=submit]'),
          focused: document.activeElement.getBoundingClientRect().top, height: window.innerHeight, y: scrollY};
}"""


def _in_reach(page: Any) -> None:
    page.wait_for_function(_CHOICE_IN_REACH)  # fails by timeout with the choice out of reach
    assert page.evaluate(_CHOICE_IN_REACH), page.evaluate(_WHERE)


def _save_round(page: Any, players: list[str], number: int, word: str = "round") -> None:
    form = page.locator("#round-entry")
    form.locator("label.radio").first.tap()
    for name in players[1:]:
        form.get_by_role("textbox", name=name, exact=True).fill("4")
    page.get_by_role("button", name=f"Save {word} {number}").tap()
    page.locator("#entry-h").filter(has_text=f"Enter {word} {number + 1} scores").wait_for()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("variant", "players"), [("pay-me", SIX[:4]), ("contract-rummy", SIX), ("pay-me", EIGHT)])
def test_the_first_choice_is_in_reach_on_opening_and_after_a_save(
    phones: Any, base_url: str, variant: str, players: list[str], scheme: str
) -> None:
    from playwright.sync_api import expect

    game = _game(base_url, variant, players, rounds=2)
    page = phones(scheme)
    _join(page, base_url, game)
    _in_reach(page)
    # The round's facts in a line or two, the rest one tap away; the checkers come after the form.
    brief = page.locator("#round .facts.brief")
    expect(brief).to_contain_text("Dealer")
    assert brief.bounding_box()["height"] <= 3 * 24, brief.bounding_box()
    more = page.locator("#round details.more-facts")
    expect(more.locator(".facts")).to_be_hidden()
    more.locator("summary").tap()
    expect(more.locator(".facts")).to_contain_text("Cards in play")
    links = page.locator(".dp-game-links")
    assert links.bounding_box()["y"] > page.locator("#round-entry").bounding_box()["y"]

    word = "deal" if variant == "contract-rummy" else "round"
    _save_round(page, players, 3, word)
    _in_reach(page)
    expect(page.locator("#standings .total").first).to_be_visible()
    assert page.errors == []


# The heights the page has heard of, after the page's own handler (app.js) has run: each resize is
# waited for before the next, or two quick ones could come as one event, or none (400 -> 740 -> 400).
_HEARD_RESIZES = """() => {
  window.heard = [innerHeight];
  (window.visualViewport || window).addEventListener("resize", () => window.heard.push(innerHeight));
}"""


def test_save_stays_in_reach_with_the_keyboard_open(phones: Any, base_url: str) -> None:
    game = _game(base_url, "pay-me", SIX, rounds=1)
    page = phones()
    _join(page, base_url, game)
    page.evaluate(_HEARD_RESIZES)
    for name in (SIX[0], SIX[-1]):
        if page.evaluate("innerHeight") != 740:
            page.set_viewport_size({"width": 360, "height": 740})  # the keyboard closed
            page.wait_for_function("() => window.heard.at(-1) === 740")
        page.get_by_role("textbox", name=name, exact=True).focus()
        page.set_viewport_size({"width": 360, "height": 400})  # a keyboard takes the lower half
        page.wait_for_function(
            """() => {
              const field = document.activeElement.getBoundingClientRect();
              const save = document.querySelector('#round-entry > [type=submit]').getBoundingClientRect();
              return window.heard.at(-1) === 400 && field.top >= 0 && save.bottom <= 400 && field.bottom <= save.top;
            }"""
        )
        where = page.evaluate(_WHERE)
        assert where["save"][1] <= 400 and where["focused"] >= 0, where
    page.keyboard.type("7")
    assert page.get_by_role("textbox", name=SIX[-1], exact=True).input_value() == "7"
    assert page.errors == []


_MARK = "() => { window.__stayed = 'yes'; }"
_STAYED = "() => window.__stayed"


def test_correction_and_undo_happen_in_place(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    players = SIX[:3]
    game = _game(base_url, "pay-me", players, rounds=2)
    page = phones()
    _join(page, base_url, game)
    page.evaluate(_MARK)
    page.get_by_role("link", name="Correct round 1").tap()
    expect(page.locator("#correction-h")).to_have_text("Correct round 1")
    expect(page.locator("#correction-h")).to_be_in_viewport()
    fix = page.locator("#correction")
    fix.get_by_role("textbox", name="Cy", exact=True).fill("9")
    page.get_by_role("button", name="Save correction").tap()
    expect(page.locator("#history")).to_contain_text("Round 1 corrected")
    expect(page.locator("#round-1")).to_contain_text("9")
    expect(page.locator("#round-1")).to_be_in_viewport()
    assert page.evaluate(_STAYED) == "yes"  # no page load
    assert api(base_url, "GET", f"/api/games/{game['id']}")["rounds"][0]["scores"]["Cy"] == 9

    # A refused correction shows the server's sentence in place; Cancel takes the form away.
    page.get_by_role("link", name="Correct round 2").tap()
    fix.get_by_role("textbox", name="Cy", exact=True).fill("900")
    page.get_by_role("button", name="Save correction").tap()
    expect(fix.locator(".alert")).to_contain_text("900")
    expect(fix.get_by_role("textbox", name="Cy", exact=True)).to_have_value("900")
    page.locator("#correction").get_by_role("link", name="Cancel").tap()
    expect(page.locator("#correction")).to_have_count(0)

    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo round 2").tap()
    expect(page.locator("#entry-h")).to_have_text("Enter round 2 scores")
    expect(page.get_by_role("button", name="Undo round 1")).to_be_visible()
    _in_reach(page)
    assert page.evaluate(_STAYED) == "yes"
    assert len(api(base_url, "GET", f"/api/games/{game['id']}")["rounds"]) == 1
    assert page.errors == []


@pytest.mark.parametrize(
    ("game", "form", "started", "players", "ready"),
    [
        ("^3-13", r"variant=3-13", r"/games/[\w-]+$", "Ann\nBob", "#round-entry"),
        ("^Play or Pay", r"/games/new/chips$", r"/games/[\w-]+/hand$", "Ann\nBob\nCy", "#hand"),
    ],
)
def test_back_after_starting_a_game_goes_home(
    phones: Any, base_url: str, game: str, form: str, started: str, players: str, ready: str
) -> None:
    page = phones()
    page.goto(base_url + "/")
    page.get_by_role("link", name="New game").first.tap()
    page.get_by_role("link", name=re.compile(game)).first.tap()
    page.wait_for_url(re.compile(form))
    page.get_by_label("Players, in seat order").fill(players)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(re.compile(started))
    page.locator(ready).first.wait_for()
    page.go_back()
    page.wait_for_url(base_url + "/")
    assert page.url == base_url + "/"


def _new_group(page: Any, base_url: str) -> str:
    """A group of Ann and Bob started on the phone; its page's address."""
    page.goto(base_url + "/")
    page.get_by_role("link", name="New group").first.tap()
    page.get_by_label("Name of the group").fill("Thursday night")
    page.get_by_label("Players, one name per line").fill("Ann\nBob")
    page.get_by_role("button", name="Start the group").tap()
    page.get_by_role("heading", name="Start a game in this group").wait_for()
    return str(page.url)


@pytest.mark.parametrize("way", ["the group's form", "the New game page"])
def test_back_after_starting_a_game_from_a_group_goes_to_the_group(phones: Any, base_url: str, way: str) -> None:
    page = phones()
    group_url = _new_group(page, base_url)
    if way == "the New game page":
        page.get_by_role("link", name="Start a game with house rules or a pot").tap()
        page.wait_for_url(re.compile(r"/games/new\?"))
    page.get_by_label("Players, in seat order").fill("Ann\nBob")
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(re.compile(r"/games/[\w-]+$"))
    page.locator("#round-entry").wait_for()
    page.go_back()
    page.wait_for_url(group_url)
    page.get_by_role("heading", name="Start a game in this group").wait_for()
    assert page.url == group_url


_ROUND_WORDS = re.compile(r"\brounds?\b", re.IGNORECASE)


def test_contract_rummy_says_deal_never_round(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    players = SIX[:4]
    game = _game(base_url, "contract-rummy", players, rounds=2)
    page = phones()
    _join(page, base_url, game)
    page.evaluate(_MARK)
    for details in page.locator("main details").all():
        details.evaluate("element => { element.open = true; }")
    said = page.evaluate("() => document.querySelector('main').innerText.replace(/Contract Rummy/g, '')")
    assert _ROUND_WORDS.findall(said) == [], [line for line in said.splitlines() if _ROUND_WORDS.search(line)]
    page.get_by_role("link", name="Correct deal 1").tap()
    expect(page.locator("#correction-h")).to_have_text("Correct deal 1")
    _save_round(page, players, 3, "deal")
    expect(page.locator("#round-h")).to_contain_text("Deal 4")
    chart = page.locator("#chart svg")
    assert "deal" in (chart.get_attribute("aria-label") or "")
    page.goto(f"{base_url}/games/{game['id']}/sheet")
    sheet = page.evaluate("() => document.body.innerText.replace(/Contract Rummy/g, '')")
    assert _ROUND_WORDS.findall(sheet) == [], sheet


# Scroll the sheet to its far right and bottom; where the kept parts are then.
_SCROLLED = """() => {
  const box = document.querySelector('#sheet .scroll');
  box.scrollLeft = box.scrollWidth;
  box.scrollTop = box.scrollHeight;
  const frame = box.getBoundingClientRect();
  const at = el => el.getBoundingClientRect();
  const names = Array.from(document.querySelectorAll('#sheet thead th'));
  const totals = Array.from(document.querySelectorAll('#sheet tfoot td'));
  const opaque = el => getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)';
  return {
    scrolled: [box.scrollLeft, box.scrollTop],
    round_column: Array.from(document.querySelectorAll('#sheet tbody th, #sheet tfoot th'))
      .every(th => Math.abs(at(th).left - frame.left) <= 2),
    names_on_top: names.every(th => Math.abs(at(th).top - frame.top) <= 2),
    totals_below: totals.every(td => Math.abs(at(td).bottom - frame.bottom) <= 2),
    last_total: at(totals[totals.length - 1]).right <= frame.right + 1,
    opaque: names.concat(totals).every(opaque),
    page: document.documentElement.scrollWidth,
  };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_eight_players_sheet_scrolls_with_names_rounds_and_totals_kept(phones: Any, base_url: str, scheme: str) -> None:
    game = _game(base_url, "pay-me", EIGHT, rounds=10)
    page = phones(scheme)
    _join(page, base_url, game)
    page.locator("#sheet").scroll_into_view_if_needed()
    kept = page.evaluate(_SCROLLED)
    assert kept["scrolled"][0] > 0 and kept["scrolled"][1] > 0, kept  # it scrolls both ways
    assert kept["round_column"] and kept["names_on_top"] and kept["totals_below"] and kept["last_total"], kept
    assert kept["opaque"] and kept["page"] <= 360, kept
    box = page.locator("#sheet .scroll").bounding_box()
    assert box["height"] <= 740, box  # the whole sheet, totals included, fits the screen


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_game_page_has_no_serious_accessibility_violation(phones: Any, base_url: str, scheme: str) -> None:
    game = _game(base_url, "contract-rummy", SIX, rounds=2)
    page = phones(scheme, csp=False)
    _join(page, base_url, game)
    page.locator("details.more-facts summary").tap()
    page.get_by_role("link", name="Correct deal 1").tap()
    page.locator("#correction form").wait_for()
    page.add_script_tag(path=str(AXE))
    found = [item for item in page.evaluate(_RUN_AXE) if item["impact"] in BLOCKING]
    assert found == [], found


def test_a_correction_without_a_connection_waits_in_the_outbox_and_is_sent_when_it_returns(
    phones: Any, base_url: str
) -> None:
    from playwright.sync_api import expect

    players = SIX[:3]
    game = _game(base_url, "pay-me", players, rounds=2)
    page = phones()
    failed: list[tuple[str, str]] = []
    page.on("requestfailed", lambda request: failed.append((urlsplit(request.url).path, request.failure or "")))
    _join(page, base_url, game)
    page.evaluate(_MARK)
    page.context.set_offline(True)  # js/in-place.js not loaded yet: it cannot come either
    page.get_by_role("link", name="Correct round 1").tap()  # the form cannot come: a sentence, no page load
    expect(page.locator("#correction-offline")).to_contain_text("No connection")
    assert page.evaluate(_STAYED) == "yes"

    page.context.set_offline(False)
    page.get_by_role("link", name="Correct round 1").tap()
    fix = page.locator("#correction")
    fix.get_by_role("textbox", name="Cy", exact=True).fill("9")
    page.context.set_offline(True)
    page.get_by_role("button", name="Save correction").tap()
    expect(page.locator("#outbox")).to_contain_text("Correction of round 1: waiting to send")
    expect(page.locator("#correction")).to_have_count(0)
    assert api(base_url, "GET", f"/api/games/{game['id']}")["rounds"][0]["scores"]["Cy"] != 9

    page.context.set_offline(False)  # no tap after this
    expect(page.locator("#history")).to_contain_text("Round 1 corrected", timeout=20000)
    expect(page.locator("#outbox")).to_be_empty()
    assert api(base_url, "GET", f"/api/games/{game['id']}")["rounds"][0]["scores"]["Cy"] == 9
    assert page.evaluate(_STAYED) == "yes"
    # The requests made without a connection failed (through the service worker, when it already
    # holds the page, as ERR_FAILED), and nothing else did.
    assert [error for error in page.errors if not error.startswith("Failed to load resource: net::")] == []
    offline = {f"/games/{game['id']}/rounds/1/edit", f"/api/games/{game['id']}/rounds/1", "/static/js/in-place.js"}
    assert {path for path, _ in failed} <= offline, failed
    assert {why for _, why in failed} <= {"net::ERR_INTERNET_DISCONNECTED", "net::ERR_FAILED"}, failed


# Where the next round's form is on the screen, and what it holds, while it is being typed.
_TYPING = """() => {
  const form = document.querySelector('#round-entry');
  const label = form.querySelector('label.radio:nth-child(3)');
  return {top: Math.round(label.getBoundingClientRect().top), round: form.getAttribute('data-round'),
          chosen: (form.querySelector('input[name=went_out]:checked') || {}).value || '',
          ann: form.querySelector('[data-player=Ann]').value, focused: document.activeElement.id,
          caret: document.activeElement.selectionStart};
}"""


def _round_2_saved_its_page_held(
    phones: Any, base_url: str, players: list[str]
) -> tuple[dict[str, Any], Any, HeldRequests]:
    """A touch phone that has saved round 2 of a Pay Me game, the page that shows it held on its way
    (its context blocks service workers, whose fetches would pass the hold)."""
    game = _game(base_url, "pay-me", players, rounds=1)
    page = phones(service_workers="block")
    _join(page, base_url, game)
    held = HeldRequests(page, f"{base_url}/games/{game['id']}")
    with page.expect_request(lambda request: request.url.endswith(f"/games/{game['id']}")):
        _save_round(page, players, 2)  # stored; the page that shows it is asked for
    return game, page, held


def test_the_next_round_being_typed_stays_put_when_the_saved_rounds_page_comes(phones: Any, base_url: str) -> None:
    """Round 2 is saved and the page that shows it held on its way (a slow Wi-Fi); round 3 is begun
    meanwhile: who went out, a score, the finger in the next field. When round 2's page comes, nothing
    chosen or typed changes, the field keeps the focus and the caret, and the form stays where it was on
    the screen, so a tap in that moment lands where it was aimed (it used to move, and a tap missed)."""
    from playwright.sync_api import expect

    game, page, held = _round_2_saved_its_page_held(phones, base_url, ["Ann", "Dee", "Evangeline", "Fitzgerald"])
    shown = page.locator("body").get_attribute("data-live-version")
    form = page.locator("#round-entry")
    form.locator("label.radio").nth(1).tap()  # Dee went out
    form.get_by_role("textbox", name="Ann", exact=True).fill("12")
    form.get_by_role("textbox", name="Evangeline", exact=True).fill("1")  # the finger is here
    page.keyboard.press("ArrowLeft")
    before = page.evaluate(_TYPING)
    assert before["round"] == "3" and before["chosen"] == "Dee" and before["caret"] == 0, before

    held.release()
    expect(page.locator("body")).not_to_have_attribute("data-live-version", shown or "")
    after = page.evaluate(_TYPING)
    assert after == before
    page.keyboard.type("2")  # the keys go on where they went
    form.get_by_role("textbox", name="Fitzgerald", exact=True).fill("3")
    page.get_by_role("button", name="Save round 3").tap()
    expect(page.locator("#entry-h")).to_have_text("Enter round 4 scores")
    expect(page.locator("#sheet tbody tr")).to_have_count(3)
    third = api(base_url, "GET", f"/api/games/{game['id']}")["rounds"][2]
    assert third["went_out"] == "Dee" and third["scores"] == {"Ann": 12, "Dee": 0, "Evangeline": 21, "Fitzgerald": 3}
    assert page.errors == []


def test_a_tap_begun_before_the_saved_rounds_page_comes_is_not_lost(phones: Any, base_url: str) -> None:
    """The finger goes down on "who went out" while the saved round's page is on its way, and comes up
    after it came: the page waits for the finger, so the tap chooses the player (a page swapped in
    between the two used to lose the tap: it began on a form that was no longer there)."""
    from playwright.sync_api import expect

    game, page, held = _round_2_saved_its_page_held(phones, base_url, ["Ann", "Bob", "Cy"])
    shown = page.locator("body").get_attribute("data-live-version")
    box = page.locator("#round-entry label.radio").nth(1).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    with page.expect_response(lambda response: response.url.endswith(f"/games/{game['id']}")) as answer:
        held.release()
    answer.value.finished()
    page.evaluate(
        "() => new Promise(done => { let turns = 10; (function turn() { turns-- ? setTimeout(turn) : done(); })(); })"
    )
    assert page.locator("body").get_attribute("data-live-version") == shown  # not under the finger
    page.mouse.up()
    expect(page.locator("body")).not_to_have_attribute("data-live-version", shown or "")
    expect(page.locator("#round-entry input[name=went_out][value=Bob]")).to_be_checked()
    expect(page.locator("#entry-h")).to_have_text("Enter round 3 scores")
