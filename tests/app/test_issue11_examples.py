"""Every example of issue 11 (sections 1 and 2) through the JSON API: /api/layoff, /api/best, /api/check,
and a round scored from hands; the answers are the engine's, as the command line prints them."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.api import best_json, layoff_json
from tests.conftest import api_game
from tests.conftest import edit_key as key

LONG_DIAMONDS = "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"

LEGAL_ACE_LAYOFFS = [
    # Bug A: AD 2D extend 3D..KD downwards to A-K.
    ("pay-me-family", 9, None, LONG_DIAMONDS, "AD 2D"),
    # Bug A: KS AS make the 3-13 run 2-A.
    ("3-13", 9, None, "JK 3S 4S 5S 6S 7S 8S 9S 10S JS QS", "KS AS"),
    # Bug B: with ace=both the far end is tried too.
    ("pay-me-family", 8, {"ace": "both"}, "3S 4S 5S 6S 7S 8S 9S 10S JS QS", "KS AS"),
    ("pay-me-family", 8, {"ace": "both"}, "4S 5S 6S 7S 8S 9S 10S JS QS", "AS 2S 3S"),
    ("pay-me-family", 8, {"ace": "both"}, "3S 4S 5S 6S 7S 8S 9S 10S", "JS QS KS AS"),
]


def post(client: FlaskClient, command: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"/api/{command}", json={key: value for key, value in body.items() if value is not None})
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


@pytest.mark.parametrize(("variant", "number", "options", "declarer", "cards"), LEGAL_ACE_LAYOFFS)
def test_aces_laid_off_at_the_end_of_a_run_are_legal(
    client: FlaskClient, variant: str, number: int, options: dict[str, str] | None, declarer: str, cards: str
) -> None:
    answer = post(
        client, "layoff", variant=variant, round=number, options=options, declarer=[declarer], onto=1, cards=cards
    )
    assert (answer["valid"], answer["reason"]) == (True, None)
    assert answer == layoff_json(variant, number, options, [declarer], 1, cards)
    assert sorted(item["card"] for item in answer["placements"]) == sorted(cards.split())


def test_best_lays_ace_and_two_off_below_a_long_run(client: FlaskClient) -> None:
    answer = post(client, "best", variant="pay-me-family", round=9, hand="AD 2D 9S", declarer=[LONG_DIAMONDS])
    assert (answer["penalty"], answer["unmelded"]) == (10, ["9S"])
    assert [(item["meld"], sorted(item["cards"])) for item in answer["layoffs"]] == [(1, ["2D", "AD"])]
    assert {(item["card"], item["meld"], item["place"]) for item in answer["placements"]} == {
        ("AD", 1, "low"),
        ("2D", 1, "low"),
    }
    assert answer == best_json("pay-me-family", 9, None, "AD 2D 9S", [LONG_DIAMONDS])


def test_d10_the_cards_decide_and_the_verdict_says_how_it_read_them(client: FlaskClient) -> None:
    answer = post(client, "check", variant="pay-me", round=5, melds=["5H 6H JK 2C"])
    meld = answer["melds"][0]
    assert (answer["valid"], meld["kind"]) == (True, "run")
    assert meld["reading"] == ["JK=4H", "5H", "6H", "2C=7H"]
    assert meld["reading_text"] == "read as 4♥ 5♥ 6♥ 7♥"


def test_d13_an_open_reading_is_fixed_by_the_lay_off_that_needs_it(client: FlaskClient) -> None:
    bob = post(client, "layoff", variant="pay-me-family", round=5, declarer=["5H JK 6H"], onto=1, cards="3H")
    assert bob["valid"] is True
    cy = post(
        client, "layoff", variant="pay-me-family", round=5, declarer=[" ".join(bob["declarer"][0])], onto=1, cards="8H"
    )
    assert cy["valid"] is False
    alone = post(client, "layoff", variant="pay-me-family", round=5, declarer=["5H JK 6H"], onto=1, cards="8H")
    assert alone["valid"] is True


def test_d13_in_a_round_scored_from_hands_bob_fixes_the_joker_for_cy(client: FlaskClient) -> None:
    players = ["Ann", "Bob", "Cy"]
    game = api_game(client, "pay-me-family", players, "Cy")  # Ann plays first in round 1, Bob lays off first
    for _ in range(4):
        played = client.post(
            f"/api/games/{game['id']}/rounds",
            json={"went_out": "Ann", "scores": {"Ann": 0, "Bob": 5, "Cy": 5}},
            headers=key(game),
        )
        assert played.status_code == 201
    scored = client.post(
        f"/api/games/{game['id']}/rounds",
        json={"went_out": "Ann", "declarer": ["5H JK 6H", "9C 9D 9S 9H"], "hands": {"Bob": "3H KS", "Cy": "8H KC"}},
        headers=key(game),
    )
    assert scored.status_code == 201, scored.get_json()
    fifth = scored.get_json()["rounds"][4]
    assert fifth["scores"] == {"Ann": 0, "Bob": 10, "Cy": 20}


def test_d12_aces_are_wild_in_the_full_cycle_14_card_round_even_without_aces_in_runs(client: FlaskClient) -> None:
    options = {"full_cycle": True, "no_aces_in_runs": True}
    answer = post(client, "check", variant="pay-me", round=12, options=options, melds=["5H AS 7H"])
    assert answer["valid"] is True
    assert answer["melds"][0]["reading"] == ["5H", "AS=6H", "7H"]


def test_d14_one_ace_per_run(client: FlaskClient) -> None:
    run = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"
    answer = post(client, "check", variant="pay-me-family", round=1, options={"ace": "both"}, melds=[run])
    assert answer["valid"] is False


def test_the_lay_off_chain_page_says_where_each_card_went(client: FlaskClient, post_form: Callable[..., Any]) -> None:
    game = api_game(client, "pay-me", ["Ann", "Bob", "Cy", "Dee"], "Ann")
    client.set_cookie("edit_key", game["edit_key"], path=f"/games/{game['id']}")
    url = f"/games/{game['id']}/rounds/1"
    assert post_form(url + "/declarer", {"declarer": "Bob", "meld-0": "4H 5H 6H", "discard": "KS"}).status_code == 303
    assert post_form(url + "/layoffs", {"player": "Cy", "onto": "1", "cards": "7H 8H"}).status_code == 303
    shown = client.get(url + "/layoffs").get_data(as_text=True)
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown)))
    assert "laid off (7♥ on meld 1, at the high end, 8♥ on meld 1, at the high end)" in page


def test_the_declarers_cards_may_be_given_as_a_hand_as_on_the_command_line(client: FlaskClient) -> None:
    cards = "5H JK 6H | 9C 9D 9S 9H"
    best = post(client, "best", variant="pay-me-family", round=5, hand="3H KS", declarer_hand=cards)
    assert best == best_json("pay-me-family", 5, None, "3H KS", [], None, cards)
    assert best["unmelded"] == ["KS"]
    layoff = post(client, "layoff", variant="pay-me-family", round=5, declarer_hand=cards, onto=1, cards="8H")
    assert layoff == layoff_json("pay-me-family", 5, None, [], 1, "8H", None, cards)
    assert layoff["valid"] is True
    both = client.post(
        "/api/best",
        json={"variant": "pay-me", "round": 5, "hand": "3H", "declarer": ["4H 5H 6H"], "declarer_hand": "4H 5H 6H"},
    )
    assert both.status_code == 400
    assert "not both" in both.get_json()["error"]
    missing = client.post("/api/layoff", json={"variant": "pay-me", "round": 2, "onto": 1, "cards": "7H"})
    assert missing.status_code == 400
    assert missing.get_json()["error"] == "layoff needs variant, round, declarer, onto, cards; declarer is missing"
