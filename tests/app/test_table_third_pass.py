"""Issue 27 through the Flask test client: a score no hand can make is refused in the API and on the
page (section 2), and the smaller defects of section 8 that the pages show."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.app.test_app_pages import Post, enter_round, rounds_of, start_game, text
from tests.conftest import api_game, edit_key

LIMIT = "Bob: 500 is more than 3 cards can score in round 1 (at most 45)"


# --- section 2: scores that make sense -------------------------------------------------


def test_the_api_refuses_more_than_the_round_can_score(client: FlaskClient) -> None:
    game = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
    url = f"/api/games/{game['id']}/rounds"
    refused = client.post(url, json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 500}}, headers=edit_key(game))
    assert refused.status_code == 400
    assert refused.get_json() == {"error": LIMIT}
    summed = client.post(url, json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": "15+15+20"}}, headers=edit_key(game))
    assert summed.get_json() == {"error": "Bob: 50 is more than 3 cards can score in round 1 (at most 45)"}
    assert client.get(f"/api/games/{game['id']}").get_json()["rounds"] == []  # nothing stored
    saved = client.post(url, json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": "15+15+15"}}, headers=edit_key(game))
    assert saved.status_code == 201, saved.get_json()
    corrected = client.put(
        f"{url}/1", json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 500}}, headers=edit_key(game)
    )
    assert corrected.status_code == 400 and corrected.get_json() == {"error": LIMIT}
    assert client.get(f"/api/games/{game['id']}").get_json()["totals"] == {"Ann": 0, "Bob": 45}


def test_contract_rummy_counts_the_buys_and_says_deal(client: FlaskClient) -> None:
    game = api_game(client, "contract-rummy", ["Ann", "Bob", "Cy", "Dee", "Eve"], "Ann")
    body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 241, "Cy": 0, "Dee": 0, "Eve": 0}}
    refused = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert refused.get_json() == {"error": "Bob: 241 is more than 16 cards can score in deal 1 (at most 240)"}


def test_the_page_refuses_it_in_one_sentence_and_keeps_what_was_typed(
    client: FlaskClient, app: Flask, post_form: Post
) -> None:
    game_id = start_game(post_form, players="Ann\nBob")
    page = text(enter_round(post_form, game_id, "Ann", "0", "500"))
    assert LIMIT + "." in page
    assert re.search(r'value="500"', page)
    assert rounds_of(app, game_id) == []


# --- section 8: smaller defects ------------------------------------------------------------


def test_one_first_dealer_control_on_the_new_game_form(client: FlaskClient) -> None:
    page = text(client.get("/games/new?variant=pay-me"))
    assert page.count('name="first_dealer_method"') == 3
    assert len(re.findall(r'name="first_dealer_method"[^>]*checked|checked[^>]*name="first_dealer_method"', page)) == 1
    assert 'id="way-chosen" checked' in page or re.search(r'checked[^>]*id="way-chosen"', page)
    select = re.search(r'<select[^>]*id="first_dealer".*?</select>', page, re.S)
    assert select and "random" not in select.group(0)  # a random draw is a way, not a seat


def test_the_new_game_form_of_before_still_draws_at_random(client: FlaskClient, post_form: Post) -> None:
    data = {"variant": "pay-me", "players": "Ann\nBob", "first_dealer": "random"}
    sent = post_form("/games/new?variant=pay-me", data)
    assert sent.status_code == 303, text(sent)


def test_no_api_words_on_the_players_pages(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form)
    for url in (f"/games/{game_id}", f"/games/{game_id}/sheet"):
        assert "/api/" not in re.sub(r'(data-[\w-]+|href|action|src)="[^"]*"', "", text(client.get(url)))


def test_the_corrected_round_mark_is_explained_on_the_page(client: FlaskClient, post_form: Post) -> None:
    game_id = start_game(post_form, players="Ann\nBob")
    enter_round(post_form, game_id, "Ann", "0", "5")
    assert "a corrected round" not in text(client.get(f"/games/{game_id}"))
    post_form(f"/games/{game_id}/rounds/1/edit", {"went_out": "Ann", "scores-0": "0", "scores-1": "7"})
    page = text(client.get(f"/games/{game_id}"))
    assert '<span class="corrected-mark" aria-hidden="true">*</span><span class="sr-only"> corrected</span>' in page
    assert "* a corrected round (its earlier values are in the history)" in page
    assert 'title="corrected"' not in page


def test_the_pot_panel_gives_payout_and_net_their_own_headings(client: FlaskClient) -> None:
    game = api_game(client, "3-13", ["Ann", "Bob"], "Ann")
    for number in range(11):
        body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": 3 + number}}
        assert client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game)).status_code == 201
    page = text(client.get(f"/games/{game['id']}"))
    panel = page[page.index('id="pot"') : page.index("Pot ledger")]
    assert panel.index(">Payout</h3>") < panel.index("How the pot was paid out") < panel.index(">Net result</h3>")
    assert panel.index(">Net result</h3>") < panel.index('class="money-net"')


def test_going_down_checked_in_a_contract_rummy_game_is_kept_in_its_log(client: FlaskClient, post_form: Post) -> None:
    game = api_game(client, "contract-rummy", ["Ann", "Bob", "Cy"], "Ann")
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    empty = text(client.get(f"/games/{game['id']}/check"))
    assert "No check yet in this round" in empty
    data = {"round": "1", "action": "melds", "meld-0": "5H 5S 5D", "meld-1": "KC KD JK"}
    sent = post_form(f"/games/{game['id']}/check", data)
    assert sent.status_code in (200, 303), text(sent)
    page = text(client.get(f"/games/{game['id']}/check"))
    assert "No check yet in this round" not in page
    assert "Going down" in page and "Exactly the contract: two sets." in page
    wrong = post_form(f"/games/{game['id']}/check", {**data, "meld-1": "4C 5C 6C 7C"})
    assert "Not the contract (two sets)" in text(client.get(f"/games/{game['id']}/check")), text(wrong)[:300]


# --- section 5: a group page that looks finished ---------------------------------------------


def test_a_game_started_from_the_group_gets_the_new_game_pages_house_rules_and_pot(
    client: FlaskClient, post_form: Post
) -> None:
    group = client.post("/api/groups", json={"name": "Fridays", "players": ["Ann", "Bob", "Cy"]}).get_json()
    client.set_cookie(f"group_key_{group['id']}", group["edit_key"], path="/")
    page = text(client.get(f"/groups/{group['id']}"))
    assert f'href="/games/new?group={group["id"]}"' in page
    form = text(client.get(f"/games/new?variant=3-13&group={group['id']}"))
    assert "Ann\nBob\nCy</textarea>" in form and f'name="group" value="{group["id"]}"' in form
    assert 'name="opt_double_rounds"' in form and 'name="opt_ante"' in form
    data = {"variant": "3-13", "group": group["id"], "players": "Ann\nBob\nCy", "first_dealer": "0"}
    sent = post_form("/games/new?variant=3-13", {**data, "opt_full_cycle": "y", "opt_pot": "y", "opt_ante": "100"})
    assert sent.status_code == 303, text(sent)
    game_id = sent.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["group"] == group["id"] and state["options"]["full_cycle"] is True
    assert state["pot"]["balance"] == 300  # three antes of 100 cents
    stranger = post_form("/games/new?variant=pay-me", {**data, "variant": "pay-me", "group": "no-such-group"})
    assert stranger.status_code == 404


def test_an_ended_play_or_pay_game_counts_as_finished_in_the_group(client: FlaskClient) -> None:
    group = client.post("/api/groups", json={"name": "Chips", "players": ["Ann", "Bob", "Cy"]}).get_json()
    body = {"variant": "play-or-pay", "players": ["Ann", "Bob", "Cy"], "first_dealer": "Ann", "group": group["id"]}
    game = client.post("/api/games", json=body, headers={"X-Group-Key": group["edit_key"]})
    assert game.status_code == 201, game.get_json()
    state = game.get_json()
    ended = client.post(
        f"/api/games/{state['id']}/end", json={"version": state["version"]}, headers={"X-Edit-Key": state["edit_key"]}
    )
    assert ended.status_code == 200, ended.get_json()
    page = text(client.get(f"/groups/{group['id']}"))
    finished = page[page.index('id="finished-games"') : page.index("</ul>", page.index('id="finished-games"'))]
    assert "Play or Pay" in finished and "Not finished" not in page
    assert re.search(r'<tr><th scope="row">Ann</th><td>1</td>', page)  # one game played, in the standings


# --- section 4: only your own games on the home page ------------------------------------------


def test_the_game_list_needs_a_group_key_and_pages(client: FlaskClient) -> None:
    refused = client.get("/api/games")
    assert refused.status_code == 403
    assert refused.get_json() == {"error": "send a group's key in X-Group-Key to list its games"}
    group = client.post("/api/groups", json={"name": "Fridays", "players": ["Ann", "Bob"]}).get_json()
    other = client.post("/api/groups", json={"name": "Other", "players": ["Cy", "Dee"]}).get_json()
    header = {"X-Group-Key": group["edit_key"]}
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group["id"]}
    ids = [client.post("/api/games", json=body, headers=header).get_json()["id"] for _ in range(3)]
    client.post("/api/games", json={**body, "group": other["id"]}, headers={"X-Group-Key": other["edit_key"]})
    api_game(client, "pay-me", ["Zed", "Yo"], "Zed")  # a game of nobody's group
    listed = client.get("/api/games", headers=header).get_json()
    assert sorted(game["id"] for game in listed["games"]) == sorted(ids)
    assert (listed["page"], listed["next_page"]) == (1, None)
    assert client.get("/api/games", headers={"X-Group-Key": "not a key"}).status_code == 403
    bad = client.get("/api/games?page=0", headers=header)
    assert bad.status_code == 400 and bad.get_json() == {"error": 'page must be a whole number from 1 to 200, not "0"'}
    assert client.get("/api/games?page=2", headers=header).get_json() == {"games": [], "page": 2, "next_page": None}


def test_the_list_is_paged_and_sorted_by_the_servers_clock(client: FlaskClient, app: Flask) -> None:
    from companion.extensions import db
    from companion.models import Game

    group = client.post("/api/groups", json={"name": "Many", "players": ["Ann", "Bob"]}).get_json()
    header = {"X-Group-Key": group["edit_key"]}
    body = {"variant": "pay-me", "players": ["Ann", "Bob"], "group": group["id"]}
    ids = [client.post("/api/games", json=body, headers=header).get_json()["id"] for _ in range(51)]
    with app.app_context():  # an imported file's date far in the future changes nothing
        stored = db.session.get(Game, ids[0])
        assert stored is not None
        stored.created_at = stored.created_at.replace(year=9999)
        db.session.commit()
    first = client.get("/api/games", headers=header).get_json()
    assert len(first["games"]) == 50 and first["next_page"] == 2
    second = client.get("/api/games?page=2", headers=header).get_json()
    assert [game["id"] for game in second["games"]] == [ids[0]] and second["next_page"] is None
    played = client.post(
        f"/api/games/{ids[0]}/rounds",
        json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5}},
        headers={"X-Edit-Key": group["edit_key"]},  # the group's key opens its games
    )
    assert played.status_code == 201, played.get_json()
    assert client.get("/api/games", headers=header).get_json()["games"][0]["id"] == ids[0]  # played last


def test_public_game_list_restores_the_open_list(tmp_path: Any, database_url: str) -> None:
    from tests.conftest import app_on

    with app_on(tmp_path, database_url, PUBLIC_GAME_LIST=True) as app:
        client = app.test_client()
        game = api_game(client, "pay-me", ["Ann", "Bob"], "Ann")
        listed = client.get("/api/games").get_json()
        assert [entry["id"] for entry in listed["games"]] == [game["id"]]


# --- section 7: paper that adds up -------------------------------------------------------------


def test_every_row_of_the_chip_tally_adds_up_with_purchases(client: FlaskClient) -> None:
    from tests.app.test_play_or_pay_hand_page import two_hands

    game = two_hands(client)
    page = client.get(f"/games/{game['id']}/sheet").get_data(as_text=True)
    rows = re.findall(r'<tr class="played">\s*<th class="round" scope="row">\d+</th>(.*?)</tr>', page, re.DOTALL)
    before = dict.fromkeys(("Ann", "Bob", "Cy"), 20)
    for row in rows:
        cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        pot, winner = int(cells[-2]), cells[-1]
        for seat, name in enumerate(("Ann", "Bob", "Cy")):
            bought, paid, balance = (int(cell or 0) for cell in cells[3 * seat : 3 * seat + 3])
            assert before[name] + bought - paid + (pot if name == winner else 0) == balance, (name, cells)
            before[name] = balance
    assert len(rows) == 2


def test_the_blank_chip_tally_has_a_bought_column() -> None:
    from companion.services import sheets

    page = sheets.chip_tally_html(["Ann", "Bob", "Cy"], hands=4)
    assert page.count('<th scope="col" class="bought">Bought</th>') == 3
    assert page.count('<td class="bought"></td>') == 3 * (4 + 1)  # the start row's buy-in too


def test_the_blank_3_13_sheet_has_boxes_for_the_pot() -> None:
    from companion.services import sheets

    page = sheets.blank_sheet_html("3-13", ["Ann", "Bob", "Cy", "Dee", "Eve"])
    for header in ("2nd discards", "Knock", "Pot after"):
        assert f'<th scope="col" class="pot-box">{header}</th>' in page
    assert page.count('<td class="pot-box"></td>') == 3 * 11 + 1
    assert "pot-box" not in sheets.blank_sheet_html("pay-me", ["Ann", "Bob"])
    pdf = sheets.blank_sheet_pdf("3-13", ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"])
    assert pdf.startswith(b"%PDF")


def test_an_ended_play_or_pay_game_shows_no_hand_that_never_started(client: FlaskClient) -> None:
    from tests.app.test_play_or_pay_hand_page import two_hands

    game = two_hands(client)
    playing = client.get(f"/games/{game['id']}/hand").get_data(as_text=True)
    assert "Cards and chips" in playing and " of 1" in playing
    ended = client.post(f"/api/games/{game['id']}/end", json={}, headers={"X-Edit-Key": game["edit_key"]})
    assert ended.status_code == 200
    page = client.get(f"/games/{game['id']}/hand").get_data(as_text=True)
    assert "Cards and chips" not in page and not re.search(r"> of \d+</span>", page)
    assert re.search(r'<td class="positive">\+\d+</td>', page)  # a positive result is styled, as owed ones are
    assert re.search(r'<td class="owed">-\d+</td>', page)
