"""Never lose a round (issue 24), the phone side, in headless Chromium at 360×740 with touch.

Two phones: a live update keeps what the other phone typed, and says so when its round was saved
elsewhere; a draft survives a reload. With the network cut (context.set_offline) rounds go into the
outbox and are stored exactly once, in order, when it returns, without a tap; a resend that meets a
409 is shown, not lost. On http://127.0.0.1 (a secure context) the service worker reopens a game
offline with its standings. A player named __proto__ can save a round. Uses /usr/bin/chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import call

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "has_touch": True}
LIVE_WAIT_MS = 15_000  # the page asks every 2.5 s; a loaded machine may take longer to swap it in
RESEND_WAIT_MS = 20000


def _game(base_url: str, players: list[str] | None = None) -> dict[str, Any]:
    body = {"variant": "pay-me", "players": players or PLAYERS, "first_dealer": (players or PLAYERS)[0]}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    return dict(game)


def _state(base_url: str, game: dict[str, Any]) -> dict[str, Any]:
    status, state = call(base_url, "GET", f"/api/games/{game['id']}")
    assert status == 200
    return dict(state)


def _stored_round(base_url: str, game: dict[str, Any], went_out: str, scores: dict[str, int]) -> None:
    version = _state(base_url, game)["version"]
    body = {"went_out": went_out, "scores": scores, "version": version}
    status, answer = call(base_url, "POST", f"/api/games/{game['id']}/rounds", body, key=game["edit_key"])
    assert status == 201, answer


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """New phone contexts (each its own cookies and storage), closed afterwards; console errors collected."""
    opened: list[Any] = []

    def open_phone(errors: list[str] | None = None) -> Any:
        context = browser.new_context(**PHONE)
        opened.append(context)
        page = context.new_page()
        if errors is not None:
            page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_phone
    for context in opened:
        context.close()


def _join(page: Any, base_url: str, game: dict[str, Any]) -> None:
    page.goto(f"{base_url}/games/{game['id']}/join")
    page.get_by_label("Edit key").fill(game["edit_key"])
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{base_url}/games/{game['id']}")


def _type_round(page: Any, number: int, went_out: str, scores: dict[str, str]) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#entry-h")).to_have_text(f"Enter round {number} scores")
    page.locator("#round-entry label.radio", has_text=went_out).click()
    for name, points in scores.items():
        page.get_by_role("textbox", name=name, exact=True).fill(points)


def _save_round(page: Any, number: int, went_out: str, scores: dict[str, str]) -> None:
    _type_round(page, number, went_out, scores)
    page.get_by_role("button", name=f"Save round {number}").click()


def _box(page: Any, game: dict[str, Any]) -> list[Any]:
    found: list[Any] = page.evaluate(f"JSON.parse(localStorage.getItem('ctc:outbox:{game['id']}') || '[]')")
    return found


def test_a_live_update_keeps_what_another_phone_typed_and_says_when_its_round_was_saved(
    phones: Any, base_url: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    game = _game(base_url)
    _stored_round(base_url, game, "Ann", {"Ann": 0, "Bob": 1, "Cy": 2, "Dee": 3})
    scorer, other = phones(errors), phones(errors)
    _join(scorer, base_url, game)
    _join(other, base_url, game)

    # B picks who went out, types two scores and closes the keyboard (the fields lose focus).
    _type_round(other, 2, "Cy", {"Ann": "13", "Bob": "21"})
    other.locator("#standings-h").click()
    # A corrects another round: B's page updates live, B's form stays as typed.
    scorer.goto(f"{base_url}/games/{game['id']}/rounds/1/edit")
    scorer.get_by_role("textbox", name="Dee", exact=True).fill("30")
    scorer.get_by_role("button", name="Save correction").click()
    expect(other.locator("#history")).to_contain_text("Round 1 corrected", timeout=LIVE_WAIT_MS)
    expect(other.get_by_role("textbox", name="Ann", exact=True)).to_have_value("13")
    expect(other.get_by_role("textbox", name="Bob", exact=True)).to_have_value("21")
    expect(other.locator("#round-entry input[name=went_out][value=Cy]")).to_be_checked()

    # A saves the same round: B's form stays as typed, and a notice shows stored beside typed.
    scorer.goto(f"{base_url}/games/{game['id']}")
    _save_round(scorer, 2, "Cy", {"Ann": "13", "Bob": "20", "Dee": "5"})
    expect(scorer.locator("#entry-h")).to_have_text("Enter round 3 scores")
    note = other.locator("#round-entry .draft-note")
    expect(note).to_have_text(
        "Another phone saved round 2 meanwhile: Cy went out; Ann 13, Bob 20, Cy 0, Dee 5. "
        "You typed Cy went out; Ann 13, Bob 21, Cy 0, Dee ?."
        "Keep mine as the correction of round 2Drop mine",
        timeout=LIVE_WAIT_MS,
    )
    expect(other.get_by_role("textbox", name="Bob", exact=True)).to_have_value("21")
    expect(other.locator("#entry-h")).to_have_text("Enter round 2 scores")
    # Dropping it removes the draft and brings the next round's form.
    note.get_by_role("button", name="Drop mine").click()
    expect(other.locator("#entry-h")).to_have_text("Enter round 3 scores")
    assert other.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ctc:draft:'))") == []
    assert [played["scores"]["Bob"] for played in _state(base_url, game)["rounds"]] == [1, 20]
    assert errors == []


def test_a_draft_survives_a_reload(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones()
    _join(page, base_url, game)
    _type_round(page, 1, "Bob", {"Ann": "10+5", "Cy": "7"})
    page.reload()
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_have_value("10+5")
    expect(page.get_by_role("textbox", name="Cy", exact=True)).to_have_value("7")
    expect(page.locator("#round-entry input[name=went_out][value=Bob]")).to_be_checked()
    expect(page.locator("#scores-0-sum")).to_have_text("= 15")
    page.get_by_role("textbox", name="Dee", exact=True).fill("4")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#round-h")).to_contain_text("Round 2")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('ctc:draft:'))") == []  # saved: gone
    page.reload()
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_have_value("")


def test_three_rounds_entered_offline_are_stored_once_in_order_when_the_connection_returns(
    phones: Any, base_url: str
) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones()
    _join(page, base_url, game)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.headers.get("idempotency-key", "")) if r.method == "POST" else None)
    page.context.set_offline(True)
    rounds = [
        ("Ann", {"Bob": "5", "Cy": "6", "Dee": "7"}),
        ("Bob", {"Ann": "8", "Cy": "9", "Dee": "10"}),
        ("Cy", {"Ann": "11", "Bob": "12", "Dee": "13"}),
    ]
    for number, (went_out, scores) in enumerate(rounds, start=1):
        _save_round(page, number, went_out, scores)
        expect(page.locator("#outbox")).to_contain_text(f"Round {number}: waiting to send")
    expect(page.locator("#outbox")).to_contain_text("Round 1: waiting to send — no connection")
    expect(page.locator("#entry-h")).to_have_text("Enter round 4 scores")
    expect(page.locator(".standings li", has_text="Dee")).to_contain_text("+30 not yet sent")
    assert _state(base_url, game)["rounds"] == []
    assert len(_box(page, game)) == 3

    page.context.set_offline(False)  # no tap after this
    expect(page.locator("#round-h")).to_contain_text("Round 4", timeout=RESEND_WAIT_MS)
    expect(page.locator("#outbox")).to_be_empty()
    stored = _state(base_url, game)["rounds"]
    assert [(played["went_out"], played["scores"]["Dee"]) for played in stored] == [
        ("Ann", 7),
        ("Bob", 10),
        ("Cy", 13),
    ]
    assert _box(page, game) == []
    keys = [key for key in sent if key]
    assert len(set(keys)) == 3  # one key per round, the same on every resend
    expect(page.locator(".pending-points")).to_have_count(0)


def test_a_round_whose_resend_meets_a_409_is_shown_not_lost(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones()
    _join(page, base_url, game)
    page.context.set_offline(True)
    _save_round(page, 1, "Bob", {"Ann": "4", "Cy": "5", "Dee": "6"})
    expect(page.locator("#outbox")).to_contain_text("Round 1: waiting to send")
    _stored_round(base_url, game, "Bob", {"Ann": 4, "Bob": 0, "Cy": 5, "Dee": 16})  # another phone, meanwhile

    page.context.set_offline(False)
    note = page.locator("#conflict-note")
    expect(note).to_contain_text(
        "Another phone saved round 1 meanwhile: Bob went out; Ann 4, Bob 0, Cy 5, Dee 16. "
        "You typed Bob went out; Ann 4, Bob 0, Cy 5, Dee 6.",
        timeout=RESEND_WAIT_MS,
    )
    assert len(_box(page, game)) == 1  # kept until the person decides
    page.reload()
    expect(page.locator("#conflict-note")).to_contain_text("You typed Bob went out; Ann 4, Bob 0, Cy 5, Dee 6.")
    page.get_by_role("button", name="Keep mine as the correction of round 1").click()
    expect(page.locator("#history")).to_contain_text("Round 1 corrected", timeout=RESEND_WAIT_MS)
    assert [played["scores"]["Dee"] for played in _state(base_url, game)["rounds"]] == [6]
    assert _box(page, game) == []


def test_a_game_opened_once_reopens_offline_with_its_standings(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    assert base_url.startswith("http://127.0.0.1")  # a secure context without a certificate
    game = _game(base_url)
    _stored_round(base_url, game, "Ann", {"Ann": 0, "Bob": 21, "Cy": 2, "Dee": 3})
    page = phones()
    _join(page, base_url, game)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()  # this time through the service worker, which keeps a copy
    expect(page.locator(".standings li").last).to_contain_text("21")
    page.context.set_offline(True)
    page.goto(f"{base_url}/games/{game['id']}")
    expect(page.locator("#offline-banner")).to_contain_text("Offline — standings as of ")
    expect(page.locator(".standings li").last).to_contain_text("Bob")
    expect(page.locator(".standings li").last).to_contain_text("21")
    # The outbox still works offline.
    _save_round(page, 2, "Bob", {"Ann": "1", "Cy": "2", "Dee": "3"})
    expect(page.locator("#outbox")).to_contain_text("Round 2: waiting to send")
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_empty(timeout=RESEND_WAIT_MS)
    assert len(_state(base_url, game)["rounds"]) == 2
    expect(page.locator("#offline-banner")).to_be_hidden()


def test_a_player_named_proto_can_save_a_round(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _game(base_url, ["Ann", "__proto__", "Cy"])
    page = phones()
    _join(page, base_url, game)
    _save_round(page, 1, "Ann", {"__proto__": "12", "Cy": "3"})
    expect(page.locator("#round-h")).to_contain_text("Round 2")  # stored: the page as the server has it
    assert _state(base_url, game)["rounds"][0]["scores"] == {"Ann": 0, "__proto__": 12, "Cy": 3}


def test_play_or_pay_quick_mode_keeps_what_was_typed_through_a_live_update(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    body = {"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann", "options": {"chips": 20}}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    page = phones()
    page.goto(f"{base_url}/games/{game['id']}/join")
    page.get_by_label("Edit key").fill(game["edit_key"])
    page.get_by_role("button", name="Join").click()
    page.goto(f"{base_url}/games/{game['id']}/hand")
    page.locator("#quick summary").click()
    page.locator("#quick-form label.radio", has_text="Cy").click()
    page.locator("#cards_left-0").fill("3")
    page.locator("#hand-h").click()  # the keyboard closes
    version = _state(base_url, game)["version"]
    event = {"type": "play", "player": "Bob", "card": "3H", "version": version}
    status, answer = call(base_url, "POST", f"/api/games/{game['id']}/events", event, key=game["edit_key"])
    assert status in (200, 201), answer
    expect(page.locator(".played-cards")).to_contain_text("3", timeout=LIVE_WAIT_MS)  # the page updated live
    expect(page.locator("#cards_left-0")).to_have_value("3")
    expect(page.locator("#quick-form input[name=winner][value=Cy]")).to_be_checked()


def test_the_key_holder_can_keep_the_screen_on_and_turn_it_off(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    game = _game(base_url)
    viewer = phones(errors)
    viewer.goto(f"{base_url}/games/{game['id']}")
    expect(viewer.locator("#standings")).to_be_visible()
    page = phones(errors)
    _join(page, base_url, game)
    switch = page.get_by_label("Keep this screen on")
    expect(switch).to_be_checked()
    switch.uncheck()
    page.reload()
    expect(page.get_by_label("Keep this screen on")).not_to_be_checked()  # the choice is kept
    assert viewer.locator("#wake-switch").count() == 0
    # Where the API is missing (plain http), nothing is shown and nothing breaks.
    bare = phones(errors)
    bare.add_init_script("delete Navigator.prototype.wakeLock")
    _join(bare, base_url, game)
    expect(bare.locator("#entry-h")).to_be_visible()
    assert bare.locator("#wake-switch").count() == 0
    assert errors == []


def test_a_queued_round_the_server_refuses_goes_back_into_the_form_with_its_sentence(
    phones: Any, base_url: str
) -> None:
    from playwright.sync_api import expect

    game = _game(base_url)
    page = phones()
    _join(page, base_url, game)
    page.context.set_offline(True)
    _save_round(page, 1, "Bob", {"Ann": "4", "Bob": "9", "Cy": "5", "Dee": "6"})  # Bob went out but scores 9
    expect(page.locator("#outbox")).to_contain_text("Round 1: waiting to send")
    expect(page.locator("#entry-h")).to_have_text("Enter round 2 scores")
    page.context.set_offline(False)
    expect(page.locator("#entry-error")).to_contain_text("Not saved: ", timeout=RESEND_WAIT_MS)
    expect(page.locator("#entry-h")).to_have_text("Enter round 1 scores")
    expect(page.get_by_role("textbox", name="Bob", exact=True)).to_have_value("9")
    expect(page.get_by_role("textbox", name="Dee", exact=True)).to_have_value("6")
    assert _state(base_url, game)["rounds"] == []
    page.get_by_role("textbox", name="Bob", exact=True).fill("0")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#round-h")).to_contain_text("Round 2")  # the page as the server has it now
    expect(page.locator("#outbox")).to_be_empty()
    assert [played["scores"]["Dee"] for played in _state(base_url, game)["rounds"]] == [6]
    assert _box(page, game) == []
