"""The Play or Pay hand page at the table (issue 13): one tap per event, the card grid for a lead, quick mode midway.

Without JavaScript every tap is a form (post-redirect-get); with it, static/js/play-or-pay.js sends the same
tap to the JSON API with the version the page shows. Both ways are checked here; the browser test
(tests/e2e/test_e2e_play_or_pay_taps.py) checks the script itself.
"""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from tests.conftest import CSRF_INPUT, api_game

PLAYERS = ["Ann", "Bob", "Cy"]


def start(client: FlaskClient, key_cookie: bool = True) -> dict[str, Any]:
    """Ann deals to Ann, Bob, Cy (Bob leads) with 20 chips each; this client holds the edit key."""
    game: dict[str, Any] = api_game(client, "play-or-pay", PLAYERS, "Ann", chips=20)
    if key_cookie:
        client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    return game


def page_of(client: FlaskClient, game: dict[str, Any]) -> str:
    response = client.get(f"/games/{game['id']}/hand")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def plain(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def tap(client: FlaskClient, game: dict[str, Any], path: str, data: dict[str, str]) -> Any:
    """Post a hand-page form as a browser without JavaScript does: the page's CSRF token and version."""
    page = page_of(client, game)
    token = CSRF_INPUT.search(page)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert token and version
    form = {"csrf_token": token.group(1), "version": version.group(1), **data}
    return client.post(f"/games/{game['id']}/hand/{path}", data=form)


def api_event(client: FlaskClient, game: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/events", json=body, headers={"X-Edit-Key": game["edit_key"]})


def state(client: FlaskClient, game: dict[str, Any]) -> Any:
    return client.get(f"/api/games/{game['id']}").get_json()


# ---------------------------------------------------------------- the lead: one tap on a card grid


def test_the_lead_is_one_tap_on_a_grid_of_cards_not_a_dropdown(client: FlaskClient) -> None:
    game = start(client)
    page = page_of(client, game)
    assert "<select" not in page[page.index('id="hand"') : page.index('id="players"')]
    buttons = re.findall(
        r'<button type="submit" name="card" value="(\w+)" class="card-button[^"]*">([^<]+)</button>', page
    )
    assert len(buttons) == 52
    assert ("7H", "7♥") in buttons and ("10S", "10♠") in buttons and ("AC", "A♣") in buttons
    assert plain(page).count("Hearts") >= 1 and "Tap the card Bob led." in plain(page)

    response = tap(client, game, "event", {"type": "lead", "player": "Bob", "card": "7H"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/hand#hand")
    hand = state(client, game)["hand"]
    assert (hand["played"], hand["needed"], hand["turn"]) == (["7H"], "8H", "Cy")
    page = page_of(client, game)
    assert 'id="needed">8♥<' in page and 'id="played">Played 8♥<' in page and 'id="paid">Paid 1 chip<' in page
    assert 'class="card-button' not in page  # no grid while a card is needed


def test_a_bad_card_from_the_grid_is_a_400_with_the_reason_and_stores_nothing(client: FlaskClient) -> None:
    game = start(client)
    before = state(client, game)
    response = tap(client, game, "event", {"type": "lead", "player": "Bob", "card": "7X"})
    assert response.status_code == 400
    assert 'id="hand-error">' in response.get_data(as_text=True) and "7X" in plain(response.get_data(as_text=True))
    wrong_player = tap(client, game, "event", {"type": "lead", "player": "Cy", "card": "7H"})
    assert wrong_player.status_code == 400 and "Bob" in plain(wrong_player.get_data(as_text=True))
    assert state(client, game) == before


def test_a_lead_is_a_card_of_the_grid_and_the_old_rank_and_suit_fields_are_gone(client: FlaskClient) -> None:
    """No page sends a rank and a suit any more (the dropdowns gave way to the grid): they are not read."""
    game = start(client)
    before = state(client, game)
    response = tap(client, game, "event", {"type": "lead", "player": "Bob", "rank": "7", "suit": "H"})
    assert response.status_code == 400 and "The form was incomplete" in plain(response.get_data(as_text=True))
    assert state(client, game) == before
    assert tap(client, game, "event", {"type": "lead", "player": "Bob", "card": "7H"}).status_code == 303
    assert state(client, game)["hand"]["played"] == ["7H"]


def test_a_finished_suit_has_no_row_in_the_grid(client: FlaskClient) -> None:
    game = start(client)
    order = ["Bob", "Cy", "Ann"]
    for index, rank in enumerate(["7", "8", "9", "10", "J", "Q", "K", "A", "2", "3", "4", "5", "6"]):
        assert api_event(client, game, type="play", player=order[index % 3], card=rank + "H").status_code == 201
    page = page_of(client, game)
    assert 'data-suit="H"' not in page and page.count('class="lead-suit"') == 3
    assert page.count('class="card-button') == 39


# ---------------------------------------------------------------- one tap, without a page load


def test_the_key_holder_gets_the_script_its_api_addresses_and_key(client: FlaskClient) -> None:
    game = start(client)
    page = page_of(client, game)
    assert "js/play-or-pay.js" in page and "css/play-or-pay.css" in page
    assert f'data-hand-api="/api/games/{game["id"]}/events"' in page
    # The lead grid, the chip purchase and quick mode (no undo before the first event).
    assert page.count(f'data-key="{game["edit_key"]}"') == 3
    api_event(client, game, type="play", player="Bob", card="7H")
    page = page_of(client, game)
    assert page.count(f'data-key="{game["edit_key"]}"') == 4  # played, paid, undo, quick mode
    assert f'data-undo-api="/api/games/{game["id"]}/events/last"' in page
    assert client.get("/static/js/play-or-pay.js").status_code == 200


def test_a_viewer_gets_neither_the_key_nor_the_script(client: FlaskClient) -> None:
    game = start(client, key_cookie=False)
    page = page_of(client, game)
    assert game["edit_key"] not in page and "js/play-or-pay.js" not in page
    assert "data-hand-api" not in page and 'class="card-button' not in page


def test_the_requests_the_script_sends_record_and_answer_409_when_stale(client: FlaskClient) -> None:
    """A tap is {type, player, card?, version} with X-Edit-Key; a lead goes as a play; undo is DELETE ?version."""
    game = start(client)
    version = state(client, game)["version"]
    lead = api_event(client, game, type="play", player="Bob", card="7H", version=version)
    assert lead.status_code == 201 and lead.get_json()["hand"]["needed"] == "8H"
    paid = api_event(client, game, type="pay", player="Cy", version=lead.get_json()["version"])
    assert paid.status_code == 201
    answer = paid.get_json()
    assert (answer["hand"]["turn"], answer["hand"]["pot"], answer["chips"]["Cy"]) == ("Ann", 1, 19)

    # Another phone recorded first: this phone's tap carries the old version, so nothing is stored.
    stale = api_event(client, game, type="pay", player="Cy", version=lead.get_json()["version"])
    assert stale.status_code == 409
    assert stale.get_json()["current"]["hand"]["turn"] == "Ann" and stale.get_json()["current"]["hand"]["pot"] == 1
    now = state(client, game)
    assert (now["hand"], now["chips"], now["version"]) == (answer["hand"], answer["chips"], answer["version"])

    undo = client.delete(
        f"/api/games/{game['id']}/events/last?version={answer['version']}", headers={"X-Edit-Key": game["edit_key"]}
    )
    assert undo.status_code == 200 and undo.get_json()["hand"]["turn"] == "Cy"
    old = client.delete(
        f"/api/games/{game['id']}/events/last?version={answer['version']}", headers={"X-Edit-Key": game["edit_key"]}
    )
    assert old.status_code == 409 and state(client, game)["hand"]["played"] == ["7H"]


def test_a_stale_form_without_javascript_is_a_409_page(client: FlaskClient) -> None:
    game = start(client)
    page = page_of(client, game)
    token = CSRF_INPUT.search(page)
    assert token
    api_event(client, game, type="play", player="Bob", card="7H")  # another phone, meanwhile
    response = client.post(
        f"/games/{game['id']}/hand/event",
        data={"csrf_token": token.group(1), "version": "1", "type": "lead", "player": "Bob", "card": "9S"},
    )
    assert response.status_code == 409
    assert state(client, game)["hand"]["played"] == ["7H"]


# ---------------------------------------------------------------- quick mode, at any point of a hand


def midway(client: FlaskClient) -> dict[str, Any]:
    """Bob led 7H, Cy paid, Ann paid: three cards and chips recorded in hand 1."""
    game = start(client)
    for body in (
        {"type": "play", "player": "Bob", "card": "7H"},
        {"type": "pay", "player": "Cy"},
        {"type": "pay", "player": "Ann"},
    ):
        assert api_event(client, game, **body).status_code == 201
    return game


QUICK = {"winner": "Cy", "cards_left-0": "5", "cards_left-1": "2", "paid-0": "1", "paid-2": "1"}


def test_quick_mode_is_offered_midway_with_a_box_to_confirm_the_replacement(client: FlaskClient) -> None:
    game = start(client)
    page = page_of(client, game)
    assert "Quick mode: enter hand 1 after it is over" in page and 'name="replace"' not in page
    game = midway(client)
    page = page_of(client, game)
    assert "Quick mode: enter hand 1's result instead" in plain(page)
    assert "Replace the 3 cards and chips recorded so far in hand 1 with this result" in plain(page)
    assert 'name="replace" value="3"' in page
    assert 'id="paid-0" name="paid-0" type="number" min="0" inputmode="numeric" value="1"' in page  # Ann paid 1


def test_quick_mode_midway_without_the_box_is_refused_in_plain_words(client: FlaskClient) -> None:
    game = midway(client)
    before = state(client, game)
    response = tap(client, game, "quick", QUICK)
    assert response.status_code == 400
    said = plain(response.get_data(as_text=True))
    assert "Hand 1 has 3 cards and chips recorded; entering the hand in quick mode replaces them" in said
    assert 'value="5"' in response.get_data(as_text=True)  # what was typed stays in the form
    stale = tap(client, game, "quick", {**QUICK, "replace": "2"})
    assert stale.status_code == 400 and 'not "2"' in plain(stale.get_data(as_text=True))
    odd = tap(client, game, "quick", {**QUICK, "replace": "all"})
    assert odd.status_code == 400 and "The form was incomplete" in plain(odd.get_data(as_text=True))
    assert state(client, game) == before


def test_quick_mode_midway_replaces_the_hand_and_undo_brings_it_back(client: FlaskClient) -> None:
    game = midway(client)
    response = tap(client, game, "quick", {**QUICK, "replace": "3"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/hand#hands")
    after = state(client, game)
    settled = after["hands"][0]
    assert (settled["winner"], settled["quick"], settled["pot"]) == ("Cy", True, 9)
    assert settled["payments"] == {"Ann": -6, "Bob": -2, "Cy": 8}
    assert after["chips"] == {"Ann": 14, "Bob": 18, "Cy": 28}
    assert (after["hand"]["number"], after["hand"]["turn"], after["hand"]["played"]) == (2, "Cy", [])
    page = plain(page_of(client, game))
    assert "Hand 1 is settled: Cy went out and collected 9 chips" in page and "quick mode" in page

    assert tap(client, game, "undo", {}).status_code == 303
    back = state(client, game)
    assert back["hands"] == [] and back["hand"]["played"] == ["7H"] and back["hand"]["pot"] == 2
    assert back["chips"] == {"Ann": 19, "Bob": 20, "Cy": 19}


def test_the_api_takes_replaces_and_refuses_a_bad_one(client: FlaskClient) -> None:
    game = midway(client)
    body = {"type": "settle", "winner": "Cy", "cards_left": {"Ann": 5, "Bob": 2}, "paid": {"Ann": 1, "Cy": 1}}
    refused = api_event(client, game, **body)
    assert refused.status_code == 400 and "confirm replacing them" in refused.get_json()["error"]
    bad = api_event(client, game, **body, replaces="three")
    assert bad.status_code == 400 and "replaces" in bad.get_json()["error"]
    done = api_event(client, game, **body, replaces=3)
    assert done.status_code == 201 and done.get_json()["hands"][0]["quick"] is True
    events = client.get(f"/api/games/{game['id']}/export").get_json()["tables"]["game_events"]
    assert events[-1]["data"]["replaces"] == 3 and len(events) == 4


# ---------------------------------------------------------------- the chip tally prints the hands played


def pdf_lines(pdf: bytes, tmp_path: Path) -> list[str]:
    source = tmp_path / "tally.pdf"
    source.write_bytes(pdf)
    done = subprocess.run(["pdftotext", "-layout", str(source), "-"], capture_output=True, check=True, text=True)
    return [" ".join(line.split()) for line in done.stdout.splitlines() if line.strip()]


def two_hands(client: FlaskClient) -> dict[str, Any]:
    """Hand 1 followed card by card then settled in quick mode (Cy out); Bob buys 5; hand 2 quick (Ann out)."""
    game = midway(client)
    first = {"type": "settle", "winner": "Cy", "cards_left": {"Ann": 5, "Bob": 2}, "paid": {"Ann": 1, "Cy": 1}}
    assert api_event(client, game, **first, replaces=3).status_code == 201
    assert api_event(client, game, type="purchase", player="Bob", chips=5).status_code == 201
    second = {"type": "settle", "winner": "Ann", "cards_left": {"Bob": 4, "Cy": 1}, "paid": {"Bob": 2}}
    assert api_event(client, game, **second).status_code == 201
    return game


def test_the_chip_tally_pdf_prints_the_hands_played(client: FlaskClient, tmp_path: Path) -> None:
    game = two_hands(client)
    response = client.get(f"/games/{game['id']}/sheet.pdf?paper=a4")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    lines = pdf_lines(response.get_data(), tmp_path)
    # Hand, then bought, paid and balance for Ann, Bob, Cy, then the pot and who went out first.
    assert "Start 20 20 20 20 20 20" in lines  # each buys 20 at the start and holds 20
    assert "1 6 14 2 18 1 28 9 Cy" in lines  # Ann paid 1 + 5 cards, Bob 2 cards, Cy 1 and took the pot of 9
    assert "2 0 21 5 6 17 1 27 7 Ann" in lines  # Bob bought 5 before hand 2: 18 + 5 - 6 = 17, on his row
    assert "Chips each at the start: 20" in " ".join(lines)
    assert "3" in [line.split()[0] for line in lines]  # blank rows follow for the hands to come
    assert state(client, game)["chips"] == {"Ann": 21, "Bob": 17, "Cy": 27}  # the last row's balances


def test_the_chip_tally_page_shows_the_hands_played_and_an_ended_game_no_blank_rows(client: FlaskClient) -> None:
    game = two_hands(client)
    page = client.get(f"/games/{game['id']}/sheet").get_data(as_text=True)
    assert page.count('<tr class="played">') == 2
    row = re.search(r'<tr class="played">\s*<th class="round" scope="row">2</th>(.*?)</tr>', page, re.DOTALL)
    assert row and re.sub(r"<[^>]+>", " ", row.group(1)).split() == ["0", "21", "5", "6", "17", "1", "27", "7", "Ann"]
    assert '<th class="round" scope="row">3</th>' in page
    ended = client.post(f"/api/games/{game['id']}/end", json={}, headers={"X-Edit-Key": game["edit_key"]})
    assert ended.status_code == 200
    page = client.get(f"/games/{game['id']}/sheet").get_data(as_text=True)
    assert page.count('<tr class="played">') == 2 and '<th class="round" scope="row">3</th>' not in page
    assert "Results: chips held minus chips bought" in page


def test_a_new_game_prints_a_tally_with_its_names_date_and_stack_and_no_hands(client: FlaskClient) -> None:
    game = start(client)
    page = client.get(f"/games/{game['id']}/sheet").get_data(as_text=True)
    assert '<tr class="played">' not in page and "Chips each at the start: 20" in page
    assert page.count('<td class="paid"></td>') == 3 * 20
    assert page.count('<td class="bought"></td>') == 3 * 20  # a "bought" box in every hand's row


def test_a_game_with_a_hand_replaced_in_quick_mode_exports_and_imports_the_same(client: FlaskClient) -> None:
    game = two_hands(client)
    exported = client.get(f"/api/games/{game['id']}/export").get_json()
    response = client.post("/api/games/import", json=exported)
    assert response.status_code == 201, response.get_json()
    copy = state(client, {"id": response.get_json()["id"]})
    original = state(client, game)
    assert (copy["hands"], copy["chips"], copy["events"]) == (original["hands"], original["chips"], 6)
