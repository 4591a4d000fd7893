"""Issue 27 at a 360×740 touch phone: a score no hand can make is refused on the page (section 2),
and the score sheet of up to six players fits the phone with every total in view (section 6).

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

SIX = ["Annabelle", "Bartholomew", "Cy", "Dee", "Evangeline", "Fitzgerald"]
SEVEN = [*SIX, "Gus"]


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """Touch phones at 360×740 in a colour scheme, each its own cookies; closed afterwards."""
    opened: list[Any] = []

    def open_phone(scheme: str = "light") -> Any:
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, color_scheme=scheme
        )
        opened.append(context)
        return context.new_page()

    yield open_phone
    for context in opened:
        context.close()


def api(base_url: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    status, answer = call(base_url, method, path, body, key)
    assert status < 300, answer
    return answer


def _join(page: Any, base_url: str, game: dict[str, Any]) -> None:
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")


def _play(base_url: str, game: dict[str, Any], players: list[str], rounds: int, **extra: Any) -> None:
    for number in range(rounds):
        out = players[number % len(players)]
        scores = {name: 0 if name == out else 5 + seat + number for seat, name in enumerate(players)}
        body = {"went_out": out, "scores": scores, **(extra if number == 0 else {})}
        api(base_url, "POST", f"/api/games/{game['id']}/rounds", body, game["edit_key"])


# --- section 2: scores that make sense -------------------------------------------------


def test_a_500_in_a_three_card_round_is_refused_on_the_page(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = api(base_url, "POST", "/api/games", {"variant": "pay-me", "players": ["Ann", "Bob"], "first_dealer": "Ann"})
    page = phones()
    _join(page, base_url, game)
    page.locator("label.radio", has_text="Ann").tap()
    page.get_by_role("textbox", name="Bob", exact=True).fill("500")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#entry-error")).to_have_text(
        "Not saved: Bob: 500 is more than 3 cards can score in round 1 (at most 45)."
    )
    expect(page.get_by_role("textbox", name="Bob", exact=True)).to_have_value("500")  # what was typed stays
    page.get_by_role("textbox", name="Bob", exact=True).fill("15+15+15")  # a sum is checked after adding
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#entry-h")).to_have_text("Enter round 2 scores")
    expect(page.locator("#round-1")).to_contain_text("45")  # the form moves on when queued; the sheet when saved
    assert api(base_url, "GET", f"/api/games/{game['id']}")["totals"] == {"Ann": 0, "Bob": 45}


# --- section 6: sheets that fit a phone --------------------------------------------------

_TOTALS = """() => {
  const box = document.querySelector('#sheet .scroll');
  const totals = Array.from(document.querySelectorAll('#sheet tfoot td'));
  return {
    overflow: box.scrollWidth - box.clientWidth,
    page: document.documentElement.scrollWidth,
    past_edge: Array.from(box.querySelectorAll('th, td, span, a'))
      .filter(e => e.getBoundingClientRect().right > box.getBoundingClientRect().right - 1)
      .map(e => e.className + ': ' + e.textContent.slice(0, 20)),
    totals: totals.map(cell => {
      const r = cell.getBoundingClientRect();
      return [cell.textContent.trim(), r.left >= 0 && r.right <= window.innerWidth];
    }),
  };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("variant", ["pay-me", "3-13", "contract-rummy"])
def test_six_players_every_total_in_view_at_360(phones: Any, base_url: str, variant: str, scheme: str) -> None:
    from playwright.sync_api import expect

    options = {"exact_cut": True} if variant == "contract-rummy" else {}
    body = {"variant": variant, "players": SIX, "first_dealer": SIX[0], "options": options}
    game = api(base_url, "POST", "/api/games", body)
    if variant == "contract-rummy":
        for name in SIX[1:4]:
            version = api(base_url, "GET", f"/api/games/{game['id']}")["version"]
            buy = {"player": name, "change": 1, "version": version}
            api(base_url, "POST", f"/api/games/{game['id']}/buys", buy, game["edit_key"])
    rounds = 7 if variant == "contract-rummy" else 11
    extra = {"exact_cut": "Cy"} if variant == "contract-rummy" else {}
    _play(base_url, game, SIX, rounds, **extra)
    page = phones(scheme)
    _join(page, base_url, game)
    page.locator("#sheet").scroll_into_view_if_needed()
    sheet = page.evaluate(_TOTALS)
    assert sheet["overflow"] <= 0, sheet
    assert sheet["page"] <= 360
    assert len(sheet["totals"]) == 6 and all(inside for _, inside in sheet["totals"]), sheet
    expect(page.locator("#sheet-marks")).to_be_visible()
    if variant == "contract-rummy":
        expect(page.locator("#round-1 .buy-mark")).to_have_count(3)
        expect(page.locator("#cut-1")).to_contain_text("Cy cut exactly in deal 1")
    assert not page.locator(".swipe-hint").is_visible()


def test_seven_players_scroll_with_the_round_column_kept(phones: Any, base_url: str) -> None:
    game = api(base_url, "POST", "/api/games", {"variant": "pay-me", "players": SEVEN, "first_dealer": SEVEN[0]})
    _play(base_url, game, SEVEN, 3)
    page = phones()
    _join(page, base_url, game)
    assert page.locator("#sheet table.grid.fit").count() == 0  # seven players may scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


# --- section 5: no console error and no CSP violation on any page; charts legible ---------------

_WATCH_CSP = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', event => {
  window.__violations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline'));
});
"""


def test_no_console_error_and_no_csp_violation_on_any_page(browser: Any, base_url: str) -> None:
    from tests.e2e.test_accessibility import ERROR_PAGES, _join, _pages, _tables

    tables = _tables(base_url)
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    context.add_init_script(_WATCH_CSP)
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(f"{page.url}: {message.text}") if message.type == "error" else None
    )
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    try:
        for kind, game in tables.items():
            if kind == "group":
                page.goto(f"{base_url}/groups/{game['id']}/join#key={game['edit_key']}")
                page.wait_for_url(lambda url: "/join" not in url)
            else:
                _join(page, base_url, game)
        violations = []
        for path in _pages(tables):
            if path.endswith(ERROR_PAGES):
                continue  # a 404 is reported in the console on purpose
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.goto(base_url + path)
                page.wait_for_load_state("load")
                violations += [f"{path} ({scheme}): {found}" for found in page.evaluate("window.__violations")]
        assert violations == [], "\n".join(violations)
        assert errors == [], "\n".join(errors)
    finally:
        context.close()


_CHART_INK = """() => {
  const svg = document.querySelector('figure.page-chart svg.score-chart');
  const texts = Array.from(svg.querySelectorAll('text'));
  const axis = svg.querySelector('path.axis');
  let node = svg, background = 'rgba(0, 0, 0, 0)';
  while (node && (background === 'rgba(0, 0, 0, 0)' || background === 'transparent')) {
    background = getComputedStyle(node).backgroundColor; node = node.parentElement;
  }
  return {
    fills: Array.from(new Set(texts.map(text => getComputedStyle(text).fill))),
    axis: getComputedStyle(axis).stroke,
    background,
    labels: texts.map(text => text.textContent),
  };
}"""


def _luminance(rgb: str) -> float:
    channels = [int(part) / 255 for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(first: str, second: str) -> float:
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_group_chart_draws_legible_axes_and_legend(phones: Any, base_url: str, scheme: str) -> None:
    from tests.e2e.test_accessibility import _group

    group = _group(base_url)
    page = phones(scheme)
    page.goto(f"{base_url}/groups/{group['id']}")
    ink = page.evaluate(_CHART_INK)
    assert len(ink["fills"]) == 1 and _contrast(ink["fills"][0], ink["background"]) >= 4.5, ink
    assert _contrast(ink["axis"], ink["background"]) >= 3, ink
    assert "Games" in ink["labels"] and "Round" not in ink["labels"]  # the axis names what it counts
    assert any(label.startswith("Ann (") for label in ink["labels"])  # the legend
    ratings = page.locator("#ratings li").first
    name, figure = ratings.locator(".name"), ratings.locator(".total")
    assert name.bounding_box()["x"] + name.bounding_box()["width"] < figure.bounding_box()["x"]  # apart
    money = page.locator("#money li .total")
    assert all(text[0] in "+-$0" for text in money.all_inner_texts())
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for table in ("#standings", "#head-to-head"):
        box = page.locator(table).evaluate("t => t.parentElement.scrollWidth - t.parentElement.clientWidth")
        assert box <= 0, table  # three players' tables fit the phone


# --- section 4: only your own games on the home page --------------------------------------------


def test_a_second_phone_sees_none_of_the_first_phones_games(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    first, second = phones(), phones("dark")
    first.goto(base_url + "/games/new")
    first.get_by_label("Players, in seat order").fill("Ann\nBob")
    first.get_by_role("button", name="Start the game").tap()
    expect(first.locator("#entry-h")).to_have_text("Enter round 1 scores")
    game_url = first.url
    first.goto(base_url + "/")
    mine = first.locator("#my-games li a")
    expect(mine).to_have_count(1)
    expect(mine).to_have_attribute("href", game_url.removeprefix(base_url))
    second.goto(base_url + "/")
    expect(second.locator("#mine-empty")).to_be_visible()
    assert second.locator("#my-games li").count() == 0
    assert game_url.removeprefix(base_url) not in second.content()
    first.get_by_role("button", name="Remove Pay Me from this phone's list").tap()
    expect(first.locator("#my-games li")).to_have_count(0)
    expect(first.locator("#mine-empty")).to_be_visible()


# --- section 8: one first-dealer control ------------------------------------------------------


def test_one_first_dealer_control_on_the_new_game_form(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    page = phones()
    page.goto(base_url + "/games/new")
    page.get_by_label("Players, in seat order").fill("Ann\nBob\nCy")
    expect(page.locator("#way-chosen")).to_be_checked()
    expect(page.locator("#first_dealer")).to_be_visible()
    page.locator("label.radio", has_text="At random").tap()
    expect(page.locator("#first_dealer")).to_be_hidden()  # no select that says otherwise
    page.locator("label.radio", has_text="High-card draw").tap()
    page.select_option("#first_dealer", "2")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".dealt-first, main")).to_contain_text("Cy dealt first, having won the high-card draw")
