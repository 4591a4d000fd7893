"""The score grid on a 360×740 phone, in headless Chromium: the page never scrolls sideways, the grid
does, its Round column stays at the left edge (opaque, in light and dark), a caption says to swipe
only when there is more to see, and long names wrap instead of running under the inputs.
Uses the system Chromium (/usr/bin/chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ARTIFACTS, check_phone_layout
from tests.servers import call

pytestmark = pytest.mark.browser

EIGHT = ["Bartholomew-Alexander", "Ann", "Bob", "Cy", "Dee", "Eve", "Françoise-Marie", "Gus"]
TAP_TARGETS = "a.button, button, .grid th a, label.radio"

# Where the first header cell and the scroller sit, and what is drawn at the Round cells' centres.
_GRID = """([scroller, first, cells]) => {
  const box = document.querySelector(scroller);
  const rounds = Array.from(document.querySelectorAll(cells));
  return {
    left: box.getBoundingClientRect().left,
    scrollLeft: box.scrollLeft,
    overflow: box.scrollWidth - box.clientWidth,
    firstPlayer: document.querySelector(first).getBoundingClientRect().left,
    roundLefts: rounds.map(cell => cell.getBoundingClientRect().left),
    // Rows scrolled up or down out of the box (or under its kept names and totals) are not drawn.
    onTop: rounds.filter(cell => {
      const r = cell.getBoundingClientRect();
      const head = box.querySelector('thead'), foot = box.querySelector('tfoot');
      const top = box.getBoundingClientRect().top + (head ? head.getBoundingClientRect().height : 0);
      const bottom = box.getBoundingClientRect().bottom - (foot ? foot.getBoundingClientRect().height : 0);
      return cell.closest('tfoot') || (r.top >= top && r.bottom <= bottom);
    }).every(cell => {
      const r = cell.getBoundingClientRect();
      return cell.contains(document.elementFromPoint(r.left + 6, r.top + r.height / 2));
    }),
    backgrounds: rounds.map(cell => getComputedStyle(cell).backgroundColor),
  };
}"""


def api(base_url: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    status, answer = call(base_url, method, path, body, key)
    assert status < 300, answer
    return answer


def _game(base_url: str, variant: str, players: list[str], rounds: int) -> dict[str, Any]:
    game = api(base_url, "POST", "/api/games", {"variant": variant, "players": players, "first_dealer": players[0]})
    for number in range(rounds):
        out = players[number % len(players)]
        scores = {name: 0 if name == out else 5 + 3 * seat + number for seat, name in enumerate(players)}
        api(base_url, "POST", f"/api/games/{game['id']}/rounds", {"went_out": out, "scores": scores}, game["edit_key"])
    return dict(game)


def _opaque(colour: str) -> bool:
    return colour.startswith("rgb(") or (colour.startswith("rgba(") and colour.rstrip(")").endswith(", 1"))


def _scroll_and_check(page: Any, scroller: str, first: str, cells: str) -> None:
    before = page.evaluate(_GRID, [scroller, first, cells])
    assert before["overflow"] > 100  # eight players do not fit: the grid scrolls
    page.locator(scroller).evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    after = page.evaluate(_GRID, [scroller, first, cells])
    assert after["scrollLeft"] >= after["overflow"] - 1 > 0
    assert after["firstPlayer"] < before["firstPlayer"] - 100  # the players moved ...
    assert all(abs(left - after["left"]) <= 1.5 for left in after["roundLefts"])  # ... the Round column did not
    assert after["onTop"]  # and nothing scrolled is drawn over it
    assert all(_opaque(colour) for colour in after["backgrounds"]), after["backgrounds"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_round_column_stays_put_when_eight_players_scroll_sideways(
    browser: Any, base_url: str, scheme: str
) -> None:
    game = _game(base_url, "pay-me", EIGHT, 11)
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    page.goto(f"{base_url}/games/{game['id']}")
    page.wait_for_load_state("load")
    check_phone_layout(page, TAP_TARGETS)
    assert page.locator(".swipe-hint").is_visible()
    page.locator("#sheet").scroll_into_view_if_needed()
    _scroll_and_check(page, "#sheet .scroll", ".grid thead th:nth-child(2)", ".grid tbody th, .grid tfoot th")
    # A long name wraps in its header instead of widening its column past 7 em.
    width = page.locator(".grid thead th:nth-child(2)").evaluate("cell => cell.getBoundingClientRect().width")
    assert width < 150
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#sheet").screenshot(path=str(ARTIFACTS / f"grid-8-players-scrolled-{scheme}.png"))

    # The same sheet as a page: the Rd column stays put in its own scroller.
    page.goto(f"{base_url}/games/{game['id']}/sheet")
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    rd_cells = ".scores tbody th.round, .scores tfoot th.round"
    _scroll_and_check(page, ".scores-scroll", ".scores thead th.player", rd_cells)
    back = page.get_by_role("link", name="← Back to the game")
    box = back.bounding_box()
    assert box is not None and box["height"] >= 44
    back.click()
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    context.close()


def test_a_3_13_game_of_four_with_its_pot_fits_the_phone(browser: Any, base_url: str) -> None:
    game = _game(base_url, "3-13", ["Ann", "Bob", "Cy", "Dee"], 11)
    assert game.get("pot") or api(base_url, "GET", f"/api/games/{game['id']}").get("pot")
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{base_url}/games/{game['id']}")
    page.wait_for_load_state("load")
    assert page.locator(".grid .knock-box").count() == 11  # each knock shows its payout ...
    grid = page.evaluate(_GRID, ["#sheet .scroll", ".grid thead th:nth-child(2)", ".grid tbody th"])
    assert grid["overflow"] == 0  # ... and the four players fit without scrolling
    assert not page.locator(".swipe-hint").is_visible()  # so nothing says to swipe
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.close()


def test_long_names_wrap_on_the_round_form(browser: Any, base_url: str) -> None:
    game = _game(base_url, "pay-me", EIGHT, 0)
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(f"{base_url}/games/{game['id']}")
    page.goto(f"{base_url}/games/{game['id']}/rounds/new")
    page.wait_for_load_state("load")
    check_phone_layout(page, "button, label.radio")
    overlaps = page.evaluate(
        """() => {
          const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
          const radios = Array.from(document.querySelectorAll('.radio')).map(label => {
            const box = label.getBoundingClientRect(), dot = label.querySelector('input').getBoundingClientRect();
            return [dot.width, inside(label.querySelector('span').getBoundingClientRect(), box)];
          });
          const rows = Array.from(document.querySelectorAll('.score-row')).map(row => {
            const label = row.querySelector('label');
            return label.scrollWidth <= label.clientWidth
              && label.getBoundingClientRect().right <= row.querySelector('input').getBoundingClientRect().left;
          });
          return {radios, rows};
        }"""
    )
    assert overlaps["radios"] == [[26, True]] * len(EIGHT)  # full-size radio, name inside its box
    assert overlaps["rows"] == [True] * len(EIGHT)  # no name runs under its input
    page.close()
