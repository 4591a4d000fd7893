"""Contract Rummy in the JSON API (issue 15): POST /api/contract answers as ``python -m engine contract``;
/api/check, /api/best and /api/layoff take contract-rummy (lay-offs onto any meld on the table)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from openapi_schema_validator import OAS31Validator

from tests.app.test_disputes_api import cli

CONTRACTS = [
    (
        ["--variant", "contract-rummy", "--round", "3", "5H 6H 7H 8H"],
        {"variant": "contract-rummy", "round": 3, "melds": ["5H 6H 7H 8H"]},
    ),
    (
        ["--variant", "contract-rummy", "--round", "3", "5H 6H 7H 8H", "9S 10S JK QS"],
        {"variant": "contract-rummy", "round": 3, "melds": ["5H 6H 7H 8H", "9S 10S JK QS"]},
    ),
    (
        ["--variant", "contract-rummy", "--round", "1", "5H 5S 5D", "KC KD JK", "9C 9D 9H"],
        {"variant": "contract-rummy", "round": 1, "melds": ["5H 5S 5D", "KC KD JK", "9C 9D 9H"]},
    ),
    (
        ["--variant", "contract-rummy", "--round", "1", "--set", "twos_wild=true", "5H 5S 2D", "KC KD JK"],
        {"variant": "contract-rummy", "round": 1, "options": {"twos_wild": True}, "melds": ["5H 5S 2D", "KC KD JK"]},
    ),
    (
        ["--variant", "contract-rummy", "--round", "2", "--players", "3", "5H 5S 5D", "JK JK 7C 8C"],
        {"variant": "contract-rummy", "round": 2, "players": 3, "melds": ["5H 5S 5D", "JK JK 7C 8C"]},
    ),
    (
        ["--variant", "contract-rummy", "--round", "1", "JK JK JK", "KC KD KS"],
        {"variant": "contract-rummy", "round": 1, "melds": ["JK JK JK", "KC KD KS"]},
    ),
]


def validator(client: FlaskClient, path: str) -> OAS31Validator:
    document = client.get("/api/openapi.json").get_json()
    schema = document["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    return OAS31Validator({**schema, "components": document["components"]})


@pytest.mark.parametrize(("args", "body"), CONTRACTS)
def test_contract_answers_as_the_command_line(client: FlaskClient, args: list[str], body: dict[str, Any]) -> None:
    response = client.post("/api/contract", json=body)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer == cli("contract", *args)
    assert list(answer) == ["valid", "reason", "melds"]
    validator(client, "/api/contract").validate(answer)


def test_contract_says_why_in_words(client: FlaskClient) -> None:
    one_run = client.post("/api/contract", json={"variant": "contract-rummy", "round": 3, "melds": ["5H 6H 7H 8H"]})
    assert one_run.get_json()["reason"] == "deal 3 needs two runs; this is one run"
    extra = client.post(
        "/api/contract", json={"variant": "contract-rummy", "round": 1, "melds": ["5H 5S 5D", "KC KD JK", "9C 9D 9H"]}
    ).get_json()
    assert extra["valid"] is False and extra["reason"] == "deal 1 needs two sets; these are three sets"
    down = client.post(
        "/api/contract", json={"variant": "contract-rummy", "round": 3, "melds": ["5H 6H 7H 8H", "9S 10S JK QS"]}
    ).get_json()
    assert down["valid"] is True and down["reason"] is None
    assert [meld["kind"] for meld in down["melds"]] == ["run", "run"]


def test_check_and_best_take_contract_rummy(client: FlaskClient) -> None:
    short = client.post("/api/check", json={"variant": "contract-rummy", "round": 1, "melds": ["5H 6H 7H"]})
    assert short.status_code == 200
    assert short.get_json() == cli("check", "--variant", "contract-rummy", "--round", "1", "5H 6H 7H")
    assert "a run needs at least 4 cards" in short.get_json()["melds"][0]["reason"]
    # Held cards count in full (A 15, K 10, joker 15, 5s face value), even those that would make a meld.
    best = client.post("/api/best", json={"variant": "contract-rummy", "round": 1, "hand": "AH KS JK 5C 5D 5H"})
    assert best.status_code == 200
    assert best.get_json() == {"penalty": 55, "melds": [], "unmelded": ["AH", "KS", "JK", "5C", "5D", "5H"]}
    assert best.get_json() == cli("best", "--variant", "contract-rummy", "--round", "1", "AH KS JK 5C 5D 5H")
    aces = client.post(
        "/api/best", json={"variant": "contract-rummy", "round": 1, "hand": "AH", "options": {"ace_points": 20}}
    )
    assert aces.get_json()["penalty"] == 20


def test_best_takes_a_hand_grown_by_buys(client: FlaskClient) -> None:
    """12 cards dealt, three buys of two cards, one drawn: 19 cards, more than the other presets allow."""
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS 2S 3S 4S 5S 6S"
    response = client.post("/api/best", json={"variant": "contract-rummy", "round": 7, "hand": hand})
    assert response.status_code == 200
    assert response.get_json()["penalty"] == 15 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30 + 15 + 2 + 3 + 4 + 5 + 6
    too_many = client.post("/api/best", json={"variant": "pay-me", "round": 11, "hand": hand})
    assert too_many.status_code == 400 and "at most 16 cards" in too_many.get_json()["error"]


def test_layoff_onto_any_meld_on_the_table(client: FlaskClient) -> None:
    body = {
        "variant": "contract-rummy",
        "round": 3,
        "table": ["5H 6H 7H 8H", "9S 10S JK QS"],
        "onto": 2,
        "cards": "KS",
    }
    response = client.post("/api/layoff", json=body)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer == cli(
        "layoff",
        "--variant",
        "contract-rummy",
        "--round",
        "3",
        "--meld",
        "5H 6H 7H 8H",
        "--meld",
        "9S 10S JK QS",
        "--onto",
        "2",
        "KS",
    )
    assert answer["valid"] is True
    assert answer["table"] == [["5H", "6H", "7H", "8H"], ["9S", "10S", "JK=JS", "QS", "KS"]]
    validator(client, "/api/layoff").validate(answer)
    onto_joker = client.post("/api/layoff", json=body | {"cards": "JS"}).get_json()
    assert onto_joker["valid"] is False and onto_joker["code"] == "replaces_wild"


ERRORS = [
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": 1},
        "contract needs variant, round, melds; melds is missing",
    ),
    ("/api/contract", {"round": 1, "melds": ["5H"]}, "contract needs variant, round, melds; variant is missing"),
    ("/api/contract", {"variant": "contract-rummy", "round": 8, "melds": ["5H 5S 5D"]}, "round 8 does not exist"),
    ("/api/contract", {"variant": "contract-rummy", "round": 0, "melds": ["5H 5S 5D"]}, "round 0 does not exist"),
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": "3", "melds": ["5H 5S 5D"]},
        'round must be a whole number, not "3"',
    ),
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": 1, "melds": ["5H 7X 5D"]},
        '"7X" at position 2 is not a card',
    ),
    ("/api/contract", {"variant": "contract-rummy", "round": 1, "melds": []}, "give at least one meld"),
    ("/api/contract", {"variant": "contract-rummy", "round": 1, "melds": "5H 5S 5D"}, "melds must be a list of melds"),
    ("/api/contract", {"variant": "poker", "round": 1, "melds": ["5H 5S 5D"]}, 'unknown variant "poker"'),
    ("/api/contract", {"variant": "pay-me", "round": 1, "melds": ["5H 5S 5D"]}, "Pay Me has no contracts"),
    ("/api/contract", {"variant": "play-or-pay", "round": 1, "melds": ["5H"]}, "played in hands, not rounds"),
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": 1, "melds": ["5H 5S 5D"], "options": {"full_cycle": True}},
        'Contract Rummy has no house rule "Full cycle"',
    ),
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": 1, "melds": ["5H 5S 5D"], "players": 2},
        "Contract Rummy takes 3 to 8 players",
    ),
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": 1, "melds": ["5H 5H 5H"], "players": 3},
        '"5H" appears 3 times',
    ),
    (
        "/api/contract",
        {"variant": "contract-rummy", "round": 1, "melds": ["5H"], "discard": "5S"},
        'unknown field "discard"',
    ),
    ("/api/check", {"variant": "contract-rummy", "round": 9, "melds": ["5H 5S 5D"]}, "round 9 does not exist"),
    ("/api/best", {"variant": "contract-rummy", "round": 1, "hand": "AH 7X"}, '"7X" at position 2 is not a card'),
    ("/api/best", {"variant": "contract-rummy", "round": 1, "hand": "AH " * 61}, "a hand holds at most 60 cards"),
    ("/api/layoff", {"variant": "contract-rummy", "round": 3, "onto": 1, "cards": "9H"}, "table is missing"),
    (
        "/api/layoff",
        {"variant": "contract-rummy", "round": 3, "table": "5H 6H 7H 8H", "onto": 1, "cards": "9H"},
        "table must be a list of melds",
    ),
    (
        "/api/layoff",
        {"variant": "pay-me", "round": 3, "table": ["5H 6H 7H 8H"], "onto": 1, "cards": "9H"},
        "only onto the melds of the player who went out",
    ),
    (
        "/api/layoff",
        {"variant": "contract-rummy", "round": 3, "table": ["5H 6H 7X 8H"], "onto": 1, "cards": "9H"},
        '"7X" at position 3 is not a card',
    ),
]


@pytest.mark.parametrize(("path", "body", "message"), ERRORS)
def test_bad_input_is_a_400_with_one_sentence(client: FlaskClient, path: str, body: Any, message: str) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 400
    answer = response.get_json()
    assert list(answer) == ["error"]
    assert message in answer["error"], answer["error"]
    assert "\n" not in answer["error"] and answer["error"].count(". ") == 0
