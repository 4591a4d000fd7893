"""Issue 25's examples through the JSON API and the pages (the command line: tests/engine/
test_issue25_cli.py): the joker swap with an ace, a second ace on a run that ends in one, a 14th
card on a 3-13 meld, and the round scored from a loose declarer hand."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.app.test_disputes_api import cli

CR = "contract-rummy"
SWAP_RUNS = ["JK 2H 3H 4H", "JH QH KH JK", "JK KH QH JH", "JK=AH 2H 3H 4H"]
CLUBS = "9C 10C JC QC"
THIRTEEN_KINGS = "KS KH KD KC KS KH KD KC KS KH KD KC JK"


def plain(response: Any) -> str:
    assert response.status_code in (200, 400), response.status_code
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))
    return html.unescape(words).replace(" :", ":")


def api_layoff(client: FlaskClient, body: dict[str, Any]) -> Any:
    response = client.post("/api/layoff", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def table_check(client: FlaskClient, run: str, cards: str, **options: str) -> str:
    query = {"variant": CR, "round": "3", "onto": "1", "cards": cards, "table-0": run, "table-1": CLUBS, **options}
    return plain(client.get("/check", query_string=query))


# --- the joker swap with an ace ----------------------------------------------------------------


@pytest.mark.parametrize("run", SWAP_RUNS)
def test_an_ace_takes_back_a_joker_standing_for_an_ace(client: FlaskClient, run: str) -> None:
    body = {"variant": CR, "round": 3, "options": {"joker_swap": True}, "table": [run, CLUBS], "onto": 1, "cards": "AH"}
    answer = api_layoff(client, body)
    assert answer["valid"] is True and answer["code"] is None
    assert answer["swap"] == {
        "card": "AH",
        "joker": "JK",
        "text": "AH takes the place of JK, and JK goes back to the player's hand",
    }
    args = ["--variant", CR, "--set", "joker_swap=on", "--round", "3", "--meld", run, "--meld", CLUBS, "--onto", "1"]
    assert answer == cli("layoff", *args, "AH")
    words = table_check(client, run, "AH", joker_swap="true")
    assert "Joker swap: A♥ takes the place of 🃏, and 🃏 goes back to the player's hand." in words


@pytest.mark.parametrize("run", SWAP_RUNS)
def test_without_the_swap_an_ace_may_not_replace_the_joker(client: FlaskClient, run: str) -> None:
    answer = api_layoff(client, {"variant": CR, "round": 3, "table": [run, CLUBS], "onto": 1, "cards": "AH"})
    assert (answer["valid"], answer["code"], answer["swap"]) == (False, "replaces_wild", None)
    assert answer["reason"].endswith("JK already stands for AH, and a lay-off may not replace a wild card.")
    words = table_check(client, run, "AH")
    assert "🃏 already stands for A♥, and a lay-off may not replace a wild card." in words
    assert "gap" not in words


def test_a_second_ace_on_a_run_that_ends_in_an_ace(client: FlaskClient) -> None:
    run = "10H JH QH KH AH"
    answer = api_layoff(client, {"variant": CR, "round": 3, "table": [run, CLUBS], "onto": 1, "cards": "AH"})
    assert (answer["valid"], answer["code"]) == (False, "duplicate_in_run")
    assert answer["reason"] == "AH cannot be laid off on 10H JH QH KH AH: that run already ends in an ace."
    words = table_check(client, run, "AH")
    assert "A♥ cannot be laid off on 10♥ J♥ Q♥ K♥ A♥: that run already ends in an ace." in words


# --- D18: a 14th card on a 3-13 meld -------------------------------------------------------------


def test_a_14th_card_on_a_3_13_meld_through_the_api(client: FlaskClient) -> None:
    body = {"variant": "3-13", "round": 11, "declarer": [THIRTEEN_KINGS], "onto": 1, "cards": "2C"}
    answer = api_layoff(client, body)
    assert (answer["valid"], answer["code"]) == (False, "too_long")
    assert answer["reason"].endswith("in 3-13 no meld holds more than 13 cards, and this lay-off would make 14.")
    assert answer == cli(
        "layoff", "--variant", "3-13", "--round", "11", "--declarer", THIRTEEN_KINGS, "--onto", "1", "2C"
    )


def test_a_14th_card_on_a_3_13_meld_in_the_lay_off_chain_page(client: FlaskClient, post_form: Any) -> None:
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]  # six players: three decks, as twelve kings need
    game = client.post("/api/games", json={"variant": "3-13", "players": players, "first_dealer": "Ann"}).get_json()
    key = {"X-Edit-Key": game["edit_key"]}
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    for _ in range(10):
        body = {"went_out": "Ann", "scores": {name: 0 for name in players}}
        assert client.post(f"/api/games/{game['id']}/rounds", json=body, headers=key).status_code == 201
    url = f"/games/{game['id']}/rounds/11"
    laid = post_form(url + "/declarer", {"declarer": "Ann", "meld-0": THIRTEEN_KINGS, "discard": "5H"})
    assert laid.status_code == 303, plain(laid)
    assert post_form(url + "/layoffs", {"player": "Bob", "onto": "1", "cards": "2C"}).status_code == 303
    words = plain(client.get(url + "/layoffs"))
    assert "in 3-13 no meld holds more than 13 cards, and this lay-off would make 14." in words


# --- the round from a loose declarer hand ------------------------------------------------------


def test_bob_scores_5_with_the_declarer_hand_through_the_api_as_the_cli(client: FlaskClient) -> None:
    body = {
        "variant": "pay-me-family",
        "round": 3,
        "hand": "6D QS QC QH 4C",
        "declarer_hand": "JK 8D 9D KS KC KH",
    }
    response = client.post("/api/best", json=body)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["penalty"] == 5
    args = ["--variant", "pay-me-family", "--round", "3", "--declarer-hand", "JK 8D 9D KS KC KH", "6D QS QC QH 4C"]
    assert answer == cli("best", *args)
