"""POST /api/check, /api/best and /api/layoff: the command line's answers, as JSON (issue 5)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion import ROOT


def cli(*args: str) -> Any:
    """What ``python -m engine ...`` prints, parsed."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stdout)


def post(client: FlaskClient, path: str, body: Any) -> Any:
    response = client.post(path, json=body)
    return response


CHECKS = [
    (
        ["--variant", "pay-me", "--round", "1", "3H 3S JK", "4C 5C 6C"],
        {"variant": "pay-me", "round": 1, "melds": ["3H 3S JK", "4C 5C 6C"]},
    ),
    (
        ["--variant", "pay-me", "--round", "5", "9C JK 2D QC", "9C JK JC"],
        {"variant": "pay-me", "round": 5, "melds": ["9C JK 2D QC", "9C JK JC"]},
    ),
    (["--variant", "pay-me", "--round", "3", "5H 5S 5D"], {"variant": "pay-me", "round": 3, "melds": ["5H 5S 5D"]}),
    (
        ["--variant", "pay-me", "--round", "3", "--set", "wild_in_place_natural=true", "5H 5S 5D"],
        {"variant": "pay-me", "round": 3, "options": {"wild_in_place_natural": True}, "melds": ["5H 5S 5D"]},
    ),
    (
        ["--variant", "3-13", "--round", "11", "--players", "4", "JC QC KC AC", "JK 2H 2S"],
        {"variant": "3-13", "round": 11, "players": 4, "melds": ["JC QC KC AC", "JK 2H 2S"]},
    ),
    (
        ["--variant", "three-thirteen", "--round", "2", "--set", "ace=both", "QH KH AH"],
        {"variant": "three-thirteen", "round": 2, "options": ["ace=both"], "melds": ["QH KH AH"]},
    ),
]

BESTS = [
    (["--variant", "pay-me", "--round", "1", "3H 7S JK"], {"variant": "pay-me", "round": 1, "hand": "3H 7S JK"}),
    (
        ["--variant", "pay-me", "--round", "11", "AS 5S 9S 3H 7H JH QH 2D 8D KD 4C 10C JK"],
        {"variant": "pay-me", "round": 11, "hand": "AS 5S 9S 3H 7H JH QH 2D 8D KD 4C 10C JK"},
    ),
    (
        ["--variant", "pay-me", "--round", "1", "--declarer", "4H 5H 6H", "7H 8H KS"],
        {"variant": "pay-me", "round": 1, "declarer": ["4H 5H 6H"], "hand": "7H 8H KS"},
    ),
    (
        ["--variant", "3-13", "--round", "10", "--players", "3", "AH 7C JK"],
        {"variant": "3-13", "round": 10, "players": 3, "hand": "AH 7C JK"},
    ),
]

LAYOFFS = [
    (
        ["--variant", "pay-me", "--round", "2", "--declarer", "4H 5H 6H", "--onto", "1", "7H"],
        {"variant": "pay-me", "round": 2, "declarer": ["4H 5H 6H"], "onto": 1, "cards": "7H"},
    ),
    (
        ["--variant", "pay-me", "--round", "1", "--declarer", "4H 5H 6H 7H", "--onto", "1", "7H"],
        {"variant": "pay-me", "round": 1, "declarer": ["4H 5H 6H 7H"], "onto": 1, "cards": "7H"},
    ),
    (
        ["--variant", "pay-me", "--round", "5", "--declarer", "9C JK JC", "--onto", "1", "10C"],
        {"variant": "pay-me", "round": 5, "declarer": ["9C JK JC"], "onto": 1, "cards": "10C"},
    ),
    (
        ["--variant", "three-thirteen", "--round", "1", "--declarer", "4H 5H 6H", "--onto", "1", "7H"],
        {"variant": "three-thirteen", "round": 1, "declarer": ["4H 5H 6H"], "onto": 1, "cards": "7H"},
    ),
    (
        ["--variant", "pay-me", "--round", "2", "--declarer", "4H 5H 6H", "--onto", "2", "7H"],
        {"variant": "pay-me", "round": 2, "declarer": ["4H 5H 6H"], "onto": 2, "cards": "7H"},
    ),
]


@pytest.mark.parametrize(("args", "body"), CHECKS)
def test_check_answers_as_the_command_line(client: FlaskClient, args: list[str], body: dict[str, Any]) -> None:
    response = post(client, "/api/check", body)
    assert response.status_code == 200
    assert response.get_json() == cli("check", *args)


@pytest.mark.parametrize(("args", "body"), BESTS)
def test_best_answers_as_the_command_line(client: FlaskClient, args: list[str], body: dict[str, Any]) -> None:
    response = post(client, "/api/best", body)
    assert response.status_code == 200
    assert response.get_json() == cli("best", *args)


@pytest.mark.parametrize(("args", "body"), LAYOFFS)
def test_layoff_answers_as_the_command_line(client: FlaskClient, args: list[str], body: dict[str, Any]) -> None:
    response = post(client, "/api/layoff", body)
    assert response.status_code == 200
    assert response.get_json() == cli("layoff", *args)


def test_answers_keep_the_engine_key_order(client: FlaskClient) -> None:
    raw = client.post("/api/check", json={"variant": "pay-me", "round": 1, "melds": ["4C 5C 6C"]}).get_data(
        as_text=True
    )
    assert raw.index('"valid"') < raw.index('"melds"')
    answer = client.post(
        "/api/best", json={"variant": "pay-me", "round": 1, "hand": "7H 8H KS", "declarer": ["4H 5H 6H"]}
    )
    assert answer.get_json()["penalty"] == 10
    assert answer.get_json()["layoffs"] == [{"meld": 1, "cards": ["7H", "8H"]}]


def test_a_verdict_has_a_reason_in_plain_words(client: FlaskClient) -> None:
    answer = post(client, "/api/check", {"variant": "pay-me", "round": 5, "melds": ["9C JK 2D QC"]}).get_json()
    meld = answer["melds"][0]
    assert meld["valid"] is False
    assert "two wild cards may not be next to each other" in meld["reason"]
    legal = post(client, "/api/check", {"variant": "pay-me", "round": 5, "melds": ["9C JK JC"]}).get_json()
    assert legal["melds"][0]["read_as"] == ["9C", "10C", "JC"]


ERRORS = [
    ("/api/check", {"variant": "pay-me", "round": 1}, "check needs variant, round, melds; melds is missing"),
    ("/api/check", {"round": 1, "melds": ["3H"]}, "check needs variant, round, melds; variant is missing"),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": "3H 3S JK"}, "melds must be a list of melds"),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": [3]}, "melds must be a list of melds"),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": []}, "give at least one meld"),
    ("/api/check", {"variant": "pay-me", "round": "1", "melds": ["3H"]}, 'round must be a whole number, not "1"'),
    ("/api/check", {"variant": "pay-me", "round": True, "melds": ["3H"]}, "round must be a whole number"),
    ("/api/check", {"variant": "pay-me", "round": 12, "melds": ["3H"]}, "round 12 does not exist"),
    ("/api/check", {"variant": "nope", "round": 1, "melds": ["3H"]}, 'unknown variant "nope"'),
    ("/api/check", {"variant": 7, "round": 1, "melds": ["3H"]}, "variant must be a preset id"),
    ("/api/check", {"variant": "play-or-pay", "round": 1, "melds": ["3H"]}, "played in hands, not rounds"),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": ["3H 7X"]}, '"7X" at position 2 is not a card'),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": ["3H 3S"], "colour": "red"}, 'unknown field "colour"'),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": ["3H"], "options": "full_cycle"}, "options must be"),
    (
        "/api/check",
        {"variant": "pay-me", "round": 1, "melds": ["3H"], "options": {"fast": True}},
        'unknown option "fast"',
    ),
    (
        "/api/check",
        {"variant": "pay-me", "round": 1, "melds": ["3H"], "players": "3"},
        "players must be a whole number",
    ),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": ["3H"], "players": 12}, "Pay Me takes 2 to 8 players"),
    ("/api/check", {"variant": "pay-me", "round": 1, "melds": ["7H 7H 7H"], "players": 2}, '"7H" appears 3 times'),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": ["3H"]}, "hand must be a string of cards"),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": "3H=4H"}, "a hand takes plain cards"),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": "3H", "declarer": "4H 5H 6H"}, "declarer must be a list"),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": "3H", "declarer": ["4H 5C 6H"]}, "declarer's meld 1"),
    ("/api/best", {"variant": "pay-me", "hand": "3H"}, "round is missing"),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": " , "}, "the hand has no cards"),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": "3H " * 17}, "a hand holds at most 16 cards"),
    (
        "/api/layoff",
        {"variant": "pay-me", "round": 2, "declarer": ["4H 5H 6H"], "onto": "1", "cards": "7H"},
        'onto must be a meld number, not "1"',
    ),
    (
        "/api/layoff",
        {"variant": "pay-me", "round": 2, "declarer": ["4H 5H 6H"], "onto": 1, "cards": ""},
        "give at least one card",
    ),
    (
        "/api/layoff",
        {"variant": "pay-me", "round": 2, "declarer": ["4H 5H 6H"], "onto": 1, "cards": 7},
        "cards must be a string",
    ),
    ("/api/layoff", {"variant": "pay-me", "round": 2, "onto": 1, "cards": "7H"}, "declarer is missing"),
    (
        "/api/layoff",
        {"variant": "three-thirteen", "round": 4, "declarer": ["JK JK JK"], "onto": 1, "cards": "5D"},
        "this game is played without jokers",
    ),
]


@pytest.mark.parametrize(("path", "body", "message"), ERRORS)
def test_bad_input_is_a_400_with_one_sentence(client: FlaskClient, path: str, body: Any, message: str) -> None:
    response = post(client, path, body)
    assert response.status_code == 400
    answer = response.get_json()
    assert list(answer) == ["error"]
    assert message in answer["error"]
    assert "\n" not in answer["error"]


@pytest.mark.parametrize("path", ["/api/check", "/api/best", "/api/layoff"])
def test_malformed_json_and_other_bodies(client: FlaskClient, path: str) -> None:
    for data in ["{", "[]", "null", '"melds"', "", "x" * 100]:
        response = client.post(path, data=data, content_type="application/json")
        assert response.status_code == 400
        assert response.get_json() == {"error": "the request body must be a JSON object"}
    deep = client.post(path, data="[" * 5000 + "]" * 5000, content_type="application/json")
    assert deep.status_code == 400
    assert client.get(path).status_code == 405
    assert client.get(path).get_json() == {"error": "GET is not allowed at this address"}


def test_an_engine_error_reads_as_the_command_line_says_it(client: FlaskClient) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "check", "--variant", "pay-me", "--round", "1", "3H 7X"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    response = post(client, "/api/check", {"variant": "pay-me", "round": 1, "melds": ["3H 7X"]})
    assert done.stderr.strip() == "error: " + response.get_json()["error"]


def test_the_openapi_document_lists_the_checks(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    for path in ("/api/check", "/api/best", "/api/layoff"):
        assert "post" in document["paths"][path]
    assert "hands" in document["components"]["schemas"]["RoundEntry"]["properties"]
    assert "declarer" in document["components"]["schemas"]["RoundEntry"]["properties"]
    from openapi_spec_validator import validate

    validate(document)
