"""The outbox of the taps and small forms (issue 24), in headless Chromium at 360×740 with touch.

With the network cut (context.set_offline): a Play or Pay tap, a hand in quick mode, a chip purchase
and Contract Rummy's buys wait in the outbox, the page says so, and each is stored exactly once when the
connection returns, without a tap. A live update while a chip purchase is being typed keeps what was
typed. Uses /usr/bin/chromium.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_e2e_never_lose import LIVE_WAIT_MS, RESEND_WAIT_MS, _state, phones
from tests.servers import call

pytestmark = pytest.mark.browser
__all__ = ["phones"]  # the fixture, shared


def _play_or_pay(base_url: str) -> dict[str, Any]:
    body = {"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann", "options": {"chips": 20}}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    return dict(game)


def _open(page: Any, base_url: str, game: dict[str, Any], address: str) -> None:
    page.goto(f"{base_url}/games/{game['id']}/join")
    page.get_by_label("Edit key").fill(game["edit_key"])
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"{base_url}/games/{game['id']}**")
    page.goto(f"{base_url}{address}")


def _events(base_url: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    status, exported = call(base_url, "GET", f"/api/games/{game['id']}/export")
    assert status == 200, exported
    return list(exported["tables"]["game_events"])


def _taps_box(page: Any, game: dict[str, Any]) -> list[Any]:
    found: list[Any] = page.evaluate(f"JSON.parse(localStorage.getItem('ctc:taps:{game['id']}') || '[]')")
    return found


def test_a_chip_purchase_and_a_quick_hand_made_offline_are_stored_once_when_the_connection_returns(
    phones: Any, base_url: str
) -> None:
    from playwright.sync_api import expect

    game = _play_or_pay(base_url)
    page = phones()
    _open(page, base_url, game, f"/games/{game['id']}/hand")
    page.context.set_offline(True)
    page.locator("#buy-form select[name=player]").select_option("Bob")
    page.locator("#buy-form input[name=chips]").fill("5")
    page.locator("#buy-chips").click()
    outbox = page.locator("#tap-outbox")
    expect(outbox).to_contain_text("Chips bought: Bob 5: waiting to send")
    page.locator("#quick summary").click()
    page.locator("#quick-form label.radio", has_text="Cy").click()
    page.locator("#cards_left-0").fill("2")
    page.locator("#cards_left-1").fill("4")
    page.locator("#settle").click()
    expect(outbox).to_contain_text("Hand 1 in quick mode: waiting to send")
    assert len(_taps_box(page, game)) == 2
    assert _events(base_url, game) == []
    page.context.set_offline(False)
    expect(page.locator("#hands")).to_contain_text("Cy", timeout=RESEND_WAIT_MS)  # hand 1 settled
    expect(outbox).to_have_count(0)
    kinds = [event["kind"] for event in _events(base_url, game)]
    assert kinds == ["purchase", "settle"]  # once each, in the order made
    assert _taps_box(page, game) == []


def test_a_play_or_pay_tap_made_offline_is_stored_once_when_the_connection_returns(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _play_or_pay(base_url)
    page = phones()
    _open(page, base_url, game, f"/games/{game['id']}/hand")
    expect(page.locator("#turn")).to_contain_text("Bob")
    page.context.set_offline(True)
    page.locator(".card-grid button", has_text="7♥").first.click()  # Bob leads 7♥
    expect(page.locator("#tap-outbox")).to_contain_text("Bob led 7♥: waiting to send")
    page.context.set_offline(False)
    expect(page.locator("#needed")).to_have_text("8♥", timeout=RESEND_WAIT_MS)
    expect(page.locator("#tap-outbox")).to_have_count(0)
    assert [event["kind"] for event in _events(base_url, game)] == ["play"]


def test_contract_rummy_buys_made_offline_are_stored_once_in_order(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    body = {"variant": "contract-rummy", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann"}
    status, game = call(base_url, "POST", "/api/games", body)
    assert status == 201, game
    page = phones()
    _open(page, base_url, game, f"/games/{game['id']}")
    page.context.set_offline(True)
    for name in ("Bob", "Bob", "Cy"):
        page.get_by_role("button", name=f"one buy more for {name}").click()
    page.get_by_role("button", name="one buy less for Bob").click()
    expect(page.locator("#tap-outbox .outbox-line")).to_have_count(4)
    expect(page.locator("#tap-outbox")).to_contain_text("One buy more for Bob: waiting to send")
    page.context.set_offline(False)
    expect(page.locator("#tap-outbox")).to_have_count(0, timeout=RESEND_WAIT_MS)
    expect(page.locator(".buy-row[data-player=Bob] .buy-count")).to_have_text("1 of 3")
    expect(page.locator(".buy-row[data-player=Cy] .buy-count")).to_have_text("1 of 3")
    assert _state(base_url, game)["buys"] == {"Ann": 0, "Bob": 1, "Cy": 1}


def test_a_live_update_keeps_a_chip_purchase_being_typed(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _play_or_pay(base_url)
    page = phones()
    _open(page, base_url, game, f"/games/{game['id']}/hand")
    page.locator("#buy-form select[name=player]").select_option("Cy")
    page.locator("#buy-form input[name=chips]").fill("7")
    page.locator("#hand-h").click()  # the keyboard closes
    version = _state(base_url, game)["version"]
    event = {"type": "purchase", "player": "Ann", "chips": 3, "version": version}
    status, answer = call(base_url, "POST", f"/api/games/{game['id']}/events", event, key=game["edit_key"])
    assert status == 201, answer
    expect(page.locator("#ledger")).to_contain_text("purchase", timeout=LIVE_WAIT_MS)  # the page updated live
    expect(page.locator("#buy-form input[name=chips]")).to_have_value("7")
    expect(page.locator("#buy-form select[name=player]")).to_have_value("Cy")


def test_a_tap_whose_resend_meets_a_409_is_shown_and_can_be_dropped(phones: Any, base_url: str) -> None:
    from playwright.sync_api import expect

    game = _play_or_pay(base_url)
    page = phones()
    _open(page, base_url, game, f"/games/{game['id']}/hand")
    expect(page.locator("#turn")).to_contain_text("Bob")
    page.context.set_offline(True)
    page.locator(".card-grid button", has_text="7♥").first.click()  # Bob leads 7♥, says this phone
    expect(page.locator("#tap-outbox")).to_contain_text("Bob led 7♥: waiting to send")
    version = _state(base_url, game)["version"]
    event = {"type": "play", "player": "Bob", "card": "9S", "version": version}  # another phone: Bob led 9♠
    status, answer = call(base_url, "POST", f"/api/games/{game['id']}/events", event, key=game["edit_key"])
    assert status == 201, answer
    page.context.set_offline(False)
    note = page.locator("#tap-outbox .draft-note")
    expect(note).to_contain_text(
        "Bob led 7♥: not recorded, another phone changed this game first.", timeout=RESEND_WAIT_MS
    )
    expect(page.locator("#needed")).to_have_text("10♠")  # the hand as kept now
    assert len(_taps_box(page, game)) == 1  # kept, not dropped
    note.get_by_role("button", name="Drop it").click()
    expect(page.locator("#tap-outbox")).to_have_count(0)
    assert _taps_box(page, game) == []
    assert [event["data"]["card"] for event in _events(base_url, game)] == ["9S"]
