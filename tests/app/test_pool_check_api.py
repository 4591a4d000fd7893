"""Pool rummy's shows and counts through the JSON API (issue 30): ``POST /api/check`` and ``/api/best``
with ``cut`` or ``wild`` answer exactly what ``python -m engine check|best --cut|--wild`` prints, the
worked examples of RULES.md 11.7 hold, and bad input is one sentence."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.app.test_disputes_api import cli

SHOW_1 = ["2H 3H 4H", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C"]
SHOW_2 = ["2H 3H 7C", "5S 6S JK 8S", "KC KD KH", "9D 9S 9C"]
HAND_6 = "2H 3H 4H KC KD KH 9D 9S 9C 5S 5D 5C 6H"


def check(client: FlaskClient, body: dict[str, Any]) -> Any:
    response = client.post("/api/check", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


TWINS = [
    (["--variant", "pool-101", "--cut", "7H", *SHOW_1], {"variant": "pool-101", "cut": "7H", "melds": SHOW_1}),
    (["--variant", "pool-101", "--wild", "7", *SHOW_2], {"variant": "pool-101", "wild": "7", "melds": SHOW_2}),
    (["--variant", "pool-201", "--cut", "JK", "5S 6S AD"], {"variant": "pool-201", "cut": "JK", "melds": ["5S 6S AD"]}),
    (
        ["--variant", "pool-101", "--round", "3", "--cut", "9S", "9D 9D 9C"],
        {"variant": "pool-101", "round": 3, "cut": "9S", "melds": ["9D 9D 9C"]},
    ),
]


@pytest.mark.parametrize(("args", "body"), TWINS)
def test_check_answers_as_the_command_line(client: FlaskClient, args: list[str], body: dict[str, Any]) -> None:
    assert check(client, body) == cli("check", *args)


@pytest.mark.parametrize(
    ("args", "body"),
    [
        (["--variant", "pool-201", "--wild", "7", HAND_6], {"variant": "pool-201", "wild": "7", "hand": HAND_6}),
        (
            ["--variant", "pool-101", "--cut", "7D", "2H 3H 4H 5S 6S 7C KD QD 9S 9C 9H 10D 2C"],
            {"variant": "pool-101", "cut": "7D", "hand": "2H 3H 4H 5S 6S 7C KD QD 9S 9C 9H 10D 2C"},
        ),
    ],
)
def test_best_answers_as_the_command_line(client: FlaskClient, args: list[str], body: dict[str, Any]) -> None:
    response = client.post("/api/best", json=body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == cli("best", *args)


def test_example_1_a_valid_show(client: FlaskClient) -> None:
    answer = check(client, {"variant": "pool-101", "cut": "7H", "melds": SHOW_1})
    assert answer["show"] == {"valid": True, "code": None, "reason": None, "cards": 13, "penalty": 0}
    assert [meld["pure"] for meld in answer["melds"]] == [True, False, False, False]
    assert [meld["kind"] for meld in answer["melds"]] == ["run", "run", "set", "set"]


def test_example_2_a_wild_seven_spoils_the_pure_sequence(client: FlaskClient) -> None:
    answer = check(client, {"variant": "pool-101", "cut": "7H", "melds": SHOW_2})
    assert answer["valid"] is True
    assert answer["show"]["code"] == "no_pure_sequence"
    assert answer["show"]["penalty"] == 80
    assert "every sequence holds a wild card" in answer["show"]["reason"]


def test_example_3_a_wild_in_its_own_place_is_natural(client: FlaskClient) -> None:
    answer = check(client, {"variant": "pool-101", "cut": "7D", "melds": ["6H 7H 8H", "6H 7S 8H"]})
    assert [meld["pure"] for meld in answer["melds"]] == [True, False]
    assert check(client, {"variant": "pool-101", "cut": "9S", "melds": ["9D 9D 9C"]})["melds"][0]["kind"] == "set"
    assert check(client, {"variant": "pool-101", "cut": "7S", "melds": ["9D 9D 9C"]})["melds"][0]["valid"] is False


def test_example_4_a_printed_joker_cut_makes_the_aces_wild(client: FlaskClient) -> None:
    answer = check(client, {"variant": "pool-101", "cut": "JK", "melds": ["AH 2H 3H", "5S 6S AD"]})
    assert [(meld["valid"], meld["pure"]) for meld in answer["melds"]] == [(True, True), (True, False)]
    only = {"printed_joker_cut": "jokers_only"}
    answer = check(client, {"variant": "pool-101", "cut": "JK", "options": only, "melds": ["5S 6S AD"]})
    assert answer["melds"][0]["valid"] is False


def test_example_5_aces_high_or_low_never_round_the_corner(client: FlaskClient) -> None:
    answer = check(client, {"variant": "pool-101", "cut": "5C", "melds": ["QH KH AH", "KH AH 2H"]})
    assert [meld["valid"] for meld in answer["melds"]] == [True, False]
    joker = check(client, {"variant": "pool-101", "cut": "5C", "melds": ["KH AH JK"]})["melds"][0]
    assert joker["valid"] is True
    assert sorted(joker["read_as"]) == ["AH", "KH", "QH"]


def test_example_6_without_two_sequences_every_card_counts(client: FlaskClient) -> None:
    response = client.post("/api/best", json={"variant": "pool-201", "wild": "7", "hand": HAND_6})
    assert response.get_json() == {
        "penalty": 80,
        "count": 87,
        "lives": False,
        "melds": [],
        "unmelded": HAND_6.split(),
    }


ERRORS = [
    ("/api/check", {"variant": "pool-101", "melds": SHOW_1}, "give the deal's wild rank: cut"),
    ("/api/check", {"variant": "pool-101", "cut": "7H", "wild": "7", "melds": SHOW_1}, "give cut or wild, not both"),
    ("/api/check", {"variant": "pool-101", "cut": "7X", "melds": SHOW_1}, 'the cut card "7X" is not a card'),
    ("/api/check", {"variant": "pool-101", "cut": "7H 8H", "melds": SHOW_1}, 'the cut is one card, not "7H 8H"'),
    (
        "/api/check",
        {"variant": "pool-101", "cut": "JK", "options": {"jokers_per_deck": 0}, "melds": SHOW_1},
        'the cut card "JK" is not in the deck',
    ),
    ("/api/check", {"variant": "pool-101", "wild": "11", "melds": SHOW_1}, 'the wild rank "11" is not a rank'),
    ("/api/check", {"variant": "pool-101", "cut": 7, "melds": SHOW_1}, "cut must be a card"),
    ("/api/check", {"variant": "pool-101", "cut": "7H", "melds": []}, "give at least one meld"),
    ("/api/check", {"variant": "pool-101", "cut": "7H", "melds": ["2H 3H 7X"]}, '"7X" at position 3 is not a card'),
    ("/api/check", {"variant": "pool-101", "cut": "7H", "melds": ["JK JK JK"]}, '"JK" appears 3 times'),
    ("/api/check", {"variant": "pool-101", "cut": "7H", "melds": ["2H 3H 4H"] * 6}, "not 18"),
    (
        "/api/check",
        {"variant": "pool-101", "options": {"cut_joker": False}, "cut": "7H", "melds": SHOW_1},
        "cut is not allowed: with the cut joker off",
    ),
    ("/api/check", {"variant": "pay-me", "round": 1, "cut": "7H", "melds": SHOW_1}, "cut and wild are for pool rummy"),
    ("/api/best", {"variant": "pool-101", "cut": "7H", "hand": "2H " * 17}, "not 17"),
    ("/api/best", {"variant": "pool-101", "cut": "7H", "hand": " , "}, "the hand has no cards"),
    ("/api/best", {"variant": "pool-101", "cut": "7H", "hand": "2H", "declarer": ["4H 5H 6H"]}, "no lay-offs"),
    ("/api/best", {"variant": "pool-101", "hand": "2H 3H"}, "give the deal's wild rank"),
    ("/api/layoff", {"variant": "pool-101", "declarer": ["4H 5H 6H"], "onto": 1, "cards": "7H"}, "no layoff to judge"),
    ("/api/contract", {"variant": "pool-201", "melds": ["4H 5H 6H"]}, "no contract to judge"),
    ("/api/check", {"variant": "pay-me", "melds": SHOW_1}, "check needs variant, round, melds; round is missing"),
]


@pytest.mark.parametrize(("path", "body", "says"), ERRORS)
def test_bad_input_is_one_sentence(client: FlaskClient, path: str, body: dict[str, Any], says: str) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert says in error, error
    assert "--" not in error, error


def test_a_pool_check_without_a_round_keeps_the_round_null_in_the_schema() -> None:
    from companion import schemas

    assert schemas.parse(schemas.CheckRequest, {"variant": "pool-101", "melds": ["2H 3H 4H"]}).round is None
