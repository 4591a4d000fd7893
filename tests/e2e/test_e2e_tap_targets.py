"""Tap targets at arm's length (issue 13), on the pages a table uses at a 360×740 phone: the home
page, a game page (scorekeeper and view-only), the Play or Pay hand page, the checker and a group page.

Every visible button, link styled as a button, text box, select and tick box (measured by its label,
which is what a finger taps) is at least 44×44 CSS px (WCAG 2.5.5). Links are held to the same size
except an inline link inside a sentence, which WCAG 2.5.8 exempts ("the target is in a sentence"): a
link displayed inline whose paragraph also holds other words. Badges (dealer, turn, out, ×2) are
at least 12 px.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
MINIMUM = 44

# The targets on the page smaller than 44×44 px, as "what it is: width×height".
_SMALL_TARGETS = """
(minimum) => {
  const visible = el => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && !el.closest("[hidden], .sr-only");
  };
  const inSentence = a => {
    if (getComputedStyle(a).display !== "inline") { return false; }
    const block = a.parentElement.closest("p, li, dd, td, th, figcaption, label, span.hint");
    if (!block) { return false; }
    const words = block.textContent.replace(a.textContent, "").replace(/[\\s·|()—–-]+/g, "");
    return words.length > 0;
  };
  const targets = new Set();
  document.querySelectorAll("button, a[href], input:not([type=hidden]), select, textarea, summary").forEach(el => {
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      const label = el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`));
      targets.add(label || el);
    } else if (!(el.matches("a[href]") && inSentence(el))) {
      targets.add(el);
    }
  });
  return Array.from(targets).filter(visible).map(el => {
    const box = el.getBoundingClientRect();
    const name = (el.getAttribute("aria-label") || el.textContent || el.name || el.id || "").trim().slice(0, 40);
    return [el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ").join(".") : ""),
            name, Math.round(box.width), Math.round(box.height)];
  }).filter(([, , width, height]) => width < minimum || height < minimum);
}
"""

_SMALL_BADGES = """
() => Array.from(document.querySelectorAll(
  '.badge, .out-mark, .lead-mark, .dealer-mark, .turn-mark, .knocked-score'))
  .filter(el => el.getBoundingClientRect().width > 0)
  .map(el => [el.className, el.textContent.trim(), parseFloat(getComputedStyle(el).fontSize)])
  .filter(([, , size]) => size < 12)
"""


def _game(base_url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
    status, game = call(base_url, "POST", "/api/games", body, headers=headers)
    assert status == 201, game
    return dict(game)


def _tables(base_url: str) -> dict[str, Any]:
    """A 3-13 money game two rounds in (with a doubled round), a Play or Pay game one card in, a group."""
    status, group = call(base_url, "POST", "/api/groups", {"name": "Thursday night", "players": PLAYERS})
    assert status == 201, group
    keyed = {"X-Group-Key": group["edit_key"]}
    money = _game(
        base_url,
        {"variant": "3-13", "players": PLAYERS, "group": group["id"], "options": {"double_rounds": [1, 2]}},
        keyed,
    )
    for out in ("Ann", "Bob"):
        scores = {name: 0 if name == out else 9 for name in PLAYERS}
        status, answer = call(
            base_url,
            "POST",
            f"/api/games/{money['id']}/rounds",
            {"went_out": out, "scores": scores},
            key=money["edit_key"],
        )
        assert status == 201, answer
    chips = _game(base_url, {"variant": "play-or-pay", "players": PLAYERS, "first_dealer": "Ann"})
    return {"group": group, "3-13": money, "play-or-pay": chips}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=1)
    try:
        yield context
    finally:
        context.close()


def _problems(page: Any, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("load")  # stylesheets applied
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    small = [
        f"{url}: {kind} {name!r} is {width}×{height}"
        for kind, name, width, height in page.evaluate(_SMALL_TARGETS, MINIMUM)
    ]
    badges = [f"{url}: badge {kind} {text!r} is {size} px" for kind, text, size in page.evaluate(_SMALL_BADGES)]
    return small + badges


def _pages(tables: dict[str, Any]) -> list[str]:
    money, chips, group = tables["3-13"]["id"], tables["play-or-pay"]["id"], tables["group"]["id"]
    return ["/", f"/games/{money}", f"/games/{chips}/hand", "/check", f"/groups/{group}"]


def test_every_tap_target_of_the_table_pages_is_44_px_square(phone: Any, base_url: str) -> None:
    tables = _tables(base_url)
    page = phone.new_page()
    for kind in ("3-13", "play-or-pay"):
        game = tables[kind]
        page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
        page.wait_for_url(lambda url: "/join" not in url)
    group = tables["group"]
    page.goto(f"{base_url}/groups/{group['id']}/join#key={group['edit_key']}")
    page.wait_for_url(lambda url: "/join" not in url)
    found = [problem for path in _pages(tables) for problem in _problems(page, base_url + path)]
    assert found == [], "\n".join(found)


def test_view_only_pages_have_44_px_tap_targets_too(phone: Any, base_url: str) -> None:
    tables = _tables(base_url)
    page = phone.new_page()
    found = [problem for path in _pages(tables) for problem in _problems(page, base_url + path)]
    assert found == [], "\n".join(found)
