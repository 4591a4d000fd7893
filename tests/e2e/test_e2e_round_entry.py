"""Entering a round on the game page at a 360×740 phone (issue 13): few taps, no page load, the
409 path when another phone saved first, Back that never shows a stale form, and where the page lands.

Uses the system Chromium (/usr/bin/chromium); never downloads a browser.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2}


def _game(base_url: str, variant: str = "pay-me") -> dict[str, Any]:
    status, game = call(base_url, "POST", "/api/games", {"variant": variant, "players": PLAYERS, "first_dealer": "Ann"})
    assert status == 201, game
    return dict(game)


def _state(base_url: str, game: dict[str, Any]) -> dict[str, Any]:
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    return dict(state)


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """New phone contexts (each its own cookies), closed afterwards."""
    opened: list[Any] = []

    def open_phone(**options: Any) -> Any:
        context = browser.new_context(**PHONE, **options)
        opened.append(context)
        return context.new_page()

    yield open_phone
    for context in opened:
        context.close()


def _join(page: Any, base_url: str, game: dict[str, Any]) -> None:
    """Give this phone the edit key through the join page's form (with or without script)."""
    page.goto(f"{base_url}/games/{game['id']}/join")
    page.get_by_label("Edit key").fill(game["edit_key"])
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{base_url}/games/{game['id']}")


class Counter:
    """The taps a test makes and the page loads (main-frame navigations) they cause."""

    def __init__(self, page: Any) -> None:
        self.taps = 0
        self.loads = 0
        page.on("framenavigated", lambda frame: self._navigated(page, frame))

    def _navigated(self, page: Any, frame: Any) -> None:
        if frame == page.main_frame:
            self.loads += 1

    def tap(self, locator: Any) -> None:
        self.taps += 1
        locator.click()


def test_a_four_player_round_takes_five_taps_and_no_page_load(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _join(page, base_url, game)
    counter = Counter(page)

    counter.tap(page.locator("label.radio", has_text="Dee"))
    expect(page.get_by_role("textbox", name="Dee", exact=True)).to_have_value("0")
    for name, digits in (("Ann", "10+5+5"), ("Bob", "7"), ("Cy", "30")):
        counter.tap(page.get_by_role("textbox", name=name, exact=True))
        page.keyboard.type(digits)
    expect(page.locator("#scores-0-sum")).to_have_text("= 20")
    counter.tap(page.get_by_role("button", name="Save round 1"))

    expect(page.locator("#round-h")).to_contain_text("Round 2")
    expect(page.locator(".standings li").nth(0)).to_contain_text("Dee")
    expect(page.locator(".standings li").nth(3)).to_contain_text("30")
    assert counter.taps <= 5
    assert counter.loads == 0
    assert [round_["scores"] for round_ in _state(base_url, game)["rounds"]] == [
        {"Ann": 20, "Bob": 7, "Cy": 30, "Dee": 0}
    ]
    # The eye lands on the new standings, with the next round's dealer and wild cards below them.
    expect(page.locator("#standings-h")).to_be_in_viewport()
    expect(page.locator("#round .facts.brief dt", has_text="Dealer")).to_be_in_viewport()
    expect(page.locator("#round .facts.brief dt", has_text="Wild")).to_be_in_viewport()
    # The next round's form is ready: fresh version, nobody chosen, the declarer's 0 filled in again.
    expect(page.locator("#entry-h")).to_have_text("Enter round 2 scores")
    page.locator("label.radio", has_text="Ann").click()
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_have_value("0")
    assert errors == []


def test_another_phone_saved_first_nothing_is_saved_twice(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    first, second = phones(), phones()
    for page in (first, second):
        _join(page, base_url, game)
        page.locator("label.radio", has_text="Bob").click()
        for name, points in (("Ann", "5"), ("Cy", "6"), ("Dee", "7")):
            page.get_by_role("textbox", name=name, exact=True).fill(points)
    first.get_by_role("button", name="Save round 1").click()
    expect(first.locator("#round-h")).to_contain_text("Round 2")

    second.get_by_role("textbox", name="Dee", exact=True).fill("9")
    second.get_by_role("button", name="Save round 1").click()
    note = second.locator("#conflict-note, .draft-note").first  # the 409, or the live update before it
    expect(note).to_contain_text(
        "Another phone saved round 1 meanwhile: Bob went out; Ann 5, Bob 0, Cy 6, Dee 7. "
        "You typed Bob went out; Ann 5, Bob 0, Cy 6, Dee 9."
    )
    assert len(_state(base_url, game)["rounds"]) == 1
    # One tap keeps this phone's values as the correction of round 1 (version-checked).
    note.get_by_role("button", name="Keep mine as the correction of round 1").click()
    expect(second.locator("#history")).to_contain_text("Round 1 corrected")
    rounds = _state(base_url, game)["rounds"]
    assert [round_["scores"]["Dee"] for round_ in rounds] == [9]
    expect(second.locator("#round-h")).to_contain_text("Round 2")


def test_a_correction_elsewhere_keeps_this_phones_entries(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    status, _ = call(
        base_url,
        "POST",
        f"/api/games/{game['id']}/rounds",
        {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 1, "Cy": 2, "Dee": 3}},
        key=game["edit_key"],
    )
    assert status == 201
    page = phones()
    _join(page, base_url, game)
    page.locator("label.radio", has_text="Cy").click()
    for name, points in (("Ann", "4"), ("Bob", "5"), ("Dee", "6")):
        page.get_by_role("textbox", name=name, exact=True).fill(points)
    status, _ = call(
        base_url,
        "PUT",
        f"/api/games/{game['id']}/rounds/1",
        {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 9, "Cy": 2, "Dee": 3}},
        key=game["edit_key"],
    )
    assert status == 200
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("#entry-error")).to_contain_text("another phone changed this game meanwhile")
    assert len(_state(base_url, game)["rounds"]) == 1
    expect(page.get_by_role("textbox", name="Dee", exact=True)).to_have_value("6")
    page.get_by_role("button", name="Save round 2").click()  # saving again is a deliberate second tap
    expect(page.locator("#round-h")).to_contain_text("Round 3")
    assert len(_state(base_url, game)["rounds"]) == 2


def _round_one_with_dee_out(page: Any) -> None:
    page.locator("label.radio", has_text="Dee").click()
    for name, points in (("Ann", "5"), ("Bob", "6"), ("Cy", "7"), ("Dee", "0")):  # no JS fills Dee's 0
        page.get_by_role("textbox", name=name, exact=True).fill(points)
    page.get_by_role("button", name="Save round 1").click()


def _shows_a_fresh_round_two_form(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#entry-h")).to_have_text("Enter round 2 scores")
    assert page.locator("input[name=went_out]:checked").count() == 0
    for index in range(len(PLAYERS)):
        expect(page.locator(f"#scores-{index}")).to_have_value("")


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_back_after_saving_shows_the_game_as_it_is_now(phones: Any, base_url: str, javascript: bool) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones(java_script_enabled=javascript)
    _join(page, base_url, game)
    if javascript:  # saved in place; Back comes from the next page the phone opens
        _round_one_with_dee_out(page)
        expect(page.locator("#round-h")).to_contain_text("Round 2")
        page.get_by_role("link", name="Rules").first.click()
        page.wait_for_load_state("load")
    else:  # post-redirect-get: Back returns to the page the form was on
        response = page.goto(page.url)
        assert response.headers["cache-control"] == "no-store"
        _round_one_with_dee_out(page)
        expect(page.locator("#round-h")).to_contain_text("Round 2")
        assert page.url.endswith("#standings")
    page.go_back()
    page.wait_for_load_state("load")
    _shows_a_fresh_round_two_form(page)
    version = _state(base_url, game)["version"]
    expect(page.locator("#round-entry input[name=version]")).to_have_value(str(version))
    assert len(_state(base_url, game)["rounds"]) == 1


def test_the_last_round_lands_on_the_winners_and_rematch(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    for number in range(10):
        out = PLAYERS[number % 4]
        scores = {name: 0 if name == out else 5 for name in PLAYERS}
        status, _ = call(
            base_url,
            "POST",
            f"/api/games/{game['id']}/rounds",
            {"went_out": out, "scores": scores},
            key=game["edit_key"],
        )
        assert status == 201
    page = phones()
    _join(page, base_url, game)
    page.locator("label.radio", has_text="Ann").click()
    for name in ("Bob", "Cy", "Dee"):
        page.get_by_role("textbox", name=name, exact=True).fill("10")
    page.get_by_role("button", name="Save round 11").click()
    expect(page.locator("#result-h")).to_have_text("Game over")
    expect(page.locator("#result-h")).to_be_in_viewport()
    expect(page.locator(".winners")).to_contain_text("Ann")
    expect(page.get_by_role("button", name="Rematch")).to_be_in_viewport()
    assert page.locator("#round-entry").count() == 0


def test_import_from_the_home_page_opens_the_game_for_editing(phones: Any, base_url: str, tmp_path: Any) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    status, _ = call(
        base_url,
        "POST",
        f"/api/games/{game['id']}/rounds",
        {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 1, "Cy": 2, "Dee": 3}},
        key=game["edit_key"],
    )
    assert status == 201
    status, exported = call(base_url, "GET", f"/api/games/{game['id']}/export")
    assert status == 200
    export = tmp_path / "pay-me.json"
    export.write_text(json.dumps(exported))

    page = phones()
    page.goto(base_url + "/")
    page.get_by_label("Exported game (JSON file)").set_input_files(str(export))
    page.get_by_role("button", name="Import the game").click()
    expect(page.locator("#entry-h")).to_have_text("Enter round 2 scores")
    assert game["id"] not in page.url
    expect(page.locator(".standings li").nth(3)).to_contain_text("3")


_OVERLAPS = """
() => Array.from(document.querySelectorAll('.grid tbody th')).filter(th => {
  const badge = th.querySelector('.badge');
  if (!badge) { return false; }
  const range = document.createRange();
  const text = th.firstChild;
  range.selectNodeContents(text.nodeType === 3 && text.textContent.trim() ? text : th.querySelector('a'));
  const number = range.getBoundingClientRect(), box = badge.getBoundingClientRect();
  return !(box.top >= number.bottom || box.bottom <= number.top
           || box.left >= number.right || box.right <= number.left);
}).length
"""

_SMALL_BADGES = """
() => Array.from(document.querySelectorAll('.badge, .out-mark, .lead-mark'))
  .map(el => parseFloat(getComputedStyle(el).fontSize)).filter(size => size < 12).length
"""


@pytest.mark.parametrize("editing", [True, False], ids=["scorekeeper", "view-only"])
def test_badges_are_readable_and_never_cover_the_round_number(phones: Any, base_url: str, editing: bool) -> None:
    from playwright.sync_api import expect

    players = ["Ann", "Maximiliana Rosalind", "Cy"]
    status, game = call(
        base_url,
        "POST",
        "/api/games",
        {"variant": "3-13", "players": players, "first_dealer": "Ann", "options": {"double_rounds": [1, 2]}},
    )
    assert status == 201, game
    for out in ("Ann", "Cy"):
        scores = {name: 0 if name == out else 7 for name in players}
        status, _ = call(
            base_url,
            "POST",
            f"/api/games/{game['id']}/rounds",
            {"went_out": out, "scores": scores},
            key=game["edit_key"],
        )
        assert status == 201
    page = phones()
    if editing:
        _join(page, base_url, game)
    else:
        page.goto(f"{base_url}/games/{game['id']}")
    expect(page.locator(".grid tbody .badge").first).to_have_text("×2")
    assert page.evaluate(_OVERLAPS) == 0
    assert page.evaluate(_SMALL_BADGES) == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    expect(page.locator("#chart figcaption")).to_contain_text("Maximiliana Ros… is Maximiliana Rosalind")
