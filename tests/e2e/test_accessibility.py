"""Every page, checked by axe-core in headless Chromium on a 360×740 phone: no serious or critical violation.

axe-core is vendored from the npm registry (tests/vendor/axe-core). Each page is checked in the
light and the dark colour scheme, as the phone that holds the game's edit key sees it (so the
edit forms are on the page), and the pages a phone without the key sees are checked too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]

_RUN_AXE = """
async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + ": " + n.failureSummary),
  }));
}
"""


def _game(base_url: str, body: dict[str, Any]) -> dict[str, Any]:
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    return dict(game)


def _round(base_url: str, game: dict[str, Any], body: dict[str, Any]) -> None:
    status, answer = call(base_url, "POST", f"/api/games/{game['id']}/rounds", body, key=game["edit_key"])
    assert status == 201, answer


def _tables(base_url: str) -> dict[str, dict[str, Any]]:
    """A Pay Me game two rounds in (one scored from cards), a finished 3-13 money game, and Play or Pay."""
    pay_me = _game(base_url, {"variant": "pay-me", "players": PLAYERS[:3], "first_dealer": "Ann"})
    _round(base_url, pay_me, {"went_out": "Bob", "scores": {"Ann": 15, "Bob": 0, "Cy": 30}})
    _round(
        base_url,
        pay_me,
        {"went_out": "Ann", "declarer": ["4H 5H 6H 7H"], "hands": {"Bob": "8H 9S 10S JS", "Cy": "KD QD JD 2C"}},
    )
    money = _game(base_url, {"variant": "3-13", "players": PLAYERS, "first_dealer": "Ann"})
    for number in range(11):
        scores = {name: (seat + number) % 5 * 7 for seat, name in enumerate(PLAYERS)}
        went_out = next(name for name, points in scores.items() if points == 0)
        _round(base_url, money, {"went_out": went_out, "scores": scores})
    chips = _game(base_url, {"variant": "play-or-pay", "players": PLAYERS[:4], "first_dealer": "Ann"})
    ended = _game(base_url, {"variant": "play-or-pay", "players": PLAYERS[:3], "first_dealer": "Ann"})
    for body in (
        {"type": "purchase", "player": PLAYERS[2], "chips": 10},
        {"type": "settle", "winner": PLAYERS[0], "cards_left": {PLAYERS[1]: 3, PLAYERS[2]: 1}},
    ):
        status, answer = call(base_url, "POST", f"/api/games/{ended['id']}/events", body, key=ended["edit_key"])
        assert status == 201, answer
    status, answer = call(base_url, "POST", f"/api/games/{ended['id']}/end", {}, key=ended["edit_key"])
    assert status == 200, answer
    # A Play or Pay hand followed card by card: the Played and Paid buttons, and quick mode with its confirm box.
    midway = _game(base_url, {"variant": "play-or-pay", "players": PLAYERS[:3], "first_dealer": "Ann"})
    for body in ({"type": "play", "player": PLAYERS[1], "card": "7H"}, {"type": "pay", "player": PLAYERS[2]}):
        status, answer = call(base_url, "POST", f"/api/games/{midway['id']}/events", body, key=midway["edit_key"])
        assert status == 201, answer
    # A 3-13 game under way: the round form on the game page says "knocked" and counts second discards.
    playing = _game(
        base_url, {"variant": "3-13", "players": PLAYERS, "first_dealer": "Ann", "options": {"double_rounds": [1]}}
    )
    _round(base_url, playing, {"went_out": "Ann", "scores": {name: 0 if name == "Ann" else 9 for name in PLAYERS}})
    return {
        "pay-me": pay_me,
        "3-13": money,
        "play-or-pay": chips,
        "3-13-playing": playing,
        "play-or-pay-ended": ended,
        "play-or-pay-midway": midway,
        "group": _group(base_url),
        "contract-rummy": _contract_rummy(base_url),
    }


def _contract_rummy(base_url: str) -> dict[str, Any]:
    """A Contract Rummy game one deal in, with buys and the exact cut (issue 15)."""
    body = {"variant": "contract-rummy", "players": PLAYERS[:4], "first_dealer": "Ann", "options": {"exact_cut": True}}
    game = _game(base_url, body)
    for player in ("Bob", "Bob", "Dee"):
        status, answer = call(
            base_url, "POST", f"/api/games/{game['id']}/buys", {"player": player}, key=game["edit_key"]
        )
        assert status == 200, answer
    _round(base_url, game, {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 35, "Cy": 20, "Dee": 5}, "exact_cut": "Cy"})
    call(base_url, "POST", f"/api/games/{game['id']}/buys", {"player": "Cy"}, key=game["edit_key"])
    return game


def _group(base_url: str) -> dict[str, Any]:
    """A group with a finished Pay Me game (with a simple pot) and an unfinished one (issue 14)."""
    status, group = call(base_url, "POST", "/api/groups", {"name": "Thursday night", "players": PLAYERS[:3]})
    assert status == 201, group
    keyed = {"X-Group-Key": group["edit_key"]}
    body = {"variant": "pay-me", "players": PLAYERS[:3], "group": group["id"], "options": {"pot": True}}
    status, game = call(base_url, "POST", "/api/games", body, headers=keyed)
    assert status == 201, game
    for number in range(11):
        _round(base_url, game, {"went_out": "Ann", "scores": {"Ann": 0, "Bob": number, "Cy": 3}})
    status, _ = call(base_url, "POST", "/api/games", {**body, "players": PLAYERS[1:3]}, headers=keyed)
    assert status == 201
    return dict(group)


def _pages(tables: dict[str, dict[str, Any]]) -> list[str]:
    kinds = ("pay-me", "3-13", "play-or-pay", "play-or-pay-ended")
    pay_me, money, chips, ended = (tables[kind]["id"] for kind in kinds)
    return [
        "/",
        "/games/new",
        "/games/new/chips",
        "/check",
        # Contract Rummy (issue 15): the checker in its contract mode, the rules page, the blank sheet.
        "/check?variant=contract-rummy&round=3&meld-0=5H+6H+7H+8H&table-0=9S+10S+JK+QS&onto=1&cards=KS&hand=AH+KS+JK",
        "/check?variant=contract-rummy&round=1&joker_swap=true&meld-0=5H+5S+5D&meld-1=JK+JK+JK",
        "/rules/contract-rummy",
        "/sheets/contract-rummy?players=Ann,Bob,Cy,Dee",
        "/rules",
        "/rules/pay-me",
        "/rules/pay-me-family",
        "/rules/three-thirteen",
        "/rules/3-13",
        "/rules/play-or-pay",
        "/sheets",
        "/sheets/3-13?players=Ann,Bob,Cy,Dee,Eve",  # a blank sheet as a page (/sheets/print answers with the PDF)
        f"/games/{pay_me}",
        f"/games/{pay_me}/rounds/new",
        f"/games/{pay_me}/rounds/1/edit",
        f"/games/{pay_me}/rounds/2/layoffs",
        f"/games/{pay_me}/rounds/cards",
        f"/games/{pay_me}/check",
        f"/games/{pay_me}/rules",
        f"/games/{pay_me}/sheet",
        f"/games/{pay_me}/delete",
        f"/games/{pay_me}/join",
        f"/games/{money}",
        f"/games/{money}/pot",
        f"/games/{money}/sheet",
        f"/games/{chips}",
        f"/games/{chips}/hand",
        f"/games/{chips}/rules",
        f"/games/{ended}/hand",  # the results of a game the table ended (D17)
        f"/games/{ended}/sheet",
        f"/games/{tables['play-or-pay-midway']['id']}/hand",  # Played and Paid, quick mode midway
        f"/games/{tables['3-13-playing']['id']}",
        "/games/no-such-game",
        "/sheets/print?preset=no-such-game",
        "/groups/new",
        f"/groups/{tables['group']['id']}",
        f"/groups/{tables['group']['id']}/join",
        "/games/new?variant=contract-rummy",
        f"/games/{tables['contract-rummy']['id']}",
        f"/games/{tables['contract-rummy']['id']}/rounds/new",
        f"/games/{tables['contract-rummy']['id']}/rounds/cards",
        f"/games/{tables['contract-rummy']['id']}/sheet",
    ]


@pytest.fixture
def tables(base_url: str) -> dict[str, dict[str, Any]]:
    return _tables(base_url)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, bypass_csp=True)
    try:
        yield context
    finally:
        context.close()


ERROR_PAGES = ("/games/no-such-game", "/sheets/print?preset=no-such-game")  # checked on purpose: error pages


def _violations(page: Any, url: str, scheme: str) -> list[str]:
    page.emulate_media(color_scheme=scheme)
    response = page.goto(url)
    if not url.endswith(ERROR_PAGES):  # the page meant is checked, not an error page in its place
        assert response is not None and response.status == 200, f"{url}: {response and response.status}"
    page.wait_for_load_state("load")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(_RUN_AXE)
    return [
        f"{url} ({scheme}): {item['impact']} {item['id']} — {item['help']}: {item['nodes']}"
        for item in found
        if item["impact"] in BLOCKING
    ]


def _join(page: Any, base_url: str, game: dict[str, Any]) -> None:
    """Store the game's edit key in this phone's cookie, as the share QR code does."""
    page.goto(f"{base_url}/games/{game['id']}/join#key={game['edit_key']}")
    page.wait_for_url(lambda url: "/join" not in url)  # its script posted the key; the game (or hand) page


def test_every_page_has_no_serious_accessibility_violation(
    phone: Any, base_url: str, tables: dict[str, dict[str, Any]]
) -> None:
    page = phone.new_page()
    for kind, game in tables.items():
        if kind == "group":
            page.goto(f"{base_url}/groups/{game['id']}/join#key={game['edit_key']}")
            page.wait_for_url(lambda url: "/join" not in url)  # its script posted the key; the group page
        else:
            _join(page, base_url, game)
    found = [
        problem
        for path in _pages(tables)
        for scheme in ("light", "dark")
        for problem in _violations(page, base_url + path, scheme)
    ]
    assert found == [], "\n".join(found)


def test_read_only_pages_have_no_serious_accessibility_violation(
    phone: Any, base_url: str, tables: dict[str, dict[str, Any]]
) -> None:
    page = phone.new_page()
    found = [
        problem
        for kind in ("pay-me", "3-13", "play-or-pay", "3-13-playing", "play-or-pay-midway", "contract-rummy")
        for problem in _violations(page, f"{base_url}/games/{tables[kind]['id']}", "light")
    ] + _violations(page, f"{base_url}/groups/{tables['group']['id']}", "light")
    assert found == [], "\n".join(found)


def test_axe_finds_a_violation_it_is_shown(phone: Any, base_url: str) -> None:
    """The check can fail: a page with an unlabelled input and low-contrast text is reported."""
    page = phone.new_page()
    page.goto(base_url + "/rules")
    page.evaluate(
        """() => {
          document.querySelector('main').insertAdjacentHTML('beforeend',
            '<input type="text"><p style="color:#ccc;background:#fff">faint</p>');
        }"""
    )
    page.add_script_tag(path=str(AXE))
    impacts = {item["id"]: item["impact"] for item in page.evaluate(_RUN_AXE)}
    assert impacts.get("label") in BLOCKING
    assert impacts.get("color-contrast") in BLOCKING


def test_the_play_or_pay_hand_page_with_every_panel_open_has_no_serious_violation(
    phone: Any, base_url: str, tables: dict[str, dict[str, Any]]
) -> None:
    """The hand page midway, as the phone holding the key sees it, with quick mode (and its confirm box) open."""
    page = phone.new_page()
    game = tables["play-or-pay-midway"]
    _join(page, base_url, game)
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{base_url}/games/{game['id']}/hand")
        page.wait_for_load_state("load")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert page.locator("#replace").is_visible() and page.locator("#played").is_visible()
        page.add_script_tag(path=str(AXE))
        found += [
            f"hand page, panels open ({scheme}): {item['impact']} {item['id']}: {item['nodes']}"
            for item in page.evaluate(_RUN_AXE)
            if item["impact"] in BLOCKING
        ]
    assert found == [], "\n".join(found)
