"""Five Crowns in the JSON API (issue 29, RULES.md 10): the worked examples of section 10.8 answer
through /api/check and /api/best exactly as ``python -m engine`` does; a game starts, scores, is
refused in one sentence where its input is wrong, and the OpenAPI document names the game."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.penalties import max_points
from engine.rules import PRESETS, rule_set
from engine.schedule import round_info
from tests.app.test_contract_rummy_api import validator
from tests.app.test_disputes_api import cli
from tests.conftest import api_game, edit_key

FC = "five-crowns"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]

ELEVEN = "4H 5H 6H 7H 8H 9H 10H JH QH KH JK"
CHECKS = [  # RULES.md 10.8, examples 1 to 4
    (["--round", "4", "KS KD KH KH"], {"round": 4, "melds": ["KS KD KH KH"]}, True),
    (
        ["--round", "4", "--set", "distinct_suit_sets=true", "KS KD KH KH"],
        {"round": 4, "options": {"distinct_suit_sets": True}, "melds": ["KS KD KH KH"]},
        True,
    ),
    (
        ["--round", "4", "--set", "distinct_suit_sets=true", "KS KS KH"],
        {"round": 4, "options": {"distinct_suit_sets": True}, "melds": ["KS KS KH"]},
        False,
    ),
    (
        ["--round", "4", "--set", "distinct_suit_sets=true", "KS KS KH JK"],
        {"round": 4, "options": {"distinct_suit_sets": True}, "melds": ["KS KS KH JK"]},
        True,
    ),
    (["--round", "5", "9D 7C JD", "8C 8R 8S"], {"round": 5, "melds": ["9D 7C JD", "8C 8R 8S"]}, True),
    (["--round", "5", "6D 7R 7H 9D"], {"round": 5, "melds": ["6D 7R 7H 9D"]}, True),
    (["--round", "6", "8S QS QR"], {"round": 6, "melds": ["8S QS QR"]}, True),
    (["--round", "1", "8S QS QR"], {"round": 1, "melds": ["8S QS QR"]}, False),
    (["--round", "11", ELEVEN], {"round": 11, "melds": [ELEVEN]}, True),
    (["--round", "11", "3H " + ELEVEN], {"round": 11, "melds": ["3H " + ELEVEN]}, False),
]

BESTS = [  # RULES.md 10.8, examples 5 to 8
    (["--round", "1", "3H 3S KD"], {"round": 1, "hand": "3H 3S KD"}, 0),
    (["--round", "2", "4H 5S 9C KR"], {"round": 2, "hand": "4H 5S 9C KR"}, 47),
    (["--round", "11", "KH"], {"round": 11, "hand": "KH"}, 20),
    (["--round", "10", "KH"], {"round": 10, "hand": "KH"}, 13),
    (["--round", "1", "JK JK JK"], {"round": 1, "hand": "JK JK JK"}, 0),
    (
        ["--round", "1", "--set", "wild_limit=not_more_than_naturals", "JK JK JK"],
        {"round": 1, "options": {"wild_limit": "not_more_than_naturals"}, "hand": "JK JK JK"},
        150,
    ),
]


@pytest.mark.parametrize(("args", "body", "valid"), CHECKS)
def test_check_answers_the_worked_examples_as_the_command_line(
    client: FlaskClient, args: list[str], body: dict[str, Any], valid: bool
) -> None:
    response = client.post("/api/check", json={"variant": FC, **body})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer == cli("check", "--variant", FC, *args)
    assert answer["valid"] is valid
    validator(client, "/api/check").validate(answer)


def test_check_shows_how_it_read_a_run_with_stars(client: FlaskClient) -> None:
    answer = client.post("/api/check", json={"variant": FC, "round": 5, "melds": ["9D 7C JD", "8C 8R 8S"]}).get_json()
    assert answer["melds"][0]["reading_text"] == "read as 9♦ 10♦ J♦"
    assert answer["melds"][1]["cards"] == ["8C", "8R", "8S"] and answer["melds"][1]["kind"] == "set"


@pytest.mark.parametrize(("args", "body", "penalty"), BESTS)
def test_best_answers_the_worked_examples_as_the_command_line(
    client: FlaskClient, args: list[str], body: dict[str, Any], penalty: int
) -> None:
    response = client.post("/api/best", json={"variant": FC, **body})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert answer == cli("best", "--variant", FC, *args)
    assert answer["penalty"] == penalty
    validator(client, "/api/best").validate(answer)


def test_a_lay_off_onto_the_declarer_with_the_house_option(client: FlaskClient) -> None:
    body = {"variant": FC, "round": 3, "options": {"lay_offs": True}, "declarer": ["6H 7H 8H"], "hand": "9H"}
    answer = client.post("/api/best", json=body).get_json()
    assert answer["penalty"] == 0
    assert answer["layoffs"] == [{"meld": 1, "cards": ["9H"]}]


ERRORS = [
    ("/api/check", {"variant": FC, "round": 1, "melds": ["AH AS AD"]}, '"AH"'),
    ("/api/best", {"variant": FC, "round": 1, "hand": "2C 7R 8R"}, '"2C"'),
    ("/api/best", {"variant": "pay-me", "round": 1, "hand": "7R 8S 9S"}, '"7R"'),
    ("/api/check", {"variant": "three-thirteen", "round": 1, "melds": ["7★ 7H 7S"]}, "is not a card of Three Thirteen"),
    ("/api/best", {"variant": FC, "round": 12, "hand": "7R"}, "12"),
    ("/api/best", {"variant": FC, "round": 1, "options": {"full_cycle": True}, "hand": "7R"}, 'rule "full cycle"'),
    ("/api/games", {"variant": FC, "players": [f"P{n}" for n in range(8)]}, "2 to 7 players"),
    ("/api/games", {"variant": FC, "players": ["Ann", "Bob"], "options": {"ace": "high"}}, "ace"),
]


@pytest.mark.parametrize(("path", "body", "quoted"), ERRORS)
def test_bad_input_is_a_400_naming_what_is_wrong(client: FlaskClient, path: str, body: Any, quoted: str) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 400, response.get_json()
    answer = response.get_json()
    assert list(answer) == ["error"]
    assert quoted.lower() in answer["error"].lower(), answer["error"]
    assert "\n" not in answer["error"]


def test_a_game_starts_and_each_round_has_its_wild_rank_and_deck(client: FlaskClient) -> None:
    game = api_game(client, FC, PLAYERS, "Ann")
    assert game["variant"] == FC and game["options"]["lay_offs"] is False
    plan = game["next_round"]
    assert plan["round"] == 1 and plan["cards"] == 3 and plan["wild"] == ["JK", "3"]
    assert plan["decks"] == 2 and plan["jokers"] == 6
    assert plan["dealer"] == "Ann" and plan["first_player"] == "Bob"


def test_scores_are_checked_against_the_rounds_most_possible_points(client: FlaskClient) -> None:
    game = api_game(client, FC, PLAYERS, "Ann")
    rules = rule_set(FC)
    most = max_points(rules, round_info(rules, 1), len(PLAYERS))
    body = {"went_out": "Bob", "scores": {"Ann": most + 1, "Bob": 0, "Cy": 5, "Dee": 0}, "version": game["version"]}
    refused = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert refused.status_code == 400
    assert str(most) in refused.get_json()["error"] and "Ann" in refused.get_json()["error"]
    body["scores"]["Ann"] = most
    saved = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert saved.status_code == 201, saved.get_json()
    assert saved.get_json()["totals"] == {"Ann": most, "Bob": 0, "Cy": 5, "Dee": 0}


def test_a_round_scored_from_the_cards(client: FlaskClient) -> None:
    game = api_game(client, FC, PLAYERS, "Ann")
    hands = {"Ann": "3H 3S KD", "Cy": "4H 5S 9R", "Dee": "JK 7R 8R"}
    body = {"went_out": "Bob", "hands": hands, "scores": {"Bob": 0}, "version": game["version"]}
    saved = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
    assert saved.status_code == 201, saved.get_json()
    # Round 1, 3s wild: Ann's two 3s make a book of Kings; Cy holds 4 + 5 + 9; Dee's joker makes a run.
    assert saved.get_json()["totals"] == {"Ann": 0, "Bob": 0, "Cy": 18, "Dee": 0}
    ace = {"went_out": "Bob", "hands": {"Ann": "AH 5S 9R"}, "scores": {"Bob": 0, "Cy": 1, "Dee": 1}}
    refused = client.post(f"/api/games/{game['id']}/rounds", json=ace, headers=edit_key(game))
    assert refused.status_code == 400 and '"AH"' in refused.get_json()["error"]


def test_export_and_import_keep_a_five_crowns_game(client: FlaskClient) -> None:
    game = api_game(client, FC, PLAYERS, "Ann", lay_offs=True)
    body = {"went_out": "Cy", "hands": {"Ann": "KR QR", "Bob": "5S 7R 8R"}, "scores": {"Cy": 0, "Dee": 12}}
    assert client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game)).status_code == 201
    exported = client.get(f"/api/games/{game['id']}/export", headers=edit_key(game))
    assert exported.status_code == 200
    document = exported.get_json()
    assert document["game"]["variant"] == FC
    imported = client.post("/api/games/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["variant"] == FC and copy["options"]["lay_offs"] is True
    assert copy["totals"] == {"Ann": 25, "Bob": 20, "Cy": 0, "Dee": 12}


def test_the_openapi_document_offers_five_crowns(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    assert "Five Crowns" in document["info"]["description"]
    for name in ("Pay Me", "Three Thirteen", "Contract Rummy"):
        assert name in document["info"]["description"]
    variants = document["components"]["schemas"]["NewGame"]["properties"]["variant"]["enum"]
    assert FC in variants
    assert PRESETS[FC].name == "Five Crowns"


def test_a_group_counts_its_five_crowns_games(client: FlaskClient) -> None:
    made = client.post("/api/groups", json={"name": "Fridays", "players": PLAYERS})
    assert made.status_code == 201, made.get_json()
    group = made.get_json()
    body = {"variant": FC, "players": PLAYERS, "first_dealer": "Ann", "group": group["id"]}
    started = client.post("/api/games", json=body, headers={"X-Group-Key": group["edit_key"]})
    assert started.status_code == 201, started.get_json()
    game = started.get_json()
    for number in range(1, 12):  # eleven rounds; Ann goes out every time
        body = {"went_out": "Ann", "scores": {"Ann": 0, "Bob": number, "Cy": 2 * number, "Dee": 3}}
        saved = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=edit_key(game))
        assert saved.status_code == 201, saved.get_json()
    assert saved.get_json()["finished"] is True and saved.get_json()["winners"] == ["Ann"]
    figures = client.get(f"/api/groups/{group['id']}").get_json()
    assert [(played["variant"], played["name"]) for played in figures["games"]] == [(FC, "Five Crowns")]
    ann = next(player for player in figures["players"] if player["name"] == "Ann")
    assert ann["games"] == 1 and ann["wins"] == 1


def test_layoff_answers_as_the_command_line_with_and_without_the_house_option(client: FlaskClient) -> None:
    args = ["layoff", "--variant", FC, "--round", "3", "--declarer", "6H 7H 8H", "--onto", "1"]
    body = {"variant": FC, "round": 3, "declarer": ["6H 7H 8H"], "onto": 1, "cards": "9H"}
    allowed = client.post("/api/layoff", json={**body, "options": {"lay_offs": True}}).get_json()
    assert allowed == cli(*args, "--set", "lay_offs=true", "9H")
    assert allowed["valid"] is True and allowed["declarer"] == [["6H", "7H", "8H", "9H"]]
    refused = client.post("/api/layoff", json=body).get_json()
    assert refused == cli(*args, "9H")
    assert refused["valid"] is False and refused["reason"] == "Five Crowns has no lay-offs: cards left in hand score."
    validator(client, "/api/layoff").validate(refused)
